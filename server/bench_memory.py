"""What tables cost the game server's memory (not a test): the resident set (VmRSS) of a server started on a database
of no table, of N finished tables and of N unfinished ones (5 players, the New Society; unfinished at move 150), one
second after it listens. The databases are written with the server's storage interface (random games, seed 1) in
DIR and kept there, so that another server (``--server-src``, e.g. 1.1.2's source tree) can be measured on the same
ones.

    PYTHONPATH=bindings/python:server STPETE_LIBRARY=build/libstpete.so \\
        /usr/bin/python3 server/bench_memory.py --tables 300 --dir /tmp/stpete-memory
"""
import argparse
import os
import random
import subprocess
import sys
import time

import stpete
from stpete_server.storage import MoveRecord, SQLiteStorage
from stpete_server.tables import new_table


def make(path, n, finished, rng):
    storage = SQLiteStorage(path)
    try:
        for _ in range(n):
            record, _ = new_table(5, ["human"] * 5, "random", {"new_society": True})
            storage.create_table(record)
            state = stpete.Game(players=5, seed=record.seed, new_society=True).new_state()
            moves = []
            while not state.is_terminal and (finished or len(moves) < 150):
                moves.append(rng.choice(state.legal_action_ids()))
                state.apply(moves[-1])
            storage.append_moves([MoveRecord(record.table_id, k, a, state.is_terminal and k == len(moves) - 1)
                                  for k, a in enumerate(moves)])
    finally:
        storage.close()


def rss_mib(path, env):
    server = subprocess.Popen([sys.executable, "-m", "stpete_server", "--port", "0", "--db", path, "--bot-workers",
                               "1", "--log-level", "WARNING"], stdout=subprocess.PIPE, text=True, env=env)
    try:
        server.stdout.readline()
        time.sleep(1.0)
        with open(f"/proc/{server.pid}/status") as f:
            return int(next(line for line in f if line.startswith("VmRSS:")).split()[1]) / 1024
    finally:
        server.terminate()
        server.wait(30)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=300)
    p.add_argument("--dir", required=True, help="where the databases are written (and reused)")
    p.add_argument("--server-src", help="the source tree of another server to measure")
    args = p.parse_args()
    env = dict(os.environ)
    if args.server_src:
        env["PYTHONPATH"] = os.pathsep.join([os.path.join(args.server_src, "bindings", "python"),
                                             os.path.join(args.server_src, "server")])
    os.makedirs(args.dir, exist_ok=True)
    rng = random.Random(1)
    base = None
    for name, n, finished in (("empty", 0, True), ("finished", args.tables, True),
                              ("unfinished", args.tables, False)):
        path = os.path.join(args.dir, f"{name}-{args.tables}.sqlite")
        if not os.path.exists(path):
            make(path, n, finished, rng)
        mib = rss_mib(path, env)
        base = mib if base is None else base
        each = f", {(mib - base) * 1024 / n:.0f} KiB a table" if n else ""
        print(f"{n} {name} tables: server {mib:.1f} MiB{each}", flush=True)


if __name__ == "__main__":
    main()
