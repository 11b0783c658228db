"""A new action set is one class and its policy kind: the solvers and the command line pick it up.

The action set "roll at most m times" (hold after m rolls, or earlier on reaching the goal) is
defined here, in the test file, registered, and solved by ``best_response`` (two and three
players), evaluated by ``win_probability`` and run from the command line. The reference is an
independent brute force: turn distributions by enumerating every sequence of faces, and
value iteration over every state with plain Python loops.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import numpy as np
import pytest

from pigtheory import Rules, hold_at
from pigtheory.cli import main
from pigtheory.simultaneous import best_response, win_probabilities, win_probability
from pigtheory.simultaneous.core import ACTION_SETS, TIE_TOL, greedy, self_loop


def _at_most_table(rules: Rules) -> np.ndarray:
    """``P[m, room, x]``: the gain x (clipped at the room, 0 a bust) of rolling at most m times
    with ``room`` points to the goal, ``m = 1..goal``, by forward recursion over the rolls."""
    g = rules.goal
    dist = {int(k): float(v) for k, v in rules.roll_distribution().items()}
    out = np.zeros((g + 1, g + 1, g + 1))
    for room in range(1, g + 1):
        reach = np.zeros(room + 1)  # turn totals still rolling
        reach[0] = 1.0
        for m in range(1, g + 1):
            nxt = np.zeros(room + 1)
            for t in range(room):
                if reach[t] == 0.0:
                    continue
                for face, p in dist.items():
                    if face == 0:
                        out[m:, room, 0] += reach[t] * p
                    elif t + face >= room:
                        out[m:, room, room] += reach[t] * p
                    else:
                        nxt[t + face] += reach[t] * p
            reach = nxt
            out[m, room, 1:room] += reach[1:room]  # holding after m rolls
    return out


class AtMostRollsPolicy:
    """The policy kind: ``table[state]`` is m (own score first), read by the solvers through
    ``outcomes``."""

    def __init__(self, table: np.ndarray, rules: Rules) -> None:
        self.table = np.asarray(table)
        self.rules = rules
        self._dist = _at_most_table(rules)

    def reads_own_score_only(self) -> bool:
        return False

    def outcomes(self, states: tuple[np.ndarray, ...]) -> tuple[np.ndarray, np.ndarray]:
        g = self.rules.goal
        own = np.asarray(states[0])
        m = self.table[tuple(np.asarray(s) for s in states)]
        probs = self._dist[m, g - own]
        gains = np.broadcast_to(np.arange(g + 1), probs.shape)
        return gains, probs


class AtMostRolls:
    """The action set "roll at most m times", ``m = 1..goal``."""

    name = "at_most_rolls"

    def __init__(self, rules: Rules, engine: str = "auto") -> None:
        self.rules = rules
        self.dist = _at_most_table(rules)

    def best(self, u, own, opp_bust, tie_tol=TIE_TOL):
        g = self.rules.goal
        p = self.dist[1:, g - own, :]  # (M, ns, goal + 1)
        a = np.einsum("mso,so->sm", p, u)
        vals = self_loop(a, p[:, :, 0].T * opp_bust[:, None])
        return greedy(vals, tie_tol)

    def policy(self, table: np.ndarray) -> AtMostRollsPolicy:
        return AtMostRollsPolicy(table, self.rules)


@pytest.fixture
def registered(monkeypatch):
    monkeypatch.setitem(ACTION_SETS, AtMostRolls.name, AtMostRolls)
    return AtMostRolls.name


# --- the independent brute force ---------------------------------------------------------


def _faces(rules: Rules) -> list[tuple[int, Fraction]]:
    return [(int(k), Fraction(v)) for k, v in rules.roll_distribution().items()]


def _turn(rules: Rules, room: int, keep_rolling, most: int) -> dict[int, Fraction]:
    """The gain of a turn (clipped at the room, 0 a bust) by enumerating every face sequence
    of at most ``most`` rolls; ``keep_rolling(rolls, total)`` says whether to roll again."""
    out: dict[int, Fraction] = {}
    faces = _faces(rules)
    for n in range(1, most + 1):
        for seq in itertools.product(faces, repeat=n):
            total, p, done = 0, Fraction(1), None
            for k, (face, q) in enumerate(seq):
                p *= q
                if face == 0:
                    done = 0
                else:
                    total += face
                    if total >= room:
                        done = room
                if done is not None:
                    if k != n - 1:
                        p = None  # the turn ended before this sequence did
                    break
                if not keep_rolling(k + 1, total):
                    if k != n - 1:
                        p = None
                    done = total
                    break
            if p is None or done is None:
                continue
            out[done] = out.get(done, Fraction(0)) + p
    return out


def _brute_best(rules: Rules, opp_k: int) -> dict[tuple[int, ...], float]:
    """Value iteration over every state against ``hold_at(opp_k)`` opponents, the player
    choosing m = 1..goal rolls at most."""
    g, n = rules.goal, rules.players
    mine = {
        (m, r): _turn(rules, r, lambda rolls, tot, m=m: rolls < m, min(m, r // 2 + 1))
        for m in range(1, g + 1)
        for r in range(1, g + 1)
    }
    theirs = {r: _turn(rules, r, lambda rolls, tot: tot < opp_k, r // 2 + 1) for r in range(1, g + 1)}
    states = list(itertools.product(range(g + 1), repeat=n))
    V = {}
    for s in states:
        at = [p for p in range(n) if s[p] >= g]
        V[s] = (1.0 / len(at) if 0 in at else 0.0) if at else 0.0
    for _ in range(400):
        change = 0.0
        for s in states:
            if max(s) >= g:
                continue
            opp = [theirs[g - j] for j in s[1:]]
            best = -1.0
            for m in range(1, g - s[0] + 1):
                v = 0.0
                for x, px in mine[(m, g - s[0])].items():
                    for ys in itertools.product(*[list(o.items()) for o in opp]):
                        q = float(px)
                        nxt = [s[0] + x]
                        for j, (y, py) in zip(s[1:], ys, strict=True):
                            q *= float(py)
                            nxt.append(j + y)
                        v += q * V[tuple(nxt)]
                best = max(best, v)
            change = max(change, abs(best - V[s]))
            V[s] = best
        if change < 1e-15:
            break
    return V


# --- the tests -----------------------------------------------------------------------------


def test_turn_distribution_matches_enumeration():
    rules = Rules(goal=7)
    table = _at_most_table(rules)
    for m in (1, 2, 3):
        for room in (1, 4, 7):
            brute = _turn(rules, room, lambda rolls, tot, m=m: rolls < m, m)
            got = {x: table[m, room, x] for x in range(room + 1) if table[m, room, x] > 0}
            assert set(got) == set(brute)
            assert all(abs(got[x] - float(brute[x])) < 1e-15 for x in brute)


def test_best_response_two_players_matches_brute_force(registered):
    rules = Rules(goal=6)
    sol = best_response(hold_at(3), rules=rules, strategies=registered)
    brute = _brute_best(rules, 3)
    assert isinstance(sol.policy, AtMostRollsPolicy)
    for s, v in brute.items():
        assert abs(sol.value[s] - v) < 1e-12, s
    # the policy kind is read back by the evaluation: it achieves the best response's value
    v = win_probability(sol.policy, hold_at(3), rules=rules)
    assert np.abs(v - sol.value).max() < 1e-12
    # and as an opponent: both seats' values sum to 1
    both = win_probabilities([sol.policy, hold_at(3)], rules=rules)
    assert np.abs(both.sum(axis=0) - 1).max() < 1e-12


def test_best_response_three_players_matches_brute_force(registered):
    rules = Rules(goal=4, players=3)
    sol = best_response([hold_at(2), hold_at(2)], rules=rules, strategies=registered)
    brute = _brute_best(rules, 2)
    for s, v in brute.items():
        assert abs(sol.value[s] - v) < 1e-12, s


def test_at_most_rolls_never_beats_every_stopping_rule(registered):
    # "roll at most m times" is a stopping rule: the best stopping rule does at least as well
    rules = Rules(goal=10)
    ours = best_response(hold_at(4), rules=rules, strategies=registered)
    stop = best_response(hold_at(4), rules=rules, strategies="stopping")
    assert np.all(ours.value <= stop.value + 1e-12)
    assert ours.value[0, 0] < stop.value[0, 0]


def test_command_line_picks_it_up(registered, capsys):
    rules = Rules(goal=6)
    sol = best_response(hold_at(3), rules=rules, strategies=registered)
    assert (
        main(
            ["best-response", "--opponent", "hold-at-3", "--goal", "6", "--strategies", registered, "--json"]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["strategies"] == registered
    assert abs(out["win_probability"] - sol.value[0, 0]) < 1e-15
    assert out["threshold_at_start"] == int(sol.policy.table[0, 0])


def test_unknown_action_set_is_refused():
    with pytest.raises(ValueError, match="strategies"):
        best_response(hold_at(3), rules=Rules(goal=6), strategies="at_most_rolls_unregistered")
