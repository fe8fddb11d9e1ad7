"""kill -9 of the server in the middle of three tables (a scripted person and bots at each, moves under way),
then a restart on the same database: every table resumes at its last stored move, which is at least the last one
any client was sent (a move is stored before it is acknowledged), the resumed position equals the stored moves
replayed, the games play on to their end; and no bot worker outlives the killed server."""
import asyncio
import random
import time
import unittest

import aiohttp

from support import Conn, Replayed, ServerProcess, alive, create, play_seat, run, stored, temp_db


async def person(conn, rng):
    """Play the seat until the game ends or the connection is gone; returns the last move seen."""
    try:
        return (await play_seat(conn, lambda actions: rng.choice(actions)["id"]))["move"]
    except (AssertionError, aiohttp.ClientError, ConnectionError, asyncio.TimeoutError) as e:
        conn.messages.append({"type": "gave up", "reason": repr(e)})
        return max((m["move"] for m in conn.messages if m["type"] == "state"), default=-1)


class Restart(unittest.TestCase):
    def test_kill9_and_resume(self):
        db = temp_db(self)
        server = ServerProcess(db, "--bot-delay", "0.02", "--bot-workers", "2")
        killed = False
        try:
            tables, seen, workers, tokens = run(self.first_life(server))
            killed = True
        finally:
            if not killed:
                server.stop()
        self.assertTrue(workers, "the server had no bot workers")
        deadline = time.monotonic() + 5
        while any(alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertEqual([p for p in workers if alive(p)], [], "bot workers outlived the killed server")

        moves = {t: stored(db, t)[3] for t in tables}
        for t in tables:
            self.assertGreaterEqual(len(moves[t]), seen[t], f"table {t}: a move acknowledged was lost")
            self.assertGreater(len(moves[t]), 0)
        server = ServerProcess(db, "--bot-delay", "0", "--bot-workers", "1")
        try:
            run(self.second_life(server, tables, moves, db, tokens))
        except BaseException:
            print(server.read_log())
            raise
        finally:
            server.stop()
        for t in tables:
            replayed = Replayed(db, t)
            self.assertEqual(replayed.moves[:len(moves[t])], moves[t])
            self.assertTrue(replayed.states[-1].is_terminal)

    async def first_life(self, server):
        rng = random.Random(3)
        async with aiohttp.ClientSession() as session:
            made = [await create(session, server, players=p, seats=seats, bot="ismcts", strength=30)
                    for p, seats in [(2, ["human", "bot"]), (3, ["bot", "human", "bot"]),
                                     (4, ["bot", "bot", "human", "bot"])]]
            conns, tokens = {}, {}
            for d in made:
                tokens[d["table"]] = token = next(s["token"] for s in d["seats"] if "token" in s)
                conns[d["table"]] = await Conn.open(session, server, d["table"], token)
            tasks = {t: asyncio.ensure_future(person(c, rng)) for t, c in conns.items()}
            # let the tables get going, then kill the server while the bots think
            while min(max((m["move"] for m in c.messages if m.get("type") == "state"), default=0)
                      for c in conns.values()) < 15:
                await asyncio.sleep(0.05)
            workers = server.children()
            server.kill9()
            results = await asyncio.gather(*tasks.values())
            seen = dict(zip(tasks, results))
            return list(conns), seen, workers, tokens

    async def second_life(self, server, tables, moves, db, tokens):
        rng = random.Random(4)
        async with aiohttp.ClientSession() as session:
            for t in tables:
                options, seed, players, _ = stored(db, t)
                spectator = await Conn.open(session, server, t)
                m = await spectator.until(lambda m: m["type"] == "state")
                # the resumed position is the stored one, unless a bot has moved since the restart
                replayed = Replayed(db, t)
                self.assertGreaterEqual(m["move"], len(moves[t]))
                self.assertEqual(m["view"], replayed.expected(m["move"], None)[0])
                await spectator.ws.close()
            # each person comes back with the same link and plays to the end
            conns = [await Conn.open(session, server, t, tokens[t]) for t in tables]
            last = await asyncio.gather(*(person(c, rng) for c in conns))
            for t, c, n in zip(tables, conns, last):
                tail = [(m["type"], m.get("move"), m.get("to_act"), len(m.get("actions", ())), m.get("reason"))
                        for m in c.messages[-4:]]
                self.assertTrue(c.messages[-1].get("result"), f"table {t} did not reach its end: {tail}")
                await c.ws.close()


if __name__ == "__main__":
    unittest.main()
