"""The seeded generator that the Python and the JavaScript games share.

A seeded game must be the same game in the terminal, in the browser and in the tests, so
both languages implement one small generator and the two ways the game draws from it, with
integer arithmetic only (no floating point that could round differently):

* :class:`Mulberry32`, a 32-bit counter-based generator: the state advances by a fixed odd
  constant and each output is a hash of the state (three xor-shift-multiply rounds);
* :meth:`Mulberry32.below` draws a uniform integer in ``0..n-1`` by rejection (outputs in the
  incomplete last block of n are drawn again), so a die has no modulo bias;
* :meth:`Mulberry32.pick` draws an index from integer weights that sum to ``2**32``
  (:func:`quantize_weights`), one output per draw.

A game uses two streams (:func:`streams`): one for the person's dice, one for the opponent's
dice and mixed choices, so the opponent's luck does not depend on how often the person rolled.

Notes
-----
Mulberry32 (Tommy Ettinger, 2017, public domain) is statistically adequate for games, not for
cryptography or large simulations (the library's Monte Carlo code uses numpy's generators).
The JavaScript twin is ``pigtheory/play/static/engine.js``.

Examples
--------
>>> rng = Mulberry32(1)
>>> [rng.next_uint32() for _ in range(2)]
[2693262067, 11749833]
>>> Mulberry32(7).below(6) in range(6)
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["Mulberry32", "streams", "quantize_weights", "TOTAL_WEIGHT"]

_MASK = 0xFFFFFFFF
TOTAL_WEIGHT = 1 << 32
"""Integer weights of a mixed choice sum to this (one generator output is compared with them)."""


def _imul(a: int, b: int) -> int:
    """The low 32 bits of a product (JavaScript's ``Math.imul`` read as unsigned)."""
    return (a * b) & _MASK


class Mulberry32:
    """The mulberry32 generator of 32-bit unsigned integers.

    Parameters
    ----------
    seed : int
        ``0 <= seed < 2**32``.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or not 0 <= seed <= _MASK:
            raise ValueError(f"seed must be an integer in 0..{_MASK}, got {seed!r}")
        self.state = int(seed)

    def next_uint32(self) -> int:
        """The next output, ``0 <= x < 2**32``."""
        self.state = (self.state + 0x6D2B79F5) & _MASK
        t = self.state
        t = _imul(t ^ (t >> 15), t | 1)
        t = ((t + _imul(t ^ (t >> 7), t | 61)) & _MASK) ^ t
        return (t ^ (t >> 14)) & _MASK

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (``1 <= n <= 2**32``), by rejection."""
        if not 1 <= n <= TOTAL_WEIGHT:
            raise ValueError(f"n must be in 1..2**32, got {n}")
        limit = TOTAL_WEIGHT - TOTAL_WEIGHT % n
        while True:
            x = self.next_uint32()
            if x < limit:
                return x % n

    def pick(self, weights: Sequence[int]) -> int:
        """An index drawn with probability ``weights[s] / 2**32`` (integer weights summing to
        ``2**32``, see :func:`quantize_weights`); consumes exactly one output."""
        u = self.next_uint32()
        acc = 0
        for s, w in enumerate(weights):
            acc += int(w)
            if u < acc:
                return s
        raise ValueError("weights must sum to 2**32")


def streams(seed: int) -> tuple[Mulberry32, Mulberry32]:
    """The person's and the opponent's generators of a game with this seed.

    Parameters
    ----------
    seed : int
        ``0 <= seed < 2**32``.

    Returns
    -------
    you, opponent : Mulberry32
        Seeded with ``seed`` and ``seed + 0x9E3779B9`` (mod ``2**32``), as the page's
        ``engine.js`` seeds them.

    Examples
    --------
    >>> you, opp = streams(5)
    >>> you.state, opp.state
    (5, 2654435774)
    """
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or not 0 <= seed <= _MASK:
        raise ValueError(f"seed must be an integer in 0..{_MASK}, got {seed!r}")
    return Mulberry32(int(seed)), Mulberry32((int(seed) + 0x9E3779B9) & _MASK)


def quantize_weights(weights: np.ndarray) -> np.ndarray:
    """Integer weights summing to ``2**32`` along the last axis, closest to ``weights * 2**32``.

    Largest-remainder rounding: each weight is off by less than one part in ``2**32``, far
    below anything a game can show; zero weights stay zero.

    Examples
    --------
    >>> quantize_weights(np.array([1 / 3, 2 / 3, 0.0])).tolist()
    [1431655765, 2863311531, 0]
    """
    w = np.asarray(weights, dtype=float)
    if np.any(w < 0) or not np.allclose(w.sum(axis=-1), 1.0, atol=1e-9):
        raise ValueError("weights must be >= 0 and sum to 1 along the last axis")
    w = w / w.sum(axis=-1, keepdims=True)
    exact = w * TOTAL_WEIGHT
    out = np.floor(exact).astype(np.int64)
    short = TOTAL_WEIGHT - out.sum(axis=-1)
    order = np.argsort(-(exact - out), axis=-1, kind="stable")
    rank = np.argsort(order, axis=-1, kind="stable")
    out += rank < short[..., None]
    return out
