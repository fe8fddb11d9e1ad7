#!/usr/bin/env python3
"""A hostile external bot for tests/arena/arena-hostile.py (issue 22): `arena-hostile-bot.py MODE MARKER`.

It plays the first legal action. MODE fork: at its hello it forks a child that sleeps (its command line holds MARKER,
so the test can look for it), then plays and quits normally. fork-setsid: the same, the child leaves the bot's
process group (setsid). fork-crash: forks the child, then exits (status 3) at its third request (a forfeit).
trailing-nul / trailing-junk / trailing-spaces: its answers carry a NUL byte and junk, a second JSON value, or
spaces after the JSON value. fds: at its start it appends the descriptors it has open to the file MARKER, one JSON
list per line (tests/arena/arena-files.py), then plays."""
import json
import os
import sys

mode, marker = sys.argv[1], sys.argv[2]
requests = 0


def open_fds():
    """The descriptors open in this process (the one os.listdir() uses to read /proc/self/fd is closed again)."""
    fds = []
    for name in os.listdir("/proc/self/fd"):
        try:
            os.fstat(int(name))
            fds.append(int(name))
        except OSError:
            pass
    return sorted(fds)


if mode == "fds":
    fds = open_fds()
    with open(marker, "a") as report:
        report.write(json.dumps(fds) + "\n")


def send(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def fork_sleeper(new_session):
    if os.fork() == 0:
        if new_session:
            os.setsid()
        os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(300)", marker])


for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "hello":
        if mode.startswith("fork"):
            fork_sleeper(mode == "fork-setsid")
        send(json.dumps({"type": "hello", "protocol": 1, "name": "hostile-" + mode}))
    elif kind == "request":
        requests += 1
        action = json.dumps({"action": msg["legal"][0]["id"]})
        if mode == "fork-crash" and requests == 3:
            sys.exit(3)
        if mode == "trailing-nul":
            action += "\0junk"
        elif mode == "trailing-junk":
            action += ' {"action": 1}'
        elif mode == "trailing-spaces":
            action += "   "
        send(action)
    elif kind == "quit":
        break
