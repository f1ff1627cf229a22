"""The lifecycle of one fairly dealt hand: commit, collect, deal, reveal.

The server creates a :class:`FairHand` per hand, publishes :attr:`FairHand.commitment` (or, with a
VRF, its long-lived public key), feeds each seat's client seed to :meth:`FairHand.add_client_seed`,
calls :meth:`FairHand.deal` once all four are in, calls :meth:`FairHand.mark_over` when the hand
ends and only then :meth:`FairHand.reveal`. :meth:`FairHand.seeds_record` is the ``"seeds"`` object
of the hand record at any moment; it holds the secret part only after the reveal.
:meth:`FairHand.finish` does the last two steps for a played game and returns its complete record.
"""

from __future__ import annotations

import enum
import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chuanma.engine import FORMAT
from chuanma.fairness.derive import Deal, derive_deal
from chuanma.fairness.errors import HandStateError, ServerSeedError
from chuanma.fairness.records import complete_record
from chuanma.fairness.seeds import SEATS, commitment, join_client_seeds, validate_client_seed
from chuanma.fairness.session import SessionHand
from chuanma.fairness.vrf import VRFKey, proof_to_hash, vrf_alpha
from chuanma.tiles import TileSet

if TYPE_CHECKING:
    from chuanma.engine import Game

RECORD_FORMAT = FORMAT
SCHEME_HMAC = "hmac-sha256"
SCHEME_VRF = "ecvrf-edwards25519-sha512-tai"
SERVER_SEED_BYTES = 32


class HandPhase(enum.Enum):
    """Where a :class:`FairHand` is in its lifecycle."""

    COLLECTING = "collecting"
    DEALT = "dealt"
    OVER = "over"


class FairHand:
    """The seeds of one hand and the rules for when each may be used or shown.

    Create one with :meth:`new` (a fresh server seed and its commitment) or :meth:`with_vrf`
    (the server seed is the VRF output for this table, hand number and the client seeds).
    """

    def __init__(
        self,
        nonce: int,
        *,
        server_seed: bytes | None = None,
        vrf_key: VRFKey | None = None,
        table_id: str | None = None,
        tile_set: TileSet,
    ) -> None:
        if not isinstance(nonce, int) or isinstance(nonce, bool) or nonce < 0:
            raise HandStateError(
                f"the nonce is the hand's number at its table (0, 1, 2, …), not {nonce!r}"
            )
        if (server_seed is None) == (vrf_key is None):
            raise HandStateError("a hand needs a server seed or a VRF key: exactly one of them")
        if server_seed is not None and (
            not isinstance(server_seed, bytes) or len(server_seed) != SERVER_SEED_BYTES
        ):
            size = f"{len(server_seed)} bytes" if isinstance(server_seed, bytes) else repr(server_seed)
            raise ServerSeedError(f"a server seed is exactly {SERVER_SEED_BYTES} bytes, not {size}")
        if vrf_key is not None and table_id is None:
            raise HandStateError("a VRF hand needs the table id: it is part of the VRF input")
        self._nonce = nonce
        self._server_seed = server_seed
        self._vrf_key = vrf_key
        self._table_id = table_id
        self._tile_set = tile_set
        self._client_seeds: list[str | None] = [None] * SEATS
        self._phase = HandPhase.COLLECTING
        self._deal: Deal | None = None
        self._proof: bytes | None = None

    @classmethod
    def new(cls, nonce: int, *, tile_set: TileSet) -> FairHand:
        """A hand with a fresh 32-byte server seed from the operating system's CSPRNG."""
        return cls(nonce, server_seed=secrets.token_bytes(SERVER_SEED_BYTES), tile_set=tile_set)

    @classmethod
    def with_vrf(cls, key: VRFKey, table_id: str, nonce: int, *, tile_set: TileSet) -> FairHand:
        """A hand whose server seed is ``beta = VRF(key, table_id:nonce:client_seed)``."""
        return cls(nonce, vrf_key=key, table_id=table_id, tile_set=tile_set)

    @property
    def scheme(self) -> str:
        return SCHEME_VRF if self._vrf_key is not None else SCHEME_HMAC

    @property
    def nonce(self) -> int:
        return self._nonce

    @property
    def phase(self) -> HandPhase:
        return self._phase

    @property
    def commitment(self) -> str | None:
        """``hex(SHA-256(server_seed))`` for the HMAC scheme; ``None`` with a VRF (the public key
        plays that part)."""
        return None if self._server_seed is None else commitment(self._server_seed)

    @property
    def client_seeds(self) -> tuple[str | None, ...]:
        return tuple(self._client_seeds)

    def add_client_seed(self, seat: int, seed: str) -> None:
        """Record seat ``seat``'s client seed (validated). Each seat gives one, before the deal."""
        if self._phase is not HandPhase.COLLECTING:
            raise HandStateError("the hand is already dealt: client seeds can no longer change")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < SEATS:
            raise HandStateError(f"seats are numbered 0 to {SEATS - 1}, not {seat!r}")
        if self._client_seeds[seat] is not None:
            raise HandStateError(f"seat {seat} has already given its client seed")
        self._client_seeds[seat] = validate_client_seed(seed)

    def _joined(self) -> str:
        missing = [str(i) for i, s in enumerate(self._client_seeds) if s is None]
        if missing:
            raise HandStateError(
                "cannot deal before all four client seeds are in; "
                f"missing seat(s) {', '.join(missing)}"
            )
        return join_client_seeds([s for s in self._client_seeds if s is not None])

    def deal(self) -> Deal:
        """Derive the dealer, direction and wall. Refused until all four client seeds are in.

        Calling it again returns the same deal: there is never a second draw.
        """
        if self._deal is not None:
            return self._deal
        client_seed = self._joined()
        if self._vrf_key is not None:
            assert self._table_id is not None
            self._proof = self._vrf_key.prove(vrf_alpha(self._table_id, self._nonce, client_seed))
            seed = self._beta()
        else:
            assert self._server_seed is not None
            seed = self._server_seed
        self._deal = derive_deal(seed, client_seed, self._nonce, self._tile_set)
        self._phase = HandPhase.DEALT
        return self._deal

    def _beta(self) -> bytes:
        assert self._proof is not None
        return proof_to_hash(self._proof)

    def mark_over(self) -> None:
        """Record that the hand has ended; the seed may be revealed from now on."""
        if self._phase is HandPhase.COLLECTING:
            raise HandStateError("the hand has not been dealt yet, so it cannot be over")
        self._phase = HandPhase.OVER

    def reveal(self) -> bytes:
        """The server seed (HMAC scheme) or the VRF proof ``pi``; only after :meth:`mark_over`."""
        if self._phase is not HandPhase.OVER:
            raise HandStateError(
                "the server seed is secret until the hand is over: call mark_over() first"
            )
        if self._proof is not None:
            return self._proof
        assert self._server_seed is not None
        return self._server_seed

    def seeds_record(self) -> dict[str, Any]:
        """The ``"seeds"`` object of the hand record (``chuanma-record/2``).

        The server seed (or VRF proof) appears only once the hand is over.
        """
        over = self._phase is HandPhase.OVER
        seeds: list[str | None] = list(self._client_seeds)
        if self._vrf_key is not None:
            record: dict[str, Any] = {
                "scheme": SCHEME_VRF,
                "public_key": self._vrf_key.public_key.hex(),
                "table_id": self._table_id,
                "client_seeds": seeds,
                "nonce": self._nonce,
            }
            if over:
                record["proof"] = self.reveal().hex()
            return record
        record = {
            "scheme": SCHEME_HMAC,
            "commitment": self.commitment,
            "client_seeds": seeds,
            "nonce": self._nonce,
        }
        if over:
            record["server_seed"] = self.reveal().hex()
        return record

    def hand_record(self) -> dict[str, Any]:
        """A minimal verifiable hand record: format, seeds, dealer, direction and wall.

        The game engine adds rules, decisions and events to this; refused before the deal.
        """
        if self._deal is None:
            raise HandStateError("no hand record before the deal")
        return {
            "format": RECORD_FORMAT,
            "seeds": self.seeds_record(),
            "dealer": self._deal.dealer,
            "direction": self._deal.direction,
            "wall": self._deal.wall_strings(),
        }

    def finish(
        self,
        game: Game,
        *,
        session: SessionHand | None = None,
        extra: Mapping[str, Any] | None = None,
        signing_key: VRFKey | None = None,
    ) -> dict[str, Any]:
        """Mark the hand over and return the complete record of ``game``, played on this deal
        (its dealer set by ``session``'s rule if given), with the revealed seeds, its result and,
        with ``signing_key``, the dealer's signature (see :mod:`chuanma.fairness.records`).

        Refused, changing nothing, before the deal, before the game is finished, or when the
        game's wall, direction or dealer are not this hand's.
        """
        if self._deal is None:
            raise HandStateError("the hand has not been dealt yet, so it cannot be finished")
        if not game.finished:
            raise HandStateError("the game is not finished: finish it before revealing the seed")
        deal = session.deal(self._deal) if session is not None else self._deal
        for name, played, want in (("wall", tuple(game.wall), deal.wall), ("direction", game.direction, deal.direction),
                                   ("dealer", game.dealer, deal.dealer)):
            if played != want:
                raise HandStateError(f"the game was not played on this hand's deal: its {name} differs")
        self.mark_over()
        return complete_record(game, seeds=self.seeds_record(), session=session, extra=extra,
                               signing_key=signing_key)

    def __repr__(self) -> str:
        return f"FairHand(scheme={self.scheme!r}, nonce={self._nonce}, phase={self._phase.value!r})"

