"""Several server processes on one PostgreSQL database (doc/server.md "Several processes"), in the suite
'server-postgresql' (STPETE_TEST_STORAGE=postgresql; skipped in 'server', and where PostgreSQL is not installed):

- the two people of a table on two processes, a spectator on each: the game plays to its end, every message each
  client received is the seat's view of the stored moves replayed (as test_messages checks one process), and the
  result every client got equals stpete-replay's of the exported record;
- two processes given the same move at once (one seat connected to both) store it once: one of the two connections
  is refused (stale, or not its turn once the other's move passed the turn on), both see the one position stored,
  and with two different actions both see the one stored;
- kill -9 of one of three processes in the middle of three games (people on every process, bots thinking): every
  move a client was sent is stored, the clients of the killed process come back through the others (as the page
  does through one address), a bot the killed process was thinking for is played by another, the games finish and
  equal stpete-replay of their records;
- three processes on one port (--reuse-port): connections reach all of them, and after kill -9 of one, every new
  connection to the port is served by the others.
"""
import asyncio
import random
import time
import unittest

import aiohttp

import support
from support import Conn, Replayed, ServerProcess, create, play_seat, replay_result, run, stored, temp_db
from test_messages import check_received

if support.STORAGE != "postgresql":
    raise unittest.SkipTest("several processes need PostgreSQL: the suite 'server-postgresql'")


async def state_at(conn, move):
    """The state message of position ``move`` that ``conn`` received (waiting for it if it has not yet)."""
    for m in conn.messages:
        if m.get("type") == "state" and m["move"] == move:
            return m
    return await conn.until(lambda m: m["type"] == "state" and m["move"] == move)


async def drain(conn, seconds):
    """Read what ``conn`` receives until it receives nothing for ``seconds`` (or its connection ends)."""
    try:
        while isinstance(await conn.recv(seconds), dict):
            pass
    except asyncio.TimeoutError:
        pass


def last_move(conn):
    return max((m["move"] for m in conn.messages if m.get("type") == "state"), default=-1)


class Processes(unittest.TestCase):
    def start(self, db, count, *args):
        servers = []
        for _ in range(count):
            servers.append(ServerProcess(db, "--bot-delay", "0.02", "--bot-workers", "1", *args))
            self.addCleanup(self.stop, servers[-1])
        return servers

    def stop(self, server):
        if server.alive:
            log = server.stop()
            if hasattr(self, "_outcome") and not all(e is None for _, e in getattr(self._outcome, "errors", [])):
                print(log[-4000:])

    def test_two_people_on_two_processes(self):
        db = temp_db(self)
        a, b = self.start(db, 2)
        rng = random.Random(5)

        async def go():
            async with aiohttp.ClientSession() as session:
                data = await create(session, a, players=3, seats=("human", "bot", "human"), bot="greedy")
                table = data["table"]
                tokens = [s["token"] for s in data["seats"] if "token" in s]
                people = {0: await Conn.open(session, a, table, tokens[0]),
                          2: await Conn.open(session, b, table, tokens[1])}
                spectators = [await Conn.open(session, a, table), await Conn.open(session, b, table)]
                finals = await asyncio.gather(*(play_seat(c, lambda actions: rng.choice(actions)["id"], 60)
                                                for c in people.values()))
                for s in spectators:
                    await s.until(lambda m: m["type"] == "state" and m["result"] is not None, 60)
                for c in [*people.values(), *spectators]:
                    await c.ws.close()
                return table, tokens, people, spectators, finals

        async def bounded():
            # Without the notifications the game still crawls on (a process learns the other's moves only when its
            # own client's move is refused as stale, or its look for due bots reads the table): 15 minutes and more,
            # against about 5 s here. The bound makes that a failure, not a wait for meson's timeout.
            try:
                return await asyncio.wait_for(go(), 120)
            except asyncio.TimeoutError:
                self.fail("the game did not end within 120 s: the processes do not hear each other's moves")

        table, tokens, people, spectators, finals = run(bounded())
        replayed = Replayed(db, table)
        self.assertTrue(replayed.states[-1].is_terminal)
        check_received(self, replayed, [*people.items(), *((None, s) for s in spectators)], tokens, {})
        result = replay_result(db, table)
        for m in finals + [s.messages[-1] for s in spectators]:
            self.assertEqual(m["result"], result)
            self.assertEqual(m["move"], len(replayed.moves))

    def test_same_move_at_once_stored_once(self):
        db = temp_db(self)
        a, b = self.start(db, 2)

        async def go():
            async with aiohttp.ClientSession() as session:
                data = await create(session, a, players=2, seats=("human", "human"))
                table = data["table"]
                tokens = [s["token"] for s in data["seats"]]
                twins = [await Conn.open(session, a, table, tokens[0]), await Conn.open(session, b, table, tokens[0])]
                other = await Conn.open(session, b, table, tokens[1])
                conns = (*twins, other)
                move, rounds, different = 0, 0, 0
                while rounds < 12:
                    states = [await state_at(c, move) for c in conns]
                    if states[0]["to_act"] == 0:
                        actions = [a["id"] for a in states[0]["actions"]]
                        # the same action on both at once, or (every third time) two different ones
                        chosen = [actions[0], actions[0]] if rounds % 3 or len(actions) < 2 else actions[:2]
                        different += chosen[0] != chosen[1]
                        await asyncio.gather(*(c.act(move, x) for c, x in zip(twins, chosen)))
                        got = [await state_at(c, move + 1) for c in twins]
                        self.assertEqual(got[0]["view"], got[1]["view"])
                        rounds += 1
                    else:
                        await other.act(move, states[2]["actions"][0]["id"])
                    move += 1

                def refusals():  # the one that came second: stale, or not its turn once the other's move passed it on
                    return [sum(m["type"] == "refused" and m["code"] in ("stale", "not-your-turn") for m in c.messages)
                            for c in twins]
                # a refusal may come after the position it lost to, and the last round's is not read yet: read on
                # until every round's is in (or 20 s), then 0.3 s more for any extra one
                deadline = time.monotonic() + 20
                while sum(refusals()) < rounds and time.monotonic() < deadline:
                    for c in twins:
                        await drain(c, 0.1)
                for c in twins:
                    await drain(c, 0.3)
                stale = refusals()
                self.assertEqual([m["code"] for c in twins for m in c.messages if m["type"] == "refused"
                                  and m["code"] not in ("stale", "not-your-turn")], [])
                for c in (*twins, other):
                    await c.ws.close()
                return table, tokens, twins, other, stale, move, different

        table, tokens, twins, other, stale, move, different = run(go())
        self.assertGreater(different, 0)
        self.assertEqual(sum(stale), 12, "each time, exactly one of the two connections is refused")
        replayed = Replayed(db, table)
        self.assertEqual(len(replayed.moves), move)
        for seat, conn in ((0, twins[0]), (0, twins[1]), (1, other)):
            for m in conn.messages:
                if m["type"] == "state":
                    self.assertEqual(m["view"], replayed.expected(m["move"], seat)[0])

    def test_kill9_of_one_of_three(self):
        db = temp_db(self)
        servers = self.start(db, 3)
        rng = random.Random(7)
        killed = servers[1]

        async def person(session, table, token, first, seen):
            """Plays one seat; when its connection is lost it comes back through the next process alive (as the page
            does through one address), with the same token. ``seen``: (server, Conn) of each connection."""
            k = first
            while True:
                server = servers[k % 3]
                k += 1
                if not server.alive:
                    continue
                conn = None
                try:
                    conn = await Conn.open(session, server, table, token)
                    seen.append((server, conn))
                    final = await play_seat(conn, lambda actions: rng.choice(actions)["id"], 30)
                    await conn.ws.close()
                    return final
                except (AssertionError, aiohttp.ClientError, ConnectionError, asyncio.TimeoutError):
                    await asyncio.sleep(0.1)

        async def go():
            async with aiohttp.ClientSession() as session:
                tables, tasks, seen = [], [], {}
                for k, (players, seats) in enumerate([(3, ("human", "bot", "human")), (2, ("human", "human")),
                                                      (3, ("bot", "human", "human"))]):
                    data = await create(session, servers[k], players=players, seats=seats, bot="greedy")
                    table = data["table"]
                    tables.append(table)
                    seen[table] = []
                    tokens = [s["token"] for s in data["seats"] if "token" in s]
                    for j, token in enumerate(tokens):  # the two people of a table on two processes
                        tasks.append(asyncio.ensure_future(person(session, table, token, k + j, seen[table])))
                # a spectator of each table on a process that stays, watching to the end
                watchers = [await Conn.open(session, servers[0], t) for t in tables]
                watching = [asyncio.ensure_future(w.until(lambda m: m["type"] == "state" and m["result"] is not None,
                                                          120)) for w in watchers]
                # kill the middle process once every table has made some moves
                while min(last_move(w) for w in watchers) < 12:
                    await asyncio.sleep(0.05)
                killed.kill9()
                finals = await asyncio.gather(*tasks)
                await asyncio.gather(*watching)
                for w in watchers:
                    await w.ws.close()
                return tables, seen, finals, watchers

        tables, seen, finals, watchers = run(go())
        came_back = 0
        for table, watcher in zip(tables, watchers):
            replayed = Replayed(db, table)
            self.assertTrue(replayed.states[-1].is_terminal)
            result = replay_result(db, table)
            for server, conn in seen[table] + [(servers[0], watcher)]:
                seat = next(m["seat"] for m in conn.messages if m.get("type") == "welcome")
                for m in conn.messages:
                    if m.get("type") == "state":  # every position any client was sent is the stored one
                        self.assertEqual(m["view"], replayed.expected(m["move"], seat)[0])
                if server is killed and last_move(conn) >= 0:
                    came_back += 1
            for m in [watcher.messages[-1]] + [f for f in finals if f["table"] == table]:
                self.assertEqual(m["result"], result)
        self.assertGreater(came_back, 0, "no person played on the killed process")

    def test_one_port(self):
        db = temp_db(self)
        first = ServerProcess(db, "--reuse-port")
        self.addCleanup(self.stop, first)
        others = [ServerProcess(db, "--reuse-port", "--port", str(first.port)) for _ in range(2)]
        for s in others:
            self.addCleanup(self.stop, s)

        async def go():
            async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True)) as session:
                data = await create(session, first, players=2, seats=("human", "human"))
                table = data["table"]
                conns = [await Conn.open(session, first, table) for _ in range(30)]
                for c in conns:
                    await c.until(lambda m: m["type"] == "state")
                others[0].kill9()

                async def ended(c):
                    try:
                        msg = await c.ws.receive(timeout=2.0)
                    except asyncio.TimeoutError:
                        return False  # nothing to say to a spectator: still connected
                    return msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR)
                lost = sum(await asyncio.gather(*(ended(c) for c in conns)))
                again = [await Conn.open(session, first, table) for _ in range(20)]
                for c in again:
                    await c.until(lambda m: m["type"] == "state")
                for c in conns + again:
                    await c.ws.close()
                return lost

        lost = run(go())
        self.assertGreater(lost, 0, "no connection had reached the killed process")
        self.assertLess(lost, 30)


if __name__ == "__main__":
    unittest.main()
