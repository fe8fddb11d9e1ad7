"""The HTTP side of the server: table creation checks its body (JSON object, players, seats with a person, bot,
strength, rule options) and answers 400 with the reason; a body over 16 KB is refused (413); an address creating
more than --creations-per-minute tables gets 429, and the server holding --max-tables tables 503; the replay record
is refused until the game is over (403) and is 404 for no table; the page and its renderer are served; no answer
holds a seed."""
import unittest

import aiohttp

import stpete
from support import ServerProcess, run, temp_db


class Http(unittest.TestCase):
    def test_creation_checks_and_limits(self):
        db = temp_db(self)
        server = ServerProcess(db, "--creations-per-minute", "3", "--max-tables", "100", "--bot-delay", "0")
        self.addCleanup(server.stop)
        run(self.checks(server))

    async def post(self, session, server, body=None, data=None):
        async with session.post(server.url + "/api/tables", json=body, data=data,
                                headers=None if body is not None else {"content-type": "application/json"}) as r:
            try:
                answer = await r.json()
            except aiohttp.ContentTypeError:
                answer = await r.text()
            return r.status, answer

    async def checks(self, server):
        good = {"players": 2, "seats": ["human", "bot"], "bot": "greedy", "rules": {"edition": 2}}
        async with aiohttp.ClientSession() as session:
            bad = [
                (None, "{"), (None, "[1, 2]"), (None, "\xff"),
                ({**good, "players": 5, "seats": ["human"] * 5}, None),  # 5 need the New Society (R17)
                ({**good, "players": 6, "seats": ["human"] * 6, "rules": {"new_society": True}}, None),
                ({**good, "rules": {"edition": 2, "new_society": True}}, None),  # §12.0: the first edition's
                ({**good, "rules": {"markers_one_seat": True}}, None),  # a ruling of the New Society without it
                ({**good, "rules": {"new_society": 1}}, None),
                ({**good, "players": True}, None),
                ({**good, "seats": ["human"]}, None),
                ({**good, "seats": ["bot", "bot"]}, None),
                ({**good, "seats": ["human", "alien"]}, None),
                ({**good, "bot": "oracle"}, None),
                ({**good, "bot": "ismcts", "strength": 0}, None),
                ({**good, "bot": "ismcts", "strength": "1000"}, None),
                ({**good, "rules": {"seed": 5}}, None),
                ({**good, "rules": {"edition": 3}}, None),
                ({**good, "rules": {"public_rubles": 1}}, None),
                ({**good, "rules": {"edition": True}}, None),
                ({**good, "rules": []}, None),
            ]
            for body, data in bad:
                status, answer = await self.post(session, server, body, data)
                self.assertEqual(status, 400, (body, data, answer))
                self.assertTrue(answer["error"])
            # the library's reason, options named by their names (issue 42)
            status, answer = await self.post(session, server, {**good, "players": 5, "seats": ["human"] * 5})
            self.assertEqual(answer["error"], stpete.check_options(players=5, edition=2))  # the check's words alone
            self.assertIn("5 players need the New Society (new_society, §12.0, R17)", answer["error"])
            # the options a table may set, from the library's table: players and every option but those of play
            async with session.get(server.url + "/api/options") as r:
                self.assertEqual(r.status, 200)
                described = (await r.json())["options"]
            self.assertEqual([o["name"] for o in described],
                             [o.name for o in stpete.options() if o.category != stpete.OptionCategory.PLAY])
            pub_cap = next(o for o in described if o["name"] == "pub_cap")
            self.assertEqual((pub_cap["type"], pub_cap["words"], pub_cap["rule"], pub_cap["default"]),
                             ("enum", ["per-pub", "per-player"], "§7.2, R10", "per-pub"))
            self.assertEqual(described[0]["labels"][-1], "5 (the New Society)")
            status, _ = await self.post(session, server, data='{"players": 2, "pad": "' + "x" * 20000 + '"}')
            self.assertEqual(status, 413)
            created = []
            five = {**good, "players": 5, "seats": ["human"] + ["bot"] * 4, "rules": {"new_society": True}}
            ns_rulings = {**five, "rules": {"new_society": True, "markers_one_seat": True, "used_prison_scores": True,
                                            "textile_without_new_society": True, "start_markers": [0, 1, 2, 3]}}
            for body in (good, five, ns_rulings):  # the New Society's 5 players too (§12), every option by its name
                status, answer = await self.post(session, server, body)
                self.assertEqual(status, 200, answer)
                self.assertNotIn("seed", str(answer))
                created.append(answer["table"])
            status, answer = await self.post(session, server, good)
            self.assertEqual(status, 429, answer)
            async with session.get(f"{server.url}/api/tables/{created[0]}/replay") as r:
                self.assertEqual(r.status, 403)
            async with session.get(f"{server.url}/api/tables/nope/replay") as r:
                self.assertEqual(r.status, 404)
            for path in ("/", "/index.html", "/main.js", "/render.js", "/online.js", "/style.css"):
                async with session.get(server.url + path) as r:  # the page's one folder (bindings/js/web)
                    self.assertEqual(r.status, 200, path)
                    self.assertIn("X-Stpete-Server", r.headers, path)  # how the page knows it is online
            # the lobby's form: the options table, and the library's reasons for combinations
            async with session.get(f"{server.url}/api/options") as r:
                table = (await r.json())["options"]
                self.assertEqual(table[0]["name"], "players")
                self.assertIn("new_society", [o["name"] for o in table])
            combos = [{"players": 5}, {"players": 5, "new_society": True}, {"players": 3, "edition": 2,
                                                                               "new_society": True}, {"colour": 1}]
            async with session.post(f"{server.url}/api/options/check", json={"combinations": combos}) as r:
                reasons = (await r.json())["reasons"]
            self.assertIn("players must be 2, 3 or 4, not 5", reasons[0])
            self.assertIsNone(reasons[1])
            self.assertIn("first edition", reasons[2])
            self.assertIn("unknown rule option", reasons[3])
            for bad in ({"combinations": [1]}, {"combinations": [{}] * 300}, [], {"combinations": "x"}):
                async with session.post(f"{server.url}/api/options/check", json=bad) as r:
                    self.assertEqual(r.status, 400, bad)
        # the limit on tables held
        server.stop()
        full = ServerProcess(server.db, "--max-tables", "3")
        try:
            async with aiohttp.ClientSession() as session:
                status, answer = await self.post(session, full, good)
                self.assertEqual(status, 503, answer)
        finally:
            full.stop()


if __name__ == "__main__":
    unittest.main()
