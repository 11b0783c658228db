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

**Time.** A task of ``G`` groups at score sum ``s`` costs, in CPU seconds,

.. math::

    t = a + b\\, G n^2 g + f\\, F + h\\, H,

``a`` fixed, ``b`` per group-unit (solving and certifying: ``n g n`` per group), ``f`` per
chunk file it opens and ``h`` per hold it copies (:data:`COSTS`, measured on this machine).
``H`` is the holds that land in score sum ``s + k``, ``H_k = G n P_k(s)``, with
:math:`P_k(s) = \\sum_{a \\le g - 1 - k} N_{n-1}(s - a) / N_n(s)` the share of the sum's tuples
whose mover's score is at most ``g - 1 - k`` (every rotation has a mover); ``F`` the chunk
files those holds reach, ``C (1 - (1 - 1/C)^{H_k})`` of the ``C`` chunks of sum ``s + k``,
one file per part read (the values, and the best-response values with the certificates):
targets placed at random, an upper estimate (the targets of neighbouring groups cluster; in
small solves the files opened were 0.48 to 0.65 of it, and ``f`` absorbs that share).
Small chunks make many tasks that each open most chunk files of the g - 1 sums above: ``F``
grows as the square of the chunks per sum, which is what a plan with larger chunks saves.
The score sums form a chain (sum s reads s + 1): a sum of fewer chunks than workers, or
with a short last chunk, leaves workers waiting, unless the solve cuts each sum for them
(``spread`` W, :func:`~.group_store.cut`: a multiple of W equal chunks), which costs more
files. With W workers the wall time is :math:`\\sum_s \\max(\\lceil T_s / W \\rceil t_s, T_s c)` (``T_s`` tasks of
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

import math
from dataclasses import asdict, dataclass
from functools import lru_cache
from math import gcd
from typing import Any

from ...guard import BASE_BYTES, format_bytes, parse_memory
from ...rules import Rules
from ...validation import check_int
from .chunked import chunk_groups, estimate_disk, task_bytes
from .group_store import MIN_CHUNK, cut

__all__ = ["ChunkedPlan", "plan", "groups_by_sum", "run_load", "fit_costs", "COSTS"]

COSTS = {
    "task_s": 0.005286,
    "unit_ns": 19.20,
    "file_us": 21.45,
    "hold_ns": 74.16,
    "base_mb": 190.0,
    "scheduler_s": 0.01,
    "client_s": 1.0,
}
"""Measured on the 2-core machine of this repository from the twelve chunked solves of
``analyses/records/seq_*_chunked.json`` (3 to 6 players, goals 14 to 100, serial and on 2
workers, default and plan chunks): non-negative least squares, in relative error, of each
run's task CPU seconds on its tasks, group-units, files opened and holds (module Notes);
``benchmarks/fit_plan_costs.py`` recomputes them from the records. ``task_s`` seconds per
task, ``unit_ns`` nanoseconds per group-unit, ``file_us`` microseconds per chunk file opened,
``hold_ns`` nanoseconds per hold copied; every run within 10% of the fit, and within 17% when
left out of it. Ten of the runs were made with the copy in the order of places; the two
largest, 5 players goal 50 and 6 players goal 26 (2 workers, the plan's chunks with the sums
cut in two), were made later, with the sort that reads places without dividing, and the
constants fitted before them predicted their CPU within 8% and their wall time within 14%
(out of sample); they are in this fit. ``base_mb`` a worker's memory besides the task's
arrays (peak 190-350 MB measured), ``scheduler_s`` the client's time per task, ``client_s``
its fixed CPU time (the store's group lists and rank tables, the imports)."""


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
    files_opened: int = 0
    holds: int = 0
    spread: int = 1

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
                f"  tasks               {self.tasks:,} of up to {self.chunk:,} groups"
                + (f", the score sums cut for {self.spread} workers" if self.spread > 1 else ""),
                f"  store on disk       {size(self.disk_bytes)}",
                f"  memory per worker   {size(self.worker_memory_bytes)} "
                f"(of which mapped rank tables and rows {size(self.index_bytes)})",
                f"  reading             {self.files_opened:.3g} chunk files opened, {self.holds:.3g} holds read",
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
    spread: int | None = None,
) -> ChunkedPlan:
    """The plan of ``equilibrium(rules=rules, store=...)`` on ``workers`` workers, without solving.

    Parameters
    ----------
    rules : Rules
        One die, 2..10 players.
    workers : int
        Workers the tasks run on (1 .. 10**6).
    worker_memory : int or str, optional
        Memory of one worker ("3G"); without ``chunk``, the chunk and spread of least
        predicted wall time on ``workers`` workers: chunks whose arrays fill at most half of it
        (about twenty sizes from that largest one down, and the default), each with the score
        sums cut for one worker or for all ``workers`` (``spread``); then, at the best chunk,
        the powers of two between. Larger chunks mean fewer tasks and fewer chunk files for
        each to open; smaller ones, or sums cut for the workers, let the workers share a score
        sum's tasks. On one worker the largest wins.
    chunk : int, optional
        Groups per task (default :func:`~pigtheory.sequential.multiplayer.chunked.chunk_groups`).
    certify : bool
        With the certificates (the store's best-response values and gains).
    spread : int, optional
        The workers the score sums are cut for (``equilibrium(spread=)``,
        :func:`~pigtheory.sequential.multiplayer.group_store.cut`); default 1, or the plan's
        pick with ``worker_memory`` and no ``chunk``.

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
    if spread is not None:
        spread = check_int("spread", spread, low=1, high=10**6)
    n, g = rules.players, rules.goal
    base = int(COSTS["base_mb"] * 2**20)
    counts = groups_by_sum(n, g)
    # a task maps the rank table (4 bytes a tuple) and the rows (values, and best-response
    # values with certify: 8 n bytes each) of one score sum at a time
    window = max(_tuples_by_sum(n, g)) * (4 + (16 if certify else 8) * n)
    choose = False
    if chunk is not None:
        chunk = check_int("chunk", chunk, low=1)
    elif worker_memory is None:
        chunk = chunk_groups(rules)
    else:  # at most the chunk whose arrays fill half the worker (the rest: pages it maps)
        room = parse_memory(worker_memory, "worker_memory") // 2 - base - window
        chunk = max(MIN_CHUNK, max(room, 0) // (task_bytes(rules, 1) - BASE_BYTES))
        choose = True
    if worker_memory is not None:
        mem = parse_memory(worker_memory, "worker_memory")
        if task_bytes(rules, chunk) + base + window > mem:
            raise ValueError(
                f"worker_memory: {worker_memory!r} is below one task of {chunk} groups, the rank tables and rows "
                f"it reads ({format_bytes(window)}) and a worker's base"
            )
    parts = 2 if certify else 1
    sizes = {chunk}
    spreads = {1 if spread is None else spread}
    if choose:  # the chunk up to that size whose predicted wall time is least (ties: the larger)
        sizes |= {max(MIN_CHUNK, int(chunk / 2 ** (i / 2))) for i in range(1, 21)} | {
            min(chunk, chunk_groups(rules))
        }
        if spread is None:
            spreads.add(workers)
    timings = {(c, w): _timing(n, g, c, parts, workers, w) for c in sizes for w in spreads}

    def best() -> tuple[int, int]:  # least wall time; ties: the larger chunk, the smaller spread
        return min(timings, key=lambda cw: (round(timings[cw][2], 6), -cw[0], cw[1]))

    chunk, spread = best()
    if choose and len(spreads) > 1:  # then the spreads between, at that chunk: 2, 4, 8, ...
        for w in (2**i for i in range(1, workers.bit_length()) if 2**i < workers):
            timings[chunk, w] = _timing(n, g, chunk, parts, workers, w)
        chunk, spread = best()
    tasks, cpu, wall, crit, files, holds = timings[chunk, spread]
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
        files_opened=int(files),
        holds=int(holds),
        spread=spread,
    )


def _timing(n: int, g: int, chunk: int, parts: int, workers: int, spread: int = 1) -> tuple[float, ...]:
    """``(tasks, cpu, wall, critical path, files, holds)`` of a solve in chunks of ``chunk``
    groups, the sums cut for ``spread`` workers, on ``workers`` workers, in seconds (module
    Notes)."""
    tasks = crit = files = holds = 0.0
    cpu = wall = COSTS["client_s"]
    for t_s, full, last in _task_load(n, g, chunk, parts, spread):
        per, short = _seconds(*full), _seconds(*last)
        tasks += t_s
        cpu += (t_s - 1) * per + short
        files += (t_s - 1) * full[2] + last[2]
        holds += (t_s - 1) * full[3] + last[3]
        # rounds of W tasks; the sum's last (short) task ends the last round if it runs alone there
        rounds = -(-t_s // workers)
        alone = t_s - (rounds - 1) * workers == 1
        wall += max((rounds - 1) * per + (short if alone else per), t_s * COSTS["scheduler_s"])
        crit += short if t_s == 1 else per  # the client hands out one task at a time
    return tasks, cpu, wall, crit, files, holds


def _seconds(groups: float, units: float, files: float, holds: float) -> float:
    """CPU seconds of one task (module Notes)."""
    return (
        COSTS["task_s"]
        + units * COSTS["unit_ns"] * 1e-9
        + files * COSTS["file_us"] * 1e-6
        + holds * COSTS["hold_ns"] * 1e-9
    )


@lru_cache(maxsize=16)
def _shares(n: int, g: int) -> tuple[tuple[int, ...], tuple[tuple[tuple[int, float], ...], ...]]:
    """The groups of every score sum, and for each sum ``s`` the sums ``s + k`` its holds reach
    with :math:`P_k(s)` (module Notes): what the plan's time needs besides the chunk size."""
    counts = groups_by_sum(n, g)
    tuples = _tuples_by_sum(n, g)
    others = _tuples_by_sum(n - 1, g)
    prefix = [0]  # prefix[x] = N_{n-1}(0) + ... + N_{n-1}(x - 1)
    for c in others:
        prefix.append(prefix[-1] + c)

    def below(x: int) -> int:  # N_{n-1}(0) + ... + N_{n-1}(x), 0 for x < 0
        return prefix[min(max(x + 1, 0), len(others))]

    shares = []
    for s in range(len(counts)):
        share = []
        for k in range(1, g):
            if not counts[s] or s + k >= len(counts) or not counts[s + k]:
                continue
            # tuples of sum s whose mover's score a is at most g - 1 - k: the others sum to s - a
            p = (below(s) - below(s - (g - k))) / tuples[s]
            if p > 0:
                share.append((s + k, p))
        shares.append(tuple(share))
    return tuple(counts), tuple(shares)


def _task_load(n: int, g: int, chunk: int, parts: int = 2, spread: int = 1) -> list[tuple[int, tuple, tuple]]:
    """The work of the tasks of every nonempty score sum (module Notes), highest sum last:
    ``(tasks, full, last)`` with ``full`` and ``last`` the ``(groups, group-units, files
    opened, holds)`` of a full task and of the sum's last task, the sums cut for ``spread``
    workers (:func:`~.group_store.cut`)."""
    counts, shares = _shares(n, g)
    cuts = [cut(c, chunk, spread) for c in counts]  # an empty sum: (0, chunk)
    chunks = [k for k, _ in cuts]
    out = []
    for s, c in enumerate(counts):
        if not c:
            continue
        share = [(chunks[t], p) for t, p in shares[s]]  # (chunks of the sum reached, P_k(s))

        def work(size: int, share: list[tuple[int, float]] = share) -> tuple[int, int, float, float]:
            files = holds = 0.0
            for ck, p in share:
                h = size * n * p
                holds += h
                files += parts * ck * -math.expm1(h * math.log1p(-1.0 / ck)) if ck > 1 else parts
            return size, size * n * n * g, files, holds

        t_s, span = cuts[s]
        out.append((t_s, work(min(c, span)), work(c - span * (t_s - 1))))
    return out


FITTED = ("task_s", "unit_ns", "file_us", "hold_ns")
"""The constants of :data:`COSTS` that :func:`fit_costs` measures."""

_SCALE = {"task_s": 1.0, "unit_ns": 1e-9, "file_us": 1e-6, "hold_ns": 1e-9}


def run_load(players: int, goal: int, chunk: int, certify: bool = True, spread: int = 1) -> dict[str, float]:
    """Totals of a chunked solve's work (module Notes): ``tasks``, ``units`` (group-units),
    ``files`` (chunk files opened) and ``holds``; ``spread``: the workers its sums were cut
    for (:func:`~.group_store.cut`).

    Examples
    --------
    >>> load = run_load(3, 20, 100)
    >>> int(load["tasks"]), int(load["units"]) == 20 * 9 * sum(groups_by_sum(3, 20))
    (58, True)
    """
    from .equilibrium import check_multiplayer_rules

    players = check_int("players", players, low=2, high=10)
    goal = check_int("goal", goal, low=2, high=1000)  # the counts' polynomials grow as goal**2
    check_multiplayer_rules(Rules(players=players, goal=goal))
    chunk = check_int("chunk", chunk, low=1)
    if not isinstance(certify, bool):
        raise ValueError(f"certify must be True or False, got {certify!r:.40}")
    spread = check_int("spread", spread, low=1, high=10**6)
    parts = 2 if certify else 1
    total = dict.fromkeys(("tasks", "units", "files", "holds"), 0.0)
    for t_s, full, last in _task_load(players, goal, chunk, parts, spread):
        total["tasks"] += t_s
        for i, key in ((1, "units"), (2, "files"), (3, "holds")):
            total[key] += (t_s - 1) * full[i] + last[i]
    return total


def fit_costs(runs: list[dict[str, Any]]) -> tuple[dict[str, float], list[float]]:
    """The time constants of :data:`COSTS` from measured runs: non-negative least squares of the
    runs' task CPU seconds on their tasks, group-units, files opened and holds, in relative error.

    Parameters
    ----------
    runs : list of dict
        Each with ``players``, ``goal``, ``chunk`` and ``cpu_s`` (the tasks' CPU seconds, the
        client's left out), and optionally ``certify`` (default True) and ``spread`` (the
        workers its sums were cut for, :func:`~.group_store.cut`; default 1): e.g. the records of
        ``benchmarks/record_sequential_chunked.py``, of this machine or of a cluster's nodes.

    Returns
    -------
    (dict, list of float)
        The constants (``task_s``, ``unit_ns``, ``file_us``, ``hold_ns``) and each run's
        relative error under them (predicted / measured - 1).

    Examples
    --------
    >>> runs = [dict(players=4, goal=g, chunk=c, cpu_s=0.5 * g + c / 1000) for g, c in
    ...         ((20, 500), (30, 900), (40, 2000), (50, 800), (60, 3000))]
    >>> costs, errors = fit_costs(runs)
    >>> sorted(costs)
    ['file_us', 'hold_ns', 'task_s', 'unit_ns']
    """
    import numpy as np
    from scipy.optimize import nnls

    if not isinstance(runs, list) or len(runs) < len(FITTED):
        raise ValueError(f"runs must be a list of at least {len(FITTED)} measured runs, got {runs!r:.80}")
    rows, measured = [], []
    for i, run in enumerate(runs):
        if not isinstance(run, dict):
            raise ValueError(f"runs[{i}] must be a dict, got {type(run).__name__}")
        try:
            n, g, chunk, certify = run["players"], run["goal"], run["chunk"], run.get("certify", True)
            load = run_load(n, g, chunk, certify, run.get("spread", 1))
            cpu = float(run["cpu_s"])
        except KeyError as exc:
            raise ValueError(f"runs[{i}] has no {exc.args[0]!r}") from None
        except (TypeError, ValueError) as exc:
            raise ValueError(f"runs[{i}]: {exc}") from None
        if not math.isfinite(cpu) or cpu <= 0:
            raise ValueError(f"runs[{i}]: cpu_s must be a positive number of seconds, got {run['cpu_s']!r}")
        rows.append([load["tasks"], load["units"], load["files"], load["holds"]])
        measured.append(cpu)
    a, y = np.array(rows), np.array(measured)
    coef, _ = nnls(a / y[:, None], np.ones_like(y))
    errors = (a @ coef / y - 1.0).tolist()
    return {k: float(c) / _SCALE[k] for k, c in zip(FITTED, coef, strict=True)}, errors
