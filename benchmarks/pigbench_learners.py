"""The light PigBench leaderboard: every light agent on the light tasks it fits, its exact score
at every checkpoint beside the Monte Carlo numbers a win-rate study would report.

Writes ``benchmarks/records/pigbench.json`` (rules, seeds, versions, curves: checkpoints, exact
score, wall time, Monte Carlo exploitability estimate and its standard error, win rate against
the task's best hold-at-k bot and its standard error) and prints the leaderboard.
``make bench-learners`` runs it (``python -m benchmarks.pigbench_learners``).

Agents (pigtheory.learning, seeded): tabular Q-learning in self-play (Watkins 1989) on piglet,
pig-20 and pig-50; OpenSpiel's tabular QLearner on its pig of the same rules (piglet, pig-20);
regret matching+ (Hart & Mas-Colell 2000), CFR+ (Tammelin 2014) and fictitious play (Brown 1951)
per state on simultaneous-50; model-based (certainty-equivalent) learning from self-play rolls on
piglet, pig-50, pig-100, simultaneous-50 and simultaneous-100. The x axis is episodes (self-play
games) for the Q-learners, rounds per state for the stage-game learners, die rolls seen for the
model-based ones; the wall time is that of the whole run up to the checkpoint (each checkpoint a
run of its own from the same seed, except the model-based runs, one run timed at every
checkpoint), timed after a warm-up run so that no compile or import is in it. The record notes
the machine's load average at the start and the end.
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
    cfr_plus,
    fictitious_play,
    model_based_details,
    model_based_simultaneous,
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
    """The curve of one agent on one task. ``learn(c)`` is one run to ``c`` (each checkpoint a run
    of its own from the same seed); an agent whose run reports its wall time at every checkpoint
    (``learn`` given as ``("one run", f)`` with ``f(checkpoints) -> (LearningRun, details)``)
    is run once. Timed after a warm-up run at the first checkpoint (so that no compile or import
    is in the wall time)."""
    if isinstance(learn, tuple):
        learn[1](checkpoints[:1])
        run, details = learn[1](checkpoints)
        runs = [(c, p, d["wall_s"], d) for c, p, d in zip(checkpoints, run.policies, details, strict=True)]
    else:
        learn(checkpoints[0])
        runs = []
        for c in checkpoints:
            t0 = time.perf_counter()
            pol = learn(c).policies[-1]
            runs.append((c, pol, time.perf_counter() - t0, None))
    rows = []
    for c, pol, wall, details in runs:
        pol = list(pol) if isinstance(pol, np.ndarray) and pol.ndim == 4 else pol
        exact = score(pol, t)
        est, se, win, wse = _mc(pol, t, seed)
        row = dict(x=int(c), wall_s=wall, exact=exact, mc=est, mc_se=se, win_vs_bot=win, win_se=wse)
        if details is not None:
            row["steps"] = int(details.get("decisions", details.get("rounds", 0)))
            row["die"] = [round(p, 8) for p in details["die"]]
        rows.append(row)
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
        cps = (10**2, 10**3, 10**4, 3 * 10**4)
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
    for agent, learner, cps in (
        ("regret-matching+", regret_matching, (10, 30, 100, 300, 1000)),
        ("cfr+", cfr_plus, (10, 30, 100, 300, 1000)),
        ("fictitious-play", fictitious_play, (10, 100, 1000, 10**4, 10**5)),
    ):
        out.append(
            (
                agent,
                t,
                cps,
                lambda c, f=learner, t=t: f(rules=t.rules, iterations=(c,)),
                13,
                "rounds per state",
            )
        )
    rolls = tuple(10**e for e in range(2, 8))
    for name in ("piglet", "pig-50", "pig-100"):
        t = TASKS[name]
        learn = ("one run", lambda cps, t=t: model_based_details(rules=t.rules, checkpoints=cps, rng=3))
        out.append(("model-based", t, rolls, learn, 14, "die rolls"))
    for name in ("simultaneous-50", "simultaneous-100"):
        t = TASKS[name]
        learn = ("one run", lambda cps, t=t: model_based_simultaneous(rules=t.rules, checkpoints=cps, rng=3))
        out.append(("model-based", t, rolls, learn, 15, "die rolls"))
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
