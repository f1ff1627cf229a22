"""The replay check of the verifier: the record's decisions, played again on its wall."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chuanma.engine.record import RecordError as ReplayError
from chuanma.engine.record import replay
from chuanma.errors import ChuanmaError
from chuanma.fairness.derive import Deal
from chuanma.fairness.verify import Check, Status


def replay_check(record: Mapping[str, Any], deal: Deal | None) -> Check:
    """Replay the hand with the game engine: every decision must be legal on the record's wall.

    Together with the ``wall`` check (the record's wall is the one the seeds give), this shows
    that the hand was played on the fairly dealt wall. A record without decisions (a deal only)
    is not replayed.
    """
    decisions = record.get("decisions")
    if not decisions:
        return Check("replay", Status.NOT_RUN, "not checked: the record has no decisions (a deal only)")
    try:
        game = replay(record)
    except ReplayError as exc:
        return Check("replay", Status.FAILED, f"the decisions do not replay on this wall: {exc}")
    except ChuanmaError as exc:
        return Check("replay", Status.FAILED, f"the record cannot be replayed: {exc}")
    deltas = " ".join(f"{d:+d}" for d in game.deltas())
    return Check("replay", Status.PASSED, f"{len(decisions)} decisions replay legally on this wall (deltas {deltas})")
