"""An external bot written from doc/protocol.md alone (issue 21): the standard library only, no part of libstpete.

Usage: protocol-doc-bot.py [VERSION]   (VERSION 2, the default, or 1). It answers the arena's hello with that
protocol version and checks what the document promises: the arena lists the version among its `protocols`; the
`new_game` seed is a string of decimal digits in version 2 and a number in version 1; every request lists at least one
legal action and the view is a seat view of the bot's own seat in which the hand cards it saw taken are names (null
only for a card it has not seen). It plays a random legal action from the seed (a reproducible tournament), preferring
cheap purchases. A broken promise ends the process with status 3 and a message on stderr: the arena reports that as
a forfeit, so a tournament without forfeits means every promise held."""
import json
import random
import sys


def broken(what):
    sys.stderr.write(f"protocol-doc-bot: the document's promise is broken: {what}\n")
    sys.exit(3)


def main():
    version = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    rng = random.Random(0)
    seat = None
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            if version not in msg.get("protocols", [1]):
                broken(f"the arena does not speak protocol {version}: {msg.get('protocols')}")
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
            if view["decision"] in ("observatory", "pub") and any(a["action"] == "pass" for a in legal):
                broken(f"a {view['decision']} decision lists pass")
            cheap = [a for a in legal if a["price"] is not None and a["price"] <= 6]
            choice = rng.choice(cheap if cheap and rng.random() < 0.5 else legal)
            answer = choice["id"] if rng.random() < 0.5 else choice["action"]  # ids and strings both work
            print(json.dumps({"action": answer, "request": msg["request"]}), flush=True)
        elif kind == "quit":
            break
        # game_end and anything unknown need no answer


if __name__ == "__main__":
    main()
