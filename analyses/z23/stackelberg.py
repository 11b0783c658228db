"""Stackelberg value iteration (claims Z23.12, Z23.13, Z23.14).

Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), "Stackelberg value iteration for
multi-agent reinforcement learning", Algorithm 0.2:

* Z23.12: "The winning rates for two players at the beginning of the game are 0.4999997 and
  0.5000003, respectively".
* Z23.13: "the two policies pi_A and pi_B are not exactly the same, with 74 out of total
  10,000 states different [...] The actions, however, are all differed by 1".
* Z23.14: "the winning probability of the Stackelberg strategy against the fore-mentioned
  mixed-strategy is also very close to 0.5, with error less than 10^-6".

Ours: :func:`pigtheory.simultaneous.stackelberg`, exact (backward induction over score sums)
and as the paper's iteration (in-place sweeps, i then j ascending, until the largest change is
below 1e-10); both give the same policies. pi_A and pi_B are compared own score first. The
"mixed strategy" of Z23.14 is the paper's: pi_l1 or pi_l2 with probability 1/2 each, taken
both as a choice made once per game (the average) and state by state.
"""

from __future__ import annotations

import numpy as np

from analyses._claims import Row, exact, numeric, print_rows, record_time
from analyses.z23._equilibrium_data import (
    RULES,
    equilibrium_policy,
    self_play_data,
    stackelberg_data,
    stackelberg_seconds,
)
from pigtheory import MixedPolicy
from pigtheory.simultaneous import win_probability

SOURCE = "Zhu et al. 2023 (Sci. Rep.), Algorithm 0.2"
RATES = (0.4999997, 0.5000003)
DIFFERING, BY = 74, 1
HALF, ERROR = 0.5, 1e-6

CLAIMS = [
    ("Z23.12", SOURCE, RATES, 5e-8),
    ("Z23.13", SOURCE, (DIFFERING, BY), 0),
    ("Z23.14", SOURCE, HALF, ERROR),
]


def main() -> tuple[list[Row], str]:
    ex = stackelberg_data("exact")
    it = stackelberg_data("value_iteration")
    lead, follow = ex.leader_policy, ex.follower_policy
    v = float(ex.value[0, 0])
    same = bool(np.array_equal(it.leader_policy, lead) and np.array_equal(it.follower_policy, follow))
    gap = float(np.abs(it.value - ex.value).max())
    rows = [
        numeric(
            "Z23.12",
            SOURCE,
            "leader's win rate at (0, 0)",
            RATES[0],
            v,
            5e-8,
            digits=7,
            note="the leader's pure max-min is below the value 1/2 where the game mixes",
        ),
        numeric("Z23.12", SOURCE, "follower's win rate at (0, 0)", RATES[1], 1 - v, 5e-8, digits=7),
    ]
    diff = follow - lead
    nz = diff[diff != 0]
    rows.append(exact("Z23.13", SOURCE, "states where pi_A and pi_B differ", DIFFERING, int(nz.size)))
    sizes, counts = np.unique(np.abs(nz), return_counts=True)
    by = ", ".join(f"{int(c)} by {int(s)}" for s, c in zip(sizes, counts, strict=True))
    rows.append(
        Row(
            "Z23.13",
            SOURCE,
            "size of each difference",
            "all by 1",
            by,
            "reproduced" if set(sizes.tolist()) == {1} else "differs",
            "the larger gaps are states where the follower's best answer jumps (e.g. to holding at the goal)",
        )
    )
    cycle = list(self_play_data().cycle)
    once = float(np.mean([win_probability(lead, c, rules=RULES)[0, 0] for c in cycle]))
    per_state = float(
        win_probability(lead, MixedPolicy.of([(cycle[0], 0.5), (cycle[1], 0.5)], RULES), rules=RULES)[0, 0]
    )
    vs_eq = float(win_probability(lead, equilibrium_policy(), rules=RULES)[0, 0])
    rows.append(
        numeric(
            "Z23.14",
            SOURCE,
            "Stackelberg (leader) policy vs the 50/50 cycle mixture",
            HALF,
            once,
            ERROR,
            digits=7,
            note=f"mixture chosen once per game; state by state {per_state:.7f}; vs the exact equilibrium {vs_eq:.7f}",
        )
    )
    for method in ("exact", "value_iteration"):
        record_time(
            f"Z23.12: Stackelberg, {method} (when the cache entry was made)", stackelberg_seconds(method)
        )
    md = (
        f"Paper's iteration: {it.iterations} sweeps to a change below "
        f"{it.residual:.1e}; same policies as the exact method: {same}; "
        f"largest value gap {gap:.1e}.\n\n"
        "Differing states (i, j): leader -> follower: "
        + ", ".join(
            f"{tuple(int(x) for x in s)}: {int(lead[tuple(s)])}->{int(follow[tuple(s)])}"
            for s in np.argwhere(diff != 0)
        )
    )
    return rows, md


if __name__ == "__main__":
    r, md = main()
    print_rows(r)
    print(md)
