"""The two-player family of simultaneous Pig: the exact equilibrium, the paper's self-play and
its cycle, the cycle game and exploitability, and the Stackelberg iteration.

======================  ==================================================================
:mod:`.equilibrium`     :func:`equilibrium`: the exact per-state zero-sum equilibrium over
                        thresholds (or every stopping rule), Shapley's method made exact
:mod:`.self_play`       :func:`self_play`: the paper's symmetric iteration and its cycle
:mod:`.nash`            :func:`cycle_nash` (the game among the cycle's policies, with nashpy)
                        and :func:`exploitability`
:mod:`.stackelberg`     :func:`stackelberg`: leader and follower (Algorithm 0.2)
======================  ==================================================================

The best response and the evaluation of fixed policies serve every number of players and live
in :mod:`pigtheory.simultaneous.best_response` and :mod:`~pigtheory.simultaneous.evaluate`.
:mod:`.nash` is imported on first use (:mod:`pigtheory.simultaneous`).
"""

from .equilibrium import Equilibrium, equilibrium
from .self_play import SelfPlay, self_play
from .stackelberg import Stackelberg, stackelberg

__all__ = ["Equilibrium", "equilibrium", "SelfPlay", "self_play", "Stackelberg", "stackelberg"]
