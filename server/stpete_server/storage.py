"""Where the server keeps its tables: one small interface (:class:`Storage`), its SQLite implementation
(:class:`SQLiteStorage`, Python's sqlite3: one server process) and its PostgreSQL one
(:class:`~stpete_server.postgres.PostgresStorage`, psycopg 3: several server processes on one database).
:func:`open_storage` picks one from the server's ``--db``.

A table is stored as its rule options, its seed, its seats and its moves (the action ids in order): exactly a replay
record (doc/format.md), plus the seats. The seed never leaves the server before the game is over (§9: it would give
away every stack). A move is stored by :meth:`Storage.append_moves` in one transaction, and the server acknowledges
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
from typing import Callable, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

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
    ``seed`` (u64), ``seats``, ``moves`` (action ids in the order applied), ``created`` (Unix time, s), ``finished``
    (True once the move that ended the game is stored), ``to_act`` (one of :data:`TO_ACT`: the kind of seat to act
    after the last move; "over" when finished)."""
    table_id: str
    options: dict
    seed: int
    seats: List[SeatRecord]
    moves: List[int]
    created: float
    finished: Optional[bool] = False
    to_act: str = "human"


class MoveRecord(NamedTuple):
    """One move to store: action id ``action`` as move number ``move`` (0 for the first) of table ``table_id``;
    ``final`` when it ends the game (the table is then stored as finished in the same transaction), ``bot`` when a
    bot is to act after it (the table is then found by :meth:`Storage.bot_turns`)."""
    table_id: str
    move: int
    action: int
    final: bool = False
    bot: bool = False

    @property
    def to_act(self) -> str:
        """The kind of seat to act after the move (:data:`TO_ACT`)."""
        return "over" if self.final else "bot" if self.bot else "human"


class StaleMoveError(Exception):
    """A move number that is not the table's next one (the move is already stored, or one is missing): nothing
    was written for that move."""


class NoSuchTableError(StaleMoveError):
    """A move of a table that is not stored (never was, or expired): nothing was written for it."""


class DamagedTableError(Exception):
    """A stored table that cannot be read back as a table (a row that is not what the server wrote: bad JSON,
    seats or moves not numbered 0, 1, 2, ..., a page SQLite cannot read). ``table_id`` names it; ``str(e)`` says
    what is wrong. The other tables are not affected."""

    def __init__(self, table_id: str, reason: str) -> None:
        super().__init__(f"table {table_id}: {reason}")
        self.table_id = table_id
        self.reason = reason


class FullError(Exception):
    """create_table() with ``max_unfinished``: that many unfinished tables are stored already; nothing written."""


class InUseError(RuntimeError):
    """The SQLite file is held by another server process (SQLite serves one: several need PostgreSQL)."""


class Storage:
    """The interface the server uses. Every method is a complete transaction: it either happens entirely or not
    at all (then it raises). Methods are called from one thread at a time (:class:`GroupCommitter`'s), never from
    the event loop. Times are Unix times in seconds (``time.time()``).

    What a backend must guarantee (the server's tests check it on both backends): a move is stored only as the
    table's next move (:class:`StaleMoveError` otherwise, whatever another process stored meanwhile); a move
    reported stored survives a crash of the server; a table whose rows are damaged is reported by :meth:`table`
    with :class:`DamagedTableError` and never keeps :meth:`table_ids` or the other tables from being read."""

    def create_table(self, table: TableRecord, max_unfinished: Optional[int] = None) -> None:
        """Store a new table (no moves yet; ``table.to_act`` the kind of seat to act first). Raises
        :class:`FullError` if ``max_unfinished`` is given and that many unfinished tables are stored (checked in
        the same transaction: processes creating at once cannot pass it together), another exception if the id is
        taken or nothing could be stored."""
        raise NotImplementedError

    def append_move(self, table_id: str, move: int, action: int, final: bool = False, bot: bool = False) -> None:
        """Store one move (:class:`MoveRecord`) durably, in one transaction. Raises :class:`StaleMoveError` if
        ``move`` is not the number of moves stored so far, :class:`NoSuchTableError` if there is no such table,
        another exception if it could not be stored."""
        raise NotImplementedError

    def append_moves(self, moves: Sequence[Union[MoveRecord, Tuple]]) -> List[Optional[Exception]]:
        """Store several moves of different tables at once (:class:`MoveRecord`, or tuples ``(table_id, move,
        action[, final[, bot]])``; group commit: one durable transaction for all where the backend can). Returns
        one entry per move: None when stored, else the exception (:class:`StaleMoveError`, ...) for that move.
        Raises if nothing could be stored. This default stores them one by one with :meth:`append_move`."""
        results: List[Optional[Exception]] = []
        for item in moves:
            m = MoveRecord(*item)
            try:
                self.append_move(m.table_id, m.move, m.action, m.final, m.bot)
                results.append(None)
            except StaleMoveError as e:
                results.append(e)
        return results

    def table_ids(self, finished: Optional[bool] = None) -> List[str]:
        """The ids of the stored tables, oldest first: all of them (``finished`` None), the finished ones (True),
        or the unfinished ones (False). Raises if the database cannot be read at all."""
        raise NotImplementedError

    def table(self, table_id: str) -> Optional[TableRecord]:
        """One stored table with its moves, or None if there is none. Raises :class:`DamagedTableError` for a
        table whose rows cannot be read back."""
        raise NotImplementedError

    def moves(self, table_id: str, start: int) -> Optional[List[int]]:
        """The action ids of the table's moves from move number ``start`` on (a server catching up with moves
        another process stored), or None if there is no such table."""
        raise NotImplementedError

    def mark_finished(self, table_id: str) -> None:
        """Record that the table's game is over (a table whose final move was stored without saying so)."""
        raise NotImplementedError

    def unfinished(self) -> int:
        """How many unfinished tables are stored."""
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


def is_postgresql(db: str) -> bool:
    """Whether ``--db`` names a PostgreSQL database (a libpq URI) rather than an SQLite file."""
    return db.startswith(("postgresql://", "postgres://"))


def open_storage(db: str, synchronous: str = "FULL", status: Optional[Callable[[TableRecord], str]] = None,
                 readonly: bool = False, exclusive: bool = False) -> "SQLStorage":
    """The storage the server's ``--db`` names: a PostgreSQL database for a libpq URI (``postgresql://...`` or
    ``postgres://...``, :class:`~stpete_server.postgres.PostgresStorage`), else an SQLite file
    (:class:`SQLiteStorage`). ``synchronous``, ``status``, ``readonly`` and ``exclusive``: as
    :class:`SQLiteStorage` takes them (PostgreSQL: ``synchronous`` "NORMAL" is ``synchronous_commit = off``;
    ``readonly`` a read-only session; ``exclusive`` nothing, several processes share a database)."""
    if is_postgresql(db):
        from .postgres import PostgresStorage
        return PostgresStorage(db, synchronous=synchronous, readonly=readonly)
    return SQLiteStorage(db, synchronous=synchronous, status=status, readonly=readonly, exclusive=exclusive)


def check_record(table_id: str, row, seats, moves) -> TableRecord:
    """A table's record from its rows (``row``: options, seed, created, to_act, which is None when not known: a
    file of libstpete 1.1 read as it is; ``seats``: (seat, kind, token_hash, bot); ``moves``: (move, action)), each
    checked to be what the server writes. Raises :class:`DamagedTableError` saying what is not."""
    options_text, seed_text, created, to_act = row
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
    if to_act is not None and to_act not in TO_ACT:
        raise DamagedTableError(table_id, f"its seat to act is {str(to_act)[:20]!r}, not one of {', '.join(TO_ACT)}")
    return TableRecord(table_id, options, seed, [SeatRecord(kind, token_hash, bot) for _, kind, token_hash, bot
                                                 in seats],
                       [a for _, a in moves], created, None if to_act is None else to_act == "over", to_act or "human")


class SQLStorage(Storage):
    """:class:`Storage` in SQL, shared by both backends: the subclass opens ``self._db`` (a DB-API connection in
    autocommit mode) and says how a transaction begins. Statements are written with ``?`` placeholders
    (:meth:`_sql` turns them into the driver's)."""

    _begin = "BEGIN"
    _begin_read = "BEGIN"
    #: What a damaged database raises when read (SQLite: a page it cannot read), and the words that read the rows
    #: without the indexes then (SQLite's NOT INDEXED; None: no second try).
    _read_errors: tuple = ()
    _not_indexed: Optional[str] = None

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

    def _creation_lock(self) -> None:
        """In create_table's transaction, before the count of unfinished tables: one creation at a time
        (SQLite's BEGIN IMMEDIATE already is)."""

    def create_table(self, table: TableRecord, max_unfinished: Optional[int] = None) -> None:
        if table.to_act not in TO_ACT:
            raise ValueError(f"to_act must be one of {TO_ACT}, not {table.to_act!r}")
        created = table.created or time.time()

        def body():
            if max_unfinished is not None:
                self._creation_lock()
                if self._count_unfinished() >= max_unfinished:
                    raise FullError(f"{max_unfinished} unfinished tables are stored")
            self._execute("INSERT INTO tables (id, options, seed, created, move_count, updated, to_act, finished) "
                          "VALUES (?, ?, ?, ?, 0, ?, ?, ?)",
                          (table.table_id, json.dumps(table.options, sort_keys=True), str(table.seed), created,
                           created, table.to_act, created if table.to_act == "over" else None))
            self._executemany("INSERT INTO seats (table_id, seat, kind, token_hash, bot) VALUES (?, ?, ?, ?, ?)",
                              [(table.table_id, seat, s.kind, s.token_hash, s.bot)
                               for seat, s in enumerate(table.seats)])
        self._transaction(body)

    def append_move(self, table_id: str, move: int, action: int, final: bool = False, bot: bool = False) -> None:
        (error,) = self.append_moves([MoveRecord(table_id, move, action, final, bot)])
        if error is not None:
            raise error

    def _counts(self, ids: List[str]) -> dict:
        """In the transaction: the stored move count of each table of ``ids`` that exists, each row locked until
        the transaction ends (SQLite: the whole database is)."""
        return dict(self._execute("SELECT id, move_count FROM tables WHERE id = ?", (i,)).fetchone() or (i, None)
                    for i in ids)

    def append_moves(self, moves: Sequence[Union[MoveRecord, Tuple]]) -> List[Optional[Exception]]:
        moves = [MoveRecord(*m) for m in moves]

        def body():
            counts = self._counts(sorted({m.table_id for m in moves}))
            results: List[Optional[Exception]] = []
            good = []
            for m in moves:
                count = counts.get(m.table_id)
                if count is None:
                    results.append(NoSuchTableError(f"table {m.table_id}: no such table"))
                elif count != m.move:
                    results.append(StaleMoveError(f"table {m.table_id}: move {m.move} given, {count} stored"))
                else:
                    counts[m.table_id] = count + 1  # a second move of the same table in this batch must follow it
                    good.append(m)
                    results.append(None)
            if good:
                self._store(good, time.time())
            return results
        return self._transaction(body)

    def _store(self, good: List[MoveRecord], now: float) -> None:
        """In the transaction of :meth:`append_moves`, its rows locked: store ``good``, moves checked to be their
        tables' next ones (in order, for a table given twice)."""
        self._executemany("UPDATE tables SET move_count = ? + 1, updated = ?, to_act = ?, finished = ? WHERE id = ?",
                          [(m.move, now, m.to_act, now if m.final else None, m.table_id) for m in good])
        self._executemany("INSERT INTO moves (table_id, move, action) VALUES (?, ?, ?)",
                          [(m.table_id, m.move, m.action) for m in good])
        self._notify([f"move {m.table_id} {m.move} {m.action}" for m in good])

    def _read(self, read: Callable[[str], object], table_id: str):
        """``read(indexed)`` in a read transaction; on a damaged database, once more without the indexes (SQLite:
        REINDEX repairs them), else :class:`DamagedTableError`."""
        try:
            return self._transaction(lambda: read(""), read=True)
        except self._read_errors:
            try:
                return self._transaction(lambda: read(self._not_indexed), read=True)
            except self._read_errors as e:  # a damaged page holding this table's rows
                raise DamagedTableError(table_id, f"its rows cannot be read ({e})") from e

    #: Whether the tables' ends are stored (not in a file of libstpete 1.1 read as it is).
    _ends_known = True

    def table_ids(self, finished: Optional[bool] = None) -> List[str]:
        if not self._ends_known:  # False: not known to be finished
            if finished:
                return []
            finished = None
        where = {None: "", True: " WHERE finished IS NOT NULL", False: " WHERE finished IS NULL"}[finished]

        def read(indexed):
            return [i for (i,) in self._execute(f"SELECT id FROM tables{indexed}{where} ORDER BY created, id")]
        try:
            return self._read(read, "?")
        except DamagedTableError as e:
            raise e.__cause__ from None

    _COLUMNS = "options, seed, created, to_act"

    def table(self, table_id: str) -> Optional[TableRecord]:
        def read(indexed):
            row = self._execute(f"SELECT {self._COLUMNS} FROM tables{indexed} WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                return None
            seats = self._execute(f"SELECT seat, kind, token_hash, bot FROM seats{indexed} WHERE table_id = ? "
                                  "ORDER BY seat", (table_id,)).fetchall()
            moves = self._execute(f"SELECT move, action FROM moves{indexed} WHERE table_id = ? ORDER BY move",
                                  (table_id,)).fetchall()
            return row, seats, moves
        rows = self._read(read, table_id)
        return None if rows is None else check_record(table_id, *rows)

    def moves(self, table_id: str, start: int) -> Optional[List[int]]:
        def body():
            if self._execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone() is None:
                return None
            return self._actions(table_id, start)
        return self._transaction(body, read=True)

    def _seats(self, table_id: str) -> List[SeatRecord]:
        return [SeatRecord(kind, token_hash, bot) for kind, token_hash, bot in self._execute(
            "SELECT kind, token_hash, bot FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)).fetchall()]

    def _actions(self, table_id: str, start: int = 0) -> List[int]:
        return [action for (action,) in self._execute(
            "SELECT action FROM moves WHERE table_id = ? AND move >= ? ORDER BY move", (table_id, start)).fetchall()]

    def mark_finished(self, table_id: str) -> None:
        self._transaction(lambda: self._execute("UPDATE tables SET to_act = 'over', finished = COALESCE(finished, ?) "
                                                "WHERE id = ?", (time.time(), table_id)))

    def _count_unfinished(self) -> int:
        return self._execute("SELECT COUNT(*) FROM tables WHERE finished IS NULL").fetchone()[0]

    def unfinished(self) -> int:
        return self._transaction(self._count_unfinished, read=True)

    def bot_turns(self, idle_before: float, limit: int) -> List[str]:
        return [i for (i,) in self._transaction(lambda: self._execute(
            "SELECT id FROM tables WHERE to_act = 'bot' AND updated < ? ORDER BY updated LIMIT ?",
            (idle_before, limit)).fetchall(), read=True)]

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
        row = self._transaction(lambda: self._execute(
            "SELECT id, options, seed, created, finished, seats, moves FROM archive WHERE id = ?",
            (table_id,)).fetchone(), read=True)
        if row is None:
            return None
        table_id, options, seed, created, finished, seats, moves = row
        return TableRecord(table_id, json.loads(options), int(seed),
                           [SeatRecord(s["kind"], None, s["bot"]) for s in json.loads(seats)], json.loads(moves),
                           created, finished is not None, "over" if finished is not None else "human")

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

#: Version 2's columns of ``tables`` that version 1 (libstpete 1.1) lacks, added by the upgrade.
_UPGRADE_1 = {
    "move_count": "INTEGER NOT NULL DEFAULT 0",
    "updated": "REAL NOT NULL DEFAULT 0",
    "to_act": "TEXT NOT NULL DEFAULT 'human' CHECK (to_act IN ('human', 'bot', 'over'))",
    "finished": "REAL",
}


class SQLiteStorage(SQLStorage):
    """:class:`Storage` in one SQLite file (``path``; ":memory:" for tests), in WAL mode, for one server process
    (SQLite tells no other process about a move). ``synchronous`` is SQLite's setting: "FULL" (default: a move
    acknowledged survives a power cut too) or "NORMAL" (it survives the server being killed, not a power cut;
    faster commits). Used from one thread at a time (the connection may be handed to another thread, as
    :class:`GroupCommitter` does). A damaged index does not keep a table from being read (its rows are read
    without it); a damaged page holding a table's rows makes that table :class:`DamagedTableError`.

    A version 1 file (libstpete 1.1) is upgraded when opened, in one transaction: the new columns are filled by
    ``status(record)``, the kind of seat to act in the stored table (:data:`TO_ACT`; the server's replays it),
    with the time of the upgrade as the last move's (so that no table expires at once); a table for which
    ``status`` raises keeps "human". Without ``status`` a version 1 file is refused (RuntimeError). ``readonly``
    opens an existing file without writing (no upgrade: the record is read the same in both versions):
    FileNotFoundError if there is none, ValueError if it is not the server's database. ``exclusive`` (the
    server's own): hold an exclusive lock (flock) on the file while open, so that a second server process on it is
    refused with :class:`InUseError` (after waiting up to ``wait`` seconds: a killed server's bot workers end
    within 0.2 s, and may hold it until then)."""

    _begin = "BEGIN IMMEDIATE"
    _read_errors = (sqlite3.DatabaseError,)
    _not_indexed = " NOT INDEXED"

    def __init__(self, path: str, synchronous: str = "FULL", status: Optional[Callable[[TableRecord], str]] = None,
                 readonly: bool = False, exclusive: bool = False, wait: float = 5.0) -> None:
        if synchronous.upper() not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        self._lock = None
        if readonly:
            if not os.path.exists(path):
                raise FileNotFoundError(f"no database {path!r}")
            self._db = sqlite3.connect(f"file:{urllib.parse.quote(path)}?mode=ro", uri=True, isolation_level=None,
                                       check_same_thread=False)
            columns = self._columns("tables")
            if not {"id", "options", "seed", "created"} <= set(columns) or not self._columns("seats") \
                    or not self._columns("moves"):
                self._db.close()
                raise ValueError(f"{path} is not a database of stpete_server (no tables, seats and moves)")
            if "to_act" not in columns:  # libstpete 1.1's file: no status columns (its ends not known), no archive
                self._COLUMNS = "options, seed, created, NULL"
                self._ends_known = False
                self.archived = lambda table_id: None
            return
        if exclusive and path != ":memory:":
            self._lock = self._hold(path, wait)
        try:
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)  # explicit BEGIN/COMMIT
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._transaction(lambda: self._upgrade(status))
        except BaseException:
            self.close()
            raise

    def _columns(self, table: str) -> List[str]:
        return [row[1] for row in self._db.execute(f"PRAGMA table_info({table})")]

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
        if getattr(self, "_db", None) is not None:
            self._db.close()
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    def _upgrade(self, status) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        columns = self._columns("tables")
        if columns and version < 2:
            if status is None:
                raise RuntimeError("a database of libstpete 1.1: open it with the server (python3 -m stpete_server) "
                                   "once to upgrade it")
            for name, kind in _UPGRADE_1.items():
                if name not in columns:
                    self._db.execute(f"ALTER TABLE tables ADD COLUMN {name} {kind}")
                elif name == "finished":  # an unreleased 1.2 development file: 0/1/NULL there, a time here
                    self._db.execute("UPDATE tables SET finished = NULL")
            now = time.time()
            for table_id in [i for (i,) in self._db.execute("SELECT id FROM tables")]:
                try:
                    record = self._v1_record(table_id)
                    to_act = status(record)
                except Exception:  # a table that does not replay: reported by the server when it loads it
                    to_act, record = "human", None
                moves = len(record.moves) if record is not None else self._db.execute(
                    "SELECT COUNT(*) FROM moves WHERE table_id = ?", (table_id,)).fetchone()[0]
                self._execute("UPDATE tables SET move_count = ?, updated = ?, to_act = ?, finished = ? WHERE id = ?",
                              (moves, now, to_act, now if to_act == "over" else None, table_id))
        for statement in filter(str.strip, _SCHEMA.split(";")):
            self._db.execute(statement)
        self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _v1_record(self, table_id: str) -> TableRecord:
        """In the upgrade's transaction: a version 1 table's record (checked as :meth:`table` checks it)."""
        row = self._db.execute("SELECT options, seed, created, NULL FROM tables WHERE id = ?",
                               (table_id,)).fetchone()
        seats = self._db.execute("SELECT seat, kind, token_hash, bot FROM seats WHERE table_id = ? ORDER BY seat",
                                 (table_id,)).fetchall()
        moves = self._db.execute("SELECT move, action FROM moves WHERE table_id = ? ORDER BY move",
                                 (table_id,)).fetchall()
        return check_record(table_id, row, seats, moves)


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

    async def store(self, table_id: str, move: int, action: int, final: bool = False, bot: bool = False) -> None:
        """Store one move durably and wait for it; raises its exception."""
        await self.submit(MoveRecord(table_id, move, action, final, bot))

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
