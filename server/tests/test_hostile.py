"""A hostile raw WebSocket client against a table where two people and a bot play: another table's seat token, a
guessed token, a spectator acting, out-of-turn, illegal and malformed actions, the same action twice, a 1 MB
message, malformed JSON, binary frames, 1,000 messages a second. Each is refused with a clear message to that
client alone; the game is unchanged (the stored moves and every other client's messages)."""
import asyncio
import json
import secrets
import unittest

import aiohttp

from support import Conn, ServerProcess, create, run, stored, temp_db


class Hostile(unittest.TestCase):
    def setUp(self):
        self.db = temp_db(self)
        self.server = ServerProcess(self.db, "--bot-delay", "0", "--bot-workers", "1", "--hello-timeout", "1")
        self.addCleanup(self.server.stop)

    def test_everything_refused_game_unchanged(self):
        run(self.hostile())

    async def refused(self, conn, code=None):
        m = await conn.until(lambda m: m["type"] in ("refused", "state"))
        self.assertEqual(m["type"], "refused", m)
        self.assertTrue(m["reason"])
        if code:
            self.assertEqual(m["code"], code, m)
        return m

    async def hostile(self):
        async with aiohttp.ClientSession() as session:
            # seat 0 and 2 people, seat 1 a bot; seat 0 acts first unless the markers say otherwise
            data = await create(session, self.server, players=3, seats=["human", "bot", "human"],
                                rules={"edition": 1})
            other = await create(session, self.server, players=2, seats=["human", "human"])
            table, tok = data["table"], {s["seat"]: s.get("token") for s in data["seats"]}
            p0 = await Conn.open(session, self.server, table, tok[0])
            p2 = await Conn.open(session, self.server, table, tok[2])
            s0 = await p0.until(lambda m: m["type"] == "state")
            s2 = await p2.until(lambda m: m["type"] == "state")
            # get to a position where a person is to act (the bot may move first)
            while s0["to_act"] == 1:
                s0 = await p0.until(lambda m: m["type"] == "state")
                s2 = await p2.until(lambda m: m["type"] == "state")
            mover, waiter = (p0, p2) if s0["to_act"] == 0 else (p2, p0)
            here = s0 if mover is p0 else s2
            move = here["move"]
            legal = {a["id"] for a in here["actions"]}
            self.assertTrue(legal)
            before = stored(self.db, table)[3]
            self.assertEqual(len(before), move)

            # a guessed token, another table's token, no table: refused, and such a connection cannot act
            guess = await Conn.open(session, self.server, table, secrets.token_urlsafe(24))
            await self.refused(guess, "unknown")
            await guess.act(move, next(iter(legal)))
            await self.refused(guess, "bad-request")
            foreign = await Conn.open(session, self.server, table, other["seats"][0]["token"])
            await self.refused(foreign, "unknown")
            nowhere = await Conn.open(session, self.server, "no-such-table", tok[0])
            await self.refused(nowhere, "unknown")
            # wrong tokens again and again: the connection is closed
            for _ in range(6):
                await guess.ws.send_json({"type": "hello", "table": table, "token": secrets.token_urlsafe(24)})
            closed = None
            while closed is None:
                m = await guess.recv(5)
                if not isinstance(m, dict):
                    closed = m
            self.assertEqual(guess.ws.close_code, aiohttp.WSCloseCode.POLICY_VIOLATION)

            # a connection that never says hello is closed
            silent = Conn(await session.ws_connect(self.server.ws_url))
            m = await silent.recv(5)
            self.assertNotIsInstance(m, dict)
            self.assertEqual(silent.ws.close_code, aiohttp.WSCloseCode.POLICY_VIOLATION)

            # a spectator may not act
            spectator = await Conn.open(session, self.server, table)
            await spectator.until(lambda m: m["type"] == "state")
            await spectator.act(move, next(iter(legal)))
            await self.refused(spectator, "spectator")

            # the seat not to act: out of turn, whatever move number it names (checked before the move number)
            for bad_move in (move, move + 1, move - 1 if move else 7):
                await waiter.act(bad_move, next(iter(legal)))
                await self.refused(waiter, "not-your-turn")
            # illegal actions and malformed ones, by the seat to act
            illegal = next(a for a in range(2000) if a not in legal)
            for action, code in [(illegal, "illegal"), (-1, "illegal"), (10 ** 30, "illegal"), ("1", "bad-request"),
                                 (True, "bad-request"), (None, "bad-request"), (1.0, "bad-request")]:
                await mover.act(move, action)
                await self.refused(mover, code)
            for bad_move, code in [(move + 1, "stale"), (move - 1 if move else 5, "stale"), ("0", "bad-request")]:
                await mover.act(bad_move, next(iter(legal)))
                await self.refused(mover, code)
            # malformed JSON, wrong shapes, binary frames
            for text in ["{", "[]", "null", '{"type": 5}', '{"type": "teleport"}', '{"type": "\\ud800"}',
                         "x" * 4000, "[" * 4000, '{"type": "act", "move": 1e999, "action": NaN}']:
                await mover.ws.send_str(text)
                await self.refused(mover)
            await mover.ws.send_bytes(b"\xff\x00")
            await self.refused(mover, "bad-request")
            self.assertEqual(stored(self.db, table)[3], before)
            self.assertEqual(await waiter.quiet(0.3), [], "the other person was sent something")

            # the same action twice (a pass: the turn goes to another seat): applied once, the second is refused
            # as out of turn (the seat is no longer to act; were it still, as stale)
            action = 0
            self.assertIn(action, legal)
            await mover.act(move, action)
            await mover.act(move, action)
            states, refusals = [], []
            while not (refusals and any(m["move"] == move + 1 for m in states)):
                m = await mover.until(lambda m: m["type"] in ("refused", "state"))
                (refusals if m["type"] == "refused" else states).append(m)
            self.assertEqual([r["code"] for r in refusals], ["not-your-turn"])
            applied = next(m for m in states if m["move"] == move + 1)
            self.assertNotEqual(applied["to_act"], here["to_act"])
            after = stored(self.db, table)[3]
            # the table may have moved on since (a bot), never with a second move of this seat at move + 1
            self.assertEqual(after[:len(before) + 1], before + [action])

            # 1,000 messages in about a second (the same stale action): all refused, nothing applied
            await asyncio.sleep(0.3)
            flood = await Conn.open(session, self.server, table, tok[0])
            await flood.until(lambda m: m["type"] == "state")
            now = stored(self.db, table)[3]
            for k in range(1000):
                await flood.act(move, action)
                if k % 100 == 99:
                    await asyncio.sleep(0.1)
            codes = []
            while len(codes) < 1000:
                m = await flood.recv(10)
                if not isinstance(m, dict):
                    break
                if m["type"] == "refused":
                    codes.append(m["code"])
            self.assertEqual(len(codes), 1000)
            self.assertEqual(set(codes) - {"stale", "not-your-turn", "rate-limit"}, set())
            self.assertIn("rate-limit", codes)
            # the table was moving on (bots, and people not acting): nothing of the flood was applied
            final = stored(self.db, table)[3]
            self.assertEqual(final[:len(now)], now)
            self.assertEqual(len(final), len(now), "a flooded action was applied")

            # a 1 MB message: the connection is closed with 1009 (message too big), the game unchanged
            big = await Conn.open(session, self.server, table, tok[0])
            await big.until(lambda m: m["type"] == "state")
            await big.ws.send_str(json.dumps({"type": "act", "move": move + 1, "action": 0, "pad": "x" * 1_000_000}))
            while True:
                m = await big.recv(10)
                if not isinstance(m, dict):
                    break
            self.assertEqual(big.ws.close_code, aiohttp.WSCloseCode.MESSAGE_TOO_BIG)
            self.assertEqual(stored(self.db, table)[3], final)

            # the people still play: the server answers the legitimate client
            latest = [m for m in mover.messages if m["type"] == "state"][-1]
            if latest["actions"]:
                await mover.act(latest["move"], latest["actions"][0]["id"])
                m = await mover.until(lambda m: m["type"] in ("refused", "state"))
                self.assertEqual(m["type"], "state")
                self.assertEqual(m["move"], latest["move"] + 1)
            for c in (p0, p2, foreign, nowhere, spectator, flood):
                await c.ws.close()


if __name__ == "__main__":
    unittest.main()
