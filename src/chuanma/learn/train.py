"""Train the NumPy policy: imitate the ``defensive`` bot, then policy gradient against the bots.

    python -m chuanma.learn.train --out runs/agent [--imitation-hands 400] [--epochs 6]
        [--pg-hands 2000] [--opponents defensive,greedy,random] [--seed 1]

Writes ``imitation.npz`` (after imitation), ``pg-<hands>.npz`` checkpoints, ``policy.npz`` (the
final weights, playable as ``--bots learned:runs/agent/policy.npz``) and ``curve.json`` (the
learning curve: imitation loss and accuracy per epoch, mean reward per policy-gradient batch).
Needs the ``rl`` extra (the policy-gradient phase plays through :class:`chuanma.env.SingleSeatEnv`).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from chuanma.bots import BOTS, make_bot
from chuanma.encoding import ENCODERS, encoder
from chuanma.engine.game import Game
from chuanma.engine.indices import mask, to_index
from chuanma.env import SingleSeatEnv
from chuanma.errors import ChuanmaError
from chuanma.learn.policy import Adam, Policy
from chuanma.rules import RuleSet
from chuanma.sim.play import bot_seed, deal_for

Samples = tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]


def imitation_samples(rules: RuleSet, hands: int, seed: int, encoder_name: str, teacher: str = "defensive") -> Samples:
    """Observations, masks and the ``teacher`` bot's choices at its decisions with a real choice,
    from ``hands`` hands of four teachers on the simulator's deals."""
    encode = encoder(encoder_name)[0]
    obs: list[npt.NDArray[np.float32]] = []
    masks: list[npt.NDArray[np.int8]] = []
    actions: list[int] = []
    for i in range(hands):
        deal = deal_for(seed, i, rules.honors)
        game = Game(rules, list(deal.wall), deal.dealer, deal.direction)
        bots = [make_bot(teacher, bot_seed(seed, i, s)) for s in range(4)]
        while not game.finished:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            view = game.view(seat)
            action = bots[seat].choose(view, legal)
            if len(legal) > 1:
                obs.append(encode(view))
                masks.append(mask(legal))
                actions.append(to_index(action))
            game.apply(seat, action)
    return np.stack(obs), np.stack(masks), np.array(actions, dtype=np.int64)


def imitate(policy: Policy, data: Samples, epochs: int, batch: int = 256, lr: float = 1e-3,
            seed: int = 0, weight_decay: float = 0.0, holdout: float = 0.1) -> list[dict[str, float]]:
    """Fit ``policy`` to the teacher's choices (cross-entropy), keeping the weights of the epoch
    that agrees best with the teacher on the ``holdout`` share of the samples it does not train
    on; loss, training and held-out accuracy per epoch."""
    obs, m, a = data
    x = policy.inputs(obs)
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(x))
    cut = len(x) - int(len(x) * holdout)
    train, held = order[:cut], order[cut:]
    opt = Adam(lr, weight_decay)
    ones = np.ones(batch, np.float32)
    curve = []
    best = (-1.0, [q.copy() for q in policy.params()])
    for epoch in range(epochs):
        losses = []
        for at in range(0, len(train), batch):
            idx = train[at:at + batch]
            grads, loss = policy.grads(x[idx], m[idx], a[idx], ones[:len(idx)])
            opt.step(policy, grads)
            losses.append(loss)
        rng.shuffle(train)
        row = {"epoch": epoch + 1, "loss": float(np.mean(losses)), "accuracy": _agreement(policy, x, m, a, train)}
        if len(held):
            row["held_out_accuracy"] = _agreement(policy, x, m, a, held)
            if row["held_out_accuracy"] > best[0]:
                best = (row["held_out_accuracy"], [q.copy() for q in policy.params()])
        curve.append(row)
    if len(held):
        for q, kept in zip(policy.params(), best[1], strict=True):
            q[...] = kept
    return curve


def _agreement(policy: Policy, x: npt.NDArray[np.float32], m: npt.NDArray[np.int8], a: npt.NDArray[np.int64],
               rows: npt.NDArray[np.int64]) -> float:
    """How often the policy's most probable action is the teacher's, over ``rows``."""
    hits = 0
    for at in range(0, len(rows), 8192):
        part = rows[at:at + 8192]
        p, _ = policy.forward(x[part], m[part])
        hits += int((p.argmax(axis=1) == a[part]).sum())
    return hits / max(len(rows), 1)


def reinforce(policy: Policy, rules: RuleSet, hands: int, opponents: Sequence[str], *, seed: int,
              batch_hands: int = 32, lr: float = 5e-5, checkpoint: Path | None = None) -> list[dict[str, float]]:
    """REINFORCE with a running-mean baseline: the policy (sampling its actions) plays a random
    seat against ``opponents``; each hand's result (÷ 32 base) weighs its decisions. Returns the
    mean result in base units per batch of ``batch_hands`` hands."""
    env = SingleSeatEnv(rules, opponents=list(opponents), seat="random", encoder=policy.encoder, normalize=True)
    rng = np.random.default_rng(seed)
    opt = Adam(lr)
    baseline = 0.0
    curve = []
    xs: list[npt.NDArray[np.float32]] = []
    ms: list[npt.NDArray[np.int8]] = []
    acts: list[int] = []
    rets: list[float] = []
    results: list[float] = []
    obs, info = env.reset(seed=seed)
    for hand in range(1, hands + 1):
        ret = float(info["reward_before"])
        first = len(acts)
        done = False
        while not done:
            legal = obs["action_mask"]
            action = policy.act(obs["observation"], legal, rng)
            if legal.sum() > 1:
                xs.append(policy.inputs(obs["observation"][None])[0])
                ms.append(legal)
                acts.append(action)
            obs, reward, done, _, info = env.step(action)
            ret += float(reward)
        rets.extend([ret] * (len(acts) - first))
        results.append(ret)
        obs, info = env.reset()
        if hand % batch_hands == 0 or hand == hands:
            if acts:
                adv = np.array(rets, np.float32) - baseline
                grads, _ = policy.grads(np.stack(xs), np.stack(ms), np.array(acts, np.int64), adv)
                opt.step(policy, grads)
            baseline = 0.9 * baseline + 0.1 * float(np.mean(results))
            curve.append({"hands": hand, "mean_result": float(np.mean(results)) * 32})
            xs, ms, acts, rets, results = [], [], [], [], []
            if checkpoint is not None and hand % (batch_hands * 10) == 0:
                policy.save(checkpoint / f"pg-{hand}.npz")
    return curve


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m chuanma.learn.train", description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="folder for the weights and the curve")
    ap.add_argument("--rules", default="xuezhan", help="rule preset")
    ap.add_argument("--encoder", default="compact", choices=sorted(ENCODERS))
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--no-analysis", action="store_true", help="leave out the hand-analysis inputs")
    ap.add_argument("--imitation-hands", type=int, default=400)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--weight-decay", type=float, default=0.0, help="AdamW weight decay of the imitation")
    ap.add_argument("--pg-hands", type=int, default=2000)
    ap.add_argument("--batch-hands", type=int, default=32)
    ap.add_argument("--pg-lr", type=float, default=5e-5, help="learning rate of the policy gradient")
    ap.add_argument("--opponents", default="defensive,greedy,random", help="three bots, comma-separated")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    opponents = [n.strip() for n in args.opponents.split(",")]
    if len(opponents) != 3 or any(n not in BOTS for n in opponents):
        ap.error(f"--opponents: give three of {', '.join(BOTS)}, comma-separated")
    for name in ("hidden", "imitation_hands", "pg_hands", "batch_hands"):
        if getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be at least 1")
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        ap.error(f"--out: cannot create {args.out}: {exc.strerror}")
    try:
        rules = RuleSet.from_preset(args.rules)
    except ChuanmaError as exc:
        ap.error(f"--rules: {exc}")
    curve: dict[str, Any] = {"rules": args.rules, "encoder": args.encoder, "hidden": args.hidden, "seed": args.seed,
                             "analysis": not args.no_analysis}
    start = time.perf_counter()
    policy = Policy.new(args.encoder, args.hidden, args.seed, analysis=not args.no_analysis)
    data = imitation_samples(rules, args.imitation_hands, args.seed, args.encoder)
    curve["imitation_samples"] = len(data[2])
    curve["imitation"] = imitate(policy, data, args.epochs, seed=args.seed, weight_decay=args.weight_decay)
    policy.save(args.out / "imitation.npz")
    last = curve["imitation"][-1] if curve["imitation"] else {}
    print(f"imitation: {len(data[2])} decisions, accuracy {last.get('accuracy', 0):.3f}, "
          f"held out {max((r.get('held_out_accuracy', 0) for r in curve['imitation']), default=0):.3f} "
          f"({time.perf_counter() - start:.0f}s)", flush=True)
    curve["policy_gradient"] = reinforce(policy, rules, args.pg_hands, opponents, seed=args.seed + 1,
                                         batch_hands=args.batch_hands, lr=args.pg_lr, checkpoint=args.out)
    policy.save(args.out / "policy.npz")
    curve["seconds"] = round(time.perf_counter() - start, 1)
    (args.out / "curve.json").write_text(json.dumps(curve, indent=1) + "\n", encoding="utf-8")
    print(f"done in {curve['seconds']}s: {args.out / 'policy.npz'}")


if __name__ == "__main__":
    main()
