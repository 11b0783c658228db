"""What the randomised entry-point fuzz found, kept as fixed cases (each failed before its fix).

``make test`` draws the fuzz's examples from a pinned seed (``conftest.py``); the cases a random
draw found (``make test-slow``, or a long hunt) are kept here so that they stay found.
"""

from __future__ import annotations

import pytest

import pigtheory
import pigtheory.runtime
from pigtheory import Rules, hold_at, simultaneous
from pigtheory.guard import format_count
from pigtheory.io import atomic_write
from pigtheory.learning import monte_carlo_exploitability
from pigtheory.sequential import equilibrium, super_six


def test_a_count_past_a_float_is_still_a_message():
    assert format_count(1234) == "1,234"
    assert format_count(12_345_678_901) == "1.2e+10"
    assert format_count(10**400) == "more than 10^400"


@pytest.mark.parametrize(
    "call",
    [
        lambda t: super_six(sticks=1e308),
        lambda t: equilibrium(rules=Rules(goal=6, players=3), chunk=1e308, store=t / "s", progress=False),
        lambda t: simultaneous.chunked_best_response(
            [hold_at(3)], rules=Rules(goal=6), chunk=1e308, store=t / "s"
        ),
        lambda t: monte_carlo_exploitability(hold_at(3), rules=Rules(goal=6), games=1e308),
    ],
    ids=["super_six", "equilibrium", "chunked_best_response", "monte_carlo_exploitability"],
)
def test_a_size_of_300_digits_is_refused_with_its_estimate(call, tmp_path):
    """The memory guard formatted the refused estimate with ``:.1e``: OverflowError."""
    with pytest.raises(ValueError, match="more than 10\\^"):
        call(tmp_path)
    assert not any(tmp_path.iterdir())  # refused before the store was made


def test_turn_total_of_an_integral_float_past_memory_is_refused():
    """``k=1e308`` passed the estimate (a float, not estimated) and overflowed a list."""
    with pytest.raises(ValueError, match="turn total X_"):
        pigtheory.turn_total(1e308)
    assert pigtheory.turn_total(6.0).k == 6  # an integral float is still an integer


def test_atomic_write_mode_is_read_as_the_integer_it_checked(tmp_path):
    path = atomic_write(tmp_path / "a.txt", lambda tmp: open(tmp, "w").close(), mode=420.0)
    assert oct(path.stat().st_mode & 0o777) == "0o644"
    with pytest.raises(ValueError, match="mode"):
        atomic_write(tmp_path / "b.txt", lambda tmp: None, mode=2.5)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]


def test_writing_onto_a_folder_is_refused_and_leaves_nothing(tmp_path):
    """``write_record("../x")`` with a folder ``x`` failed half-way with IsADirectoryError."""
    (tmp_path / "x").mkdir()
    with pytest.raises(ValueError, match="is a folder"):
        pigtheory.runtime.write_record(tmp_path / "x", {"a": 1})
    with pytest.raises(ValueError, match="is a folder"):
        atomic_write(tmp_path / "x", lambda tmp: open(tmp, "w").close())
    assert [p.name for p in tmp_path.iterdir()] == ["x"] and not any((tmp_path / "x").iterdir())
