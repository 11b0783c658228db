"""Cached symmetric-equilibrium solves shared by ``analyses/z23/symmetric.py`` and the figures.

Every solve is a result cached by :func:`analyses.z23._equilibrium_data.timed_cached` (keyed
by its parameters and ``VERSION``; bump it when a solver changes), with the seconds it took
recorded beside the entry. The first run solves four players at goal 100 (minutes) and the
whole-game dynamics (minutes); later runs only load.
"""

from __future__ import annotations

import functools

from analyses.z23._equilibrium_data import equilibrium_data, timed_cached
from pigtheory import Rules
from pigtheory.simultaneous import (
    SymmetricBestResponse,
    SymmetricDynamics,
    SymmetricEquilibrium,
    limit,
    symmetric_best_response,
    symmetric_dynamics,
    symmetric_equilibrium,
)

VERSION = 4  # 4: the self outcome summed last; Newton gives up hopeless solves (new bits)
DYNAMICS_VERSION = 2  # 2: their continuations sum the self outcome last (new bits)
GOAL = 100
FOUR_PLAYER_GOALS = (20, 40, 60, 80, 100)
CERTIFIED_FOUR_PLAYER_GOAL = 100  # the goal of the four-player global certificate
DYNAMICS = {
    "best response": ("best_response", 0.5),
    "damped (1/2)": ("damped", 0.5),
    "fictitious play": ("fictitious_play", 0.5),
}
DYNAMICS_ITER = 20


@functools.cache
def symmetric(players: int, goal: int = GOAL) -> tuple[SymmetricEquilibrium, float]:
    """The symmetric equilibrium and the seconds its solve took."""
    rules = Rules(goal=goal, players=players)
    return timed_cached(
        "z23-symmetric",
        {"rules": rules, "symmetric_version": VERSION},
        lambda: symmetric_equilibrium(rules=rules),
        SymmetricEquilibrium,
    )


@functools.cache
def certificate(players: int, goal: int = GOAL) -> tuple[SymmetricBestResponse, float]:
    """The exact best response to the symmetric equilibrium (global certificate), timed."""
    eq = symmetric(players, goal)[0]
    return timed_cached(
        "z23-symmetric-br",
        {"rules": eq.rules, "symmetric_version": VERSION},
        lambda: symmetric_best_response(eq),
        SymmetricBestResponse,
    )


@functools.cache
def dynamics(label: str) -> tuple[SymmetricDynamics, float]:
    """A whole-game dynamics run of :data:`DYNAMICS` (three players, goal 100), timed."""
    method, damping = DYNAMICS[label]
    rules = Rules(goal=GOAL, players=3)
    return timed_cached(
        "z23-symmetric-dynamics",
        {
            "rules": rules,
            "method": method,
            "damping": damping,
            "max_iter": DYNAMICS_ITER,
            "start": 25,
            "symmetric_version": DYNAMICS_VERSION,
        },
        lambda: symmetric_dynamics(method, rules=rules, max_iter=DYNAMICS_ITER, damping=damping, start=25),
        SymmetricDynamics,
    )


def two_player_opening() -> dict[int, float]:
    """The opening mix of the two-player exact equilibrium (goal 100)."""
    return equilibrium_data().strategy(0, 0)


@functools.cache
def limit_from() -> int:
    """The number of players from which everybody holding at the goal is an equilibrium."""
    return int(limit(n_max=200).smallest_n)
