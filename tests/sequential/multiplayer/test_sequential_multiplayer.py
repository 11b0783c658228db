"""Multiplayer sequential Pig: sequential.equilibrium against the two-player solver, exact brute
force, the face-by-face simulator, and its own certificates."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from pigtheory import Rules, sequential
from pigtheory.jit import compiled
from pigtheory.sequential.multiplayer.equilibrium import MultiplayerEquilibrium
from pigtheory.sequential.multiplayer.play import play_multiplayer


@pytest.fixture(scope="module")
def three_piglet4():
    return sequential.equilibrium(rules=Rules.piglet(goal=4, players=3))


# --- two players: the same game as sequential.solve ------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [Rules(goal=30), Rules.piglet(goal=8), Rules(goal=20, die_faces=4, bust_face=2)],
    ids=str,
)
def test_two_players_equal_the_two_player_solver(rules):
    eq = sequential.equilibrium(rules=rules)
    sol = sequential.solve(rules=rules)
    g = rules.goal
    np.testing.assert_allclose(eq.value[..., 0], sol.value[:, :, 0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(eq.value[..., 1], 1 - sol.value[:, :, 0], rtol=0, atol=1e-12)
    assert np.array_equal(eq.policy.roll_table(), sol.policy)
    assert eq.mixed_groups.shape == (0, 2) and eq.several_groups.shape == (0, 2)
    for t in [(0, 0), (g // 2, g // 3), (g - 1, 0)]:
        tv = eq.turn_values(t)
        np.testing.assert_allclose(tv[:, 0], sol.value[t[0], t[1], : g - t[0]], rtol=0, atol=1e-12)


@pytest.mark.slow
def test_two_players_goal_100_is_neller_presser():
    eq = sequential.equilibrium(rules=Rules())
    sol = sequential.solve(rules=Rules())
    assert round(float(eq.start_values[0]), 4) == 0.5306
    np.testing.assert_allclose(eq.value[..., 0], sol.value[:, :, 0], rtol=0, atol=1e-12)
    assert np.array_equal(eq.policy.roll_table(), sol.policy)
    assert eq.nash_conv <= 1e-10


# --- exact brute force on tiny games ---------------------------------------------------------


def _exact_game(rules):
    """Every group's pure stationary equilibria, in exact rationals, group by group from the top,
    continuing with the solver's choice. Returns {canonical tuple: [(rolls per rotation, W)]}
    and the exact start values of the continuation."""
    n, g = rules.players, rules.goal
    dist = rules.roll_distribution()
    p_bust = dist[0]
    gains = [(k, p) for k, p in dist.items() if k > 0]
    W: dict[tuple, tuple] = {}
    out = {}
    tuples = sorted(itertools.product(range(g), repeat=n), key=lambda t: (-sum(t), t))
    done = set()
    for t in tuples:
        if t in done:
            continue
        rots = []
        for r in range(n):
            rt = t[r:] + t[:r]
            if rt in rots:
                break
            rots.append(rt)
        done.update(rots)
        d = len(rots)

        def turn(rt, roll, y):
            K = g - rt[0]
            A = {k: tuple(Fraction(int(o == 0)) for o in range(n)) for k in range(K, K + g)}
            b = {k: Fraction(0) for k in range(K, K + g)}
            ok = True
            for k in range(K - 1, -1, -1):
                Ar = tuple(sum(p * A[k + gg][o] for gg, p in gains) for o in range(n))
                br = p_bust + sum(p * b[k + gg] for gg, p in gains)
                if k == 0:
                    A[k], b[k] = Ar, br
                    continue
                nxt = rt[1:] + (rt[0] + k,)
                Hk = tuple(W[nxt][(o - 1) % n] for o in range(n))
                rv, hv = Ar[0] + br * y, Hk[0]
                if roll[k]:
                    A[k], b[k] = Ar, br
                    ok &= rv >= hv
                else:
                    A[k], b[k] = Hk, Fraction(0)
                    ok &= hv >= rv
            return A[0], b[0], ok

        choices = [list(itertools.product([False, True], repeat=g - rt[0] - 1)) for rt in rots]
        eqs = []
        for prof in itertools.product(*choices):
            rolls = [(True,) + c for c in prof]
            # values of the profile: turns at y = 0 give H and beta (they do not depend on y)
            H, beta = [], []
            for r in range(d):
                A0, b0, _ = turn(rots[r], rolls[r], Fraction(0))
                H.append(A0)
                beta.append(b0)
            Wg = []
            for r0 in range(d):
                num = [Fraction(0)] * n
                prod = Fraction(1)
                for s in range(n):
                    r = (r0 + s) % d
                    for o in range(n):
                        num[o] += prod * H[r][(o - s) % n]
                    prod *= beta[r]
                Wg.append(tuple(x / (1 - prod) for x in num))
            if all(turn(rots[r], rolls[r], Wg[(r + 1) % d][n - 1])[2] for r in range(d)):
                eqs.append((rolls, Wg))
        out[min(rots)] = eqs
        yield_eq = eqs  # continue with the solver's pick: fewest rolling states
        pick = min(yield_eq, key=lambda e: sum(sum(x) for x in e[0]))
        for r in range(d):
            W[rots[r]] = pick[1][r]
    return out, W


@pytest.mark.parametrize(
    "rules",
    [Rules.piglet(goal=4, players=3), Rules.piglet(goal=3, players=4), Rules(goal=4, die_faces=3, players=3)],
    ids=str,
)
def test_every_pure_profile_of_tiny_games(rules):
    """Brute force over every stationary pure profile of every group: the solver's pick is one
    of the exact equilibria, its values are theirs, and it reports several exactly where the
    brute force finds several."""
    eq = sequential.equilibrium(rules=rules)
    exact, W = _exact_game(rules)
    n, g = rules.players, rules.goal
    several = {tuple(int(x) for x in row) for row in eq.several_groups}
    roll = eq.policy.roll_table()
    for canon, eqs in exact.items():
        assert eqs, f"group {canon} has no pure equilibrium"
        assert (len(eqs) > 1) == (canon in several), canon
        rots = []
        for r in range(n):
            rt = canon[r:] + canon[:r]
            if rt in rots:
                break
            rots.append(rt)
        ours = [tuple(bool(x) for x in roll[rt][: g - rt[0]]) for rt in rots]
        assert any(list(e[0]) == ours for e in eqs), canon
    for t, w in W.items():
        np.testing.assert_allclose(eq.value[t], [float(x) for x in w], rtol=0, atol=1e-14)
    assert eq.mixed_groups.shape[0] == 0


def test_piglet_four_players_symmetric_group_has_two_equilibria():
    eq = sequential.equilibrium(rules=Rules.piglet(goal=6, players=4))
    assert eq.several_groups.tolist() == [[0, 3, 0, 3]]
    # two pure equilibria (brute force) and the mixture between them; the pick is pure
    assert eq.several_counts.tolist() == [3]
    assert eq.mixed_groups.shape[0] == 0


# --- Monte Carlo, face by face ---------------------------------------------------------------


@pytest.mark.parametrize("rules", [Rules(goal=20, players=3), Rules(goal=12, players=4)], ids=str)
def test_seat_win_rates_match_the_simulator(rules):
    eq = sequential.equilibrium(rules=rules)
    sim = play_multiplayer(eq, games=40_000, rng=7)
    assert np.all(np.abs(sim.wins - eq.start_values) < 4 * sim.stderr)
    assert abs(sim.wins.sum() - 1) < 1e-12


# --- certificates ----------------------------------------------------------------------------


def test_certificates_of_three_players(three_piglet4):
    eq = three_piglet4
    assert np.nanmax(eq.deviation_gain) <= 1e-12
    assert eq.nash_conv <= 1e-10 and np.all(eq.seat_gain >= -1e-12)
    assert eq.residual <= 1e-12


def _profile(rules, W, bits, allow_pass):
    """The keyword arguments of :mod:`~pigtheory.sequential.multiplayer.certificates`'
    functions for a pure profile: its values ``W`` and roll bits (flat tuples)."""
    from pigtheory.sequential.model import roll_model

    model = roll_model(rules)
    n = rules.players
    return dict(
        W=W,
        bits=bits,
        mix_states=np.zeros((0, n + 1), dtype=int),
        mix_prob=np.zeros(0),
        n=n,
        g=rules.goal,
        pvec=model.free_vector(),
        p_bust=float(model.p_bust),
        allow_pass=allow_pass,
    )


def test_certificates_catch_a_deviation():
    """Flip one roll decision at the start (hold at 20 where the equilibrium rolls on): the
    one-shot gain must show it there and nowhere else."""
    from pigtheory.sequential.multiplayer.certificates import best_response_values, deviation_gains
    from pigtheory.sequential.multiplayer.group_kernels import level_order

    rules = Rules(goal=40, players=3)
    eq = sequential.equilibrium(rules=rules)
    n, g = 3, 40
    k = 20
    assert eq.policy.roll_probability((0, 0, 0))[k] == 1.0
    bits = np.array(eq.policy.roll_bits).reshape(g**n, -1)
    bits[0, k >> 3] &= np.uint8(255 - (1 << (k & 7)))  # hold at 20
    kw = _profile(rules, np.array(eq.value).reshape(g**n, n), bits, allow_pass=False)
    gains, _ = deviation_gains(**kw)
    assert gains[0] > 1e-6
    assert np.max(np.delete(gains, 0)) <= 1e-12
    # against the equilibrium itself, every seat's exact best response is worth its value
    kw["bits"] = np.array(eq.policy.roll_bits).reshape(g**n, -1)
    order, starts = compiled(level_order)(n, g)
    U = best_response_values(order=order, starts=starts, **kw)
    np.testing.assert_allclose(U, np.array(eq.value).reshape(g**n, n), atol=1e-12)


def _best_response_by_value_iteration(rules, bits, allow_pass, deviate=True):
    """``U[idx, delta]`` of a lone deviator ``delta`` seats after the mover, every other seat
    following the roll bits ``bits`` (flat tuples, the mover's score the leading digit), by
    plain Gauss-Seidel value iteration over (tuple, turn total, deviator): a second method,
    sharing nothing with the certificate's level-by-level composition of rotations. Without
    ``deviate``, every seat follows the bits: the profile's own values."""
    from pigtheory.sequential.model import roll_model

    n, g = rules.players, rules.goal
    model = roll_model(rules)
    p_bust, gains = float(model.p_bust), [(int(k), float(p)) for k, p in model.free]
    tuples = list(itertools.product(range(g), repeat=n))
    flat = {t: sum(t[i] * g ** (n - 1 - i) for i in range(n)) for t in tuples}
    states = sorted(
        ((t, k, d) for t in tuples for k in range(g - t[0]) for d in range(n)),
        key=lambda s: (-sum(s[0]), -s[1]),
    )
    U = dict.fromkeys(states, 0.0)
    for _ in range(10_000):
        change = 0.0
        for t, k, d in states:
            passed = t[1:] + (t[0],)  # a bust, or a pass at turn total 0: the next seat moves
            rv = p_bust * U[passed, 0, (d - 1) % n]
            for j, p in gains:
                rv += p * ((d == 0) * 1.0 if t[0] + k + j >= g else U[t, k + j, d])
            if k >= 1:
                hv = U[t[1:] + (t[0] + k,), 0, (d - 1) % n]
            else:
                hv = U[passed, 0, (d - 1) % n] if allow_pass else None
            if d == 0 and deviate:
                v = rv if hv is None else max(rv, hv)
            else:
                rolls = (bits[flat[t], k >> 3] >> (k & 7)) & 1
                v = rv if hv is None or rolls else hv
            change = max(change, abs(v - U[t, k, d]))
            U[t, k, d] = v
        if change < 1e-15:
            break
    out = np.zeros((g**n, n))
    for t in tuples:
        out[flat[t]] = [U[t, 0, d] for d in range(n)]
    return out


@pytest.mark.parametrize(
    ("rules", "allow_pass"),
    [
        (Rules(players=3, goal=6), False),
        (Rules(players=4, goal=5, die_faces=3), True),
        (Rules(goal=8), False),
    ],
    ids=["3p-g6", "4p-g5-d3-pass", "2p-g8"],
)
def test_best_response_values_of_a_profile_that_is_no_equilibrium(rules, allow_pass):
    """At an equilibrium a deviator's best-response values equal the profile's own, so the
    certificates there cannot tell whether the deviator's continuation is read from the
    best-response values of the levels above or from the profile's (both give NashConv 0).
    Against random roll bits they differ everywhere: the certificate's values must equal value
    iteration's."""
    from pigtheory.sequential.multiplayer.certificates import best_response_values
    from pigtheory.sequential.multiplayer.group_kernels import level_order

    n, g = rules.players, rules.goal
    bits = np.random.default_rng(7).integers(0, 256, size=(g**n, (g + 7) // 8), dtype=np.uint8)
    order, starts = compiled(level_order)(n, g)
    kw = _profile(rules, np.zeros((g**n, n)), bits, allow_pass)
    U = best_response_values(order=order, starts=starts, **kw)
    np.testing.assert_allclose(
        U, _best_response_by_value_iteration(rules, bits, allow_pass), atol=1e-13, rtol=0
    )
    assert U.min() > 0.0


@pytest.mark.parametrize(
    ("rules", "allow_pass"),
    [(Rules(players=3, goal=6), False), (Rules(players=4, goal=5, die_faces=3), True)],
    ids=["3p-g6", "4p-g5-d3-pass"],
)
def test_one_shot_gains_of_a_profile_that_is_no_equilibrium(rules, allow_pass):
    """The certificate's one-shot gains and residual, given a profile's own values from value
    iteration: the residual is that iteration's rounding, and at every tuple the gain is the
    largest ``max(roll, hold) - chosen`` over the turn totals where the mover may hold,
    computed here from those values."""
    from pigtheory.sequential.model import roll_model
    from pigtheory.sequential.multiplayer.certificates import deviation_gains

    n, g = rules.players, rules.goal
    bits = np.random.default_rng(11).integers(0, 256, size=(g**n, (g + 7) // 8), dtype=np.uint8)
    W = _best_response_by_value_iteration(rules, bits, allow_pass, deviate=False)
    gains, residual = deviation_gains(**_profile(rules, W, bits, allow_pass))
    assert residual < 1e-13
    model = roll_model(rules)
    p_bust, steps = float(model.p_bust), [(int(k), float(p)) for k, p in model.free]
    want = np.zeros(g**n)
    for t in itertools.product(range(g), repeat=n):
        idx = sum(t[i] * g ** (n - 1 - i) for i in range(n))
        y = W[sum(x * g ** (n - 1 - i) for i, x in enumerate(t[1:] + (t[0],))), n - 1]
        v: dict[int, float] = {}
        for k in range(g - t[0] - 1, -1, -1):
            rv = p_bust * y + sum(p * (1.0 if t[0] + k + j >= g else v[k + j]) for j, p in steps)
            if k == 0 and not allow_pass:
                v[k] = rv
                continue
            held = t[1:] + (t[0] + k,) if k else t[1:] + (t[0],)
            hv = W[sum(x * g ** (n - 1 - i) for i, x in enumerate(held)), n - 1]
            v[k] = rv if (bits[idx, k >> 3] >> (k & 7)) & 1 else hv
            want[idx] = max(want[idx], max(rv, hv) - v[k])
    np.testing.assert_allclose(gains, want, atol=1e-13, rtol=0)
    assert want.max() > 0.1  # random bits are far from an equilibrium


def test_threads_do_not_change_the_result():
    """The groups of a level are solved in parallel chunks: one thread and two give the same
    arrays, bit for bit (every group is solved alone, whatever the chunking)."""
    numba = pytest.importorskip("numba")
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("one core")
    rules = Rules(goal=25, players=3)
    one = sequential.equilibrium(rules=rules, threads=1)
    two = sequential.equilibrium(rules=rules, threads=2)
    assert np.array_equal(one.value, two.value)
    assert np.array_equal(one.policy.roll_bits, two.policy.roll_bits)
    assert np.array_equal(one.deviation_gain, two.deviation_gain)
    assert np.array_equal(one.seat_gain, two.seat_gain) and one.iterations == two.iterations


def test_allow_pass_keeps_neller_values_where_passing_is_never_used():
    a = sequential.equilibrium(rules=Rules(goal=15, players=3))
    b = sequential.equilibrium(rules=Rules(goal=15, players=3), allow_pass=True)
    np.testing.assert_allclose(a.value, b.value, atol=1e-12)


# --- the result ------------------------------------------------------------------------------


def test_result_is_read_only_and_saves(tmp_path, three_piglet4):
    eq = three_piglet4
    with pytest.raises(ValueError):
        eq.value[0, 0, 0, 0] = 1.0
    with pytest.raises(ValueError):
        eq.policy.roll_bits[0] = 1
    path = eq.save(tmp_path / "eq.npz")
    back = MultiplayerEquilibrium.load(path)
    assert np.array_equal(back.value, eq.value)
    assert np.array_equal(back.policy.roll_bits, eq.policy.roll_bits)
    assert back.rules == eq.rules and back.nash_conv == eq.nash_conv


def test_value_sums_to_one_and_start_ordering(three_piglet4):
    eq = three_piglet4
    np.testing.assert_allclose(eq.value.sum(axis=-1), 1.0, atol=1e-12)
    sv = eq.start_values
    assert sv[0] > sv[1] > sv[2]


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"rules": Rules(dice=2, players=3)}, "rules.dice"),
        ({"rules": Rules(players=11, goal=2)}, "rules.players"),
        ({"rules": "pig"}, "rules"),
        ({"allow_pass": 1}, "allow_pass"),
        ({"starts": 4}, "starts"),
        ({"max_passes": 1}, "max_passes"),
        ({"certify": None}, "certify"),
        ({"enclose": 1}, "enclose must be True or False, got 1"),
        ({"threads": 0}, "threads"),
        ({"threads": 10_000}, "threads"),
        ({"threads": "all"}, "threads must be 'auto'"),
    ],
)
def test_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        sequential.equilibrium(**kwargs)


@pytest.mark.parametrize(
    "cores, load, limit, expected",
    [
        (2, 1.0, 2, 2),  # only this process runs: both cores
        (2, 0.0, 2, 2),
        (2, 2.0, 2, 1),  # one other busy process
        (2, 9.0, 2, 1),  # a loaded machine: never below one
        (8, 1.2, 4, 4),  # never above the limit
        (8, 3.0, 16, 6),
    ],
)
def test_idle_cores_counts_the_cores_others_leave(monkeypatch, cores, load, limit, expected):
    import os

    from pigtheory.parallel import idle_cores

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cores)), raising=False)
    monkeypatch.setattr(os, "getloadavg", lambda: (load, load, load))
    assert idle_cores(limit) == expected


@pytest.mark.parametrize("limit", [0, -1, 2.5, "2", True, None])
def test_idle_cores_refuses_a_bad_limit(limit):
    from pigtheory.parallel import idle_cores

    with pytest.raises(ValueError, match="limit"):
        idle_cores(limit)


def test_memory_guard_refuses_before_work():
    from pigtheory.guard import MemoryLimitError

    with pytest.raises(MemoryLimitError):
        sequential.equilibrium(rules=Rules(players=6), max_memory="1G")


# --- command line ----------------------------------------------------------------------------


def test_cli_players(capsys, tmp_path):
    import json

    from pigtheory import load
    from pigtheory.cli import main

    out = tmp_path / "p.npz"
    assert main(["sequential", "--players", "3", "--piglet", "--goal", "3", "--json", "--out", str(out)]) == 0
    got = json.loads(capsys.readouterr().out)
    eq = sequential.equilibrium(rules=Rules.piglet(goal=3, players=3))
    np.testing.assert_allclose(got["start_values"], eq.start_values, atol=1e-15)
    assert got["opening_threshold"] == eq.opening_threshold and got["nash_conv"] <= 1e-10
    pol = load(out)
    assert isinstance(pol, sequential.MultiplayerPolicy)
    assert np.array_equal(pol.roll_bits, eq.policy.roll_bits)


@pytest.mark.parametrize(
    "argv, match",
    [
        (["--players", "11"], "players"),
        (["--players", "3", "--dice", "2"], "one die"),
        (["--players", "3", "--out", "x.npy"], ".npz"),
        (["--allow-pass", "--double-trouble"], "one die"),
    ],
)
def test_cli_bad_arguments(argv, match, capsys, tmp_path, monkeypatch):
    from pigtheory.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["sequential", "--goal", "5", *argv]) == 2
    assert match in capsys.readouterr().err


# --- mixed groups (3 players, goal 70: the first goal with groups that mix) ------------------


@pytest.fixture(scope="module")
def three_70():
    return sequential.equilibrium(rules=Rules(goal=70, players=3), starts=1)


def test_mixed_groups_are_certified(three_70):
    eq = three_70
    assert len(eq.mixed_groups) > 0
    ms, mp = eq.policy.mixed_states, eq.policy.mixed_prob
    assert np.all((mp > 0) & (mp < 1))
    mixed_tuples = {tuple(int(x) for x in row[:3]) for row in ms}
    gains = np.array(eq.deviation_gain)
    for t in mixed_tuples:
        assert gains[t] <= 1e-10
        gains[t] = 0.0
    assert gains.max() <= 1e-12
    assert abs(eq.nash_conv) <= 1e-10 and eq.residual <= 1e-12
    # each mixing mover is indifferent at its mixing state: roll and hold values agree there
    for row in ms:
        t, k = tuple(int(x) for x in row[:3]), int(row[3])
        tv = eq.turn_values(t)
        hold = eq.value[(t[1], t[2], t[0] + k)][2]
        assert abs(tv[k, 0] - hold) <= 1e-12


def test_mixed_equilibrium_matches_the_simulator(three_70):
    sim = play_multiplayer(three_70, games=30_000, rng=11)
    assert np.all(np.abs(sim.wins - three_70.start_values) < 4 * sim.stderr)


def test_mixed_enclosures_contain_the_floats(three_70):
    eq = three_70
    enc, mp = eq.mixed_enclosure, eq.policy.mixed_prob
    assert np.all(np.isfinite(enc))
    assert np.all((enc[:, 0] <= mp) & (mp <= enc[:, 1]))
    assert np.max(enc[:, 1] - enc[:, 0]) < 1e-5
    for canon, vb in zip(eq.mixed_groups, eq.value_enclosure, strict=True):
        for r in range(3):
            t = tuple(int(x) for x in np.roll(canon, -r))
            assert np.all((vb[r, :, 0] <= eq.value[t]) & (eq.value[t] <= vb[r, :, 1]))


@pytest.mark.slow
def test_three_players_goal_100():
    eq = sequential.equilibrium(rules=Rules(goal=100, players=3))
    np.testing.assert_allclose(eq.start_values, [0.36559355, 0.33185553, 0.30255092], atol=1e-8)
    assert eq.opening_threshold == 23
    assert len(eq.mixed_groups) == 36
    assert abs(eq.nash_conv) <= 1e-10
    enc, mp = eq.mixed_enclosure, eq.policy.mixed_prob
    assert np.all(np.isfinite(enc))  # the three-mover Newton group (16, 64, 56) too
    assert np.all((enc[:, 0] <= mp) & (mp <= enc[:, 1]))


def test_krawczyk_encloses_the_root_of_a_nonlinear_system():
    """The enclosure's general test (any number of unknowns, any degree: the Newton groups and
    the symmetric ones) on a system with a known root: x0^2 = 1/4, x0 x1 = 1/10, x2 = x0 x1 x1
    (root (1/2, 1/5, 1/50)); it proves a ball around the exact root from a nearby float start,
    and proves nothing around a point that is no root."""
    flint = pytest.importorskip("flint")
    from pigtheory.sequential.multiplayer.enclosure import _krawczyk

    def F(x):
        return [x[0] * x[0] - flint.arb(1) / 4, x[0] * x[1] - flint.arb(1) / 10, x[2] - x[0] * x[1] * x[1]]

    root = [Fraction(1, 2), Fraction(1, 5), Fraction(1, 50)]
    K = _krawczyk(flint, F, np.array([0.5 + 3e-13, 0.2 - 2e-13, 0.02 + 1e-13]))
    assert K is not None
    for ball, exact in zip(K, root, strict=True):
        assert ball.contains(flint.fmpq(exact.numerator, exact.denominator))
        assert float(ball.rad()) < 1e-9
    assert _krawczyk(flint, F, np.array([0.6, 0.2, 0.02])) is None


# --- the compiled shortcuts against the plain computations ----------------------------------


def _plain_solve_group(idx, n, g, pvec, p_bust, W, max_passes=60, n_starts=3):
    """Every start iterated in full (no shortcut for a start that meets a profile an earlier
    start settled on): (status, passes, best rolls, best values) as the kernel defines them."""
    from pigtheory.sequential.multiplayer import group_kernels as gk
    from pigtheory.sequential.multiplayer import group_solver as gs

    m = pvec.size
    turn = gk.Turn(pvec, p_bust, False, 1e-13)
    rid, first = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    d = compiled(gk.group_info)(idx, n, g, rid, first)
    K = np.array([g - first[r] for r in range(n)], dtype=np.int64)
    HVs = np.zeros((n, g + m + 1, n))
    for r in range(d):
        compiled(gk.hold_values)(rid[r], first[r], n, g, W, HVs[r])
    st, passes, best = 0, 0, None
    for s in range(n_starts):
        sc = gs.group_scratch(n, g, m, max_passes)._replace(K=K, HVs=HVs)  # fresh, as before every start
        sc.y[:] = [compiled(gk.start_guess)(rid[r], first[r], n, g, W, s) for r in range(n)]
        code, p = compiled(gs._iterate)(d, n, turn, max_passes, sc, False)
        rolls, Wg = sc.rolls, sc.Wg
        passes += p
        if code != 0:
            return 2, passes, None, None
        here = [rolls[r, : K[r]].copy() for r in range(d)]
        if best is not None:
            same = all(np.array_equal(a, b) for a, b in zip(here, best[0], strict=True))
            if not same and np.max(np.abs(Wg[:d] - best[1])) > 1e-12:
                st = 1
            if sum(int(a.sum()) for a in here) >= sum(int(a.sum()) for a in best[0]):
                continue
        best = (here, Wg[:d].copy())
    return st, passes, best[0], best[1]


@pytest.mark.parametrize("rules", [Rules(goal=16, players=3), Rules.piglet(goal=6, players=4)], ids=str)
def test_group_solver_shortcut_equals_every_start_in_full(rules):
    """A start that meets the profile an earlier start settled on stops there (its values are
    known): status, passes, rolls and values of every group equal those of iterating every
    start in full, bit for bit, level by level on the same solved levels above."""
    from pigtheory.sequential.model import roll_model
    from pigtheory.sequential.multiplayer import group_kernels as gk
    from pigtheory.sequential.multiplayer import group_solver as gs

    n, g = rules.players, rules.goal
    model = roll_model(rules)
    pvec, pb = np.ascontiguousarray(model.free_vector(), dtype=float), float(model.p_bust)
    eq = sequential.equilibrium(rules=rules, certify=False)
    turn, search = gk.Turn(pvec, pb, False, 1e-13), gk.Search(60, 3)
    W = np.array(eq.value).reshape(g**n, n)  # the levels above every group are solved
    order, starts = compiled(gk.level_order)(n, g)
    bits = np.zeros((g**n, (g + 7) // 8), dtype=np.uint8)
    statuses = set()
    for L in range(starts.size - 1):
        lo, hi = int(starts[L]), int(starts[L + 1])
        if hi == lo:
            continue
        Wk = W.copy()
        status = np.zeros(hi - lo, dtype=np.int8)
        passes = gs.solve_level(order[lo:hi], n, g, turn, search, Wk, bits, status)
        total = 0
        for t in range(lo, hi):
            st, p, rolls, Wg = _plain_solve_group(int(order[t]), n, g, pvec, pb, W)
            assert st == status[t - lo]
            statuses.add(st)
            total += p
            if st == 2:
                continue
            rid = np.zeros(n, dtype=np.int64)
            d = compiled(gk.group_info)(int(order[t]), n, g, rid, np.zeros(n, dtype=np.int64))
            for r in range(d):
                assert np.array_equal(Wk[rid[r]], Wg[r])
                row = np.unpackbits(bits[rid[r]], bitorder="little")[: rolls[r].size].astype(bool)
                assert np.array_equal(row, rolls[r])
        assert passes == total
    assert 0 in statuses


def test_certify_in_one_pass_equals_the_two_certificates():
    """The one pass of the certificates (gains and residual beside the best responses) gives
    what the flat one-shot kernel and the best-response kernel give apart, bit for bit: on the
    equilibrium, on a profile with a profitable deviation (one decision flipped) and on one
    that mixes at two states."""
    from pigtheory.jit import threads
    from pigtheory.sequential.model import roll_model
    from pigtheory.sequential.multiplayer.certificates import best_response_values, certify, deviation_gains
    from pigtheory.sequential.multiplayer.group_kernels import level_order

    rules = Rules(goal=24, players=3)
    eq = sequential.equilibrium(rules=rules)
    n, g = 3, 24
    model = roll_model(rules)
    base = np.array(eq.policy.roll_bits).reshape(g**n, -1)
    assert eq.policy.roll_probability((0, 0, 0))[5] == 1.0
    flipped = base.copy()
    flipped[0, 0] &= np.uint8(255 - (1 << 5))  # hold at 5 at the start
    mixed = (np.array([[0, 0, 0, 5], [3, 9, 0, 2]]), np.array([0.5, 0.25]))
    order, starts = compiled(level_order)(n, g)
    cases = [(base, None, False), (flipped, None, True), (base, mixed, True)]
    with threads(1):  # a parallel region per level waits for busy cores
        for bits, mix, deviates in cases:
            kw = dict(
                W=np.array(eq.value).reshape(g**n, n),
                bits=bits,
                mix_states=np.zeros((0, n + 1), dtype=int) if mix is None else mix[0],
                mix_prob=np.zeros(0) if mix is None else mix[1],
                n=n,
                g=g,
                pvec=np.ascontiguousarray(model.free_vector(), dtype=float),
                p_bust=float(model.p_bust),
                allow_pass=False,
            )
            gains, resid = deviation_gains(**kw)
            U = best_response_values(order=order, starts=starts, **kw)
            gains1, resid1, U1 = certify(order=order, starts=starts, **kw)
            assert np.array_equal(gains, gains1) and resid == resid1 and np.array_equal(U, U1)
            assert (gains.max() > 1e-6) == deviates and (resid > 1e-6) == deviates
