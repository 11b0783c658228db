"""Benchmark: the exact referee at goal 100, two players (issue 22's targets).

Prints, in one process (medians of wall-clock time, numba kernels loaded before the clock):

* exact evaluation of a tabular two-player sequential profile (the optimum against a stochastic
  table; target <= 50 ms), its exploitability (two best responses and one evaluation; target
  <= 100 ms), and the same with OpenSpiel's horizon of 100 moves (layers over the moves left;
  ``--full``: 1000 moves);
* ``from_openspiel_policy`` on OpenSpiel's ``pig`` at winscore 100 (target <= 10 s) for the
  uniform random policy, and the read-back of a policy made by ``to_openspiel_policy``;
* for scale, pigtheory's optimal solver and Neller & Presser's policy comparison on the same
  profile (``sequential.compare``, pure policies only);
* three players at goal 30 (the multiplayer kernel): evaluation and exploitability of the
  equilibrium of :func:`pigtheory.sequential.equilibrium`, and the solve itself for scale.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from benchmarks._timing import median_time
from pigtheory import Rules, hold_at, sequential
from pigtheory.referee import evaluate, exploitability
from pigtheory.sequential import pair_kernels as kernels


def main(argv: list[str] | None = None) -> None:
    horizon = 1000 if "--full" in (sys.argv[1:] if argv is None else argv) else 100  # --full: 1000
    rules = Rules()
    kernels.warm_up()
    opt = sequential.solve(rules=rules)
    rng = np.random.default_rng(0)
    table = np.clip(opt.policy + rng.normal(0, 0.2, opt.policy.shape), 0, 1)  # a stochastic table
    t_eval = median_time(lambda: evaluate([opt.policy, table], rules=rules), 7)
    t_expl = median_time(lambda: exploitability([opt.policy, table], rules=rules), 5)
    # CPU time too: the kernels run on one thread, so on a shared machine it is the fairer figure
    c_eval = median_time(lambda: evaluate([opt.policy, table], rules=rules), 7, clock=time.process_time)
    c_expl = median_time(lambda: exploitability([opt.policy, table], rules=rules), 5, clock=time.process_time)
    e = exploitability([opt.policy, table], rules=rules)
    print(
        f"evaluate (goal 100, stochastic table vs optimum): {1e3 * t_eval:.1f} ms wall, {1e3 * c_eval:.1f} ms CPU"
    )
    print(f"  (target <= 50 ms); exploitability: {1e3 * t_expl:.1f} ms wall, {1e3 * c_expl:.1f} ms CPU")
    print(f"  (target <= 100 ms); nash_conv {e.nash_conv:.6f}")
    t_cmp = median_time(lambda: sequential.compare(opt, hold_at(25), rules=rules), 3)
    t_ev25 = median_time(lambda: evaluate([opt, hold_at(25)], rules=rules), 5)
    print(
        f"sequential.compare(opt, hold at 25): {1e3 * t_cmp:.1f} ms; referee.evaluate: {1e3 * t_ev25:.1f} ms"
    )
    t_solve = median_time(lambda: sequential.solve(rules=rules), 3)
    print(f"for scale: sequential.solve (goal 100): {1e3 * t_solve:.1f} ms")
    three_players()
    t0, c0 = time.perf_counter(), time.process_time()
    ev_h = evaluate([opt.policy, table], rules=rules, horizon=horizon)
    t_h, c_h = time.perf_counter() - t0, time.process_time() - c0
    print(
        f"evaluate with horizon {horizon}: {t_h:.2f} s wall, {c_h:.2f} s CPU; P(horizon reached) = {ev_h.draw:.3e}; "
        f"first seat {ev_h.value_start[0]:.12f} vs {evaluate([opt.policy, table], rules=rules).value_start[0]:.12f} without"
    )
    try:
        import pyspiel
        from open_spiel.python import policy as osp
    except ImportError:  # pragma: no cover
        print("open_spiel not installed: from_openspiel_policy not timed")
        return
    from pigtheory.referee.baselines import to_openspiel_policy
    from pigtheory.referee.openspiel import from_openspiel_policy

    game = pyspiel.load_game("pig")
    t0, c0 = time.perf_counter(), time.process_time()
    from_openspiel_policy(game, osp.UniformRandomPolicy(game))
    t_from, c_from = time.perf_counter() - t0, time.process_time() - c0
    print(
        f"from_openspiel_policy (pig, winscore 100, uniform random): {t_from:.2f} s wall, "
        f"{c_from:.2f} s CPU (target <= 10 s)"
    )
    pol = to_openspiel_policy(opt, game)
    t_back = median_time(lambda: from_openspiel_policy(game, pol), 3)
    print(f"from_openspiel_policy of a to_openspiel_policy policy (no queries): {1e3 * t_back:.1f} ms")


def three_players() -> None:
    """The referee with three players, goal 30 (no horizon)."""
    rules = Rules(goal=30, players=3)
    t_eq = median_time(lambda: sequential.equilibrium(rules=rules, enclose=False), 1, clock=time.process_time)
    eq = sequential.equilibrium(rules=rules, enclose=False)
    evaluate(eq, rules=rules)  # the multiplayer kernels compiled or loaded before the clock
    c_eval = median_time(lambda: evaluate(eq, rules=rules), 3, clock=time.process_time)
    c_expl = median_time(lambda: exploitability(eq, rules=rules), 3, clock=time.process_time)
    nc = exploitability(eq, rules=rules).nash_conv
    print(
        f"3 players, goal 30: evaluate {1e3 * c_eval:.0f} ms CPU, exploitability {1e3 * c_expl:.0f} ms CPU "
        f"(NashConv of the equilibrium {nc:.1e}); sequential.equilibrium {1e3 * t_eq:.0f} ms CPU"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
