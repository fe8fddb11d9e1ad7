"""The server's tables in PostgreSQL (psycopg 3, Debian's ``python3-psycopg``), for several server processes on one
database (doc/server.md "Several processes").

:class:`PostgresStorage` is :class:`~stpete_server.storage.Storage` with the same tables as SQLite's (schema version
2) and three things SQLite has no need of:

- a move is stored under the row locks of its tables, taken in the order of their ids (``SELECT ... FOR UPDATE``),
  so that two processes' group commits never wait for each other in a cycle; the move count is compared and
  advanced under that lock, so of two processes given the same move one stores it; a group commit is one statement,
  its own transaction (one round trip);
- every move stored and every table expired is announced with ``NOTIFY stpete_server, 'move ID N ACTION'`` /
  ``'gone ID'`` in the same transaction (PostgreSQL delivers it at the commit, in commit order, to every session
  that listens: :mod:`.cluster`);
- expiry takes its tables with ``FOR UPDATE SKIP LOCKED``: processes expiring at once share the work and never wait
  for a table being played.
"""
import time
from typing import Callable, List, Optional

import psycopg

from .storage import _SCHEMA, SCHEMA_VERSION, MoveRecord, NoSuchTableError, SQLStorage, StaleMoveError

#: The NOTIFY channel of the server processes of one database.
CHANNEL = "stpete_server"

#: Keys of the advisory locks held while the schema is created (so that processes starting together do not race)
#: and while a table is created under --max-tables (so that the count of unfinished tables is exact).
SCHEMA_LOCK = 0x5374506574650001
CREATION_LOCK = 0x5374506574650002

_PG_SCHEMA = _SCHEMA.replace(" REAL", " DOUBLE PRECISION") + """
CREATE TABLE IF NOT EXISTS stpete_schema (version INTEGER NOT NULL)
"""


class PostgresStorage(SQLStorage):
    """:class:`~stpete_server.storage.Storage` in the PostgreSQL database ``url`` (a libpq URI,
    ``postgresql://USER@HOST/DB`` or with ``?host=/socket/dir``), created if it has no tables yet. ``synchronous``
    "FULL" (default: a commit is on disk before it is acknowledged) or "NORMAL" (``synchronous_commit = off``: a
    move survives the server being killed, not PostgreSQL's crash). ``readonly``: a read-only session of an
    existing database (FileNotFoundError if the server's tables are not in it). A connection that broke
    (PostgreSQL restarted) is opened again at the next call; the call that met the break raises."""

    _begin = "BEGIN"
    _begin_read = "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"  # one snapshot for a table's three reads

    def __init__(self, url: str, synchronous: str = "FULL", readonly: bool = False) -> None:
        if synchronous.upper() not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        self.url = url
        self._synchronous = synchronous.upper()
        self._readonly = readonly
        self._db = None
        self._connect()
        try:
            if readonly:
                if self._execute("SELECT to_regclass('stpete_schema')").fetchone()[0] is None:
                    raise FileNotFoundError(f"no server tables in the database {url!r}")
            else:
                self._transaction(self._create_schema)
        except BaseException:
            self._db.close()
            raise

    def _connect(self) -> None:
        self._db = psycopg.connect(self.url, autocommit=True, application_name="stpete-server")
        if self._synchronous == "NORMAL":
            self._db.execute("SET synchronous_commit = off")
        if self._readonly:
            self._db.execute("SET default_transaction_read_only = on")

    def _create_schema(self) -> None:
        self._db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        for statement in filter(str.strip, _PG_SCHEMA.split(";")):
            self._db.execute(statement)
        row = self._db.execute("SELECT version FROM stpete_schema").fetchone()
        if row is None:
            self._db.execute("INSERT INTO stpete_schema (version) VALUES (%s)", (SCHEMA_VERSION,))
        elif row[0] != SCHEMA_VERSION:
            raise RuntimeError(f"the database's schema is version {row[0]}, this server's {SCHEMA_VERSION}")

    def _sql(self, statement: str) -> str:
        return statement.replace("?", "%s")

    def _transaction(self, body: Callable[[], object], read: bool = False):
        if self._db.broken:
            self._db.close()
            self._connect()
        self._db.execute(self._begin_read if read else self._begin)
        try:
            result = body()
            self._db.execute("COMMIT")
        except BaseException:
            if not self._db.broken:
                self._db.execute("ROLLBACK")
            raise
        return result

    def _counts(self, ids: List[str]) -> dict:
        return dict(self._db.execute("SELECT id, move_count FROM tables WHERE id = ANY(%s) ORDER BY id FOR UPDATE",
                                     (ids,)).fetchall())

    def _creation_lock(self) -> None:
        self._db.execute("SELECT pg_advisory_xact_lock(%s)", (CREATION_LOCK,))

    def _store(self, good, now) -> None:
        # one statement (one round trip) for the whole group: the tables' rows (the last move of each), the moves,
        # the notifications in the order given
        ids, numbers, actions, kinds = (list(column) for column in zip(*((m.table_id, m.move, m.action, m.to_act)
                                                                        for m in good)))
        self._db.execute(
            "WITH g AS (SELECT * FROM unnest(%s::text[], %s::int[], %s::int[], %s::text[]) "
            "           WITH ORDINALITY AS g(id, move, action, to_act, k)), "
            "     last AS (SELECT DISTINCT ON (id) * FROM g ORDER BY id, move DESC), "
            "     u AS (UPDATE tables t SET move_count = last.move + 1, updated = %s, to_act = last.to_act, "
            "           finished = CASE WHEN last.to_act = 'over' THEN %s END FROM last WHERE t.id = last.id), "
            "     i AS (INSERT INTO moves (table_id, move, action) SELECT id, move, action FROM g) "
            "SELECT pg_notify(%s, 'move ' || id || ' ' || move || ' ' || action) FROM g ORDER BY k",
            (ids, numbers, actions, kinds, now, now, CHANNEL)).fetchall()

    #: A group commit of moves of different tables in one statement, its own transaction (autocommit): one round
    #: trip. ``locked`` takes the tables' rows in the order of their ids (FOR UPDATE: after a concurrent commit, the
    #: row as that commit left it); a move is ``good`` when its number is its table's move count; the good ones
    #: advance their tables and are inserted; every move's row says its table's count (NULL: no such table) and
    #: whether it was stored, and each stored one is announced (NOTIFY, delivered at the commit).
    _APPEND = (
        "WITH g AS (SELECT * FROM unnest(%(ids)s::text[], %(moves)s::int[], %(actions)s::int[], %(kinds)s::text[]) "
        "           WITH ORDINALITY AS g(id, move, action, to_act, k)), "
        "     locked AS (SELECT id, move_count FROM tables WHERE id = ANY(%(ids)s) ORDER BY id FOR UPDATE), "
        "     good AS (SELECT g.* FROM g JOIN locked l ON l.id = g.id AND l.move_count = g.move), "
        "     u AS (UPDATE tables t SET move_count = good.move + 1, updated = %(now)s, to_act = good.to_act, "
        "           finished = CASE WHEN good.to_act = 'over' THEN %(now)s END FROM good WHERE t.id = good.id), "
        "     i AS (INSERT INTO moves (table_id, move, action) SELECT id, move, action FROM good) "
        "SELECT g.k, l.move_count, good.k IS NOT NULL, "
        "       CASE WHEN good.k IS NOT NULL THEN pg_notify(%(channel)s, "
        "            'move ' || g.id || ' ' || g.move || ' ' || g.action) END "
        "FROM g LEFT JOIN locked l ON l.id = g.id LEFT JOIN good ON good.k = g.k ORDER BY g.k")

    def append_moves(self, moves):
        moves = [MoveRecord(*m) for m in moves]
        if len({m.table_id for m in moves}) < len(moves):  # a table twice: in order, in Python (SQLStorage)
            return super().append_moves(moves)
        if self._db.broken:
            self._db.close()
            self._connect()
        rows = self._db.execute(self._APPEND, {
            "ids": [m.table_id for m in moves], "moves": [m.move for m in moves],
            "actions": [m.action for m in moves], "kinds": [m.to_act for m in moves], "now": time.time(),
            "channel": CHANNEL}).fetchall()
        results: List[Optional[Exception]] = []
        for m, (_, count, stored, _) in zip(moves, rows):
            if stored:
                results.append(None)
            elif count is None:
                results.append(NoSuchTableError(f"table {m.table_id}: no such table"))
            else:
                results.append(StaleMoveError(f"table {m.table_id}: move {m.move} given, {count} stored"))
        return results

    _EXPIRED = SQLStorage._EXPIRED + " FOR UPDATE SKIP LOCKED"

    def _notify(self, events: List[str]) -> None:
        self._db.execute("SELECT pg_notify(%s, e) FROM unnest(%s::text[]) AS e", (CHANNEL, events))
