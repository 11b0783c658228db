"""The exact referee with three players (and the n-player path at two).

Independent checks: the two-player referee's own kernels, a dense linear solve of the evaluation
equations, value iteration of the deviator's MDP to convergence, enumeration of every pure
stationary policy of the deviating seat, the equilibrium solver's own values and certificate,
and Monte Carlo through the PettingZoo AEC environment and through OpenSpiel's ``pig``.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from pigtheory import Rules, sequential
from pigtheory.jit import compiled
from pigtheory.referee import best_response, evaluate, exploitability, nash_conv, read_profile
from pigtheory.referee._multiplayer import seat_turns, seat_values, stack_tables

R3 = Rules(goal=6, die_faces=3, players=3)  # faces: 1 busts, 2 and 3 score


def _random_tables(rules: Rules, seed: int, low: float = 0.1, high: float = 0.9) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    shape = (rules.goal,) * (rules.players + 1)
    return [low + (high - low) * rng.random(shape) for _ in range(rules.players)]


def _states(rules: Rules):
    """Every decision state ``(mover, tuple from the mover, k)``."""
    n, g = rules.players, rules.goal
    for m in range(n):
        for t in itertools.product(range(g), repeat=n):
            for k in range(g - t[0]):
                yield m, t, k


def _moves(rules: Rules, m: int, t: tuple, k: int):
    """``(roll_outcomes, hold)``: after a roll, ``(prob, next state or ("win", m))`` per face;
    after a stop, the next state (a pass at k = 0)."""
    n, g = rules.players, rules.goal
    nxt = (m + 1) % n
    rolls = []
    for gain, p in rules.roll_distribution().items():
        p = float(p)
        if gain == 0:
            rolls.append((p, (nxt, t[1:] + (t[0],), 0)))
        elif t[0] + k + gain >= g:
            rolls.append((p, ("win", m)))
        else:
            rolls.append((p, (m, t, k + gain)))
    hold = (nxt, t[1:] + (t[0] + k,), 0)
    return rolls, hold


def _dense_values(tables: list[np.ndarray], rules: Rules, seat: int) -> dict:
    """Seat ``seat``'s win probability at every state by one dense linear solve."""
    states = list(_states(rules))
    index = {s: i for i, s in enumerate(states)}
    a = np.eye(len(states))
    b = np.zeros(len(states))
    for (m, t, k), row in index.items():
        r = tables[m][t + (k,)]
        rolls, hold = _moves(rules, m, t, k)
        for p, to in rolls:
            if to[0] == "win":
                b[row] += r * p * (to[1] == seat)
            else:
                a[row, index[to]] -= r * p
        a[row, index[hold]] -= 1 - r
    x = np.linalg.solve(a, b)
    return {s: x[i] for s, i in index.items()}


def _br_value_iteration(tables: list[np.ndarray], rules: Rules, seat: int, tol: float = 1e-15) -> dict:
    """The deviator's best-response value at every state by value iteration to convergence
    (sparse transitions; the deviator may pass at k = 0 as the referee's responder may)."""
    from scipy import sparse

    states = list(_states(rules))
    index = {s: i for i, s in enumerate(states)}
    size = len(states)
    rr, rc, rv = [], [], []
    win_roll = np.zeros(size)
    hold_col = np.zeros(size, dtype=int)
    q = np.zeros(size)
    mine = np.zeros(size, dtype=bool)
    for (m, t, k), row in index.items():
        rolls, hold = _moves(rules, m, t, k)
        for p, to in rolls:
            if to[0] == "win":
                win_roll[row] += p * (to[1] == seat)
            else:
                rr.append(row)
                rc.append(index[to])
                rv.append(p)
        hold_col[row] = index[hold]
        q[row] = tables[m][t + (k,)]
        mine[row] = m == seat
    roll_matrix = sparse.csr_matrix((rv, (rr, rc)), shape=(size, size))
    v = np.zeros(size)
    for _ in range(100_000):
        roll = win_roll + roll_matrix @ v
        hold = v[hold_col]
        new = np.where(mine, np.maximum(roll, hold), q * roll + (1 - q) * hold)
        if np.max(np.abs(new - v)) < tol:
            v = new
            break
        v = new
    else:  # pragma: no cover
        raise AssertionError("value iteration did not converge")
    return {s: v[i] for s, i in index.items()}


# --- the n-player path against the two-player referee ---------------------------------------


def test_two_players_through_the_multiplayer_kernel_equal_the_two_player_referee():
    rules = Rules(goal=12, die_faces=4)
    tabs = _random_tables(rules, 1, 0.0, 1.0)
    probs = stack_tables(read_profile(tabs, rules), rules)
    ev = evaluate(tabs, rules=rules)
    for s in range(2):
        U, _ = seat_values(probs, s, rules, follow=True, draw=0.0)
        v, _ = seat_turns(probs, s, rules, U, follow=True)
        np.testing.assert_allclose(v, ev.value[s], atol=1e-14)
        br = best_response(tabs, seat=s, rules=rules)
        U, _ = seat_values(probs, s, rules, follow=False, draw=0.5)
        v, choice = seat_turns(probs, s, rules, U, follow=False)
        np.testing.assert_allclose(v, br.value, atol=1e-14)
        live = ~np.isnan(v)
        assert np.array_equal(choice[live], br.policy[live])


# --- evaluation ------------------------------------------------------------------------------


def test_three_player_evaluation_matches_a_dense_linear_solve():
    rules = Rules(goal=5, die_faces=3, players=3)
    tabs = _random_tables(rules, 2)
    ev = evaluate(tabs, rules=rules)
    assert ev.value.shape == (3,) + (5,) * 4
    for s in range(3):
        dense = _dense_values(tabs, rules, s)
        for (m, t, k), x in dense.items():
            if m == s:
                assert abs(ev.value[(s,) + t + (k,)] - x) < 1e-13
        assert abs(ev.value_start[s] - dense[(0, (0, 0, 0), 0)]) < 1e-13
    assert abs(ev.wins.sum() - 1) < 1e-13 and ev.draw < 1e-13


def test_one_table_for_all_seats_equals_three_copies():
    tab = _random_tables(R3, 3)[0]
    one = evaluate(tab, rules=R3)
    three = evaluate([tab.copy(), tab.copy(), tab.copy()], rules=R3)
    np.testing.assert_allclose(one.value, three.value, atol=1e-15, equal_nan=True)


def test_the_equilibrium_evaluates_to_its_own_values():
    rules = Rules(goal=20, players=3)
    eq = sequential.equilibrium(rules=rules)
    ev = evaluate(eq, rules=rules)
    np.testing.assert_allclose(ev.value_start, eq.start_values, atol=1e-13)
    np.testing.assert_allclose(ev.value[0][(5, 9, 2)][:15], eq.turn_values((5, 9, 2))[:, 0], atol=1e-13)


def test_never_ending_play_is_a_draw_worth_a_third():
    rules = Rules(goal=5, players=3)
    passes = np.zeros((5,) * 4)  # everybody passes at turn total 0 for ever
    ev = evaluate(passes, rules=rules)
    np.testing.assert_allclose(ev.wins, 0.0)
    assert ev.draw == 1.0
    np.testing.assert_allclose(ev.value_start, 1 / 3)
    e = exploitability(passes, rules=rules)
    assert np.all(e.gains > 0.5)  # a lone roller wins for sure


# --- best response, exploitability, NashConv -------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_best_response_matches_value_iteration(seat):
    tabs = _random_tables(R3, 10 + seat, 0.0, 1.0)
    br = best_response(tabs, seat=seat, rules=R3)
    vi = _br_value_iteration(tabs, R3, seat)
    assert abs(br.value_start - vi[(0, (0, 0, 0), 0)]) < 1e-12
    for (m, t, k), x in vi.items():
        if m == seat:
            assert abs(br.value[t + (k,)] - x) < 1e-12
    # the best response, played, is worth its value
    played = list(tabs)
    played[seat] = br.policy.astype(float)
    assert abs(evaluate(played, rules=R3).value_start[seat] - br.value_start) < 1e-13


def test_best_response_equals_enumeration_of_every_pure_stationary_policy():
    rules = Rules.piglet(goal=2, players=3)
    tabs = _random_tables(rules, 5, 0.0, 1.0)
    seat = 1
    live = [s for s in itertools.product(range(2), repeat=4) if s[0] + s[3] < 2]
    assert len(live) == 12
    best = -1.0
    values = []
    for bits in itertools.product((0.0, 1.0), repeat=len(live)):
        mine = np.zeros((2,) * 4)
        for s, b in zip(live, bits, strict=True):
            mine[s] = b
        played = list(tabs)
        played[seat] = mine
        # the seat's exact value under the profile (the referee's evaluation, one seat)
        U, _ = seat_values(stack_tables(played, rules), seat, rules, follow=True, draw=1 / 3)
        values.append(U[0, seat])
    best = max(values)
    assert best - min(values) > 0.1  # the choice matters
    assert abs(best_response(tabs, seat=seat, rules=rules).value_start - best) < 1e-13


@pytest.mark.parametrize("seed", range(4))
def test_exploitability_is_never_negative(seed):
    rules = Rules(goal=9, die_faces=4, players=3)
    tabs = _random_tables(rules, 20 + seed, 0.0, 1.0)
    if seed % 2:
        tabs = [(t > 0.5).astype(float) for t in tabs]
    e = exploitability(tabs, rules=rules)
    assert np.all(e.gains >= -1e-14) and e.nash_conv > 1e-6
    assert e.exploitability == pytest.approx(e.nash_conv / 3)
    assert e.openspiel_exploitability == pytest.approx(e.nash_conv / 2)


@pytest.mark.parametrize(
    "rules",
    [Rules(goal=10, players=3), Rules.piglet(goal=8, players=4), Rules(goal=14, die_faces=3, players=3)],
)
def test_nash_conv_of_the_equilibrium_is_zero_and_of_hold_at_positive(rules):
    eq = sequential.equilibrium(rules=rules)
    if rules.goal == 14:  # the smallest three-player game found whose equilibrium mixes
        assert len(eq.policy.mixed_states) == 1
    assert abs(nash_conv(eq, rules=rules)) <= 1e-10
    e = exploitability(eq.policy, rules=rules)
    np.testing.assert_allclose(e.best_response, eq.start_values, atol=1e-12)
    hold = np.broadcast_to(np.arange(rules.goal) < 3, (rules.goal,) * (rules.players + 1)).astype(float)
    assert nash_conv(hold, rules=rules) > 1e-3


def test_validation_with_three_players():
    with pytest.raises(ValueError, match="horizon"):
        evaluate(np.full((5,) * 4, 0.5), rules=Rules(goal=5, players=3), horizon=-1)
    with pytest.raises(ValueError, match="seat"):
        best_response(np.full((5,) * 4, 0.5), seat=3, rules=Rules(goal=5, players=3))
    eq = sequential.equilibrium(rules=Rules(goal=5, players=3))
    with pytest.raises(ValueError, match="multiplayer sequential policy"):
        evaluate(eq, rules=Rules(goal=6, players=3))


# --- Monte Carlo through the environments ----------------------------------------------------


def test_monte_carlo_through_the_pettingzoo_aec_env():
    pytest.importorskip("pettingzoo")
    from pigtheory.envs import pettingzoo_sequential as seq

    rules = Rules(goal=8, die_faces=4, players=3)
    tabs = _random_tables(rules, 7, 0.2, 0.95)
    exact = evaluate(tabs, rules=rules)
    e = seq.raw_env(rules=rules, hold_at_zero=True)
    rng = np.random.default_rng(8)
    games = 3000
    wins = np.zeros((games, 3))
    e.reset(seed=9)
    for game in range(games):
        if game:
            e.reset()
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            p = int(agent.rsplit("_", 1)[1])
            wins[game, p] += reward
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.random() < tabs[p][tuple(int(x) for x in obs[:4])]))
    assert np.allclose(wins.sum(axis=1), 1)
    mean, se = wins.mean(axis=0), wins.std(axis=0, ddof=1) / np.sqrt(games)
    assert np.all(np.abs(mean - exact.wins) < 4 * se), (mean, se, exact.wins)


def test_openspiel_three_player_policy_exactly_and_by_its_own_stepping():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python import policy as osp

    from pigtheory.referee.openspiel import _parse, openspiel_game

    rules = Rules(goal=6, die_faces=3, players=3)
    game = openspiel_game(rules)

    class Cautious(osp.Policy):
        """Seat p rolls with probability 0.9 below a turn total of p + 2, 0.25 from there."""

        def action_probabilities(self, state, player_id=None):
            scores, k, p = _parse(state)
            if state.legal_actions() == [1]:
                return {1: 1.0}
            roll = 0.9 if k < p + 2 else 0.25
            return {0: roll, 1: 1.0 - roll}

    pol = Cautious(game, list(range(3)))
    rng = np.random.default_rng(4)
    ev = evaluate(pol, rules=rules)
    e = exploitability(pol, rules=rules)
    assert np.all(e.gains >= -1e-14)
    # OpenSpiel's own game, stepped with the same policy
    games = 2500
    wins = np.zeros((games, 3))
    for n in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()  # equally likely faces
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
            else:
                state.apply_action(0 if rng.random() < pol.action_probabilities(state).get(0, 0.0) else 1)
        wins[n] = np.array(state.returns()) > 0
    assert isinstance(game, pyspiel.Game)
    mean, se = wins.mean(axis=0), wins.std(axis=0, ddof=1) / np.sqrt(games)
    assert np.all(np.abs(mean - ev.wins) < 4 * se), (mean, se, ev.wins)


def test_the_referees_kernel_equals_the_certificates_kernel_on_a_pure_profile():
    """Two compiled best responses: the referee's (per-seat float tables) and the equilibrium
    certificate's (one packed pure policy) give the same values on the same profile."""
    from pigtheory.referee._multiplayer import _model
    from pigtheory.sequential.multiplayer import group_kernels as gk
    from pigtheory.sequential.multiplayer.certificates import best_response_values

    rules = Rules(goal=8, die_faces=4, players=3)
    n, g = rules.players, rules.goal
    table = np.random.default_rng(5).random((g,) * (n + 1)) < 0.6
    table[..., 0] = True  # a turn starts with a roll
    flat = table.reshape(g**n, g)
    bits = np.zeros((g**n, (g + 7) // 8), dtype=np.uint8)
    for k in range(g):
        bits[:, k >> 3] |= flat[:, k].astype(np.uint8) << (k & 7)
    order, starts = compiled(gk.level_order)(n, g)
    pvec, p_bust = _model(rules)
    U = best_response_values(
        order=order,
        starts=starts,
        W=np.zeros((g**n, n)),
        bits=bits,
        mix_states=np.zeros((0, n + 1), dtype=np.int64),
        mix_prob=np.zeros(0),
        n=n,
        g=g,
        pvec=pvec,
        p_bust=p_bust,
        allow_pass=True,
    )
    for seat in range(n):
        br = best_response(table.astype(float), seat=seat, rules=rules)
        assert abs(U[0, seat] - br.value_start) < 1e-12
