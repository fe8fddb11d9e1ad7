#!/usr/bin/env python3
"""How much of what a turn's legality reads changes from one turn to the next, in random games (issue 35).

Usage: tools/bench/turn-changes.py [--players N] [--games N] [--seed N] [--option NAME=VALUE]... [--json]

Plays N uniformly random games (stpete.State.apply_random, the playout step, numbers from Python's random.Random
seeded with --seed) and, at every turn (a decision of kind "turn": §4.2, not a chance node, a Pub, an Observatory or
a New Society decision), compares what the legal actions of the seat to act are computed from with its value at
an earlier turn:
  - rows: the two rows of the board (§4.2; their card types are what may be bought or taken), against the previous
    turn's, whoever played it;
  - seat: the acting seat's rubles, display, hand and the phase (what it can afford, what its trading cards may
    displace, what it may play: §5, §6), against that seat's own previous turn;
  - both: rows and seat unchanged: a turn whose listing could have been kept whole from the seat's previous turn
    (when rows did not change in between either);
  - other seat: the seat to act is not the previous turn's.
A cache of legality kept across moves (the rows' type masks, each seat's affordable sets) can reuse at most these
shares; doc/performance.md ("Targets of issue 35") turns them into a bound on what it could save.

Prints one line per measure (share of turns, in %), or with --json one object. Exit status 0, or 2 for bad
arguments (argparse). Needs the Python binding (`import stpete`: PYTHONPATH=bindings/python, and
STPETE_LIBRARY=path/to/libstpete.so.1 for a build tree); the standard library only.
"""
import argparse
import json
import random
import sys

import stpete


def measure(players, games, seed, options):
    """The counts of the docstring's measures over `games` random games of these options (a dict, the keywords of
    stpete.Game); a dict of ints (turns, rows, seat, both, other_seat)."""
    game = stpete.Game(players=players, **options)
    rng = random.Random(seed)
    counts = {"turns": 0, "rows": 0, "seat": 0, "both": 0, "other_seat": 0}
    for index in range(games):
        state = game.new_state(seed=seed * 1000003 + index)
        previous_rows = previous_seat = None
        seen = {}
        while not state.is_terminal:
            if state.decision == stpete.Decision.TURN:
                seat = state.current_player
                rows = (state.row(0), state.row(1))
                mine = (state.rubles(seat), state.display(seat), state.hand(seat), state.phase)
                same_rows, same_seat = rows == previous_rows, seen.get(seat) == mine
                counts["turns"] += 1
                counts["rows"] += same_rows
                counts["seat"] += same_seat
                counts["both"] += same_rows and same_seat
                counts["other_seat"] += seat != previous_seat
                previous_rows, previous_seat, seen[seat] = rows, seat, mine
            state.apply_random(rng.getrandbits(64))
        state.close()
    game.close()
    return counts


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, help="seats (2-4, 2-5 with the New Society; default 2)")
    parser.add_argument("--games", type=int, default=300, help="random games (default 300)")
    parser.add_argument("--seed", type=int, default=11, help="seed of the games and of the picks (default 11)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option of the library's table (stpete.options()), repeatable")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of lines")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    options = {}
    for item in args.option:
        name, _, text = item.partition("=")
        option = next((o for o in stpete.options() if o.name == name), None)
        if option is None or not _:
            parser.error(f"--option takes NAME=VALUE with the NAME of a game option, not {item!r}")
        try:
            options[name] = option.parse(text)
        except stpete.StPeteError as e:
            parser.error(str(e))
    counts = measure(args.players, args.games, args.seed, options)
    shares = {k: counts[k] / counts["turns"] for k in ("rows", "seat", "both", "other_seat")}
    if args.json:
        print(json.dumps({"players": args.players, "games": args.games, "seed": args.seed,
                          "options": options, "turns": counts["turns"], "unchanged": shares}))
        return 0
    print(f"{counts['turns']} turns in {args.games} random games ({args.players} players, seed {args.seed})")
    lines = (("rows unchanged since the previous turn", "rows"),
             ("acting seat's rubles, display, hand unchanged since its last turn", "seat"),
             ("both", "both"), ("seat to act not the previous turn's", "other_seat"))
    for text, key in lines:
        print(f"{text + ':':68s}{100 * shares[key]:5.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
