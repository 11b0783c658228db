"""The roll table of n-player sequential Pig with its mixing probabilities, as a policy file holds it.

Shapes
------
``prob[t_0, ..., t_{n-1}, k]``: the probability that the mover rolls, with the scores in turn
order from the mover (``t_0`` its own score, ``t_1`` the next player's, ...) and its turn total
``k``; shape ``(goal,) * n + (goal,)``. Entries with ``t_0 + k >= goal`` are 0 (the mover has
reached the goal). Without passing, ``prob[..., 0] == 1`` (a turn starts with a roll); with
passing (OpenSpiel's ``pig``) ``prob[..., 0]`` is the chance of rolling rather than passing.

:meth:`MultiplayerRollTable.from_policy` turns the compact policy of
:func:`pigtheory.sequential.equilibrium` (packed roll bits and a list of mixed states) into
this dense table; the policy files of :mod:`pigtheory.io` write and read it as ``.json``
(nested lists), ``.csv`` (one row ``own,other1,...,turn_total,prob`` per state) and, like
every policy, ``.npz``. The dense table has ``goal ** (n + 1)`` entries (8 bytes each): 3
players at goal 50 are 50 MB; at goal 100 save the equilibrium's compact policy as ``.npz``.

References
----------
T. W. Neller and C. G. M. Presser, "Optimal play of the dice game Pig", UMAP Journal 25 (2004)
(the own-centric state of sequential Pig).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..results import Saveable
from ..rules import Rules

__all__ = ["MultiplayerRollTable"]


@dataclass(frozen=True, eq=False)
class MultiplayerRollTable(Saveable):
    """A stationary policy of n-player sequential Pig, the same for every seat (own-centric).

    Parameters
    ----------
    prob : array_like of float, shape ``(goal,) * n + (goal,)``
        The mover's roll probability (module docstring), every entry in ``[0, 1]``; copied and
        made read-only. ``n`` (the players) is ``prob.ndim - 1``, at least 2.
    allow_pass : bool
        Whether the policy may hold at turn total 0 (a pass).
    name : str
        Shown by ``str(policy)``.
    """

    prob: np.ndarray
    allow_pass: bool = False
    name: str = "multiplayer roll table"

    def __post_init__(self) -> None:
        p = np.array(self.prob)
        if p.dtype == bool or p.dtype.kind in "iu":
            p = p.astype(float)
        if p.dtype.kind != "f":
            raise ValueError(f"prob: roll probabilities are numbers, got dtype {p.dtype}")
        g = p.shape[0] if p.ndim else 0
        if p.ndim < 3 or g < 1 or p.shape != (g,) * p.ndim:
            raise ValueError(
                f"prob: shape (goal,) * players + (goal,) with at least 2 players expected, got {p.shape}"
            )
        if not np.isfinite(p).all() or (p < 0).any() or (p > 1).any():
            raise ValueError("prob: every roll probability must lie in [0, 1]")
        if not isinstance(self.allow_pass, (bool, np.bool_)):
            raise ValueError(f"allow_pass must be True or False, got {self.allow_pass!r}")
        if not isinstance(self.name, str):
            raise ValueError(f"name must be a string, got {type(self.name).__name__}")
        p = p.astype(np.float64)
        p.setflags(write=False)
        object.__setattr__(self, "prob", p)
        object.__setattr__(self, "allow_pass", bool(self.allow_pass))

    @property
    def players(self) -> int:
        """Number of players ``n``."""
        return self.prob.ndim - 1

    @property
    def goal(self) -> int:
        """The goal the table is for."""
        return self.prob.shape[0]

    @classmethod
    def from_policy(cls, policy: Any, *, name: str = "sequential equilibrium") -> MultiplayerRollTable:
        """The dense table of a :class:`pigtheory.sequential.MultiplayerPolicy` (or of the
        equilibrium that holds one): its roll bits, with the mixed states' probabilities.

        Parameters
        ----------
        policy : MultiplayerPolicy or MultiplayerEquilibrium
        name : str

        Returns
        -------
        MultiplayerRollTable
        """
        policy = getattr(policy, "policy", policy)
        if not all(hasattr(policy, a) for a in ("roll_bits", "mixed_states", "mixed_prob", "rules")):
            raise ValueError(
                f"policy: expected a MultiplayerPolicy or MultiplayerEquilibrium, got {type(policy).__name__}"
            )
        g = policy.rules.goal
        prob = np.unpackbits(policy.roll_bits, axis=-1, bitorder="little")[..., :g].astype(np.float64)
        if policy.mixed_states.shape[0]:
            prob[tuple(np.asarray(policy.mixed_states, dtype=np.int64).T)] = policy.mixed_prob
        return cls(prob, allow_pass=bool(policy.allow_pass), name=name)

    def check(self, rules: Rules) -> MultiplayerRollTable:
        """Raise ``ValueError`` unless this table is a policy of ``rules``: one die (or Piglet),
        ``rules.players`` players, shape ``(goal,) * n + (goal,)``, 0 where ``t_0 + k >= goal``,
        and (without passing) 1 at ``k = 0``."""
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a pigtheory.Rules, got {type(rules).__name__}")
        n, g = rules.players, rules.goal
        if rules.dice != 1:
            raise ValueError(f"a multiplayer roll table is for one die (or Piglet), not {rules.dice} dice")
        want = (g,) * (n + 1)
        if self.prob.shape != want:
            raise ValueError(
                f"prob: a multiplayer roll table for {n} players and goal {g} has shape {want}, "
                f"got {self.prob.shape}"
            )
        own = np.arange(g).reshape((g,) + (1,) * n)
        k = np.arange(g).reshape((1,) * n + (g,))
        done = np.broadcast_to(own + k >= g, want)
        if (self.prob[done] != 0).any():
            bad = tuple(int(x) for x in np.argwhere(done & (self.prob != 0))[0])
            raise ValueError(f"prob: the mover has reached the goal at {bad} and must hold (0 there)")
        if not self.allow_pass and (self.prob[..., 0] != 1).any():
            bad = tuple(int(x) for x in np.argwhere(self.prob[..., 0] != 1)[0])
            raise ValueError(
                f"prob: without passing a turn starts with a roll (1 at turn total 0), not at {bad + (0,)}"
            )
        return self

    def roll_probability(self, scores: Any) -> np.ndarray:
        """The mover's roll probability at every live turn total of ``scores`` (turn order from
        the mover): float array of length ``goal - scores[0]``."""
        n, g = self.players, self.goal
        try:
            t = tuple(int(s) for s in scores)
        except (TypeError, ValueError):
            raise ValueError(f"scores: {n} integer scores expected, got {scores!r:.80}") from None
        if len(t) != n or any(not 0 <= s < g for s in t):
            raise ValueError(f"scores: {n} scores each in 0..{g - 1} needed, got {scores!r:.80}")
        return np.array(self.prob[t][: g - t[0]])

    def __str__(self) -> str:
        return self.name
