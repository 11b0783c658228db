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
