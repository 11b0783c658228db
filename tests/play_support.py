"""Shared by the tests of pigtheory.play: the small test site, the reference player, node."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np

from pigtheory import MixedPolicy
from pigtheory.play import Analyst, Game, Mulberry32, build_site, opponent, opponents_from_file

GOAL = 25
HARNESS = Path(__file__).parent / "js" / "play_games.js"

# The site of the tests: every kind of opponent at a small goal (the web app's tables exist
# for goal 100 only and are covered by the Python tests).
SEQUENTIAL = ("optimal", "optimal-two-dice", "optimal-double-trouble", "hold-at-8")
SIMULTANEOUS = ("equilibrium", "stackelberg", "br-hold-at-10", "hold-at-8")


def mixed_policy(goal: int, seed: int = 0) -> MixedPolicy:
    """A random mixed policy: three thresholds with random weights at every state."""
    rng = np.random.default_rng(seed)
    th = np.minimum(rng.integers(1, goal, size=(goal, goal, 3)), goal - np.arange(goal)[:, None, None])
    return MixedPolicy(th, rng.dirichlet([1, 1, 1], size=(goal, goal)), name="random mix")


def site_opponents(folder: Path, cache_dir: Path) -> list:
    opps = [opponent(n, mode="sequential", goal=GOAL, cache_dir=cache_dir) for n in SEQUENTIAL]
    opps.append(opponent("optimal-piglet", mode="sequential", cache_dir=cache_dir))
    opps += [opponent(n, mode="simultaneous", goal=GOAL, cache_dir=cache_dir) for n in SIMULTANEOUS]
    path = folder / "random-mix.npz"
    mixed_policy(GOAL).save(path)
    opps += opponents_from_file(path, mode="simultaneous", cache_dir=cache_dir)
    return opps


def build_test_site(folder: Path) -> tuple[Path, dict]:
    """Build the test site in ``folder/site``; returns it and the opponents by key."""
    opps = site_opponents(folder, folder / "cache")
    site = folder / "site"
    build_site(site, opps, title="Play Pig (tests)")
    return site, {o.key: o for o in opps}


def play_reference(opp, seed: int, first: str = "you"):
    """The test player of ``tests/js/play_games.js``, in Python: the game and its readings."""
    game = Game(opp.table, seed=seed, first=first)
    analyst = Analyst(opp)
    decider = Mulberry32(seed ^ 0xA5A5A5A5)
    readings = [analyst.read(game)]
    while game.winner is None:
        if game.to_move == "opponent":
            game.step_opponent()
        elif game.can_hold and decider.next_uint32() % 4 == 0:
            game.hold()
        else:
            game.roll()
        readings.append(analyst.read(game))
    return game, readings


def node() -> str | None:
    return shutil.which("node")


def run_node_games(site: Path, specs: list[dict]) -> list[dict]:
    """Play ``specs`` with the site's own JavaScript under node."""
    exe = node()
    assert exe is not None
    out = subprocess.run(
        [exe, str(HARNESS), str(site), json.dumps(specs)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(out.stdout)
