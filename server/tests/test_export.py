"""python3 -m stpete_server.export: a finished table's replay record; an unfinished table's is refused (its seed
would give away every stack, §9) unless --unfinished asks for it; a mistyped database path is an error and creates
no file (SQLite; PostgreSQL: a database that is not there is an error). On the storage of the suite."""
import json
import os
import random
import subprocess
import sys
import tempfile
import unittest

import stpete
import support
from stpete_server.storage import open_storage
from stpete_server.tables import new_table


def export(*args):
    return subprocess.run([sys.executable, "-m", "stpete_server.export", *args], capture_output=True, text=True,
                          timeout=60)


class Export(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        if support.STORAGE == "postgresql":
            cls.db = support.cluster().create_database("export")
        else:
            cls.db = os.path.join(cls.dir.name, "server.sqlite")
        storage = open_storage(cls.db)
        rng = random.Random(4)
        cls.records = {}
        for name, stop in (("finished", None), ("unfinished", 20)):
            record, _ = new_table(2, ["human", "human"], "random", {})
            state = stpete.Game(players=2, seed=record.seed).new_state()
            storage.create_table(record)
            while not state.is_terminal and (stop is None or len(state.history) < stop):
                action = rng.choice(state.legal_action_ids())
                storage.append_move(record.table_id, len(state.history), action)
                state.apply(action)
            cls.records[name] = record
        storage.close()

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_finished_table(self):
        p = export("--db", self.db, "--", self.records["finished"].table_id)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(json.loads(p.stdout)["options"]["seed"], str(self.records["finished"].seed))

    def test_unfinished_table_refused(self):  # issue 45 item 3
        table = self.records["unfinished"]
        p = export("--db", self.db, "--", table.table_id)
        self.assertEqual(p.returncode, 3, p.stdout)
        self.assertNotIn(str(table.seed), p.stdout + p.stderr)
        self.assertIn("not over", p.stderr)
        p = export("--db", self.db, "--unfinished", "--", table.table_id)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(json.loads(p.stdout)["options"]["seed"], str(table.seed))

    def test_mistyped_database(self):  # issue 46 item 10
        typo = self.db.replace("/export?", "/exportx?") if support.STORAGE == "postgresql" else self.db + "x"
        p = export("--db", typo, "--", self.records["finished"].table_id)
        self.assertEqual(p.returncode, 1)
        if support.STORAGE == "sqlite":
            self.assertFalse(os.path.exists(typo), "a database was created at a mistyped path")
        self.assertNotIn("Traceback", p.stderr)


if __name__ == "__main__":
    unittest.main()
