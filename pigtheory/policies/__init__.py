"""Policies of simultaneous and sequential Pig, and the one form every solver consumes.

A policy chooses, at the start of a turn, the turn total at which to hold ("hold at k").

Shapes
------
States are score tuples, the player's own score first and then the other players' scores in
seat order, starting with the seat after the player's own (so in two-player Pig, player B at
state (i, j) of A looks up ``policy[j, i]``). A threshold table for n players and goal g is
an int array of shape ``(g,) * n``: ``table[own, other1, ...] = k`` with
``1 <= k <= g - own``. A table of shape ``(g,)`` depends on the own score only.

Kinds of policy
---------------
:func:`hold_at` / :class:`HoldAt`
    "Hold at n": hold at ``min(n, goal - own)``.
:class:`ThresholdTable`
    One threshold per state (a pure, stationary policy).
:class:`MixedPolicy`
    A probability distribution over thresholds at each state, drawn afresh every turn
    (a behavioural strategy; the paper's eq. 12).

Every solver reads a policy through :func:`as_mixture`, which returns a :class:`Mixture`:
thresholds and weights of shape ``state_shape + (S,)`` (broadcastable: "hold at n" stores one
row per own score), and from it :meth:`Mixture.outcomes`, the distribution of the points the
turn adds at every state.

Every array of a policy object is read-only (the constructors copy what they are given), and
:class:`HoldAt`, :class:`ThresholdTable` and :class:`MixedPolicy` save to and load from one
``.npz`` file (``policy.save(path)``, ``MixedPolicy.load(path)``; see :mod:`pigtheory.io`).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from ..display import long_frame
from ..results import Saveable
from ..rules import Rules, integral
from ..turn_totals import turn_total_table
from ..validation import check_rules
from .tables import (
    integer_array,
    own_scores,
    readonly,
    state_index,
    state_shape_ok,
    take_at_states,
    validate_thresholds,
)

__all__ = [
    "HoldAt",
    "ThresholdTable",
    "MixedPolicy",
    "Mixture",
    "hold_at",
    "as_mixture",
    "take_at_states",
]

_WEIGHT_TOL = 1e-9


MAX_N = 2**62
"""Largest n of "hold at n": past every goal a table can have (thresholds are int64)."""


@dataclass(frozen=True)
class HoldAt(Saveable):
    """Hold as soon as the turn total reaches ``min(n, goal - own score)``.

    Parameters
    ----------
    n : int
        The threshold, ``n >= 1``; the same for every state and every rules (a threshold table
        of any goal and number of players is :meth:`table`).
    """

    n: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "n", integral(self.n))  # 25.0 is 25
        if not isinstance(self.n, (int, np.integer)) or isinstance(self.n, bool) or not 1 <= self.n <= MAX_N:
            raise ValueError(f"hold_at: n must be an integer in 1..{MAX_N} (2**62), got {self.n!r:.80}")
        object.__setattr__(self, "n", int(self.n))

    def table(self, rules: Rules = Rules()) -> np.ndarray:
        """The full threshold table of this policy, shape ``(goal,) * players``."""
        own = own_scores(rules)
        return np.broadcast_to(np.minimum(self.n, rules.goal - own), (rules.goal,) * rules.players).copy()

    def __str__(self) -> str:
        return f"hold at {self.n}"


def hold_at(n: int) -> HoldAt:
    """The "hold at n" policy, for any rules: hold at ``min(n, goal - own score)``.

    Parameters
    ----------
    n : int
        The threshold, ``n >= 1``.

    Returns
    -------
    HoldAt
        Its threshold table for given rules, ``HoldAt.table(rules)``, has shape
        ``(goal,) * players``, own score first.

    Examples
    --------
    >>> hold_at(25).table(Rules(goal=30))[:3, 0].tolist(), hold_at(25).table(Rules(goal=30))[10, 0]
    ([25, 25, 25], np.int64(20))
    """
    return HoldAt(n)


@dataclass(frozen=True, eq=False)
class ThresholdTable(Saveable):
    """A pure policy: ``table[own, others...]`` is the threshold at that state.

    Parameters
    ----------
    table : array_like of int, shape ``(goal,) * players`` or ``(goal,)``
        ``table[i, j, ...]``: hold at this turn total at own score i, the others' scores j, ...
        (seat order after the player's own); a table of shape ``(goal,)`` reads the own score
        only. Thresholds lie in ``1..goal - i`` (checked against the rules when a solver reads
        the policy, :func:`as_mixture`).
    clip : bool
        Replace thresholds above ``goal - own`` by ``goal - own`` (they mean the same turn)
        instead of raising ``ValueError``.
    name : str
        Shown by ``str(policy)`` (figure legends, the play site).
    """

    table: np.ndarray
    clip: bool = False
    name: str = "threshold table"

    def __post_init__(self) -> None:
        object.__setattr__(self, "table", readonly(integer_array("table", self.table)))

    def __str__(self) -> str:
        return self.name

    def to_frame(self) -> Any:
        """Long form (pandas): one row per state, columns ``own``, ``other`` (or ``other1``,
        ...) and ``threshold``.

        Examples
        --------
        >>> ThresholdTable([[2, 1], [1, 1]]).to_frame().values.tolist()
        [[0, 0, 2], [0, 1, 1], [1, 0, 1], [1, 1, 1]]
        """
        return long_frame({"threshold": self.table})

    def strategy(self, own: int, *others: int) -> dict[int, float]:
        """``{threshold: 1.0}`` at the state (own score first, then the others' in the table's
        order), as :meth:`MixedPolicy.strategy` and the symmetric equilibrium's ``strategy``.

        Examples
        --------
        >>> ThresholdTable([[2, 1], [1, 1]]).strategy(0, 0)
        {2: 1.0}
        """
        return {int(self.table[state_index(self.table.shape, (own, *others))]): 1.0}


@dataclass(frozen=True, eq=False)
class MixedPolicy(Saveable):
    """A behavioural mixed policy: at every state, threshold ``thresholds[..., s]`` with
    probability ``weights[..., s]``, drawn independently each turn (Zhu, Ma, Chen & Liu 2023,
    eq. (12)).

    Parameters
    ----------
    thresholds : array_like of int, shape ``(goal,) * players + (S,)``
        The S thresholds mixed at each state, own score first; any state axis may have length 1
        (broadcast), so ``(goal, 1, S)`` mixes by own score only.
    weights : array_like of float, same shape (or broadcast to it)
        Their probabilities, summing to 1 over the last axis at every state.
    name : str
        Shown by ``str(policy)``.

    Notes
    -----
    The arrays are copied (weights as floats) and made read-only; :func:`as_mixture` validates
    them against the rules.
    """

    thresholds: np.ndarray
    weights: np.ndarray
    name: str = "mixed policy"

    def __post_init__(self) -> None:
        object.__setattr__(self, "thresholds", readonly(integer_array("thresholds", self.thresholds)))
        weights = np.array(self.weights)
        if weights.dtype.kind not in "iuf":
            raise ValueError(f"weights must be numbers, got an array of {weights.dtype}")
        object.__setattr__(self, "weights", readonly(weights.astype(float, copy=False)))  # a copy already

    @classmethod
    def of(
        cls, components: Iterable[tuple[Any, Any]], rules: Rules = Rules(), name: str = "mixed policy"
    ) -> MixedPolicy:
        """Mix pure or mixed policies state by state: ``[(policy, weight), ...]``.

        Parameters
        ----------
        components : iterable of (policy, weight)
            Any policies :func:`as_mixture` reads. A weight is a number or an array of shape
            ``(goal,) * players`` (weights may differ by state); at each state they should sum
            to 1 (checked when the policy is read).
        rules : Rules
            Rules the components are read for.
        name : str

        Returns
        -------
        MixedPolicy
            ``thresholds`` and ``weights`` of shape ``(goal,) * players + (S,)``, S the total
            number of components' thresholds.
        """
        ths, ws = [], []
        shape = (rules.goal,) * rules.players
        for policy, weight in components:
            mix = as_mixture(policy, rules)
            w = np.broadcast_to(np.asarray(weight, dtype=float)[..., None], shape + (1,))
            ths.append(np.broadcast_to(mix.thresholds, shape + mix.thresholds.shape[-1:]))
            ws.append(np.broadcast_to(mix.weights, shape + mix.weights.shape[-1:]) * w)
        if not ths:
            raise ValueError("MixedPolicy.of: components must not be empty")
        return cls(np.concatenate(ths, axis=-1), np.concatenate(ws, axis=-1), name)

    def __str__(self) -> str:
        return self.name

    def to_frame(self) -> Any:
        """Long form (pandas): one row per state and threshold of positive weight, columns
        ``own``, ``other`` (or ``other1``, ...), ``threshold`` and ``weight`` (a state axis of
        length 1, one the policy does not read, shows 0)."""
        th, w = np.broadcast_arrays(self.thresholds, self.weights)
        df = long_frame({"threshold": th, "weight": w}, extra="slot", keep=w > 0)
        return df.drop(columns="slot")

    def strategy(self, own: int, *others: int) -> dict[int, float]:
        """``{threshold: probability}`` at the state (own score first; an axis of length 1 is
        read at 0), the thresholds of zero weight left out: the helper of the symmetric
        equilibrium's policy, kept by a policy read from any file.

        Examples
        --------
        >>> MixedPolicy([[[2, 3]]], [[[0.25, 0.75]]]).strategy(0, 0)
        {2: 0.25, 3: 0.75}
        """
        th, w = np.broadcast_arrays(self.thresholds, self.weights)
        at = state_index(th.shape[:-1], (own, *others))
        out: dict[int, float] = {}
        for k, p in zip(th[at].tolist(), w[at].tolist(), strict=True):
            if p > 0:
                out[int(k)] = out.get(int(k), 0.0) + float(p)
        return out


@dataclass(frozen=True, eq=False)
class Mixture:
    """Internal form of any policy for given rules (validated).

    Attributes
    ----------
    thresholds : numpy.ndarray of int, broadcastable to ``(goal,) * players + (S,)``
    weights : numpy.ndarray of float, same shape; sums to 1 over the last axis
    rules : Rules
    """

    thresholds: np.ndarray
    weights: np.ndarray
    rules: Rules

    def __post_init__(self) -> None:
        object.__setattr__(self, "thresholds", readonly(np.asarray(self.thresholds)))
        object.__setattr__(self, "weights", readonly(np.asarray(self.weights)))

    @property
    def is_pure(self) -> bool:
        """One threshold per state (``S == 1``)."""
        return self.thresholds.shape[-1] == 1

    def reads_own_score_only(self) -> bool:
        """Whether the policy at a state depends on the player's own score alone (found on the
        first call and remembered: the arrays are read-only)."""
        return self._own_score_only

    @cached_property
    def _own_score_only(self) -> bool:
        for arr in (self.thresholds, self.weights):
            first = arr[(slice(None),) + (slice(0, 1),) * (arr.ndim - 2)]
            if not np.array_equal(np.broadcast_to(first, arr.shape), arr):
                return False
        return True

    def full_thresholds(self) -> np.ndarray:
        """Pure policies only: the threshold table, shape ``(goal,) * players``."""
        if not self.is_pure:
            raise ValueError("policy: a mixed policy has no single threshold table")
        shape = (self.rules.goal,) * self.rules.players
        return np.broadcast_to(self.thresholds[..., 0], shape)

    def outcomes(self, states: tuple[np.ndarray, ...] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Distribution of the points the turn adds, at the given own-centric states.

        Parameters
        ----------
        states : tuple of int arrays, one per player (own score first), optional
            Broadcast together; default: every state (broadcast shape of the tables).

        Returns
        -------
        gains, probs : numpy.ndarray, shape ``states_shape + (1 + S * m,)``
            Column 0 is the bust (gain 0) with its total probability; the other columns are
            gains clipped to ``goal - own`` (landing on the goal) and their probabilities.
        """
        table = turn_total_table(self.rules.replace(players=2))
        if states is None:
            th, w = self.thresholds, self.weights
            own = own_scores(self.rules)[..., None]
        else:
            th = take_at_states(self.thresholds, states)
            w = take_at_states(self.weights, states)
            own = np.asarray(states[0])[..., None]
        th, w = np.broadcast_arrays(th, w)
        m = table.width
        room = self.rules.goal - own
        bust = (w * table.bust[th]).sum(axis=-1, keepdims=True)
        band_p = w[..., None] * table.band[th]  # (..., S, m)
        band_g = np.minimum(th[..., None] + np.arange(m), room[..., None])
        shape = band_p.shape[:-2] + (band_p.shape[-2] * m,)
        gains = np.concatenate(
            [np.zeros(bust.shape, dtype=np.int64), np.broadcast_to(band_g, band_p.shape).reshape(shape)],
            axis=-1,
        )
        probs = np.concatenate([bust, band_p.reshape(shape)], axis=-1)
        return gains, probs


_READ: weakref.WeakKeyDictionary[MixedPolicy, dict[Rules, Mixture]] = weakref.WeakKeyDictionary()
"""The Mixture that :func:`as_mixture` validated for a MixedPolicy (its own read-only arrays),
by rules: a policy read again (every solve against it) is not validated again."""


def as_mixture(policy: Any, rules: Rules = Rules()) -> Mixture:
    """Read any policy as a validated :class:`Mixture` for ``rules``.

    Parameters
    ----------
    policy : policy
        :class:`HoldAt`, :class:`ThresholdTable`, :class:`MixedPolicy`, a :class:`Mixture`, an
        int n ("hold at n"), an int array (a threshold table), any object with a ``policy``
        attribute holding one of these (a solver's result), or any object with a
        ``to_mixed()`` method returning a MixedPolicy (a compact policy).
    rules : Rules

    Returns
    -------
    Mixture
        ``thresholds`` and ``weights`` broadcastable to ``(goal,) * players + (S,)``, own score
        first (S = 1 for a pure policy; "hold at n" keeps one row per own score, shape
        ``(goal, 1, ..., 1, 1)``). A :class:`MixedPolicy` of full shape (a compact policy's
        ``to_mixed()`` one) is validated once per rules: later calls return the same
        Mixture, which shares the policy's arrays.

    Raises
    ------
    ValueError
        A table of the wrong shape, a threshold outside ``1..goal - own``, negative weights or
        weights that do not sum to 1 at some state.
    """
    check_rules(rules)
    if isinstance(policy, Mixture):
        if policy.rules != rules:
            raise ValueError("policy: a Mixture built for other rules")
        return policy
    if isinstance(policy, (int, np.integer)) and not isinstance(policy, bool):
        policy = HoldAt(int(policy))
    if isinstance(policy, np.ndarray):
        policy = ThresholdTable(policy)
    if isinstance(policy, HoldAt):
        th = np.minimum(policy.n, rules.goal - own_scores(rules))[..., None]
        return Mixture(readonly(th), readonly(np.ones((1,) * (rules.players + 1))), rules)
    if isinstance(policy, ThresholdTable):
        t = policy.table
        if not state_shape_ok(t.shape, rules):
            raise ValueError(
                f"policy: a threshold table for {rules.players} players and goal {rules.goal} has shape "
                f"{(rules.goal,) * rules.players} (or ({rules.goal},)), got {t.shape}"
            )
        t = t.reshape(t.shape + (1,) * (rules.players - t.ndim))
        th = validate_thresholds(t[..., None], rules, policy.clip)
        return Mixture(readonly(th), readonly(np.ones((1,) * (rules.players + 1))), rules)
    if isinstance(policy, MixedPolicy):
        known = _READ.get(policy, {}).get(rules)
        if known is not None:
            return known
        th = np.asarray(policy.thresholds)
        w = np.asarray(policy.weights, dtype=float)
        # a MixedPolicy's arrays are its own read-only copies: a Mixture of the same shape
        # shares them instead of copying (a three-player equilibrium's policy is ~50 MB)
        shared = th.shape == w.shape and not th.flags.writeable and not w.flags.writeable
        try:
            th, w = np.broadcast_arrays(th, w)
        except ValueError:
            raise ValueError(
                "policy: thresholds and weights of a mixed policy must have the same shape"
            ) from None
        if th.ndim != rules.players + 1 or any(s not in (1, rules.goal) for s in th.shape[:-1]):
            raise ValueError(
                f"policy: a mixed policy's arrays have shape {(rules.goal,) * rules.players} + (S,), "
                f"got {th.shape}"
            )
        if np.any(w < 0) or not np.all(np.abs(w.sum(axis=-1) - 1) <= _WEIGHT_TOL):
            raise ValueError("policy: mixed-policy weights must be >= 0 and sum to 1 at every state")
        th = validate_thresholds(th.astype(np.int64, copy=False), rules, clip=False)
        if shared and th.dtype == np.int64:
            mix = Mixture(policy.thresholds, policy.weights, rules)
            _READ.setdefault(policy, {})[rules] = mix
            return mix
        return Mixture(readonly(np.array(th)), readonly(np.array(w)), rules)
    inner = getattr(policy, "policy", None)
    if inner is not None and inner is not policy:
        return as_mixture(inner, rules)
    to_mixed = getattr(policy, "to_mixed", None)
    if callable(to_mixed):  # a compact policy (the symmetric solvers' SymmetricPolicy)
        return as_mixture(to_mixed(), rules)
    raise ValueError(f"policy: cannot read {type(policy).__name__!s} as a policy")
