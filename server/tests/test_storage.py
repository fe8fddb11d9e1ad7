"""The storage interface (stpete_server.storage) on SQLite and on PostgreSQL (both in every run of either suite:
PostgreSQL in the temporary cluster of support.cluster(), skipped where it is not installed).

A table and its moves survive closing and reopening; a move number that is not the next one is refused
(StaleMoveError) and writes nothing, a table that is not stored too (NoSuchTableError); a group commit stores the
good moves and reports the others; the base class's one-by-one append_moves agrees; the kind of seat to act and the
end are kept with each move (bot_turns); two connections given the same move at once store it once; two group
commits over the same tables in opposite orders both finish (no deadlock); expiry removes the tables that ended or
were abandoned before its times and nothing else, their records kept in the archive or not; a database of
libstpete 1.1 (schema version 1) is upgraded when the server opens it and read as it is by a read-only session;
the final move marks its table finished (table_ids tells finished from unfinished); a damaged row is reported for
its table alone (DamagedTableError), a damaged SQLite index is read around; read-only opening never creates or
writes a file.
Both backends are tested in the suite 'server'; 'server-postgresql' (STPETE_TEST_STORAGE=postgresql) skips this
module, which has no server to run on another storage."""
import json
import os
import sqlite3
import tempfile
import threading
import time
import unittest

import support
from stpete_server.storage import (DamagedTableError, MoveRecord, NoSuchTableError, SeatRecord, SQLiteStorage,
                                   StaleMoveError, Storage, TableRecord, open_storage)
from stpete_server.tables import record_status

if support.STORAGE != "sqlite":
    raise unittest.SkipTest("both storages are tested in the suite 'server'")


def record(table_id, to_act="human", created=None):
    return TableRecord(table_id, {"edition": 2}, 2 ** 64 - 1,
                       [SeatRecord("human", "ab" * 32, None), SeatRecord("bot", None, "greedy")], [],
                       time.time() if created is None else created, to_act=to_act)


#: What a move says of the seat to act after it (MoveRecord's final and bot), by storage.TO_ACT's word.
AFTER = {"human": {}, "bot": {"bot": True}, "over": {"final": True}}


def move(table_id, number, action, to_act):
    return MoveRecord(table_id, number, action, **AFTER[to_act])


class OneByOne(Storage):
    """Storage's default append_moves over another's append_move (as a backend without group commit would)."""

    def __init__(self, inner):
        self.inner = inner

    def append_move(self, table_id, move, action, final=False, bot=False):
        self.inner.append_move(table_id, move, action, final, bot)


class Common:
    """The tests of every backend; a subclass says how to make a new database (``new_db``)."""

    def open(self, db=None, **kw):
        s = open_storage(db or self.db, **kw)
        self.addCleanup(s.close)
        return s

    def test_round_trip_and_stale_moves(self):
        s = open_storage(self.db)
        s.create_table(record("t1"))
        s.create_table(record("t2", "bot"))
        with self.assertRaises(Exception):
            s.create_table(record("t1"))  # the id is taken
        s.append_move("t1", 0, 7, **AFTER["bot"])
        with self.assertRaises(StaleMoveError):
            s.append_move("t1", 0, 8)     # the same move again
        with self.assertRaises(StaleMoveError):
            s.append_move("t1", 2, 8)     # one missing
        with self.assertRaises(NoSuchTableError):
            s.append_move("t3", 0, 8)
        self.assertEqual(s.moves("t1", 0), [7])
        results = s.append_moves([move("t1", 1, 9, "over"), move("t2", 0, 3, "bot"), move("t2", 5, 4, "human"),
                                  move("t3", 0, 1, "human"), move("t2", 1, 6, "human")])
        self.assertEqual([type(r).__name__ for r in results],
                         ["NoneType", "NoneType", "StaleMoveError", "NoSuchTableError", "NoneType"])
        results = OneByOne(s).append_moves([move("t2", 2, 5, "human"), move("t2", 2, 6, "human")])
        self.assertEqual([r is None for r in results], [True, False])
        s.close()
        s = self.open(synchronous="NORMAL")
        tables = {t.table_id: t for t in s.tables()}
        self.assertEqual(tables["t1"].moves, [7, 9])
        self.assertEqual(tables["t2"].moves, [3, 6, 5])
        self.assertEqual(tables["t1"].seed, 2 ** 64 - 1)
        self.assertEqual(tables["t1"].options, {"edition": 2})
        self.assertEqual(tables["t1"].seats, record("t1").seats)
        self.assertEqual((tables["t1"].to_act, tables["t2"].to_act), ("over", "human"))
        self.assertIsNone(s.table("t3"))
        self.assertIsNone(s.moves("t3", 0))
        self.assertEqual(s.table("t2").moves, [3, 6, 5])
        self.assertEqual(s.moves("t2", 1), [6, 5])
        with self.assertRaises(ValueError):
            open_storage(self.db, synchronous="OFF")

    def test_bot_turns(self):
        s = self.open()
        s.create_table(record("b1", "bot"))
        s.create_table(record("b2", "human"))
        s.create_table(record("b3", "bot"))
        s.append_move("b2", 0, 1, **AFTER["bot"])
        s.append_move("b3", 0, 1)
        self.assertEqual(s.bot_turns(time.time() + 1, 10), ["b1", "b2"])  # oldest first
        self.assertEqual(s.bot_turns(time.time() + 1, 1), ["b1"])
        self.assertEqual(s.bot_turns(0, 10), [])

    def test_same_move_at_once_stored_once(self):
        """Two connections (two server processes) store the same move number of a table at the same moment, 20
        times: each time exactly one of them stores it, the other is told it is stale, and the table has one move
        of each number."""
        setup = self.open()
        setup.create_table(record("r"))
        outcomes = []
        for number in range(20):
            barrier = threading.Barrier(2)
            got = [None, None]

            def store(k, storage):
                barrier.wait()
                try:
                    storage.append_move("r", number, 100 + k)
                    got[k] = "stored"
                except StaleMoveError:
                    got[k] = "stale"
            storages = [self.open(), self.open()]
            threads = [threading.Thread(target=store, args=(k, st)) for k, st in enumerate(storages)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            outcomes.append(sorted(got))
        self.assertEqual(outcomes, [["stale", "stored"]] * 20)
        self.assertEqual(len(setup.table("r").moves), 20)

    def test_group_commits_in_opposite_orders(self):
        """Two connections store group commits over the same 40 tables, one in the order of the ids and the other in
        the reverse order, at once, 10 rounds: every call returns (no deadlock: the rows are locked in one order)
        and each move is stored once."""
        setup = self.open()
        ids = [f"g{k:02}" for k in range(40)]
        for i in ids:
            setup.create_table(record(i))
        errors, results = [], []
        for number in range(10):
            barrier = threading.Barrier(2)

            def store(order, storage):
                barrier.wait()
                try:
                    results.append(storage.append_moves([move(i, number, 1, "human") for i in order]))
                except Exception as e:  # a deadlock (PostgreSQL aborts one of the two) or any other failure
                    errors.append(e)
            storages = [self.open(), self.open()]
            threads = [threading.Thread(target=store, args=(order, st))
                       for order, st in zip((ids, ids[::-1]), storages)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        self.assertEqual(errors, [])
        stored = sum(r is None for batch in results for r in batch)
        self.assertEqual(stored, 40 * 10)
        self.assertEqual({len(setup.table(i).moves) for i in ids}, {10})

    def test_expiry(self):
        """Tables of two ages, each kind: ended, ended by its last move, abandoned (no move since) with a person or
        a bot to act; expiry at a time between the two ages removes exactly the older ended and abandoned ones,
        keeping their records; a second pass with nothing due removes nothing; without keep, no archive."""
        s = self.open()

        def make(prefix):
            s.create_table(record(f"{prefix}-over-at-start", "over"))
            s.create_table(record(f"{prefix}-ended"))
            s.append_move(f"{prefix}-ended", 0, 5, **AFTER["bot"])
            s.append_move(f"{prefix}-ended", 1, 6, **AFTER["over"])
            s.create_table(record(f"{prefix}-person"))
            s.append_move(f"{prefix}-person", 0, 5)
            s.create_table(record(f"{prefix}-bot", "bot"))
        make("old")
        time.sleep(0.05)
        cut = time.time()
        time.sleep(0.05)
        make("new")
        self.assertEqual(s.expire(0, 0, True, 100), [])  # 0: neither kind expires
        self.assertEqual(sorted(s.expire(cut, 0, True, 100)), ["old-ended", "old-over-at-start"])
        self.assertEqual(sorted(s.expire(0, cut, True, 1)), ["old-bot"])  # at most limit
        self.assertEqual(sorted(s.expire(0, cut, True, 100)), ["old-person"])
        self.assertEqual(s.expire(cut, cut, True, 100), [])
        self.assertEqual(sorted(t.table_id for t in s.tables()),
                         ["new-bot", "new-ended", "new-over-at-start", "new-person"])
        for i in ("old-ended", "old-over-at-start", "old-person", "old-bot"):
            self.assertIsNone(s.table(i))
            self.assertIsNone(s.moves(i, 0))
            with self.assertRaises(NoSuchTableError):
                s.append_move(i, 0 if "person" not in i else 1, 1)
        archived = s.archived("old-ended")
        self.assertEqual((archived.moves, archived.seed, archived.options, archived.to_act),
                         ([5, 6], 2 ** 64 - 1, {"edition": 2}, "over"))
        self.assertEqual(archived.seats, [SeatRecord("human", None, None), SeatRecord("bot", None, "greedy")])
        self.assertEqual(s.archived("old-person").moves, [5])
        self.assertIsNone(s.archived("new-ended"))
        later = time.time() + 1
        self.assertEqual(sorted(s.expire(later, later, False, 100)),
                         ["new-bot", "new-ended", "new-over-at-start", "new-person"])
        self.assertIsNone(s.archived("new-ended"))
        self.assertEqual(list(s.tables()), [])


class SQLite(Common, unittest.TestCase):
    def setUp(self):
        d = tempfile.TemporaryDirectory()
        self.addCleanup(d.cleanup)
        self.dir = d.name
        self.db = os.path.join(d.name, "s.sqlite")

    def test_readonly(self):
        missing = os.path.join(self.dir, "missing.sqlite")
        with self.assertRaises(FileNotFoundError):
            open_storage(missing, readonly=True)
        self.assertFalse(os.path.exists(missing))

    def test_finished_tables(self):
        s = SQLiteStorage(self.db)
        for t in ("t1", "t2", "t3"):
            s.create_table(record(t))
        self.assertEqual(s.append_moves([MoveRecord("t1", 0, 7, True), ("t2", 0, 3), ("t3", 0, 1)]),
                         [None, None, None])
        s.append_move("t2", 1, 4, final=True)
        self.assertEqual(s.table_ids(finished=True), ["t1", "t2"])
        self.assertEqual(s.table_ids(finished=False), ["t3"])
        self.assertEqual(s.table_ids(), ["t1", "t2", "t3"])
        self.assertTrue(s.table("t1").finished)
        self.assertFalse(s.table("t3").finished)
        s.mark_finished("t3")
        self.assertEqual(s.table_ids(finished=False), [])
        s.close()

    def test_database_of_1_1_2(self):  # no status columns: added by the upgrade (status: the server's replay)
        con = sqlite3.connect(self.db)
        con.executescript("""
            CREATE TABLE tables (id TEXT PRIMARY KEY, options TEXT NOT NULL, seed TEXT NOT NULL, created REAL NOT NULL);
            CREATE TABLE seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL, token_hash TEXT,
                                bot TEXT, PRIMARY KEY (table_id, seat));
            CREATE TABLE moves (table_id TEXT NOT NULL, move INTEGER NOT NULL, action INTEGER NOT NULL,
                                PRIMARY KEY (table_id, move));
            INSERT INTO tables VALUES ('old', '{}', '5', 1.0);
            INSERT INTO seats VALUES ('old', 0, 'human', NULL, NULL), ('old', 1, 'bot', NULL, 'greedy');
            INSERT INTO moves VALUES ('old', 0, 3);""")
        con.close()
        reader = SQLiteStorage(self.db, readonly=True)
        self.assertEqual(reader.table_ids(finished=False), ["old"])
        self.assertIsNone(reader.table("old").finished)
        reader.close()
        s = SQLiteStorage(self.db, status=record_status)
        self.assertEqual(s.table_ids(finished=False), ["old"])
        self.assertEqual(s.table("old").moves, [3])
        s.create_table(record("new"))
        self.assertFalse(s.table("new").finished)
        s.close()

    def test_damaged_rows_and_index(self):
        s = SQLiteStorage(self.db)
        for t in ("good", "gap", "json", "seats"):
            s.create_table(record(t))
            s.append_moves([(t, 0, 1), (t, 1, 2), (t, 2, 3)])
        s.close()
        con = sqlite3.connect(self.db, isolation_level=None)
        con.execute("UPDATE moves SET move = 5 WHERE table_id = 'gap' AND move = 1")
        con.execute("UPDATE tables SET options = '[' WHERE id = 'json'")
        con.execute("UPDATE seats SET seat = 3 WHERE table_id = 'seats' AND seat = 1")
        con.close()
        s = SQLiteStorage(self.db)
        self.assertEqual(s.table("good").moves, [1, 2, 3])
        for t, words in (("gap", "move 1 is missing"), ("json", "not JSON"), ("seats", "seats are numbered")):
            with self.assertRaises(DamagedTableError) as e:
                s.table(t)
            self.assertEqual(e.exception.table_id, t)
            self.assertIn(words, str(e.exception))
        self.assertEqual([r.table_id for r in s.tables()], ["good"])
        s.close()
        # a damaged page of the tables' primary-key index: the rows are read without it
        con = sqlite3.connect(self.db, isolation_level=None)
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (page,) = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_tables_1'").fetchone()
        (size,) = con.execute("PRAGMA page_size").fetchone()
        con.close()
        with open(self.db, "r+b") as f:
            f.seek((page - 1) * size)
            f.write(os.urandom(size))
        s = SQLiteStorage(self.db)
        self.assertEqual(s.table("good").moves, [1, 2, 3])
        s.close()

    def test_read_only(self):
        missing = os.path.join(os.path.dirname(self.db), "typo.sqlite")
        with self.assertRaises(FileNotFoundError):
            SQLiteStorage(missing, readonly=True)
        self.assertFalse(os.path.exists(missing))
        open(missing, "w").close()
        with self.assertRaises((ValueError, sqlite3.DatabaseError)):
            SQLiteStorage(missing, readonly=True)  # an empty file is not the server's database
        s = SQLiteStorage(self.db)
        s.create_table(record("t"))
        s.close()
        reader = SQLiteStorage(self.db, readonly=True)
        self.assertEqual(reader.table_ids(), ["t"])
        with self.assertRaises(sqlite3.OperationalError):
            reader.append_move("t", 0, 1)
        reader.close()

    def test_upgrade_from_version_1(self):
        """A file of libstpete 1.1 (its schema, three tables): read as it is read-only; refused without a way to
        replay; upgraded by the server's open (status: the kind of seat to act, here from the moves' count), its
        tables and moves unchanged, to_act filled, expiry working on them (their age the upgrade's)."""
        con = sqlite3.connect(self.db)
        con.executescript("""
            CREATE TABLE tables (id TEXT PRIMARY KEY, options TEXT NOT NULL, seed TEXT NOT NULL, created REAL NOT NULL);
            CREATE TABLE seats (table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('human', 'bot')), token_hash TEXT, bot TEXT,
                PRIMARY KEY (table_id, seat));
            CREATE TABLE moves (table_id TEXT NOT NULL REFERENCES tables(id), move INTEGER NOT NULL,
                action INTEGER NOT NULL, PRIMARY KEY (table_id, move));
            INSERT INTO tables VALUES ('a', '{"edition": 2}', '18446744073709551615', 1.0),
                                      ('b', '{}', '7', 2.0), ('c', '{}', '8', 3.0);
            INSERT INTO seats VALUES ('a', 0, 'human', 'ab', NULL), ('a', 1, 'bot', NULL, 'greedy'),
                                     ('b', 0, 'human', 'cd', NULL), ('b', 1, 'human', 'ef', NULL),
                                     ('c', 0, 'human', 'gh', NULL), ('c', 1, 'human', 'ij', NULL);
            INSERT INTO moves VALUES ('a', 0, 3), ('a', 1, 4), ('b', 0, 9);
        """)
        con.close()
        ro = self.open(readonly=True)
        self.assertEqual([(t.table_id, t.moves, t.to_act) for t in ro.tables()],
                         [("a", [3, 4], "human"), ("b", [9], "human"), ("c", [], "human")])
        self.assertIsNone(ro.archived("a"))
        with self.assertRaises(RuntimeError):
            SQLiteStorage(self.db)
        kinds = {2: "over", 1: "bot", 0: "human"}
        before = time.time()
        s = SQLiteStorage(self.db, status=lambda r: kinds[len(r.moves)])
        self.addCleanup(s.close)
        self.assertEqual([(t.table_id, t.moves, t.to_act) for t in s.tables()],
                         [("a", [3, 4], "over"), ("b", [9], "bot"), ("c", [], "human")])
        self.assertEqual(s.table("a").seats, [SeatRecord("human", "ab", None), SeatRecord("bot", None, "greedy")])
        self.assertEqual(s.bot_turns(time.time() + 1, 10), ["b"])
        self.assertEqual(s.expire(before, before, True, 10), [])  # not older than the upgrade
        with self.assertRaises(StaleMoveError):
            s.append_move("b", 0, 1)
        s.append_move("b", 1, 1)
        self.assertEqual(s.table("b").moves, [9, 1])
        self.assertEqual(sorted(s.expire(time.time() + 1, 0, True, 10)), ["a"])
        self.assertEqual(json.loads(json.dumps(s.archived("a").moves)), [3, 4])
        s.close()
        self.assertEqual(sqlite3.connect(self.db).execute("PRAGMA user_version").fetchone(), (2,))
        SQLiteStorage(self.db).close()  # version 2: no status needed


class PostgreSQL(Common, unittest.TestCase):
    def setUp(self):
        cluster = support.cluster()
        self.db = cluster.create_database(f"storage{id(self)}")

    def test_readonly(self):
        with self.assertRaises(FileNotFoundError):
            open_storage(self.db, readonly=True)
        s = self.open()
        s.create_table(record("x"))
        ro = self.open(readonly=True)
        self.assertEqual(ro.table("x").seed, 2 ** 64 - 1)
        with self.assertRaises(Exception):
            ro.create_table(record("y"))


if __name__ == "__main__":
    unittest.main()
