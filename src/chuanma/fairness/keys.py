"""Storing the server's long-lived VRF secret key, and the signing key derived from it.

The key file holds the 32-byte secret as 64 hex digits and a newline. It is created with mode
0600 (readable by its owner only) and never silently overwritten. The secret is the VRF key; the
Ed25519 key that signs records is derived from it (:func:`signing_key_of`), so that no key serves
two algorithms and one file still holds everything (a file made before keeps working).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

from chuanma.fairness.errors import KeyFileError
from chuanma.fairness.vrf import SECRET_LEN, VRFKey

DEFAULT_KEY_FILE = "chuanma-vrf.key"
SIGNING_LABEL = b"chuanma dealer key/ed25519 record signing/v1"
"""The label under which the signing key is derived from the key file's secret."""


def signing_key_of(key: VRFKey) -> VRFKey:
    """The Ed25519 key that signs records for the dealer whose VRF key is ``key``: the seed
    HMAC-SHA256(``key``'s secret, :data:`SIGNING_LABEL`), a key of its own (held in a
    :class:`VRFKey` only as its 32-byte seed and public key, which Ed25519 derives alike)."""
    return VRFKey(hmac.new(key.secret, SIGNING_LABEL, hashlib.sha256).digest())


def generate_key() -> VRFKey:
    """A new VRF key from the operating system's CSPRNG."""
    return VRFKey(secrets.token_bytes(SECRET_LEN))


def write_key(key: VRFKey, path: str | os.PathLike[str], *, force: bool = False) -> Path:
    """Write ``key`` to ``path`` with mode 0600. Refuses an existing file unless ``force``.

    Never writes through a symbolic link (even a dangling one) and never replaces a directory.
    """
    target = Path(path)
    if target.is_symlink():
        raise KeyFileError(f"{target} is a symbolic link; refusing to write a secret key through it")
    if target.is_dir():
        raise KeyFileError(f"{target} is a directory, not a key file")
    if force and target.exists():
        # O_CREAT's mode only applies to new files: start from a fresh one.
        try:
            target.unlink()
        except OSError as exc:
            raise KeyFileError(f"cannot replace {target}: {exc.strerror}") from None
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except FileExistsError:
        raise KeyFileError(
            f"{target} already exists; refusing to overwrite a secret key "
            "(use --force to replace it)"
        ) from None
    except OSError as exc:
        raise KeyFileError(f"cannot create {target}: {exc.strerror}") from None
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(key.secret.hex() + "\n")
    return target


def exposure_warning(path: str | os.PathLike[str]) -> str | None:
    """A warning when the key file at ``path`` can be read or written by other users, else ``None``."""
    try:
        mode = Path(path).stat().st_mode
    except OSError:
        return None
    if mode & 0o077:
        return (f"the secret key file {os.fspath(path)} is open to other users (mode {mode & 0o777:04o}); "
                f"restrict it with: chmod 600 {os.fspath(path)}")
    return None


def read_key(path: str | os.PathLike[str]) -> VRFKey:
    """Read a key written by :func:`write_key`."""
    target = Path(path)
    try:
        text = target.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        raise KeyFileError(
            f"no key file at {target}: create one with 'chuanma fair keygen'"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise KeyFileError(f"cannot read {target}: {exc}") from None
    try:
        secret = bytes.fromhex(text)
    except ValueError:
        raise KeyFileError(f"{target} is not a key file: expected 64 hex digits") from None
    if len(secret) != SECRET_LEN:
        raise KeyFileError(f"{target} is not a key file: expected 64 hex digits, found {len(text)}")
    return VRFKey(secret)
