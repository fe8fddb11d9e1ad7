#!/usr/bin/env python3
"""A misbehaving external bot for the arena's tests (tests/arena/arena-check.py): `arena-bad-bot.py MODE`.

It plays the first legal action, except in the games whose deal (game // 2, two seatings per deal in the tests'
2-player tournaments) is even, where it misbehaves at its third request: MODE crash (exit 3 after a line on
stderr), hang (sleep), garbage (a line that is not JSON), illegal (an action id that is not legal), unknown (an
action string that is no action), wrong-request (an answer for another request). MODE slow plays a random
legal action (seeded by new_game) after 2 ms in every game, without misbehaving. MODE slow-start sleeps before
its hello and bad-hello answers protocol 99: those fail every game."""
import json
import random
import sys
import time

mode = sys.argv[1]
game = 0
requests = 0


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "hello":
        if mode == "slow-start":
            time.sleep(30)
        send({"type": "hello", "protocol": 99 if mode == "bad-hello" else 1, "name": "bad-" + mode})
    elif kind == "new_game":
        game, requests = msg["game"], 0
        rng = random.Random(msg["seed"])
    elif kind == "request":
        requests += 1
        legal = [a["id"] for a in msg["legal"]]
        if mode == "slow":
            time.sleep(0.002)
            send({"action": rng.choice(legal)})
            continue
        if (game // 2) % 2 == 0 and requests == 3:
            print(f"bad bot: misbehaving ({mode}) in game {game}", file=sys.stderr, flush=True)
            if mode == "crash":
                sys.exit(3)
            if mode == "hang":
                time.sleep(60)
            if mode == "garbage":
                sys.stdout.write("I think I will take the Market\n")
                sys.stdout.flush()
                continue
            if mode == "illegal":
                send({"action": next(i for i in range(972) if i not in legal)})
                continue
            if mode == "unknown":
                send({"action": "fly to the moon"})
                continue
            if mode == "wrong-request":
                send({"action": legal[0], "request": msg["request"] + 7})
                continue
        send({"action": legal[0], "request": msg["request"]})
    elif kind == "quit":
        break
