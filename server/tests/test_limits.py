"""The server's limits under concurrency and slow or many clients (a server process, clients in this one):
concurrent creations from one address never pass --creations-per-minute or --max-tables; connections that send
their headers slowly are closed at --header-timeout, and one address holds at most --max-per-address of them; the
descriptor limit is raised, and connections beyond it are refused without filling the log; a client that does not
read what it is sent delays nobody (its table goes on); a stream of WebSocket connections from one address is cut
at --connections-per-minute."""
import asyncio
import json
import os
import random
import resource
import socket
import threading
import time
import unittest

import aiohttp

from support import Conn, ServerProcess, create, play_seat, run, temp_db
from frames import raw_ws, ws_frame


def limits_of(pid):
    """(soft, hard) RLIMIT_NOFILE of a process, from /proc."""
    with open(f"/proc/{pid}/limits") as f:
        for line in f:
            if line.startswith("Max open files"):
                soft, hard = line.split()[3:5]
                return int(soft), int(hard)
    raise AssertionError("no 'Max open files' line")


def closed_by_peer(sock, wait):
    """True if the server closed ``sock`` within ``wait`` seconds (EOF or reset, whatever it answered first)."""
    sock.settimeout(wait)
    try:
        while sock.recv(4096):
            pass
        return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def tables_stored(db):
    """How many tables the database holds (either storage: read through a read-only session)."""
    from stpete_server.storage import open_storage
    storage = open_storage(db, readonly=True)
    try:
        return len(storage.table_ids())
    finally:
        storage.close()


class Limits(unittest.TestCase):
    def start(self, *args, preexec=None):
        db = temp_db(self)
        server = ServerProcess(db, "--bot-delay", "0", "--bot-workers", "1", *args, preexec=preexec)
        self.addCleanup(server.stop)
        return server

    def test_concurrent_creations_keep_the_limits(self):  # issue 46 item 3
        body = {"players": 2, "seats": ["human", "human"]}

        async def burst(server, n):
            async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=50)) as session:
                async def one():
                    async with session.post(server.url + "/api/tables", json=body) as r:
                        await r.read()
                        return r.status
                return sorted(await asyncio.gather(*(one() for _ in range(n))))
        server = self.start("--creations-per-minute", "5", "--max-per-address", "0")
        statuses = run(burst(server, 60))
        self.assertEqual(statuses.count(200), 5, statuses)
        self.assertEqual(set(statuses), {200, 429})
        self.assertEqual(tables_stored(server.db), 5)
        server = self.start("--creations-per-minute", "1000", "--max-tables", "8", "--max-per-address", "0")
        statuses = run(burst(server, 60))
        self.assertEqual(statuses.count(200), 8, statuses)
        self.assertEqual(set(statuses), {200, 503})
        self.assertEqual(tables_stored(server.db), 8)

    def test_slow_headers_closed_and_capped_per_address(self):  # issue 46 item 5
        server = self.start("--header-timeout", "1", "--max-per-address", "8")
        port = int(server.url.rsplit(":", 1)[1])
        slow = []
        for _ in range(20):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-a: ")  # and never the end of the headers
            slow.append(s)
        started = time.monotonic()
        # beyond 8 from this address: refused at once
        refused = sum(closed_by_peer(s, 0.3) for s in slow[8:])
        self.assertEqual(refused, 12, "connections beyond --max-per-address were held")
        for s in slow[:8]:
            s.sendall(b"a")  # a byte now and then does not extend the deadline
        closed = [closed_by_peer(s, max(0.1, started + 3.0 - time.monotonic())) for s in slow[:8]]
        self.assertEqual(closed, [True] * 8, "connections whose headers never ended were held")
        for s in slow:
            s.close()

        async def page():
            async with aiohttp.ClientSession() as session:
                async with session.get(server.url + "/") as r:
                    return r.status
        self.assertEqual(run(page()), 200)

    def test_descriptors_raised_and_floods_refused_quietly(self):  # issue 46 item 5
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard != resource.RLIM_INFINITY and hard < 512:
            self.skipTest("the hard descriptor limit is below 512")

        def low_soft_limit():
            resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
        server = self.start(preexec=low_soft_limit)
        self.assertEqual(limits_of(server.proc.pid)[0], limits_of(server.proc.pid)[1], "the soft limit stayed low")

        def one_limit():
            resource.setrlimit(resource.RLIMIT_NOFILE, (160, 160))
        server = self.start("--max-per-address", "0", "--header-timeout", "1", preexec=one_limit)
        port = int(server.url.rsplit(":", 1)[1])
        held = []
        for _ in range(250):  # more than the server's 160 descriptors
            try:
                held.append(socket.create_connection(("127.0.0.1", port), timeout=0.5))
            except OSError:  # the listen queue is full: the server is refusing as fast as it can
                break
        time.sleep(1.5)  # the header deadline closes them
        for s in held:
            s.close()
        time.sleep(0.3)

        async def page():
            async with aiohttp.ClientSession() as session:
                async with session.get(server.url + "/") as r:
                    return r.status
        self.assertEqual(run(page()), 200)
        log = server.read_log()
        self.assertLess(len(log.splitlines()), 60, log[-3000:])
        self.assertIsNone(server.proc.poll())

    def test_a_client_that_does_not_read_delays_nobody(self):  # issue 46 item 10 (spectator_stall)
        server = self.start()
        port = int(server.url.rsplit(":", 1)[1])

        def flood(sock):
            """Pings, 5 MB of them, as fast as the server takes them: every pong answered is written towards a client
            that reads nothing, until the buffers between are full."""
            sock.settimeout(2)
            try:
                ping = ws_frame(b"p" * 125, opcode=0x9)
                for _ in range(400):
                    sock.sendall(ping * 100)
            except OSError:
                pass

        async def play():
            async with aiohttp.ClientSession() as session:
                data = await create(session, server, players=4, seats=["human", "bot", "bot", "bot"], bot="random")
                stalled = raw_ws(port, rcvbuf=4096)  # a spectator that says hello and never reads
                stalled.sendall(ws_frame(json.dumps({"type": "hello", "table": data["table"]}).encode()))
                flooding = threading.Thread(target=flood, args=(stalled,), daemon=True)
                flooding.start()
                await asyncio.sleep(1.0)
                me = await Conn.open(session, server, data["table"], data["seats"][0]["token"])
                try:
                    rng = random.Random(2)
                    return (await play_seat(me, lambda actions: rng.choice(actions)["id"], timeout=15))["move"]
                finally:
                    stalled.close()
                    flooding.join()
        self.assertGreater(run(play()), 150)  # 1.1.2: the table stopped (a bot to act, never asked) by move 40

    def test_a_stream_of_connections_is_cut(self):  # issue 46 item 10 (hello_amplification)
        server = self.start("--connections-per-minute", "30", "--max-per-address", "0")

        async def stream():
            async with aiohttp.ClientSession() as session:
                data = await create(session, server, players=2, seats=["human", "human"])
                answers = []
                for _ in range(40):
                    c = await Conn.open(session, server, data["table"])
                    m = await c.recv(5)
                    answers.append(m["type"] if m["type"] != "refused" else m["code"])
                    if m["type"] == "refused":
                        closing = await c.recv(5)
                        self.assertEqual(c.ws.close_code, aiohttp.WSCloseCode.TRY_AGAIN_LATER, closing)
                    await c.ws.close()
                return answers
        answers = run(stream())
        self.assertEqual(answers, ["welcome"] * 30 + ["busy"] * 10)


if __name__ == "__main__":
    unittest.main()
