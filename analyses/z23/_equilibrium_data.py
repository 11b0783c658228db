"""Cached solves shared by the Z23 equilibrium analyses and figures (goal 100).

Each function returns plain arrays through :func:`pigtheory._io.cached_arrays`; bump
``VERSION`` when a solver changes.
"""

from __future__ import annotations

import time

import numpy as np

from pigtheory import MixedPolicy, Rules
from pigtheory._io import cached_arrays
from pigtheory.simultaneous import equilibrium, self_play, stackelberg

VERSION = 2
RULES = Rules()


def self_play_data(order: str = "increasing", sweep: str = "gauss-seidel") -> dict[str, np.ndarray]:
    def compute() -> dict[str, np.ndarray]:
        t0 = time.perf_counter()
        sp = self_play(rules=RULES, order=order, sweep=sweep, max_iter=400)
        return {
            "cycle": np.stack(sp.cycle),
            "cycle_values": sp.cycle_values,
            "period": np.array(sp.period),
            "iterations": np.array(sp.iterations),
            "cyclic_states": np.array(sp.cyclic_states, dtype=np.int64).reshape(-1, 2),
            "settled": np.array(sp.settled),
            "mae": np.array(sp.value_mean_abs_diff),
            "max_diff": np.array(sp.value_max_abs_diff),
            "max_at": np.array(sp.value_max_at),
            "coupled_pairs": np.array(sp.coupling.number_of_edges()),
            "seconds": np.array(time.perf_counter() - t0),
        }

    return cached_arrays(
        "z23-self-play", {"order": order, "sweep": sweep, "goal": RULES.goal, "v": VERSION}, compute
    )


def equilibrium_data() -> dict[str, np.ndarray]:
    def compute() -> dict[str, np.ndarray]:
        t0 = time.perf_counter()
        eq = equilibrium(rules=RULES)
        return {
            "value": np.asarray(eq.value),
            "thresholds": np.asarray(eq.policy.thresholds),
            "weights": np.asarray(eq.policy.weights),
            "support_sizes": np.asarray(eq.support_sizes),
            "lower": np.asarray(eq.lower),
            "upper": np.asarray(eq.upper),
            "n_lp": np.array(eq.n_lp),
            "seconds": np.array(time.perf_counter() - t0),
        }

    return cached_arrays("z23-equilibrium", {"goal": RULES.goal, "v": VERSION}, compute)


def equilibrium_policy() -> MixedPolicy:
    d = equilibrium_data()
    return MixedPolicy(d["thresholds"], d["weights"], "equilibrium")


def stackelberg_data(method: str = "exact") -> dict[str, np.ndarray]:
    def compute() -> dict[str, np.ndarray]:
        t0 = time.perf_counter()
        st = stackelberg(rules=RULES, method=method)
        return {
            "value": np.asarray(st.value),
            "leader": np.asarray(st.leader_policy),
            "follower": np.asarray(st.follower_policy),
            "iterations": np.array(st.iterations),
            "residual": np.array(st.residual),
            "seconds": np.array(time.perf_counter() - t0),
        }

    return cached_arrays("z23-stackelberg", {"method": method, "goal": RULES.goal, "v": VERSION}, compute)
