"""The multiplayer site's data: the opponents' roll tables packed for the page (quantised
weights, one slice per own score), the page's memory estimate, and the data read back."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..games import outcomes
from ..policies.multiplayer import MultiplayerRollTable
from ..rules import Rules
from .multiplayer import (
    ROLL_ALWAYS,
    MultiplayerOpponents,
    roll_weight,
)

__all__ = ["site_estimate", "pack_multiplayer", "read_multiplayer_data"]


def _slice_prob(policy: Any, t0: int, rules: Rules) -> np.ndarray:
    """The roll probabilities of every state with own score ``t0``: shape ``(g,) * (n - 1) + (g,)``."""
    if isinstance(policy, MultiplayerRollTable):
        return np.asarray(policy.prob[t0], dtype=float)
    g = rules.goal
    out = np.unpackbits(policy.roll_bits[t0], axis=-1, bitorder="little")[..., :g].astype(float)
    ms = np.asarray(policy.mixed_states)
    hit = ms[:, 0] == t0
    if hit.any():
        out[tuple(ms[hit, 1:].T)] = np.asarray(policy.mixed_prob)[hit]
    return out


def site_estimate(rules: Rules) -> Any:
    """The memory the site's data of one multiplayer game needs beyond the solve: one own
    score's slice of the table at a time, and the switch counts and offsets of every tuple."""
    from ..guard import Estimate
    from ..validation import check_rules

    check_rules(rules)
    n, g = rules.players, rules.goal
    return Estimate(
        f"play site data of the multiplayer game ({rules})",
        g ** (n + 1),
        16 * g**n + 24 * g ** (n - 1) * g,
        "a smaller goal or fewer players for the site's multiplayer game",
    )


def pack_multiplayer(opponents: MultiplayerOpponents) -> dict[str, Any]:
    """The JSON object of a multiplayer game's data file on the play site.

    The roll table is run-length coded along the turn total: for every score tuple ``t``
    (own-centric, C order over ``(goal,) * n``) ``switches[t]`` counts the turn totals
    ``k < goal - t_0`` at which rolling (roll probability 1) and not rolling change, starting
    from rolling before ``k = 0``; ``switch_k`` lists those turn totals tuple after tuple. A
    threshold policy has one switch per tuple (none where it rolls on to the goal). States where
    the policy mixes are listed apart: ``mixed_state`` (``t_flat * goal + k``) and
    ``mixed_weight`` (:func:`roll_weight`, ``1 .. 2**32 - 1``). Arrays as in
    :mod:`pigtheory.play.site` (one gzip stream, base64).

    Returns
    -------
    dict
        ``{"key", "name", "rules", "players", "allowPass", "start", "sections", "blob"}``.
    """
    import base64
    import gzip

    if not isinstance(opponents, MultiplayerOpponents):
        raise ValueError(f"opponents must be MultiplayerOpponents, got {opponents!r:.80}")
    rules = opponents.rules
    n, g = rules.players, rules.goal
    if g ** (n + 1) >= 2**32:
        raise ValueError(
            f"rules: the site's multiplayer game needs goal ** (players + 1) < 2**32, got {rules}"
        )
    from ..guard import check_memory

    check_memory(site_estimate(rules))
    switches = np.zeros((g,) * n, dtype=np.int64)
    ks: list[np.ndarray] = []
    m_state: list[np.ndarray] = []
    m_weight: list[int] = []
    kk = np.arange(g)
    for t0 in range(g):
        prob = _slice_prob(opponents.policy, t0, rules)
        live = kk < g - t0
        roll = (prob == 1.0) & live
        prev = np.concatenate([np.ones(roll.shape[:-1] + (1,), dtype=bool), roll[..., :-1]], axis=-1)
        sw = (roll != prev) & live
        switches[t0] = sw.sum(axis=-1)
        ks.append(np.nonzero(sw)[-1])  # C order: tuple after tuple, k increasing
        mixed = (prob > 0) & (prob < 1) & live
        if mixed.any():
            idx = np.argwhere(mixed)
            flat = np.ravel_multi_index(tuple(idx[:, :-1].T), (g,) * (n - 1)) + t0 * g ** (n - 1)
            m_state.append(flat.astype(np.int64) * g + idx[:, -1])
            m_weight += [roll_weight(p) for p in prob[mixed].tolist()]
    switch_k = np.concatenate(ks) if ks else np.zeros(0, dtype=np.int64)
    mixed_state = np.concatenate(m_state) if m_state else np.zeros(0, dtype=np.int64)
    chunks: list[bytes] = []
    sections: dict[str, dict[str, Any]] = {}
    offset = 0

    def add(name: str, a: np.ndarray, dtype: str) -> None:
        nonlocal offset
        pad = -offset % 4
        chunks.append(b"\0" * pad)
        offset += pad
        data = np.ascontiguousarray(a, dtype={"u8": "<u1", "u16": "<u2", "u32": "<u4"}[dtype]).tobytes()
        sections[name] = {"offset": offset, "length": int(a.size), "dtype": dtype, "shape": list(a.shape)}
        chunks.append(data)
        offset += len(data)

    small = "u8" if g < 256 else "u16"
    add("switches", switches, "u8" if int(switches.max(initial=0)) < 256 else "u16")
    add("switch_k", switch_k, small)
    add("mixed_state", mixed_state, "u32")
    add("mixed_weight", np.array(m_weight, dtype=np.int64), "u32")
    blob = gzip.compress(b"".join(chunks), compresslevel=9, mtime=0)
    eq = opponents.equilibrium
    start = [round(float(x), 6) for x in eq.start_values] if eq is not None else None
    return {
        "key": opponents.key,
        "name": opponents.name,
        "label": str(rules) + (", passing allowed" if opponents.allow_pass else ""),
        "players": n,
        "allowPass": bool(opponents.allow_pass),
        "rules": {
            "goal": g,
            "dieFaces": rules.die_faces,
            "bustFace": rules.bust_face,
            # the game model's outcome table ([kind, points] of every roll): multi.js reads a
            # roll only through it
            "rolls": outcomes(rules).to_json(),
        },
        "start": start,
        "sections": sections,
        "blob": base64.b64encode(blob).decode("ascii"),
    }


def read_multiplayer_data(path: Any) -> dict[str, Any]:
    """Decode a multiplayer game's data file of a built site (for the tests).

    Returns
    -------
    dict
        The file's fields, its sections as arrays, and ``prob``: the roll probability at every
        live state rebuilt from them (``weight / 2**32`` where it mixes; NaN where
        ``t_0 + k >= goal``).
    """
    import base64
    import gzip
    import json

    from ..validation import check_path

    path = check_path("path", path)
    try:
        text = path.read_text(encoding="utf-8")
        obj = json.loads(text[text.index("(") + 1 : text.rindex(")")])
        raw = gzip.decompress(base64.b64decode(obj["blob"]))
        arrays = {}
        for name, sec in obj["sections"].items():
            dtype = {"u8": "<u1", "u16": "<u2", "u32": "<u4"}[sec["dtype"]]
            arrays[name] = np.frombuffer(raw, dtype, sec["length"], sec["offset"]).reshape(sec["shape"])
        n, g = int(obj["players"]), int(obj["rules"]["goal"])
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, EOFError, AttributeError) as exc:
        raise ValueError(
            f"{path}: not a multiplayer game's data file of a built site: {type(exc).__name__}: {exc}"
        ) from None
    prob = np.full((g,) * (n + 1), np.nan)
    sw_counts = arrays["switches"].reshape(-1).astype(np.int64)
    starts = np.concatenate([[0], np.cumsum(sw_counts)])
    for flat in range(g**n):
        t = np.unravel_index(flat, (g,) * n)
        live = g - int(t[0])
        row = np.ones(live)
        for s in arrays["switch_k"][starts[flat] : starts[flat + 1]].tolist():
            row[s:] = 1.0 - row[s]
        prob[t][:live] = row
    for st, w in zip(arrays["mixed_state"].tolist(), arrays["mixed_weight"].tolist(), strict=True):
        flat, k = divmod(int(st), g)
        prob[np.unravel_index(flat, (g,) * n) + (k,)] = w / ROLL_ALWAYS
    return {**obj, **arrays, "prob": prob}
