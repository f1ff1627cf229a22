"""A random player for engine tests that wins, claims and discards towards a win often enough
to reach every rule (exhaustive draws, locked 血流 hands, kongs, robbed kongs, three winners),
and the records of its hands with their automatic moves written out or left out."""

from __future__ import annotations

import copy
import dataclasses
import random
from typing import Any, get_args

from chuanma.analysis import shanten
from chuanma.engine.actions import Action, Chow, Discard, Hu, Kong, Pass, Pong
from chuanma.engine.game import Direction, Game
from chuanma.rules import RuleSet
from chuanma.tiles import to_counts


def random_hand(preset: str, seed: int, seeds: dict[str, Any] | None = None) -> tuple[Game, random.Random]:
    """A hand of ``preset`` on a wall shuffled by ``seed`` (with ``seeds`` as its secret seeds), and
    the generator for its decisions."""
    rng = random.Random(seed)
    rules = RuleSet.from_preset(preset)
    wall = rules.tiles.wall()
    rng.shuffle(wall)
    g = Game(rules, wall, rng.randrange(4), rng.choice(get_args(Direction)), seeds=seeds)
    return g, rng


def pick(rng: random.Random, legal: list[Action], g: Game, seat: int) -> Action:
    """The random player of the engine's property tests."""
    return lean_to_win(rng, legal, g, seat, win=0.85, towards=0.8)


def lean_to_win(rng: random.Random, legal: list[Action], g: Game, seat: int, *,
                win: float, claim: float = 0.6, towards: float) -> Action:
    """Win with probability ``win``, claim with ``claim``, discard for the lowest shanten with
    ``towards``; otherwise any legal action."""
    if Hu() in legal and rng.random() < win:
        return Hu()
    claims = [a for a in legal if isinstance(a, Kong | Pong | Chow)]
    if claims and rng.random() < claim:
        return rng.choice(claims)
    discards = [a for a in legal if isinstance(a, Discard)]
    if len(discards) > 1 and not (st := g.state).public.locked[seat] and rng.random() < towards:
        hand, void = st.seats[seat].hand, st.seats[seat].void  # one snapshot (each read builds one)

        def after(d: Discard) -> int:
            hand[d.tile] -= 1
            value = shanten(hand, void)
            hand[d.tile] += 1
            return value

        return min(discards, key=after)
    return rng.choice(legal)


def record_decisions(moves: list[tuple[int, Action]]) -> list[dict[str, Any]]:
    """``moves`` as a record's decisions."""
    return [{"seat": seat, **action.to_json()} for seat, action in moves]


def written_and_omitted(g: Game) -> tuple[list[tuple[int, Action]], list[tuple[int, Action]]]:
    """``g``'s decisions with every automatic one written in where it happened (right after the
    decision that brought it about), and without the forced wins and passes a record may omit
    (a pass is kept when its seat's next decision is a claim: it would be read as the answer)."""
    shadow = Game(g.rules, g.wall, g.dealer, g.direction)
    written = list(shadow.autos)
    kept: list[tuple[int, Action]] = []
    for seat, action in g.decisions:
        forced = shadow.legal_actions(seat) == [Hu()]
        mark = len(shadow.autos)
        shadow.apply(seat, action)
        written += [(seat, action), *shadow.autos[mark:]]
        if not forced:
            kept.append((seat, action))
    omitted = []
    for i, (seat, action) in enumerate(kept):
        after = next((m for m in kept[i + 1:] if m[1] != Pass()), None)
        if action != Pass() or (after is not None and after[0] == seat and isinstance(after[1], Hu | Kong | Pong)):
            omitted.append((seat, action))
    return written, omitted


def hidden_swaps(g: Game, viewer: int | None, rng: random.Random) -> list[Game]:
    """Copies of ``g`` that differ from it only in what ``viewer`` may not know: a concealed tile
    of another seat (not part of a hand laid down at a win) swapped with a tile of the live wall;
    in 定缺, another seat's void while it is secret: undecided, or chosen without anyone being told
    (as a hand of exactly two suits has it chosen)."""
    st = g.state
    pub = st.public
    if pub.phase == "end" or pub.tail < pub.live:
        return []
    out = []
    shown: dict[int, list[int]] = {}
    for w in pub.wins:
        shown[w.seat] = to_counts(list(w.hand), limit=4)
    for a in range(4):
        if a == viewer:
            continue
        if pub.phase == "void" and not pub.void_chosen[a]:
            o = dataclasses.replace(st, seats=copy.deepcopy(st.seats))
            o.seats[a].void = None if o.seats[a].void is not None else rng.choice("mps")
            out.append(Game.from_state(o))
        hand = st.seats[a].hand
        laid = shown.get(a, [0] * 34)
        private = [t for t in range(34) if hand[t] > laid[t]]
        if not private:
            continue
        t = rng.choice(private)
        i = rng.randrange(pub.live, pub.tail + 1)
        u = st.hidden.wall[i]
        if u == t:
            continue
        # a copy of the parts the swap changes (the seats and the wall), sharing the rest
        o = dataclasses.replace(st, seats=copy.deepcopy(st.seats),
                                hidden=dataclasses.replace(st.hidden, wall=list(st.hidden.wall)))
        other = Game.from_state(o)
        o.seats[a].hand[t] -= 1
        o.seats[a].hand[u] += 1
        if o.seats[a].drawn == t:
            o.seats[a].drawn = u
        o.hidden.wall[i] = t
        out.append(other)
    return out
