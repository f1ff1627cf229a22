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
import chuanma.analysis
from chuanma.analysis import datafile, is_win, lookup, packing, shanten, tables
from chuanma.analysis.tables import Tables, build_tables
from chuanma.errors import TileCountError
from chuanma.tiles import parse_tiles, to_counts


@pytest.fixture(scope="module")
def built() -> Tables:
    return build_tables()


def test_shipped_tables_are_what_the_generator_makes(built: Tables, tmp_path: Path) -> None:
    """A full regeneration, written as the generator script writes it and compared byte for byte
    with the shipped file's content: a stale file fails."""
    path = tmp_path / datafile.DATA_FILE
    assert tables.write_data(path, built) == path.stat().st_size < 1_000_000
    assert zlib.decompress(path.read_bytes()) == datafile.shipped_data()


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


def test_the_single_hand_lookup_reads_every_vector_as_the_tables_give_it() -> None:
    """``part_value`` (no NumPy: a vector's place among the stored ones) against the full tables."""
    lookup.load()
    full = tables.tables()
    for kinds, st in ((9, full.suit), (7, full.honor)):
        vectors = np.indices((5,) * kinds).reshape(kinds, -1).T
        keep = tables.holdable(kinds)
        found = [lookup.part_value(bytes(v), kinds == 7) for v in vectors[keep].astype(np.uint8)]
        assert found == st.packed[keep].tolist()
        assert lookup.part_value(bytes(vectors[~keep][0].astype(np.uint8)), kinds == 7) is None
    assert lookup.part_value(b"", True) == full.honor.packed[0]
    assert lookup.part_value(bytes([5] + [0] * 8), False) is None
    assert lookup.part_value(bytes(8), False) is None


def test_the_win_check_lists_every_part_a_winning_hand_can_hold_and_no_other() -> None:
    """The shipped winning parts against the full tables, read field by field: a holdable vector
    is listed exactly when it is complete (with or without a pair) or all even, with those two
    fields and its size."""
    full = tables.tables()
    for honor, st in ((False, full.suit), (True, full.honor)):
        vectors = np.indices((5,) * st.kinds).reshape(st.kinds, -1).T
        keep = tables.holdable(st.kinds)
        expected = {}
        for v, p in zip(vectors[keep].astype(np.uint8), st.packed[keep].tolist(), strict=True):
            win, even = (p >> packing.F_WIN) & packing.FIELD, (p >> packing.F_EVEN) & packing.FIELD
            if win in (1, 4) or even == 1:
                expected[bytes(v)] = win << packing.F_WIN | even << packing.F_EVEN | int(v.sum()) << packing.F_SIZE
        assert lookup.win_parts(honor) == expected
        assert 0 < len(expected) < keep.sum() // 10
    suits = lookup.win_parts(honor=False)
    assert bytes([1, 1, 1, 0, 0, 0, 0, 0, 0]) in suits and bytes([2, 0, 0, 0, 0, 0, 0, 0, 0]) in suits
    assert bytes([1, 1, 0, 0, 0, 0, 0, 0, 0]) not in suits
    assert suits[bytes([2, 0, 4, 0, 0, 0, 0, 0, 2])] >> packing.F_EVEN & packing.FIELD == 1  # seven pairs


def test_a_win_check_of_bytes_of_another_length_is_no_win() -> None:
    """Counts as ``bytes`` are taken as :func:`pack_counts` makes them; a longer string holding a
    十三幺 in its first 34 counts is still no win."""
    orphans = bytes(to_counts(parse_tiles("19m19p19s12345677z")))
    assert is_win(orphans) and not is_win(orphans + bytes(1)) and not is_win(orphans[:27])


def test_the_package_names_only_what_it_has() -> None:
    with pytest.raises(AttributeError, match="no attribute 'shanten_fast'"):
        _ = chuanma.analysis.shanten_fast  # type: ignore[attr-defined]


def test_a_missing_tables_file_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(datafile, "DATA_FILE", "absent.bin")
    with pytest.raises(datafile.TablesDataError, match=r"tables \(absent.bin in chuanma.analysis\) are missing"):
        datafile.shipped_data()


def test_tables_data_of_another_format_is_refused() -> None:
    with pytest.raises(datafile.TablesDataError, match="format 'other'"):
        datafile.read_arrays(b'{"format": "other", "arrays": []}\n')


def test_a_suit_of_more_than_fourteen_tiles_is_refused_and_not_a_win() -> None:
    counts = [2] * 8 + [0] * 26  # 16 tiles of one suit
    with pytest.raises(TileCountError, match="more than 14 tiles of one suit"):
        shanten(counts)
    assert not is_win(bytes(counts))
    assert shanten([2] * 7 + [0] * 27) == -1  # the same suit at 14 tiles still reads


CHILD = """
import sys
import chuanma.analysis as analysis
from chuanma.analysis import datafile
from chuanma.tiles import format_tiles, parse_tiles, to_counts

loaded = datafile.shipped_arrays.cache_info().currsize, "numpy" in sys.modules
counts = to_counts(parse_tiles("1112345678999m"))
print(*loaded, analysis.shanten(counts), format_tiles(analysis.waits(counts)),
      analysis.is_win(to_counts(parse_tiles("11123456789999m"))), datafile.shipped_arrays.cache_info().currsize,
      "numpy" in sys.modules, analysis.shanten_batch([counts]).tolist(), "numpy" in sys.modules)
"""


def test_import_loads_nothing_and_needs_no_writable_home(tmp_path: Path) -> None:
    """In a fresh process whose home is an empty read-only directory, importing the analysis
    loads no table (nor NumPy), the first calls load them (still without NumPy) and answer, the
    batch functions bring NumPy on first use, and nothing is written."""
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
    assert proc.stdout.split() == ["0", "False", "0", "123456789m", "True", "1", "False", "[0]", "True"]
    assert list(home.iterdir()) == []
