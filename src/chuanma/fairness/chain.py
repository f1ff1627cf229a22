"""Verifying the records of a session together: each later hand of a chained session (dealer
rule not ``random``) must follow the previous hand's record, named by its SHA-256, and be dealt
by that hand's next dealer, which the previous record's replay gives."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from chuanma.engine import replay
from chuanma.errors import ChuanmaError
from chuanma.fairness.checks import Check, Status, Verdict
from chuanma.fairness.errors import RecordError
from chuanma.fairness.session import SESSION_FIELD, SessionHand
from chuanma.fairness.signing import record_digest
from chuanma.fairness.verify import verify_record


def verify_records(
    records: Sequence[object],
    *,
    public_key: bytes | None = None,
    vrf_public_key: bytes | None = None,
    names: Sequence[str] | None = None,
) -> list[Verdict]:
    """:func:`verify_record` for each record, plus a ``session`` check for each later hand of a
    chained session: against the previous hand's record when it is among ``records``,
    else not run.

    Raises :class:`RecordError`, prefixed with the record's name (``names``, else "record 1",
    "record 2", …), for a record that cannot be checked at all.
    """
    labels = names if names is not None else [f"record {i + 1}" for i in range(len(records))]
    verdicts: list[Verdict] = []
    hands: dict[tuple[str, int], Mapping[str, Any]] = {}
    sessions: list[SessionHand | None] = []
    for label, record in zip(labels, records, strict=True):
        try:
            verdicts.append(verify_record(record, public_key=public_key, vrf_public_key=vrf_public_key))
            assert isinstance(record, Mapping)  # verify_record refuses anything else
            session = (SessionHand.from_json(record[SESSION_FIELD])
                       if SESSION_FIELD in record else None)
        except RecordError as exc:
            raise RecordError(f"{label}: {exc}") from None
        sessions.append(session)
        if session is not None:
            hands[session.session_id, session.hand] = record
    out = []
    for session, verdict in zip(sessions, verdicts, strict=True):
        if session is None or not session.follows_winner:
            out.append(verdict)
            continue
        previous = hands.get((session.session_id, session.hand - 1))
        out.append(replace(verdict, checks=(*verdict.checks, _chain_check(session, previous))))
    return out


def _chain_check(session: SessionHand, previous: Mapping[str, Any] | None) -> Check:
    where = f"hand {session.hand - 1} of session {session.session_id!r}"
    if previous is None:
        return Check("session", Status.NOT_RUN,
                     f"not checked: the previous hand's record ({where}) was not given; "
                     "verify the session's records together")
    digest = record_digest(previous)
    if digest != session.previous_sha256:
        return Check("session", Status.FAILED,
                     f"the record names a previous hand with SHA-256 {session.previous_sha256}, "
                     f"but {where} has {digest}")
    try:
        next_dealer = replay(previous).next_dealer()
    except ChuanmaError as exc:
        return Check("session", Status.FAILED, f"{where} does not replay: {exc}")
    if next_dealer != session.previous_next_dealer:
        return Check("session", Status.FAILED,
                     f"the record says {where} passes the deal to seat "
                     f"{session.previous_next_dealer}; its replay gives seat {next_dealer}")
    return Check("session", Status.PASSED,
                 f"follows {where} (its SHA-256 matches), whose next dealer is seat {next_dealer}")
