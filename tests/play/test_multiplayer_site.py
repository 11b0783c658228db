"""The play site's multiplayer page: its data (Python) and complete games in headless Chromium,
every event compared with the Python engine (:class:`pigtheory.play.multiplayer.MultiplayerGame`)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pigtheory import Rules
from pigtheory.play import build_site
from pigtheory.play.multiplayer import (
    MultiplayerGame,
    MultiplayerOpponents,
    multiplayer_opponents,
    read_multiplayer_data,
    roll_weight,
)
from tests.play.test_play_browser import _no_browser, browser  # noqa: F401 - the fixture
from tests.sequential.multiplayer.test_multiplayer_use import random_table

TITLE = 'Pig <b id="x">&amp; "friends"</b>'


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    eq = multiplayer_opponents(players=3, goal=20, cache_dir=tmp_path_factory.mktemp("multi-cache"))
    mixed = MultiplayerOpponents(Rules(goal=10, players=3), random_table(10, 3, seed=5), name="random mix")
    passing = MultiplayerOpponents(
        Rules(goal=8, players=4), random_table(8, 4, seed=6, allow_pass=True), allow_pass=True, name="passing"
    )
    return {g.key: g for g in (eq, mixed, passing)}


@pytest.fixture(scope="module")
def site(tmp_path_factory, games):
    folder = tmp_path_factory.mktemp("multi-site") / "site"
    from pigtheory.play import opponent

    opp = opponent("hold-at-8", mode="sequential", goal=10, cache_dir=folder.parent / "cache")
    report = build_site(folder, [opp], title=TITLE, multiplayer=list(games.values()))
    return folder, report


def _expected_prob(policy, g: int, n: int) -> np.ndarray:
    """roll_weight / 2**32 of the policy at every live state (NaN elsewhere)."""
    out = np.full((g,) * (n + 1), np.nan)
    for t in np.ndindex(*(g,) * n):
        out[t][: g - t[0]] = [roll_weight(p) / 2**32 for p in policy.roll_probability(t)]
    return out


def test_the_site_data_is_the_policy(site, games):
    folder, report = site
    for key, g in games.items():
        data = read_multiplayer_data(folder / f"data/{key}.js")
        want = _expected_prob(g.policy, g.rules.goal, g.rules.players)
        assert np.array_equal(np.isnan(data["prob"]), np.isnan(want))
        live = ~np.isnan(want)
        assert np.array_equal(data["prob"][live], want[live]), key
        assert data["players"] == g.rules.players and data["allowPass"] == g.allow_pass
        if g.equilibrium is not None:
            assert data["start"] == pytest.approx(g.equilibrium.start_values.tolist(), abs=1e-6)
    assert report.sizes["multi.html"] > 0 and "data/multi-3p-g20.js" in report.sizes
    index = (folder / "index.html").read_text()
    assert 'href="multi.html"' in index
    page = (folder / "multi.html").read_text()
    assert "<b id" not in page and "&lt;b id=" in page  # the title is escaped
    assert page.count('<script src="data/multi-') == 3


def test_no_multiplayer_page_without_games(tmp_path):
    from pigtheory.play import opponent

    opp = opponent("hold-at-8", mode="sequential", goal=10, cache_dir=tmp_path / "cache")
    build_site(tmp_path / "s", [opp])
    assert not (tmp_path / "s/multi.html").exists()
    assert "multi.html" not in (tmp_path / "s/index.html").read_text()
    with pytest.raises(ValueError, match="multiplayer"):
        build_site(tmp_path / "t", [opp], multiplayer=[opp])


# --- in the browser ---------------------------------------------------------------------------

READ = """
const b = document.body.dataset;
return {phase: b.phase, events: Number(b.events || -1), seed: b.seed, game: b.game, seat: b.seat,
        k: document.getElementById("turn-total").textContent,
        scores: [...document.querySelectorAll("#seats .score")].map((e) => Number(e.textContent)),
        rollEnabled: !document.getElementById("roll").disabled,
        holdEnabled: !document.getElementById("hold").disabled,
        advice: document.getElementById("advice").textContent,
        title: document.title, h1: document.querySelector("h1").textContent,
        injected: document.querySelectorAll("#x").length};
"""


def _wait(driver, test, timeout=20.0):
    from selenium.webdriver.support.ui import WebDriverWait

    seen: dict = {}

    def ready(d) -> bool:
        seen["state"] = d.execute_script(READ)
        return bool(test(seen["state"]))

    WebDriverWait(driver, timeout, poll_frequency=0.02).until(ready)
    return seen["state"]


def _play(driver, folder, opps, seat: int, seed: int) -> dict:
    from selenium.webdriver.common.by import By

    url = f"{folder.as_uri()}/multi.html?speed=0&game={opps.key}&seat={seat}&seed={seed}&x={opps.key}-{seat}-{seed}"
    driver.get(url)
    game = MultiplayerGame(opps, seat=seat, seed=seed)
    game.play_opponents()
    decisions = 0
    while True:
        n = len(game.events)
        shown = _wait(
            driver,
            lambda s, n=n: s["game"] == opps.key and s["events"] == n and s["phase"] in ("you", "over"),
        )
        assert shown["seed"] == str(seed) and shown["seat"] == str(seat)
        assert shown["scores"] == game.scores
        assert json.loads(driver.execute_script("return PigMulti.events();")) == game.events
        if game.winner is not None:
            assert shown["phase"] == "over"
            break
        assert shown["rollEnabled"] and shown["holdEnabled"] == game.can_hold and int(shown["k"]) == game.k
        w = roll_weight(float(opps.policy.roll_probability(game.view())[game.k]))
        assert ("probability" in shown["advice"]) == (0 < w < 2**32)
        decisions += 1
        move = "hold" if game.can_hold and (game.k >= 6 or decisions % 5 == 0) else "roll"
        driver.find_element(By.ID, move).click()
        game.roll() if move == "roll" else game.hold()
        game.play_opponents()
    return {"winner": game.winner, "decisions": decisions, "events": len(game.events), "shown": shown}


@pytest.mark.skipif(_no_browser() is not None, reason=str(_no_browser()))
def test_complete_multiplayer_games_in_chromium(browser, site, games):  # noqa: F811
    folder, _ = site
    results = []
    for key, seat, seed in [
        ("multi-3p-g20", 2, 11),
        ("multi-3p-g20", 3, 12),
        ("multi-3p-g10", 1, 13),
        ("multi-3p-g10", 2, 14),
        ("multi-4p-g8-pass", 3, 15),
        ("multi-4p-g8-pass", 4, 16),
    ]:
        results.append(_play(browser, folder, games[key], seat, seed))
    assert sum(r["decisions"] for r in results) >= 10
    assert {r["winner"] for r in results} >= {1, 2} or len({r["winner"] for r in results}) >= 2
    shown = results[0]["shown"]
    assert shown["title"] == TITLE + ": multiplayer" and shown["h1"] == TITLE + ": multiplayer"
    assert shown["injected"] == 0  # the title's markup is text, not elements
    errors = [e for e in browser.get_log("browser") if e.get("level") == "SEVERE"]
    assert errors == [], errors


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--multiplayer", "3:x"], "N:G"),
        (["--multiplayer", "11:5"], "players 2..10"),
        (["--multiplayer", "3:5:fly"], "N:G"),
        (["--no-multiplayer", "--multiplayer", "3:5"], "contradict"),
        (["--multiplayer", "10:9"], "2**32"),
    ],
)
def test_cli_site_multiplayer_refusals(tmp_path, capsys, argv, words):
    from pigtheory.cli import main

    status = main(["site", "--out", str(tmp_path / "s"), "--opponent", "hold-at-8", "--goal", "10", *argv])
    err = capsys.readouterr().err
    assert status == 2 and words in err and "Traceback" not in err, err
    assert not (tmp_path / "s").exists()


def test_cli_site_with_a_multiplayer_game(tmp_path, capsys):
    from pigtheory.cli import main

    out = tmp_path / "s"
    argv = [
        "site",
        "--out",
        str(out),
        "--opponent",
        "hold-at-8",
        "--goal",
        "10",
        "--multiplayer",
        "3:10:pass",
    ]
    assert main(argv) == 0
    assert "data/multi-3p-g10-pass.js" in capsys.readouterr().out
    data = read_multiplayer_data(out / "data/multi-3p-g10-pass.js")
    assert data["allowPass"] and data["players"] == 3 and len(data["start"]) == 3
    assert (
        main(
            [
                "site",
                "--out",
                str(tmp_path / "t"),
                "--opponent",
                "hold-at-8",
                "--goal",
                "10",
                "--no-multiplayer",
            ]
        )
        == 0
    )
    assert not (tmp_path / "t/multi.html").exists()
