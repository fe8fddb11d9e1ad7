"""Shared by the server's tests: start python3 -m stpete_server as a child process on a free port with its own
database, talk to it with aiohttp, replay a stored table independently with the binding.

The environment is the one meson gives (server/meson.build): STPETE_LIBRARY (the built library), PYTHONPATH
(bindings/python and server), and STPETE_TEST_STORAGE: "sqlite" (the default: each test's database is a file in a
temporary directory) or "postgresql" (the same tests on PostgreSQL: each test's database is a new database of one
temporary cluster that this test process starts, as pgcluster.Cluster does, and ends at exit; the tests are
skipped where PostgreSQL or psycopg is not installed). Tests are skipped when aiohttp is missing (another
interpreter than Debian's).
"""
import asyncio
import atexit
import itertools
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import unittest

try:
    import aiohttp
except ImportError:  # pragma: no cover
    raise unittest.SkipTest("aiohttp is not installed for this interpreter (Debian: python3-aiohttp)")

import stpete
from procinfo import children, stop


class ServerProcess:
    """python3 -m stpete_server on 127.0.0.1, port chosen by the system, database ``db``."""

    def __init__(self, db, *args, preexec=None):
        self.db = db
        self.log = tempfile.TemporaryFile(mode="w+")  # the server's log (a pipe could fill up and block it)

        def before_exec():
            _end_with_parent()
            if preexec is not None:
                preexec()
        self.proc = subprocess.Popen([sys.executable, "-m", "stpete_server", "--port", "0", "--db", db,
                                      "--log-level", "INFO", *args],
                                     stdout=subprocess.PIPE, stderr=self.log, text=True,
                                     preexec_fn=before_exec)
        line = self.proc.stdout.readline()
        if not line.startswith("stpete-server listening on "):
            self.proc.kill()
            raise RuntimeError(f"the server did not start: {line!r} {self.read_log()}")
        self.url = line.split()[-1].rstrip("/")
        self.port = int(self.url.rsplit(":", 1)[1])
        self.ws_url = self.url.replace("http://", "ws://") + "/ws"

    @property
    def alive(self):
        return self.proc.poll() is None

    def children(self):
        """Pids of the server's child processes (its bot workers): procinfo.children()."""
        return children(self.proc.pid)

    def stop(self):
        stop(self.proc, signal.SIGTERM, 10)
        self.proc.stdout.close()
        text = self.read_log()
        self.log.close()
        return text

    def read_log(self):
        if self.log.closed:
            return ""
        self.log.seek(0)
        return self.log.read()

    def kill9(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.proc.stdout.close()
        self.log.close()


def _end_with_parent():
    """In the server's child process before exec: SIGTERM when the test process ends (prctl PR_SET_PDEATHSIG), so
    that a test killed by meson's timeout leaves no server behind."""
    import ctypes
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def alive(pid):
    """True while process ``pid`` exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def create(session, server, players=3, seats=("human", "human", "bot"), bot="greedy", strength=1000,
                 rules=None):
    async with session.post(server.url + "/api/tables", json={
            "players": players, "seats": list(seats), "bot": bot, "strength": strength,
            "rules": rules or {}}) as r:
        data = await r.json()
        assert r.status == 200, data
        return data


class Conn:
    """A WebSocket client that keeps every message it received (``messages``)."""

    def __init__(self, ws):
        self.ws = ws
        self.messages = []

    @classmethod
    async def open(cls, session, server, table, token=None):
        self = cls(await session.ws_connect(server.ws_url))
        hello = {"type": "hello", "table": table}
        if token is not None:
            hello["token"] = token
        await self.ws.send_json(hello)
        return self

    async def recv(self, timeout=10.0):
        msg = await self.ws.receive(timeout=timeout)
        if msg.type != aiohttp.WSMsgType.TEXT:
            return msg
        data = json.loads(msg.data)
        self.messages.append(data)
        return data

    async def until(self, predicate, timeout=20.0):
        """Receive until a message satisfies ``predicate``; returns it."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("timed out waiting for a message")
            m = await self.recv(left)
            if isinstance(m, dict) and predicate(m):
                return m
            if not isinstance(m, dict):
                raise AssertionError(f"connection ended: {m}")

    async def quiet(self, seconds=0.3):
        """The messages received within ``seconds`` (none expected, usually)."""
        got = []
        try:
            while True:
                got.append(await self.recv(seconds))
        except asyncio.TimeoutError:
            return got

    async def act(self, move, action):
        await self.ws.send_json({"type": "act", "move": move, "action": action})


def stored(db, table):
    """(options, seed, seats, moves) of a table, read from the database directly (a read-only session of the
    storage: stpete_server.storage.open_storage)."""
    from stpete_server.storage import open_storage
    storage = open_storage(db, readonly=True)
    try:
        record = storage.table(table)
        return record.options, record.seed, len(record.seats), record.moves
    finally:
        storage.close()


class Replayed:
    """A stored table replayed independently with the binding: the position after each number of moves, and the
    event lines of each move, to compare with what clients were sent."""

    def __init__(self, db, table):
        options, seed, players, moves = stored(db, table)
        self.moves = moves
        self.game = stpete.Game(players=players, seed=seed, **options)
        state = self.game.new_state()
        state.enable_event_queue()
        state.reset(seed)
        self.log = [self.entry(e) for e in state.events()]
        self.log_at = [len(self.log)]   # log length after n moves
        self.states = [state.clone()]
        for action in moves:
            state.apply(action)
            self.log.extend(self.entry(e) for e in state.events())
            self.log_at.append(len(self.log))
            self.states.append(state.clone())

    @staticmethod
    def entry(event):
        """A log entry as the server sends it: the event's line, acting seat and kind, the library's word for it
        (stpete_event_kind_name, through the binding's private handle: the server derives it from EventKind)."""
        from stpete._core import _C
        return {"text": str(event), "seat": event.seat, "kind": _C.stpete_event_kind_name(int(event.kind)).decode()}

    def expected(self, n, seat):
        """What a client at ``seat`` (None: spectator) must see after n moves: (view without the key, actions)."""
        state = self.states[n]
        view = json.loads(state.view_to_json(seat))
        view.pop("information_state_key")  # withheld: a person's screen shows rubles, not recalled purses
        for player in view["players"]:
            player.pop("known_rubles")
        actions = []
        if seat is not None and not state.is_terminal and state.current_player == seat:
            actions = [{"id": int(a), "text": self.game.action_string(a), "price": state.action_price(a),
                        "kind": int(a.kind)} for a in state.legal_actions()]
        return view, actions


_FINAL = re.compile(r"^final scoring, seat (\d+): (-?\d+) VP \+ (\d+) \(aristocrats: (\d+) different\) \+ (\d+) "
                    r"\((\d+) R\) ([+-]\d+) \((\d+) hand cards?\) = (-?\d+) VP, tie-break (\d+)$", re.M)
_OVER = re.compile(r"Game over after round \d+: (?:seat (\d+) wins|seats ([\d, and]+) share the win)")


def replay_result(db, table):
    """The result of a finished table as stpete-replay ($STPETE_REPLAY) computes it from the stored record
    (python3 -m stpete_server.export): ``{"scores": [...], "winners": [...]}`` in the form of the server's
    ``result`` (each seat's final scoring, §8)."""
    record = subprocess.run([sys.executable, "-m", "stpete_server.export", "--db", db, "--", table],
                            capture_output=True, text=True)
    assert record.returncode == 0, record.stderr
    out = subprocess.run([os.environ["STPETE_REPLAY"], "-"], input=record.stdout, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    keys = ("vp_before", "aristocrat_bonus", "aristocrat_kinds", "rubles_bonus", "rubles", "hand_penalty",
            "hand_cards", "total", "tie_break")
    scores = [dict(seat=int(m[0]), **dict(zip(keys, map(int, m[1:])))) for m in _FINAL.findall(out.stdout)]
    over = _OVER.search(out.stdout)
    assert over, out.stdout[-500:]
    winners = [int(over[1])] if over[1] is not None else [int(w) for w in re.findall(r"\d+", over[2])]
    return {"scores": scores, "winners": winners}


def run(coro):
    return asyncio.run(coro)


STORAGE = os.environ.get("STPETE_TEST_STORAGE", "sqlite")
if STORAGE not in ("sqlite", "postgresql"):
    raise RuntimeError(f"STPETE_TEST_STORAGE must be sqlite or postgresql, not {STORAGE!r}")
_cluster = None
_databases = itertools.count()


def cluster():
    """The temporary PostgreSQL cluster of this test process (started at the first call, ended at exit); skips
    the test where PostgreSQL or psycopg is not installed."""
    global _cluster
    if _cluster is None:
        import pgcluster
        try:
            _cluster = pgcluster.Cluster(fsync=False)  # only the server is killed in these tests, never the machine
        except pgcluster.Unavailable as e:
            raise unittest.SkipTest(str(e))
        atexit.register(_cluster.stop)
    return _cluster


def temp_db(testcase):
    """A new, empty database for one test (STPETE_TEST_STORAGE): an SQLite file's path or a PostgreSQL URI."""
    if STORAGE == "postgresql":
        return cluster().create_database(f"test{next(_databases)}")
    d = tempfile.TemporaryDirectory()
    testcase.addCleanup(d.cleanup)
    return os.path.join(d.name, "server.sqlite")


async def play_seat(conn, choose, timeout=20.0):
    """A scripted person: act on every state message that offers actions (``choose(actions)`` picks one), until
    the game is over; a refusal for the rate limit is waited out and the action sent again. Returns the last
    state message."""
    last, sent = None, None
    while True:
        m = await conn.until(lambda m: m["type"] in ("state", "refused"), timeout=timeout)
        if m["type"] == "refused":
            if m["code"] == "rate-limit" and last is not None and last["actions"] and m["move"] == last["move"]:
                await asyncio.sleep(0.1)
                await conn.act(last["move"], sent)
            continue
        last = m
        if m["result"]:
            return m
        if m["actions"]:
            sent = choose(m["actions"])
            await conn.act(m["move"], sent)
