"""Simultaneous Pig: every player takes the same turn at once, then all scores are added.

Two players and n players; exact solvers over the score DAG (scores never decrease), with the
paper's value iteration kept as an independent check.
"""

from .best_response import best_response
from .chunked import ChunkedSolution, chunked_best_response
from .equilibrium import Equilibrium, equilibrium
from .evaluate import win_probabilities, win_probability
from .limit import LimitAnalysis, limit
from .multiplayer import ReducedSolution, reduced_best_response
from .nash import CycleNash, cycle_nash, exploitability
from .self_play import SelfPlay, self_play
from .stackelberg import Stackelberg, stackelberg
from .stopping_equilibrium import StoppingEquilibrium, stopping_equilibrium
from .sweep import HoldAtSweep, best_responses, hold_at_sweep
from .symmetric import SymmetricEquilibrium, SymmetricPolicy, symmetric_equilibrium
from .symmetric_response import (
    SymmetricBestResponse,
    SymmetricDynamics,
    symmetric_best_response,
    symmetric_dynamics,
)

__all__ = [
    "best_response",
    "best_responses",
    "win_probability",
    "win_probabilities",
    "hold_at_sweep",
    "HoldAtSweep",
    "limit",
    "LimitAnalysis",
    "reduced_best_response",
    "ReducedSolution",
    "chunked_best_response",
    "ChunkedSolution",
    "equilibrium",
    "Equilibrium",
    "self_play",
    "SelfPlay",
    "cycle_nash",
    "CycleNash",
    "exploitability",
    "stackelberg",
    "Stackelberg",
    "stopping_equilibrium",
    "StoppingEquilibrium",
    "symmetric_equilibrium",
    "SymmetricEquilibrium",
    "SymmetricPolicy",
    "symmetric_best_response",
    "SymmetricBestResponse",
    "symmetric_dynamics",
    "SymmetricDynamics",
]
