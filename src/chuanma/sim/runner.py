"""Running many hands: in this process, on a local process pool, or on a Ray cluster.

Work is cut into chunks of hand indices. Every hand depends only on the run's seed and its
index (its deal, its bots' seeds and, under a dealer rule other than ``random``, the hands before it in its
session, which a chunk starting inside a session plays again), and results are merged with
integer sums, so the outcome is the same whatever the backend or the number of workers.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chuanma.analysis.incremental import load as load_analysis_tables
from chuanma.bots import make_bot
from chuanma.bots.base import Player
from chuanma.errors import ChuanmaError
from chuanma.rules import RuleSet
from chuanma.sim.play import bot_seed, deal_for, play_hand
from chuanma.sim.session import DEFAULT_SESSION_HANDS, play_sessions
from chuanma.sim.stats import Tally


@dataclass(frozen=True, slots=True)
class SimSpec:
    """A simulation: the rules, the bot at each seat, the seed, where to write records, and how
    many hands make a session."""

    rules: dict[str, Any] | str
    bots: tuple[str, str, str, str]
    seed: int
    record_dir: str | None = None
    session_hands: int = DEFAULT_SESSION_HANDS

    def ruleset(self) -> RuleSet:
        return RuleSet.from_json(self.rules)


def simulate_chunk(spec: SimSpec, start: int, stop: int) -> Tally:
    """Play hands ``start`` to ``stop - 1`` of the run."""
    tally = Tally()
    extra = {"bots": list(spec.bots)} if spec.record_dir is not None else None

    def bots_for(i: int) -> list[Player]:
        return [make_bot(spec.bots[s], bot_seed(spec.seed, i, s)) for s in range(4)]

    for i, result in play_sessions(spec.ruleset(), spec.seed, start, stop, bots_for,
                                   session_hands=spec.session_hands, record=extra):
        if spec.record_dir is not None and result.record is not None:
            path = Path(spec.record_dir) / f"hand-{i:07d}.json"
            path.write_text(json.dumps(result.record, ensure_ascii=False), encoding="utf-8")
        tally.add(spec.bots, result)
    return tally


@dataclass(frozen=True, slots=True)
class LeagueSpec:
    """Duplicate play: each wall is played four times with the line-up rotated by one seat.

    Every wall is an independent hand dealt by the stream (dealer included), whatever the
    preset's dealer rule: a rotation must meet the same deal as the others."""

    rules: dict[str, Any] | str
    bots: tuple[str, ...]
    seed: int

    def lineup(self, wall: int) -> list[str]:
        """The four seats' bots of rotation 0 for ``wall``: with three bots, one sits twice,
        a different one for each wall in turn; with two, each sits twice."""
        names = list(self.bots)
        if len(names) >= 4:
            return names[:4]
        if len(names) == 3:
            extra = names[wall % 3]
            return [*names, extra]
        return (names * 4)[:4]


WallScores = list[dict[str, tuple[int, int]]]
"""Per wall: each bot's total score and seat-hands over the four rotations."""


def league_chunk(spec: LeagueSpec, start: int, stop: int) -> tuple[Tally, WallScores]:
    rules = RuleSet.from_json(spec.rules)
    tally = Tally()
    walls: WallScores = []
    for w in range(start, stop):
        deal = deal_for(spec.seed, w, rules.tiles)
        line = spec.lineup(w)
        per: dict[str, tuple[int, int]] = {}
        for rot in range(4):
            names = [line[(s + rot) % 4] for s in range(4)]
            bots = [make_bot(names[s], bot_seed(spec.seed, w * 4 + rot, s)) for s in range(4)]
            result = play_hand(rules, deal, bots)
            tally.add(names, result)
            for name, r in zip(names, result.seats, strict=True):
                tot, n = per.get(name, (0, 0))
                per[name] = (tot + r.delta, n + 1)
        walls.append(per)
    return tally, walls


def chunks(total: int, size: int) -> list[tuple[int, int]]:
    return [(i, min(total, i + size)) for i in range(0, total, size)]


class MissingRayError(ChuanmaError):
    """The Ray backend was asked for, and Ray is not installed."""


def require_ray() -> Any:
    """The ``ray`` module, or :class:`MissingRayError` naming the extra that installs it."""
    try:
        import ray
    except ImportError:
        raise MissingRayError("the Ray backend needs Ray: pip install 'chuanma[ray]'") from None
    return ray


def pool_size(workers: int, parts: int) -> int:
    """Local worker processes for ``parts`` chunks: ``workers``, but no more than the chunks and the cores."""
    return max(1, min(workers, parts, os.cpu_count() or 1))


def _init_ray(address: str) -> Any:
    ray = require_ray()
    if not ray.is_initialized():
        if address == "local":
            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
    return ray


def run_chunks(
    fn: Callable[..., Any], spec: Any, parts: Sequence[tuple[int, int]], *, workers: int = 1,
    ray_address: str | None = None,
) -> Iterator[tuple[tuple[int, int], Any]]:
    """Yield ``(part, fn(spec, *part))`` as parts finish (in any order); at most :func:`pool_size`
    local processes run."""
    if ray_address is not None:
        ray = _init_ray(ray_address)
        remote = ray.remote(fn)
        refs = {remote.remote(spec, a, b): (a, b) for a, b in parts}
        pending = list(refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield refs[ref], ray.get(ref)
        return
    workers = pool_size(workers, len(parts))
    if workers == 1:
        for a, b in parts:
            yield (a, b), fn(spec, a, b)
        return
    load_analysis_tables()  # forked workers inherit them instead of each loading them
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futs = {pool.submit(fn, spec, a, b): (a, b) for a, b in parts}
        for fut in as_completed(futs):
            yield futs[fut], fut.result()
