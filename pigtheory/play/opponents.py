"""The opponents one can play: solved or loaded policies, with the person's best response.

An :class:`Opponent` bundles what a game and its live analysis need: the opponent's moves as
integer tables (:class:`~pigtheory.play.game.OpponentTable`) and the exact best response of
the person against it, whose values are the person's win probabilities
(:class:`~pigtheory.sequential.best_response.SequentialResponse` in sequential play; in
simultaneous play the best stopping rule,
:class:`~pigtheory.simultaneous.best_response.StoppingSolution`).

Names
-----
Sequential: ``optimal`` (Neller & Presser's optimum, one die), ``optimal-two-dice``,
``optimal-double-trouble``, ``optimal-piglet`` (goal 10 unless a goal is given),
``hold-at-N``, ``webapp-easy`` / ``-normal`` / ``-hard`` (the web app's sequential tables,
goal 100). Simultaneous: ``equilibrium`` (the exact mixed equilibrium over thresholds,
sampled every turn), ``stackelberg`` (the leader's policy), ``br-hold-at-N`` (the best
threshold response to hold at N), ``hold-at-N``, ``webapp-easy`` / ``-normal`` / ``-hard``
(the web app's simultaneous tables). The web app's tables also answer to their full names,
``webapp-sequential-hard``, ``webapp-simultaneous-easy``, ... (the names of
:mod:`pigtheory.published`, everywhere), and to the JSON file's keys. A saved policy or result
gives an opponent in every mode its policy fits
(:func:`~pigtheory.play.file_opponents.opponents_from_file`).

Solves are cached (:func:`pigtheory.io.cached`) by rules and name, files by their contents.

References
----------
Neller & Presser (2004); Zhu & Ma, Stats 5 (2022); Zhu, Ma, Chen & Liu, Scientific Reports
13 (2023) and its web app (:mod:`pigtheory.published`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..io import cached
from ..policies import ThresholdTable, as_mixture, hold_at
from ..policies.sequential import roll_table
from ..progress import track
from ..rules import Rules
from ..sequential.best_response import SequentialResponse
from ..sequential.best_response import best_response as sequential_best_response
from ..simultaneous.best_response import StoppingSolution
from ..simultaneous.best_response import best_response as simultaneous_best_response
from ..validation import check_int, check_ints, check_optional_path, check_progress
from .game import MODES, OpponentTable
from .rng import quantize_weights

__all__ = [
    "Opponent",
    "opponent",
    "default_opponents",
    "sequential_opponent",
    "simultaneous_opponent",
    "NAMES",
]

_VERSION = 2  # 2: simultaneous responses are StoppingSolution (policy.roll)
NAMES = {
    "sequential": (
        "optimal",
        "optimal-two-dice",
        "optimal-double-trouble",
        "optimal-piglet",
        "hold-at-N",
        "webapp-easy",
        "webapp-normal",
        "webapp-hard",
    ),
    "simultaneous": (
        "equilibrium",
        "stackelberg",
        "br-hold-at-N",
        "hold-at-N",
        "webapp-easy",
        "webapp-normal",
        "webapp-hard",
    ),
}
"""The opponent names of each mode (``N`` a number)."""


@dataclass(frozen=True, eq=False)
class Opponent:
    """A fixed opponent and the person's exact best response to it.

    Attributes
    ----------
    key : str
        Unique and file-name safe, e.g. ``"sequential-optimal-g100"``.
    name : str
        The opponent's name as a player would say it.
    about : str
        What it is and where it comes from.
    mode : {"sequential", "simultaneous"}
    rules : Rules
    table : OpponentTable
        Its moves, as the games play them.
    response : SequentialResponse or StoppingSolution
        The person's best response: the values the page and the terminal show.
    policy : object
        The opponent's policy as the library reads it (simultaneous: for
        :func:`~pigtheory.simultaneous.best_response.turn_values`).
    """

    key: str
    name: str
    about: str
    mode: str
    rules: Rules
    table: OpponentTable
    response: SequentialResponse | StoppingSolution
    policy: Any


def _key(mode: str, name: str, rules: Rules) -> str:
    return re.sub(r"[^a-z0-9-]+", "-", f"{mode}-{name}-g{rules.goal}".lower()).strip("-")


def sequential_opponent(
    name: str, label: str, about: str, rules: Rules, roll: np.ndarray, params: dict, cache_dir: Any
) -> Opponent:
    """A sequential opponent playing the roll table ``roll[own, other, k]``, with the person's
    best response (cached under ``params``, which must identify the table, and the rules).

    Parameters
    ----------
    name, label, about : str
        The key's name part, the name a player would say, and the description.
    rules : Rules
    roll : numpy.ndarray of bool, shape ``(goal, goal, goal)``
        The opponent's roll table, own score first.
    params : dict
        Identifies the table in the cache.
    cache_dir : path-like or None

    Returns
    -------
    Opponent
        ``response`` a :class:`~pigtheory.sequential.SequentialResponse`.
    """
    roll = np.asarray(roll, dtype=bool)
    response = cached(
        "play-sequential-response",
        {**params, "rules": repr(rules), "version": _VERSION},
        lambda: sequential_best_response(roll, rules=rules),
        cache_dir=cache_dir,
        expected=SequentialResponse,
    )
    table = OpponentTable("sequential", rules, roll=roll)
    return Opponent(_key("sequential", name, rules), label, about, "sequential", rules, table, response, roll)


def simultaneous_opponent(
    name: str, label: str, about: str, rules: Rules, policy: Any, params: dict, cache_dir: Any
) -> Opponent:
    """A simultaneous opponent playing ``policy`` (anything :func:`pigtheory.as_mixture` reads),
    with the person's best stopping rule (cached under ``params`` and the rules).

    Parameters
    ----------
    name, label, about : str
        As for :func:`sequential_opponent`.
    rules : Rules
    policy : policy
        Thresholds (pure or mixed), own score first.
    params : dict
        Identifies the policy in the cache.
    cache_dir : path-like or None

    Returns
    -------
    Opponent
        ``table.thresholds``/``table.weights`` of shape ``(goal, goal, S)``; ``response`` a
        :class:`~pigtheory.simultaneous.best_response.StoppingSolution` (its ``policy.roll``:
        the person's best roll-or-hold choice at every turn total).
    """
    mix = as_mixture(policy, rules)
    g = rules.goal
    th = np.array(np.broadcast_to(mix.thresholds, (g, g, mix.thresholds.shape[-1])), dtype=np.int64)
    w = np.broadcast_to(mix.weights, th.shape)
    response = cached(
        "play-stopping-response",
        {**params, "rules": repr(rules), "version": _VERSION},
        lambda: simultaneous_best_response(policy, rules=rules, strategies="stopping"),
        cache_dir=cache_dir,
        expected=StoppingSolution,
    )
    assert isinstance(response, StoppingSolution)
    table = OpponentTable("simultaneous", rules, thresholds=th, weights=quantize_weights(w))
    return Opponent(
        _key("simultaneous", name, rules), label, about, "simultaneous", rules, table, response, policy
    )


MAX_GOAL = 1000
"""The largest goal of an opponent (the site's data grows as goal**3)."""


def _hold_at_n(name: str) -> int | None:
    m = re.fullmatch(r"hold-at-(\d+)", name)
    return int(m.group(1)) if m else None


_OPTIMA = {
    "optimal": ("Optimal player", {}),
    "optimal-two-dice": ("Optimal player, two dice", {"dice": 2}),
    "optimal-double-trouble": ("Optimal player, Double Trouble", {"dice": 2, "double_trouble": True}),
    "optimal-piglet": ("Optimal player, Piglet", {}),
}


def _optimum_rules(name: str, goal: int | None) -> Rules:
    if name == "optimal-piglet":
        return Rules.piglet(goal=goal or 10)
    return Rules(goal=goal or 100).replace(**_OPTIMA[name][1])


def opponent(
    name: str, *, mode: str = "sequential", goal: int | None = None, cache_dir: Any = None
) -> Opponent:
    """The opponent called ``name`` in ``mode`` (see the module docstring for the names).

    Parameters
    ----------
    name : str
    mode : {"sequential", "simultaneous"}
    goal : int, optional
        Default 100 (``optimal-piglet``: 10); the web app's tables exist for 100 only.
    cache_dir : path-like, optional
        Where solves are cached (:func:`pigtheory.io.resolve_cache_dir`).

    Returns
    -------
    Opponent
        With the person's exact best response (solved, or loaded from the cache).

    Raises
    ------
    ValueError
        An unknown name or mode, or a web app table at a goal other than 100.

    Examples
    --------
    >>> import tempfile
    >>> opp = opponent("hold-at-3", mode="simultaneous", goal=6, cache_dir=tempfile.mkdtemp())
    >>> opp.key, round(float(opp.response.value[0, 0]), 4) > 0.5
    ('simultaneous-hold-at-3-g6', True)
    """
    if not isinstance(name, str):
        raise ValueError(f"name must be an opponent's name (str), got {name!r:.80}")
    if not isinstance(mode, str) or mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    name = _webapp_short(name, mode)
    check_optional_path("cache_dir", cache_dir)
    if goal is not None:
        goal = check_int("goal", goal, low=1, high=MAX_GOAL)
    n = _hold_at_n(name)
    if mode == "sequential":
        if name in _OPTIMA:
            label, rules = _OPTIMA[name][0], _optimum_rules(name, goal)
            return _optimum(name, label, rules, cache_dir)
        if n is not None:
            rules = Rules(goal=goal or 100)
            about = f"Rolls until its turn total reaches {n} (or its score would reach the goal), whatever the scores."
            return sequential_opponent(
                name,
                f"Hold at {n}",
                about,
                rules,
                roll_table(hold_at(n), rules),
                {"name": name},
                cache_dir,
            )
        if name.startswith("webapp-"):
            return _webapp(name, mode, goal, cache_dir)
    else:
        rules = Rules(goal=goal or 100)
        if name == "equilibrium":
            return _equilibrium(rules, cache_dir)
        if name == "stackelberg":
            return _stackelberg(rules, cache_dir)
        m = re.fullmatch(r"br-hold-at-(\d+)", name)
        if m:
            return _br_hold_at(int(m.group(1)), rules, cache_dir)
        if n is not None:
            about = f"Holds as soon as its turn total reaches {n} (or the goal), whatever the scores."
            return simultaneous_opponent(
                name, f"Hold at {n}", about, rules, hold_at(n), {"name": name}, cache_dir
            )
        if name.startswith("webapp-"):
            return _webapp(name, mode, goal, cache_dir)
    listed = ", ".join(NAMES[mode])
    raise ValueError(f"opponent: unknown {mode} opponent {name!r}; known: {listed}, or a policy file")


def _optimum(name: str, label: str, rules: Rules, cache_dir: Any) -> Opponent:
    from ..sequential.cache import cached_solve

    sol = cached_solve(rules=rules, cache_dir=cache_dir)
    roll = sol.roll[..., 0] if sol.roll.ndim == 4 else sol.roll
    about = {
        "optimal": "Maximises its own chance of winning at every roll: the optimal policy of Neller & Presser (2004).",
        "optimal-two-dice": "Optimal two-dice Pig: one 1 ends the turn, two 1s also reset the score (Zhu & Ma, Stats 2022).",
        "optimal-double-trouble": "Optimal Double Trouble: two dice, and a double other than 1-1 must roll again (Zhu & Ma, Stats 2022).",
        "optimal-piglet": "Optimal Piglet: a coin, heads scores 1, tails loses the turn total (Neller & Presser 2004).",
    }[name]
    return sequential_opponent(
        name, label, about, rules, roll, {"name": name, "solution": "optimal"}, cache_dir
    )


def _equilibrium(rules: Rules, cache_dir: Any) -> Opponent:
    from ..simultaneous import Equilibrium, equilibrium

    eq = cached(
        "play-equilibrium",
        {"rules": repr(rules), "version": _VERSION},
        lambda: equilibrium(rules=rules),
        cache_dir=cache_dir,
        expected=Equilibrium,
    )
    n_mixed = len(eq.mixed_states)
    mixing = (
        f"at most states one threshold, at {n_mixed} states a random one, drawn afresh every turn"
        if n_mixed
        else "at this goal one threshold at every state"
    )
    about = (
        f"The exact equilibrium of simultaneous Pig over hold-at thresholds: {mixing} "
        "(Zhu et al. 2023 ask for it; pigtheory solves it exactly)."
    )
    return simultaneous_opponent(
        "equilibrium", "Equilibrium (mixed)", about, rules, eq.policy, {"name": "equilibrium"}, cache_dir
    )


def _stackelberg(rules: Rules, cache_dir: Any) -> Opponent:
    from ..simultaneous import Stackelberg, stackelberg

    st = cached(
        "play-stackelberg",
        {"rules": repr(rules), "version": _VERSION},
        lambda: stackelberg(rules=rules),
        cache_dir=cache_dir,
        expected=Stackelberg,
    )
    about = "The leader's policy of Stackelberg value iteration (Algorithm 0.2 of Zhu et al. 2023), solved exactly."
    table = ThresholdTable(st.leader_policy, name="Stackelberg leader")
    return simultaneous_opponent(
        "stackelberg", "Stackelberg leader", about, rules, table, {"name": "stackelberg"}, cache_dir
    )


def _br_hold_at(n: int, rules: Rules, cache_dir: Any) -> Opponent:
    from ..results import Solution
    from ..simultaneous import best_response

    sol = cached(
        "play-best-response",
        {"rules": repr(rules), "against": n, "version": _VERSION},
        lambda: best_response(hold_at(n), rules=rules),
        cache_dir=cache_dir,
        expected=Solution,
    )
    about = (
        f"The best threshold policy against hold at {n} (Algorithm 0.1 of Zhu et al. 2023); "
        "at goal 100 against hold at 25 it is the web app's 'normal' table."
    )
    table = ThresholdTable(sol.policy, name=f"best response to hold at {n}")
    return simultaneous_opponent(
        f"br-hold-at-{n}",
        f"Best response to hold at {n}",
        about,
        rules,
        table,
        {"name": f"br-hold-at-{n}"},
        cache_dir,
    )


def _webapp_short(name: str, mode: str) -> str:
    """A published table's name in any form (``webapp-simultaneous-hard``, ``action_simul_hard``,
    ``webapp-hard``; :func:`pigtheory.published.table_name`) as the short ``webapp-hard`` of
    this mode; other names unchanged."""
    if not name.startswith(("webapp-", "action_")):
        return name
    from ..published import table_name

    try:
        full = table_name(name, mode=mode)
    except ValueError:
        return name  # reported as an unknown opponent
    if not full.startswith(f"webapp-{mode}-"):
        raise ValueError(f"opponent: {name!r} is a table of the other game; this is {mode} Pig")
    return "webapp-" + full.rsplit("-", 1)[1]


def _webapp(name: str, mode: str, goal: int | None, cache_dir: Any) -> Opponent:
    from ..published import webapp_policies

    level = name.removeprefix("webapp-")
    if level not in ("easy", "normal", "hard"):
        raise ValueError(f"opponent: the web app's levels are easy, normal and hard, got {name!r}")
    if goal not in (None, 100):
        raise ValueError(f"goal: the web app's tables are for goal 100, got {goal}")
    rules = Rules()
    table = webapp_policies(rules=rules).tables[f"webapp-{mode}-{level}"]
    label = f"Web app, {level}"
    what = {  # what pigtheory finds the simultaneous tables to be
        "easy": " It is hold at 15.",
        "normal": " It is the best response to hold at 25.",
        "hard": " It is the Stackelberg leader's policy but at one state.",
    }
    about = (
        f"The {mode} '{level}' table of the web app of Zhu, Ma, Chen & Liu (Scientific Reports 2023), "
        "shipped with pigtheory (pigtheory.published)." + (what[level] if mode == "simultaneous" else "")
    )
    params = {"name": name}
    if mode == "sequential":
        return sequential_opponent(
            name, label, about, rules, roll_table(ThresholdTable(table.table), rules), params, cache_dir
        )
    return simultaneous_opponent(name, label, about, rules, table, params, cache_dir)


def default_opponents(
    goals: Iterable[int] = (100,),
    *,
    hold_at_n: Iterable[int] = (20, 25),
    webapp: bool = True,
    cache_dir: Any = None,
    progress: bool | None = None,
) -> list[Opponent]:
    """The site's default set, for every goal: the sequential optima (one die, two dice,
    Double Trouble; Piglet once, at goal 10), the equilibrium, the Stackelberg leader, the best
    response to hold at 25, hold at n in both modes and (goal 100) the web app's six tables.

    Parameters
    ----------
    goals : iterable of int
    hold_at_n : iterable of int
        The n of the "hold at n" opponents (both modes).
    webapp : bool
        Include the web app's tables (goal 100 only).
    cache_dir : path-like, optional
        Where solves are cached (:func:`pigtheory.io.resolve_cache_dir`).
    progress : bool, optional
        A bar over the opponents on stderr (default: when stderr is a terminal).

    Returns
    -------
    list of Opponent
        In the order the site lists them.
    """
    check_progress(progress)
    goals = check_ints("goals", goals, low=1, high=MAX_GOAL)
    hold_at_n = check_ints("hold_at_n", hold_at_n, low=1, high=MAX_GOAL)
    if not isinstance(webapp, bool):
        raise ValueError(f"webapp must be True or False, got {webapp!r:.80}")
    check_optional_path("cache_dir", cache_dir)
    names: list[tuple[str, str, int | None]] = []
    for g in goals:
        goal: int | None = g
        names += [("sequential", n, goal) for n in ("optimal", "optimal-two-dice", "optimal-double-trouble")]
        names += [("sequential", f"hold-at-{n}", goal) for n in hold_at_n]
        names += [("simultaneous", n, goal) for n in ("equilibrium", "stackelberg", "br-hold-at-25")]
        names += [("simultaneous", f"hold-at-{n}", goal) for n in hold_at_n]
        if webapp and goal == 100:
            names += [(mode, f"webapp-{lv}", goal) for mode in MODES for lv in ("easy", "normal", "hard")]
    names.append(("sequential", "optimal-piglet", None))
    out = []
    for mode, name, goal in track(names, desc="opponents", enabled=progress):
        out.append(opponent(name, mode=mode, goal=goal, cache_dir=cache_dir))
    return out
