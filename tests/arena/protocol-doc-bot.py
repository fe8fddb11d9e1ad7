"""An external bot written from doc/protocol.md alone (issue 21): the standard library only, no part of libstpete.

Usage: protocol-doc-bot.py [VERSION]   (VERSION 2, the default, or 1). It answers the arena's hello with that
protocol version and checks what the document promises: the arena lists the version among its `protocols`; the
`new_game` seed is a string of decimal digits in version 2 and a number in version 1; every request lists at least one
legal action and the view is a seat view of the bot's own seat in which the hand cards it saw taken are names (null
only for a card it has not seen); the hello's card table describes every card type of the game's edition (its names
are the ones the requests use, a trading card displaces only cards of its colour that are not trading cards, each
listed action that buys one names one of them), and `legal` lists only actions the seat can afford, none dearer
than the card's printed cost. In a game with the New Society (the hello's `game.new_society`, §12) the table has 62
rows, and the prison, guild-hall and trading-house decisions list no pass. Each legal action's structured form
(`kind`, `card`, `source`, `target`, `stack`, `amount`, issue 45 item 8) is the one its string says, by the forms and
kind numbers the document gives. It plays a random legal action from the seed (a reproducible tournament), preferring
purchases of the most VP and rubles per ruble by the card table. A broken promise ends the process with status 3 and a message on stderr: the arena reports that as
a forfeit, so a tournament without forfeits means every promise held."""
import json
import os
import random
import re
import sys

CARD_KEYS = {"card", "name", "colour", "stack", "trading", "cost", "rubles", "vp", "copies", "special", "displaces"}
# the card an action buys or plays, and the card a trading card displaces ("buy Wharf from upper displacing Ship
# Builder", "play Pub from hand", "observatory buy Hospital", the New Society's "prison buy Market")
BUYS = re.compile(r"^(?:buy|play|observatory buy|prison buy) (.+?)(?: from (?:upper|lower|hand))?(?: displacing (.+))?$")
# the decisions that list no pass: the Observatory's card, the Pub, and the New Society's Debtor's Prison card,
# Guild Hall and Trading House (§7.1, §7.2, §12.7.5-§12.7.7)
NO_PASS = ("observatory", "pub", "prison", "guild-hall", "trading-house")
#: the forms of the action strings (doc/api.md and doc/expansion.md, "Action strings") with the structured form
#: doc/protocol.md gives each: (pattern, kind, source, amount); the pattern's groups are card, row or stack, target
FORMS = [
    (r"pass", 0, None, None),
    (r"buy (?P<card>.+?) from (?P<source>upper|lower)(?: displacing (?P<target>.+))?", 1, None, None),
    (r"play (?P<card>.+?)(?: displacing (?P<target>.+))?", 2, "hand", None),
    (r"take (?P<card>.+?) from (?P<source>upper|lower)", 3, None, None),
    (r"observatory (?P<stack>worker|building|aristocrat|trading)", 4, None, None),
    (r"observatory buy (?P<card>.+?)(?: displacing (?P<target>.+))?", 5, "observatory", None),
    (r"observatory take", 6, "observatory", None),
    (r"observatory discard", 7, "observatory", None),
    (r"pub (?P<amount>\d+)", 8, None, None),
    (r"prison buy (?P<card>.+?)(?: displacing (?P<target>.+))?", 10, "discard", None),
    (r"prison take", 11, "discard", None),
    (r"prison put back", 12, "discard", None),
    (r"prison (?P<card>.+)", 9, "discard", None),
    (r"guild hall (?P<amount>\d)", 13, None, None),
    (r"trading house buy", 14, None, 1),
    (r"trading house decline", 14, None, 0),
]
STRUCTURE = ("kind", "card", "source", "target", "stack", "amount")


def broken(what):
    sys.stderr.write(f"protocol-doc-bot: the document's promise is broken: {what}\n")
    sys.exit(3)


def check_cards(cards, types):
    """The hello's card table: one row per card type (types: 49, or 62 with the New Society), indexed by it, with
    the documented keys; a trading card displaces cards of its colour that are not trading cards. Returns the rows
    by name."""
    if not isinstance(cards, list) or len(cards) != types:
        broken(f"the hello's card table has not one row per card type ({types}): {str(cards)[:100]}")
    for i, row in enumerate(cards):
        if set(row) != CARD_KEYS or row["card"] != i:
            broken(f"card table row {i} is not the documented object: {row}")
        if (row["displaces"] is None) == row["trading"]:
            broken(f"{row['name']}: 'displaces' must be a list exactly for a trading card")
        for t in row["displaces"] or []:
            if cards[t]["trading"] or cards[t]["colour"] != row["colour"]:
                broken(f"{row['name']} displaces {cards[t]['name']}, a trading card or of another colour")
    return {row["name"]: row for row in cards}


def check_legal(legal, view, seat, by_name):
    """Every listed action is affordable, its card a card of the table, no dearer than printed (§5), and a trading
    card displaces one of its table's targets."""
    rubles = view["players"][seat]["rubles"]
    for a in legal:
        if a["price"] is not None and a["price"] > rubles:
            broken(f"'{a['action']}' costs {a['price']} R, more than the seat's {rubles} R")
        m = BUYS.match(a["action"])
        if not m:
            continue
        card, displaced = by_name.get(m.group(1)), m.group(2)
        if card is None:
            broken(f"'{a['action']}' names a card that is not in the card table")
        if a["price"] is None or not 1 <= a["price"] <= card["cost"]:
            broken(f"'{a['action']}' costs {a['price']}, not within [1, the printed cost {card['cost']}]")
        if (displaced is not None) != card["trading"] or (
                displaced is not None and by_name[displaced]["card"] not in card["displaces"]):
            broken(f"'{a['action']}' displaces a card the table does not list for it")


def check_structure(legal, by_name):
    """Each listed action carries its structured form, every key present, and it is what its string says."""
    for a in legal:
        if not set(STRUCTURE) <= set(a):
            broken(f"'{a['action']}' lacks structured keys: {sorted(set(STRUCTURE) - set(a))}")
        for pattern, kind, source, amount in FORMS:
            m = re.fullmatch(pattern, a["action"])
            if m:
                break
        else:
            broken(f"'{a['action']}' has none of the documented forms")
        g = m.groupdict()
        want = {"kind": kind, "card": by_name[g["card"]]["card"] if g.get("card") else None,
                "source": g.get("source") or source, "target": by_name[g["target"]]["card"] if g.get("target") else None,
                "stack": g.get("stack"), "amount": int(g["amount"]) if g.get("amount") else amount}
        got = {k: a[k] for k in STRUCTURE}
        if got != want:
            broken(f"'{a['action']}' has the structure {got}, not {want}")


def value(action, by_name):
    """What a purchase earns per ruble by the card table (VP and rubles of income), 0 for other actions."""
    m = BUYS.match(action["action"])
    if not m:
        return 0.0
    card = by_name[m.group(1)]
    return (card["vp"] + card["rubles"]) / max(action["price"], 1)


def main():
    version = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    rng = random.Random(0)
    log = os.environ.get("PROTOCOL_DOC_BOT_LOG")  # a file to append each request's decision to (for the test)
    seat, by_name = None, {}
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            if version not in msg.get("protocols", [1]):
                broken(f"the arena does not speak protocol {version}: {msg.get('protocols')}")
            new_society = msg.get("game", {}).get("new_society", False)
            if new_society not in (True, False):
                broken(f"game.new_society is not a boolean: {new_society!r}")
            by_name = check_cards(msg.get("cards"), 62 if new_society else 49)
            print(json.dumps({"type": "hello", "protocol": version, "name": f"doc-bot-v{version}"}), flush=True)
        elif kind == "new_game":
            seed = msg["seed"]
            if version >= 2 and not (isinstance(seed, str) and seed.isdigit() and int(seed) < 2 ** 64):
                broken(f"protocol 2 sends the seed as a decimal string, not {seed!r}")
            if version == 1 and not isinstance(seed, int):
                broken(f"protocol 1 sends the seed as a number, not {seed!r}")
            rng.seed(int(seed))
            seat = msg["seat"]
        elif kind == "request":
            legal, view = msg["legal"], msg["view"]
            if not legal:
                broken("a request without a legal action")
            if view.get("view") != "seat" or view.get("viewer") != seat or msg.get("seat") != seat:
                broken("the view is not the seat view of the bot's own seat")
            for player in view["players"]:
                for card, known in zip(player["hand"], player["hand_known"]):
                    if known and card is None:
                        broken("a hand card seen taken is hidden in the view")
            if view["decision"] in NO_PASS and any(a["action"] == "pass" for a in legal):
                broken(f"a {view['decision']} decision lists pass")
            check_legal(legal, view, seat, by_name)
            check_structure(legal, by_name)
            if log:
                with open(log, "a", encoding="utf-8") as f:
                    f.write(view["decision"] + "\n" + "".join(f"kind-{a['kind']}\n" for a in legal))
            best = max(legal, key=lambda a: value(a, by_name))
            choice = best if value(best, by_name) > 0 and rng.random() < 0.5 else rng.choice(legal)
            answer = choice["id"] if rng.random() < 0.5 else choice["action"]  # ids and strings both work
            print(json.dumps({"action": answer, "request": msg["request"]}), flush=True)
        elif kind == "quit":
            break
        # game_end and anything unknown need no answer


if __name__ == "__main__":
    main()
