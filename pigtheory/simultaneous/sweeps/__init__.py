"""The sweeps of simultaneous Pig: the best response's value at the start over a range of
"hold at n" opponents, one exact solve per cell, on any executor.

=====================  ==================================================================
:mod:`.sweep`          :func:`hold_at_sweep` (one opponent: Fig. 2, Table S1 of Zhu, Ma,
                       Chen & Liu 2023) and :class:`HoldAtTable`, the one table type
:mod:`.grid`           :func:`~.grid.hold_at_grid` (two opponents: Fig. 6, Table S4), cached
:mod:`.resumable`      :func:`hold_at_table` over goals, players and dice, a sealed record
                       per task (:mod:`pigtheory.runtime.records`): stopped, it resumes
=====================  ==================================================================
"""

from .resumable import hold_at_table, sweep_tasks
from .sweep import HoldAtTable, best_responses, hold_at_sweep

__all__ = ["HoldAtTable", "hold_at_sweep", "best_responses", "hold_at_table", "sweep_tasks"]
