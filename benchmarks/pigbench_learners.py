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
the whole run up to the checkpoint (each checkpoint is a run of its own from the same seed, timed
after a warm-up run so that no compile or import is in it). The record notes the load average.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

from pigtheory import __version__
from pigtheory.io import atomic_write
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
    """Monte Carlo exploitability estimate and the win rate against the best hold-at-k bot
    (half the games in each seat; a per-seat profile plays its own seat's table)."""
    sim = t.play == "simultaneous"
    est, se = monte_carlo_exploitability(policy, rules=t.rules, games=GAMES, rng=seed, simultaneous=sim)
    bot = t.hold_at(t.reference()["best_hold_at_k"])
    seats = list(policy) if isinstance(policy, (list, tuple)) else [policy, policy]
    if sim:
        from pigtheory.simulate import play_simultaneous

        s0 = play_simultaneous([seats[0], bot], rules=t.rules, games=GAMES, rng=seed)
        s1 = play_simultaneous([bot, seats[1]], rules=t.rules, games=GAMES, rng=seed + 1)
        win = (float(s0.wins[0]) + float(s1.wins[1])) / 2
        wse = float(np.hypot(s0.stderr[0], s1.stderr[1]) / 2)
    else:
        w = np.concatenate(
            [
                play_matches([seats[0], bot], rules=t.rules, games=GAMES, rng=seed),
                1.0 - play_matches([bot, seats[1]], rules=t.rules, games=GAMES, rng=seed + 1),
            ]
        )
        win, wse = float(w.mean()), float(w.std(ddof=1) / np.sqrt(w.size))
    return float(est), float(se), win, wse


def _curve(agent, t, checkpoints, learn, seed, x_unit):
    """One run of ``learn(c)`` per checkpoint (from the same seed), timed after a warm-up run
    at the first checkpoint (so that no compile or import is in the wall time)."""
    learn(checkpoints[0])
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
            f"{agent:>22} {t.name:>16} {c:>9} exact {exact:.3e}  MC {est:+.4f} +- {se:.4f}  "
            f"win vs bot {win:.3f} +- {wse:.3f}  {wall:.3f} s",
            flush=True,
        )
    return dict(agent=agent, task=t.name, seed=seed, x_unit=x_unit, curve=rows)


def _agents():
    """(agent, task, checkpoints, learn(c) -> LearningRun, seed, x unit) of the light leaderboard."""
    from pigtheory.referee.openspiel import openspiel_game

    out = []
    for name in ("piglet", "pig-20", "pig-50"):
        t = TASKS[name]
        cps = (10**3, 10**4, 10**5, 10**6) + ((10**7,) if name != "pig-50" else (3 * 10**6,))
        out.append(
            (
                "q-learning",
                t,
                cps,
                lambda c, t=t: q_learning(rules=t.rules, checkpoints=(c,), rng=1),
                11,
                "episodes",
            )
        )
    for name in ("piglet", "pig-20"):
        t = TASKS[name]
        game = openspiel_game(t.rules)
        cps = (10**2, 10**3, 10**4) + ((10**5,) if name == "piglet" else (3 * 10**4,))
        out.append(
            (
                "openspiel-qlearner",
                t,
                cps,
                lambda c, g=game: openspiel_q_learning(g, checkpoints=(c,), rng=2),
                12,
                "episodes",
            )
        )
    t = TASKS["simultaneous-50"]
    out.append(
        (
            "regret-matching+",
            t,
            (10, 30, 100, 300, 1000),
            lambda c, t=t: regret_matching(rules=t.rules, iterations=(c,)),
            13,
            "rounds per state",
        )
    )
    return out


def leaderboard_table(record: dict) -> str:
    """The leaderboard as a Markdown table (the last checkpoint of every run), as in the docs."""
    lines = [
        "| agent | task | steps | exact exploitability | Monte Carlo estimate (± s.e.) | win rate vs best hold-at-k (± s.e.) | wall time (s) |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in record["runs"]:
        last = r["curve"][-1]
        exact = "0 (optimal)" if abs(last["exact"]) < 1e-12 else f"{last['exact']:.2e}"
        lines.append(
            f"| {r['agent']} | {r['task']} | {last['x']:,} {r['x_unit']} | {exact} "
            f"| {last['mc']:+.4f} ± {last['mc_se']:.4f} | {last['win_vs_bot']:.3f} ± {last['win_se']:.3f} "
            f"| {last['wall_s']:.2f} |"
        )
    return "\n".join(lines) + "\n"


def _versions() -> dict:
    import numba

    out = dict(
        pigtheory=__version__,
        python=sys.version.split()[0],
        numpy=np.__version__,
        numba=numba.__version__,
        machine=platform.machine(),
        cpus=os.cpu_count(),
    )
    try:
        from importlib.metadata import version

        out["open_spiel"] = version("open_spiel")
    except Exception:  # noqa: BLE001 - optional
        out["open_spiel"] = None
    return out


def main() -> int:
    t_start = time.perf_counter()
    load_start = os.getloadavg()
    runs = [_curve(a, t, cps, learn, seed, unit) for a, t, cps, learn, seed, unit in _agents()]
    tasks = sorted({r["task"] for r in runs}, key=list(TASKS).index)
    record = dict(
        what="PigBench light leaderboard (benchmarks/pigbench_learners.py, make bench-learners)",
        versions=_versions(),
        load_average_1_5_15_min=dict(start=list(load_start), end=list(os.getloadavg())),
        games_per_estimate=GAMES,
        references={n: TASKS[n].reference() for n in tasks},
        runs=runs,
        total_wall_s=time.perf_counter() - t_start,
    )
    text = json.dumps(record, indent=1, default=float) + "\n"
    OUT.parent.mkdir(exist_ok=True)
    atomic_write(OUT, lambda tmp: Path(tmp).write_text(text))
    print()
    print(leaderboard_table(record))
    print(f"total {record['total_wall_s']:.0f} s, load average at start {load_start[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
