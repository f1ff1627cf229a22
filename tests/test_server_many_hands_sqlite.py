"""The chips' invariants over thousands of hands through the server on SQLite (``many_hands.py``)."""

from __future__ import annotations

import pytest

from many_hands import thousands_of_hands_keep_every_chip
from server_harness import db_url

__all__ = ["db_url"]


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_thousands_of_hands_through_the_server_keep_every_chip(db_url: str) -> None:
    thousands_of_hands_keep_every_chip(db_url)
