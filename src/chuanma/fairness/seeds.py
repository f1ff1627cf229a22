"""Client seeds, the joined client seed and the server seed commitment."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from chuanma.fairness.errors import ClientSeedError

SEATS = 4
MAX_CLIENT_SEED = 64
FORBIDDEN = "|:"


def validate_client_seed(seed: object) -> str:
    """Return ``seed`` if it is a valid client seed, else raise :class:`ClientSeedError`.

    A client seed is 1–64 printable ASCII characters (space through ``~``) without ``|`` or ``:``
    (they separate the parts of the HMAC message).
    """
    if not isinstance(seed, str):
        raise ClientSeedError(f"a client seed must be text, not {type(seed).__name__}")
    if not seed:
        raise ClientSeedError("a client seed cannot be empty: use 1 to 64 characters")
    if len(seed) > MAX_CLIENT_SEED:
        raise ClientSeedError(
            f"a client seed has at most {MAX_CLIENT_SEED} characters; this one has {len(seed)}"
        )
    for pos, ch in enumerate(seed):
        if ch in FORBIDDEN:
            raise ClientSeedError(
                f"a client seed cannot contain {ch!r} (position {pos}): '|' and ':' are separators"
            )
        if not " " <= ch <= "~":
            raise ClientSeedError(
                f"a client seed uses printable ASCII only; {ch!r} at position {pos} is not"
            )
    return seed


def join_client_seeds(seeds: Sequence[str]) -> str:
    """The four seats' seeds, validated and joined with ``|`` (seat 0 first)."""
    if len(seeds) != SEATS:
        raise ClientSeedError(
            f"a hand needs exactly {SEATS} client seeds, one per seat; got {len(seeds)}"
        )
    return "|".join(validate_client_seed(s) for s in seeds)


def commitment(server_seed: bytes) -> str:
    """``hex(SHA-256(server_seed))``, published before the client seeds are collected."""
    return hashlib.sha256(server_seed).hexdigest()
