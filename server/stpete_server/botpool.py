"""The library's bots, thinking in worker processes so that the server's request loop never waits for them.

:class:`BotPool` wraps a ``concurrent.futures.ProcessPoolExecutor`` (fork start method: the workers inherit the
loaded library). Every worker watches its parent (as stpete.experiment's workers do) and ends within 0.2 s once the
server is gone, also when the server was killed with SIGKILL and could not stop them.
"""
import asyncio
import concurrent.futures
import json
import multiprocessing
import os
import threading
import time
from typing import Dict, Tuple

import stpete

#: Bot kinds a table may choose, with the strength (iterations) used by the search bots.
BOT_KINDS = ("random", "greedy", "mc", "ismcts")

_bots: Dict[Tuple[str, str], "stpete.Bot"] = {}  # per worker process: (options JSON, spec) -> Bot, reused


def bot_spec(kind: str, strength: int) -> str:
    """The library's bot spec (bots.h) of a table's bot choice: "random", "greedy", "mc:iterations=N",
    "ismcts:iterations=N". Raises ValueError for another kind or a strength outside 1..100000."""
    if kind not in BOT_KINDS:
        raise ValueError(f"bot must be one of {', '.join(BOT_KINDS)}, not {kind!r}")
    if isinstance(strength, bool) or not isinstance(strength, int) or not 1 <= strength <= 100000:
        raise ValueError("strength (the search bots' iterations) must be a whole number from 1 to 100000")
    return f"{kind}:iterations={strength}" if kind in ("mc", "ismcts") else kind


def _watch_parent(parent: int) -> None:
    """Worker initializer: end this process as soon as ``parent`` (the server's pid) is gone."""
    def watch():
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)
    threading.Thread(target=watch, name="stpete-server-parent-watch", daemon=True).start()


def _ready() -> int:
    return os.getpid()


def choose(state_json: str, spec: str, seed: int) -> int:
    """In a worker: the bot ``spec``'s action id for the full state ``state_json`` (stpete_state_to_json), its
    search seeded with ``seed``. The bot reads only what the seat to act knows (§9)."""
    state = stpete.State.from_json(state_json)
    try:
        key = (json.dumps(state.game.options, sort_keys=True, default=int), spec)
        bot = _bots.get(key)
        if bot is None:
            bot = _bots[key] = stpete.Bot(spec, game=state.game)
        bot.set_seed(seed)
        return bot.choose_id(state)
    finally:
        state.close()


class BotPool:
    """``workers`` processes choosing bot moves. Create it before the server starts threads or its event loop
    (fork). :meth:`choose` is awaited from the event loop; :meth:`close` ends the workers."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._pool = None
        self._start()

    def _start(self):
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
        self._pool = concurrent.futures.ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx,
                                                            initializer=_watch_parent, initargs=(os.getpid(),))
        # With fork, the first submit starts every worker: do it now, before any thread of the server exists.
        self.pids = sorted(set(f.result() for f in [self._pool.submit(_ready) for _ in range(self.workers)]))

    async def choose(self, state_json: str, spec: str, seed: int) -> int:
        """The bot's action id for ``state_json``. A worker that died (e.g. killed) is replaced once and the
        question asked again; any other failure raises."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, choose, state_json, spec, seed)
        except concurrent.futures.process.BrokenProcessPool:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._start()
            return await loop.run_in_executor(self._pool, choose, state_json, spec, seed)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
