"""ECVRF-EDWARDS25519-SHA512-TAI against RFC 9381 Appendix B.3, and the key file."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from nacl.bindings import crypto_sign_seed_keypair

from chuanma.fairness import KeyFileError, VRFError, VRFKey, read_key, vrf, write_key

VECTORS: list[dict[str, str]] = json.loads(
    (Path(__file__).parent / "data" / "rfc9381_b3_vectors.json").read_text()
)["vectors"]


def _b(v: dict[str, str], key: str) -> bytes:
    return bytes.fromhex(v[key])


@pytest.mark.parametrize("v", VECTORS, ids=["example16", "example17", "example18"])
def test_rfc9381_vector(v: dict[str, Any]) -> None:
    sk, pk, alpha, pi, beta = (_b(v, k) for k in ("sk", "pk", "alpha", "pi", "beta"))
    assert vrf.public_key(sk) == pk
    assert vrf.prove(sk, alpha) == pi
    assert vrf.proof_to_hash(pi) == beta
    assert vrf.verify(pk, alpha, pi) == beta


def test_public_key_is_the_ed25519_public_key() -> None:
    for seed in (bytes(32), bytes(range(32)), b"\xff" * 32):
        pk, _ = crypto_sign_seed_keypair(seed)
        assert vrf.public_key(seed) == pk


@pytest.mark.parametrize("v", VECTORS[1:2], ids=["example17"])
def test_verify_rejects_every_single_bit_flip_in_a_proof_byte(v: dict[str, Any]) -> None:
    pk, alpha, pi = _b(v, "pk"), _b(v, "alpha"), _b(v, "pi")
    for index in (0, 17, 31, 32, 40, 47, 48, 60, 79):
        forged = bytearray(pi)
        forged[index] ^= 1 << (index % 8)
        assert vrf.verify(pk, alpha, bytes(forged)) is None, index


def test_verify_rejects_other_alpha_other_key_and_bad_lengths() -> None:
    v16, v17 = VECTORS[0], VECTORS[1]
    assert vrf.verify(_b(v17, "pk"), b"\x73", _b(v17, "pi")) is None
    assert vrf.verify(_b(v16, "pk"), _b(v17, "alpha"), _b(v17, "pi")) is None
    assert vrf.verify(_b(v17, "pk"), _b(v17, "alpha"), _b(v17, "pi")[:79]) is None
    assert vrf.verify(_b(v17, "pk")[:31], _b(v17, "alpha"), _b(v17, "pi")) is None


def test_verify_rejects_small_order_public_key_and_oversized_scalar() -> None:
    v = VECTORS[0]
    assert vrf.verify(vrf.IDENTITY, b"", _b(v, "pi")) is None
    pi = bytearray(_b(v, "pi"))
    s = int.from_bytes(pi[48:], "little") + vrf.L  # same scalar mod L, but not reduced
    pi[48:] = s.to_bytes(32, "little")
    assert vrf.verify(_b(v, "pk"), b"", bytes(pi)) is None


def test_point_decoding_follows_rfc8032() -> None:
    assert vrf.is_point(vrf.IDENTITY)
    # y = p is not canonical; x = 0 with the sign bit set is refused
    assert not vrf.is_point(vrf.P.to_bytes(32, "little"))
    assert not vrf.is_point((1 | 1 << 255).to_bytes(32, "little"))
    # y = 2 is not on the curve (u/v has no square root)
    assert not vrf.is_point((2).to_bytes(32, "little"))


def test_scalar_multiplication_of_points_outside_the_prime_order_subgroup() -> None:
    # (0, -1) has order 2; adding it to the base point leaves the prime-order subgroup.
    order2 = (vrf.P - 1).to_bytes(32, "little")
    base = vrf._base_mul(1)
    mixed = vrf._add(base, order2)
    for k in (0, 1, 2, 3, 12345678901234567890, vrf.L - 1):
        expected = vrf._add(vrf._base_mul(k), order2 if k % 2 else vrf.IDENTITY)
        assert vrf._mul(k, mixed) == expected


def test_vrf_key_checks_length_and_hides_the_secret() -> None:
    with pytest.raises(VRFError, match="32 bytes"):
        VRFKey(b"short")
    key = VRFKey(bytes(range(32)))
    assert bytes(range(32)).hex() not in repr(key)
    assert key.public_key.hex() in repr(key)
    with pytest.raises(VRFError, match="not a VRF proof"):
        vrf.proof_to_hash(b"\x00" * 10)


def test_key_file_mode_0600_and_no_silent_overwrite(tmp_path: Path) -> None:
    path = tmp_path / "vrf.key"
    key = VRFKey(bytes(range(32)))
    old_umask = os.umask(0)  # even with a permissive umask the file must be private
    try:
        write_key(key, path)
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert read_key(path) == key
        with pytest.raises(KeyFileError, match="already exists"):
            write_key(VRFKey(bytes(32)), path)
        assert read_key(path) == key
        path.chmod(0o644)
        write_key(VRFKey(bytes(32)), path, force=True)
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert read_key(path) == VRFKey(bytes(32))
    finally:
        os.umask(old_umask)


def test_read_key_errors_are_clear(tmp_path: Path) -> None:
    with pytest.raises(KeyFileError, match="no key file"):
        read_key(tmp_path / "missing.key")
    bad = tmp_path / "bad.key"
    bad.write_text("not hex\n")
    with pytest.raises(KeyFileError, match="64 hex digits"):
        read_key(bad)
    bad.write_text("abcd\n")
    with pytest.raises(KeyFileError, match="64 hex digits"):
        read_key(bad)
