#!/usr/bin/env python3
"""Equal thinking time, measured in CPU time (doc/learning.md): the CPU milliseconds per decision of bot specs on the
same positions, so that the learned bot's matches give it the iterations that cost what the default ismcts's cost.

Usage: PYTHONPATH=bindings/python STPETE_LIBRARY=build/libstpete.so.1 /usr/bin/python3 tools/learn/calibrate.py \\
           PLAYERS [ns] SPEC...

The positions: every 7th decision with two or more legal actions of three games (seeds 100-102) that the greedy bot
plays at every seat, for 2-4 players, or 2-5 with "ns" (the New Society, §12). Each spec chooses at every position
in turn; the CPU time of this process (time.process_time, not the wall clock: on a shared machine the wall clock
counts other programs' time too) is divided by the positions. Standard library and the binding only.
"""
import sys
import time

import stpete


def positions(players, expansion):
    game = stpete.Game(players=players, seed=11, **({"new_society": True} if expansion else {}))
    greedy = stpete.Bot("greedy", game=game)
    out = []
    for seed in (100, 101, 102):
        state = game.new_state(seed=seed)
        k = 0
        while not state.is_terminal:
            if k % 7 == 0 and len(state.legal_action_ids()) > 1:
                out.append(state.clone())
            state.apply(greedy.choose_id(state))
            k += 1
    return game, out


def main(argv):
    if len(argv) < 2 or not argv[0].isdigit():
        sys.exit(__doc__)
    players, expansion = int(argv[0]), argv[1] == "ns"
    specs = argv[2:] if expansion else argv[1:]
    game, states = positions(players, expansion)
    for spec in specs:
        bot = stpete.Bot(spec, game=game)
        t0 = time.process_time()
        for state in states:
            bot.choose_id(state)
        ms = 1000 * (time.process_time() - t0) / len(states)
        print(f"{players} players{', New Society' if expansion else ''}: {spec}: {ms:.2f} ms CPU per decision "
              f"({len(states)} positions)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
