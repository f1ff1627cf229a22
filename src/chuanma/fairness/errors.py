"""Exceptions of the fairness package: ``ValueError`` subclasses of :class:`ChuanmaError`."""

from __future__ import annotations

from chuanma.errors import ChuanmaError


class FairnessError(ChuanmaError, ValueError):
    """Base class of the provably-fair dealing errors."""


class ClientSeedError(FairnessError):
    """A client seed that breaks the rules (1–64 printable ASCII characters, no ``|`` or ``:``)."""


class HandStateError(FairnessError):
    """A step of the commit–collect–deal–reveal lifecycle asked for at the wrong time."""


class VRFError(FairnessError):
    """A VRF key, public key or proof that cannot be used (wrong length, not a curve point)."""


class KeyFileError(FairnessError):
    """A VRF secret key file that cannot be written or read."""


class RecordError(FairnessError):
    """A hand record that cannot be verified at all: not an object, a missing or malformed field."""


class ServerSeedError(FairnessError):
    """A server seed that is not exactly 32 bytes."""


class SignatureError(FairnessError):
    """A record that cannot be signed (not an object, or not JSON-serialisable)."""
