"""Fictitious play on the stage game of one state (step 4 of :mod:`.stage`): each
role best-replies to the others' empirical mixes, new replies joining the candidates.

References
----------
G. W. Brown, "Iterative solution of games by fictitious play" (1951).
"""

from __future__ import annotations

import numpy as np

from ..core.jit import kernel
from .payoffs import add_candidate, build_tensors, certify, evaluate, keep

__all__ = ["FP_ITER", "fictitious_play"]

FP_ITER = 600
"""Fictitious-play iterations of the fallback (the ordinary :class:`~.payoffs.Limits`)."""


@kernel
def fictitious_play(R, m, x, lim):  # pragma: no cover - compiled
    """Fictitious play on the state of :class:`~.payoffs.Mixed` ``x`` from its
    ``wts`` (``lim.fp_iter`` iterations, at most ``lim.cand`` candidates per role,
    :class:`~.payoffs.Limits`); leaves the empirical mixes in ``wts``."""
    cand, ncand, wts, val, gain, reply = x.cand, x.ncand, x.wts, x.s.val, x.s.gain, x.s.reply
    cnt = np.zeros_like(wts)
    for r in range(R):
        for j in range(ncand[r]):
            cnt[r, j] = wts[r, j]
    for _ in range(lim.fp_iter):
        evaluate(R, m, x)
        worst = certify(R, x, val, gain)
        keep(R, x, worst)
        grown = False
        for r in range(R):
            j, new = add_candidate(r, reply[r], cand, ncand, lim.cand)
            if j < 0:
                continue  # no room for another candidate: this role stays as it is
            grown = grown or new
            cnt[r, j] += 1.0
        if grown:
            build_tensors(R, m, x)
        for r in range(R):
            tot = 0.0
            for j in range(ncand[r]):
                tot += cnt[r, j]
            for j in range(ncand[r]):
                wts[r, j] = cnt[r, j] / tot
