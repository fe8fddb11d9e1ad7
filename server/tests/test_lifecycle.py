"""A table's life in the server (doc/server.md "Table lifecycle"), on both storages:

- SQLite serves one process: a second server on the same file refuses to start, saying so.
"""
import unittest

import support
from support import ServerProcess, temp_db


class Start(unittest.TestCase):
    def test_one_process_per_sqlite_file(self):
        if support.STORAGE != "sqlite":
            raise unittest.SkipTest("SQLite only")
        db = temp_db(self)
        server = ServerProcess(db)
        self.addCleanup(server.stop)
        with self.assertRaises(RuntimeError) as refused:
            ServerProcess(db)
        self.assertIn("another server process", str(refused.exception))


if __name__ == "__main__":
    unittest.main()
