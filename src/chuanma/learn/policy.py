"""A masked policy network in NumPy: observation → one hidden ReLU layer → 623 action logits.

Illegal actions get no probability (the mask is applied before the softmax). Gradients are
written out by hand; :class:`Adam` updates the parameters. Weights are saved as ``.npz`` with the
encoder's name and the format's version, and read back with :func:`load`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from chuanma.encoding import ENCODERS
from chuanma.engine.indices import ACTION_COUNT
from chuanma.errors import ChuanmaError
from chuanma.learn.features import COUNT as FEATURES
from chuanma.learn.features import features

FORMAT = "chuanma-policy/1"
Array = npt.NDArray[np.float32]
PARAMS = ("w1", "b1", "w2", "b2")


class PolicyFileError(ChuanmaError, ValueError):
    """A weights file that cannot be read as a policy (the message says why)."""


@dataclass(slots=True)
class Policy:
    """Weights ``w1`` (inputs × hidden), ``b1``, ``w2`` (hidden × 623), ``b2`` over an encoder's
    observation, followed with ``analysis`` by the hand-analysis inputs of :mod:`.features`."""

    encoder: str
    analysis: bool
    w1: Array
    b1: Array
    w2: Array
    b2: Array

    @classmethod
    def new(cls, encoder: str, hidden: int = 256, seed: int = 0, analysis: bool = True) -> Policy:
        """A policy with small random weights for the ``encoder``'s observations."""
        inputs = input_size(encoder, analysis)
        rng = np.random.default_rng(seed)
        return cls(
            encoder, analysis,
            (rng.standard_normal((inputs, hidden)) * np.sqrt(2 / inputs)).astype(np.float32),
            np.zeros(hidden, np.float32),
            (rng.standard_normal((hidden, ACTION_COUNT)) * 0.01).astype(np.float32),
            np.zeros(ACTION_COUNT, np.float32),
        )

    def params(self) -> list[Array]:
        return [self.w1, self.b1, self.w2, self.b2]

    def inputs(self, obs: Array) -> Array:
        """The network's inputs for a stack of observations: flattened, with the analysis inputs."""
        x = obs.reshape(len(obs), -1)
        if not self.analysis:
            return x
        extra = np.stack([features(o, self.encoder) for o in obs])
        return np.concatenate([x, extra], axis=1)

    def forward(self, x: Array, masks: npt.NDArray[np.int8]) -> tuple[Array, Array]:
        """Action probabilities for inputs ``x`` (rows of :meth:`inputs`; zero where ``masks`` is 0)
        and the hidden layer."""
        h = np.maximum(x @ self.w1 + self.b1, 0)
        logits = h @ self.w2 + self.b2
        logits = np.where(masks > 0, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        return p.astype(np.float32), h

    def grads(self, x: Array, masks: npt.NDArray[np.int8], actions: npt.NDArray[np.int64],
              weights: Array) -> tuple[list[Array], float]:
        """Gradients of ``-mean(weights · log π(action | x))`` and that loss (``x``: :meth:`inputs`).

        With all weights 1 it is the cross-entropy of imitation; with advantages as weights, the
        policy-gradient (REINFORCE) loss.
        """
        p, h = self.forward(x, masks)
        n = len(x)
        rows = np.arange(n)
        loss = float(-(weights * np.log(p[rows, actions] + 1e-12)).mean())
        d = p.copy()
        d[rows, actions] -= 1
        d *= (weights / n)[:, None]
        gw2 = h.T @ d
        gb2 = d.sum(axis=0)
        dh = (d @ self.w2.T) * (h > 0)
        return [x.T @ dh, dh.sum(axis=0), gw2, gb2], loss

    def act(self, obs: Array, mask: npt.NDArray[np.int8], rng: np.random.Generator | None = None) -> int:
        """An action index for one observation: the most probable one, or sampled with ``rng``."""
        p, _ = self.forward(self.inputs(obs[None]), mask[None])
        if rng is None:
            return int(p[0].argmax())
        return int(rng.choice(ACTION_COUNT, p=p[0] / p[0].sum()))

    def save(self, path: Path) -> None:
        """Write the weights (``.npz``) with the encoder's name and the format."""
        with path.open("wb") as f:
            np.savez(f, format=np.array(FORMAT), encoder=np.array(self.encoder), analysis=np.array(self.analysis),
                     **{k: getattr(self, k) for k in PARAMS})


def load(path: str | Path) -> Policy:
    """Read a policy written by :meth:`Policy.save`; :class:`PolicyFileError` if it is not one."""
    p = Path(path)
    try:
        with np.load(p, allow_pickle=False) as data:
            fmt = str(data["format"]) if "format" in data else None
            if fmt != FORMAT:
                raise PolicyFileError(f"{p}: not a {FORMAT} weights file (format {fmt!r})")
            encoder = str(data["encoder"])
            analysis = bool(data["analysis"])
            arrays = {k: data[k].astype(np.float32) for k in PARAMS}
    except PolicyFileError:
        raise
    except (OSError, ValueError, KeyError) as exc:
        raise PolicyFileError(f"{p}: cannot read the weights: {exc}") from None
    if encoder not in ENCODERS:
        raise PolicyFileError(f"{p}: unknown encoder {encoder!r}")
    inputs = input_size(encoder, analysis)
    w1, b1, w2, b2 = (arrays[k] for k in PARAMS)
    if w1.shape[0] != inputs or w2.shape != (w1.shape[1], ACTION_COUNT) or b1.shape != (w1.shape[1],) \
            or b2.shape != (ACTION_COUNT,):
        raise PolicyFileError(f"{p}: weights of the wrong shapes for the {encoder} encoder")
    return Policy(encoder, analysis, w1, b1, w2, b2)


def input_size(encoder: str, analysis: bool) -> int:
    """Inputs of a policy over ``encoder``'s observations (with the analysis inputs or not)."""
    return int(np.prod(ENCODERS[encoder][1])) + (FEATURES if analysis else 0)


@dataclass(slots=True)
class Adam:
    """The Adam optimiser over a policy's parameters, with decoupled weight decay (AdamW)."""

    lr: float = 1e-3
    weight_decay: float = 0.0
    beta1: float = 0.9
    beta2: float = 0.999
    steps: int = 0
    m: list[Array] = field(default_factory=list)
    v: list[Array] = field(default_factory=list)

    def step(self, policy: Policy, grads: list[Array]) -> None:
        params = policy.params()
        if not self.m:
            self.m = [np.zeros_like(q) for q in params]
            self.v = [np.zeros_like(q) for q in params]
        self.steps += 1
        c1 = 1 - self.beta1 ** self.steps
        c2 = 1 - self.beta2 ** self.steps
        for q, g, m, v in zip(params, grads, self.m, self.v, strict=True):
            m *= self.beta1
            m += (1 - self.beta1) * g
            v *= self.beta2
            v += (1 - self.beta2) * g * g
            q -= (self.lr * ((m / c1) / (np.sqrt(v / c2) + 1e-8) + self.weight_decay * q)).astype(np.float32)
