"""Where the server keeps its tables: one small interface (:class:`Storage`), its SQLite implementation
(:class:`SQLiteStorage`, Python's sqlite3: one server process) and its PostgreSQL one
(:class:`~stpete_server.postgres.PostgresStorage`, psycopg 3: several server processes on one database).
:func:`open_storage` picks one from the server's ``--db``.

A table is stored as its rule options, its seed, its seats and its moves (the action ids in order): exactly a replay
record (doc/format.md), plus the seats. The seed never leaves the server before the game is over (§9: it would give
away every stack). A move is stored by :meth:`Storage.append_move` in one transaction, and the server acknowledges
it to the clients only after that call returned: a server killed at any moment (kill -9) and started again resumes
every table at its last acknowledged move. The transaction also decides the order of moves: it stores move number
``n`` only while exactly ``n`` moves are stored (compare and swap on the table's move count, under the database's
row lock), so that of two moves given for the same position (two processes, or a client's retry) one is stored and
the other refused.

Besides the record, each table row keeps what lets a server find it without replaying it: ``updated`` (the time of
its last move, or of its creation), ``to_act`` (the kind of seat to act: "human", "bot", or "over" once the game
has ended) and ``finished`` (when it ended). :meth:`Storage.expire` removes finished and abandoned tables, keeping
their records in the ``archive`` table (or not), and :meth:`Storage.bot_turns` lists the tables whose bot is to act.
"""
import asyncio
import concurrent.futures
import fcntl
import json
import os
import sqlite3
import time
import urllib.parse
from typing import Callable, Iterator, List, NamedTuple, Optional, Sequence, Tuple

#: The kinds of seat a table may wait for (``tables.to_act``): a person, a bot, or nobody (the game is over).
TO_ACT = ("human", "bot", "over")

#: The version of the schema below (SQLite: PRAGMA user_version; PostgreSQL: the table stpete_schema). Version 1
#: (libstpete 1.1) had no move count, updated, to_act, finished nor archive; :class:`SQLiteStorage` upgrades it.
SCHEMA_VERSION = 2


class SeatRecord(NamedTuple):
    """One seat: ``kind`` "human" or "bot"; ``token_hash`` the SHA-256 (hex) of the seat's secret token for a
    person (the token itself is never stored), None for a bot; ``bot`` the bot spec for a bot, else None."""
    kind: str
    token_hash: Optional[str]
    bot: Optional[str]


class TableRecord(NamedTuple):
    """A stored table: ``options`` (the rule options, the replay record's ``options`` object without ``seed``),
    ``seed`` (u64), ``seats``, ``moves`` (action ids in the order applied), ``created`` (Unix time, s), ``to_act``
    (one of :data:`TO_ACT`: the kind of seat to act after the last move)."""
    table_id: str
    options: dict
    seed: int
    seats: List[SeatRecord]
    moves: List[int]
    created: float
    to_act: str = "human"


class StaleMoveError(Exception):
    """append_move() was given a move number that is not the table's next one (the move is already stored, or
    one is missing): nothing was written."""


class NoSuchTableError(StaleMoveError):
    """append_move() was given a table that is not stored (never was, or expired): nothing was written."""


class InUseError(RuntimeError):
    """The SQLite file is held by another server process (SQLite serves one: several need PostgreSQL)."""


class Storage:
    """The interface the server uses. Every method is a complete transaction: it either happens entirely or not
    at all (then it raises). Times are Unix times in seconds (``time.time()``)."""

    def create_table(self, table: TableRecord) -> None:
        """Store a new table (no moves yet; ``table.to_act`` the seat to act first). Raises an exception if the id
        is taken."""
        raise NotImplementedError

    def append_move(self, table_id: str, move: int, action: int, to_act: str) -> None:
        """Store action id ``action`` as move number ``move`` (0 for the first) of the table, durably, in one
        transaction; ``to_act`` (:data:`TO_ACT`) is the kind of seat to act after it ("over": the move ended the
        game). Raises :class:`StaleMoveError` if ``move`` is not the number of moves stored so far,
        :class:`NoSuchTableError` if there is no such table."""
        raise NotImplementedError

    def append_moves(self, moves: Sequence[Tuple[str, int, int, str]]) -> List[Optional[Exception]]:
        """Store several moves ``(table_id, move, action, to_act)`` of different tables at once (group commit: one
        durable transaction for all where the backend can). Returns one entry per move: None when stored, else the
        exception (:class:`StaleMoveError`, ...) for that move. Raises if nothing could be stored. This default
        stores them one by one with :meth:`append_move`."""
        results: List[Optional[Exception]] = []
        for table_id, move, action, to_act in moves:
            try:
                self.append_move(table_id, move, action, to_act)
                results.append(None)
            except StaleMoveError as e:
                results.append(e)
        return results

    def tables(self) -> Iterator[TableRecord]:
        """Every stored table with its moves."""
        raise NotImplementedError

    def table(self, table_id: str) -> Optional[TableRecord]:
        """One stored table, or None."""
        raise NotImplementedError

    def moves(self, table_id: str, start: int) -> Optional[List[int]]:
        """The action ids of the table's moves from move number ``start`` on (a server catching up with moves
        another process stored), or None if there is no such table."""
        raise NotImplementedError

    def bot_turns(self, idle_before: float, limit: int) -> List[str]:
        """Ids of at most ``limit`` tables whose bot is to act and whose last move was before ``idle_before``
        (their bot's move is due and no process has stored it), oldest first."""
        raise NotImplementedError

    def expire(self, finished_before: float, abandoned_before: float, keep: bool, limit: int) -> List[str]:
        """Remove at most ``limit`` tables that ended before ``finished_before`` or that have not ended and had no
        move since ``abandoned_before`` (0 leaves either kind alone); with ``keep``, each one's record (options,
        seed, seats without their token hashes, moves) is kept in the archive (:meth:`archived`). Returns the ids
        removed."""
        raise NotImplementedError

    def archived(self, table_id: str) -> Optional[TableRecord]:
        """An expired table's record from the archive (seats without token hashes), or None."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the connection."""


def is_postgresql(db: str) -> bool:
    """Whether ``--db`` names a PostgreSQL database (a libpq URI) rather than an SQLite file."""
    return db.startswith(("postgresql://", "postgres://"))


def open_storage(db: str, synchronous: str = "FULL", status: Optional[Callable[[TableRecord], str]] = None,
                 read_only: bool = False, exclusive: bool = False) -> Storage:
    """The storage the server's ``--db`` names: a PostgreSQL database for a libpq URI (``postgresql://...`` or
    ``postgres://...``, :class:`~stpete_server.postgres.PostgresStorage`), else an SQLite file
    (:class:`SQLiteStorage`). ``synchronous``, ``status``, ``read_only`` and ``exclusive``: as
    :class:`SQLiteStorage` takes them (PostgreSQL: ``synchronous`` "NORMAL" is ``synchronous_commit = off``;
    ``read_only`` a read-only session; ``exclusive`` nothing, several processes share a database)."""
    if is_postgresql(db):
        from .postgres import PostgresStorage
        return PostgresStorage(db, synchronous=synchronous, read_only=read_only)
    return SQLiteStorage(db, synchronous=synchronous, status=status, read_only=read_only, exclusive=exclusive)


class SQLStorage(Storage):
    """:class:`Storage` in SQL, shared by both backends: the subclass opens ``self._db`` (a DB-API connection in
    autocommit mode) and says how a transaction begins. Statements are written with ``?`` placeholders
    (:meth:`_sql` turns them into the driver's)."""

    _begin = "BEGIN"
    _begin_read = "BEGIN"

    def _sql(self, statement: str) -> str:
        return statement

    def _execute(self, statement: str, args: Sequence = ()):
        return self._db.execute(self._sql(statement), args)

    def _executemany(self, statement: str, rows: Sequence[Sequence]) -> None:
        self._db.cursor().executemany(self._sql(statement), rows)

    def _transaction(self, body: Callable[[], object], read: bool = False):
        """Run ``body()`` in one transaction (``read``: that only reads); rolled back if it raises (or is
        interrupted)."""
        self._db.execute(self._begin_read if read else self._begin)
        try:
            result = body()
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        return result

    def _notify(self, events: List[str]) -> None:
        """Tell the other server processes (PostgreSQL: NOTIFY, delivered at commit); no one else with SQLite."""

    def create_table(self, table: TableRecord) -> None:
        if table.to_act not in TO_ACT:
            raise ValueError(f"to_act must be one of {TO_ACT}, not {table.to_act!r}")
        created = table.created or time.time()

        def body():
            self._execute("INSERT INTO tables (id, options, seed, created, move_count, updated, to_act, finished) "
                          "VALUES (?, ?, ?, ?, 0, ?, ?, ?)",
                          (table.table_id, json.dumps(table.options, sort_keys=True), str(table.seed), created,
                           created, table.to_act, created if table.to_act == "over" else None))
            self._executemany("INSERT INTO seats (table_id, seat, kind, token_hash, bot) VALUES (?, ?, ?, ?, ?)",
                              [(table.table_id, seat, s.kind, s.token_hash, s.bot)
                               for seat, s in enumerate(table.seats)])
        self._transaction(body)

    def append_move(self, table_id: str, move: int, action: int, to_act: str) -> None:
        (error,) = self.append_moves([(table_id, move, action, to_act)])
        if error is not None:
            raise error

    def _counts(self, ids: List[str]) -> dict:
        """In the transaction: the stored move count of each table of ``ids`` that exists, each row locked until
        the transaction ends (SQLite: the whole database is)."""
        return dict(self._execute("SELECT id, move_count FROM tables WHERE id = ?", (i,)).fetchone() or (i, None)
                    for i in ids)

    def append_moves(self, moves: Sequence[Tuple[str, int, int, str]]) -> List[Optional[Exception]]:
        for _, _, _, to_act in moves:
            if to_act not in TO_ACT:
                raise ValueError(f"to_act must be one of {TO_ACT}, not {to_act!r}")

        def body():
            counts = self._counts(sorted({m[0] for m in moves}))
            results: List[Optional[Exception]] = []
            good = []
            for table_id, move, action, to_act in moves:
                count = counts.get(table_id)
                if count is None:
                    results.append(NoSuchTableError(f"table {table_id}: no such table"))
                elif count != move:
                    results.append(StaleMoveError(f"table {table_id}: move {move} given, {count} stored"))
                else:
                    counts[table_id] = count + 1  # a second move of the same table in this batch must follow it
                    good.append((table_id, move, action, to_act))
                    results.append(None)
            if good:
                self._store(good, time.time())
            return results
        return self._transaction(body)

    def _store(self, good: List[Tuple[str, int, int, str]], now: float) -> None:
        """In the transaction of :meth:`append_moves`, its rows locked: store ``good``, moves checked to be their
        tables' next ones (in order, for a table given twice)."""
        self._executemany("UPDATE tables SET move_count = ? + 1, updated = ?, to_act = ?, finished = ? WHERE id = ?",
                          [(move, now, to_act, now if to_act == "over" else None, table_id)
                           for table_id, move, _, to_act in good])
        self._executemany("INSERT INTO moves (table_id, move, action) VALUES (?, ?, ?)",
                          [(table_id, move, action) for table_id, move, action, _ in good])
        self._notify([f"move {table_id} {move} {action}" for table_id, move, action, _ in good])

    def _seats(self, table_id: str) -> List[SeatRecord]:
        return [SeatRecord(kind, token_hash, bot) for kind, token_hash, bot in self._execute(
            "SELECT kind, token_hash, bot FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)).fetchall()]

    def _actions(self, table_id: str, start: int = 0) -> List[int]:
        return [action for (action,) in self._execute(
            "SELECT action FROM moves WHERE table_id = ? AND move >= ? ORDER BY move", (table_id, start)).fetchall()]

    def _record(self, row) -> TableRecord:
        table_id, options, seed, created, to_act = row
        return TableRecord(table_id, json.loads(options), int(seed), self._seats(table_id), self._actions(table_id),
                           created, to_act)

    _COLUMNS = "id, options, seed, created, to_act"

    def tables(self) -> Iterator[TableRecord]:
        rows = self._execute(f"SELECT {self._COLUMNS} FROM tables ORDER BY created, id").fetchall()
        for row in rows:
            yield self._record(row)

    def table(self, table_id: str) -> Optional[TableRecord]:
        def body():
            row = self._execute(f"SELECT {self._COLUMNS} FROM tables WHERE id = ?", (table_id,)).fetchone()
            return self._record(row) if row else None
        return self._transaction(body, read=True)

    def moves(self, table_id: str, start: int) -> Optional[List[int]]:
        def body():
            if self._execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone() is None:
                return None
            return self._actions(table_id, start)
        return self._transaction(body, read=True)

    def bot_turns(self, idle_before: float, limit: int) -> List[str]:
        return [i for (i,) in self._execute(
            "SELECT id FROM tables WHERE to_act = 'bot' AND updated < ? ORDER BY updated LIMIT ?",
            (idle_before, limit)).fetchall()]

    _EXPIRED = ("SELECT id FROM tables WHERE (finished IS NOT NULL AND finished < ?) "
                "OR (finished IS NULL AND updated < ?) ORDER BY id LIMIT ?")

    def expire(self, finished_before: float, abandoned_before: float, keep: bool, limit: int) -> List[str]:
        def body():
            ids = [i for (i,) in self._execute(self._EXPIRED, (finished_before, abandoned_before, limit)).fetchall()]
            if not ids:
                return ids
            if keep:
                rows = []
                for i in ids:
                    row = self._execute("SELECT id, options, seed, created, updated, finished FROM tables "
                                        "WHERE id = ?", (i,)).fetchone()
                    seats = [{"kind": s.kind, "bot": s.bot} for s in self._seats(i)]
                    rows.append((*row, json.dumps(seats), json.dumps(self._actions(i))))
                self._executemany("INSERT INTO archive (id, options, seed, created, updated, finished, seats, moves) "
                                  "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
            for table in ("moves", "seats"):
                self._executemany(f"DELETE FROM {table} WHERE table_id = ?", [(i,) for i in ids])
            self._executemany("DELETE FROM tables WHERE id = ?", [(i,) for i in ids])
            self._notify([f"gone {i}" for i in ids])
            return ids
        return self._transaction(body)

    def archived(self, table_id: str) -> Optional[TableRecord]:
        row = self._execute("SELECT id, options, seed, created, seats, moves FROM archive WHERE id = ?",
                            (table_id,)).fetchone()
        if row is None:
            return None
        table_id, options, seed, created, seats, moves = row
        return TableRecord(table_id, json.loads(options), int(seed),
                           [SeatRecord(s["kind"], None, s["bot"]) for s in json.loads(seats)], json.loads(moves),
                           created, "over")

    def close(self) -> None:
        self._db.close()


#: Schema version 2 (both backends; types are SQLite's, :mod:`.postgres` has its own spelling of the same).
_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    options TEXT NOT NULL,            -- JSON: the replay record's options without the seed
    seed TEXT NOT NULL,               -- decimal u64: secret until the game is over
    created REAL NOT NULL,            -- Unix time (s)
    move_count INTEGER NOT NULL DEFAULT 0,   -- moves stored: the next move's number
    updated REAL NOT NULL,            -- Unix time of the last move (or of the creation)
    to_act TEXT NOT NULL DEFAULT 'human' CHECK (to_act IN ('human', 'bot', 'over')),
    finished REAL                     -- Unix time the game ended, NULL before
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('human', 'bot')),
    token_hash TEXT,                  -- SHA-256 (hex) of the seat's token, NULL for a bot
    bot TEXT,                         -- bot spec, NULL for a person
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    move INTEGER NOT NULL,            -- 0, 1, 2, ... : the position's history length before the move
    action INTEGER NOT NULL,          -- the action id (doc/format.md)
    PRIMARY KEY (table_id, move)
);
CREATE TABLE IF NOT EXISTS archive (  -- expired tables' records (Storage.expire with keep)
    id TEXT PRIMARY KEY,
    options TEXT NOT NULL,
    seed TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    finished REAL,                    -- NULL: abandoned before its end
    seats TEXT NOT NULL,              -- JSON [{"kind", "bot"}]: no token hashes
    moves TEXT NOT NULL               -- JSON [action ids]
);
CREATE INDEX IF NOT EXISTS tables_bot_turns ON tables (updated) WHERE to_act = 'bot';
CREATE INDEX IF NOT EXISTS tables_finished ON tables (finished) WHERE finished IS NOT NULL;
CREATE INDEX IF NOT EXISTS tables_unfinished ON tables (updated) WHERE finished IS NULL;
"""

#: Version 1's columns of ``tables`` (libstpete 1.1): upgraded to version 2 by adding the others.
_UPGRADE_1 = """
ALTER TABLE tables ADD COLUMN move_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN updated REAL NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN to_act TEXT NOT NULL DEFAULT 'human' CHECK (to_act IN ('human', 'bot', 'over'));
ALTER TABLE tables ADD COLUMN finished REAL;
"""


class SQLiteStorage(SQLStorage):
    """:class:`Storage` in one SQLite file (``path``; ":memory:" for tests), in WAL mode, for one server process
    (SQLite tells no other process about a move). ``synchronous`` is SQLite's setting: "FULL" (default: a move
    acknowledged survives a power cut too) or "NORMAL" (it survives the server being killed, not a power cut;
    faster commits). Used from one thread at a time (the connection may be handed to another thread, as
    :class:`GroupCommitter` does).

    A version 1 file (libstpete 1.1) is upgraded when opened, in one transaction: the new columns are filled by
    ``status(record)``, the kind of seat to act in the stored table (:data:`TO_ACT`; the server's replays it),
    with the time of the upgrade as the last move's (so that no table expires at once); a table ``status``
    raises for keeps "human". Without ``status`` a version 1 file is refused. ``read_only`` opens an existing file
    without writing (no upgrade: the record is read the same in both versions); a missing one raises
    FileNotFoundError. ``exclusive`` (the server's own): hold an exclusive lock (flock) on the file while open, so
    that a second server process on it is refused with :class:`InUseError` (after waiting up to ``wait`` seconds:
    a killed server's bot workers end within 0.2 s, and may hold it until then)."""

    _begin = "BEGIN IMMEDIATE"

    def __init__(self, path: str, synchronous: str = "FULL", status: Optional[Callable[[TableRecord], str]] = None,
                 read_only: bool = False, exclusive: bool = False, wait: float = 5.0) -> None:
        if synchronous.upper() not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        self._lock = None
        if read_only:
            if not os.path.exists(path):
                raise FileNotFoundError(f"no database {path!r}")
            self._db = sqlite3.connect(f"file:{urllib.parse.quote(path)}?mode=ro", uri=True, isolation_level=None,
                                       check_same_thread=False)
            self._version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if self._version < SCHEMA_VERSION:  # libstpete 1.1's file: no status columns, no archive
                self._COLUMNS = "id, options, seed, created, 'human'"
                self.archived = lambda table_id: None
            return
        if exclusive and path != ":memory:":
            self._lock = self._hold(path, wait)
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)  # explicit BEGIN/COMMIT
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._transaction(lambda: self._upgrade(status))

    @staticmethod
    def _hold(path: str, wait: float) -> int:
        """An open descriptor of the file with an exclusive flock (independent of SQLite's own POSIX locks; kept
        open until :meth:`close`, after SQLite's connection, so that SQLite's locks are never dropped by it)."""
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return fd
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise InUseError(f"another server process uses {path}: SQLite serves one process; for several, "
                                     f"use PostgreSQL (doc/server.md)") from None
                time.sleep(0.1)

    def close(self) -> None:
        super().close()
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    def _upgrade(self, status) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        old = self._db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tables'").fetchone()
        if old and version < 2:
            if status is None:
                raise RuntimeError("a database of libstpete 1.1: open it with the server (python3 -m stpete_server) "
                                   "once to upgrade it")
            for statement in filter(str.strip, _UPGRADE_1.split(";")):
                self._db.execute(statement)
            self._COLUMNS = "id, options, seed, created, 'human'"
            now = time.time()
            for record in self.tables():
                try:
                    to_act = status(record)
                except Exception:  # a table that does not replay: left to the server to report when it loads it
                    to_act = "human"
                self._execute("UPDATE tables SET move_count = ?, updated = ?, to_act = ?, finished = ? WHERE id = ?",
                              (len(record.moves), now, to_act, now if to_act == "over" else None, record.table_id))
            del self._COLUMNS
        for statement in filter(str.strip, _SCHEMA.split(";")):
            self._db.execute(statement)
        self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


class GroupCommitter:
    """The server's way to its :class:`Storage`: every call runs in one thread of its own, so the event loop never
    waits for the disk, and the moves that arrive while a commit is under way are stored together in the next one
    (group commit: one fsync for many tables' moves). :meth:`store` returns once the move is durable."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._executor = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="stpete-storage")
        self._pending: list = []
        self._writing = False

    async def call(self, fn, *args):
        """Run ``fn(*args)`` (a method of the storage) in the storage thread."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)

    async def store(self, table_id: str, move: int, action: int, to_act: str) -> None:
        """Store one move durably (see :meth:`Storage.append_move`); raises its exception."""
        future = asyncio.get_running_loop().create_future()
        self._pending.append((table_id, move, action, to_act, future))
        if not self._writing:
            self._writing = True
            asyncio.get_running_loop().create_task(self._write())
        await future

    async def _write(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    results = await self.call(self.storage.append_moves, [item[:4] for item in batch])
                except Exception as e:  # nothing stored
                    results = [e] * len(batch)
                for (*_, future), error in zip(batch, results):
                    if future.done():
                        continue
                    if error is None:
                        future.set_result(None)
                    else:
                        future.set_exception(error)
        finally:
            self._writing = False

    def close(self) -> None:
        self._executor.shutdown(wait=True)
