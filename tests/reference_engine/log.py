"""The reference reducer's log: events appended to a state's log and payments to its ledger."""

from __future__ import annotations

from typing import Any

from chuanma.engine.events import Event, Visibility
from chuanma.engine.ledger import Payment, Reason
from chuanma.engine.state import HandState

_new_event = tuple.__new__


def emit(
    st: HandState, type_: str, seat: int | None, data: dict[str, Any] | None = None,
    private: dict[str, Any] | None = None, visibility: Visibility = "public",
) -> Event:
    """Append an event to the log."""
    # tuple.__new__ skips the named tuple's Python-level constructor: same value, less time
    ev = _new_event(Event, (len(st.events), type_, seat, data or {}, private or {}, visibility))
    st.events.append(ev)
    return ev


def pay(st: HandState, payer: int, payee: int, amount: int, reason: Reason, seq: int) -> int | None:
    """Record a payment (and its event); returns its ledger index (``None``: nothing paid)."""
    if amount <= 0 or payer == payee:
        return None
    ledger = st.public.ledger
    ledger.append(Payment(payer, payee, amount, reason, seq))
    emit(st, "payment", None,
         {"payer": payer, "payee": payee, "amount": amount, "reason": reason, "for": seq})
    return len(ledger) - 1
