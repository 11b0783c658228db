"""Self-play (symmetric value iteration): fixed points where it converges, true cycles where not."""

import numpy as np
import pytest

from pigtheory import Rules
from pigtheory.simultaneous import best_response, equilibrium, self_play


def test_converges_to_a_fixed_point_that_is_a_symmetric_equilibrium():
    rules = Rules(goal=20)
    sp = self_play(rules=rules)
    assert sp.converged and sp.period == 1 and sp.cyclic_states == ()
    # A fixed point of self-play is a best response to itself ...
    br = best_response(sp.policy, rules=rules)
    assert abs(br.value[0, 0] - 0.5) < 1e-12
    np.testing.assert_array_equal(br.policy, sp.policy)
    # ... so the exact equilibrium is pure there and has the same value.
    eq = equilibrium(rules=rules)
    assert eq.mixed_states == ()
    np.testing.assert_allclose(sp.value, eq.value, atol=1e-11)


@pytest.mark.parametrize(
    "order, sweep", [("increasing", "gauss-seidel"), ("decreasing", "gauss-seidel"), ("increasing", "jacobi")]
)
def test_cycle_really_repeats(order, sweep):
    rules = Rules(goal=44)
    sp = self_play(rules=rules, order=order, sweep=sweep)
    assert sp.period >= 2 and not sp.converged
    p = sp.period
    h = sp.history
    for k in range(2 * p):
        np.testing.assert_array_equal(h[-1 - k], h[-1 - k - p])
    for k in range(p):
        np.testing.assert_array_equal(sp.cycle[k], h[len(h) - p + k])
    stack = np.stack(sp.cycle)
    changing = {tuple(map(int, s)) for s in np.argwhere(np.any(stack != stack[0], axis=0))}
    assert changing == set(sp.cyclic_states)
    # every coupling edge joins a state and its transpose
    assert all(a == d[::-1] for a, d in sp.coupling.edges)
    assert sp.transitions.number_of_nodes() <= sp.iterations + 1


def test_one_more_sweep_stays_on_the_cycle():
    rules = Rules(goal=44)
    sp = self_play(rules=rules)
    longer = self_play(rules=rules, max_iter=sp.iterations + 3)
    assert longer.period == sp.period
    # stopping is decided once, so a longer budget ends at the same sweep
    assert longer.iterations == sp.iterations


def test_bad_arguments():
    with pytest.raises(ValueError, match="order"):
        self_play(rules=Rules(goal=5), order="random")
    with pytest.raises(ValueError, match="sweep"):
        self_play(rules=Rules(goal=5), sweep="async")
    with pytest.raises(ValueError, match="max_iter"):
        self_play(rules=Rules(goal=5), max_iter=0)
