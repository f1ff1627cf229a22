"""The random stream: HMAC-SHA256 blocks and unbiased integers drawn from them.

Block ``r`` is ``HMAC-SHA256(key=server_seed, msg=UTF-8(f"{client_seed}:{nonce}:{r}"))``; the
stream is block 0 ‖ block 1 ‖ …. :meth:`RandomStream.uniform` reads it 4 bytes at a time as
big-endian unsigned integers and uses rejection sampling, so every value is exactly equally likely.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from typing import Any

WORD_BYTES = 4
WORD_RANGE = 1 << 32
BLOCK_BYTES = 32
_WORDS = struct.Struct(">8I")


def block(server_seed: bytes, client_seed: str, nonce: int, r: int) -> bytes:
    """Block ``r`` of the stream: 32 bytes."""
    message = f"{client_seed}:{nonce}:{r}".encode()
    return hmac.digest(server_seed, message, hashlib.sha256)


class RandomStream:
    """The stream of one hand, read word by word.

    >>> s = RandomStream(bytes(range(32)), "a|b|c|d", 0)
    >>> 0 <= s.uniform(4) < 4
    True
    """

    __slots__ = ("_block", "_client_seed", "_nonce", "_pos", "_server_seed", "_words")

    def __init__(self, server_seed: bytes, client_seed: str, nonce: int) -> None:
        if not isinstance(nonce, int) or isinstance(nonce, bool) or nonce < 0:
            raise ValueError(f"nonce must be a non-negative integer, not {nonce!r}")
        self._server_seed = bytes(server_seed)
        self._client_seed = client_seed
        self._nonce = nonce
        self._block = 0
        self._words: tuple[int, ...] = ()
        self._pos = 0

    def next_word(self) -> int:
        """The next 4 bytes of the stream as an unsigned big-endian integer."""
        if self._pos >= len(self._words):
            data = block(self._server_seed, self._client_seed, self._nonce, self._block)
            self._words = _WORDS.unpack(data)
            self._block += 1
            self._pos = 0
        x = self._words[self._pos]
        self._pos += 1
        return x

    def uniform(self, n: int) -> int:
        """An integer in ``[0, n)``, every value equally likely (rejection sampling)."""
        if not 1 <= n <= WORD_RANGE:
            raise ValueError(f"uniform(n) needs 1 <= n <= 2**32, not {n}")
        limit = WORD_RANGE - WORD_RANGE % n
        while True:
            pos = self._pos
            if pos < len(self._words):  # next_word, inline: a deal reads over a hundred words
                x = self._words[pos]
                self._pos = pos + 1
            else:
                x = self.next_word()
            if x < limit:
                return x % n

    def shuffle(self, items: list[Any]) -> None:
        """Fisher–Yates in place: for ``i`` from ``len - 1`` down to 1, swap ``i`` and
        ``uniform(i + 1)`` (the same draws as calling :meth:`uniform`, read inline)."""
        words, pos = self._words, self._pos
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = WORD_RANGE - WORD_RANGE % n
            while True:
                if pos < len(words):
                    x = words[pos]
                    pos += 1
                else:
                    self._pos = pos
                    x = self.next_word()
                    words, pos = self._words, self._pos
                if x < limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        self._pos = pos

    @property
    def blocks_used(self) -> int:
        """How many HMAC blocks have been computed so far."""
        return self._block
