#!/usr/bin/env python3
"""Every option of the library's table reaches every surface alike (issue 42), TAP.

Usage: options-surfaces.py BUILD_DIR SOURCE_ROOT [--python PYTHON] [--node NODE PACKAGE_DIR [--js-only]]

The table is read from the built library (stpete_option_get_info() through ctypes), so a new option is tested the
moment it is a row of it. For every option and every value (a bool's two, an enum's words, an integer's range and
one past each end, seats at random, one valid and two refused assignments, two seeds), alone over the defaults and
with the New Society, the library's own verdict is the reference: stpete_options_set() and stpete_options_check()
called directly (ctypes), and, for a game, the "options" of its replay record. Each surface must then either give
the same game (the same "options" object of the JSON format: same game, same rules) or refuse the combination with
the library's reason, options named in its own words (the programs' --flags):
  - JSON: a replay record with these options read back (stpete_game_from_json());
  - each program's command line (stpete-selfplay, stpete-arena, stpete-bench, stpete-play), as --option NAME=VALUE
    and as the option's own flag: the game it records or saves, or its exit status 2 and reason;
  - Python: stpete.Game(**options), stpete.check_options();
  - the experiment: python3 -m stpete.experiment --arm (the command line) and its Arm's game;
  - the server API: POST /api/tables (a server process), the table it stores, or 400 with the reason;
  - JavaScript (with --node): new Game(options), checkOptions(), game.optionsJson.
The options of how a program deals and drives its games (category "play": the seed and the chance mode) are each
program's own (--seed; the programs play sampled chance): they are checked on the library's surfaces (JSON, Python,
JavaScript), and the programs must refuse them as --option with the reason that says so. The setup forms of the
pages are checked in Chromium by the page's own tests (bindings/js/test). BUILD_DIR is a native build; with
--js-only (the WebAssembly build's test) only the reference and JavaScript are checked, the native build's own
test having checked the rest.
"""
import ctypes
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import urllib.error
import urllib.request

build, root = sys.argv[1:3]
rest = sys.argv[3:]
python = rest[rest.index("--python") + 1] if "--python" in rest else sys.executable
node = rest[rest.index("--node") + 1:rest.index("--node") + 3] if "--node" in rest else None
js_only = "--js-only" in rest
sys.path.insert(0, os.path.join(root, "tests", "include"))
from tap_report import report  # noqa: E402 (tests/include/tap_report.py)
import option_table  # noqa: E402 (tests/include/option_table.py)

library = os.path.join(build, "libstpete.so")
env = dict(os.environ, STPETE_LIBRARY=library, PYTHONDONTWRITEBYTECODE="1",
           PYTHONPATH=os.pathsep.join([os.path.join(root, "bindings", "python"), os.path.join(root, "server")]))
env.pop("LD_PRELOAD", None)
program = {name: os.path.join(build, sub, name) for sub, name in (
    ("examples", "stpete-selfplay"), ("tools", "stpete-arena"), ("tools", "stpete-bench"), ("tools", "stpete-play"))}
results = []


def check(name, ok, detail=""):
    results.append((name, bool(ok), detail))


# ---- the library, directly: the table and the reference verdicts ----------------------------------------------

class Error(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("status", ctypes.c_int), ("line", ctypes.c_int),
                ("column", ctypes.c_int), ("position", ctypes.c_int), ("message", ctypes.c_char * 256)]


lib = ctypes.CDLL(library)
for fn, args, res in (("stpete_options_new", [ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p], ctypes.c_int),
                      ("stpete_options_free", [ctypes.c_void_p], None),
                      ("stpete_options_set", [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p,
                                              ctypes.POINTER(Error)], ctypes.c_int),
                      ("stpete_options_check", [ctypes.c_void_p, ctypes.POINTER(Error)], ctypes.c_int),
                      ("stpete_game_new", [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p],
                       ctypes.c_int),
                      ("stpete_game_free", [ctypes.c_void_p], None),
                      ("stpete_game_from_json", [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p,
                                                 ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(Error)],
                       ctypes.c_int),
                      ("stpete_replay_to_json", [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_void_p, ctypes.c_size_t,
                                                 ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)],
                       ctypes.c_int)):
    getattr(lib, fn).argtypes, getattr(lib, fn).restype = args, res

table = option_table.read(lib)
by_name = {o["name"]: o for o in table}
NS = "new_society"  # the option of the New Society (§12): the other context of every value


def error():
    e = Error()
    e.struct_size = ctypes.sizeof(Error)
    return e


def reference(combo):
    """The library's verdict on a combination {name: text}: (None, its replay record) or (reason, None)."""
    ptr = ctypes.c_void_p()
    assert lib.stpete_options_new(ctypes.byref(ptr), None) == 0
    try:
        for name, text in combo.items():
            e = error()
            if lib.stpete_options_set(ptr, name.encode(), text.encode(), ctypes.byref(e)) != 0:
                return e.message.decode(), None
        e = error()
        if lib.stpete_options_check(ptr, ctypes.byref(e)) != 0:
            return e.message.decode(), None
        game = ctypes.c_void_p()
        assert lib.stpete_game_new(ptr, ctypes.byref(game), None) == 0
        seed = int(combo.get("seed", "0"))
        buf = ctypes.create_string_buffer(8192)
        n = ctypes.c_size_t()
        assert lib.stpete_replay_to_json(game, seed, None, 0, buf, len(buf), ctypes.byref(n)) == 0
        lib.stpete_game_free(game)
        return None, json.loads(buf.value)
    finally:
        lib.stpete_options_free(ptr)


# ---- the combinations ------------------------------------------------------------------------------------

def values_of(o):
    """Every value of an option as text, and the integers just outside its range."""
    if o["type"] == "bool":
        return ["false", "true"]
    if o["type"] == "enum":
        return list(o["words"])
    if o["type"] == "int":
        return [str(v) for v in range(o["min"] - 1, o["max"] + 2)]
    if o["type"] == "seed":
        return ["0", "18446744073709551615"]
    return ["random", "3,2,1,0", "0,0,1,1", "0,1,2,7"]


combos = []
for o in table:
    for value in values_of(o):
        for with_ns in (False, True):
            combo = {NS: "true"} if with_ns and o["name"] != NS else {}
            combo[o["name"]] = value
            key = json.dumps(combo, sort_keys=True)
            if key not in {json.dumps(c, sort_keys=True) for c, _ in combos}:
                combos.append((combo, o))


def text_value(o, text):
    """The JSON value of a text, as the JSON format and the Python and JavaScript options take it."""
    if o["type"] == "bool":
        return text == "true"
    if o["type"] == "int":
        return int(text)
    if o["type"] == "seats":
        return None if text == "random" else [int(s) for s in text.split(",")]
    return text


def json_text(value):
    """A JSON value of an option as the text stpete_options_set() reads."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "random"
    if isinstance(value, list):
        return ",".join(map(str, value))
    return str(value)


def flag(name):
    return "--" + name.replace("_", "-")


def as_flags(reason):
    """A library reason as a command line says it (tools/common/cli.c): the names with an underscore, and the name
    the reason begins with, written as flags."""
    import re
    for o in sorted(table, key=lambda o: -len(o["name"])):
        if "_" in o["name"]:
            reason = re.sub(r"(?<![\w-])" + o["name"] + r"(?!\w)", flag(o["name"]), reason)
    first = reason.split(" ", 1)[0]
    return (flag(first) + reason[len(first):]) if first in by_name else reason


def same_options(got, want, seed=True):
    """Whether two "options" objects are the same game's (the seed too, unless seed is False)."""
    strip = (lambda d: {k: v for k, v in d.items() if k != "seed"}) if not seed else (lambda d: d)
    return strip(got) == strip(want)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL, timeout=120, **kw)


tmp = tempfile.mkdtemp(prefix="stpete-options-")
records = [(combo, o, *reference(combo)) for combo, o in combos]
verdicts = [(combo, o, reason, record["options"] if record else None) for combo, o, reason, record in records]
check(f"{len(table)} options, {len(verdicts)} combinations: {sum(v[2] is None for v in verdicts)} games, "
      f"{sum(v[2] is not None for v in verdicts)} refused", len(verdicts) > 2 * len(table)
      and any(v[2] for v in verdicts) and any(v[2] is None for v in verdicts))


def name_of(combo):
    return " ".join(f"{k}={v}" for k, v in combo.items())


# ---- JSON ----------------------------------------------------------------------------------------------------

def check_json():
    """JSON: a replay record of every combination read back."""

    # A document of the format version that has the combination's keys: that of a game's record with them (a record
    # has exactly the keys of its version), the combination's values put in.
    templates = sorted(((r["format_version"], r["options"]) for _, _, reason, r in records if r), key=lambda t: t[0])
    for combo, o, reason, want in verdicts:
        version, options = next((v, dict(opts)) for v, opts in templates if all(k in opts for k in combo))
        doc = {"format": "stpete-replay", "format_version": version, "options": options, "actions": []}
        for k in list(options):  # the other options at their defaults (the template's game may have set some)
            if k not in combo and k != "seed":
                options[k] = text_value(by_name[k], by_name[k]["default"])
        for k, v in combo.items():
            options[k] = text_value(by_name[k], v)
        options["seed"] = combo.get("seed", "0")
        text = json.dumps(doc).encode()
        game, e = ctypes.c_void_p(), error()
        rc = lib.stpete_game_from_json(text, len(text), None, ctypes.byref(game), ctypes.byref(e))
        if reason is None:
            ok = rc == 0
            if ok:
                buf, n = ctypes.create_string_buffer(8192), ctypes.c_size_t()
                lib.stpete_replay_to_json(game, int(combo.get("seed", "0")), None, 0, buf, len(buf), ctypes.byref(n))
                ok = same_options(json.loads(buf.value)["options"], want)  # a default written or not: the same
                ok = ok or {k: v for k, v in json.loads(buf.value)["options"].items() if by_name[k]["default"] !=
                            json_text(v)} == {k: v for k, v in want.items() if by_name[k]["default"] != json_text(v)}
                lib.stpete_game_free(game)
            check(f"JSON: {name_of(combo)}: the same game", ok, e.message.decode())
        else:  # the reason of the check, or the JSON reader's range of the key (a seat, players 2..5, edition 1..2)
            said = e.message.decode()
            ok = rc != 0 and (reason in said or f"options.{o['name']}" in said)
            check(f"JSON: {name_of(combo)}: refused with the table's reason", ok, f"{said!r} vs {reason!r}")


# ---- the programs' command lines ----------------------------------------------------------------------------

def check_programs():
    """each program's command line."""

    def cli_args(combo, as_flag):
        """--option NAME=VALUE for each option, or its own flag (a bool's alone when true)."""
        args = []
        for k, v in combo.items():
            if as_flag and by_name[k]["type"] == "bool" and v == "true":
                args.append(flag(k))
            elif as_flag and by_name[k]["type"] != "bool":
                args += [flag(k), v]
            else:
                args += ["--option", f"{k}={v}"]
        return args


    def program_game(name, combo, as_flag, out):
        """Run a program with the combination: (exit status, stderr, "options" of what it wrote, or None)."""
        args = cli_args(combo, as_flag)
        if "players" not in combo:
            args += ["--players", by_name["players"]["default"]]  # the table's default (the programs have their own)
        if name == "stpete-selfplay":
            p = run([program[name], "--bots", "random", "--seed", "7", "--record", out, *args])
            return p.returncode, p.stderr, json.load(open(out))["options"] if p.returncode == 0 else None
        if name == "stpete-arena":
            p = run([program[name], "--games", "1", "--bots", "random", "--quiet", "--record", out, *args])
            path = os.path.join(out, "game-000000.json")
            return p.returncode, p.stderr, json.load(open(path))["options"] if p.returncode == 0 else None
        if name == "stpete-bench":
            p = run([program[name], "--games", "1", "--games-only", "--json", *args])
            got = json.loads(p.stdout) if p.returncode == 0 else None
            return p.returncode, p.stderr, got
        p = run([program[name], "--plain", "--seat", "0", "--bots", "random", "--seed", "7", "--autosave", out, *args])
        return p.returncode, p.stderr, json.load(open(out))["options"] if p.returncode == 0 and os.path.exists(out) \
            else None


    for name in program:
        for index, (combo, o, reason, want) in enumerate(verdicts):
            as_flag = index % 2 == 1 and o["category"] != "play"  # the programs' own --seed is no game option
            out = os.path.join(tmp, f"{name}-{index}")
            rc, err, got = program_game(name, combo, as_flag, out)
            how = "flags" if as_flag else "--option"
            if o["category"] == "play":
                check(f"{name} (--option): {name_of(combo)}: the program's own", rc == 2 and
                      f"{o['name']} is how a program deals and drives its games" in err, err)
                continue
            if reason is not None:
                check(f"{name} ({how}): {name_of(combo)}: refused with the table's reason", rc == 2 and
                      as_flags(reason) in err, f"exit {rc}: {err!r} vs {as_flags(reason)!r}")
                continue
            if name == "stpete-bench":  # its JSON report names the options (players are per result)
                ok = rc == 0 and all(got.get(k) == v for k, v in want.items() if k not in ("players", "seed") and
                                     by_name[k]["category"] != "play")
            else:
                ok = rc == 0 and got is not None and same_options(got, want, seed=False)
            check(f"{name} ({how}): {name_of(combo)}: the same game", ok, f"exit {rc}: {err}\n{got}\n{want}")


# ---- Python, and the experiment --------------------------------------------------------------------------------

def check_python():
    """Python and the experiment."""

    driver = r"""
    import json, sys
    import stpete
    from stpete import experiment
    out = []
    for combo in json.load(sys.stdin):
        try:  # a number that is no value of its option (seat 7) is refused as the text is read
            options = {k: stpete.options()[[o.name for o in stpete.options()].index(k)].parse(v)
                       for k, v in combo.items()}
        except stpete.StPeteError as e:
            entry = {"check": str(e).partition("(): ")[2], "refused": str(e)}
        else:
            entry = {"check": stpete.check_options(**options)}
            try:
                game = stpete.Game(**options)
                entry["game"] = json.loads(stpete.replay_to_json(game, game.seed, []))["options"]
            except stpete.StPeteError as e:
                entry["refused"] = str(e)
        arm_options = {k: v for k, v in combo.items()
                       if next(o for o in stpete.options() if o.name == k).category != stpete.OptionCategory.PLAY}
        if len(arm_options) == len(combo):
            try:
                arm = experiment.parse_arm("a:" + ":".join(f"{k}={v}" for k, v in combo.items()) + ":bots=random")
                with stpete.Game(players=arm.players, **arm.options) as game:
                    entry["arm"] = json.loads(stpete.replay_to_json(game, 0, []))["options"]
            except experiment.ExperimentError as e:
                entry["arm_refused"] = str(e)
        out.append(entry)
    print(json.dumps(out))
    """
    p = subprocess.run([python, "-c", textwrap.dedent(driver)], input=json.dumps([c for c, *_ in verdicts]), capture_output=True,
                       text=True, env=env, timeout=300)
    check("Python: the driver ran", p.returncode == 0, p.stderr)
    answers = json.loads(p.stdout) if p.returncode == 0 else []
    for (combo, o, reason, want), a in zip(verdicts, answers):
        if reason is None:
            check(f"Python: {name_of(combo)}: the same game", a["check"] is None and same_options(a.get("game"), want),
                  json.dumps(a))
            if o["category"] != "play":
                check(f"experiment (arm): {name_of(combo)}: the same game", same_options(a.get("arm"), want, seed=False),
                      json.dumps(a))
        else:
            check(f"Python: {name_of(combo)}: refused with the table's reason",
                  a["check"] == reason and reason in a.get("refused", ""), json.dumps(a))
            if o["category"] != "play":
                check(f"experiment (arm): {name_of(combo)}: refused with the table's reason",
                      reason in a.get("arm_refused", ""), json.dumps(a))

    # the experiment's command line, on each combination of the rules (one game each)
    for index, (combo, o, reason, want) in enumerate(verdicts):
        if o["category"] == "play":
            continue
        arm = "a:" + ":".join(f"{k}={v}" for k, v in combo.items()) + ":bots=random"
        out = os.path.join(tmp, f"experiment-{index}.jsonl")
        p = run([python, "-m", "stpete.experiment", "--games", "1", "--quiet", "--out", out, "--arm", arm])
        if reason is None:
            lines = [json.loads(x) for x in open(out)] if p.returncode == 0 else []  # a results file (doc/format.md)
            ok = p.returncode == 0 and [len(x["fields"]["seats"]) for x in lines[1:]] == [int(want["players"])]
            check(f"stpete-experiment: {name_of(combo)}: plays", ok, p.stderr)
        else:
            check(f"stpete-experiment: {name_of(combo)}: refused with the table's reason",
                  p.returncode == 2 and reason in p.stderr, p.stderr)


# ---- the server's API ----------------------------------------------------------------------------------------

def check_server():
    """the server's API."""

    db = os.path.join(tmp, "server.sqlite")
    server = subprocess.Popen([python, "-m", "stpete_server", "--port", "0", "--db", db, "--bot-workers", "1",
                               "--creations-per-minute", "100000", "--max-tables", "100000", "--log-level", "WARNING"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        line = server.stdout.readline()
        check("server: started", line.startswith("stpete-server listening on "), line)
        url = line.split()[-1].rstrip("/")
        with urllib.request.urlopen(url + "/api/options") as r:
            listed = [o["name"] for o in json.load(r)["options"]]
        check("server: GET /api/options lists the table's options but those of play, in its order",
              listed == [o["name"] for o in table if o["category"] != "play"], listed)
        for combo, o, reason, want in verdicts:
            if o["category"] == "play":
                continue
            players = int(combo.get("players", by_name["players"]["default"]))
            rules = {k: text_value(by_name[k], v) for k, v in combo.items() if k != "players"}
            body = json.dumps({"players": players, "seats": ["human"] + ["bot"] * max(0, players - 1), "bot": "random",
                               "rules": rules}).encode()
            req = urllib.request.Request(url + "/api/tables", data=body, headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(req) as r:
                    status, answer = r.status, json.load(r)
            except urllib.error.HTTPError as e:
                status, answer = e.code, json.load(e)
            if reason is None:  # the table stored: its options (without players and the seed) make the same game
                with sqlite3.connect(db) as conn:
                    stored = conn.execute("SELECT options FROM tables WHERE id = ?", (answer.get("table"),)).fetchone()
                given = {k: json_text(v) for k, v in json.loads(stored[0]).items()} if stored else {}
                game = stored and reference({"players": str(players), **given})
                check(f"server: {name_of(combo)}: creates the same game", status == 200 and game and game[0] is None
                      and same_options(game[1]["options"], want), f"{status} {answer} {stored}")
            else:
                check(f"server: {name_of(combo)}: 400 with the table's reason", status == 400 and
                      reason in answer.get("error", ""), f"{status} {answer}")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(20)
        server.stdout.close()


# ---- JavaScript ----------------------------------------------------------------------------------------------

def check_javascript():
    """JavaScript."""
    node_exe, package = node
    js = r"""
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
const S = await import(pathToFileURL(process.argv[2] + '/src/index.js').href);
const combos = JSON.parse(readFileSync(0, 'utf8'));
const out = [];
for (const combo of combos) {
  const given = {};
  for (const [k, v] of Object.entries(combo)) given[k] = JSON.parse(v);
  const entry = { check: S.checkOptions(given) };
  try { const g = new S.Game(given); entry.game = g.optionsJson; g.free(); } catch (e) { entry.refused = e.message; }
  out.push(entry);
}
console.log(JSON.stringify(out));
"""
    script = os.path.join(tmp, "options.mjs")
    with open(script, "w") as f:
        f.write(js)
    payload = [{k: json.dumps(text_value(by_name[k], v)) for k, v in combo.items()} for combo, *_ in verdicts]
    p = subprocess.run([node_exe, script, package], input=json.dumps(payload), capture_output=True, text=True,
                       timeout=300)
    check("JavaScript: the driver ran", p.returncode == 0, p.stderr)
    for (combo, o, reason, want), a in zip(verdicts, json.loads(p.stdout) if p.returncode == 0 else []):
        if reason is None:
            got = a.get("game") or {}
            check(f"JavaScript: {name_of(combo)}: the same game", a["check"] is None and
                  all(got.get(k) == v for k, v in want.items()), json.dumps(a))
        else:
            check(f"JavaScript: {name_of(combo)}: refused with the table's reason",
                  a["check"] == reason and reason in a.get("refused", ""), json.dumps(a))

if not js_only:  # with --js-only the native build's own run has checked these
    check_json()
    check_programs()
    check_python()
    check_server()
if node:
    check_javascript()
shutil.rmtree(tmp, ignore_errors=True)
report(results)
