"""A masked actor-critic network in PyTorch: observation → one hidden ReLU layer → 623 action
logits and a value (the expected result of the hand, in units of 32 base).

Illegal actions get no probability (the mask is applied before the softmax). Weights are saved
with ``torch.save`` as a dictionary of tensors and plain values (the format's version, the
encoder's name, the layer sizes) and read back by :func:`load` with ``weights_only``, which runs
no code a file may hold.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from chuanma.encoding import ENCODERS
from chuanma.engine import ACTION_COUNT
from chuanma.learn import PolicyFileError
from chuanma.learn.features import COUNT as FEATURES
from chuanma.learn.features import features

FORMAT = "chuanma-policy/2"
Array = npt.NDArray[np.float32]


class Policy(nn.Module):
    """A policy over an ``encoder``'s observations, followed with ``analysis`` by the
    hand-analysis inputs of :mod:`.features`: ``hidden`` ReLU units shared by the action logits
    and the value."""

    def __init__(self, encoder: str, hidden: int = 256, analysis: bool = True) -> None:
        super().__init__()
        self.encoder = encoder
        self.analysis = analysis
        self.hidden = hidden
        self.trunk = nn.Linear(input_size(encoder, analysis), hidden)
        self.logits = nn.Linear(hidden, ACTION_COUNT)
        self.value = nn.Linear(hidden, 1)

    @classmethod
    def new(cls, encoder: str, hidden: int = 256, seed: int = 0, analysis: bool = True) -> Policy:
        """A policy with random weights drawn from ``seed``: near-uniform over the legal actions
        (small logits) and a value of zero."""
        with torch.random.fork_rng():
            torch.manual_seed(seed)
            policy = cls(encoder, hidden, analysis)
            nn.init.kaiming_normal_(policy.trunk.weight, nonlinearity="relu")
            nn.init.zeros_(policy.trunk.bias)
            nn.init.normal_(policy.logits.weight, std=0.01)
            nn.init.zeros_(policy.logits.bias)
            nn.init.zeros_(policy.value.weight)
            nn.init.zeros_(policy.value.bias)
        return policy

    def inputs(self, obs: Array) -> Array:
        """The network's inputs for a stack of observations: flattened, with the analysis inputs."""
        x = obs.reshape(len(obs), -1)
        if not self.analysis:
            return x
        extra = np.stack([features(o, self.encoder) for o in obs])
        return np.concatenate([x, extra], axis=1)

    def forward(self, x: torch.Tensor, masks: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Log-probabilities of every action (``-inf`` where ``masks`` is 0) and the value, for
        inputs ``x`` (rows of :meth:`inputs`)."""
        h = torch.relu(self.trunk(x))
        logits = self.logits(h).masked_fill(masks == 0, float("-inf"))
        return torch.log_softmax(logits, dim=1), self.value(h).squeeze(1)

    def act(self, obs: Array, mask: npt.NDArray[np.int8], rng: np.random.Generator | None = None) -> int:
        """An action index for one observation: the most probable one, or sampled with ``rng``."""
        with torch.no_grad():
            logp, _ = self(torch.from_numpy(self.inputs(obs[None])), torch.from_numpy(mask[None]))
        if rng is None:
            return int(logp[0].argmax())
        p = logp[0].exp().numpy().astype(np.float64)
        return int(rng.choice(ACTION_COUNT, p=p / p.sum()))

    def save(self, path: Path) -> None:
        """Write the weights with the format, the encoder's name and the layer sizes."""
        torch.save({"format": FORMAT, "encoder": self.encoder, "analysis": self.analysis,
                    "hidden": self.hidden, "state": self.state_dict()}, path)


def load(path: str | Path) -> Policy:
    """Read a policy written by :meth:`Policy.save`; :class:`PolicyFileError` if it is not one."""
    p = Path(path)
    try:
        data: Any = torch.load(p, map_location="cpu", weights_only=True)
    except OSError as exc:
        raise PolicyFileError(f"{p}: cannot read the weights: {exc.strerror or exc}") from None
    except Exception as exc:  # the unpickler's own errors (their text advises loading unsafely): another kind of file
        raise PolicyFileError(f"{p}: cannot read the weights: not tensors and plain values written by torch.save "
                              f"({type(exc).__name__})") from None
    fmt = data.get("format") if isinstance(data, dict) else None
    if fmt != FORMAT:
        raise PolicyFileError(f"{p}: not a {FORMAT} weights file (format {fmt!r})")
    encoder, analysis, hidden, state = (data.get(k) for k in ("encoder", "analysis", "hidden", "state"))
    if not isinstance(encoder, str) or encoder not in ENCODERS:
        raise PolicyFileError(f"{p}: unknown encoder {encoder!r}")
    if not isinstance(analysis, bool) or not isinstance(hidden, int) or isinstance(hidden, bool) or hidden < 1:
        raise PolicyFileError(f"{p}: the analysis flag or the hidden size is missing or not valid")
    with torch.device("meta"):  # the shapes such a policy has, without allocating its weights
        shapes = {k: v.shape for k, v in Policy(encoder, hidden, analysis).state_dict().items()}
    if not (isinstance(state, dict) and state.keys() == shapes.keys()
            and all(isinstance(v, torch.Tensor) and v.is_floating_point() and v.shape == shapes[k]
                    for k, v in state.items())):
        raise PolicyFileError(f"{p}: weights of the wrong shapes or kinds for the {encoder} encoder")
    policy = Policy(encoder, hidden, analysis)
    policy.load_state_dict(state)
    policy.eval()
    return policy


def input_size(encoder: str, analysis: bool) -> int:
    """Inputs of a policy over ``encoder``'s observations (with the analysis inputs or not)."""
    return int(np.prod(ENCODERS[encoder][1])) + (FEATURES if analysis else 0)
