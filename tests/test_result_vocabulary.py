"""One result vocabulary (issue 20): ``value``, ``policy`` and ``rules`` are fields wherever a
result has them; the symmetric family's old names warn; files saved before the renaming load."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import warnings
from pathlib import Path

import numpy as np
import pytest

import pigtheory
from pigtheory import Rules
from pigtheory.results import Result
from pigtheory.sequential.super_six import SuperSixRules, SuperSixSolution, super_six
from pigtheory.simultaneous import best_response, symmetric_equilibrium
from pigtheory.simultaneous.symmetric import SymmetricPolicy, ViewTable
from pigtheory.simultaneous.symmetric_response import SymmetricBestResponse, symmetric_best_response

BEFORE = Path(__file__).parent / "data" / "before_issue20"  # saved by the code before issue 20
RULES = Rules(goal=12, die_faces=2, players=3)  # the files' game: the equilibrium mixes at 4 states
# the three sweep tables become one type in another part of issue 20 (SweepTable has a row per
# task, each with its own rules; HoldAtSweep's ``value(n)`` is a method)
SWEEP_TABLES = {"SweepTable", "HoldAtSweep", "HoldAtGrid"}


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
        if cls.__name__ in SWEEP_TABLES:
            continue
        names = {f.name for f in dataclasses.fields(cls)}
        assert "rules" in names, cls
        for name in ("value", "policy"):
            attr = getattr(cls, name, None)
            # a result that has the concept holds it as a field (Simulation's ``value`` is its
            # ``wins`` under the common name)
            assert name in names or attr is None or cls.__name__ == "Simulation", (cls, name)


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


def test_old_names_warn_and_read_the_same(eq):
    with pytest.warns(DeprecationWarning, match="value.table"):
        assert eq.table is eq.value.table
    with pytest.warns(DeprecationWarning, match="policy"):
        assert eq.strategy_table is eq.policy
    br = symmetric_best_response(eq)
    with pytest.warns(DeprecationWarning, match="value.table"):
        assert br.table is br.value.table
    with pytest.warns(DeprecationWarning, match="policy.actions"):
        assert br.thresholds is br.policy.actions
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert br.value[0, 0, 0] == pytest.approx(1 / 3, abs=1e-12)  # an equilibrium: no gain


def test_files_saved_before_the_renaming_load(eq):
    old = pigtheory.load(BEFORE / "symmetric_equilibrium.npz")
    assert type(old).__name__ == "SymmetricEquilibrium" and old.rules == RULES
    assert np.array_equal(old.value.table, eq.value.table)
    assert np.array_equal(old.policy.actions, eq.policy.actions)
    assert np.array_equal(old.policy.weights, eq.policy.weights)
    assert old.n_mixed == eq.n_mixed == 4

    br = SymmetricBestResponse.load(BEFORE / "symmetric_best_response.npz")
    new = symmetric_best_response(eq)
    assert np.array_equal(br.value.table, new.value.table)
    assert np.array_equal(br.policy.actions, new.policy.actions)
    assert br.exploitability == new.exploitability

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
