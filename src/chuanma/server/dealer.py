"""The dealer's key: the VRF key that deals every hand; the key that signs every record the server
stores is derived from it (:func:`chuanma.fairness.keys.signing_key_of`: an Ed25519 key of its own).

``chuanma serve`` reads it from ``--key``, or from ``dealer.key`` in its data directory, which it
creates on first start (mode 0600, never through a symbolic link). Only the two public keys leave
the server (``GET /api/fairness/key``).
"""

from __future__ import annotations

import logging
from pathlib import Path

from chuanma.fairness import HandStateError
from chuanma.fairness.keys import exposure_warning, generate_key, read_key, write_key
from chuanma.fairness.vrf import VRFKey

KEY_FILE = "dealer.key"


class DealerKeyError(HandStateError):
    """A stored hand was opened with another dealer key than the server holds: the server refuses to
    start rather than give up its tables (the operator gave the wrong key)."""

log = logging.getLogger("chuanma.server.dealer")


def dealer_key(path: Path | None, data_dir: Path | None) -> VRFKey:
    """The key in ``path``; else the one in ``data_dir``'s ``dealer.key``, created if there is no
    such file; else (no data directory: a server for tests) a fresh key for this process.

    Raises :class:`chuanma.fairness.KeyFileError` for a file that cannot be read or created.
    """
    if path is not None:
        target = path
    elif data_dir is None:
        return generate_key()
    else:
        target = data_dir / KEY_FILE
        if not target.exists() and not target.is_symlink():
            key = generate_key()
            write_key(key, target)
            log.info(f"dealer key created in {target}; its public key is {key.public_key.hex()}")
            return key
    warning = exposure_warning(target)
    if warning is not None:
        log.warning(warning)
    return read_key(target)
