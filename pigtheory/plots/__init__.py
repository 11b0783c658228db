"""Figure functions: solver results in, a matplotlib ``Figure`` out.

The scripts in ``paper_figures/`` call these and save the result; nothing here writes files or
solves games. Every function is named ``plot_*`` and lives in the module of its family of
results (:mod:`~pigtheory.plots.simultaneous`, :mod:`~pigtheory.plots.equilibrium`,
:mod:`~pigtheory.plots.stopping`, :mod:`~pigtheory.plots.multiplayer`,
:mod:`~pigtheory.plots.symmetric`, :mod:`~pigtheory.plots.sequential`); all are importable from
here. The older names ``*_figure`` still work and warn ``DeprecationWarning``.
"""

from __future__ import annotations

from .._compat import renamed
from .equilibrium import plot_cycling_states, plot_equilibrium_mixing, plot_stackelberg
from .multiplayer import plot_limit, plot_scaling, plot_three_player_grid
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

OLD_NAMES = {
    "three_player_grid_figure": "pigtheory.plots.multiplayer:plot_three_player_grid",
    "scaling_figure": "pigtheory.plots.multiplayer:plot_scaling",
    "limit_figure": "pigtheory.plots.multiplayer:plot_limit",
    "opening_figure": "pigtheory.plots.symmetric:plot_opening",
    "value_lines_figure": "pigtheory.plots.symmetric:plot_value_lines",
    "mixed_states_figure": "pigtheory.plots.symmetric:plot_mixed_states",
    "dynamics_figure": "pigtheory.plots.symmetric:plot_dynamics",
}
"""The deprecated ``*_figure`` names and the ``module:function`` that replaces each."""

__getattr__ = renamed(__name__, OLD_NAMES)
