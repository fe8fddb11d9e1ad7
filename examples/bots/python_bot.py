#!/usr/bin/env python3
"""An external bot for stpete-arena written with the Python binding (bindings/python, `import stpete`).

The arena sends the seat's view and the legal actions (doc/protocol.md); the bot decodes each action with the
binding (`stpete.Action.from_id`: kind, card) and values it with the card table of the game's edition
(`Game.card_info`): a card's income per scoring times the rounds that probably remain, less a quarter VP per
ruble it costs; a Pub VP is worth 1 VP less its 2 R; taking a card into the hand costs a little. The best value
wins; ties go to the first listed. A heuristic of a few lines, to show the shape of a bot.

    PYTHONPATH=bindings/python stpete-arena --bots 'greedy,cmd:python3 examples/bots/python_bot.py'
"""
import json
import sys

import stpete


def value(game, action, price, view, seat):
    """Estimated VP of an action for the acting seat."""
    stacks = view["stack_sizes"].values()
    rounds_left = 1 + min(stacks) / 6          # as the library's greedy evaluation estimates it
    cost = 0.25 * (price or 0)                 # a ruble is worth about a quarter VP
    kind = action.kind
    if kind in (stpete.ActionKind.BUY, stpete.ActionKind.PLAY, stpete.ActionKind.OBSERVATORY_BUY):
        info = game.card_info(action.card)
        gain = (info.vp + 0.25 * info.rubles) * rounds_left
        if info.colour == stpete.Colour.ORANGE:
            gain += 2                          # aristocrats of a new kind score at the end (§8)
        return gain - cost
    if kind == stpete.ActionKind.PUB:
        return action.amount * (1 - 0.5)      # 1 VP for 2 R (§7.2)
    if kind in (stpete.ActionKind.TAKE, stpete.ActionKind.OBSERVATORY_TAKE):
        return -0.5 if len(view["players"][seat]["hand"] or []) < 1 else -3
    return 0.0


def main():
    game = None
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            options = msg["game"]  # every option of the game but its seed, as the JSON format writes it
            game = stpete.Game(**{o.name: options[o.name] for o in stpete.options() if o.name in options})
            reply = {"type": "hello", "protocol": 2, "name": "python-heuristic"}
        elif kind == "request":
            view, seat = msg["view"], msg["seat"]
            best = max(msg["legal"], key=lambda a: value(game, stpete.Action.from_id(a["id"]), a["price"], view, seat))
            reply = {"action": best["id"], "request": msg["request"]}
        elif kind == "quit":
            break
        else:
            continue  # new_game, game_end and messages of later protocol versions need no answer
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
