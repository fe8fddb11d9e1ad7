"""Load benchmark of the game server (not a test): N concurrent tables, each of two scripted people (WebSocket
clients acting as soon as they may) and one bot, replaced by a new table when its game ends, for a fixed time.
Reports moves per second (all tables), the latency from a person's action to every client of the table having the
new position (p50, p99), the server's memory (its resident set, and its bot workers'), and the CPU used by the
server process (and per move: what a move costs the server, whatever else runs on the machine), by its bot workers
and by the clients (100% = one core) during the run.

    PYTHONPATH=bindings/python:server STPETE_LIBRARY=build/libstpete.so \\
        /usr/bin/python3 server/bench.py --tables 10 100 1000 --seconds 20

With ``--strong K``, K more tables run beside them, each of one scripted person and four of the strongest bots
(5 players, the New Society, ``ismcts`` at 100,000 iterations), which keep the bot workers busy all the time: the
"bot wait" columns (from a state where a normal table's bot is to act to its move, p50 and p99) show whether those
tables' bots still get their turn (fair shares between tables, doc/server.md "Bots").

The clients run in this one process, on the same machine as the server: on a small machine they take a large share
of the CPU, so the numbers are a lower bound of what the server alone can do. The server runs with its rate limit
raised (scripted people act faster than people) and its other limits large enough for N tables; the options it
does not know (a server of 1.1.2, with ``--server-src``) are left out.
"""
import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

import aiohttp

from procinfo import children


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except FileNotFoundError:
        pass
    return 0


def cpu_seconds(pid):
    """User + system CPU time of a process so far (s)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except FileNotFoundError:
        return 0.0


class Stats:
    def __init__(self):
        self.moves = 0
        self.latencies = []
        self.bot_waits = []
        self.games = 0
        self.refused = 0


async def one_table(session, url, deadline, stats, rng, bot, setup):
    async with setup:  # not every table's connections at once: the server's listen backlog is finite
        async with session.post(url + "/api/tables", json={"players": 3, "seats": ["human", "human", "bot"],
                                                           "bot": bot, "strength": 30}) as r:
            data = await r.json()
            if r.status != 200:
                raise RuntimeError(data)
        tokens = [s["token"] for s in data["seats"] if "token" in s]
        sockets = []
        for token in tokens:
            ws = await session.ws_connect(url.replace("http", "ws") + "/ws", max_msg_size=0)
            await ws.send_json({"type": "hello", "table": data["table"], "token": token})
            sockets.append(ws)
    sent_at = {}
    arrivals = {}
    last_move = [0]
    bot_seat = next(s["seat"] for s in data["seats"] if s["kind"] == "bot")
    bot_since = [None]  # when the bot was seen to be to act

    async def reader(k, ws):
        while time.monotonic() < deadline:
            try:
                msg = await ws.receive(timeout=max(0.01, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                return
            if msg.type != aiohttp.WSMsgType.TEXT:
                return
            m = json.loads(msg.data)
            if m["type"] == "refused":
                stats.refused += 1
                continue
            if m["type"] != "state":
                continue
            now = time.monotonic()
            move = m["move"]
            a = arrivals.setdefault(move, [0, 0.0])
            a[0] += 1
            a[1] = now
            if a[0] == len(sockets):
                del arrivals[move]
                t0 = sent_at.pop(move - 1, None)
                if t0 is not None:
                    stats.latencies.append(a[1] - t0)
            if k == 0 and move > last_move[0]:
                stats.moves += move - last_move[0]
                last_move[0] = move
                if bot_since[0] is not None:
                    stats.bot_waits.append(now - bot_since[0])
                bot_since[0] = now if m["to_act"] == bot_seat else None
            if m["result"]:
                if k == 0:
                    stats.games += 1
                return
            if m["actions"]:
                sent_at[move] = time.monotonic()
                await ws.send_json({"type": "act", "move": move, "action": rng.choice(m["actions"])["id"]})

    try:
        await asyncio.gather(*(reader(k, ws) for k, ws in enumerate(sockets)))
    finally:
        for ws in sockets:
            await ws.close()


async def slot(session, url, deadline, stats, seed, bot, setup):
    rng = random.Random(seed)
    while time.monotonic() < deadline:
        await one_table(session, url, deadline, stats, rng, bot, setup)


async def strong_table(session, url, deadline):
    """One person (acting at once) and four ismcts bots of strength 100,000 at 5 players, until the deadline."""
    async with session.post(url + "/api/tables", json={"players": 5, "seats": ["human"] + ["bot"] * 4,
                                                       "bot": "ismcts", "strength": 100000,
                                                       "rules": {"new_society": True}}) as r:
        data = await r.json()
        if r.status != 200:
            raise RuntimeError(data)
    ws = await session.ws_connect(url.replace("http", "ws") + "/ws", max_msg_size=0)
    await ws.send_json({"type": "hello", "table": data["table"], "token": data["seats"][0]["token"]})
    try:
        while time.monotonic() < deadline:
            try:
                msg = await ws.receive(timeout=max(0.01, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                return
            if msg.type != aiohttp.WSMsgType.TEXT:
                return
            m = json.loads(msg.data)
            if m["type"] == "state" and m["actions"]:
                await ws.send_json({"type": "act", "move": m["move"], "action": m["actions"][0]["id"]})
    finally:
        await ws.close()


async def run_load(url, tables, seconds, bot, strong=0):
    stats = Stats()
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        start = time.monotonic()
        deadline = start + seconds
        setup = asyncio.Semaphore(50)
        await asyncio.gather(*(slot(session, url, deadline, stats, k, bot, setup) for k in range(tables)),
                             *(strong_table(session, url, deadline) for _ in range(strong)))
        elapsed = time.monotonic() - start
    return stats, elapsed


def server_options(python, env):
    """The options of the server to run (python3 -m stpete_server --help)."""
    text = subprocess.run([python, "-m", "stpete_server", "--help"], capture_output=True, text=True, env=env).stdout
    return set(w.rstrip(",") for w in text.split() if w.startswith("--"))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, nargs="+", default=[10, 100, 1000])
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--bot", default="random", help="the bots' kind (random, greedy, mc, ismcts at 30 iterations)")
    p.add_argument("--bot-workers", type=int, default=1)
    p.add_argument("--strong", type=int, default=0, help="tables of four 100,000-iteration ismcts bots beside them")
    p.add_argument("--sync", default="full", choices=("full", "normal"))
    p.add_argument("--server-src", help="the source tree of another server to measure (e.g. 1.1.2's, for comparison)")
    args = p.parse_args()
    env = dict(os.environ)
    if args.server_src:
        env["PYTHONPATH"] = os.pathsep.join([os.path.join(args.server_src, "bindings", "python"),
                                             os.path.join(args.server_src, "server")])
    known = server_options(sys.executable, env)
    print(f"{'tables':>6} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'bot p50':>8} {'bot p99':>8} {'games':>6} "
          f"{'server MiB':>10} {'workers MiB':>11} {'server CPU':>10} {'ms/move':>7} {'workers CPU':>11} "
          f"{'clients CPU':>11} {'refused':>7}")
    for n in args.tables:
        with tempfile.TemporaryDirectory() as d:
            options = ["--port", "0", "--db", os.path.join(d, "bench.sqlite"), "--bot-delay", "0",
                       "--bot-workers", str(args.bot_workers), "--sync", args.sync, "--rate", "100000",
                       "--burst", "100000", "--max-clients", str(10 * n + 100), "--max-tables", str(1000 * n),
                       "--creations-per-minute", str(1000 * n), "--log-level", "WARNING"]
            for option, value in (("--max-per-address", "0"), ("--connections-per-minute", "0")):
                if option in known:
                    options += [option, value]
            server = subprocess.Popen([sys.executable, "-m", "stpete_server", *options], stdout=subprocess.PIPE,
                                      text=True, env=env)
            try:
                url = server.stdout.readline().split()[-1].rstrip("/")
                workers = children(server.pid)
                cpu0, mine0 = cpu_seconds(server.pid), time.process_time()
                wcpu0 = sum(cpu_seconds(w) for w in workers)
                stats, elapsed = asyncio.run(run_load(url, n, args.seconds, args.bot, args.strong))
                server_cpu = (cpu_seconds(server.pid) - cpu0) / elapsed
                workers_cpu = (sum(cpu_seconds(w) for w in workers) - wcpu0) / elapsed
                clients_cpu = (time.process_time() - mine0) / elapsed
                server_rss = rss_kib(server.pid) / 1024
                workers_rss = sum(rss_kib(c) for c in children(server.pid)) / 1024
            finally:
                server.terminate()
                server.wait(30)

        def pct(values, q):
            values = sorted(values)
            return values[min(len(values) - 1, int(len(values) * q))] * 1000 if values else float("nan")
        p50 = statistics.median(stats.latencies) * 1000 if stats.latencies else float("nan")
        print(f"{n:>6} {stats.moves / elapsed:>8.0f} {p50:>7.1f} {pct(stats.latencies, 0.99):>7.1f} "
              f"{pct(stats.bot_waits, 0.5):>8.0f} {pct(stats.bot_waits, 0.99):>8.0f} {stats.games:>6} "
              f"{server_rss:>10.0f} {workers_rss:>11.0f} {server_cpu:>10.0%} "
              f"{server_cpu * elapsed * 1000 / max(1, stats.moves):>7.2f} {workers_cpu:>11.0%} {clients_cpu:>11.0%} "
              f"{stats.refused:>7}", flush=True)

if __name__ == "__main__":
    main()
