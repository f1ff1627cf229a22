"""The dealer's Ed25519 signature over a hand record's canonical JSON.

The canonical JSON of a record is the record without its ``"signature"`` field, written by
``json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`` and encoded as
UTF-8. The signing key is the secret of ``chuanma fair keygen`` used as an Ed25519 seed, so the
public key that checks VRF proofs also checks signatures.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

from chuanma.fairness.errors import SignatureError
from chuanma.fairness.vrf import VRFKey

SIGNATURE_FIELD = "signature"
SIGNATURE_SCHEME = "ed25519"
SIGNATURE_BYTES = 64
PUBLIC_KEY_BYTES = 32


def canonical_json(record: Mapping[str, Any]) -> bytes:
    """The bytes a signature covers: the record without ``"signature"``, keys sorted, no spaces."""
    if not isinstance(record, Mapping):
        raise SignatureError("a hand record must be a JSON object")
    body = {k: v for k, v in record.items() if k != SIGNATURE_FIELD}
    try:
        text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                          allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise SignatureError(f"the record is not plain JSON: {exc}") from None
    return text.encode("utf-8")


def record_digest(record: Mapping[str, Any]) -> str:
    """``hex(SHA-256(canonical JSON))``: how the next hand of a session names this one."""
    return hashlib.sha256(canonical_json(record)).hexdigest()


def sign_record(record: Mapping[str, Any], key: VRFKey) -> dict[str, Any]:
    """A copy of ``record`` with the dealer's signature (any previous signature is replaced)."""
    signed = SigningKey(key.secret).sign(canonical_json(record)).signature
    return {
        **{k: v for k, v in record.items() if k != SIGNATURE_FIELD},
        SIGNATURE_FIELD: {
            "scheme": SIGNATURE_SCHEME,
            "public_key": key.public_key.hex(),
            "value": signed.hex(),
        },
    }


def signature_problem(record: Mapping[str, Any], public_key: bytes, signature: bytes) -> str | None:
    """``None`` when ``signature`` is ``public_key``'s over the record's canonical JSON, else why
    not."""
    if len(public_key) != PUBLIC_KEY_BYTES:
        return f"signature.'public_key' must be {PUBLIC_KEY_BYTES} bytes, not {len(public_key)}"
    if len(signature) != SIGNATURE_BYTES:
        return f"signature.'value' must be {SIGNATURE_BYTES} bytes, not {len(signature)}"
    try:
        VerifyKey(public_key).verify(canonical_json(record), signature)
    except BadSignatureError:
        return "the signature does not match this record and public key: the record was changed"
    except ValueError as exc:  # not a point of the curve
        return f"signature.'public_key' is not an Ed25519 public key ({exc})"
    return None
