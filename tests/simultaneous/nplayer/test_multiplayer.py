"""n-player best response: the fast separable/symmetric solver against the generic one."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pigtheory import MixedPolicy, Rules, ThresholdTable, hold_at
from pigtheory.simultaneous import best_response, reduced_best_response, win_probabilities, win_probability
from pigtheory.simultaneous.best_response import best_response_levels
from pigtheory.simultaneous.core import read_opponents


def generic(opponents, rules):
    value, policy, _ = best_response_levels(read_opponents(opponents, rules), rules)
    return value, policy


def own_score_table(goal, seed):
    rng = np.random.default_rng(seed)
    return ThresholdTable(np.minimum(rng.integers(1, 8, goal), goal - np.arange(goal)))


def own_score_mixture(goal, players, seed):
    """A mixed policy that reads its own score only: two thresholds, weights by own score."""
    rng = np.random.default_rng(seed)
    room = goal - np.arange(goal)
    th = np.stack(
        [np.minimum(rng.integers(1, 6, goal), room), np.minimum(rng.integers(2, 9, goal), room)], axis=-1
    )
    w = rng.random(goal)
    shape = (goal,) + (1,) * (players - 1) + (2,)
    return MixedPolicy(th.reshape(shape), np.stack([w, 1 - w], axis=-1).reshape(shape))


@pytest.mark.parametrize("engine", ["numba", "numpy"])
def test_two_players_through_the_n_player_path_equal_the_two_player_solver(engine):
    rules = Rules(goal=20)
    for opp in (hold_at(5), own_score_table(20, 1)):
        two = best_response(opp, rules=rules)
        fast = reduced_best_response([opp], rules=rules, engine=engine).expand()
        np.testing.assert_array_equal(fast.policy, two.policy)
        np.testing.assert_allclose(fast.value, two.value, rtol=0, atol=1e-14)


@pytest.mark.parametrize("engine", ["numba", "numpy"])
@pytest.mark.parametrize(
    "players, goal, opponents",
    [
        (3, 12, [hold_at(4), hold_at(4)]),
        (3, 12, [hold_at(3), hold_at(6)]),
        (3, 10, [own_score_table(10, 2), hold_at(2)]),
        (4, 7, [hold_at(3)] * 3),
        (4, 7, [hold_at(2), hold_at(3), hold_at(5)]),
        (4, 6, [own_score_mixture(6, 4, 3), hold_at(2), own_score_table(6, 4)]),
    ],
)
def test_fast_path_equals_generic_solver(players, goal, opponents, engine):
    rules = Rules(goal=goal, players=players)
    value, policy = generic(opponents, rules)
    for symmetric in (None, False):
        sol = reduced_best_response(opponents, rules=rules, symmetric=symmetric, engine=engine).expand()
        np.testing.assert_array_equal(sol.policy, policy)
        np.testing.assert_allclose(sol.value, value, rtol=0, atol=1e-14)


@pytest.mark.parametrize("engine", ["numba", "numpy"])
@pytest.mark.parametrize("players, goal", [(3, 14), (4, 8)])
def test_symmetric_and_full_solves_agree(players, goal, engine):
    rules = Rules(goal=goal, players=players)
    opps = [hold_at(4)] * (players - 1)
    sym = reduced_best_response(opps, rules=rules, engine=engine)
    full = reduced_best_response(opps, rules=rules, symmetric=False, engine=engine)
    assert sym.symmetric and not full.symmetric
    assert sym.states.shape[0] < full.states.shape[0]
    np.testing.assert_allclose(sym.expand().value, full.expand().value, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(sym.expand().policy, full.expand().policy)


def test_value_is_symmetric_in_identical_opponents():
    v = reduced_best_response([hold_at(4)] * 2, rules=Rules(goal=12, players=3)).expand().value
    np.testing.assert_array_equal(v, v.transpose(0, 2, 1))


def test_blocks_do_not_change_the_answer():
    rules = Rules(goal=15, players=3)
    opps = [hold_at(3), hold_at(5)]
    ref = reduced_best_response(opps, rules=rules, block=15, engine="numpy")
    for block in (1, 4, 7):
        sol = reduced_best_response(opps, rules=rules, block=block, engine="numpy")
        assert sol.iterations == ref.iterations
        np.testing.assert_allclose(sol.value, ref.value, rtol=0, atol=1e-15)  # sums run in another order
        np.testing.assert_array_equal(sol.policy, ref.policy)


def test_win_shares_sum_to_one_and_best_response_value_is_attained():
    rules = Rules(goal=10, players=3)
    opps = [hold_at(3), hold_at(5)]
    br = best_response(opps, rules=rules)
    shares = win_probabilities([br.policy, *opps], rules=rules)
    total = shares.sum(axis=0)
    np.testing.assert_allclose(total[:10, :10, :10], 1.0, atol=1e-13)
    np.testing.assert_allclose(shares[0][:10, :10, :10], br.value[:10, :10, :10], atol=1e-13)


def test_best_response_beats_every_hold_at():
    rules = Rules(goal=15, players=3)
    opps = [hold_at(4), hold_at(6)]
    br = best_response(opps, rules=rules)
    for k in range(1, 16):
        assert br.value[0, 0, 0] >= win_probability(hold_at(k), opps, rules=rules)[0, 0, 0] - 1e-14


def test_opponents_that_look_at_other_scores_use_the_generic_path():
    rules = Rules(goal=6, players=3)
    idx = np.indices((6, 6, 6))
    table = ThresholdTable(np.where(idx[1] > 2, 6 - idx[0], np.minimum(2, 6 - idx[0])))
    opps = [table, hold_at(2)]
    sol = best_response(opps, rules=rules)
    value, policy = generic(opps, rules)
    np.testing.assert_array_equal(sol.value, value)
    with pytest.raises(ValueError, match="own score only"):
        reduced_best_response(opps, rules=rules)


def test_at_and_column():
    sol = reduced_best_response([hold_at(3)] * 2, rules=Rules(goal=8, players=3))
    full = sol.expand().value
    assert sol.at(2, 5, 1) == full[2, 5, 1] == full[2, 1, 5]
    with pytest.raises(ValueError, match="opponents_scores"):
        sol.column([1, 2, 3])
    with pytest.raises(ValueError, match="opponents_scores"):
        sol.column([1, 9])


def test_bad_input():
    with pytest.raises(ValueError, match="opponents"):
        best_response([hold_at(3)], rules=Rules(goal=8, players=3))
    with pytest.raises(ValueError, match="opponents"):
        reduced_best_response([hold_at(3)] * 3, rules=Rules(goal=8, players=3))
    with pytest.raises(ValueError, match="players"):
        Rules(goal=8, players=1)
    with pytest.raises(ValueError, match="symmetric"):
        reduced_best_response([hold_at(3), hold_at(4)], rules=Rules(goal=8, players=3), symmetric=True)
    with pytest.raises(ValueError, match="block"):
        reduced_best_response([hold_at(3)] * 2, rules=Rules(goal=8, players=3), block=0)
    with pytest.raises(ValueError, match="block"):
        reduced_best_response([hold_at(3)] * 2, rules=Rules(goal=8, players=3), block=0, engine="numba")
    with pytest.raises(ValueError, match=r"block must be .*1\.\.8"):  # was an allocation of block rows
        reduced_best_response([hold_at(3)] * 2, rules=Rules(goal=8, players=3), block=9, engine="numpy")
    with pytest.raises(ValueError, match="engine"):
        reduced_best_response([hold_at(3)] * 2, rules=Rules(goal=8, players=3), engine="fortran")
    with pytest.raises(ValueError, match="symmetric"):
        reduced_best_response([hold_at(3)] * 2, rules=Rules(goal=8, players=3), symmetric="yes")
    with pytest.raises(ValueError, match="progress"):
        reduced_best_response([hold_at(3)] * 2, rules=Rules(goal=8, players=3), progress="no")


def test_grid_matches_direct_solves_and_is_symmetric():
    from pigtheory.simultaneous.sweeps.grid import hold_at_grid

    rules = Rules(goal=9, players=3)
    grid = hold_at_grid([2, 3, 5], rules=rules, workers=1)
    for a, n1 in enumerate(grid.ns):
        for b, n2 in enumerate(grid.ns):
            direct = best_response([hold_at(int(n1)), hold_at(int(n2))], rules=rules)
            assert grid.value[a, b] == pytest.approx(direct.value[0, 0, 0], abs=1e-14)
            assert grid.policy[a, b] == direct.policy[0, 0, 0]
    i, j = list(grid.ns).index(grid.best_pair[0]), list(grid.ns).index(grid.best_pair[1])
    assert grid.value[i, j] == grid.value.min()
    pooled = hold_at_grid([2, 3, 5], rules=rules, workers=2, progress=False)
    np.testing.assert_array_equal(pooled.value, grid.value)


def test_grid_bad_input():
    from pigtheory.simultaneous.sweeps.grid import hold_at_grid

    with pytest.raises(ValueError, match="players"):
        hold_at_grid([2, 3], rules=Rules(goal=9, players=4), workers=1)
    with pytest.raises(ValueError, match="ns"):
        hold_at_grid([0, 3], rules=Rules(goal=9, players=3), workers=1)
    with pytest.raises(ValueError, match="workers"):
        hold_at_grid([2, 3], rules=Rules(goal=9, players=3), workers=0)


@pytest.mark.parametrize("engine", ["numba", "numpy"])
@pytest.mark.parametrize("n1, n2, paper", [(25, 25, 0.3590), (20, 30, 0.3955)])
def test_published_three_player_values(n1, n2, paper, engine):
    # Zhu, Ma, Chen & Liu, Sci. Rep. 13 (2023), "Three players with independent strategies":
    # 35.90% (both hold at 25) and 39.55% (hold at 20 and 30), printed to 2 decimals.
    sol = reduced_best_response([hold_at(n1), hold_at(n2)], rules=Rules(players=3), engine=engine)
    assert sol.at(0, 0, 0) == pytest.approx(paper, abs=5e-5)


@st.composite
def small_games(draw):
    """Random one-die rules (a d2..d8 with any bust face, or Piglet), 3 or 4 players, and
    opponents reading their own score only: hold at n, own-score tables, a mixture."""
    players = draw(st.sampled_from([3, 4]))
    goal = draw(st.integers(3, 15 if players == 3 else 10))
    if draw(st.booleans()):
        rules = Rules.piglet(goal=goal, players=players)
    else:
        faces = draw(st.integers(2, 8))
        rules = Rules(goal=goal, die_faces=faces, bust_face=draw(st.integers(1, faces)), players=players)
    seed = draw(st.integers(0, 2**16))
    kinds = st.sampled_from(["hold", "table", "mixture"])
    if draw(st.booleans()):  # identical opponents: the symmetric (multiset) states
        kind, n = draw(kinds), draw(st.integers(1, goal))
        opps = [_opponent(kind, n, rules, seed)] * (players - 1)
    else:
        opps = [
            _opponent(draw(kinds), draw(st.integers(1, goal)), rules, seed + p) for p in range(players - 1)
        ]
    return rules, opps


def _opponent(kind, n, rules, seed):
    if kind == "hold":
        return hold_at(n)
    if kind == "table":
        return own_score_table(rules.goal, seed)
    return own_score_mixture(rules.goal, rules.players, seed)


@settings(max_examples=40, deadline=None)
@given(game=small_games(), symmetric=st.sampled_from([None, False]))
def test_property_compiled_and_numpy_engines_agree(game, symmetric):
    rules, opps = game
    fast = reduced_best_response(opps, rules=rules, symmetric=symmetric, engine="numba")
    ref = reduced_best_response(opps, rules=rules, symmetric=symmetric, engine="numpy")
    assert fast.symmetric == ref.symmetric and fast.method == ref.method
    assert fast.iterations == ref.iterations == rules.players * (rules.goal - 1) + 1
    assert fast.n_states == ref.n_states
    np.testing.assert_array_equal(fast.states, ref.states)
    np.testing.assert_array_equal(fast.policy, ref.policy)
    np.testing.assert_allclose(fast.value, ref.value, rtol=0, atol=1e-12)
    assert np.all((fast.value >= 0) & (fast.value <= 1 + 1e-12))
    if rules.players == 3 or rules.goal <= 6:  # the generic solver is slow at 4 players
        value, policy = generic(opps, rules)
        full = fast.expand()
        np.testing.assert_array_equal(full.policy, policy)
        np.testing.assert_allclose(full.value, value, rtol=0, atol=1e-12)


def test_compiled_engine_at_a_larger_goal_agrees_with_numpy():
    # Four players at goal 30: every slab of the compiled engine is used many times over.
    rules = Rules(goal=30, players=4)
    for opps in ([hold_at(8)] * 3, [hold_at(5), hold_at(8), own_score_table(30, 7)]):
        fast = reduced_best_response(opps, rules=rules, engine="numba")
        ref = reduced_best_response(opps, rules=rules, engine="numpy")
        np.testing.assert_array_equal(fast.policy, ref.policy)
        np.testing.assert_allclose(fast.value, ref.value, rtol=0, atol=1e-12)


def test_reduced_solution_shapes_and_terminal_columns():
    rules = Rules(goal=9, players=4)
    sol = reduced_best_response([hold_at(3)] * 3, rules=rules, engine="numba")
    size = sol.states.shape[0]
    assert sol.states.shape == (size, 3) and size == 220  # multisets of 3 scores in 0..9
    assert sol.value.shape == (10, size) and sol.policy.shape == (9, size)
    assert not sol.value.flags.writeable
    at_goal = (sol.states == 9).sum(axis=1)
    np.testing.assert_array_equal(sol.policy[:, at_goal > 0], 0)
    np.testing.assert_array_equal(sol.value[:9, at_goal > 0], 0.0)
    np.testing.assert_array_equal(sol.value[9], 1.0 / (1 + at_goal))
    assert np.all(sol.policy[:, at_goal == 0] >= 1)
    assert np.all(sol.policy[:, at_goal == 0] <= 9 - np.arange(9)[:, None])
    assert sol.n_states == 9 * np.count_nonzero(at_goal == 0)


@pytest.mark.parametrize("players, goal", [(3, 12), (4, 7)])
def test_algorithm_0_3_value_iteration_agrees_with_exact(players, goal):
    rules = Rules(goal=goal, players=players)
    own = np.arange(goal).reshape((goal,) + (1,) * (players - 1))
    rng = np.random.default_rng(players)
    # One opponent that watches every score (generic path), the others hold at n.
    watcher = np.minimum(rng.integers(1, 6, size=(goal,) * players), goal - own)
    opponents = [watcher] + [hold_at(3 + p) for p in range(players - 2)]
    exact = best_response(opponents, rules=rules)
    vi = best_response(opponents, rules=rules, method="value_iteration", tol=1e-14)
    assert vi.method == "value_iteration" and vi.residual < 1e-14
    np.testing.assert_allclose(vi.value, exact.value, atol=1e-12, rtol=0)
    assert np.array_equal(vi.policy, exact.policy)
