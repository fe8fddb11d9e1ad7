"""The library's bots, thinking in worker processes so that the server's request loop never waits for them, shared
fairly between the people who created tables.

:class:`BotPool` keeps ``workers`` processes of :mod:`stpete_server.botworker`, each started with fork and exec
(``asyncio.create_subprocess_exec``: nothing of the server's threads or locks is inherited), asked one question at a
time over a pipe. A worker that dies (killed, out of memory) or that does not answer within its deadline is
replaced on its own, and the question it had is asked again once; the other workers and their questions are not
touched. Every worker ends within 0.2 s once the server is gone, also when the server was killed with SIGKILL.

Who thinks next (:class:`FairQueue`): first the *owner* (the address that created the table), then the owner's
table, whose bots have had the least of the workers' time lately. An owner or a table whose bots think a lot waits
behind those whose bots think little, so a few tables of the strongest bots cannot starve the others: another
table's question waits for the questions already in the workers, not for theirs. And no question keeps a worker
longer than ``move_seconds``: the search bots (mc, ismcts) get that as their wall-clock limit (the bot spec's
``ms``, bots.h), whatever their iterations (doc/server.md "Bots").
"""
import asyncio
import collections
import itertools
import json
import logging
import math
import os
import sys
import time
from typing import Deque, Dict, List, Optional, Tuple

import stpete

log = logging.getLogger("stpete_server")

#: Bot kinds a table may choose, with the strength (iterations) used by the search bots.
BOT_KINDS = ("random", "greedy", "mc", "ismcts")
SEARCH_KINDS = ("mc", "ismcts")


def bot_spec(kind: str, strength: int) -> str:
    """The library's bot spec (bots.h) of a table's bot choice: "random", "greedy", "mc:iterations=N",
    "ismcts:iterations=N". Raises ValueError for another kind or a strength outside 1..100000."""
    if kind not in BOT_KINDS:
        raise ValueError(f"bot must be one of {', '.join(BOT_KINDS)}, not {kind!r}")
    if isinstance(strength, bool) or not isinstance(strength, int) or not 1 <= strength <= 100000:
        raise ValueError("strength (the search bots' iterations) must be a whole number from 1 to 100000")
    return f"{kind}:iterations={strength}" if kind in SEARCH_KINDS else kind


def parse_bot_spec(spec: object) -> Tuple[str, Optional[int]]:
    """(kind, strength or None) of a stored bot spec, which must be exactly what :func:`bot_spec` writes; else
    ValueError (a damaged row)."""
    if not isinstance(spec, str):
        raise ValueError(f"bot spec {spec!r} is not text")
    kind, _, rest = spec.partition(":iterations=")
    strength = None
    if rest:
        if not rest.isdigit():
            raise ValueError(f"bot spec {spec!r} is not one the server writes")
        strength = int(rest)
    if bot_spec(kind, strength if strength is not None else 1) != spec:
        raise ValueError(f"bot spec {spec!r} is not one the server writes")
    return kind, strength


def limited_spec(spec: str, move_seconds: float) -> str:
    """The spec a worker is given: a search bot's (mc, ismcts) with the wall-clock limit ``move_seconds`` (the
    ``ms`` key, bots.h: the first of iterations and time reached ends the search); 0: no limit."""
    if move_seconds > 0 and spec.split(":", 1)[0] in SEARCH_KINDS:
        return f"{spec}:ms={max(1, int(move_seconds * 1000))}"
    return spec


class BotError(Exception):
    """A question the pool could not answer: the bot refused it (``str(e)`` is its reason), or workers died on it
    twice, or it ran past its deadline."""


class _Question:
    __slots__ = ("owner", "flow", "payload", "future", "seq", "charged", "attempts")

    def __init__(self, owner: str, flow: str, payload: bytes, future: "asyncio.Future", seq: int) -> None:
        self.owner, self.flow, self.payload, self.future, self.seq = owner, flow, payload, future, seq
        self.charged = 0.0
        self.attempts = 0


class _Share:
    """What one key (an owner, or one of its tables) has had of the workers: ``used``, seconds of work decayed with
    time constant :data:`DECAY` (so that what was used long ago counts less and less), as of ``stamp``."""
    __slots__ = ("used", "stamp", "busy", "cost", "queue", "shares")

    def __init__(self, used: float, now: float) -> None:
        self.used = used
        self.stamp = now
        self.busy = 0       # its questions being thought about
        self.cost = 0.0     # seconds its last question took: charged in advance for the next one
        self.queue: Deque[_Question] = collections.deque()   # a table's questions
        self.shares: Dict[str, "_Share"] = {}                   # an owner's tables

    def value(self, now: float) -> float:
        return self.used * math.exp((self.stamp - now) / DECAY)

    def charge(self, now: float, seconds: float) -> None:
        self.used = max(0.0, self.value(now) + seconds)
        self.stamp = now

    def active(self) -> bool:
        return self.busy > 0 or bool(self.queue) or any(s.active() for s in self.shares.values())

    def waiting(self) -> bool:
        return bool(self.queue) or any(s.queue for s in self.shares.values())

    def head(self) -> int:
        """Arrival number of the oldest question waiting here."""
        seqs = [self.queue[0].seq] if self.queue else []
        seqs += [s.queue[0].seq for s in self.shares.values() if s.queue]
        return min(seqs)


#: Seconds in which a key's past use of the workers counts e times less (:class:`FairQueue`).
DECAY = 60.0


def _least(shares: Dict[str, _Share], now: float, pick) -> _Share:
    return min((s for s in shares.values() if pick(s)), key=lambda s: (s.value(now), s.cost, s.head()))


class FairQueue:
    """Questions waiting for a worker. A free worker takes the question of the owner (a client address) whose bots
    have had the least of the workers lately (seconds of work, decayed: :data:`DECAY`), and of that owner's
    tables the one whose bots have had the least (ties: the shorter last question, then the older question). So
    an owner, or a table, whose bots think a lot waits behind those whose bots think little: a table of quick bots
    waits for the questions already in the workers, not for the other tables' queues. A question is charged its
    table's last cost when it starts and corrected to the seconds it took when it ends (:meth:`done`). A key that
    comes (back) starts level with the least of those waiting or thinking, so no credit is saved up by staying
    away, and new tables cannot jump ahead of the light ones; when the workers have nothing left to do, every key
    starts afresh (whoever used them alone harmed nobody). ``clock``: seconds, monotonic."""

    def __init__(self, clock=time.monotonic) -> None:
        self._clock = clock
        self._owners: Dict[str, _Share] = {}
        self._seq = itertools.count()
        self.waiting = 0
        self._busy = 0      # popped, not yet done

    def next_seq(self) -> int:
        return next(self._seq)

    @staticmethod
    def _join(shares: Dict[str, _Share], key: str, now: float) -> _Share:
        share = shares.get(key)
        if share is None:
            level = [s.value(now) for s in shares.values() if s.active()]
            share = shares[key] = _Share(min(level) if level else 0.0, now)
        return share

    def push(self, question: _Question, front: bool = False) -> None:
        now = self._clock()
        owner = self._join(self._owners, question.owner, now)
        table = self._join(owner.shares, question.flow, now)
        (table.queue.appendleft if front else table.queue.append)(question)
        self.waiting += 1

    def pop(self) -> Optional[_Question]:
        """The question to serve next (charged in advance), or None."""
        if not self.waiting:
            return None
        now = self._clock()
        owner = _least(self._owners, now, _Share.waiting)
        table = _least(owner.shares, now, lambda s: bool(s.queue))
        question = table.queue.popleft()
        self.waiting -= 1
        question.charged = table.cost
        for share in (owner, table):
            share.charge(now, table.cost)
            share.busy += 1
        self._busy += 1
        return question

    def done(self, question: _Question, seconds: float) -> None:
        """``question`` (popped) ended after ``seconds`` of a worker's time."""
        now = self._clock()
        self._busy -= 1
        owner = self._owners.get(question.owner)
        table = owner.shares.get(question.flow) if owner is not None else None
        if table is not None:
            for share in (owner, table):
                share.charge(now, seconds - question.charged)
                share.busy -= 1
            table.cost = owner.cost = seconds
        if not self.waiting and not self._busy:
            self._owners.clear()
            return
        self._prune(now)

    def _prune(self, now: float) -> None:
        """Forget idle keys that are level with or below the least active one (they would join there again):
        memory stays bounded by the keys that are active or have had more lately."""
        for shares in [self._owners] + [o.shares for o in self._owners.values()]:
            level = [s.value(now) for s in shares.values() if s.active()]
            floor = min(level) if level else float("inf")
            for key in [k for k, s in shares.items() if not s.active() and s.value(now) <= floor]:
                del shares[key]

    def __len__(self) -> int:
        return self.waiting


class _Worker:
    __slots__ = ("proc", "question")

    def __init__(self, proc: "asyncio.subprocess.Process") -> None:
        self.proc = proc
        self.question: Optional[_Question] = None


class BotPool:
    """``workers`` processes choosing bot moves (:mod:`stpete_server.botworker`). :meth:`start` and :meth:`close`
    from the event loop; :meth:`choose` is awaited there. ``move_seconds``: the longest a search bot thinks for
    one move (0: no limit); a question still unanswered ``deadline_margin`` seconds after that ends its worker."""

    def __init__(self, workers: int, move_seconds: float = 3.0, deadline_margin: float = 60.0) -> None:
        self.workers = max(1, workers)
        self.move_seconds = move_seconds
        self.deadline = move_seconds + deadline_margin if move_seconds > 0 else None
        self.queue = FairQueue()
        self._idle: List[_Worker] = []
        self._all: List[_Worker] = []
        self._starting = 0
        self._closed = False
        self._tasks: set = set()
        self.replaced = 0   # workers replaced since the start (died, or past the deadline)

    @property
    def pids(self) -> List[int]:
        return sorted(w.proc.pid for w in self._all)

    async def start(self) -> None:
        """Start the workers; returns once each has loaded the library."""
        self._starting = self.workers
        workers = await asyncio.gather(*(self._spawn() for _ in range(self.workers)))
        self._starting = 0
        for w in workers:
            self._adopt(w)

    def _adopt(self, worker: _Worker) -> None:
        """Count ``worker`` in, idle, and watch it: one that ends while idle is replaced at once (one that ends
        while thinking is replaced by :meth:`_serve`)."""
        self._all.append(worker)
        self._idle.append(worker)

        async def watch():
            await worker.proc.wait()
            if not self._closed and worker.question is None and worker in self._all:
                log.warning("bot worker %d ended (status %s) while idle; replacing it", worker.proc.pid,
                            worker.proc.returncode)
                self._replace(worker)
        task = asyncio.get_running_loop().create_task(watch())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _spawn(self) -> _Worker:
        """One worker process, running and ready. The worker is told where the binding and the library are (the
        server's own), whatever the current directory."""
        env = dict(os.environ)
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        binding = os.path.dirname(os.path.dirname(os.path.abspath(stpete.__file__)))
        env["PYTHONPATH"] = os.pathsep.join([here, binding] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep)
                                                               if p])
        env["STPETE_LIBRARY"] = stpete.library_path()
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "stpete_server.botworker", stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, env=env, limit=1 << 20)
        try:
            line = await asyncio.wait_for(proc.stdout.readline(), 60.0)
            if not line or "ready" not in json.loads(line):
                raise BotError(f"the bot worker did not start: {line[:200]!r}")
        except BaseException:
            _kill(proc)
            raise
        return _Worker(proc)

    async def choose(self, state_json: str, spec: str, seed: int, owner: str = "", flow: str = "") -> int:
        """The action id that bot ``spec`` (a table's, :func:`bot_spec`) chooses for the seat to act in the full
        state ``state_json``, its search seeded with ``seed``. ``owner`` and ``flow`` (the creator's address and the
        table) decide whose turn it is to think (:class:`FairQueue`). A worker that died on the question is
        replaced and the question asked again once; raises :class:`BotError` if the bot refused the question or it
        failed twice. Cancelling the caller withdraws a question that is still waiting."""
        if self._closed:
            raise BotError("the bot pool is closed")
        loop = asyncio.get_running_loop()
        payload = (json.dumps({"state": state_json, "spec": limited_spec(spec, self.move_seconds),
                               "seed": seed}) + "\n").encode()
        question = _Question(owner, flow, payload, loop.create_future(), self.queue.next_seq())
        self.queue.push(question)
        self._dispatch()
        return await question.future

    def _dispatch(self) -> None:
        while self._idle and len(self.queue):
            question = self.queue.pop()
            if question.future.done():  # its caller was cancelled while it waited
                self.queue.done(question, 0.0)
                continue
            worker = self._idle.pop()
            worker.question = question
            task = asyncio.get_running_loop().create_task(self._serve(worker, question))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _serve(self, worker: _Worker, question: _Question) -> None:
        started = time.monotonic()
        answer = None
        failure = None
        try:
            worker.proc.stdin.write(question.payload)
            await worker.proc.stdin.drain()
            line = await asyncio.wait_for(worker.proc.stdout.readline(), self.deadline)
            if not line:
                failure = "the bot worker ended"
            else:
                answer = json.loads(line)
        except asyncio.TimeoutError:
            failure = f"no answer within {self.deadline:g} s"
        except (ConnectionError, OSError, ValueError) as e:
            failure = f"the bot worker failed ({type(e).__name__})"
        except asyncio.CancelledError:  # the pool is closing
            if not question.future.done():
                question.future.set_exception(BotError("the bot pool is closing"))
            raise
        finally:
            self.queue.done(question, time.monotonic() - started)
            worker.question = None
        if failure is None:
            if worker in self._all:  # (not replaced meanwhile: it ended just after its answer)
                self._idle.append(worker)
            if question.future.done():
                pass
            elif "error" in answer:
                question.future.set_exception(BotError(answer["error"]))
            else:
                question.future.set_result(int(answer["action"]))
        else:
            question.attempts += 1
            log.warning("bot worker %d: %s; replacing it%s", worker.proc.pid, failure,
                        "" if question.attempts > 1 or question.future.done() else "; the question is asked again")
            self._replace(worker)
            if not question.future.done():
                if question.attempts > 1 or failure.startswith("no answer"):
                    question.future.set_exception(BotError(failure))
                else:
                    self.queue.push(question, front=True)
        self._dispatch()

    def _replace(self, worker: _Worker) -> None:
        """End ``worker`` and start another in its place (in the background; retried every second while it
        cannot be started)."""
        _kill(worker.proc)
        if worker not in self._all:  # replaced already
            return
        self._all.remove(worker)
        if worker in self._idle:
            self._idle.remove(worker)
        if self._closed:
            return
        self.replaced += 1
        self._starting += 1

        async def respawn():
            try:
                while not self._closed:
                    try:
                        new = await self._spawn()
                    except (OSError, BotError, asyncio.TimeoutError) as e:
                        log.error("a bot worker could not be started (%s); trying again in 1 s", e)
                        await asyncio.sleep(1.0)
                        continue
                    if self._closed:
                        _kill(new.proc)
                        return
                    self._adopt(new)
                    self._dispatch()
                    return
            finally:
                self._starting -= 1
        task = asyncio.get_running_loop().create_task(respawn())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """End the workers (their questions fail with BotError)."""
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for w in self._all:
            if w.proc.stdin is not None:
                w.proc.stdin.close()
        for w in self._all:
            try:
                await asyncio.wait_for(w.proc.wait(), 2.0)
            except asyncio.TimeoutError:
                _kill(w.proc)
                await w.proc.wait()
        self._all.clear()
        self._idle.clear()


def _kill(proc: "asyncio.subprocess.Process") -> None:
    if proc.returncode is None:
        try:
            proc.kill()
        except ProcessLookupError:
            pass
