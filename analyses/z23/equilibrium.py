"""The exact equilibrium and the exploitability of the paper's strategies (extensions of
Z23.11-Z23.14; not numbers the paper has).

Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), "Mixed-strategy equilibrium", say that
"the pure-strategy equilibrium does not exist", that the 50/50 mix of the two cyclic
policies "is the optimal strategy pi_* for the simultaneous 2-player Pig game", and call the
Stackelberg policies "near-optimal". They stop there. Here:

* the exact equilibrium (:func:`pigtheory.simultaneous.equilibrium`): how many states have
  no pure saddle point and over how many thresholds the equilibrium mixes there, with the
  certificate (lower and upper bound at every state) and V(0, 0);
* the exploitability (:func:`pigtheory.simultaneous.exploitability`: best response's win
  probability from (0, 0) minus 1/2) of the two cyclic policies, of their state-by-state 50/50
  mix, of both Stackelberg policies, of hold at 25 and of the equilibrium itself.

Rows have status "extension" (no paper number to compare with), except the one checking the
paper's statement that the 50/50 mix is optimal (exploitability 0).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from analyses._claims import EXTENSION, Row, near, print_rows, record_time, tiny
from analyses.z23._equilibrium_data import (
    RULES,
    equilibrium_data,
    equilibrium_policy,
    equilibrium_seconds,
    self_play_data,
    stackelberg_data,
)
from pigtheory import MixedPolicy, hold_at
from pigtheory.simultaneous import exploitability

SOURCE = "Zhu et al. 2023 (Sci. Rep.), Mixed-strategy equilibrium (extension)"
OPTIMAL_MIX_EXPLOITABILITY = 0.0

CLAIMS = [("Z23.11", SOURCE + ": the 50/50 mix of the cycle is optimal", OPTIMAL_MIX_EXPLOITABILITY, 1e-9)]


def exploitabilities() -> dict[str, float]:
    cycle = list(self_play_data().cycle)
    st = stackelberg_data("exact")
    return {
        "cyclic policy 1": exploitability(cycle[0], rules=RULES).exploitability,
        "cyclic policy 2": exploitability(cycle[1], rules=RULES).exploitability,
        "50/50 state-by-state mix of the cycle": exploitability(
            MixedPolicy.of([(cycle[0], 0.5), (cycle[1], 0.5)], RULES), rules=RULES
        ).exploitability,
        "Stackelberg leader": exploitability(st.leader_policy, rules=RULES).exploitability,
        "Stackelberg follower": exploitability(st.follower_policy, rules=RULES).exploitability,
        "hold at 25": exploitability(hold_at(25), rules=RULES).exploitability,
        "exact equilibrium": exploitability(equilibrium_policy(), rules=RULES).exploitability,
    }


def main() -> tuple[list[Row], str]:
    d = equilibrium_data()
    sizes = d.support_sizes
    mixed = int((sizes > 1).sum())
    cyc = set(self_play_data().cyclic_states)
    mixed_set = {tuple(map(int, s)) for s in np.argwhere(sizes > 1)}
    gap = float((d.upper - d.lower).max())
    v = d.value[:100, :100]
    rows = [
        Row(
            "Z23.N1",
            SOURCE,
            "states without a pure saddle point (the equilibrium mixes)",
            "-",
            str(mixed),
            EXTENSION,
            f"{len(mixed_set & cyc)} of them among the {len(cyc)} states that cycle in self-play",
        ),
        Row("Z23.N2", SOURCE, "largest support of an equilibrium mix", "-", str(int(sizes.max())), EXTENSION),
        Row(
            "Z23.N3",
            SOURCE,
            "equilibrium value at (0, 0); certificate gap; symmetry",
            "-",
            f"{near(d.value[0, 0], Fraction(1, 2))}; {tiny(gap)}; {tiny(np.abs(v + v.T - 1).max())}",
            EXTENSION,
            f"{d.n_lp} LPs",
        ),
    ]
    record_time("Z23.N3: exact equilibrium, goal 100 (when the cache entry was made)", equilibrium_seconds())
    ex = exploitabilities()
    n = 3
    for name, e in ex.items():
        if name.startswith("50/50"):
            ok = abs(e) <= 1e-9
            rows.append(
                Row(
                    "Z23.11",
                    SOURCE,
                    "exploitability of the 50/50 mix the paper calls optimal",
                    "0 (optimal)",
                    tiny(e, digits=4),
                    "reproduced" if ok else "differs",
                    "state-by-state mix; a best response gains this much against it, so it is close to but not "
                    "the optimal strategy (the exact equilibrium mixes at different states with other weights)",
                )
            )
        else:
            n += 1
            rows.append(
                Row(f"Z23.N{n}", SOURCE, f"exploitability of {name}", "-", tiny(e, digits=4), EXTENSION)
            )
    md = "Exploitability (best response's win probability from (0, 0) minus 1/2):\n\n| strategy | exploitability |\n|---|---|\n"
    md += "\n".join(f"| {k} | {tiny(v, digits=4)} |" for k, v in ex.items())
    return rows, md


if __name__ == "__main__":
    r, md = main()
    print_rows(r)
    print(md)
