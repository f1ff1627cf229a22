"""The hand-analysis tables ship with the package: exactly what the generator makes, read on first use."""

from __future__ import annotations

import os
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

import chuanma
from chuanma.analysis import is_win, shanten, tables
from chuanma.analysis.tables import Tables, build_tables
from chuanma.errors import TileCountError


@pytest.fixture(scope="module")
def built() -> Tables:
    return build_tables()


def test_shipped_tables_are_what_the_generator_makes(built: Tables) -> None:
    """A full regeneration, compared byte for byte with the shipped file's content: a stale file fails."""
    assert tables.shipped_data() == tables.encode(built)


def test_reading_the_shipped_file_gives_the_generated_tables(built: Tables) -> None:
    shipped = tables.tables()
    for name in ("suit", "honor"):
        ours, theirs = getattr(shipped, name), getattr(built, name)
        assert ours.kinds == theirs.kinds
        assert np.array_equal(ours.class_dist, theirs.class_dist)
        assert np.array_equal(ours.packed, theirs.packed)
    for name in ("join2", "join3", "join4", "final"):
        assert np.array_equal(getattr(shipped, name), getattr(built, name))


def test_suit_vectors_no_hand_can_hold_pack_to_zero(built: Tables) -> None:
    """Only the 405,350 suit vectors of at most 14 tiles are stored; the others are 0."""
    holdable = tables.holdable(9)
    assert holdable.sum() == 405_350
    assert not built.suit.packed[~holdable].any()
    assert built.suit.packed[holdable].all()
    assert not built.honor.packed[~tables.holdable(7)].any()


def test_a_damaged_tables_file_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def damaged() -> bytes:
        return zlib.decompress(b"not zlib data")

    monkeypatch.setattr(tables, "shipped_data", damaged)
    with pytest.raises(RuntimeError, match=r"tables \(tables.bin in chuanma.analysis\) are missing or damaged"):
        tables.tables.__wrapped__()


def test_tables_data_of_another_format_is_refused() -> None:
    with pytest.raises(ValueError, match="format 'other'"):
        tables.decode(b'{"format": "other", "arrays": []}\n')


def test_a_suit_of_more_than_fourteen_tiles_is_refused_and_not_a_win() -> None:
    counts = [2] * 8 + [0] * 26  # 16 tiles of one suit
    with pytest.raises(TileCountError, match="more than 14 tiles of one suit"):
        shanten(counts)
    assert not is_win(bytes(counts))
    assert shanten([2] * 7 + [0] * 27) == -1  # the same suit at 14 tiles still reads


CHILD = """
import chuanma.analysis as analysis
from chuanma.analysis import tables
from chuanma.tiles import format_tiles, parse_tiles, to_counts

loaded_at_import = tables.tables.cache_info().currsize
counts = to_counts(parse_tiles("1112345678999m"))
print(loaded_at_import, analysis.shanten(counts), format_tiles(analysis.waits(counts)),
      analysis.is_win(to_counts(parse_tiles("11123456789999m"))), tables.tables.cache_info().currsize)
"""


def test_import_loads_nothing_and_needs_no_writable_home(tmp_path: Path) -> None:
    """In a fresh process whose home is an empty read-only directory, importing the analysis
    loads no table, the first calls load them and answer, and nothing is written."""
    home = tmp_path / "home"
    home.mkdir()
    home.chmod(0o555)
    src = str(Path(chuanma.__file__).resolve().parent.parent)
    env = {k: v for k, v in os.environ.items() if k != "XDG_CACHE_HOME"}
    env.update(HOME=str(home), PYTHONPATH=os.pathsep.join([src, env.get("PYTHONPATH", "")]),
               PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, "-c", CHILD], env=env, cwd=home, capture_output=True, text=True,
                          check=False)
    home.chmod(0o755)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["0", "0", "123456789m", "True", "1"]
    assert list(home.iterdir()) == []
