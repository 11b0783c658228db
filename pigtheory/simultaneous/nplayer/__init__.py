"""The n-player family of simultaneous Pig: the best response of one player against n - 1
opponents, in memory or level by level on disk.

=====================  ==================================================================
:mod:`.reduced`        :func:`reduced_best_response`: opponents whose turn reads their own
                       score only (hold-at and own-score tables), on the multisets of their
                       scores (Zhu, Ma, Chen & Liu 2023, Algorithm 0.3, eqs. (18)-(19))
:mod:`.general`        opponents whose thresholds read the whole state (a symmetric
                       equilibrium's), for :func:`pigtheory.simultaneous.best_response`
:mod:`.chunked`        :func:`chunked_best_response`: the same solve cut into chunk tasks
                       of score levels on :mod:`pigtheory.runtime` (:mod:`.level_store`,
                       :mod:`.chunk_task`), for solves larger than memory
:mod:`.kernels`        the column solver every path shares (:mod:`.gathered`: a chunk's
                       columns gathered from the store); :mod:`.score_sets` ranks tuples
=====================  ==================================================================
"""

from .chunked import ChunkedSolution, chunked_best_response
from .reduced import ReducedSolution, reduced_best_response, separable, separable_moves

__all__ = [
    "ReducedSolution",
    "reduced_best_response",
    "separable",
    "separable_moves",
    "ChunkedSolution",
    "chunked_best_response",
]
