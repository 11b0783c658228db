"""Simultaneous Pig: every player takes the same turn at once, then all scores are added.

Two players and n players; exact solvers over the score DAG (scores never decrease), with the
paper's value iteration kept as an independent check.
"""

from .best_response import best_response
from .evaluate import win_probabilities, win_probability
from .limit import LimitAnalysis, limit
from .multiplayer import ReducedSolution, reduced_best_response
from .sweep import HoldAtSweep, hold_at_sweep

__all__ = ["best_response", "win_probability", "win_probabilities", "hold_at_sweep", "HoldAtSweep"]
__all__ += ["limit", "LimitAnalysis", "reduced_best_response", "ReducedSolution"]
