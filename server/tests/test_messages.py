"""Whole games through the server by scripted people, a bot and a spectator: every message each client received
is compared with the seat's view (§9) of the same position computed independently (the stored moves replayed with
the binding). No byte more: the view equal to the seat's own (no seed, no stack order, no other seat's unseen hand
card or secret rubles), the information-state key withheld, the legal actions only to the seat to act, the events
exactly the log lines since the client's last message, no other seat's token anywhere."""
import asyncio
import json
import random
import unittest

import aiohttp

from support import Conn, Replayed, ServerProcess, create, play_seat, run, temp_db


async def play_game(testcase, server, players, seats, rules, seed):
    rng = random.Random(seed)
    async with aiohttp.ClientSession() as session:
        data = await create(session, server, players=players, seats=seats, bot="greedy", rules=rules)
        table = data["table"]
        people = {}
        for s in data["seats"]:
            if "token" in s:
                people[s["seat"]] = await Conn.open(session, server, table, s["token"])
        spectator = await Conn.open(session, server, table)
        tokens = [s["token"] for s in data["seats"] if "token" in s]

        def choose(actions):
            buys = [a for a in actions if a["text"].startswith("buy ")]
            return rng.choice(buys if buys and rng.random() < 0.7 else actions)["id"]

        async def person(conn):
            await play_seat(conn, choose, timeout=60)

        await asyncio.gather(*(person(c) for c in people.values()))
        await spectator.until(lambda m: m["type"] == "state" and m["result"] is not None)
        for conn in list(people.values()) + [spectator]:
            await conn.ws.close()
    return table, people, spectator, tokens


class HiddenInformation(unittest.TestCase):
    def check_game(self, players, seats, rules, seed):
        db = temp_db(self)
        server = ServerProcess(db, "--bot-delay", "0", "--bot-workers", "1")
        try:
            table, people, spectator, tokens = run(play_game(self, server, players, seats, rules, seed))
        finally:
            err = server.stop()
        for token in tokens:
            self.assertNotIn(token, err, "a seat token in the server's log")
        replayed = Replayed(db, table)
        self.assertTrue(replayed.states[-1].is_terminal)
        clients = [(seat, conn) for seat, conn in people.items()] + [(None, spectator)]
        for seat, conn in clients:
            own = [t for s, t in zip([k for k in people], tokens) if s == seat]
            received = 0
            states = 0
            for m in conn.messages:
                text = json.dumps(m)
                for token in tokens:
                    if token not in own:
                        self.assertNotIn(token, text, "another seat's token sent to a client")
                self.assertIn(m["type"], ("welcome", "state", "seats", "refused"), m)
                if m["type"] == "refused":
                    self.assertEqual(m["code"], "rate-limit")  # a scripted person plays faster than people
                if m["type"] != "state":
                    continue
                states += 1
                n = m["move"]
                view, actions = replayed.expected(n, seat)
                self.assertNotIn("information_state_key", m["view"])
                self.assertEqual(m["view"], view, f"seat {seat}, move {n}: the view differs from the seat's own")
                self.assertEqual(m["actions"], actions, f"seat {seat}, move {n}")
                # the events: exactly the log lines from the client's last message up to this position
                self.assertEqual(m["events"], replayed.log[received:replayed.log_at[n]], f"seat {seat}, move {n}")
                received_before, received = received, replayed.log_at[n]
                self.assertEqual(m["event_count"], received)
                self.assertEqual(set(m), {"type", "table", "move", "view", "events", "event_count", "to_act",
                                          "actions", "result", "hand_limits", "discarded", "prices", "document"})
                # the library's table document of the seat, as is: the same as the replayed position's
                doc = json.loads(replayed.states[n].table_to_json(seat, since=received_before, person=True,
                                                                   cards=received_before == 0))
                self.assertEqual(m["document"], doc, f"seat {seat}, move {n}: the table document")
                self.assertEqual(m["view"], doc["view"])
                self.check_prices(m, seat, replayed.states[n], replayed.game)
                self.assertEqual(m["hand_limits"], [replayed.states[n].hand_limit(p) for p in range(players)])
                # the cards discarded last are on the (public) discard pile
                self.assertLessEqual(set(m["discarded"]), set(m["view"]["discard"]))
                state = replayed.states[n]
                self.assertEqual(m["to_act"], None if state.is_terminal else state.current_player)
                self.assertEqual(m["result"] is not None, state.is_terminal)
                for p, pv in enumerate(m["view"]["players"]):
                    self.assertNotIn("known_rubles", pv)
                    if p != seat and not rules.get("public_rubles"):
                        self.assertIsNone(pv["rubles"])
                self.assertIsNone(m["view"]["rng"])
                self.assertIsNone(m["view"]["options"]["seed"])
            self.assertGreater(states, 20)
            self.assertEqual(received, len(replayed.log), f"seat {seat} did not receive the whole log")
        # the spectator's views show no hand card that was not seen taken
        for m in spectator.messages:
            if m["type"] == "state" and not rules.get("public_hands"):
                for pv in m["view"]["players"]:
                    for card, known in zip(pv["hand"], pv["hand_known"]):
                        self.assertEqual(card is None, not known)

    def check_prices(self, m, seat, state, game):
        """The price table: the library's price of every board card for this seat (none to spectators, none at
        the end)."""
        if seat is None or state.is_terminal:
            self.assertIsNone(m["prices"])
            return
        board = {(0, int(c)) for c in state.row(0)} | {(1, int(c)) for c in state.row(1)}
        if state.observatory_card is not None and state.current_player == seat:  # its owner's (§7.1)
            board.add((3, int(state.observatory_card)))
        if state.prison_card is not None and state.current_player == seat:  # §12.7.5: from the discard pile
            board.add((4, int(state.prison_card)))
        for source, card, displaced, price in m["prices"]:
            self.assertIn((source, card), board)
            if displaced < 0:
                self.assertEqual(price, state.price(seat, card, source))
            else:
                self.assertIn((displaced, price), [(int(d), p) for d, p in state.displacements(seat, card, source)])
        listed = {(source, card) for source, card, _, _ in m["prices"]}
        for source, card in board:
            if not game.card_info(card).trading:
                self.assertIn((source, card), listed)

    def test_three_players_two_people_one_bot(self):
        self.check_game(3, ["human", "bot", "human"], {}, 1)

    def test_four_players_second_edition_public_rubles(self):
        self.check_game(4, ["bot", "human", "human", "bot"], {"edition": 2, "public_rubles": True,
                                                              "pub_cap": "per-player"}, 2)

    def test_five_players_new_society(self):  # §12: rows of 10 at the opening, the expansion's decisions and ids
        self.check_game(5, ["human", "bot", "human", "bot", "human"], {"new_society": True}, 3)


if __name__ == "__main__":
    unittest.main()
