"""Plan a chunked multiplayer equilibrium before paying for it: sizes, tasks, time, memory.

Notes
-----
**Counts.** The canonical groups of score sum ``s`` (rotation classes of n-tuples in
``0..g-1`` with sum ``s``) follow from Burnside's lemma: a rotation with ``e = gcd(k, n)``
cycles fixes the tuples of period e, whose sum is ``(n / e)`` times the sum of their first e
entries, so

.. math::

    \\#\\text{groups}(s) = \\frac{1}{n} \\sum_{e \\mid n} \\varphi(n / e)\\, N_e\\!\\Big(\\frac{s e}{n}\\Big)
    \\quad [\\tfrac{n}{e} \\mid s],

with :math:`N_e(x)` the number of e-tuples in ``0..g-1`` with sum x (a coefficient of
:math:`(1 + z + \\dots + z^{g-1})^e`). Tasks: :math:`\\sum_s \\lceil \\#\\text{groups}(s) /
\\text{chunk} \\rceil`.

**Time.** A task's CPU time is modelled as :math:`a + b\\, G n^2 g` for ``G`` groups (the rows
it gathers and the certificate's work are both ``n g n`` per group), with ``b`` growing by a
constant for each doubling of a score sum's rows past the cache: ``a`` and ``b`` measured on
this machine (:data:`COSTS`). The score sums form a chain (sum s reads s + 1), so with W
workers the wall time is :math:`\\sum_s \\max(\\lceil T_s / W \\rceil t_s, T_s c)` (``T_s`` tasks of
sum s, ``t_s`` the time of one, ``c`` the client's time per task: one client hands out and
collects every task, one at a time); the *critical path* is
the same sum with unlimited workers, one task time per score sum.

**Memory.** Per worker: the largest task's arrays
(:func:`~pigtheory.sequential.multiplayer.chunked.task_bytes`); the rank table and the rows
(values and best-response values) of one score sum, ``4 + 16 n`` bytes a tuple, since a task
maps the g - 1 sums it reads one at a time and lets each go (``index_bytes``: clean pages, but
counted in the worker's resident memory once touched); and the worker's own (Python, numpy,
numba, the compiled kernels: :data:`COSTS` ``base_mb``).

References
----------
W. Burnside, *Theory of groups of finite order* (1897): counting orbits (necklaces).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from math import gcd, log2
from typing import Any

from ...guard import BASE_BYTES, format_bytes, parse_memory
from ...rules import Rules
from ...validation import check_int
from .chunked import chunk_groups, estimate_disk, task_bytes

__all__ = ["ChunkedPlan", "plan", "groups_by_sum", "COSTS"]

COSTS = {
    "task_s": 0.0257,
    "unit_ns": 25.6,
    "cache_ns": 5.47,
    "cache_mb": 32.0,
    "base_mb": 190.0,
    "scheduler_s": 0.01,
    "client_s": 1.0,
}
"""Measured on the 2-core machine of this repository (shared, load 2-5) from eight chunked
solves (``benchmarks/record_sequential_chunked.py``: 3 players goals 60 and 100, 4 players
goals 30 and 50, 5 players goals 20 and 30, 6 players goals 14 and 18; serial, and 2-worker
``LocalCluster`` at 4p50 and 6p18), least squares of each run's CPU time less ``client_s`` on
its tasks, its group-units ``G n^2 g`` and the group-units times ``log2(L / cache_mb)`` where
``L`` (the rows of the largest score sum, ``16 n`` bytes a tuple) exceeds the cache: ``task_s``
fixed CPU seconds per task, ``unit_ns`` nanoseconds per group-unit, ``cache_ns`` more per
group-unit for each doubling of ``L`` past ``cache_mb`` MiB (the gather's scattered reads
leave the cache); every run within 28% of the fit. ``base_mb`` a worker's memory besides the
task's arrays (peak 200-250 MB measured), ``scheduler_s`` the client's time per task,
``client_s`` its fixed CPU time (the store's group lists and rank tables, the imports)."""


def _phi(k: int) -> int:
    return sum(1 for i in range(1, k + 1) if gcd(i, k) == 1)


def _tuples_by_sum(e: int, g: int) -> list[int]:
    """``N_e(x)`` for x = 0 .. e (g - 1): e-tuples in 0..g-1 by their sum."""
    poly = [1]
    for _ in range(e):
        out = [0] * (len(poly) + g - 1)
        for i, c in enumerate(poly):
            for j in range(g):
                out[i + j] += c
        poly = out
    return poly


def groups_by_sum(n: int, g: int) -> list[int]:
    """Canonical rotation groups of n-tuples in ``0..g-1`` by score sum (module Notes):
    ``out[s]`` for s = 0 .. n (g - 1)."""
    top = n * (g - 1)
    out = [0] * (top + 1)
    for e in (e for e in range(1, n + 1) if n % e == 0):
        fold, w = n // e, _phi(n // e)
        poly = _tuples_by_sum(e, g)
        for x, c in enumerate(poly):
            out[x * fold] += w * c
    return [c // n for c in out]


@dataclass(frozen=True)
class ChunkedPlan:
    """What a chunked equilibrium will cost (:func:`plan`)."""

    players: int
    goal: int
    tuples: int
    groups: int
    levels: int
    chunk: int
    tasks: int
    disk_bytes: int
    worker_memory_bytes: int
    workers: int
    cpu_hours: float
    wall_hours: float
    critical_path_hours: float
    largest_level_groups: int
    index_bytes: int

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def text(self) -> str:
        """A few lines for a terminal."""

        size = format_bytes

        return "\n".join(
            [
                f"chunked equilibrium, {self.players} players to {self.goal} (plan, nothing solved)",
                f"  score tuples        {self.tuples:.3e} in {self.groups:.3e} rotation groups",
                f"  levels              {self.levels} score sums (largest: {self.largest_level_groups:,} groups)",
                f"  tasks               {self.tasks:,} of up to {self.chunk:,} groups",
                f"  store on disk       {size(self.disk_bytes)}",
                f"  memory per worker   {size(self.worker_memory_bytes)} "
                f"(of which mapped rank tables and rows {size(self.index_bytes)})",
                f"  CPU                 {self.cpu_hours:.3g} hours",
                f"  wall on {self.workers:<4} workers {self.wall_hours:.3g} hours "
                f"(critical path {self.critical_path_hours:.3g} h)",
            ]
        )


def plan(
    *,
    rules: Rules,
    workers: int = 1,
    worker_memory: Any = None,
    chunk: int | None = None,
    certify: bool = True,
) -> ChunkedPlan:
    """The plan of ``equilibrium(rules=rules, store=...)`` on ``workers`` workers, without solving.

    Parameters
    ----------
    rules : Rules
        One die, 2..10 players.
    workers : int
        Workers the tasks run on (1 .. 10**6).
    worker_memory : int or str, optional
        Memory of one worker ("3G"); without ``chunk``, the largest chunk whose arrays fill
        half of it (fewer, larger tasks: less of the client's time per task).
    chunk : int, optional
        Groups per task (default :func:`~pigtheory.sequential.multiplayer.chunked.chunk_groups`).
    certify : bool
        With the certificates (the store's best-response values and gains).

    Returns
    -------
    ChunkedPlan

    Examples
    --------
    >>> p = plan(rules=Rules(players=5, goal=100), workers=64)
    >>> p.tuples, p.levels
    (10000000000, 496)
    """
    from .equilibrium import check_multiplayer_rules

    check_multiplayer_rules(rules)
    workers = check_int("workers", workers, low=1, high=10**6)
    n, g = rules.players, rules.goal
    base = int(COSTS["base_mb"] * 2**20)
    counts = groups_by_sum(n, g)
    # a task maps the rank table (4 bytes a tuple) and the rows (values, and best-response
    # values with certify: 8 n bytes each) of one score sum at a time
    window = max(_tuples_by_sum(n, g)) * (4 + (16 if certify else 8) * n)
    if chunk is not None:
        chunk = check_int("chunk", chunk, low=1)
    elif worker_memory is None:
        chunk = chunk_groups(rules)
    else:  # the largest chunk whose arrays fill half the worker (the rest: pages it maps)
        room = parse_memory(worker_memory, "worker_memory") // 2 - base - window
        chunk = max(16, max(room, 0) // (task_bytes(rules, 1) - BASE_BYTES))
    if worker_memory is not None:
        mem = parse_memory(worker_memory, "worker_memory")
        if task_bytes(rules, chunk) + base + window > mem:
            raise ValueError(
                f"worker_memory: {worker_memory!r} is below one task of {chunk} groups, the rank tables and rows "
                f"it reads ({format_bytes(window)}) and a worker's base"
            )
    tasks = crit = 0.0
    cpu = wall = COSTS["client_s"]
    over = max(0.0, log2(max(_tuples_by_sum(n, g)) * 16 * n / (COSTS["cache_mb"] * 2**20)))
    unit = (COSTS["unit_ns"] + COSTS["cache_ns"] * over) * 1e-9
    for c in counts:
        if not c:
            continue
        t_s = -(-c // chunk)
        per = COSTS["task_s"] + unit * min(c, chunk) * n * n * g
        tasks += t_s
        cpu += COSTS["task_s"] * t_s + unit * c * n * n * g
        wall += max(-(-t_s // workers) * per, t_s * COSTS["scheduler_s"])  # the client: one at a time
        crit += per
    return ChunkedPlan(
        players=n,
        goal=g,
        tuples=g**n,
        groups=sum(counts),
        levels=len(counts),
        chunk=chunk,
        tasks=int(tasks),
        disk_bytes=estimate_disk(rules, certify),
        worker_memory_bytes=task_bytes(rules, chunk) + base + window,
        index_bytes=window,
        workers=workers,
        cpu_hours=cpu / 3600,
        wall_hours=wall / 3600,
        critical_path_hours=crit / 3600,
        largest_level_groups=max(counts),
    )
