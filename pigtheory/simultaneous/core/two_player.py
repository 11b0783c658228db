"""The two-player engines of the core: the best response by batches of anti-diagonals.

:func:`best_response_two` runs the numpy engine below or the compiled kernels of
:mod:`.kernels` (:mod:`pigtheory.engine` chooses); both solve the Bellman equation of
:mod:`.actions` exactly, the numpy one batched over states, the compiled one state by state.

Batches
-------
A batch holds the levels ``d0 .. d0 + m0 - 1`` of ``i + j``, with ``m0`` the smallest positive
roll (2 for a six-sided die). Each of the two turns adds 0, at least ``m0`` points, or reaches
the goal (a terminal state, known from the start), so every unknown successor of a state at
level d lies at a level ``>= d + m0``: the states of one batch depend only on earlier batches and
are solved together. Batch arrays have shape ``(m0, n, ...)``; entry ``(t, q)`` is the state
``i = ihi - q``, ``j = d0 + t - i``. Entries off the board (``j < 0`` or ``j >= goal``) carry zero
probabilities, so they compute exactly 0 and write it either into padding rows or into
``V(i, goal)``, whose terminal value is 0 anyway (``test_terminal_values`` guards this).

The band
--------
The action values of all thresholds read only the band of X_k, its ``w + 1`` non-zeros
``P(X_k = 0)`` and ``P(X_k = k + r)``, ``r < w`` (the dense matrix ``M[x, k - 1] = P(X_k = x)``
is about ``goal / (w + 1)`` times larger). The products are added one after the other, the
bust first, in the order of the compiled :func:`~.step.threshold_values`, and divided or
multiplied by the same self-loop factors; with the thresholds above a state's room masked,
the numpy engine gives the compiled engine's bits, which lets ``engine="auto"`` use either
(:func:`~pigtheory.engine.choose_engine`, ``same_bits``). The greedy choice is the first
maximum (``argmax``), and where a second threshold is within ``tie_tol`` of it (rare, and
checked by a second ``argmax``) the first one within, as :func:`~.actions.greedy`.

Flat rows
---------
Every entry of a level gets a row of ``L = goal + w`` thresholds (those above its room masked
with ``-inf``), and the rows of a level are one contiguous block, so that each operation of
the step (the band's products, the sum in the compiled order, the self-loop factors, the
mask, the choice) is one long numpy loop rather than one short loop per entry; the products
read the continuation ``u[k + r]`` of every entry as one run shifted by ``r`` (the thresholds
above the room read past their row, and are masked). The band is tiled once per ``rules``
(at most a few thousand rows: long levels are cut into pieces).

When B's turn does not depend on A's score (``hold_at``, a table by B's score only), the
continuation ``U[a, j] = E_Y[V(a, min(j + Y, g))]`` is itself a stored table: each new value
``V(i, j)`` enters ``U(i, j)`` as ``P(Y = 0 | j) V(i, j)`` on top of ``Z(i, j)``, the part with
``Y > 0``, which is known before the batch (for several batches at once: a batch reads ``V``
only from levels at least B's smallest gain higher). Its rows have ``R = L + 1`` numbers: the
entries of a level, ``i`` falling by 1 as ``j`` rises by 1, then start exactly ``L`` numbers
apart, and the level's continuations are read in place. Otherwise (B's turn depends on A's
score) each entry's continuation is gathered from the value table into its row, B's outcomes
added in the compiled kernel's order.
"""

from __future__ import annotations

import threading

import numpy as np

from ...engine import choose_engine, numpy_clock
from ...rules import Rules
from ...stopping import TurnPolicy
from . import kernels
from .actions import TIE_TOL
from .step import Roll, band_of
from .two_player_numpy import batch_geometry
from .two_player_numpy import solve as _solve


def best_response_two(
    opp: TurnPolicy, rules: Rules, tie_tol: float = TIE_TOL, engine: str = "auto"
) -> tuple[np.ndarray, np.ndarray]:
    """Exact best response of A to B's policy ``opp``: ``(value (g+1, g+1), policy (g, g))``.

    Zhu, Ma, Chen & Liu (2023) eqs. (6)-(10) and (12) solved by backward induction (the
    engines of :func:`pigtheory.simultaneous.best_response` for two players).

    Parameters
    ----------
    opp : Mixture or RuleMixture
        B's policy as the solvers read it (:func:`read_opponents`).
    rules : Rules
        One die, two players.
    tie_tol : float
        The tie rule of :func:`~.actions.greedy`.
    engine : {"auto", "numba", "numpy"}
        ``"numpy"`` (batched, this module), ``"numba"`` (compiled loops) or ``"auto"``
        (:func:`~pigtheory.engine.choose_engine`, by the work ``goal**3 / 2``, or numba in a
        warm process: the two engines give the same bits).

    Returns
    -------
    value : numpy.ndarray, shape ``(goal + 1, goal + 1)``
        ``value[i, j]``, A's score first.
    policy : numpy.ndarray of int, shape ``(goal, goal)``
        A's best threshold.
    """
    g = rules.goal
    load = _LOADERS[bool(opp.reads_own_score_only())]
    if choose_engine(engine, g * g * g / 2, same_bits=True, load=load) == "numba":
        return _solve_jit(opp, rules, tie_tol)  # type: ignore[return-value]
    if engine == "numpy":
        return _solve(opp, rules, tie_tol)
    with numpy_clock():
        return _solve(opp, rules, tie_tol)


def _load_independent() -> None:
    """Load (or compile) the kernel of an opponent reading its own score only: a goal-4 solve
    (the background load of :func:`~pigtheory.engine.choose_engine`'s tiered ``auto``)."""
    from ...policies import as_mixture, hold_at

    rules = Rules(goal=4)
    _solve_jit(as_mixture(hold_at(2), rules), rules, TIE_TOL)


def _load_general() -> None:
    """Load (or compile) the kernel of an opponent reading both scores (goal 4)."""
    from ...policies import as_mixture

    rules = Rules(goal=4)
    table = np.minimum(np.add.outer(np.zeros(4, dtype=np.int64), np.arange(1, 5)), 4 - np.arange(4)[:, None])
    _solve_jit(as_mixture(table, rules), rules, TIE_TOL)


_LOADERS = {True: _load_independent, False: _load_general}


def _solve_jit(
    opp: TurnPolicy, rules: Rules, tie_tol: float, stopping: bool = False
) -> tuple[np.ndarray, ...]:
    """The compiled engine: ``(value, policy)``, or with ``stopping`` ``(value, roll,
    threshold_value, threshold_k, passes)`` from the stopping kernels (the same setup)."""
    geo = batch_geometry(rules)
    g, w = geo.goal, geo.width
    V = np.zeros((g + 1, g + 1))
    V[g, :g], V[g, g] = 1.0, 0.5
    policy = np.zeros((g, g), dtype=np.int64)
    band = band_of(rules)
    if stopping:
        roll = Roll(*rules.roll_arrays())
        rule = np.zeros((g, g, g), dtype=bool)
        tval = np.zeros((g, g))
        passes = np.zeros((g, g), dtype=np.int64)
    if opp.reads_own_score_only():
        indep, ut0 = _independent_setup(opp, rules, w)
        ut = ut0.copy()
        if stopping:
            kernels.stopping_kernel("independent")(
                band, indep, roll, tie_tol, 100, V, ut, rule, tval, policy, passes
            )
            return V, rule, tval, policy, passes
        kernels.two_player_kernel(True, band.band_t.shape[0] == 6)(band, indep, tie_tol, V, ut, policy)
        return V, policy
    ii, jj = np.indices((g, g))
    gains, probs = opp.outcomes((jj, ii))
    general = kernels.General(
        np.ascontiguousarray(probs), np.ascontiguousarray(np.minimum(jj[..., None] + gains, g))
    )
    vt = np.zeros((g + 1, 2 * g + w + 1))
    vt[:, g:] = V[g][:, None]
    if stopping:
        kernels.stopping_kernel("general")(band, general, roll, tie_tol, 100, vt, rule, tval, policy, passes)
        V[:g, :] = vt[:, :g].T
        return V, rule, tval, policy, passes
    kernels.two_player_kernel(False)(band, general, tie_tol, vt, policy)
    V[:g, :] = vt[:, :g].T
    return V, policy


_SETUPS: dict[tuple, tuple[kernels.Independent, np.ndarray]] = {}
""":func:`_independent_setup` by opponent (small policies: "hold at n", tables by own score)."""

_SETUPS_LOCK = threading.Lock()
_SETUP_KEY_ELEMENTS = 4096  # policies with at most this many numbers are remembered by value


def _independent_setup(opp: TurnPolicy, rules: Rules, w: int) -> tuple[kernels.Independent, np.ndarray]:
    """The compiled engine's record of an opponent whose turn reads its own score only, and the
    continuation table's start (terminal values past the goal): built once per small opponent
    policy (by its arrays' values) and rules; the kernel only reads the record."""
    th, wt = getattr(opp, "thresholds", None), getattr(opp, "weights", None)
    key = None
    if isinstance(th, np.ndarray) and isinstance(wt, np.ndarray) and th.size + wt.size <= _SETUP_KEY_ELEMENTS:
        key = (rules, th.shape, th.dtype.str, th.tobytes(), wt.shape, wt.dtype.str, wt.tobytes())
        known = _SETUPS.get(key)
        if known is not None:
            return known
    g = rules.goal
    band = band_of(rules)
    js = np.arange(g)
    gains, probs = opp.outcomes((js, np.zeros_like(js)))
    pb, pz = np.ascontiguousarray(probs[:, 0]), np.ascontiguousarray(probs[:, 1:])
    cz = np.ascontiguousarray(np.minimum(js[:, None] + gains[:, 1:], g))
    at_goal = np.zeros(g + 1)
    at_goal[:g], at_goal[g] = 1.0, 0.5  # V(goal, j)
    ut = np.zeros((g, 2 * g + w + 1))
    ut[:, g:] = (pb + (at_goal[cz] * pz).sum(axis=1))[:, None]
    inv = 1.0 / (1.0 - pb[:, None] * band.bust[None, :])
    setup = (kernels.Independent(inv, cz, pz, pb), ut)
    if key is not None:
        with _SETUPS_LOCK:
            while len(_SETUPS) >= 32:
                _SETUPS.pop(next(iter(_SETUPS)))
            _SETUPS[key] = setup
    return setup


def best_stopping_two(
    opp: TurnPolicy, rules: Rules, tie_tol: float = TIE_TOL
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Best response of A over every stopping rule, compiled (two players):
    ``(value (g+1, g+1), roll (g, g, g), threshold_value (g, g), threshold_k (g, g), passes
    (g, g))``, the threshold columns being the best "hold at k" at each state against the
    same continuation.

    Returns
    -------
    value : numpy.ndarray, shape ``(goal + 1, goal + 1)``
    roll : numpy.ndarray of bool, shape ``(goal, goal, goal)``
        ``roll[i, j, t]``: roll at turn total t.
    threshold_value : numpy.ndarray, shape ``(goal, goal)``
    threshold_k : numpy.ndarray of int, shape ``(goal, goal)``
    passes : numpy.ndarray of int, shape ``(goal, goal)``
        Policy-iteration passes at each state (:func:`~.step.stopping_step`, started from the
        rule of ``threshold_k``): 1 where that rule was already optimal, so ``roll`` there is
        "hold at ``threshold_k``" exactly.
    """
    return _solve_jit(opp, rules, tie_tol, stopping=True)  # type: ignore[return-value]
