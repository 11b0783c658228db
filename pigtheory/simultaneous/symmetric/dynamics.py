"""Best-response dynamics on the stage game of one state (step 1 of :mod:`.stage`).

Each role in turn moves to its best threshold against the others' current ones when that
gains more than ``tie_tol`` (the players of a role move together); a pass in which no role
moves is a pure equilibrium of the stage game. A profile seen before is a cycle, whose
thresholds are the candidates of the mixed solvers.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.jit import kernel
from ..core.step import threshold_step
from .continuation import Others, view_row
from .kernels import pure_outcomes

__all__ = ["Dynamics", "dynamics_scratch", "best_response_dynamics"]


class Dynamics(NamedTuple):
    """The profile of :func:`best_response_dynamics` and what it keeps per role while it runs
    (allocated once per thread, :func:`dynamics_scratch`): the roles' thresholds ``k`` (the
    start in, the last profile out), the profile of each pass ``hist`` (``(passes, n)``: at
    most that many passes), the values ``val`` and gains ``gn`` of a pure equilibrium; the
    others' thresholds ``seen[r]`` at the role's last choice, whether it has one
    (``fresh[r]``), whether it ``moved`` then, and the value ``val_at[r]`` and gain
    ``gain_at[r]`` of the reply it moved to."""

    k: np.ndarray
    hist: np.ndarray
    val: np.ndarray
    gn: np.ndarray
    seen: np.ndarray
    fresh: np.ndarray
    moved: np.ndarray
    val_at: np.ndarray
    gain_at: np.ndarray


def dynamics_scratch(players: int, passes: int) -> Dynamics:
    """A :class:`Dynamics` for states of ``players`` players (one role per player at most),
    with room for ``passes`` passes."""
    n = players
    return Dynamics(
        np.zeros(n, np.int64),
        np.zeros((passes, n), np.int64),
        np.zeros(n),
        np.zeros(n),
        np.zeros((n, max(n - 1, 1)), np.int64),
        np.zeros(n, np.bool_),
        np.zeros(n, np.bool_),
        np.zeros(n),
        np.zeros(n),
    )


@kernel(refcount=False)
def best_response_dynamics(R, m, t, orole, g, binom, band, table, tie_tol, w, d):  # pragma: no cover
    """Passes of best-response dynamics from the thresholds ``k[:R]`` of the roles (scores
    ``t``, others' roles ``orole``), at most ``hist.shape[0]``, each pass's profile recorded in
    ``hist`` (``k``, ``hist``, ``val``, ``gn``: those of the :class:`Dynamics` ``d``). Returns ``(converged, cycle_from, last, passes)``: on convergence ``k`` is a pure
    equilibrium with values ``val`` and gains ``gn``; otherwise passes ``cycle_from..last`` of
    ``hist`` form the cycle (``cycle_from`` -1 if none was found). The continuations go through
    the view cache of the :class:`~.payoffs.Work` ``w`` (its ``col``, ``key``,
    ``views``) and are read from its rows where they are (:func:`~.continuation.view_row`:
    the padded rows, read by :func:`~.step.threshold_step`, hold the numbers of the padded copy
    that :func:`~.respond.action_values` read, so the same bits).

    A role whose others still play what they played when it last chose is not evaluated
    again: its values are the same numbers, so it stays, with the value and gain of the
    reply it moved to (kept in the :class:`Dynamics` ``d``). The kernel allocates nothing
    and counts no references (:func:`~pigtheory.jit.kernel`): it runs once per state. It takes
    the state's parts, not the whole :class:`~.payoffs.Mixed` record of the mixed
    search: a record passed to a kernel is copied at every call, and that one (with the mixed
    search's scratch) made the four-player solve at goal 100 about 5% slower."""
    bust = band.bust
    k, hist, val, gn = d.k, d.hist, d.val, d.gn
    seen, fresh, moved, val_at, gain_at = d.seen, d.fresh, d.moved, d.val_at, d.gain_at
    for r in range(R):
        fresh[r] = False
        moved[r] = False
    dest, prob, lens, u, vals, idx, buf = w.dest, w.prob, w.lens, w.u, w.vals, w.idx, w.buf
    col, key, views = w.col, w.key, w.views  # taken once: each taking counts references
    them = Others(m, dest, prob, lens, idx, buf)
    rows = views.rows
    cached = rows.shape[0] > 0
    cycle_from = -1
    last = 0
    passes = 0
    converged = False
    for it in range(hist.shape[0]):
        passes += 1
        changed = False
        for r in range(R):
            same = fresh[r]
            for q in range(m):
                if same and seen[r, q] != k[orole[r, q]]:
                    same = False
            if same:
                if moved[r]:
                    val[r] = val_at[r]
                    gn[r] = gain_at[r]
                    moved[r] = False
                continue
            fresh[r] = True
            for q in range(m):
                seen[r, q] = k[orole[r, q]]
            opp_bust = 1.0
            for q in range(m):
                rr = orole[r, q]
                key[q] = k[rr]
                lens[q] = pure_outcomes(t[rr], k[rr], g, band, dest[q], prob[q])
                opp_bust *= bust[k[rr]]
            room = g - t[r]
            view_row(t[r], col[r], key, g, them, table, binom, u, views)
            row = rows[col[r]] if cached else u  # padded past the goal: u = row[t:]
            best, kb = threshold_step(band, row[t[r] :], row[t[r]], room, opp_bust, vals, True, tie_tol, vals)
            cur = vals[k[r]]
            if cur < best - tie_tol:
                k[r] = kb
                changed = True
                moved[r] = True
                val_at[r] = vals[kb]
                gain_at[r] = best - vals[kb]
            else:
                val[r] = cur
                gn[r] = best - cur
                moved[r] = False
        for r in range(R):
            hist[it, r] = k[r]
        if not changed:
            converged = True
            break
        for q in range(it):
            same = True
            for r in range(R):
                if hist[q, r] != k[r]:
                    same = False
                    break
            if same:
                cycle_from = q + 1
                break
        if cycle_from >= 0:
            last = it
            break
    return converged, cycle_from, last, passes
