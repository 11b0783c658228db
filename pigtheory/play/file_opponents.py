"""Opponents from files: any policy or result that pigtheory saved.

:func:`opponents_from_file` reads a ``--policy FILE`` (with the rules it records, through
:func:`pigtheory.io.load_with_rules`, as the command line does) and turns what it holds into
opponents for every mode it fits.
"""

from __future__ import annotations

import hashlib
import os
import re
from typing import Any

import numpy as np

from ..io import load_with_rules
from ..policies import HoldAt, MixedPolicy, ThresholdTable, as_mixture
from ..policies.sequential import RollTable, roll_table
from ..rules import Rules
from ..validation import check_choice, check_int, check_optional_path, check_path
from .game import MODES
from .opponents import MAX_GOAL, Opponent, sequential_opponent, simultaneous_opponent

__all__ = ["opponents_from_file"]


def opponents_from_file(
    path: str | os.PathLike, *, mode: str | None = None, goal: int | None = None, cache_dir: Any = None
) -> list[Opponent]:
    """Opponents playing the policy in a file, in every mode it fits (or in ``mode``).

    A sequential solution or a bool roll table plays sequential Pig; a mixed policy or a
    simultaneous solver's result plays simultaneous Pig; a threshold table (or hold at n) plays
    both, sequentially as "roll while the turn total is below the threshold". The goal is the
    policy's own (``goal`` is needed for hold at n only).

    Parameters
    ----------
    path : path-like
        Read by :func:`pigtheory.io.load_with_rules`.
    mode : {"sequential", "simultaneous"}, optional
        Only this mode; default every mode the policy fits.
    goal : int, optional
        Hold at n only: the goal to play to (default 100).
    cache_dir : path-like, optional
        Where the best responses are cached (keyed by the file's contents).

    Returns
    -------
    list of Opponent
        One per mode, sequential tables ``(goal, goal, goal)``, simultaneous ``(goal, goal, S)``.

    Raises
    ------
    ValueError
        The file holds nothing pigtheory can play, or nothing in ``mode``.
    """
    path = check_path("path", path)
    if mode is not None:
        check_choice("mode", mode, MODES)
    check_optional_path("cache_dir", cache_dir)
    if goal is not None:
        goal = check_int("goal", goal, low=1, high=MAX_GOAL)
    obj, rules = load_with_rules(path)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    stem = re.sub(r"[^a-z0-9-]+", "-", path.stem.lower()) or "policy"
    name = f"file-{stem}"
    label = path.name
    about = f"The policy saved in {path.name} ({type(obj).__name__})."
    params = {"name": name, "sha256": digest}
    inner = getattr(obj, "policy", obj)
    if isinstance(inner, RollTable):  # a sequential policy file (.json, .csv, .npy)
        inner = np.asarray(inner.roll)
    found: list[Opponent] = []
    want = MODES if mode is None else (mode,)
    if isinstance(inner, np.ndarray) and inner.dtype == bool:
        if "sequential" in want:
            rules = rules or Rules(goal=inner.shape[0])
            roll = inner[..., 0] if inner.ndim == 4 else inner
            found.append(sequential_opponent(name, label, about, rules, roll, params, cache_dir))
    else:
        if isinstance(inner, np.ndarray):
            inner = ThresholdTable(inner, name=label)
        if isinstance(inner, HoldAt):
            rules = rules or Rules(goal=goal or 100)
        elif isinstance(inner, ThresholdTable):
            rules = rules or Rules(goal=inner.table.shape[0])
        elif isinstance(inner, MixedPolicy):
            rules = rules or Rules(goal=np.shape(inner.thresholds)[0])
        else:
            raise ValueError(f"policy: {path} holds a {type(obj).__name__}, not a policy pigtheory can play")
        if "simultaneous" in want and rules.dice == 1:
            found.append(simultaneous_opponent(name, label, about, rules, inner, params, cache_dir))
        if "sequential" in want and not isinstance(inner, MixedPolicy):
            table = (
                inner.table(rules)
                if isinstance(inner, HoldAt)
                else as_mixture(inner, rules).full_thresholds()
            )
            found.append(
                sequential_opponent(
                    name, label, about, rules, roll_table(ThresholdTable(table), rules), params, cache_dir
                )
            )
    if not found:
        raise ValueError(f"policy: {path} cannot play {' or '.join(want)} Pig")
    return found
