"""Learners scored exactly: tabular Q-learning in self-play on sequential Pig to 20, OpenSpiel's
own tabular Q-learner on its ``pig`` to 10, and regret matching+ per state on simultaneous Pig to
50. Each panel shows the exact exploitability of the learned policy (the referee) beside what a
win-rate study of 2000 games per seat against the exact best responses would report (Monte Carlo
with its 95% band); the last panel, the games such a study needs to see the exact gap at two
standard errors. An exploitability of 0 (the exact optimum reached) is drawn at 1e-6. Writes
``paper_figures/learning.png`` and ``.pdf``.
"""

from __future__ import annotations

import numpy as np

from paper_figures._common import save, stable
from pigtheory import Rules, simultaneous
from pigtheory.learning import (
    monte_carlo_exploitability,
    openspiel_q_learning,
    q_learning,
    regret_matching,
)
from pigtheory.referee import exploitability, regret, simultaneous_exploitability
from pigtheory.referee.openspiel import openspiel_game
from pigtheory.referee.plots import plot_learning

GAMES = 2000


def panels() -> list[dict]:
    """The three learners' curves (exact and Monte Carlo); printed as they are computed."""
    out = []
    rules = Rules(goal=20)
    run = q_learning(rules=rules, checkpoints=(100, 300, 1000, 3000, 10_000, 30_000), rng=1)
    exact = [exploitability(p, rules=rules).exploitability for p in run.policies]
    mc = [monte_carlo_exploitability(p, rules=rules, games=GAMES, rng=n) for n, p in enumerate(run.policies)]
    reg = [max(regret(p, rules=rules), 0.0) for p in run.policies]
    out.append(
        dict(
            title="Q-learning: sequential Pig to 20",
            xlabel="episodes (self-play games)",
            x=run.episodes,
            exact=exact,
            mc=[m for m, _ in mc],
            mc_se=[s for _, s in mc],
            extra=("regret vs optimum", reg),
        )
    )
    rules10 = Rules(goal=10)
    run = openspiel_q_learning(openspiel_game(rules10), checkpoints=(100, 300, 1000, 3000), rng=2)
    exact = [exploitability(list(p), rules=rules10).exploitability for p in run.policies]
    mc = [
        monte_carlo_exploitability(list(p), rules=rules10, games=GAMES, rng=n)
        for n, p in enumerate(run.policies)
    ]
    out.append(
        dict(
            title="OpenSpiel QLearner: pig to 10",
            xlabel="episodes (self-play games)",
            x=run.episodes,
            exact=exact,
            mc=[m for m, _ in mc],
            mc_se=[s for _, s in mc],
        )
    )
    rules50 = Rules(goal=50)
    eq = simultaneous.equilibrium(rules=rules50)
    run = regret_matching(rules=rules50, iterations=(3, 10, 30, 100, 300, 1000))
    exact = [simultaneous_exploitability(p, rules=rules50).exploitability for p in run.policies]
    mc = [
        monte_carlo_exploitability(p, rules=rules50, games=GAMES, rng=n, simultaneous=True)
        for n, p in enumerate(run.policies)
    ]
    tv = []
    for p in run.policies:  # total variation to the equilibrium's mix at its mixed states
        d = []
        for i, j in eq.mixed_states:
            target = np.zeros(rules50.goal)
            for k, w in eq.strategy(i, j).items():
                target[k - 1] = w
            d.append(0.5 * np.abs(target[: rules50.goal - i] - p.weights[i, j, : rules50.goal - i]).sum())
        tv.append(float(np.mean(d)))
    out.append(
        dict(
            title=f"Regret matching+: simultaneous Pig to 50 ({len(eq.mixed_states)} mixed states)",
            xlabel="rounds per state",
            x=run.episodes,
            exact=exact,
            mc=[m for m, _ in mc],
            mc_se=[s for _, s in mc],
            extra=("distance to the equilibrium mix", tv),
        )
    )
    for p in out:  # rounded to 9 digits: the same figure whatever the CPU's summation order
        for key in ("exact", "mc", "mc_se"):
            p[key] = stable(p[key]).tolist()
        if "extra" in p:
            p["extra"] = (p["extra"][0], stable(p["extra"][1]).tolist())
    for p in out:
        print(p["title"])
        for x, e, m, s in zip(p["x"], p["exact"], p["mc"], p["mc_se"], strict=True):
            print(f"  {int(x):>6}: exact {e:.6f}   Monte Carlo {m:+.4f} +- {1.96 * s:.4f}")
    return out


def main() -> None:
    save(plot_learning(panels()), "learning")


if __name__ == "__main__":
    main()
