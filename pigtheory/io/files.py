"""``save`` and ``load``: one entry point for every file pigtheory writes, picked by suffix.

``.npz`` holds a whole result or policy (:mod:`pigtheory.io.archive`); ``.json``, ``.csv``
and ``.npy`` hold a policy, or the policy a result found (:mod:`pigtheory.io.policy_files`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, TypeVar, overload

from ..results import Saveable, register_files
from ..validation import check_path, check_type
from .archive import load_archive, save_archive
from .policy_files import POLICY_SUFFIXES, read_policy, read_policy_file, write_policy

__all__ = ["Saveable", "save", "load", "load_with_rules", "SUFFIXES"]

SUFFIXES = (".npz",) + POLICY_SUFFIXES
"""Every suffix that :func:`~pigtheory.io.save` writes and :func:`~pigtheory.io.load` reads."""
T = TypeVar("T")


def save(obj: Any, path: str | os.PathLike, *, compress: bool = True, rules: Any = None) -> Path:
    """Save a result or a policy; the suffix of ``path`` picks the format.

    Parameters
    ----------
    obj : result or policy
    path : path-like
        ``.npz``: the whole object (:mod:`pigtheory.io.archive`). ``.json``, ``.csv``,
        ``.npy``: its policy as a policy file (:mod:`pigtheory.io.policy_files`).
    compress : bool
        ``.npz`` only: deflate the arrays.
    rules : Rules, optional
        Policy files only: the rules to record (default: the result's own).

    Returns
    -------
    pathlib.Path

    Raises
    ------
    ValueError
        An unknown suffix, or an object the format cannot hold (the message says which).
    """
    suffix = check_path("path", path).suffix
    if suffix == ".npz":
        return save_archive(obj, path, compress=compress)
    if suffix in POLICY_SUFFIXES:
        return write_policy(obj, path, rules=rules)
    raise ValueError(f"path: pigtheory files end in {', '.join(SUFFIXES)}, got {str(path)!r}")


@overload
def load(path: str | os.PathLike, *, expected: type[T]) -> T: ...


@overload
def load(path: str | os.PathLike, *, expected: None = None) -> Any: ...


def load(path: str | os.PathLike, *, expected: type | None = None) -> Any:
    """Read what :func:`save` wrote: a result or policy (``.npz``), or a policy file.

    Parameters
    ----------
    path : path-like
    expected : type, optional
        Raise unless the file holds this type (or a subclass).

    Returns
    -------
    result or policy
        ``.npz``: the object saved, of its own type, its arrays read-only and of the shapes it
        was saved with. A policy file: the policy it holds (:data:`~pigtheory.io.KINDS`).

    Raises
    ------
    ValueError
        Naming the file and what is wrong with it.
    """
    check_type("expected", expected)
    suffix = check_path("path", path).suffix
    if suffix in POLICY_SUFFIXES:
        return read_policy(path, expected=expected)
    if suffix == ".npz":
        return load_archive(path, expected=expected)
    raise ValueError(f"{path}: pigtheory files end in {', '.join(SUFFIXES)}")


def load_with_rules(path: str | os.PathLike, *, kind: str | None = None) -> tuple[Any, Any]:
    """:func:`load`, and the rules the file records (None if it records none).

    Parameters
    ----------
    path : path-like
    kind : str, optional
        Policy files only: the kind to read a bare table as (:func:`read_policy_file`).

    Returns
    -------
    obj : result or policy
        As :func:`load` returns it.
    rules : Rules or None
        A result's ``rules``; the rules a policy file records.
    """
    suffix = check_path("path", path).suffix
    if suffix in POLICY_SUFFIXES:
        return read_policy_file(path, kind=kind)
    obj = load(path)
    return obj, getattr(obj, "rules", None)


register_files(save, load)  # Saveable.save / .load (the domain does not import io)
