"""Policy tables published with the papers, read as :class:`~pigtheory.policies.ThresholdTable`.

The web app of Zhu, Ma, Chen & Liu (https://luchencatherine.github.io/pig-game, repository
LuchenCatherine/pig-game, MIT licence) plays against six tables, three for simultaneous and
three for sequential Pig ("easy", "normal", "hard"), each indexed ``[bot score][human score]``
and giving the turn total at which the bot holds (goal 100). That is our own-score-first
convention, so a table is used as it stands.

Each table has one name everywhere, ``webapp-<mode>-<level>``: ``webapp-simultaneous-hard``,
``webapp-sequential-easy``, ... (:data:`TABLE_NAMES`): the keys of
:attr:`PublishedTables.tables`, :func:`published_table`, ``pigtheory play --opponent`` and
``pigtheory exploitability``. The older names still work wherever a name is read: the JSON
file's keys (``action_simul_hard``) and, where the mode is known (``pigtheory play``), the
short ``webapp-hard``.

A JSON copy of the tables ships with the package, ``pigtheory/data/scirep2023_webapp_policies.json``
(source, commit and licence in ``pigtheory/data/README.md``), and is read with
:mod:`importlib.resources`; ``webapp_policies(path)`` reads another copy.

Shapes
------
Each table: ``(100, 100)``, ``table[own, opponent]`` in ``1..100 - own``.

References
----------
Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), Introduction (the online app);
LuchenCatherine/pig-game, ``index.html`` at commit f277c2a.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import numpy as np

from .policies import ThresholdTable
from .results import Saveable
from .rules import Rules
from .validation import check_optional_path, check_rules

__all__ = [
    "PublishedTables",
    "webapp_policies",
    "webapp_json_path",
    "published_table",
    "table_name",
    "TABLE_NAMES",
    "SIMULTANEOUS_TABLES",
    "WEBAPP_FILE",
]

_MODES = {"simultaneous": "simul", "sequential": "sequential"}  # mode -> its word in the file's keys
_LEVELS = ("easy", "normal", "hard")
TABLE_NAMES = {
    f"webapp-{mode}-{level}": f"action_{word}_{level}" for mode, word in _MODES.items() for level in _LEVELS
}
"""The one name of each published table -> its key in the JSON file (an old name, still read)."""
SIMULTANEOUS_TABLES = tuple(f"webapp-simultaneous-{level}" for level in _LEVELS)
"""The web app's three simultaneous-play tables, easy to hard."""
WEBAPP_FILE = "scirep2023_webapp_policies.json"
"""The file in ``pigtheory/data/`` that holds the web app's tables."""


def table_name(name: str, *, mode: str | None = None) -> str:
    """The one name of a published table (:data:`TABLE_NAMES`) from any name it goes by.

    Parameters
    ----------
    name : str
        ``webapp-simultaneous-hard`` (the name itself), ``action_simul_hard`` (the JSON file's
        key), or ``webapp-hard`` (the level only: needs ``mode``).
    mode : {"simultaneous", "sequential"}, optional
        The game, for a name that gives the level only.

    Raises
    ------
    ValueError
        A name of no published table, or a level-only name without ``mode``.

    Examples
    --------
    >>> table_name("action_simul_hard"), table_name("webapp-hard", mode="sequential")
    ('webapp-simultaneous-hard', 'webapp-sequential-hard')
    """
    if not isinstance(name, str):
        raise ValueError(f"name must be the name of a published table (text), got {name!r:.80}")
    if name in TABLE_NAMES:
        return name
    old = {key: new for new, key in TABLE_NAMES.items()}
    if name in old:
        return old[name]
    level = name.removeprefix("webapp-")
    if level in _LEVELS and name.startswith("webapp-"):
        if mode not in _MODES:
            raise ValueError(
                f"name: {name!r} gives the level only; say the mode: webapp-simultaneous-{level}"
            )
        return f"webapp-{mode}-{level}"
    raise ValueError(f"name: no published table {name!r}; the tables are {', '.join(TABLE_NAMES)}")


class _Names(dict):
    """A dict keyed by the tables' names that also answers to their older names."""

    def __missing__(self, key: Any) -> Any:
        try:
            new = table_name(key)
        except (ValueError, TypeError):
            raise KeyError(key) from None
        if new not in self:
            raise KeyError(key)
        return self[new]


@dataclass(frozen=True, eq=False)
class PublishedTables(Saveable):
    """Tables read from a published file (a data set, not a solver's result).

    Attributes
    ----------
    tables : dict of str to ThresholdTable
        By name (:data:`TABLE_NAMES`; a table of another file keeps its key; older names are
        answered too: ``tables["action_simul_hard"]``). Valid for the rules they were read for (thresholds moved into ``1..goal - own``).
    clipped : dict of str to int
        Per table, how many entries were above ``goal - own`` and were lowered to it (the
        same turn: a player holding at more than it needs holds on reaching the goal).
    raised : dict of str to int
        Per table, how many entries were below 1 (not a threshold) and were set to 1.
    source : str
        The file's own description of where the tables come from.
    """

    tables: dict = field(default_factory=dict)
    clipped: dict = field(default_factory=dict)
    raised: dict = field(default_factory=dict)
    source: str = ""

    def __post_init__(self) -> None:
        for name in ("tables", "clipped", "raised"):  # the older names keep working, loaded files too
            object.__setattr__(self, name, _Names(getattr(self, name)))


def webapp_json_path() -> Traversable:
    """The web app's tables shipped in the package (a :class:`pathlib.Path` when pigtheory is
    installed as files, as it is by pip)."""
    return files("pigtheory").joinpath("data", WEBAPP_FILE)


def webapp_policies(path: str | os.PathLike | None = None, *, rules: Rules = Rules()) -> PublishedTables:
    """The six policy tables of the paper's web app.

    Parameters
    ----------
    path : path, optional
        A JSON file ``{"source": str, "tables": {name: [[int] * goal] * goal}}``; default the
        copy shipped with the package (:func:`webapp_json_path`).
    rules : Rules
        Two players; the tables' size must be the goal (100).

    Returns
    -------
    PublishedTables

    Raises
    ------
    ValueError
        A missing or unreadable file, or a table that is not ``goal x goal``.

    Examples
    --------
    >>> pub = webapp_policies()
    >>> int(pub.tables["webapp-simultaneous-hard"].table[0, 0]), pub.clipped["webapp-simultaneous-hard"]
    (21, 0)
    >>> pub.tables["action_simul_hard"] is pub.tables["webapp-simultaneous-hard"]  # the older name
    True
    """
    check_optional_path("path", path)
    check_rules(rules)
    source: Traversable | Path = webapp_json_path() if path is None else Path(path)
    if not source.is_file():
        raise ValueError(f"path: no published tables at {source}")
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
        items = data["tables"].items()
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"path: {source} is not a JSON file of tables ({exc})") from None
    g = rules.goal
    own = np.arange(g)[:, None]
    tables, clipped, raised = {}, {}, {}
    old = {key: new for new, key in TABLE_NAMES.items()}
    for key, rows in items:
        name = old.get(key, key)
        t = np.asarray(rows, dtype=np.int64)
        if t.shape != (g, g):
            raise ValueError(f"path: table {name!r} has shape {t.shape}, rules need ({g}, {g})")
        clipped[name] = int((t > g - own).sum())
        raised[name] = int((t < 1).sum())
        t = np.clip(t, 1, g - own)
        tables[name] = ThresholdTable(t, name=name)
    return PublishedTables(tables, clipped, raised, str(data.get("source", "")))


def published_table(name: str, *, rules: Rules = Rules()) -> ThresholdTable:
    """One of the web app's tables by name (:data:`TABLE_NAMES`, or an older name).

    Parameters
    ----------
    name : str
        ``webapp-simultaneous-hard``, ``webapp-sequential-easy``, ... (or ``action_simul_hard``).
    rules : Rules
        Two players, goal 100.

    Returns
    -------
    ThresholdTable
        ``table[own, other]``, shape ``(100, 100)``.

    Examples
    --------
    >>> int(published_table("webapp-simultaneous-hard").table[0, 0])
    21
    """
    return webapp_policies(rules=rules).tables[table_name(name)]
