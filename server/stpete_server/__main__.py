"""python3 -m stpete_server: the reference game server of libstpete (doc/server.md).

    PYTHONPATH=bindings/python:server STPETE_LIBRARY=build/libstpete.so \\
        /usr/bin/python3 -m stpete_server --port 8080 --db stpete-server.sqlite

prints "stpete-server listening on http://HOST:PORT/" once it accepts connections, and runs until SIGINT or SIGTERM.
"""
import argparse
import asyncio
import logging
import os
import signal
import sys

from aiohttp import web


def parse_args(argv):
    from .app import DEFAULT_WEB_DIR, Limits
    d = Limits()
    p = argparse.ArgumentParser(prog="python3 -m stpete_server", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (behind a reverse proxy: keep local)")
    p.add_argument("--port", type=int, default=8080, help="TCP port (0: any free one, printed)")
    p.add_argument("--reuse-port", action="store_true",
                   help="listen with SO_REUSEPORT: several processes (on one PostgreSQL database) share the port, "
                        "the kernel spreads the connections among them")
    p.add_argument("--db", default="stpete-server.sqlite",
                   help="the SQLite database file (created if missing), or a PostgreSQL database's URI "
                        "(postgresql://USER@HOST/DB: doc/server.md)")
    p.add_argument("--sync", choices=("full", "normal"), default="full",
                   help="full: an acknowledged move survives a power cut; normal: only a killed server (faster "
                        "commits; SQLite synchronous, PostgreSQL synchronous_commit)")
    p.add_argument("--bot-workers", type=int, default=max(1, (os.cpu_count() or 2) - 1),
                   help="processes in which the bots think")
    p.add_argument("--bot-delay", type=float, default=0.8,
                   help="least seconds between a position and a bot's move in it (so a person can follow)")
    p.add_argument("--web-dir", default=DEFAULT_WEB_DIR, help="examples/web, whose style and rendering the page uses")
    p.add_argument("--max-message", type=int, default=d.max_message, help="bytes of one WebSocket message")
    p.add_argument("--rate", type=float, default=d.rate, help="messages a second per connection, on average")
    p.add_argument("--burst", type=int, default=d.burst, help="messages at once per connection")
    p.add_argument("--max-clients", type=int, default=d.max_clients, help="WebSocket connections at once")
    p.add_argument("--max-tables", type=int, default=d.max_tables, help="tables held")
    p.add_argument("--creations-per-minute", type=int, default=d.creations_per_minute,
                   help="tables a client address may create per minute")
    p.add_argument("--hello-timeout", type=float, default=d.hello_timeout,
                   help="seconds a connection may stay without saying hello")
    p.add_argument("--log-level", default="INFO", help="logging level (seat tokens are never logged)")
    return p.parse_args(argv)


async def serve(args, pool, storage) -> None:
    from .app import Limits, Server, make_app
    limits = Limits(max_message=args.max_message, rate=args.rate, burst=args.burst, max_clients=args.max_clients,
                    max_tables=args.max_tables, creations_per_minute=args.creations_per_minute,
                    hello_timeout=args.hello_timeout)
    server = Server(storage, pool, bot_delay=args.bot_delay, limits=limits)
    runner = web.AppRunner(make_app(server, web_dir=args.web_dir))
    await runner.setup()
    site = web.TCPSite(runner, args.host, args.port, backlog=1024,  # many clients connecting at once
                       reuse_port=args.reuse_port or None)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    print(f"stpete-server listening on http://{args.host}:{port}/", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()


def main(argv=None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s")
    from .botpool import BotPool
    from .storage import InUseError, open_storage
    from .tables import record_status
    pool = BotPool(args.bot_workers)  # forks its workers first, before any thread exists
    try:
        storage = open_storage(args.db, synchronous=args.sync, status=record_status, exclusive=True)
    except InUseError as e:
        pool.close()
        print(f"stpete-server: {e}", file=sys.stderr)
        return 1
    try:
        asyncio.run(serve(args, pool, storage))
    finally:
        pool.close()
        storage.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
