"""Stopping rules: strategies that decide to roll or hold at every turn total.

A "hold at k" player rolls while its turn total t is below k. In simultaneous Pig a player
sees nothing of the others during its own turn, so the most general (pure) strategy at a state
is any rule ``roll[t]`` over the turn totals; a behavioural mixed strategy rolls at t with a
probability ``P(roll | state, t)``. Thresholds are the rules that roll on ``t < k``.

Shapes
------
:class:`StoppingRule` holds a boolean table ``roll[own, others..., t]`` of shape
``(goal,) * players + (goal,)`` (or ``(goal, goal)``: own score and t, for a rule that looks at
its own score only); :class:`RandomStoppingRule` a float table of the same shapes with
``P(roll)``. Entries outside ``1 <= t < goal - own`` are ignored: rolling is forced at ``t = 0``
and holding once ``own + t >= goal``.

Notes
-----
Every solver reads a policy through :func:`as_turn_policy`: thresholds become the usual
:class:`~pigtheory.policies.Mixture`, stopping rules a :class:`RuleMixture`, and both give the
distribution of the points the turn adds at any state (:meth:`RuleMixture.outcomes`, by the
forward recursion of :func:`rule_outcomes` over the roll model of :meth:`Rules.roll_arrays
<pigtheory.Rules.roll_arrays>`), which is all an opponent's policy contributes to a player's
Bellman equation.

Examples
--------
>>> from pigtheory import Rules, hold_at
>>> rule = StoppingRule.from_policy(hold_at(3), Rules(goal=6))
>>> rule.roll[0, 0].astype(int).tolist()
[1, 1, 1, 0, 0, 0]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .display import long_frame
from .guard import Estimate, check_memory
from .policies import Mixture, as_mixture
from .results import Saveable, freeze
from .rules import Rules
from .validation import check_rules

__all__ = [
    "StoppingRule",
    "RandomStoppingRule",
    "RuleMixture",
    "TurnPolicy",
    "as_turn_policy",
    "is_threshold_rule",
    "rule_outcomes",
]


def _check_table(name: str, table: np.ndarray, rules: Rules) -> np.ndarray:
    g, n = rules.goal, rules.players
    if table.shape not in ((g,) * n + (g,), (g, g)):
        raise ValueError(
            f"policy: a {name} for {n} players and goal {g} has shape {(g,) * n + (g,)} "
            f"(or {(g, g)}: own score and turn total), got {table.shape}"
        )
    if table.ndim == 2:  # own score and turn total: one row per own score, any others' scores
        table = table.reshape((g,) + (1,) * (n - 1) + (g,))
    return table


@dataclass(frozen=True, eq=False)
class StoppingRule(Saveable):
    """A pure stopping rule: roll at turn total t iff ``roll[state..., t]``.

    Parameters
    ----------
    roll : array_like of bool, shape ``(goal,) * players + (goal,)`` or ``(goal, goal)``
        ``roll[i, j, ..., t]``: at own score i, the others' scores j, ... (own score first),
        roll again at turn total t; ``(goal, goal)`` is ``roll[i, t]``, a rule that reads the own
        score only. Entries outside ``1 <= t < goal - i`` are ignored. 0/1 integers are
        accepted.
    name : str
        Shown by ``str(policy)``.
    """

    roll: np.ndarray
    name: str = "stopping rule"

    def __post_init__(self) -> None:
        r = np.asarray(self.roll)
        if r.dtype != bool:
            if not np.all((r == 0) | (r == 1)):
                raise ValueError("policy: a stopping rule's roll table must hold booleans (or 0/1)")
            r = r.astype(bool)
        object.__setattr__(self, "roll", np.array(r))
        freeze(self)

    @classmethod
    def from_policy(cls, policy: Any, rules: Rules, name: str | None = None) -> StoppingRule:
        """The exact stopping rule of a pure threshold policy: ``roll[s, t] = t < k(s)``.

        Parameters
        ----------
        policy : policy
            A pure threshold policy (:func:`pigtheory.as_mixture` reads it).
        rules : Rules
        name : str, optional
            Default: the policy's name, "as a stopping rule".

        Returns
        -------
        StoppingRule
            ``roll`` of shape ``(goal,) * players + (goal,)``.
        """
        mix = as_mixture(policy, rules)
        th = np.asarray(mix.full_thresholds())
        roll = np.arange(rules.goal) < th[..., None]
        return cls(roll, name or f"{policy} as a stopping rule")

    def __str__(self) -> str:
        return self.name

    def to_frame(self) -> Any:
        """Long form (pandas): one row per state and turn total ``1 <= t < goal - own``,
        columns ``own``, ``other`` (or ``other1``, ...), ``turn_total`` and ``roll``."""
        return long_frame({"roll": self.roll}, extra="turn_total", keep=_live(self.roll.shape))


@dataclass(frozen=True, eq=False)
class RandomStoppingRule(Saveable):
    """A behavioural mixed stopping rule: roll at t with probability ``prob[state..., t]``.

    Parameters
    ----------
    prob : array_like of float, shape ``(goal,) * players + (goal,)`` or ``(goal, goal)``
        ``prob[i, j, ..., t]`` = P(roll again at turn total t | state (i, j, ...)), own score
        first, each in [0, 1]; the same conventions as :class:`StoppingRule`'s ``roll``.
    name : str
        Shown by ``str(policy)``.
    """

    prob: np.ndarray
    name: str = "random stopping rule"

    def __post_init__(self) -> None:
        p = np.array(self.prob, dtype=float)
        if not np.all(np.isfinite(p)) or np.any(p < 0) or np.any(p > 1):
            raise ValueError("policy: roll probabilities must lie in [0, 1]")
        object.__setattr__(self, "prob", p)
        freeze(self)

    def __str__(self) -> str:
        return self.name

    def to_frame(self) -> Any:
        """Long form (pandas): one row per state and turn total ``1 <= t < goal - own``,
        columns ``own``, ``other`` (or ``other1``, ...), ``turn_total`` and ``prob`` (of
        rolling again)."""
        return long_frame({"prob": self.prob}, extra="turn_total", keep=_live(self.prob.shape))


def _live(shape: tuple[int, ...]) -> np.ndarray:
    """``1 <= t < goal - own`` over a table of shape ``(goal, ..., goal)`` (own first, t last)."""
    goal = shape[-1]
    own = np.arange(shape[0]).reshape((-1,) + (1,) * (len(shape) - 1))
    t = np.arange(goal)
    return (t >= 1) & (t < goal - own)


@dataclass(frozen=True, eq=False)
class RuleMixture:
    """Internal form of a stopping rule for given rules: ``P(roll)`` per state and turn total.

    Attributes
    ----------
    prob : numpy.ndarray, shape ``(goal,) * players + (goal,)`` or broadcastable to it
    rules : Rules
    """

    prob: np.ndarray
    rules: Rules

    def __post_init__(self) -> None:
        freeze(self)

    def reads_own_score_only(self) -> bool:
        """Whether the rule at a state depends on the player's own score alone."""
        p = self.prob
        first = p[(slice(None),) + (slice(0, 1),) * (p.ndim - 2)]
        return bool(np.array_equal(np.broadcast_to(first, p.shape), p))

    def outcomes(self, states: tuple[np.ndarray, ...] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Distribution of the points the turn adds at the given own-centric states.

        Parameters
        ----------
        states : tuple of int arrays, one per player (own score first), optional
            Broadcast together to ``states_shape``; default: every state, ``(goal,) * players``.

        Returns
        -------
        gains, probs : numpy.ndarray, shape ``states_shape + (goal + 1,)``
            Column x is the gain x clipped to ``goal - own`` (column 0 the bust), as
            :meth:`pigtheory.policies.Mixture.outcomes` gives them.
        """
        g = self.rules.goal
        if states is None:
            grids = np.indices((g,) * self.rules.players)
            states = tuple(grids)
        arrays = np.broadcast_arrays(*[np.asarray(s) for s in states])
        shape = arrays[0].shape
        flat = [a.ravel() for a in arrays]
        idx = tuple(f if self.prob.shape[d] > 1 else np.zeros_like(f) for d, f in enumerate(flat))
        rows = self.prob[idx]
        own = flat[0]
        probs = rule_outcomes(rows, own, self.rules)
        gains = np.minimum(np.arange(g + 1)[None, :], (g - own)[:, None])
        return gains.reshape(shape + (g + 1,)), probs.reshape(shape + (g + 1,))


def rule_outcomes(roll: np.ndarray, own: np.ndarray, rules: Rules) -> np.ndarray:
    """Distribution of the points a turn adds under each stopping rule, by forward recursion.

    Parameters
    ----------
    roll : array, shape ``(ns, goal)``
        A pure rule (bool: roll at t) or a behavioural one (float: the chance of rolling at t).
    own : int array, shape ``(ns,)``
        The player's score at each state.
    rules : Rules
        The roll model (:meth:`~pigtheory.Rules.roll_arrays`) and the goal.

    Returns
    -------
    numpy.ndarray, shape ``(ns, goal + 1)``
        ``P[s, x]``, x the gain clipped at ``goal - own`` (column 0 the bust); rows sum to 1.

    Notes
    -----
    ``reach[t]`` is the chance the turn passes through total t still rolling; at t it rolls
    with the rule's chance (always at t = 0) and holds otherwise (mass to gain t): the bust
    sends the rolled share to gain 0, a scoring roll of g points to ``t + g`` (to the room
    ``goal - own``, clipped, once ``t + g`` reaches it). The compiled twin is
    :func:`pigtheory.simultaneous.core.stopping_rules.stopping_outcomes`.

    Examples
    --------
    >>> rules = Rules(goal=4, die_faces=2)  # a coin: heads scores 2, tails busts
    >>> rule_outcomes(np.arange(4)[None, :] < 3, np.array([0]), rules).tolist()
    [[0.75, 0.0, 0.0, 0.0, 0.25]]
    """
    roll, own = _check_rule_arrays(roll, own, rules)
    g = rules.goal
    p_bust, gains, probs = rules.roll_arrays()
    ns = own.size
    room = g - own
    # by turn total first: each step reads and writes whole contiguous rows
    go_prob = np.ascontiguousarray(np.asarray(roll, dtype=float).T)
    out = np.zeros((g + 1, ns))
    reach = np.zeros((g, ns))
    reach[0] = 1.0
    finish = np.zeros(ns)  # mass that reaches the goal: gain clipped to the room
    for t in range(g):
        live = t < room
        if not live.any():
            break
        mass = reach[t] * live
        m = mass if t == 0 else go_prob[t] * mass
        if t > 0:
            out[t] = mass - m
        out[0] += p_bust * m
        for gain, p in zip(gains.tolist(), probs.tolist(), strict=True):
            to = t + gain
            if to < g:
                over = to >= room
                finish += (p * m) * over
                reach[to] += (p * m) * ~over
            else:
                finish += p * m
    out = np.ascontiguousarray(out.T)
    out[np.arange(ns), room] += finish
    return out


def is_threshold_rule(roll: np.ndarray, own: np.ndarray, rules: Rules) -> np.ndarray:
    """Whether each rule plays as "hold at k" for some k.

    Parameters
    ----------
    roll : bool array, shape ``(ns, goal)``
        ``roll[s, t]``: the rule at state s rolls at turn total t.
    own : int array, shape ``(ns,)``
        The player's score at each state (a turn total of ``goal - own`` or more reaches the
        goal and ends the turn).
    rules : Rules
        The die: which turn totals a turn can reach.

    Returns
    -------
    bool array, shape ``(ns,)``
        True where, at every turn total the rule can reach from 0, it rolls below some k and
        holds from k on. Entries at turn totals it never reaches do not count: a rule that
        holds at 3 and "rolls" at 9 plays as hold at 3 when 9 can only be reached from turn
        totals where it holds.

    Examples
    --------
    >>> g = 10
    >>> hold3 = np.arange(g) < 3
    >>> odd = hold3.copy()
    >>> odd[[1, 9]] = True  # never reached: a roll gains 2..6, and 9 only from 3..7, where it holds
    >>> roll = np.stack([hold3, odd, np.arange(g) % 2 == 0])
    >>> is_threshold_rule(roll, np.zeros(3, dtype=int), Rules(goal=g)).tolist()
    [True, True, False]
    """
    return _is_threshold_rule(roll, own, rules, _reached)


def _is_threshold_rule(roll: Any, own: Any, rules: Rules, reached: Any) -> np.ndarray:
    """:func:`is_threshold_rule` with the walk over reached turn totals given (``reached``, as
    :func:`_reached`: the compiled solvers pass a compiled one, the same booleans)."""
    roll = np.asarray(roll, dtype=bool)
    stop = roll.shape[1] - np.asarray(own)[:, None]  # from here on the goal is reached
    t = np.arange(roll.shape[1])[None, :]
    live = (t >= 1) & (t < stop)
    out = _prefix_rule(roll, live)
    # A rule that is a threshold on every live turn total is one on those it reaches; only the
    # others need the (slower) walk over the turn totals they reach.
    odd = np.flatnonzero(~out)
    if odd.size:
        out[odd] = _prefix_rule(roll[odd], live[odd] & reached(roll[odd], stop[odd], rules))
    return out


def _prefix_rule(roll: np.ndarray, live: np.ndarray) -> np.ndarray:
    """Whether each row rolls, on its ``live`` turn totals, below some k and holds from k on."""
    t = np.arange(roll.shape[1])[None, :]
    holds = live & ~roll
    first_hold = np.where(holds.any(axis=1), np.argmax(holds, axis=1), roll.shape[1])
    return ~(live & roll & (t > first_hold[:, None])).any(axis=1)


def _reached(roll: np.ndarray, stop: np.ndarray, rules: Rules) -> np.ndarray:
    """``reached[s, t]``: the rule of row s can reach turn total t (a turn starts with a roll)."""
    _, gains, _ = rules.roll_arrays()
    ns, goal = roll.shape
    # by turn total first: each step reads a few earlier rows of one contiguous array
    goes_on = (roll | (np.arange(goal)[None, :] == 0)) & (np.arange(goal)[None, :] < stop)
    goes_on = np.ascontiguousarray(goes_on.T)
    reached = np.zeros((goal, ns), dtype=bool)
    reached[0] = True
    on = np.zeros((goal, ns), dtype=bool)  # reached and rolls on
    on[0] = goes_on[0]
    for t in range(1, goal):
        came = t - gains[gains <= t]
        reached[t] = on[came].any(axis=0)
        on[t] = reached[t] & goes_on[t]
    reached = reached.T
    return reached


TurnPolicy = Mixture | RuleMixture
"""What the solvers read a policy as: thresholds or stopping rules."""


def as_turn_policy(policy: Any, rules: Rules) -> TurnPolicy:
    """Read any policy, thresholds or stopping rules, as the form the solvers consume.

    Parameters
    ----------
    policy : policy
        A threshold policy (anything :func:`pigtheory.as_mixture` reads), a
        :class:`StoppingRule`, a :class:`RandomStoppingRule`, a result whose ``policy`` is
        one of these, or the policy kind of a registered action set (an object with the same
        ``rules`` and ``outcomes(states)``, as :class:`RuleMixture`), returned as it is.
    rules : Rules

    Returns
    -------
    Mixture or RuleMixture
        Threshold policies give :func:`pigtheory.policies.as_mixture`'s
        :class:`~pigtheory.policies.Mixture` (``thresholds``, ``weights``: ``(goal,) * players +
        (S,)``); stopping rules give a :class:`RuleMixture` (``prob``: ``(goal,) * players +
        (goal,)``), arrays broadcastable to these shapes.
    """
    check_rules(rules)
    if isinstance(policy, RuleMixture):
        if policy.rules != rules:
            raise ValueError("policy: a RuleMixture built for other rules")
        return policy
    if isinstance(policy, StoppingRule):
        table = _check_table("stopping rule", policy.roll, rules)
        return RuleMixture(table.astype(float), rules)
    if isinstance(policy, RandomStoppingRule):
        return RuleMixture(_check_table("random stopping rule", policy.prob, rules), rules)
    inner = getattr(policy, "policy", None)
    if isinstance(inner, (StoppingRule, RandomStoppingRule)):
        return as_turn_policy(inner, rules)
    from .policies.sequential import RollTable

    if isinstance(policy, RollTable):  # a bare boolean table (.npy): roll[own, other, t], the same array
        return as_turn_policy(StoppingRule(policy.roll, name=str(policy)), rules)
    if callable(getattr(policy, "outcomes", None)) and getattr(policy, "rules", None) == rules:
        return policy  # the policy kind of a registered action set reads itself
    return as_mixture(policy, rules)


def _check_rule_arrays(roll: Any, own: Any, rules: Any) -> tuple[np.ndarray, np.ndarray]:
    """:func:`rule_outcomes`' arguments: ``rules`` a Rules; ``roll`` of shape ``(ns, goal)``,
    bool or chances in [0, 1]; ``own`` ``ns`` integer scores in ``0..goal - 1``; the memory of
    the recursion (three float arrays of ``ns * (goal + 1)``) within the limit."""
    check_rules(rules)
    g = rules.goal
    roll_a, own_a = _array("roll", roll), _array("own", own)
    if roll_a.ndim != 2 or roll_a.shape[1] != g:
        raise ValueError(f"roll must have shape (states, goal) = (ns, {g}), got {roll_a.shape}")
    if own_a.ndim != 1 or own_a.size != roll_a.shape[0] or own_a.dtype.kind not in "iu":
        raise ValueError(
            f"own must be a 1-d integer array of {roll_a.shape[0]} scores (one per row of roll), "
            f"got {own_a.dtype} of shape {own_a.shape}"
        )
    if own_a.size and (own_a.min() < 0 or own_a.max() >= g):
        raise ValueError(f"own: scores are in 0..{g - 1}, got {own_a.min()}..{own_a.max()}")
    if roll_a.dtype != bool and roll_a.size and not (roll_a.min() >= 0 and roll_a.max() <= 1):
        raise ValueError("roll: chances of rolling are in [0, 1] (NaN refused)")
    cells = own_a.size * (g + 1)
    check_memory(
        Estimate(f"stopping-rule outcomes ({rules})", cells, 24 * cells + 10**6, "pass fewer states")
    )
    return roll_a, own_a.astype(np.int64)


def _array(name: str, value: Any) -> np.ndarray:
    if isinstance(value, (str, bytes, dict)):
        raise ValueError(f"{name} must be an array of numbers, got {value!r:.80}")
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{name} must be an array of numbers, got {value!r:.80}") from exc
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be an array of numbers, got dtype {arr.dtype}")
    return arr
