"""The kinds of policy a policy file can hold, and how each maps to arrays and parameters.

A kind names a policy class (imported only when a file of that kind is read or written), the
arrays that define it and its scalar parameters. Adding a policy class to the file format is
one :func:`register_kind` call (or one entry of :data:`KINDS`): the JSON, CSV and ``.npy``
readers and writers work from these records alone.

Shapes
------
``state`` below is ``(goal,) * players`` (or ``(goal,)`` for a table of the own score only),
own score first; sequential tables are ``(goal, goal, goal)`` (own, other, turn total), with
a last axis of 2 for Double Trouble (the forced roll after a double).

========================  ========================================  ====================
kind                      arrays                                    parameters
========================  ========================================  ====================
``hold_at``               none                                      ``n``
``threshold_table``       ``table[state]`` int                      ``clip``
``mixed``                 ``thresholds[state, s]`` int,             none
                          ``weights[state, s]`` float
``stopping_rule``         ``roll[state, t]`` bool                   none
``random_stopping_rule``  ``prob[state, t]`` float (P(roll))        none
``roll_table``            ``roll[own, other, k(, forced)]`` bool    none
``scoring_turns``         none                                      ``t``
``base_pace_race``        none                                      ``b``, ``p``, ``e``
``pace_race``             none                                      ``c``, ``d``, ``e``
``multiplayer_roll``      ``prob[t_0, ..., t_{n-1}, k]`` float      ``allow_pass``
                          (P(roll), n players, turn order from
                          the mover)
========================  ========================================  ====================
"""

from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass
from typing import Any

__all__ = ["PolicyKind", "KINDS", "register_kind", "kind_of", "kind_named", "policy_class"]


@dataclass(frozen=True)
class PolicyKind:
    """One kind of policy in the file format.

    Attributes
    ----------
    name : str
        The ``kind`` written in files (``"threshold_table"``).
    cls : str
        ``"module:Class"`` of the policy class; constructed as ``Class(**arrays, **params)``
        (plus ``name=`` when the class has a ``name`` field).
    arrays : tuple of (str, str)
        The array fields and their element type: ``"int"``, ``"float"`` or ``"bool"``.
    params : tuple of str
        The scalar fields (ints or bools), validated by the class.
    extra_axes : tuple of str
        Names of the array axes after the state axes (CSV columns): ``("turn_total",)``.
    sequential : bool
        A policy of sequential (turn-taking) Pig.
    check : str
        How a policy of this kind is checked against rules: ``"mixture"``
        (:func:`pigtheory.as_mixture`), ``"roll"`` (the roll tables of
        :func:`pigtheory.sequential.roll_table`), ``"stopping"`` (the shape ``state + (goal,)``),
        ``"multiplayer"`` (:meth:`pigtheory.policies.multiplayer.MultiplayerRollTable.check`)
        or ``"none"``.
    """

    name: str
    cls: str
    arrays: tuple[tuple[str, str], ...] = ()
    params: tuple[str, ...] = ()
    extra_axes: tuple[str, ...] = ()
    sequential: bool = False
    check: str = "none"

    @property
    def is_table(self) -> bool:
        """Defined by arrays (a table), not by parameters alone."""
        return bool(self.arrays)


KINDS: dict[str, PolicyKind] = {}
"""Every known kind by name; extended with :func:`register_kind`."""


def register_kind(kind: PolicyKind) -> PolicyKind:
    """Add ``kind`` to the file format (replacing a kind of the same name).

    Parameters
    ----------
    kind : PolicyKind

    Returns
    -------
    PolicyKind
        ``kind`` itself, now ``KINDS[kind.name]``.
    """
    if not isinstance(kind, PolicyKind):
        raise ValueError(f"kind must be a pigtheory.io.PolicyKind, got {type(kind).__name__}")
    KINDS[kind.name] = kind
    return kind


for _kind in (
    PolicyKind("hold_at", "pigtheory.policies:HoldAt", params=("n",), check="mixture"),
    PolicyKind(
        "threshold_table",
        "pigtheory.policies:ThresholdTable",
        (("table", "int"),),
        ("clip",),
        check="mixture",
    ),
    PolicyKind(
        "mixed",
        "pigtheory.policies:MixedPolicy",
        (("thresholds", "int"), ("weights", "float")),
        check="mixture",
    ),
    PolicyKind(
        "stopping_rule",
        "pigtheory.stopping:StoppingRule",
        (("roll", "bool"),),
        extra_axes=("turn_total",),
        check="stopping",
    ),
    PolicyKind(
        "random_stopping_rule",
        "pigtheory.stopping:RandomStoppingRule",
        (("prob", "float"),),
        extra_axes=("turn_total",),
        check="stopping",
    ),
    PolicyKind(
        "roll_table",
        "pigtheory.policies.sequential:RollTable",
        (("roll", "bool"),),
        extra_axes=("turn_total", "forced"),
        sequential=True,
        check="roll",
    ),
    PolicyKind(
        "scoring_turns",
        "pigtheory.policies.sequential:ScoringTurns",
        params=("t",),
        sequential=True,
        check="roll",
    ),
    PolicyKind(
        "base_pace_race",
        "pigtheory.policies.sequential:BasePaceRace",
        params=("b", "p", "e"),
        sequential=True,
        check="roll",
    ),
    PolicyKind(
        "pace_race",
        "pigtheory.policies.sequential:PaceRace",
        params=("c", "d", "e"),
        sequential=True,
        check="roll",
    ),
    PolicyKind(
        "multiplayer_roll",
        "pigtheory.policies.multiplayer:MultiplayerRollTable",
        (("prob", "float"),),
        ("allow_pass",),
        extra_axes=("turn_total",),
        sequential=True,
        check="multiplayer",
    ),
):
    register_kind(_kind)


def policy_class(kind: PolicyKind) -> type | None:
    """The class of ``kind`` (imported from ``kind.cls``), or None when this pigtheory does not
    have it."""
    module, _, name = kind.cls.partition(":")
    try:
        return getattr(importlib.import_module(module), name, None)
    except ImportError:
        return None


def kind_named(name: Any, where: str) -> PolicyKind:
    """The kind called ``name``; ``ValueError`` naming ``where`` and the known kinds if none.

    Parameters
    ----------
    name : str
        A key of :data:`KINDS`.
    where : str
        The place the name was read from, for the error message.

    Returns
    -------
    PolicyKind
    """
    if isinstance(name, str) and name in KINDS:
        return KINDS[name]
    known = ", ".join(sorted(KINDS))
    raise ValueError(f"{where}: unknown policy kind {name!r} (expected one of {known})")


def kind_of(policy: Any) -> PolicyKind | None:
    """The kind whose class ``policy`` is an instance of (the most derived), or None."""
    best: tuple[int, PolicyKind] | None = None
    for kind in KINDS.values():
        cls = policy_class(kind)
        if cls is not None and isinstance(policy, cls):
            depth = len(cls.__mro__)
            if best is None or depth > best[0]:
                best = (depth, kind)
    return None if best is None else best[1]


def has_name_field(cls: type) -> bool:
    return dataclasses.is_dataclass(cls) and any(f.name == "name" for f in dataclasses.fields(cls))
