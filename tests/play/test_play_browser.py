"""The play site in a real browser: headless Chromium plays complete games in both modes.

Chromium and its driver come from the system (Debian's ``chromium`` and ``chromium-driver``;
``.ci/run`` installs them when it can); nothing is downloaded at run time. Without them these
tests skip and say why. Every game is replayed move by move by the Python engine: the page's
scores, turn total, win probability, best move and move values must equal the library's.
A screenshot per mode is saved in ``test-artifacts/`` (or ``$PIGTHEORY_TEST_ARTIFACTS``).
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import tempfile
import threading
from pathlib import Path

import pytest

from pigtheory.play import Analyst, Game

CHROMIUM = os.environ.get("PIGTHEORY_CHROMIUM", "/usr/bin/chromium")
DRIVER = os.environ.get("PIGTHEORY_CHROMEDRIVER", "/usr/bin/chromedriver")
ARTIFACTS = Path(os.environ.get("PIGTHEORY_TEST_ARTIFACTS", Path(__file__).parents[2] / "test-artifacts"))
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,900",
)
# The displayed state, read in one round trip.
READ = """
const $ = (id) => document.getElementById(id);
const b = document.body.dataset;
return {phase: b.phase, events: Number(b.events || -1), seed: b.seed, opponent: b.opponent,
        you: $("score-you").textContent, opp: $("score-opp").textContent, k: $("turn-total").textContent,
        win: $("win").dataset.value, winText: $("win").textContent, advice: $("advice").dataset.advice,
        roll: $("roll-value").dataset.value, hold: $("hold-value").dataset.value,
        cost: $("cost").dataset.value, rollEnabled: !$("roll").disabled, holdEnabled: !$("hold").disabled,
        ready: Number(b.readyMs || -1)};
"""


def _no_browser() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    for path, package in ((CHROMIUM, "chromium"), (DRIVER, "chromium-driver")):
        if not (Path(path).is_file() or shutil.which(path)):
            return f"{path} not found: install Debian's {package} (.ci/run does so when run as root)"
    return None


pytestmark = pytest.mark.skipif(_no_browser() is not None, reason=str(_no_browser()))


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="pigtheory-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    # an explicit driver path: selenium's driver manager must not download anything
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _wait(driver, test, timeout=20.0):
    from selenium.webdriver.support.ui import WebDriverWait

    seen: dict = {}

    def ready(d) -> bool:
        seen["state"] = d.execute_script(READ)
        return bool(test(seen["state"]))

    WebDriverWait(driver, timeout, poll_frequency=0.02).until(ready)
    return seen["state"]


def _caught_up(n: int):
    """The page has shown all ``n`` events and waits for the person (or the game is over)."""
    return lambda s: s["events"] == n and s["phase"] in ("you", "over")


def _check_state(shown: dict, game: Game, analyst: Analyst) -> float:
    """The page shows the engine's state and the library's numbers; returns the win value."""
    assert (int(shown["you"]), int(shown["opp"])) == tuple(game.scores)
    reading = analyst.read(game)
    if game.winner is None:
        assert shown["phase"] == "you" and int(shown["k"]) == game.k
        assert shown["advice"] == reading.advice
        assert shown["holdEnabled"] == game.can_hold and shown["rollEnabled"]
        for name in ("roll", "hold"):
            want = getattr(reading, name)
            if want is None:
                assert shown[name] == ""
            else:
                assert float(shown[name]) == pytest.approx(want, abs=2e-7)
    else:
        assert shown["phase"] == "over"
    assert float(shown["win"]) == pytest.approx(reading.value, abs=2e-7)
    assert abs(float(shown["winText"].rstrip("%")) - 100 * reading.value) <= 0.005 + 1e-6
    return reading.value


def _play(driver, folder: Path, opp, seed: int, first: str, shot: Path | None = None) -> dict:
    """One complete game in the browser, checked move by move against the Python engine.

    The person follows the best move, except every fourth decision, where it does the other
    thing (when allowed): so some moves cost something and the cost is checked too.
    """
    from selenium.webdriver.common.by import By

    # a query of its own per game: a new page, not a jump within the last one
    url = f"{folder.as_uri()}/index.html?speed=0&game={opp.key}-{seed}#mode={opp.mode}&opponent={opp.key}&seed={seed}&first={first}"
    driver.get(url)
    shown = _wait(driver, lambda s: s["opponent"] == opp.key and s["phase"] in ("you", "over"))
    assert shown["seed"] == str(seed)
    game = Game(opp.table, seed=seed, first=first)
    analyst = Analyst(opp)
    game.play_opponent()
    cost, decisions = 0.0, 0
    while True:
        shown = _wait(driver, _caught_up(len(game.events)))
        _check_state(shown, game, analyst)
        if game.winner is not None:
            break
        reading = analyst.read(game)
        move = reading.advice
        decisions += 1
        if decisions % 4 == 0 and (move == "hold" or game.can_hold):
            move = "roll" if move == "hold" else "hold"
        cost += analyst.cost(reading, move)
        driver.find_element(By.ID, move).click()
        game.roll() if move == "roll" else game.hold()
        game.play_opponent()
        if shot is not None and (decisions == 8 or game.winner is not None):
            _wait(driver, _caught_up(len(game.events)))
            shot.parent.mkdir(parents=True, exist_ok=True)
            driver.save_screenshot(str(shot))
            shot = None
    assert float(shown["cost"]) == pytest.approx(cost, abs=1e-6)
    return {"winner": game.winner, "decisions": decisions, "cost": cost, "ready_ms": shown["ready"]}


GAMES = {
    "sequential": [("sequential-optimal-g25", 7, "you"), ("sequential-optimal-g25", 8, "opponent"),
                   ("sequential-optimal-double-trouble-g25", 9, "you"), ("sequential-hold-at-8-g25", 10, "opponent")],
    "simultaneous": [("simultaneous-equilibrium-g25", 7, "you"), ("simultaneous-equilibrium-g25", 8, "you"),
                     ("simultaneous-file-random-mix-g25", 9, "you"), ("simultaneous-stackelberg-g25", 10, "you")],
}  # fmt: skip


@pytest.mark.parametrize("mode", ["sequential", "simultaneous"])
def test_complete_games_in_chromium(browser, site, mode, record_property):
    folder, opps = site
    shot = ARTIFACTS / f"play-{mode}.png"
    results = []
    for n, (key, seed, first) in enumerate(GAMES[mode]):
        results.append(_play(browser, folder, opps[key], seed, first, shot if n == 0 else None))
    assert all(r["winner"] in ("you", "opponent", "tie") for r in results)
    assert sum(r["decisions"] for r in results) >= 12
    assert any(r["cost"] > 0 for r in results)  # the deliberate mistakes were priced
    assert shot.is_file() and shot.stat().st_size > 10_000
    record_property("screenshot", str(shot))
    print(f"\nscreenshot: {shot}; page ready after {results[0]['ready_ms']:.0f} ms")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the signature of the base class
        pass


def test_the_site_works_from_a_static_server(browser, site):
    folder, opps = site
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        opp = opps["simultaneous-hold-at-8-g25"]
        browser.get(f"http://127.0.0.1:{port}/index.html?speed=0#opponent={opp.key}&seed=5")
        shown = _wait(browser, lambda s: s["opponent"] == opp.key and s["phase"] == "you")
        game = Game(opp.table, seed=5)
        _check_state(shown, game, Analyst(opp))
        errors = [e for e in browser.get_log("browser") if e.get("level") == "SEVERE"]
        assert errors == [], errors
    finally:
        server.shutdown()
        server.server_close()
