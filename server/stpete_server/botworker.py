"""python3 -m stpete_server.botworker: one of the server's bot workers (started by botpool.BotPool, not by hand).

It reads questions from its standard input, one JSON object a line, ``{"state": FULL_STATE_JSON, "spec": SPEC,
"seed": U64}``, and answers each on its standard output, one line: ``{"action": ID, "iterations": N}`` (the bot's
action id for the seat to act, and the playouts its search ran, stpete_bot_get_stats) or ``{"error": REASON}``.
Its first line is ``{"ready": PID}``, once the library is loaded. It ends at the end of its input, and within 0.2 s
once the process that started it is gone (kill -9 included): it watches its parent.
"""
import json
import os
import sys
import threading
import time
from typing import Dict, Tuple

import stpete

_bots: Dict[Tuple[str, str], "stpete.Bot"] = {}  # (options JSON, spec) -> Bot, reused between questions


def watch_parent(parent: int) -> None:
    """End this process as soon as ``parent`` is no longer its parent (it ended and this one was adopted)."""
    def watch():
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)
    threading.Thread(target=watch, name="stpete-botworker-parent-watch", daemon=True).start()


def choose(state_json: str, spec: str, seed: int) -> Tuple[int, int]:
    """The bot ``spec``'s action id for the full state ``state_json`` (stpete_state_to_json), its search seeded
    with ``seed``, and the playouts it ran. The bot reads only what the seat to act knows (§9)."""
    state = stpete.State.from_json(state_json)
    try:
        key = (json.dumps(state.game.options, sort_keys=True, default=int), spec)
        bot = _bots.get(key)
        if bot is None:
            if len(_bots) >= 64:  # bounded: a game's options and a spec each
                _bots.pop(next(iter(_bots))).close()
            bot = _bots[key] = stpete.Bot(spec, game=state.game)
        bot.set_seed(seed)
        action = bot.choose_id(state)
        return action, bot.stats.iterations
    finally:
        state.close()


def main() -> int:
    watch_parent(os.getppid())
    out = sys.stdout
    out.write(json.dumps({"ready": os.getpid()}) + "\n")
    out.flush()
    for line in sys.stdin.buffer:
        try:
            question = json.loads(line)
            action, iterations = choose(question["state"], question["spec"], question["seed"])
            answer = {"action": action, "iterations": iterations}
        except Exception as e:  # noqa: BLE001 - told to the server, which decides
            answer = {"error": f"{type(e).__name__}: {e}"}
        out.write(json.dumps(answer) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
