"""Fictitious play on the stage game of one state (step 4 of :mod:`.symmetric_stage`): each
role best-replies to the others' empirical mixes, new replies joining the candidates.

References
----------
G. W. Brown, "Iterative solution of games by fictitious play" (1951).
"""

from __future__ import annotations

import numpy as np

from .jit import kernel
from .symmetric_payoffs import add_candidate, build_tensors, certify, evaluate, keep

__all__ = ["FP_ITER", "fictitious_play"]

FP_ITER = 600
"""Fictitious-play iterations of the fallback (the ordinary :class:`~.symmetric_payoffs.Limits`)."""


@kernel
def fictitious_play(
    R, m, t, orole, cand, ncand, nc, ten, wts, g, binom, band, table, tie_tol, w, s, lim
):  # pragma: no cover
    """Fictitious play on the state from ``wts`` (``lim.fp_iter`` iterations, at most
    ``lim.cand`` candidates per role, :class:`~.symmetric_payoffs.Limits`); leaves the
    empirical mixes in ``wts``."""
    bust = band.bust
    b, bb, acont, digits, vals, val, gain, reply = (
        s.b,
        s.bb,
        s.acont,
        s.digits,
        s.vals,
        s.val,
        s.gain,
        s.reply,
    )
    cnt = np.zeros_like(wts)
    for r in range(R):
        for j in range(ncand[r]):
            cnt[r, j] = wts[r, j]
    for _ in range(lim.fp_iter):
        evaluate(R, m, t, orole, cand, ncand, nc, ten, wts, g, bust, b, bb, acont, digits)
        worst = certify(R, t, cand, ncand, wts, g, bust, b, bb, acont, tie_tol, vals, val, gain, reply)
        keep(R, ncand, wts, val, gain, reply, worst, s, cand)
        grown = False
        for r in range(R):
            j, new = add_candidate(r, reply[r], cand, ncand, lim.cand)
            if j < 0:
                continue  # no room for another candidate: this role stays as it is
            grown = grown or new
            cnt[r, j] += 1.0
        if grown:
            build_tensors(R, m, t, orole, cand, ncand, nc, ten, g, binom, band, table, w)
        for r in range(R):
            tot = 0.0
            for j in range(ncand[r]):
                tot += cnt[r, j]
            for j in range(ncand[r]):
                wts[r, j] = cnt[r, j] / tot
