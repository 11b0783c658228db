"""Deprecated: the resumable sweeps moved to :mod:`pigtheory.simultaneous.resumable`
(:func:`~pigtheory.simultaneous.hold_at_table` is also in :mod:`pigtheory.simultaneous`). This
shim warns on import and goes in a later release.
"""

from __future__ import annotations

from ._compat import moved
from .simultaneous.resumable import *  # noqa: F403
from .simultaneous.resumable import FORMAT, __all__  # noqa: F401
from .simultaneous.sweep import HoldAtTable as SweepTable  # noqa: F401 (the old name)

moved(__name__, "pigtheory.simultaneous.resumable")
