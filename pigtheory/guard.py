"""The resource guard: estimate a solve's states and memory before it starts, and refuse a
solve that cannot finish in memory.

Every public solver calls :func:`check_memory` with the estimate of one function below before
it allocates anything; above the limit it raises :class:`MemoryLimitError` (a ``ValueError``)
that gives the estimate, the limit and what to change. The limit is ``max_memory`` (the
keyword of every solver, ``--max-memory`` on the command line) or, by default, half of the
memory the machine has available now.

Estimates
---------
An estimate counts the arrays a solve allocates that grow with the problem: the value and
policy arrays of its result and the largest working arrays alive with them, in bytes, from
the shapes the solver uses (``g`` the goal, ``n`` the players, ``S = (g + 1) ** n`` the states).
It does not count the interpreter, the libraries or compiled code (a constant 100-300 MB);
every estimate adds 8 MiB for the small tables that do not grow with the problem.
The constants were measured on goals 50..800 (``benchmarks/bench_guard.py`` prints estimate
against measured peak; estimates are kept above the measurements).

Notes
-----
"Available" is ``MemAvailable`` of ``/proc/meminfo`` (Linux), lowered to what a cgroup
memory limit leaves (containers), else the physical memory (other systems), else 8 GiB
assumed (the message says which). Sizes are parsed by :func:`parse_memory`: a number of
bytes, or a number with a unit ``K``, ``M``, ``G``, ``T`` (powers of 1024; ``KB``/``KiB`` and
so on are accepted).

This module imports nothing heavy (no numpy): the command line parses ``--max-memory`` with it.

Examples
--------
>>> parse_memory("1.5G") == 3 * 2**29
True
>>> from pigtheory import Rules
>>> check_memory(best_response_estimate(Rules(goal=10**6)), max_memory="1G")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pigtheory.guard.MemoryLimitError: best response (exact, goal 1000000, 2 players): 1.0e+12 states need about ... TiB, above the memory limit of 1 GiB (max_memory=1G); lower the goal ...
"""

from __future__ import annotations

import math
import numbers
import os
import re
import time
from dataclasses import dataclass
from math import comb
from pathlib import Path
from typing import Any

__all__ = [
    "MemoryLimitError",
    "Estimate",
    "available_memory",
    "parse_memory",
    "memory_limit",
    "check_memory",
    "check_file_size",
    "format_bytes",
    "best_response_estimate",
    "win_probability_estimate",
    "equilibrium_estimate",
    "reduced_estimate",
    "sequential_estimate",
    "sequential_equilibrium_estimate",
    "compare_estimate",
    "simulation_estimate",
    "turn_total_estimate",
    "roll_model_bytes",
    "with_roll_model",
    "players_text",
    "BASE_BYTES",
    "FEWER",
]

_UNITS = {"": 1, "B": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40, "P": 2**50}
_SIZE = re.compile(r"\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*([KMGTP]?)(?:I?B)?\s*", re.IGNORECASE)
_FALLBACK = 8 * 2**30
_ASTRONOMICAL = 200
"""log2 of a state count past which estimates stop counting (no machine holds 2**200 bytes)."""

NO_LIMIT = _LARGEST = 2**60
"""The limit that means none (an exbibyte, more than any machine): every size from it on,
``inf`` and ``"none"`` are read as it (:func:`parse_memory`)."""

_UNLIMITED = ("none", "inf", "infinity", "unlimited", "no limit")

BASE_BYTES = _BASE = 8 * 2**20
"""Bytes every estimate adds for the tables that do not grow with the goal (X_k, kernels)."""


class MemoryLimitError(ValueError):
    """A solve would need more memory than the limit allows (raised before it starts)."""


@dataclass(frozen=True)
class Estimate:
    """What a solve will hold in memory at its peak.

    Attributes
    ----------
    task : str
        The solve, with the sizes that matter ("best response (exact, goal 100, 2 players)").
    states : int
        States (or table entries) it solves.
    bytes : int
        Estimated peak of its growing arrays.
    hint : str
        What to change to make it smaller.
    """

    task: str
    states: int
    bytes: int
    hint: str


def format_bytes(n: float) -> str:
    """``1536`` -> ``'1.5 KiB'``; sizes past a million PiB read ``'more than 10^21 bytes'``."""
    if abs(n) >= 2**70:
        return f"more than 10^{int(math.log10(abs(n)))} bytes"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if abs(n) < 1024 or unit == "PiB":
            return f"{n:.0f} {unit}" if unit == "B" or n >= 100 or n == int(n) else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError("unreachable")


def format_count(n: float) -> str:
    """``1234`` -> ``'1,234'``; from 10**9 on ``'1.2e+09'``; past a float, ``'more than 10^400'``."""
    if n < 10**9:
        return f"{n:,}"
    try:
        return f"{float(n):.1e}"
    except OverflowError:  # an int of more than 308 digits
        return f"more than 10^{len(str(int(n))) - 1}"


def parse_memory(value: Any, name: str = "max_memory") -> int:
    """A memory size in bytes: a number, or a string such as ``"512M"``, ``"4G"``, ``"1.5GiB"``.

    Any size from ``NO_LIMIT`` (an exbibyte) on, ``inf``, ``"inf"`` and ``"none"`` mean no
    limit: they are returned as ``NO_LIMIT``, more than any estimate of a solve that could
    start (``max_memory=1e99`` and ``--max-memory 1e99`` included).

    Raises
    ------
    ValueError
        Not a size (text that does not read as one, nan, a bool), or not at least 1 byte.
    """
    if isinstance(value, bool) or type(value).__name__ == "bool":  # numpy's bool too
        raise ValueError(f"{name} must be a size in bytes (e.g. 4G), got {value!r}")
    if isinstance(value, numbers.Real):  # numpy's numbers too
        size = float(value)
    elif isinstance(value, str) and value.strip().lower() in _UNLIMITED:
        size = math.inf
    elif isinstance(value, str) and (m := _SIZE.fullmatch(value)):
        size = float(m.group(1)) * _UNITS[m.group(2).upper()]
    else:
        size = math.nan
    if math.isnan(size):
        raise ValueError(
            f"{name} must be a size such as 512M, 4G, a number of bytes or 'none' (no limit), got {value!r:.80}"
        )
    if not size >= 1:
        raise ValueError(f"{name} must be at least 1 byte, got {value!r:.80}")
    return int(min(size, _LARGEST))


def _cgroup_room() -> int | None:
    """What a cgroup memory limit leaves, if there is one (v2, else v1)."""
    for limit_file, usage_file in (
        ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
        ("/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"),
    ):
        try:
            limit = Path(limit_file).read_text().strip()
            usage = int(Path(usage_file).read_text().strip())
        except (OSError, ValueError):
            continue
        if limit.isdigit() and int(limit) < 2**60:
            return max(int(limit) - usage, 0)
    return None


def available_memory() -> tuple[int, str]:
    """Bytes of memory available now, and where the number comes from (read at most once a
    second: a process that solves many small games does not read the system's files for each)."""
    now = time.monotonic()
    cached = _MEMORY_READ[0]
    if cached is not None and now - cached[0] < _MEMORY_TTL:
        return cached[1]
    found = _read_available_memory()
    _MEMORY_READ[0] = (now, found)
    return found


_MEMORY_TTL = 1.0
_MEMORY_READ: list[tuple[float, tuple[int, str]] | None] = [None]


def _read_available_memory() -> tuple[int, str]:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    avail = int(line.split()[1]) * 1024
                    room = _cgroup_room()
                    if room is not None and room < avail:
                        return room, "the cgroup's memory limit"
                    return avail, "available memory"
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"), "physical memory"
    except (AttributeError, OSError, ValueError):
        return _FALLBACK, "memory (unknown here, assumed 8 GiB)"


def memory_limit(max_memory: Any = None) -> tuple[int, str]:
    """The limit in bytes and how it was set: ``max_memory``, else half of what is available."""
    if max_memory is not None:
        return parse_memory(max_memory), f"max_memory={max_memory}"
    avail, source = available_memory()
    return avail // 2, f"half of the {format_bytes(avail)} of {source}"


def check_memory(estimate: Estimate | None, max_memory: Any = None) -> Estimate | None:
    """Raise :class:`MemoryLimitError` if ``estimate`` is above the limit; return it otherwise.

    ``estimate`` None (the estimator could not read its arguments; the solver's own checks
    will say why) passes, after ``max_memory`` is checked.
    """
    limit, source = memory_limit(max_memory)
    if estimate is not None and estimate.bytes > limit:
        states = format_count(estimate.states)
        raise MemoryLimitError(
            f"{estimate.task}: {states} states need about {format_bytes(estimate.bytes)}, above the memory "
            f"limit of {format_bytes(limit)} ({source}); {estimate.hint}, or raise max_memory "
            "(--max-memory) if the machine has the memory"
        )
    return estimate


def check_file_size(path: Any, nbytes: int, factor: float = 1.0) -> None:
    """Refuse to read a file whose contents would take ``factor * nbytes`` of memory above the
    default limit (a file is never worth more than half of the memory)."""
    limit, source = memory_limit(None)
    if nbytes * factor > limit:
        raise MemoryLimitError(
            f"{path}: reading it would take about {format_bytes(nbytes * factor)}, above the memory limit "
            f"of {format_bytes(limit)} ({source}); policy files are tables of at most a few million entries"
        )


# --- estimates ---------------------------------------------------------------------------


def roll_model_bytes(rules: Any) -> int:
    """Memory of the rules' roll model and turn-total tables: one exact probability per outcome
    of a roll (``die_faces`` or ``die_faces ** 2`` of them) and two float tables of one row per
    score and one column per gain of a roll. Small for every real die; it is what a die of a
    billion faces would cost, so that such rules are refused instead of filling the memory."""
    outcomes = rules.die_faces**rules.dice
    widest = max(rules.face_points) if rules.face_points else rules.die_faces
    width = widest * rules.dice + 1
    return 200 * outcomes + 16 * (rules.goal + 1) * width


def with_roll_model(estimate: Any = None, *, name: str | None = None) -> Any:
    """Decorator: an estimate of rules ``rules`` plus :func:`roll_model_bytes` (every solver
    reads the roll model before its own arrays), and a refusal of rules whose ``(goal + 1) **
    players`` is astronomical before the estimate computes it.

    Used bare (``@with_roll_model``) or with the solve's ``name`` for that refusal's message
    (``@with_roll_model(name="stackelberg")``; default: the function's name less
    ``_estimate``). Each solver module decorates its own ``estimate_memory`` with it.
    """
    import functools

    if estimate is None:
        return functools.partial(with_roll_model, name=name)
    label = name or estimate.__name__.removesuffix("_estimate").replace("_", " ")

    @functools.wraps(estimate)
    def wrapped(rules: Any, *args: Any, **kwargs: Any) -> Estimate | None:
        if _rules_ok(rules) and rules.players * math.log2(rules.goal + 2) > _ASTRONOMICAL:
            # (goal + 1) ** players itself would take the time: no solve of this size exists
            return Estimate(f"{label} ({_players(rules)})", 2**_ASTRONOMICAL, 2**_ASTRONOMICAL, _FEWER)
        found = estimate(rules, *args, **kwargs)
        if found is None or not _rules_ok(rules):
            return found
        extra = roll_model_bytes(rules)
        if extra < 2**20:
            return found
        return Estimate(found.task, found.states, found.bytes + extra, found.hint + " or use a smaller die")

    return wrapped


_with_roll_model = with_roll_model


# Each returns None when its arguments are not what the solver accepts (the solver's own
# validation then raises the right ValueError).


def _is(value: Any, word: str) -> bool:
    """``value == word`` for a str (an object of another library may raise on ``==``; the
    solver's own check names the argument)."""
    return isinstance(value, str) and value == word


def _rules_ok(rules: Any) -> bool:
    from .rules import Rules

    return isinstance(rules, Rules)


def players_text(rules: Any) -> str:
    """``"goal 100, 3 players"``: the sizes an estimate's task names."""
    return f"goal {rules.goal}, {rules.players} players"


_players = players_text

FEWER = "lower the goal or the number of players"
"""The hint of an estimate that grows with the goal and the players."""

_FEWER = FEWER


@_with_roll_model
def best_response_estimate(
    rules: Any, *, method: str = "exact", strategies: str = "thresholds"
) -> Estimate | None:
    """:func:`pigtheory.simultaneous.best_response` (and :func:`~pigtheory.simultaneous.exploitability`)."""
    if not _rules_ok(rules):
        return None
    g, n = rules.goal, rules.players
    states = (g + 1) ** n
    if n == 2:
        # value, policy, the X_k band tables and one score level's action values
        need = 24 * states + 120 * g * g + _BASE
    else:
        # the full value and policy, the expansion's index arrays (n - 1 per state) and the
        # reduced solution it expands
        need = 8 * states * (n + 3) + 16 * g * comb(g + n - 2, n - 1) + _BASE
    if _is(method, "value_iteration"):  # the sweeps hold every state's action values at once
        need += 40 * states * g
    if _is(strategies, "stopping"):
        # the roll table (one byte per state and turn total), the threshold values and k, and
        # one level's continuation against opponents whose turns end on any of goal + 1 gains
        need += states * g + 24 * g**n + 16 * g * (g + 1) ** 2
    return Estimate(f"best response ({method}, {_players(rules)})", states, need, _FEWER)


@_with_roll_model
def win_probability_estimate(rules: Any) -> Estimate | None:
    """:func:`~pigtheory.simultaneous.win_probability` and ``win_probabilities``."""
    if not _rules_ok(rules):
        return None
    g, n = rules.goal, rules.players
    states = (g + 1) ** n
    need = 48 * states + 8 * n * g**n + _BASE
    return Estimate(f"win probabilities ({_players(rules)})", states, need, _FEWER)


@_with_roll_model
def equilibrium_estimate(rules: Any, *, strategies: str = "thresholds") -> Estimate | None:
    """:func:`~pigtheory.simultaneous.equilibrium`: values, certificates, and two stage games of
    thresholds by thresholds at a time; over stopping rules also the behavioural rule of every
    state and turn total and one score level's payoff tables (states by gains by gains)."""
    if not _rules_ok(rules):
        return None
    g = rules.goal
    states = (g + 1) ** 2
    need = 320 * states + 64 * g * g + _BASE
    if _is(strategies, "stopping"):
        need += 8 * g**3 + 24 * g * (g + 1) ** 2
    return Estimate(f"equilibrium (goal {g})", states, need, "lower the goal")


@_with_roll_model
def reduced_estimate(rules: Any, *, opponents: Any = None, symmetric: Any = None) -> Estimate | None:
    """:func:`~pigtheory.simultaneous.reduced_best_response`: value and policy over the
    opponents' score tuples (multisets when symmetric), and the numpy engine's blocks.

    With ``symmetric=None`` the opponents count as identical (the small, multiset form) only
    when they are one policy or equal ones; otherwise the estimate is for every tuple."""
    if not _rules_ok(rules):
        return None
    g, m = rules.goal, rules.players - 1
    if symmetric is None:
        seq = opponents if isinstance(opponents, (list, tuple)) else [opponents]
        try:
            symmetric = all(o is seq[0] or bool(o == seq[0]) for o in seq)
        except (ValueError, TypeError, IndexError):
            symmetric = False
    cols = comb(g + m, m) if symmetric else (g + 1) ** m
    states = (g + 1) * cols
    return Estimate(f"reduced best response ({_players(rules)})", states, 64 * states + _BASE, _FEWER)


@_with_roll_model
def sequential_estimate(rules: Any) -> Estimate | None:
    """:func:`pigtheory.sequential.solve`: ``value[i, j, k]`` and ``roll[i, j, k]`` (twice for
    Double Trouble's forced-roll flag) and the sweeps' working copies."""
    if not _rules_ok(rules):
        return None
    g = rules.goal
    states = g**3 * (2 if rules.double_trouble else 1)
    per = 12 if rules.dice == 1 else 40
    return Estimate(
        f"sequential solve ({rules})", states, per * states + 64 * g * g + _BASE, "lower the goal"
    )


@_with_roll_model
def sequential_equilibrium_estimate(rules: Any, *, certify: bool = True) -> Estimate | None:
    """:func:`pigtheory.sequential.equilibrium`: per score tuple (``g ** n`` of them) the start
    values of every player (``8 n`` bytes), the packed roll bits (``ceil(g / 8)``), the group
    order (8 per group) and, with the certificates, the deviation gains (8) and the best
    response values (``8 n``, freed before the result is built). Values at turn totals k > 0
    are never stored."""
    if not _rules_ok(rules):
        return None
    g, n = rules.goal, rules.players
    states = g**n
    per = 8 * n + (g + 7) // 8 + 8 // n + 1 + (8 + 8 * n if certify else 0)
    return Estimate(
        f"multiplayer sequential equilibrium ({rules})",
        states * g,
        per * states + 64 * g * n + _BASE,
        "lower the goal or the players, or pass certify=False",
    )


@_with_roll_model
def compare_estimate(rules: Any, *, policies: tuple = ()) -> Estimate | None:
    """:func:`pigtheory.sequential.compare`: each policy's roll tables and turn matrices
    ``T[i, j, s]`` (one per value of its counter: "t scoring turns" keeps t)."""
    if not _rules_ok(rules):
        return None
    g = rules.goal
    counters = sum(p.t if isinstance(getattr(p, "t", None), int) else 1 for p in policies) or 2
    states = counters * g**3
    return Estimate(f"policy comparison ({rules})", states, 28 * states + _BASE, "lower the goal")


@_with_roll_model
def simulation_estimate(rules: Any, *, games: Any, width: int = 1) -> Estimate | None:
    """Monte Carlo play: a few arrays of one entry per game and player."""
    if not _rules_ok(rules) or not isinstance(games, int) or games < 1:
        return None
    n = rules.players * max(width, 1)
    return Estimate(
        f"simulation ({games:,} games, {rules.players} players)",
        games * n,
        64 * games * n + _BASE,
        "simulate fewer games",
    )


def turn_total_estimate(k: Any, *, exact: bool = False, rules: Any = None) -> Estimate | None:
    """:func:`pigtheory.turn_total`: one probability per turn total below k (exact fractions
    with denominators of about 2.6 k bits), plus the roll model of ``rules`` if given."""
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        return None
    per = 64 + k // 3 if exact else 80
    need = per * k + _BASE
    hint = "lower k"
    if _rules_ok(rules):
        need += roll_model_bytes(rules.replace(goal=max(rules.goal, k)))
        hint += " or use a smaller die"
    return Estimate(f"turn total X_{k}", k, need, hint)
