"""The storage interface on SQLite (stpete_server.storage): a table and its moves survive closing and reopening
the file; a move number that is not the next one is refused (StaleMoveError) and writes nothing; a group commit
stores the good moves and reports the stale ones; the base class's one-by-one append_moves agrees."""
import os
import tempfile
import time
import unittest

from stpete_server.storage import SeatRecord, SQLiteStorage, StaleMoveError, Storage, TableRecord


def record(table_id):
    return TableRecord(table_id, {"edition": 2}, 2 ** 64 - 1,
                       [SeatRecord("human", "ab" * 32, None), SeatRecord("bot", None, "greedy")], [], time.time())


class OneByOne(Storage):
    """Storage's default append_moves over SQLite's append_move (as a backend without group commit would)."""

    def __init__(self, inner):
        self.inner = inner

    def append_move(self, table_id, move, action):
        self.inner.append_move(table_id, move, action)


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


if __name__ == "__main__":
    unittest.main()
