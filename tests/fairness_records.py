"""Genuine and tampered hand records shared by the fairness tests."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from functools import cache
from typing import Any

from chuanma.engine.game import Game
from chuanma.engine.record import replay
from chuanma.fairness import FairHand, VRFKey, sign_record, verify_record
from chuanma.fairness.keys import signing_key_of
from chuanma.fairness.signing import SIGNATURE_FIELD
from chuanma.rules import RuleSet
from chuanma.tiles import ALL_TILES, SICHUAN_TILES

VRF_SECRET = bytes(range(100, 132))
SERVER_SEED = bytes.fromhex("5ca1ab1e" * 8)
CLIENT_SEEDS = ["alice-7f3a", "bob 42", "carol~x", "dave_0"]
SEEDS = ["north", "east", "south", "west"]


def _finish(hand: FairHand) -> dict[str, Any]:
    for seat, seed in enumerate(CLIENT_SEEDS):
        hand.add_client_seed(seat, seed)
    hand.deal()
    hand.mark_over()
    return hand.hand_record()


def hmac_record() -> dict[str, Any]:
    return _finish(FairHand(7, server_seed=SERVER_SEED, tile_set=SICHUAN_TILES))


def vrf_record(nonce: int = 7, table_id: str = "table-12") -> dict[str, Any]:
    return _finish(FairHand.with_vrf(VRFKey(VRF_SECRET), table_id, nonce, tile_set=SICHUAN_TILES))


def hmac_record_136() -> dict[str, Any]:
    """The deal of a 大众麻将 hand: a wall of 136 tiles."""
    return _finish(FairHand(7, server_seed=SERVER_SEED, tile_set=ALL_TILES))


def vrf_record_136() -> dict[str, Any]:
    return _finish(FairHand.with_vrf(VRFKey(VRF_SECRET), "table-12", 7, tile_set=ALL_TILES))


def played_record(seed: int = 11, preset: str = "xuezhan", server_seed: bytes | None = None) -> dict[str, Any]:
    """A whole hand dealt by the fairness protocol (on the preset's tile set) and played with
    random legal decisions; the server seed is a fresh one unless given."""
    tile_set = RuleSet.from_preset(preset).tiles
    fair = (FairHand.new(nonce=seed, tile_set=tile_set) if server_seed is None
            else FairHand(seed, server_seed=server_seed, tile_set=tile_set))
    for seat, client_seed in enumerate(SEEDS):
        fair.add_client_seed(seat, client_seed)
    deal = fair.deal()
    game = Game(RuleSet.from_preset(preset), list(deal.wall), deal.dealer, deal.direction)  # type: ignore[arg-type]
    rng = random.Random(seed)
    while not game.finished:
        seat = game.to_act()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return fair.finish(game)


@cache
def _played_text(seed: int) -> str:
    return json.dumps(played_record(seed))


def played_copy(seed: int) -> dict[str, Any]:
    """A fresh copy of ``played_record(seed)`` (played once, then copied)."""
    data: dict[str, Any] = json.loads(_played_text(seed))
    return data


def _other_tile(tile: str) -> str:
    return "1m" if tile != "1m" else "2m"


def _change_wall(r: dict[str, Any]) -> None:
    r["wall"][10] = _other_tile(r["wall"][10])


def _change_honour(r: dict[str, Any]) -> None:
    """An honour of the wall made another honour (the wall still holds 136 tiles)."""
    i = next(i for i, tile in enumerate(r["wall"]) if tile.endswith("z"))
    r["wall"][i] = "7z" if r["wall"][i] != "7z" else "1z"


def _change_client_seed(r: dict[str, Any]) -> None:
    r["seeds"]["client_seeds"][2] = "mallory"


def _wrong_server_seed(r: dict[str, Any]) -> None:
    r["seeds"]["server_seed"] = bytes(32).hex()


def _swap_seed_and_commitment(r: dict[str, Any]) -> None:
    import hashlib

    seed = bytes(range(32))
    r["seeds"]["server_seed"] = seed.hex()
    r["seeds"]["commitment"] = hashlib.sha256(seed).hexdigest()


def _change_dealer(r: dict[str, Any]) -> None:
    r["dealer"] = (r["dealer"] + 1) % 4


def _flip_proof_scalar(r: dict[str, Any]) -> None:
    pi = bytearray.fromhex(r["seeds"]["proof"])
    pi[50] ^= 0x01
    r["seeds"]["proof"] = pi.hex()


def _flip_proof_challenge(r: dict[str, Any]) -> None:
    pi = bytearray.fromhex(r["seeds"]["proof"])
    pi[35] ^= 0x80
    r["seeds"]["proof"] = pi.hex()


def _proof_for_other_alpha(r: dict[str, Any]) -> None:
    r["seeds"]["proof"] = vrf_record(nonce=8)["seeds"]["proof"]


def _proof_for_other_table(r: dict[str, Any]) -> None:
    r["seeds"]["proof"] = vrf_record(table_id="table-13")["seeds"]["proof"]


def _signed_by_dealer(r: dict[str, Any]) -> None:
    """Signed by the signing key derived from the dealer's key file (not by its VRF key)."""
    r.update(sign_record(r, signing_key_of(VRFKey(VRF_SECRET))))


Tamper = Callable[[dict[str, Any]], None]

# name -> (make genuine record, tamper, checks that must fail, checks that may also fail)
CASES: dict[str, tuple[Callable[[], dict[str, Any]], Tamper | None, set[str], set[str]]] = {
    "hmac-genuine": (hmac_record, None, set(), set()),
    "hmac-wall-tile": (hmac_record, _change_wall, {"wall"}, set()),
    "hmac-dealer": (hmac_record, _change_dealer, {"dealer"}, set()),
    "hmac-client-seed": (hmac_record, _change_client_seed, {"wall"}, {"dealer", "direction"}),
    "hmac-wrong-server-seed": (hmac_record, _wrong_server_seed, {"commitment"}, set()),
    "hmac-seed-and-commitment": (
        hmac_record,
        _swap_seed_and_commitment,
        {"wall"},
        {"dealer", "direction"},
    ),
    "vrf-genuine": (vrf_record, None, set(), set()),
    "vrf-wall-tile": (vrf_record, _change_wall, {"wall"}, set()),
    "vrf-client-seed": (vrf_record, _change_client_seed, {"proof"}, set()),
    "vrf-forged-scalar": (vrf_record, _flip_proof_scalar, {"proof"}, set()),
    "vrf-forged-challenge": (vrf_record, _flip_proof_challenge, {"proof"}, set()),
    "vrf-other-alpha": (vrf_record, _proof_for_other_alpha, {"proof"}, set()),
    "vrf-other-table": (vrf_record, _proof_for_other_table, {"proof"}, set()),
    "vrf-signed": (vrf_record, _signed_by_dealer, set(), set()),
    "hmac-136-genuine": (hmac_record_136, None, set(), set()),
    "hmac-136-honour": (hmac_record_136, _change_honour, {"wall"}, set()),
    "hmac-136-client-seed": (hmac_record_136, _change_client_seed, {"wall"}, {"dealer", "direction"}),
    "vrf-136-genuine": (vrf_record_136, None, set(), set()),
    "vrf-136-honour": (vrf_record_136, _change_honour, {"wall"}, set()),
}


def build(case: str) -> dict[str, Any]:
    make, tamper, _, _ = CASES[case]
    record = copy.deepcopy(make())
    if tamper is not None:
        tamper(record)
    return record


# ---------------------------------------------- played records changed where only the replay or the signature sees

KEY = VRFKey(bytes(range(1, 33)))
"""The dealer key that signs the mutated records."""
SEED = 4
"""With :func:`fixed_played`: a hand with a win and payments."""


def fixed_played(seed: int) -> dict[str, Any]:
    """``played_record(seed)`` dealt from :data:`SERVER_SEED`: the same record on every run."""
    return played_record(seed, server_seed=SERVER_SEED)


def _exchanged(r: dict[str, Any]) -> None:
    """Seat 0 exchanges three other tiles of its hand (a legal exchange, other play follows)."""
    first = next(i for i, d in enumerate(r["decisions"]) if "exchange" in d)
    game = replay({**r, "decisions": r["decisions"][:first]}, complete=False)
    seat = r["decisions"][first]["seat"]
    options = sorted(json.dumps(a.to_json()) for a in game.legal_actions(seat))
    other = next(o for o in options if json.loads(o) != {k: v for k, v in r["decisions"][first].items() if k != "seat"})
    r["decisions"][first] = {"seat": seat, **json.loads(other)}


def _same_payments(r: dict[str, Any]) -> None:
    """Another legal discard, found from the end of the hand, whose replay gives the same result."""
    unsigned = {k: v for k, v in r.items() if k != SIGNATURE_FIELD}
    for i in range(len(r["decisions"]) - 1, -1, -1):
        decision = r["decisions"][i]
        if "discard" not in decision:
            continue
        game = replay({**unsigned, "decisions": r["decisions"][:i]}, complete=False)
        for action in sorted(game.legal_actions(decision["seat"]), key=lambda a: json.dumps(a.to_json())):
            other = {"seat": decision["seat"], **action.to_json()}
            if "discard" not in other or other == decision:
                continue
            changed = {**unsigned, "decisions": [*r["decisions"][:i], other, *r["decisions"][i + 1:]]}
            verdict = verify_record(changed)
            if verdict["replay"].passed and verdict["result"].passed:
                r["decisions"] = changed["decisions"]
                return
    raise AssertionError("no other discard with the same payments")


def _payment(r: dict[str, Any]) -> None:
    r["result"]["payments"][0]["amount"] += 1


MUTATIONS: dict[str, Callable[[dict[str, Any]], None]] = {
    "decisions emptied": lambda r: r.__setitem__("decisions", []),
    "decisions deleted": lambda r: r.pop("decisions"),
    "base 1000": lambda r: r.__setitem__("base", 1000),
    "base deleted": lambda r: r.pop("base"),
    "payment changed": _payment,
    "exchange changed": _exchanged,
    "same payments, other play": _same_payments,
}
CANNOT_REPRODUCE = {"decisions emptied", "decisions deleted", "payment changed", "exchange changed"}
"""Mutations after which the record states a result its decisions do not give."""


def mutated_record(name: str, *, signed: bool) -> dict[str, Any]:
    """The hand of :data:`SEED`, signed by :data:`KEY` or not, then changed by ``MUTATIONS[name]``."""
    record = fixed_played(SEED)
    if signed:
        record = sign_record(record, KEY)
    MUTATIONS[name](record)
    return record
