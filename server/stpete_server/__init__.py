"""stpete_server: the reference online game server of libstpete (doc/server.md).

People play each other from their browsers; the server holds the only full state of every table and sends each
client what its seat knows (§9). Python on the library's ctypes binding (``stpete``), aiohttp for HTTP and
WebSocket, SQLite for storage (:mod:`stpete_server.storage`). Start it with ``python3 -m stpete_server``.
"""
__version__ = "1.2.0"
