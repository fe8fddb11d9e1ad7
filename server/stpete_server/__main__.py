"""python3 -m stpete_server: the reference game server of libstpete (doc/server.md).

    PYTHONPATH=bindings/python:server STPETE_LIBRARY=build/libstpete.so \\
        /usr/bin/python3 -m stpete_server --port 8080 --db stpete-server.sqlite

prints "stpete-server listening on http://HOST:PORT/" once it accepts connections, and runs until SIGINT or SIGTERM.
Exit status 1 (one line on stderr) if the database cannot be used at all.
"""
import argparse
import asyncio
import logging
import os
import signal
import sqlite3
import sys

from aiohttp import web


def parse_args(argv):
    from .app import DEFAULT_WEB_DIR, Limits
    d = Limits()
    p = argparse.ArgumentParser(prog="python3 -m stpete_server", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (behind a reverse proxy: keep local)")
    p.add_argument("--port", type=int, default=8080, help="TCP port (0: any free one, printed)")
    p.add_argument("--db", default="stpete-server.sqlite", help="the SQLite database file (created if missing)")
    p.add_argument("--sync", choices=("full", "normal"), default="full",
                   help="SQLite synchronous: full survives a power cut, normal only a killed server (faster)")
    p.add_argument("--bot-workers", type=int, default=max(1, (os.cpu_count() or 2) - 1),
                   help="processes in which the bots think")
    p.add_argument("--bot-delay", type=float, default=0.8,
                   help="least seconds between a position and a bot's move in it (so a person can follow)")
    p.add_argument("--bot-seconds", type=float, default=3.0,
                   help="most seconds a search bot (mc, ismcts) thinks for one move, whatever its strength (0: no "
                        "limit)")
    p.add_argument("--web-dir", default=DEFAULT_WEB_DIR, help="the page's folder (bindings/js/web)")
    p.add_argument("--max-message", type=int, default=d.max_message, help="bytes of one WebSocket message")
    p.add_argument("--rate", type=float, default=d.rate, help="messages a second per connection, on average")
    p.add_argument("--burst", type=int, default=d.burst, help="messages at once per connection")
    p.add_argument("--max-clients", type=int, default=d.max_clients, help="WebSocket connections at once")
    p.add_argument("--max-connections", type=int, default=0,
                   help="TCP connections at once (0: as many as the descriptor limit allows, less what the server "
                        "needs for itself)")
    p.add_argument("--max-per-address", type=int, default=64,
                   help="TCP connections at once from one client address (0: no cap; behind a reverse proxy)")
    p.add_argument("--connections-per-minute", type=int, default=d.connections_per_minute,
                   help="WebSocket connections one client address may open per minute (0: no limit)")
    p.add_argument("--header-timeout", type=float, default=10.0,
                   help="seconds for a connection's first request line and headers")
    p.add_argument("--send-timeout", type=float, default=d.send_timeout,
                   help="seconds a message to a client may take to be written (else the client is dropped)")
    p.add_argument("--max-tables", type=int, default=d.max_tables, help="unfinished tables held")
    p.add_argument("--creations-per-minute", type=int, default=d.creations_per_minute,
                   help="tables a client address may create per minute (0: no limit)")
    p.add_argument("--hello-timeout", type=float, default=d.hello_timeout,
                   help="seconds a connection may stay without saying hello")
    p.add_argument("--log-level", default="INFO", help="logging level (seat tokens are never logged)")
    return p.parse_args(argv)


#: Seconds between SIGTERM (or SIGINT) and the end of the process, at most.
SHUTDOWN_SECONDS = 30.0


def quiet_accept_errors(loop, context) -> None:
    """The event loop's exception handler: "socket.accept() out of system resource" (asyncio then waits a second
    before it accepts again) in one line without its traceback, which the log's rate limit then bounds; anything
    else as asyncio says it."""
    if str(context.get("message", "")).startswith("socket.accept() out of system resource"):
        logging.getLogger("stpete_server").warning("accepting paused for a second: %s", context.get("exception"))
        return
    loop.default_exception_handler(context)


async def serve(args, storage) -> None:
    from .app import Limits, Server, make_app
    from .botpool import BotPool
    from .guard import Guard, GuardedSite, raise_descriptor_limit
    log = logging.getLogger("stpete_server")
    limits = Limits(max_message=args.max_message, rate=args.rate, burst=args.burst, max_clients=args.max_clients,
                    max_tables=args.max_tables, creations_per_minute=args.creations_per_minute,
                    hello_timeout=args.hello_timeout, connections_per_minute=args.connections_per_minute,
                    send_timeout=args.send_timeout)
    pool = BotPool(args.bot_workers, move_seconds=args.bot_seconds)
    server = Server(storage, pool, bot_delay=args.bot_delay, limits=limits)
    # Connections never use up the descriptors: the limit is raised, and connections are capped below it, with
    # room for what asyncio accepts at once before any is refused (up to the listen backlog) and for what the
    # server needs itself (the database, the bot workers' pipes, the listening socket).
    descriptors = raise_descriptor_limit()
    backlog = max(8, min(1024, descriptors // 4))
    room = max(8, descriptors - backlog - 64 - 4 * args.bot_workers)
    max_connections = min(args.max_connections or room, room)
    if max_connections < args.max_connections:
        log.warning("at most %d connections at once: the descriptor limit is %d", max_connections, descriptors)
    guard = Guard(max_connections, args.max_per_address, args.header_timeout)
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(quiet_accept_errors)
    # keepalive_timeout: an idle kept-alive connection, or a later request whose headers do not arrive, is closed
    runner = web.AppRunner(make_app(server, web_dir=args.web_dir), keepalive_timeout=15.0)
    await runner.setup()
    site = GuardedSite(runner, args.host, args.port, guard, backlog=backlog)  # many clients connecting at once
    await site.start()
    print(f"stpete-server listening on http://{args.host}:{site.port}/", flush=True)
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        # Whatever a client or a worker does, the server stops: what is stored is stored (every move is committed
        # before it is acknowledged), so past the deadline it ends as a kill would.
        cleanup = asyncio.ensure_future(runner.cleanup())
        done, _ = await asyncio.wait({cleanup}, timeout=SHUTDOWN_SECONDS)
        if not done:
            log.error("the server did not stop within %g s of the signal; ending now", SHUTDOWN_SECONDS)
            logging.shutdown()
            os._exit(1)


def main(argv=None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s")
    from .guard import RateLimitedLog
    for handler in logging.getLogger().handlers:
        handler.addFilter(RateLimitedLog())
    from .storage import SQLiteStorage
    try:
        storage = SQLiteStorage(args.db, synchronous=args.sync)
        storage.table_ids()
    except sqlite3.DatabaseError as e:
        print(f"stpete-server: cannot use the database {args.db}: {e} (the file is damaged or not a database; "
              f"SQLite's .recover may save its tables)", file=sys.stderr)
        return 1
    try:
        asyncio.run(serve(args, storage))
    finally:
        storage.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
