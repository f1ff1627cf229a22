"""Alembic migrations of the server's database (run at start by :func:`chuanma.server.store.migrate`)."""
