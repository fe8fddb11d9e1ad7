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
from typing import Any, Deque, Dict, List, Optional, Tuple, Union

from aiohttp import WSCloseCode, WSMsgType, web
from aiohttp.http_websocket import WebSocketError

import stpete

from .botpool import BotError, BotPool, bot_spec
from .export import replay_record
from .peers import Peers
from .storage import DamagedTableError, FullError, GroupCommitter, Storage
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
                 body_timeout: float = 10.0, table_cache: int = 32) -> None:
        self.max_message = max_message          # bytes of one WebSocket message (larger: closed with 1009)
        self.rate = rate                        # messages per second a connection may send, on average
        self.burst = burst                      # ... and at once (WebSocket pings count too)
        self.max_refusals = max_refusals        # refusals after which a connection is closed (1008)
        self.max_hello_failures = max_hello_failures  # wrong tokens after which a connection is closed (1008)
        self.max_clients = max_clients          # WebSocket connections at once
        self.max_spectators = max_spectators    # spectators of one table
        self.max_tables = max_tables            # unfinished tables stored (in the database: all processes')
        self.creations_per_minute = creations_per_minute  # tables created per minute and client address (0: any)
        self.hello_timeout = hello_timeout      # seconds a connection may stay without a hello (then closed, 1008)
        self.connections_per_minute = connections_per_minute  # WebSocket connections per minute and address (0: any)
        self.send_timeout = send_timeout        # seconds one message to a client may take to be written
        self.send_backlog = send_backlog        # bytes waiting to be sent to one client before it is dropped
        self.body_timeout = body_timeout        # seconds an HTTP request body may take to arrive
        self.table_cache = table_cache          # tables kept in memory without clients nor bots (the latest ones)


class Expiry:
    """When tables leave the database (doc/server.md "Table lifecycle"): ``finished`` seconds after their game
    ended, ``abandoned`` seconds after their last move (or creation) while unfinished (0: never), looked for every
    ``every`` seconds; the records of the tables removed kept in the archive (``keep``) or not. Command-line options
    of python3 -m stpete_server (--expire-finished, --expire-abandoned, --expire-every, --expired)."""

    def __init__(self, finished: float = 7 * 86400.0, abandoned: float = 30 * 86400.0, every: float = 60.0,
                 keep: bool = True) -> None:
        self.finished = finished
        self.abandoned = abandoned
        self.every = every
        self.keep = keep


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
    """The tables in memory, their clients and their bots. No table is loaded at start (a start takes as long with
    100,000 stored tables as with 10): a table is loaded when a client asks for it or its bot is due (a due bot is
    found in the database by :meth:`poll_bots`, also after a restart), and leaves memory once it has neither
    clients nor a bot to play (into a small cache of the latest ones). A table whose stored rows are damaged is
    reported and left out, the others are served.

    Several processes may serve the same tables (PostgreSQL, :mod:`.peers`): a move is stored by the process its
    client is connected to, the storage's transaction decides its order (:class:`~.storage.StaleMoveError` for the
    loser), and every other process holding the table applies it from the notification (:meth:`on_peer_event`,
    :meth:`catch_up`) and sends it to its clients; a bot's move is thought of by the one process that claims it."""

    #: Seconds before a bot's failed question or move is tried again the first time (then twice as long each
    #: time, up to a minute).
    retry_first = 1.0
    #: Seconds between two looks for due bots in the database, and how long a bot's turn must have waited to be
    #: due (its process may be thinking: then its claim stands and nothing happens).
    bot_poll = 2.0
    bot_due = 5.0

    def __init__(self, storage: Storage, pool: BotPool, bot_delay: float = 0.8,
                 limits: Optional[Limits] = None, peers: Optional[Peers] = None,
                 expiry: Optional[Expiry] = None) -> None:
        self.storage = GroupCommitter(storage)
        self.pool = pool
        self.bot_delay = bot_delay
        self.limits = limits or Limits()
        self.peers = peers or Peers()
        self.expiry = expiry or Expiry()
        self.tables: Dict[str, Table] = {}             # in memory, with clients or a bot to play
        self.cache: "collections.OrderedDict[str, Table]" = collections.OrderedDict()  # the latest others
        self.damaged: Dict[str, str] = {}               # table id -> why it could not be loaded
        self.loading: Dict[str, asyncio.Future] = {}
        self.clients = 0
        self.stopping = False
        self.creations = Window(self.limits.creations_per_minute)
        self.connections = Window(self.limits.connections_per_minute)
        self.background: list = []                      # the tasks of poll_bots and expire
        log.info("no table loaded at start: each is loaded when a client or its due bot asks for it")

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
        """A move of ``table`` is stored (by this process, or by another and applied here): every client of the
        table is sent its state message (computed now, under the table's lock: all see the same stored position);
        the next bot is scheduled."""
        for client in list(table.clients):
            self.send(client, self.state_message(table, client))
        self.schedule_bot(table)
        self.release(table)

    async def play(self, table: Table, seat: int, move, action) -> None:
        """Apply and store a move (Table.play) under the table's lock, then :meth:`after_move`. Raises Refused.
        A move that is stored is sent to the clients even when the caller is cancelled meanwhile."""
        try:
            async with table.lock:
                before = table.move
                try:
                    await table.play(seat, move, action)
                finally:
                    if table.move > before:
                        self.after_move(table)
        except Refused as e:
            if e.behind:  # another process stored a move first (or the table expired): catch up, tell the clients
                asyncio.get_running_loop().create_task(self.catch_up(table))
            raise

    def broadcast_seats(self, table: Table) -> None:
        message = json.dumps({"type": "seats", "seats": table.seats_public()}, separators=(",", ":"))
        for c in list(table.clients):
            self.send(c, message)

    # ---- tables in memory ----------------------------------------------------------------------------------

    def release(self, table: Table) -> None:
        """A table without clients, without a bot to play and not held (:meth:`find_table`) leaves memory (into
        the small cache of the latest ones)."""
        if not table.clients and table.bot_task is None and not table.holds and self.tables.get(table.id) is table:
            del self.tables[table.id]
            self._give_up_bot(table)
            self.cache[table.id] = table
            while len(self.cache) > self.limits.table_cache:
                self.cache.popitem(last=False)

    async def find_table(self, table_id: Any, hold: bool = False) -> Optional[Table]:
        """The table with this id, in memory or loaded from storage (up to date with the moves other processes
        stored); None if there is none or it is damaged (:attr:`damaged` says why). ``hold``: it stays in memory
        until :meth:`unhold` (a caller that awaits before it attaches a client or a bot)."""
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 64:
            return None
        while True:
            table = self.tables.get(table_id)
            if table is None:
                table = await self._bring(table_id)
                if table is None:
                    return None
            if self.tables.get(table_id) is table:  # else released while this waited: from the cache again
                if hold:
                    table.holds += 1
                return table

    async def _bring(self, table_id: str) -> Optional[Table]:
        """A table not in :attr:`tables` into it: from the cache (caught up) or loaded; None if none is stored."""
        table = self.cache.pop(table_id, None)
        if table is not None:
            self.tables[table_id] = table
            if self.peers.shared:  # moves stored elsewhere while it was cached were not applied
                table.holds += 1
                try:
                    await self.catch_up(table)
                finally:
                    table.holds -= 1
            return table
        if table_id in self.damaged:
            return None
        loading = self.loading.get(table_id)
        if loading is None:
            loading = self.loading[table_id] = asyncio.ensure_future(self._load(table_id))
            loading.add_done_callback(lambda _: self.loading.pop(table_id, None))
        return await asyncio.shield(loading)

    def unhold(self, table: Table) -> None:
        """The caller of :meth:`find_table` with ``hold`` is done with the table."""
        table.holds -= 1
        self.release(table)

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
        existing = self.tables.get(table_id) or self.cache.pop(table_id, None)
        if existing is not None:
            self.tables[table_id] = existing
            return existing
        self.tables[table_id] = table
        table.holds += 1  # until its first catch-up is done, whatever that catch-up sends
        try:
            if table.over and not record.finished:  # its final move was stored without saying so
                try:
                    await self.storage.call(self.storage.storage.mark_finished, table_id)
                except Exception as e:  # a read-only database: known again at the next load
                    log.warning("table %s: its end could not be recorded (%s)", table_id, e)
            if self.peers.shared:  # a move stored elsewhere between the read and now was announced to nobody here
                await self.catch_up(table)
        finally:
            table.holds -= 1
        return table

    def forget(self, table_id: str, why: bytes = b"table expired") -> None:
        """The table is no longer stored (expired): out of memory, its bot stopped, its clients' connections
        closed (the page then says so: a hello to it is refused as expired)."""
        table = self.tables.pop(table_id, None) or self.cache.pop(table_id, None)
        if table is None:
            return
        self._give_up_bot(table)
        if table.bot_task is not None:
            table.bot_task.cancel()
        for client in list(table.clients):
            self.close(client, WSCloseCode.OK, why)

    # ---- other processes -----------------------------------------------------------------------------------

    def on_peer_event(self, payload: str) -> None:
        """What :class:`~.peers.PostgresPeers` hands on, in commit order: ``'move ID N ACTION'`` (move N of a
        table stored, by any process), ``'gone ID'`` (expired), ``'resync'`` (notifications may have been missed:
        every table in memory catches up)."""
        words = payload.split(" ")
        loop = asyncio.get_running_loop()
        if words[0] == "move" and len(words) == 4:
            table = self.tables.get(words[1])
            if table is None:
                self.cache.pop(words[1], None)  # it would be out of date
                return
            move, action = int(words[2]), int(words[3])
            if move >= table.move:
                loop.create_task(self.catch_up(table, (move, action)))
        elif words[0] == "gone" and len(words) == 2:
            self.forget(words[1])
        elif words[0] == "resync":
            self.cache.clear()
            for table in list(self.tables.values()):
                loop.create_task(self.catch_up(table))

    async def catch_up(self, table: Table, announced: Optional[Tuple[int, int]] = None) -> None:
        """Apply the moves of ``table`` stored (by another process) after the last one in memory, and send its
        clients the new position: the one ``announced`` ((move number, action)) when it is the next one, else
        those the storage holds. A table that is no longer stored is forgotten; one whose stored moves do not
        replay here is reported and dropped from memory (loaded again when asked for)."""
        async with table.lock:
            if self.tables.get(table.id) is not table:
                return
            if announced is not None and announced[0] < table.move:
                return
            if announced is not None and announced[0] == table.move:
                actions: Optional[List[int]] = [announced[1]]
            else:
                try:
                    actions = await self.storage.call(self.storage.storage.moves, table.id, table.move)
                except Exception as e:
                    log.error("table %s: its moves could not be read (%s)", table.id, e)
                    return
            if actions is None:
                self.forget(table.id)
                return
            if not actions:
                return
            try:
                table.apply_stored(actions)
            except ValueError as e:
                log.error("table %s: a move stored by another process does not replay here (%s)", table.id, e)
                self.tables.pop(table.id, None)
                self._give_up_bot(table)
                for client in list(table.clients):
                    self.close(client, WSCloseCode.TRY_AGAIN_LATER, b"reload")
                return
            table.bot_elsewhere = None
            self.after_move(table)

    # ---- bots ----------------------------------------------------------------------------------------------

    def schedule_bot(self, table: Table) -> None:
        """Start the task that plays ``table``'s bots, unless one runs, no bot is to act, or another process has
        claimed this bot's move (its move, or :meth:`poll_bots` finding it still due, calls again)."""
        if self.stopping or table.bot_task is not None or not table.bot_to_move() \
                or table.bot_elsewhere == table.move or self.tables.get(table.id) is not table:
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
        failure is logged when it first happens and then at the 2nd, 4th, 8th, ... attempt.

        The claim of the table's bot (:meth:`.peers.Peers.claim_bot`) is kept while the table is in this process's
        memory, for its later bot moves too, and given up when it leaves (:meth:`release`, :meth:`forget`): then no
        question to the database is needed for a bot's move. Kept, the claim means that no other process stored a
        move of this table when its bot was to act, so the table in memory is never behind at such a position."""
        stored = await self.peers.claim_bot(table.id)
        if stored is None:  # another process thinks for it; its move will be announced
            table.bot_elsewhere = table.move
            return
        if self.tables.get(table.id) is not table:  # it left memory meanwhile: the claim goes with it
            self._give_up_bot(table)
            return
        if stored > table.move:  # the database holds moves not yet applied here
            await self.catch_up(table)
        await self._play_bots(table)

    def _give_up_bot(self, table: Table) -> None:
        """The table left memory: its bot's claim is given up, for another process to take."""
        if self.peers.shared:
            asyncio.get_running_loop().create_task(self.peers.release_bot(table.id))

    async def _play_bots(self, table: Table) -> None:
        loop = asyncio.get_running_loop()
        failures = 0
        chosen = None  # (move, action) thought of and not yet stored
        while not self.stopping:
            async with table.lock:  # a stored position: not one whose move is being stored (and may be undone)
                if not table.bot_to_move():
                    break
                move, seat = table.move, table.state.current_player
                position = table.state.to_json() if chosen is None or chosen[0] != move else None
            if position is not None:
                started = loop.time()
                try:
                    action = await self.pool.choose(position, table.seats[seat].bot,
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

    async def poll_bots(self) -> None:
        """For ever: every :attr:`bot_poll` seconds, the tables whose bot is to act and has not moved for
        :attr:`bot_due` seconds (at the first look, after a start: all of them) are loaded and their bots
        scheduled. So a bot whose process was killed while it thought, or whose table nobody has open, plays; a
        bot another process is thinking for keeps its claim, and nothing happens here."""
        due = 0.0
        while not self.stopping:
            try:
                ids = await self.storage.call(self.storage.storage.bot_turns, time.time() - due, 100)
            except Exception as e:
                log.error("the tables whose bot is to act could not be read (%s)", e)
                ids = []
            for table_id in ids:
                table = await self.find_table(table_id, hold=True)
                if table is not None:
                    table.bot_elsewhere = None
                    self.schedule_bot(table)
                    self.unhold(table)
            due = self.bot_due
            await asyncio.sleep(self.bot_poll)

    async def expire(self) -> None:
        """For ever: every ``expiry.every`` seconds, the tables due to expire (:class:`Expiry`) leave the database
        (500 at a time, the archive keeping their records if asked) and this process's memory; other processes
        forget them when PostgreSQL announces it."""
        e = self.expiry
        if not e.finished and not e.abandoned:
            return
        while not self.stopping:
            now = time.time()
            try:
                while True:
                    ids = await self.storage.call(self.storage.storage.expire, now - e.finished if e.finished else 0,
                                                  now - e.abandoned if e.abandoned else 0, e.keep, 500)
                    for table_id in ids:
                        self.forget(table_id)
                    if ids:
                        log.info("%d tables expired%s", len(ids), " (kept in the archive)" if e.keep else "")
                    if len(ids) < 500:
                        break
            except Exception as exc:
                log.error("tables could not be expired (%s)", exc)
            await asyncio.sleep(e.every)

    def start_bots(self) -> None:
        """Start :meth:`poll_bots` (whose first look finds every bot due, also the ones a restart interrupted)
        and :meth:`expire`: the application's startup."""
        loop = asyncio.get_running_loop()
        self.background = [loop.create_task(self.poll_bots()), loop.create_task(self.expire())]

    async def stop_bots(self) -> None:
        self.stopping = True
        for task in self.background:
            task.cancel()
        await asyncio.gather(*self.background, return_exceptions=True)
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
        created = False
        try:
            body = await read_json_body(request, self.limits.body_timeout)
            try:
                spec = bot_spec(body.get("bot", "ismcts"), body.get("strength", 1000))
                record, tokens = new_table(body.get("players"), body.get("seats"), spec, body.get("rules", {}))
            except (ValueError, TypeError, stpete.StPeteError) as e:
                raise json_error(400, str(e)) from None
            try:  # the count of unfinished tables is checked in the same transaction (all processes')
                await self.storage.call(self.storage.storage.create_table, record, self.limits.max_tables)
            except FullError:
                raise json_error(503, "the server holds as many tables as it may") from None
            except Exception as e:  # the disk is full or read-only: nothing stored, nothing held
                log.error("a table could not be stored: %s: %s", type(e).__name__, e)
                raise json_error(503, f"the table could not be stored ({type(e).__name__}); try again later") \
                    from None
            table = Table(record, self.storage, owner=peer)
            self.tables[table.id] = table
            created = True
        finally:
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
        stored (before, its seed would reveal every stack, §9); 404 for no such table (or an expired one)."""
        table_id = request.match_info["table"]
        table = await self.find_table(table_id, hold=True)
        if table is None:
            if table_id in self.damaged:
                raise json_error(500, f"the table's stored rows are damaged ({self.damaged[table_id]})")
            raise json_error(404, "no such table")
        try:
            async with table.lock:  # not while a move is being stored: the table is what is stored
                over, record = table.over, table.record
        finally:
            self.unhold(table)
        if not over:
            raise json_error(403, "the replay record is published when the game is over")
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
        table = await self.find_table(table_id, hold=True)
        try:
            await self._hello(client, message, table_id, table)
        finally:
            if table is not None:
                self.unhold(table)

    async def _hello(self, client: Client, message: Dict[str, Any], table_id: Any, table: Optional[Table]) -> None:
        token = message.get("token")
        seat = table.seat_of(token) if table is not None and token is not None else None
        if table is None and isinstance(table_id, str) and table_id in self.damaged:
            self.refuse(client, "damaged", "this table's stored rows are damaged and it could not be loaded "
                                           "(the server's log says how)")
            return
        if table is None and isinstance(table_id, str) and 0 < len(table_id) <= 64 \
                and await self.storage.call(self.storage.storage.archived, table_id) is not None:
            client.hello_failures += 1
            self.refuse(client, "expired", "this table has expired (its game ended, or nobody played it for long); "
                                           "it is no longer served")
            return
        if table is None or (token is not None and seat is None):
            client.hello_failures += 1
            self.refuse(client, "unknown", "no table with this id and seat token")  # says not which
            return
        if seat is None and sum(c.seat is None for c in table.clients) >= self.limits.max_spectators:
            self.refuse(client, "busy", "this table has as many spectators as it may")
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
        await server.peers.start(server.on_peer_event)
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
        await server.peers.close()
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
