"""The verifier's checks that need the game engine: the record's decisions, played again on its
wall, and their outcome compared with the record's result."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from chuanma.engine import Game, replay
from chuanma.engine import RecordError as ReplayError
from chuanma.errors import ChuanmaError
from chuanma.fairness.checks import Check, Status
from chuanma.fairness.records import RESULT_FIELD

RESULT_PARTS = ("deltas", "payments", "winners")


def replay_checks(record: Mapping[str, Any]) -> list[Check]:
    """``replay``: every decision is legal on the record's wall and the hand finishes;
    ``result``: the replay's deltas, payments and winners are exactly the record's.

    Together with the ``wall`` check (the record's wall is the one the seeds give), this shows
    that the hand was played on the fairly dealt wall, with the stated outcome. A record without
    decisions or result (a deal only) is not replayed; one that states a result is, decisions or
    none.
    """
    decisions = record.get("decisions") or []
    if not decisions and RESULT_FIELD not in record:
        reason = "not checked: the record has no decisions (a deal only)"
        return [Check("replay", Status.NOT_RUN, reason), Check("result", Status.NOT_RUN, reason)]
    try:
        game = replay(record)
    except ReplayError as exc:
        failed = Check("replay", Status.FAILED, f"the decisions do not replay on this wall: {exc}")
    except ChuanmaError as exc:
        failed = Check("replay", Status.FAILED, f"the record cannot be replayed: {exc}")
    else:
        deltas = " ".join(f"{d:+d}" for d in game.deltas())
        return [Check("replay", Status.PASSED,
                      f"{len(decisions)} decisions replay legally on this wall (deltas {deltas})"),
                result_check(record, game)]
    return [failed, Check("result", Status.NOT_RUN, "not checked: the hand does not replay")]


def result_check(record: Mapping[str, Any], game: Game) -> Check:
    """The record's ``"result"`` against the replayed ``game``'s, naming the first difference."""
    if RESULT_FIELD not in record:
        return Check("result", Status.FAILED,
                     "the record states no result, so its payments are not proven")
    stated = record[RESULT_FIELD]
    if not isinstance(stated, Mapping):
        return Check("result", Status.FAILED, f"'result' must be an object, not {stated!r}")
    replayed = json.loads(json.dumps(game.result()))
    for part in RESULT_PARTS:
        want, got = replayed[part], stated.get(part)
        if got == want:
            continue
        if part == "deltas" or not isinstance(got, list):
            return Check("result", Status.FAILED,
                         f"result.{part} is {got!r}, the replay gives {want!r}")
        if len(got) != len(want):
            return Check("result", Status.FAILED,
                         f"result.{part} lists {len(got)}, the replay gives {len(want)}")
        i = next(i for i, (a, b) in enumerate(zip(got, want, strict=True)) if a != b)
        return Check("result", Status.FAILED,
                     f"result.{part}[{i}] is {got[i]!r}, the replay gives {want[i]!r}")
    extra = sorted(set(stated) - set(RESULT_PARTS))
    if extra:
        return Check("result", Status.FAILED, f"'result' has unknown fields {extra}")
    return Check("result", Status.PASSED,
                 f"deltas, {len(replayed['payments'])} payments and {len(replayed['winners'])} "
                 "wins are exactly the replay's")
