"""One result vocabulary (issue 20): ``value``, ``policy`` and ``rules`` are fields wherever a
result has them; the symmetric family's old names warn; files saved before the renaming load."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from pathlib import Path

import numpy as np
import pytest

import pigtheory
from pigtheory import Rules
from pigtheory.policies import hold_at
from pigtheory.results import Result
from pigtheory.sequential.super_six import SuperSixRules, SuperSixSolution, super_six
from pigtheory.simultaneous import (
    HoldAtTable,
    best_response,
    hold_at_sweep,
    hold_at_table,
    symmetric_equilibrium,
)
from pigtheory.simultaneous.sweeps.grid import hold_at_grid
from pigtheory.simultaneous.symmetric import SymmetricPolicy, ViewTable
from pigtheory.simultaneous.symmetric.response import SymmetricBestResponse, symmetric_best_response

BEFORE = Path(__file__).parents[1] / "data" / "before_issue20"  # saved by the code before issue 20
RULES = Rules(goal=12, die_faces=2, players=3)  # the files' game: the equilibrium mixes at 4 states


def _result_types() -> list[type]:
    for info in pkgutil.walk_packages(pigtheory.__path__, "pigtheory."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    out, todo = [], [Result]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub.__module__.startswith("pigtheory."):
                out.append(sub)
            todo.append(sub)
    return out


def test_value_policy_rules_are_fields_of_every_result():
    types = _result_types()
    assert len(types) >= 20
    for cls in types:
        names = {f.name for f in dataclasses.fields(cls)}
        assert "rules" in names, cls
        for name in ("value", "policy"):
            attr = getattr(cls, name, None)
            # a result that has the concept holds it as a field (Simulation's ``value`` is its
            # ``wins`` under the common name; a result whose arrays stay in a store on disk,
            # ``store`` its field, reads them through a lookup of that name)
            assert name in names or attr is None or cls.__name__ == "Simulation" or "store" in names, (
                cls,
                name,
            )


@pytest.fixture(scope="module")
def eq():
    return symmetric_equilibrium(rules=RULES)


def test_the_symmetric_value_reads_by_state_own_score_first(eq):
    assert isinstance(eq.value, ViewTable) and isinstance(eq.policy, SymmetricPolicy)
    full = np.asarray(eq.value)
    assert full.shape == eq.value.shape == (13, 13, 13)
    g = RULES.goal
    for i, j, k in [(0, 0, 0), (3, 7, 1), (11, 2, 12), (12, 12, 5)]:
        assert eq.value[i, j, k] == full[i, j, k] == full[i, k, j]
        assert eq.value[i, j, k] == eq.at(i, j, k)[0]
    # three seats share the win: the values of a state's seats sum to 1
    assert eq.value[0, 0, 0] * 3 == pytest.approx(1.0, abs=1e-13)
    assert (eq.value - eq.value).shape == (g + 1,) * 3  # arithmetic reads the full array
    # the policy is the same strategy as the old MixedPolicy, and the solvers read it
    generic = best_response([eq.policy] * 2, rules=RULES)
    assert np.max(np.asarray(generic.value) - full) < 1e-12
    assert np.array_equal(eq.policy.thresholds, eq.policy.to_mixed().thresholds)


def test_files_saved_before_the_renaming_load(eq):
    old = pigtheory.load(BEFORE / "symmetric_equilibrium.npz")
    assert type(old).__name__ == "SymmetricEquilibrium" and old.rules == RULES
    # the solver has summed in another order since (the self outcome last): the last place
    np.testing.assert_allclose(old.value.table, eq.value.table, rtol=0, atol=2e-15)
    assert np.array_equal(old.policy.actions, eq.policy.actions)
    np.testing.assert_allclose(old.policy.weights, eq.policy.weights, rtol=0, atol=1e-12)
    assert old.n_mixed == eq.n_mixed == 4

    br = SymmetricBestResponse.load(BEFORE / "symmetric_best_response.npz")
    new = symmetric_best_response(eq)
    np.testing.assert_allclose(br.value.table, new.value.table, rtol=0, atol=2e-15)
    assert np.array_equal(br.policy.actions, new.policy.actions)
    assert abs(br.exploitability - new.exploitability) < 1e-15

    six = SuperSixSolution.load(BEFORE / "super_six.npz")
    assert six.rules == SuperSixRules(sticks=4) and six.sticks == 4
    assert np.array_equal(six.value, super_six(4).value, equal_nan=True)


def test_the_renamed_results_round_trip(tmp_path, eq):
    back = pigtheory.load(eq.save(tmp_path / "eq.npz"))
    assert np.array_equal(back.value.table, eq.value.table) and back.value.rules == RULES
    six = super_six(4)
    again = SuperSixSolution.load(six.save(tmp_path / "six.npz"))
    assert again.rules == six.rules and np.array_equal(again.policy, six.policy)
    with pytest.raises(ValueError, match="sticks"):
        SuperSixRules(sticks=1)


# --- one sweep table: HoldAtTable, returned by the sweep, the grid and the resumable table ------


def test_the_three_producers_return_one_table_type():
    rules2, rules3 = Rules(goal=12), Rules(goal=10, players=3)
    sweep = hold_at_sweep([3, 5, 8], rules=rules2)
    grid = hold_at_grid([2, 4], rules=rules3, workers=1)
    table = hold_at_table(goals=[12], ns=[3, 5, 8], players=[2])
    for t in (sweep, grid, table):
        assert type(t) is HoldAtTable and t.policy.shape == t.value.shape
    assert sweep.rules == rules2 and grid.rules == rules3 and table.rules == rules2
    # the sweep and the one-goal table are the same cells, bit for bit
    assert np.array_equal(sweep.value, table.value) and np.array_equal(sweep.policy, table.policy)
    assert np.array_equal(sweep.thresholds, table.thresholds) and sweep.n_solves == table.n_solves == 3
    # a grid cell is the direct three-player solve, mirrored; n_solves counts the pairs n1 <= n2
    direct = best_response([hold_at(2), hold_at(4)], rules=rules3)
    assert grid.at(4, 2) == grid.value[1, 0] == grid.value[0, 1] == direct.value[0, 0, 0]
    assert grid.policy[0, 1] == direct.policy[0, 0, 0] and grid.thresholds[1, 0].tolist() == [4, 2]
    assert grid.n_solves == 3 and grid.row(thresholds=(4, 2)) == (0, 1)
    with pytest.raises(ValueError, match="best_n"):
        grid.best_n  # noqa: B018 (a sweep's, not a grid's)


def test_a_table_over_goals_and_players_gives_each_cell_its_rules():
    table = hold_at_table(goals=[8, 10], ns=[3], players=[2, 3])
    assert table.rules == Rules(goal=8)  # the first cell's
    for r in range(table.value.size):
        rules = table.rules_at(r)
        assert (rules.goal, rules.players) == (table.goal[r], table.players[r])
        want = best_response([hold_at(3)] * (rules.players - 1), rules=rules)
        assert table.value[r] == pytest.approx(float(want.value[(0,) * rules.players]), abs=1e-14)
    with pytest.raises(ValueError, match="best_n"):
        table.best_n  # noqa: B018 (two goals: no single curve)


def test_the_referees_win_probabilities_are_wins_as_in_the_simulators():
    from pigtheory import referee
    from pigtheory.simulate import Simulation

    rules = Rules.piglet(goal=4)
    ev = referee.evaluate([hold_at(2), hold_at(3)], rules=rules, horizon=7)
    assert {"wins", "value", "rules"} <= {f.name for f in dataclasses.fields(ev)}
    assert "wins" in {f.name for f in dataclasses.fields(Simulation)}
    assert ev.wins.sum() + ev.draw == pytest.approx(1.0, abs=1e-13)
    assert not hasattr(ev, "win")  # one name: wins
    old = pigtheory.load(BEFORE / "evaluation.npz")  # saved with the field ``win``
    assert type(old) is type(ev) and old.horizon == 7
    assert np.array_equal(old.wins, ev.wins) and np.array_equal(old.value_start, ev.value_start)


def test_a_table_frame_has_a_row_per_cell_with_its_thresholds():
    pytest.importorskip("pandas")
    table = hold_at_table(goals=[8], ns=[2, 3], players=[2, 3])
    df = table.to_frame()
    assert df.columns.tolist() == ["n1", "n2", "value", "policy", "goal", "players", "die_faces"]
    assert df[["n1", "n2"]].to_numpy().tolist() == table.thresholds.tolist()
    assert np.array_equal(df.value.to_numpy(), table.value) and (df.players.to_numpy() == table.players).all()


def test_the_referees_value_at_the_start_is_value_start():
    from pigtheory import referee

    rules = Rules(goal=8)
    ev = referee.evaluate([hold_at(3), hold_at(4)], rules=rules)
    br = referee.best_response(hold_at(4), rules=rules)
    assert ev.value_start.sum() == pytest.approx(1.0, abs=1e-14)
    assert br.value_start >= ev.value_start[0] - 1e-12  # no reply beats the best one
    assert not hasattr(ev, "start") and not hasattr(br, "start")  # one name: value_start
    old = pigtheory.load(BEFORE / "evaluation.npz")  # saved with the field ``start``
    assert old.value_start.sum() == pytest.approx(1.0, abs=1e-12)
