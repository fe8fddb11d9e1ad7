"""The other server processes of one database, and what they must agree on (doc/server.md "Several processes").

Two things cannot be decided in one process's memory once several processes serve the same tables:

- **who hears a move.** A move is stored by the process its client is connected to; the clients of the same table
  connected to other processes must receive it. PostgreSQL tells them: the storage's transaction sends ``NOTIFY
  stpete_server, 'move ID N ACTION'`` (and ``'gone ID'`` for an expired table), which PostgreSQL delivers at the
  commit, in commit order, to every session that listens; :class:`PostgresPeers` listens and hands each payload to
  the server.
- **who thinks for a bot.** A bot's move must be computed by exactly one process. :meth:`Peers.claim_bot` takes
  PostgreSQL's session-level advisory lock of the table (``pg_try_advisory_lock``) on a connection of its own, and
  reads the table's stored move count once it holds it (a process behind catches up first); the process that gets
  it thinks and stores the move, and keeps the claim for the table's later bot moves until the table leaves its
  memory (:meth:`Peers.release_bot`): no other process stores a move of the table while its bot is to act. A session lock is released by
  PostgreSQL when the session ends, so a process killed (``kill -9``) while its bot thinks leaves the lock to
  another process at once; which move is stored is still decided by the storage's transaction (the move count), so
  a lock lost with its connection can cost a second computation, never a second move.

:class:`Peers` is the one process of an SQLite database: nobody to tell, every claim granted. Every method is
awaited from the server's event loop.
"""
import asyncio
import hashlib
import logging
from typing import Callable, Optional

log = logging.getLogger("stpete_server")


def lock_key(table_id: str) -> int:
    """The advisory lock key (a signed 64-bit integer, PostgreSQL's bigint) of a table's bot: the first 8 bytes of
    the SHA-256 of ``'stpete-bot:' + table_id``. Two tables sharing a key (a chance of 2^-64 a pair) would only take
    turns thinking."""
    digest = hashlib.sha256(b"stpete-bot:" + table_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class Peers:
    """No other process (SQLite): :meth:`start` listens to nothing, :meth:`claim_bot` always succeeds."""

    #: Whether other processes may store moves of the same tables (the server then catches up before it thinks).
    shared = False

    async def start(self, on_event: Callable[[str], None]) -> None:
        """Begin handing every payload another process (or this one) announces to ``on_event`` (called in the
        event loop, in the order of the commits): ``'move ID N ACTION'``, ``'gone ID'``, and ``'resync'`` after the
        channel was lost and found again (some payloads may have been missed: catch up every table held)."""

    async def claim_bot(self, table_id: str) -> Optional[int]:
        """Claim the table's bot for this process (until :meth:`release_bot`): None if another process holds it,
        else the number of moves the database held once the claim was this process's (-1: the memory of this one
        process is the database, or the claim was this process's already; a very large number: the table is no
        longer stored). A process whose table in memory has fewer moves catches up before it thinks."""
        return -1

    async def release_bot(self, table_id: str) -> None:
        """Give up the claim of :meth:`claim_bot` (also when the move was not stored)."""

    async def close(self) -> None:
        """Stop listening and release every claim."""


class PostgresPeers(Peers):
    """The processes on the PostgreSQL database ``url``: two connections of this process, one listening on the
    channel (:data:`stpete_server.postgres.CHANNEL`), one holding the bots' advisory locks. A lost connection is
    opened again (every 0.5-5 s); when the listening one comes back, ``'resync'`` is handed on; when the locks' one
    was lost, its claims are gone with it (:meth:`claim_bot` after that takes them again)."""

    shared = True

    def __init__(self, url: str) -> None:
        self.url = url
        self._listen = None
        self._locks = None
        self._task: Optional[asyncio.Task] = None
        self._claims: set = set()
        self._one_at_a_time = asyncio.Lock()  # the locks' connection runs one query at a time
        self._closing = False

    async def _connect(self):
        import psycopg
        return await psycopg.AsyncConnection.connect(self.url, autocommit=True,
                                                     application_name="stpete-server peers")

    async def start(self, on_event: Callable[[str], None]) -> None:
        from .postgres import CHANNEL
        self._channel = CHANNEL
        self._listen = await self._connect()
        await self._listen.execute(f"LISTEN {CHANNEL}")
        self._locks = await self._connect()
        self._task = asyncio.get_running_loop().create_task(self._run(on_event))

    async def _run(self, on_event) -> None:
        delay = 0.5
        while True:
            try:
                async for notify in self._listen.notifies():
                    delay = 0.5
                    try:
                        on_event(notify.payload)
                    except Exception:  # a bug of the server: logged, the channel kept
                        log.exception("a notification could not be handled: %r", notify.payload)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("the notification channel was lost (%s); opening it again", e)
            while True:
                await asyncio.sleep(delay)
                delay = min(5.0, delay * 2)
                try:
                    await self._listen.close()
                    self._listen = await self._connect()
                    await self._listen.execute(f"LISTEN {self._channel}")
                    break
                except asyncio.CancelledError:
                    raise
                except Exception as e:
                    log.warning("the notification channel cannot be opened (%s); trying again", e)
            on_event("resync")

    async def _query(self, sql: str, *args):
        async with self._one_at_a_time:
            if self._locks.broken or self._locks.closed:
                self._claims.clear()  # PostgreSQL released them with the session
                await self._locks.close()
                self._locks = await self._connect()
            return (await (await self._locks.execute(sql, args)).fetchone())[0]

    def _lock_query(self, sql: str, *args) -> "asyncio.Task":
        """The query as a task of its own: a caller cancelled while it waits (a table expired, the server
        stopping) leaves it to finish, so that the connection is never left in the middle of a command."""
        return asyncio.ensure_future(self._query(sql, *args))

    #: The claim and, once it is held (CASE evaluates its condition first), the table's stored move count.
    _CLAIM = ("SELECT CASE WHEN pg_try_advisory_lock(%s) "
              "THEN COALESCE((SELECT move_count FROM tables WHERE id = %s), 2147483647) END")

    async def claim_bot(self, table_id: str) -> Optional[int]:
        if table_id in self._claims:  # held since an earlier move: still this process's (-1, as alone)
            return -1
        self._claims.add(table_id)
        query = self._lock_query(self._CLAIM, lock_key(table_id), table_id)
        try:
            count = await asyncio.shield(query)
        except asyncio.CancelledError:  # the claim may still be granted: then given up at once
            query.add_done_callback(lambda q: self._claims.discard(table_id) if q.cancelled() or q.exception()
                                    or q.result() is None else asyncio.ensure_future(self._give_up(table_id)))
            raise
        except Exception as e:
            self._claims.discard(table_id)
            log.warning("table %s: the bot's lock could not be taken (%s)", table_id, e)
            return None
        if count is None:
            self._claims.discard(table_id)
        return count

    async def _give_up(self, table_id: str) -> None:
        await self.release_bot(table_id)

    async def release_bot(self, table_id: str) -> None:
        if table_id not in self._claims or self._closing:  # (closing: the session's end releases them all)
            return
        unlock = self._lock_query("SELECT pg_advisory_unlock(%s)", lock_key(table_id))
        unlock.add_done_callback(lambda _: self._claims.discard(table_id))  # done, or the session gone with it
        try:
            await asyncio.shield(unlock)
        except Exception as e:  # the session is gone, and the lock with it
            log.warning("table %s: the bot's lock could not be released (%s)", table_id, e)

    async def close(self) -> None:
        self._closing = True
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        for connection in (self._listen, self._locks):
            if connection is not None:
                await connection.close()
