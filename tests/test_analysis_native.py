"""The compiled hand analysis (chuanma._core, through the chuanma.analysis facade) against the
brute-force reference of the tests, on a fixed-seed sample of hands of every size 0-14: 27 and 34
kinds, walls rich in the 十三幺 kinds, seven-pairs shapes, tiles held four times, voids; its
refusals; its stubs; and what importing it costs."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import chuanma
from analysis_reference import reference_is_win, reference_shanten, reference_waits
from chuanma import _core
from chuanma.analysis import (
    is_win,
    shanten,
    shanten_seven_pairs,
    shanten_standard,
    shanten_thirteen_orphans,
    waits,
)
from chuanma.errors import HandSizeError, TileCountError
from chuanma.melds import Meld
from chuanma.tiles import NUM_KINDS, SUITS, parse_tiles, to_counts
from conftest import ORPHAN_KINDS


def _hand(rng: random.Random, size: int, kinds: int) -> list[int]:
    """A random hand of ``size`` tiles of one of four shapes: any tiles, pairs and fours (seven
    pairs), 十三幺 kinds (34 kinds), or few kinds (triplets and fours)."""
    shape = rng.randrange(4)
    counts = [0] * kinds
    if shape == 1:
        while sum(counts) + 2 <= size:
            t = rng.randrange(kinds)
            if counts[t] <= 2:
                counts[t] += 2
        if sum(counts) < size:
            counts[next(t for t in range(kinds) if counts[t] < 4)] += 1
        return counts
    wall = [t for t in range(kinds) for _ in range(4)]
    if shape == 2 and kinds == NUM_KINDS:
        others = [t for t in wall if t not in ORPHAN_KINDS]
        wall = [t for t in ORPHAN_KINDS for _ in range(4)] + rng.sample(others, 10)
    if shape == 3:
        few = rng.sample(range(kinds), 5)
        wall = [t for t in few for _ in range(4)]
    for t in rng.sample(wall, min(size, len(wall))):
        counts[t] += 1
    return counts


def _sample(seed: int, count: int) -> list[tuple[list[int], int]]:
    """Hands and voids (a suit index or -1; 34-kind hands mostly none)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        kinds = rng.choice((27, NUM_KINDS))
        void = rng.choice((-1, 0, 1, 2)) if kinds == 27 or rng.random() < 0.2 else -1
        out.append((_hand(rng, rng.randrange(15), kinds), void))
    return out


def _full(counts: list[int]) -> list[int]:
    return counts + [0] * (NUM_KINDS - len(counts))


@pytest.mark.parametrize("seed", range(3))
def test_the_core_agrees_with_the_brute_force_reference(seed: int) -> None:
    for counts, vi in _sample(seed, 400):
        void = SUITS[vi] if vi >= 0 else None
        n = sum(counts)
        assert is_win(counts) == is_win(bytes(counts)) == reference_is_win(counts), counts
        if n % 3 == 0:
            with pytest.raises(HandSizeError, match=f"shanten needs 1, 2, 4, .* concealed tiles, got {n}"):
                shanten(counts, void)
            continue
        assert shanten(counts, void) == reference_shanten(_full(counts), vi), (counts, void)
        assert shanten_standard(counts, void) >= shanten(counts, void)
        if n in (13, 14):
            assert min(shanten_standard(counts, void), shanten_seven_pairs(counts, void),
                       shanten_thirteen_orphans(counts) if vi < 0 else 99) == shanten(counts, void)
        if n % 3 == 1:
            expected = [] if vi >= 0 and any(counts[9 * vi : 9 * vi + 9]) else reference_waits(counts)
            assert waits(counts, (), void) == expected, (counts, void)


def test_a_meld_holding_the_other_copies_takes_the_tile_out_of_the_waits() -> None:
    counts = to_counts(parse_tiles("1m2m3m4m"))
    assert waits(counts) == [0, 3]
    assert waits(counts, [Meld("pong", 3)]) == [0]
    assert waits(counts, [Meld("pong", 0)]) == [3]


def test_refusals_name_the_bad_input() -> None:
    with pytest.raises(TileCountError, match="more than 14 tiles of one suit"):
        shanten([2] * 8 + [0] * 26)
    with pytest.raises(TileCountError, match="counts must be 0-4; tile 1m has 5"):
        waits([5] + [0] * 26)
    with pytest.raises(TileCountError, match="counts must list 27 or 34 tiles, got 3"):
        is_win([0, 0, 2])
    with pytest.raises(HandSizeError, match="seven pairs needs 13 or 14 concealed tiles, got 2"):
        shanten_seven_pairs([2] + [0] * 26)
    with pytest.raises(HandSizeError, match="thirteen orphans needs 13 or 14 concealed tiles, got 2"):
        shanten_thirteen_orphans([2] + [0] * 33)
    with pytest.raises(HandSizeError, match="waits needs 1, 4, 7, 10, 13 concealed tiles, got 2"):
        waits([2] + [0] * 26)
    with pytest.raises(ValueError, match="void must be one of m, p, s, got 'x'"):
        shanten([2] + [0] * 26, "x")
    # bytes are taken as packed: a bad string is no win rather than an error
    assert not is_win(bytes([2] * 8 + [0] * 26)) and not is_win(bytes([5] * 34)) and not is_win(b"\x02")
    orphans = bytes(to_counts(parse_tiles("19m19p19s12345677z")))
    assert is_win(orphans) and not is_win(orphans + bytes(1)) and not is_win(orphans[:27])


def test_the_stubs_are_what_stubgen_writes_for_the_module(tmp_path: Path) -> None:
    """The shipped ``_core.pyi`` (what mypy reads) describes the built module exactly."""
    stubgen = pytest.importorskip("nanobind.stubgen")
    out = tmp_path / "_core.pyi"
    stubgen.main(["-q", "-P", "-m", "chuanma._core", "-o", str(out)])
    assert out.read_text() == (Path(chuanma.__file__).parent / "_core.pyi").read_text()


CHILD = """
import sys
import chuanma.analysis as analysis
from chuanma.tiles import format_tiles, parse_tiles, to_counts

counts = to_counts(parse_tiles("1112345678999m"))
print("numpy" in sys.modules, analysis.shanten(counts), format_tiles(analysis.waits(counts)),
      analysis.is_win(to_counts(parse_tiles("11123456789999m"))), "numpy" in sys.modules,
      analysis.shanten_batch([counts]).tolist(), "numpy" in sys.modules)
"""


def test_import_needs_no_numpy_and_no_writable_home(tmp_path: Path) -> None:
    """In a fresh process whose home is an empty read-only directory, the analysis imports and
    answers without NumPy, the batch functions bring NumPy on first use, and nothing is written."""
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
    assert proc.stdout.split() == ["False", "0", "123456789m", "True", "False", "[0]", "True"]
    assert list(home.iterdir()) == []


def test_the_facade_calls_the_core() -> None:
    """One implementation: the analysis answers what the compiled module answers."""
    counts = bytes(to_counts(parse_tiles("1112345678999m")))
    assert _core.shanten(counts, -1) == shanten(counts) == 0
    assert _core.waits(counts, -1, []) == waits(counts)
