"""The table reducer alone: typed inputs in, effects out; no socket, no clock, no database."""

from __future__ import annotations

import json
from typing import Any

from chuanma.fairness import VRFKey
from chuanma.rules import RuleSet
from chuanma.server import effects as fx
from chuanma.server import protocol as p
from chuanma.server import table_inputs as i
from chuanma.server.reducer import reduce, restored
from chuanma.server.table_state import Seat, TableSetup, TableState

T0 = 1_800_000_000.0
TURN, CLAIM, READY, AUTO = 20.0, 8.0, 60.0, 1.0


def table(people: int = 1, auto_delay: float = AUTO) -> TableState:
    """A private table: ``people`` persons (user ids 1.., connections 1..) then bots (ids 101..)."""
    setup = TableSetup("t1", None, RuleSet.from_preset("xuezhan"), VRFKey(bytes(range(32))), "greedy", "easy",
                       "greedy",
                       TURN, CLAIM, READY, 600.0, auto_delay)
    st = TableState(setup)
    for k in range(4):
        person = k < people
        st.seats[k] = Seat.of(k + 1 if person else 101 + k, f"p{k}", not person, "greedy", k)
        if person:
            st.seats[k].conns.append(k + 1)  # type: ignore[union-attr]
    return st


def said(user: int, message: i.CommandMessage) -> i.Said:
    return i.Said(user, user, message)


def ready() -> p.Ready:
    return p.Ready(type="ready", client_seed="seed")


def of(effects: list[fx.Effect], kind: type[Any]) -> list[Any]:
    return [e for e in effects if isinstance(e, kind)]


def sent(effects: list[fx.Effect], kind: str) -> list[dict[str, Any]]:
    return [e.message for e in of(effects, fx.Send) if e.message["type"] == kind]


def deal(st: TableState, now: float = T0) -> list[fx.Effect]:
    """Open the first hand, every person ready, and deal it; the effects of the deal."""
    effects = reduce(st, i.Start(), now)
    assert of(effects, fx.CreateHand) and sent(effects, "hand_start")
    for user in range(1, len(st.humans()) + 1):
        effects = reduce(st, said(user, ready()), now)
    (request,) = of(effects, fx.DealHand)
    assert effects[-1] is request and request.client_seeds[0] == "seed"
    return reduce(st, i.Dealt(("seed",) * 4, (1000,) * 4), now)


def snapshot(st: TableState) -> str:
    assert st.game is not None
    seats = [(s.prompt_version, s.prompt_legal, s.deadline, s.auto) for s in st.seats if s is not None]
    return json.dumps([st.game.state.to_dict(), seats, st.armed])


def test_dealing_stores_the_bots_decisions_before_it_sends_them_and_prompts_the_person() -> None:
    st = table()
    effects = deal(st)
    stored = [k for k, e in enumerate(effects) if isinstance(e, fx.StoreDecisions)]
    events = [k for k, e in enumerate(effects) if isinstance(e, fx.Send) and e.message["type"] == "events"]
    assert events and (not stored or stored[0] < events[0])
    (prompt,) = sent(effects, "prompt")
    assert st.game is not None and prompt["version"] == st.game.asked(0) and prompt["seconds"] in (TURN, CLAIM)
    assert effects[-1] == fx.SetTimer(T0 + prompt["seconds"]) and st.armed == T0 + prompt["seconds"]


def test_a_stale_act_is_refused_by_the_engine_and_changes_nothing() -> None:
    st = table()
    (first,) = sent(deal(st), "prompt")  # the exchange, asked of every seat at once
    assert st.game is not None and st.game.version > first["version"]  # the bots answered since
    act = p.Act(type="act", table="t1", version=first["version"], action=first["legal"][0])
    effects = reduce(st, said(1, act), T0 + 1)  # still the seat's question: accepted
    (stored,) = of(effects, fx.StoreDecisions)
    assert (stored.rows[0]["seat"], stored.rows[0]["by"], stored.rows[0]["action"]) == (0, "player", first["legal"][0])
    (second,) = sent(effects, "prompt")
    assert second["version"] > first["version"]
    before = snapshot(st)
    again = act.model_copy(update={"action": second["legal"][0]})  # made against the first question
    effects = reduce(st, said(1, again), T0 + 2)
    assert len(effects) == 1 and isinstance(effects[0], fx.Refuse)
    assert (effects[0].conn, effects[0].code) == (1, "stale_version")
    assert snapshot(st) == before


def autos(effects: list[fx.Effect]) -> list[dict[str, Any]]:
    return [r for e in of(effects, fx.StoreDecisions) for r in e.rows if r["by"] == "auto"]


def test_a_timeout_puts_the_seat_on_auto_its_bot_decides_once_and_the_timer_is_set_for_the_next() -> None:
    st = table()
    (prompt,) = sent(deal(st), "prompt")
    assert st.game is not None
    decided = len(st.game.decisions)
    due = T0 + prompt["seconds"]
    effects = reduce(st, i.Expire(), due)
    assert {"type": "auto", "v": 1, "table": "t1", "seat": 0, "on": True} in sent(effects, "auto")
    (row,) = autos(effects)
    assert row["idx"] >= decided and row["seat"] == 0
    assert st.game.asked(0) is not None  # the seat owes its next decision (the void) ...
    assert effects[-1] == fx.SetTimer(due + AUTO) and not sent(effects, "prompt")  # ... after the pause
    assert autos(reduce(st, i.Expire(), due + AUTO / 2)) == []  # a wake before it: nothing
    assert len(autos(reduce(st, i.Expire(), due + AUTO))) == 1


def test_with_no_pause_auto_play_plays_on_at_once() -> None:
    st = table(auto_delay=0.0)
    (prompt,) = sent(deal(st), "prompt")
    effects = reduce(st, i.Expire(), T0 + prompt["seconds"])
    assert len(autos(effects)) > 5 and isinstance(effects[-1], fx.SettleHand)


def test_auto_off_or_an_act_stops_the_bot_and_the_player_is_prompted() -> None:
    st = table()
    (prompt,) = sent(deal(st), "prompt")
    due = T0 + prompt["seconds"]
    reduce(st, i.Expire(), due)
    effects = reduce(st, said(1, p.Auto(type="auto", on=False)), due + 0.5)
    (again,) = sent(effects, "prompt")
    assert {"type": "auto", "v": 1, "table": "t1", "seat": 0, "on": False} in sent(effects, "auto")
    assert again["seconds"] == TURN and effects[-1] == fx.SetTimer(due + 0.5 + TURN)
    reduce(st, said(1, p.Auto(type="auto", on=True)), due + 1)
    assert st.armed == due + 1 + AUTO
    act = p.Act(type="act", table="t1", version=again["version"], action=again["legal"][0])
    effects = reduce(st, said(1, act), due + 1.5)  # acting while on 托管 turns it off
    assert {"type": "auto", "v": 1, "table": "t1", "seat": 0, "on": False} in sent(effects, "auto")
    assert not autos(effects) and st.seats[0] is not None and not st.seats[0].auto


def test_turning_auto_on_and_off_gives_back_the_question_with_the_time_it_had_left() -> None:
    """托管 on, then off before its bot answers: the same question comes back, its deadline unmoved,
    however often it is done (toggling never buys time); when the time is up the bot answers."""
    st = table()
    (prompt,) = sent(deal(st), "prompt")
    due = T0 + prompt["seconds"]
    for at in (T0 + 5, T0 + 10, T0 + 15):
        reduce(st, said(1, p.Auto(type="auto", on=True)), at)
        effects = reduce(st, said(1, p.Auto(type="auto", on=False)), at + AUTO / 2)
        (again,) = sent(effects, "prompt")
        assert (again["version"], again["legal"]) == (prompt["version"], prompt["legal"])
        assert again["seconds"] == due - (at + AUTO / 2) and effects[-1] == fx.SetTimer(due)
    assert len(autos(reduce(st, i.Expire(), due))) == 1


def test_a_seat_on_auto_is_not_readied_for_the_next_hand_and_its_ready_ends_auto() -> None:
    st = table()
    (prompt,) = sent(deal(st), "prompt")
    effects = reduce(st, i.Expire(), T0 + prompt["seconds"])
    while not isinstance(effects[-1], fx.SettleHand):
        assert st.armed is not None
        effects = reduce(st, i.Expire(), st.armed)
    effects = reduce(st, i.Settled(dict.fromkeys(st.sat_down[0], 1000)), st.armed or T0)
    assert sent(effects, "hand_end") and sent(effects, "hand_start")[0]["ready_in"] == READY
    seat = st.seats[0]
    assert seat is not None and seat.auto and not seat.ready
    effects = reduce(st, said(1, ready()), T0 + 500)
    assert {"type": "auto", "v": 1, "table": "t1", "seat": 0, "on": False} in sent(effects, "auto")
    assert not seat.auto and isinstance(effects[-1], fx.DealHand)


def test_a_resync_carries_the_recent_events_and_a_rejoin_while_collecting_the_time_left() -> None:
    st = table()
    deal(st)
    assert st.game is not None
    resume = p.Resume(type="resume", table="t1", hand=7, last=-1)  # another hand's: the whole view
    (resync,) = sent(reduce(st, i.Said(1, 9, resume), T0 + 1), "resync")
    assert resync["recent"] == st.game.events_for(0)[-30:] and resync["recent"][-1]["seq"] == resync["last"]
    later = table(people=2)
    reduce(later, i.Start(), T0)
    (start,) = sent(reduce(later, i.Said(2, 9, i.Rejoin()), T0 + 10), "hand_start")
    assert start["ready_in"] == READY - 10


def test_the_hand_is_dealt_once_every_person_is_ready() -> None:
    st = table(people=2)
    reduce(st, i.Start(), T0)
    assert not of(reduce(st, said(1, ready()), T0 + 1), fx.DealHand)
    effects = reduce(st, said(2, ready()), T0 + 2)
    assert isinstance(effects[-1], fx.DealHand) and effects[-1].users == (1, 2, 103, 104)
    assert st.game is None  # dealt when the deal is stored
    reduce(st, i.Dealt(("a", "b", "c", "d"), (5, 5, 5, 5)), T0 + 3)
    assert st.game is not None and st.sat_down == ([1, 2, 103, 104], [5, 5, 5, 5])


def test_ready_during_a_hand_is_refused_and_changes_nothing() -> None:
    st = table()
    deal(st)
    before = snapshot(st)
    effects = reduce(st, said(1, ready()), T0 + 1)
    assert [(e.conn, e.code) for e in of(effects, fx.Refuse)] == [(1, "not_now")]
    assert snapshot(st) == before


def test_a_person_not_ready_in_time_is_replaced_by_a_bot() -> None:
    st = table(people=2)
    reduce(st, i.Start(), T0)
    reduce(st, said(1, ready()), T0 + 1)
    effects = reduce(st, i.Expire(), T0 + READY)
    assert effects[-1] == fx.SeatBot(1, 2)
    assert {"type": "table_closed", "v": 1, "table": "t1", "reason": "not ready in time"} in [
        e.message for e in of(effects, fx.Send) if e.conns == (2,)]
    effects = reduce(st, i.BotSeated(1, 202, "bot", 7), T0 + READY)
    seat = st.seats[1]
    assert seat is not None and seat.bot and seat.ready and seat.user_id == 202
    assert sent(effects, "seated") and isinstance(effects[-1], fx.DealHand)


def test_a_person_leaving_between_hands_is_replaced_by_a_bot_and_bots_do_not_play_alone() -> None:
    st = table()
    reduce(st, i.Start(), T0)
    effects = reduce(st, said(1, p.Leave(type="leave")), T0 + 1)
    assert effects[-1] == fx.SeatBot(0, 1) and sent(effects, "table_closed")
    effects = reduce(st, i.BotSeated(0, 200, "bot", 3), T0 + 1)
    assert st.closed and isinstance(effects[0], fx.Release) and effects[0].users == (200, 102, 103, 104)
    assert effects[-1] == fx.SetTimer(None)


def test_a_person_leaving_a_hand_ends_it_and_is_replaced_once_it_is_settled() -> None:
    st = table(people=2)
    reduce(st, i.Start(), T0)
    reduce(st, said(1, ready()), T0)
    reduce(st, said(2, ready()), T0)
    reduce(st, i.Dealt(("a", "b", "c", "d"), (5, 5, 5, 5)), T0)
    effects = reduce(st, said(1, p.Leave(type="leave")), T0 + 1)
    rows = [r for e in of(effects, fx.StoreDecisions) for r in e.rows]
    assert rows[-1]["action"] == {"leave": True} and isinstance(effects[-1], fx.SettleHand)
    assert effects[-1].kinds[1] == "escape"
    effects = reduce(st, i.Settled({1: 0, 2: 10, 103: 5, 104: 5}), T0 + 2)
    assert sent(effects, "hand_end") and effects[-1] == fx.SeatBot(0, 1)
    assert st.game is None
    effects = reduce(st, i.BotSeated(0, 200, "bot", 3), T0 + 2)
    assert of(effects, fx.CreateHand) and st.number == 1


def told_on_resume(st: TableState, hand: int, last: int = 40) -> list[dict[str, Any]]:
    """What player 2 is sent resuming (connection 9) from event ``last`` of ``hand``."""
    effects = reduce(st, i.Said(2, 9, p.Resume(type="resume", table="t1", hand=hand, last=last)), T0 + 4)
    return [e.message for e in of(effects, fx.Send)]


def test_a_player_away_when_a_hand_ended_is_told_its_end_when_resuming_in_the_next() -> None:
    """Player 2's connection closes mid-hand; the hand ends (player 1 escapes) and the next opens.
    Resuming from the ended hand, player 2 is told its ``hand_end``, on this table and on one
    rebuilt from the database (as another node does after a failover or a drain)."""
    st = table(people=2)
    reduce(st, i.Start(), T0)
    reduce(st, said(1, ready()), T0)
    reduce(st, said(2, ready()), T0)
    reduce(st, i.Dealt(("a", "b", "c", "d"), (500, 500, 500, 500)), T0)
    reduce(st, said(2, i.Detach()), T0 + 1)
    (settle,) = of(reduce(st, said(1, p.Leave(type="leave")), T0 + 2), fx.SettleHand)
    effects = reduce(st, i.Settled({u: 500 + d for u, d in settle.deltas.items()}), T0 + 3)
    ends = [e for e in of(effects, fx.Send) if e.message["type"] == "hand_end"]
    assert [e.conns for e in ends] == [(1,)]  # not player 2: away
    (opened,) = of(reduce(st, i.BotSeated(0, 200, "bot", 3), T0 + 3), fx.CreateHand)
    assert st.number == 1 and st.game is None  # the next hand collects its seeds
    told = told_on_resume(st, 0)
    assert [m["type"] for m in told] == ["seated", "hand_end", "hand_start"] and told[1] == ends[0].message
    assert "hand_end" not in [m["type"] for m in told_on_resume(st, 1)]  # resuming from the hand now
    assert "hand_end" not in [m["type"] for m in told_on_resume(st, 0, -1)]  # a client that lost everything
    rebuilt = table(people=2)
    rebuilt.seats[0] = Seat.of(200, "bot", True, "greedy", 0)
    stored = {"id": "t1-0", "number": 0, "status": "settled", "record": settle.record, "balances": [500] * 4}
    restored(rebuilt, opened.row, [], T0 + 4, stored)
    assert told_on_resume(rebuilt, 0)[1] == ends[0].message
    # attached again to the rebuilt table without asking (its connection's node lives on), player 2
    # is told the end too: the node that settled the hand may have died before sending it
    told = [e.message for e in of(reduce(rebuilt, i.Said(2, 9, i.Rejoin()), T0 + 5), fx.Send)]
    assert [m["type"] for m in told] == ["seated", "hand_end", "hand_start"] and told[1] == ends[0].message


def test_an_unknown_player_is_refused_and_a_full_table_refuses_a_seat() -> None:
    st = table()
    reduce(st, i.Start(), T0)
    effects = reduce(st, i.Said(9, 9, ready()), T0)
    assert [(e.conn, e.code) for e in of(effects, fx.Refuse)] == [(9, "not_seated")]
    effects = reduce(st, i.Said(9, 9, i.Sit()), T0)
    assert [(e.conn, e.code) for e in of(effects, fx.Refuse)] == [(9, "table_full")]


def test_an_operators_void_of_another_hand_is_refused_and_of_the_hand_in_play_closes_the_table() -> None:
    """The operator's connection (number 99, the host's user 0) gets the refusal or the ``hand_void``;
    the table is released with the reason, the hand's record left to the release (none computed)."""
    st = table()
    deal(st)
    assert st.hand_id is not None
    effects = reduce(st, i.Said(0, 99, i.Void("another-hand", "stuck")), T0)
    assert [(e.conn, e.code) for e in of(effects, fx.Refuse)] == [(99, "not_in_play")] and not st.closed
    effects = reduce(st, i.Said(0, 99, i.Void(st.hand_id, "stuck")), T0)
    (release,) = of(effects, fx.Release)
    assert release.reason == "voided by an operator: stuck" and release.record is None and st.closed
    voids = [(e.conns, e.message["hand_id"]) for e in of(effects, fx.Send) if e.message["type"] == "hand_void"]
    assert voids == [((1,), st.hand_id), ((99,), st.hand_id)]
    assert [e.conns for e in of(effects, fx.Send) if e.message["type"] == "table_closed"] == [(1,)]
