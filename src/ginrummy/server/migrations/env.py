"""Alembic environment: runs migrations on the connection :func:`ginrummy.server.store.upgrade`
hands over (no alembic.ini; the package carries its migrations)."""

from alembic import context

from ginrummy.server.store import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
