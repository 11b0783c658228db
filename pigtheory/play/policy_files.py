"""Deprecated: :func:`opponents_from_file` moved to :mod:`pigtheory.play.file_opponents`, and
``read_policy_file`` here (which was :func:`pigtheory.load`) is deprecated: use
:func:`pigtheory.load`, or :func:`pigtheory.io.read_policy_file` for a policy with its rules.
This shim warns on import and goes in a later release.
"""

from __future__ import annotations

from .._compat import moved, renamed
from .file_opponents import opponents_from_file

__all__ = ["opponents_from_file"]

moved(__name__, "pigtheory.play.file_opponents")
__getattr__ = renamed(__name__, {"read_policy_file": "pigtheory.io:load"})
