"""The result family: frozen dataclasses of read-only arrays that save and load themselves.

Every solver returns a :class:`Result`. A field name means the same thing in every result
that has it; a result without the concept leaves the field out (it does not fill it with a
placeholder):

``value``
    Win probability of the player the result is about (array over states, own score first;
    a float where the result is one number, such as the value of a matrix game).
``policy``
    The policy found: a threshold table (int array, own score first), a roll table (bool,
    sequential play) or a policy object (:class:`~pigtheory.policies.MixedPolicy`).
``iterations``
    Sweeps of an iteration, or levels of a backward induction: how many times the solver
    passed over the states. Counts of other things have their own names (``n_lp``,
    ``n_states``, ``n_equilibria``, ``n_pairs``).
``residual``
    How far from exact the answer may be: the last sweep's largest change, or a
    certificate's gap; 0.0 for exact methods.
``method``
    Which algorithm produced the result (a short text).
``rules``
    The :class:`~pigtheory.rules.Rules` solved.

No result holds wall-clock times (time a solver from outside if you need to). Arrays are made
read-only in place when a result is built (including arrays inside tuples, lists and dicts;
policy objects freeze their own), so a result can be shared and cached safely.

Every result saves to one ``.npz`` file and loads back with its type:
``result.save(path)``, ``Type.load(path)`` (checks the type) or :func:`pigtheory.load`
(any type); see :mod:`pigtheory.io` for the format.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Self

import numpy as np

from . import _wiring
from .display import Display
from .rules import Rules

__all__ = [
    "Result",
    "Solution",
    "Exploitability",
    "Saveable",
    "freeze",
    "register_files",
    "check_shapes",
    "score_shape",
]

_FILES: dict[str, Callable[..., Any]] = {}


def register_files(save: Callable[..., Path], load: Callable[..., Any]) -> None:
    """Install the file formats behind :meth:`Saveable.save` and :meth:`Saveable.load`.

    :mod:`pigtheory.io` calls this when it is imported: the results and policies sit below the
    files layer and import none of it; the formats register themselves with them.

    Parameters
    ----------
    save : callable
        ``save(obj, path, *, compress)``, as :func:`pigtheory.io.save`.
    load : callable
        ``load(path, *, expected)``, as :func:`pigtheory.io.load`.
    """
    _FILES.update(save=save, load=load)


def _files() -> dict[str, Callable[..., Any]]:
    if not _FILES and _wiring.load_files is not None:  # the files layer is not loaded yet:
        _wiring.load_files()  # the package root's loader imports it (and it registers)
    if not _FILES:
        raise RuntimeError("pigtheory.io has not registered its file formats (import pigtheory.io)")
    return _FILES


class Saveable(Display):
    """Mixin of every result and policy type: :meth:`save` and :meth:`load` (and, from
    :class:`pigtheory.display.Display`, a short ``repr``, an HTML one and ``to_frame()``).

    The formats are those of :mod:`pigtheory.io` (:func:`pigtheory.io.save`), which registers
    itself here (:func:`pigtheory.results.register_files`); if nothing has imported it yet, the
    loader the package root installs does (``pigtheory._wiring``).
    """

    __slots__ = ()

    def save(self, path: str | os.PathLike, *, compress: bool = True) -> Path:
        """Write this object to ``path``, atomically (mode 0644); returns the path.

        ``.npz`` keeps the whole object; ``.json``, ``.csv`` and ``.npy`` write its policy
        as a policy file (see :mod:`pigtheory.io`). Missing folders are created.
        """
        return _files()["save"](self, path, compress=compress)

    @classmethod
    def load(cls, path: str | os.PathLike) -> Self:
        """Read an object of this type (or a subclass) from ``path``.

        Raises
        ------
        ValueError
            The file is missing, not a pigtheory file, or holds another type.
        """
        return _files()["load"](path, expected=cls)


def _freeze_value(v: Any) -> None:
    if isinstance(v, np.ndarray):
        v.setflags(write=False)
    elif isinstance(v, (tuple, list)):
        for item in v:
            _freeze_value(item)
    elif isinstance(v, dict):
        for item in v.values():
            _freeze_value(item)


def freeze(obj: Any) -> None:
    """Make every numpy array of a dataclass instance read-only, in place.

    Arrays directly in a field and arrays inside tuples, lists and dicts held by a field are
    frozen; nested dataclasses (policies) freeze their own arrays.
    """
    for f in fields(obj):
        _freeze_value(getattr(obj, f.name))


@dataclass(frozen=True, eq=False)
class Result(Saveable):
    """Base of every result (see the module docstring for the meaning of the common fields).

    Subclasses are frozen dataclasses (``eq=False``: arrays have no single truth value);
    building one makes its arrays read-only. ``save(path)`` and ``load(path)`` come from
    :class:`Saveable`.
    """

    def __post_init__(self) -> None:
        freeze(self)
        check_shapes(self, self._expected_shapes())

    def _expected_shapes(self) -> dict[str, tuple[int, ...]]:
        """Shapes the arrays of this result must have, by field (those it can tell from its rules).

        A result built from a file is checked against them, so that an archive whose arrays
        do not fit its rules (a 10 x 10 table that claims a million players) is refused.
        """
        return {}


def score_shape(rules: Rules, size: int, extra: tuple[int, ...] = ()) -> tuple[int, ...]:
    """``(size,) * players + extra``: the shape of an array over every player's score."""
    if rules.players > 64:  # numpy's largest number of dimensions: no array has this shape
        return (size,) * 65
    return (size,) * rules.players + extra


def check_shapes(obj: Any, shapes: dict[str, tuple[int, ...]]) -> None:
    """Refuse arrays of ``obj`` whose shape differs from ``shapes[field]``.

    A field named ``value`` must also hold probabilities: in [0, 1], or NaN where the result
    marks a state it does not define.
    """
    for name, shape in shapes.items():
        a = getattr(obj, name, None)
        if not isinstance(a, np.ndarray):
            continue
        if a.shape != shape:
            want = f"{len(shape)} axes" if len(shape) > 8 else f"shape {shape}"
            raise ValueError(
                f"{name}: {type(obj).__name__} for {getattr(obj, 'rules', 'its rules')} needs {want}, "
                f"got shape {a.shape}"
            )
        if name == "value" and a.size and a.dtype.kind == "f":
            lo, hi = _known_range(a)  # NaN marks states a result leaves out (e.g. i + k >= goal)
            if not np.isnan(lo) and (lo < -1e-9 or hi > 1 + 1e-9):
                raise ValueError(
                    f"value: {type(obj).__name__} holds win probabilities in [0, 1], got values from "
                    f"{lo!r} to {hi!r}"
                )


_RANGE_BLOCK = 1 << 16
"""Entries per block of :func:`_known_range` (512 KB of float64: both reductions read a block
while it is in the cache)."""


def _known_range(a: np.ndarray) -> tuple[float, float]:
    """The smallest and largest entries of ``a`` that are not NaN (NaN, NaN if there are none),
    in one pass over memory and without a copy (``fmin``/``fmax`` skip NaN): a one-die result at
    goal 500 holds 125 million values, whose masked copy took 1.5-2.6 s."""
    flat = a.ravel(order="K")  # a view wherever the memory is one block
    lo, hi = np.nan, np.nan
    for start in range(0, flat.size, _RANGE_BLOCK):
        block = flat[start : start + _RANGE_BLOCK]
        lo = np.fmin(lo, np.fmin.reduce(block))
        hi = np.fmax(hi, np.fmax.reduce(block))
    return float(lo), float(hi)


@dataclass(frozen=True, eq=False)
class Solution(Result):
    """An optimal (or best-response) policy with its value.

    Attributes
    ----------
    value : numpy.ndarray
        Win probability of the player at the start of a turn; shape ``(goal + 1,) * players``
        for simultaneous play, index ``goal`` meaning "has reached the goal" (terminal).
    policy : numpy.ndarray of int
        Threshold at every non-terminal state, shape ``(goal,) * players``, own score first.
    iterations : int
        Sweeps (value iteration) or backward-induction levels (exact).
    residual : float
        Largest change of the last sweep (value iteration); 0.0 for exact methods.
    method : str
    rules : Rules
    """

    value: np.ndarray
    policy: Any
    iterations: int
    residual: float
    method: str
    rules: Rules

    def _expected_shapes(self) -> dict[str, tuple[int, ...]]:
        if not isinstance(self.rules, Rules):
            raise ValueError(f"rules must be a pigtheory.Rules, got {type(self.rules).__name__}")
        g = self.rules.goal
        return {"value": score_shape(self.rules, g + 1), "policy": score_shape(self.rules, g)}


@dataclass(frozen=True, eq=False)
class Exploitability(Result):
    """How far a profile is from an equilibrium, seat by seat: the one return type of every
    ``exploitability`` (:func:`pigtheory.referee.exploitability` in sequential play,
    :func:`pigtheory.simultaneous.exploitability` in simultaneous play).

    NashConv is the sum over seats of what a best response gains over the profile,
    :math:`\\sum_p (\\max_{\\pi'_p} v_p(\\pi'_p, \\pi_{-p}) - v_p(\\pi))`; the exploitability
    is its mean over seats, in win probability. OpenSpiel's ``exploitability`` measures the
    same in its returns (win 1, loss ``-1/(n - 1)``): ``nash_conv / (n - 1)``.

    Attributes
    ----------
    value : numpy.ndarray, shape ``(players,)``
        Each seat's score under the profile.
    best_response : numpy.ndarray, shape ``(players,)``
        Each seat's score when it alone switches to its best response.
    gains : numpy.ndarray, shape ``(players,)``
        ``best_response - value`` (>= 0 up to rounding).
    nash_conv : float
        The sum of the gains.
    exploitability : float
        Their mean, ``nash_conv / players``.
    openspiel_exploitability : float
        OpenSpiel's ``exploitability`` of the same profile, in its returns:
        ``nash_conv / (players - 1)``.
    rules : Rules
    horizon : int or None
    """

    value: np.ndarray
    best_response: np.ndarray
    gains: np.ndarray
    nash_conv: float
    exploitability: float
    openspiel_exploitability: float
    rules: Rules
    horizon: int | None

    @classmethod
    def of(cls, value: Any, best_response: Any, rules: Rules, horizon: int | None = None) -> Exploitability:
        """The record of each seat's ``value`` under the profile and its ``best_response`` value."""
        value = np.asarray(value, dtype=float)
        best_response = np.asarray(best_response, dtype=float)
        gains = best_response - value
        nc = float(gains.sum())
        n = gains.size
        return cls(value, best_response, gains, nc, nc / n, nc / (n - 1), rules, horizon)
