"""Policy tables published with the papers, read as :class:`~pigtheory.policies.ThresholdTable`.

The web app of Zhu, Ma, Chen & Liu (https://luchencatherine.github.io/pig-game, repository
LuchenCatherine/pig-game, MIT licence) plays against six tables, three for simultaneous and
three for sequential Pig ("easy", "normal", "hard"), each indexed ``[bot score][human score]``
and giving the turn total at which the bot holds (goal 100). That is our own-score-first
convention, so a table is used as it stands.

The JSON copy lives outside the package, in ``../shared/external/`` of the working tree, or
wherever ``$PIGTHEORY_WEBAPP_JSON`` points.

Shapes
------
Each table: ``(100, 100)``, ``table[own, opponent]`` in ``1..100 - own``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .policies import ThresholdTable
from .rules import Rules

__all__ = ["PublishedTables", "webapp_policies", "webapp_json_path", "SIMULTANEOUS_TABLES"]

SIMULTANEOUS_TABLES = ("action_simul_easy", "action_simul_normal", "action_simul_hard")


@dataclass(frozen=True, eq=False)
class PublishedTables:
    """Tables read from a published file.

    Attributes
    ----------
    tables : dict of str to ThresholdTable
        Valid for ``rules`` (thresholds moved into ``1..goal - own``).
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


def webapp_json_path() -> Path:
    """Where the web app's tables are read from (``$PIGTHEORY_WEBAPP_JSON`` first)."""
    env = os.environ.get("PIGTHEORY_WEBAPP_JSON")
    if env:
        return Path(env)
    return (
        Path(__file__).resolve().parents[1].parent / "shared" / "external" / "scirep2023_webapp_policies.json"
    )


def webapp_policies(path: str | os.PathLike | None = None, rules: Rules = Rules()) -> PublishedTables:
    """The six policy tables of the paper's web app.

    Parameters
    ----------
    path : path, optional
        The JSON file (default :func:`webapp_json_path`): ``{"source": str, "tables":
        {name: [[int] * goal] * goal}}``.
    rules : Rules
        Two players; the tables' size must be the goal (100).

    Returns
    -------
    PublishedTables

    Raises
    ------
    ValueError
        A table that is not ``goal x goal``.

    Examples
    --------
    >>> webapp_json_path().name
    'scirep2023_webapp_policies.json'
    >>> pub = webapp_policies()  # doctest: +SKIP
    >>> pub.tables["action_simul_hard"].table[0, 0], pub.clipped["action_simul_hard"]  # doctest: +SKIP
    (21, 0)
    """
    path = Path(path) if path is not None else webapp_json_path()
    if not path.exists():
        raise ValueError(f"path: no published tables at {path} (set PIGTHEORY_WEBAPP_JSON)")
    data = json.loads(path.read_text())
    g = rules.goal
    own = np.arange(g)[:, None]
    out = PublishedTables(source=str(data.get("source", "")))
    for name, rows in data["tables"].items():
        t = np.asarray(rows, dtype=np.int64)
        if t.shape != (g, g):
            raise ValueError(f"path: table {name!r} has shape {t.shape}, rules need ({g}, {g})")
        out.clipped[name] = int((t > g - own).sum())
        out.raised[name] = int((t < 1).sum())
        t = np.clip(t, 1, g - own)
        out.tables[name] = ThresholdTable(t, name=f"web app {name.removeprefix('action_')}")
    return out
