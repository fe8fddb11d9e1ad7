"""The server's own classes in this process, under faults of their storage and of their bots (no bot worker: a
stand-in pool answers): a bot's move that cannot be stored is tried again until it is; a move whose task is
cancelled while it is being stored leaves the table and the database alike; the replay record is not published
while the final move is being stored; bots' seeds are drawn afresh, not derived from the table's secret seed; a bot
that keeps failing is retried ever more slowly and logged a few times, without a traceback each time; a bot thinks
on stored positions only, never on one whose move is being stored; a table that
cannot be stored answers JSON; finished tables leave memory and come back when asked for. On the storage of the
suite (support.STORAGE: SQLite, or PostgreSQL in the temporary cluster)."""
import asyncio
import json
import logging
import random
import sqlite3
import time
import unittest

import aiohttp
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

import stpete
import support
from stpete_server import botpool
from stpete_server.app import Server, make_app
from stpete_server.storage import GroupCommitter, SQLiteStorage, is_postgresql
from stpete_server.tables import Refused, Table, new_table

BotError = getattr(botpool, "BotError", RuntimeError)
logging.getLogger("stpete_server").addHandler(logging.NullHandler())  # what is logged is checked, not printed


def flaky_storage(db):
    """The storage of ``db`` (SQLite or PostgreSQL) as a :class:`Flaky` one."""
    if is_postgresql(db):
        from stpete_server.postgres import PostgresStorage
        return type("FlakyPostgres", (Flaky, PostgresStorage), {})(db)
    return type("FlakySQLite", (Flaky, SQLiteStorage), {})(db)


class Flaky:
    """A storage that fails (as a full disk does) the next ``fail`` group commits, and the next ``fail_create``
    creations, and takes ``delay`` seconds a commit (a slow disk)."""
    fail = 0
    fail_create = 0
    delay = 0.0

    def append_moves(self, moves):
        time.sleep(self.delay)
        if self.fail:
            self.fail -= 1
            raise sqlite3.OperationalError("database or disk is full (a test's fault)")
        return super().append_moves(moves)

    def create_table(self, table, max_unfinished=None):
        if self.fail_create:
            self.fail_create -= 1
            raise sqlite3.OperationalError("attempt to write a readonly database (a test's fault)")
        return super().create_table(table, max_unfinished)


class StandInPool:
    """A bot pool without workers: the first legal action, at once; the seeds it was given and the positions it was
    asked about (their public hashes); ``error`` raised instead when set."""

    def __init__(self):
        self.seeds = []
        self.positions = []
        self.calls = 0
        self.error = None

    async def start(self):
        pass

    async def close(self):
        pass

    async def choose(self, state_json, spec, seed, **_where):
        self.calls += 1
        if self.error is not None:
            raise self.error
        self.seeds.append(seed)
        self.positions.append(json.loads(state_json)["public_hash"])
        state = stpete.State.from_json(state_json)
        return state.legal_action_ids()[0]


def stored_moves(db, table_id):
    return support.stored(db, table_id)[3]


def bot_first_record(players=2, seats=("bot", "human")):
    """A new table's record whose first move is a bot's."""
    while True:
        record, tokens = new_table(players, list(seats), "random", {})
        if Table(record, None).bot_to_move():
            return record, tokens


def finished_moves(record, rng):
    """The action ids of a whole random game of ``record``'s table."""
    game = stpete.Game(players=len(record.seats), seed=record.seed, **record.options)
    state = game.new_state()
    moves = []
    while not state.is_terminal:
        moves.append(rng.choice(state.legal_action_ids()))
        state.apply(moves[-1])
    return moves


async def until(predicate, seconds=10.0):
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True


class Faults(unittest.TestCase):
    def setUp(self):
        self.path = support.temp_db(self)
        self.storage = flaky_storage(self.path)
        self.addCleanup(self.storage.close)
        self.pool = StandInPool()

    def server(self):
        server = Server(self.storage, self.pool, bot_delay=0.0)
        server.retry_first = 0.05
        return server

    def test_bot_move_retried_until_stored(self):  # issue 46 item 1
        record, _ = bot_first_record()
        self.storage.create_table(record)

        async def go():
            server = self.server()
            self.storage.fail = 3  # the disk is full for the bot's first three tries
            server.start_bots()
            ok = await until(lambda: len(stored_moves(self.path, record.table_id)) >= 1)
            table = await server.find_table(record.table_id)
            await server.stop_bots()
            server.storage.close()
            return ok, table
        ok, table = asyncio.run(go())
        self.assertTrue(ok, "the bot's move was never stored once the disk had room again")
        moves = stored_moves(self.path, record.table_id)
        self.assertEqual(table.record.moves, moves)
        self.assertEqual(table.move, len(moves))

    def test_a_bot_thinks_on_stored_positions_only(self):  # issue 44
        """A person's move is applied to the table and then stored (slowly, here); a bot scheduled meanwhile (by
        the look for due bots, another process's move, a bot task ending) must not think on that position, whose
        move number is not yet the table's (its move would be refused as stale, and thought of twice): it waits for
        the stored one. No position asked about twice, the bot's moves stored once."""
        while True:  # a table where the person acts first and the bot next
            record, _ = new_table(2, ["human", "bot"], "random", {})
            table = Table(record, None)
            if not table.bot_to_move():
                first = table.state.legal_action_ids()[0]
                table.state.apply(first)
                if table.bot_to_move():
                    break
        self.storage.create_table(record)

        async def go():
            server = self.server()
            table = await server.find_table(record.table_id, hold=True)
            self.storage.delay = 0.5
            play = asyncio.get_running_loop().create_task(server.play(table, table.state.current_player, 0, first))
            await asyncio.sleep(0.2)  # the person's move applied, being stored
            server.schedule_bot(table)
            await play
            self.storage.delay = 0.0
            ok = await until(lambda: len(stored_moves(self.path, record.table_id)) >= 2)
            await server.stop_bots()
            server.storage.close()
            return ok
        self.assertTrue(asyncio.run(go()), "the bot did not move")
        self.assertGreaterEqual(len(self.pool.positions), 1)
        self.assertEqual(len(set(self.pool.positions)), len(self.pool.positions),
                         "a position asked about twice: the bot thought on a position being stored")
        self.assertEqual(stored_moves(self.path, record.table_id)[0], first)

    def test_cancelled_while_stored(self):  # issue 46 item 8
        record, _ = new_table(2, ["human", "human"], "random", {})
        self.storage.create_table(record)
        self.storage.delay = 0.3

        async def cancel_one(fail):
            committer = GroupCommitter(self.storage)
            table = Table(record._replace(moves=list(stored_moves(self.path, record.table_id))), committer)
            before = table.move
            self.storage.fail = 1 if fail else 0
            task = asyncio.get_running_loop().create_task(
                table.play(table.state.current_player, table.move, table.state.legal_action_ids()[0]))
            await asyncio.sleep(0.1)
            task.cancel()
            with self.assertRaises(BaseException):
                await task
            await asyncio.sleep(0.5)  # the storage thread has finished the commit
            stored = stored_moves(self.path, record.table_id)
            self.assertEqual(table.record.moves, stored)
            self.assertEqual(len(table.state.history), len(stored))
            self.assertEqual(len(stored), before + (0 if fail else 1))
            # the next move is played, not refused as stale
            self.storage.delay = 0.0
            await table.play(table.state.current_player, table.move, table.state.legal_action_ids()[0])
            self.assertEqual(stored_moves(self.path, record.table_id), table.record.moves)
            self.storage.delay = 0.3
            committer.close()
        asyncio.run(cancel_one(fail=False))
        asyncio.run(cancel_one(fail=True))

    def test_replay_not_published_during_the_final_store(self):  # issue 46 item 10
        record, _ = new_table(2, ["human", "human"], "random", {})
        moves = finished_moves(record, random.Random(5))
        self.storage.create_table(record)
        for k, action in enumerate(moves[:-1]):
            self.storage.append_move(record.table_id, k, action)

        class Request:
            match_info = {"table": record.table_id}

        async def go():
            server = self.server()
            table = await server.find_table(record.table_id)
            self.storage.delay, self.storage.fail = 0.4, 1  # the final move is being stored, and fails
            play = asyncio.get_running_loop().create_task(
                server.play(table, table.state.current_player, table.move, moves[-1]))
            await asyncio.sleep(0.1)
            try:
                answer = await server.replay(Request())
                status = answer.status
            except web.HTTPException as e:
                status = e.status
            with self.assertRaises(Refused):
                await play
            server.storage.close()
            return status
        self.assertEqual(asyncio.run(go()), 403, "the seed was published while the final move was not stored")

    def test_bot_seeds_not_derived_from_the_table_seed(self):  # issue 46 item 10
        first, _ = bot_first_record()
        twin = first._replace(table_id=first.table_id + "x")  # the same seed and seats: the same positions
        self.storage.create_table(first)
        self.storage.create_table(twin)

        async def go():
            server = self.server()
            server.start_bots()
            await until(lambda: len(self.pool.seeds) >= 2)
            await server.stop_bots()
            server.storage.close()
        asyncio.run(go())
        self.assertGreaterEqual(len(self.pool.seeds), 2)
        self.assertNotEqual(self.pool.seeds[0], self.pool.seeds[1], "two tables of one seed gave their bots one seed")
        self.assertNotIn(first.seed, self.pool.seeds)  # (1.1.2: the table's seed itself at move 0)

    def test_a_failing_bot_is_retried_more_slowly_and_logged_sparingly(self):  # issue 46 item 10
        record, _ = bot_first_record()
        self.storage.create_table(record)
        self.pool.error = BotError("ParseError: unknown bot kind 'zzz' (a test's fault)")
        records = []

        class Keep(logging.Handler):
            def emit(self, r):
                records.append(r)
        handler = Keep(logging.WARNING)
        logging.getLogger("stpete_server").addHandler(handler)
        self.addCleanup(logging.getLogger("stpete_server").removeHandler, handler)

        async def go():
            server = self.server()
            server.retry_first = 0.002
            server.start_bots()
            await asyncio.sleep(1.0)
            await server.stop_bots()
            server.storage.close()
        asyncio.run(go())
        self.assertGreaterEqual(self.pool.calls, 6, "the failing bot was not tried again")
        self.assertLessEqual(len(records), self.pool.calls.bit_length() + 1, [r.getMessage() for r in records])
        self.assertFalse([r for r in records if r.exc_info], "a traceback for each failure of a bot")

    def test_http_errors_are_json(self):  # issue 46 item 9, issue 45 item 1
        async def go():
            server = self.server()
            client = TestClient(TestServer(make_app(server)))
            await client.start_server()
            try:
                answers = []
                self.storage.fail_create = 1
                r = await client.post("/api/tables", json={"players": 2, "seats": ["human", "bot"], "bot": "random"})
                answers.append((r.status, r.headers.get("content-type", ""), await r.text()))
                for body in ("[" * 1000 + "]" * 1000, '{"a":' * 1000 + "1" + "}" * 1000, "[" * 8000, "\xff",
                             " " * 20000):
                    r = await client.post("/api/tables", data=body.encode("latin-1"),
                                          headers={"content-type": "application/json"})
                    answers.append((r.status, r.headers.get("content-type", ""), await r.text()))
                return answers
            finally:
                await client.close()
        answers = asyncio.run(go())
        self.assertEqual([a[0] for a in answers], [503, 400, 400, 400, 400, 413], answers)
        for status, kind, text in answers:
            self.assertTrue(kind.startswith("application/json"), (status, kind, text))
            self.assertTrue(json.loads(text)["error"], text)

    def test_finished_tables_leave_memory(self):  # issue 46 item 7
        rng = random.Random(8)
        done, _ = new_table(2, ["human", "human"], "random", {})
        going, _ = new_table(3, ["human", "human", "human"], "random", {"edition": 2})
        self.storage.create_table(done)
        self.storage.create_table(going)
        moves = finished_moves(done, rng)

        async def first_life():
            server = self.server()
            server.limits.table_cache = 0
            table = await server.find_table(done.table_id)
            for k, action in enumerate(moves):
                await server.play(table, table.state.current_player, k, action)
            other = await server.find_table(going.table_id)
            await server.play(other, other.state.current_player, 0, other.state.legal_action_ids()[0])
            kept = set(server.tables) | set(server.cache)
            server.storage.close()
            return kept
        # neither is kept: no client, no bot to play (issue 44: an unfinished one is loaded again when asked for)
        self.assertEqual(asyncio.run(first_life()), set(), "a finished table stayed in memory")

        async def second_life():  # after a restart: only the unfinished table is in memory; the other is there
            server = self.server()
            server.limits.table_cache = 0
            loaded = set(server.tables)
            client = TestClient(TestServer(make_app(server)))
            await client.start_server()
            try:
                r = await client.get(f"/api/tables/{done.table_id}/replay")
                record = json.loads(await r.text()) if r.status == 200 else None
                ws = await client.ws_connect("/ws")
                await ws.send_json({"type": "hello", "table": done.table_id})
                welcome = await ws.receive_json(timeout=10)
                state = await ws.receive_json(timeout=10)
                await ws.close()
                return loaded, r.status, record, welcome, state
            finally:
                await client.close()
        loaded, status, record, welcome, state = asyncio.run(second_life())
        self.assertEqual(loaded, set())  # issue 44: no table is loaded at start
        self.assertEqual(status, 200)
        self.assertEqual([a["id"] for a in record["actions"]], moves)
        self.assertEqual(welcome["type"], "welcome")
        self.assertEqual((state["type"], state["move"], state["result"] is not None), ("state", len(moves), True))


if __name__ == "__main__":
    unittest.main()
