"""Where the server keeps its tables: one small interface (:class:`Storage`) and its SQLite implementation
(:class:`SQLiteStorage`, Python's sqlite3). A later step can put PostgreSQL (or anything with transactions) under the
same interface for more than one server process.

A table is stored as its rule options, its seed, its seats and its moves (the action ids in order): exactly a replay
record (doc/format.md), plus the seats, and whether its game is over. The seed never leaves the server before the
game is over (§9: it would give away every stack). A move is stored by :meth:`Storage.append_moves` in one
transaction, and the server acknowledges it to the clients only after that call returned: a server killed at any
moment (kill -9) and started again resumes every table at its last acknowledged move.
"""
import asyncio
import concurrent.futures
import json
import sqlite3
import time
import urllib.parse
from typing import Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union


class SeatRecord(NamedTuple):
    """One seat: ``kind`` "human" or "bot"; ``token_hash`` the SHA-256 (hex) of the seat's secret token for a
    person (the token itself is never stored), None for a bot; ``bot`` the bot spec for a bot, else None."""
    kind: str
    token_hash: Optional[str]
    bot: Optional[str]


class TableRecord(NamedTuple):
    """A stored table: ``options`` (the rule options, the replay record's ``options`` object without ``seed``),
    ``seed`` (u64), ``seats``, ``moves`` (action ids in the order applied), ``created`` (Unix time, s), ``finished``
    (True once the move that ended the game is stored; None when not known: a table stored by 1.1.2)."""
    table_id: str
    options: dict
    seed: int
    seats: List[SeatRecord]
    moves: List[int]
    created: float
    finished: Optional[bool] = False


class MoveRecord(NamedTuple):
    """One move to store: action id ``action`` as move number ``move`` (0 for the first) of table ``table_id``;
    ``final`` when it ends the game (the table is then stored as finished in the same transaction)."""
    table_id: str
    move: int
    action: int
    final: bool = False


class StaleMoveError(Exception):
    """A move number that is not the table's next one (the move is already stored, or one is missing): nothing
    was written for that move."""


class DamagedTableError(Exception):
    """A stored table that cannot be read back as a table (a row that is not what the server wrote: bad JSON,
    seats or moves not numbered 0, 1, 2, ..., a page SQLite cannot read). ``table_id`` names it; ``str(e)`` says
    what is wrong. The other tables are not affected."""

    def __init__(self, table_id: str, reason: str) -> None:
        super().__init__(f"table {table_id}: {reason}")
        self.table_id = table_id
        self.reason = reason


class Storage:
    """The interface the server uses. Every method is a complete transaction: it either happens entirely or not
    at all (then it raises). Methods are called from one thread at a time (:class:`GroupCommitter`'s), never from
    the event loop.

    What a backend must guarantee (the server's tests check it through :class:`SQLiteStorage`): a move is stored
    only as the table's next move (:class:`StaleMoveError` otherwise, whatever another process stored meanwhile);
    a move reported stored survives a crash of the server; a table whose rows are damaged is reported by
    :meth:`table` with :class:`DamagedTableError` and never keeps :meth:`table_ids` or the other tables from
    being read."""

    def create_table(self, table: TableRecord) -> None:
        """Store a new table (no moves yet). Raises an exception if the id is taken or nothing could be stored."""
        raise NotImplementedError

    def append_move(self, table_id: str, move: int, action: int, final: bool = False) -> None:
        """Store one move (:class:`MoveRecord`) durably, in one transaction. Raises :class:`StaleMoveError` if
        ``move`` is not the number of moves stored so far, another exception if it could not be stored."""
        raise NotImplementedError

    def append_moves(self, moves: Sequence[Union[MoveRecord, Tuple]]) -> List[Optional[Exception]]:
        """Store several moves of different tables at once (:class:`MoveRecord`, or tuples ``(table_id, move,
        action[, final])``; group commit: one durable transaction for all where the backend can). Returns one entry
        per move: None when stored, else the exception (:class:`StaleMoveError`, ...) for that move. Raises if
        nothing could be stored. This default stores them one by one with :meth:`append_move`."""
        results: List[Optional[Exception]] = []
        for item in moves:
            m = MoveRecord(*item)
            try:
                self.append_move(m.table_id, m.move, m.action, m.final)
                results.append(None)
            except StaleMoveError as e:
                results.append(e)
        return results

    def table_ids(self, finished: Optional[bool] = None) -> List[str]:
        """The ids of the stored tables, oldest first: all of them (``finished`` None), the finished ones (True),
        or those not known to be finished (False: unfinished, and tables of 1.1.2 whose end was not recorded).
        Raises if the database cannot be read at all."""
        raise NotImplementedError

    def table(self, table_id: str) -> Optional[TableRecord]:
        """One stored table with its moves, or None if there is none. Raises :class:`DamagedTableError` for a
        table whose rows cannot be read back."""
        raise NotImplementedError

    def mark_finished(self, table_id: str) -> None:
        """Record that the table's game is over (for a table of 1.1.2 found over when it was loaded)."""
        raise NotImplementedError

    def tables(self) -> Iterator[TableRecord]:
        """Every stored table that can be read, with its moves (damaged ones are left out: see :meth:`table`)."""
        for table_id in self.table_ids():
            try:
                record = self.table(table_id)
            except DamagedTableError:
                continue
            if record is not None:
                yield record

    def close(self) -> None:
        """Release the connection."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    options TEXT NOT NULL,            -- JSON: the replay record's options without the seed
    seed TEXT NOT NULL,               -- decimal u64: secret until the game is over
    created REAL NOT NULL,
    finished INTEGER                  -- 1 once the final move is stored, 0 before; NULL: not known (1.1.2)
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
    server being killed, not a power cut; faster commits). ``readonly``: open an existing database for reading
    only (never created, never written; ``sqlite3.OperationalError`` if there is no such file, ValueError if it is
    not the server's database). Used from one thread at a time (the connection may be handed to another thread, as
    :class:`GroupCommitter` does). A database of 1.1.2 gets the ``finished`` column when opened for writing."""

    def __init__(self, path: str, synchronous: str = "FULL", readonly: bool = False) -> None:
        if synchronous.upper() not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        if readonly:
            uri = "file:" + urllib.parse.quote(path) + "?mode=ro"
            self._db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
            names = {n for (n,) in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not {"tables", "seats", "moves"} <= names:
                self._db.close()
                raise ValueError(f"{path} is not a database of stpete_server (no tables, seats and moves)")
            self._has_finished = "finished" in self._columns("tables")
            return
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)  # explicit BEGIN/COMMIT
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)
        if "finished" not in self._columns("tables"):  # a database of 1.1.2: its tables' ends are not known
            self._db.execute("ALTER TABLE tables ADD COLUMN finished INTEGER")
        self._has_finished = True

    def _columns(self, table: str) -> List[str]:
        return [row[1] for row in self._db.execute(f"PRAGMA table_info({table})")]

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
        statements = [("INSERT INTO tables (id, options, seed, created, finished) VALUES (?, ?, ?, ?, 0)",
                       (table.table_id, json.dumps(table.options, sort_keys=True), str(table.seed),
                        table.created or time.time()))]
        for seat, s in enumerate(table.seats):
            statements.append(("INSERT INTO seats (table_id, seat, kind, token_hash, bot) VALUES (?, ?, ?, ?, ?)",
                               (table.table_id, seat, s.kind, s.token_hash, s.bot)))
        self._transaction(statements)

    def _append(self, m: MoveRecord) -> Optional[Exception]:
        """Within a transaction: store one move, or the StaleMoveError saying why not."""
        db = self._db
        (count,) = db.execute("SELECT COUNT(*) FROM moves WHERE table_id = ?", (m.table_id,)).fetchone()
        if count != m.move:
            return StaleMoveError(f"table {m.table_id}: move {m.move} given, {count} stored")
        db.execute("INSERT INTO moves (table_id, move, action) VALUES (?, ?, ?)", (m.table_id, m.move, m.action))
        if m.final:
            db.execute("UPDATE tables SET finished = 1 WHERE id = ?", (m.table_id,))
        return None

    def append_move(self, table_id: str, move: int, action: int, final: bool = False) -> None:
        (result,) = self.append_moves([MoveRecord(table_id, move, action, final)])
        if result is not None:
            raise result

    def append_moves(self, moves: Sequence[Union[MoveRecord, Tuple]]) -> List[Optional[Exception]]:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            results = [self._append(MoveRecord(*item)) for item in moves]
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return results

    def table_ids(self, finished: Optional[bool] = None) -> List[str]:
        where = ""
        if finished is not None and self._has_finished:
            where = " WHERE finished = 1" if finished else " WHERE finished IS NOT 1"
        elif finished:
            return []
        try:
            return [i for (i,) in self._db.execute(f"SELECT id FROM tables{where} ORDER BY created, id")]
        except sqlite3.DatabaseError:  # a damaged index: read the table itself
            return [i for (i,) in self._db.execute(f"SELECT id FROM tables NOT INDEXED{where} ORDER BY created, id")]

    def table(self, table_id: str) -> Optional[TableRecord]:
        try:
            rows = self._rows(table_id, "")
        except sqlite3.DatabaseError:
            try:  # a damaged index: the rows themselves may still be read, without it (REINDEX repairs it)
                rows = self._rows(table_id, " NOT INDEXED")
            except sqlite3.DatabaseError as e:  # a damaged page holding this table's rows
                raise DamagedTableError(table_id, f"its rows cannot be read ({e})") from e
        if rows is None:
            return None
        row, seats, moves = rows
        options_text, seed_text, created, done = row
        try:
            options = json.loads(options_text)
        except (TypeError, ValueError, RecursionError):
            raise DamagedTableError(table_id, f"its options are not JSON: {str(options_text)[:60]!r}") from None
        if not isinstance(options, dict):
            raise DamagedTableError(table_id, f"its options are not a JSON object: {str(options_text)[:60]!r}")
        try:
            seed = int(seed_text)
            if not 0 <= seed < 2 ** 64:
                raise ValueError
        except (TypeError, ValueError):
            raise DamagedTableError(table_id, f"its seed is not a decimal u64: {str(seed_text)[:30]!r}") from None
        if [s for s, *_ in seats] != list(range(len(seats))):
            raise DamagedTableError(table_id, f"its seats are numbered {[s for s, *_ in seats]}, not 0, 1, ...")
        if [m for m, _ in moves] != list(range(len(moves))):
            gap = next(k for k, (m, _) in enumerate(moves) if m != k)
            raise DamagedTableError(table_id, f"its moves are not numbered 0, 1, ...: move {gap} is missing")
        if any(isinstance(a, bool) or not isinstance(a, int) for _, a in moves):
            raise DamagedTableError(table_id, "a move's action is not a whole number")
        return TableRecord(table_id, options, seed, [SeatRecord(kind, token_hash, bot) for _, kind, token_hash, bot
                                                     in seats],
                           [a for _, a in moves], created, None if done is None else bool(done))

    def _rows(self, table_id: str, indexed: str):
        """The rows of one table (``indexed`` " NOT INDEXED": read without the primary keys' indexes), or None."""
        finished = ", finished" if self._has_finished else ", NULL"
        row = self._db.execute(f"SELECT options, seed, created{finished} FROM tables{indexed} WHERE id = ?",
                               (table_id,)).fetchone()
        if row is None:
            return None
        seats = self._db.execute(f"SELECT seat, kind, token_hash, bot FROM seats{indexed} WHERE table_id = ? "
                                 "ORDER BY seat", (table_id,)).fetchall()
        moves = self._db.execute(f"SELECT move, action FROM moves{indexed} WHERE table_id = ? ORDER BY move",
                                 (table_id,)).fetchall()
        return row, seats, moves

    def mark_finished(self, table_id: str) -> None:
        self._transaction([("UPDATE tables SET finished = 1 WHERE id = ?", (table_id,))])

    def close(self) -> None:
        self._db.close()


class GroupCommitter:
    """The server's way to its :class:`Storage`: every call runs in one thread of its own, so the event loop never
    waits for the disk, and the moves that arrive while a commit is under way are stored together in the next one
    (group commit: one fsync for many tables' moves). :meth:`submit` gives a future that is resolved once the move
    is durable, or with the reason it is not; it is resolved by the storage thread's answer alone, so a caller
    that is cancelled meanwhile can still learn what happened to its move."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._executor = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="stpete-storage")
        self._pending: list = []
        self._writing = False

    async def call(self, fn, *args):
        """Run ``fn(*args)`` (a method of the storage) in the storage thread."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)

    def submit(self, move: MoveRecord) -> "asyncio.Future[None]":
        """Queue one move to be stored (see :meth:`Storage.append_moves`). The future's result is None once the
        move is stored; its exception says why it is not (:class:`StaleMoveError`, or the storage's error: then
        nothing of it was stored). Never cancelled by the committer."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._pending.append((MoveRecord(*move), future))
        if not self._writing:
            self._writing = True
            loop.create_task(self._write())
        return future

    async def store(self, table_id: str, move: int, action: int, final: bool = False) -> None:
        """Store one move durably and wait for it; raises its exception."""
        await self.submit(MoveRecord(table_id, move, action, final))

    async def _write(self) -> None:
        """Store the pending moves, batch after batch, and resolve their futures. Cancelled (the event loop is
        closing), it still waits for the batch the storage thread has, resolves those moves as the thread says, and
        the others with an error: a future of :meth:`submit` is always resolved."""
        cancelled = False
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                commit = asyncio.ensure_future(self.call(self.storage.append_moves, [move for move, _ in batch]))
                while not commit.done():
                    try:
                        await asyncio.wait([commit])
                    except asyncio.CancelledError:
                        cancelled = True
                try:
                    results = commit.result()
                except Exception as e:  # nothing stored
                    results = [e] * len(batch)
                for (_, future), error in zip(batch, results):
                    if future.done():
                        continue
                    if error is None:
                        future.set_result(None)
                    else:
                        future.set_exception(error)
                if cancelled:
                    break
        finally:
            self._writing = False
            if cancelled:
                pending, self._pending = self._pending, []
                for _, future in pending:
                    if not future.done():
                        future.set_exception(RuntimeError("the server is stopping: the move was not stored"))
                raise asyncio.CancelledError()

    def close(self) -> None:
        self._executor.shutdown(wait=True)
