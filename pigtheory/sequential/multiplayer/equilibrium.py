"""Stationary equilibria of multiplayer sequential Pig (2 to 10 players, one die, Piglet).

Shapes
------
With ``n`` players and goal ``g``, a state is the score tuple ``t = (t_0, ..., t_{n-1})`` in
turn order from the player to move (``t_0`` the mover's score, ``t_1`` the next player's, ...)
and the mover's turn total ``k``. Offsets count seats after the mover: offset ``o`` is the
player who moves ``o`` turns later.

* ``value[t_0, ..., t_{n-1}, o]``: win probability of the player at offset ``o`` at the start
  of the mover's turn (``k = 0``); shape ``(g,) * n + (n,)``. At the start of the game,
  ``value[(0,) * n]`` lists the seats in playing order.
* values at ``k > 0`` are not stored (``n g`` times the memory): they are one backward pass
  over the turn from the stored start values, :meth:`MultiplayerEquilibrium.turn_values`.
* ``policy``: a :class:`MultiplayerPolicy`, the mover's roll/hold choice at every
  ``(t, k)`` packed 8 turn totals to a byte (``roll_bits``, shape ``(g,) * n + (ceil(g/8),)``),
  and the states where the mover mixes, with its roll probability.
* ``deviation_gain[t_0, ..., t_{n-1}]``: the largest one-shot deviation gain of the mover over
  the turn totals of ``t`` (:mod:`pigtheory.sequential.multiplayer.certificates`).

Notes
-----
Scores never decrease and only a bust (or a pass) keeps the score tuple; then the next player
moves, so the tuple is rotated. The rotations of a tuple form a **rotation group**: holding
leaves the group for one of higher score sum. Groups are solved one at a time from the highest
score sum down, each needing only groups already solved. In a group, mover ``r``'s whole turn
depends on the group only through its own value ``y_r`` after a bust; given the turns (the
values ``H_r`` of their holds, their bust chances ``beta_r``) the group's values follow in
closed form around the cycle of rotations,

.. math::

    W_r[o] = H_r[o] + \\beta_r\\, W_{r+1}[o - 1], \\qquad
    W_r = \\frac{\\sum_{t<n} \\big(\\prod_{l<t} \\beta_{r+l}\\big) S^t H_{r+t}}
               {1 - \\prod_{l<n} \\beta_l},

(``S`` shifts offsets). The solver (:func:`pigtheory.sequential.multiplayer.group_solver.solve_level`)
iterates best responses in every group from three first guesses of the ``y_r`` (extrapolated
from the groups above; 0; 1). Where every start settles on the same pure profile, that is the
group's equilibrium, unique among those found. Where they settle on different ones, or some
start cycles, the group goes to :func:`pigtheory.sequential.multiplayer.mixed_groups.solve_group`, which
enumerates pure and mixed candidates (each mover's best responses form a ladder in ``y_r``;
a mixing mover sits at a breakpoint, and the indifference conditions are polynomial
equations, solved in closed form where they are linear or quadratic), checks every candidate
and picks one by a documented rule: pure before mixed; fewest rolling states; then the least
rolling mixture. A group with a symmetric tuple (``(a, a, a)``) has fewer distinct rotations
and its movers share one policy (the equilibrium is stationary and symmetric).

Ties go to holding at ``k >= 1`` and to rolling at ``k = 0``, within ``1e-13`` (the two-player
solver's rule); with two players the result equals :func:`pigtheory.sequential.solve`.

Passing (``allow_pass=True``, the rule of OpenSpiel's ``pig``): the mover may hold at turn
total 0, which keeps the scores and hands on the dice (like a bust). A game in which every
player passes for sure is won by nobody (never an equilibrium: rolling wins with positive
probability).

References
----------
T. W. Neller and C. G. M. Presser, "Optimal play of the dice game Pig", UMAP Journal 25 (2004)
and the slides "Perspectives on perfect and practical play of Pig" ("Solving Pig": "solve
groups of interdependent probabilities from game end backward"). T. Zhu and M. H. Ma, Stats 5
(2022), last paragraph: multiplayer Pig as the open next step.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from ...guard import check_memory, sequential_equilibrium_estimate
from ...jit import compiled, max_threads
from ...jit import threads as compile_threads
from ...parallel import idle_cores
from ...progress import progress_bar
from ...rules import Rules
from ...validation import check_int, check_progress, check_rules
from ..model import roll_model
from .result import MultiplayerEquilibrium, MultiplayerPolicy

__all__ = ["MultiplayerPolicy", "MultiplayerEquilibrium", "equilibrium", "check_multiplayer_rules"]

_TIE = 1e-13
_MAX_PLAYERS = 10


def check_multiplayer_rules(rules: Any) -> Rules:
    """Rules of multiplayer sequential Pig: one die (any faces and bust face, Piglet), 2..10
    players; ``ValueError`` otherwise."""
    check_rules(rules)
    if rules.dice != 1:
        raise ValueError(f"rules.dice must be 1 for multiplayer sequential Pig, got {rules.dice}")
    if not 2 <= rules.players <= _MAX_PLAYERS:
        raise ValueError(f"rules.players must be in 2..{_MAX_PLAYERS}, got {rules.players}")
    return rules


def equilibrium(
    *,
    rules: Rules = Rules(players=3),
    allow_pass: bool = False,
    starts: int = 3,
    max_passes: int = 60,
    certify: bool = True,
    enclose: bool = True,
    progress: bool | None = None,
    max_memory: Any = None,
    threads: int | str = "auto",
    store: Any = None,
    executor: Any = None,
    chunk: int | None = None,
    spread: int = 1,
) -> Any:
    """A stationary (Markov) equilibrium of sequential Pig with ``rules.players`` players.

    Rotation group by rotation group from the highest score sum down (module Notes): pure best
    responses where they settle, the mixed equilibrium of the indifference conditions where
    they cycle, every candidate checked, one picked by the documented selection rule.

    Parameters
    ----------
    rules : Rules
        One die (any faces and bust face; Piglet), 2..10 players.
    allow_pass : bool
        Whether the mover may hold at turn total 0 (OpenSpiel's ``pig``); default: a turn
        starts with a roll (Neller & Presser).
    starts : int
        First guesses of best-response iteration per group, 1..3 (extrapolated; then 0; then
        1): more find more of the groups with several equilibria, at more cost.
    max_passes : int
        Best-response passes per group and start before the group counts as cycling (2..10000).
    certify : bool
        Compute the certificates (one-shot deviation gains everywhere, NashConv); without,
        ``deviation_gain`` is NaN and ``nash_conv`` NaN.
    enclose : bool
        Verified enclosures of the mixed groups with python-flint
        (:mod:`pigtheory.sequential.multiplayer.enclosure`); without, the enclosure fields are NaN.
    progress : bool, optional
        A progress bar on stderr (default: when stderr is a terminal).
    max_memory : int or str, optional
        Refuse the solve, before it starts, if its estimated memory is above this size
        (bytes, or "512M", "4G"); default half the available memory (:mod:`pigtheory.guard`).
    threads : int or "auto"
        Threads of the compiled level and certificate kernels (the groups of one score-sum
        level are independent), 1 .. numba's ``NUMBA_NUM_THREADS`` (the cores). The result
        does not depend on it. More threads help on an idle machine only (4 players at goal
        50 on 2 idle cores: 33 s with one thread, 20 s with two); on a busy one they wait for
        each other and burn CPU time. ``"auto"`` (the default) takes the cores that are idle
        now (:func:`pigtheory.parallel.idle_cores`).
    store : path-like, optional
        Solve out of core instead (:mod:`pigtheory.sequential.multiplayer.chunked`): chunk tasks of
        rotation groups, highest score sum first, their arrays in a store in this folder
        (created if new; a folder of this same solve resumes it; one of another solve is
        refused). Same numbers as in memory, to the bit.
    executor : None, concurrent.futures.Executor or dask.distributed.Client
        With ``store``: where the chunk tasks run (default: one after another, here).
    chunk : int, optional
        With ``store``: at most this many rotation groups per task (default: about 64 MB of
        rows per task).
    spread : int
        With ``store``: cut each score sum for this many workers (1 .. 10**6): a sum of at least
        16 groups a worker becomes a multiple of ``spread`` chunks of equal size
        (:func:`~pigtheory.sequential.multiplayer.group_store.cut`), so that its tasks keep
        every worker busy. More chunks mean more files for each task to open; ``pigtheory
        sequential --plan --workers N --worker-memory M`` weighs the two
        (:func:`~pigtheory.sequential.plan` with ``worker_memory`` picks ``chunk`` and ``spread``).
        The numbers do not depend on it.

    Returns
    -------
    MultiplayerEquilibrium, or ChunkedEquilibrium with ``store``
        The chunked result reads its arrays from the store;
        :meth:`~pigtheory.sequential.multiplayer.chunked.ChunkedEquilibrium.in_memory` loads a small one.

    Examples
    --------
    >>> from pigtheory.sequential import equilibrium
    >>> eq = equilibrium(rules=Rules.piglet(goal=3, players=3))
    >>> [round(float(v), 6) for v in eq.start_values]
    [0.378698, 0.331361, 0.289941]
    >>> eq.nash_conv < 1e-12
    True
    """
    check_multiplayer_rules(rules)
    if not isinstance(allow_pass, bool):
        raise ValueError(f"allow_pass must be True or False, got {allow_pass!r}")
    starts = check_int("starts", starts, low=1, high=3)
    max_passes = check_int("max_passes", max_passes, low=2, high=10_000)
    if not isinstance(certify, bool):
        raise ValueError(f"certify must be True or False, got {certify!r}")
    if not isinstance(enclose, bool):
        raise ValueError(f"enclose must be True or False, got {enclose!r}")
    check_progress(progress)
    top = max_threads()
    if isinstance(threads, str):
        if threads != "auto":
            raise ValueError(f"threads must be 'auto' or an integer in 1..{top}, got {threads!r}")
        threads = idle_cores(top)
    threads = check_int("threads", threads, low=1, high=top)
    spread = check_int("spread", spread, low=1, high=10**6)
    if store is None:
        if executor is not None or chunk is not None or spread != 1:
            raise ValueError("executor, chunk and spread are for the chunked solve: pass store= too")
    else:
        from ...validation import check_path
        from .chunked import chunked_equilibrium

        check_path("store", store)
        if chunk is not None:
            chunk = check_int("chunk", chunk, low=1)
        options = dict(
            allow_pass=allow_pass, starts=starts, max_passes=max_passes, certify=certify, enclose=enclose
        )
        with compile_threads(1):
            return chunked_equilibrium(
                rules,
                options,
                store=store,
                executor=executor,
                chunk=chunk,
                spread=spread,
                progress=progress,
                max_memory=max_memory,
            )
    check_memory(sequential_equilibrium_estimate(rules, certify=certify), max_memory)

    with compile_threads(threads):
        return _solve(rules, allow_pass, starts, max_passes, certify, enclose, progress)


def _solve(rules, allow_pass, starts, max_passes, certify, enclose, progress):
    """The body of :func:`equilibrium` (arguments checked)."""

    from . import group_kernels as gk
    from .enclosure import enclose_group
    from .group_solver import solve_level
    from .mixed_groups import group_problem, solve_group

    n, g = rules.players, rules.goal
    model = roll_model(rules)
    pvec = np.ascontiguousarray(model.free_vector(), dtype=np.float64)
    p_bust = float(model.p_bust)
    order, level_starts = compiled(gk.level_order)(n, g)
    W = np.zeros((g**n, n))
    nb = (g + 7) // 8
    bits = np.zeros((g**n, nb), dtype=np.uint8)
    status = np.zeros(order.size, dtype=np.int8)
    passes = 0
    turn = gk.Turn(pvec, p_bust, allow_pass, _TIE)
    search = gk.Search(max_passes, starts)
    mixed_states: list[tuple[int, ...]] = []
    mixed_prob: list[float] = []
    mixed_groups, several_groups, several_counts, group_how = [], [], [], []
    mix_bounds: list[tuple[float, float]] = []
    value_bounds: list[np.ndarray] = []
    p_exact = (model.p_bust, [dict(model.free).get(k, Fraction(0)) for k in range(1, pvec.size + 1)])
    n_levels = level_starts.size - 1
    with progress_bar(n_levels, f"sequential equilibrium ({n} players)", progress) as bar:
        for L in range(n_levels):
            lo, hi = int(level_starts[L]), int(level_starts[L + 1])
            if hi > lo:
                passes += solve_level(order[lo:hi], n, g, turn, search, W, bits, status[lo:hi])
                for t in np.flatnonzero(status[lo:hi]) + lo:
                    prob = group_problem(int(order[t]), n, g, pvec, p_bust, allow_pass, W)
                    ge = solve_group(prob)
                    canon = np.unravel_index(int(order[t]), (g,) * n)
                    for r in range(prob.d):
                        ri = int(prob.rid[r])
                        W[ri] = ge.W[r]
                        row = np.zeros(g, dtype=bool)
                        row[: ge.rolls[r].size] = ge.rolls[r]
                        bits[ri] = np.packbits(row, bitorder="little")
                    box = enclose_group(prob, ge.steps, ge.q, p_exact) if (ge.mixes and enclose) else None
                    for i, (r, k, p) in enumerate(ge.mixes):
                        tup = np.unravel_index(int(prob.rid[r]), (g,) * n)
                        mixed_states.append(tuple(int(x) for x in tup) + (int(k),))
                        mixed_prob.append(float(p))
                        if box is None:
                            mix_bounds.append((np.nan, np.nan))
                        elif ge.steps[r][0][k]:  # the lower step rolls there: p = 1 - q
                            mix_bounds.append((1.0 - box[1][i], 1.0 - box[0][i]))
                        else:
                            mix_bounds.append((box[0][i], box[1][i]))
                    if ge.mixes:
                        mixed_groups.append([int(x) for x in canon])
                        group_how.append(ge.how)
                        vb = np.full((n, n, 2), np.nan)
                        if box is not None:
                            vb[: prob.d, :, 0], vb[: prob.d, :, 1] = box[2], box[3]
                        value_bounds.append(vb)
                    if ge.n_equilibria > 1:
                        several_groups.append([int(x) for x in canon])
                        several_counts.append(ge.n_equilibria)
            bar.update()
    ms = np.array(mixed_states, dtype=np.int64).reshape(-1, n + 1)
    mp = np.array(mixed_prob, dtype=float)
    if certify:
        from .certificates import certify as certify_profile

        kw = dict(
            W=W,
            bits=bits,
            mix_states=ms,
            mix_prob=mp,
            n=n,
            g=g,
            pvec=pvec,
            p_bust=p_bust,
            allow_pass=allow_pass,
        )
        gains, residual, U = certify_profile(order=order, starts=level_starts, **kw)
        seat_gain = U[0] - W[0]
        del U
    else:
        gains = np.full(g**n, np.nan)
        residual = float("nan")
        seat_gain = np.full(n, np.nan)
    policy = MultiplayerPolicy(
        roll_bits=bits.reshape((g,) * n + (nb,)),
        mixed_states=ms,
        mixed_prob=mp,
        rules=rules,
        allow_pass=allow_pass,
    )
    return MultiplayerEquilibrium(
        value=W.reshape((g,) * n + (n,)),
        policy=policy,
        mixed_groups=np.array(mixed_groups, dtype=np.int64).reshape(-1, n),
        several_groups=np.array(several_groups, dtype=np.int64).reshape(-1, n),
        several_counts=np.array(several_counts, dtype=np.int64),
        group_how=tuple(group_how),
        mixed_enclosure=np.array(mix_bounds, dtype=float).reshape(-1, 2),
        value_enclosure=np.array(value_bounds, dtype=float).reshape(-1, n, n, 2),
        deviation_gain=gains.reshape((g,) * n),
        seat_gain=seat_gain,
        nash_conv=float(np.sum(seat_gain)),
        iterations=passes,
        residual=residual,
        method="rotation groups: best responses, mixed where they cycle",
        rules=rules,
        allow_pass=allow_pass,
    )
