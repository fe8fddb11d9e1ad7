"""The HTTP and WebSocket front of the server (aiohttp): the page, table creation, and one WebSocket per client.

Protocol (doc/server.md has the whole of it): a client opens ``/ws`` and sends ``{"type": "hello", "table": ID,
"token": TOKEN}`` (a seat's secret token; without ``token``, or with ``"token": null``, it watches as a spectator).
The server answers ``welcome`` then a ``state`` message after every move; the client plays with ``{"type": "act",
"move": N, "action": ID}``, N being the ``move`` of the last state it saw. Anything refused is answered with
``{"type": "refused", "code": ..., "reason": ...}`` to that client alone; nothing changes for anyone.
"""
import asyncio
import collections
import functools
import json
import logging
import os
import secrets
import time
from typing import Any, Deque, Dict, Optional, Union

from aiohttp import WSCloseCode, WSMsgType, web
from aiohttp.http_websocket import WebSocketError

import stpete

from .botpool import BotError, BotPool, bot_spec
from .export import replay_record
from .storage import DamagedTableError, GroupCommitter, Storage
from .tables import Refused, Table, check_options, new_table, rule_options

log = logging.getLogger("stpete_server")

HERE = os.path.dirname(os.path.abspath(__file__))


def default_web_dir() -> str:
    """The page's folder: bindings/js/web of the source tree the server runs from (the one page of the local game
    and the server, doc/javascript.md); another with --web-dir."""
    return os.path.normpath(os.path.join(HERE, "..", "..", "bindings", "js", "web"))


DEFAULT_WEB_DIR = default_web_dir()

#: Bytes of an HTTP request body (POST /api/tables); larger: 413.
MAX_BODY = 16 * 1024


class Limits:
    """The server's limits (doc/server.md "Limits"). Every one is a command-line option of python3 -m
    stpete_server, except ``max_refusals``, ``max_hello_failures`` and ``max_spectators``."""

    def __init__(self, max_message: int = 4096, rate: float = 20.0, burst: int = 40, max_refusals: int = 2000,
                 max_hello_failures: int = 5, max_clients: int = 10000, max_spectators: int = 100,
                 max_tables: int = 10000, creations_per_minute: int = 30, hello_timeout: float = 30.0,
                 connections_per_minute: int = 600, send_timeout: float = 10.0, send_backlog: int = 1 << 20,
                 body_timeout: float = 10.0, finished_cache: int = 32) -> None:
        self.max_message = max_message          # bytes of one WebSocket message (larger: closed with 1009)
        self.rate = rate                        # messages per second a connection may send, on average
        self.burst = burst                      # ... and at once (WebSocket pings count too)
        self.max_refusals = max_refusals        # refusals after which a connection is closed (1008)
        self.max_hello_failures = max_hello_failures  # wrong tokens after which a connection is closed (1008)
        self.max_clients = max_clients          # WebSocket connections at once
        self.max_spectators = max_spectators    # spectators of one table
        self.max_tables = max_tables            # unfinished tables held
        self.creations_per_minute = creations_per_minute  # tables created per minute and client address (0: any)
        self.hello_timeout = hello_timeout      # seconds a connection may stay without a hello (then closed, 1008)
        self.connections_per_minute = connections_per_minute  # WebSocket connections per minute and address (0: any)
        self.send_timeout = send_timeout        # seconds one message to a client may take to be written
        self.send_backlog = send_backlog        # bytes waiting to be sent to one client before it is dropped
        self.body_timeout = body_timeout        # seconds an HTTP request body may take to arrive
        self.finished_cache = finished_cache    # finished tables kept in memory without clients (the latest ones)


class BadMessage(ValueError):
    """A message or body that is not a JSON object: ``str(e)`` is the reason."""


def parse_json_object(data: Union[str, bytes], what: str = "a message") -> Dict[str, Any]:
    """The one checked reader of what clients send (WebSocket messages, HTTP bodies): ``data`` (text, or bytes that
    must be UTF-8) parsed as one JSON object. Raises :class:`BadMessage` with the reason for anything else: not
    UTF-8, not JSON, nested deeper than the parser's stack allows (``RecursionError``: refused, never a crash), not
    an object."""
    if isinstance(data, (bytes, bytearray)):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError:
            raise BadMessage(f"{what} must be UTF-8 text") from None
    try:
        value = json.loads(data)
    except RecursionError:
        raise BadMessage(f"{what} is JSON nested too deep") from None
    except ValueError:
        raise BadMessage(f"{what} must be JSON") from None
    if not isinstance(value, dict):
        raise BadMessage(f"{what} must be a JSON object")
    return value


async def read_json_body(request: web.Request, timeout: float) -> Dict[str, Any]:
    """An HTTP request's body as a JSON object (:func:`parse_json_object`), read within ``timeout`` seconds. Raises
    an aiohttp HTTP error whose body is ``{"error": reason}``: 400 (not a JSON object), 408 (too slow), 413 (over
    :data:`MAX_BODY`)."""
    try:
        raw = await asyncio.wait_for(request.read(), timeout)
    except asyncio.TimeoutError:
        raise json_error(408, f"the body did not arrive within {timeout:g} s") from None
    except web.HTTPRequestEntityTooLarge:
        raise json_error(413, f"the body is larger than {MAX_BODY} bytes") from None
    try:
        return parse_json_object(raw, "the body")
    except BadMessage as e:
        raise json_error(400, str(e)) from None


_HTTP_ERRORS = {400: web.HTTPBadRequest, 403: web.HTTPForbidden, 404: web.HTTPNotFound, 408: web.HTTPRequestTimeout,
                413: web.HTTPRequestEntityTooLarge, 429: web.HTTPTooManyRequests, 500: web.HTTPInternalServerError,
                503: web.HTTPServiceUnavailable}


def json_error(status: int, reason: str) -> web.HTTPException:
    """The aiohttp HTTP error of ``status`` (a key of :data:`_HTTP_ERRORS`) whose body is ``{"error": reason}``."""
    body = {"text": json.dumps({"error": reason}), "content_type": "application/json"}
    if status == 413:
        return web.HTTPRequestEntityTooLarge(MAX_BODY, MAX_BODY + 1, **body)
    return _HTTP_ERRORS[status](**body)


@web.middleware
async def json_errors(request: web.Request, handler):
    """Every answer under /api/ is JSON: an error is ``{"error": reason}`` with its status, a bug of the server
    500 ``{"error": "internal error of the server (logged)"}`` (logged)."""
    if not request.path.startswith("/api/"):
        return await handler(request)
    try:
        return await handler(request)
    except web.HTTPException as e:
        if e.content_type == "application/json" or e.status < 400:
            raise
        reason = {413: f"the body is larger than {MAX_BODY} bytes"}.get(e.status, e.reason.lower())
        return web.json_response({"error": reason}, status=e.status, headers={
            k: v for k, v in e.headers.items() if k.lower() == "allow"})
    except Exception:  # a bug of the server: logged, said in JSON
        log.exception("internal error on %s %s", request.method, request.path)
        return web.json_response({"error": "internal error of the server (logged)"}, status=500)


class Window:
    """Events per key within a sliding minute (creations and WebSocket connections per client address): ``take``
    checks and counts in one step (no await between: concurrent requests cannot all pass the check), ``give_back``
    uncounts one that did not happen. ``limit`` 0: no limit."""

    def __init__(self, limit: int, seconds: float = 60.0) -> None:
        self.limit = limit
        self.seconds = seconds
        self._events: Dict[str, Deque[float]] = {}

    def take(self, key: str) -> bool:
        if not self.limit:
            return True
        now = time.monotonic()
        events = self._events.setdefault(key, collections.deque())
        while events and now - events[0] >= self.seconds:
            events.popleft()
        if len(events) >= self.limit:
            return False
        events.append(now)
        return True

    def give_back(self, key: str) -> None:
        events = self._events.get(key)
        if events:
            events.pop()

    def prune(self) -> None:
        """Forget the keys with no event within the window (memory bounded by the addresses of a minute)."""
        now = time.monotonic()
        for key in [k for k, e in self._events.items() if not e or now - e[-1] >= self.seconds]:
            del self._events[key]


_CLOSE = object()  # in a client's outbox: close the connection after what is before it


class Client:
    """One WebSocket connection: its table and seat (None for a spectator) once it said hello, how many log
    events it has received, its rate bucket, and its outbox (every message to it goes through it, written by its
    own task: a client that reads slowly delays nobody else)."""

    def __init__(self, ws: web.WebSocketResponse, limits: Limits, address: str, transport) -> None:
        self.ws = ws
        self.address = address
        self.transport = transport
        self.table: Optional[Table] = None
        self.seat: Optional[int] = None
        self.sent = 0
        self.tokens = float(limits.burst)
        self.stamp = time.monotonic()
        self.refusals = 0
        self.hello_failures = 0
        self.outbox: Deque[Any] = collections.deque()
        self.backlog = 0                 # bytes in the outbox
        self.wake = asyncio.Event()
        self.dropped = False
        self.writer: Optional[asyncio.Task] = None

    def allow(self, limits: Limits) -> bool:
        """Token bucket: True if one more message is within the rate limit."""
        now = time.monotonic()
        self.tokens = min(float(limits.burst), self.tokens + (now - self.stamp) * limits.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class MaskCheck:
    """RFC 6455 §5.1: a server must close a connection on which the client sends an unmasked frame (1002). aiohttp
    3.8's WebSocket reader does not check the mask bit; this stands in front of it as the connection's payload
    parser, reads each frame's header (the payload is skipped, not copied) and hands the bytes on unchanged, or
    fails the reader with a protocol error at the first unmasked frame."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self._head = bytearray()
        self._skip = 0
        self._failed = False

    def feed_eof(self) -> None:
        self.inner.feed_eof()

    def feed_data(self, data: bytes):
        if self._failed:
            return True, b""
        i, n = 0, len(data)
        while i < n:
            if self._skip:
                take = min(self._skip, n - i)
                self._skip -= take
                i += take
                continue
            self._head.append(data[i])
            i += 1
            if len(self._head) < 2:
                continue
            second = self._head[1]
            if not second & 0x80:
                self._failed = True
                error = WebSocketError(WSCloseCode.PROTOCOL_ERROR, "a client frame without a mask (RFC 6455 §5.1)")
                self.inner.queue.set_exception(error)
                return True, b""
            short = second & 0x7F
            extra = 2 if short == 126 else 8 if short == 127 else 0
            if len(self._head) == 2 + extra + 4:
                self._skip = short if not extra else int.from_bytes(self._head[2:2 + extra], "big")
                self._head.clear()
        return self.inner.feed_data(data)


def require_masked_frames(request: web.Request) -> None:
    """Put :class:`MaskCheck` in front of the WebSocket reader of ``request`` (after ``ws.prepare``)."""
    protocol = request.protocol
    inner = getattr(protocol, "_payload_parser", None)
    if inner is not None and hasattr(inner, "queue") and not isinstance(inner, MaskCheck):
        protocol._payload_parser = MaskCheck(inner)


class Server:
    """The tables in memory, their clients and their bots. Unfinished tables are rebuilt from storage at start; a
    finished table is in memory only while a client watches it (and among the ``finished_cache`` latest ones);
    a table whose stored rows are damaged is reported and left out, the others start."""

    #: Seconds before a bot's failed question or move is tried again the first time (then twice as long each
    #: time, up to a minute).
    retry_first = 1.0

    def __init__(self, storage: Storage, pool: BotPool, bot_delay: float = 0.8,
                 limits: Optional[Limits] = None) -> None:
        self.storage = GroupCommitter(storage)
        self.pool = pool
        self.bot_delay = bot_delay
        self.limits = limits or Limits()
        self.tables: Dict[str, Table] = {}             # in memory: unfinished, and finished ones with clients
        self.finished_cache: "collections.OrderedDict[str, Table]" = collections.OrderedDict()
        self.finished_ids: set = set()                  # every finished table's id (the others are in the database)
        self.damaged: Dict[str, str] = {}               # table id -> why it could not be loaded
        self.loading: Dict[str, asyncio.Future] = {}
        self.unfinished = 0
        self.creating = 0
        self.clients = 0
        self.stopping = False
        self.creations = Window(self.limits.creations_per_minute)
        self.connections = Window(self.limits.connections_per_minute)
        self.finished_ids.update(storage.table_ids(finished=True))
        for table_id in storage.table_ids(finished=False):
            try:
                record = storage.table(table_id)
                table = Table(record, self.storage)
            except (DamagedTableError, ValueError, TypeError, stpete.StPeteError) as e:
                self.damaged[table_id] = str(e).removeprefix(f"table {table_id}: ")
                log.error("table %s is damaged and was not loaded: %s", table_id, self.damaged[table_id])
                continue
            if table.over:  # a table of 1.1.2, whose end was not recorded
                try:
                    storage.mark_finished(table_id)
                except Exception as e:  # a read-only database: known again at the next start
                    log.warning("table %s: its end could not be recorded (%s)", table_id, e)
                self.finished_ids.add(table_id)
                continue
            self.tables[table_id] = table
            self.unfinished += 1
        log.info("resumed %d unfinished tables (%d finished ones in the database)%s", len(self.tables),
                 len(self.finished_ids), f"; {len(self.damaged)} damaged ones not loaded: "
                 f"{', '.join(sorted(self.damaged))}" if self.damaged else "")

    @staticmethod
    def address(request: web.Request) -> str:
        return request.remote or "?"

    # ---- sending -------------------------------------------------------------------------------------------

    def send(self, client: Client, message: Union[Dict[str, Any], str]) -> None:
        """Queue ``message`` (an object, or its JSON text) for ``client``; a client whose backlog passes
        ``send_backlog`` bytes is dropped."""
        if client.dropped:
            return
        text = message if isinstance(message, str) else json.dumps(message, separators=(",", ":"))
        client.backlog += len(text)
        if client.backlog > self.limits.send_backlog:
            self.drop(client, f"more than {self.limits.send_backlog} bytes waiting to be sent")
            return
        client.outbox.append(text)
        client.wake.set()

    def close(self, client: Client, code: int, message: bytes) -> None:
        """Close ``client``'s connection once what is queued for it is sent."""
        client.outbox.append((_CLOSE, code, message))
        client.wake.set()

    def drop(self, client: Client, why: str) -> None:
        """End a connection that does not read what it is sent (its socket is aborted: nothing more is written)."""
        if client.dropped:
            return
        client.dropped = True
        client.outbox.clear()
        log.info("a connection from %s dropped: %s", client.address, why)
        if client.transport is not None:
            client.transport.abort()

    async def write_loop(self, client: Client) -> None:
        """Write ``client``'s outbox in order, each message within ``send_timeout`` seconds (else the client is
        dropped)."""
        while not client.dropped:
            if not client.outbox:
                client.wake.clear()
                await client.wake.wait()
                continue
            item = client.outbox.popleft()
            try:
                async with asyncio.timeout(self.limits.send_timeout):  # (no task per message, as wait_for makes)
                    if isinstance(item, tuple):
                        await client.ws.close(code=item[1], message=item[2])
                        return
                    await client.ws.send_str(item)
                client.backlog -= len(item)
            except asyncio.TimeoutError:
                self.drop(client, f"a message took more than {self.limits.send_timeout:g} s to be written")
                return
            except (ConnectionError, RuntimeError):
                return  # the connection is closing: its handler cleans up

    def refuse(self, client: Client, code: str, reason: str) -> None:
        client.refusals += 1
        move = client.table.move if client.table else None
        self.send(client, {"type": "refused", "code": code, "reason": reason, "move": move})

    def state_message(self, table: Table, client: Client) -> str:
        """The state message of ``client`` as JSON text (Table.message: the table document of its seat, the log
        since what it has); a spectator's first is the same for all, made once per move."""
        if client.seat is None and client.sent == 0:
            text, count = table.spectator_first_message()
        else:
            message = table.message(client.seat, client.sent)
            text, count = json.dumps(message, separators=(",", ":")), message["event_count"]
        client.sent = count  # the log entries this client has
        return text

    def after_move(self, table: Table) -> None:
        """A move of ``table`` is stored: every client of the table is sent its state message (computed now, under
        the table's lock: all see the same stored position); a finished game leaves the count of unfinished
        tables; the next bot is scheduled."""
        for client in list(table.clients):
            self.send(client, self.state_message(table, client))
        if table.over and table.id not in self.finished_ids:
            self.finished_ids.add(table.id)
            self.unfinished -= 1
        self.schedule_bot(table)
        self.release(table)

    async def play(self, table: Table, seat: int, move, action) -> None:
        """Apply and store a move (Table.play) under the table's lock, then :meth:`after_move`. Raises Refused.
        A move that is stored is sent to the clients even when the caller is cancelled meanwhile."""
        async with table.lock:
            before = table.move
            try:
                await table.play(seat, move, action)
            finally:
                if table.move > before:
                    self.after_move(table)

    def broadcast_seats(self, table: Table) -> None:
        message = json.dumps({"type": "seats", "seats": table.seats_public()}, separators=(",", ":"))
        for c in list(table.clients):
            self.send(c, message)

    # ---- tables in memory ----------------------------------------------------------------------------------

    def release(self, table: Table) -> None:
        """A finished table without clients leaves memory (into the small cache of the latest ones)."""
        if table.over and not table.clients and table.bot_task is None and self.tables.get(table.id) is table:
            del self.tables[table.id]
            self.finished_cache[table.id] = table
            while len(self.finished_cache) > self.limits.finished_cache:
                self.finished_cache.popitem(last=False)

    async def find_table(self, table_id: Any) -> Optional[Table]:
        """The table with this id, in memory or (a finished one) loaded from storage; None if there is none or it
        is damaged (:attr:`damaged` says why)."""
        if not isinstance(table_id, str):
            return None
        table = self.tables.get(table_id)
        if table is not None:
            return table
        table = self.finished_cache.pop(table_id, None)
        if table is not None:
            self.tables[table_id] = table
            return table
        if table_id not in self.finished_ids or table_id in self.damaged:
            return None
        loading = self.loading.get(table_id)
        if loading is None:
            loading = self.loading[table_id] = asyncio.ensure_future(self._load(table_id))
            loading.add_done_callback(lambda _: self.loading.pop(table_id, None))
        return await asyncio.shield(loading)

    async def _load(self, table_id: str) -> Optional[Table]:
        try:
            record = await self.storage.call(self.storage.storage.table, table_id)
            if record is None:
                return None
            table = Table(record, self.storage)
        except (DamagedTableError, ValueError, TypeError, stpete.StPeteError) as e:
            self.damaged[table_id] = str(e).removeprefix(f"table {table_id}: ")
            log.error("table %s is damaged and was not loaded: %s", table_id, self.damaged[table_id])
            return None
        existing = self.tables.get(table_id)
        if existing is not None:
            return existing
        self.tables[table_id] = table
        return table

    # ---- bots ----------------------------------------------------------------------------------------------

    def schedule_bot(self, table: Table) -> None:
        """Start the task that plays ``table``'s bots, unless one runs or no bot is to act."""
        if self.stopping or table.bot_task is not None or not table.bot_to_move():
            return
        task = asyncio.get_running_loop().create_task(self.run_bot(table))
        table.bot_task = task
        task.add_done_callback(functools.partial(self._bot_ended, table))

    def _bot_ended(self, table: Table, task: asyncio.Task) -> None:
        """A table's bot task ended: a failure is logged and the bots are scheduled again (nothing leaves a table
        waiting for a bot that nobody asks)."""
        if table.bot_task is task:
            table.bot_task = None
        if task.cancelled() or self.stopping:
            return
        error = task.exception()
        if error is not None:  # a bug of the server: logged once, the table goes on a little later
            log.error("table %s: the bots' task failed; starting it again in 5 s", table.id, exc_info=error)
            asyncio.get_running_loop().call_later(5.0, self.schedule_bot, table)
            return
        self.schedule_bot(table)
        self.release(table)

    async def run_bot(self, table: Table) -> None:
        """While a bot is to act at ``table``: think (in a worker, :class:`BotPool`, charged to the table's owner),
        wait out the pacing delay, play the move. A question the pool could not answer and a move that could not
        be stored (a full or read-only disk) are tried again, after 1, 2, 4, ... 60 s, for as long as it takes; a
        failure is logged when it first happens and then at the 2nd, 4th, 8th, ... attempt."""
        loop = asyncio.get_running_loop()
        failures = 0
        chosen = None  # (move, action) thought of and not yet stored
        while not self.stopping and table.bot_to_move():
            move, seat = table.move, table.state.current_player
            if chosen is None or chosen[0] != move:
                started = loop.time()
                try:
                    action = await self.pool.choose(table.state.to_json(), table.seats[seat].bot,
                                                    secrets.randbits(64), owner=table.owner, flow=table.id)
                except BotError as e:
                    failures += 1
                    await self._wait_after_failure(table, f"the bot of seat {seat} could not think ({e})", failures)
                    continue
                chosen = (move, action)
                await asyncio.sleep(max(0.0, self.bot_delay - (loop.time() - started)))
            try:
                await self.play(table, seat, move, chosen[1])
            except Refused as e:
                if e.code != "storage":
                    chosen = None
                failures += 1
                await self._wait_after_failure(table, f"the bot's move at move {move} was refused: {e}", failures)
                continue
            chosen = None
            if failures:
                log.warning("table %s: the bots play again after %d failures", table.id, failures)
            failures = 0

    async def _wait_after_failure(self, table: Table, what: str, failures: int) -> None:
        delay = min(60.0, self.retry_first * 2.0 ** (failures - 1))
        if failures & (failures - 1) == 0:  # 1, 2, 4, 8, ...: a stuck table says so, without filling the log
            log.error("table %s: %s; trying again in %g s (attempt %d)", table.id, what, delay, failures)
        await asyncio.sleep(delay)

    def start_bots(self) -> None:
        for table in list(self.tables.values()):
            self.schedule_bot(table)

    async def stop_bots(self) -> None:
        self.stopping = True
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ---- HTTP ----------------------------------------------------------------------------------------------

    async def create_table(self, request: web.Request) -> web.Response:
        """POST /api/tables {"players", "seats", "bot", "strength", "rules"} -> {"table", "seats": [{"seat",
        "kind", "token"?}], ...}. The tokens are in this answer only. The address's quota and the room for one more
        table are checked and reserved before anything is awaited, so concurrent requests cannot pass the limits
        together."""
        peer = self.address(request)
        if not self.creations.take(peer):
            raise json_error(429, "too many tables created from your address; wait a minute")
        if self.unfinished + self.creating >= self.limits.max_tables:
            self.creations.give_back(peer)
            raise json_error(503, "the server holds as many tables as it may")
        self.creating += 1
        created = False
        try:
            body = await read_json_body(request, self.limits.body_timeout)
            try:
                spec = bot_spec(body.get("bot", "ismcts"), body.get("strength", 1000))
                record, tokens = new_table(body.get("players"), body.get("seats"), spec, body.get("rules", {}))
            except (ValueError, TypeError, stpete.StPeteError) as e:
                raise json_error(400, str(e)) from None
            try:
                await self.storage.call(self.storage.storage.create_table, record)
            except Exception as e:  # the disk is full or read-only: nothing stored, nothing held
                log.error("a table could not be stored: %s: %s", type(e).__name__, e)
                raise json_error(503, f"the table could not be stored ({type(e).__name__}); try again later") \
                    from None
            table = Table(record, self.storage, owner=peer)
            self.tables[table.id] = table
            self.unfinished += 1
            created = True
        finally:
            self.creating -= 1
            if not created:
                self.creations.give_back(peer)
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
        body = await read_json_body(request, self.limits.body_timeout)
        combos = body.get("combinations")
        if not isinstance(combos, list) or len(combos) > 256 or not all(isinstance(c, dict) for c in combos):
            raise json_error(400, "combinations must be a list of at most 256 objects")
        return web.json_response({"reasons": [check_options(c) for c in combos]})

    async def replay(self, request: web.Request) -> web.Response:
        """GET /api/tables/{id}/replay: the replay record (doc/format.md), once the game is over and its last move
        stored (before, its seed would reveal every stack, §9)."""
        table_id = request.match_info["table"]
        table = self.tables.get(table_id) or self.finished_cache.get(table_id)
        if table is not None:
            async with table.lock:  # not while a move is being stored: the table is what is stored
                if not table.over:
                    raise json_error(403, "the replay record is published when the game is over")
                record = table.record
        elif table_id in self.finished_ids and table_id not in self.damaged:
            try:
                record = await self.storage.call(self.storage.storage.table, table_id)
            except DamagedTableError as e:
                raise json_error(500, f"the table's stored rows are damaged ({e.reason})") from None
        else:
            raise json_error(404, "no such table")
        return web.Response(text=replay_record(record), content_type="application/json")

    # ---- WebSocket -----------------------------------------------------------------------------------------

    async def websocket(self, request: web.Request) -> web.WebSocketResponse:
        # max_msg_size: aiohttp refuses a message of max_msg_size bytes or more; --max-message bytes are allowed
        ws = web.WebSocketResponse(max_msg_size=self.limits.max_message + 1, heartbeat=30.0, autoping=False)
        transport = request.transport
        await ws.prepare(request)
        require_masked_frames(request)
        client = Client(ws, self.limits, self.address(request), transport)
        client.writer = asyncio.get_running_loop().create_task(self.write_loop(client))
        counted = False
        try:
            if self.clients >= self.limits.max_clients:
                self.refuse(client, "busy", "the server has as many connections as it may; try later")
                self.close(client, WSCloseCode.TRY_AGAIN_LATER, b"busy")
                return ws
            if not self.connections.take(client.address):
                self.refuse(client, "busy", "too many connections from your address in a minute; try later")
                self.close(client, WSCloseCode.TRY_AGAIN_LATER, b"busy")
                return ws
            self.clients += 1
            counted = True
            await self.receive_loop(client)
        finally:
            if counted:
                self.clients -= 1
            if client.table is not None:
                client.table.clients.discard(client)
                if client.seat is not None:
                    self.broadcast_seats(client.table)
                self.release(client.table)
            self.close(client, WSCloseCode.OK, b"")
            try:
                await asyncio.wait_for(asyncio.shield(client.writer), self.limits.send_timeout + 1.0)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                client.writer.cancel()
                self.drop(client, "could not be closed in time")
        return ws

    async def receive_loop(self, client: Client) -> None:
        ws = client.ws
        loop = asyncio.get_running_loop()
        hello_by = loop.time() + self.limits.hello_timeout
        while True:
            # before its hello, a connection waits at most until hello_by
            timeout = None if client.table is not None else max(0.001, hello_by - loop.time())
            try:
                msg = await ws.receive(timeout=timeout)
            except asyncio.TimeoutError:
                self.close(client, WSCloseCode.POLICY_VIOLATION, b"no hello")
                return
            if msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
                return
            if msg.type == WSMsgType.TEXT:
                try:
                    await self.on_text(client, msg.data)
                except Exception:  # a bug of the server: said to this client, logged, the others unaffected
                    log.exception("internal error on a client's message")
                    self.refuse(client, "internal", "internal error of the server (logged)")
            elif msg.type == WSMsgType.BINARY:
                self.refuse(client, "bad-request", "send JSON text messages, not binary ones")
            elif msg.type == WSMsgType.PING:  # counted in the rate limit as any message; beyond it, no pong
                if client.allow(self.limits):
                    await ws.pong(msg.data)
                else:
                    client.refusals += 1
            elif msg.type == WSMsgType.PONG:
                pass
            elif msg.type == WSMsgType.ERROR:
                # aiohttp has closed the connection: 1009 ("message too big") for a message over --max-message,
                # 1002 (protocol error: a broken or unmasked frame) or 1007 (invalid UTF-8). The close code is
                # what the client learns; no refused message can follow a close.
                exc = ws.exception()
                log.info("connection closed: %s %s", type(exc).__name__, getattr(exc, "code", ""))
                return
            if client.refusals > self.limits.max_refusals or client.hello_failures > self.limits.max_hello_failures:
                self.close(client, WSCloseCode.POLICY_VIOLATION, b"too many refused messages")
                return

    async def on_text(self, client: Client, text: str) -> None:
        if not client.allow(self.limits):
            self.refuse(client, "rate-limit", f"more than {self.limits.rate:g} messages a second; slow down")
            return
        try:
            message = parse_json_object(text)
        except BadMessage as e:
            self.refuse(client, "malformed", str(e))
            return
        if not isinstance(message.get("type"), str):
            self.refuse(client, "malformed", "a message is a JSON object with a \"type\"")
            return
        kind = message["type"]
        if kind == "hello":
            await self.on_hello(client, message)
        elif kind == "act":
            await self.on_act(client, message)
        elif kind == "ping":
            self.send(client, {"type": "pong"})
        else:
            self.refuse(client, "bad-request", "unknown message type (known: hello, act, ping)")

    async def on_hello(self, client: Client, message: Dict[str, Any]) -> None:
        if client.table is not None:
            self.refuse(client, "bad-request", "already at a table: open another connection for another one")
            return
        table_id = message.get("table")
        table = await self.find_table(table_id)
        token = message.get("token")
        seat = table.seat_of(token) if table is not None and token is not None else None
        if table is None and isinstance(table_id, str) and table_id in self.damaged:
            self.refuse(client, "damaged", "this table's stored rows are damaged and it could not be loaded "
                                           "(the server's log says how)")
            return
        if table is None or (token is not None and seat is None):
            client.hello_failures += 1
            self.refuse(client, "unknown", "no table with this id and seat token")  # says not which
            if table is not None:
                self.release(table)
            return
        if seat is None and sum(c.seat is None for c in table.clients) >= self.limits.max_spectators:
            self.refuse(client, "busy", "this table has as many spectators as it may")
            self.release(table)
            return
        async with table.lock:  # the position now stored, and no state message to this client before these two
            client.table, client.seat, client.sent = table, seat, 0
            table.clients.add(client)
            self.send(client, {"type": "welcome", "table": table.id, "seat": seat, "players": table.players,
                               "options": dict(table.record.options), "cards": table.cards,
                               "seats": table.seats_public(), "version": stpete.version()})
            self.send(client, self.state_message(table, client))
        if seat is not None:
            self.broadcast_seats(table)

    async def on_act(self, client: Client, message: Dict[str, Any]) -> None:
        table = client.table
        if table is None:
            self.refuse(client, "bad-request", "say hello with your table and seat token first")
            return
        if client.seat is None:
            self.refuse(client, "spectator", "spectators do not play")
            return
        try:
            await self.play(table, client.seat, message.get("move"), message.get("action"))
        except Refused as e:
            log.debug("table %s: seat %s refused: %s", table.id, client.seat, e)
            self.refuse(client, e.code, str(e))


def make_app(server: Server, web_dir: str = DEFAULT_WEB_DIR) -> web.Application:
    """The aiohttp application of ``server``: the page (``web_dir``, bindings/js/web: / and its files), /api, /ws.
    Every response says X-Stpete-Server, by which the page knows it is the online page (main.js). Its startup
    starts the bot workers and the bots, its shutdown stops them and closes every connection, its cleanup stores
    what is under way and stops the storage thread."""

    @web.middleware
    async def say_server(request, handler):
        response = await handler(request)
        response.headers["X-Stpete-Server"] = stpete.version()
        return response

    app = web.Application(client_max_size=MAX_BODY, middlewares=[say_server, json_errors])

    async def index(_request):
        return web.FileResponse(os.path.join(web_dir, "index.html"))

    async def housekeeping():
        while True:
            await asyncio.sleep(60.0)
            server.creations.prune()
            server.connections.prune()

    async def on_startup(_app):
        await server.pool.start()
        server.start_bots()
        app["housekeeping"] = asyncio.get_running_loop().create_task(housekeeping())

    async def on_shutdown(_app):
        app["housekeeping"].cancel()
        await server.stop_bots()
        for table in list(server.tables.values()):
            for client in list(table.clients):
                server.close(client, WSCloseCode.GOING_AWAY, b"server shutdown")

    async def on_cleanup(_app):
        await server.pool.close()
        server.storage.close()  # the storage thread, once every move under way is stored

    app.router.add_get("/", index)
    app.router.add_get("/api/options", server.options)
    app.router.add_post("/api/options/check", server.check)
    app.router.add_post("/api/tables", server.create_table)
    app.router.add_get("/api/tables/{table}/replay", server.replay)
    app.router.add_get("/ws", server.websocket)
    app.router.add_static("/", web_dir)
    app.on_startup.append(on_startup)
    app.on_shutdown.append(on_shutdown)
    app.on_cleanup.append(on_cleanup)
    return app
