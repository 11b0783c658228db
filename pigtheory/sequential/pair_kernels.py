"""Compiled loops (numba) of two-player sequential Pig with one die and stochastic policies:
evaluation and best response, without and with OpenSpiel's move horizon. The one engine of
:func:`pigtheory.sequential.best_response` (``method="exact"``) and of the referee
(:mod:`pigtheory.referee`), which reads any policy into the tables below.

Shapes
------
``roll0[i, j, k]`` and ``roll1[j, i, k]``: the probability that seat 0 (seat 1) rolls when it is
to move with own score first, turn total k (float, shape ``(goal, goal, goal)``; entries with
``own + k >= goal`` are not read). ``pvec[r]``: the probability that a roll adds ``r + 1``
points, ``p_bust`` that it busts.

Notes
-----
Without a horizon, ``x0[i, j, k]`` is a quantity (a win probability) at states where seat 0 is
to move and ``x1[j, i, k]`` the same quantity where seat 1 is to move. Holding at k >= 1 and
every roll that scores lead to a larger score sum or to a larger turn total of the same turn;
only the bust and the pass at k = 0 stay on the level ``i + j``, and they lead to the partner
state's start value. On one level each pair (seat 0 at (i, j), seat 1 at (j, i)) is therefore
a 2 x 2 linear system in the two start values ``x = x0[i, j, 0]``, ``y = x1[j, i, 0]`` once
each column over k is written as an affine function of the partner's start value: the exact
solution by backward induction over score sums, as in :mod:`pigtheory.sequential.one_die`.

A best response makes one column a maximum of affine functions of the partner's start value
(convex, slope in [0, 1]); policy iteration on the pair (solve the 2 x 2 system for the current
choices, make the choices greedy at the new values, repeat) ends at the exact fixed point.

With a horizon H (OpenSpiel's ``horizon``: every roll and every stop is a move; a game whose
H-th move is not a win is a draw), the state also carries the moves left t, and every decision
moves to t - 1: no equation couples states of the same t, and the layers t = 1..H are computed in
order (work ``O(H goal^3 w)``, w the largest roll). With n players the same layers run over
the states (mover, score tuple in turn order from the mover, turn total), one target seat at a
time (:func:`horizon_n`, work ``O(H n goal^(n+1) w)`` per target).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..jit import compiled, kernel

__all__ = [
    "Die",
    "die",
    "pair",
    "horizon_layers",
    "run_horizon_layers",
    "horizon_n",
    "occupancy_pair",
    "warm_up",
]

_TIE = 1e-13


class Die(NamedTuple):
    """One roll, as every kernel here reads it: ``pvec[r]`` the chance that it adds ``r + 1``
    points, ``p_bust`` that it busts (module Shapes)."""

    pvec: np.ndarray
    p_bust: float


def die(rules: Any) -> Die:
    """The :class:`Die` of one-die ``rules``: the chance of each gain and of a bust, from the
    rules' roll model (every caller of the kernels builds it here)."""
    from ..validation import check_rules
    from .model import roll_model

    model = roll_model(check_rules(rules))
    if not model.simple:
        raise ValueError(f"rules: the two-player engine is for one die (scores never fall), got {rules}")
    return Die(np.ascontiguousarray(model.free_vector(), dtype=np.float64), float(model.p_bust))


@kernel
def _first_face(pvec):  # pragma: no cover - compiled
    """The first gain with a positive probability (``pvec[:lo]`` is 0: one die of d faces has no
    gain 1; the faces skipped add exact zeros, so the sums are the same to the bit)."""
    lo = 0
    while lo < pvec.size - 1 and pvec[lo] == 0.0:
        lo += 1
    return lo


@kernel
def _policy_column(live, roll, hold, win, die, a, b):  # pragma: no cover - compiled
    """One turn of a player who rolls with probability ``roll[k]`` at turn total k: its value is
    ``a[k] + b[k] * z`` with ``z`` the partner state's start value (what a bust or a pass at
    k = 0 leads to); ``hold[k]`` (k >= 1) is the solved start value after banking k, ``win`` the
    value of reaching the goal (turn totals ``k >= live``); ``die``: the :class:`Die`."""
    pvec, p_bust = die
    m = pvec.size
    lo = _first_face(pvec)
    for k in range(live, a.size):
        a[k] = win
        b[k] = 0.0
    for k in range(live - 1, -1, -1):
        ra = 0.0
        rb = p_bust
        for r in range(lo, m):
            ra += pvec[r] * a[k + r + 1]
            rb += pvec[r] * b[k + r + 1]
        p = roll[k]
        if k == 0:
            a[k] = p * ra
            b[k] = p * rb + (1.0 - p)
        else:
            a[k] = p * ra + (1.0 - p) * hold[k]
            b[k] = p * rb


@kernel
def _pair(g, die, roll0, roll1, win0, win1, respond, max_passes, x0, x1, choice, out):  # pragma: no cover
    """Both seats' values, level by level of equal score sum (module Notes), for the roll
    :class:`Die` ``die``.

    ``respond`` False (evaluation): ``x0[i, j, k]`` (seat 0 to move) and ``x1[j, i, k]`` (seat 1
    to move) get the probability of the outcome worth ``win0`` if seat 0 wins and ``win1`` if
    seat 1 wins, both seats following ``roll0`` / ``roll1``; ``out[0]`` counts the pairs of
    states the play never leaves (both seats pass or bust for ever): only there can the game
    fail to end.

    ``respond`` True (best response): seat 0 is the responder (``roll0`` is not read; pass
    ``win0 = 1``, ``win1 = 0``), its win probability in ``x0`` and ``x1`` and its choices in
    ``choice[i, j, k]`` (True: roll), by policy iteration on each pair; ``out`` accumulates
    [passes, pairs stopped at ``max_passes``]. A pass after the first starts at the highest
    turn total whose choice is not greedy at the new start value: the turn totals above it
    keep their choices and their affine values.

    Entries with ``own + k >= goal`` are left as they are."""
    pvec, p_bust = die
    m = pvec.size
    lo = _first_face(pvec)
    w = g + m + 1
    a0 = np.empty(w)
    b0 = np.empty(w)
    ga = np.empty(w)  # roll minus hold, affine in y, with the choices above k fixed
    gb = np.empty(w)
    ch = np.zeros(w, dtype=np.bool_)
    a1 = np.empty(w)
    b1 = np.empty(w)
    start0 = np.zeros((g, g))  # x0[i, j, 0], contiguous in j
    start1 = np.zeros((g, g))  # x1[j, i, 0], contiguous in i
    for s in range(2 * g - 2, -1, -1):
        for i in range(max(0, s - g + 1), min(s, g - 1) + 1):
            j = s - i
            # seat 1 at (j, i): affine in x = x0[i, j, 0]
            _policy_column(g - j, roll1[j, i], start0[i, j:], win1, die, a1, b1)
            if not respond:
                # seat 0 at (i, j): affine in y = x1[j, i, 0]; a 2 x 2 system for (x, y)
                _policy_column(g - i, roll0[i, j], start1[j, i:], win0, die, a0, b0)
                den = 1.0 - b0[0] * b1[0]
                if den <= 1e-300:  # both pass or bust from here for ever: the game never ends
                    out[0] += 1
                    x, y = 0.0, 0.0
                else:
                    x = (a0[0] + b0[0] * a1[0]) / den
                    y = a1[0] + b1[0] * x
            else:
                # the responder at (i, j): a maximum of affine functions of y = x1[j, i, 0]
                c, d = a1[0], b1[0]
                y = start1[j, i + 1] if i + 1 < g else 0.5  # a guess from the level above
                for k in range(g - i, w):
                    a0[k] = win0
                    b0[k] = 0.0
                top = g - i - 1
                passes = 0
                while True:
                    passes += 1
                    for k in range(top, -1, -1):
                        ra = 0.0
                        rb = p_bust
                        for r in range(lo, m):
                            ra += pvec[r] * a0[k + r + 1]
                            rb += pvec[r] * b0[k + r + 1]
                        if k == 0:
                            ha, hb = 0.0, 1.0
                        else:
                            ha, hb = start1[j, i + k], 0.0
                        ga[k] = ra - ha
                        gb[k] = rb - hb
                        gap = ga[k] + gb[k] * y
                        # ties: hold for k >= 1, roll at k = 0 (as pigtheory.sequential.solve)
                        roll = gap > _TIE if k > 0 else gap >= -_TIE
                        ch[k] = roll
                        if roll:
                            a0[k], b0[k] = ra, rb
                        else:
                            a0[k], b0[k] = ha, hb
                    den = 1.0 - d * b0[0]
                    y = c if den <= 1e-300 else (c + d * a0[0]) / den
                    # policy iteration: stop once every choice is greedy at its own fixed point
                    # (the roll - hold gaps are affine in y while the choices above stay put)
                    top = -1
                    for k in range(g - i - 1, -1, -1):
                        gap = ga[k] + gb[k] * y
                        if abs(gap) > _TIE and (gap > 0) != ch[k]:
                            top = k
                            break
                    if top < 0:
                        break
                    if passes >= max_passes:
                        out[1] += 1
                        break
                out[0] += passes
                x = a0[0] + b0[0] * y
                for k in range(g - i):
                    # a tie at the solved y takes the tie rule (the values agree within _TIE)
                    gap = ga[k] + gb[k] * y
                    choice[i, j, k] = ch[k] if abs(gap) > _TIE else k == 0
            start0[i, j] = x
            start1[j, i] = y
            for k in range(g - i):
                x0[i, j, k] = a0[k] + b0[k] * y
            for k in range(g - j):
                x1[j, i, k] = a1[k] + b1[k] * x


@kernel
def _horizon_move(last, draw, die, room, k, col, pay, bust, hold, sign, p):  # pragma: no cover - compiled
    """One decision of the horizon layers (the :class:`Die` ``die``; ``room`` the mover's
    points to the goal): the payoff of rolling (``col[k']``: the mover's state at turn total k'
    one layer later; ``pay`` at the goal; ``bust`` after a bust) against that of holding
    (``hold``); a draw when the move made now is the last one. The mover maximises the payoff
    (``sign`` 1) or minimises it (``sign`` -1), ties as in the best response; with ``sign`` 0
    it rolls with probability ``p``."""
    pvec, p_bust = die
    if last:
        roll = draw
        hold = draw
    else:
        roll = p_bust * bust
        for r in range(pvec.size):
            kk = k + r + 1
            roll += pvec[r] * (pay if kk >= room else col[kk])
    if sign == 0.0:
        return p * roll + (1.0 - p) * hold
    gap = sign * (roll - hold)
    if k == 0:
        return roll if gap >= -_TIE else hold
    return roll if gap > _TIE else hold


@kernel
def _horizon_layers(
    g, t_from, t_to, die, roll0, roll1, pay0, pay1, draw, mode, v0, v1, n0, n1
):  # pragma: no cover
    """Layers t = t_from..t_to of the game with t moves left (the roll :class:`Die` ``die``):
    ``v0[i, j, k]`` (seat 0 to move)
    and ``v1[j, i, k]`` (seat 1 to move) of the payoff worth ``pay0`` / ``pay1`` when seat 0 / 1
    wins and ``draw`` when the horizon is reached. ``mode`` 0: both policies fixed; 1: seat 0
    maximises the payoff; 2: seat 1 minimises it. ``v0``, ``v1`` hold layer ``t_from - 1`` on
    entry (``t_from = 1``: they are set to layer 0, the draw everywhere, as are the scratch
    ``n0``, ``n1``) and layer ``t_to`` on return, so that a caller can run the layers in chunks
    (a progress bar) with the same arithmetic as in one call."""
    sign0 = 1.0 if mode == 1 else 0.0  # who optimises: seat 0 maximises, seat 1 minimises
    sign1 = -1.0 if mode == 2 else 0.0
    if t_from == 1:
        for i in range(g):
            for j in range(g):
                for k in range(g):
                    v0[i, j, k] = draw
                    v1[j, i, k] = draw
                    n0[i, j, k] = draw
                    n1[i, j, k] = draw
    for t in range(t_from, t_to + 1):
        last = t == 1  # the move made now is the last one: anything but a win is a draw
        for i in range(g):
            for j in range(g):
                for k in range(g - i):  # seat 0 to move at (i, j, k)
                    hold = v1[j, i + k, 0]  # k = 0: a pass, to the same state as a bust
                    n0[i, j, k] = _horizon_move(
                        last, draw, die, g - i, k, v0[i, j], pay0, v1[j, i, 0], hold, sign0, roll0[i, j, k]
                    )
                for k in range(g - j):  # seat 1 to move at (j, i, k): own score j
                    hold = v0[i, j + k, 0]
                    n1[j, i, k] = _horizon_move(
                        last, draw, die, g - j, k, v1[j, i], pay1, v0[i, j, 0], hold, sign1, roll1[j, i, k]
                    )
        for i in range(g):
            for j in range(g):
                for k in range(g):
                    v0[i, j, k] = n0[i, j, k]
                    v1[i, j, k] = n1[i, j, k]


@kernel
def _horizon_n(n, g, horizon, die, probs, target, respond, draw, cur, prev):  # pragma: no cover
    """Layers t = 1..horizon of the n-player game with t moves left, for one target seat (the
    roll :class:`Die` ``die``).

    ``cur[m, idx, k]``: the target's payoff (1 if it wins, 0 if another seat wins, ``draw`` at
    the horizon) when seat m moves at the score tuple ``idx`` (C order, base ``goal``, scores in
    turn order from the mover) and turn total k. Seat m rolls with probability
    ``probs[m, idx, k]`` (``probs[0]`` for every seat if ``probs.shape[0] == 1``); with
    ``respond`` the target maximises instead. ``prev`` is scratch of the same shape. On return
    ``cur`` holds layer ``horizon``; entries with ``own + k >= goal`` hold no value."""
    pvec, p_bust = die
    size = g**n
    top = g ** (n - 1)
    m_ = pvec.size
    shared = probs.shape[0] == 1
    cur[:] = draw  # layer 0: the horizon is reached
    for t in range(1, horizon + 1):
        if t == 1:  # the move made now is the last one: anything but a win is a draw
            cur[:] = draw
            continue
        prev[:] = cur
        for mv in range(n):
            nx = (mv + 1) % n
            win = 1.0 if mv == target else 0.0
            tab = 0 if shared else mv
            best = respond and mv == target
            for idx in range(size):
                t0 = idx // top
                base = (idx % top) * g + t0  # the next mover's view: (t_1, ..., t_{n-1}, t_0)
                bust = prev[nx, base, 0]
                for k in range(g - t0):
                    roll = p_bust * bust
                    for r in range(m_):
                        kk = k + r + 1
                        roll += pvec[r] * (win if t0 + kk >= g else prev[mv, idx, kk])
                    hold = prev[nx, base + k, 0]  # k = 0: a pass, to the same state as a bust
                    if best:
                        cur[mv, idx, k] = roll if roll > hold else hold
                    else:
                        p = probs[tab, idx, k]
                        cur[mv, idx, k] = p * roll + (1.0 - p) * hold


@kernel
def _occupancy_pair(g, die, roll0, roll1, first, d0, d1):  # pragma: no cover - compiled
    """Expected visits ``d0[i, j, k]`` of seat 0's decision states (own score i) and ``d1[j, i, k]``
    of seat 1's, in a game that starts with seat ``first`` to move at (0, 0, 0); ``inf`` where the
    play never leaves a pair of states (the roll :class:`Die` ``die``)."""
    pvec, p_bust = die
    m = pvec.size
    w = g + m + 1
    f0 = np.zeros((g, g))  # visits of seat 0's start of turn (i, j) from lower levels
    f1 = np.zeros((g, g))
    if first == 0:
        f0[0, 0] = 1.0
    else:
        f1[0, 0] = 1.0
    r0 = np.zeros(w)
    r1 = np.zeros(w)
    for s in range(0, 2 * g - 1):
        for i in range(max(0, s - g + 1), min(s, g - 1) + 1):
            j = s - i
            # reach of each turn total per visit of the start of the turn; back: bust or pass
            for k in range(w):
                r0[k] = 0.0
                r1[k] = 0.0
            r0[0] = 1.0
            r1[0] = 1.0
            back0 = 0.0
            for k in range(g - i):
                p = roll0[i, j, k]
                back0 += r0[k] * p * p_bust
                for r in range(m):
                    r0[k + r + 1] += r0[k] * p * pvec[r]
            back0 += 1.0 - roll0[i, j, 0]
            back1 = 0.0
            for k in range(g - j):
                p = roll1[j, i, k]
                back1 += r1[k] * p * p_bust
                for r in range(m):
                    r1[k + r + 1] += r1[k] * p * pvec[r]
            back1 += 1.0 - roll1[j, i, 0]
            den = 1.0 - back0 * back1
            if den <= 1e-300:
                n0 = np.inf if f0[i, j] + f1[j, i] > 0 else 0.0
                n1 = n0
            else:
                n0 = (f0[i, j] + back1 * f1[j, i]) / den
                n1 = f1[j, i] + back0 * n0
            for k in range(g - i):
                d0[i, j, k] = n0 * r0[k]
                if k > 0 and n0 > 0:
                    f1[j, i + k] += n0 * r0[k] * (1.0 - roll0[i, j, k])
            for k in range(g - j):
                d1[j, i, k] = n1 * r1[k]
                if k > 0 and n1 > 0:
                    f0[i, j + k] += n1 * r1[k] * (1.0 - roll1[j, i, k])


def pair() -> Any:
    """The compiled kernel of evaluation and best response (numba imported and the kernel
    compiled or loaded from numba's disk cache on the first call in a process)."""
    return compiled(_pair)


def horizon_layers() -> Any:
    """The compiled kernel of the layers over the moves left (:func:`run_horizon_layers` runs it
    in chunks under a progress bar)."""
    return compiled(_horizon_layers)


def run_horizon_layers(
    g: int,
    horizon: int,
    die: Die,
    roll0: np.ndarray,
    roll1: np.ndarray,
    pay0: float,
    pay1: float,
    draw: float,
    mode: int,
    v0: np.ndarray,
    v1: np.ndarray,
    progress: bool | None = None,
) -> None:
    """Layers 1..``horizon`` of the two-player game over the moves left into ``v0``, ``v1``
    (the arguments of the kernel of :func:`horizon_layers`), in chunks of layers under a progress bar
    ("moves left"): the same operations in the same order as one call, so the same bits. The
    work is ``horizon x goal^3 / 2 x faces`` decisions of each seat (about 25 s at goal 100 with
    the 1000 moves of OpenSpiel's ``pig``)."""
    from ..progress import progress_bar

    kernel = horizon_layers()
    n0 = np.empty((g, g, g))
    n1 = np.empty((g, g, g))
    chunks = 1 if horizon * g**3 < 10**8 else 50  # a bar only where it can move
    edges = np.linspace(0, horizon, chunks + 1).round().astype(int)
    with progress_bar(horizon, f"moves left (horizon {horizon})", progress) as bar:
        for lo, hi in zip(edges[:-1], edges[1:], strict=True):
            if hi > lo:
                kernel(g, int(lo) + 1, int(hi), die, roll0, roll1, pay0, pay1, draw, mode, v0, v1, n0, n1)
                bar.update(int(hi - lo))


def horizon_n() -> Any:
    """The compiled kernel of the n-player layers over the moves left."""
    return compiled(_horizon_n)


def occupancy_pair() -> Any:
    """The compiled kernel of the expected visits."""
    return compiled(_occupancy_pair)


def warm_up() -> None:
    """Compile (or load) every kernel on a goal-2 game: for benchmarks that time the work only."""
    g = 2
    pvec = np.array([0.5])
    r = np.full((g, g, g), 0.5)
    x0 = np.zeros((g, g, g))
    x1 = np.zeros((g, g, g))
    choice = np.zeros((g, g, g), dtype=np.bool_)
    die = Die(pvec, 0.5)
    pair()(g, die, r, r, 1.0, 0.0, False, 1, x0, x1, choice, np.zeros(2))
    pair()(g, die, r, r, 1.0, 0.0, True, 50, x0, x1, choice, np.zeros(2))
    occupancy_pair()(g, die, r, r, 0, x0, x1)
    v0 = np.zeros((g, g, g))
    v1 = np.zeros((g, g, g))
    horizon_layers()(g, 1, 3, die, r, r, 1.0, 0.0, 0.5, 0, v0, v1, np.empty((g, g, g)), np.empty((g, g, g)))
