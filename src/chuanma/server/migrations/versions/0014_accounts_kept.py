"""Accounts people keep: an optional e-mail address, one-time password-reset links and the
tombstones of deleted accounts.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users", recreate="never") as batch:
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
    op.create_table(
        "password_resets",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("used_at", sa.Float, nullable=True),
    )
    op.create_table(
        "deletions",
        sa.Column("user_id", sa.Integer, primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("deleted_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("deletions")
    op.drop_table("password_resets")
    with op.batch_alter_table("users", recreate="never") as batch:
        batch.drop_column("email")
