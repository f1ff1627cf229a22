"""The commit–collect–deal–reveal lifecycle and client seed rules."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chuanma.errors import ChuanmaError
from chuanma.fairness import (
    ClientSeedError,
    FairHand,
    HandPhase,
    HandStateError,
    VRFKey,
    derive_deal,
    join_client_seeds,
    validate_client_seed,
    verify_record,
    vrf,
    vrf_alpha,
)
from chuanma.tiles import SICHUAN_TILES


def _seeded(hand: FairHand) -> FairHand:
    for seat, seed in enumerate("abcd"):
        hand.add_client_seed(seat, seed)
    return hand


def test_new_hand_has_a_fresh_32_byte_seed_and_its_commitment() -> None:
    a, b = FairHand.new(0, tile_set=SICHUAN_TILES), FairHand.new(0, tile_set=SICHUAN_TILES)
    assert a.commitment != b.commitment
    assert len(bytes.fromhex(a.commitment or "")) == 32
    assert a.phase is HandPhase.COLLECTING
    record = a.seeds_record()
    assert record["scheme"] == "hmac-sha256"
    assert "server_seed" not in record
    assert record["client_seeds"] == [None, None, None, None]


def test_full_lifecycle_and_reveal() -> None:
    hand = _seeded(FairHand(5, server_seed=bytes(range(32)), tile_set=SICHUAN_TILES))
    deal = hand.deal()
    assert deal == derive_deal(bytes(range(32)), "a|b|c|d", 5, SICHUAN_TILES)
    assert hand.deal() is deal  # never a second draw
    hand.mark_over()
    seed = hand.reveal()
    assert hashlib.sha256(seed).hexdigest() == hand.commitment
    record = hand.seeds_record()
    assert record == {
        "scheme": "hmac-sha256",
        "commitment": hashlib.sha256(seed).hexdigest(),
        "client_seeds": ["a", "b", "c", "d"],
        "nonce": 5,
        "server_seed": seed.hex(),
    }
    assert verify_record(hand.hand_record()).ok


def test_dealing_refused_before_four_seeds() -> None:
    hand = FairHand.new(0, tile_set=SICHUAN_TILES)
    hand.add_client_seed(0, "a")
    hand.add_client_seed(2, "c")
    with pytest.raises(HandStateError, match=r"missing seat\(s\) 1, 3"):
        hand.deal()
    assert hand.phase is HandPhase.COLLECTING


def test_seeds_refused_after_dealing_and_twice_for_a_seat() -> None:
    hand = FairHand.new(0, tile_set=SICHUAN_TILES)
    hand.add_client_seed(1, "b")
    with pytest.raises(HandStateError, match="seat 1 has already"):
        hand.add_client_seed(1, "other")
    for seat, seed in ((0, "a"), (2, "c"), (3, "d")):
        hand.add_client_seed(seat, seed)
    hand.deal()
    with pytest.raises(HandStateError, match="already dealt"):
        hand.add_client_seed(0, "late")
    with pytest.raises(HandStateError, match="seats are numbered"):
        FairHand.new(0, tile_set=SICHUAN_TILES).add_client_seed(4, "x")


def test_reveal_refused_before_the_hand_is_over() -> None:
    hand = FairHand.new(0, tile_set=SICHUAN_TILES)
    with pytest.raises(HandStateError, match="secret until the hand is over"):
        hand.reveal()
    with pytest.raises(HandStateError, match="not been dealt"):
        hand.mark_over()
    _seeded(hand).deal()
    with pytest.raises(HandStateError, match="secret until the hand is over"):
        hand.reveal()
    assert "server_seed" not in hand.seeds_record()
    hand.mark_over()
    assert len(hand.reveal()) == 32


def test_vrf_hand_uses_beta_as_server_seed_and_hides_the_proof_until_over() -> None:
    key = VRFKey(bytes(range(32)))
    hand = _seeded(FairHand.with_vrf(key, "t-9", 4, tile_set=SICHUAN_TILES))
    deal = hand.deal()
    assert "proof" not in hand.seeds_record()
    hand.mark_over()
    pi = hand.reveal()
    beta = vrf.verify(key.public_key, vrf_alpha("t-9", 4, "a|b|c|d"), pi)
    assert beta is not None and len(beta) == 64
    assert deal == derive_deal(beta, "a|b|c|d", 4, SICHUAN_TILES)
    record = hand.seeds_record()
    assert record == {
        "scheme": "ecvrf-edwards25519-sha512-tai",
        "public_key": key.public_key.hex(),
        "table_id": "t-9",
        "client_seeds": ["a", "b", "c", "d"],
        "nonce": 4,
        "proof": pi.hex(),
    }
    assert hand.commitment is None


def test_constructor_refuses_inconsistent_arguments() -> None:
    with pytest.raises(HandStateError):
        FairHand(0, tile_set=SICHUAN_TILES)
    with pytest.raises(HandStateError, match="table id"):
        FairHand(0, vrf_key=VRFKey(bytes(32)), tile_set=SICHUAN_TILES)
    with pytest.raises(HandStateError, match="nonce"):
        FairHand(-1, server_seed=bytes(32), tile_set=SICHUAN_TILES)


@pytest.mark.parametrize(
    ("seed", "message"),
    [
        ("", "cannot be empty"),
        ("x" * 65, "at most 64 characters"),
        ("a|b", r"cannot contain '\|'"),
        ("a:b", "cannot contain ':'"),
        ("tab\there", "printable ASCII"),
        ("麻将", "printable ASCII"),
        ("é", "printable ASCII"),
    ],
)
def test_bad_client_seeds_are_refused_with_a_message(seed: str, message: str) -> None:
    with pytest.raises(ClientSeedError, match=message):
        validate_client_seed(seed)
    hand = FairHand.new(0, tile_set=SICHUAN_TILES)
    with pytest.raises(ClientSeedError, match=message):
        hand.add_client_seed(0, seed)
    hand.add_client_seed(0, "fine")  # a refused seed does not take the seat


def test_client_seed_errors_are_value_errors_of_the_library() -> None:
    with pytest.raises(ValueError):
        validate_client_seed(12)
    assert issubclass(ClientSeedError, ChuanmaError)
    with pytest.raises(ClientSeedError, match="exactly 4"):
        join_client_seeds(["a", "b", "c"])


@given(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E,
                                      exclude_characters="|:"), min_size=1, max_size=64))
def test_every_valid_seed_is_accepted(seed: str) -> None:
    assert validate_client_seed(seed) == seed
    assert join_client_seeds([seed] * 4).split("|") == [seed] * 4
