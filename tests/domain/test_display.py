"""Results and policies that read well (issue 23): short repr, HTML repr, to_frame()."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from pigtheory import Rules, hold_at, simultaneous
from pigtheory.policies import MixedPolicy, ThresholdTable
from pigtheory.published import webapp_policies
from pigtheory.stopping import StoppingRule

RULES = Rules(goal=12)


@pytest.fixture(scope="module")
def eq():
    return simultaneous.stopping_equilibrium(rules=RULES)


def test_repr_is_short_and_has_the_headline_numbers(eq):
    text = repr(eq)
    assert len(text) < 1500 and "\n" in text
    assert "[[" not in text and "..." not in text  # no array is printed
    first = text.splitlines()
    assert first[0] == "StoppingEquilibrium"
    assert any(line.split()[0] == "value" and "(13, 13)" in line and "0.5" in line for line in first[1:])
    assert "goal 12" in text and "residual" in text
    # policies too, and a policy nested in a result is one line
    assert repr(eq.policy).splitlines()[0] == "RandomStoppingRule"
    assert "RandomStoppingRule 'equilibrium over stopping rules' prob (12, 12, 12)" in text


def test_html_repr_is_a_table_of_the_same_rows(eq):
    page = eq._repr_html_()
    assert page.startswith("<table>") and page.endswith("</table>")
    assert page.count("<tr>") == len(repr(eq).splitlines()) - 1
    assert "&#x27;exact&#x27;" in page  # text is escaped


def test_result_frame_is_long_form_with_terminal_states_na():
    br = simultaneous.best_response(hold_at(5), rules=RULES)
    df = br.to_frame()
    g = RULES.goal
    assert df.columns.tolist() == ["own", "other", "value", "policy"] and len(df) == (g + 1) ** 2
    np.testing.assert_array_equal(df["value"].to_numpy(), br.value.ravel())
    inside = (df["own"] < g) & (df["other"] < g)
    np.testing.assert_array_equal(
        df.loc[inside, "policy"].to_numpy(dtype=int), br.policy[df["own"][inside], df["other"][inside]]
    )
    assert df.loc[~inside, "policy"].isna().all()


def test_policy_frames_rebuild_their_tables(eq):
    table = ThresholdTable(hold_at(4).table(RULES))
    df = table.to_frame()
    back = df.pivot(index="own", columns="other", values="threshold").to_numpy()
    np.testing.assert_array_equal(back, table.table)
    mixed = MixedPolicy([[[2, 3]] * 2] * 2, [[[0.25, 0.75], [1.0, 0.0]]] * 2)
    dm = mixed.to_frame()
    assert len(dm) == 6  # the zero weight is dropped
    np.testing.assert_allclose(dm.groupby(["own", "other"])["weight"].sum().to_numpy(), 1.0)
    # a stopping rule: rows only at the turn totals where it decides (1 <= t < goal - own)
    g = RULES.goal
    rule = StoppingRule.from_policy(hold_at(4), RULES)
    dr = rule.to_frame()
    assert len(dr) == g * sum(g - own - 1 for own in range(g))
    assert (dr["roll"] == (dr["turn_total"] < 4)).all()
    dp = eq.policy.to_frame()
    assert dp.columns.tolist() == ["own", "other", "turn_total", "prob"] and len(dp) == len(dr)


def test_a_result_without_state_arrays_is_one_row():
    df = webapp_policies().to_frame()
    assert len(df) == 1 and "source" in df.columns


def test_to_frame_without_pandas_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"pigtheory\[pandas\]"):
        hold_at(3).to_frame()


@pytest.mark.parametrize("suffix", [".json", ".csv", ".npz"])  # a mix is no .npy
def test_a_policy_read_from_any_file_keeps_strategy(tmp_path, suffix):
    from pigtheory import load
    from pigtheory.simultaneous import symmetric_equilibrium

    eq = symmetric_equilibrium(rules=Rules(goal=50, players=3))
    path = tmp_path / f"eq{suffix}"
    # a policy file holds the full MixedPolicy of the compact symmetric policy
    eq.policy.to_mixed().save(path) if suffix != ".npz" else eq.save(path)
    back = load(path)
    policy = back.policy if suffix == ".npz" else back
    states = [(0, 0, 0), (3, 4, 5), (4, 3, 5), (20, 7, 33)] + [
        tuple(map(int, s)) for s in eq.mixed_states[:5]
    ]
    for s in states:
        assert policy.strategy(*s) == pytest.approx(eq.strategy(*s)), s
    mixed = eq.policy.to_mixed()
    assert mixed.strategy(3, 4, 5) == pytest.approx(eq.strategy(3, 4, 5))
    assert len(eq.strategy(3, 4, 5)) == 2  # a mixed state is among them
    with pytest.raises(ValueError, match="scores"):
        mixed.strategy(0, 0)


def test_a_threshold_table_read_back_keeps_strategy(tmp_path):
    from pigtheory import load

    table = ThresholdTable(hold_at(4).table(RULES))
    table.save(tmp_path / "t.csv")
    back = load(tmp_path / "t.csv")
    assert back.strategy(3, 7) == {4: 1.0} and back.strategy(10, 0) == {2: 1.0}
