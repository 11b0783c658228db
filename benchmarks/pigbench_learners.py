"""The light PigBench leaderboard: every light agent on the light tasks it fits, its exact score
at every checkpoint beside the Monte Carlo numbers a win-rate study would report.

Writes ``benchmarks/records/pigbench.json`` (rules, seeds, versions, curves: checkpoints, exact
score, wall time, Monte Carlo exploitability estimate and its standard error, win rate against
the task's best hold-at-k bot and its standard error) and prints the leaderboard.
``make bench-learners`` runs it (``python -m benchmarks.pigbench_learners``).

Agents (pigtheory.learning): tabular Q-learning in self-play (Watkins 1989) on pig-20 and
piglet; OpenSpiel's tabular QLearner on its pig of the same rules; regret matching+ per state
(Hart & Mas-Colell 2000; Tammelin 2014) on simultaneous-50. The x axis is episodes (self-play
games) for the Q-learners and rounds per state for regret matching; the wall time is that of
the whole run up to the checkpoint (each checkpoint is a run of its own from the same seed).
"""

from __future__ import annotations

import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

from pigtheory import __version__
from pigtheory.learning import (
    monte_carlo_exploitability,
    openspiel_q_learning,
    play_matches,
    q_learning,
    regret_matching,
)
from pigtheory.referee import TASKS, score

GAMES = 2000
OUT = Path(__file__).parent / "records" / "pigbench.json"


def _mc(policy, t, seed):
    """Monte Carlo exploitability estimate and the win rate against the best hold-at-k bot."""
    sim = t.play == "simultaneous"
    est, se = monte_carlo_exploitability(policy, rules=t.rules, games=GAMES, rng=seed, simultaneous=sim)
    bot = t.hold_at(t.reference()["best_hold_at_k"])
    if sim:
        from pigtheory.simulate import play_simultaneous

        s = play_simultaneous([policy, bot], rules=t.rules, games=GAMES, rng=seed)
        win, wse = float(s.wins[0]), float(s.stderr[0])
    else:
        w = np.concatenate(
            [
                play_matches([policy, bot], rules=t.rules, games=GAMES, rng=seed),
                1.0 - play_matches([bot, policy], rules=t.rules, games=GAMES, rng=seed + 1),
            ]
        )
        win, wse = float(w.mean()), float(w.std(ddof=1) / np.sqrt(w.size))
    return float(est), float(se), win, wse


def _curve(agent, t, checkpoints, learn, seed):
    rows = []
    for c in checkpoints:
        t0 = time.perf_counter()
        run = learn(c)
        wall = time.perf_counter() - t0
        pol = run.policies[-1]
        pol = list(pol) if isinstance(pol, np.ndarray) and pol.ndim == 4 else pol
        exact = score(pol, t)
        est, se, win, wse = _mc(pol, t, seed)
        rows.append(dict(x=int(c), wall_s=wall, exact=exact, mc=est, mc_se=se, win_vs_bot=win, win_se=wse))
        print(
            f"{agent:>22} {t.name:>16} {c:>8} exact {exact:.6f}  MC {est:+.4f} +- {se:.4f}  win vs bot {win:.3f} +- {wse:.3f}  {wall:.1f} s",
            flush=True,
        )
    return dict(
        agent=agent,
        task=t.name,
        seed=seed,
        x_unit=("rounds per state" if t.play == "simultaneous" else "episodes"),
        curve=rows,
    )


def main() -> int:
    from pigtheory.referee.openspiel import openspiel_game

    t_start = time.perf_counter()
    runs = []
    for name in ("piglet", "pig-20"):
        t = TASKS[name]
        runs.append(
            _curve(
                "q-learning",
                t,
                (300, 3000, 30_000),
                lambda c, t=t: q_learning(rules=t.rules, checkpoints=(c,), rng=1),
                11,
            )
        )
        game = openspiel_game(t.rules)
        runs.append(
            _curve(
                "openspiel-qlearner",
                t,
                (300, 3000),
                lambda c, g=game: openspiel_q_learning(g, checkpoints=(c,), rng=2),
                12,
            )
        )
    t = TASKS["simultaneous-50"]
    runs.append(
        _curve(
            "regret-matching+",
            t,
            (10, 100, 300),
            lambda c, t=t: regret_matching(rules=t.rules, iterations=(c,)),
            13,
        )
    )
    refs = {n: TASKS[n].reference() for n in ("piglet", "pig-20", "simultaneous-50")}
    record = dict(
        what="PigBench light leaderboard (benchmarks/pigbench_learners.py)",
        versions=dict(
            pigtheory=__version__,
            python=sys.version.split()[0],
            numpy=np.__version__,
            machine=platform.machine(),
        ),
        games_per_estimate=GAMES,
        references=refs,
        runs=runs,
        total_wall_s=time.perf_counter() - t_start,
    )
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(record, indent=1, default=float) + "\n")
    print("\n| agent | task | steps | exact | MC estimate | win vs best hold-at-k bot | wall s |")
    print("|---|---|---|---|---|---|---|")
    for r in runs:
        last = r["curve"][-1]
        print(
            f"| {r['agent']} | {r['task']} | {last['x']} {r['x_unit']} | {last['exact']:.2e} | {last['mc']:+.4f} ± {last['mc_se']:.4f} | {last['win_vs_bot']:.3f} ± {last['win_se']:.3f} | {last['wall_s']:.1f} |"
        )
    print(f"total {record['total_wall_s']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
