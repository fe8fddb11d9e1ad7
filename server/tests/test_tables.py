"""A table's ids, and its public extras checked move by move without a server (stpete_server.tables.Table with a storage that
keeps nothing): the cards discarded last that every state message carries (from the library's table document) are
exactly what the move put on the
public discard pile, and stay on it, in New Society games too, where the Debtor's Prison takes cards back from the
pile and unpaid Sycophants go onto it (§4.5, §6, §7.1, §12.7.5, §12.7.9). Fixed seeds: the same games every run."""
import asyncio
import json
import random
import unittest
from collections import Counter

import stpete

from stpete_server.storage import SeatRecord, TableRecord
from stpete_server.tables import Table


class NoStorage:
    """Stores nothing, at once (GroupCommitter's submit)."""

    def submit(self, move):
        future = asyncio.get_running_loop().create_future()
        future.set_result(None)
        return future


def pile(table):
    """The public discard pile's card names, as a multiset."""
    return Counter(json.loads(table.state.view_to_json(None))["discard"])


class DiscardedLast(unittest.TestCase):
    def play(self, players, options, seed):
        seats = [SeatRecord("human", "ab" * 32, None)] * players
        table = Table(TableRecord("t", options, seed, seats, [], 0.0), NoStorage())
        rng = random.Random(seed)
        kinds = set()
        before = pile(table)
        logged = table.message(None, 0)["event_count"]
        while not table.over:
            seat = table.state.current_player
            action = rng.choice(table.message(seat, logged)["actions"])["id"]
            asyncio.run(table.play(seat, table.move, action))
            m = table.message(None, logged)
            logged = m["event_count"]
            kinds.update(e["kind"] for e in m["events"])
            after = pile(table)
            gained = after - before
            if gained:
                self.assertEqual(Counter(m["discarded"]), gained, f"move {table.move}")
            self.assertFalse(Counter(m["discarded"]) - after, f"move {table.move}: discarded last, not on the pile")
            before = after
        return kinds

    def test_new_society(self):
        kinds = set()
        for players, seed in ((5, 6), (3, 7), (4, 8), (2, 9)):
            kinds |= self.play(players, {"new_society": True}, seed)
        self.assertLessEqual({"prison", "prison-put-back", "sycophant-discard"}, kinds)

    def test_base_games(self):
        for players, edition, seed in ((2, 1, 1), (4, 2, 2)):
            self.play(players, {"edition": edition}, seed)


class TableIds(unittest.TestCase):
    def test_an_id_is_never_an_option(self):  # it is also an argument of python3 -m stpete_server.export
        from stpete_server.tables import new_table
        ids = [new_table(2, ["human", "human"], "greedy", {})[0].table_id for _ in range(2000)]
        self.assertFalse([i for i in ids if i.startswith("-")])
        self.assertEqual(len(set(ids)), len(ids))


if __name__ == "__main__":
    unittest.main()
