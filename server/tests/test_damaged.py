"""A database with damaged table rows: the server starts, every sound table resumes, each damaged one is reported
(in the log, and to a client that asks for it: `damaged`) and left out; its bot is never asked. A file that is not
a database at all stops the start with one line, not a traceback. Tables are written with the storage interface,
then damaged with SQL, as a disk or a hand could (on the storage of the suite: PostgreSQL's column types refuse a
move that is not a number, so that damage is SQLite's only)."""
import asyncio
import json
import os
import random
import sqlite3
import subprocess
import sys
import unittest

import aiohttp

import stpete
import support
from stpete_server.storage import is_postgresql, open_storage
from stpete_server.tables import new_table

from support import Conn, ServerProcess, run, temp_db

#: how each damaged table is damaged (SQL on its rows; ? is its id)
DAMAGE = {
    "options-json": "UPDATE tables SET options = '{' WHERE id = ?",
    "options-value": "UPDATE tables SET options = '{\"players\": 9}' WHERE id = ?",
    "seed": "UPDATE tables SET seed = 'abc' WHERE id = ?",
    "seat-missing": "DELETE FROM seats WHERE table_id = ? AND seat = 1",
    "seat-token": "UPDATE seats SET token_hash = NULL WHERE table_id = ? AND seat = 0",
    "bot-spec": "UPDATE seats SET bot = 'zzz' WHERE table_id = ? AND kind = 'bot'",
    "illegal-move": "UPDATE moves SET action = 9999 WHERE table_id = ? AND move = 2",
    "move-gap": "UPDATE moves SET move = 9 WHERE table_id = ? AND move = 2",
    "move-not-id": "UPDATE moves SET action = 'x' WHERE table_id = ? AND move = 1",
}


def played(record, n, rng):
    game = stpete.Game(players=len(record.seats), seed=record.seed, **record.options)
    state = game.new_state()
    moves = []
    while len(moves) < n and not state.is_terminal:
        moves.append(rng.choice(state.legal_action_ids()))
        state.apply(moves[-1])
    return moves


class Damaged(unittest.TestCase):
    def test_damaged_rows_skipped_and_reported(self):  # issue 46 item 6
        db = temp_db(self)
        storage = open_storage(db)
        rng = random.Random(11)
        ids = {}
        damage = {k: v for k, v in DAMAGE.items() if not (is_postgresql(db) and k == "move-not-id")}
        for name in ["sound-1", *damage, "sound-2"]:
            record, _ = new_table(2, ["human", "bot"], "random", {"new_society": True} if name == "sound-2" else {})
            storage.create_table(record)
            for k, action in enumerate(played(record, 5, rng)):
                storage.append_move(record.table_id, k, action)
            ids[name] = record.table_id
        storage.close()
        if is_postgresql(db):
            import psycopg
            con = psycopg.connect(db, autocommit=True)
            for name, sql in damage.items():
                con.execute(sql.replace("?", "%s"), (ids[name],))
        else:
            con = sqlite3.connect(db, isolation_level=None)
            for name, sql in damage.items():
                con.execute(sql, (ids[name],))
        con.close()

        server = ServerProcess(db, "--bot-delay", "0", "--bot-workers", "1", "--bot-seconds", "0.2")
        try:
            async def ask():
                answers = {}
                async with aiohttp.ClientSession() as session:
                    for name, table in ids.items():
                        c = await Conn.open(session, server, table)
                        m = await c.until(lambda m: m["type"] in ("state", "refused"))
                        answers[name] = m["move"] if m["type"] == "state" else m["code"]
                        await c.ws.close()
                    await asyncio.sleep(1.0)  # bots that would be asked, would be now
                return answers
            answers = run(ask())
        finally:
            log = server.stop()
        self.assertGreaterEqual(answers.pop("sound-1"), 5)
        self.assertGreaterEqual(answers.pop("sound-2"), 5)
        self.assertEqual(answers, {name: "damaged" for name in damage})
        for name in damage:
            self.assertIn(f"table {ids[name]} is damaged and was not loaded", log, name)
        self.assertNotIn("Traceback", log)

    def test_not_a_database(self):  # the whole file: no start, one line
        db = temp_db(self)
        if is_postgresql(db):  # a database that is not there
            db = db.replace("?", "x?", 1)
        else:
            with open(db, "wb") as f:
                f.write(os.urandom(20000))
        p = subprocess.run([sys.executable, "-m", "stpete_server", "--port", "0", "--db", db], capture_output=True,
                           text=True, timeout=60)
        self.assertEqual(p.returncode, 1)
        self.assertNotIn("Traceback", p.stderr)
        self.assertIn(db, p.stderr)


if __name__ == "__main__":
    unittest.main()
