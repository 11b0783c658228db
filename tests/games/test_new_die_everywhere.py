"""A die defined by subclassing Rules, played everywhere with the same outcome probabilities.

``QuadDie`` has four faces; face 4 busts and faces 1, 2, 3 score 5, 1 and 7 points. Its fields
say ``die_faces=4`` and leave ``bust_face`` at its default 1, so anything that read the die from
``bust_face``/``face_points`` instead of :meth:`Rules.roll_outcome` would play another die
(face 1 busting): every check below would fail there. The exact solvers, the game model, the
simulator, the Gymnasium and PettingZoo environments, the vector environment, the OpenSpiel game
and the web page's JavaScript (in headless Chromium) are compared with the exact outcome
probabilities: exact equality where a table is read, Monte Carlo within 4 standard errors where
dice are rolled.
"""

from __future__ import annotations

import math
import os
import shutil
import tempfile
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from pigtheory import Rules, hold_at, sequential, turn_total
from pigtheory.games import ROLL, SequentialGame, SimultaneousGame, State, outcomes
from pigtheory.simulate import turn_totals


class QuadDie(Rules):
    """A four-faced die: face 4 busts, faces 1, 2 and 3 score 5, 1 and 7 points."""

    def roll_outcome(self, faces: tuple[int, ...]) -> tuple[str, int]:
        if len(faces) != 1:
            raise ValueError("QuadDie is rolled alone")
        return ("bust", 0) if faces[0] == 4 else ("score", (5, 1, 7)[faces[0] - 1])


RULES = QuadDie(goal=15, die_faces=4)
EXACT = {0: Fraction(1, 4), 1: Fraction(1, 4), 5: Fraction(1, 4), 7: Fraction(1, 4)}
"""Points of one roll (0: bust), written out from the die."""


def _within(counts: dict[int, int], n: int, exact: dict[int, Fraction] = EXACT) -> None:
    """Every frequency within 4 standard errors of its exact probability; nothing else seen."""
    assert set(counts) <= set(exact), counts
    for x, p in exact.items():
        q = float(p)
        assert abs(counts.get(x, 0) / n - q) <= 4 * math.sqrt(q * (1 - q) / n) + 1e-12, (x, counts, n)


def _count(values) -> dict[int, int]:
    xs, cs = np.unique(np.asarray(values), return_counts=True)
    return dict(zip(xs.tolist(), cs.tolist(), strict=True))


@pytest.fixture(scope="module")
def solution():
    return sequential.solve(rules=RULES)


def test_the_game_model_reads_roll_outcome():
    t = outcomes(RULES)
    assert t.exact() == {("bust", 0): Fraction(1, 4), **{("score", x): Fraction(1, 4) for x in (1, 5, 7)}}
    assert t.points.tolist() == [5, 1, 7, 0] and t.bust.tolist() == [False, False, False, True]
    assert RULES.roll_distribution() == EXACT
    # the fields alone describe another die: face 1 busts there
    assert RULES.points_by_face == (0, 2, 3, 4)


def test_the_sequential_transition_by_hand():
    game = SequentialGame(RULES)
    s = game.step(game.start(), ROLL, 2)  # face 3: 7 points
    assert s == State((0, 0), 0, 7, False)
    assert game.step(s, ROLL, 3) == State((0, 0), 1, 0, False)  # face 4 busts
    s = game.step(s, ROLL, 0)  # face 1: 5 more
    assert s.k == 12 and game.winner(s) is None
    s = game.step(s, ROLL, 1)  # face 2: 1 more, 13 < 15
    assert s.k == 13 and game.winner(game.step(s, ROLL, 0)) == 0  # 18 >= 15 wins at once


def test_solvers_turn_totals_and_the_simulator():
    game = SimultaneousGame(RULES)
    for k in (1, 6, 15):
        exact = turn_total(k, RULES, exact=True).pmf
        assert game.turn_distribution(k, 10**9) == exact
        n = 20_000
        _within(_count(turn_totals(k, n, RULES, rng=k)), n, exact)
    rolls = game.sample(np.random.default_rng(0), 40_000)
    _within(_count(game.outcomes.points[rolls]), 40_000)


def test_the_sequential_solver_and_the_gymnasium_environment_agree(solution):
    """The solver's policy against itself in the environment wins as often as its value says."""
    from pigtheory.envs.gym_sequential import SequentialPigEnv

    env = SequentialPigEnv(solution.policy, rules=RULES, seat=0)
    wins, n = 0.0, 3000
    obs, _ = env.reset(seed=1)
    for _ in range(n):
        done = False
        while not done:
            obs, r, done, _, _ = env.step(int(solution.policy[obs[0], obs[1], obs[2]]))
        wins += r
        obs, _ = env.reset()
    v = float(solution.value[0, 0, 0])
    assert abs(wins / n - v) <= 4 * math.sqrt(v * (1 - v) / n)


def test_the_vector_environment(solution):
    from pigtheory.envs.gym_vector import SequentialPigVectorEnv

    env = SequentialPigVectorEnv(512, solution.policy, rules=RULES, seat=0)
    obs, _ = env.reset(seed=2)
    rewards = []
    done_before = np.zeros(512, dtype=bool)
    for _ in range(400):
        at = np.minimum(obs[:, :3], RULES.goal - 1)  # a finished game's action is ignored
        obs, r, term, _, _ = env.step(solution.policy[at[:, 0], at[:, 1], at[:, 2]].astype(np.int64))
        rewards += r[term & ~done_before].tolist()
        done_before = term
    n, v = len(rewards), float(solution.value[0, 0, 0])
    assert n > 2000
    assert abs(np.mean(rewards) - v) <= 4 * math.sqrt(v * (1 - v) / n)


def test_pettingzoo_aec_self_play(solution):
    from pigtheory.envs import pettingzoo_sequential as pzs

    wins, n = 0.0, 1500
    e = pzs.raw_env(rules=RULES)
    for game in range(n):
        e.reset(seed=game if game == 0 else None)
        for agent in e.agent_iter():
            obs, rew, term, trunc, _ = e.last()
            if term or trunc:
                if agent == "player_0":
                    wins += rew
                e.step(None)
                continue
            state = (obs[0], obs[1], obs[2])
            e.step(int(solution.policy[state]))
    v = float(solution.value[0, 0, 0])
    assert abs(wins / n - v) <= 4 * math.sqrt(v * (1 - v) / n)


def test_one_roll_per_turn_in_the_simultaneous_environments():
    """Hold at 1 is one roll a turn: the score gained per turn is the points of one roll."""
    from pigtheory.envs import pettingzoo_simultaneous as pzp
    from pigtheory.envs.gym_simultaneous import SimultaneousPigEnv

    rules = RULES.replace(goal=400, players=3)
    env = SimultaneousPigEnv(hold_at(1), rules=rules)
    gains = []
    obs, _ = env.reset(seed=3)
    for _ in range(1500):
        new, _, done, _, _ = env.step(1)
        if not done:  # the last turn's gains are clipped at the goal
            gains += (new - obs).tolist()
        obs = new
        if done:
            obs, _ = env.reset()
    _within(_count(gains), len(gains))
    par = pzp.parallel_env(rules=rules)
    obs, _ = par.reset(seed=4)
    gains = []
    for _ in range(1500):
        new, _, term, _, _ = par.step(dict.fromkeys(par.agents, 1))
        if not any(term.values()):
            gains += [int(new[a][0] - obs[a][0]) for a in new]
        obs = new
        if any(term.values()):
            obs, _ = par.reset()
    _within(_count(gains), len(gains))


def test_the_openspiel_game():
    pyspiel = pytest.importorskip("pyspiel")
    from pigtheory.envs.openspiel_game import SimultaneousPigGame

    for chance in ("turn", "roll"):
        game = SimultaneousPigGame({"chance": chance}, rules=RULES.replace(goal=10))
        pyspiel.random_sim_test(game, num_sims=10, serialize=False, verbose=False)
        state = game.new_initial_state()
        state.apply_actions([0, 0])  # both hold at 1: one roll each
        got = dict(state.chance_outcomes())
        if chance == "roll":
            assert got == {r: 0.25 for r in range(4)} and game.spec.points == (5, 1, 7, 0)
        else:
            assert got == {x: float(p) for x, p in EXACT.items()}
    exact = turn_total(6, RULES, exact=True).pmf
    clipped: dict[int, float] = {}
    for x, p in exact.items():
        clipped[min(x, 8)] = clipped.get(min(x, 8), 0.0) + float(p)
    got = dict(SimultaneousPigGame(rules=RULES).turn_outcomes(6, 8))
    assert got.keys() == clipped.keys() and all(abs(got[x] - clipped[x]) < 1e-15 for x in got)


CHROMIUM = os.environ.get("PIGTHEORY_CHROMIUM", "/usr/bin/chromium")
DRIVER = os.environ.get("PIGTHEORY_CHROMEDRIVER", "/usr/bin/chromedriver")
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--allow-file-access-from-files",
)

JS = """
const done = arguments[arguments.length - 1];
PigSite.catalog = (obj) => { window.__catalog = obj; };
const s = document.createElement("script");
s.src = "data/catalog.js";
s.onload = () => {
  const rules = window.__catalog.opponents[0].rules;
  const E = window.PigEngine;
  const exact = {};
  for (let f = 1; f <= rules.dieFaces; f++) {
    const [kind, pts] = E.rollOutcome([f], rules);
    const key = kind === "bust" || kind === "reset" ? 0 : pts;
    exact[key] = (exact[key] || 0) + 1;
  }
  const rng = new E.Mulberry32(12345), counts = {}, n = 40000;
  for (let i = 0; i < n; i++) {
    const [kind, pts] = E.rollOutcome([1 + rng.below(rules.dieFaces)], rules);
    const key = kind === "bust" || kind === "reset" ? 0 : pts;
    counts[key] = (counts[key] || 0) + 1;
  }
  done({exact: exact, rolls: rules.dieFaces, counts: counts, n: n});
};
document.head.appendChild(s);
"""


def _no_browser() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed"
    for path in (CHROMIUM, DRIVER):
        if not (Path(path).is_file() or shutil.which(path)):
            return f"{path} not found: install Debian's chromium and chromium-driver"
    return None


@pytest.mark.skipif(_no_browser() is not None, reason=str(_no_browser()))
def test_the_web_page_reads_the_same_outcome_table(tmp_path):
    """The site's data carries the game model's table; the page's engine, in Chromium, draws
    rolls through it with the outcome probabilities of Python."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    from pigtheory.play import Opponent, OpponentTable, build_site
    from pigtheory.simultaneous import best_response

    rules = RULES.replace(goal=12)
    g = rules.goal
    th = np.minimum(6, g - np.arange(g))[:, None, None] * np.ones((1, g, 1), dtype=np.int64)
    one = np.full((g, g, 1), 1 << 32, dtype=np.int64)
    opp = Opponent(
        "simultaneous-hold-at-6",
        "Hold at 6",
        "test",
        "simultaneous",
        rules,
        OpponentTable("simultaneous", rules, thresholds=th, weights=one),
        best_response(hold_at(6), rules=rules, strategies="stopping"),
        hold_at(6),
    )
    site = tmp_path / "site"
    build_site(site, [opp], title="quad die")
    profile = tempfile.mkdtemp(prefix="pigtheory-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        driver.set_script_timeout(30)
        driver.get((site / "index.html").as_uri())
        got = driver.execute_async_script(JS)
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
    exact = {int(x): Fraction(c, got["rolls"]) for x, c in got["exact"].items()}
    assert exact == EXACT
    _within({int(x): c for x, c in got["counts"].items()}, got["n"])
