"""ECVRF-EDWARDS25519-SHA512-TAI (RFC 9381, suite string ``0x03``).

Points are handled as their 32-byte RFC 8032 encodings. Decoding and validation are done here in
Python (RFC 8032 §5.1.3); the group arithmetic uses libsodium through PyNaCl. libsodium's scalar
multiplication only accepts points of the prime-order subgroup, so :func:`_mul` splits any other
point into its prime-order part and its small torsion part first.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from nacl.bindings import (
    crypto_core_ed25519_add,
    crypto_core_ed25519_sub,
    crypto_scalarmult_ed25519_base_noclamp,
    crypto_scalarmult_ed25519_noclamp,
)

from chuanma.fairness.errors import VRFError

SUITE = b"\x03"
P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
COFACTOR = 8
C_LEN = 16
Q_LEN = 32
PT_LEN = 32
PROOF_LEN = PT_LEN + C_LEN + Q_LEN
SECRET_LEN = 32
IDENTITY = (1).to_bytes(32, "little")
_INV8 = pow(COFACTOR, -1, L)


def _decode(s: bytes) -> tuple[int, int] | None:
    """RFC 8032 §5.1.3 point decoding; ``None`` when ``s`` is not a valid encoding."""
    if len(s) != PT_LEN:
        return None
    n = int.from_bytes(s, "little")
    x_0 = n >> 255
    y = n & ((1 << 255) - 1)
    if y >= P:
        return None
    u = (y * y - 1) % P
    v = (D * y * y + 1) % P
    x = u * pow(v, 3, P) * pow(u * pow(v, 7, P), (P - 5) // 8, P) % P
    vx2 = v * x * x % P
    if vx2 == u:
        pass
    elif vx2 == (-u) % P:
        x = x * SQRT_M1 % P
    else:
        return None
    if x == 0 and x_0 == 1:
        return None
    if x & 1 != x_0:
        x = P - x
    return x, y


def is_point(s: bytes) -> bool:
    """True if ``s`` is the canonical encoding of a point of edwards25519."""
    return _decode(s) is not None


def _add(a: bytes, b: bytes) -> bytes:
    return bytes(crypto_core_ed25519_add(a, b))


def _times_small(k: int, point: bytes) -> bytes:
    out = IDENTITY
    for _ in range(k):
        out = _add(out, point)
    return out


def _clear_cofactor(point: bytes) -> bytes:
    doubled = point
    for _ in range(3):
        doubled = _add(doubled, doubled)
    return doubled


def _mul_prime_order(k: int, point: bytes) -> bytes:
    """``k * point`` for ``point`` in the prime-order subgroup (or the identity)."""
    k %= L
    if k == 0 or point == IDENTITY:
        return IDENTITY
    return bytes(crypto_scalarmult_ed25519_noclamp(k.to_bytes(32, "little"), point))


def _mul(k: int, point: bytes) -> bytes:
    """``k * point`` for any valid point: prime-order part via libsodium, torsion part by adds."""
    main = _mul_prime_order(_INV8, _clear_cofactor(point))
    torsion = bytes(crypto_core_ed25519_sub(point, main))
    return _add(_mul_prime_order(k, main), _times_small(k % COFACTOR, torsion))


def _base_mul(k: int) -> bytes:
    k %= L
    if k == 0:
        return IDENTITY
    return bytes(crypto_scalarmult_ed25519_base_noclamp(k.to_bytes(32, "little")))


def _secret_scalar(secret: bytes) -> tuple[int, bytes]:
    """RFC 8032 key expansion: the clamped scalar ``x`` and the nonce prefix."""
    h = hashlib.sha512(secret).digest()
    a = bytearray(h[:32])
    a[0] &= 248
    a[31] &= 127
    a[31] |= 64
    return int.from_bytes(a, "little"), h[32:]


def encode_to_curve(salt: bytes, alpha: bytes) -> bytes:
    """ECVRF_encode_to_curve_try_and_increment (RFC 9381 §5.4.1.1)."""
    for ctr in range(256):
        digest = hashlib.sha512(SUITE + b"\x01" + salt + alpha + bytes([ctr]) + b"\x00").digest()
        candidate = digest[:32]
        if is_point(candidate):
            return _clear_cofactor(candidate)
    raise VRFError("encode_to_curve found no point in 256 tries")  # pragma: no cover


def _challenge(*points: bytes) -> int:
    digest = hashlib.sha512(SUITE + b"\x02" + b"".join(points) + b"\x00").digest()
    return int.from_bytes(digest[:C_LEN], "little")


def public_key(secret: bytes) -> bytes:
    """The 32-byte public key of a 32-byte secret key (RFC 8032 key generation)."""
    if len(secret) != SECRET_LEN:
        raise VRFError(f"a VRF secret key is {SECRET_LEN} bytes, not {len(secret)}")
    x, _ = _secret_scalar(secret)
    return _base_mul(x)


def prove(secret: bytes, alpha: bytes) -> bytes:
    """The 80-byte proof ``pi`` for ``alpha`` (RFC 9381 §5.1)."""
    pk = public_key(secret)
    x, prefix = _secret_scalar(secret)
    h = encode_to_curve(pk, alpha)
    gamma = _mul(x, h)
    k = int.from_bytes(hashlib.sha512(prefix + h).digest(), "little") % L
    c = _challenge(pk, h, gamma, _base_mul(k), _mul(k, h))
    s = (k + c * x) % L
    return gamma + c.to_bytes(C_LEN, "little") + s.to_bytes(Q_LEN, "little")


def _decode_proof(pi: bytes) -> tuple[bytes, int, int] | None:
    if len(pi) != PROOF_LEN:
        return None
    gamma = pi[:PT_LEN]
    c = int.from_bytes(pi[PT_LEN : PT_LEN + C_LEN], "little")
    s = int.from_bytes(pi[PT_LEN + C_LEN :], "little")
    if not is_point(gamma) or s >= L:
        return None
    return gamma, c, s


def proof_to_hash(pi: bytes) -> bytes:
    """The 64-byte output ``beta`` of a proof (RFC 9381 §5.2). Does not verify the proof."""
    decoded = _decode_proof(pi)
    if decoded is None:
        raise VRFError("not a VRF proof: expected 80 bytes holding a curve point and scalars")
    gamma = decoded[0]
    return hashlib.sha512(SUITE + b"\x03" + _clear_cofactor(gamma) + b"\x00").digest()


def verify(pk: bytes, alpha: bytes, pi: bytes) -> bytes | None:
    """``beta`` if ``pi`` is a valid proof for ``alpha`` under ``pk``, else ``None`` (RFC 9381
    §5.3, with public key validation)."""
    if not is_point(pk) or _clear_cofactor(pk) == IDENTITY:
        return None
    decoded = _decode_proof(pi)
    if decoded is None:
        return None
    gamma, c, s = decoded
    h = encode_to_curve(pk, alpha)
    u = bytes(crypto_core_ed25519_sub(_base_mul(s), _mul(c, pk)))
    v = bytes(crypto_core_ed25519_sub(_mul(s, h), _mul(c, gamma)))
    if _challenge(pk, h, gamma, u, v) != c:
        return None
    return proof_to_hash(pi)


@dataclass(frozen=True, slots=True)
class VRFKey:
    """A VRF secret key (32 bytes, as an Ed25519 seed) and its public key."""

    secret: bytes

    def __post_init__(self) -> None:
        if len(self.secret) != SECRET_LEN:
            raise VRFError(f"a VRF secret key is {SECRET_LEN} bytes, not {len(self.secret)}")

    def __repr__(self) -> str:
        return f"VRFKey(public_key={self.public_key.hex()!r})"

    @property
    def public_key(self) -> bytes:
        return public_key(self.secret)

    def prove(self, alpha: bytes) -> bytes:
        return prove(self.secret, alpha)


def vrf_alpha(table_id: str, nonce: int, client_seed: str) -> bytes:
    """``alpha = UTF-8(table_id + ":" + nonce + ":" + client_seed)``."""
    return f"{table_id}:{nonce}:{client_seed}".encode()
