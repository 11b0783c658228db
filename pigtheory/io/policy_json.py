"""Policy files as JSON: every kind, with the rules, the version, the axes and the arrays.

Layout (see :mod:`pigtheory.io.policy_files`)::

    {"format": "pigtheory-policy", "version": 1, "kind": "threshold_table", "rules": {...},
     "name": "...", "axes": ["own", "other"], "params": {"clip": false},
     "arrays": {"table": [[22, 22, ...], ...]}}

Arrays are written one row per own score; reading checks the element types (no booleans among
integers, no NaN, integers that are integers) and that rows are of equal length.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from ..rules import Rules
from .kinds import KINDS, PolicyKind, kind_named
from .policy_common import (
    POLICY_FORMAT,
    POLICY_VERSION,
    axis_names,
    build_policy,
    extra_dims,
    json_type,
    policy_fields,
    reject_constant,
    rules_from_dict,
    rules_to_dict,
)

__all__ = ["json_text", "read_json"]


def json_text(policy: Any, kind: PolicyKind, rules: Rules | None) -> str:
    """The JSON policy file of ``policy`` (see :mod:`pigtheory.io.policy_files`), one line per
    own score.

    Parameters
    ----------
    policy : policy
        An instance of ``kind``'s class.
    kind : PolicyKind
    rules : Rules or None
        Recorded (``null`` when None).

    Returns
    -------
    str
    """
    arrays, params, name = policy_fields(policy, kind)
    head: dict[str, Any] = {
        "format": POLICY_FORMAT,
        "version": POLICY_VERSION,
        "kind": kind.name,
        "rules": None if rules is None else rules_to_dict(rules),
    }
    if name is not None:
        head["name"] = name
    if arrays:
        first = next(iter(arrays.values()))
        extra = ("component",) if kind.name == "mixed" else kind.extra_axes
        n_state = first.ndim - (1 if kind.name == "mixed" else extra_dims(kind, first))
        head["axes"] = axis_names(n_state, extra[: first.ndim - n_state])
    head["params"] = params
    lines = ["{"] + [f" {json.dumps(k)}: {json.dumps(v, allow_nan=False)}," for k, v in head.items()]
    lines.append(' "arrays": {')
    for n, (key, arr) in enumerate(arrays.items()):
        rows = arr.tolist()
        if arr.ndim >= 2:  # one line per own score
            body = "[" + ",\n   ".join(json.dumps(r, separators=(",", ":")) for r in rows) + "]"
        else:
            body = json.dumps(rows, separators=(",", ":"))
        comma = "," if n < len(arrays) - 1 else ""
        lines.append(f"  {json.dumps(key)}: {body}{comma}")
    lines.append(" }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def read_json(path: Path) -> tuple[Any, Rules | None]:
    """Read a JSON policy file.

    Parameters
    ----------
    path : pathlib.Path

    Returns
    -------
    policy : policy
        Of the kind the file names, not yet checked against rules.
    rules : Rules or None
        The rules the file records.
    """
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 text (byte {exc.start}); expected a JSON policy file") from None
    try:
        doc = json.loads(text, parse_constant=reject_constant)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: line {exc.lineno}, column {exc.colno}: invalid JSON ({exc.msg})") from None
    except ValueError as exc:
        raise ValueError(f"{path}: invalid JSON ({exc})") from None
    except RecursionError:
        raise ValueError(f"{path}: invalid JSON (nested too deeply)") from None
    if not isinstance(doc, dict):
        raise ValueError(f'{path}: expected a JSON object {{"kind": ..., ...}}, got {json_type(doc)}')
    fmt = doc.get("format", POLICY_FORMAT)
    if fmt != POLICY_FORMAT:
        raise ValueError(f"{path}: field format: expected {POLICY_FORMAT!r}, got {fmt!r}")
    if "kind" not in doc:
        known = ", ".join(sorted(KINDS))
        raise ValueError(f"{path}: not a pigtheory policy file: no field 'kind' (expected one of {known})")
    kind = kind_named(doc["kind"], f"{path}: field kind")
    version = doc.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= POLICY_VERSION:
        raise ValueError(
            f"{path}: field version: expected an integer 1..{POLICY_VERSION} (this pigtheory's format), "
            f"got {version!r}"
        )
    allowed = {"format", "version", "kind", "rules", "name", "axes", "params", "arrays"}
    for key in doc:
        if key not in allowed:
            raise ValueError(f"{path}: unknown field {key!r} (expected {', '.join(sorted(allowed))})")
    rules = rules_from_dict(doc.get("rules"), f"{path}: field rules")
    params = doc.get("params", {})
    if not isinstance(params, dict):
        raise ValueError(f"{path}: field params: expected an object, got {json_type(params)}")
    for key, value in params.items():
        if key not in kind.params:
            raise ValueError(f"{path}: field params.{key}: a {kind.name} has parameters {list(kind.params)}")
        if not isinstance(value, (int, bool)):
            raise ValueError(f"{path}: field params.{key}: expected an integer, got {json_type(value)}")
    arrays_doc = doc.get("arrays", {})
    if not isinstance(arrays_doc, dict):
        raise ValueError(f"{path}: field arrays: expected an object, got {json_type(arrays_doc)}")
    arrays = {}
    for key, typ in kind.arrays:
        if key not in arrays_doc:
            raise ValueError(
                f"{path}: field arrays.{key} is missing (a {kind.name} needs {typ} array {key!r})"
            )
        arrays[key] = _json_array(arrays_doc[key], typ, f"{path}: field arrays.{key}")
    for key in arrays_doc:
        if key not in arrays:
            raise ValueError(
                f"{path}: field arrays.{key}: a {kind.name} has arrays {[a for a, _ in kind.arrays]}"
            )
    if "axes" in doc and arrays:
        arrays = _in_own_first_order(arrays, doc["axes"], kind, f"{path}: field axes")
    return build_policy(kind, arrays, params, doc.get("name"), path, f"kind {kind.name}"), rules


def _canonical_axes(kind: PolicyKind, arr: np.ndarray) -> list[str]:
    """The axis names :func:`json_text` writes for an array of ``kind`` (own score first)."""
    extra = ("component",) if kind.name == "mixed" else kind.extra_axes
    n_state = arr.ndim - (1 if kind.name == "mixed" else extra_dims(kind, arr))
    return axis_names(n_state, extra[: arr.ndim - n_state])


def _in_own_first_order(arrays: dict[str, np.ndarray], axes: Any, kind: PolicyKind, where: str) -> dict:
    """Honour a file's ``axes``: arrays stored in another axis order are transposed to own
    score first; names that are not this kind's axes are refused (never silently ignored)."""
    first = next(iter(arrays.values()))
    want = _canonical_axes(kind, first)
    if not isinstance(axes, list) or not all(isinstance(a, str) for a in axes):
        raise ValueError(f"{where}: expected a list of axis names such as {want}, got {json_type(axes)}")
    if sorted(axes) != sorted(want) or len(set(axes)) != len(axes):
        raise ValueError(f"{where}: the arrays have axes {want} (in some order), the file says {axes}")
    if axes == want:
        return arrays
    order = [axes.index(a) for a in want]
    return {key: np.ascontiguousarray(np.transpose(arr, order)) for key, arr in arrays.items()}


def _json_array(data: Any, typ: str, where: str) -> np.ndarray:
    if not isinstance(data, list) or not data:
        raise ValueError(
            f"{where}: expected a non-empty (nested) list of {typ} values, got {json_type(data)}"
        )
    try:
        arr = np.asarray(data)
    except (ValueError, TypeError):
        raise ValueError(f"{where}: rows of different lengths (expected a rectangular array)") from None
    if arr.dtype.kind not in "biuf" or arr.size == 0:
        raise ValueError(f"{where}: expected {typ} values in nested lists of equal length")
    leaves: Any = data
    for _ in range(arr.ndim - 1):
        leaves = [x for row in leaves for x in row]
    types = set(map(type, leaves))
    if typ == "bool":
        if types == {bool}:
            return arr
        if types == {int} and np.isin(arr, (0, 1)).all():
            return arr.astype(bool)
        raise ValueError(f"{where}: expected true/false (or 0/1) values")
    if bool in types:
        raise ValueError(f"{where}: expected numbers, found true/false")
    if not np.isfinite(arr).all():
        raise ValueError(f"{where}: expected finite numbers")
    if typ == "int":
        if types != {int} and not np.array_equal(arr, np.round(arr)):
            bad = arr.reshape(-1)[np.flatnonzero(arr.reshape(-1) != np.round(arr.reshape(-1)))[0]]
            raise ValueError(f"{where}: expected integers, found {bad!r}")
        if np.abs(arr).max() > 2**62:
            raise ValueError(f"{where}: integers out of range")
        return arr.astype(np.int64)
    return arr.astype(float)
