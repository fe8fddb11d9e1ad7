"""Load benchmark of the game server (not a test): N concurrent tables, each of two scripted people (WebSocket
clients acting as soon as they may) and one bot, replaced by a new table when its game ends, for a fixed time, on
each storage and number of server processes asked for, in one run. Reports moves per second (all tables), the
latency from a person's action to every client of the table having the new position (p50, p99), the wait of a
table's bot (p50, p99), memory (the server processes' resident sets, their bot workers', PostgreSQL's proportional
set) and CPU (100% = one core) used by the server processes (and per move: what a move costs them, whatever else
runs on the machine), their bot workers, PostgreSQL and the clients during the run.

    PYTHONPATH=bindings/python:server STPETE_LIBRARY=build/libstpete.so \\
        /usr/bin/python3 server/bench.py --storage sqlite postgresql --processes 1 2 4 --tables 100 1000

Several processes serve one address (``--reuse-port``: the kernel spreads the connections, so the two people of a
table are often on two processes) on one PostgreSQL database, a temporary cluster this benchmark starts
(server/pgcluster.py, fsync on); SQLite runs with one process only. ``--start 10 100000`` measures instead how long
a server process takes to start (until it listens) on a database holding that many tables.

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


def pss_kib(pid):
    """Proportional set size (KiB): shared pages (PostgreSQL's shared buffers) divided among the processes that
    map them, so that a sum over processes counts them once."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
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


async def messages(ws, deadline):
    """The server's messages on ``ws`` (decoded JSON), until the deadline (time.monotonic()) or the socket closes."""
    while time.monotonic() < deadline:
        try:
            msg = await ws.receive(timeout=max(0.01, deadline - time.monotonic()))
        except asyncio.TimeoutError:
            return
        if msg.type != aiohttp.WSMsgType.TEXT:
            return
        yield json.loads(msg.data)


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
        async for m in messages(ws, deadline):
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
        async for m in messages(ws, deadline):
            if m["type"] == "state" and m["actions"]:
                await ws.send_json({"type": "act", "move": m["move"], "action": m["actions"][0]["id"]})
    finally:
        await ws.close()


async def run_load(url, tables, seconds, bot, strong=0):
    stats = Stats()
    connector = aiohttp.TCPConnector(limit=0, force_close=True)  # every request a new connection: any process
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


class Servers:
    """``count`` server processes on database ``db``, all on one port (the first picks a free one; the others
    join it with SO_REUSEPORT). ``env``: their environment (another source tree's, with --server-src)."""

    def __init__(self, db, count, extra, env=None):
        self.procs = []
        port = 0
        for _ in range(count):
            proc = subprocess.Popen([sys.executable, "-m", "stpete_server", "--port", str(port), "--db", db,
                                     *(["--reuse-port"] if count > 1 else []), *extra],
                                    stdout=subprocess.PIPE, text=True, env=env)
            self.procs.append(proc)
            line = proc.stdout.readline()
            if not line.startswith("stpete-server listening on "):
                self.stop()
                raise RuntimeError(f"a server did not start: {line!r}")
            self.url = line.split()[-1].rstrip("/")
            port = int(self.url.rsplit(":", 1)[1])

    @property
    def pids(self):
        return [p.pid for p in self.procs]

    def workers(self):
        return [w for p in self.pids for w in children(p)]

    def stop(self):
        for p in self.procs:
            p.terminate()
        for p in self.procs:
            try:
                p.wait(40)
            except subprocess.TimeoutExpired:  # (1.1.2's server waits for a bot thinking at 100,000)
                print("  (a server did not stop within 40 s of SIGTERM: killed)", file=sys.stderr, flush=True)
                p.kill()
                p.wait()


def fill(db, n):
    """Store ``n`` tables (two people, no move yet) in database ``db`` at once: the load of --start."""
    from stpete_server.storage import SeatRecord, TableRecord, open_storage
    storage = open_storage(db)
    try:
        seats = [SeatRecord("human", "ab" * 32, None)] * 2
        now = time.time()
        records = [TableRecord(f"fill{k:07}", {}, k, seats, [], now) for k in range(n)]
        if hasattr(storage, "url"):  # PostgreSQL: COPY
            with storage._db.cursor() as cur:
                with cur.copy("COPY tables (id, options, seed, created, updated, to_act) FROM STDIN") as copy:
                    for r in records:
                        copy.write_row((r.table_id, "{}", str(r.seed), now, now, "human"))
                with cur.copy("COPY seats (table_id, seat, kind, token_hash) FROM STDIN") as copy:
                    for r in records:
                        for seat, s in enumerate(r.seats):
                            copy.write_row((r.table_id, seat, s.kind, s.token_hash))
        else:
            def body():
                storage._executemany("INSERT INTO tables (id, options, seed, created, updated, to_act) "
                                     "VALUES (?, '{}', ?, ?, ?, 'human')",
                                     [(r.table_id, str(r.seed), now, now) for r in records])
                storage._executemany("INSERT INTO seats (table_id, seat, kind, token_hash) VALUES (?, ?, ?, ?)",
                                     [(r.table_id, seat, s.kind, s.token_hash)
                                      for r in records for seat, s in enumerate(r.seats)])
            storage._transaction(body)
    finally:
        storage.close()


def databases(storages, tmp):
    """A new database of each storage asked for, for every run: yields (storage, factory)."""
    cluster = None
    try:
        for storage in storages:
            if storage == "postgresql":
                import pgcluster
                cluster = pgcluster.Cluster(fsync=True)
                names = iter(range(1000))
                yield storage, lambda: cluster.create_database(f"bench{next(names)}"), cluster
            else:
                names = iter(range(1000))
                yield storage, lambda: os.path.join(tmp, f"bench{next(names)}.sqlite"), None
    finally:
        if cluster is not None:
            cluster.stop()


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))] * 1000 if values else float("nan")


def load_runs(args, tmp, env, known):
    print(f"{'storage':>10} {'procs':>5} {'tables':>6} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'bot p50':>8} "
          f"{'bot p99':>8} {'games':>6} {'servers MiB':>11} {'idle MiB':>8} {'workers MiB':>11} {'pg MiB':>6} "
          f"{'servers CPU':>11} {'ms/move':>7} {'workers CPU':>11} {'pg CPU':>6} {'clients CPU':>11} {'refused':>7}",
          flush=True)
    for storage, new_db, cluster in databases(args.storage, tmp):
        for procs in args.processes:
            if storage == "sqlite" and procs > 1:
                continue  # one process per SQLite file
            for n in args.tables:
                options = ["--bot-delay", "0", "--bot-workers", str(args.bot_workers), "--sync", args.sync,
                           "--rate", "100000", "--burst", "100000", "--max-clients", str(10 * n + 100),
                           "--max-tables", str(1000 * n), "--creations-per-minute", str(1000 * n),
                           "--log-level", "WARNING"]
                for option, value in (("--max-per-address", "0"), ("--connections-per-minute", "0")):
                    if option in known:
                        options += [option, value]
                db = new_db()
                servers = Servers(db, procs, options, env)
                # processes on the same database that no client reaches (their own port): what a process costs
                # that only hears the others' moves
                idlers = Servers(db, 1, options, env) if args.idle_peer and storage == "postgresql" else None
                try:
                    icpu0 = sum(cpu_seconds(p) for p in idlers.pids) if idlers else 0.0
                    idle = sum(rss_kib(p) for p in servers.pids) / 1024 / procs
                    workers = servers.workers()
                    pg = cluster.pids() if cluster else []
                    cpu0 = sum(cpu_seconds(p) for p in servers.pids)
                    wcpu0 = sum(cpu_seconds(w) for w in workers)
                    pgcpu0 = sum(cpu_seconds(p) for p in pg)
                    mine0 = time.process_time()
                    stats, elapsed = asyncio.run(run_load(servers.url, n, args.seconds, args.bot, args.strong))
                    server_cpu = (sum(cpu_seconds(p) for p in servers.pids) - cpu0) / elapsed
                    workers_cpu = (sum(cpu_seconds(w) for w in workers) - wcpu0) / elapsed
                    pg_now = cluster.pids() if cluster else []
                    pg_cpu = (sum(cpu_seconds(p) for p in pg_now) - pgcpu0) / elapsed  # new backends: from 0
                    clients_cpu = (time.process_time() - mine0) / elapsed
                    server_rss = sum(rss_kib(p) for p in servers.pids) / 1024
                    workers_rss = sum(rss_kib(w) for w in servers.workers()) / 1024
                    pg_pss = sum(pss_kib(p) for p in pg_now) / 1024
                    idle_cpu = (sum(cpu_seconds(p) for p in idlers.pids) - icpu0) / elapsed if idlers else None
                finally:
                    servers.stop()
                    if idlers:
                        idlers.stop()
                p50 = statistics.median(stats.latencies) * 1000 if stats.latencies else float("nan")
                print(f"{storage:>10} {procs:>5} {n:>6} {stats.moves / elapsed:>8.0f} {p50:>7.1f} "
                      f"{pct(stats.latencies, 0.99):>7.1f} {pct(stats.bot_waits, 0.5):>8.0f} "
                      f"{pct(stats.bot_waits, 0.99):>8.0f} {stats.games:>6} {server_rss:>11.0f} {idle:>8.0f} "
                      f"{workers_rss:>11.0f} {pg_pss:>6.0f} {server_cpu:>11.0%} "
                      f"{server_cpu * elapsed * 1000 / max(1, stats.moves):>7.2f} {workers_cpu:>11.0%} "
                      f"{pg_cpu:>6.0%} {clients_cpu:>11.0%} {stats.refused:>7}"
                      + (f"   idle peer: {idle_cpu:.1%} CPU, "
                         f"{idle_cpu * elapsed * 1e6 / max(1, stats.moves):.0f} us/move" if idle_cpu is not None
                         else ""), flush=True)


def start_runs(args, tmp, env):
    print(f"{'storage':>10} {'tables':>7} {'start s (median of 3)':>22}", flush=True)
    for storage, new_db, _ in databases(args.storage, tmp):
        for n in args.start:
            db = new_db()
            fill(db, n)
            times = []
            for _ in range(3):
                t0 = time.monotonic()
                servers = Servers(db, 1, ["--bot-workers", "1", "--log-level", "WARNING"], env)
                times.append(time.monotonic() - t0)
                servers.stop()
            print(f"{storage:>10} {n:>7} {statistics.median(times):>22.2f}", flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, nargs="+", default=[100, 1000])
    p.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4],
                   help="server processes on one address (PostgreSQL only; SQLite runs one)")
    p.add_argument("--storage", nargs="+", choices=("sqlite", "postgresql"), default=["sqlite", "postgresql"])
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--bot", default="random", help="the bots' kind (random, greedy, mc, ismcts at 30 iterations)")
    p.add_argument("--bot-workers", type=int, default=1, help="per server process")
    p.add_argument("--strong", type=int, default=0, help="tables of four 100,000-iteration ismcts bots beside them")
    p.add_argument("--sync", default="full", choices=("full", "normal"))
    p.add_argument("--server-src", help="the source tree of another server to measure (e.g. 1.1.2's, for comparison)")
    p.add_argument("--idle-peer", action="store_true",
                   help="PostgreSQL: one more process on the database that no client reaches; its CPU per move is "
                        "what one more process costs")
    p.add_argument("--start", type=int, nargs="+", metavar="TABLES",
                   help="measure a process's start on databases of these many stored tables instead")
    args = p.parse_args()
    env = dict(os.environ)
    if args.server_src:
        env["PYTHONPATH"] = os.pathsep.join([os.path.join(args.server_src, "bindings", "python"),
                                             os.path.join(args.server_src, "server")])
    with tempfile.TemporaryDirectory() as tmp:
        if args.start:
            start_runs(args, tmp, env)
        else:
            load_runs(args, tmp, env, server_options(sys.executable, env))


if __name__ == "__main__":
    main()
