"""What server processes on one PostgreSQL database agree through it (stpete_server.peers, in the temporary cluster
of support.cluster()): a stored move and an expired table are announced to every process, in commit order; a bot's
advisory lock is held by one process at a time, says how many moves are stored once held, and is released when its
holder's session ends (as when the process is killed); a listener whose connection was cut comes back and says 'resync'. The single process of SQLite
(peers.Peers) grants every claim. Run in the suite 'server' (STPETE_TEST_STORAGE=sqlite) only, like test_storage."""
import asyncio
import time
import unittest

import support
from stpete_server.peers import Peers, PostgresPeers, lock_key
from stpete_server.storage import SeatRecord, TableRecord, open_storage

if support.STORAGE != "sqlite":
    raise unittest.SkipTest("run in the suite 'server'")


def record(table_id):
    return TableRecord(table_id, {}, 1, [SeatRecord("human", "ab" * 32, None), SeatRecord("bot", None, "greedy")],
                       [], time.time())


async def wait_for(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.01)


class Alone(unittest.TestCase):
    def test_every_claim_granted(self):
        async def go():
            peers = Peers()
            await peers.start(lambda payload: None)
            self.assertEqual(await peers.claim_bot("t"), -1)  # its memory is the database
            self.assertEqual(await peers.claim_bot("t"), -1)
            await peers.release_bot("t")
            await peers.close()
        asyncio.run(go())


class PostgreSQL(unittest.TestCase):
    def setUp(self):
        self.db = support.cluster().create_database(f"peers{id(self)}")
        self.storage = open_storage(self.db)
        self.addCleanup(self.storage.close)

    def test_keys(self):
        self.assertEqual(lock_key("abc"), lock_key("abc"))
        self.assertNotEqual(lock_key("abc"), lock_key("abd"))
        self.assertTrue(-2 ** 63 <= lock_key("abc") < 2 ** 63)

    def test_moves_and_expiry_announced_in_order(self):
        async def go():
            heard = [[], []]
            peers = [PostgresPeers(self.db), PostgresPeers(self.db)]
            for k, p in enumerate(peers):
                await p.start(heard[k].append)
            try:
                self.storage.create_table(record("a"))
                self.storage.create_table(record("b"))
                self.storage.append_move("a", 0, 5, bot=True)
                self.storage.append_moves([("a", 1, 6), ("b", 0, 7), ("a", 0, 9)])
                self.storage.append_move("b", 1, 8, final=True)
                self.storage.expire(time.time() + 1, 0, True, 10)
                want = ["move a 0 5", "move a 1 6", "move b 0 7", "move b 1 8", "gone b"]
                await wait_for(lambda: len(heard[0]) >= 5 and len(heard[1]) >= 5)
                await asyncio.sleep(0.2)
                self.assertEqual(heard, [want, want])  # the stale move is not announced
            finally:
                for p in peers:
                    await p.close()
        asyncio.run(go())

    def test_one_claim_at_a_time_released_with_the_session(self):
        async def go():
            one, two = PostgresPeers(self.db), PostgresPeers(self.db)
            for p in (one, two):
                await p.start(lambda payload: None)
            self.storage.create_table(record("t"))
            self.storage.append_moves([("t", 0, 5), ("t", 1, 6)])
            try:
                self.assertEqual(await one.claim_bot("t"), 2)   # and the moves stored, read under the claim
                self.assertEqual(await one.claim_bot("t"), -1)  # its own already (kept for later moves)
                self.assertIsNone(await two.claim_bot("t"))
                self.assertEqual(await two.claim_bot("u"), 2 ** 31 - 1)  # another table, not stored
                await one.release_bot("t")
                self.assertEqual(await two.claim_bot("t"), 2)
                self.assertIsNone(await one.claim_bot("t"))
                # the holder's session ends (its process killed): the lock is free at once
                await two._locks.close()
                got = None
                deadline = time.monotonic() + 10
                while got is None and time.monotonic() < deadline:
                    got = await one.claim_bot("t")
                    await asyncio.sleep(0.05)
                self.assertEqual(got, 2)
            finally:
                for p in (one, two):
                    await p.close()
        asyncio.run(go())

    def test_listener_comes_back(self):
        async def go():
            heard = []
            peers = PostgresPeers(self.db)
            await peers.start(heard.append)
            try:
                pid = peers._listen.info.backend_pid
                self.storage._db.execute("SELECT pg_terminate_backend(%s)", (pid,))
                await wait_for(lambda: "resync" in heard)
                self.storage.create_table(record("c"))
                self.storage.append_move("c", 0, 1)
                await wait_for(lambda: "move c 0 1" in heard)
            finally:
                await peers.close()
        asyncio.run(go())


if __name__ == "__main__":
    unittest.main()
