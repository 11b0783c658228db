"""The policies the paper's web app plays (extension; the paper shows no numbers for them).

Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), Introduction: "we have written an online
interactive app so that people can play the simultaneous Pig game against our optimal
strategies: https://luchencatherine.github.io/pig-game". Its repository
(LuchenCatherine/pig-game, MIT) holds six threshold tables; the three simultaneous ones
("easy", "normal", "hard") are read with :func:`pigtheory.published.webapp_policies`.

For each: its exploitability (:func:`pigtheory.simultaneous.exploitability`), its win
probability from (0, 0) against hold at 25, and which of our computed policies it equals (or
the nearest one and at how many states it differs): hold at n, the best response to hold at
25, the two self-play cycle policies, the Stackelberg leader and follower, and the most
probable threshold of the exact equilibrium.
"""

from __future__ import annotations

import numpy as np

from analyses._claims import EXTENSION, Row, print_rows
from analyses.z23._equilibrium_data import RULES, equilibrium_data, self_play_data, stackelberg_data
from pigtheory import hold_at
from pigtheory.published import SIMULTANEOUS_TABLES, webapp_policies
from pigtheory.simultaneous import best_response, exploitability, win_probability

SOURCE = "Zhu et al. 2023 web app (LuchenCatherine/pig-game), simultaneous tables"
CLAIMS: list = []


def candidates() -> dict[str, np.ndarray]:
    cycle = self_play_data().cycle
    st = stackelberg_data("exact")
    mix = equilibrium_data().policy
    top = np.take_along_axis(mix.thresholds, mix.weights.argmax(axis=2)[..., None], axis=2)[..., 0]
    out = {f"hold at {n}": hold_at(n).table(RULES) for n in (15, 20, 21, 25)}
    out["best response to hold at 25"] = np.asarray(best_response(hold_at(25), rules=RULES).policy)
    out.update({"self-play cycle policy 1": cycle[0], "self-play cycle policy 2": cycle[1]})
    out.update({"Stackelberg leader": st.leader_policy, "Stackelberg follower": st.follower_policy})
    out["equilibrium (most probable threshold)"] = top
    return out


def main() -> tuple[list[Row], str]:
    pub = webapp_policies(rules=RULES)
    cands = candidates()
    rows, lines = (
        [],
        [
            "| table | clipped | exploitability | vs hold at 25 | equals / nearest (states differing) |",
            "|---|---|---|---|---|",
        ],
    )
    for n, name in enumerate(SIMULTANEOUS_TABLES, 1):
        t = pub.tables[name]
        e = exploitability(t, rules=RULES).exploitability
        h = float(win_probability(t, hold_at(25), rules=RULES)[0, 0])
        dist = {k: int((np.asarray(c) != t.table).sum()) for k, c in cands.items()}
        best = min(dist, key=dist.get)
        match = f"equals {best}" if dist[best] == 0 else f"nearest: {best} ({dist[best]} states differ)"
        if 0 < dist[best] <= 5:
            c = np.asarray(cands[best])
            match += ": " + ", ".join(
                f"{tuple(int(x) for x in s)} web {int(t.table[tuple(s)])}, ours {int(c[tuple(s)])}"
                for s in np.argwhere(c != t.table)
            )
        short = name.rsplit("-", 1)[1]  # the level
        rows.append(
            Row(
                f"Z23.W{n}",
                SOURCE,
                f"web app '{short}': exploitability; vs hold at 25; identity",
                "-",
                f"{e:.3e}; {h:.4f}; {match}",
                EXTENSION,
                f"{pub.clipped[name]} thresholds clipped, {pub.raised[name]} raised to 1 on loading",
            )
        )
        lines.append(f"| {short} | {pub.clipped[name]} | {e:.3e} | {h:.4f} | {match} |")
    return rows, "\n".join(lines)


if __name__ == "__main__":
    r, md = main()
    print_rows(r)
    print(md)
