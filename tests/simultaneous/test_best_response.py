"""Best response to independent opponents (Algorithm 0.1 of Zhu et al. 2023)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from pigtheory import MixedPolicy, Rules, ThresholdTable, hold_at, turn_total
from pigtheory.simultaneous import best_response, hold_at_sweep, win_probability
from pigtheory.simultaneous.best_response import best_response_levels
from pigtheory.simultaneous.core import read_opponents


def random_table(goal: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    room = goal - np.arange(goal)[:, None]
    return np.minimum(rng.integers(1, goal + 1, (goal, goal)), room)


@pytest.mark.parametrize("goal", [10, 30, 100])
def test_exact_agrees_with_value_iteration_hold_at(goal):
    rules = Rules(goal=goal)
    exact = best_response(hold_at(min(25, goal)), rules=rules)
    vi = best_response(hold_at(min(25, goal)), rules=rules, method="value_iteration", tol=1e-13)
    assert np.abs(exact.value - vi.value).max() < 1e-10
    assert vi.method == "value_iteration" and vi.residual < 1e-13 and vi.iterations > 1
    assert exact.method == "exact" and exact.residual == 0.0


@pytest.mark.parametrize("goal", [10, 30])
def test_exact_agrees_with_value_iteration_table(goal):
    """An opponent whose threshold depends on A's score (the gathered, not strided, path)."""
    rules = Rules(goal=goal)
    table = random_table(goal, goal)
    exact = best_response(table, rules=rules)
    vi = best_response(table, rules=rules, method="value_iteration", tol=1e-13)
    assert np.abs(exact.value - vi.value).max() < 1e-10


@pytest.mark.parametrize(
    "rules, opponent",
    [
        (Rules(goal=10), hold_at(3)),
        (Rules(goal=30), hold_at(8)),
        (Rules(goal=30), "table"),
        (Rules.piglet(goal=12), hold_at(3)),
        (Rules.piglet(goal=12), "table"),
        (Rules(goal=20, die_faces=8), hold_at(9)),
        (Rules(goal=20, die_faces=4, face_points=(3, 4, 5)), hold_at(4)),
        (Rules(goal=20, die_faces=4, face_points=(3, 4, 5)), "table"),
    ],
)
def test_two_player_path_agrees_with_generic_levels(rules, opponent):
    """The batched two-player solver against the generic level-by-level backward induction."""
    if opponent == "table":
        opponent = random_table(rules.goal, 7)
    fast = best_response(opponent, rules=rules)
    value, policy, _ = best_response_levels(read_opponents(opponent, rules), rules)
    assert np.abs(fast.value - value).max() < 1e-13
    assert np.array_equal(fast.policy, policy)


def test_value_is_the_win_probability_of_the_policy():
    rules = Rules(goal=40)
    for opp in (hold_at(10), random_table(40, 3)):
        br = best_response(opp, rules=rules)
        assert np.abs(win_probability(br.policy, opp, rules=rules) - br.value).max() < 1e-12


@pytest.mark.parametrize("goal", [20, 50])
def test_best_response_dominates_other_policies(goal):
    rules = Rules(goal=goal)
    for opp in (hold_at(8), random_table(goal, 11)):
        br = best_response(opp, rules=rules)
        others = [hold_at(n) for n in (1, 4, 8, 15, goal)] + [random_table(goal, s) for s in range(4)]
        for policy in others:
            assert np.all(br.value >= win_probability(policy, opp, rules=rules) - 1e-12)


def _by_hand(goal: int, components: list[tuple[int, Fraction]]) -> list[list[Fraction]]:
    """Exact best-response values against B mixing "hold at n" with fixed weights, in fractions.

    Plain backward induction over i + j with the per-state mixture of B's turn built here:
    P(Y = y) = sum_l w_l P(X_{min(n_l, goal - j)} = y), each turn clipped at the goal.
    """

    def dist(k: int, room: int) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}
        for gain, p in turn_total(k, exact=True).pmf.items():
            out[min(gain, room)] = out.get(min(gain, room), Fraction(0)) + p
        return out

    g = goal
    V = [[Fraction(0)] * (g + 1) for _ in range(g + 1)]
    for j in range(g):
        V[g][j] = Fraction(1)
    V[g][g] = Fraction(1, 2)
    for d in range(2 * g - 2, -1, -1):
        for i in range(max(0, d - g + 1), min(d, g - 1) + 1):
            j = d - i
            ydist: dict[int, Fraction] = {}
            for n, w in components:
                for y, p in dist(min(n, g - j), g - j).items():
                    ydist[y] = ydist.get(y, Fraction(0)) + w * p
            best = None
            for k in range(1, g - i + 1):
                xdist = dist(k, g - i)
                a = sum(
                    (
                        px * py * V[i + x][j + y]
                        for x, px in xdist.items()
                        for y, py in ydist.items()
                        if (x, y) != (0, 0)
                    ),
                    start=Fraction(0),
                )
                v = a / (1 - xdist[0] * ydist[0])
                best = v if best is None or v > best else best
            V[i][j] = best
    return V


def test_mixed_opponent_by_hand():
    goal = 6
    rules = Rules(goal=goal)
    comps = [(2, Fraction(1, 3)), (5, Fraction(2, 3))]
    mixed = MixedPolicy.of([(hold_at(n), float(w)) for n, w in comps], rules)
    br = best_response(mixed, rules=rules)
    exact = _by_hand(goal, comps)
    assert np.abs(br.value - np.array(exact, dtype=float)).max() < 1e-14
    assert np.abs(win_probability(br.policy, mixed, rules=rules) - br.value).max() < 1e-13
    vi = best_response(mixed, rules=rules, method="value_iteration", tol=1e-14)
    assert np.abs(vi.value - br.value).max() < 1e-12


def test_mixture_weights_may_depend_on_a():
    """Eq. (12) per state: a mixture whose weights change with A's score."""
    goal = 12
    rules = Rules(goal=goal)
    w = np.where(np.arange(goal)[None, :] < 6, 0.25, 0.75) * np.ones((goal, goal))
    mixed = MixedPolicy.of([(hold_at(3), w), (hold_at(9), 1 - w)], rules)
    br = best_response(mixed, rules=rules)
    vi = best_response(mixed, rules=rules, method="value_iteration", tol=1e-14)
    assert np.abs(vi.value - br.value).max() < 1e-12
    for policy in (hold_at(3), hold_at(6), random_table(goal, 1)):
        assert np.all(br.value >= win_probability(policy, mixed, rules=rules) - 1e-12)


def test_paper_value_against_hold_at_25():
    """Z23.3: the best response to "hold at 25" wins with probability 0.5231 (Fig. 2, Table S1)."""
    br = best_response(hold_at(25))
    assert abs(br.value[0, 0] - 0.5231) < 5e-5
    assert br.value.shape == (101, 101) and br.policy.shape == (100, 100)
    assert not br.value.flags.writeable and not br.policy.flags.writeable
    room = 100 - np.arange(100)[:, None]
    assert np.all((br.policy >= 1) & (br.policy <= room))


def test_terminal_values():
    br = best_response(hold_at(4), rules=Rules(goal=10))
    assert np.all(br.value[10, :10] == 1.0) and br.value[10, 10] == 0.5
    assert np.all(br.value[:10, 10] == 0.0)


def test_ties_go_to_the_smallest_threshold():
    # With B one roll from the goal-ish and A unable to matter, many k tie; the smallest is chosen.
    br = best_response(hold_at(1), rules=Rules(goal=2))
    assert br.policy.tolist() == [[1, 1], [1, 1]]


@pytest.mark.parametrize(
    "opponent",
    [
        np.ones((5, 5), dtype=int),  # wrong shape for goal 10
        np.zeros((10, 10), dtype=int),  # threshold 0
        np.full((10, 10), 10),  # above goal - own
        ThresholdTable(np.full(10, 11)),
        MixedPolicy(np.full((10, 10, 2), 2), np.full((10, 10, 2), 0.4)),  # weights sum to 0.8
        MixedPolicy(np.full((10, 10, 2), 2), np.stack([np.full((10, 10), 1.5), np.full((10, 10), -0.5)], -1)),
        "hold at 3",
        [hold_at(3), hold_at(4)],  # two opponents for two players
    ],
)
def test_bad_opponents_raise(opponent):
    with pytest.raises(ValueError):
        best_response(opponent, rules=Rules(goal=10))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"method": "policy_iteration"},
        {"method": "value_iteration", "tol": 0},
        {"method": "value_iteration", "max_iter": 0},
    ],
)
def test_bad_arguments_raise(kwargs):
    with pytest.raises(ValueError):
        best_response(hold_at(3), rules=Rules(goal=10), **kwargs)


def test_value_iteration_covers_three_players_algorithm_0_3():
    rules = Rules(goal=8, players=3)
    vi = best_response([hold_at(3), hold_at(3)], rules=rules, method="value_iteration")
    exact = best_response([hold_at(3), hold_at(3)], rules=rules)
    assert np.abs(vi.value - exact.value).max() < 1e-10


def test_value_iteration_warns_at_max_iter():
    with pytest.warns(RuntimeWarning, match="max_iter"):
        sol = best_response(hold_at(3), rules=Rules(goal=10), method="value_iteration", max_iter=2)
    assert sol.iterations == 2 and sol.residual > 1e-12


def test_hold_at_sweep_small():
    rules = Rules(goal=30)
    sw = hold_at_sweep(range(3, 13), rules=rules)
    assert sw.ns.tolist() == list(range(3, 13)) and sw.rules == rules
    direct = [best_response(hold_at(n), rules=rules) for n in range(3, 13)]
    assert np.array_equal(sw.value, [d.value[0, 0] for d in direct])
    assert np.array_equal(sw.policy, [d.policy[0, 0] for d in direct])
    assert sw.thresholds[:, 0].tolist() == list(range(3, 13)) and (sw.goal == 30).all()
    assert sw.best_n == int(sw.ns[np.argmin(sw.value)])
    v = sw.value
    minima = [int(sw.ns[t]) for t in range(1, len(v) - 1) if v[t] < v[t - 1] and v[t] < v[t + 1]]
    assert list(sw.local_minima) == minima
    assert sw.at(5) == v[2] and sw.row(thresholds=(5,)) == 2
    with pytest.raises(ValueError, match="no task"):
        sw.at(40)
    with pytest.raises(ValueError, match="best_pair"):
        sw.best_pair  # noqa: B018 (a grid's, not a sweep's)


@pytest.mark.parametrize("ns", [[], [0, 1], [3, 3], ["a"]])
def test_hold_at_sweep_bad_ns(ns):
    with pytest.raises(ValueError):
        hold_at_sweep(ns, rules=Rules(goal=10))


@pytest.mark.parametrize("rules", [Rules(goal=10), Rules(goal=40), Rules.piglet(goal=12)])
def test_numba_engine_agrees_with_numpy(rules):
    """The optional compiled kernels (numba) against the batched numpy path."""
    from pigtheory.policies import as_mixture
    from pigtheory.simultaneous.core import best_response_two, numba_installed

    if not numba_installed():
        pytest.skip("numba is not installed")

    g = rules.goal
    mixed = MixedPolicy.of([(hold_at(2), 0.25), (hold_at(5), 0.75)], rules)
    for opp in (hold_at(4), random_table(g, 5), mixed):
        mix = as_mixture(opp, rules)
        v1, p1 = best_response_two(mix, rules, 1e-13, "numpy")
        v2, p2 = best_response_two(mix, rules, 1e-13, "numba")
        assert np.abs(v1 - v2).max() < 1e-14
        assert np.array_equal(p1, p2)


def test_unknown_engine():
    from pigtheory.policies import as_mixture
    from pigtheory.simultaneous.core import best_response_two

    with pytest.raises(ValueError, match="engine"):
        best_response_two(as_mixture(hold_at(3), Rules(goal=6)), Rules(goal=6), 1e-13, "fortran")


def test_action_values_and_greedy_helpers():
    """The shared building blocks, against a direct sum over X_k's outcomes."""
    from pigtheory.simultaneous.core import TIE_TOL, Thresholds, greedy

    rules = Rules(goal=12)
    g = rules.goal
    rng = np.random.default_rng(4)
    own = np.array([0, 3, 7, 11])
    u = rng.random((own.size, g + 1))
    # the contract of the core's continuation: every gain from the room on reaches the goal
    for s, i in enumerate(own):
        u[s, g - i :] = u[s, g - i]
    opp_bust = rng.random(own.size) * 0.8
    # and busting is worth at most reaching the goal (what makes thresholds past the room
    # worse than the room itself, so that best() needs no mask)
    u[:, 0] = np.minimum(u[:, 0], u[np.arange(own.size), g - own] * (1 - opp_bust))
    vals = Thresholds(rules).action_values(u, own, opp_bust)
    best_v, best_k = Thresholds(rules).best(u, own, opp_bust)
    for s, i in enumerate(own):
        for k in range(1, g + 1):
            if k > g - i:
                assert vals[s, k - 1] == -np.inf
                continue
            pmf = turn_total(k).pmf
            a = sum(p * u[s, min(x, g - i)] for x, p in pmf.items())
            assert vals[s, k - 1] == pytest.approx(a / (1 - pmf[0] * opp_bust[s]), abs=1e-14)
        assert best_v[s] == vals[s].max() and best_k[s] == np.argmax(vals[s] >= vals[s].max() - 1e-13) + 1
    best, k = greedy(np.array([[0.1, 0.5, 0.5 - TIE_TOL / 2, 0.5], [-np.inf, 0.3, 0.2, -np.inf]]))
    assert best.tolist() == [0.5, 0.3] and k.tolist() == [2, 2]


def test_remembered_opponent_records_give_the_numpy_engines_bits():
    """The compiled two-player engine builds a small opponent's record once (by its arrays'
    values and the rules): alternating opponents, a mix by own score and another rules give
    the numpy engine's bits every time, and a new policy with the same values the same bits."""
    rules = Rules(goal=30)
    own = np.arange(30)[:, None]
    mix = MixedPolicy(
        np.broadcast_to(np.stack([np.minimum(8, 30 - own), np.minimum(12, 30 - own)], axis=-1), (30, 1, 2)),
        np.broadcast_to(np.array([0.25, 0.75]), (30, 1, 2)),
    )
    for opp, r in [
        (hold_at(8), rules),
        (hold_at(12), rules),
        (mix, rules),
        (hold_at(8), rules),
        (hold_at(8), Rules(goal=30, die_faces=5)),
        (mix, rules),
    ]:
        fast = best_response(opp, rules=r, engine="numba")
        ref = best_response(opp, rules=r, engine="numpy")
        assert np.array_equal(fast.value, ref.value)
        assert np.array_equal(fast.policy, ref.policy)
