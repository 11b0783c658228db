"""The arithmetic row lookup of the chunked multiplayer solve (issue 37): a hold target's row
is found by its rank among the tuples of its score sum, not by a search."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from pigtheory.jit import compiled
from pigtheory.sequential.multiplayer import chunk_kernels as ck
from pigtheory.sequential.multiplayer import group_kernels as gk
from pigtheory.sequential.multiplayer.group_store import canonical


@pytest.mark.parametrize(("n", "g"), [(2, 5), (3, 4), (4, 3), (5, 3), (3, 7)])
def test_tuple_rank_is_the_place_in_flat_order_among_tuples_of_one_sum(n, g):
    cum = compiled(ck.count_table)(n, g)
    for s in range(n * (g - 1) + 1):
        tuples = [t for t in itertools.product(range(g), repeat=n) if sum(t) == s]  # flat order
        ranks = [compiled(ck.tuple_rank)(np.array(t, dtype=np.int64), n, s, cum) for t in tuples]
        assert ranks == list(range(len(tuples)))
        assert cum[n, s] - (cum[n, s - 1] if s else 0) == len(tuples)


@pytest.mark.parametrize(("n", "g"), [(3, 5), (4, 4), (6, 3)])
def test_rank_table_gives_the_group_and_rotation_that_canonical_gives(n, g):
    order, starts = compiled(gk.level_order)(n, g)
    cum = compiled(ck.count_table)(n, g)
    top = n * (g - 1)
    for s in range(top + 1):
        groups = order[starts[top - s] : starts[top - s + 1]]
        tuples = np.array(
            [np.ravel_multi_index(t, (g,) * n) for t in itertools.product(range(g), repeat=n) if sum(t) == s]
        )
        table = np.full(tuples.size, -1, dtype=np.int32)
        compiled(ck.rank_table)(groups, n, g, s, cum, table)
        assert (table >= 0).all()  # every tuple of the sum has a row
        group, rot, total = canonical(tuples, n, g)
        assert (total == s).all()
        assert np.array_equal(groups[table // n], group)
        # the table's rotation may differ from canonical's only where both give the tuple
        got = np.array([gk.rotate(int(x), int(r), n, g) for x, r in zip(group, table % n, strict=True)])
        assert np.array_equal(got, tuples)
        assert np.array_equal(got, [gk.rotate(int(x), int(r), n, g) for x, r in zip(group, rot, strict=True)])


def test_a_store_without_rank_tables_gets_them_and_resumes_to_the_same_bits(tmp_path):
    """A store of the earlier version (group lists, no rank tables) is given its tables when
    opened, and the chunks solved again from it read their rows through them."""
    from pigtheory import Rules
    from pigtheory.sequential import equilibrium

    rules = Rules(players=3, goal=12)
    folder = tmp_path / "s"
    equilibrium(rules=rules, store=folder, progress=False)
    for f in (folder / "index").glob("rank*.npy"):
        f.unlink()
    for s in range(12):  # the lowest sums: solved again, reading the sums above
        for seal in (folder / "done").glob(f"{s}.*.json"):
            seal.unlink()
    again = equilibrium(rules=rules, store=folder, progress=False)
    assert len(list((folder / "index").glob("rank*.npy"))) == 3 * 11 + 1
    ref = equilibrium(rules=rules, progress=False)
    full = again.in_memory()
    assert np.array_equal(full.value, ref.value)
    assert np.array_equal(full.policy.roll_bits, ref.policy.roll_bits)
    assert again.nash_conv == ref.nash_conv
