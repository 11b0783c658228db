"""The exact referee (two-player sequential Pig): evaluation, best response, exploitability, regret.

Independent checks: pigtheory's optimal solver, Neller & Presser's policy comparison, a dense
linear solve of the evaluation equations, value iteration of the best-response MDP, and brute
force over OpenSpiel's histories (Piglet with small horizons).
"""

from __future__ import annotations

import numpy as np
import pytest

from pigtheory import Rules, hold_at, sequential
from pigtheory.referee import (
    best_response,
    diagnose,
    evaluate,
    exploitability,
    nash_conv,
    regret,
    roll_probabilities,
)

PIGLET6 = Rules(goal=6, die_faces=2, face_points=(1,))  # OpenSpiel: piglet=True, diceoutcomes=2


def _random_profile(rules: Rules, seed: int, pure: bool = False) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    shape = (rules.goal,) * 3
    tabs = [rng.random(shape) for _ in range(2)]
    if pure:
        tabs = [(t < 0.6).astype(float) for t in tabs]
    return tabs


def _dense_values(r0: np.ndarray, r1: np.ndarray, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """P(seat 0 wins) at every state by one dense linear solve (small goals)."""
    g = rules.goal
    dist = {k: float(p) for k, p in rules.roll_distribution().items()}
    states = [(m, i, j, k) for m in (0, 1) for i in range(g) for j in range(g) for k in range(g - i)]
    index = {s: n for n, s in enumerate(states)}
    a = np.eye(len(states))
    b = np.zeros(len(states))
    for (m, i, j, k), row in index.items():
        r = (r0 if m == 0 else r1)[i, j, k]
        win = 1.0 if m == 0 else 0.0
        for gain, p in dist.items():
            if gain == 0:
                a[row, index[(1 - m, j, i, 0)]] -= r * p
            elif i + k + gain >= g:
                b[row] += r * p * win
            else:
                a[row, index[(m, i, j, k + gain)]] -= r * p
        if k == 0:
            a[row, index[(1 - m, j, i, 0)]] -= 1 - r
        else:
            a[row, index[(1 - m, j, i + k, 0)]] -= 1 - r
    x = np.linalg.solve(a, b)
    v0 = np.full((g, g, g), np.nan)
    v1 = np.full((g, g, g), np.nan)
    for (m, i, j, k), row in index.items():
        (v0 if m == 0 else v1)[i, j, k] = x[row]
    return v0, v1


def _br_value_iteration(opp: np.ndarray, rules: Rules, sweeps: int = 4000) -> tuple[np.ndarray, np.ndarray]:
    """The responder's win probability by plain value iteration of its MDP (small goals)."""
    g = rules.goal
    dist = {k: float(p) for k, p in rules.roll_distribution().items()}
    w = np.zeros((g, g, g))  # responder to move
    u = np.zeros((g, g, g))  # opponent to move, own score first

    def at(arr, i, j, k, win):
        return win if i + k >= g else arr[i, j, k]

    for _ in range(sweeps):
        for i in range(g):
            for j in range(g):
                for k in range(g - i):
                    roll = dist[0] * u[j, i, 0] + sum(
                        p * at(w, i, j, k + q, 1.0) for q, p in dist.items() if q
                    )
                    hold = u[j, i + k, 0] if k else u[j, i, 0]
                    w[i, j, k] = max(roll, hold)
                for k in range(g - j):
                    r = opp[j, i, k]
                    roll = dist[0] * w[i, j, 0] + sum(
                        p * at(u, j, i, k + q, 0.0) for q, p in dist.items() if q
                    )
                    hold = w[i, j + k, 0] if k else w[i, j, 0]
                    u[j, i, k] = r * roll + (1 - r) * hold
    return w, u


def test_optimal_self_play_matches_the_optimal_solver():
    rules = Rules(goal=25)
    opt = sequential.solve(rules=rules)
    ev = evaluate(opt, rules=rules)
    assert np.allclose(ev.value[0], opt.value, atol=1e-12, equal_nan=True)
    assert np.allclose(ev.value[1], opt.value, atol=1e-12, equal_nan=True)
    assert ev.value_start[0] == pytest.approx(opt.first_player_win, abs=1e-13)
    assert ev.draw == 0.0
    assert ev.value_start.sum() == pytest.approx(1.0, abs=1e-14)


def test_pure_profiles_match_the_policy_comparison():
    rules = Rules(goal=40)
    for a, b in [(hold_at(10), hold_at(20)), (hold_at(25), sequential.pace_race())]:
        c = sequential.compare(a, b, rules=rules)
        ev = evaluate([a, b], rules=rules)
        assert ev.value_start[0] == pytest.approx(c.first, abs=1e-12)
        ev2 = evaluate([b, a], rules=rules)
        assert ev2.value_start[1] == pytest.approx(c.second, abs=1e-12)


@pytest.mark.parametrize("rules", [Rules(goal=7), Rules(goal=5, die_faces=4), Rules.piglet(goal=6)])
def test_stochastic_profile_matches_a_dense_linear_solve(rules):
    r0, r1 = _random_profile(rules, 3)
    v0, v1 = _dense_values(r0, r1, rules)
    ev = evaluate([r0, r1], rules=rules)
    assert np.allclose(ev.value[0], v0, atol=1e-12, equal_nan=True)
    assert np.allclose(ev.value[1], 1 - v1, atol=1e-12, equal_nan=True)


def test_a_callable_and_its_table_give_the_same_values():
    rules = Rules(goal=12)

    def scalar(i, j, k):  # not vectorised: called state by state
        return 0.9 if k < 5 else (0.3 if i < j else 0.0)

    def vectorised(i, j, k):
        return np.where(k < 5, 0.9, np.where(i < j, 0.3, 0.0))

    a = evaluate([scalar, hold_at(4)], rules=rules)
    b = evaluate([vectorised, hold_at(4)], rules=rules)
    assert np.array_equal(roll_probabilities(scalar, rules), roll_probabilities(vectorised, rules))
    assert np.allclose(a.value, b.value, equal_nan=True)


def test_never_ending_play_is_a_draw():
    rules = Rules(goal=5)
    passer = np.zeros((5, 5, 5))  # always stops, also at k = 0: nobody ever scores
    ev = evaluate(passer, rules=rules)
    assert ev.draw == 1.0 and list(ev.value_start) == [0.5, 0.5] and list(ev.wins) == [0.0, 0.0]


@pytest.mark.parametrize("seed", [0, 1])
def test_best_response_matches_value_iteration(seed):
    rules = Rules(goal=6, die_faces=4)
    opp = _random_profile(rules, seed)[1]
    w, u = _br_value_iteration(opp, rules)
    br = best_response([hold_at(1), opp], seat=0, rules=rules)
    live = ~np.isnan(br.value)
    assert np.allclose(br.value[live], w[live], atol=1e-10)
    assert br.value_start == pytest.approx(w[0, 0, 0], abs=1e-10)
    br1 = best_response([opp, hold_at(1)], seat=1, rules=rules)
    assert br1.value_start == pytest.approx(u[0, 0, 0], abs=1e-10)  # the opponent moves first


def test_best_response_policy_achieves_its_value_and_dominates():
    rules = Rules(goal=30)
    for opp in (hold_at(15), roll_probabilities(lambda i, j, k: 0.7 * (k < 20), rules)):
        br = best_response(opp, seat=0, rules=rules)
        ev = evaluate([br.policy, opp], rules=rules)
        assert ev.value_start[0] == pytest.approx(br.value_start, abs=1e-12)
        assert np.allclose(ev.value[0], br.value, atol=1e-12, equal_nan=True)
        for mine in (hold_at(10), hold_at(20), sequential.solve(rules=rules)):
            assert evaluate([mine, opp], rules=rules).value_start[0] <= br.value_start + 1e-12


def test_optimum_is_unexploitable_and_others_are():
    rules = Rules(goal=30)
    opt = sequential.solve(rules=rules)
    e = exploitability(opt, rules=rules)
    assert abs(e.nash_conv) < 1e-12
    for pol in (hold_at(20), hold_at(5)):
        e = exploitability(pol, rules=rules)
        assert e.nash_conv > 1e-3
        assert np.all(e.gains > 0)
        assert e.openspiel_exploitability == pytest.approx(2 * e.exploitability)
        assert nash_conv(pol, rules=rules) == pytest.approx(e.nash_conv)


@pytest.mark.parametrize("seed", range(4))
def test_exploitability_is_never_negative(seed):
    rules = Rules(goal=15)
    prof = _random_profile(rules, seed, pure=seed % 2 == 0)
    for horizon in (None, 9):
        e = exploitability(prof, rules=rules, horizon=horizon)
        assert np.all(e.gains >= -1e-12), e.gains


def test_regret_of_the_optimum_is_zero_and_of_hold_at_n_published():
    rules = Rules(goal=100)
    opt = sequential.solve(rules=rules)
    assert abs(regret(opt, rules=rules, optimum=opt)) < 1e-12
    # Neller & Presser (CLAIMS N.5): optimal play's advantage over hold at 25 / hold at 20 is
    # 4.2% / 8.0%; the advantage (win minus loss) is twice the regret
    assert 2 * regret(hold_at(25), rules=rules, optimum=opt) == pytest.approx(0.042, abs=5e-4)
    assert 2 * regret(hold_at(20), rules=rules, optimum=opt) == pytest.approx(0.080, abs=5e-4)


def test_diagnostics_identity_performance_difference():
    """Occupancy-weighted advantages of a policy's actions sum to its best-response gap."""
    rules = Rules(goal=20)
    opp = hold_at(7)
    mine = roll_probabilities(lambda i, j, k: np.where(k < 9, 0.8, 0.1), rules)
    d = diagnose(mine, opponent=opp, rules=rules)
    for seat in (0, 1):
        br = best_response(opp, seat=seat, rules=rules).value_start
        prof = [mine, opp] if seat == 0 else [opp, mine]
        on = evaluate(prof, rules=rules).value_start[seat]
        assert d.loss[seat] == pytest.approx(br - on, abs=1e-12)
    assert 0.0 < d.disagreement < 1.0
    assert np.all(d.occupancy >= 0)


# --- brute force over OpenSpiel's histories: Piglet to 6, small horizons -----------------------


def _brute_force(horizon: int, roll: np.ndarray, br_seat: int | None) -> float:
    """Seat 0's expected OpenSpiel return (or ``br_seat``'s best-response return), walking every
    history of ``pig`` (winscore 6, piglet, two faces) with no memo."""
    g, pb = 6, 0.5
    me = 0 if br_seat is None else br_seat

    def dec(scores, k, p, moves):
        if moves >= horizon:
            return 0.0
        if scores[p] + k >= g:  # the forced stop wins
            return 1.0 if p == me else -1.0
        m = moves + 1
        if m >= horizon:
            r = h = 0.0
        else:
            r = pb * dec(scores, 0, 1 - p, m) + (1 - pb) * dec(scores, k + 1, p, m)
            s = list(scores)
            s[p] += k
            h = dec(tuple(s), 0, 1 - p, m)
        if p == br_seat:
            return max(r, h)
        q = roll[scores[p], scores[1 - p], k]
        return q * r + (1 - q) * h

    return dec((0, 0), 0, 0, 0)


@pytest.mark.parametrize(("horizon", "published"), [(8, 0.0135), (12, 0.0367)])
def test_uniform_exploitability_with_horizon_equals_brute_force(horizon, published):
    uniform = np.full((6, 6, 6), 0.5)
    br = [_brute_force(horizon, uniform, s) for s in (0, 1)]
    brute = (br[0] + br[1]) / 2  # OpenSpiel's exploitability: on-policy returns sum to 0
    assert brute == pytest.approx(published, abs=5e-5)
    e = exploitability(uniform, rules=PIGLET6, horizon=horizon)
    assert e.openspiel_exploitability == pytest.approx(brute, abs=1e-14)
    assert 2 * e.best_response - 1 == pytest.approx(br, abs=1e-14)
    ev = evaluate(uniform, rules=PIGLET6, horizon=horizon)
    assert ev.openspiel_returns[0] == pytest.approx(_brute_force(horizon, uniform, None), abs=1e-14)


def test_horizon_draw_probability_matches_brute_force_and_vanishes():
    rules = PIGLET6
    pol = roll_probabilities(hold_at(2), rules)
    no = evaluate(pol, rules=rules)
    prev = 1.0
    for horizon in (4, 8, 16, 64, 400):
        ev = evaluate(pol, rules=rules, horizon=horizon)
        assert 0 <= ev.draw <= prev + 1e-15
        prev = ev.draw
        assert ev.wins.sum() + ev.draw == pytest.approx(1.0, abs=1e-13)
    assert ev.draw < 1e-12
    assert np.allclose(ev.value, no.value, atol=1e-10, equal_nan=True)
    ev = evaluate(pol, rules=rules, horizon=8)
    assert ev.openspiel_returns[0] == pytest.approx(_brute_force(8, pol, None), abs=1e-14)


def test_validation():
    with pytest.raises(ValueError, match="horizon"):
        evaluate(hold_at(3), rules=Rules(goal=5), horizon=0)
    with pytest.raises(ValueError, match="seat"):
        best_response(hold_at(3), seat=2, rules=Rules(goal=5))
    with pytest.raises(ValueError, match="shape"):
        evaluate(np.zeros((4, 4, 4)), rules=Rules(goal=5))
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        evaluate(np.full((5, 5, 5), 1.5), rules=Rules(goal=5))
    with pytest.raises(ValueError, match="dice"):
        evaluate(hold_at(3), rules=Rules(goal=5, dice=2))
    with pytest.raises(ValueError, match="2 policies"):
        evaluate([hold_at(3)] * 3, rules=Rules(goal=5))
    with pytest.raises(ValueError, match="horizon"):
        evaluate(lambda i, j, k, m: 1.0, rules=Rules(goal=5, players=3), horizon=0)
    with pytest.raises(ValueError, match="two-player sequential policy"):
        evaluate(hold_at(3), rules=Rules(goal=5, players=3))


def test_monte_carlo_play_that_cannot_fit_is_refused_before_any_work():
    """One result per game: a trillion games is refused with the estimate (a fuzz case found a
    bare MemoryError here), before the best responses of the exploitability are solved."""
    from pigtheory.guard import MemoryLimitError
    from pigtheory.learning import monte_carlo_exploitability, play_matches

    for call in (
        lambda: play_matches([hold_at(3), hold_at(3)], rules=Rules(goal=6), games=10**12),
        lambda: monte_carlo_exploitability([hold_at(3), hold_at(3)], rules=Rules(goal=6), games=10**12),
        lambda: monte_carlo_exploitability(hold_at(3), rules=Rules(goal=6), games=10**12, simultaneous=True),
    ):
        with pytest.raises(MemoryLimitError, match=r"1,000,000,000,000 games.*simulate fewer games"):
            call()
    assert play_matches([hold_at(3), hold_at(3)], rules=Rules(goal=6), games=10, rng=1).shape == (10,)


def test_simultaneous_exploitability_through_the_simultaneous_solvers():
    from pigtheory import StoppingRule, simultaneous
    from pigtheory.referee import simultaneous_exploitability

    rules = Rules(goal=30)
    eq = simultaneous.equilibrium(rules=rules)
    e = simultaneous_exploitability(eq, rules=rules)
    assert abs(e.nash_conv) < 1e-9 and np.allclose(e.value, 0.5)
    for n in (5, 12):
        e = simultaneous_exploitability(hold_at(n), rules=rules)
        br = simultaneous.best_response(hold_at(n), rules=rules).value[0, 0]
        played = simultaneous.win_probabilities([hold_at(n), hold_at(n)], rules=rules)[:, 0, 0]
        assert e.exploitability == br - 0.5 and e.gains[1] == e.gains[0]
        assert e.value.tolist() == [0.5, 0.5] and played == pytest.approx(0.5, abs=1e-14)
    mixed = simultaneous_exploitability([hold_at(8), eq], rules=rules)
    assert mixed.value.sum() == pytest.approx(1.0)
    assert mixed.gains[1] == pytest.approx(
        simultaneous.best_response(hold_at(8), rules=rules).value[0, 0] - mixed.value[1], abs=1e-14
    )
    rule = StoppingRule.from_policy(hold_at(10), rules)
    thresholds = simultaneous_exploitability(rule, rules=rules)
    stopping = simultaneous_exploitability(rule, rules=rules, strategies="stopping")
    assert np.all(stopping.gains >= thresholds.gains - 1e-14)
