"""The numpy engine of :func:`~.reduced.reduced_best_response` (``engine="numpy"``): the
same Bellman step as the compiled column solver (:mod:`.kernels`), on blocks of score levels
at once. Shapes and Notes are :mod:`.reduced`'s.
"""

from __future__ import annotations

import numpy as np

from ...progress import progress_bar
from ...rules import Rules
from ...turn_totals import turn_total_table
from ..core import (
    greedy,
    one_blas_thread,
    threshold_matrix,
)
from .score_sets import score_keys, stages, successors

_BLOCK_BYTES = 120 * 2**20
"""Budget for one block's intermediate arrays A_1 .. A_{m-1}."""


def solve_numpy(
    moves: list[tuple[np.ndarray, np.ndarray]],
    symmetric: bool,
    block: int | None,
    rules: Rules,
    progress: bool | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The numpy engine: ``(states, value, policy)``, by blocks of own scores (see Notes)."""
    g, m = rules.goal, len(moves)
    stage_list = stages(g, m, symmetric)
    base = stage_list[0]
    # succ[t], t = 1..m: A_t's states -> A_{t-1} columns and probabilities (succ[0] unused).
    succ = [(np.zeros((0, 0), np.int64), np.zeros((0, 0)))]
    succ += [successors(stage_list[t], stage_list[t - 1], t, moves[t - 1], g, symmetric) for t in range(1, m)]
    succ.append(successors(base, stage_list[m - 1], m, moves[m - 1], g, symmetric))
    bust_all = np.prod([moves[p][1][base.states[:, p], 0] for p in range(m)], axis=0)
    # A_t(i, j) = (its value with V(i, j) = 0) + coef_t(j) V(i, j): the chain of y = 0 moves.
    to_base = [
        np.searchsorted(base.keys, score_keys(np.sort(st.states, axis=1) if symmetric else st.states, g))
        for st in stage_list
    ]
    coef = [
        np.prod([moves[p][1][st.states[:, p], 0] for p in range(t)] + [np.ones(len(st.states))], axis=0)
        for t, st in enumerate(stage_list)
    ]
    table = turn_total_table(rules.replace(players=2))
    size = base.states.shape[0]

    inner = sum(stage_list[t].states.shape[0] for t in range(1, m))
    if block is None:
        block = int(max(1, min(g, _BLOCK_BYTES // max(8 * inner, 1), 25 if m <= 2 else g)))
    value = np.zeros((g + 1, size))
    value[g] = 1.0 / (1 + (base.states == g).sum(axis=1))
    # W by own score, padded past the goal with W(g, .) so that a row slice needs no clipping.
    pad = g + block + table.width
    w_t = np.zeros((size, pad))
    a_prev = value[g]
    for t in range(1, m + 1):
        s_idx, p = succ[t]
        a_prev = (a_prev[s_idx] * p).sum(axis=1)
    w_t[:, g:] = a_prev[:, None]
    policy = np.zeros((g, size), dtype=np.min_scalar_type(g))
    blocks = list(range(g, 0, -block))
    with one_blas_thread(), progress_bar(len(blocks), "best response", progress) as bar:
        _sweep(
            blocks,
            block,
            g,
            m,
            stage_list,
            succ,
            coef,
            to_base,
            bust_all,
            table,
            value,
            w_t,
            pad,
            policy,
            bar,
        )
    return base.states, value, policy


def _sweep(
    blocks, block, g, m, stages, succ, coef, to_base, bust_all, table, value, w_t, pad, policy, bar
) -> None:
    """Backward induction, block by block of own scores.

    In a stage's by-sum order, the states of level d (own score i = d - sum) in a block are
    one contiguous range, own scores descending, so a level reads slices only.
    """
    windows_of = np.lib.stride_tricks.sliding_window_view
    matrix = threshold_matrix(table.rules)
    # Stage t < m: (sums, columns, successors, probabilities, coef, base column); stage m (W)
    # reads base states: (sums, columns, successors, probabilities, bust-all).
    order: list[tuple[np.ndarray, ...]] = []
    for t in range(m + 1):
        st = stages[t] if t < m else stages[0]
        live = st.live
        if t == 0:
            order.append((st.sums, live))
        elif t < m:
            order.append((st.sums, live, succ[t][0][live], succ[t][1][live], coef[t][live], to_base[t][live]))
        else:
            order.append((st.sums, live, succ[m][0][live], succ[m][1][live], bust_all[live]))
    for top in blocks:
        lo = max(0, top - block)
        acc = [value] + [np.zeros((top - lo, stages[t].states.shape[0])) for t in range(1, m)]
        width = g - lo  # largest room in the block
        weights = matrix[: width + table.width, :width]
        windows = windows_of(w_t.ravel(), width + table.width - 1)
        for d in range(top - 1 + m * (g - 1), lo - 1, -1):
            x0, x1 = stages[0].range_of_sums(d - top + 1, d - lo)
            if x1 == x0:
                continue
            sums, cols = order[0][0][x0:x1], order[0][1][x0:x1]
            own = d - sums
            # Pass 1: A_1 .. A_{m-1} and W at this level with V(level) = 0.
            saved = []
            for t in range(1, m + 1):
                st = stages[t] if t < m else stages[0]
                y0, y1 = (x0, x1) if t == m else st.range_of_sums(d - top + 1, d - lo)
                arrs = [arr[y0:y1] for arr in order[t]]
                r = d - arrs[0]
                src = acc[t - 1]
                r_src = r if t == 1 else r - lo
                part = (src.ravel().take(r_src[:, None] * src.shape[1] + arrs[2]) * arrs[3]).sum(axis=1)
                if t < m:
                    flat = (r - lo) * acc[t].shape[1] + arrs[1]
                    acc[t].ravel()[flat] = part
                    saved.append((t, flat, arrs[4], r * value.shape[1] + arrs[5]))
                else:
                    bust = arrs[4]
            uc = np.empty((cols.size, width + table.width))
            uc[:, 0] = part
            uc[:, 1:] = windows[cols * pad + own + 1]
            vals = uc @ weights
            den = np.multiply.outer(bust, -table.bust[1 : width + 1])
            den += 1.0
            vals /= den
            # Thresholds past the room (k > g - i) are read as "hold at g - i" with a larger bust
            # chance; with W^0 <= W(g, j) - P(Y = 0) they are never better (see Notes), so the
            # rows need no mask: only rounding could prefer one, and the clip below undoes it.
            best, k = greedy(vals)
            np.minimum(k, g - own, out=k)
            value.ravel()[own * value.shape[1] + cols] = best
            policy.ravel()[own * policy.shape[1] + cols] = k
            # Pass 2: add V(level) through its self-loop coefficient.
            for t, flat, cf, vidx in saved:
                acc[t].ravel()[flat] += cf * value.ravel()[vidx]
            w_t.ravel()[cols * pad + own] = part + bust * best
        bar.update(1)
