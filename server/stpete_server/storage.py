"""Where the server keeps its tables: one small interface (:class:`Storage`) and its SQLite implementation
(:class:`SQLiteStorage`, Python's sqlite3). A later step can put PostgreSQL (or anything with transactions) under the
same interface for more than one server process.

A table is stored as its rule options, its seed, its seats and its moves (the action ids in order): exactly a replay
record (doc/format.md), plus the seats. The seed never leaves the server before the game is over (§9: it would give
away every stack). A move is stored by :meth:`Storage.append_move` in one transaction, and the server acknowledges
it to the clients only after that call returned: a server killed at any moment (kill -9) and started again resumes
every table at its last acknowledged move.
"""
import asyncio
import concurrent.futures
import json
import sqlite3
import time
from typing import Iterator, List, NamedTuple, Optional, Sequence, Tuple


class SeatRecord(NamedTuple):
    """One seat: ``kind`` "human" or "bot"; ``token_hash`` the SHA-256 (hex) of the seat's secret token for a
    person (the token itself is never stored), None for a bot; ``bot`` the bot spec for a bot, else None."""
    kind: str
    token_hash: Optional[str]
    bot: Optional[str]


class TableRecord(NamedTuple):
    """A stored table: ``options`` (the rule options, the replay record's ``options`` object without ``seed``),
    ``seed`` (u64), ``seats``, ``moves`` (action ids in the order applied), ``created`` (Unix time, s)."""
    table_id: str
    options: dict
    seed: int
    seats: List[SeatRecord]
    moves: List[int]
    created: float


class StaleMoveError(Exception):
    """append_move() was given a move number that is not the table's next one (the move is already stored, or
    one is missing): nothing was written."""


class Storage:
    """The interface the server uses. Every method is a complete transaction: it either happens entirely or not
    at all (then it raises)."""

    def create_table(self, table: TableRecord) -> None:
        """Store a new table (no moves yet). Raises an exception if the id is taken."""
        raise NotImplementedError

    def append_move(self, table_id: str, move: int, action: int) -> None:
        """Store action id ``action`` as move number ``move`` (0 for the first) of the table, durably, in one
        transaction. Raises :class:`StaleMoveError` if ``move`` is not the number of moves stored so far."""
        raise NotImplementedError

    def append_moves(self, moves: Sequence[Tuple[str, int, int]]) -> List[Optional[Exception]]:
        """Store several moves ``(table_id, move, action)`` of different tables at once (group commit: one durable
        transaction for all where the backend can). Returns one entry per move: None when stored, else the
        exception (:class:`StaleMoveError`, ...) for that move. Raises if nothing could be stored. This default
        stores them one by one with :meth:`append_move`."""
        results: List[Optional[Exception]] = []
        for table_id, move, action in moves:
            try:
                self.append_move(table_id, move, action)
                results.append(None)
            except StaleMoveError as e:
                results.append(e)
        return results

    def tables(self) -> Iterator[TableRecord]:
        """Every stored table with its moves (to resume them after a restart)."""
        raise NotImplementedError

    def table(self, table_id: str) -> Optional[TableRecord]:
        """One stored table, or None."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the connection."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    options TEXT NOT NULL,            -- JSON: the replay record's options without the seed
    seed TEXT NOT NULL,               -- decimal u64: secret until the game is over
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('human', 'bot')),
    token_hash TEXT,                  -- SHA-256 (hex) of the seat's token; NULL for a bot
    bot TEXT,                         -- bot spec; NULL for a person
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    move INTEGER NOT NULL,            -- 0, 1, 2, ... : the position's history length before the move
    action INTEGER NOT NULL,          -- the action id (doc/format.md)
    PRIMARY KEY (table_id, move)
);
"""


class SQLiteStorage(Storage):
    """:class:`Storage` in one SQLite file (``path``; ":memory:" for tests), in WAL mode. ``synchronous`` is
    SQLite's setting: "FULL" (default: a move acknowledged survives a power cut too) or "NORMAL" (it survives the
    server being killed, not a power cut; faster commits). Used from one thread at a time (the connection may be
    handed to another thread, as :class:`GroupCommitter` does)."""

    def __init__(self, path: str, synchronous: str = "FULL") -> None:
        if synchronous.upper() not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)  # explicit BEGIN/COMMIT
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    def _transaction(self, statements: Sequence[tuple]) -> None:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            for sql, args in statements:
                db.execute(sql, args)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def create_table(self, table: TableRecord) -> None:
        statements = [("INSERT INTO tables (id, options, seed, created) VALUES (?, ?, ?, ?)",
                       (table.table_id, json.dumps(table.options, sort_keys=True), str(table.seed),
                        table.created or time.time()))]
        for seat, s in enumerate(table.seats):
            statements.append(("INSERT INTO seats (table_id, seat, kind, token_hash, bot) VALUES (?, ?, ?, ?, ?)",
                               (table.table_id, seat, s.kind, s.token_hash, s.bot)))
        self._transaction(statements)

    def append_move(self, table_id: str, move: int, action: int) -> None:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            (count,) = db.execute("SELECT COUNT(*) FROM moves WHERE table_id = ?", (table_id,)).fetchone()
            if count != move:
                raise StaleMoveError(f"table {table_id}: move {move} given, {count} stored")
            db.execute("INSERT INTO moves (table_id, move, action) VALUES (?, ?, ?)", (table_id, move, action))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def append_moves(self, moves: Sequence[Tuple[str, int, int]]) -> List[Optional[Exception]]:
        db = self._db
        results: List[Optional[Exception]] = []
        db.execute("BEGIN IMMEDIATE")
        try:
            for table_id, move, action in moves:
                (count,) = db.execute("SELECT COUNT(*) FROM moves WHERE table_id = ?", (table_id,)).fetchone()
                if count != move:
                    results.append(StaleMoveError(f"table {table_id}: move {move} given, {count} stored"))
                    continue
                db.execute("INSERT INTO moves (table_id, move, action) VALUES (?, ?, ?)", (table_id, move, action))
                results.append(None)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return results

    def _record(self, row) -> TableRecord:
        table_id, options, seed, created = row
        seats = [SeatRecord(kind, token_hash, bot) for kind, token_hash, bot in self._db.execute(
            "SELECT kind, token_hash, bot FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))]
        moves = [action for (action,) in self._db.execute(
            "SELECT action FROM moves WHERE table_id = ? ORDER BY move", (table_id,))]
        return TableRecord(table_id, json.loads(options), int(seed), seats, moves, created)

    def tables(self) -> Iterator[TableRecord]:
        rows = self._db.execute("SELECT id, options, seed, created FROM tables ORDER BY created, id").fetchall()
        for row in rows:
            yield self._record(row)

    def table(self, table_id: str) -> Optional[TableRecord]:
        row = self._db.execute("SELECT id, options, seed, created FROM tables WHERE id = ?", (table_id,)).fetchone()
        return self._record(row) if row else None

    def close(self) -> None:
        self._db.close()


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

    async def store(self, table_id: str, move: int, action: int) -> None:
        """Store one move durably (see :meth:`Storage.append_move`); raises its exception."""
        future = asyncio.get_running_loop().create_future()
        self._pending.append((table_id, move, action, future))
        if not self._writing:
            self._writing = True
            asyncio.get_running_loop().create_task(self._write())
        await future

    async def _write(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    results = await self.call(self.storage.append_moves, [item[:3] for item in batch])
                except Exception as e:  # nothing stored
                    results = [e] * len(batch)
                for (_, _, _, future), error in zip(batch, results):
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
