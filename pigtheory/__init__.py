"""pigtheory: the game theory of the dice game Pig, solved exactly where it can be."""

from . import io, length, sequential, simulate, simultaneous
from .io import load, save
from .policies import HoldAt, MixedPolicy, ThresholdTable, as_mixture, hold_at
from .results import Result, Solution
from .rules import Rules
from .stopping import RandomStoppingRule, StoppingRule
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
    "StoppingRule",
    "RandomStoppingRule",
    "Result",
    "Solution",
    "save",
    "load",
    "io",
    "simultaneous",
    "simulate",
    "sequential",
    "length",
]
