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
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from ..rules import Rules
from .atomic import atomic_write
from .kinds import KINDS, PolicyKind, has_name_field, kind_named, kind_of, policy_class

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

POLICY_FORMAT = "pigtheory-policy"
POLICY_VERSION = 1
POLICY_SUFFIXES = (".json", ".csv", ".npy")
_VALUE_COLUMNS = ("threshold", "weight", "roll")


# --- objects, kinds and rules -------------------------------------------------------------


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    """Every field of ``rules`` as JSON values."""
    out: dict[str, Any] = {f: getattr(rules, f) for f in rules.__dataclass_fields__}
    if out["face_points"] is not None:
        out["face_points"] = list(out["face_points"])
    return out


def rules_from_dict(data: Any, where: str) -> Rules | None:
    """Rules from their JSON form (``None`` stays None); errors name ``where`` and the field."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ValueError(f"{where}: expected an object of rules fields or null, got {_jtype(data)}")
    fields = Rules.__dataclass_fields__
    for key in data:
        if key not in fields:
            raise ValueError(f"{where}.{key}: unknown rules field (expected {', '.join(fields)})")
    kw = dict(data)
    if isinstance(kw.get("face_points"), list):
        kw["face_points"] = tuple(kw["face_points"])
    try:
        return Rules(**kw)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{where}: {exc}") from None


def axis_names(ndim: int, extra: tuple[str, ...] = ()) -> list[str]:
    """Column names of a table with ``ndim`` state axes (own score first), then ``extra``."""
    if ndim == 1:
        state = ["own"]
    elif ndim == 2:
        state = ["own", "other"]
    else:
        state = ["own"] + [f"other{n}" for n in range(1, ndim)]
    return state + list(extra)


def policy_of(obj: Any) -> Any:
    """The policy object of ``obj``: itself if it is a policy of a known kind, else the policy a
    result holds (threshold tables and roll tables wrapped in their policy class)."""
    if kind_of(obj) is not None:
        return obj
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


def _wrap_table(table: np.ndarray, name: str) -> Any:
    if table.dtype == bool:
        from ..sequential.policies import RollTable

        return RollTable(table, name=name)
    from ..policies import ThresholdTable

    return ThresholdTable(table, name=name)


def _validate(policy: Any, kind: PolicyKind, rules: Rules) -> None:
    """Raise ``ValueError`` unless ``policy`` is a valid policy of ``kind`` under ``rules``."""
    if kind.check == "roll":
        from ..sequential.policies import roll_tables

        if rules.players != 2:
            raise ValueError(
                f"a {kind.name} policy is for two-player sequential Pig, not {rules.players} players"
            )
        roll_tables(policy, rules)
    elif kind.check == "stopping":
        shape = (rules.goal,) * rules.players + (rules.goal,)
        if policy.roll.shape not in (shape, (rules.goal, rules.goal)):
            raise ValueError(f"a stopping rule for these rules has shape {shape}, got {policy.roll.shape}")
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


def _fields(policy: Any, kind: PolicyKind) -> tuple[dict[str, np.ndarray], dict[str, Any], str | None]:
    arrays = {a: np.asarray(getattr(policy, a)) for a, _ in kind.arrays}
    params = {p: _plain(getattr(policy, p)) for p in kind.params}
    name = getattr(policy, "name", None) if has_name_field(type(policy)) else None
    return arrays, params, name


def _plain(x: Any) -> Any:
    return x.item() if isinstance(x, np.generic) else x


def _as_table(policy: Any, kind: PolicyKind, rules: Rules | None, path: Path) -> tuple[Any, PolicyKind]:
    """A policy defined by parameters, as the table it plays under ``rules`` (CSV and .npy)."""
    if kind.is_table:
        return policy, kind
    if rules is None:
        raise ValueError(f"{path}: a {kind.name} policy is a table only for given rules; pass rules=")
    if kind.sequential:
        from ..sequential.policies import RollTable, roll_tables

        tables = roll_tables(policy, rules)
        if tables.shape[0] != 1:
            raise ValueError(f"{path}: {policy} keeps a counter and is no single table; write it as .json")
        return RollTable(tables[0], name=str(policy)), KINDS["roll_table"]
    from ..policies import ThresholdTable

    return ThresholdTable(policy.table(rules), name=str(policy)), KINDS["threshold_table"]


# --- writing ------------------------------------------------------------------------------


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
    path = Path(path)
    if path.suffix not in POLICY_SUFFIXES:
        raise ValueError(f"path: policy files end in {', '.join(POLICY_SUFFIXES)}, got {str(path)!r}")
    if rules is None:
        rules = getattr(obj, "rules", None)
    policy = policy_of(obj)
    kind = kind_of(policy)
    if kind is None:
        raise ValueError(f"policy: no file format for a {type(policy).__name__}")
    if rules is not None:
        _validate(policy, kind, rules)
    if path.suffix == ".json":
        text = _json_text(policy, kind, rules)

        def write_json(tmp: str) -> None:
            Path(tmp).write_text(text, encoding="utf-8")

        return atomic_write(path, write_json)
    policy, kind = _as_table(policy, kind, rules, path)
    arrays, params, name = _fields(policy, kind)
    if path.suffix == ".npy":
        if len(arrays) != 1:
            raise ValueError(
                f"path: a {kind.name} policy has {len(arrays)} arrays; write it as .json or .csv"
            )
        (table,) = arrays.values()

        def save(tmp: str) -> None:
            with open(tmp, "wb") as f:
                np.save(f, table, allow_pickle=False)

        return atomic_write(path, save)
    return atomic_write(path, lambda tmp: _write_csv(tmp, kind, arrays, params, name, rules))


def _json_text(policy: Any, kind: PolicyKind, rules: Rules | None) -> str:
    arrays, params, name = _fields(policy, kind)
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
        n_state = first.ndim - (1 if kind.name == "mixed" else _extra_dims(kind, first))
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


def _extra_dims(kind: PolicyKind, arr: np.ndarray) -> int:
    if kind.name == "roll_table":
        return arr.ndim - 2  # own, other, then turn total (and forced)
    return len(kind.extra_axes)


def _write_csv(
    tmp: str,
    kind: PolicyKind,
    arrays: dict[str, np.ndarray],
    params: dict[str, Any],
    name: str | None,
    rules: Rules | None,
) -> None:
    head = [f"# pigtheory policy file, version {POLICY_VERSION}", f"# kind: {kind.name}"]
    if rules is not None:
        head.append(f"# rules: {json.dumps(rules_to_dict(rules))}")
    if name is not None:
        head.append(f"# name: {name}")
    if params:
        head.append(f"# params: {json.dumps(params)}")
    if kind.name == "mixed":
        th, w = np.broadcast_arrays(arrays["thresholds"], arrays["weights"])
        idx = np.argwhere(w > 0)
        cols = axis_names(th.ndim - 1) + ["threshold", "weight"]
        lines = [
            ",".join(str(int(i)) for i in row[:-1]) + f",{int(th[tuple(row)])},{float(w[tuple(row)])!r}"
            for row in idx
        ]
        with open(tmp, "w", encoding="utf-8") as f:
            f.write("\n".join(head + [",".join(cols)] + lines) + "\n")
        return
    ((key, arr),) = arrays.items()
    extra = kind.extra_axes[: _extra_dims(kind, arr)]
    cols = axis_names(arr.ndim - len(extra), extra) + ["threshold" if key == "table" else key]
    idx = np.indices(arr.shape).reshape(arr.ndim, -1).T
    data = np.column_stack([idx, arr.reshape(-1).astype(np.int64)])
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(head + [",".join(cols)]) + "\n")
        np.savetxt(f, data, fmt="%d", delimiter=",")


# --- reading ------------------------------------------------------------------------------


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
    The policy (arrays read-only).

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
    """:func:`read_policy`, and the rules the file records (None if it records none)."""
    path = Path(path)
    if path.suffix not in POLICY_SUFFIXES:
        raise ValueError(f"{path}: policy files end in {', '.join(POLICY_SUFFIXES)}")
    if not path.exists():
        raise ValueError(f"{path}: no such file")
    if not path.is_file():
        raise ValueError(f"{path}: not a file")
    if kind is not None:
        kind_named(kind, "kind")
    from ..guard import check_file_size

    size = path.stat().st_size
    if path.suffix == ".json":
        check_file_size(path, size, factor=40.0)  # Python lists of numbers: ~40 bytes a character
        policy, file_rules = _read_json(path)
    elif path.suffix == ".csv":
        check_file_size(path, size, factor=20.0)
        policy, file_rules = _read_csv(path, kind)
    else:
        policy, file_rules = _read_npy(path, kind), None
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
    state_dims = first.ndim - (1 if kind.name == "mixed" or kind.check == "stopping" else 0)
    if state_dims < 1 or first.shape[0] < 1:
        return None
    if kind.sequential:
        return Rules(goal=first.shape[0])
    if kind.name == "mixed" and first.shape[0] == 1:  # broadcast over the own score
        return None
    return Rules(goal=first.shape[0], players=max(state_dims, 2))


def _build(kind: PolicyKind, arrays: dict, params: dict, name: Any, path: Path, where: str) -> Any:
    cls = policy_class(kind)
    if cls is None:
        raise ValueError(f"{path}: {where}: this pigtheory has no {kind.cls} for kind {kind.name!r}")
    kw = {**arrays, **params}
    if name is not None:
        if not isinstance(name, str):
            raise ValueError(f"{path}: field name: expected a string, got {_jtype(name)}")
        if has_name_field(cls):
            kw["name"] = name
    try:
        return cls(**kw)
    except TypeError as exc:
        raise ValueError(f"{path}: {where}: {exc}") from None
    except ValueError as exc:
        raise ValueError(f"{path}: {where}: {exc}") from None


def _jtype(x: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(x), f"a number ({x!r})" if isinstance(x, (int, float)) else type(x).__name__
    )


# JSON


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _read_json(path: Path) -> tuple[Any, Rules | None]:
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 text (byte {exc.start}); expected a JSON policy file") from None
    try:
        doc = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: line {exc.lineno}, column {exc.colno}: invalid JSON ({exc.msg})") from None
    except ValueError as exc:
        raise ValueError(f"{path}: invalid JSON ({exc})") from None
    except RecursionError:
        raise ValueError(f"{path}: invalid JSON (nested too deeply)") from None
    if not isinstance(doc, dict):
        raise ValueError(f'{path}: expected a JSON object {{"kind": ..., ...}}, got {_jtype(doc)}')
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
        raise ValueError(f"{path}: field params: expected an object, got {_jtype(params)}")
    for key, value in params.items():
        if key not in kind.params:
            raise ValueError(f"{path}: field params.{key}: a {kind.name} has parameters {list(kind.params)}")
        if not isinstance(value, (int, bool)):
            raise ValueError(f"{path}: field params.{key}: expected an integer, got {_jtype(value)}")
    arrays_doc = doc.get("arrays", {})
    if not isinstance(arrays_doc, dict):
        raise ValueError(f"{path}: field arrays: expected an object, got {_jtype(arrays_doc)}")
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
    return _build(kind, arrays, params, doc.get("name"), path, f"kind {kind.name}"), rules


def _json_array(data: Any, typ: str, where: str) -> np.ndarray:
    if not isinstance(data, list) or not data:
        raise ValueError(f"{where}: expected a non-empty (nested) list of {typ} values, got {_jtype(data)}")
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


# CSV


def _read_csv(path: Path, kind_hint: str | None) -> tuple[Any, Rules | None]:
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 text (byte {exc.start}); expected a CSV policy file") from None
    if "\x00" in text:
        raise ValueError(f"{path}: a binary file, expected CSV text")
    meta: dict[str, Any] = {}
    rows: list[tuple[int, str]] = []
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s:
            continue
        if s.startswith("#"):
            key, sep, value = s[1:].partition(":")
            if sep and key.strip() in ("kind", "rules", "name", "params"):
                meta[key.strip()] = (n, value.strip())
            continue
        rows.append((n, s))
    if not rows:
        raise ValueError(f"{path}: no data (expected a header such as 'own,other,threshold' and rows)")
    first_line, header = rows[0]
    if ";" in header and "," not in header:
        raise ValueError(f"{path}: line {first_line}: columns separated by ';'; expected ','")
    cells = [c.strip() for c in header.split(",")]
    if _is_number(cells[0]):
        return _read_bare_matrix(path, rows), _csv_rules(path, meta)
    kind = _csv_kind(path, meta, cells, first_line, kind_hint)
    rules = _csv_rules(path, meta)
    params = _csv_params(path, meta)
    name = meta["name"][1] if "name" in meta else None
    data = _csv_numbers(path, rows[1:], cells, float_column="weight" if "weight" in cells else None)
    axes = [c for c in cells if c not in _VALUE_COLUMNS]
    idx = data[:, : len(axes)].astype(np.int64) if data.size else np.zeros((0, len(axes)), np.int64)
    if kind.name == "mixed":
        arrays = _csv_mixed(path, idx, data[:, len(axes)], data[:, len(axes) + 1], axes)
    else:
        key, typ = kind.arrays[0]
        arrays = {key: _csv_dense(path, idx, data[:, len(axes)], typ, axes, kind)}
    return _build(kind, arrays, params, name, path, f"kind {kind.name}"), rules


def _is_number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


def _csv_kind(path: Path, meta: dict, cells: list[str], line: int, kind_hint: str | None) -> PolicyKind:
    known_axes = {"own", "other", "turn_total", "forced"}
    for c in cells:
        if (
            c not in known_axes
            and c not in _VALUE_COLUMNS
            and not (c.startswith("other") and c[5:].isdigit())
        ):
            raise ValueError(
                f"{path}: line {line}: unknown column {c!r} (expected axes own, other (or other1, "
                "other2, ...), turn_total, forced, then threshold, threshold,weight or roll)"
            )
    values = tuple(c for c in cells if c in _VALUE_COLUMNS)
    axes = [c for c in cells if c not in _VALUE_COLUMNS]
    if cells[: len(axes)] != axes or not axes or axes[0] != "own":
        raise ValueError(f"{path}: line {line}: the header lists the axes (own first), then the values")
    if len(set(cells)) != len(cells):
        raise ValueError(f"{path}: line {line}: a column appears twice")
    by_values = {("threshold",): "threshold_table", ("threshold", "weight"): "mixed", ("roll",): None}
    if values not in by_values:
        raise ValueError(
            f"{path}: line {line}: value columns {', '.join(values) or 'missing'}; expected threshold, "
            "threshold,weight or roll"
        )
    if "kind" in meta:
        n, name = meta["kind"]
        kind = kind_named(name, f"{path}: line {n}")
    else:
        name = by_values[values] or kind_hint or "roll_table"
        kind = KINDS[name]
    want = {"threshold_table": ("threshold",), "mixed": ("threshold", "weight")}.get(kind.name, ("roll",))
    if values != want or not kind.is_table:
        raise ValueError(f"{path}: line {line}: a {kind.name} has value columns {','.join(want)}")
    return kind


def _csv_rules(path: Path, meta: dict) -> Rules | None:
    if "rules" not in meta:
        return None
    n, text = meta["rules"]
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        raise ValueError(
            f"{path}: line {n}: '# rules:' must be followed by a JSON object of rules fields"
        ) from None
    return rules_from_dict(data, f"{path}: line {n}: rules")


def _csv_params(path: Path, meta: dict) -> dict:
    if "params" not in meta:
        return {}
    n, text = meta["params"]
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict) or not all(isinstance(v, (int, bool)) for v in data.values()):
        raise ValueError(f"{path}: line {n}: '# params:' must be followed by a JSON object of integers")
    return data


def _csv_numbers(
    path: Path, rows: list[tuple[int, str]], cells: list[str], float_column: str | None
) -> np.ndarray:
    """The data rows as a float array (ints exact up to 2**53), with line-exact errors."""
    width = len(cells)
    split = [r.split(",") for _, r in rows]
    for (n, _), parts in zip(rows, split, strict=True):
        if len(parts) != width:
            raise ValueError(f"{path}: line {n}: {len(parts)} values, expected {width} ({','.join(cells)})")
    if not split:
        raise ValueError(f"{path}: no data rows after the header")
    try:
        arr = np.array(split, dtype=float)
    except ValueError:
        arr = None
    fcol = cells.index(float_column) if float_column else -1
    if arr is not None and np.isfinite(arr).all():
        ints = np.delete(arr, fcol, axis=1) if fcol >= 0 else arr
        if np.array_equal(ints, np.round(ints)) and np.abs(ints).max() < 2**53:
            return arr
    for (n, _), parts in zip(rows, split, strict=True):  # find the first bad cell
        for c, cell in enumerate(parts):
            what = "a finite number" if c == fcol else "an integer"
            try:
                x = float(cell)
            except ValueError:
                raise ValueError(
                    f"{path}: line {n}, column {cells[c]}: {cell.strip()!r} is not {what}"
                ) from None
            if not np.isfinite(x) or (c != fcol and (x != round(x) or abs(x) >= 2**53)):
                raise ValueError(f"{path}: line {n}, column {cells[c]}: {cell.strip()!r} is not {what}")
    raise AssertionError("unreachable: a bad cell was detected but not found")


def _csv_dense(
    path: Path, idx: np.ndarray, value: np.ndarray, typ: str, axes: list[str], kind: PolicyKind
) -> np.ndarray:
    n_rows, n_axes = idx.shape
    if (idx < 0).any():
        r = int(np.argwhere(idx < 0)[0][0])
        raise ValueError(f"{path}: data row {r + 1}: negative index; scores and totals start at 0")
    shape = tuple(int(m) + 1 for m in idx.max(axis=0))
    g = shape[0]
    for a, m in zip(axes, shape, strict=True):
        want = 2 if a == "forced" else g
        if m != want:
            raise ValueError(f"{path}: column {a}: runs 0..{m - 1}, expected 0..{want - 1} like own")
    if int(np.prod(shape, dtype=object)) != n_rows:
        raise ValueError(
            f"{path}: {n_rows} data rows, but a full table of shape {shape} has {int(np.prod(shape, dtype=object))}"
        )
    flat = np.ravel_multi_index(idx.T, shape)
    counts = np.bincount(flat, minlength=n_rows)
    if (counts != 1).any():
        dup = np.unravel_index(int(np.flatnonzero(counts > 1)[0]), shape)
        raise ValueError(f"{path}: the entry at {tuple(int(d) for d in dup)} appears more than once")
    out = np.empty(n_rows, dtype=value.dtype)
    out[flat] = value
    out = out.reshape(shape)
    if typ == "bool":
        if not np.isin(out, (0, 1)).all():
            raise ValueError(f"{path}: column roll: expected 0 or 1")
        return out.astype(bool)
    return out.astype(np.int64)


def _csv_mixed(path: Path, idx: np.ndarray, th: np.ndarray, w: np.ndarray, axes: list[str]) -> dict:
    if "forced" in axes or "turn_total" in axes:
        raise ValueError(f"{path}: a mixed policy's axes are the players' scores only")
    if (idx < 0).any():
        raise ValueError(f"{path}: negative scores")
    g = int(idx.max()) + 1
    shape = (g,) * idx.shape[1]
    cells = int(np.prod(shape, dtype=object))
    if cells > idx.shape[0]:
        raise ValueError(f"{path}: {idx.shape[0]} rows cannot cover the {cells} states of goal {g}")
    flat = np.ravel_multi_index(idx.T, shape)
    count = np.bincount(flat, minlength=cells)
    if (count == 0).any():
        miss = np.unravel_index(int(np.flatnonzero(count == 0)[0]), shape)
        raise ValueError(f"{path}: no row for the state {tuple(int(m) for m in miss)}")
    order = np.argsort(flat, kind="stable")
    s = int(count.max())
    start = np.concatenate([[0], np.cumsum(count)[:-1]])
    slot = np.arange(flat.size) - start[flat[order]]
    thresholds = np.repeat(th[order][start][:, None], s, axis=1)
    weights = np.zeros((cells, s))
    thresholds[flat[order], slot] = th[order]
    weights[flat[order], slot] = w[order]
    return {
        "thresholds": thresholds.astype(np.int64).reshape(shape + (s,)),
        "weights": weights.reshape(shape + (s,)),
    }


def _read_bare_matrix(path: Path, rows: list[tuple[int, str]]) -> Any:
    cells = [f"column {c + 1}" for c in range(len(rows[0][1].split(",")))]
    data = _csv_numbers(path, rows, cells, None)
    if data.shape[0] != data.shape[1]:
        raise ValueError(
            f"{path}: a CSV without a header is read as a square table[own, other]; got "
            f"{data.shape[0]} rows of {data.shape[1]} values (add a header such as 'own,other,threshold')"
        )
    from ..policies import ThresholdTable

    return ThresholdTable(data.astype(np.int64), name=path.stem)


# NPY


def _read_npy(path: Path, kind_hint: str | None) -> Any:
    from ..guard import check_file_size

    with open(path, "rb") as f:
        try:
            version = np.lib.format.read_magic(f)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(f)
            elif version == (2, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(f)
            else:
                raise ValueError(f"unsupported .npy version {version}")
        except Exception as exc:
            raise ValueError(f"{path}: not a readable .npy file ({exc})") from None
        offset = f.tell()
    if dtype.hasobject:
        raise ValueError(f"{path}: an array of Python objects (would need pickle); expected ints or bools")
    nbytes = int(np.prod(shape, dtype=object)) * dtype.itemsize
    held = path.stat().st_size - offset
    if nbytes != held:
        raise ValueError(
            f"{path}: the header describes a {dtype} array of shape {shape} ({nbytes} bytes), "
            f"but the file holds {held} bytes of data (truncated or damaged)"
        )
    check_file_size(path, nbytes, factor=1.0)
    try:
        arr = np.load(path, allow_pickle=False)
    except Exception as exc:
        raise ValueError(f"{path}: not a readable .npy file ({exc})") from None
    if arr.ndim == 0 or arr.size == 0:
        raise ValueError(f"{path}: an array of shape {arr.shape}; expected a table with one entry per state")
    if arr.dtype == bool:
        kind = KINDS[kind_hint if kind_hint in ("roll_table", "stopping_rule") else "roll_table"]
        return _build(kind, {"roll": arr}, {}, None, path, "table")
    if arr.dtype.kind == "f" and np.isfinite(arr).all() and np.array_equal(arr, np.round(arr)):
        arr = arr.astype(np.int64)
    if arr.dtype.kind not in "iu":
        raise ValueError(f"{path}: a {arr.dtype} array; expected integers (thresholds) or booleans (roll)")
    return _build(KINDS["threshold_table"], {"table": arr}, {}, path.stem, path, "table")
