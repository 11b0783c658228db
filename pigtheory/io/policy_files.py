"""Policy files: any policy, or the policy a result found, as JSON, CSV or ``.npy``.

Formats
-------
JSON (``.json``), every kind::

    {"format": "pigtheory-policy", "version": 1, "kind": "threshold_table",
     "rules": {"goal": 100, "die_faces": 6, "bust_face": 1, "players": 2, "dice": 1,
               "double_trouble": false, "face_points": null},
     "name": "best response", "axes": ["own", "other"], "params": {"clip": false},
     "arrays": {"table": [[22, 22, ...], ...]}}

``kind`` is one of :data:`pigtheory.io.kinds.KINDS`; ``rules`` may be ``null`` (not
recorded); ``arrays`` are nested lists, own score first (``axes`` names them); ``params`` the
scalar parameters (``{"n": 25}`` for ``hold_at``).

CSV (``.csv``), tables: optional ``#`` lines (``# kind: ...``, ``# rules: {...}``,
``# name: ...``), then a header naming the columns, then one row per entry: the axes
(``own``, ``other`` or ``other1``, ``other2``, ..., ``turn_total``, ``forced``) and the
value (``threshold``; ``threshold,weight`` for a mixed policy, one row per threshold it
plays; ``roll`` as 0 or 1). A bare integer matrix without a header is read as a two-player
threshold table ``table[own, other]`` (what ``numpy.savetxt`` writes).

NumPy (``.npy``), plain tables: an int array is a threshold table, a bool array a roll table
(or a stopping rule when the caller asks for one).

Every error names the file and the line, column or field, and says what was expected.
Nothing is unpickled, and a file that claims more data than it holds, or more than the
memory limit (:mod:`pigtheory.guard`), is refused before anything is allocated.

This module reads and writes through the format modules :mod:`~pigtheory.io.policy_json`,
:mod:`~pigtheory.io.policy_csv` and :mod:`~pigtheory.io.policy_npy`, and checks every policy
it reads against rules: the rules given, else those the file records, else the goal and the
players a table's shape implies.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from ..rules import Rules
from ..validation import check_path, check_type
from .atomic import atomic_write, check_readable_file, check_writable
from .kinds import KINDS, PolicyKind, kind_named, kind_of
from .policy_common import (
    POLICY_FORMAT,
    POLICY_SUFFIXES,
    POLICY_VERSION,
    axis_names,
    policy_fields,
    rules_from_dict,
    rules_to_dict,
)
from .policy_csv import read_csv, write_csv
from .policy_json import json_text, read_json
from .policy_npy import read_npy

__all__ = [
    "POLICY_FORMAT",
    "POLICY_VERSION",
    "POLICY_SUFFIXES",
    "write_policy",
    "read_policy",
    "read_policy_file",
    "policy_of",
    "rules_to_dict",
    "rules_from_dict",
    "axis_names",
]


def policy_of(obj: Any) -> Any:
    """The policy object of ``obj``: itself if it is a policy of a known kind, else the policy a
    result holds (threshold tables and roll tables wrapped in their policy class).

    Parameters
    ----------
    obj : policy, result or numpy.ndarray
        An int array is a threshold table, a bool array a roll table.

    Returns
    -------
    policy
        An instance of a class in :data:`~pigtheory.io.KINDS` (``ValueError`` if none fits).
    """
    if kind_of(obj) is not None:
        return obj
    if _is_multiplayer(obj) or _is_multiplayer(getattr(obj, "policy", None)):
        from ..policies.multiplayer import MultiplayerRollTable

        return MultiplayerRollTable.from_policy(obj)
    if isinstance(obj, np.ndarray):
        return _wrap_table(obj, "table")
    if hasattr(obj, "expand") and hasattr(obj, "states"):  # a reduced n-player solution
        obj = obj.expand()
    inner = getattr(obj, "policy", None)
    if inner is None:
        raise ValueError(
            f"policy: a {type(obj).__name__} holds no policy to write; save the whole result as .npz"
        )
    if kind_of(inner) is not None:
        return inner
    if isinstance(inner, np.ndarray):
        return _wrap_table(inner, f"{type(obj).__name__} policy")
    raise ValueError(f"policy: cannot write the policy of a {type(obj).__name__} ({type(inner).__name__})")


def _is_multiplayer(obj: Any) -> bool:
    """The compact policy of :func:`pigtheory.sequential.equilibrium` (packed roll bits and the
    mixed states), recognised by its fields (files do not import the solvers)."""
    return all(hasattr(obj, a) for a in ("roll_bits", "mixed_states", "mixed_prob", "rules"))


def _check_dense_size(obj: Any, suffix: str) -> None:
    """Refuse, before the dense table is built, a multiplayer policy whose text file would
    need more memory than the limit allows (:mod:`pigtheory.guard`)."""
    inner: Any = obj if _is_multiplayer(obj) else getattr(obj, "policy", None)
    if inner is None or not _is_multiplayer(inner):
        return
    from ..guard import Estimate, check_memory

    n, g = inner.rules.players, inner.rules.goal
    entries = g ** (n + 1)
    per = 8 + (64 if suffix == ".json" else 8 * (2 * n + 4))
    check_memory(
        Estimate(
            f"multiplayer policy file ({inner.rules}, {suffix})",
            entries,
            per * entries,
            "write the compact policy as .npz (pigtheory.save(eq.policy, 'policy.npz'))",
        )
    )


def _wrap_table(table: np.ndarray, name: str) -> Any:
    if table.dtype == bool:
        from ..policies.sequential import RollTable

        return RollTable(table, name=name)
    from ..policies import ThresholdTable

    return ThresholdTable(table, name=name)


def _validate(policy: Any, kind: PolicyKind, rules: Rules) -> None:
    """Raise ``ValueError`` unless ``policy`` is a valid policy of ``kind`` under ``rules``."""
    if kind.check == "multiplayer":
        policy.check(rules)
    elif kind.check == "roll":
        from ..policies.sequential import roll_tables

        if rules.players != 2:
            raise ValueError(
                f"a {kind.name} policy is for two-player sequential Pig, not {rules.players} players"
            )
        roll_tables(policy, rules)
    elif kind.check == "stopping":
        shape = (rules.goal,) * rules.players + (rules.goal,)
        table = getattr(policy, kind.arrays[0][0])  # roll (pure) or prob (behavioural)
        if table.shape not in (shape, (rules.goal, rules.goal)):
            raise ValueError(f"a {kind.name} for these rules has shape {shape}, got {table.shape}")
    elif kind.check == "mixture":
        from ..policies import as_mixture

        as_mixture(policy, rules)


def _check_weights(policy: Any, kind: PolicyKind) -> None:
    """A mixed policy's weights are a distribution at every state, whatever the rules."""
    if kind.name != "mixed":
        return
    w = np.asarray(policy.weights, dtype=float)
    if w.ndim < 2 or (w < 0).any() or not np.allclose(w.sum(axis=-1), 1.0, rtol=0, atol=1e-9):
        raise ValueError("weights: a mixed policy's weights must be >= 0 and sum to 1 at every state")


def _as_table(policy: Any, kind: PolicyKind, rules: Rules | None, path: Path) -> tuple[Any, PolicyKind]:
    """A policy defined by parameters, as the table it plays under ``rules`` (CSV and .npy)."""
    if kind.is_table:
        return policy, kind
    if rules is None:
        raise ValueError(f"{path}: a {kind.name} policy is a table only for given rules; pass rules=")
    if kind.sequential:
        from ..policies.sequential import RollTable, roll_tables

        tables = roll_tables(policy, rules)
        if tables.shape[0] != 1:
            raise ValueError(f"{path}: {policy} keeps a counter and is no single table; write it as .json")
        return RollTable(tables[0], name=str(policy)), KINDS["roll_table"]
    from ..policies import ThresholdTable

    return ThresholdTable(policy.table(rules), name=str(policy)), KINDS["threshold_table"]


def write_policy(obj: Any, path: str | os.PathLike, *, rules: Rules | None = None) -> Path:
    """Write a policy, or the policy of a result, to ``path`` (``.json``, ``.csv`` or ``.npy``).

    Parameters
    ----------
    obj : policy or result
        A policy of any kind in :data:`~pigtheory.io.kinds.KINDS`, a result with a ``policy``
        (its policy is written), or a plain table (int: thresholds; bool: roll table).
    path : path-like
        The suffix picks the format (module docstring); written atomically, mode 0644.
    rules : Rules, optional
        Recorded in the file and checked against the policy; default the result's rules.

    Returns
    -------
    pathlib.Path

    Raises
    ------
    ValueError
        An unknown suffix, an object without a policy, a policy that is not valid under the
        rules, or a format that cannot hold it (a mixed policy as ``.npy``).

    Examples
    --------
    >>> import tempfile
    >>> from pigtheory import hold_at, Rules
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     p = write_policy(hold_at(3), Path(folder) / "h.csv", rules=Rules(goal=4))
    ...     p.read_text().splitlines()[-3:]
    ['3,1,1', '3,2,1', '3,3,1']
    """
    path = check_writable(path, "path")  # a folder, a file in the way: before the work
    if path.suffix not in POLICY_SUFFIXES:
        raise ValueError(f"path: policy files end in {', '.join(POLICY_SUFFIXES)}, got {str(path)!r}")
    if rules is not None and not isinstance(rules, Rules):
        raise ValueError(f"rules must be a pigtheory.Rules or None, got {type(rules).__name__}")
    if rules is None:
        rules = getattr(obj, "rules", None)
    inferred = rules is None and isinstance(obj, np.ndarray) and path.suffix != ".npy"
    _check_dense_size(obj, path.suffix)
    policy = policy_of(obj)
    kind = kind_of(policy)
    if kind is None:
        raise ValueError(f"policy: no file format for a {type(policy).__name__}")
    if inferred:
        rules = _rules_of_shape(obj, policy, kind)
    if rules is not None:
        _validate(policy, kind, rules)
    if path.suffix == ".json":
        text = json_text(policy, kind, rules)

        def write_json(tmp: str) -> None:
            Path(tmp).write_text(text, encoding="utf-8")

        return atomic_write(path, write_json)
    policy, kind = _as_table(policy, kind, rules, path)
    arrays, params, name = policy_fields(policy, kind)
    if path.suffix == ".npy":
        if params.get("allow_pass"):
            raise ValueError(f"path: a {kind.name} policy with allow_pass=True; write it as .json or .csv")
        if len(arrays) != 1:
            raise ValueError(
                f"path: a {kind.name} policy has {len(arrays)} arrays; write it as .json or .csv"
            )
        (table,) = arrays.values()

        def save(tmp: str) -> None:
            with open(tmp, "wb") as f:
                np.save(f, table, allow_pickle=False)

        return atomic_write(path, save)
    return atomic_write(path, lambda tmp: write_csv(tmp, kind, arrays, params, name, rules))


def read_policy(
    path: str | os.PathLike,
    *,
    rules: Rules | None = None,
    kind: str | None = None,
    expected: type | None = None,
) -> Any:
    """Read a policy file (``.json``, ``.csv`` or ``.npy``; see the module docstring).

    Parameters
    ----------
    path : path-like
    rules : Rules, optional
        Check the policy against these rules (and, if the file records rules, that they are
        the same): the table's shape, thresholds in ``1..goal - own``, weights summing to 1.
        Without ``rules``, a table is checked against the rules the file records, or else
        against the goal and players its shape implies.
    kind : str, optional
        The kind to read a file that does not name one as (a bool ``.npy`` table:
        ``"roll_table"``, the default, or ``"stopping_rule"``).
    expected : type, optional
        Raise unless the policy is of this type (or a subclass).

    Returns
    -------
    policy
        Of the file's kind (:data:`~pigtheory.io.KINDS`), arrays read-only, own score first:
        a threshold table ``table[own, other, ...]``, a mixed policy's ``(..., S)`` arrays, a
        roll table ``roll[own, other, k(, l)]``.

    Raises
    ------
    ValueError
        Naming the file and the line, column or field, and what was expected.
    """
    return read_policy_file(path, rules=rules, kind=kind, expected=expected)[0]


def read_policy_file(
    path: str | os.PathLike,
    *,
    rules: Rules | None = None,
    kind: str | None = None,
    expected: type | None = None,
) -> tuple[Any, Rules | None]:
    """:func:`read_policy`, and the rules the file records (None if it records none).

    Parameters
    ----------
    path, rules, kind, expected
        As for :func:`read_policy`.

    Returns
    -------
    policy : policy
    file_rules : Rules or None
    """
    path = check_path("path", path)
    if rules is not None and not isinstance(rules, Rules):
        raise ValueError(f"rules must be a pigtheory.Rules or None, got {type(rules).__name__}")
    check_type("expected", expected)
    if path.suffix not in POLICY_SUFFIXES:
        raise ValueError(f"{path}: policy files end in {', '.join(POLICY_SUFFIXES)}")
    check_readable_file(path, "a policy file")
    if kind is not None:
        kind_named(kind, "kind")
    from ..guard import check_file_size

    size = path.stat().st_size
    if path.suffix == ".json":
        check_file_size(path, size, factor=40.0)  # Python lists of numbers: ~40 bytes a character
        policy, file_rules = read_json(path)
    elif path.suffix == ".csv":
        check_file_size(path, size, factor=20.0)
        policy, file_rules = read_csv(path, kind)
    else:
        policy, file_rules = read_npy(path, kind), None
    if expected is not None and not isinstance(policy, expected):
        raise ValueError(f"{path}: holds a {type(policy).__name__}, expected a {expected.__name__}")
    if rules is not None and file_rules is not None and file_rules != rules:
        raise ValueError(f"{path}: a policy for {file_rules}, but the rules here are {rules}")
    kind_obj = kind_of(policy)
    check = rules or file_rules or _implied_rules(policy, kind_obj)
    if kind_obj is not None:
        try:
            _check_weights(policy, kind_obj)
            if check is not None:
                _validate(policy, kind_obj, check)
        except ValueError as exc:
            raise ValueError(f"{path}: {exc}") from None
    return policy, file_rules


def _implied_rules(policy: Any, kind: PolicyKind | None) -> Rules | None:
    """Rules a table without recorded rules can be checked against: the goal is its size and
    the players its number of state axes (thresholds do not depend on the die)."""
    if kind is None or not kind.is_table:
        return None
    first = np.asarray(getattr(policy, kind.arrays[0][0]))
    if kind.check == "multiplayer":
        return Rules(goal=first.shape[0], players=first.ndim - 1) if 2 <= first.ndim - 1 <= 10 else None
    state_dims = first.ndim - (1 if kind.name == "mixed" or kind.check == "stopping" else 0)
    if state_dims < 1 or first.shape[0] < 1:
        return None
    if kind.sequential:
        return Rules(goal=first.shape[0])
    if kind.name == "mixed" and first.shape[0] == 1:  # broadcast over the own score
        return None
    return Rules(goal=first.shape[0], players=max(state_dims, 2))


def _rules_of_shape(table: np.ndarray, policy: Any, kind: PolicyKind) -> Rules | None:
    """The rules a bare table's shape gives (goal, players; one six-sided die), said in a
    warning: a file records the rules its policy is for, so that every command reads it at
    them (pass ``rules=`` for other dice). ``None`` when the shape gives none, or the table
    is not a valid policy under them (then nothing is recorded, as before)."""
    import warnings

    if table.ndim < 2 or len(set(table.shape)) != 1:
        return None
    g = table.shape[0]
    players = table.ndim - 1 if table.dtype == bool else table.ndim
    if players < 2:
        return None
    try:
        rules = Rules(goal=g, players=players)
        _validate(policy, kind, rules)
    except ValueError:
        return None
    warnings.warn(
        f"save: a bare table of shape {table.shape} records the rules {rules} (from its shape); "
        "pass rules= to record others",
        stacklevel=4,
    )
    return rules
