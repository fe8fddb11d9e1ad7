"""WebSocket frames as doc/server.md describes them, sent by hand: a message of exactly --max-message bytes is
accepted and one byte more closes the connection with 1009; a frame without a mask is a protocol error (1002, RFC
6455 §5.1); invalid UTF-8 closes with 1007, and no refused message comes before a close; WebSocket pings count
against --rate like messages; ``"token": null`` is a spectator's hello, and welcome.options holds the rules given at
creation only."""
import json
import unittest

import aiohttp

from frames import close_code, raw_ws, read_frames, ws_frame
from support import ServerProcess, create, run


def texts(frames):
    return [json.loads(payload) for opcode, payload in frames if opcode == 0x1]


class Frames(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        import tempfile
        cls.dir = tempfile.TemporaryDirectory()
        import support
        db = support.cluster().create_database("frames") if support.STORAGE == "postgresql" \
            else cls.dir.name + "/server.sqlite"  # the storage of the suite
        cls.server = ServerProcess(db, "--bot-delay", "0", "--bot-workers", "1", "--max-message", "300")
        cls.port = int(cls.server.url.rsplit(":", 1)[1])

        async def table():
            async with aiohttp.ClientSession() as session:
                return (await create(session, cls.server, players=2, seats=["human", "human"]))
        cls.table = run(table())
        cls.hello = ws_frame(json.dumps({"type": "hello", "table": cls.table["table"], "token": None}).encode())

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.dir.cleanup()

    def exchange(self, *frames, seconds=1.0):
        """Say hello, read the welcome and the state, send ``frames``: every frame received."""
        sock = raw_ws(self.port)
        try:
            sock.sendall(self.hello)
            got = read_frames(sock, 0.5)
            sock.sendall(b"".join(frames))
            return got + read_frames(sock, seconds)
        finally:
            sock.close()

    @staticmethod
    def ping_of(size):
        message = b'{"type":"ping","pad":"' + b"x" * size + b'"}'
        return message

    def test_max_message_exactly(self):  # issue 46 item 10
        pad = 300 - len(self.ping_of(0))
        exact, over = self.ping_of(pad), self.ping_of(pad + 1)
        self.assertEqual((len(exact), len(over)), (300, 301))
        got = self.exchange(ws_frame(exact))
        self.assertIsNone(close_code(got))
        self.assertEqual([m["type"] for m in texts(got)], ["welcome", "state", "pong"])
        got = self.exchange(ws_frame(over))
        self.assertEqual(close_code(got), 1009)
        self.assertEqual([m["type"] for m in texts(got)], ["welcome", "state"])  # no refused message: the close says

    def test_unmasked_frame_closes(self):  # issue 46 item 10: RFC 6455 §5.1
        got = self.exchange(ws_frame(b'{"type":"ping"}', mask=False))
        self.assertEqual(close_code(got), 1002)
        self.assertNotIn("pong", [m["type"] for m in texts(got)])

    def test_invalid_utf8_closes(self):  # issue 45 item 4: 1007, and no refused message
        got = self.exchange(ws_frame(b'{"type":"\xff\xfe"}'))
        self.assertEqual(close_code(got), 1007)
        self.assertEqual([m["type"] for m in texts(got)], ["welcome", "state"])

    def test_pings_count_against_the_rate(self):  # issue 46 item 10
        got = self.exchange(b"".join(ws_frame(b"p", opcode=0x9) for _ in range(2000)), seconds=2.0)
        pongs = sum(1 for opcode, _ in got if opcode == 0xA)
        self.assertGreater(pongs, 0)
        self.assertLess(pongs, 200, "every ping answered: pings bypass --rate")

    def test_token_null_is_a_spectator(self):  # issue 45 item 4
        got = texts(self.exchange())
        self.assertEqual(got[0]["type"], "welcome")
        self.assertIsNone(got[0]["seat"])
        self.assertEqual(got[0]["options"], {})  # the rules given at creation (none), not the defaults
        self.assertIsNone(got[1]["prices"])
        self.assertEqual(got[1]["actions"], [])


if __name__ == "__main__":
    unittest.main()
