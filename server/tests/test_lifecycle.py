"""A table's life in the server (doc/server.md "Table lifecycle"), on both storages:

- expiry: with --expire-finished 2 and --expire-abandoned 10, a finished table leaves (its replay 404, a hello to it
  refused as expired, its connection closed) and so does a table without a move for 10 s, while a table played on
  (a move every 0.5 s) stays; the expired records are in the archive (python3 -m stpete_server.export), equal to what the server gave;
  with --expired delete nothing is kept;
- start: a server starting on a database of 20,000 stored tables loads none of them (only the one whose bot is to
  act, and plays that bot's move with nobody connected); a hello to any of them loads it;
- SQLite serves one process: a second server on the same file refuses to start, saying so.
"""
import asyncio
import random
import subprocess
import sys
import time
import unittest

import aiohttp

import support
from bench import fill
from support import Conn, ServerProcess, create, play_seat, run, stored, temp_db
from stpete_server.storage import open_storage
from stpete_server.tables import new_table


async def gone(session, server, table, timeout=30.0):
    """Wait until the table's replay route says 404 (expired); False if it did not within ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        async with session.get(f"{server.url}/api/tables/{table}/replay") as r:
            if r.status == 404:
                return True
        await asyncio.sleep(0.2)
    return False


def export(db, table, *args):
    return subprocess.run([sys.executable, "-m", "stpete_server.export", "--db", db, *args, "--", table],
                          capture_output=True, text=True)


class Expiry(unittest.TestCase):
    def test_finished_and_abandoned_tables_expire_played_ones_stay(self):
        db = temp_db(self)
        server = ServerProcess(db, "--bot-delay", "0", "--expire-finished", "2", "--expire-abandoned", "10",
                               "--expire-every", "0.2")
        self.addCleanup(server.stop)
        rng = random.Random(1)

        async def go():
            async with aiohttp.ClientSession() as session:
                # the played table: a move every 0.5 s for as long as the test runs
                played = (await create(session, server, players=2, seats=("human", "human")))
                players = [await Conn.open(session, server, played["table"], s["token"]) for s in played["seats"]]
                stop = asyncio.Event()

                async def keep_playing():
                    while not stop.is_set():
                        for c in players:
                            m = [x for x in c.messages if x["type"] == "state"][-1]
                            if m["actions"]:
                                await c.act(m["move"], m["actions"][0]["id"])
                                await c.until(lambda x, n=m["move"]: x["type"] == "state" and x["move"] == n + 1)
                                for other in players:
                                    if other is not c:
                                        await other.until(lambda x, n=m["move"]: x["type"] == "state"
                                                          and x["move"] == n + 1)
                                break
                        await asyncio.sleep(0.5)
                for c in players:
                    await c.until(lambda x: x["type"] == "state")
                playing = asyncio.ensure_future(keep_playing())
                done = (await create(session, server, players=2, seats=("human", "bot")))
                idle = (await create(session, server, players=2, seats=("human", "human")))
                person = await Conn.open(session, server, done["table"], done["seats"][0]["token"])
                await play_seat(person, lambda actions: rng.choice(actions)["id"])
                async with session.get(f"{server.url}/api/tables/{done['table']}/replay") as r:
                    self.assertEqual(r.status, 200)
                    record = await r.text()
                self.assertTrue(await gone(session, server, done["table"]), "the finished table stayed")
                closed = await person.ws.receive(timeout=10)
                self.assertIn(closed.type, (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED))
                again = await Conn.open(session, server, done["table"], done["seats"][0]["token"])
                refused = await again.until(lambda x: x["type"] == "refused")
                self.assertEqual(refused["code"], "expired")
                idle_state = None
                deadline = time.monotonic() + 30
                while idle_state is None or idle_state["type"] != "refused":
                    self.assertLess(time.monotonic(), deadline, "the abandoned table stayed")
                    c = await Conn.open(session, server, idle["table"])
                    idle_state = await c.until(lambda x: x["type"] in ("state", "refused"))
                    await c.ws.close()
                    await asyncio.sleep(0.2)
                self.assertEqual(idle_state["code"], "expired")
                # (the played table, created before the idle one, is now older than --expire-abandoned too)
                stop.set()
                await playing
                moves = len(stored(db, played["table"])[3])
                self.assertGreater(moves, 8)
                c = await Conn.open(session, server, played["table"])
                self.assertEqual((await c.until(lambda x: x["type"] == "state"))["move"], moves)
                for x in [*players, person, again, c]:
                    await x.ws.close()
                return done["table"], idle["table"], played["table"], record

        done, idle, played, record = run(go())
        out = export(db, done)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout.strip(), record.strip())
        out = export(db, idle, "--unfinished")
        self.assertEqual(out.returncode, 0, out.stderr)
        storage = open_storage(db, readonly=True)
        try:
            self.assertIsNone(storage.table(done))
            self.assertIsNone(storage.table(idle))
            self.assertIsNotNone(storage.table(played))
            self.assertEqual(storage.archived(idle).moves, [])
        finally:
            storage.close()

    def test_without_archive(self):
        db = temp_db(self)
        server = ServerProcess(db, "--expire-abandoned", "1", "--expire-every", "0.2", "--expired", "delete")
        self.addCleanup(server.stop)

        async def go():
            async with aiohttp.ClientSession() as session:
                table = (await create(session, server, players=2, seats=("human", "human")))["table"]
                self.assertTrue(await gone(session, server, table))
                return table
        table = run(go())
        self.assertEqual(export(db, table, "--unfinished").returncode, 1)


class Start(unittest.TestCase):
    def test_no_table_loaded_at_start(self):
        db = temp_db(self)
        fill(db, 20000)
        # one more table whose bot is to act (seat 0 a bot, and the seed makes it the first to act)
        record = None
        while record is None or record.to_act != "bot":
            record, _ = new_table(2, ["bot", "human"], "greedy", {})
        storage = open_storage(db)
        storage.create_table(record)
        storage.close()
        server = ServerProcess(db, "--bot-delay", "0")
        self.addCleanup(server.stop)
        deadline = time.monotonic() + 30
        while not stored(db, record.table_id)[3]:
            self.assertLess(time.monotonic(), deadline, "the bot to act did not move")
            time.sleep(0.1)

        async def go():
            async with aiohttp.ClientSession() as session:
                c = await Conn.open(session, server, "fill0012345")
                m = await c.until(lambda x: x["type"] == "state")
                await c.ws.close()
                return m
        self.assertEqual(run(go())["move"], 0)
        log = server.read_log()
        self.assertIn("no table loaded at start", log)
        self.assertNotIn("resumed", log)

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
