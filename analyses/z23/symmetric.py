"""Symmetric equilibria of three- and four-player simultaneous Pig (extension rows Z23.S*).

Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), "Three players with independent
strategies" and Algorithm 0.3, compute best responses against fixed "hold at n" opponents
and a grid over their thresholds (Fig. 6); the paper finds no equilibrium of the
three-player game. These rows are ours, beyond the paper (status *extension*):

* Z23.S1-S4: three players at goal 100: the symmetric Markov equilibrium by backward
  induction (:func:`pigtheory.simultaneous.symmetric_equilibrium`), its counts, opening,
  per-state certificate and global certificate (the exploitability, an exact best response of
  one player against the two others playing the equilibrium,
  :func:`pigtheory.simultaneous.symmetric_best_response`), and Monte Carlo of the profile;
* Z23.S5-S6: four players (goal 100; the global certificate at goal 50);
* Z23.S7: two players through the same code against the exact zero-sum equilibrium;
* Z23.S8: the obvious methods on the whole game (best-response dynamics, damped, fictitious
  play; :func:`pigtheory.simultaneous.symmetric_dynamics`) and how far they get;
* Z23.S9: the opening threshold against the number of players.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from analyses._claims import EXTENSION, Row, near, print_rows, record_time, tiny
from analyses.z23._equilibrium_data import equilibrium_data
from analyses.z23._symmetric_data import (
    CERTIFIED_FOUR_PLAYER_GOAL,
    DYNAMICS,
    DYNAMICS_ITER,
    FOUR_PLAYER_GOALS,
    certificate,
    dynamics,
    limit_from,
    symmetric,
    two_player_opening,
)
from pigtheory.simulate import play_simultaneous

SOURCE = "Zhu et al. 2023 (Sci. Rep.), Three players (extension: symmetric equilibrium)"
CLAIMS: list = []  # extension rows only: the paper has no equilibrium of the n-player game
GAMES = 40_000


def _mix(mix: dict[int, float]) -> str:
    return ", ".join(f"{k}" if p == 1 else f"{k} ({p:.4f})" for k, p in sorted(mix.items()))


def main():
    eq3, t3 = symmetric(3)
    br3, tb3 = certificate(3)
    sim = play_simultaneous([eq3.policy] * 3, eq3.rules, games=GAMES, rng=2023)
    within = bool(np.all(np.abs(sim.wins - 1 / 3) <= 4 * sim.stderr))
    record_time("Z23.S1: three players, goal 100 (when the cache entry was made)", t3)
    record_time("Z23.S4: three-player global certificate (when the cache entry was made)", tb3)
    rows = [
        Row(
            "Z23.S1",
            SOURCE,
            "3 players, goal 100, symmetric equilibrium: sorted states; pure; mixed; largest support",
            "-",
            f"{eq3.n_states}; {eq3.n_pure}; {eq3.n_mixed}; {eq3.largest_support}",
            EXTENSION,
            f"backward induction; {eq3.n_fallback} mixed states needed fictitious play as fallback",
        ),
        Row(
            "Z23.S2",
            SOURCE,
            "3 players: opening threshold at (0, 0, 0); value there",
            "-",
            f"{_mix(eq3.strategy(0, 0, 0))}; {near(eq3.at(0, 0, 0)[0], Fraction(1, 3))}",
            EXTENSION,
        ),
        Row(
            "Z23.S3",
            SOURCE,
            "3 players: certificate epsilon at (0, 0, 0); largest over all states",
            "-",
            f"{tiny(eq3.epsilon_start)}; {tiny(eq3.residual)}",
            EXTENSION,
            "targets <= 1e-9 and <= 1e-6",
        ),
        Row(
            "Z23.S4",
            SOURCE,
            "3 players: exploitability (exact best response at (0, 0, 0) minus 1/3); Monte Carlo win shares",
            "-",
            f"{tiny(br3.exploitability)}; " + ", ".join(f"{w:.4f}" for w in sim.wins),
            EXTENSION,
            f"largest gain of the best response at any state {tiny(br3.largest_gain)}; the "
            f"profile's own values match the table to {tiny(np.abs(br3.profile_table - eq3.value.table).max())}; "
            f"{GAMES} games, SE {sim.stderr.max():.4f}, all within 4 SE of 1/3: {within}",
        ),
    ]
    eq4, t4 = symmetric(4)
    br4, tb4 = certificate(4, CERTIFIED_FOUR_PLAYER_GOAL)
    record_time("Z23.S5: four players, goal 100 (when the cache entry was made)", t4)
    record_time("Z23.S6: four-player global certificate (when the cache entry was made)", tb4)
    rows += [
        Row(
            "Z23.S5",
            SOURCE,
            "4 players, goal 100: sorted states; mixed; opening; epsilon at start; largest epsilon",
            "-",
            f"{eq4.n_states}; {eq4.n_mixed}; {_mix(eq4.strategy(0, 0, 0, 0))}; {tiny(eq4.epsilon_start)}; {tiny(eq4.residual)}",
            EXTENSION,
            f"{eq4.n_fallback} fallback states; {int((eq4.state_epsilon()[1] > 1e-12).sum())} states with epsilon "
            "above 1e-12 (the stage solver re-solves any such state with wider limits)",
        ),
        Row(
            "Z23.S6",
            SOURCE,
            f"4 players, goal {CERTIFIED_FOUR_PLAYER_GOAL}: exploitability (global certificate)",
            "-",
            f"{tiny(br4.exploitability)}",
            EXTENSION,
            f"largest gain at any state {tiny(br4.largest_gain)}; the profile's own values match the table to "
            f"{tiny(np.abs(br4.profile_table - symmetric(4, CERTIFIED_FOUR_PLAYER_GOAL)[0].value.table).max())}",
        ),
    ]
    eq2, _ = symmetric(2)
    ref = equilibrium_data()
    same = {tuple(s) for s in eq2.mixed_states.tolist()} == {tuple(sorted(s)) for s in ref.mixed_states}
    rows.append(
        Row(
            "Z23.S7",
            SOURCE,
            "2 players through the symmetric solver vs the exact equilibrium: max |value difference|; same mixed states",
            "-",
            f"{tiny(np.abs(eq2.value - ref.value).max())}; {'yes' if same else 'no'}",
            EXTENSION,
            f"{eq2.n_mixed} mixed states (unordered)",
        )
    )
    runs = {label: dynamics(label) for label in DYNAMICS}
    rows.append(
        Row(
            "Z23.S8",
            SOURCE,
            f"3 players: exploitability after {DYNAMICS_ITER} iterations of "
            + ", ".join(runs)
            + " (from hold at 25)",
            "-",
            "; ".join(f"{tiny(run.epsilon[-1])}" for run, _ in runs.values()),
            EXTENSION,
            "smallest reached: "
            + ", ".join(f"{label} {tiny(run.epsilon.min())}" for label, (run, _) in runs.items())
            + f"; backward induction {tiny(br3.exploitability)}",
        )
    )
    openings = {2: two_player_opening(), 3: eq3.strategy(0, 0, 0), 4: eq4.strategy(0, 0, 0, 0)}
    for label, (_, secs) in runs.items():
        record_time(f"Z23.S8: {label}, 20 iterations (when the cache entry was made)", secs)
    rows.append(
        Row(
            "Z23.S9",
            SOURCE,
            "opening threshold of the symmetric equilibrium for 2, 3, 4 players; many players",
            "-",
            "; ".join(_mix(openings[n]) for n in (2, 3, 4)) + f"; 100 from {limit_from()} players on",
            EXTENSION,
        )
    )
    lines = []
    for g in FOUR_PLAYER_GOALS:
        eq, secs = symmetric(4, g)
        record_time(f"Z23.S5: four players, goal {g} (when the cache entry was made)", secs)
        lines.append(
            f"| {g} | {eq.n_states} | {eq.n_mixed} | {eq.largest_support} | {_mix(eq.strategy(0, 0, 0, 0))} | "
            f"{tiny(eq.epsilon_start)} | {tiny(eq.residual)} |"
        )
    md = "\n".join(
        [
            "Four players by goal (backward induction; times in `analyses/TIMINGS.md`, peak memory in",
            "`benchmarks/bench_symmetric.py`):",
            "",
            "| goal | sorted states | mixed | largest support | opening | epsilon at start | largest epsilon |",
            "|---|---|---|---|---|---|---|",
            *lines,
            "",
            "Whole-game dynamics, three players at goal 100 (exploitability by iteration):",
            "",
            "| iteration | " + " | ".join(runs) + " |",
            "|---|" + "---|" * len(runs),
            *[
                f"| {t} | " + " | ".join(f"{run.epsilon[t]:.2e}" for run, _ in runs.values()) + " |"
                for t in range(DYNAMICS_ITER + 1)
            ],
        ]
    )
    print_rows(rows)
    return rows, md


if __name__ == "__main__":
    main()
