"""One generic Bellman residual checker for the simultaneous solvers, by brute force.

Independent of the core: the turn of "hold at k" comes from :func:`pigtheory.turn_total` in
exact rationals (its own recursion), opponents' turns are mixed from their threshold tables
state by state, and every expectation is a plain sum over the joint outcome, with the state
itself on the right-hand side (the everybody-busts self-loop is *not* solved here, only
checked). A solver's value must be a fixed point of its own equation:

* ``"evaluate"``: :math:`V(s) = E[V(\\min(s + X, g))]`, every player's turn from its policy;
* ``"best_response"``: :math:`V(s) = \\max_k E[V(\\min(s + (X_k, Y), g))]`;
* ``"maxmin"`` (two players, Stackelberg): :math:`V(s) = \\max_a \\min_b E[V(\\min(s + (X_a, X_b), g))]`.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from pigtheory import Rules, as_mixture, turn_total


@lru_cache(maxsize=4096)
def _turn(k: int, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    pmf = turn_total(k, rules, exact=True).pmf
    gains = np.array(sorted(pmf), dtype=np.int64)
    probs = np.array([float(pmf[x]) for x in gains.tolist()])
    return gains, probs


def _policy_turn(mix, own_view: tuple[int, ...], rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """A player's turn at its own view of the state: a mixture over its thresholds."""
    th = np.broadcast_to(mix.thresholds, (rules.goal,) * rules.players + mix.thresholds.shape[-1:])
    w = np.broadcast_to(mix.weights, th.shape)
    dist: dict[int, float] = {}
    for k, p in zip(th[own_view].tolist(), w[own_view].tolist(), strict=True):
        if p == 0:
            continue
        for x, q in zip(*_turn(int(k), rules), strict=True):
            dist[int(x)] = dist.get(int(x), 0.0) + p * float(q)
    xs = np.array(sorted(dist), dtype=np.int64)
    return xs, np.array([dist[x] for x in xs.tolist()])


def _expect(value: np.ndarray, state: tuple[int, ...], turns, goal: int) -> float:
    """E[V(min(s + X, g))] over independent turns, one (gains, probs) per seat."""
    total = 0.0
    for combo in itertools.product(*[range(len(g)) for g, _ in turns]):
        p = 1.0
        nxt = []
        for seat, c in enumerate(combo):
            gains, probs = turns[seat]
            p *= probs[c]
            nxt.append(min(state[seat] + int(gains[c]), goal))
        total += p * value[tuple(nxt)]
    return total


def _view(state: tuple[int, ...], p: int) -> tuple[int, ...]:
    n = len(state)
    return tuple(state[(p + q) % n] for q in range(n))


def residual(value: np.ndarray, rules: Rules, kind: str, profile=None) -> float:
    """Largest |V(s) - RHS(V)(s)| over the non-terminal states.

    ``profile``: for ``"evaluate"``, every player's policy (seat order, player 0 first); for
    ``"best_response"``, the opponents' policies in seat order; unused for ``"maxmin"``.
    """
    g, n = rules.goal, rules.players
    mixes = [as_mixture(p, rules) for p in (profile or [])]
    worst = 0.0
    for state in itertools.product(range(g), repeat=n):
        if kind == "evaluate":
            turns = [_policy_turn(m, _view(state, p), rules) for p, m in enumerate(mixes)]
            rhs = _expect(value, state, turns, g)
        elif kind == "best_response":
            opp = [_policy_turn(m, _view(state, p + 1), rules) for p, m in enumerate(mixes)]
            rhs = max(_expect(value, state, [_turn(k, rules)] + opp, g) for k in range(1, g - state[0] + 1))
        elif kind == "maxmin":
            i, j = state
            rhs = max(
                min(_expect(value, state, [_turn(a, rules), _turn(b, rules)], g) for b in range(1, g - j + 1))
                for a in range(1, g - i + 1)
            )
        else:
            raise ValueError(kind)
        worst = max(worst, abs(float(value[state]) - rhs))
    return worst


def stopping_residual(value: np.ndarray, rules: Rules, opponents) -> float:
    """Largest |V(s) - max over every deterministic stopping rule of E[V(s + (X_rule, Y))]|
    (two or more players, small goals: every rule at every state is enumerated)."""
    from pigtheory.simultaneous.core.stopping_rules import stopping_outcomes
    from pigtheory.stopping import as_turn_policy

    g, n = rules.goal, rules.players
    mixes = [as_turn_policy(p, rules) for p in opponents]
    worst = 0.0
    for state in itertools.product(range(g), repeat=n):
        room = g - state[0]
        opp = []
        for p, m in enumerate(mixes):
            gains, probs = m.outcomes(tuple(np.array([v]) for v in _view(state, p + 1)))
            opp.append((gains[0], probs[0]))
        best = -np.inf
        for bits in itertools.product([False, True], repeat=room - 1):
            roll = np.zeros(g, dtype=bool)
            roll[1:room] = bits
            dist = stopping_outcomes(roll[None, :], np.array([state[0]]), rules, engine="numpy")[0]
            own = (np.arange(g + 1), dist)
            best = max(best, _expect(value, state, [own] + opp, g))
        worst = max(worst, abs(float(value[state]) - best))
    return worst
