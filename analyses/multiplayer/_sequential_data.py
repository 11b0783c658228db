"""Cached multiplayer sequential equilibria shared by the claims script and the figure."""

from __future__ import annotations

import numpy as np

from pigtheory import Rules
from pigtheory.io import cached
from pigtheory.sequential import MultiplayerEquilibrium, equilibrium

GOALS = {2: 100, 3: 100, 4: 50, 5: 20, 6: 12}
"""The largest goal solved for each number of players (memory and time: goal ** n tuples)."""

COMMON_GOAL = 12
"""A goal every n = 2..6 reaches, for comparing the seats across n."""


def solved(players: int, goal: int, allow_pass: bool = False) -> MultiplayerEquilibrium:
    rules = Rules(goal=goal, players=players)
    return cached(
        "sequential_equilibrium",
        {"rules": repr(rules), "allow_pass": allow_pass, "version": 1},
        lambda: equilibrium(rules=rules, allow_pass=allow_pass, progress=False),
        expected=MultiplayerEquilibrium,
    )


def non_threshold_tuples(eq: MultiplayerEquilibrium) -> int:
    """Score tuples where the mover's roll set over turn totals k >= 1 is not ``k < t``."""
    g = eq.rules.goal
    roll = eq.policy.roll_table()
    k = np.arange(g)
    live = (k[None, :] < g - np.arange(g)[:, None]) & (k[None, :] >= 1)  # [t0, k]
    shape = (g,) + (1,) * (eq.rules.players - 1) + (g,)
    live = live.reshape(shape)
    r = roll & live
    # a threshold rule never rolls after a hold: no k with roll[k] and hold at some k' < k
    hold = ~roll & live
    first_hold = np.where(hold.any(axis=-1), hold.argmax(axis=-1), g)
    last_roll = np.where(r.any(axis=-1), g - 1 - r[..., ::-1].argmax(axis=-1), -1)
    return int(np.count_nonzero(last_roll > first_hold))


def passing_states(eq: MultiplayerEquilibrium) -> int:
    """Score tuples where the mover passes (holds at turn total 0)."""
    roll0 = eq.policy.roll_table()[..., 0]
    return int(np.count_nonzero(~roll0))
