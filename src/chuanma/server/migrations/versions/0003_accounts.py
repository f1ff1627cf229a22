"""Usernames unique without regard to case; tokens expire after a time unused.

Existing names that differ only by case: the oldest account keeps its name; each later one is
renamed ``<name>_<id>`` (more ``_`` if that is taken too, the name shortened to fit 20 characters:
still a username one can log in with) and the renaming is logged as a warning, so that the unique
index on ``lower(username)`` can be built. Existing tokens count as last used at their creation.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

NAME_LENGTH = 20
"""The longest username (``accounts.USERNAME``; a login refuses a longer one before looking it up)."""
log = logging.getLogger("chuanma.server.migrations")


def _rename_case_twins(conn: sa.Connection) -> None:
    users = sa.table("users", sa.column("id", sa.Integer), sa.column("username", sa.String))
    rows = conn.execute(sa.select(users.c.id, users.c.username).order_by(users.c.id)).all()
    taken = {name.lower() for _, name in rows}
    kept: set[str] = set()
    for user_id, name in rows:
        if name.lower() not in kept:
            kept.add(name.lower())
            continue
        suffix = f"_{user_id}"
        new = name[:NAME_LENGTH - len(suffix)] + suffix
        while new.lower() in taken:
            suffix += "_"
            new = name[:NAME_LENGTH - len(suffix)] + suffix
        taken.add(new.lower())
        kept.add(new.lower())
        conn.execute(sa.update(users).where(users.c.id == user_id).values(username=new))
        log.warning("username %r (id %d) differed from an older one only by case: renamed %r", name, user_id, new)


def upgrade() -> None:
    op.add_column("tokens", sa.Column("last_used", sa.Float, nullable=True))
    op.execute("UPDATE tokens SET last_used = created_at")
    with op.batch_alter_table("tokens") as batch:  # SQLite: the table is copied (before the index below)
        batch.alter_column("last_used", existing_type=sa.Float, nullable=False)
    _rename_case_twins(op.get_bind())
    op.create_index("ix_users_username_lower", "users", [sa.text("lower(username)")], unique=True)


def downgrade() -> None:
    op.drop_index("ix_users_username_lower", "users")
    op.drop_column("tokens", "last_used")
