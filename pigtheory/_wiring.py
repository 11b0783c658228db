"""Where the package root hands a lower layer what only a higher layer implements.

A layer imports only the layers below it (``[tool.importlinter]`` in pyproject.toml). Every
result and policy type (:mod:`pigtheory.results`, in the domain layer) has ``save`` and
``load``, but the file formats live a layer up, in :mod:`pigtheory.io`, which registers them
with :func:`pigtheory.results.register_files` when it is imported. When nothing has imported
it yet (``hold_at(3).save(path)`` in a fresh interpreter), the results call
:data:`load_files`, which the package root (``pigtheory/__init__.py``, above every layer and
imported before any of them) sets to a function that imports :mod:`pigtheory.io`. The game
model's policy converter reads OpenSpiel policies the same way (:data:`openspiel_readers`), and
the game model's ``evaluate`` and ``best_response`` blocks reach the exact solvers through
:data:`game_solvers`. No module of a lower layer names a higher one, not even by a string.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["load_files", "openspiel_readers", "game_solvers", "game_solver"]

load_files: Callable[[], object] | None = None
"""Imports the file formats (which register themselves); set by the package root."""

openspiel_readers: Callable[[], tuple[Callable[..., object], Callable[..., object]]] | None = None
"""``(from_openspiel_policy, openspiel_game)`` of :mod:`pigtheory.referee.openspiel`, for the
game model's policy converter (:mod:`pigtheory.games.policy_tables`, domain layer), which reads
OpenSpiel policies; set by the package root."""

game_solvers: Callable[[str, str], Callable[..., object]] | None = None
"""``game_solvers(play, block)``: the exact solver behind a game model's block, ``play`` one of
``"sequential"``, ``"simultaneous"`` and ``block`` one of ``"evaluate"``, ``"best_response"``
(:meth:`pigtheory.games.SequentialGame.evaluate` and the others); set by the package root."""


def game_solver(play: str, block: str) -> Callable[..., Any]:
    """:data:`game_solvers` ``(play, block)``, for the game model's blocks (the package root
    sets it before any submodule is imported)."""
    if game_solvers is None:  # pragma: no cover - the package root sets it
        raise RuntimeError("pigtheory._wiring.game_solvers is not set: import pigtheory first")
    return game_solvers(play, block)
