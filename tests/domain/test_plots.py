"""Every figure function draws from small solves: it returns a matplotlib Figure that renders,
with the panels it promises, and leaves nothing registered with pyplot (a figure made in a loop
would otherwise stay in memory until the process ends)."""

from __future__ import annotations

import dataclasses
import io

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure

from pigtheory import Rules, hold_at, plots
from pigtheory import simultaneous as sim
from pigtheory.simultaneous.stopping import KINDS
from pigtheory.simultaneous.sweeps.grid import hold_at_grid

G = 16


@pytest.fixture(scope="module")
def small():
    rules = Rules(goal=G)
    eq = sim.equilibrium(rules=rules)
    se = sim.stopping_equilibrium(rules=rules)
    br = sim.best_response(hold_at(5), rules=rules)
    stop = sim.best_response(hold_at(5), rules=rules, strategies="stopping")
    sym = sim.symmetric_equilibrium(rules=Rules(goal=10, players=3))
    return rules, eq, se, br, stop, sym


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()


def _drawn(fig, panels):
    assert isinstance(fig, Figure)
    assert len(fig.axes) >= panels
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    assert buf.getvalue()[:8] == b"\x89PNG\r\n\x1a\n"
    assert plt.get_fignums() == []


def test_two_player_figures(small):
    rules, eq, se, br, stop, _ = small
    sweep = sim.hold_at_sweep(range(3, 9), rules=rules)
    _drawn(plots.plot_hold_at_sweep(sweep, paper_minima=[5]), 1)
    _drawn(plots.plot_best_response_contour(br, "hold at 5"), 1)
    _drawn(plots.plot_best_response_actions(br, "hold at 5", opponent_scores=(0, 8)), 1)
    _drawn(plots.plot_equilibrium_mixing(eq.policy.thresholds, eq.policy.weights), 2)
    st = sim.stackelberg(rules=rules)
    _drawn(plots.plot_stackelberg(np.asarray(st.leader_policy), np.asarray(st.follower_policy)), 1)
    _drawn(plots.plot_cycling_states(G, [(1, 2)], eq.mixed_states), 1)
    ex = np.unravel_index(int(np.argmax(stop.gain)), stop.gain.shape)
    _drawn(
        plots.plot_stopping_rules(
            se.kind,
            KINDS,
            stop.policy.roll[ex],
            int(stop.threshold_policy[ex]),
            (int(ex[0]), int(ex[1])),
            se.policy.prob[0, 0],
            (0, 0),
        ),
        3,
    )


def test_multiplayer_figures():
    grid = hold_at_grid([2, 3, 4], rules=Rules(goal=8, players=3), workers=1, progress=False)
    _drawn(plots.plot_three_player_grid(grid), 2)
    rows = [
        {
            "players": p,
            "goal": g,
            "states": g**p,
            "cpu_seconds": 1e-6 * g**p,
            "peak_mb": 1 + 1e-5 * g**p,
            "candidates": g**p * (g + 1) // 2,
            "memory_mb": 8 + 64e-6 * g**p,
            "solver": s,
        }
        for p, s in ((2, "full"), (3, "full"), (3, "symmetric"))
        for g in (20, 50, 100)
    ]
    _drawn(plots.plot_scaling(rows), 2)
    measured = (("cpu_seconds", "CPU time (s)"), ("peak_mb", "peak resident memory (MB)"))
    _drawn(plots.plot_scaling(rows, panels=measured), 2)
    _drawn(plots.plot_limit(sim.limit(12, rules=Rules(goal=12)), paper_n=None), 1)


def test_symmetric_figures(small):
    *_, sym = small
    _drawn(plots.plot_opening({2: {5: 1.0}, 3: {4: 0.25, 6: 0.75}}, limit_from=5, goal=10), 1)
    _drawn(plots.plot_value_lines(sym, [0, 3]), 2)
    _drawn(plots.plot_mixed_states(sym), 2)
    run = sim.symmetric_dynamics("best_response", rules=Rules(goal=10, players=3), max_iter=3)
    _drawn(
        plots.plot_dynamics(
            {"best response": run}, 1e-13, {"best response": 0.1, "backward induction": 0.01}
        ),
        1,
    )
    # without times, and with the rounding noise below the floor: the same picture whatever the
    # last bits of the exploitabilities (and a different one without the floor)
    eps = tuple(run.epsilon)
    one = {"best response": dataclasses.replace(run, epsilon=eps + (2e-16,))}
    other = {"best response": dataclasses.replace(run, epsilon=eps + (7e-17,))}
    assert _png(plots.plot_dynamics(one, 2e-16, floor=1e-13)) == _png(
        plots.plot_dynamics(other, -1e-16, floor=1e-13)
    )
    assert _png(plots.plot_dynamics(one, 2e-16)) != _png(plots.plot_dynamics(other, -1e-16))
    with pytest.raises(ValueError, match="floor"):
        plots.plot_dynamics({"best response": run}, 0.0, floor=0.0)


def test_sequential_hold_boundary():
    from pigtheory.sequential import solve

    sol = solve(rules=Rules(goal=12))
    thresholds = sol.hold_thresholds()
    _drawn(plots.plot_hold_boundary(thresholds, "goal 12"), 2)
    with pytest.raises(ValueError, match="thresholds"):
        plots.plot_hold_boundary(thresholds[:, :5], "not square")


def test_every_figure_function_is_plot_star():
    assert plots.__all__ and all(name.startswith("plot_") for name in plots.__all__)
    with pytest.raises(AttributeError):
        plots.no_such_figure  # noqa: B018
