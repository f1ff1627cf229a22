"""Train the policy: imitate a teacher bot (``expert`` by default), then PPO against the bots.

    python -m chuanma.train --out runs/agent [--teacher expert] [--imitation-hands 400] [--epochs 6]
        [--pg-hands 2000] [--pg-lr 1e-4] [--kl 0.5] [--opponents defensive,greedy,random] [--seed 1]

Writes ``imitation.pt`` (after imitation), ``pg-<hands>.pt`` checkpoints, ``policy.pt`` (the
final weights, playable as ``--bots learned:runs/agent/policy.pt``) and ``curve.json`` (the
learning curve: imitation loss and accuracy per epoch; per batch of PPO hands, the mean result,
the losses, the entropy and the divergence from the imitated policy), written again after every
epoch and every batch, so that a run can be followed (or read after an interruption) as it goes.
On a terminal a progress bar shows each phase with its latest figures; a line is printed for every
epoch and every checkpoint in any case. A preset the policy cannot read (大众麻将's 34 tile kinds)
is refused before anything runs. Needs the ``learn`` extra (PyTorch; the PPO phase plays through
:class:`chuanma.env.SingleSeatEnv`).
"""

from __future__ import annotations

import argparse
import copy
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from chuanma.bots import BOTS, UnknownBotError, check_bot_name, decide, make_bot
from chuanma.encoding import ENCODERS, encoder
from chuanma.engine import Game, mask, to_index
from chuanma.env import SingleSeatEnv
from chuanma.errors import ChuanmaError
from chuanma.learn import unplayable
from chuanma.learn.policy import Policy
from chuanma.rules import RuleSet
from chuanma.sim.play import bot_seed, deal_for

Samples = tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]
Row = dict[str, float]
RESULT_SCALE = 32
"""The PPO phase's returns (what a decision was paid to the end of its hand) are in units of this
many base."""


def imitation_samples(rules: RuleSet, hands: int, seed: int, encoder_name: str, teacher: str = "expert",
                      done: Callable[[], object] = lambda: None) -> Samples:
    """Observations, masks and the ``teacher`` bot's choices at its decisions with a real choice,
    from ``hands`` hands of four teachers on the simulator's deals; ``done`` is called after each hand."""
    encode, shape = encoder(encoder_name, rules)
    obs: list[npt.NDArray[np.float32]] = []
    masks: list[npt.NDArray[np.int8]] = []
    actions: list[int] = []
    for i in range(hands):
        deal = deal_for(seed, i, rules.tiles)
        game = Game(rules, list(deal.wall), deal.dealer, deal.direction)
        bots = [make_bot(teacher, bot_seed(seed, i, s)) for s in range(4)]
        while not game.finished:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            action = decide(bots[seat], game, seat, legal)
            if len(legal) > 1:
                obs.append(encode(game.core.observer(seat), np.empty(shape, dtype=np.float32)))
                masks.append(mask(legal))
                actions.append(to_index(action))
            game.apply(seat, action)
        done()
    return np.stack(obs), np.stack(masks), np.array(actions, dtype=np.int64)


def imitate(policy: Policy, data: Samples, epochs: int, batch: int = 256, lr: float = 1e-3,
            seed: int = 0, weight_decay: float = 0.0, holdout: float = 0.1,
            epoch_done: Callable[[Row], object] = lambda row: None) -> list[Row]:
    """Fit ``policy`` to the teacher's choices (cross-entropy, AdamW), keeping the weights of the
    epoch that agrees best with the teacher on the ``holdout`` share of the samples it does not
    train on (:func:`kept_epoch`); loss, training and held-out accuracy per epoch, each row also
    handed to ``epoch_done`` as its epoch ends."""
    obs, m, a = data
    x = torch.from_numpy(policy.inputs(obs))
    masks, actions = torch.from_numpy(m), torch.from_numpy(a)
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(x))
    cut = len(x) - int(len(x) * holdout)
    train, held = order[:cut], order[cut:]
    opt = torch.optim.AdamW(policy.parameters(), lr=lr, weight_decay=weight_decay)
    curve: list[Row] = []
    best: tuple[float, dict[str, torch.Tensor]] = (-1.0, copy.deepcopy(policy.state_dict()))
    for epoch in range(epochs):
        losses = []
        for at in range(0, len(train), batch):
            idx = torch.from_numpy(train[at:at + batch])
            logp, _ = policy(x[idx], masks[idx])
            loss = -logp.gather(1, actions[idx, None]).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        rng.shuffle(train)
        row = {"epoch": epoch + 1, "loss": float(np.mean(losses)),
               "accuracy": agreement(policy, x, masks, actions, train)}
        if len(held):
            row["held_out_accuracy"] = agreement(policy, x, masks, actions, held)
            if row["held_out_accuracy"] > best[0]:
                best = (row["held_out_accuracy"], copy.deepcopy(policy.state_dict()))
        curve.append(row)
        epoch_done(row)
    if len(held):
        policy.load_state_dict(best[1])
    return curve


def kept_epoch(curve: Sequence[Row]) -> Row:
    """The row of the epoch whose weights :func:`imitate` keeps: the first with the best held-out
    accuracy (the last epoch when nothing was held out)."""
    if not curve:
        raise ValueError("no epoch was trained")
    if "held_out_accuracy" not in curve[0]:
        return curve[-1]
    return max(curve, key=lambda row: row["held_out_accuracy"])  # max keeps the first of equals


def agreement(policy: Policy, x: torch.Tensor, masks: torch.Tensor, actions: torch.Tensor,
              rows: npt.NDArray[np.int64]) -> float:
    """How often the policy's most probable action is ``actions``' (the teacher's), over ``rows``."""
    hits = 0
    with torch.no_grad():
        for at in range(0, len(rows), 8192):  # in chunks: a forward pass holds rows × 623 numbers
            idx = torch.from_numpy(rows[at:at + 8192])
            hits += int((policy(x[idx], masks[idx])[0].argmax(dim=1) == actions[idx]).sum())
    return hits / max(len(rows), 1)


@dataclass(slots=True)
class Batch:
    """The agent's decisions with a real choice over a batch of hands: inputs, masks, the actions
    taken, their log-probabilities and values when taken, and the result of each one's hand."""

    x: list[npt.NDArray[np.float32]] = field(default_factory=list)
    masks: list[npt.NDArray[np.int8]] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    logp: list[float] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)


def ppo_update(policy: Policy, opt: torch.optim.Optimizer, batch: Batch, *, epochs: int = 4, clip: float = 0.2,
               value_coef: float = 0.5, entropy_coef: float = 0.01, reference: Policy | None = None,
               kl_coef: float = 0.0) -> dict[str, float]:
    """PPO's clipped update on one batch: the advantage of a decision is what the agent was paid
    from it to the end of the hand less the value the network gave it; ``epochs`` passes over the
    whole batch. With a ``reference`` policy (the imitation's), ``kl_coef`` weighs the divergence
    KL(reference ‖ policy), which keeps the policy near what it imitated. Returns the last pass's
    policy loss, value loss, entropy and divergence."""
    x = torch.from_numpy(np.stack(batch.x))
    masks = torch.from_numpy(np.stack(batch.masks))
    actions = torch.tensor(batch.actions)[:, None]
    old_logp = torch.tensor(batch.logp)
    returns = torch.tensor(batch.returns)
    adv = returns - torch.tensor(batch.values)
    if len(adv) > 1:
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    ref_p: torch.Tensor | None = None
    if reference is not None:
        with torch.no_grad():
            ref_p = reference(x, masks)[0].exp()
    stats: dict[str, float] = {}
    for _ in range(epochs):
        logp, value = policy(x, masks)
        finite = logp.nan_to_num(neginf=0.0)  # illegal actions: probability 0, no term
        ratio = (logp.gather(1, actions).squeeze(1) - old_logp).exp()
        policy_loss = -torch.min(ratio * adv, ratio.clamp(1 - clip, 1 + clip) * adv).mean()
        value_loss = (value - returns).pow(2).mean()
        entropy = -(logp.exp() * finite).sum(dim=1).mean()
        kl = torch.zeros(())
        if ref_p is not None:
            kl = (ref_p * (ref_p.clamp_min(1e-12).log() - finite)).sum(dim=1).mean()
        loss = policy_loss + value_coef * value_loss - entropy_coef * entropy + kl_coef * kl
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
        opt.step()
        stats = {"policy_loss": policy_loss.item(), "value_loss": value_loss.item(), "entropy": entropy.item(),
                 "kl": kl.item()}
    return stats


def improve(policy: Policy, rules: RuleSet, hands: int, opponents: Sequence[str], *, seed: int,
            batch_hands: int = 32, lr: float = 1e-4, kl_coef: float = 0.0,
            checkpoint: Path | None = None, hand_done: Callable[[], object] = lambda: None,
            batch_done: Callable[[Row], object] = lambda row: None) -> list[Row]:
    """PPO against ``opponents``: the policy, sampling its actions, plays a random seat against
    the three bots through :class:`SingleSeatEnv` for ``hands`` hands, paid as payments happen;
    one update per ``batch_hands`` hands, held near the policy it starts from by ``kl_coef``.
    Returns per batch the mean result in base units per hand and the update's losses; a
    checkpoint every ten batches in ``checkpoint``. ``hand_done`` is called after each hand,
    ``batch_done`` with each batch's row."""
    env = SingleSeatEnv(rules, opponents=list(opponents), seat="random", encoder=policy.encoder,
                        reward="event")
    reference = copy.deepcopy(policy) if kl_coef else None
    rng = np.random.default_rng(seed)
    opt = torch.optim.Adam(policy.parameters(), lr=lr)
    curve: list[Row] = []
    batch = Batch()
    results: list[float] = []
    obs, info = env.reset(seed=seed)
    for hand in range(1, hands + 1):
        paid = float(info["reward_before"])  # before the agent's first decision: nobody's doing
        before: list[float] = []  # what the agent had been paid at each of its decisions
        done = False
        while not done:
            legal = obs["action_mask"]
            if legal.sum() > 1:
                x = policy.inputs(obs["observation"][None])
                with torch.no_grad():
                    logp, value = policy(torch.from_numpy(x), torch.from_numpy(legal[None]))
                p = logp[0].exp().numpy().astype(np.float64)
                action = int(rng.choice(len(p), p=p / p.sum()))
                batch.x.append(x[0])
                batch.masks.append(legal)
                batch.actions.append(action)
                batch.logp.append(float(logp[0, action]))
                batch.values.append(float(value[0]))
                before.append(paid)
            else:
                action = int(np.flatnonzero(legal)[0])
            obs, reward, done, _, info = env.step(action)
            paid += float(reward)
        batch.returns.extend([(paid - b) / RESULT_SCALE for b in before])
        results.append(paid)
        hand_done()
        obs, info = env.reset()
        if hand % batch_hands == 0 or hand == hands:
            row: Row = {"hands": hand, "mean_result": float(np.mean(results))}
            if batch.actions:
                row.update(ppo_update(policy, opt, batch, reference=reference, kl_coef=kl_coef))
            curve.append(row)
            batch, results = Batch(), []
            if checkpoint is not None and hand % (batch_hands * 10) == 0:
                policy.save(checkpoint / f"pg-{hand}.pt")
            batch_done(row)
    return curve


class Run:
    """What a training run shows and keeps as it goes: ``curve.json`` in ``out`` written again after
    every epoch and batch, a line for each epoch and checkpoint, and on a terminal a progress bar
    for each phase with its latest figures."""

    def __init__(self, out: Path, curve: dict[str, Any]) -> None:
        self.path = out / "curve.json"
        self.curve = curve
        console = Console()
        self.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("{task.fields[figures]}"), TimeElapsedColumn(), TimeRemainingColumn(),
                                 console=console, disable=not console.is_terminal)

    def save(self) -> None:
        """Write the curve as it stands (whole: a reader never sees half a file)."""
        part = self.path.with_name(self.path.name + ".part")
        part.write_text(json.dumps(self.curve, indent=1) + "\n", encoding="utf-8")
        part.replace(self.path)

    def say(self, line: str) -> None:
        """Print ``line`` (above the bar on a terminal)."""
        self.progress.console.print(line, markup=False, highlight=False, soft_wrap=True)


def figures(row: Row, *names: str) -> str:
    """``row``'s figures called ``names`` (those it has), as ``name value`` pairs."""
    return ", ".join(f"{name.replace('_', ' ')} {row[name]:.3f}" for name in names if name in row)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m chuanma.train", description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="folder for the weights and the curve")
    ap.add_argument("--rules", default="xuezhan", help="rule preset")
    ap.add_argument("--encoder", default="compact", choices=sorted(ENCODERS))
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--no-analysis", action="store_true", help="leave out the hand-analysis inputs")
    ap.add_argument("--teacher", default="expert", choices=list(BOTS), help="the bot whose decisions are imitated")
    ap.add_argument("--imitation-hands", type=int, default=400)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--weight-decay", type=float, default=0.0, help="AdamW weight decay of the imitation")
    ap.add_argument("--pg-hands", type=int, default=2000, help="hands of the PPO phase")
    ap.add_argument("--batch-hands", type=int, default=32, help="hands per PPO update")
    ap.add_argument("--pg-lr", type=float, default=1e-4, help="learning rate of the PPO phase")
    ap.add_argument("--kl", type=float, default=0.5, help="weight of the divergence from the imitated policy")
    ap.add_argument("--opponents", default="defensive,greedy,random",
                    help="three bots, comma-separated (learned:PATH for self-play against a trained policy)")
    ap.add_argument("--threads", type=int, default=1, help="PyTorch threads (the network is small: one is fastest)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    opponents = [n.strip() for n in args.opponents.split(",")]
    if len(opponents) != 3:
        ap.error(f"--opponents: give three of {', '.join(BOTS)}, learned or learned:PATH, comma-separated")
    for name in opponents:
        try:
            check_bot_name(name)
        except UnknownBotError as exc:
            ap.error(f"--opponents: {exc}")
    for name in ("hidden", "imitation_hands", "epochs", "pg_hands", "batch_hands", "threads"):
        if getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be at least 1")
    try:
        rules = RuleSet.from_preset(args.rules)
    except ChuanmaError as exc:
        ap.error(f"--rules: {exc}")
    why = unplayable(rules)
    if why is not None:
        ap.error(f"--rules: {why}")
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        ap.error(f"--out: cannot create {args.out}: {exc.strerror}")
    torch.set_num_threads(args.threads)
    curve: dict[str, Any] = {"rules": args.rules, "encoder": args.encoder, "hidden": args.hidden, "seed": args.seed,
                             "analysis": not args.no_analysis, "teacher": args.teacher,
                             "imitation": [], "policy_gradient": []}
    run = Run(args.out, curve)
    start = time.perf_counter()
    policy = Policy.new(args.encoder, args.hidden, args.seed, analysis=not args.no_analysis)
    with run.progress:
        bar = run.progress.add_task(f"{args.teacher}'s hands", total=args.imitation_hands, figures="")
        data = imitation_samples(rules, args.imitation_hands, args.seed, args.encoder, args.teacher,
                                 done=lambda: run.progress.advance(bar))
        curve["imitation_samples"] = len(data[2])
        bar = run.progress.add_task("imitation", total=args.epochs, figures="")

        def epoch_done(row: Row) -> None:
            curve["imitation"].append(row)
            run.save()
            shown = figures(row, "loss", "accuracy", "held_out_accuracy")
            run.progress.update(bar, advance=1, figures=shown)
            run.say(f"imitation epoch {row['epoch']:.0f}/{args.epochs}: {shown}")

        imitate(policy, data, args.epochs, seed=args.seed, weight_decay=args.weight_decay, epoch_done=epoch_done)
        policy.save(args.out / "imitation.pt")
        kept = kept_epoch(curve["imitation"])
        curve["imitation_kept_epoch"] = kept["epoch"]
        curve["imitation_seconds"] = round(time.perf_counter() - start, 1)
        run.save()
        run.say(f"imitation: {len(data[2])} decisions; the weights of epoch {kept['epoch']:.0f} kept "
                f"({figures(kept, 'accuracy', 'held_out_accuracy')}), {curve['imitation_seconds']:.0f}s")
        bar = run.progress.add_task("PPO", total=args.pg_hands, figures="")

        def batch_done(row: Row) -> None:
            curve["policy_gradient"].append(row)
            run.save()
            shown = figures(row, "mean_result", "entropy", "kl")
            run.progress.update(bar, figures=shown)
            if row["hands"] % (args.batch_hands * 10) == 0 or row["hands"] == args.pg_hands:
                run.say(f"PPO {row['hands']:.0f}/{args.pg_hands} hands: {shown}")

        improve(policy, rules, args.pg_hands, opponents, seed=args.seed + 1, batch_hands=args.batch_hands,
                lr=args.pg_lr, kl_coef=args.kl, checkpoint=args.out, hand_done=lambda: run.progress.advance(bar),
                batch_done=batch_done)
    policy.save(args.out / "policy.pt")
    curve["seconds"] = round(time.perf_counter() - start, 1)
    run.save()
    run.say(f"done in {curve['seconds']}s: {args.out / 'policy.pt'}")


if __name__ == "__main__":
    main()
