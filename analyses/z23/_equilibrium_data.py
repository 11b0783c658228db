"""Cached solves shared by the Z23 analyses and figures (goal 100).

Each solve is a result cached with :func:`pigtheory.io.cached` (saved with ``save``, read
back with ``load``), keyed by its parameters and ``VERSION``: bump it when a solver changes.
Results are read-only, so each is also kept in memory once read.

The report quotes how long each solve took. Results hold no wall-clock time, so the solve is
timed here, when it runs, and the seconds are recorded beside the cache entry
(``<entry>.seconds.json``); the ``*_seconds`` functions read them (NaN if the record is gone).
"""

from __future__ import annotations

import functools
import json
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pigtheory import MixedPolicy, Rules
from pigtheory.io import atomic_write, cache_path, cached
from pigtheory.simultaneous import (
    Equilibrium,
    SelfPlay,
    Stackelberg,
    equilibrium,
    self_play,
    stackelberg,
)
from pigtheory.simultaneous.sweeps.grid import hold_at_grid
from pigtheory.simultaneous.sweeps.sweep import HoldAtTable, hold_at_sweep

VERSION = 3
RULES = Rules()
GRID_NS = tuple(range(20, 31))
GRID_RULES = Rules(players=3)
SWEEP_NS = tuple(range(10, 41))


def timed_cached(name: str, params: dict, solve: Callable[[], Any], expected: type) -> tuple[Any, float]:
    """The cached result of ``solve()`` and the wall-clock seconds the solve took."""
    params = {**params, "v": VERSION}
    clock = cache_path(name, params).with_suffix(".seconds.json")

    def timed() -> Any:
        t0 = time.perf_counter()
        result = solve()
        seconds = time.perf_counter() - t0
        atomic_write(clock, lambda tmp: Path(tmp).write_text(json.dumps({"seconds": seconds})))
        return result

    result = cached(name, params, timed, expected=expected)
    try:
        seconds = float(json.loads(clock.read_text())["seconds"])
    except (OSError, ValueError, KeyError, TypeError):
        seconds = math.nan
    return result, seconds


@functools.cache
def _self_play(order: str, sweep: str) -> tuple[SelfPlay, float]:
    return timed_cached(
        "z23-self-play",
        {"order": order, "sweep": sweep, "rules": RULES, "max_iter": 400},
        lambda: self_play(rules=RULES, order=order, sweep=sweep, max_iter=400),
        SelfPlay,
    )


def self_play_data(order: str = "increasing", sweep: str = "gauss-seidel") -> SelfPlay:
    """Self-play from "hold at 25" (at most 400 sweeps)."""
    return _self_play(order, sweep)[0]


def self_play_seconds(order: str = "increasing", sweep: str = "gauss-seidel") -> float:
    return _self_play(order, sweep)[1]


@functools.cache
def _equilibrium() -> tuple[Equilibrium, float]:
    return timed_cached("z23-equilibrium", {"rules": RULES}, lambda: equilibrium(rules=RULES), Equilibrium)


def equilibrium_data() -> Equilibrium:
    """The exact equilibrium."""
    return _equilibrium()[0]


def equilibrium_seconds() -> float:
    return _equilibrium()[1]


def equilibrium_policy() -> MixedPolicy:
    """The equilibrium's mixed policy (own score first)."""
    return equilibrium_data().policy


@functools.cache
def _stackelberg(method: str) -> tuple[Stackelberg, float]:
    return timed_cached(
        "z23-stackelberg",
        {"method": method, "rules": RULES},
        lambda: stackelberg(rules=RULES, method=method),
        Stackelberg,
    )


def stackelberg_data(method: str = "exact") -> Stackelberg:
    """Stackelberg policies, exact or by the paper's iteration."""
    return _stackelberg(method)[0]


def stackelberg_seconds(method: str = "exact") -> float:
    return _stackelberg(method)[1]


@functools.cache
def _grid() -> tuple[HoldAtTable, float]:
    return timed_cached(
        "z23-grid",
        {"ns": list(GRID_NS), "rules": GRID_RULES, "workers": 2},
        lambda: hold_at_grid(GRID_NS, rules=GRID_RULES, workers=2),
        HoldAtTable,
    )


def grid_data() -> HoldAtTable:
    """Best responses to every pair of "hold at n" opponents, n in 20..30 (3 players)."""
    return _grid()[0]


def grid_seconds() -> float:
    """Wall-clock seconds of the grid's solve (on 2 processes)."""
    return _grid()[1]


@functools.cache
def _sweep() -> tuple[HoldAtTable, float]:
    return timed_cached(
        "z23-hold-at-sweep",
        {"ns": list(SWEEP_NS), "rules": RULES},
        lambda: hold_at_sweep(SWEEP_NS, rules=RULES, progress=False),
        HoldAtTable,
    )


def sweep_data() -> HoldAtTable:
    """The best response's value at (0, 0) against every "hold at n", n in 10..40 (Fig. 2)."""
    return _sweep()[0]
