"""Every refusal of the look-ahead evaluator and the batch functions: a change or a hand that is no
hand raises the project's error and reads or writes nothing out of bounds. The calls run in a child
process, so that a crash fails the test instead of ending the test run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import chuanma
from chuanma import _core
from chuanma.analysis import is_win_batch, shanten_batch
from chuanma.errors import TileCountError

CHILD = """
from chuanma.analysis import shanten
from chuanma.analysis.incremental import HandEval, useful_tiles
from chuanma.errors import ChuanmaError
from chuanma.tiles import parse_tiles, to_counts

def counts(text, kinds=27):
    return to_counts(parse_tiles(text))[:kinds]

thirteen = counts("1112345678999m")          # 1m held three times, no p or s
fourteen = counts("11112345678999m")         # 1m held four times
ev13, ev14 = HandEval(thirteen, None), HandEval(fourteen, None)
cases = {
    "discard a tile not held": lambda: ev13.without(20),
    "discard a tile past the kinds": lambda: ev13.without(27),
    "discard a negative tile": lambda: ev13.without(-1),
    "draw a tile past the kinds": lambda: ev13.with_(36),
    "draw a fifth copy": lambda: ev13.with_(0) and HandEval(counts("1111234567899m"), None).with_(0),
    "draw a fifteenth tile": lambda: ev14.with_(4),
    "swap in a fifth copy": lambda: ev14.swap(4, 0),
    "swap out a tile not held": lambda: ev14.swap(20, 1),
    "swap in a tile past the kinds": lambda: ev14.swap(0, 99),
    "useful tiles of a discard not held": lambda: ev14.useful_tiles(20, 0),
    "useful copies of a discard past the kinds": lambda: ev14.useful(40, 0, [4] * 27),
    "a hand of 42 tiles": lambda: HandEval([4, 4, 4, 2, 0, 0, 0, 0, 0] * 3, None),
    "a hand of 15 tiles": lambda: HandEval(counts("1111222233334m44p"), None),
    "a hand of 12 tiles": lambda: HandEval(counts("111222333444m"), None),
    "16 honours": lambda: HandEval([0] * 27 + [4, 4, 4, 4, 0, 0, 0], None),
    "shanten of 16 honours": lambda: shanten([0] * 27 + [4, 4, 4, 4, 0, 0, 0]),
    "useful tiles of 19 tiles": lambda: useful_tiles(counts("1111222233334m445566p"), None),
    "useful tiles of 16 tiles": lambda: useful_tiles(counts("1111222233334m444p"), None),
}
for name, call in cases.items():
    try:
        print(name, "->", call())
    except ChuanmaError as e:
        print(name, "->", f"{type(e).__name__}: {e}")
print("fine:", ev14.swap(0, 0), ev14.without(0), ev13.with_(8), ev14.useful_tiles(0, ev14.without(0)))
"""


def test_every_change_that_is_no_hand_is_refused(tmp_path: Path) -> None:
    src = str(Path(chuanma.__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([src, os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-c", CHILD], env=env, cwd=tmp_path, capture_output=True, text=True,
                          check=False, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[:-1] == [
        "discard a tile not held -> TileCountError: tile 20 is not held",
        "discard a tile past the kinds -> TileCountError: tile 27 is not one of the 27 kinds",
        "discard a negative tile -> TileCountError: tile -1 is not one of the 27 kinds",
        "draw a tile past the kinds -> TileCountError: tile 36 is not one of the 27 kinds",
        "draw a fifth copy -> TileCountError: tile 0 is held four times",
        "draw a fifteenth tile -> HandSizeError: a hand holds at most 14 tiles, got 15",
        "swap in a fifth copy -> TileCountError: tile 0 is held four times",
        "swap out a tile not held -> TileCountError: tile 20 is not held",
        "swap in a tile past the kinds -> TileCountError: tile 99 is not one of the 27 kinds",
        "useful tiles of a discard not held -> TileCountError: tile 20 is not held",
        "useful copies of a discard past the kinds -> TileCountError: tile 40 is not one of the 27 kinds",
        "a hand of 42 tiles -> HandSizeError: HandEval needs 1, 2, 4, 5, 7, 8, 10, 11, 13, 14"
        " concealed tiles, got 42",
        "a hand of 15 tiles -> HandSizeError: HandEval needs 1, 2, 4, 5, 7, 8, 10, 11, 13, 14"
        " concealed tiles, got 15",
        "a hand of 12 tiles -> HandSizeError: HandEval needs 1, 2, 4, 5, 7, 8, 10, 11, 13, 14"
        " concealed tiles, got 12",
        "16 honours -> TileCountError: hand has more than 14 tiles of one suit or of the honours",
        "shanten of 16 honours -> TileCountError: hand has more than 14 tiles of one suit or of the honours",
        "useful tiles of 19 tiles -> HandSizeError: useful tiles needs 1, 4, 7, 10, 13 concealed tiles, got 19",
        "useful tiles of 16 tiles -> HandSizeError: useful tiles needs 1, 4, 7, 10, 13 concealed tiles, got 16",
    ]
    # the changes that are hands still answer: 1112345678999m is ready (9 waits), so is any discard
    # from 11112345678999m but of 1m, 5m or 9m
    assert lines[-1].startswith("fine: -1 0 -1 ")


@pytest.mark.parametrize("kinds", [27, 34])
def test_batch_functions_check_the_lengths_of_their_arrays(kinds: int) -> None:
    hands = np.zeros((3, kinds), np.uint8)
    hands[:, 0] = 2
    with pytest.raises(ValueError, match="out must have one entry per hand"):
        _core.is_win_batch(hands, np.empty(2, np.bool_))
    with pytest.raises(ValueError, match="out must have one entry per hand"):
        _core.shanten_batch(hands, np.full(3, -1, np.int8), np.empty(2, np.int8))
    with pytest.raises(ValueError, match="voids must have one entry per hand"):
        _core.shanten_batch(hands, np.full(2, -1, np.int8), np.empty(3, np.int8))
    with pytest.raises(ValueError, match="hands must have 27 or 34 columns"):
        _core.is_win_batch(np.zeros((3, 20), np.uint8), np.empty(3, np.bool_))
    out = np.empty(3, np.int8)
    assert _core.shanten_batch(hands, np.full(3, -1, np.int8), out) == -1 and out.tolist() == [-1] * 3


def test_batch_functions_refuse_counts_that_are_not_integers() -> None:
    hands = np.zeros((1, 27))
    hands[0, :2] = 1.5
    with pytest.raises(TileCountError, match="hand counts must be integers, got an array of float64"):
        shanten_batch(hands)
    with pytest.raises(TileCountError, match="must be integers"):
        is_win_batch(hands.astype(np.float32))
    assert shanten_batch(hands.astype(np.int64)).tolist() == shanten_batch(hands.astype(np.uint8)).tolist()
