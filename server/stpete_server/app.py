"""The HTTP and WebSocket front of the server (aiohttp): the page, table creation, and one WebSocket per client.

Protocol (doc/server.md has the whole of it): a client opens ``/ws`` and sends ``{"type": "hello", "table": ID,
"token": TOKEN}`` (a seat's secret token; without ``token`` it watches as a spectator). The server answers
``welcome`` then a ``state`` message after every move; the client plays with ``{"type": "act", "move": N,
"action": ID}``, N being the ``move`` of the last state it saw. Anything refused is answered with ``{"type":
"refused", "code": ..., "reason": ...}`` to that client alone; nothing changes for anyone.
"""
import asyncio
import json
import logging
import os
import time
from typing import Any, Dict, Optional

from aiohttp import WSCloseCode, WSMsgType, web

import stpete

from .botpool import BotPool, bot_spec
from .export import replay_record
from .storage import GroupCommitter, Storage
from .tables import Refused, Table, check_options, new_table, rule_options

log = logging.getLogger("stpete_server")

HERE = os.path.dirname(os.path.abspath(__file__))


def default_web_dir() -> str:
    """The page's folder: bindings/js/web of the source tree the server runs from (the one page of the local game
    and the server, doc/javascript.md); another with --web-dir."""
    return os.path.normpath(os.path.join(HERE, "..", "..", "bindings", "js", "web"))


DEFAULT_WEB_DIR = default_web_dir()


class Limits:
    """The server's limits (doc/server.md "Limits"). Every one is a command-line option of python3 -m
    stpete_server."""

    def __init__(self, max_message: int = 4096, rate: float = 20.0, burst: int = 40, max_refusals: int = 2000,
                 max_hello_failures: int = 5, max_clients: int = 10000, max_spectators: int = 100,
                 max_tables: int = 10000, creations_per_minute: int = 30, hello_timeout: float = 30.0) -> None:
        self.max_message = max_message          # bytes of one WebSocket message (larger: closed with 1009)
        self.rate = rate                        # messages per second a connection may send, on average
        self.burst = burst                      # ... and at once
        self.max_refusals = max_refusals        # refusals after which a connection is closed (1008)
        self.max_hello_failures = max_hello_failures  # wrong tokens after which a connection is closed (1008)
        self.max_clients = max_clients          # WebSocket connections at once
        self.max_spectators = max_spectators    # spectators of one table
        self.max_tables = max_tables            # tables held
        self.creations_per_minute = creations_per_minute  # tables created per minute and client address
        self.hello_timeout = hello_timeout      # seconds a connection may stay without a hello (then closed, 1008)


class Client:
    """One WebSocket connection: its table and seat (None for a spectator) once it said hello, how many log
    events it has received, and its rate bucket."""

    def __init__(self, ws: web.WebSocketResponse, limits: Limits) -> None:
        self.ws = ws
        self.table: Optional[Table] = None
        self.seat: Optional[int] = None
        self.sent = 0
        self.tokens = float(limits.burst)
        self.stamp = time.monotonic()
        self.refusals = 0
        self.hello_failures = 0

    def allow(self, limits: Limits) -> bool:
        """Token bucket: True if one more message is within the rate limit."""
        now = time.monotonic()
        self.tokens = min(float(limits.burst), self.tokens + (now - self.stamp) * limits.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Server:
    """The tables in memory (rebuilt from storage at start), their clients and their bots."""

    def __init__(self, storage: Storage, pool: BotPool, bot_delay: float = 0.8,
                 limits: Optional[Limits] = None) -> None:
        self.storage = GroupCommitter(storage)
        self.pool = pool
        self.bot_delay = bot_delay
        self.limits = limits or Limits()
        self.tables: Dict[str, Table] = {}
        self.clients = 0
        self.creations: Dict[str, list] = {}
        for record in storage.tables():
            self.tables[record.table_id] = Table(record, self.storage)
        log.info("resumed %d tables", len(self.tables))

    # ---- sending -------------------------------------------------------------------------------------------

    async def send(self, client: Client, message: Dict[str, Any]) -> None:
        try:
            await client.ws.send_str(json.dumps(message, separators=(",", ":")))
        except (ConnectionError, RuntimeError):
            pass  # the connection is closing: its handler cleans up

    async def refuse(self, client: Client, code: str, reason: str) -> None:
        client.refusals += 1
        move = client.table.move if client.table else None
        await self.send(client, {"type": "refused", "code": code, "reason": reason, "move": move})

    def state_message(self, table: Table, client: Client) -> Dict[str, Any]:
        message = table.message(client.seat, client.sent)
        client.sent = message["event_count"]  # the log entries this client has
        return message

    async def play(self, table: Table, seat: int, move, action) -> None:
        """Apply and store a move (Table.play), then send every client of the table its own state message, all
        computed under the table's lock in one go (all see the same stored position). Raises Refused."""
        async with table.lock:
            await table.play(seat, move, action)
            messages = [(c, self.state_message(table, c)) for c in list(table.clients)]
        await asyncio.gather(*(self.send(c, m) for c, m in messages))
        self.schedule_bot(table)

    async def broadcast_seats(self, table: Table) -> None:
        message = {"type": "seats", "seats": table.seats_public()}
        await asyncio.gather(*(self.send(c, message) for c in list(table.clients)))

    # ---- bots ----------------------------------------------------------------------------------------------

    def schedule_bot(self, table: Table) -> None:
        if table.bot_to_move() and table.bot_task is None:
            table.bot_task = asyncio.get_running_loop().create_task(self.run_bot(table))

    async def run_bot(self, table: Table) -> None:
        """Think for the bot to act (in a worker process), wait out the pacing delay, play the move."""
        loop = asyncio.get_running_loop()
        try:
            while True:
                move, seat = table.move, table.state.current_player
                started = loop.time()
                seed = (table.record.seed ^ (move * 0x9E3779B97F4A7C15)) & (2 ** 64 - 1)
                log.debug("table %s: bot of seat %d thinks at move %d", table.id, seat, move)
                try:
                    action = await self.pool.choose(table.state.to_json(), table.seats[seat].bot, seed)
                except Exception:
                    log.exception("table %s: the bot of seat %d failed; trying again", table.id, seat)
                    await asyncio.sleep(1.0)
                    continue
                await asyncio.sleep(max(0.0, self.bot_delay - (loop.time() - started)))
                break
            log.debug("table %s: bot of seat %d plays %d at move %d", table.id, seat, action, move)
        finally:
            table.bot_task = None
        try:
            await self.play(table, seat, move, action)
        except Refused as e:
            log.error("table %s: bot move refused: %s", table.id, e)
        except Exception:  # a bug of the server: logged (an unawaited task's exception would be lost)
            log.exception("table %s: the bot's move at move %d failed", table.id, move)

    def start_bots(self) -> None:
        for table in self.tables.values():
            self.schedule_bot(table)

    async def stop_bots(self) -> None:
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ---- HTTP ----------------------------------------------------------------------------------------------

    async def create_table(self, request: web.Request) -> web.Response:
        """POST /api/tables {"players", "seats", "bot", "strength", "rules"} -> {"table", "seats": [{"seat",
        "kind", "token"?}], ...}. The tokens are in this answer only."""
        now = time.monotonic()
        peer = request.remote or "?"
        recent = [t for t in self.creations.get(peer, []) if now - t < 60.0]
        if len(recent) >= self.limits.creations_per_minute:
            return web.json_response({"error": "too many tables created from your address; wait a minute"},
                                     status=429)
        if len(self.tables) >= self.limits.max_tables:
            return web.json_response({"error": "the server holds as many tables as it may"}, status=503)
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            return web.json_response({"error": "the body must be a JSON object"}, status=400)
        try:
            if not isinstance(body, dict):
                raise ValueError("the body must be a JSON object")
            spec = bot_spec(body.get("bot", "ismcts"), body.get("strength", 1000))
            record, tokens = new_table(body.get("players"), body.get("seats"), spec, body.get("rules", {}))
        except (ValueError, TypeError, stpete.StPeteError) as e:
            return web.json_response({"error": str(e)}, status=400)
        await self.storage.call(self.storage.storage.create_table, record)
        self.creations[peer] = recent + [now]
        table = Table(record, self.storage)
        self.tables[table.id] = table
        self.schedule_bot(table)
        log.info("table %s created: %d players, seats %s", table.id, table.players,
                 ",".join(s.kind for s in table.seats))
        return web.json_response({"table": table.id, "players": table.players, "bot": spec,
                                  "seats": [{"seat": k, "kind": s.kind, **({"token": tokens[k]} if tokens[k] else {})}
                                            for k, s in enumerate(table.seats)]})

    async def options(self, _request: web.Request) -> web.Response:
        """GET /api/options: the options a table may set (``rules`` of POST /api/tables, :func:`rule_options`) and
        the number of players, each described by the library's table of options (``stpete.Option.as_dict``: name,
        title, description, rule, type, default, words, labels, ...), in its order: what the lobby's form is built
        from. The library checks each combination (POST /api/tables answers 400 with its reason)."""
        described = [o.as_dict() for o in stpete.options() if o.name in rule_options() or o.name == "players"]
        return web.json_response({"options": described})

    async def check(self, request: web.Request) -> web.Response:
        """POST /api/options/check {"combinations": [{option: value, ...}, ...]} -> {"reasons": [the library's reason
        each is refused, or null]}: the lobby's form asks what each player count needs."""
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError, RecursionError):
            return web.json_response({"error": "the body must be a JSON object"}, status=400)
        combos = body.get("combinations") if isinstance(body, dict) else None
        if not isinstance(combos, list) or len(combos) > 256 or not all(isinstance(c, dict) for c in combos):
            return web.json_response({"error": "combinations must be a list of at most 256 objects"}, status=400)
        return web.json_response({"reasons": [check_options(c) for c in combos]})

    async def replay(self, request: web.Request) -> web.Response:
        """GET /api/tables/{id}/replay: the replay record (doc/format.md), once the game is over (before, its
        seed would reveal every stack, §9)."""
        table = self.tables.get(request.match_info["table"])
        if table is None:
            return web.json_response({"error": "no such table"}, status=404)
        if not table.over:
            return web.json_response({"error": "the replay record is published when the game is over"}, status=403)
        return web.Response(text=replay_record(table.record), content_type="application/json")

    # ---- WebSocket -----------------------------------------------------------------------------------------

    async def websocket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=self.limits.max_message, heartbeat=30.0)
        await ws.prepare(request)
        client = Client(ws, self.limits)
        if self.clients >= self.limits.max_clients:
            await self.refuse(client, "busy", "the server has as many connections as it may; try later")
            await ws.close(code=WSCloseCode.TRY_AGAIN_LATER)
            return ws
        self.clients += 1
        loop = asyncio.get_running_loop()
        hello_by = loop.time() + self.limits.hello_timeout
        try:
            while True:
                # before its hello, a connection waits at most until hello_by
                timeout = None if client.table is not None else max(0.001, hello_by - loop.time())
                try:
                    msg = await ws.receive(timeout=timeout)
                except asyncio.TimeoutError:
                    await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"no hello")
                    break
                if msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
                    break
                if msg.type == WSMsgType.TEXT:
                    try:
                        await self.on_text(client, msg.data)
                    except Exception:  # a bug of the server: said to this client, logged, the others unaffected
                        log.exception("internal error on a client's message")
                        await self.refuse(client, "internal", "internal error of the server (logged)")
                elif msg.type == WSMsgType.BINARY:
                    await self.refuse(client, "bad-request", "send JSON text messages, not binary ones")
                elif msg.type == WSMsgType.ERROR:
                    # a message over max_message (aiohttp has closed the connection with 1009, "message too
                    # big", which is what the client learns), or a broken frame (1002, 1007)
                    exc = ws.exception()
                    log.info("connection closed: %s %s", type(exc).__name__, getattr(exc, "code", ""))
                    if getattr(exc, "code", None) == WSCloseCode.MESSAGE_TOO_BIG:
                        await self.refuse(client, "too-large",
                                          f"messages are limited to {self.limits.max_message} bytes")
                    else:
                        await self.refuse(client, "bad-frame", "a WebSocket frame that could not be read")
                    break
                if client.refusals > self.limits.max_refusals or client.hello_failures > self.limits.max_hello_failures:
                    await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"too many refused messages")
                    break
        finally:
            self.clients -= 1
            if client.table is not None:
                client.table.clients.discard(client)
                if client.seat is not None:
                    await self.broadcast_seats(client.table)
        return ws

    async def on_text(self, client: Client, text: str) -> None:
        if not client.allow(self.limits):
            await self.refuse(client, "rate-limit", f"more than {self.limits.rate:g} messages a second; slow down")
            return
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):  # RecursionError: nested deeper than the interpreter's stack
            await self.refuse(client, "malformed", "not JSON")
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self.refuse(client, "malformed", "a message is a JSON object with a \"type\"")
            return
        kind = message["type"]
        if kind == "hello":
            await self.on_hello(client, message)
        elif kind == "act":
            await self.on_act(client, message)
        elif kind == "ping":
            await self.send(client, {"type": "pong"})
        else:
            await self.refuse(client, "bad-request", "unknown message type (known: hello, act, ping)")

    async def on_hello(self, client: Client, message: Dict[str, Any]) -> None:
        if client.table is not None:
            await self.refuse(client, "bad-request", "already at a table: open another connection for another one")
            return
        table_id = message.get("table")
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        token = message.get("token")
        seat = table.seat_of(token) if table is not None and token is not None else None
        if table is None or (token is not None and seat is None):
            client.hello_failures += 1
            await self.refuse(client, "unknown", "no table with this id and seat token")  # says not which
            return
        if seat is None and sum(c.seat is None for c in table.clients) >= self.limits.max_spectators:
            await self.refuse(client, "busy", "this table has as many spectators as it may")
            return
        async with table.lock:  # the position now stored, and no state message to this client before these two
            client.table, client.seat, client.sent = table, seat, 0
            table.clients.add(client)
            await self.send(client, {"type": "welcome", "table": table.id, "seat": seat, "players": table.players,
                                     "options": dict(table.record.options), "cards": table.cards,
                                     "seats": table.seats_public(), "version": stpete.version()})
            await self.send(client, self.state_message(table, client))
        if seat is not None:
            await self.broadcast_seats(table)

    async def on_act(self, client: Client, message: Dict[str, Any]) -> None:
        table = client.table
        if table is None:
            await self.refuse(client, "bad-request", "say hello with your table and seat token first")
            return
        if client.seat is None:
            await self.refuse(client, "spectator", "spectators do not play")
            return
        try:
            await self.play(table, client.seat, message.get("move"), message.get("action"))
        except Refused as e:
            log.debug("table %s: seat %s refused: %s", table.id, client.seat, e)
            await self.refuse(client, e.code, str(e))


def make_app(server: Server, web_dir: str = DEFAULT_WEB_DIR) -> web.Application:
    """The aiohttp application of ``server``: the page (``web_dir``, bindings/js/web: / and its files), /api, /ws.
    Every response says X-Stpete-Server, by which the page knows it is the online page (main.js)."""

    @web.middleware
    async def say_server(request, handler):
        response = await handler(request)
        response.headers["X-Stpete-Server"] = stpete.version()
        return response

    app = web.Application(client_max_size=16 * 1024, middlewares=[say_server])

    async def index(_request):
        return web.FileResponse(os.path.join(web_dir, "index.html"))

    async def on_startup(_app):
        server.start_bots()

    async def on_shutdown(_app):
        await server.stop_bots()
        for table in server.tables.values():
            for client in list(table.clients):
                await client.ws.close(code=WSCloseCode.GOING_AWAY, message=b"server shutdown")

    app.router.add_get("/", index)
    app.router.add_get("/api/options", server.options)
    app.router.add_post("/api/options/check", server.check)
    app.router.add_post("/api/tables", server.create_table)
    app.router.add_get("/api/tables/{table}/replay", server.replay)
    app.router.add_get("/ws", server.websocket)
    app.router.add_static("/", web_dir)

    async def on_cleanup(_app):
        server.storage.close()  # the storage thread, once every move under way is stored

    app.on_startup.append(on_startup)
    app.on_shutdown.append(on_shutdown)
    app.on_cleanup.append(on_cleanup)
    return app
