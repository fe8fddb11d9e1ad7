"""What keeps slow or many connections from locking everyone out (doc/server.md "Connections"): a deadline for a
connection's first request line and headers, a cap on the connections of one client address and on all of them
(below the descriptor limit, which is raised to its hard limit at start), and logging that says a repeated message
a few times a minute rather than thousands of times.

:class:`ConnectionGuard` sits between asyncio's listening socket and aiohttp: each accepted connection is first
counted (over a cap it is answered ``503`` and closed, before aiohttp sees it), and its bytes are passed on to
aiohttp's own protocol object unchanged; a connection whose first request's headers have not all arrived within
``header_timeout`` seconds is closed. Later requests on a kept-alive connection are bounded by aiohttp's
``keepalive_timeout``, a request body by :func:`stpete_server.app.read_json_body`'s deadline, a WebSocket without
hello by ``--hello-timeout``.
"""
import asyncio
import logging
import resource
import time
from typing import Callable, Dict, Optional, Tuple

from aiohttp import web

log = logging.getLogger("stpete_server")

_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 33\r\n"
         b"Connection: close\r\n\r\ntoo many connections; try later\r\n")


def raise_descriptor_limit() -> int:
    """Raise this process's soft limit of open descriptors (RLIMIT_NOFILE) to its hard limit; returns the limit
    now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = max(soft, 1 << 20)
    if soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return soft


class Guard:
    """The counts and limits shared by every connection of one listening socket. ``max_connections``: all
    connections at once; ``max_per_address``: those of one client address (0: no cap, e.g. behind a reverse proxy
    where every connection comes from the proxy); ``header_timeout``: seconds for a connection's first request
    line and headers."""

    def __init__(self, max_connections: int, max_per_address: int, header_timeout: float) -> None:
        self.max_connections = max_connections
        self.max_per_address = max_per_address
        self.header_timeout = header_timeout
        self.total = 0
        self.per_address: Dict[str, int] = {}
        self.refused = 0     # connections refused at a cap
        self.timed_out = 0   # connections closed for their headers' deadline

    def admit(self, address: str) -> bool:
        if self.total >= self.max_connections or (
                self.max_per_address and self.per_address.get(address, 0) >= self.max_per_address):
            self.refused += 1
            return False
        self.total += 1
        self.per_address[address] = self.per_address.get(address, 0) + 1
        return True

    def leave(self, address: str) -> None:
        self.total -= 1
        n = self.per_address[address] - 1
        if n:
            self.per_address[address] = n
        else:
            del self.per_address[address]

    def factory(self, inner: Callable[[], asyncio.Protocol]) -> Callable[[], asyncio.Protocol]:
        """A protocol factory for ``loop.create_server`` that guards the protocols ``inner()`` makes."""
        return lambda: ConnectionGuard(self, inner)


class ConnectionGuard(asyncio.Protocol):
    """One accepted connection: admitted by the :class:`Guard` (else answered 503 and closed), its first request's
    headers awaited under a deadline, everything else handed to the wrapped protocol (aiohttp's)."""

    def __init__(self, guard: Guard, inner: Callable[[], asyncio.Protocol]) -> None:
        self._guard = guard
        self._make_inner = inner
        self._inner: Optional[asyncio.Protocol] = None
        self._address: Optional[str] = None
        self._timer: Optional[asyncio.TimerHandle] = None
        self._tail = b""          # the last bytes seen while the first request's headers are incomplete
        self._transport = None

    def connection_made(self, transport) -> None:
        peer = transport.get_extra_info("peername")
        address = peer[0] if isinstance(peer, tuple) and peer else str(peer)
        if not self._guard.admit(address):
            transport.write(_BUSY)
            transport.close()
            return
        self._address = address
        self._transport = transport
        self._timer = asyncio.get_running_loop().call_later(self._guard.header_timeout, self._too_slow)
        self._inner = self._make_inner()
        self._inner.connection_made(transport)

    def _too_slow(self) -> None:
        self._timer = None
        if self._transport is not None:
            self._guard.timed_out += 1
            log.info("a connection from %s closed: its request headers took more than %g s", self._address,
                     self._guard.header_timeout)
            self._transport.abort()

    def data_received(self, data: bytes) -> None:
        if self._inner is None:
            return
        if self._timer is not None:
            seen = self._tail + data
            if b"\r\n\r\n" in seen:
                self._timer.cancel()
                self._timer = None
                self._tail = b""
            else:
                self._tail = seen[-3:]
        self._inner.data_received(data)

    def eof_received(self):
        return self._inner.eof_received() if self._inner is not None else None

    def pause_writing(self) -> None:
        if self._inner is not None:
            self._inner.pause_writing()

    def resume_writing(self) -> None:
        if self._inner is not None:
            self._inner.resume_writing()

    def connection_lost(self, exc) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._inner is not None:
            self._guard.leave(self._address)
            inner, self._inner = self._inner, None
            self._transport = None
            inner.connection_lost(exc)


class GuardedSite(web.TCPSite):
    """aiohttp's TCPSite whose connections pass through a :class:`Guard` first."""

    def __init__(self, runner: web.BaseRunner, host: str, port: int, guard: Guard, backlog: int = 1024,
                 reuse_port: bool = False) -> None:
        super().__init__(runner, host, port, backlog=backlog, reuse_port=reuse_port or None)
        self.guard = guard

    async def start(self) -> None:
        await web.BaseSite.start(self)
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(self.guard.factory(self._runner.server), self._host, self._port,
                                                backlog=self._backlog, reuse_address=self._reuse_address,
                                                reuse_port=self._reuse_port)

    @property
    def port(self) -> int:
        return self._server.sockets[0].getsockname()[1]


class RateLimitedLog(logging.Filter):
    """A logging filter: at most ``burst`` records of one kind (logger and message template) per ``window``
    seconds; the first record let through after some were dropped says how many. So a flood of connections that
    fail the same way (asyncio's "socket.accept() out of system resource", aiohttp's "Error handling request")
    costs a few lines a minute, not the disk."""

    def __init__(self, burst: int = 10, window: float = 60.0) -> None:
        super().__init__()
        self.burst = burst
        self.window = window
        self._kinds: Dict[Tuple[str, str], list] = {}   # kind -> [window start, records in it, dropped]

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        key = (record.name, str(record.msg))
        entry = self._kinds.get(key)
        if entry is None or now - entry[0] >= self.window:
            dropped = entry[2] if entry is not None else 0
            if len(self._kinds) > 1000:  # bounded: forget the kinds of earlier windows
                self._kinds = {k: v for k, v in self._kinds.items() if now - v[0] < self.window}
            entry = self._kinds[key] = [now, 0, 0]
            if dropped:  # said on the first record of the next window (no '%' added: args format as before)
                record.msg = f"{record.msg} [{dropped} more like this were not logged]"
        if entry[1] >= self.burst:
            entry[2] += 1
            return False
        entry[1] += 1
        return True
