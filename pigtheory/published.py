"""Policy tables published with the papers, read as :class:`~pigtheory.policies.ThresholdTable`.

The web app of Zhu, Ma, Chen & Liu (https://luchencatherine.github.io/pig-game, repository
LuchenCatherine/pig-game, MIT licence) plays against six tables, three for simultaneous and
three for sequential Pig ("easy", "normal", "hard"), each indexed ``[bot score][human score]``
and giving the turn total at which the bot holds (goal 100). That is our own-score-first
convention, so a table is used as it stands.

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

import numpy as np

from .policies import ThresholdTable
from .results import Saveable
from .rules import Rules
from .validation import check_optional_path, check_rules

__all__ = ["PublishedTables", "webapp_policies", "webapp_json_path", "SIMULTANEOUS_TABLES", "WEBAPP_FILE"]

SIMULTANEOUS_TABLES = ("action_simul_easy", "action_simul_normal", "action_simul_hard")
"""The web app's three simultaneous-play tables, easy to hard, by their key in the JSON file."""
WEBAPP_FILE = "scirep2023_webapp_policies.json"
"""The file in ``pigtheory/data/`` that holds the web app's tables."""


@dataclass(frozen=True, eq=False)
class PublishedTables(Saveable):
    """Tables read from a published file (a data set, not a solver's result).

    Attributes
    ----------
    tables : dict of str to ThresholdTable
        Valid for the rules they were read for (thresholds moved into ``1..goal - own``).
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
    >>> int(pub.tables["action_simul_hard"].table[0, 0]), pub.clipped["action_simul_hard"]
    (21, 0)
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
    for name, rows in items:
        t = np.asarray(rows, dtype=np.int64)
        if t.shape != (g, g):
            raise ValueError(f"path: table {name!r} has shape {t.shape}, rules need ({g}, {g})")
        clipped[name] = int((t > g - own).sum())
        raised[name] = int((t < 1).sum())
        t = np.clip(t, 1, g - own)
        tables[name] = ThresholdTable(t, name=f"web app {name.removeprefix('action_')}")
    return PublishedTables(tables, clipped, raised, str(data.get("source", "")))
