"""Policy files as CSV: tables in long form, one row per entry, under a header naming the axes.

``#`` lines before the header may give ``kind:``, ``rules:`` (JSON), ``name:`` and ``params:``
(JSON). Columns: the axes (``own``, ``other`` or ``other1``, ``other2``, ..., then
``turn_total`` and ``forced``) and the value (``threshold``; ``threshold,weight`` for a mixed
policy, one row per threshold it plays; ``roll``, 0 or 1). A header-less square integer
matrix is read as ``table[own, other]``. Errors give the line and the column.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import numpy as np

from ..rules import Rules
from .kinds import KINDS, PolicyKind, kind_named
from .policy_common import (
    POLICY_VERSION,
    VALUE_COLUMNS,
    axis_names,
    build_policy,
    extra_dims,
    reject_constant,
    rules_from_dict,
    rules_to_dict,
)

__all__ = ["write_csv", "read_csv"]


def write_csv(
    tmp: str,
    kind: PolicyKind,
    arrays: dict[str, np.ndarray],
    params: dict[str, Any],
    name: str | None,
    rules: Rules | None,
) -> None:
    """Write a policy of ``kind`` as a CSV policy file to ``tmp`` (see
    :mod:`pigtheory.io.policy_files`).

    Parameters
    ----------
    tmp : str
        The file to write (the temporary name of :func:`~pigtheory.io.atomic_write`).
    kind : PolicyKind
        A table kind (with arrays).
    arrays : dict of str to numpy.ndarray
        The kind's arrays, own score first (:func:`~pigtheory.io.policy_common.policy_fields`).
    params : dict
        Its scalar parameters.
    name : str or None
    rules : Rules or None
        Recorded in a ``# rules:`` line when given.
    """
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
    extra = kind.extra_axes[: extra_dims(kind, arr)]
    cols = axis_names(arr.ndim - len(extra), extra) + ["threshold" if key == "table" else key]
    idx = np.indices(arr.shape).reshape(arr.ndim, -1).T
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(head + [",".join(cols)]) + "\n")
        if arr.dtype.kind == "f":  # probabilities: 17 significant digits read back exactly
            data = np.column_stack([idx, arr.reshape(-1)])
            np.savetxt(f, data, fmt=["%d"] * arr.ndim + ["%.17g"], delimiter=",")
            return
        data = np.column_stack([idx, arr.reshape(-1).astype(np.int64)])
        np.savetxt(f, data, fmt="%d", delimiter=",")


def read_csv(path: Path, kind_hint: str | None) -> tuple[Any, Rules | None]:
    """Read a CSV policy file (or a bare integer matrix, a two-player threshold table).

    Parameters
    ----------
    path : pathlib.Path
    kind_hint : str or None
        The kind to read the file as when it names none.

    Returns
    -------
    policy : policy
        Not yet checked against rules (:func:`~pigtheory.io.read_policy` does that).
    rules : Rules or None
        The rules the file records.
    """
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 text (byte {exc.start}); expected a CSV policy file") from None
    if "\x00" in text:
        raise ValueError(f"{path}: a binary file, expected CSV text")
    fast = _read_plain(path, text, kind_hint)
    if fast is not None:
        return fast
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
    rows = _plain_rows(rows)
    first_line, header = rows[0]
    if ";" in header and "," not in header:
        raise ValueError(f"{path}: line {first_line}: columns separated by ';'; expected ','")
    cells = [c.strip() for c in header.split(",")]
    if _square_header(cells, len(rows)):
        return _read_bare_matrix(path, rows[1:]), _csv_rules(path, meta)
    if _is_number(cells[0]):
        return _read_bare_matrix(path, rows), _csv_rules(path, meta)
    kind = _csv_kind(path, meta, cells, first_line, kind_hint)
    floats = [c for c in ("weight", "prob") if c in cells]
    data = _csv_numbers(path, rows[1:], cells, float_column=floats[0] if floats else None)
    return _build(path, meta, cells, kind, data)


def _build(
    path: Path, meta: dict, cells: list[str], kind: PolicyKind, data: np.ndarray
) -> tuple[Any, Rules | None]:
    """The policy of a file's numbers ``data`` (one row per line, the columns of ``cells``)."""
    rules = _csv_rules(path, meta)
    params = _csv_params(path, meta)
    name = meta["name"][1] if "name" in meta else None
    axes = [c for c in cells if c not in VALUE_COLUMNS]
    idx = data[:, : len(axes)].astype(np.int64) if data.size else np.zeros((0, len(axes)), np.int64)
    if kind.name == "mixed":
        arrays = _csv_mixed(path, idx, data[:, len(axes)], data[:, len(axes) + 1], axes)
    else:
        key, typ = kind.arrays[0]
        arrays = {key: _csv_dense(path, idx, data[:, len(axes)], typ, axes, kind)}
    return build_policy(kind, arrays, params, name, path, f"kind {kind.name}"), rules


def _read_plain(path: Path, text: str, kind_hint: str | None) -> tuple[Any, Rules | None] | None:
    """The fast reading of a plain file (what :func:`write_csv` writes: comment lines, a
    header, then rows of numbers, no quotes, no comments or blank lines among them), by numpy
    over the whole text at once (a 33 MB file in about a second instead of half a minute);
    ``None`` for any other file, which the line-by-line reading then reads or names the line
    that is wrong in."""
    meta: dict[str, Any] = {}
    pos, n = 0, 0
    while True:  # the comment lines and the header
        end = text.find("\n", pos)
        if end < 0:
            return None
        n += 1
        s = text[pos:end].strip()
        pos = end + 1
        if not s:
            continue
        if s.startswith("#"):
            key, sep, value = s[1:].partition(":")
            if sep and key.strip() in ("kind", "rules", "name", "params"):
                meta[key.strip()] = (n, value.strip())
            continue
        header, first_line = s, n
        break
    cells = [c.strip() for c in header.split(",")]
    if '"' in header or not cells or _is_number(cells[0]) or cells[0] == "":
        return None
    body = text[pos:].rstrip()
    if not body or "#" in body or '"' in body or "\r" in body or "\n\n" in body:
        return None
    width = len(cells)
    import io

    try:  # numpy's C reader: a row of another width or a cell that is not a number raises
        data = np.loadtxt(io.StringIO(body), delimiter=",", dtype=float, comments=None, ndmin=2)
    except ValueError:
        return None
    if data.shape[1] != width:
        return None
    floats = [c for c in ("weight", "prob") if c in cells]
    fcol = cells.index(floats[0]) if floats else -1
    ints = np.delete(data, fcol, axis=1) if fcol >= 0 else data
    if not (np.isfinite(data).all() and np.array_equal(ints, np.round(ints)) and _below_2_53(ints)):
        return None
    kind = _csv_kind(path, meta, cells, first_line, kind_hint)
    return _build(path, meta, cells, kind, data)


def _plain_rows(rows: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Rows as common tools write them, made plain: quoted cells (``"own","other"``) unquoted,
    and the unnamed first column of row names that R's ``write.csv`` adds (header ``""``)
    dropped. A line that is not valid CSV is left as it is for the checks to name."""
    out = []
    for n, line in rows:
        try:
            cells = next(csv.reader([line], skipinitialspace=True))
        except csv.Error:
            cells = line.split(",")
        out.append((n, [c.strip() for c in cells]))
    if out[0][1] and out[0][1][0] == "" and len(out[0][1]) > 1:  # R: row names, no header cell
        out = [(n, cells[1:]) for n, cells in out]
    return [(n, ",".join(cells)) for n, cells in out]


def _is_number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


def _csv_kind(path: Path, meta: dict, cells: list[str], line: int, kind_hint: str | None) -> PolicyKind:
    known_axes = {"own", "other", "turn_total", "forced"}
    for c in cells:
        if c not in known_axes and c not in VALUE_COLUMNS and not (c.startswith("other") and c[5:].isdigit()):
            raise ValueError(
                f"{path}: line {line}: unknown column {c!r} (expected axes own, other (or other1, "
                "other2, ...), turn_total, forced, then threshold, threshold,weight or roll)"
            )
    values = tuple(c for c in cells if c in VALUE_COLUMNS)
    axes = [c for c in cells if c not in VALUE_COLUMNS]
    if cells[: len(axes)] != axes or not axes or axes[0] != "own":
        raise ValueError(f"{path}: line {line}: the header lists the axes (own first), then the values")
    if len(set(cells)) != len(cells):
        raise ValueError(f"{path}: line {line}: a column appears twice")
    by_values = {
        ("threshold",): "threshold_table",
        ("threshold", "weight"): "mixed",
        ("roll",): None,
        ("prob",): "random_stopping_rule",
    }
    if values not in by_values:
        raise ValueError(
            f"{path}: line {line}: value columns {', '.join(values) or 'missing'}; expected threshold, "
            "threshold,weight, roll or prob"
        )
    if "kind" in meta:
        n, name = meta["kind"]
        kind = kind_named(name, f"{path}: line {n}")
    else:
        name = by_values[values] or kind_hint or "roll_table"
        kind = KINDS[name]
    want = {"threshold_table": ("threshold",), "mixed": ("threshold", "weight")}.get(
        kind.name, (kind.arrays[0][0],) if kind.arrays else ("roll",)
    )
    if values != want or not kind.is_table:
        raise ValueError(f"{path}: line {line}: a {kind.name} has value columns {','.join(want)}")
    return kind


def _csv_rules(path: Path, meta: dict) -> Rules | None:
    if "rules" not in meta:
        return None
    n, text = meta["rules"]
    try:
        data = json.loads(text, parse_constant=reject_constant)
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
        data = json.loads(text, parse_constant=reject_constant)
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
            like = "as many as line 1" if cells[0] == "1" else f"({','.join(cells)})"
            raise ValueError(f"{path}: line {n}: {len(parts)} values, expected {width} {like}")
    if not split:
        raise ValueError(f"{path}: no data rows after the header")
    try:
        arr = np.array(split, dtype=float)
    except ValueError:
        arr = None
    fcol = cells.index(float_column) if float_column else -1
    if arr is not None and np.isfinite(arr).all():
        ints = np.delete(arr, fcol, axis=1) if fcol >= 0 else arr
        if np.array_equal(ints, np.round(ints)) and _below_2_53(ints):
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
    if typ == "float":
        return out.astype(float)
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


def _square_header(cells: list[str], nrows: int) -> bool:
    """The column labels of a square table[own, other] written by a common tool: R's
    ``write.csv`` of a matrix (``V1..Vn``), pandas' ``to_csv`` of a frame (``0..n-1``), or
    ``1..n``; n labels above n rows (the row names are dropped already)."""
    n = len(cells)
    if nrows != n + 1:
        return False
    return cells in (
        [f"V{j + 1}" for j in range(n)],
        [str(j) for j in range(n)],
        [str(j + 1) for j in range(n)],
    )


def _read_bare_matrix(path: Path, rows: list[tuple[int, str]]) -> Any:
    cells = [str(c + 1) for c in range(len(rows[0][1].split(",")))]  # no header: columns by number
    data = _csv_numbers(path, rows, cells, None)
    if data.shape[0] != data.shape[1]:
        raise ValueError(
            f"{path}: a CSV without a header is read as a square table[own, other]; got "
            f"{data.shape[0]} rows of {data.shape[1]} values (add a header such as 'own,other,threshold')"
        )
    from ..policies import ThresholdTable

    return ThresholdTable(data.astype(np.int64), name=path.stem)


def _below_2_53(ints: np.ndarray) -> bool:
    """Every entry exact as a float (an empty array too: a file of value columns only)."""
    return ints.size == 0 or bool(np.abs(ints).max() < 2**53)
