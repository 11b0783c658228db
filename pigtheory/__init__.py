"""pigtheory: the game theory of the dice game Pig, solved exactly where it can be.

The names below are imported when first used (PEP 562), so ``import pigtheory`` and the
``pigtheory`` command start without loading numpy and the solvers; ``from pigtheory import
simultaneous`` or ``pigtheory.hold_at`` load what they need.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import _wiring
from ._version import __version__ as __version__

_LAZY = {
    "Rules": "rules",
    "TurnTotal": "turn_totals",
    "turn_total": "turn_totals",
    "turn_total_table": "turn_totals",
    "hold_at": "policies",
    "HoldAt": "policies",
    "ThresholdTable": "policies",
    "MixedPolicy": "policies",
    "as_mixture": "policies",
    "StoppingRule": "stopping",
    "RandomStoppingRule": "stopping",
    "Result": "results",
    "Solution": "results",
    "save": "io",
    "load": "io",
}
_SUBMODULES = ("io", "simultaneous", "simulate", "sequential", "length", "guard")

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
    "guard",
    "simultaneous",
    "simulate",
    "sequential",
    "length",
]

if TYPE_CHECKING:
    from . import guard, io, length, sequential, simulate, simultaneous
    from .io import load, save
    from .policies import HoldAt, MixedPolicy, ThresholdTable, as_mixture, hold_at
    from .results import Result, Solution
    from .rules import Rules
    from .stopping import RandomStoppingRule, StoppingRule
    from .turn_totals import TurnTotal, turn_total, turn_total_table


def _load_files() -> object:
    """Import the file formats, which register themselves with :mod:`pigtheory.results` (the
    results sit below the files layer and import none of it: :mod:`pigtheory._wiring`)."""
    from . import io

    return io


_wiring.load_files = _load_files


def _openspiel_readers() -> tuple[Any, Any]:
    """The OpenSpiel policy reader and game builder, for the game model's policy converter
    (:mod:`pigtheory.games.policy_tables`; :mod:`pigtheory._wiring`)."""
    from .referee.openspiel import from_openspiel_policy, openspiel_game

    return from_openspiel_policy, openspiel_game


_wiring.openspiel_readers = _openspiel_readers


def _game_solvers(play: str, block: str) -> Any:
    """The exact solver behind a block of the game model (:mod:`pigtheory.games`;
    :mod:`pigtheory._wiring`): the referee's for sequential play, the simultaneous family's
    for simultaneous play."""
    if play == "sequential":
        from . import referee

        return {"evaluate": referee.evaluate, "best_response": referee.best_response}[block]
    from . import simultaneous

    return {"evaluate": simultaneous.win_probabilities, "best_response": simultaneous.best_response}[block]


_wiring.game_solvers = _game_solvers


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'pigtheory' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
