"""Policy files as ``.npy``: a plain table (int: thresholds; bool, or 0/1 integers when a roll
table is asked for: a roll table or a stopping rule). The header is read first, and a file
that claims more data than it holds, or more than the memory limit, is refused before
anything is allocated; nothing is unpickled."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from .kinds import KINDS
from .policy_common import build_policy

__all__ = ["read_npy"]


def read_npy(path: Path, kind_hint: str | None) -> Any:
    """Read a ``.npy`` table: an int array as a threshold table, a bool array as a roll table
    (or a stopping rule when ``kind_hint`` is ``"stopping_rule"``). Nothing is unpickled.

    Parameters
    ----------
    path : pathlib.Path
    kind_hint : str or None
        ``"roll_table"`` (default for bool arrays) or ``"stopping_rule"``.

    Returns
    -------
    ThresholdTable, RollTable or StoppingRule
        Not yet checked against rules.
    """
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
    wants_roll = kind_hint in ("roll_table", "stopping_rule")
    if wants_roll and arr.dtype.kind in "iu" and arr.ndim >= 3 and np.isin(arr, (0, 1)).all():
        arr = arr.astype(bool)  # a roll table saved as 0/1 integers (pigtheory 0.1's --out)
    if arr.dtype == bool:
        kind = KINDS[kind_hint] if wants_roll and kind_hint else KINDS["roll_table"]
        return build_policy(kind, {"roll": arr}, {}, None, path, "table")
    if _multiplayer_roll(arr):  # what a multiplayer roll table (allow_pass=False) writes
        return build_policy(
            KINDS["multiplayer_roll"], {"prob": arr}, {"allow_pass": False}, None, path, "table"
        )
    if arr.dtype.kind == "f" and np.isfinite(arr).all() and np.array_equal(arr, np.round(arr)):
        arr = arr.astype(np.int64)
    if arr.dtype.kind not in "iu":
        raise ValueError(f"{path}: a {arr.dtype} array; expected integers (thresholds) or booleans (roll)")
    return build_policy(KINDS["threshold_table"], {"table": arr}, {}, path.stem, path, "table")


def _multiplayer_roll(arr: np.ndarray) -> bool:
    """A float array of shape ``(goal,) * (players + 1)``, 3 players or more, with every entry a
    probability and some 0 (a roll probability; a threshold table of 4 players has the same
    shape but thresholds are at least 1)."""
    return (
        arr.dtype.kind == "f"
        and arr.ndim >= 4
        and len(set(arr.shape)) == 1
        and bool(np.all((arr >= 0) & (arr <= 1)))
        and bool((arr == 0).any())
    )
