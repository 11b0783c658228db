"""The stopping-rule family of two-player simultaneous Pig: the exact equilibrium over every
roll/hold rule of a turn, and the certificate of its classes.

=====================  ==================================================================
:mod:`.equilibrium`    :func:`stopping_equilibrium`: per state, the zero-sum stage game
                       over stopping rules, solved with the rules found by optimal stopping
                       as oracles (:data:`KINDS`: how each state's solution is known)
:mod:`.certify`        :func:`certify_classes`: which states a threshold, a deterministic
                       rule or only a mixture can guarantee, decided exhaustively
:mod:`.programs`       the questions asked of one state (guarantees, a rule's gap, the
                       mixed-integer and linear programs)
=====================  ==================================================================

The action set itself (:class:`~pigtheory.simultaneous.core.StoppingRules`) is shared with the
other families and lives in :mod:`pigtheory.simultaneous.core`.
"""

from typing import TYPE_CHECKING, Any

from .equilibrium import KINDS, StoppingEquilibrium, stopping_equilibrium

if TYPE_CHECKING:
    from .certify import StoppingClasses, certify_classes

__all__ = ["KINDS", "StoppingEquilibrium", "stopping_equilibrium", "StoppingClasses", "certify_classes"]


def __getattr__(name: str) -> Any:
    """The certificate (:mod:`.certify`, with its linear and mixed-integer programs) on first
    use: ``stopping_equilibrium`` alone does not need it."""
    if name not in ("StoppingClasses", "certify_classes"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import certify

    value = getattr(certify, name)
    globals()[name] = value
    return value
