"""One-state zero-sum games that can repeat: ``v = val(C + v D)``, with a certificate.

Shapes
------
``c``, ``d``: ``(na, nb)``, the row player maximising; ``d[a, b]`` is the chance that the
state repeats when the row player plays a and the column player b, ``c[a, b]`` the expected
payoff of every other outcome. Mixed strategies ``x`` ``(na,)`` and ``y`` ``(nb,)``. When D
has rank one, ``d = outer(p, q)``, the solvers that only see rows and columns take ``p``
``(na,)`` and ``q`` ``(nb,)``.

Notes
-----
**The fixed point.** Playing the one-state game for ever is a stochastic game with one state;
by Shapley's theorem its value is the unique root of :math:`f(v) = \\operatorname{val}(C + vD) - v`
(``val`` is monotone and 1-Lipschitz in v, so :math:`f' = x D y - 1 \\le \\max D - 1 < 0`).

**Pure saddle points.** If both players repeat (a, b) the row player gets
:math:`W = C / (1 - D)`. Since :math:`M(v) - v = (1 - D) (W - v)` entry by entry, a pure
saddle point of W is an equilibrium with value :math:`W[a, b]`, and a game whose W has none
mixes at its root.

**2 x 2 in closed form**: :mod:`.two_by_two`.

**Certificate.** Against a stationary x the column player faces a one-state MDP, whose best
reply is a pure stationary b:

.. math:: L(x) = \\min_b \\frac{(x C)_b}{1 - (x D)_b} \\le v \\le
          U(y) = \\max_a \\frac{(C y)_a}{1 - (D y)_a}.

The minimiser of L and the maximiser of U are the best replies that a double oracle adds.

**Double oracle on rows and columns** (:func:`solve_with_oracles`). Only the rows of C for
the row player's candidate actions and the columns for the column player's are ever
computed: solve the restricted game (:func:`solve_small`: a pure saddle point, else the
certified 2 x 2 sub-game, else the LP route of :func:`solve_stage`), add each side's best
reply in the whole game from the certificate, and stop when neither reply is new: the
restricted solution is then an equilibrium of the whole game and the gap is rounding. (A
gap below a fixed ``tol`` is not enough to stop on: at a state worth 1e-9 a wrong support can
pass 1e-13.)

**Dense fallback** (:func:`solve_stage`). The whole matrix, Hoffman-Karp iteration on v:
solve :math:`M(v)` by linear programming (HiGHS) inside a double oracle, equalise on the
supports and run Newton's method on v there, certify, and solve again at
:math:`v = (L + U) / 2` while the gap exceeds ``tol``.

References
----------
L. S. Shapley, "Stochastic games", PNAS 39 (1953) 1095-1100.
A. J. Hoffman & R. M. Karp, "On nonterminating stochastic games", Management Science 12
(1966) 359-370.
H. B. McMahan, G. J. Gordon & A. Blum, "Planning in the presence of cost functions
controlled by an adversary", ICML 2003 (double oracle).
G. Owen, *Game Theory*, 3rd ed., Academic Press 1995, section II.3 (2 x 2 games).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from .two_by_two import solve_2x2

__all__ = ["StageSolution", "pure_bounds", "certificate", "solve_small", "solve_with_oracles", "solve_stage"]

_SUPPORT_TOL = 1e-9


class StageSolution(NamedTuple):
    """The solution of one stage: value, both mixed strategies, the certificate
    ``lower <= value <= upper`` and the number of linear programs it took."""

    value: float
    x: np.ndarray
    y: np.ndarray
    lower: float
    upper: float
    n_lp: int


def pure_bounds(w: np.ndarray) -> tuple[float, int, float, int]:
    """Pure maximin and minimax of ``w`` with the maximiser's and the minimiser's action
    indices (first on exact ties); ``maximin == minimax`` marks a pure saddle point."""
    rowmin = w.min(axis=1)
    colmax = w.max(axis=0)
    a = int(rowmin.argmax())
    b = int(colmax.argmin())
    return float(rowmin[a]), a, float(colmax[b]), b


def certificate(c: np.ndarray, d: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """``(L(x), U(y))``: the row player's mix x guarantees ``L(x)``, the column player's y
    concedes at most ``U(y)`` (module docstring); the value lies between them.

    Examples
    --------
    >>> c, d = np.array([[0.0, 0.9], [0.9, 0.0]]), np.array([[0.5, 0.0], [0.0, 0.5]])
    >>> half = np.array([0.5, 0.5])
    >>> [round(b, 12) for b in certificate(c, d, half, half)]
    [0.5, 0.5]
    """
    lo = float(((x @ c) / (1.0 - x @ d)).min())
    hi = float(((c @ y) / (1.0 - d @ y)).max())
    return lo, hi


def solve_small(c: np.ndarray, d: np.ndarray, tol: float = 1e-13, max_iter: int = 50):
    """Root of ``v = val(C + v D)`` for a small game: ``(v, x, y, n_lp)``.

    A pure saddle point of ``W = C / (1 - D)`` if there is one; otherwise the 2 x 2
    sub-game (:func:`solve_2x2`) whose solution is certified on the whole of ``c`` within
    ``tol`` with the smallest gap; otherwise (supports larger than two, or more than 64
    candidate pairs) :func:`solve_stage`'s linear programs, whose count is ``n_lp``.

    Examples
    --------
    >>> c = np.array([[0.0, 0.9, 0.95], [0.9, 0.0, 0.95]])  # B never plays the third column
    >>> v, x, y, n_lp = solve_small(c, np.array([[0.5, 0.0, 0.0], [0.0, 0.5, 0.0]]))
    >>> round(v, 12), y.round(12).tolist(), n_lp
    (0.5, [0.5, 0.5, 0.0], 0)
    """
    na, nb = c.shape
    w = c / (1.0 - d)
    lo, a, hi, b = pure_bounds(w)
    x, y = np.zeros(na), np.zeros(nb)
    if lo == hi:
        x[a], y[b] = 1.0, 1.0
        return lo, x, y, 0
    pairs_a = [(a0, a1) for a0 in range(na) for a1 in range(a0 + 1, na)]
    pairs_b = [(b0, b1) for b0 in range(nb) for b1 in range(b0 + 1, nb)]
    best = None
    if len(pairs_a) * len(pairs_b) <= 64:
        cl, dl = c.tolist(), d.tolist()
        for a0, a1 in pairs_a:
            for b0, b1 in pairs_b:
                sub_c = [[cl[a0][b0], cl[a0][b1]], [cl[a1][b0], cl[a1][b1]]]
                sol = solve_2x2(sub_c, [[dl[a0][b0], dl[a0][b1]], [dl[a1][b0], dl[a1][b1]]])
                if sol is None:
                    continue
                x[:], y[:] = 0.0, 0.0
                x[[a0, a1]], y[[b0, b1]] = sol[1], sol[2]
                lo_ab, hi_ab = certificate(c, d, x, y)
                if hi_ab - lo_ab <= tol and (best is None or hi_ab - lo_ab < best[0]):
                    best = (hi_ab - lo_ab, sol[0], x.copy(), y.copy())
    if best is not None:
        return best[1], best[2], best[3], 0
    v, xs, ys, _, _, n = solve_stage(c, d, tol=tol, max_iter=max_iter)
    return v, xs, ys, n


def solve_with_oracles(
    row: Callable[[int], np.ndarray],
    col: Callable[[int], np.ndarray],
    p: np.ndarray,
    q: np.ndarray,
    rows: dict[int, np.ndarray],
    cols: dict[int, np.ndarray],
    tol: float = 1e-13,
    max_iter: int = 50,
) -> StageSolution:
    """Solve ``v = val(C + v D)``, ``D = outer(p, q)``, from rows and columns of C only.

    Parameters
    ----------
    row, col : callable
        ``row(a)`` is ``C[a, :]`` (shape ``(nb,)``), ``col(b)`` is ``C[:, b]`` (``(na,)``).
    p, q : numpy.ndarray, shapes ``(na,)`` and ``(nb,)``
        ``D = outer(p, q)``, entries in ``[0, 1)``.
    rows, cols : dict
        The first candidate actions (0-based, at least one each) with their rows and
        columns, e.g. from a neighbouring state's actions and best replies. Updated in place
        with the rows and columns computed.
    tol : float
        Largest certificate gap of a 2 x 2 solution of a restricted game
        (:func:`solve_small`).
    max_iter : int
        Double-oracle rounds at most.

    Returns
    -------
    StageSolution
        The solution with the smallest gap met, when neither best reply is new or after
        ``max_iter`` rounds; ``x`` and ``y`` are zero off the candidate actions. The caller
        decides whether its gap is small enough.
    """
    na, nb = p.size, q.size
    best: StageSolution | None = None
    n_lp = 0
    for _ in range(max_iter):
        ra, cb = sorted(rows), sorted(cols)
        c_rows = np.array([rows[a] for a in ra])  # (|ra|, nb)
        c_cols = np.array([cols[b] for b in cb]).T  # (na, |cb|)
        v, xs, ys, k = solve_small(c_rows[:, cb], np.outer(p[ra], q[cb]), tol, max_iter)
        n_lp += k
        lo_all = (xs @ c_rows) / (1.0 - (xs @ p[ra]) * q)
        hi_all = (c_cols @ ys) / (1.0 - p * (q[cb] @ ys))
        b_new, a_new = int(lo_all.argmin()), int(hi_all.argmax())
        lo, hi = float(lo_all[b_new]), float(hi_all[a_new])
        if best is None or hi - lo < best.upper - best.lower:
            x, y = np.zeros(na), np.zeros(nb)
            x[ra], y[cb] = xs, ys
            v = min(max(v, lo), hi) if lo <= hi else v  # lo > hi only by rounding
            best = StageSolution(v, x, y, min(lo, v), max(hi, v), 0)
        # on while a best reply is new, even within tol (see the module docstring)
        grow = False
        if a_new not in rows:
            rows[a_new] = row(a_new)
            grow = True
        if b_new not in cols:
            cols[b_new] = col(b_new)
            grow = True
        if not grow:
            break
    assert best is not None
    return best._replace(n_lp=n_lp)


def solve_stage(c: np.ndarray, d: np.ndarray, tol: float = 1e-13, max_iter: int = 50):
    """Value of the one-state game ``v = val(C + v D)`` with optimal strategies, from the
    whole matrix (the dense fallback of the module docstring).

    Parameters
    ----------
    c, d : numpy.ndarray, shape ``(na, nb)``
        The payoff of every outcome but the repeat, and the chance of the repeat (module
        Shapes); the row player maximises.
    tol : float
        Stop once the certificate gap ``upper - lower`` is at most ``tol``.
    max_iter : int
        Rounds of the Hoffman-Karp iteration on v at most.

    Returns
    -------
    v : float
    x, y : numpy.ndarray, shapes ``(na,)`` and ``(nb,)``, or int
        The mixed strategies; at a pure saddle point the two action indices (ints) instead.
    lower, upper : float
        The certificate, ``lower <= v <= upper`` (equal at a pure saddle point).
    n_lp : int
        Linear programs solved.
    """
    w = c / (1.0 - d)
    maximin, a, minimax, b = pure_bounds(w)
    if maximin == minimax:
        return maximin, a, b, maximin, minimax, 0
    v = 0.5 * (maximin + minimax)
    best = None
    n_lp = 0
    rows, cols = {a}, {b}
    for _ in range(max_iter):
        x, y, k = _double_oracle(c + v * d - v, rows, cols)
        n_lp += k
        x, y, v_new = _polish(c, d, x, y, v)
        lo, hi = certificate(c, d, x, y)
        if best is None or hi - lo < best[4] - best[3]:
            best = (min(max(v_new, lo), hi), x, y, lo, hi)
        if hi - lo <= tol:
            break
        v = 0.5 * (lo + hi)
    assert best is not None
    return best + (n_lp,)


def _double_oracle(m: np.ndarray, rows: set, cols: set, tol: float = 1e-13):
    """Optimal mixes of the matrix game m from LPs on a growing set of actions (McMahan,
    Gordon & Blum 2003): solve the restricted game, add each side's best reply in the full
    game, stop when neither improves. ``rows`` and ``cols`` are updated in place."""
    n = 0
    while True:
        r, c = np.array(sorted(rows)), np.array(sorted(cols))
        xs, ys = _matrix_game(m[np.ix_(r, c)])
        n += 1
        x, y = np.zeros(m.shape[0]), np.zeros(m.shape[1])
        x[r], y[c] = xs, ys
        value = x @ m @ y
        reply_row = int(np.argmax(m @ y))
        reply_col = int(np.argmin(x @ m))
        grow = False
        if (m @ y)[reply_row] > value + tol and reply_row not in rows:
            rows.add(reply_row)
            grow = True
        if (x @ m)[reply_col] < value - tol and reply_col not in cols:
            cols.add(reply_col)
            grow = True
        if not grow:
            return x, y, n


def _matrix_game(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Optimal mixes of the maximiser (rows) and minimiser (columns), by one HiGHS LP."""
    na, nb = m.shape
    # Payoff differences at mixed states can be ~1e-7, HiGHS's default feasibility tolerance:
    # rescale (the optimal mixes do not change) instead of tightening options (slow to parse).
    scale = float(np.abs(m).max())
    if scale > 0:
        m = m / scale
    obj = np.zeros(na + 1)
    obj[-1] = -1.0
    a_ub = np.hstack([-m.T, np.ones((nb, 1))])
    a_eq = np.ones((1, na + 1))
    a_eq[0, -1] = 0.0
    from scipy.optimize import linprog  # late: scipy.optimize costs ~0.6 s to import

    res = linprog(
        obj,
        A_ub=a_ub,
        b_ub=np.zeros(nb),
        A_eq=a_eq,
        b_eq=[1.0],
        bounds=[(0, None)] * na + [(None, None)],
        method="highs",
    )
    if res.status != 0:
        raise RuntimeError(f"equilibrium: the stage LP failed ({res.message})")
    x = np.maximum(res.x[:na], 0.0)
    y = np.maximum(-res.ineqlin.marginals, 0.0)
    return x / x.sum(), y / y.sum()


def _polish(c: np.ndarray, d: np.ndarray, x: np.ndarray, y: np.ndarray, v: float):
    """Equalise on the LP's supports and solve the 1-D fixed point by Newton's method."""
    sa = np.flatnonzero(x > _SUPPORT_TOL)
    sb = np.flatnonzero(y > _SUPPORT_TOL)
    if sa.size != sb.size:
        return x, y, v
    cs, ds = c[np.ix_(sa, sb)], d[np.ix_(sa, sb)]
    n = sa.size
    kkt = np.zeros((n + 1, n + 1))
    kkt[n, :n] = 1.0
    kkt[:n, n] = -1.0
    rhs = np.zeros(n + 1)
    rhs[n] = 1.0
    try:
        for _ in range(30):
            m = cs + v * ds
            kkt[:n, :n] = m.T
            xs = np.linalg.solve(kkt, rhs)
            kkt[:n, :n] = m
            ys = np.linalg.solve(kkt, rhs)
            step = (xs[n] - v) / (xs[:n] @ ds @ ys[:n] - 1.0)
            v -= step
            if abs(step) <= 1e-17:
                break
    except np.linalg.LinAlgError:
        return x, y, v
    if xs[:n].min() < 0 or ys[:n].min() < 0:
        return x, y, v
    xf, yf = np.zeros_like(x), np.zeros_like(y)
    xf[sa], yf[sb] = xs[:n], ys[:n]
    return xf / xf.sum(), yf / yf.sum(), float(v)
