"""What every learner shares: the record of a run (:class:`LearningRun`), checkpoints, seeds,
and one roll of the die from one uniform draw (compiled).

The die's transition lives here until the game model (``pigtheory.games``) owns it: ``_roll``
should then call it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..jit import kernel
from ..results import Result
from ..rules import Rules
from ..validation import check_int, check_rng

__all__ = ["LearningRun", "MAX_EPISODES"]


@dataclass(frozen=True, eq=False)
class LearningRun(Result):
    """Snapshots of a learner's policy during training.

    Attributes
    ----------
    episodes : numpy.ndarray of int
        Episodes (games) played at each snapshot.
    policies : list
        The learned policy at each snapshot: roll-probability tables (sequential) or
        :class:`~pigtheory.policies.MixedPolicy` (simultaneous).
    method : str
    rules : Rules
    """

    episodes: np.ndarray
    policies: list
    method: str
    rules: Rules


MAX_EPISODES = 10**9
"""Most episodes (or rounds) a learner may be asked for: past it, the request is a typo."""


def _checkpoints(checkpoints: Any, name: str = "checkpoints") -> np.ndarray:
    """Increasing counts in 1..MAX_EPISODES, as an int64 array (refused before any work)."""
    if isinstance(checkpoints, (str, bytes)) or not isinstance(checkpoints, (list, tuple, range, np.ndarray)):
        raise ValueError(f"{name} must be increasing counts in 1..{MAX_EPISODES}, got {checkpoints!r:.80}")
    values = [
        check_int(name, c, low=1, high=MAX_EPISODES) for c in np.asarray(checkpoints, dtype=object).ravel()
    ]
    c = np.asarray(values, dtype=np.int64)
    if c.size == 0 or np.any(np.diff(c) <= 0):
        raise ValueError(f"{name}: increasing counts in 1..{MAX_EPISODES}, got {checkpoints!r:.80}")
    return c


def _seed(rng: Any) -> int:
    """One int seed in 0..2**31 - 2 from ``rng`` (an int, a Generator or None)."""
    return int(check_rng(rng).integers(2**31 - 1))


@kernel
def _roll(pvec_cum, p_bust):  # pragma: no cover - compiled
    """One roll from one uniform draw: 0 for a bust, else the points it adds
    (``pvec_cum[r]``: P(a scoring roll adds at most r + 1 points))."""
    u = np.random.random()  # noqa: NPY002 - numba seeds its own generator
    if u < p_bust:
        return 0
    for r in range(pvec_cum.size):
        if u < p_bust + pvec_cum[r]:
            return r + 1
    return 1
