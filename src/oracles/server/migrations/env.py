"""Alembic's environment for the server's schema.

The server runs the migrations itself on start (:func:`oracles.server.migrate.upgrade`)
and hands Alembic an open connection in ``config.attributes["connection"]``;
there is no ``alembic.ini``.
"""

from __future__ import annotations

from alembic import context

from oracles.server.db import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run the server's migrations through oracles.server.migrate.upgrade")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
