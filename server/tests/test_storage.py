"""The storage interface on SQLite (stpete_server.storage): a table and its moves survive closing and reopening
the file; a move number that is not the next one is refused (StaleMoveError) and writes nothing; a group commit
stores the good moves and reports the stale ones; the base class's one-by-one append_moves agrees. The final move
marks its table finished (table_ids tells finished from unfinished, a database of 1.1.2 has its column added); a
damaged row is reported for its table alone (DamagedTableError), a damaged index is read around; read-only opening
never creates or writes a file."""
import os
import sqlite3
import tempfile
import time
import unittest

from stpete_server.storage import (DamagedTableError, MoveRecord, SeatRecord, SQLiteStorage, StaleMoveError, Storage,
                                   TableRecord)


def record(table_id):
    return TableRecord(table_id, {"edition": 2}, 2 ** 64 - 1,
                       [SeatRecord("human", "ab" * 32, None), SeatRecord("bot", None, "greedy")], [], time.time())


class OneByOne(Storage):
    """Storage's default append_moves over SQLite's append_move (as a backend without group commit would)."""

    def __init__(self, inner):
        self.inner = inner

    def append_move(self, table_id, move, action, final=False):
        self.inner.append_move(table_id, move, action, final)


class SQLite(unittest.TestCase):
    def setUp(self):
        d = tempfile.TemporaryDirectory()
        self.addCleanup(d.cleanup)
        self.path = os.path.join(d.name, "s.sqlite")

    def test_round_trip_and_stale_moves(self):
        s = SQLiteStorage(self.path)
        s.create_table(record("t1"))
        s.create_table(record("t2"))
        with self.assertRaises(Exception):
            s.create_table(record("t1"))  # the id is taken
        s.append_move("t1", 0, 7)
        with self.assertRaises(StaleMoveError):
            s.append_move("t1", 0, 8)     # the same move again
        with self.assertRaises(StaleMoveError):
            s.append_move("t1", 2, 8)     # one missing
        results = s.append_moves([("t1", 1, 9), ("t2", 0, 3), ("t2", 5, 4)])
        self.assertEqual([r is None for r in results], [True, True, False])
        self.assertIsInstance(results[2], StaleMoveError)
        results = OneByOne(s).append_moves([("t2", 1, 5), ("t2", 1, 6)])
        self.assertEqual([r is None for r in results], [True, False])
        s.close()
        s = SQLiteStorage(self.path, synchronous="NORMAL")
        tables = {t.table_id: t for t in s.tables()}
        self.assertEqual(tables["t1"].moves, [7, 9])
        self.assertEqual(tables["t2"].moves, [3, 5])
        self.assertEqual(tables["t1"].seed, 2 ** 64 - 1)
        self.assertEqual(tables["t1"].options, {"edition": 2})
        self.assertEqual(tables["t1"].seats, record("t1").seats)
        self.assertIsNone(s.table("t3"))
        self.assertEqual(s.table("t2").moves, [3, 5])
        s.close()
        with self.assertRaises(ValueError):
            SQLiteStorage(self.path, synchronous="OFF")

    def test_finished_tables(self):
        s = SQLiteStorage(self.path)
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

    def test_database_of_1_1_2(self):  # no 'finished' column: added; those tables' ends are not known
        con = sqlite3.connect(self.path)
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
        reader = SQLiteStorage(self.path, readonly=True)
        self.assertEqual(reader.table_ids(finished=False), ["old"])
        self.assertIsNone(reader.table("old").finished)
        reader.close()
        s = SQLiteStorage(self.path)
        self.assertEqual(s.table_ids(finished=False), ["old"])
        self.assertEqual(s.table("old").moves, [3])
        s.create_table(record("new"))
        self.assertFalse(s.table("new").finished)
        s.close()

    def test_damaged_rows_and_index(self):
        s = SQLiteStorage(self.path)
        for t in ("good", "gap", "json", "seats"):
            s.create_table(record(t))
            s.append_moves([(t, 0, 1), (t, 1, 2), (t, 2, 3)])
        s.close()
        con = sqlite3.connect(self.path, isolation_level=None)
        con.execute("UPDATE moves SET move = 5 WHERE table_id = 'gap' AND move = 1")
        con.execute("UPDATE tables SET options = '[' WHERE id = 'json'")
        con.execute("UPDATE seats SET seat = 3 WHERE table_id = 'seats' AND seat = 1")
        con.close()
        s = SQLiteStorage(self.path)
        self.assertEqual(s.table("good").moves, [1, 2, 3])
        for t, words in (("gap", "move 1 is missing"), ("json", "not JSON"), ("seats", "seats are numbered")):
            with self.assertRaises(DamagedTableError) as e:
                s.table(t)
            self.assertEqual(e.exception.table_id, t)
            self.assertIn(words, str(e.exception))
        self.assertEqual([r.table_id for r in s.tables()], ["good"])
        s.close()
        # a damaged page of the tables' primary-key index: the rows are read without it
        con = sqlite3.connect(self.path, isolation_level=None)
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (page,) = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_tables_1'").fetchone()
        (size,) = con.execute("PRAGMA page_size").fetchone()
        con.close()
        with open(self.path, "r+b") as f:
            f.seek((page - 1) * size)
            f.write(os.urandom(size))
        s = SQLiteStorage(self.path)
        self.assertEqual(s.table("good").moves, [1, 2, 3])
        s.close()

    def test_read_only(self):
        missing = os.path.join(os.path.dirname(self.path), "typo.sqlite")
        with self.assertRaises(sqlite3.OperationalError):
            SQLiteStorage(missing, readonly=True)
        self.assertFalse(os.path.exists(missing))
        open(missing, "w").close()
        with self.assertRaises((ValueError, sqlite3.DatabaseError)):
            SQLiteStorage(missing, readonly=True)  # an empty file is not the server's database
        s = SQLiteStorage(self.path)
        s.create_table(record("t"))
        s.close()
        reader = SQLiteStorage(self.path, readonly=True)
        self.assertEqual(reader.table_ids(), ["t"])
        with self.assertRaises(sqlite3.OperationalError):
            reader.append_move("t", 0, 1)
        reader.close()


if __name__ == "__main__":
    unittest.main()
