"""The derivation of a deal: the FAIRNESS worked example, pinned and cross-checked."""

from __future__ import annotations

import hashlib
import hmac
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chuanma.fairness import (
    DIRECTIONS,
    RandomStream,
    commitment,
    derive_deal,
    join_client_seeds,
)
from chuanma.tiles import ALL_TILES, SICHUAN_TILES, TileSet, tile_str
from conftest import examples

# ---------------------------------------------------------------------------------------------
# A second, deliberately naive implementation written only from the published algorithm. It
# imports nothing from chuanma.


def naive_deal(
    server_seed: bytes, seeds: list[str], nonce: int, n_tiles: int = 108
) -> tuple[int, str, list[str]]:
    client_seed = "|".join(seeds)
    stream = b""
    state = {"r": 0, "pos": 0}

    def take4() -> int:
        nonlocal stream
        while state["pos"] + 4 > len(stream):
            msg = (client_seed + ":" + str(nonce) + ":" + str(state["r"])).encode("utf-8")
            stream += hmac.new(server_seed, msg, hashlib.sha256).digest()
            state["r"] += 1
        x = int.from_bytes(stream[state["pos"] : state["pos"] + 4], "big")
        state["pos"] += 4
        return x

    def uniform(n: int) -> int:
        limit = 2**32 - (2**32 % n)
        while True:
            x = take4()
            if x < limit:
                return x % n

    dealer = uniform(4)
    direction = ["to_next", "opposite", "to_previous"][uniform(3)]
    wall = [t // 4 for t in range(n_tiles)]
    for i in range(n_tiles - 1, 0, -1):
        j = uniform(i + 1)
        wall[i], wall[j] = wall[j], wall[i]
    names = [str(t % 9 + 1) + "mpsz"[t // 9] for t in wall]
    return dealer, direction, names


# ---------------------------------------------------------------------------------------------

EXAMPLE_SEED = bytes(range(32))
EXAMPLE_CLIENT = ["a", "b", "c", "d"]
# Pinned from this project's code and from naive_deal above (they agree; see the tests below).
EXAMPLE_DEALER = 2
EXAMPLE_DIRECTION = "opposite"
EXAMPLE_FIRST_20 = [
    "9s", "1m", "8p", "2m", "6p", "3s", "4p", "9p", "6p", "4s", "8s", "5s",
    "8m", "7m", "9m", "7p", "6m", "2m", "8s", "8m",
]


def test_worked_example_pinned() -> None:
    deal = derive_deal(EXAMPLE_SEED, join_client_seeds(EXAMPLE_CLIENT), 0, SICHUAN_TILES)
    assert deal.dealer == EXAMPLE_DEALER
    assert deal.direction == EXAMPLE_DIRECTION
    assert deal.wall_strings()[:20] == EXAMPLE_FIRST_20


def test_worked_example_matches_naive_implementation() -> None:
    dealer, direction, wall = naive_deal(EXAMPLE_SEED, EXAMPLE_CLIENT, 0)
    assert (dealer, direction, wall[:20]) == (EXAMPLE_DEALER, EXAMPLE_DIRECTION, EXAMPLE_FIRST_20)
    deal = derive_deal(EXAMPLE_SEED, "a|b|c|d", 0, SICHUAN_TILES)
    assert deal.wall_strings() == wall


DOC = Path(__file__).resolve().parent.parent / "docs" / "fairness.md"


def documented_walls() -> list[str]:
    """The text of every wall printed in docs/fairness.md (the code blocks after "The full wall,
    in draw order"), in the page's order: the 108-tile example, then the 136-tile one."""
    return re.findall(r"The full wall, in draw order:\n\n```\n(.*?)\n```", DOC.read_text(encoding="utf-8"),
                      flags=re.S)


def wall_text(wall: list[str], width: int) -> str:
    """A wall as the page prints it: 18 tiles a row after the row's first index."""
    return "\n".join(f"{start:>{width}}  " + " ".join(wall[start : start + 18])
                     for start in range(0, len(wall), 18))


@pytest.mark.parametrize(("index", "size", "width"), [(0, 108, 2), (1, 136, 3)])
def test_documented_walls_are_the_code_s_to_the_character(index: int, size: int, width: int) -> None:
    """Both worked examples (seeds ``00…1f``, ``a,b,c,d``, nonce 0): the 108-tile wall and the
    136-tile wall of 大众麻将, as printed in docs/fairness.md, equal the library's derivation and
    the naive implementation above, character for character."""
    deal = derive_deal(EXAMPLE_SEED, "a|b|c|d", 0, ALL_TILES if size == 136 else SICHUAN_TILES)
    dealer, direction, naive = naive_deal(EXAMPLE_SEED, EXAMPLE_CLIENT, 0, size)
    assert deal.wall_strings() == naive and len(naive) == size
    assert (deal.dealer, deal.direction) == (dealer, direction) == (EXAMPLE_DEALER, EXAMPLE_DIRECTION)
    assert documented_walls()[index] == wall_text(naive, width)


def test_worked_example_136_first_swap() -> None:
    """The page's third word: ``j`` for ``i = 135`` is 0xacd3ea9b mod 136 = 75 (not rejected:
    the limit for 136 is 2**32 - 2**32 % 136 = 4294967176)."""
    stream = RandomStream(EXAMPLE_SEED, "a|b|c|d", 0)
    words = [stream.next_word() for _ in range(3)]
    assert words[2] == 0xACD3EA9B < 2**32 - 2**32 % 136 == 4294967176
    assert words[2] % 136 == 75
    text = DOC.read_text(encoding="utf-8")
    assert "2899569307 mod 136 = **75**" in text and "n = 136 is 4294967176" in text


def test_worked_example_first_message_and_commitment() -> None:
    assert join_client_seeds(EXAMPLE_CLIENT) + ":0:0" == "a|b|c|d:0:0"
    assert commitment(EXAMPLE_SEED) == hashlib.sha256(bytes.fromhex(
        "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    )).hexdigest()
    first = hmac.new(EXAMPLE_SEED, b"a|b|c|d:0:0", hashlib.sha256).digest()
    stream = RandomStream(EXAMPLE_SEED, "a|b|c|d", 0)
    assert [stream.next_word() for _ in range(8)] == [
        int.from_bytes(first[i : i + 4], "big") for i in range(0, 32, 4)
    ]
    # dealer = uniform(4) is the first word mod 4 unless that word was rejected
    assert int.from_bytes(first[:4], "big") % 4 == EXAMPLE_DEALER


seed_text = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E,
                                           exclude_characters="|:"), min_size=1, max_size=64)


@settings(max_examples=examples(40), deadline=None)
@given(
    server_seed=st.binary(min_size=1, max_size=64),
    seeds=st.lists(seed_text, min_size=4, max_size=4),
    nonce=st.integers(min_value=0, max_value=10**12),
    tile_set=st.sampled_from([SICHUAN_TILES, ALL_TILES]),
)
def test_library_matches_naive_implementation(
    server_seed: bytes, seeds: list[str], nonce: int, tile_set: TileSet
) -> None:
    size = tile_set.size
    deal = derive_deal(server_seed, join_client_seeds(seeds), nonce, tile_set)
    assert (deal.dealer, deal.direction, deal.wall_strings()) == naive_deal(
        server_seed, seeds, nonce, size
    )


@settings(max_examples=examples(25), deadline=None)
@given(server_seed=st.binary(min_size=32, max_size=32), nonce=st.integers(0, 1000))
def test_wall_is_a_permutation_of_the_tile_set(server_seed: bytes, nonce: int) -> None:
    for tile_set in (SICHUAN_TILES, ALL_TILES):
        deal = derive_deal(server_seed, "a|b|c|d", nonce, tile_set)
        assert sorted(deal.wall) == tile_set.wall()
        assert 0 <= deal.dealer < 4
        assert deal.direction in DIRECTIONS
        assert len(deal.wall_strings()) == len(deal.wall) == tile_set.size
        assert deal.wall_strings()[0] == tile_str(deal.wall[0])


class _ScriptedStream(RandomStream):
    """A stream whose words are given, to exercise rejection sampling exactly."""

    def __init__(self, words: list[int]) -> None:
        super().__init__(b"k", "s", 0)
        self._script = list(words)

    def next_word(self) -> int:
        return self._script.pop(0)


def test_uniform_rejects_words_at_or_above_the_limit() -> None:
    n = 3
    limit = 2**32 - 2**32 % n  # 4294967295 = 2**32 - 1
    s = _ScriptedStream([limit, 2**32 - 1, limit - 1, 7])
    assert s.uniform(n) == (limit - 1) % n
    assert s.uniform(n) == 7 % n


def test_uniform_refuses_bad_n() -> None:
    s = RandomStream(b"k", "s", 0)
    for bad in (0, -1, 2**32 + 1):
        with pytest.raises(ValueError, match="uniform"):
            s.uniform(bad)
    assert s.uniform(1) == 0


def test_nonce_must_be_a_non_negative_integer() -> None:
    with pytest.raises(ValueError, match="nonce"):
        RandomStream(b"k", "s", -1)


def test_stream_crosses_block_boundaries() -> None:
    s = RandomStream(EXAMPLE_SEED, "a|b|c|d", 3)
    words = [s.next_word() for _ in range(20)]
    blocks = b"".join(
        hmac.new(EXAMPLE_SEED, f"a|b|c|d:3:{r}".encode(), hashlib.sha256).digest() for r in range(3)
    )
    assert words == [int.from_bytes(blocks[i : i + 4], "big") for i in range(0, 80, 4)]
    assert s.blocks_used == 3


def test_stream_shuffle_draws_exactly_what_uniform_draws() -> None:
    """The inline Fisher–Yates of RandomStream.shuffle equals shuffled_indices over uniform()."""
    from chuanma.fairness import RandomStream, shuffled_indices

    for nonce in range(50):
        a = RandomStream(bytes(range(32)), "a|b|c|d", nonce)
        b = RandomStream(bytes(range(32)), "a|b|c|d", nonce)
        items = list(range(136 if nonce % 2 else 108))
        a.shuffle(items)
        assert items == shuffled_indices(len(items), b.uniform)
        assert a.uniform(1000) == b.uniform(1000)  # and both streams stand at the same place
