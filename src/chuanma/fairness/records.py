"""The complete record of a finished hand: the engine's record, its seeds, its place in a
session, its result and, optionally, the dealer's signature.

Every writer of hand records (``chuanma play``, ``chuanma simulate --record`` and
:meth:`chuanma.fairness.FairHand.finish`) builds them here, so all of them can be verified the
same way.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chuanma.fairness.errors import HandStateError
from chuanma.fairness.session import SESSION_FIELD, SessionHand
from chuanma.fairness.signing import sign_record
from chuanma.fairness.vrf import VRFKey

if TYPE_CHECKING:
    from chuanma.engine import Game

RESULT_FIELD = "result"


def complete_record(
    game: Game,
    *,
    seeds: Mapping[str, Any] | None = None,
    session: SessionHand | None = None,
    extra: Mapping[str, Any] | None = None,
    signing_key: VRFKey | None = None,
) -> dict[str, Any]:
    """The record of the finished ``game`` with ``"result"`` (``Game.result()``: deltas,
    payments, winners), its ``seeds`` and ``session`` when given, the ``extra`` fields
    (e.g. the bots) and, with ``signing_key``, the dealer's signature over all of it.

    Raises :class:`HandStateError` if the hand is not finished.
    """
    if not game.finished:
        raise HandStateError("a hand's complete record is written once the hand is finished")
    record = game.record()
    if seeds is not None:
        record["seeds"] = dict(seeds)
    if session is not None:
        record[SESSION_FIELD] = session.to_json()
    record.update(extra or {})
    record[RESULT_FIELD] = json.loads(json.dumps(game.result()))
    return sign_record(record, signing_key) if signing_key is not None else record
