"""``pigtheory play``: the terminal game, driven through its standard input."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pigtheory import hold_at
from pigtheory.play import Analyst, Game, opponent, play_terminal

ROOT = Path(__file__).parents[2]


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


def _replay(opp, seed: int, moves: list[str], first: str = "you") -> tuple[Game, list]:
    """The game of these moves, and the readings before each of them."""
    game = Game(opp.table, seed=seed, first=first)
    analyst = Analyst(opp)
    readings = []
    game.play_opponent()
    for move in moves:
        readings.append(analyst.read(game))
        game.roll() if move == "roll" else game.hold()
        game.play_opponent()
    return game, readings


# commands that are always allowed (a refused one would print the state twice)
@pytest.mark.parametrize(
    ("mode", "name", "first", "script"),
    [
        ("sequential", "optimal", "opponent", "r\nb\nr\nh\nb\nb\n" * 60),
        ("simultaneous", "equilibrium", "you", "r\nb\nroll\nbest\nb\n" * 60),
    ],
)
def test_a_full_game_through_stdin(tmp_path, mode, name, first, script):
    proc = _run(
        ["--opponent", name, "--mode", mode, "--goal", "20", "--seed", "12", "--first", first],
        script,
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Game over after" in out and "seed 12" in out
    # the same game in-process: the same transcript, word for word
    opp = opponent(name, mode=mode, goal=20, cache_dir=tmp_path)
    buffer = io.StringIO()
    result = play_terminal(opp, seed=12, first=first, stdin=io.StringIO(script), stdout=buffer)
    assert out == buffer.getvalue()
    # the moves replayed by the engine end where the terminal says
    game, readings = _replay(opp, 12, result.moves, first)
    assert game.winner == result.game.winner and game.events == result.game.events
    final = re.search(r"Game over after \d+ turns?: .* \((\d+) to (\d+)\)", out)
    assert final and [int(final[1]), int(final[2])] == game.scores
    # every "win" line shows the library's number at that state
    shown = [float(x) / 100 for x in re.findall(r"^  win +([\d.]+)%", out, flags=re.M)]
    assert len(shown) == len(readings)
    assert shown == pytest.approx([r.value for r in readings], abs=5e-5)
    analyst = Analyst(opp)
    assert result.total_cost == pytest.approx(
        sum(analyst.cost(r, m) for r, m in zip(readings, result.moves, strict=True))
    )


def test_quit_and_end_of_input(tmp_path):
    proc = _run(["--opponent", "hold-at-5", "--goal", "15", "--seed", "3"], "r\nq\n", tmp_path)
    assert proc.returncode == 0 and "Game left at" in proc.stdout
    proc = _run(["--opponent", "hold-at-5", "--goal", "15", "--seed", "3"], "r\n", tmp_path)
    assert proc.returncode == 0 and "(end of input)" in proc.stdout


def test_refusals_and_help(tmp_path):
    opp = opponent("hold-at-5", mode="simultaneous", goal=15, cache_dir=tmp_path)
    out = io.StringIO()
    result = play_terminal(opp, seed=4, stdin=io.StringIO("h\nwhat\n?\nq\n"), stdout=out)
    text = out.getvalue()
    assert "you cannot hold now: roll first" in text
    assert text.count("r = roll, h = hold") >= 3  # the banner, and twice as help
    assert result.moves == [] and result.quit


def test_a_policy_file_as_opponent(tmp_path):
    path = tmp_path / "hold4.npz"
    hold_at(4).save(path)
    proc = _run(
        ["--opponent", str(path), "--mode", "simultaneous", "--goal", "12", "--seed", "1"],
        "r\nh\n" * 200,  # b only shows the best move; these lines play
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert "hold4.npz" in proc.stdout and "Game over" in proc.stdout


def test_unknown_opponent_is_an_error(tmp_path):
    proc = _run(["--opponent", "grandmaster"], "", tmp_path)
    assert proc.returncode == 2 and "unknown sequential opponent 'grandmaster'" in proc.stderr


def test_a_coin_reads_heads_and_tails():
    from pigtheory import Rules
    from pigtheory.play.terminal import describe

    event = {"who": "you", "action": "roll", "dice": [2], "outcome": "score", "k": 3, "scores": [0, 0]}
    assert describe(event, "sequential", Rules.piglet()) == "you roll heads: turn total 3"
    assert describe({**event, "dice": [1], "outcome": "bust"}, "sequential", Rules.piglet()).startswith(
        "you roll tails"
    )
    assert describe({**event, "dice": [4, 4]}, "sequential", Rules(dice=2)) == "you roll 4-4: turn total 3"


def _turn_numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"^Turn (\d+):", text, flags=re.M)]


@pytest.mark.parametrize("first", ["you", "opponent"])
def test_sequential_turns_are_numbered_one_two_three(tmp_path, first):
    """Each player's turns count 1, 2, 3 (the engine's Game.turn counts both players')."""
    opp = opponent("hold-at-5", goal=25, cache_dir=tmp_path)
    out = io.StringIO()
    result = play_terminal(opp, seed=5, first=first, stdin=io.StringIO("r\nr\nh\n" * 40), stdout=out)
    text = out.getvalue()
    numbers = sorted(set(_turn_numbers(text)))
    assert numbers[0] == 1 and numbers == list(range(1, len(numbers) + 1))  # no gaps: not 1, 3, 5
    assert len(numbers) >= 3
    # the person's n-th turn is the engine's turn 2n - 1 (moving first) or 2n
    person_turns = {e["turn"] for e in result.game.events if e["who"] == "you"}
    assert len(person_turns) == len(numbers) and max(person_turns) in (2 * len(numbers) - 1, 2 * len(numbers))
    final = re.search(r"Game over after (\d+) turns?", text)
    assert final and int(final[1]) == max(numbers + [(result.game.turn + 1) // 2])


def test_b_shows_the_best_move_and_plays_nothing(tmp_path):
    opp = opponent("hold-at-5", goal=25, cache_dir=tmp_path)
    out = io.StringIO()
    result = play_terminal(opp, seed=5, stdin=io.StringIO("b\nbest\nq\n"), stdout=out)
    text = out.getvalue()
    assert result.moves == [] and result.game.events == [] and result.game.scores == [0, 0]
    reading = Analyst(opp).read(Game(opp.table, seed=5))
    line = f"best move: {reading.advice} (win {100 * reading.roll:.2f}% if you roll, {100 * reading.hold:.2f}% if you hold)"
    assert text.count(line) == 2
    assert len(_turn_numbers(text)) == 1  # the state is not printed again: nothing happened


def test_keys_typed_during_the_opponents_turn_are_discarded(tmp_path):
    pytest.importorskip("termios")  # a pseudo-terminal (POSIX)
    opp = opponent("hold-at-5", goal=25, cache_dir=tmp_path)
    master, slave = os.openpty()

    class Keyboard:
        """The terminal: "r" typed three times while the opponent's turn is shown, "q" once the
        prompt is up (written just before each read: no threads, no timing)."""

        def __init__(self) -> None:
            self.tty = os.fdopen(slave, "r")

        def isatty(self) -> bool:
            return self.tty.isatty()

        def fileno(self) -> int:
            return self.tty.fileno()

        def readline(self) -> str:
            os.write(master, b"q\n")
            return self.tty.readline()

    keyboard = Keyboard()
    os.write(master, b"r\nr\nr\n")  # typed ahead, during the opponent's animated turn
    try:
        result = play_terminal(
            opp, seed=5, first="opponent", stdin=keyboard, stdout=io.StringIO(), delay=1e-6
        )
    finally:
        keyboard.tty.close()
        os.close(master)
    assert result.quit and result.moves == []  # the typed-ahead rolls were not played
    # through a pipe nothing is discarded: the lines are the moves
    piped = play_terminal(
        opp, seed=5, first="opponent", stdin=io.StringIO("r\nr\nr\nq\n"), stdout=io.StringIO(), delay=1e-6
    )
    assert piped.moves[:1] == ["roll"]
