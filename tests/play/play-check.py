#!/usr/bin/env python3
"""stpete-play as a real terminal program (issue 14), TAP output.

    play-check.py pty   STPETE_PLAY [PYTHON_PACKAGE_DIR LIBRARY]
    play-check.py plain STPETE_PLAY [PYTHON_PACKAGE_DIR LIBRARY]
    play-check.py tmux  STPETE_PLAY PYTHON_PACKAGE_DIR LIBRARY

pty: the program runs in a pseudo-terminal (Python's pty module: a controlling terminal of a set size, Ctrl-C and
Ctrl-D as the terminal driver delivers them). A person's whole game is played to the final scores, typing numbers
and unique prefixes of actions; what the screen shows is checked at chosen points: the board with each card's price
and the legal actions (against the library, through the Python binding, on the game saved at that point), colours,
an ambiguous and an unknown command refused with the state unchanged, save then load, the hint, a terminal too
small, Ctrl-C and end of input saving the game, NO_COLOR. In a terminal of 80x24 (issue 26), whole games of 2, 3
and 4 players where every screen fits (the compact layout), the `card` command against the library's card table,
`undo` naming each action taken back with its seat, and the final table staying until a key is pressed.

plain: the same program through pipes (standard output not a terminal: plain lines, no escape sequence at all), a
whole game to the final scores; a file that does not load; --help; bad options.

tmux: the screen of every decision kind in a terminal of 80x24, as a real terminal emulator shows it (issue 45 item
6: the Guild Hall's heading was 87 columns wide, so the screen took 25 rows and the header scrolled away). For 2 to
5 players, each decision a person meets (a turn, an Observatory's card, a Pub purchase, the final scores; with the
New Society also at 2-4 players, and its Debtor's Prison's pick and card, Guild Hall and Trading House), a position
found by play is loaded with --load in a tmux pane of 80x24: nothing scrolled into the pane's history, the header on
its first line, the decision's heading on the screen, no line wrapped (capture-pane -J joins none). Skipped without
tmux or the Python binding.

With PYTHON_PACKAGE_DIR and LIBRARY (ordinary builds), the screen is compared with the library's own answers;
without them (sanitizer builds, whose library Python cannot load) those comparisons are skipped.
"""
import json
import os
import random
import re
from collections import Counter
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

MODE = sys.argv[1]
PLAY = sys.argv[2]
stpete = None
if len(sys.argv) > 4:
    sys.path.insert(0, sys.argv[3])
    os.environ["STPETE_LIBRARY"] = sys.argv[4]
    import stpete  # noqa: E402

CLEAR = "\033[H\033[2J"
RULE = "\n" + "-" * 70 + "\n"
SGR = re.compile(r"\033\[[0-9;]*m")
PROMPT = "move> "
TIMEOUT = 20.0

results = []


def check(cond, name, detail=""):
    results.append((bool(cond), name, detail))
    line = ("ok" if cond else "not ok") + f" {len(results)} - {name}"
    print(line, flush=True)
    if not cond and detail:
        for d in str(detail).splitlines()[-(40 if MODE == "plain" else 400):]:
            print("#   " + d, flush=True)
    return bool(cond)


def skip(name, why):
    results.append((True, name, why))
    print(f"ok {len(results)} - {name} # SKIP {why}", flush=True)


class Session:
    """The program on a pseudo-terminal (pty=True) or on pipes; everything it writes is kept in self.out."""

    def __init__(self, args, env_extra=None, pty=True, size=(50, 120)):
        env = dict(os.environ)
        env.pop("NO_COLOR", None)
        env["TERM"] = "xterm-256color"
        env.update(env_extra or {})
        self.out = ""
        self.status = None
        self.pty = pty
        if pty:
            import pty as ptymod
            import fcntl
            import termios
            pid, fd = ptymod.fork()
            if pid == 0:
                try:
                    os.execve(PLAY, [PLAY] + args, env)
                finally:
                    os._exit(127)
            rows, cols = size
            fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
            self.pid, self.fd, self.wfd = pid, fd, fd
        else:
            self.proc = subprocess.Popen([PLAY] + args, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT)
            self.pid, self.fd, self.wfd = self.proc.pid, self.proc.stdout.fileno(), self.proc.stdin.fileno()

    def read_until(self, pattern, timeout=TIMEOUT):
        """Read until the output (since start) matches pattern after the current mark, or the program ends."""
        start = self.mark if hasattr(self, "mark") else 0
        deadline = time.monotonic() + timeout
        rx = re.compile(pattern)
        while not rx.search(self.out, start):
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            r, _, _ = select.select([self.fd], [], [], left)
            if not r:
                continue
            try:
                data = os.read(self.fd, 65536)
            except OSError:  # EIO: the terminal's other side is closed
                data = b""
            if not data:
                return bool(rx.search(self.out, start))
            self.out += data.decode("utf-8", "replace").replace("\r\n", "\n")
        return True

    def prompt(self, timeout=TIMEOUT):
        """Wait for the next prompt (or the final table's "Press any key"); True when it came."""
        ok = self.read_until("(" + re.escape(PROMPT) + r"|Press any key to leave\.\S*)$", timeout)
        self.mark = len(self.out)
        return ok

    def send(self, line):
        self.mark = len(self.out)
        os.write(self.wfd, (line + ("\r" if self.pty else "\n")).encode())

    def send_raw(self, data):
        self.mark = len(self.out)
        os.write(self.wfd, data)

    def ask(self, line):
        """Type a line; return what the program answered up to its next prompt (colours stripped)."""
        self.send(line)
        mark = self.mark
        self.prompt()
        return self.since_mark(mark)

    def screen(self):
        """What the terminal shows: everything since the last clear, without colours."""
        at = self.out.rfind(CLEAR)
        if at >= 0:
            return SGR.sub("", self.out[at + len(CLEAR):])
        at = self.out.rfind(RULE)  # plain lines: each board starts after a rule
        return SGR.sub("", self.out[at + len(RULE):] if at >= 0 else self.out)

    def since_mark(self, mark):
        return SGR.sub("", self.out[mark:])

    def wait(self, timeout=TIMEOUT):
        """Read to the end and return the exit status (negative: killed by that signal)."""
        deadline = time.monotonic() + timeout
        eof = False
        while time.monotonic() < deadline:
            r, _, _ = select.select([] if eof else [self.fd], [], [], 0.05)
            if r:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    data = b""
                if data:
                    self.out += data.decode("utf-8", "replace").replace("\r\n", "\n")
                    continue
                eof = True
            if self.pty:
                pid, st = os.waitpid(self.pid, os.WNOHANG)
                if pid:
                    self.status = os.waitstatus_to_exitcode(st)
                    return self.status
            elif eof and self.proc.poll() is not None:
                self.status = self.proc.returncode
                return self.status
        self.kill()
        return None

    def kill(self):
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if self.pty:
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:
                pass
        else:
            self.proc.wait()


# ---- reading the screen ------------------------------------------------------------------------------------------

def section(screen, start, stop):
    """The lines of screen from the line starting with start up to (not including) the first starting with stop."""
    lines = screen.splitlines()
    out, inside = [], False
    for line in lines:
        if line.startswith(start):
            inside = True
        elif inside and any(line.startswith(s) for s in stop):
            break
        if inside:
            out.append(line)
    return out


def board_rows(screen):
    """{"upper": [(name, text)], "lower": [...]} from the board: each card's name and what follows it."""
    lines = section(screen, "Board", ["> seat", "  seat"])
    rows, current = {}, None
    for line in lines:
        m = re.match(r"  (upper|lower) row:\s*(.*)$", line)
        if m:
            current = m.group(1)
            rows[current] = m.group(2)
        elif line.startswith("  stacks:") or line.startswith("  Observatory card"):
            current = None
        elif current:
            rows[current] += " " + line.strip()
    out = {}
    for row, text in rows.items():
        items = [] if text.strip() == "(empty)" else [i.strip() for i in text.split("|")]
        parsed = []
        for item in items:
            m = re.match(r"(.+?) (\(trading\)|\d+ R)(.*)$", item)
            parsed.append((m.group(1), m.group(2) + m.group(3)) if m else (item, ""))
        out[row] = parsed
    return out


def log_entries(screen):
    """The entries of the log since the person's last move, wrapped lines joined."""
    entries = []
    for line in section(screen, "Since your last move:", ["Your ", "GAME OVER", "Type a number"])[1:]:
        if line.startswith("    ") and entries:
            entries[-1] += " " + line.strip()
        elif line.startswith("  "):
            entries.append(line.strip())
    return entries


def listed_actions(screen):
    """[(number, text)] of the numbered legal actions."""
    lines = section(screen, "Your ", ["Type a number"])
    if lines and lines[0].startswith("Your legal actions:"):  # compact: the first ones on the heading's line
        lines[0] = lines[0][len("Your legal actions:"):]
    else:
        lines = lines[1:]
    items = []
    for line in lines:
        for chunk in re.split(r"\s{2,}", line.strip()):
            m = re.match(r"(\d+) (.+)$", chunk)
            if m:
                items.append((int(m.group(1)), m.group(2)))
    return sorted(items)


def action_string(text):
    """The action string of a listed action, without its price or the drawn card's name."""
    return re.sub(r" \((\d+ R|[A-Z][^)]*)\)$", "", text)


def load_saved(path):
    """The saved game as a State (compared with ==), or, without the binding (sanitized builds), as parsed JSON."""
    with open(path) as f:
        text = f.read()
    if stpete is None:
        return json.loads(text)
    return stpete.State.from_json(text)


def compare_with_library(screen, path, seat, name, full=False):
    """The board, prices, rubles and legal actions on screen against the library on the game saved at path."""
    if stpete is None:
        skip(name, "no Python binding for this build (sanitizer)")
        return
    st = load_saved(path)
    problems = []
    rows = board_rows(screen)
    for row, source in (("upper", stpete.Source.UPPER), ("lower", stpete.Source.LOWER)):
        cards = st.row(source)
        shown = rows.get(row, [])
        if [n for n, _ in shown] != [str(c) for c in cards]:
            problems.append(f"{row} row shows {[n for n, _ in shown]}, the game has {[str(c) for c in cards]}")
            continue
        for card, (_, rest) in zip(cards, shown):
            if card.info.trading:
                for price, target in re.findall(r"(\d+) R displacing ([^,|]+)", rest):
                    want = st.price(seat, card, source, stpete.Card.from_name(target.strip()))
                    if int(price) != want:
                        problems.append(f"{card} displacing {target}: {price} R shown, {want} R")
                if "displacing" not in rest and "nothing of yours to displace" not in rest:
                    problems.append(f"{card}: no displacement shown: {rest!r}")
            else:
                want = st.price(seat, card, source)
                if rest != f"{want} R":
                    problems.append(f"{card} from the {row} row: {rest!r} shown, {want} R")
    m = re.search(rf"seat {seat} \(you\)\s+(\d+) R, (-?\d+) VP, hand (\d+)/(\d+)", screen)
    if not m:
        problems.append("the person's rubles, VP and hand are not shown")
    elif (int(m.group(1)), int(m.group(2)), int(m.group(3))) != (st.rubles(seat), st.vp(seat), len(st.hand(seat))):
        problems.append(f"shown {m.groups()}, the game has {st.rubles(seat)} R, {st.vp(seat)} VP, "
                        f"{len(st.hand(seat))} hand cards")
    for other in range(st.players):
        if other != seat and not re.search(rf"seat {other} \([a-z]+\)\s+rubles secret", screen):
            problems.append(f"seat {other}'s rubles are not shown as secret")
    shown = [action_string(t) for _, t in listed_actions(screen)]
    want = [str(a) for a in st.legal_actions()]
    if shown != want:
        problems.append(f"actions shown {shown}, legal {want}")
    for (number, text), a in zip(listed_actions(screen), st.legal_actions()):
        m = re.search(r" \((\d+) R\)$", text)
        if a.kind in (stpete.ActionKind.BUY, stpete.ActionKind.PLAY):
            want_price = st.price(seat, a.card, a.source, None if a.displaced is None or a.displaced < 0 else
                                  a.displaced)
            if not m or int(m.group(1)) != want_price:
                problems.append(f"action {number} {text!r}: the price should be {want_price} R")
    problems += incomes_and_discards(screen, st, seat, full)
    check(not problems, name, "\n".join(problems) + "\n--- screen ---\n" + screen)


def labelled_line(screen, label):
    """The text after ``label`` (e.g. "next:") on the screen, with its continuation lines (indented past the
    label's column) joined by spaces; None when the screen has no such line."""
    lines = screen.split("\n")
    for k, line in enumerate(lines):
        at = line.find(label)
        if at >= 0:
            text = line[at + len(label):].strip()
            for more in lines[k + 1:]:
                if not re.match(r" {8,}\S", more) or "|" in more:
                    break
                text += " " + more.strip()
            return text
    return None


def incomes_and_discards(screen, st, seat, full):
    """Issue 41 point 5: the next scoring's incomes ('next:') and the cards discarded last ('last:') on the screen
    are the library's (stpete_state_next_scoring, stpete_state_income: a Sycophant's ruble as -1 R, issue 45 item 15;
    stpete_state_last_discards)."""
    problems = []
    phase = st.next_scoring
    shown = labelled_line(screen, "next:")
    if shown is None:  # the most compact screen leaves both lines to 'board'; a full one must show them
        if full and phase is not None:
            problems.append("no 'next:' line")
        return problems
    compact = phase is not None and shown.startswith(f"{phase.name.lower()}:")  # "worker: you +3 R, s1 ..."
    if phase is None:
        problems.append(f"'next: {shown}' shown after the last scoring")
    else:
        pieces = []
        for k in range(st.players):
            rubles, vp = st.income(k, phase)
            piece = "you" if k == seat else (f"s{k}" if compact else f"seat {k}")
            piece += f" {rubles:+d} R" if rubles else ""
            piece += f" {vp:+d} VP" if vp else "" if rubles else " +0"  # no unit for nothing (was "+0 VP")
            pieces.append(piece)
        want = phase.name.lower() + (":" if compact else " scoring:") + " " + ", ".join(pieces)
        if shown != want:
            problems.append(f"next: {shown!r} shown, the library's {want!r}")
    discards = labelled_line(screen, "| discard")
    got = discards.split("last: ", 1)[1] if discards and "last: " in discards else ""
    if st.history is not None:  # the library knows them from the history (a game played here)
        want = ", ".join(str(c) for c in st.last_discards())
        if got != want:
            problems.append(f"the cards discarded last: {got!r} shown, the library's {want!r}")
    else:  # a saved position (no history: the library says none): each card shown is on the pile
        pile = {str(c): n for c, n in st.discard_pile.items()}
        for card, n in Counter(got.split(", ") if got else []).items():
            if pile.get(card, 0) < n:
                problems.append(f"discarded last: {card} x{n} shown, the pile holds {pile.get(card, 0)}")
    return problems


# ---- playing -----------------------------------------------------------------------------------------------------

EXPECTED_LOG = [  # what the first log line after the person's move says for each kind of action
    (r"^pass$", r"seat 0 passes"),
    (r"^buy (.+) from (upper|lower)", r"seat 0 buys {1} from the {2} row"),
    (r"^play (.+?)( displacing|$)", r"seat 0 plays {1} from the hand"),
    (r"^take (.+) from (upper|lower)", r"seat 0 takes {1} from the {2} row into hand"),
    (r"^observatory (worker|building|aristocrat|trading)$", r"seat 0 uses an Observatory on the {1} stack"),
    (r"^observatory buy", r"seat 0 buys .* from the Observatory draw"),
    (r"^observatory take", r"seat 0 takes .* from the Observatory draw into hand"),
    (r"^observatory discard", r"seat 0 discards the drawn"),
    (r"^pub (\d+)$", r"Pub: seat 0 buys {1} VP"),
]


def expected_line(action):
    for pat, template in EXPECTED_LOG:
        m = re.match(pat, action)
        if m:
            out = template
            for i, g in enumerate(m.groups(), 1):
                out = out.replace("{%d}" % i, re.escape(g or ""))
            return out
    return None


def unique_prefix(actions, index):
    """The shortest prefix of actions[index] (lower case) that no other listed action starts with, or None."""
    target = actions[index].lower()
    others = [a.lower() for i, a in enumerate(actions) if i != index]
    for n in range(1, len(target) + 1):
        p = target[:n]
        if p.endswith(" "):
            continue
        if not any(o.startswith(p) for o in others):
            return p
    return None


def play_to_end(s, rng, name, tmp, max_turns=600):
    """Play the person's moves until the final scores: numbers and unique prefixes, each checked in the log that
    follows; every 7th turn the screen is compared with the library (when the lower row has cards, to check its
    prices too). Returns the final screen, or None."""
    wrong = []
    typed_prefixes = 0
    compared = 0
    for turn in range(max_turns):
        screen = s.screen()
        if stpete is not None and "GAME OVER" not in screen and (turn % 7 == 0 or "lower row: (empty)" not in screen
                                                              and compared < turn // 7):
            path = os.path.join(tmp, f"turn{turn}.json")
            s.ask(f"save {path}")
            compare_with_library(screen, path, 0, f"{name}: turn {turn}: the screen matches the library")
            compared += 1
        if "GAME OVER" in screen:
            check(not wrong, f"{name}: every move typed ({turn} moves, {typed_prefixes} as prefixes) is the one "
                  "the log then reports", "\n".join(wrong))
            return screen
        listed = listed_actions(screen)
        actions = [action_string(t) for _, t in listed]
        if not actions:
            check(False, f"{name}: legal actions listed on turn {turn}", screen)
            return None
        # prefer buying and playing: a game with cards in the displays
        weights = [0.5 if a.startswith("pass") or a.startswith("take") else 2 for a in actions]
        index = rng.choices(range(len(actions)), weights)[0]
        prefix = unique_prefix(actions, index) if rng.random() < 0.4 else None
        if prefix and len(prefix) < len(actions[index]):
            typed_prefixes += 1
            s.send(prefix)
        else:
            s.send(str(listed[index][0]))
        mark = s.mark
        if not s.prompt() and "GAME OVER" not in s.screen():
            s.wait(2)
            check(False, f"{name}: the next screen after turn {turn}", s.since_mark(mark)[-3000:])
            return None
        after = s.since_mark(mark)
        want = expected_line(actions[index])
        log = log_entries(after)
        first = log[0] if log else ""
        if not want or not re.search(want, first):
            wrong.append(f"turn {turn}: chose {actions[index]!r}, the log says {first!r}")
    check(False, f"{name}: the game ends within {max_turns} moves")
    return None


def check_final(screen, name, players):
    rows = re.findall(r"^([* ]) seat (\d)( \(you\))?\s+(-?\d+)\s+\+(\d+) \((\d+) kinds?\)\s+\+(\d+) \((\d+) R\)\s+"
                      r"(0|-\d+ \(\d+\))\s+(-?\d+)\s+(\d+)$", screen, re.M)
    ok = len(rows) == players
    detail = []
    totals = {}
    for star, seat, _, vp, bonus, kinds, rub_bonus, rubles, hand, total, tie in rows:
        hand_pen = 0 if hand == "0" else int(hand.split()[0])
        if int(vp) + int(bonus) + int(rub_bonus) + hand_pen != int(total):
            detail.append(f"seat {seat}: the parts do not add up to {total}")
        if int(rub_bonus) != int(rubles) // 10:
            detail.append(f"seat {seat}: {rubles} R should give {int(rubles) // 10} VP")
        m = re.search(rf"final scoring, seat {seat}: [^\n]*?= (-?\d+) VP", re.sub(r"\n    ", " ", screen))
        if not m or int(m.group(1)) != int(total):
            detail.append(f"seat {seat}: the log's final scoring does not say {total} VP")
        totals[int(seat)] = (int(total), star == "*")
    if totals:
        best = max(t for t, _ in totals.values())
        if any(win and t != best for t, win in totals.values()) or not any(w for _, w in totals.values()):
            detail.append("the winners marked are not the best totals")
    check(ok and not detail and re.search(r"^Winners? ?(\(a shared win\))?: seat", screen, re.M),
          f"{name}: the final scores (§8) add up, match the log and mark the winner", "\n".join(detail) + "\n" + screen)


# ---- decisions of §7.1 and §7.2 -----------------------------------------------------------------------------------

def played_until(want, wanted, seeds, **options):
    """A position (saved JSON) where seat 0 is to act and want(state) holds: random play from each seed of seeds, in
    a game of these options, in which seat 0 buys the card types of wanted when it can."""
    for seed in seeds:
        st = stpete.Game(seed=seed, **options).new_state()
        rng = random.Random(seed)
        while not st.is_terminal:
            if st.current_player == 0 and want(st):
                return st.to_json()
            acts = st.legal_actions()
            if st.current_player == 0:
                special = [a for a in acts if a.kind == stpete.ActionKind.BUY and a.card in wanted]
                if special:
                    st.apply(special[0])
                    continue
            st.apply(rng.choice(acts))
    return None


def session_at(tmp, name, text):
    """stpete-play in a pty on the position text (saved JSON), written to tmp/name.json, autosaving beside it."""
    path = os.path.join(tmp, f"{name}.json")
    with open(path, "w") as f:
        f.write(text)
    return Session(["--load", path, "--autosave", os.path.join(tmp, f"{name}-auto.json")], pty=True)


def find_position(want):
    """A 2-player position where seat 0 is to act and want(state) holds, seat 0 buying Observatories and Pubs."""
    return played_until(want, (stpete.Card.OBSERVATORY, stpete.Card.PUB), range(1, 400), players=2)


def run_pty_decisions(tmp):
    if stpete is None:
        skip("pty: the Observatory draw and the Pub decision", "no Python binding for this build (sanitizer)")
        return
    # §7.1: use an Observatory, see the card drawn, discard it
    text = find_position(lambda st: any(a.kind == stpete.ActionKind.OBSERVATORY for a in st.legal_actions()))
    check(text, "pty: a position where seat 0 can use an Observatory")
    if text:
        s = session_at(tmp, "observatory", text)
        try:
            s.prompt()
            use = [t for _, t in listed_actions(s.screen()) if t.startswith("observatory ")]
            reply = s.ask(use[0]) if use else ""
            screen = s.screen()
            m = re.search(r"seat 0 \(you\) uses an Observatory on the (\w+) stack and draws (.+)|"
                          r"seat 0 uses an Observatory on the (\w+) stack and draws (.+)", screen)
            drawn = (m.group(2) or m.group(4)).strip() if m else None
            check(use and drawn and f"Observatory card: {drawn}, drawn by seat 0 (you)" in screen and
                  "Your Observatory draw: buy it, take it into hand, or discard it" in screen and
                  f"observatory discard ({drawn})" in screen,
                  "pty: the Observatory card drawn is shown, with the decision and its actions (§7.1)",
                  reply + screen)
            reply = s.ask("observatory d")
            check(drawn and f"seat 0 discards the drawn {drawn}" in s.screen() and
                  "Observatory card:" not in s.screen(), "pty: 'observatory d' discards it", s.screen())
            s.ask("quit")
            s.wait()
        finally:
            if s.status is None:
                s.kill()
    # §7.2: in a Pub decision the numbers are the VP bought
    text = find_position(lambda st: st.decision == stpete.Decision.PUB and len(st.legal_actions()) >= 3)
    check(text, "pty: a position where seat 0 decides a Pub purchase")
    if text:
        s = session_at(tmp, "pub", text)
        try:
            s.prompt()
            screen = s.screen()
            listed = listed_actions(screen)
            check("Your Pub: how many VP do you buy" in screen and listed[:3] == [(0, "pub 0 (0 R)"),
                  (1, "pub 1 (2 R)"), (2, "pub 2 (4 R)")], "pty: the Pub's choices are numbered by the VP bought",
                  screen)
            s.ask("2")
            check("Pub: seat 0 buys 2 VP for 4 R" in s.screen(), "pty: typing 2 in a Pub decision buys 2 VP",
                  s.screen())
            s.ask("quit")
            s.wait()
        finally:
            if s.status is None:
                s.kill()


def find_ns_position(want):
    """A 5-player New Society position where seat 0 is to act and want(state) holds, seat 0 buying Debtor's Prisons,
    Guild Halls and Trading Houses."""
    wanted = (stpete.NewSocietyCard.DEBTORS_PRISON, stpete.NewSocietyCard.GUILD_HALL,
              stpete.NewSocietyCard.TRADING_HOUSE)
    return played_until(want, wanted, range(1, 200), players=5, new_society=True)


def run_pty_ns_decisions(tmp):
    """The New Society's decisions (§12.7.5-§12.7.7) in a 5-player game loaded at them: each heading, its actions
    numbered (the Guild Hall's by the rubles taken), and the choice typed is the one the log reports."""
    if stpete is None:
        skip("pty: the New Society's decisions", "no Python binding for this build (sanitizer)")
        return
    D = stpete.Decision
    cases = [
        ("the Debtor's Prison's pick", lambda st: any(a.kind == stpete.ActionKind.PRISON for a in st.legal_actions()),
         None, "prison ", r"seat 0 uses the Debtor.s Prison and picks .* from the discard pile"),
        ("the Debtor's Prison card", lambda st: st.decision == D.PRISON,
         "Your Debtor's Prison card: buy it, take it into hand, or put it back", "prison put back",
         r"seat 0 puts .* back on the discard pile"),
        ("the Guild Hall", lambda st: st.decision == D.GUILD_HALL,
         "Your Guild Hall: how many of its 4 as rubles", "3", r"Guild Hall: seat 0 takes 3 R and 1 VP"),
        ("the Trading House", lambda st: st.decision == D.TRADING_HOUSE,
         "Your Trading House: pay 3 R for 2 VP", "trading house decline", r"Trading House: seat 0 declines"),
    ]
    for what, want, heading, typed, log in cases:
        text = find_ns_position(want)
        check(text, f"pty: a 5-player New Society position at {what}")
        if not text:
            continue
        s = session_at(tmp, "ns-decision", text)
        try:
            s.prompt()
            screen = s.screen()
            listed = listed_actions(screen)
            shown = [t for _, t in listed]
            if heading:
                check(heading in screen and not any(t.startswith("pass") for t in shown),
                      f"pty: {what}: its heading and no pass (§12.7)", screen)
            if what == "the Guild Hall":
                check([n for n, _ in listed] == list(range(len(listed))) and shown[:1] == ["guild hall 0"],
                      "pty: the Guild Hall's choices are numbered by the rubles taken", screen)
            if what == "the Debtor's Prison card":
                card = re.search(r"Debtor's Prison card: (.+?), picked from the discard pile by seat 0 \(you\)",
                                 re.sub(r"\s+", " ", screen))
                check(card and f"prison put back ({card.group(1)})" in screen,
                      "pty: the Prison's card is shown on the board and in its actions", screen)
            choice = next((t for t in shown if t.startswith(typed)), typed) if typed.endswith(" ") else typed
            mark = s.mark
            s.send(action_string(choice))
            s.prompt()
            after = s.since_mark(mark)
            check(re.search(log, re.sub(r"\s+", " ", SGR.sub("", after))), f"pty: {what}: '{action_string(choice)}' is played "
                  "and logged", after[-2500:])
            s.ask("quit")
            s.wait()
        finally:
            if s.status is None:
                s.kill()


# ---- the pty session ---------------------------------------------------------------------------------------------

def run_pty(tmp):
    auto = os.path.join(tmp, "auto.json")
    args = ["--players", "3", "--seat", "0", "--bots", "greedy", "--seed", "7", "--autosave", auto]
    s = Session(args, pty=True, size=(100, 130))
    try:
        check(s.prompt(), "pty: the first prompt", s.out[-2000:])
        screen = s.screen()
        raw = s.out
        check("Saint Petersburg, 3 players, seed 7 | round 1 | worker phase | seat 0 (you) to play" in screen,
              "pty: the header says players, seed, round, phase and whose turn it is", screen)
        check(re.search(r"upper row: .*\d+ R", screen) and "stacks:" in screen and "start-player marker" in screen,
              "pty: the board shows rows with prices, stacks and start-player markers", screen)
        check("dealt from the worker stack to the upper row:" in screen,
              "pty: the log starts with the setup deal (stpete_state_new_with_callback)", screen)
        check("\033[38;5;34m" in raw and "\033[38;5;33m" in raw and "\033[38;5;208m" in raw,
              "pty: workers green, buildings blue, aristocrats orange (256-colour SGR)")
        # save: the board on screen against the library
        reply = s.ask(f"save {tmp}/first.json")
        check(f"Saved to {tmp}/first.json." in reply and
              f"Continue it with: stpete-play --load '{tmp}/first.json' --seat 0 --bots greedy" in reply,
              "pty: save FILE says where and how to continue", reply)
        compare_with_library(screen, f"{tmp}/first.json", 0, "pty: the board, the person's prices, rubles and the "
                             "legal actions match the library")
        # ambiguous and unknown text: refused, nothing redrawn, nothing changed
        before = s.out.count(CLEAR)
        reply = s.ask("buy")
        candidates = re.findall(r"^\s+(\d+) (buy .*)$", reply, re.M)
        listed = dict(listed_actions(screen))
        buys = [(str(n), a) for n, a in sorted(listed.items()) if a.startswith("buy ")]
        check("'buy' is ambiguous" in reply and len(candidates) >= 2 and
              all(listed.get(int(n)) == t for n, t in candidates) and candidates == buys[:12],
              "pty: an ambiguous prefix is refused with its candidates (every matching legal action, the first 12) "
              "listed by their numbers", reply)
        reply = s.ask("xyzzy")
        check("'xyzzy' is neither a command" in reply and "help, card, hint, board, log, save, load, undo, quit" in reply,
              "pty: unknown text is refused with the commands named", reply)
        reply = s.ask("buy Market from upper")
        check("Not now: action" in reply and "there is no Market in the upper row (§4.2)" in reply,
              "pty: an action that is not legal now gets the library's reason", reply)
        reply = s.ask("99")
        check("There is no action number 99" in reply, "pty: an action number out of range", reply)
        s.ask(f"save {tmp}/second.json")
        with open(f"{tmp}/first.json") as a, open(f"{tmp}/second.json") as b:
            check(a.read() == b.read() and s.out.count(CLEAR) == before,
                  "pty: refused input changed nothing (same saved game) and did not redraw the board")
        reply = s.ask("hint")
        m = re.search(r"Hint \(the greedy bot would play\): (\d+) (.*)", reply)
        check(m and listed.get(int(m.group(1))) == m.group(2).strip(), "pty: hint names a listed action", reply)
        reply = s.ask("help")
        check(all(w in reply for w in ("hint", "save [FILE]", "load FILE", "quit")), "pty: help", reply)

        # play a few moves, then load the first save: the same board again
        first_board = section(screen, "Board", ["Since your last move", "Your "])
        rng = random.Random(5)
        for _ in range(3):
            s.ask("1")
        s.ask(f"load {tmp}/first.json")
        loaded = s.screen()
        check(section(loaded, "Board", ["Since your last move", "Your "]) == first_board and
              "a loaded game" in loaded and f"loaded {tmp}/first.json" in loaded,
              "pty: load FILE brings back the saved board", loaded)
        reply = s.ask(f"load {tmp}/nonexistent.json")
        check("Not loaded: cannot open" in reply and "Your game goes on" in reply,
              "pty: a file that does not load is refused, the game goes on", reply)
        with open(f"{tmp}/broken.json", "w") as f:
            f.write('{"format": "stpete-state", "format_version": 1,')
        reply = s.ask(f"load {tmp}/broken.json")
        check(re.search(r"is not a saved game: .*line \d+, column \d+", reply),
              "pty: a truncated file is refused with its line and column", reply)

        # the whole game
        final = play_to_end(s, rng, "pty", tmp)
        s.send_raw(b"\r")  # the final table stays until a key is pressed
        status = s.wait()
        if final:
            check_final(final, "pty", 3)
        check(status == 0, "pty: exit status 0 after the final scores", f"status {status}")
        check(not os.path.exists(auto), "pty: a finished game leaves no autosave")
    finally:
        if s.status is None:
            s.kill()


def fits(screen, rows, cols):
    """The lines that do not fit a terminal of rows x cols: too many lines, or too wide (colours stripped)."""
    lines = screen.rstrip("\n").split("\n")
    wide = [line for line in lines if len(line) > cols]
    return (len(lines) <= rows and not wide), f"{len(lines)} lines; too wide: {wide}"


def run_pty_80x24(tmp):
    """Whole games in a terminal of 80x24: every screen fits (no line lost above the top, none wider than 80, no
    'too small' note), for 2, 3 and 4 players; card, undo and the final table on the way."""
    games = [(players, 11) for players in (2, 3, 4)]
    # late screens with many legal actions: 3 of these went over by 2-3 rows before the list was cut to fit
    games += [(players, seed) for seed in (3, 5, 8, 13) for players in (2, 3, 4)]
    # the New Society (§12): 5 players, a board of 10 cards at the opening, the gold disc
    games += [(5, seed) for seed in (11, 3, 8)]
    for players, seed in games:
        ns = players == 5
        name = f"80x24, {players} players" + (", New Society" if ns else "") + (f", seed {seed}" if seed != 11 else "")
        auto = os.path.join(tmp, f"small{players}-{seed}.json")
        s = Session(["--players", str(players), "--seed", str(seed), "--autosave", auto] +
                    (["--new-society"] if ns else []), pty=True, size=(24, 80))
        try:
            rng = random.Random(players if seed == 11 else players * 100 + seed)
            too_big, screens, final = [], 0, None
            ok = s.prompt()
            for turn in range(600):
                screen = s.screen()
                good, why = fits(screen, 24, 80)
                screens += 1
                if not good or "too small" in screen:
                    too_big.append(f"turn {turn}: {why}\n{screen}")
                if "GAME OVER" in screen:
                    final = screen
                    break
                listed = listed_actions(screen)
                if not ok or not listed:
                    check(False, f"{name}: legal actions listed on turn {turn}", screen[-2000:])
                    break
                if seed == 11 and players == 4 and turn == 12:
                    check_card_command(s, name)
                if seed == 11 and players == 3 and turn == 10:
                    check_undo(s, name)
                    continue
                if ns and turn == 0:
                    check("New Society" in screen and "gold disc" in screen,
                          f"{name}: the header says New Society, a seat holds the gold disc (§12.3)", screen)
                weights = [0.3 if t.startswith(("pass", "take")) else 2 for _, t in listed]
                s.send(str(listed[rng.choices(range(len(listed)), weights)[0]][0]))
                ok = s.prompt() or "GAME OVER" in s.screen()
            check(final and not too_big, f"{name}: every screen of the game fits ({screens} screens)",
                  "\n".join(too_big[:2]))
            if final:
                check(re.search(r"^\* seat \d", final, re.M) and "Press any key to leave." in final,
                      f"{name}: the final table, and how to leave", final)
                time.sleep(1.0)
                check(os.waitpid(s.pid, os.WNOHANG)[0] == 0, f"{name}: the final table stays until a key is pressed")
                s.send_raw(b"x")
                check(s.wait() == 0, f"{name}: a key leaves, exit status 0", f"status {s.status}")
        finally:
            if s.status is None:
                s.kill()


def run_pty_help(tmp):
    """help and log in terminals of 80 and 200 columns (issue 33; log: a newcomer's try of 1.2.0, whose deal lines
    the terminal broke mid-word): at 80 no line is wider than 80 columns and the text is wrapped, between words
    only: the same words as in the wide terminal, where nothing needs wrapping."""
    replies = {}
    for cols in (80, 200):
        s = Session(["--players", "2", "--seed", "3", "--autosave", os.path.join(tmp, f"help{cols}.json")], pty=True,
                    size=(50, cols))
        try:
            s.prompt()
            for command in ("help", "log"):
                reply = s.ask(command)
                replies[command, cols] = reply[:reply.rfind(PROMPT)] if PROMPT in reply else reply
            s.send("quit")
            s.wait()
        finally:
            if s.status is None:
                s.kill()
    for command, whole in (("help", ("Commands:", "undo", "§6.")), ("log", ("The game so far", "dealt from"))):
        narrow, wide = replies[command, 80], replies[command, 200]
        lines = narrow.splitlines()
        check(all(w in narrow for w in whole), f"pty: {command} at 80 columns, whole", narrow)
        check(all(len(line) <= 80 for line in lines), f"pty: {command} at 80 columns: no line wider than 80 columns",
              "\n".join(line for line in lines if len(line) > 80))
        check(narrow.split() == wide.split() and len(lines) > len(wide.splitlines()),
              f"pty: {command} at 80 columns is wrapped between words (the same words as at 200 columns, on more "
              "lines)", f"80:\n{narrow}\n200:\n{wide}")


def check_card_command(s, name):
    """'card' lists the cards in play; 'card N' and 'card NAME' describe a card from the library's card table."""
    reply = s.ask("card")
    listed = re.findall(r"^\s+(\d+) (.+) \((upper row|lower row|your hand|Observatory card)\)$", reply, re.M)
    check(reply.startswith("card") and "Cards in play" in reply and listed, f"{name}: card lists the cards in play",
          reply)
    if not listed:
        return
    number, card, where = listed[0]
    reply = s.ask(f"card {number}")
    m = re.search(r"cost (\d+) R; at each (\w+) scoring it gives ([+-]\d+) R and ([+-]\d+) VP", re.sub(r"\s+", " ", reply))
    price = re.search(rf"in the {where}: your price (\d+) R", reply)
    check(reply.lstrip("card 0123456789\n").startswith(card + ":") and m and price, f"{name}: card N describes it",
          reply)
    if stpete is not None and m:
        game = stpete.Game(players=4)
        info = next(game.card_info(c) for c in range(49) if game.card_name(c) == card)
        check((int(m.group(1)), int(m.group(3)), int(m.group(4))) == (info.cost, info.rubles, info.vp),
              f"{name}: card N shows the library's cost, income and VP", f"{m.groups()} vs {info}")
    # what a card does is the library's text (stpete_game_card_text), the same as the pages' (issue 41)
    game = stpete.Game(players=4) if stpete is not None else None
    reply = re.sub(r"\s+", " ", s.ask("card wharf"))
    check("Wharf: green trading card" in reply and "Displaces Ship Builder or Czar and Carpenter (§6.2)."
          in reply and "cost 12 R" in reply and (game is None or game.card_text(stpete.Card.WHARF) in reply),
          f"{name}: card NAME (any case, a unique prefix): a trading card's targets, the library's text", reply)
    reply = re.sub(r"\s+", " ", s.ask("card obs"))
    check("In the building phase, as your action" in reply and "(§7.1, R9)" in reply and
          (game is None or re.sub(r"\s+", " ", game.card_text(stpete.Card.OBSERVATORY)) in reply),
          f"{name}: a special ability with its rule, the library's text", reply)
    reply = s.ask("card ma")
    check("Which card? Market, Mariinskij-Theater" in reply, f"{name}: an ambiguous name lists the candidates", reply)


def check_undo(s, name):
    """undo names each action taken back with its seat (the library's undo event lines)."""
    s.send("1")
    s.prompt()
    reply = s.ask("undo")
    lines = re.findall(r"undo: seat (\d)'s (.+) is taken back", reply + s.screen())
    check(lines and lines[-1][0] == "0" and all(seat in "0123" for seat, _ in lines),
          f"{name}: undo names each action taken back with its seat", reply + s.screen())


def run_pty_interrupts(tmp):
    # Ctrl-C at the prompt: the game is saved and the place said
    auto = os.path.join(tmp, "ctrl-c.json")
    s = Session(["--players", "2", "--seed", "11", "--autosave", auto], pty=True)
    try:
        s.prompt()
        s.send("2")
        s.prompt()
        s.send(f"save {tmp}/before-ctrl-c.json")
        s.prompt()
        s.send_raw(b"buy\x03")
        status = s.wait()
        out = s.since_mark(0)
        check(f"Interrupted (Ctrl-C): the game is saved to {auto}." in out and
              f"Continue it with: stpete-play --load '{auto}' --seat 0" in out,
              "pty: Ctrl-C saves the game and says where and how to continue", out[-1000:])
        check(status == 130, "pty: Ctrl-C exits with status 130", f"status {status}")
        with open(f"{tmp}/before-ctrl-c.json") as a:
            same = os.path.exists(auto) and open(auto).read() == a.read()
        check(same, "pty: the autosave is the game as it was at Ctrl-C")
    finally:
        if s.status is None:
            s.kill()

    # End of input (Ctrl-D) with the default autosave place ($XDG_STATE_HOME/stpete/autosave.json)
    state_home = os.path.join(tmp, "state")
    s = Session(["--players", "4", "--seed", "3"], env_extra={"XDG_STATE_HOME": state_home}, pty=True)
    try:
        s.prompt()
        s.send_raw(b"\x04")
        status = s.wait()
        path = os.path.join(state_home, "stpete", "autosave.json")
        out = s.since_mark(0)
        check(f"End of input: the game is saved to {path}." in out and os.path.exists(path) and status == 0,
              "pty: end of input saves the game to $XDG_STATE_HOME/stpete/autosave.json, exit status 0",
              f"status {status}\n" + out[-600:])
        if stpete is not None and os.path.exists(path):
            st = load_saved(path)
            check(st.players == 4 and not st.is_terminal, "pty: the autosave loads as the 4-player game")
        # and --load continues it
        s2 = Session(["--load", path], env_extra={"XDG_STATE_HOME": state_home}, pty=True)
        try:
            check(s2.prompt() and "4 players, a loaded game" in s2.screen(), "pty: --load continues the autosave",
                  s2.out[-1500:])
            s2.send("quit")
            s2.wait()
            check(f"Quit: the game is saved to {path}." in s2.since_mark(0) and s2.status == 0,
                  "pty: quit saves the game in progress", s2.out[-500:])
        finally:
            if s2.status is None:
                s2.kill()
    finally:
        if s.status is None:
            s.kill()

    # a terminal too small for the board: a clear message next to the prompt, and the game goes on
    s = Session(["--players", "4", "--seed", "3", "--autosave", os.path.join(tmp, "small.json")], pty=True,
                size=(16, 60))
    try:
        s.prompt()
        screen = s.screen()
        check(re.search(r"The terminal is 60x16, too small for this board \(it needs 80x\d+\)", re.sub(r"\s+", " ",
                        screen)), "pty: a terminal too small is named, with the size needed", screen)
        s.send("1")
        check(s.prompt(), "pty: the game goes on in a small terminal")
        s.send("quit")
        s.wait()
    finally:
        if s.status is None:
            s.kill()

    # NO_COLOR: no colour, still a screen
    s = Session(["--players", "2", "--seed", "1", "--autosave", os.path.join(tmp, "nc.json")],
                env_extra={"NO_COLOR": "1"}, pty=True)
    try:
        s.prompt()
        check(CLEAR in s.out and not SGR.search(s.out), "pty: NO_COLOR: the screen is cleared, no colour sequence")
        s.send("quit")
        s.wait()
    finally:
        if s.status is None:
            s.kill()


# ---- plain lines through pipes -----------------------------------------------------------------------------------

def run_plain(tmp):
    auto = os.path.join(tmp, "plain-auto.json")
    s = Session(["--players", "2", "--seed", "5", "--bots", "random", "--autosave", auto], pty=False)
    try:
        check(s.prompt(), "plain: the first prompt", s.out[-1000:])
        check("\033" not in s.out, "plain: no escape sequence when standard output is a pipe")
        check("Saint Petersburg, 2 players, seed 5" in s.out and "upper row:" in s.out and "Your legal actions" in s.out,
              "plain: the board and the legal actions as lines", s.out[-2000:])
        s.ask(f"save {tmp}/plain.json")
        compare_with_library(s.screen(), f"{tmp}/plain.json", 0, "plain: the board, prices, incomes, discards and "
                             "actions match the library", full=True)
        reply = s.ask("buy")
        check(re.search(r"^move> buy\n'buy' is ambiguous", "move> " + reply), "plain: the input is echoed and "
              "answered", reply)
        # undo (stpete_state_undo): a move and the bots' replies taken back give the same position again
        reply = s.ask("undo")
        check("Nothing to undo" in reply, "plain: undo before any move is refused", reply)
        s.ask(f"save {tmp}/before-undo.json")
        s.ask("1")
        reply = s.ask("undo")
        s.ask(f"save {tmp}/after-undo.json")
        same = load_saved(f"{tmp}/before-undo.json") == load_saved(f"{tmp}/after-undo.json")
        check("Undone:" in reply and same, "plain: undo takes back the move and the bots' replies", reply)
        final = play_to_end(s, random.Random(9), "plain", tmp)
        status = s.wait()
        if final:
            check_final(final, "plain", 2)
        check(status == 0 and "\033" not in s.out, "plain: the whole game without an escape sequence, exit status 0",
              f"status {status}")
    finally:
        if s.status is None:
            s.kill()

    # end of input in plain mode: saved
    s = Session(["--players", "3", "--seed", "2", "--autosave", auto], pty=False)
    try:
        s.prompt()
        os.close(s.wfd)
        s.proc.stdin = None
        status = s.wait()
        check(f"End of input: the game is saved to {auto}." in s.out and status == 0 and os.path.exists(auto),
              "plain: end of input saves the game", s.out[-500:])
    finally:
        if s.status is None:
            s.kill()

    def run(args, stdin=""):
        p = subprocess.run([PLAY] + args, input=stdin, capture_output=True, text=True, timeout=TIMEOUT)
        return p.returncode, p.stdout, p.stderr

    rc, out, err = run(["--load", os.path.join(tmp, "missing.json")])
    check(rc == 1 and "cannot open" in err and "missing.json" in err, "plain: --load of a missing file: a message, "
          "status 1", err)
    with open(os.path.join(tmp, "view.json"), "w") as f:
        f.write('{"format": "stpete-state", "format_version": 99}')
    rc, out, err = run(["--load", os.path.join(tmp, "view.json")])
    check(rc == 1 and "is not a saved game" in err, "plain: --load of a file that is not a saved game", err)
    rc, out, err = run(["--help"])
    # the documentation's --bots and the man page (help2man reads --help) name the same bot kinds (issue 26)
    m = re.search(r"^Bots: ([a-z, ]+);", out, re.M)
    kinds = m.group(1).split(", ") if m else []
    docs = []
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    for path in ["README.md"] + sorted(f"doc/{f}" for f in os.listdir(os.path.join(root, "doc")) if f.endswith(".md")):
        with open(os.path.join(root, path), encoding="utf-8") as f:
            text = re.sub(r"\s+", " ", f.read())
        for said in re.findall(r"`--bots LIST` \((.*?)\)", text):
            if "other seats" not in said:  # stpete-selfplay's --bots
                continue
            docs.append((path, sorted(re.findall(r"`([a-z]+)`", said.split(";")[0]))))
    check(kinds and docs and all(found == sorted(kinds) for _, found in docs),
          "plain: the bot kinds of stpete-play --help (the man page) are the ones its documentation names",
          f"--help: {kinds}; docs: {docs}")
    check(rc == 0 and out.startswith("Usage: stpete-play") and "--players N" in out and "--load FILE" in out
          and "--plain" in out and "hint" in out and "--edition N" in out and "--option NAME=VALUE" in out,
          "plain: --help", out)
    rc, out, err = run(["--players", "6"])
    check(rc == 2 and "--players must be 2, 3 or 4, not 6" in err, "plain: a bad option value: status 2", err)
    rc, out, err = run(["--players", "5"])
    check(rc == 2 and "--players must be 2, 3 or 4, not 5: 5 players need the New Society (--new-society" in err,
          "plain: 5 players without --new-society: status 2, the library's reason naming the flag (§12.0)", err)
    rc, out, err = run(["--pub-cap=per-seat"])
    check(rc == 2 and '--pub-cap must be "per-pub" or "per-player"' in err, "plain: a game option as --NAME=VALUE: "
          "the library's reason", err)
    rc, out, err = run(["--new-society", "--edition", "2"])
    check(rc == 2 and "expansion of the first edition" in err, "plain: the New Society with edition 2: status 2", err)
    # seat 4 of a 5-player New Society game is a person's (1.2.0 refused it: "a seat number 0..3")
    ns_auto = os.path.join(tmp, "seat4.json")
    rc, out, err = run(["--new-society", "--players", "5", "--seat", "4", "--seed", "3", "--autosave", ns_auto])
    check(rc == 0 and "seat 4 (you)" in out and os.path.exists(ns_auto) and
          f"Continue it with: stpete-play --load '{ns_auto}' --seat 4" in out,
          "plain: --seat 4 in a 5-player New Society game", err + out[-500:])
    for args, says in ((["--seat", "5"], "--seat must be a seat number 0..4, not '5'"),
                       (["--seat", "4"], "--seat 4 is not a seat of a 3-player game (0..2)")):
        rc, out, err = run(args)
        check(rc == 2 and says in err, f"plain: {' '.join(args)}: status 2, the seats of every game or of this one",
              err)
    rc, out, err = run(["--bots", "greedy,nobody"])
    check(rc == 1 and "unknown bot kind 'nobody'" in err, "plain: an unknown bot is named, status 1", err)
    rc, out, err = run(["--frobnicate"])
    check(rc == 2 and "unknown option" in err, "plain: an unknown option: status 2", err)


# ---- every decision's screen in tmux, 80x24 ---------------------------------------------------------------------

def tmux_decisions():
    """(name, needs the New Society, the test of a position, the heading its screen shows) of each decision kind."""
    D, K = stpete.Decision, stpete.ActionKind
    return [
        ("a turn", False, lambda st: st.decision == D.TURN, "Your legal actions"),
        ("an Observatory's card", False, lambda st: st.decision == D.OBSERVATORY, "Your Observatory draw"),
        ("a Pub purchase", False, lambda st: st.decision == D.PUB, "Your Pub"),
        ("the final scores", False, None, "GAME OVER"),
        ("the Debtor's Prison's pick", True,
         lambda st: st.decision == D.TURN and any(a.kind == K.PRISON for a in st.legal_actions()), "Your legal actions"),
        ("the Debtor's Prison's card", True, lambda st: st.decision == D.PRISON, "Your Debtor's Prison card"),
        ("the Guild Hall", True, lambda st: st.decision == D.GUILD_HALL, "Your Guild Hall"),
        ("the Trading House", True, lambda st: st.decision == D.TRADING_HOUSE, "Your Trading House"),
    ]


def final_position(players, **options):
    """A game of players played to its end by random moves from seed 1 (saved JSON)."""
    st = stpete.Game(players=players, seed=1, **options).new_state()
    rng = random.Random(1)
    while not st.is_terminal:
        st.apply(rng.choice(st.legal_actions()))
    return st.to_json()


class Tmux:
    """stpete-play on the one pane of 80x24 of a tmux server of its own (its socket the file socket, in the test's
    temporary folder; no configuration file)."""

    def __init__(self, socket, args):
        self.socket = socket
        self.run("new-session", "-d", "-x", "80", "-y", "24", "-s", "play", "--", PLAY, *args)

    def run(self, *args):
        return subprocess.run(["tmux", "-S", self.socket, "-f", "/dev/null", *args], capture_output=True,
                              text=True).stdout

    def wait_for(self, pattern, timeout=TIMEOUT):
        """The pane's text once pattern is on it, else None after timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.run("capture-pane", "-p", "-t", "play")
            if re.search(pattern, text, re.M):
                return text
            time.sleep(0.1)
        return None

    def close(self):
        """Kill the server; returns the pid of its stpete-play, which gets SIGHUP with its terminal and then writes its
        autosave into the test's folder (wait_gone() before the folder is removed)."""
        pid = self.run("display", "-p", "-t", "play", "#{pane_pid}").strip()
        self.run("kill-server")
        return int(pid) if pid.isdigit() else None


def wait_gone(pids, timeout=TIMEOUT):
    """Wait (up to timeout in all) until none of pids is a running process: the programs of closed panes, which
    write their autosaves after SIGHUP. Waiting once for them all, not at each pane, costs about one program's
    exit (1-2 s) instead of one per pane."""
    deadline = time.monotonic() + timeout
    for pid in pids:
        while pid is not None and time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)


def run_tmux_screens(tmp):
    if stpete is None or not shutil.which("tmux"):
        skip("tmux: every decision's screen at 80x24", "no Python binding for this build (sanitizer)" if stpete is None
             else "tmux is not installed")
        return
    wanted = (stpete.Card.OBSERVATORY, stpete.Card.PUB, stpete.NewSocietyCard.DEBTORS_PRISON,
              stpete.NewSocietyCard.GUILD_HALL, stpete.NewSocietyCard.TRADING_HOUSE)
    cases = [(players, ns, d) for players in (2, 3, 4, 5) for d in tmux_decisions() for ns in (False, True)
             if (ns or not d[1]) and (ns or players < 5)]
    closed = []  # pids of the programs of closed panes
    try:
        run_tmux_cases(tmp, cases, wanted, closed)
    finally:
        wait_gone(closed)


def run_tmux_cases(tmp, cases, wanted, closed):
    """Each case's screen in a pane of its own (run_tmux_screens); the closed panes' pids appended to closed."""
    for k, (players, ns, (what, _, want, heading)) in enumerate(cases):
        options = {"new_society": True} if ns else {}
        name = f"tmux 80x24, {players} players{', New Society' if ns else ''}: {what}"
        text = final_position(players, **options) if want is None else \
            played_until(want, wanted, range(1, 300), players=players, **options)
        if not check(text, f"{name}: a position found by play"):
            continue
        path = os.path.join(tmp, f"tmux-{k}.json")
        with open(path, "w") as f:
            f.write(text)
        pane = Tmux(os.path.join(tmp, f"tmux-{k}"), ["--load", path, "--autosave", path + ".auto"])
        try:
            screen = pane.wait_for(r"^move>|Press any key to leave\.")
            if not check(screen, f"{name}: the screen is drawn", pane.run("capture-pane", "-p", "-t", "play")):
                continue
            scrolled = pane.run("display", "-p", "-t", "play", "#{history_size}").strip()
            rows = screen.rstrip("\n").split("\n")
            joined = pane.run("capture-pane", "-p", "-J", "-t", "play").rstrip("\n").split("\n")
            header = re.match(rf"(Saint Petersburg, )?{players} players, a loaded game", rows[0])
            check(scrolled == "0" and header and heading in screen and len(joined) == len(rows),
                  f"{name}: the whole screen fits (the header on the first row, nothing scrolled off, no line wrapped)",
                  f"history {scrolled} rows; first row {rows[0]!r}; {len(rows) - len(joined)} wrapped; heading "
                  f"{heading!r} {'shown' if heading in screen else 'missing'}\n{screen}")
        finally:
            closed.append(pane.close())


def main():
    with tempfile.TemporaryDirectory(prefix="stpete-play-") as tmp:
        start = time.monotonic()
        if MODE == "tmux":
            run_tmux_screens(tmp)
        elif MODE == "pty":
            run_pty(tmp)
            run_pty_interrupts(tmp)
            run_pty_decisions(tmp)
            run_pty_ns_decisions(tmp)
            run_pty_80x24(tmp)
            run_pty_help(tmp)
        else:
            run_plain(tmp)
        print(f"# {time.monotonic() - start:.1f} s")
    print(f"1..{len(results)}")
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
