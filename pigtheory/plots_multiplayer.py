"""Deprecated: the figures moved to :mod:`pigtheory.plots.multiplayer` (this shim warns on import)."""

from __future__ import annotations

from ._compat import moved, renamed
from .plots import OLD_NAMES as _OLD_NAMES
from .plots.multiplayer import *  # noqa: F403
from .plots.multiplayer import __all__  # noqa: F401

moved(__name__, "pigtheory.plots.multiplayer")
__getattr__ = renamed(__name__, _OLD_NAMES)
