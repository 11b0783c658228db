"""Super Six, two players, 7 sticks (Höhle's blog post)."""

import numpy as np
import pytest

from pigtheory.sequential.super_six import super_six

# (i, j, k, l): win probability, as printed in the post's table
PUBLISHED = {
    (5, 1, 1, 1): 0.4512917, (5, 1, 1, 0): 0.5487083, (4, 2, 1, 1): 0.3185117,
    (4, 2, 1, 0): 0.3415501, (4, 1, 2, 1): 0.6584499, (4, 1, 2, 0): 0.6814883,
    (4, 1, 1, 1): 0.5242297, (4, 1, 1, 0): 0.5242297, (3, 3, 1, 1): 0.2362578,
    (3, 2, 2, 1): 0.5123251, (3, 2, 1, 1): 0.3613104, (3, 1, 3, 1): 0.7904670,
    (3, 1, 2, 1): 0.7136555, (3, 1, 1, 1): 0.6125487,
}  # fmt: skip


def test_published_table():
    sol = super_six(7)
    assert sol.residual < 1e-14
    assert len(sol.table()) == 20
    for state, p in PUBLISHED.items():
        assert sol.value[state] == pytest.approx(p, abs=5e-8)


def test_strategy_description():
    sol = super_six(7)
    free = [(i, j, k) for i, j, k, flag, *_ in sol.table(0) if flag == 0]
    for i, j, k in free:
        throw = sol.policy[i, j, k, 0]
        if i <= 3:
            assert throw
        elif i == 4:
            assert throw == ((j, k) == (1, 1))
        else:
            assert not throw


def test_properties():
    sol = super_six(6)
    v = sol.value
    ok = ~np.isnan(v)
    assert np.all((v[ok] >= 0) & (v[ok] <= 1))
    # being allowed to stop is never worse
    assert np.all(v[..., 0][ok[..., 0]] >= v[..., 1][ok[..., 1]] - 1e-14)


def test_validation():
    with pytest.raises(ValueError, match="sticks"):
        super_six(1)
