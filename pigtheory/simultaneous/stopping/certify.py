"""Certified classes of the equilibrium over stopping rules, decided state by state exhaustively.

Shapes
------
``kind`` ``(goal, goal)``: the class of each state, an index into
:data:`~pigtheory.simultaneous.stopping.equilibrium.KINDS`. Every certificate array has a last
axis of length 2, player A (index 0, the maximiser, own score i) and player B (index 1):
``threshold_gap``, ``threshold`` ``(goal, goal, 2)``; ``pure_gap``, ``pure_bound``,
``mixture_gap`` ``(goal, goal, 2)``; ``pure_rule`` ``(goal, goal, 2, goal)`` (bool, roll at
turn total t).

Notes
-----
At a state s with value V (from :func:`~pigtheory.simultaneous.stopping.equilibrium`), a
player's (possibly randomised) rule is judged by what it *guarantees* against every rule of
the other, the self-loop (both bust) included: for A, :math:`L(a) = \\min_b u(a, b)`; for B,
the concession :math:`U(b) = \\max_a u(a, b)`, both computed exactly by the optimal stopping of
:mod:`pigtheory.simultaneous.core.stopping_rules`. The *gap* of a rule is :math:`V - L(a)` (A) or
:math:`U(b) - V` (B): zero for an optimal rule. A saddle point of a class exists when each
player has an optimal rule in that class (saddle points of a zero-sum game are
interchangeable), so three questions decide the class, each asked of both players:

* **T** - a pure threshold (hold at k) is optimal: every k is enumerated, each with the other
  player's exact best reply over all rules (``threshold_gap``, ``threshold``).
* **P** - a pure (deterministic) stopping rule is optimal. With :math:`M(V)` the state's
  payoffs after the two gains (:math:`M[0, 0] = V`, the double bust) and the realization plans
  of :mod:`pigtheory.simultaneous.stopping.equilibrium`, a rule a guarantees V iff
  :math:`\\min_b P_a^\\top (M(V) - V) P_b \\ge 0` (the factor :math:`1 - P_a(0) P_b(0)` of the
  self-loop is positive), and the inner minimum is a linear program whose dual is taken.
  Deterministic rules are realization plans with a binary choice :math:`x_t` per turn total,
  :math:`r_t \\le x_t,\\ h_t \\le 1 - x_t`, so

  .. math:: z^* = \\max_{x \\in \\{0, 1\\}^{R - 1},\\, w,\\, \\lambda} \\lambda_0 \\quad
            \\text{s.t.} \\quad F w = f,\\ F_B^\\top \\lambda \\le G_B^\\top (M(V) - V)^\\top G w

  is a mixed-integer LP (HiGHS). Every pure rule's gap is at least :math:`-z^*` (the
  minimising reply b has :math:`u(a, b) - V = z / (1 - P_a(0) P_b(0)) \\le z`), so the MILP's
  dual bound certifies "no pure rule is optimal" (``pure_bound``); its rule, checked by the
  exact reply, certifies "this pure rule is optimal" (``pure_gap``, ``pure_rule``). Where a
  threshold is optimal it is the pure rule and no MILP is solved; nor where a local search
  over rules shaped like the optimal ones seen (a hold window, or an island of rolls, above a
  threshold) finds a rule whose exact gap is within ``tol`` (``pure_bound`` is then NaN). Only
  the answers "no" need the MILP's bound.
* **M** - a mixture of thresholds is optimal: the same program with :math:`w` a convex
  combination of the thresholds' outcome distributions, an LP (``mixture_gap``, asked only
  where P fails).

With the answers for both players: class 0 if T; else class 2 if P; else class 1 if M; else
class 3 (:data:`KINDS`). A question is answered yes when the gap is at most ``tol`` and no
when the certified lower bound exceeds ``tol``; the margins are kept so that the robustness of
each answer can be read off (:meth:`StoppingClasses.margins`).

References
----------
D. Koller, N. Megiddo & B. von Stengel, "Efficient computation of equilibria for extensive
two-person games", Games and Economic Behavior 14 (1996) 247-259 (realization plans).
J. von Neumann, "Zur Theorie der Gesellschaftsspiele", Math. Annalen 100 (1928) 295-320
(saddle points are interchangeable).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...engine import choose_engine
from ...results import Result
from ...rules import Rules
from ...validation import check_tol
from ..core import extended, one_blas_thread
from ..core.stopping_rules import (
    stopping_outcomes,
    threshold_rule,
)
from .equilibrium import KINDS, StoppingEquilibrium, stage_payoffs
from .programs import guarantees, local_rule, mixture_lp, mixture_reply_gap, pure_milp, rule_gap

__all__ = ["StoppingClasses", "certify_classes"]

_CHUNK = 64  # states per batch of threshold replies (64 * goal rows of optimal stopping)


@dataclass(frozen=True, eq=False)
class StoppingClasses(Result):
    """The class of every state of the equilibrium over stopping rules, with its certificate.

    Attributes
    ----------
    value : numpy.ndarray, shape ``(goal + 1, goal + 1)``
        The equilibrium values the classes were decided at.
    kind : numpy.ndarray of int, shape ``(goal, goal)``
        Index into :data:`~pigtheory.simultaneous.stopping.equilibrium.KINDS`.
    threshold : numpy.ndarray of int, shape ``(goal, goal, 2)``
        Each player's best threshold k (largest guarantee for A, smallest concession for B).
    threshold_gap : numpy.ndarray, shape ``(goal, goal, 2)``
        Its gap (module Notes): 0 up to rounding where a threshold is optimal.
    pure_gap : numpy.ndarray, shape ``(goal, goal, 2)``
        Gap of the best deterministic rule found (``pure_rule``), by its exact best reply; NaN
        where not asked (the other player has no optimal pure rule).
    pure_bound : numpy.ndarray, shape ``(goal, goal, 2)``
        A lower bound on the gap of every deterministic rule, from the MILP's dual bound; NaN
        where no MILP was solved (an optimal threshold or a rule found by the local search
        answered the question, or it was not asked).
    pure_rule : numpy.ndarray of bool, shape ``(goal, goal, 2, goal)``
        The rule of ``pure_gap``: roll at turn total t.
    mixture_gap : numpy.ndarray, shape ``(goal, goal, 2)``
        Gap of the best mixture of thresholds (``mixture``), by its exact best reply; NaN where
        not asked (a pure rule is optimal for both, or the other player answered no).
    mixture_bound : numpy.ndarray, shape ``(goal, goal, 2)``
        A lower bound on the gap of every mixture of thresholds (the LP's optimum); NaN where
        not asked.
    mixture : numpy.ndarray, shape ``(goal, goal, 2, goal)``
        The mixture of ``mixture_gap``: ``mixture[i, j, p, k - 1]`` the weight of "hold at k".
    iterations : int
        States decided.
    residual : float
        The largest gap among the answers "yes" (how far from exact a certified optimal rule
        may be).
    method : str
    rules : Rules
    tol : float
        Gaps up to ``tol`` count as optimal; a "no" needs a certified bound above it.
    n_milp : int
        Mixed-integer programs solved.
    n_lp : int
        Linear programs solved (threshold mixtures).
    """

    value: np.ndarray
    kind: np.ndarray
    threshold: np.ndarray
    threshold_gap: np.ndarray
    pure_gap: np.ndarray
    pure_bound: np.ndarray
    pure_rule: np.ndarray
    mixture_gap: np.ndarray
    mixture_bound: np.ndarray
    mixture: np.ndarray
    iterations: int
    residual: float
    method: str
    rules: Rules
    tol: float
    n_milp: int
    n_lp: int

    def counts(self) -> dict[str, int]:
        """Number of states of each class: ``{name in KINDS: count}``."""
        return {name: int((self.kind == c).sum()) for c, name in enumerate(KINDS)}

    def margins(self) -> dict[str, float]:
        """How robust the answers are: for each question, the largest gap answered "yes" and the
        smallest certified bound answered "no" (NaN where there is none).

        Examples
        --------
        >>> from pigtheory import Rules
        >>> from pigtheory.simultaneous import stopping_equilibrium
        >>> m = certify_classes(stopping_equilibrium(rules=Rules(goal=12, die_faces=3))).margins()
        >>> m["threshold: largest yes"] < 1e-12, round(m["threshold: smallest no"], 6)
        (True, 0.000387)
        """
        tol = self.tol
        with np.errstate(invalid="ignore"):
            t_yes = self.threshold_gap <= tol
            out = {
                "threshold: largest yes": _top(self.threshold_gap[t_yes]),
                "threshold: smallest no": -_top(-self.threshold_gap[~t_yes]),
                "pure rule: largest yes": _top(self.pure_gap[self.pure_gap <= tol]),
                "pure rule: smallest no": -_top(-self.pure_bound[self.pure_bound > tol]),
                "threshold mixture: largest yes": _top(self.mixture_gap[self.mixture_gap <= tol]),
                "threshold mixture: smallest no": -_top(-self.mixture_bound[self.mixture_bound > tol]),
            }
        return out


def _top(a: np.ndarray) -> float:
    return float(a.max()) if a.size else float("nan")


def certify_classes(
    eq: StoppingEquilibrium, *, tol: float = 1e-9, engine: str = "auto", max_memory: Any = None
) -> StoppingClasses:
    """Decide the class of every state of an equilibrium over stopping rules exhaustively.

    :func:`~pigtheory.simultaneous.stopping.equilibrium` finds each state's class on its way
    (best-response dynamics, then threshold mixes, then linear programs), which can miss a
    saddle point that exists. This asks the three questions of the module Notes of every
    state by methods that cannot miss: every threshold enumerated, a mixed-integer program over
    every deterministic stopping rule, a linear program over every mixture of thresholds.

    Parameters
    ----------
    eq : StoppingEquilibrium
        The equilibrium (its values are the continuation of every stage game).
    tol : float
        Gaps up to ``tol`` count as optimal (the equilibrium's certificate gap is about
        1e-12); a state whose answer lies within rounding of ``tol`` raises ``RuntimeError``.
    engine : {"auto", "numba", "numpy"}
        For the optimal-stopping replies.
    max_memory : int or str, optional
        Unused beyond the check that the batches fit (they are small: 64 states at a time).

    Returns
    -------
    StoppingClasses

    Notes
    -----
    The method and the certificates are in the module Notes.

    Examples
    --------
    >>> from pigtheory import Rules
    >>> from pigtheory.simultaneous import stopping_equilibrium
    >>> c = certify_classes(stopping_equilibrium(rules=Rules(goal=12, die_faces=3)))
    >>> c.counts()["pure threshold saddle"], c.counts()["pure saddle only with a non-threshold rule"]
    (142, 2)
    >>> rule = c.pure_rule[1, 2, 0, :11]  # A's optimal rule at (1, 2), room 11: not a threshold
    >>> rule.astype(int).tolist(), float(c.pure_gap[1, 2, 0]) < 1e-12 < float(c.threshold_gap[1, 2, 0])
    ([1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1], True)
    """
    if not isinstance(eq, StoppingEquilibrium):
        raise ValueError(f"eq must be a StoppingEquilibrium, got {type(eq).__name__}")
    tol = check_tol(tol)
    rules = eq.rules
    g = rules.goal
    engine = choose_engine(engine, g**3 * rules.die_faces * 50)
    value = np.array(eq.value, dtype=float)
    ext = extended(value, rules)
    grid_i, grid_j = np.meshgrid(np.arange(g), np.arange(g), indexing="ij")
    ii, jj = grid_i.ravel(), grid_j.ravel()
    v = value[ii, jj]
    ns = ii.size
    k_best = np.zeros((ns, 2), dtype=np.int64)
    t_gap = np.zeros((ns, 2))
    with one_blas_thread():
        for start in range(0, ns, _CHUNK):
            sl = slice(start, start + _CHUNK)
            e = stage_payoffs(ext, ii[sl], jj[sl], g)
            k_best[sl], t_gap[sl] = _best_thresholds(e, ii[sl], jj[sl], v[sl], rules, engine)
    t_yes = t_gap <= tol
    nan2 = np.full((ns, 2), np.nan)
    pure_gap, pure_bound, mixture_gap, mixture_bound = (
        np.where(t_yes, t_gap, np.nan),
        nan2.copy(),
        nan2.copy(),
        nan2.copy(),
    )
    pure_rule = np.stack([threshold_rule(k_best[:, 0], g), threshold_rule(k_best[:, 1], g)], axis=1)
    mixture = np.zeros((ns, 2, g))
    n_milp = n_lp = 0
    for s in np.flatnonzero(~t_yes.all(axis=1)):
        i, j, vs = int(ii[s]), int(jj[s]), float(v[s])
        e = stage_payoffs(ext, ii[s : s + 1], jj[s : s + 1], g)[0]
        # the player further from a threshold first: if it has no optimal pure rule, neither
        # question needs the other player
        order = [p for p in np.argsort(-t_gap[s]).tolist() if not t_yes[s, p]]
        for p in order:
            found = local_rule(e, vs, i, j, p, rules, engine, tol)
            if found is not None:  # an optimal rule, by its exact reply: the answer is yes
                pure_rule[s, p], pure_gap[s, p] = found
                continue
            pure_rule[s, p], pure_bound[s, p] = pure_milp(e, vs, i, j, p, rules)
            pure_gap[s, p] = rule_gap(e, pure_rule[s, p], vs, i, j, p, rules, engine)
            n_milp += 1
            if _answer(pure_gap[s, p], pure_bound[s, p], tol, "pure rule", i, j) is False:
                break
        if (pure_gap[s] <= tol).all():
            continue
        for p in np.argsort(-t_gap[s]).tolist():
            w, mixture_bound[s, p] = mixture_lp(e, vs, i, j, p, rules)
            mixture[s, p, : w.size] = w
            mixture_gap[s, p] = mixture_reply_gap(e, w, vs, i, j, p, rules, engine)
            n_lp += 1
            if _answer(mixture_gap[s, p], mixture_bound[s, p], tol, "threshold mixture", i, j) is False:
                break
    near = np.abs(t_gap - tol) <= max(1e-3 * tol, 1e-13)
    if near.any():
        raise RuntimeError(
            f"certify_classes: a threshold's gap lies within rounding of tol={tol:g}; choose another tol"
        )
    with np.errstate(invalid="ignore"):
        t_all = t_yes.all(axis=1)
        p_all = (pure_gap <= tol).all(axis=1)
        m_all = (mixture_gap <= tol).all(axis=1)
        yes = np.concatenate([t_gap[t_yes], pure_gap[pure_gap <= tol], mixture_gap[mixture_gap <= tol]])
    kind = np.where(t_all, 0, np.where(p_all, 2, np.where(m_all, 1, 3)))
    shape = (g, g)
    return StoppingClasses(
        value,
        kind.reshape(shape),
        k_best.reshape(shape + (2,)),
        t_gap.reshape(shape + (2,)),
        pure_gap.reshape(shape + (2,)),
        pure_bound.reshape(shape + (2,)),
        pure_rule.reshape(shape + (2, g)),
        mixture_gap.reshape(shape + (2,)),
        mixture_bound.reshape(shape + (2,)),
        mixture.reshape(shape + (2, g)),
        ns,
        float(np.abs(yes).max(initial=0.0)),
        "threshold enumeration, MILP over deterministic rules, LP over threshold mixtures",
        rules,
        tol,
        n_milp,
        n_lp,
    )


def _answer(gap: float, bound: float, tol: float, what: str, i: int, j: int) -> bool:
    """Yes if the found rule's gap is within ``tol``, no if the certified bound is above it."""
    if gap <= tol:
        return True
    if bound > tol:
        return False
    raise RuntimeError(
        f"certify_classes: at state ({i}, {j}) no {what} within tol={tol:g} was found, but the bound "
        f"{bound:.3g} does not exclude one"
    )


def _best_thresholds(e, ii, jj, v, rules, engine):
    """Best threshold of each player at each state and its gap (every k enumerated)."""
    g = rules.goal
    ns = ii.size
    k = np.arange(1, g + 1)
    out_k = np.zeros((ns, 2), dtype=np.int64)
    out_gap = np.zeros((ns, 2))
    for p, own, opp in ((0, ii, jj), (1, jj, ii)):
        room = g - own
        kk = np.minimum(k[None, :], room[:, None])  # thresholds past the room repeat the room's
        dist = stopping_outcomes(threshold_rule(kk.ravel(), g), np.repeat(own, g), rules, engine=engine)
        dist = dist.reshape(ns, g, g + 1)
        val = guarantees(e, dist, opp, rules, engine, as_b=p == 1)
        gap = (v[:, None] - val) if p == 0 else (val - v[:, None])
        best = np.argmin(gap, axis=1)
        out_k[:, p] = kk[np.arange(ns), best]
        out_gap[:, p] = gap[np.arange(ns), best]
    return out_k, out_gap
