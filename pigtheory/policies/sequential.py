"""Policies of sequential Pig as roll tables, and the practical policies of Neller & Presser.

Shapes
------
A roll table is a bool array ``roll[c, i, j, k]``: roll (True) or hold at own score i,
opponent's score j, turn total k, for each value ``c`` of a counter the policy keeps (only
"t scoring turns" keeps one: the number of turns it has scored so far; every other policy has
a single counter value, ``c = 0``). States with ``i + k >= goal`` hold (and win).

Practical policies (one die; "100" of the slides is the goal)
-------------------------------------------------------------
``hold_at(n)``
    Roll while ``k < min(n, goal - i)``.
:func:`scoring_turns` (t)
    Hold at ``h = floor((goal - i) / (t - t_s))`` with ``t_s`` the scoring turns so far
    (at least 1; once ``t_s >= t - 1`` it rolls for the goal).
:func:`base_pace_race` (b, p, e)
    Roll if ``k < b``, or ``i + k < j - p``, or ``i >= goal - e`` or ``j >= goal - e``.
:func:`pace_race` (c, d, e)
    Roll if ``i >= goal - e`` or ``j >= goal - e``, or ``k < c + m / d`` with m the multiple
    of d closest to ``j - i`` (the greater one when halfway): hold at
    ``c + floor((j - i) / d + 1/2)``.

References
----------
T. W. Neller and C. G. M. Presser, "Practical play of the dice game Pig", The UMAP Journal
31 (2010); slides "Perspectives on perfect and practical play of Pig": "t scoring turns",
"Score base, keep pace, end race", "Keep pace and end race".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..display import Display
from ..results import Saveable
from ..rules import Rules, integral
from ..validation import check_rules
from . import HoldAt, ThresholdTable

__all__ = [
    "RollTable",
    "roll_table",
    "ScoringTurns",
    "BasePaceRace",
    "PaceRace",
    "scoring_turns",
    "base_pace_race",
    "pace_race",
]


def _grid(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    g = rules.goal
    i = np.arange(g)[:, None, None]
    j = np.arange(g)[None, :, None]
    k = np.arange(g)[None, None, :]
    return i, j, k, (i + k) < g


def _check_int(owner: Any, name: str, low: int) -> None:
    """The integer field ``name`` of a frozen policy, stored as a Python int (``2.0`` is 2)."""
    v = integral(getattr(owner, name))
    if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {v!r}")
    object.__setattr__(owner, name, int(v))


@dataclass(frozen=True)
class ScoringTurns(Display):
    """ "t scoring turns": hold at ``floor((goal - i) / (t - t_s))``, ``t_s`` = turns scored.

    Neller & Presser's slides, "t Scoring Turns" (Figure 4; t = 4 concedes 3.3% to optimal
    play).

    Parameters
    ----------
    t : int
        Turns to reach the goal in, ``>= 1``. The policy keeps a counter ``t_s`` in
        ``0..t - 1``: its roll tables have shape ``(t, goal, goal, goal)``.
    """

    t: int

    def __post_init__(self) -> None:
        _check_int(self, "t", 1)

    def roll_table(self, rules: Rules) -> np.ndarray:
        """The policy's roll tables for ``rules``: bool, shape ``(t, goal, goal, goal)``,
        ``roll[t_s, i, j, k]``."""
        i, _, k, live = _grid(rules)
        tables = []
        for ts in range(self.t):
            h = np.maximum((rules.goal - i) // max(self.t - ts, 1), 1)
            tables.append(np.broadcast_to(live & (k < h), (rules.goal,) * 3))
        return np.stack(tables)

    def __str__(self) -> str:
        return f"{self.t} scoring turns"


@dataclass(frozen=True)
class BasePaceRace(Display):
    """ "Score base, keep pace, end race" with parameters b, p, e (Neller & Presser's slides,
    "Score Base, Keep Pace, End Race": b = 19, p = 14, e = 31 concede 1.9%).

    Parameters
    ----------
    b : int
        Roll while the turn total is below the base b.
    p : int
        Roll while ``i + k < j - p`` (keep within p of the opponent).
    e : int
        Roll for the goal once either score is at least ``goal - e``.
    """

    b: int
    p: int
    e: int

    def __post_init__(self) -> None:
        for name in ("b", "p", "e"):
            _check_int(self, name, 0)

    def roll_table(self, rules: Rules) -> np.ndarray:
        """The policy's roll tables for ``rules``: bool, shape ``(1, goal, goal, goal)``,
        ``roll[c, i, j, k]``."""
        i, j, k, live = _grid(rules)
        g = rules.goal
        r = (k < self.b) | (i + k < j - self.p) | (i >= g - self.e) | (j >= g - self.e) | (k == 0)
        return (live & r)[None]

    def __str__(self) -> str:
        return f"score base {self.b}, keep pace {self.p}, end race {self.e}"


@dataclass(frozen=True)
class PaceRace(Display):
    """ "Keep pace and end race" with parameters c, d, e (rounded division; Neller & Presser's
    slides, "Keep Pace and End Race": c = 21, d = 8, e = 29 concede 0.922%).

    Parameters
    ----------
    c : int
        The base hold value.
    d : int
        Divisor of the score difference, ``>= 1``: hold at ``c + round((j - i) / d)``.
    e : int
        Roll for the goal once either score is at least ``goal - e``.
    """

    c: int
    d: int
    e: int

    def __post_init__(self) -> None:
        _check_int(self, "c", 0)
        _check_int(self, "d", 1)
        _check_int(self, "e", 0)

    def hold_value(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """``c + m / d``, m the multiple of d nearest ``j - i`` (the greater one on ties).

        Parameters
        ----------
        i, j : numpy.ndarray of int
            Own and opponent's scores (broadcast together).

        Returns
        -------
        numpy.ndarray of int
            The hold value, of the broadcast shape.
        """
        return self.c + np.floor((j - i) / self.d + 0.5).astype(np.int64)

    def roll_table(self, rules: Rules) -> np.ndarray:
        """The policy's roll tables for ``rules``: bool, shape ``(1, goal, goal, goal)``,
        ``roll[c, i, j, k]``."""
        i, j, k, live = _grid(rules)
        g = rules.goal
        r = (i >= g - self.e) | (j >= g - self.e) | (k < self.hold_value(i, j)) | (k == 0)
        return (live & r)[None]

    def __str__(self) -> str:
        return f"keep pace {self.c}/{self.d}, end race {self.e}"


@dataclass(frozen=True, eq=False)
class RollTable(Saveable):
    """Any stationary policy as a table: ``roll[i, j, k]`` True where the player rolls.

    Parameters
    ----------
    roll : array_like of bool, shape ``(goal, goal, goal)`` or ``(goal, goal, goal, 2)``
        Own score i, opponent's score j, turn total k, own score first. A last axis of 2
        (Double Trouble) holds the free choice (``l = 0``) and the forced roll after a double
        (``l = 1``); only the free choice is a decision. 0/1 integers are accepted. The table
        is copied and made read-only; entries with ``i + k >= goal`` are ignored (the player
        has won).
    name : str
        Shown by ``str(policy)``.
    """

    roll: np.ndarray
    name: str = "roll table"

    def __post_init__(self) -> None:
        t = np.array(self.roll)
        if t.dtype != bool:
            if t.dtype.kind not in "iu" or not np.isin(t, (0, 1)).all():
                raise ValueError("roll: a roll table holds booleans (or 0 and 1)")
            t = t.astype(bool)
        g = t.shape[0] if t.ndim else 0
        if t.ndim not in (3, 4) or t.shape[:3] != (g, g, g) or g < 1 or (t.ndim == 4 and t.shape[3] != 2):
            raise ValueError(
                f"roll: a roll table has shape (goal, goal, goal) or (goal, goal, goal, 2), got {t.shape}"
            )
        t.setflags(write=False)
        object.__setattr__(self, "roll", t)

    def roll_table(self, rules: Rules) -> np.ndarray:
        """The free choice as one roll table for ``rules``: bool, shape
        ``(1, goal, goal, goal)`` (``ValueError`` for another goal)."""
        g = rules.goal
        if self.roll.shape[0] != g:
            raise ValueError(
                f"policy: a roll table for goal {g} has shape {(g, g, g)}, got {self.roll.shape}"
                + table_shape_hint(self.roll.shape, rules)
            )
        free = self.roll[..., 0] if self.roll.ndim == 4 else self.roll
        return (free & _grid(rules)[3])[None]

    def __str__(self) -> str:
        return self.name


def scoring_turns(t: int) -> ScoringTurns:
    """The "t scoring turns" policy (Neller & Presser 2010; slides "t Scoring Turns").

    Parameters
    ----------
    t : int
        ``>= 1``; the slides' best is t = 4.

    Returns
    -------
    ScoringTurns
        A policy with a counter (the turns scored so far): roll tables of shape
        ``(t, goal, goal, goal)``.
    """
    return ScoringTurns(t)


def base_pace_race(b: int = 19, p: int = 14, e: int = 31) -> BasePaceRace:
    """ "Score base, keep pace, end race"; defaults are the slides' optimised parameters.

    Parameters
    ----------
    b, p, e : int
        Base, pace and end-race margin, each ``>= 0`` (:class:`BasePaceRace`).

    Returns
    -------
    BasePaceRace
    """
    return BasePaceRace(b, p, e)


def pace_race(c: int = 21, d: int = 8, e: int = 29) -> PaceRace:
    """ "Keep pace and end race"; defaults are the slides' optimised parameters.

    Parameters
    ----------
    c, d, e : int
        Base hold value, divisor (``>= 1``) and end-race margin (:class:`PaceRace`).

    Returns
    -------
    PaceRace

    Examples
    --------
    >>> int(pace_race().hold_value(np.array(50), np.array(60)))  # 10: nearest multiple 8
    22
    >>> int(pace_race().hold_value(np.array(50), np.array(62)))  # 12: halfway, the greater 16
    23
    """
    return PaceRace(c, d, e)


def roll_table(policy: Any, rules: Rules) -> np.ndarray:
    """A policy's roll table ``roll[i, j, k]`` (policies without a counter).

    Parameters
    ----------
    policy : policy
        A sequential solution (its ``policy``; Double Trouble: the free choice ``l = 0``),
        :func:`pigtheory.hold_at` or an int n, a threshold table ``t[i, j]`` (hold at
        ``t[i, j]``), a :class:`RollTable`, a bool array of shape ``(goal,) * 3`` and the
        practical policies of this module.
    rules : Rules

    Returns
    -------
    numpy.ndarray of bool, shape ``(goal, goal, goal)``
        ``roll[i, j, k]``: roll at own score i, opponent j, turn total k; False where
        ``i + k >= goal``.

    Raises
    ------
    ValueError
        A policy that keeps a counter (:func:`scoring_turns` with t > 1), or a table of the
        wrong shape.
    """
    check_rules(rules)
    tables = roll_tables(policy, rules)
    if tables.shape[0] != 1:
        raise ValueError(f"policy: {policy} keeps a counter; use roll_tables")
    return tables[0]


def roll_tables(policy: Any, rules: Rules) -> np.ndarray:
    """All roll tables ``roll[c, i, j, k]`` of a policy (see the module docstring)."""
    if isinstance(policy, type):
        raise ValueError(f"policy: the class {policy.__name__}, not a policy; pass an instance (hold_at(25))")
    g = rules.goal
    if isinstance(policy, (int, np.integer)) and not isinstance(policy, bool):
        policy = HoldAt(int(policy))
    if isinstance(policy, HoldAt):
        i, _, k, live = _grid(rules)
        return np.broadcast_to(live & (k < np.minimum(policy.n, g - i)), (g, g, g))[None].copy()
    if hasattr(policy, "roll_table"):
        return np.asarray(policy.roll_table(rules), dtype=bool)
    if isinstance(policy, ThresholdTable):  # hold at table[i, j]: roll while k is below it
        t = policy.table
        if t.shape not in ((g, g), (g,)):
            raise ValueError(f"policy: a threshold table for goal {g} has shape {(g, g)}, got {t.shape}")
        i, j, k, live = _grid(rules)
        hold = t.reshape(t.shape + (1,) * (2 - t.ndim))[:, :, None]
        return np.broadcast_to(live & (k < np.minimum(hold, g - i)), (g, g, g))[None].copy()
    inner = getattr(policy, "policy", None)
    if inner is not None and getattr(policy, "rules", rules) != rules:
        raise ValueError(f"policy: solved for {policy.rules}, not for {rules}")
    table = np.asarray(inner if inner is not None else policy)
    if table.dtype != bool:
        raise ValueError(f"policy: cannot read {type(policy).__name__} as a sequential policy")
    if table.ndim == 4 and table.shape[-1] == 2:
        table = table[..., 0]
    if table.shape != (g, g, g):
        raise ValueError(
            f"policy: a roll table for goal {g} has shape {(g, g, g)}, got {table.shape}"
            + table_shape_hint(table.shape, rules)
        )
    _, _, _, live = _grid(rules)
    return (table & live)[None]


def table_shape_hint(shape: tuple[int, ...], rules: Rules) -> str:
    """What a state table of another shape than ``rules`` wants probably is, and what to pass
    instead: a Q-table (last axis 2), a table of another goal or of another number of players
    (``""`` when nothing fits)."""
    n = rules.players
    if len(shape) == n + 2 and shape[-1] == 2:
        return (
            "; a table with a last axis of 2 looks like a Q-table (hold, roll): "
            "pigtheory.envs.agents.sequential_agent_table(q, rules=rules) makes the agent's roll table"
        )
    if len(shape) == n + 1 and len(set(shape)) == 1 and shape[0] != rules.goal:
        return f"; this table is for goal {shape[0]}: pass rules=Rules(goal={shape[0]}, ...)"
    if len(shape) != n + 1 and len(shape) >= 3 and len(set(shape)) == 1:
        return f"; a table of {len(shape) - 1} players: pass rules=Rules(players={len(shape) - 1}, ...)"
    return ""
