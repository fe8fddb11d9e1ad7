#!/usr/bin/env python3
"""Golden playthroughs (issue 3 item 6, OpenSpiel-style): one seeded game per player count, committed under
tests/selfplay/golden/ and compared byte for byte. TAP output.

  golden-check.py SELFPLAY REPLAY GOLDEN_DIR

For N = 2, 3, 4 players (seed 1, default bots), first edition (replay-Np.*) and second-edition preset (rules §11,
--edition 2: replay-Np-ed2.*):
  - stpete-selfplay --record writes exactly tests/selfplay/golden/replay-Np[-ed2].json;
  - stpete-replay on that record prints exactly tests/selfplay/golden/replay-Np[-ed2].log;
  - the replayed log is the self-play log (after their one-line headers): recording loses nothing.
"""
import os
import subprocess
import sys
import tempfile

selfplay, replay, golden = sys.argv[1:4]
results = []


def check(name, ok, detail=""):
    results.append((name, ok, detail))


for n, edition in ((n, e) for n in (2, 3, 4) for e in (1, 2)):
    name = f"replay-{n}p" + ("-ed2" if edition == 2 else "")
    label = f"{n}p" + (" (second edition)" if edition == 2 else "")
    record = os.path.join(golden, name + ".json")
    with open(record, "rb") as f:
        want_record = f.read()
    with open(os.path.join(golden, name + ".log"), "rb") as f:
        want_log = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        play = subprocess.run([selfplay, "--players", str(n), "--edition", str(edition), "--seed", "1",
                               "--record", out], capture_output=True)
        check(f"{label}: stpete-selfplay --record exits 0", play.returncode == 0, play.stderr.decode())
        got = open(out, "rb").read() if os.path.exists(out) else b""
        check(f"{label}: the record equals tests/selfplay/golden/{name}.json byte for byte", got == want_record,
              f"{len(got)} vs {len(want_record)} bytes")
    # Run the replay from the golden directory so the file name in its header is the relative one.
    rep = subprocess.run([os.path.abspath(replay), name + ".json"], capture_output=True, cwd=golden)
    check(f"{label}: stpete-replay exits 0", rep.returncode == 0, rep.stderr.decode())
    check(f"{label}: the replay log equals tests/selfplay/golden/{name}.log byte for byte", rep.stdout == want_log)
    body_play = play.stdout.split(b"\n")[1 + n:]  # header line + one line per seat
    body_replay = rep.stdout.split(b"\n")[1:]
    check(f"{label}: the replayed log is the self-play log", body_play == body_replay)
    edition_word = b"(second edition)" if edition == 2 else b"(first edition)"
    check(f"{label}: both headers name the edition", edition_word in play.stdout.split(b"\n")[0] and
          edition_word in rep.stdout.split(b"\n")[0])

# A record that is cut short or has an illegal action is refused with a message and exit status 1.
with open(os.path.join(golden, "replay-2p.json"), "rb") as f:
    text = f.read()
with tempfile.TemporaryDirectory() as tmp:
    cut = os.path.join(tmp, "cut.json")
    open(cut, "wb").write(text[: len(text) // 2])
    rep = subprocess.run([replay, cut], capture_output=True)
    check("a truncated record is refused with a line and column", rep.returncode == 1 and
          b"parse error at line" in rep.stderr, rep.stderr.decode())
    bad = os.path.join(tmp, "bad.json")
    open(bad, "wb").write(text.replace(b'"id": 0,\n   "action": "pass"', b'"id": 960,\n   "action": "observatory discard"', 1))
    rep = subprocess.run([replay, bad], capture_output=True)
    check("a record with an illegal action is refused, naming it", rep.returncode == 1 and
          b"actions[" in rep.stderr and b"not legal" in rep.stderr, rep.stderr.decode())
    rec = subprocess.run([selfplay, "--games", "2", "--record", os.path.join(tmp, "x.json")], capture_output=True)
    check("--record with several games is a usage error", rec.returncode == 2)

print(f"1..{len(results)}")
for i, (name, ok, detail) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {name}")
    if not ok and detail:
        for line in detail.splitlines():
            print(f"# {line}")
sys.exit(0 if all(ok for _, ok, _ in results) else 1)
