#!/usr/bin/env python3
"""A complete external bot for stpete-arena that needs no binding: the standard library's json only.

It speaks the protocol of doc/protocol.md on stdin/stdout, one JSON message per line, and plays a random legal
action (seeded by the arena's new_game message, so a tournament stays reproducible), or with --first the first
legal action. Any language that reads and writes lines of JSON could have written it.

    stpete-arena --bots 'greedy,cmd:python3 examples/bots/minimal_bot.py'
"""
import json
import random
import sys


def main():
    first = "--first" in sys.argv[1:]
    rng = random.Random(0)
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            reply = {"type": "hello", "protocol": 2, "name": "minimal-first" if first else "minimal-random"}
        elif kind == "new_game":
            rng.seed(int(msg["seed"]))  # protocol 2: a decimal string (exact in every JSON parser)
            continue
        elif kind == "request":
            legal = msg["legal"]
            choice = legal[0] if first else rng.choice(legal)
            reply = {"action": choice["id"], "request": msg["request"]}
        elif kind == "game_end":
            continue
        elif kind == "quit":
            break
        else:
            continue  # messages of later protocol versions are ignored
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
