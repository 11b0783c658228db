"""pigtheory: the game theory of the dice game Pig, solved exactly where it can be."""

from . import length, sequential, simulate, simultaneous
from .policies import HoldAt, MixedPolicy, ThresholdTable, as_mixture, hold_at
from .results import Solution
from .rules import Rules
from .turn_total import TurnTotal, turn_total, turn_total_table

__version__ = "0.1.0"

__all__ = [
    "Rules",
    "TurnTotal",
    "turn_total",
    "turn_total_table",
    "hold_at",
    "HoldAt",
    "ThresholdTable",
    "MixedPolicy",
    "as_mixture",
    "Solution",
    "simultaneous",
    "simulate",
    "sequential",
    "length",
]
