"""The multiplayer sequential equilibrium solved as chunk tasks, its arrays in a store on disk.

Notes
-----
Scores never decrease and a hold leaves a rotation group for one of higher score sum
(:mod:`pigtheory.sequential.multiplayer.equilibrium`), so the groups of one score sum ``s`` read only
groups of sums ``s + 1 .. s + g - 1`` and are independent of each other. The chunked solve
cuts every score sum into chunks of groups (a :class:`~.group_store.GroupStore` on disk; with
``spread`` W, for W workers: :func:`~.group_store.cut`) and
runs each chunk as a task (:func:`~.chunk_task.solve_chunk`) once every sum it reads is
finished, highest sum first (:func:`pigtheory.runtime.run_chunks`: serial, any
``concurrent.futures`` executor or a Dask client). A task gathers the rows its holds reach
(memory-mapped), solves its groups with the arithmetic of the in-memory solver (the same
bits), computes their best-response values and one-shot gains from the rows ``U`` of the
same tuples (so NashConv is certified level by level, never holding the game), and writes
its parts and seal. A stopped solve resumes from the sealed chunks when called again on the
same folder; a damaged or foreign chunk is solved again.

Memory per task: the gathered rows, ``2 G n g n`` floats for ``G`` groups (about 64 MB by
default), plus the pages it maps. The client holds the group lists of one run of the plan
(``8`` bytes per group) and, at the end, the mixed states.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from ...guard import BASE_BYTES, Estimate, check_memory
from ...parallel import check_executor
from ...results import Result
from ...rules import Rules
from ...runtime import Plan, check_disk, run_chunks
from . import chunk_task
from .group_store import MIN_CHUNK, GroupStore
from .result import MultiplayerEquilibrium, MultiplayerPolicy

__all__ = [
    "ChunkedEquilibrium",
    "ChunkedPolicy",
    "chunked_equilibrium",
    "chunk_groups",
    "task_bytes",
    "estimate_memory",
    "estimate_disk",
]

_CHUNK_BYTES = 64 * 2**20
_IN_FLIGHT = 16


def chunk_groups(rules: Rules, budget: int = _CHUNK_BYTES) -> int:
    """Default groups per chunk: a task's gathered rows (``2 n g n`` floats per group) within
    ``budget`` bytes; at least :data:`~.group_store.MIN_CHUNK`."""
    n, g = rules.players, rules.goal
    return int(max(MIN_CHUNK, budget // (2 * n * n * g * 8)))


def task_bytes(rules: Rules, chunk: int) -> int:
    """Memory of one task's arrays: the gathered rows, the gather's indices and the outputs."""
    n, g = rules.players, rules.goal
    return chunk * (2 * n * g * n * 8 + n * g * 8 * 6 + 3 * n * n * 8 + n * g) + BASE_BYTES


def estimate_memory(rules: Rules, chunk: int) -> Estimate:
    """:func:`chunked_equilibrium`'s memory in one worker: one chunk's arrays."""
    return Estimate(
        f"chunked multiplayer equilibrium ({rules}, chunks of {chunk} groups)",
        chunk * rules.players * rules.goal,
        task_bytes(rules, chunk),
        "pass a smaller chunk",
    )


def estimate_disk(rules: Rules, certify: bool = True) -> int:
    """Bytes of a finished store: per tuple its values, roll bits and, with ``certify``, best
    response values and gain (the groups' n rotations), and its row in a rank table (4 bytes);
    the group lists, 8 bytes a group."""
    n, g = rules.players, rules.goal
    per = 8 * n + (g + 7) // 8 + (8 * n + 8 if certify else 0) + 4
    return per * g**n + 8 * (g**n // n + 1)


@dataclass(frozen=True, eq=False)
class ChunkedEquilibrium(Result):
    """A multiplayer equilibrium whose arrays stay in a store on disk.

    Attributes
    ----------
    store : str
        The store folder (:mod:`pigtheory.sequential.multiplayer.group_store`).
    start_values : numpy.ndarray, shape ``(n,)``
        Win probability of each seat at the start, in playing order.
    seat_gain, nash_conv, iterations, residual
        As :class:`~pigtheory.sequential.MultiplayerEquilibrium` (NaN without ``certify``).
    mixed_groups, several_groups, several_counts, group_how, mixed_enclosure, value_enclosure
        As :class:`~pigtheory.sequential.MultiplayerEquilibrium` (small: one row per mixed
        group or state).
    mixed_states : numpy.ndarray of int, shape ``(M, n + 1)``
    mixed_prob : numpy.ndarray, shape ``(M,)``
    n_tasks : int
    chunk : int
        Groups per chunk.
    method : str
    rules : Rules
    allow_pass : bool
    spread : int
        The workers the score sums were cut for (:func:`~.group_store.cut`).
    """

    store: str
    start_values: np.ndarray
    seat_gain: np.ndarray
    nash_conv: float
    iterations: int
    residual: float
    mixed_groups: np.ndarray
    several_groups: np.ndarray
    several_counts: np.ndarray
    group_how: tuple
    mixed_enclosure: np.ndarray
    value_enclosure: np.ndarray
    mixed_states: np.ndarray
    mixed_prob: np.ndarray
    n_tasks: int
    chunk: int
    method: str
    rules: Rules
    allow_pass: bool = False
    spread: int = 1

    def _row(self, part: str, scores: Any) -> np.ndarray:
        n, g = self.rules.players, self.rules.goal
        t = tuple(int(s) for s in scores)
        if len(t) != n or any(not 0 <= s < g for s in t):
            raise ValueError(f"scores: {n} scores each in 0..{g - 1} needed, got {scores!r}")
        return GroupStore(self.store).gather(part, np.array([np.ravel_multi_index(t, (g,) * n)]))[0]

    def value_at(self, scores: Any) -> np.ndarray:
        """Start-of-turn win probabilities by offset from the mover at ``scores`` (turn order
        from the mover): the row ``value[scores]`` of the in-memory result."""
        return self._row("value", scores)

    @property
    def policy(self) -> ChunkedPolicy:
        """The roll/hold choices, read from the store (:class:`ChunkedPolicy`)."""
        return ChunkedPolicy(self)

    @property
    def opening_threshold(self) -> int:
        """The first player's hold threshold on the first turn."""
        return self.policy.hold_threshold((0,) * self.rules.players)

    def array(self, part: str, *, max_memory: Any = None) -> np.ndarray:
        """One of the store's arrays whole, as the in-memory result holds it: ``"value"``
        (shape ``(goal,) * n + (n,)``), ``"bits"`` (the packed roll bits, ``(goal,) * n +
        ((goal + 7) // 8,)``) or ``"gains"`` (``(goal,) * n``; certified stores only). One part
        at a time is what a large store's digests need (5 players at goal 50: 12.5 GB of values,
        where :meth:`in_memory` would hold 17 GB). ``max_memory``: refuse above this size
        (default half the available memory, :mod:`pigtheory.guard`)."""
        st = GroupStore(self.store)
        n, g = self.rules.players, self.rules.goal
        shapes = {"value": ((n,), np.float64), "bits": (((g + 7) // 8,), np.uint8), "gains": ((), np.float64)}
        if part not in shapes:
            raise ValueError(f"part must be one of {', '.join(shapes)}, got {part!r:.40}")
        if part == "gains" and not st.solve["certify"]:
            raise ValueError("part: this store was solved with certify=False and holds no gains")
        tail, dtype = shapes[part]
        check_memory(
            Estimate(
                f"the {part} array of {self.rules}",
                g**n,
                g**n * int(np.prod(tail)) * np.dtype(dtype).itemsize,
                "read it by rows",
            ),
            max_memory,
        )
        out = np.zeros((g**n, *tail), dtype=dtype)
        for s in st.sizes:
            for c in range(st.n_chunks(s)):
                out[chunk_task._layout(st.groups(s, c), n, g)[0]] = st.read_part(part, s, c)
        return out.reshape((g,) * n + tail)

    def in_memory(self) -> MultiplayerEquilibrium:
        """The whole equilibrium in memory (small games: this is the memory the chunked solve
        avoids), equal to :func:`~pigtheory.sequential.equilibrium`'s to the bit."""
        n, g = self.rules.players, self.rules.goal
        gains = self.array("gains") if GroupStore(self.store).solve["certify"] else np.full((g,) * n, np.nan)
        policy = MultiplayerPolicy(
            roll_bits=self.array("bits"),
            mixed_states=self.mixed_states.copy(),
            mixed_prob=self.mixed_prob.copy(),
            rules=self.rules,
            allow_pass=self.allow_pass,
        )
        return MultiplayerEquilibrium(
            value=self.array("value"),
            policy=policy,
            mixed_groups=self.mixed_groups.copy(),
            several_groups=self.several_groups.copy(),
            several_counts=self.several_counts.copy(),
            group_how=self.group_how,
            mixed_enclosure=self.mixed_enclosure.copy(),
            value_enclosure=self.value_enclosure.copy(),
            deviation_gain=gains,
            seat_gain=self.seat_gain.copy(),
            nash_conv=self.nash_conv,
            iterations=self.iterations,
            residual=self.residual,
            method=self.method.removesuffix(" (chunked)"),
            rules=self.rules,
            allow_pass=self.allow_pass,
        )


class ChunkedPolicy:
    """The policy of a :class:`ChunkedEquilibrium`, read tuple by tuple from its store: the
    lookups of :class:`~pigtheory.sequential.MultiplayerPolicy`."""

    def __init__(self, eq: ChunkedEquilibrium) -> None:
        self.eq = eq
        self.rules = eq.rules
        self.mixed_states = eq.mixed_states
        self.mixed_prob = eq.mixed_prob

    def roll_probability(self, scores: Any) -> np.ndarray:
        """As :meth:`MultiplayerPolicy.roll_probability
        <pigtheory.sequential.MultiplayerPolicy.roll_probability>`."""
        n, g = self.rules.players, self.rules.goal
        t = tuple(int(s) for s in scores)
        if len(t) != n or any(not 0 <= s < g for s in t):
            raise ValueError(f"scores: {n} scores each in 0..{g - 1} needed, got {scores!r}")
        st = GroupStore(self.eq.store)
        from .group_store import canonical

        group, rot, total = canonical(np.array([np.ravel_multi_index(t, (g,) * n)]), n, g)
        chunk, row = st.locate(int(total[0]), group)
        packed = st.read_part("bits", int(total[0]), int(chunk[0]))[row[0], rot[0]]
        out = np.unpackbits(packed, bitorder="little")[: g - t[0]].astype(float)
        hit = np.all(self.mixed_states[:, :n] == np.array(t), axis=1)
        for k, p in zip(self.mixed_states[hit, n], self.mixed_prob[hit], strict=True):
            out[int(k)] = p
        return out

    def hold_threshold(self, scores: Any) -> int:
        """As :meth:`MultiplayerPolicy.hold_threshold
        <pigtheory.sequential.MultiplayerPolicy.hold_threshold>`."""
        p = self.roll_probability(scores)
        holds = np.flatnonzero(p[1:] == 0.0)
        return int(holds[0] + 1) if holds.size else p.size


def _reads(st: GroupStore, s: int, c: int) -> set[int]:
    """Score sums a chunk reads: ``s + 1 .. s + g - 1 - (its smallest score)``."""
    n, g = st.rules.players, st.rules.goal
    groups = st.groups(s, c)
    low = min(int((groups // g**i % g).min()) for i in range(n))
    return {s + k for k in range(1, g - low) if s + k in st.sizes}


def chunked_equilibrium(
    rules: Rules,
    options: dict[str, Any],
    *,
    store: str | os.PathLike,
    executor: Any = None,
    chunk: int | None = None,
    spread: int = 1,
    progress: bool | None = None,
    max_memory: Any = None,
) -> ChunkedEquilibrium:
    """:func:`pigtheory.sequential.equilibrium` with ``store=``: the body of the chunked solve
    (module Notes); arguments checked by the caller except those of this function."""
    chunk = chunk_groups(rules) if chunk is None else chunk
    check_memory(estimate_memory(rules, chunk), max_memory)
    check_disk(store, estimate_disk(rules, options["certify"]), f"chunked equilibrium ({rules})")
    check_executor(executor)
    st = GroupStore.create(store, rules, options, chunk, spread)
    reads = {(s, c): _reads(st, s, c) for s in st.sizes for c in range(st.n_chunks(s))}
    plan = Plan(reads, {s: st.n_chunks(s) for s in st.sizes}, st.finished_chunks(list(reads)))
    stats: dict[tuple[int, int], dict] = {}
    with (st.folder / "tasks.jsonl").open("a") as log:

        def done(key: tuple[int, int], result: dict, free: list[int]) -> None:
            stats[key] = result
            log.write(json.dumps(result) + "\n")
            log.flush()

        run_chunks(
            plan,
            lambda s, c: partial(chunk_task.solve_chunk, str(st.folder), s, c),
            done,
            executor=executor,
            progress=progress,
            label=f"chunked equilibrium ({rules.players} players)",
            in_flight=_IN_FLIGHT,
        )
    return _result(st, rules, options, plan.n_tasks, stats)


def _result(
    st: GroupStore, rules: Rules, options: dict[str, Any], n_tasks: int, stats: dict
) -> ChunkedEquilibrium:
    """The result from the finished store: the small arrays of every chunk in the in-memory
    solver's order (score sum descending, groups ascending)."""
    n = rules.players
    keys = sorted(((s, c) for s in st.sizes for c in range(st.n_chunks(s))), key=lambda k: (-k[0], k[1]))
    names = (
        "mix_states",
        "mix_prob",
        "mix_bounds",
        "group_mixed",
        "group_how",
        "group_bounds",
        "several",
        "stats",
    )
    parts: dict[str, list] = {name: [] for name in names}
    for s, c in keys:
        for name in names:
            parts[name].append(st.read_part(name, s, c))
    cat = {name: np.concatenate(parts[name]) for name in names}
    several = cat["several"].reshape(-1, n + 1)
    certify = bool(options["certify"])
    if certify:
        W0, U0 = st.read_part("value", 0, 0)[0, 0], st.read_part("U", 0, 0)[0, 0]
        seat_gain = np.array(U0) - np.array(W0)
        residual = float(cat["stats"].reshape(-1, 2)[:, 1].max())
    else:
        seat_gain = np.full(n, np.nan)
        residual = float("nan")
    passes = int(sum(int(x) for x in cat["stats"].reshape(-1, 2)[:, 0]))
    return ChunkedEquilibrium(
        store=str(st.folder),
        start_values=np.array(st.read_part("value", 0, 0)[0, 0]),
        seat_gain=seat_gain,
        nash_conv=float(np.sum(seat_gain)),
        iterations=passes,
        residual=residual,
        mixed_groups=cat["group_mixed"].reshape(-1, n),
        several_groups=several[:, :n].copy(),
        several_counts=several[:, n].copy(),
        group_how=tuple(str(x) for x in cat["group_how"]),
        mixed_enclosure=cat["mix_bounds"].reshape(-1, 2),
        value_enclosure=cat["group_bounds"].reshape(-1, n, n, 2),
        mixed_states=cat["mix_states"].reshape(-1, n + 1),
        mixed_prob=cat["mix_prob"],
        n_tasks=n_tasks,
        chunk=st.chunk,
        method="rotation groups: best responses, mixed where they cycle (chunked)",
        rules=rules,
        allow_pass=bool(options["allow_pass"]),
        spread=st.spread,
    )
