"""Using the multiplayer sequential equilibrium: policy files, ``pigtheory sequential --players``,
and ``pigtheory play --players N --seat S`` (the terminal game against equilibrium opponents)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pigtheory import Rules, load, save
from pigtheory.cli import main
from pigtheory.io import read_policy, read_policy_file
from pigtheory.play.multiplayer import (
    ROLL_ALWAYS,
    MultiplayerAnalyst,
    MultiplayerGame,
    MultiplayerOpponents,
    play_terminal_multiplayer,
    roll_weight,
)
from pigtheory.policies.multiplayer import MultiplayerRollTable
from pigtheory.sequential import MultiplayerPolicy, equilibrium

ROOT = Path(__file__).parents[3]


def random_table(g: int, n: int, seed: int = 0, allow_pass: bool = False) -> MultiplayerRollTable:
    """A valid table with fractional roll probabilities at every live state."""
    rng = np.random.default_rng(seed)
    prob = rng.random((g,) * (n + 1))
    prob[rng.random(prob.shape) < 0.3] = 1.0
    prob[rng.random(prob.shape) < 0.3] = 0.0
    own = np.arange(g).reshape((g,) + (1,) * n)
    k = np.arange(g).reshape((1,) * n + (g,))
    prob = np.where(own + k >= g, 0.0, prob)
    if not allow_pass:
        prob[..., 0] = 1.0
    return MultiplayerRollTable(prob, allow_pass=allow_pass, name="random")


@pytest.fixture(scope="module")
def eq12():
    return equilibrium(rules=Rules(goal=12, players=3), progress=False)


# --- policy files ---------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".json", ".csv", ".npz"])
@pytest.mark.parametrize("allow_pass", [False, True])
def test_policy_files_round_trip_exactly(tmp_path, suffix, allow_pass):
    table = random_table(7, 3, seed=1, allow_pass=allow_pass)
    rules = Rules(goal=7, players=3)
    path = (
        save(table, tmp_path / f"p{suffix}", rules=rules)
        if suffix != ".npz"
        else save(table, tmp_path / "p.npz")
    )
    back = load(path)
    assert isinstance(back, MultiplayerRollTable)
    assert np.array_equal(back.prob, table.prob)  # exact, fractional probabilities included
    assert back.allow_pass == allow_pass and not back.prob.flags.writeable
    if suffix != ".npz":
        policy, file_rules = read_policy_file(path)
        assert file_rules == rules and np.array_equal(policy.prob, table.prob)


def test_the_equilibrium_policy_is_written_with_its_mixing(tmp_path, eq12):
    pure = eq12.policy
    # the same policy with two mixed states added (the solver's layout: rows t_0, t_1, t_2, k)
    ms = np.array([[0, 0, 0, 3], [5, 2, 7, 1]])
    mixed = MultiplayerPolicy(pure.roll_bits.copy(), ms, np.array([0.25, 0.625]), pure.rules)
    table = MultiplayerRollTable.from_policy(mixed)
    want = pure.roll_table().astype(float)
    want[0, 0, 0, 3], want[5, 2, 7, 1] = 0.25, 0.625
    assert np.array_equal(table.prob, want)
    for t in [(0, 0, 0), (5, 2, 7), (11, 3, 3)]:
        assert np.array_equal(table.roll_probability(t), mixed.roll_probability(t))
    for suffix in (".json", ".csv"):
        back, rules = read_policy_file(save(mixed, tmp_path / f"eq{suffix}"))
        assert rules == pure.rules and np.array_equal(back.prob, want)
    # the result itself writes its policy
    assert np.array_equal(load(save(eq12, tmp_path / "r.json")).prob, pure.roll_table())


def test_policy_files_are_checked_against_what_they_claim(tmp_path):
    table = random_table(5, 3, seed=2)
    path = save(table, tmp_path / "p.json", rules=Rules(goal=5, players=3))
    doc = json.loads(path.read_text())
    with pytest.raises(ValueError, match="players"):  # a 3-player table is no 4-player policy
        read_policy(path, rules=Rules(goal=5, players=4))
    for edit, words in [
        (lambda d: d["arrays"]["prob"][0][0][0].__setitem__(1, 1.5), "[0, 1]"),
        (lambda d: d["arrays"]["prob"][4][0][0].__setitem__(1, 0.5), "reached the goal"),
        (lambda d: d["arrays"]["prob"][1][2][3].__setitem__(0, 0.5), "starts with a roll"),
        (lambda d: d["rules"].__setitem__("players", 4), "shape"),
    ]:
        bad = json.loads(json.dumps(doc))
        edit(bad)
        p = tmp_path / "bad.json"
        p.write_text(json.dumps(bad))
        with pytest.raises(ValueError, match=None) as info:
            read_policy(p)
        assert str(p) in str(info.value) and words in str(info.value), info.value
    # a CSV with a fractional probability out of range names the problem
    csv = save(table, tmp_path / "p.csv", rules=Rules(goal=5, players=3))
    lines = csv.read_text().splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith("0,0,0,1,"))
    lines[i] = "0,0,0,1,-0.25"
    csv.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        read_policy(csv)


def test_a_table_without_recorded_rules_is_checked_by_its_shape(tmp_path):
    prob = random_table(5, 3).prob.copy()
    prob[2, 0, 0, 4] = 0.5  # 2 + 4 >= 5: must hold there
    bad = MultiplayerRollTable(prob)
    path = save(bad, tmp_path / "nobody.json")
    with pytest.raises(ValueError, match="reached the goal"):
        read_policy(path)


# --- pigtheory sequential --players ----------------------------------------------------------


def test_cli_json_headline_and_policy_files(tmp_path, capsys, eq12):
    for suffix in (".json", ".csv", ".npz"):
        out = tmp_path / f"eq{suffix}"
        status = main(["sequential", "--players", "3", "--goal", "12", "--json", "--out", str(out)])
        doc = json.loads(capsys.readouterr().out)
        assert status == 0
        assert doc["start_values"] == pytest.approx(eq12.start_values.tolist(), abs=1e-15)
        assert doc["opening_threshold"] == eq12.opening_threshold
        assert doc["n_mixed_groups"] == 0 and doc["several_groups"] == len(eq12.several_groups)
        assert doc["max_deviation_gain"] <= 1e-12 and abs(doc["nash_conv"]) <= 1e-12
        assert len(doc["seat_gain"]) == 3
        back = load(out)
        table = back if isinstance(back, MultiplayerRollTable) else MultiplayerRollTable.from_policy(back)
        assert np.array_equal(table.prob, eq12.policy.roll_table())


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--out", "x.txt"], ["--out", ".json"]),
        (["--out", "x.npy"], ["--out", ".npz"]),
        (["--out", "/nonexistent-dir/x.json"], ["--out"]),
        (["--max-memory", "1M", "--out", "x.json"], ["memory"]),
    ],
)
def test_cli_refuses_before_solving(tmp_path, capsys, argv, words):
    argv = [a.replace("x.", str(tmp_path / "x.")) if a.startswith("x.") else a for a in argv]
    status = main(["sequential", "--players", "3", "--goal", "200", *argv])
    err = capsys.readouterr().err
    assert status != 0 and "Traceback" not in err
    assert all(w in err for w in words), err
    assert not any(tmp_path.iterdir())


# --- the game ------------------------------------------------------------------------------


def test_roll_weight_keeps_mixing_mixed():
    assert roll_weight(0.0) == 0 and roll_weight(1.0) == ROLL_ALWAYS
    assert roll_weight(1e-300) == 1 and roll_weight(1 - 1e-17) in (ROLL_ALWAYS, ROLL_ALWAYS - 1)
    assert roll_weight(1 - 1e-6) == ROLL_ALWAYS - 4295 and roll_weight(1 - 1e-12) == ROLL_ALWAYS - 1
    with pytest.raises(ValueError, match="probability"):
        roll_weight(1.5)


def test_opponents_sample_the_mixed_policy():
    """Every opponent decision with roll probability p rolls with frequency p (4 standard errors)."""
    g, n = 8, 3
    prob = np.zeros((g,) * (n + 1))
    for k in range(g):
        prob[(np.arange(g) + k < g), ..., k] = 0.3 if k else 1.0
    opps = MultiplayerOpponents(Rules(goal=g, players=n), MultiplayerRollTable(prob))
    rolls = decisions = 0
    for seed in range(400):
        game = MultiplayerGame(opps, seat=3, seed=seed)
        while game.to_move == "opponent":
            k = game.k
            event = game.step_opponent()
            if k >= 1:
                decisions += 1
                rolls += event["action"] == "roll"
    share = rolls / decisions
    assert decisions > 300
    assert abs(share - 0.3) < 4 * np.sqrt(0.3 * 0.7 / decisions)


def test_the_same_seed_and_moves_give_the_same_game(eq12):
    opps = MultiplayerOpponents(eq12.rules, eq12.policy, equilibrium=eq12)
    games = []
    for _ in range(2):
        game = MultiplayerGame(opps, seat=2, seed=99)
        game.play_opponents()
        while game.winner is None:
            game.roll() if game.k < 6 or not game.can_hold else game.hold()
            game.play_opponents()
        games.append(game.events)
    assert games[0] == games[1]
    assert games[0][-1]["outcome"] == "goal"


def test_the_person_s_numbers_are_the_equilibrium_s(eq12):
    """At every decision of a game the person's value is the equilibrium's; the move the
    equilibrium takes for sure is worth exactly that value (one-shot deviation), the other at
    most that."""
    opps = MultiplayerOpponents(eq12.rules, eq12.policy, equilibrium=eq12)
    analyst = MultiplayerAnalyst(opps)
    checked = 0
    for seat, seed in [(s, 10 * s + i) for s in (1, 2, 3) for i in range(4)]:
        game = MultiplayerGame(opps, seat=seat, seed=seed)
        r0 = analyst.read(game)
        assert r0.value == pytest.approx(float(eq12.start_values[seat - 1]), abs=1e-15)
        game.play_opponents()
        while game.winner is None:
            r = analyst.read(game)
            best = max(r.roll, r.hold if r.hold is not None else -1)
            assert r.value == pytest.approx(best, abs=1e-12)
            eq_move = "roll" if r.equilibrium_roll == 1.0 else "hold"
            assert getattr(r, eq_move) == pytest.approx(r.value, abs=1e-12)
            checked += 1
            game.roll() if r.advice == "roll" else game.hold()
            game.play_opponents()
        assert analyst.read(game).value == (1.0 if game.winner == seat else 0.0)
    assert checked >= 15


def test_terminal_game_through_scripted_input(eq12):
    opps = MultiplayerOpponents(eq12.rules, eq12.policy, equilibrium=eq12)
    script = "r\nb\nx\nr\nh\n" * 40
    out = io.StringIO()
    result = play_terminal_multiplayer(opps, seat=1, seed=7, stdin=io.StringIO(script), stdout=out)
    text = out.getvalue()
    assert "You at seat 1 of 3" in text and "seed 7" in text and "best move:" in text
    # replaying the person's moves gives the same game
    game = MultiplayerGame(opps, seat=1, seed=7)
    game.play_opponents()
    for move in result.moves:
        game.roll() if move == "roll" else game.hold()
        game.play_opponents()
    assert game.events == result.game.events and game.winner == result.game.winner
    assert result.game.winner is not None or result.quit
    # the first line of numbers shows the equilibrium's value for the person
    first = next(line for line in text.splitlines() if line.strip().startswith("win"))
    first_state = MultiplayerGame(opps, seat=1, seed=7)
    first_state.play_opponents()
    want = MultiplayerAnalyst(opps).read(first_state).value
    assert f"{100 * want:6.2f}%" in first


def _run(args: list[str], stdin: str, cache: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PIGTHEORY_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "pigtheory.cli", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_cli_play_multiplayer(tmp_path):
    proc = _run(
        ["--game", "sequential", "--players", "3", "--seat", "2", "--goal", "12", "--seed", "4"],
        "r\nh\n" * 30,
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert "You at seat 2 of 3" in proc.stdout and (
        "Game over" in proc.stdout or "end of input" in proc.stdout
    )
    # a saved policy file as the opponents (no numbers: the file holds no values)
    table = random_table(10, 3, seed=3)
    path = save(table, tmp_path / "t.json", rules=Rules(goal=10, players=3))
    proc = _run(["--players", "3", "--opponent", str(path), "--seed", "1"], "r\nr\nr\nh\n" * 20, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "against the random" in proc.stdout
    opps = MultiplayerOpponents(Rules(goal=10, players=3), table, name="random")
    out = io.StringIO()
    play_terminal_multiplayer(opps, seat=1, seed=1, stdin=io.StringIO("r\nr\nr\nh\n" * 20), stdout=out)
    assert proc.stdout == out.getvalue()  # the same game, move by move


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--players", "3", "--seat", "4"], "--seat"),
        (["--players", "3", "--first", "you"], "--first"),
        (["--players", "3", "--mode", "simultaneous"], "sequential"),
        (["--seat", "2"], "--players"),
        (["--players", "3", "--opponent", "hold-at-20"], "--opponent"),
    ],
)
def test_cli_play_multiplayer_refusals(capsys, args, words):
    status = main(["play", *args])
    err = capsys.readouterr().err
    assert status == 2 and words in err and "Traceback" not in err


def test_games_played_by_the_equilibrium_win_at_its_rates(eq12):
    """Monte Carlo: with the person also playing the equilibrium, every seat wins as often as
    the solver's start values say (4 standard errors)."""
    opps = MultiplayerOpponents(eq12.rules, eq12.policy, equilibrium=eq12)
    rng = np.random.default_rng(0)
    games = 3000
    wins = np.zeros(3)
    for seed in range(games):
        game = MultiplayerGame(opps, seat=2, seed=seed)
        game.play_opponents()
        while game.winner is None:
            p = eq12.policy.roll_probability(game.view())[game.k]
            game.roll() if rng.random() < p or not game.can_hold else game.hold()
            game.play_opponents()
        wins[game.winner - 1] += 1
    share = wins / games
    se = np.sqrt(eq12.start_values * (1 - eq12.start_values) / games)
    assert np.all(np.abs(share - eq12.start_values) < 4 * se), (share, eq12.start_values)
