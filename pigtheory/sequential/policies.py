"""Deprecated: the policies of sequential Pig moved to :mod:`pigtheory.policies.sequential`
(the domain layer, which the file formats may import). This shim warns on import and goes in a
later release; the names stay importable from :mod:`pigtheory.sequential` without a warning.
"""

from __future__ import annotations

from .._compat import moved
from ..policies.sequential import *  # noqa: F403
from ..policies.sequential import __all__  # noqa: F401

moved(__name__, "pigtheory.policies.sequential")
