"""The symmetric solver family of n-player simultaneous Pig: its equilibrium, best response and
dynamics, and the kernels they share.

=========================  ==============================================================
:mod:`.equilibrium`        :func:`symmetric_equilibrium`, the driver (state by state, from
                           the goal down; several threads: :mod:`.pipeline`)
:mod:`.response`           :func:`symmetric_best_response` (the global certificate) and
                           :func:`symmetric_dynamics` (best response, damped, fictitious play)
:mod:`.policy`             the compact tables by view: :class:`SymmetricPolicy`,
                           :class:`ViewTable`, :func:`layout`
:mod:`.stage`              one state's stage game among its roles (pure search, then mixed:
                           :mod:`.mixed_search` over :mod:`.newton`, :mod:`.enumeration`,
                           :mod:`.fictitious`, with :mod:`.payoffs`)
:mod:`.kernels`            colex ranks, the others' outcomes; :mod:`.continuation` (their
                           expectation, reused down a column), :mod:`.respond` (best response
                           of whole columns), :mod:`.dynamics` (the pure search)
=========================  ==============================================================

The shapes and the math are in :mod:`.equilibrium`'s docstring; the public names are
re-exported by :mod:`pigtheory.simultaneous`.
"""

from .equilibrium import SymmetricEquilibrium, estimate_memory, symmetric_equilibrium
from .policy import SymmetricPolicy, ViewTable, full_columns, layout
from .response import SymmetricBestResponse, SymmetricDynamics, symmetric_best_response, symmetric_dynamics

__all__ = [
    "SymmetricEquilibrium",
    "symmetric_equilibrium",
    "estimate_memory",
    "SymmetricPolicy",
    "ViewTable",
    "layout",
    "full_columns",
    "SymmetricBestResponse",
    "SymmetricDynamics",
    "symmetric_best_response",
    "symmetric_dynamics",
]
