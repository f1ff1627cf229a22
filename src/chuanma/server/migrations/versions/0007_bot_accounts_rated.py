"""Bots rated per account; ``users.last_grant`` dropped (written, never read).

A settlement now writes only the rating rows of its own seats: a bot is rated at its account, as the
strategy it played (``bot:<strategy>:<user id>``), and a strategy's rating is pooled from its
accounts' when read. The rows of a database rated before (``bot:<strategy>``, one row every
settlement locked) are renamed to their accounts in ``hand_players`` and dropped from ``ratings``:
the bot accounts start anew, the players keep their ratings (``progress.rebuild`` replays every
rating from the records, if wanted).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

SHARED = "subject LIKE 'bot:%' AND subject NOT LIKE 'bot:%:%'"
"""A strategy's rating shared by every bot account (before this revision)."""


def upgrade() -> None:
    op.execute(f"UPDATE hand_players SET subject = subject || ':' || CAST(user_id AS VARCHAR(12)) WHERE {SHARED}")
    op.execute(f"DELETE FROM ratings WHERE {SHARED}")
    op.drop_column("users", "last_grant")  # SQLite: ALTER TABLE DROP COLUMN (3.35 on)


def downgrade() -> None:
    op.add_column("users", sa.Column("last_grant", sa.Float, nullable=False, server_default="0"))
    op.execute("UPDATE users SET last_grant = created_at")
