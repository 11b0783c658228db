"""The game model's Bellman step (SequentialGame.bellman) against the compiled exact engine:
the engine's values are its fixed points, evaluation and best response, for two dice models."""

from __future__ import annotations

import numpy as np
import pytest

from pigtheory import Rules, hold_at
from pigtheory.games import SequentialGame
from pigtheory.sequential import pair_kernels


def _engine(rules: Rules, r0: np.ndarray, r1: np.ndarray, respond: bool) -> tuple[np.ndarray, np.ndarray]:
    """Seat 0's win probability with seat 0 / seat 1 to move (mover's score first), and the choices."""
    g = rules.goal
    die = pair_kernels.die(rules)
    x = np.empty((2, g, g, g))
    choice = np.zeros((g, g, g), dtype=bool)
    out = np.zeros(2)
    pair_kernels.pair()(g, die, r0, r1, 1.0, 0.0, respond, 100, x[0], x[1], choice, out)
    assert respond or out[0] == 0  # evaluation: the game ends from every state, no draws
    return x, choice


def _random_tables(rules: Rules, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    g = rules.goal
    return [np.ascontiguousarray(rng.uniform(0.05, 0.95, (g, g, g))) for _ in range(2)]


@pytest.mark.parametrize("rules", [Rules(goal=12), Rules(goal=9, die_faces=3), Rules.piglet(goal=6)], ids=str)
def test_the_engines_values_are_fixed_points_of_the_bellman_step(rules):
    game = SequentialGame(rules)
    g = rules.goal
    live = np.broadcast_to(np.arange(g)[:, None, None] + np.arange(g)[None, None, :] < g, (g, g, g))
    r0, r1 = _random_tables(rules, 3)
    x, _ = _engine(rules, r0, r1, respond=False)
    step = game.bellman(x, [r0, r1])
    assert np.abs(step[:, live] - x[:, live]).max() <= 1e-14
    # a value that is not the profile's is moved by the step (the check can fail)
    assert np.abs(game.bellman(x * 0.9, [r0, r1])[:, live] - 0.9 * x[:, live]).max() > 1e-3
    # best response of seat 0 against r1: a fixed point of the maximising step, the same choices
    y, choice = _engine(rules, r1, r1, respond=True)
    best = game.bellman(y, [r1, r1], respond=0)
    assert np.abs(best[:, live] - y[:, live]).max() <= 1e-13
    assert (best[0][live] >= game.bellman(y, [r0, r1])[0][live] - 1e-13).all()  # >= any response


def test_the_bellman_step_reads_any_policy_and_checks_its_input():
    rules = Rules(goal=8)
    game = SequentialGame(rules)
    x, _ = _engine(rules, *(np.ascontiguousarray(game.policy_table(hold_at(3))),) * 2, respond=False)
    g = rules.goal
    live = np.arange(g)[:, None, None] + np.arange(g)[None, None, :] < g
    assert (
        np.abs(
            game.bellman(x, hold_at(3))[:, np.broadcast_to(live, (g, g, g))]
            - x[:, np.broadcast_to(live, (g, g, g))]
        ).max()
        <= 1e-14
    )
    with pytest.raises(ValueError, match="values must have shape"):
        game.bellman(x[:, :-1], hold_at(3))
    with pytest.raises(ValueError, match="respond"):
        game.bellman(x, hold_at(3), respond=2)
    with pytest.raises(ValueError, match="two players"):
        SequentialGame(Rules(goal=8, players=3)).bellman(x, hold_at(3))
