"""Rooms as the database's (seeded with the rooms of the releases before), operators'
announcements, the "no new tables" switch (maintenance) and staff notes on players.

The seed is ``rooms.DEFAULT_ROOMS`` as this revision left it; a later change of the defaults
reaches an existing database only through an operator (``chuanma admin rooms set``) or a migration
of its own.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from chuanma.server.rooms import DEFAULT_ROOMS

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    rooms = op.create_table(
        "rooms",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("en", sa.String(96), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("base", sa.BigInteger, nullable=False),
        sa.Column("low", sa.BigInteger, nullable=False),
        sa.Column("high", sa.BigInteger, nullable=True),
        sa.Column("min_level", sa.Integer, nullable=False),
        sa.Column("enabled", sa.Boolean, nullable=False),
    )
    op.bulk_insert(rooms, [{"id": r.id, "position": k, "name": r.name, "en": r.en, "preset": r.preset, "base": r.base,
                            "low": r.low, "high": r.high, "min_level": r.min_level, "enabled": r.enabled}
                           for k, r in enumerate(DEFAULT_ROOMS.values())])
    op.create_table(
        "announcements",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("until", sa.Float, nullable=True),
        sa.Column("by", sa.Integer, sa.ForeignKey("users.id"), nullable=True),
        sa.Column("withdrawn_at", sa.Float, nullable=True),
    )
    op.create_table(
        "maintenance",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("starts", sa.Float, nullable=False),
        sa.Column("message", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("by", sa.Integer, sa.ForeignKey("users.id"), nullable=True),
        sa.Column("ended_at", sa.Float, nullable=True),
    )
    op.create_table(
        "notes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("by", sa.Integer, sa.ForeignKey("users.id"), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("notes")
    op.drop_table("maintenance")
    op.drop_table("announcements")
    op.drop_table("rooms")
