"""PigBench's tasks: named games, each with its measure, its exact optimum and reference numbers.

A task is a game (the rules, sequential or simultaneous play, OpenSpiel's move horizon or none)
and the measure a learned policy is scored by:

* ``"exploitability"`` (two players): the mean over the two seats of what a best response gains
  against the policy played in both seats,
  :math:`\\tfrac12 \\sum_p (\\max_{\\pi'} v_p(\\pi', \\pi) - v_p(\\pi, \\pi))`, in win
  probability (a draw at the horizon counts 1/2). 0 exactly at an equilibrium; OpenSpiel's own
  ``exploitability`` of the same profile is twice this (its returns are +1/-1);
* ``"nash_conv"`` (three players or more): the sum over seats of the best-response gains.

Reference numbers (:meth:`Task.reference`, computed by the solvers and the referee, never typed
in): the value of optimal play (seat 0's win probability when every seat plays the optimum or
the equilibrium), and the measure of three baselines: uniform random play, the best fixed
"hold at k" (the k with the lowest measure) and "keep pace and end race" (Neller & Presser's
best simple policy at goal 100, its parameters scaled to the task's goal, Notes).

Notes
-----
*Uniform random*: sequential play rolls with probability 1/2 at every decision (at a turn total
of 0 stopping passes the turn); simultaneous play picks its threshold uniformly in
``1..goal - i`` at every state.

*Keep pace and end race* (Neller & Presser's slides, "Keep Pace and End Race"): roll if either
player (the leader among the others) is within ``e`` of the goal, else hold at
``c + m / d``, ``m`` the multiple of ``d`` closest to the deficit ``j - i`` (the greater one
when halfway); at goal 100 ``c = 21, d = 8, e = 29``. At another goal ``G`` the thresholds
scale with it: ``c = round(0.21 G)``, ``e = round(0.29 G)``, ``d = 8`` (so ``m / d`` scales
too). In simultaneous play the same rule is the threshold at each state.

References
----------
T. Neller & C. Presser, "Optimal play of the dice game Pig", UMAP Journal 25 (2004), and the
slides "Pig Strategies" (keep pace and end race, 0.922% advantage conceded at goal 100);
M. Lanctot et al., "A unified game-theoretic approach to multiagent reinforcement learning",
NeurIPS 2017 (NashConv); M. Lanctot et al., "OpenSpiel", arXiv:1908.09453 (2019) (``pig``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..rules import Rules

__all__ = ["Task", "TASKS", "task", "task_names"]


@dataclass(frozen=True)
class Task:
    """One PigBench task (module docstring).

    Attributes
    ----------
    name : str
    rules : Rules
    play : {"sequential", "simultaneous"}
    measure : {"exploitability", "nash_conv"}
    horizon : int or None
        OpenSpiel's move limit (None: the game without one).
    light : bool
        Scored in seconds (its reference numbers in tens of seconds at most): in the light
        leaderboard (``make bench-learners``).
    description : str
    """

    name: str
    rules: Rules
    play: str
    measure: str
    horizon: int | None = None
    light: bool = True
    description: str = ""

    def exploitability(self, policy: Any) -> Any:
        """The full :class:`~pigtheory.referee.Exploitability` record of ``policy`` (played in
        every seat, or one per seat) on this task."""
        if self.play == "simultaneous":
            from .simultaneous import simultaneous_exploitability

            return simultaneous_exploitability(policy, rules=self.rules)
        from .best_response import exploitability

        return exploitability(policy, rules=self.rules, horizon=self.horizon)

    def measure_of(self, policy: Any) -> float:
        """The task's measure of ``policy`` (module docstring)."""
        e = self.exploitability(policy)
        return float(e.nash_conv if self.measure == "nash_conv" else e.exploitability)

    def uniform_random(self) -> Any:
        """Uniform random play (module Notes)."""
        g = self.rules.goal
        if self.play == "simultaneous":
            from ..policies import MixedPolicy

            th = np.broadcast_to(np.arange(1, g + 1), (g, g, g)).copy()
            room = (g - np.arange(g))[:, None, None]
            w = np.where(th <= room, 1.0, 0.0) / np.broadcast_to(room, (g, g, 1))
            return MixedPolicy(np.minimum(th, room), w, name="uniform random")
        return np.full((g,) * (self.rules.players + 1), 0.5)

    def hold_at(self, k: int) -> Any:
        """Hold at ``k`` (at every state, in every seat)."""
        if self.play == "simultaneous" or self.rules.players == 2:
            from ..policies import hold_at

            return hold_at(k)
        return lambda *s: (s[-1] < k).astype(float)

    def keep_pace_end_race(self) -> Any:
        """Neller & Presser's keep pace and end race, scaled to the goal (module Notes)."""
        g = self.rules.goal
        c, d, e = max(1, round(0.21 * g)), 8, round(0.29 * g)

        def hold(i: np.ndarray, j: np.ndarray) -> np.ndarray:
            race = np.maximum(i, j) >= g - e
            return np.where(race, g - i, np.maximum(1, c + np.floor((j - i) / d + 0.5).astype(np.int64)))

        if self.play == "simultaneous":
            from ..policies import ThresholdTable

            i, j = np.indices((g, g))
            return ThresholdTable(np.minimum(hold(i, j), g - i), name="keep pace and end race")

        def roll(*s: np.ndarray) -> np.ndarray:
            i, k = s[0], s[-1]
            j = np.max(np.stack(s[1:-1]), axis=0)
            return ((k == 0) | (k < hold(i, j))).astype(float)

        return roll

    def optimum(self) -> Any:
        """The optimal (two-player sequential) or equilibrium policy of the task."""
        return _optimum(self)

    def reference(self) -> dict[str, Any]:
        """The task's reference numbers, computed once per process (module docstring): keys
        ``optimal_value``, ``uniform_random``, ``best_hold_at`` (its measure), ``best_hold_at_k``,
        ``keep_pace_end_race``."""
        return dict(_reference(self))


@functools.cache
def _optimum(t: Task) -> Any:
    if t.play == "simultaneous":
        from ..simultaneous import equilibrium

        return equilibrium(rules=t.rules)
    if t.rules.players > 2:
        from ..sequential import equilibrium as seq_equilibrium

        return seq_equilibrium(rules=t.rules, progress=False)
    from ..sequential import solve

    return solve(rules=t.rules, progress=False)


@functools.cache
def _reference(t: Task) -> tuple[tuple[str, Any], ...]:
    opt = t.optimum()
    if t.play == "simultaneous":
        from ..simultaneous import win_probabilities

        value = float(np.asarray(win_probabilities([opt.policy, opt.policy], rules=t.rules))[0, 0, 0])
    else:
        from .evaluate import evaluate

        value = float(evaluate(opt, rules=t.rules, horizon=t.horizon).value_start[0])
    holds = [t.measure_of(t.hold_at(k)) for k in range(1, t.rules.goal)]
    best = int(np.argmin(holds))
    return (
        ("optimal_value", value),
        ("optimum_measure", t.measure_of(opt.policy if t.play == "simultaneous" else opt)),
        ("uniform_random", t.measure_of(t.uniform_random())),
        ("best_hold_at", float(holds[best])),
        ("best_hold_at_k", best + 1),
        ("keep_pace_end_race", t.measure_of(t.keep_pace_end_race())),
    )


def _tasks() -> dict[str, Task]:
    seq = "sequential"
    out = [
        Task(
            "pig-20", Rules(goal=20), seq, "exploitability", description="sequential Pig, 2 players, goal 20"
        ),
        Task(
            "pig-50", Rules(goal=50), seq, "exploitability", description="sequential Pig, 2 players, goal 50"
        ),
        Task("pig-100", Rules(), seq, "exploitability", description="sequential Pig, 2 players, goal 100"),
        Task(
            "piglet", Rules.piglet(), seq, "exploitability", description="Piglet (a coin), 2 players, goal 10"
        ),
        Task(
            "pig-3p-30",
            Rules(goal=30, players=3),
            seq,
            "nash_conv",
            description="sequential Pig, 3 players, goal 30 (NashConv)",
        ),
        Task(
            "simultaneous-50",
            Rules(goal=50),
            "simultaneous",
            "exploitability",
            description="simultaneous Pig, 2 players, goal 50 (threshold strategies)",
        ),
        Task(
            "simultaneous-100",
            Rules(),
            "simultaneous",
            "exploitability",
            light=False,
            description="simultaneous Pig, 2 players, goal 100 (threshold strategies)",
        ),
        Task(
            "openspiel-pig",
            Rules(),
            seq,
            "exploitability",
            horizon=1000,
            light=False,
            description="OpenSpiel's pig: 2 players, goal 100, horizon 1000 moves (a draw counts 1/2)",
        ),
    ]
    return {t.name: t for t in out}


TASKS: dict[str, Task] = _tasks()
"""The registry: name -> :class:`Task`."""


def task_names() -> list[str]:
    """The registered task names, in registry order."""
    return list(TASKS)


def task(name: Any) -> Task:
    """The registered task called ``name`` (a :class:`Task` is returned as it is).

    Raises
    ------
    ValueError
        For an unknown name (the message lists the known ones).
    """
    if isinstance(name, Task):
        return name
    if not isinstance(name, str) or name not in TASKS:
        raise ValueError(f"task must be one of {', '.join(TASKS)}, got {name!r:.80}")
    return TASKS[name]
