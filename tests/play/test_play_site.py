"""``pigtheory site``: what the static site holds, and the opponents it can be built from."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import numpy as np
import pytest

from pigtheory import Rules, ThresholdTable, hold_at, simultaneous
from pigtheory.cli import main
from pigtheory.io import write_policy
from pigtheory.play import build_site, default_opponents, opponent, opponents_from_file, read_site_data
from pigtheory.play.site import STATIC_FILES
from pigtheory.sequential import solve
from tests.play_support import mixed_policy


def _catalog(folder: Path) -> dict:
    text = (folder / "data" / "catalog.js").read_text()
    assert text.startswith("PigSite.catalog(")
    return json.loads(text[text.index("(") + 1 : text.rindex(")")])


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    folder = tmp_path_factory.mktemp("play-site")
    opps = default_opponents([15], hold_at_n=[5], cache_dir=folder / "cache")
    return folder, opps


def test_default_set_has_every_kind(small):
    _, opps = small
    names = {(o.mode, o.key) for o in opps}
    assert ("sequential", "sequential-optimal-piglet-g10") in names
    for key in ("optimal", "optimal-two-dice", "optimal-double-trouble", "hold-at-5"):
        assert ("sequential", f"sequential-{key}-g15") in names
    for key in ("equilibrium", "stackelberg", "br-hold-at-25", "hold-at-5"):
        assert ("simultaneous", f"simultaneous-{key}-g15") in names
    assert not any("webapp" in k for _, k in names)  # the web app's tables are for goal 100


def test_site_is_self_contained_and_byte_stable(small, tmp_path):
    _, opps = small
    a = build_site(tmp_path / "a", opps)
    b = build_site(tmp_path / "b", opps)
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert [str(f) for f in files] == sorted(a.sizes)
    for f in files:
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes(), f
    assert (
        a.total_bytes
        == b.total_bytes
        == sum(p.stat().st_size for p in (tmp_path / "a").rglob("*") if p.is_file())
    )
    html = (tmp_path / "a" / "index.html").read_text()
    for name in STATIC_FILES[1:]:
        assert f'"{name}"' in html
    # nothing from elsewhere: no absolute URLs in what the page loads, no fetch
    for name in STATIC_FILES:
        text = (tmp_path / "a" / name).read_text()
        assert not re.search(r"(src|href)=\"(https?:)?//", text), name
        assert "fetch(" not in text and "import(" not in text, name


def test_catalog_describes_every_file(small, tmp_path):
    _, opps = small
    report = build_site(tmp_path, opps)
    cat = _catalog(tmp_path)
    assert [e["key"] for e in cat["opponents"]] == [o.key for o in opps]
    for entry, opp in zip(cat["opponents"], opps, strict=True):
        assert entry["bytes"] == report.sizes[entry["file"]] == (tmp_path / entry["file"]).stat().st_size
        assert entry["rules"]["goal"] == opp.rules.goal and entry["mode"] == opp.mode
        if opp.mode == "sequential":
            assert entry["win"]["first"] == pytest.approx(opp.response.first_player_win, abs=1e-6)
        else:
            assert entry["win"]["start"] == pytest.approx(float(opp.response.value[0, 0]), abs=1e-6)


def test_mixed_strategies_are_stored_sparsely(tmp_path):
    path = tmp_path / "mix.npz"
    mixed_policy(10, seed=3).save(path)
    (opp,) = opponents_from_file(path, cache_dir=tmp_path)
    build_site(tmp_path / "site", [opp])
    data = read_site_data(tmp_path / "site" / "data" / f"{opp.key}.js")
    w = opp.table.weights
    assert data["mixed_state"].size == int(((w > 0).sum(axis=-1) > 1).sum())
    assert np.all(data["mixed_weight"].astype(np.int64).sum(axis=1) == 2**32)
    own, other = np.divmod(data["mixed_state"].astype(int), 10)
    for row, (i, j) in enumerate(zip(own, other, strict=True)):
        keep = w[i, j] > 0
        assert (
            data["mixed_threshold"][row, : keep.sum()].tolist() == opp.table.thresholds[i, j, keep].tolist()
        )


def test_policy_files_play_the_modes_they_fit(tmp_path):
    rules = Rules(goal=12)
    files = {
        "seq.npz": solve(rules=rules),
        "table.npz": ThresholdTable(np.minimum(4, 12 - np.arange(12))[:, None] * np.ones((12, 12), int)),
        "mix.npz": mixed_policy(12),
        "br.npz": simultaneous.best_response(hold_at(3), rules=rules),
    }
    modes = {}
    for name, obj in files.items():
        obj.save(tmp_path / name)
        modes[name] = sorted(o.mode for o in opponents_from_file(tmp_path / name, cache_dir=tmp_path))
    assert modes == {
        "seq.npz": ["sequential"],
        "table.npz": ["sequential", "simultaneous"],
        "mix.npz": ["simultaneous"],
        "br.npz": ["sequential", "simultaneous"],
    }
    # the policy file formats play as the archives do, with the rules they record
    for suffix in (".json", ".csv", ".npy"):
        write_policy(files["seq.npz"], tmp_path / f"seq{suffix}", rules=rules)
        (opp,) = opponents_from_file(tmp_path / f"seq{suffix}", cache_dir=tmp_path)
        assert opp.mode == "sequential" and opp.rules == rules
        assert np.array_equal(
            opp.table.roll, opponents_from_file(tmp_path / "seq.npz", cache_dir=tmp_path)[0].table.roll
        )
    write_policy(files["table.npz"], tmp_path / "table.csv", rules=rules)
    assert sorted(o.mode for o in opponents_from_file(tmp_path / "table.csv", cache_dir=tmp_path)) == [
        "sequential",
        "simultaneous",
    ]
    # a threshold table played sequentially is "roll while below the threshold": hold at 4
    seq = opponents_from_file(tmp_path / "table.npz", mode="sequential", cache_dir=tmp_path)[0]
    assert seq.response.first_player_win == pytest.approx(
        opponent("hold-at-4", mode="sequential", goal=12, cache_dir=tmp_path).response.first_player_win,
        abs=1e-14,
    )


def test_unknown_names_and_files(tmp_path):
    with pytest.raises(ValueError, match="unknown simultaneous opponent"):
        opponent("optimal", mode="simultaneous", goal=10, cache_dir=tmp_path)
    with pytest.raises(ValueError, match="goal 100"):
        opponent("webapp-hard", mode="sequential", goal=50, cache_dir=tmp_path)
    with pytest.raises(ValueError, match="no such file"):
        opponents_from_file(tmp_path / "missing.npz")


def test_site_command(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PIGTHEORY_CACHE_DIR", str(tmp_path / "cache"))
    mixed_policy(12).save(tmp_path / "mine.npz")
    out = tmp_path / "site"
    args = [
        "site",
        "--out",
        str(out),
        "--goal",
        "12",
        "--opponent",
        "optimal",
        "--opponent",
        "simultaneous:hold-at-4",
    ]
    assert main([*args, "--policy", str(tmp_path / "mine.npz"), "--title", "Pig night"]) == 0
    printed = capsys.readouterr().out
    assert "3 opponents" in printed and re.search(r"total \d+ kB", printed)
    keys = [e["key"] for e in _catalog(out)["opponents"]]
    assert keys == ["sequential-optimal-g12", "simultaneous-hold-at-4-g12", "simultaneous-file-mine-g12"]
    assert "<title>Pig night</title>" in (out / "index.html").read_text()


@pytest.mark.slow
def test_default_site_at_goal_100(tmp_path):
    t0 = time.perf_counter()
    opps = default_opponents(cache_dir=tmp_path / "cache")
    report = build_site(tmp_path / "site", opps)
    elapsed = time.perf_counter() - t0
    print(
        f"\ndefault site: {len(opps)} opponents, {report.total_bytes / 1024:.0f} kB, built in {elapsed:.0f} s"
    )
    assert len(opps) == 17
    assert report.total_bytes < 1_500_000
    by_key = {o.key: o for o in opps}
    normal = by_key["simultaneous-webapp-normal-g100"].table.thresholds
    # the web app's "normal" table is our best response to hold at 25; "hard" the Stackelberg
    # leader's policy but at one state
    assert np.array_equal(normal, by_key["simultaneous-br-hold-at-25-g100"].table.thresholds)
    hard = by_key["simultaneous-webapp-hard-g100"].table.thresholds
    assert int((hard != by_key["simultaneous-stackelberg-g100"].table.thresholds).sum()) == 1
