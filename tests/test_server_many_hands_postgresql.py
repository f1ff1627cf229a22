"""The chips' invariants over thousands of hands through the server on PostgreSQL (``many_hands.py``)."""

from __future__ import annotations

import pytest

from many_hands import thousands_of_hands_keep_every_chip
from server_harness import db_url, pg_database

__all__ = ["db_url", "pg_database"]


@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
def test_thousands_of_hands_through_the_server_keep_every_chip(db_url: str) -> None:
    thousands_of_hands_keep_every_chip(db_url)
