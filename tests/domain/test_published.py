"""Loading the web app's published policy tables."""

import json

import numpy as np
import pytest

from pigtheory import Rules, as_mixture
from pigtheory.published import SIMULTANEOUS_TABLES, webapp_json_path, webapp_policies


def test_the_tables_ship_with_the_package():
    assert webapp_json_path().is_file()
    assert webapp_json_path().name == "scirep2023_webapp_policies.json"


def test_the_six_tables_load_as_valid_policies():
    pub = webapp_policies()
    assert len(pub.tables) == 6 and set(SIMULTANEOUS_TABLES) <= set(pub.tables)
    for name, table in pub.tables.items():
        assert table.table.shape == (100, 100)
        as_mixture(table, Rules())  # raises if any threshold is outside 1..100 - own
        assert pub.clipped[name] >= 0 and pub.raised[name] >= 0
    assert "pig-game" in pub.source


def test_clipping_is_counted(tmp_path):
    g = 4
    t = [[5, 1, 1, 1], [1, 3, 9, 1], [1, 1, 0, 1], [1, 1, 1, 1]]
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"source": "test", "tables": {"x": t}}))
    pub = webapp_policies(path, rules=Rules(goal=g))
    assert pub.clipped["x"] == 2 and pub.raised["x"] == 1
    np.testing.assert_array_equal(pub.tables["x"].table[:3, :3], [[4, 1, 1], [1, 3, 3], [1, 1, 1]])


def test_wrong_shape_or_missing_file(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"tables": {"x": [[1, 1], [1, 1]]}}))
    with pytest.raises(ValueError, match="shape"):
        webapp_policies(path, rules=Rules(goal=3))
    with pytest.raises(ValueError, match="path"):
        webapp_policies(tmp_path / "missing.json")
    path.write_text("not json")
    with pytest.raises(ValueError, match="t.json"):
        webapp_policies(path)


def test_one_name_per_table_and_the_older_names_still_work():
    from pigtheory.play.opponents import _webapp_short
    from pigtheory.published import TABLE_NAMES, published_table, table_name

    pub = webapp_policies()
    assert list(pub.tables) == list(TABLE_NAMES)
    for name, key in TABLE_NAMES.items():
        assert table_name(key) == name and table_name(name) == name
        assert pub.tables[key] is pub.tables[name] and pub.clipped[key] == pub.clipped[name]
        np.testing.assert_array_equal(published_table(key).table, pub.tables[name].table)
        mode, level = name.split("-")[1:]
        assert table_name(f"webapp-{level}", mode=mode) == name
        assert _webapp_short(name, mode) == _webapp_short(key, mode) == f"webapp-{level}"
    with pytest.raises(ValueError, match="mode"):
        table_name("webapp-hard")
    with pytest.raises(ValueError, match="no published table"):
        table_name("webapp-simultaneous-impossible")
    with pytest.raises(ValueError, match="other game"):
        _webapp_short("webapp-sequential-hard", "simultaneous")
    with pytest.raises(KeyError):
        pub.tables["action_simul_impossible"]
