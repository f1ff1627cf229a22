"""The measured table that orders the test files names only files that exist, and orders them."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import pytest

from file_order import DURATIONS, file_seconds, pytest_collection_modifyitems


def test_the_durations_table_names_existing_test_files() -> None:
    seconds = file_seconds()
    assert DURATIONS.exists() and seconds
    missing = [name for name in seconds if not (DURATIONS.parent / name).exists()]
    assert not missing, f"{DURATIONS.name} names files that are gone (pytest --write-durations): {missing}"


class FakeItem:
    """What the ordering reads of a test: its file."""

    def __init__(self, name: str, test: str) -> None:
        self.path = Path(name)
        self.test = test


def test_the_longest_files_come_first_and_each_files_tests_stay_in_order() -> None:
    seconds = file_seconds()
    longest, second = list(seconds)[:2]
    items = [FakeItem("test_unmeasured.py", "a"), FakeItem(second, "b"), FakeItem(longest, "c"),
             FakeItem(longest, "d"), FakeItem("test_unmeasured.py", "e")]
    pytest_collection_modifyitems(cast(list[pytest.Item], items))
    assert [i.test for i in items] == ["c", "d", "b", "a", "e"]
    assert seconds[longest] >= seconds[second] > 0
