"""The jobs of ``make claims`` on several processes: the cached solves, then the analyses.

A cold ``make claims`` spends nearly all its time in a few cached solves (the symmetric
equilibria and their certificates, the whole-game dynamics, the multiplayer sequential
equilibria, the two-dice goals of Table A1, the Stackelberg iteration), and several analyses
and figures read the same entries. Run as analyses, one after another, the solves of one
analysis wait for each other although they are independent, and two analyses running at
once could solve the same entry twice. So each solve that fills a cache entry is a job of
its own (:data:`SOLVES`), and each analysis runs after the solves it reads
(:func:`analysis_after`) and only loads them. :func:`jobs` is the whole graph for
:func:`analyses._schedule.run_jobs`.

The ``cost`` of a job is about the CPU seconds it took in a cold run on the 2-core machine
(measured in November 2026 on a loaded machine: rough); it only decides which ready job
starts first (the longest remaining chain), never a result.

An analysis not listed in :data:`READS` reads no cached solve of another job (or only its
own, which it fills itself). :func:`check_plan` (run by the tests) verifies that every name
here exists.
"""

from __future__ import annotations

from typing import Any

from analyses._schedule import Job, call
from analyses.multiplayer._sequential_data import COMMON_GOAL, GOALS
from analyses.z22._common import DT, TWO

# --- the cached solves ------------------------------------------------------------------------
# name -> (call, args, after, cold seconds)
_SOLVES: list[tuple[str, str, tuple, tuple[str, ...], float]] = []


def _solve(name: str, target: str, args: tuple = (), after: tuple[str, ...] = (), cost: float = 5.0) -> str:
    _SOLVES.append((name, target, args, after, cost))
    return name


_EQ = "analyses.z23._equilibrium_data"
_SYM = "analyses.z23._symmetric_data"
_Z22 = "analyses.z22._common"
_MP = "analyses.multiplayer._sequential_data"

# two-player simultaneous Pig, goal 100 (analyses/z23/_equilibrium_data.py)
EQUILIBRIUM = _solve("z23-equilibrium", f"{_EQ}:equilibrium_data", cost=4)
SELF_PLAY = {
    v: _solve(f"z23-self-play {v[0]} {v[1]}", f"{_EQ}:self_play_data", v, cost=10)
    for v in (("increasing", "gauss-seidel"), ("decreasing", "gauss-seidel"), ("increasing", "jacobi"))
}
SP = SELF_PLAY["increasing", "gauss-seidel"]
STACKELBERG = {m: _solve(f"z23-stackelberg {m}", f"{_EQ}:stackelberg_data", (m,), cost=3) for m in ("exact",)}
STACKELBERG["value_iteration"] = _solve(
    "z23-stackelberg value_iteration", f"{_EQ}:stackelberg_data", ("value_iteration",), cost=40
)
GRID = _solve("z23-grid", f"{_EQ}:grid_data", cost=10)
SWEEP = _solve("z23-hold-at-sweep", f"{_EQ}:sweep_data", cost=3)
STOPPING = _solve("z23-stopping-equilibrium", "analyses.z23.stopping_rules:stopping_equilibrium_data", cost=6)
CLASSES = _solve(
    "z23-stopping-classes", "analyses.z23.stopping_rules:stopping_classes_data", after=(STOPPING,), cost=90
)
SCALING = _solve("multiplayer_scaling", "analyses.z23._scaling_data:measurements", cost=40)

# symmetric equilibria (analyses/z23/_symmetric_data.py); the certificate reads its equilibrium
SYMMETRIC = {
    (3, 100): _solve("z23-symmetric 3 100", f"{_SYM}:symmetric", (3, 100), cost=80),
    (2, 100): _solve("z23-symmetric 2 100", f"{_SYM}:symmetric", (2, 100), cost=5),
}
for _g, _cost in ((100, 230), (80, 50), (60, 5), (40, 1), (20, 1)):
    SYMMETRIC[4, _g] = _solve(f"z23-symmetric 4 {_g}", f"{_SYM}:symmetric", (4, _g), cost=_cost)
CERTIFICATE = {
    (3, 100): _solve("z23-symmetric-br 3 100", f"{_SYM}:certificate", (3, 100), (SYMMETRIC[3, 100],), 7),
    (4, 100): _solve("z23-symmetric-br 4 100", f"{_SYM}:certificate", (4, 100), (SYMMETRIC[4, 100],), 315),
}
DYNAMICS = {
    label: _solve(f"z23-symmetric-dynamics {label}", f"{_SYM}:dynamics", (label,), cost=cost)
    for label, cost in (("best response", 56), ("damped (1/2)", 180), ("fictitious play", 180))
}

# two-dice Pig (analyses/z22/_common.py): Table A1's goals; the optima of Tables A2 and A3
# (the comparisons with hold at n solve them first)
A1_GOALS = (80, 90, 100, 110, 120, 130, 140, 150, 160, 180, 200)
A1_TOL = 1e-10  # analyses/z22/a1_first_player.TOL (checked by check_plan)
FIRST_PLAYER = {
    g: _solve(
        f"sequential two dice goal {g}", f"{_Z22}:_first_player", (g, A1_TOL), cost=0.55 * (g / 100) ** 4.3
    )
    for g in A1_GOALS
}
HOLD_AT = {
    dt: _solve(f"z22_hold_at double_trouble={dt}", f"{_Z22}:optimal_vs_hold_at", (rules,), cost=cost)
    for dt, rules, cost in ((False, TWO, 12), (True, DT, 20))
}

# multiplayer sequential equilibria (analyses/multiplayer/_sequential_data.py). Their kernels
# take about 40 s of CPU to compile in a fresh checkout: one job compiles them (a small solve)
# before any of the solves starts, so that two processes never compile them at once.
WARM_SEQUENTIAL = _solve("compile the sequential kernels", "analyses._plan:warm_sequential", cost=40)
_MP_CASES = [(n, g, False) for n, g in GOALS.items()]
_MP_CASES += [(n, COMMON_GOAL, False) for n in GOALS if (n, COMMON_GOAL, False) not in _MP_CASES]
_MP_CASES += [(3, 50, False), (3, 50, True)]
SEQUENTIAL = {
    case: _solve(
        f"sequential_equilibrium {case[0]} {case[1]}{' pass' if case[2] else ''}",
        f"{_MP}:solved",
        case,
        after=(WARM_SEQUENTIAL,),
        cost={(3, 100, False): 40, (4, 50, False): 30, (5, 20, False): 17, (6, 12, False): 12}.get(case, 3),
    )
    for case in _MP_CASES
}

SOLVES: tuple[Job, ...] = tuple(
    Job(name, "analyses._plan:fill", (target, args), after, cost)
    for name, target, args, after, cost in _SOLVES
)
"""One job per cached solve; it fills the entry and returns nothing (results stay on disk)."""


def warm_sequential() -> None:
    """Compile (or load) the kernels of :func:`pigtheory.sequential.equilibrium` and its
    certificates: a 3-player game at goal 12, solved and dropped (19 of the 24 kernels, 36 s
    of CPU cold; the five of mixed groups, about 8 s, compile in the first solve that meets
    one)."""
    from pigtheory import Rules
    from pigtheory.sequential import equilibrium

    equilibrium(rules=Rules(goal=12, players=3), progress=False)


def fill(target: str, args: tuple) -> None:
    """Compute (or load) the cached solve ``target(*args)`` and drop it: the job's output is
    the cache entry, read by the analyses that wait for the job."""
    call(target, args)


# --- the analyses and the solves they read ---------------------------------------------------
READS: dict[str, tuple[str, ...]] = {
    "analyses.multiplayer.sequential": tuple(SEQUENTIAL.values()),
    "analyses.z22.a1_first_player": tuple(FIRST_PLAYER.values()),
    "analyses.z22.a2_hold_at": (HOLD_AT[False],),
    "analyses.z22.a3_double_trouble": (HOLD_AT[True],),
    "analyses.z22.dt_boundary": (HOLD_AT[True],),
    "analyses.z22.t1_game_length": (HOLD_AT[False], HOLD_AT[True]),
    "analyses.z23.cycle_nash": (SP,),
    "analyses.z23.equilibrium": (SP, STACKELBERG["exact"], EQUILIBRIUM),
    "analyses.z23.grid": (GRID,),
    "analyses.z23.hold_at_sweep": (SWEEP,),
    "analyses.z23.scaling": (SCALING,),
    "analyses.z23.self_play_cycle": tuple(SELF_PLAY.values()),
    "analyses.z23.stackelberg": (*STACKELBERG.values(), SP, EQUILIBRIUM),
    "analyses.z23.stopping_rules": (STOPPING, CLASSES, SP, STACKELBERG["exact"], EQUILIBRIUM),
    "analyses.z23.summary_table": (SP, EQUILIBRIUM),
    "analyses.z23.symmetric": (
        *SYMMETRIC.values(),
        *CERTIFICATE.values(),
        *DYNAMICS.values(),
        EQUILIBRIUM,
    ),
    "analyses.z23.webapp": (SP, STACKELBERG["exact"], EQUILIBRIUM),
}
"""For each analysis, the cached solves it reads (it runs after them)."""

COST: dict[str, float] = {
    "analyses.multiplayer.sequential": 8,
    "analyses.z22.dt_boundary": 9,
    "analyses.z22.t1_game_length": 5,
    "analyses.z23.three_players": 14,
    "analyses.z23.symmetric": 12,
}
"""Seconds of the analyses themselves once their solves are cached (the rest take ~1 s)."""


def analysis_job(name: str) -> Job:
    """The job of the analysis module ``name`` (its ``main()``, after the solves it reads)."""
    return Job(name, "analyses.run_all:run_module", (name,), READS.get(name, ()), COST.get(name, 2.0))


def jobs_for(solves: list[str]) -> list[Job]:
    """The jobs of the solves named and of those they wait for, in the order of :data:`SOLVES`."""
    needed: set[str] = set()
    by_name = {job.name: job for job in SOLVES}

    def need(solve: str) -> None:
        if solve not in needed:
            needed.add(solve)
            for a in by_name[solve].after:
                need(a)

    for solve in solves:
        need(solve)
    return [job for job in SOLVES if job.name in needed]


def jobs(names: list[str]) -> list[Job]:
    """The solves the analyses ``names`` read, then the analyses."""
    return jobs_for([solve for name in names for solve in READS.get(name, ())]) + [
        analysis_job(name) for name in names
    ]


def check_plan(names: list[str]) -> list[str]:
    """Problems of the plan: an analysis in :data:`READS` that does not exist, a solve whose
    function does not exist, Table A1's tolerance or goals out of step with the analysis."""
    import importlib

    problems = [f"READS names a missing analysis {n}" for n in READS if n not in names]
    for name, target, _args, _after, _cost in _SOLVES:
        module, _, function = target.partition(":")
        if not callable(getattr(importlib.import_module(module), function, None)):
            problems.append(f"solve {name!r}: no function {target}")
    a1: Any = importlib.import_module("analyses.z22.a1_first_player")
    if a1.TOL != A1_TOL or tuple(sorted(a1.TABLE_A1)) != A1_GOALS:
        problems.append("Table A1's goals or tolerance differ from analyses/z22/a1_first_player.py")
    return problems
