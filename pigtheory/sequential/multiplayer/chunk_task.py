"""One task of the chunked multiplayer equilibrium: a chunk of rotation groups of one score sum.

The task's inputs are the store's folder and the chunk's name; everything else (rules,
options, the groups, the rows of higher score sums) it reads from the store, and it returns a
few numbers, so that a cluster moves names, not arrays. It

1. gathers the rows its groups' holds reach (every tuple one to ``g - 1`` points higher, in
   finished chunks: :meth:`~.group_store.GroupStore.gather`),
2. solves its groups as the in-memory solver does (pure best responses,
   :func:`~.chunk_kernels.solve_chunk_groups`; the mixed solver and the enclosures where they
   do not settle, :mod:`~pigtheory.sequential.multiplayer.mixed_groups`, :mod:`~pigtheory.sequential.multiplayer.enclosure`),
3. with ``certify``, computes their best-response values and one-shot gains
   (:func:`~.chunk_kernels.certify_chunk_groups`, from the rows ``U`` of the same tuples),
4. writes its parts and seal (:meth:`pigtheory.runtime.ChunkStore.write_chunk`).

Memory: the gathered rows, ``2 G n g n`` floats for ``G`` groups, plus the chunk's output.
"""

from __future__ import annotations

import os
import time
from fractions import Fraction
from typing import Any

import numpy as np

from ...jit import compiled
from ...runtime import peak_mb
from .group_store import GroupStore

__all__ = ["solve_chunk", "hold_rows"]

_TIE = 1e-13


def _layout(groups: np.ndarray, n: int, g: int) -> tuple[np.ndarray, np.ndarray]:
    """``(rid, first)``, shape ``(G, n)``: the rotations' flat indices and movers' scores."""
    from .group_store import rotations

    rid = rotations(groups, n, g)
    return rid, rid // g ** (n - 1)


def hold_rows(st: GroupStore, parts: tuple[str, ...], rid: np.ndarray, first: np.ndarray) -> list[np.ndarray]:
    """For each part (``value``, ``U``): ``rows[t, r, k] = part[base_r + k]`` for every hold
    ``1 <= k < g - first_r`` of every rotation r of every group t (float64 ``(G, n, g, n)``;
    other entries 0), located by arithmetic and copied from the memory-mapped chunk files in
    compiled code (:func:`~.chunk_kernels.locate_holds`, :func:`~.chunk_kernels.copy_holds`),
    one score sum at a time: only that sum's files and rank table are mapped at once, so the
    pages a task maps stay within one sum's rows, not the g - 1 sums it reads."""
    from ...jit import typed_list
    from . import chunk_kernels as ck

    n, g = st.rules.players, st.rules.goal
    G = rid.shape[0]
    outs = [np.zeros((G, n, g, n)) for _ in parts]
    low = int(first.min(initial=g))
    if not G or low >= g - 1:
        return outs
    s0 = int(_digit_sum(rid[:1, 0], n, g)[0])
    digits = np.zeros((G, n, n), dtype=np.int64)
    compiled(ck.hold_digits)(rid, first, n, g, digits)
    pos = np.zeros((G, n), dtype=np.int64)
    rot = np.zeros_like(pos)
    cum = _cum(n, g)
    # One list per part for the whole task, emptied after each sum: making a typed list costs
    # about 20 us, and a task maps a few files a sum over up to g - 1 sums (measured at 4
    # players goal 50: 1.9 s of 34 s making lists afresh each sum).
    lists = [typed_list() for _ in parts]
    for k in range(1, g - low):  # one score sum, s0 + k, at a time: its files mapped, then let go
        s = s0 + k
        need = np.zeros(st.n_chunks(s), dtype=np.bool_)
        table = st.rank_table(s)
        span = st.span(s)
        compiled(ck.locate_holds)(digits, first, n, g, s0, k, cum, table, span, pos, rot, need)
        del table
        fid = np.full(need.size, -1, dtype=np.int64)
        files = np.flatnonzero(need)
        if not files.size:
            continue
        fid[files] = np.arange(files.size)
        for part, sources in zip(parts, lists, strict=True):
            for c in files.tolist():
                sources.append(st.read_part(part, s, c))
        compiled(ck.copy_holds)(
            first,
            n,
            g,
            k,
            pos,
            rot,
            span,
            fid,
            lists[0],
            lists[-1],
            outs[0],
            outs[-1],
            len(parts),
        )
        for sources in lists:  # let this sum's files go
            sources.clear()
    return outs


_CUM: dict[tuple[int, int], np.ndarray] = {}


def _cum(n: int, g: int) -> np.ndarray:
    """:func:`~.chunk_kernels.count_table` of this game, kept by the process."""
    from . import chunk_kernels as ck

    if (n, g) not in _CUM:
        _CUM.clear()
        _CUM[n, g] = compiled(ck.count_table)(n, g)
    return _CUM[n, g]


def _digit_sum(idx: np.ndarray, n: int, g: int) -> np.ndarray:
    total = np.zeros_like(idx)
    x = idx.copy()
    for _ in range(n):
        total += x % g
        x //= g
    return total


def solve_chunk(folder: str, block: int, chunk: int) -> dict[str, Any]:
    """The task: solve chunk ``chunk`` of score sum ``block`` from the store in ``folder`` and
    write it there (every higher score sum it reads is finished).

    Returns
    -------
    dict
        ``groups``, ``passes``, ``mixed`` (groups), ``residual``, seconds (``seconds``,
        ``read_s``, ``solve_s``, ``certify_s``, ``write_s``), the worker's peak resident memory
        ``peak_mb`` and its ``pid``.
    """
    from ..model import roll_model
    from . import chunk_kernels as ck
    from . import group_kernels as gk

    t0, c0 = time.perf_counter(), time.process_time()
    st = GroupStore(folder)
    rules, opt = st.rules, st.solve
    n, g = rules.players, rules.goal
    nb = (g + 7) // 8
    model = roll_model(rules)
    pvec = np.ascontiguousarray(model.free_vector(), dtype=np.float64)
    p_bust = float(model.p_bust)
    allow_pass = bool(opt["allow_pass"])
    turn = gk.Turn(pvec, p_bust, allow_pass, _TIE)
    groups = np.ascontiguousarray(st.groups(block, chunk))
    G = groups.size
    rid, first = _layout(groups, n, g)
    certify = bool(opt["certify"])
    Wrows, *Urows = hold_rows(st, ("value", "U") if certify else ("value",), rid, first)
    t1 = time.perf_counter()
    W = np.zeros((G, n, n))
    bits = np.zeros((G, n, nb), dtype=np.uint8)
    status = np.zeros(G, dtype=np.int8)
    search = gk.Search(int(opt["max_passes"]), int(opt["starts"]))
    passes = int(compiled(ck.solve_chunk_groups)(groups, n, g, turn, search, Wrows, W, bits, status))
    mixk = np.full((G, n), -1, dtype=np.int64)
    mixp = np.zeros((G, n))
    mixed = _mixed(st, groups, status, Wrows, W, bits, mixk, mixp, model, bool(opt["enclose"]))
    t2 = time.perf_counter()
    parts: dict[str, np.ndarray] = {"value": W, "bits": bits}
    parts.update((name, a) for name, a in mixed.items() if a.size)  # most chunks mix nowhere
    resid = 0.0
    if certify:
        U = np.zeros((G, n, n))
        gains = np.zeros((G, n))
        out = np.zeros(2)
        compiled(ck.certify_chunk_groups)(
            groups, n, g, turn, Wrows, Urows[0], W, bits, mixk, mixp, U, gains, out
        )
        parts.update(U=U, gains=gains)
        resid = float(out[1])
        del Urows
    parts["stats"] = np.array([float(passes), resid])
    t3 = time.perf_counter()
    del Wrows
    st.write_chunk(block, chunk, parts)
    t4 = time.perf_counter()
    return {
        "block": block,
        "chunk": chunk,
        "groups": G,
        "passes": passes,
        "mixed": int(mixed["group_how"].size),
        "residual": resid,
        "seconds": t4 - t0,
        "cpu_s": time.process_time() - c0,
        "read_s": t1 - t0,
        "solve_s": t2 - t1,
        "certify_s": t3 - t2,
        "write_s": t4 - t3,
        "peak_mb": peak_mb(),
        "pid": os.getpid(),
    }


def _mixed(st, groups, status, Wrows, W, bits, mixk, mixp, model, enclose):
    """The groups where best responses did not settle (``status`` nonzero): the mixed solver,
    as :func:`pigtheory.sequential.equilibrium` runs it, writing ``W``, ``bits``, ``mixk``,
    ``mixp`` and returning the chunk's mixing parts."""
    from . import chunk_kernels as ck
    from . import group_kernels as gk
    from .enclosure import enclose_group
    from .mixed_groups import GroupProblem, solve_group

    n, g = st.rules.players, st.rules.goal
    pvec = np.ascontiguousarray(model.free_vector(), dtype=np.float64)
    m = pvec.size
    p_exact = (model.p_bust, [dict(model.free).get(k, Fraction(0)) for k in range(1, m + 1)])
    states, probs, bounds, mgroups, how, vbounds, several = [], [], [], [], [], [], []
    guess = compiled(ck.guess_from_rows)
    for t in np.flatnonzero(status).tolist():
        rid = np.zeros(n, dtype=np.int64)
        first = np.zeros(n, dtype=np.int64)
        d = int(compiled(gk.group_info)(int(groups[t]), n, g, rid, first))
        HV = np.zeros((d, g + m + 1, n))
        K = np.zeros(d, dtype=np.int64)
        y0 = np.zeros(d)
        for r in range(d):
            K[r] = g - first[r]
            HV[r, 1 : K[r], 0] = Wrows[t, r, 1 : K[r], n - 1]
            HV[r, 1 : K[r], 1:] = Wrows[t, r, 1 : K[r], : n - 1]
            y0[r] = guess(HV[r], int(first[r]), g, 0)
        prob = GroupProblem(
            n, d, rid[:d].copy(), K, HV, pvec, float(model.p_bust), bool(st.solve["allow_pass"]), y0
        )
        ge = solve_group(prob)
        for r in range(n):
            W[t, r] = ge.W[r % d]
            row = np.zeros(g, dtype=bool)
            row[: ge.rolls[r % d].size] = ge.rolls[r % d]
            bits[t, r] = np.packbits(row, bitorder="little")
        box = enclose_group(prob, ge.steps, ge.q, p_exact) if (ge.mixes and enclose) else None
        for i, (r, k, p) in enumerate(ge.mixes):
            tup = np.unravel_index(int(prob.rid[r]), (g,) * n)
            states.append(tuple(int(x) for x in tup) + (int(k),))
            probs.append(float(p))
            mixk[t, r::d] = int(k)
            mixp[t, r::d] = float(p)
            if box is None:
                bounds.append((np.nan, np.nan))
            elif ge.steps[r][0][k]:  # the lower step rolls there: p = 1 - q
                bounds.append((1.0 - box[1][i], 1.0 - box[0][i]))
            else:
                bounds.append((box[0][i], box[1][i]))
        canon = [int(x) for x in np.unravel_index(int(groups[t]), (g,) * n)]
        if ge.mixes:
            mgroups.append(canon)
            how.append(ge.how)
            vb = np.full((n, n, 2), np.nan)
            if box is not None:
                vb[: prob.d, :, 0], vb[: prob.d, :, 1] = box[2], box[3]
            vbounds.append(vb)
        if ge.n_equilibria > 1:
            several.append(canon + [int(ge.n_equilibria)])
    return {
        "mix_states": np.array(states, dtype=np.int64).reshape(-1, n + 1),
        "mix_prob": np.array(probs, dtype=float),
        "mix_bounds": np.array(bounds, dtype=float).reshape(-1, 2),
        "group_mixed": np.array(mgroups, dtype=np.int64).reshape(-1, n),
        "group_how": np.array(how, dtype="<U64"),
        "group_bounds": np.array(vbounds, dtype=float).reshape(-1, n, n, 2),
        "several": np.array(several, dtype=np.int64).reshape(-1, n + 1),
    }
