"""The library's bots, thinking in worker processes so that the server's request loop never waits for them, shared
fairly between the people who created tables.

:class:`BotPool` keeps ``workers`` processes of :mod:`stpete_server.botworker`, each started with fork and exec
(``asyncio.create_subprocess_exec``: nothing of the server's threads or locks is inherited), asked one question at a
time over a pipe. A worker that dies (killed, out of memory) or that does not answer within its deadline is
replaced on its own, and the question it had is asked again once; the other workers and their questions are not
touched. Every worker ends within 0.2 s once the server is gone, also when the server was killed with SIGKILL.

Who thinks next (:class:`FairQueue`): first come, first served, except that a question waits behind quicker ones
(ten times the seconds it may take), and the questions of an *owner* (the address that created the table) or a table
whose bots had a lot of the workers' time lately wait behind the others' by as long. So a few tables of the
strongest bots cannot starve the others: another table's question waits for the questions already in the workers,
not for theirs. And no question keeps a worker
longer than ``move_seconds``: the search bots (mc, ismcts, learned) get that as their wall-clock limit (the bot spec's
``ms``, bots.h), whatever their iterations (doc/server.md "Bots").
"""
import asyncio
import collections
import fcntl
import heapq
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

#: Bot kinds a table may choose (the page's lobby offers each), with the strength (iterations) of the search bots.
BOT_KINDS = ("random", "greedy", "mc", "ismcts", "learned")
SEARCH_KINDS = ("mc", "ismcts", "learned")


def bot_spec(kind: str, strength: int) -> str:
    """The library's bot spec (bots.h) of a table's bot choice: "random", "greedy", "mc:iterations=N",
    "ismcts:iterations=N", "learned:iterations=N". Raises ValueError for another kind or a strength outside 1..100000."""
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
    """The spec a worker is given: a search bot's (mc, ismcts, learned) with the wall-clock limit ``move_seconds`` (the
    ``ms`` key, bots.h: the first of iterations and time reached ends the search); 0: no limit."""
    if move_seconds > 0 and spec.split(":", 1)[0] in SEARCH_KINDS:
        return f"{spec}:ms={max(1, int(move_seconds * 1000))}"
    return spec


class BotError(Exception):
    """A question the pool could not answer: the bot refused it (``str(e)`` is its reason), or workers died on it
    twice, or it ran past its deadline."""


class _Question:
    __slots__ = ("owner", "flow", "payload", "future", "seq", "estimate", "key", "attempts")

    def __init__(self, owner: str, flow: str, payload: bytes, future: "asyncio.Future", seq: int,
                 estimate: float = 0.0) -> None:
        self.owner, self.flow, self.payload, self.future, self.seq = owner, flow, payload, future, seq
        self.estimate = estimate   # seconds it may take a worker
        self.key = 0.0             # its place in the queue (FairQueue.push)
        self.attempts = 0


#: Seconds in which what an owner or a table had of the workers counts e times less (:class:`FairQueue`).
DECAY = 60.0
#: A question waits behind quicker ones that came up to this many times its estimate later (:class:`FairQueue`).
WEIGHT = 10.0


class _Use:
    """Seconds of the workers' time one key (an owner, or a table) has had, decayed with :data:`DECAY`, as of
    ``stamp``."""
    __slots__ = ("seconds", "stamp")

    def __init__(self, now: float) -> None:
        self.seconds = 0.0
        self.stamp = now

    def value(self, now: float) -> float:
        return self.seconds * math.exp((self.stamp - now) / DECAY)

    def add(self, now: float, seconds: float) -> None:
        self.seconds = max(0.0, self.value(now) + seconds)
        self.stamp = now


class _Owner:
    """One owner's waiting questions (a heap by their keys), its use of the workers, and its place among the owners
    (``version`` of its valid entry in the owners' heap)."""
    __slots__ = ("heap", "use", "busy", "version")

    def __init__(self, now: float) -> None:
        self.heap: list = []      # (key, seq, question)
        self.use = _Use(now)
        self.busy = 0
        self.version = 0


class FairQueue:
    """Questions waiting for a worker. First the owner (the address that created the table), then the question of
    that owner: each owner, when it has a question waiting, takes its place at the time now plus its first question's
    handicap plus the seconds of the workers' time it had lately (decayed: :data:`DECAY`); each question, among its
    owner's, at its arrival time plus its handicap plus what its table had lately. The handicap is :data:`WEIGHT`
    times the seconds the question may take (its estimate: a search bot's time limit, a random or greedy bot's next
    to nothing). So among quick tables this is first come, first served; a question of the strongest bots waits behind
    quick ones that came up to half a minute after it, and behind those of owners and tables that had less of the
    workers: ten tables of the strongest bots, of another address or of the same one, make another table's quick bot
    wait for the question being thought about, not for their queue. No question waits for ever (time goes on, what
    was had decays); no credit is saved up by staying away; when the workers have nothing left to do, all is
    forgotten (whoever had them alone harmed nobody). Heaps: O(log n) a question. ``clock``: seconds, monotonic."""

    def __init__(self, clock=time.monotonic) -> None:
        self._clock = clock
        self._owners: Dict[str, _Owner] = {}
        self._heap: list = []                    # owners with questions waiting: (key, seq, version, name)
        self._tables: Dict[str, _Use] = {}
        self._seq = itertools.count()
        self._busy = 0                           # popped, not yet done
        self._ended = 0
        self.waiting = 0

    def next_seq(self) -> int:
        return next(self._seq)

    def _table_use(self, flow: str, now: float) -> float:
        use = self._tables.get(flow)
        return use.value(now) if use is not None else 0.0

    def _enter(self, name: str, owner: _Owner, now: float) -> None:
        """(Re)place ``owner`` among the owners with questions waiting, by its first question and its use now."""
        owner.version += 1
        head = owner.heap[0][2]
        key = now + WEIGHT * head.estimate + owner.use.value(now)
        heapq.heappush(self._heap, (key, head.seq, owner.version, name))

    def push(self, question: _Question, front: bool = False) -> None:
        """Queue ``question`` (``front``: at the place it had, for one asked again after its worker died)."""
        now = self._clock()
        if not front:
            question.key = now + WEIGHT * question.estimate + self._table_use(question.flow, now)
        owner = self._owners.get(question.owner)
        if owner is None:
            owner = self._owners[question.owner] = _Owner(now)
        was_first = owner.heap[0][2] if owner.heap else None
        heapq.heappush(owner.heap, (question.key, question.seq, question))
        if owner.heap[0][2] is not was_first:
            self._enter(question.owner, owner, now)
        self.waiting += 1

    def _top(self):
        """(name, owner) of the owner to serve next (stale entries dropped), or None."""
        while self._heap:
            _, _, version, name = self._heap[0]
            owner = self._owners.get(name)
            if owner is not None and owner.version == version and owner.heap:
                return name, owner
            heapq.heappop(self._heap)
        return None

    def peek(self) -> Optional[_Question]:
        """The question to serve next (left in the queue), or None."""
        top = self._top()
        return top[1].heap[0][2] if top else None

    def pop(self) -> Optional[_Question]:
        """The question to serve next, or None. Its estimate is charged to its owner and table at once (corrected
        when it ends), so that the next places are given knowing it."""
        top = self._top()
        if top is None:
            return None
        now = self._clock()
        name, owner = top
        question = heapq.heappop(owner.heap)[2]
        owner.use.add(now, question.estimate)
        self._tables.setdefault(question.flow, _Use(now)).add(now, question.estimate)
        owner.busy += 1
        self._busy += 1
        self.waiting -= 1
        if owner.heap:
            self._enter(name, owner, now)
        else:
            owner.version += 1
        return question

    def done(self, question: _Question, seconds: float) -> None:
        """``question`` (popped) ended after ``seconds`` of a worker's time."""
        now = self._clock()
        self._busy -= 1
        if not self.waiting and not self._busy:
            self._owners.clear()
            self._heap.clear()
            self._tables.clear()
            return
        owner = self._owners.get(question.owner)
        if owner is not None:
            owner.busy -= 1
            owner.use.add(now, seconds - question.estimate)
        self._tables.setdefault(question.flow, _Use(now)).add(now, seconds - question.estimate)
        self._ended += 1
        if self._ended % 256 == 0:  # memory bounded by the keys that had a little of the workers lately
            self._tables = {k: u for k, u in self._tables.items() if u.value(now) >= 0.01}
            for name in [n for n, o in self._owners.items()
                         if not o.heap and not o.busy and o.use.value(now) < 0.01]:
                del self._owners[name]
            self._heap = [e for e in self._heap if e[3] in self._owners and self._owners[e[3]].version == e[2]]
            heapq.heapify(self._heap)

    def __len__(self) -> int:
        return self.waiting


#: Questions that may wait in a worker's pipe behind the one it is thinking about, so that a worker never waits for
#: the server's event loop between quick questions (as a ProcessPoolExecutor's call queue does); only behind quick
#: questions, so that none waits in a pipe for a slow one.
PIPE_DEPTH = 32
#: Seconds below which a question is quick (its estimate: random and greedy bots).
QUICK = 0.05


class _Worker:
    """One worker process and the questions written to it, in order (the first is being thought about)."""
    __slots__ = ("proc", "asked", "since")

    def __init__(self, proc: "asyncio.subprocess.Process") -> None:
        self.proc = proc
        self.asked: Deque[_Question] = collections.deque()
        self.since = 0.0   # when the worker began the first question of ``asked``

    def takes(self, question: _Question) -> bool:
        """Whether ``question`` may be written to this worker now."""
        return not self.asked or (len(self.asked) < PIPE_DEPTH and all(q.estimate < QUICK for q in self.asked))


class BotPool:
    """``workers`` processes choosing bot moves (:mod:`stpete_server.botworker`). :meth:`start` and :meth:`close`
    from the event loop; :meth:`choose` is awaited there. ``move_seconds``: the longest a search bot thinks for
    one move (0: no limit); a question still unanswered ``deadline_margin`` seconds after that ends its worker."""

    def __init__(self, workers: int, move_seconds: float = 3.0, deadline_margin: float = 60.0) -> None:
        self.workers = max(1, workers)
        self.move_seconds = move_seconds
        self.deadline = move_seconds + deadline_margin if move_seconds > 0 else None
        self.queue = FairQueue()
        self._all: List[_Worker] = []
        self._closed = False
        self._tasks: set = set()
        self.replaced = 0   # workers replaced since the start (died, or past the deadline)

    @property
    def pids(self) -> List[int]:
        return sorted(w.proc.pid for w in self._all)

    def _task(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def start(self) -> None:
        """Start the workers; returns once each has loaded the library."""
        for worker in await asyncio.gather(*(self._spawn() for _ in range(self.workers))):
            self._adopt(worker)

    def _adopt(self, worker: _Worker) -> None:
        """Count ``worker`` in and read its answers."""
        self._all.append(worker)
        self._task(self._read(worker))

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
        _widen_pipe(proc.stdin)
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
        search = spec.split(":", 1)[0] in SEARCH_KINDS
        estimate = (self.move_seconds or 1.0) if search else 0.001
        question = _Question(owner, flow, payload, loop.create_future(), self.queue.next_seq(), estimate)
        self.queue.push(question)
        self._dispatch()
        return await question.future

    def _dispatch(self) -> None:
        """Write the waiting questions, in the queue's order, to the workers that take them."""
        while len(self.queue):
            question = self.queue.peek()
            if question.future.done():  # its caller was cancelled while it waited
                self.queue.done(self.queue.pop(), 0.0)
                continue
            worker = min((w for w in self._all if w.takes(question)), key=lambda w: len(w.asked), default=None)
            if worker is None:
                return
            self.queue.pop()
            if not worker.asked:
                worker.since = time.monotonic()
            worker.asked.append(question)
            try:
                worker.proc.stdin.write(question.payload)
            except (ConnectionError, OSError, RuntimeError):
                pass  # the worker is gone: its reader finds out and asks its questions again

    async def _read(self, worker: _Worker) -> None:
        """Read ``worker``'s answers in order, every answer that has arrived at each wakeup (one line a wakeup would
        make a busy event loop the pace of the workers); when the worker ends or stays silent past the deadline,
        replace it. (Waited for with asyncio.wait, which never swallows a cancellation as wait_for can in Python
        3.11: the pool's close must end this task.)"""
        failure = None
        reading = None
        rest = b""
        try:
            while failure is None and not self._closed:
                if reading is None:
                    reading = asyncio.ensure_future(worker.proc.stdout.read(1 << 16))
                # idle, the worker is looked at every 5 s (a question written meanwhile gets its deadline then)
                left = 5.0
                if worker.asked and self.deadline is not None:
                    left = worker.since + self.deadline - time.monotonic()
                    if left <= 0:
                        failure = f"no answer within {self.deadline:g} s"
                        break
                done, _ = await asyncio.wait({reading}, timeout=min(left, 5.0))
                if not done:
                    continue
                chunk, reading = reading.result(), None
                if not chunk:
                    failure = "the bot worker ended"
                    break
                *lines, rest = (rest + chunk).split(b"\n")
                for line in lines:
                    if not worker.asked:
                        failure = "the bot worker answered a question it was not asked"
                        break
                    self._answer(worker, json.loads(line))
                self._dispatch()
        except (ConnectionError, OSError, ValueError) as e:
            failure = f"the bot worker failed ({type(e).__name__})"
        except asyncio.CancelledError:  # the pool is closing
            for question in worker.asked:
                if not question.future.done():
                    question.future.set_exception(BotError("the bot pool is closing"))
            raise
        finally:
            if reading is not None and not reading.done():
                reading.cancel()
        if self._closed:
            return
        # the first question is the one it was thinking about: past the deadline, it is not asked again
        stuck = worker.asked[0] if worker.asked and failure.startswith("no answer") else None
        log.warning("bot worker %d: %s; replacing it%s", worker.proc.pid, failure,
                    "; its questions are asked again" if worker.asked else "")
        self._replace(worker)
        for question in reversed(worker.asked):
            self.queue.done(question, 0.0)
            question.attempts += 1
            if question.future.done():
                continue
            if question is stuck or question.attempts > 1:
                question.future.set_exception(BotError(failure))
            else:
                self.queue.push(question, front=True)
        worker.asked.clear()
        self._dispatch()

    def _answer(self, worker: _Worker, answer: dict) -> None:
        """The answer to ``worker``'s first question: its future resolved, its seconds charged."""
        question = worker.asked.popleft()
        now = time.monotonic()
        self.queue.done(question, now - worker.since)
        worker.since = now
        if not question.future.done():
            if "error" in answer:
                question.future.set_exception(BotError(answer["error"]))
            else:
                question.future.set_result(int(answer["action"]))

    def _replace(self, worker: _Worker) -> None:
        """End ``worker`` and start another in its place (in the background; retried every second while it
        cannot be started)."""
        _kill(worker.proc)
        if worker not in self._all:  # replaced already
            return
        self._all.remove(worker)
        if self._closed:
            return
        self.replaced += 1

        async def respawn():
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
        self._task(respawn())

    async def close(self) -> None:
        """End the workers (their questions fail with BotError); returns within a few seconds whatever they do."""
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=5.0)
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


def _widen_pipe(writer: "asyncio.StreamWriter") -> None:
    """Let the pipe to a worker hold 1 MiB (Linux F_SETPIPE_SZ; 64 KiB by default, about eight questions): the
    questions written to a worker then wait in the pipe, not in the event loop's buffer, so that the worker goes on
    with them while the server is busy (or not scheduled on a loaded machine). Without the call, or if it fails,
    only slower."""
    pipe = writer.transport.get_extra_info("pipe")
    try:
        fcntl.fcntl(pipe.fileno(), getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)
    except (OSError, AttributeError, ValueError):
        pass


def _kill(proc: "asyncio.subprocess.Process") -> None:
    if proc.returncode is None:
        try:
            proc.kill()
        except ProcessLookupError:
            pass
