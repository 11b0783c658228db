"""Turn-total distributions X_k of the "hold at k" turn.

A player who holds at k rolls until the turn total is at least k or a bust face comes up.
X_k, the points the turn adds, is 0 (bust) or lies in ``k .. k + m - 1``, where m is the
largest number of points one roll adds (m = 6 for one six-sided die).

Notes
-----
Let ``r(t)`` be the probability that the turn total passes through t while the player is
still rolling (t < k), with ``r(0) = 1`` and, for one roll adding g points with probability
``p_g``,

.. math:: r(t) = \\sum_g r(t - g)\\, p_g .

r does not depend on k, so every X_k comes from one array:

.. math::

    P(X_k = s) = \\sum_{g} r(s - g)\\, p_g \\quad (k \\le s,\\; 0 \\le s - g < k), \\qquad
    P(X_k = 0) = p_{bust} \\sum_{t < k} r(t).

For one die this is the paper's recursion (eq. 11, Table 1) unrolled: going from k to
k + 1 moves the mass at k one roll further.

References
----------
Zhu, Ma, Chen & Liu, "Optimal strategy of the simultaneous dice game Pig for multiplayers",
Scientific Reports 13 (2023), section "Distribution calculation", eq. (11) and Table 1.

Examples
--------
>>> turn_total(3, exact=True).pmf[8]
Fraction(1, 36)
>>> round(turn_total(25).pmf[0], 4)
0.7004
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from .guard import check_memory, turn_total_estimate
from .rules import Rules, integral
from .validation import check_rules

__all__ = ["TurnTotal", "TurnTotalTable", "turn_total", "turn_total_table"]


@dataclass(frozen=True, eq=False)
class TurnTotal:
    """Distribution of X_k, the points of one "hold at k" turn (Zhu, Ma, Chen & Liu 2023,
    eq. (11) and Table 2).

    Attributes
    ----------
    k : int
        The threshold.
    support : numpy.ndarray of int, shape ``(n,)``
        Possible gains, ascending, 0 (bust) first; only gains of positive probability
        (n <= m + 1, m the largest points of one roll).
    probs : numpy.ndarray, shape ``(n,)``
        Their probabilities (floats, or ``Fraction`` objects when exact).
    """

    k: int
    support: np.ndarray
    probs: np.ndarray

    @property
    def pmf(self) -> dict[int, float | Fraction]:
        """``{gain: probability}``; gain 0 is a bust."""
        return {
            int(g): (p if isinstance(p, Fraction) else float(p))
            for g, p in zip(self.support, self.probs, strict=True)
        }

    def mean(self) -> float | Fraction:
        """Expected gain E[X_k]."""
        return sum(
            (g * p for g, p in zip(self.support.tolist(), self.probs, strict=True)), start=0 * self.probs[0]
        )


@dataclass(frozen=True, eq=False)
class TurnTotalTable:
    """All X_k, k = 0..goal, as arrays that solvers index directly.

    Attributes
    ----------
    bust : numpy.ndarray, shape (goal + 1,)
        ``bust[k] = P(X_k = 0)``. Row 0 ("hold at 0", do not roll) has ``bust[0] = 1``.
    band : numpy.ndarray, shape (goal + 1, m)
        ``band[k, r] = P(X_k = k + r)`` for r = 0..m-1, m = ``rules.max_roll``.
    rules : Rules
    """

    bust: np.ndarray
    band: np.ndarray
    rules: Rules

    @property
    def width(self) -> int:
        """m, the number of columns of ``band`` (the largest points one roll adds)."""
        return self.band.shape[1]


def _check_k(k: object, rules: Rules) -> int:
    k = integral(k)
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool) or k < 1:
        raise ValueError(f"k must be an integer >= 1, got {k!r}")
    if rules.roll_model().forced:
        raise ValueError(
            "turn_total: Double Trouble's forced re-rolls make X_k depend on more than k; "
            "use pigtheory.sequential for Double Trouble"
        )
    return int(k)


def _reach(n: int, rules: Rules, exact: bool) -> list:
    """r(t) for t = 0..n-1: probability of passing through turn total t while rolling."""
    roll = rules.roll_distribution()
    steps = [(g, p if exact else float(p)) for g, p in roll.items() if g > 0]
    one = Fraction(1) if exact else 1.0
    zero = Fraction(0) if exact else 0.0
    r = [one] + [zero] * (n - 1)
    for t in range(1, n):
        r[t] = sum((r[t - g] * p for g, p in steps if g <= t), start=zero)
    return r


def turn_total(k: int, rules: Rules = Rules(), exact: bool = False, *, max_memory: Any = None) -> TurnTotal:
    """Distribution of X_k, the turn total of "hold at k" (Zhu, Ma, Chen & Liu 2023, eq. (11)).

    Parameters
    ----------
    k : int
        Hold as soon as the turn total is >= k; ``k >= 1``.
    rules : Rules
        The die (one or two dice, or Piglet's coin). Double Trouble is not a plain hold-at-k
        turn and raises ``ValueError``.
    exact : bool
        Return ``fractions.Fraction`` probabilities that sum to exactly 1.
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).

    Returns
    -------
    TurnTotal
        ``support`` (gains 0 and ``k .. k + m - 1`` of positive probability, ascending) and
        ``probs``, both of shape ``(n,)``.

    Examples
    --------
    >>> {g: str(p) for g, p in turn_total(3, exact=True).pmf.items()}
    {0: '7/36', 3: '1/6', 4: '7/36', 5: '7/36', 6: '7/36', 7: '1/36', 8: '1/36'}
    """
    check_rules(rules)
    k = _check_k(k, rules)  # an integral float (1e308) is an int from here on, estimated as one
    check_memory(turn_total_estimate(k, exact=exact, rules=rules), max_memory)
    roll = rules.roll_distribution()
    if not exact:
        table = turn_total_table(rules.replace(goal=max(rules.goal, k)))
        probs = np.concatenate([[table.bust[k]], table.band[k]])
        gains = np.concatenate([[0], k + np.arange(table.width)])
        keep = probs > 0
        probs.setflags(write=False)
        return TurnTotal(k, gains[keep], probs[keep])
    r = _reach(k, rules, exact=True)
    pmf: dict[int, Fraction] = {0: roll[0] * sum(r, start=Fraction(0))}
    for t in range(k):
        for g, p in roll.items():
            if g > 0 and t + g >= k:
                pmf[t + g] = pmf.get(t + g, Fraction(0)) + r[t] * p
    items = sorted((g, p) for g, p in pmf.items() if p != 0)
    return TurnTotal(k, np.array([g for g, _ in items]), np.array([p for _, p in items], dtype=object))


@lru_cache(maxsize=64)
def turn_total_table(rules: Rules = Rules()) -> TurnTotalTable:
    """X_k for every k = 0..goal, built once per ``rules`` (cached): the paper's eq. (11) for
    every k at once (Zhu, Ma, Chen & Liu 2023, "Distribution calculation").

    Parameters
    ----------
    rules : Rules
        The die; not Double Trouble (``ValueError``). Only ``goal`` and the die matter.

    Returns
    -------
    TurnTotalTable
        ``bust``, shape ``(goal + 1,)``: ``bust[k] = P(X_k = 0)``; ``band``, shape
        ``(goal + 1, m)``: ``band[k, r] = P(X_k = k + r)``. ``bust[k] + band[k].sum() == 1``
        for every k; the arrays are read-only.

    Examples
    --------
    >>> t = turn_total_table(Rules(goal=10))
    >>> t.band.shape, float(t.bust[1])
    ((11, 6), 0.16666666666666666)
    """
    if rules.roll_model().forced:
        raise ValueError("turn_total_table: not defined for Double Trouble (see turn_total)")
    n = rules.goal + 1
    roll = rules.roll_distribution()
    m = max(roll)
    r = np.array(_reach(n, rules, exact=False))
    cum = np.concatenate([[0.0], np.cumsum(r)])  # cum[k] = sum_{t<k} r(t)
    bust = float(roll[0]) * cum[:n]
    bust[0] = 1.0
    band = np.zeros((n, m))
    ks = np.arange(1, n)
    for g, p in roll.items():
        if g == 0:
            continue
        for off in range(g):  # s = k + off, t = s - g = k + off - g < k
            t = ks + off - g
            ok = t >= 0
            band[ks[ok], off] += r[t[ok]] * float(p)
    bust.setflags(write=False)
    band.setflags(write=False)
    return TurnTotalTable(bust=bust, band=band, rules=rules)
