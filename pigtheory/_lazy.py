"""Lazy package attributes (PEP 562): a package names, in a table ``_LAZY``, the attributes it
imports on first use and the submodule each comes from, so that importing the package does not
import what only some callers need (the out-of-core runtime, a certificate's programs).

A package does ``__getattr__, __dir__ = lazy_attributes(__name__, _LAZY, globals())``; the first
``package.name`` imports the submodule, keeps the value in the package's namespace and returns
it. The submodules are the package's own (relative names), so no layer is crossed.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

__all__ = ["lazy_attributes"]


def lazy_attributes(
    package: str, table: dict[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package``: ``table`` maps a name to the relative module
    that defines it; ``namespace`` is the package's ``globals()``."""

    def __getattr__(name: str) -> Any:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(table))

    return __getattr__, __dir__
