"""The result types of the multiplayer sequential equilibrium: the policy and the equilibrium
with its certificates (shapes and notation of :mod:`pigtheory.sequential.multiplayer.equilibrium`, which
computes them; :mod:`pigtheory.sequential.multiplayer.chunked` loads them from a store)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...display import Display
from ...jit import compiled
from ...results import Result
from ...rules import Rules
from ..model import roll_model

__all__ = ["MultiplayerPolicy", "MultiplayerEquilibrium"]


@dataclass(frozen=True, eq=False)
class MultiplayerPolicy(Display):
    """A stationary policy of n-player sequential Pig, the same for every seat (own-centric).

    Attributes
    ----------
    roll_bits : numpy.ndarray of uint8, shape ``(g,) * n + (ceil(g / 8),)``
        Bit ``k % 8`` of byte ``k // 8`` (``numpy.packbits(..., bitorder="little")``): the
        mover at tuple ``t`` rolls at turn total k (0 where ``t_0 + k >= g``).
    mixed_states : numpy.ndarray of int, shape ``(M, n + 1)``
        Rows ``(t_0, ..., t_{n-1}, k)`` where the mover mixes.
    mixed_prob : numpy.ndarray, shape ``(M,)``
        Its probability of rolling there.
    rules : Rules
    allow_pass : bool
    """

    roll_bits: np.ndarray
    mixed_states: np.ndarray
    mixed_prob: np.ndarray
    rules: Rules
    allow_pass: bool = False

    def __post_init__(self) -> None:
        n, g = self.rules.players, self.rules.goal
        if self.roll_bits.shape != (g,) * n + ((g + 7) // 8,) or self.roll_bits.dtype != np.uint8:
            raise ValueError(f"roll_bits must be uint8 of shape {(g,) * n + ((g + 7) // 8,)}")
        if self.mixed_states.ndim != 2 or self.mixed_states.shape[1] != n + 1:
            raise ValueError(f"mixed_states must have shape (M, {n + 1})")
        if self.mixed_prob.shape != (self.mixed_states.shape[0],):
            raise ValueError("mixed_prob must have one probability per mixed state")
        if np.any((self.mixed_prob < 0) | (self.mixed_prob > 1)):
            raise ValueError("mixed_prob must lie in [0, 1]")
        for a in (self.roll_bits, self.mixed_states, self.mixed_prob):
            a.setflags(write=False)

    def roll_probability(self, scores) -> np.ndarray:
        """The mover's roll probability at every live turn total of ``scores`` (turn order
        from the mover): float array of length ``g - scores[0]``."""
        n, g = self.rules.players, self.rules.goal
        t = tuple(int(s) for s in scores)
        if len(t) != n or any(not 0 <= s < g for s in t):
            raise ValueError(f"scores: {n} scores each in 0..{g - 1} needed, got {scores!r}")
        row = np.unpackbits(self.roll_bits[t], bitorder="little")[: g - t[0]].astype(float)
        hit = np.all(self.mixed_states[:, :n] == np.array(t), axis=1)
        for k, p in zip(self.mixed_states[hit, n], self.mixed_prob[hit], strict=True):
            row[int(k)] = p
        return row

    def roll_table(self) -> np.ndarray:
        """``roll[t_0, ..., t_{n-1}, k]``: bool, shape ``(g,) * n + (g,)`` (the pure part; mixed
        states show the choice of the lower ladder step)."""
        g = self.rules.goal
        return np.unpackbits(self.roll_bits, axis=-1, bitorder="little")[..., :g].astype(bool)

    def hold_threshold(self, scores) -> int:
        """The smallest turn total ``k >= 1`` at which the mover holds for sure (``g - t_0`` if it
        rolls on to the goal)."""
        p = self.roll_probability(scores)
        holds = np.flatnonzero(p[1:] == 0.0)
        return int(holds[0] + 1) if holds.size else p.size


@dataclass(frozen=True, eq=False)
class MultiplayerEquilibrium(Result):
    """A stationary equilibrium of n-player sequential Pig with its certificates.

    Attributes
    ----------
    value : numpy.ndarray, shape ``(g,) * n + (n,)``
        Start-of-turn win probabilities by offset from the mover (module docstring).
    policy : MultiplayerPolicy
        Roll/hold choices with mixing probabilities.
    mixed_groups : numpy.ndarray of int, shape ``(M, n)``
        The groups (smallest rotation of the tuple) whose equilibrium mixes.
    several_groups : numpy.ndarray of int, shape ``(S, n)``
        The groups where more than one equilibrium was found.
    several_counts : numpy.ndarray of int, shape ``(S,)``
        How many distinct equilibria (by their values) were found there.
    group_how : tuple of str
        For every mixed group (same order as ``mixed_groups``): how its mixing probabilities
        were found ("closed form (linear)", ...).
    mixed_enclosure : numpy.ndarray, shape ``(M, 2)``
        For every row of ``policy.mixed_states``: a verified lower and upper bound of the roll
        probability (arb balls, :mod:`pigtheory.sequential.multiplayer.enclosure`); NaN where not enclosed.
    value_enclosure : numpy.ndarray, shape ``(G, n, n, 2)``
        For every mixed group: bounds of ``value`` at its rotations ``r`` (the tuple rotated
        left by r, r < the number of distinct rotations; NaN beyond) and offsets.
    deviation_gain : numpy.ndarray, shape ``(g,) * n``
        Largest one-shot deviation gain at every tuple (over its turn totals).
    seat_gain : numpy.ndarray, shape ``(n,)``
        Each seat's exact best-response value minus its equilibrium value at the start.
    nash_conv : float
        ``seat_gain.sum()``.
    iterations : int
        Best-response passes over single turns, summed over all groups.
    residual : float
        Largest violation of the start values' own equations (rounding).
    method : str
    rules : Rules
    allow_pass : bool
    """

    value: np.ndarray
    policy: MultiplayerPolicy
    mixed_groups: np.ndarray
    several_groups: np.ndarray
    several_counts: np.ndarray
    group_how: tuple
    mixed_enclosure: np.ndarray
    value_enclosure: np.ndarray
    deviation_gain: np.ndarray
    seat_gain: np.ndarray
    nash_conv: float
    iterations: int
    residual: float
    method: str
    rules: Rules
    allow_pass: bool = False

    @property
    def start_values(self) -> np.ndarray:
        """Win probability of each seat, in playing order, at the start of the game."""
        return np.array(self.value[(0,) * self.rules.players])

    @property
    def opening_threshold(self) -> int:
        """The first player's hold threshold on the first turn."""
        return self.policy.hold_threshold((0,) * self.rules.players)

    def turn_values(self, scores) -> np.ndarray:
        """Values at every live turn total of ``scores``: shape ``(g - scores[0], n)``, row k
        the win probabilities by offset when the mover has turn total k."""
        from . import group_kernels as gk

        rules = self.rules
        n, g = rules.players, rules.goal
        pol = self.policy
        t = tuple(int(s) for s in scores)
        prob = pol.roll_probability(t)
        model = roll_model(rules)
        pvec = np.ascontiguousarray(model.free_vector())
        m = pvec.size
        Wf = self.value.reshape(g**n, n)
        idx = int(np.ravel_multi_index(t, (g,) * n))
        K = g - t[0]
        HV = np.zeros((g + m + 1, n))
        compiled(gk.hold_values)(idx, t[0], n, g, Wf, HV)
        nxt = int(compiled(gk.rotate)(idx, 1, n, g))
        roll = np.zeros(g + m + 1, dtype=np.bool_)
        roll[:K] = prob == 1.0
        mixed = np.flatnonzero((prob > 0) & (prob < 1))
        mk, mp = (int(mixed[0]), float(prob[mixed[0]])) if mixed.size else (-1, 0.0)
        A = np.zeros((g + m + 1, n))
        b = np.zeros(g + m + 1)
        y = float(Wf[nxt, n - 1])
        turn = gk.Turn(pvec, float(model.p_bust), self.allow_pass, 0.0)
        compiled(gk.turn_pass)(K, y, HV, turn, 1, roll, roll, gk.Mix(mk, mp), A, b)
        after = Wf[nxt][(np.arange(n) - 1) % n]
        return A[:K] + b[:K, None] * after[None, :]
