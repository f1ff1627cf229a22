"""Verifying a hand record's ``seeds`` against its dealer, direction and wall.

:func:`verify_record` returns a :class:`Verdict`: a list of named :class:`Check` results. Each
check passed, failed (with a message saying what differs) or was not run (with the reason).
By default the hand's decisions are also replayed on its wall with the game engine and the
outcome compared with the record's result (:func:`chuanma.fairness.replay.replay_checks`);
other checks plug in as :data:`RecordCheck` functions through ``extra_checks``. The dealer's
signature is checked last, when the record carries one.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chuanma.engine import FORMATS, deal_fields
from chuanma.engine import RecordError as DealFieldError
from chuanma.errors import RuleSetError, shown
from chuanma.fairness.checks import Check, Status, Verdict
from chuanma.fairness.derive import Deal, derive_deal
from chuanma.fairness.errors import ClientSeedError, RecordError
from chuanma.fairness.fields import parse_hex, require_field
from chuanma.fairness.hand import RECORD_FORMAT, SCHEME_HMAC, SCHEME_VRF, SERVER_SEED_BYTES
from chuanma.fairness.seeds import SEATS, commitment, join_client_seeds
from chuanma.fairness.session import SESSION_FIELD, SessionHand
from chuanma.fairness.signing import SIGNATURE_FIELD, SIGNATURE_SCHEME, signature_problem
from chuanma.fairness.vrf import PROOF_LEN, PT_LEN, verify, vrf_alpha
from chuanma.rules import RuleSet
from chuanma.tiles import ALL_TILES, SICHUAN_TILES, tile_str

RecordCheck = Callable[[Mapping[str, Any], "Deal | None"], Check]
"""An extra check: gets the record and the re-derived deal (``None`` if it could not be derived)."""




@dataclass(frozen=True, slots=True)
class _Parsed:
    scheme: str
    client_seeds: list[str]
    nonce: int
    dealer: int
    direction: str
    wall: list[int]
    seeds: Mapping[str, Any]
    session: SessionHand | None
    dealer_option: str | None


def _hex(obj: Mapping[str, Any], key: str, length: int | None, where: str = "seeds.") -> bytes:
    return parse_hex(require_field(obj, key, str, where), length, f"{where}{key!r}")


def _parse(record: object) -> _Parsed:
    if not isinstance(record, Mapping):
        raise RecordError("a hand record must be a JSON object")
    fmt = record.get("format", RECORD_FORMAT)
    if fmt not in FORMATS:
        raise RecordError(f"unknown record format {shown(fmt)}; this verifier reads {' and '.join(FORMATS)}")
    seeds = require_field(record, "seeds", dict, "")
    scheme = require_field(seeds, "scheme", str, "seeds.")
    if scheme not in (SCHEME_HMAC, SCHEME_VRF):
        raise RecordError(
            f"unknown seeds scheme {shown(scheme)}: expected {SCHEME_HMAC!r} or {SCHEME_VRF!r}"
        )
    client_seeds = require_field(seeds, "client_seeds", list, "seeds.")
    if len(client_seeds) != SEATS or not all(isinstance(s, str) for s in client_seeds):
        raise RecordError("seeds.'client_seeds' must be a list of four strings (seats 0 to 3)")
    nonce = require_field(seeds, "nonce", int, "seeds.")
    if nonce < 0:
        raise RecordError(f"seeds.'nonce' must be a non-negative integer, not {nonce}")
    try:
        deal = deal_fields(record)
    except DealFieldError as exc:
        raise RecordError(str(exc)) from None
    session = SessionHand.from_json(record[SESSION_FIELD]) if SESSION_FIELD in record else None
    return _Parsed(scheme, client_seeds, nonce, deal.dealer, deal.direction, deal.wall, seeds, session,
                   _dealer_option(record))


def _dealer_option(record: Mapping[str, Any]) -> str | None:
    """The ``dealer`` option of the record's rules (``None`` for a record without rules, or with
    rules that cannot be read: the replay check then fails and says why)."""
    if "rules" not in record:
        return None
    try:
        return RuleSet.from_json(record["rules"]).dealer
    except RuleSetError:
        return None


def _match(name: str, ok: bool, passed: str, failed: str) -> Check:
    return Check(name, Status.PASSED, passed) if ok else Check(name, Status.FAILED, failed)


def _compare(parsed: _Parsed, deal: Deal | None, reason: str) -> list[Check]:
    if deal is None:
        return [Check(n, Status.NOT_RUN, reason) for n in ("dealer", "direction", "wall")]
    checks = [
        _dealer_check(parsed, deal),
        _match("direction", parsed.direction == deal.direction, f"exchange direction is {deal.direction}",
               f"record says {parsed.direction!r}, seeds give {deal.direction!r}"),
    ]
    wall = tuple(parsed.wall)
    if wall == deal.wall:
        checks.append(Check("wall", Status.PASSED, f"all {len(wall)} tiles in draw order match"))
    elif len(wall) != len(deal.wall):
        checks.append(
            Check(
                "wall",
                Status.FAILED,
                f"record has {len(wall)} tiles, seeds give {len(deal.wall)}",
            )
        )
    else:
        diffs = [i for i, (a, b) in enumerate(zip(wall, deal.wall, strict=True)) if a != b]
        first = diffs[0]
        checks.append(
            Check(
                "wall",
                Status.FAILED,
                f"{len(diffs)} position(s) differ; first at position {first}: record has "
                f"{tile_str(wall[first])}, seeds give {tile_str(deal.wall[first])}",
            )
        )
    return checks


def _dealer_check(parsed: _Parsed, deal: Deal) -> Check:
    """The stream's dealer; or, for a later hand of a chained session, the previous
    hand's next dealer that the record states (the rules must deal that way)."""
    session = parsed.session
    if session is not None and parsed.dealer_option not in (None, session.dealer_rule):
        return Check("dealer", Status.FAILED,
                     f"the session deals by {session.dealer_rule}, but the record's rules say "
                     f"dealer: {parsed.dealer_option}")
    if session is None or not session.follows_winner:
        return _match("dealer", parsed.dealer == deal.dealer, f"dealer is seat {deal.dealer}",
                      f"record says seat {parsed.dealer}, seeds give seat {deal.dealer}")
    want = session.dealer(deal.dealer)
    how = (f"the {session.dealer_rule} rule gives seat {want}: hand {session.hand} of session "
           f"{session.session_id!r} is dealt by the previous hand's next dealer")
    return _match("dealer", parsed.dealer == want,
                  f"{how} (the stream's draw, seat {deal.dealer}, is not used)",
                  f"record says seat {parsed.dealer}; {how}")


ROTATED = ("; if the server changed its key since, require the key it published for this one "
           "(a server lists its keys, retired ones with their dates, at /api/fairness/keys)")
"""What a failure against the required key adds: a server's older records name its older keys."""


def _signature_check(record: Mapping[str, Any], public_key: bytes | None,
                     vrf_public_key: bytes | None = None) -> tuple[Check, str | None]:
    """The signature check, and the signer's key (hex) when it passed. The signature covers the
    record's VRF key (``seeds.public_key``): the signer vouches that it dealt the hand. A record
    signed by the pinned VRF key passes too: a server signed with its VRF key itself before it had
    a signing key of its own (docs/fairness.md)."""
    if SIGNATURE_FIELD not in record:
        if public_key is not None:
            return Check("signature", Status.FAILED,
                         f"unsigned, but a signature by {public_key.hex()} was required"), None
        return Check("signature", Status.NOT_RUN, "unsigned: the record carries no signature"), None
    sig = require_field(record, SIGNATURE_FIELD, dict, "")
    scheme = require_field(sig, "scheme", str, "signature.")
    if scheme != SIGNATURE_SCHEME:
        raise RecordError(f"unknown signature scheme {scheme!r}: expected {SIGNATURE_SCHEME!r}")
    signer = _hex(sig, "public_key", None, "signature.")
    problem = signature_problem(record, signer, _hex(sig, "value", None, "signature."))
    if problem is not None:
        return Check("signature", Status.FAILED, problem), None
    earlier = vrf_public_key is not None and signer == vrf_public_key
    if public_key is not None and signer != public_key and not earlier:
        return Check("signature", Status.FAILED,
                     f"signed by {signer.hex()}, not by the required key {public_key.hex()}{ROTATED}"), None
    pinned = (" (the required VRF key, which signed the dealer's records before its signing key)" if earlier else
              " (the required key)" if public_key is not None else
              "; no key was pinned: only a pinned dealer key proves it is the server's")
    return Check("signature", Status.PASSED, f"signed by {signer.hex()} over the canonical JSON{pinned}"), signer.hex()


def verify_record(
    record: object,
    *,
    extra_checks: Sequence[RecordCheck] | None = None,
    public_key: bytes | None = None,
    vrf_public_key: bytes | None = None,
) -> Verdict:
    """Check a hand record's seeds and re-derive its dealer, direction and wall; replay its
    decisions and compare the outcome with its result; check its signature if it has one (and
    require one by ``public_key`` if given); with ``vrf_public_key``, require a VRF-dealt hand to
    be dealt by that key (the dealer's published VRF key: a dealer may not pick a key per hand).

    Raises :class:`RecordError` when the record cannot be checked at all (not an object, a field
    missing or of the wrong type, a wall entry that is not a tile).
    """
    parsed = _parse(record)
    assert isinstance(record, Mapping)
    seeds = parsed.seeds
    tile_set = ALL_TILES if len(parsed.wall) == ALL_TILES.size else SICHUAN_TILES
    checks: list[Check] = []
    deal: Deal | None = None
    reason = ""

    try:
        client_seed = join_client_seeds(parsed.client_seeds)
        checks.append(Check("client_seeds", Status.PASSED, "four valid client seeds"))
    except ClientSeedError as exc:
        client_seed = None
        reason = "not derived: the client seeds are not valid"
        checks.append(Check("client_seeds", Status.FAILED, str(exc)))

    if parsed.scheme == SCHEME_HMAC:
        claimed = require_field(seeds, "commitment", str, "seeds.").lower()
        if "server_seed" not in seeds:
            checks.append(
                Check("commitment", Status.FAILED, "the server seed has not been revealed")
            )
            reason = reason or "not derived: no server seed"
        else:
            server_seed = _hex(seeds, "server_seed", None)
            actual = commitment(server_seed)
            if len(server_seed) != SERVER_SEED_BYTES:
                checks.append(
                    Check("commitment", Status.FAILED,
                          f"the revealed server seed is {len(server_seed)} bytes; a server seed "
                          f"is exactly {SERVER_SEED_BYTES} bytes ({2 * SERVER_SEED_BYTES} hex digits)")
                )
                reason = reason or "not derived: the server seed is not 32 bytes"
            elif hmac.compare_digest(actual, claimed):
                checks.append(
                    Check("commitment", Status.PASSED, "SHA-256(server_seed) equals the commitment")
                )
            else:
                checks.append(
                    Check(
                        "commitment",
                        Status.FAILED,
                        f"SHA-256(server_seed) is {actual}, the commitment was {claimed}",
                    )
                )
                # The revealed seed is not the committed one: deriving from it proves nothing.
                reason = reason or "not derived: the server seed does not match the commitment"
            if client_seed is not None and not reason:
                deal = derive_deal(server_seed, client_seed, parsed.nonce, tile_set)
    else:
        table_id = require_field(seeds, "table_id", str, "seeds.")
        pk = _hex(seeds, "public_key", PT_LEN)
        if vrf_public_key is not None and pk != vrf_public_key:
            checks.append(Check("proof", Status.FAILED, f"dealt by the VRF key {pk.hex()}, not by the "
                                                        f"required VRF key {vrf_public_key.hex()}{ROTATED}"))
            reason = reason or "not derived: another VRF key than the required one"
        elif "proof" not in seeds:
            checks.append(Check("proof", Status.FAILED, "the VRF proof has not been published"))
            reason = reason or "not derived: no VRF proof"
        elif client_seed is None:
            checks.append(
                Check("proof", Status.NOT_RUN, "not checked: the client seeds are not valid")
            )
        else:
            pi = _hex(seeds, "proof", PROOF_LEN)
            beta = verify(pk, vrf_alpha(table_id, parsed.nonce, client_seed), pi)
            if beta is None:
                checks.append(
                    Check(
                        "proof",
                        Status.FAILED,
                        "the VRF proof is not valid for this public key, table, hand number "
                        "and client seeds",
                    )
                )
                reason = "not derived: the VRF proof is not valid"
            else:
                checks.append(
                    Check("proof", Status.PASSED, "the VRF proof is valid; beta is the seed")
                )
                deal = derive_deal(beta, client_seed, parsed.nonce, tile_set)

    checks.extend(_compare(parsed, deal, reason))
    if extra_checks is None:
        from chuanma.fairness.replay import replay_checks  # the engine loads only when needed

        checks.extend(replay_checks(record))
    else:
        checks.extend(check(record, deal) for check in extra_checks)
    signature, key = _signature_check(record, public_key, vrf_public_key)
    return Verdict((*checks, signature), key)
