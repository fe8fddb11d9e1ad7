"""doc/server.md tells the truth about the server: its options table lists exactly the options of python3 -m
stpete_server; its refusal codes are exactly those the server sends; and it says what a client author needs to know
(issue 45 item 4), each of which the other tests check against the server itself: "token": null is a spectator
(test_frames), which errors close the connection with which code and no refused message (test_frames, test_hostile),
the order of an act's checks (test_hostile), how a scripted client paces itself and resends after rate-limit
(support.play_seat), actions [] and prices null (test_messages), welcome.options as given (test_frames)."""
import os
import re
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def read(*path):
    with open(os.path.join(ROOT, *path), encoding="utf-8") as f:
        return f.read()


class ServerDoc(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.doc = read("doc", "server.md")
        cls.flat = " ".join(cls.doc.split())  # sentences run over lines

    def test_options_table_is_the_servers(self):
        shown = subprocess.run([sys.executable, "-m", "stpete_server", "--help"], capture_output=True, text=True,
                               check=True).stdout
        options = set(re.findall(r"(--[a-z][a-z-]+)", shown)) - {"--help"}
        table = self.doc[self.doc.index("| option | default | meaning |"):]
        table = table[:table.index("\n\n")]
        documented = set(re.findall(r"`(--[a-z][a-z-]+)`", table))
        self.assertEqual(documented, options)

    def test_refusal_codes_are_the_servers(self):
        source = read("server", "stpete_server", "app.py") + read("server", "stpete_server", "tables.py")
        sent = set(re.findall(r'refuse\(client, "([a-z-]+)"', source))
        sent |= set(re.findall(r'Refused\(.*, "([a-z-]+)"\)$', source, re.M))
        paragraph = self.flat[self.flat.index("Refusal codes:"):]
        paragraph = paragraph[:paragraph.index(". An `act` is checked")]
        documented = set(re.findall(r"`([a-z][a-z-]+)`", paragraph)) - {"move", "type", "refused"}
        self.assertEqual(documented, sent)

    def test_what_a_client_author_needs(self):  # issue 45 item 4
        for needed in ('`"token": null`: watch as a spectator',
                       "no `refused` message comes",
                       "1009", "1007", "1002",
                       "the seat is the one to act (`not-your-turn`), `move` is the table's (`stale`)",
                       "after a `rate-limit` it waits a little and sends the same `act` (the same `move`) again",
                       "keep under `--rate` messages a second",
                       "A seat that is not to act gets `actions: []`",
                       "a spectator gets `actions: []` and `prices: null`",
                       "`welcome.options` (below) holds exactly the rules given here"):
            self.assertTrue(needed in self.flat, f"doc/server.md does not say: {needed}")


if __name__ == "__main__":
    unittest.main()
