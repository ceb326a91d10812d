"""The game server behind ``oracles serve`` (``docs/server.md``).

Tables of human and bot seats play one game each; every move is committed to
a database (SQLite by default, PostgreSQL through ``--db``) before anyone
hears of it, and every message a client gets is built from ``view(seat)`` or
the public ``view(None)``. :func:`create_app` builds the ASGI application, so
tests run it on their own database. See ``docs/server.md``.

Nothing is imported here, so that ``oracles`` commands other than ``serve``
do not load the web stack.
"""
