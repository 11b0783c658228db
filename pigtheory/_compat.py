"""Old import paths and names that still work, with a ``DeprecationWarning``.

A moved module leaves a shim that calls :func:`moved` at import and re-exports the new module;
a renamed function or class stays reachable through a module ``__getattr__`` made by
:func:`renamed`. Both name the new home, so the warning says what to write instead. Every entry
is listed in CHANGELOG.md (Unreleased); the shims go in a later release.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Mapping
from typing import Any

RENAMED: dict[str, str] = {}
"""Every name made by :func:`renamed`, ``"module:old_name"`` -> ``"package.module:new_name"``
(read by :mod:`pigtheory.io` so that a file saved under an old type name loads as the new type
without a warning: the file's reader did not write the old name)."""


def moved(old: str, new: str) -> None:
    """Warn that module ``old`` is now ``new`` (called by the shim at ``old`` when imported)."""
    warnings.warn(f"{old} is deprecated: import {new} instead", DeprecationWarning, stacklevel=3)


def renamed(module: str, names: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``module`` that maps each old name of ``names`` to its new
    home ``"package.module:new_name"``, warning once per access."""
    RENAMED.update({f"{module}:{old}": new for old, new in names.items()})

    def __getattr__(name: str) -> Any:
        target = names.get(name)
        if target is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        where, new = target.split(":")
        warnings.warn(f"{module}.{name} is deprecated: use {where}.{new}", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(where), new)

    return __getattr__


def renamed_field(old: str, new: str) -> Any:
    """A read-only property ``old`` of a result class that warns and returns the field ``new``
    (a result field renamed for the shared vocabulary)."""

    def get(self: Any) -> Any:
        cls = type(self).__name__
        warnings.warn(f"{cls}.{old} is deprecated: use {cls}.{new}", DeprecationWarning, stacklevel=2)
        return getattr(self, new)

    get.__doc__ = f"Deprecated: ``{new}``."
    return property(get)
