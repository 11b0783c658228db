"""Simultaneous Pig: every player takes the same turn at once, then all scores are added.

Two players and n players; exact solvers over the score DAG (scores never decrease), with the
paper's value iteration kept as an independent check.
"""

from .best_response import best_response
from .evaluate import win_probabilities, win_probability

__all__ = ["best_response", "win_probability", "win_probabilities"]
from .equilibrium import Equilibrium, equilibrium
from .self_play import SelfPlay, self_play

__all__ += ["equilibrium", "Equilibrium", "self_play", "SelfPlay"]
from .nash import CycleNash, cycle_nash, exploitability

__all__ += ["cycle_nash", "CycleNash", "exploitability"]
from .stackelberg import Stackelberg, stackelberg

__all__ += ["stackelberg", "Stackelberg"]
