"""Figure functions: solver results in, a matplotlib ``Figure`` out.

The scripts in ``paper_figures/`` call these and save the result; nothing here writes files or
solves games. Every function is named ``plot_*`` and lives in the module of its family of
results (:mod:`~pigtheory.plots.simultaneous`, :mod:`~pigtheory.plots.equilibrium`,
:mod:`~pigtheory.plots.stopping`, :mod:`~pigtheory.plots.nplayer`,
:mod:`~pigtheory.plots.symmetric`, :mod:`~pigtheory.plots.sequential`); all are importable from
here.
"""

from __future__ import annotations

from .equilibrium import plot_cycling_states, plot_equilibrium_mixing, plot_stackelberg
from .nplayer import plot_limit, plot_scaling, plot_three_player_grid
from .sequential import plot_hold_boundary
from .simultaneous import plot_best_response_actions, plot_best_response_contour, plot_hold_at_sweep
from .stopping import plot_stopping_rules
from .symmetric import plot_dynamics, plot_mixed_states, plot_opening, plot_value_lines

__all__ = [
    "plot_hold_at_sweep",
    "plot_best_response_contour",
    "plot_best_response_actions",
    "plot_stackelberg",
    "plot_cycling_states",
    "plot_equilibrium_mixing",
    "plot_stopping_rules",
    "plot_three_player_grid",
    "plot_scaling",
    "plot_limit",
    "plot_opening",
    "plot_value_lines",
    "plot_mixed_states",
    "plot_dynamics",
    "plot_hold_boundary",
]
