"""The resource guard: sizes, the limit, and every solver refusing at once what cannot fit."""

from __future__ import annotations

import importlib
import time
import tracemalloc
import warnings

import pytest

from pigtheory import Rules, guard, hold_at, length, simulate, turn_total
from pigtheory import sequential as Q
from pigtheory import simultaneous as S
from pigtheory.guard import MemoryLimitError, check_memory, parse_memory
from pigtheory.simultaneous.sweeps.grid import hold_at_grid

BIG = Rules(goal=10**6)


_FAMILY = {
    "stackelberg": "two_player.stackelberg",
    "self_play": "two_player.self_play",
    "grid": "sweeps.grid",
    "sweep": "sweeps.sweep",
    "symmetric": "symmetric",
}


def _solver(name):
    """The module of the simultaneous solver ``name`` (``pigtheory.simultaneous.<module>``)."""
    return importlib.import_module(f"pigtheory.simultaneous.{_FAMILY.get(name, name)}")


@pytest.mark.parametrize(
    "text, n",
    [("1", 1), ("512", 512), ("1K", 1024), ("4G", 4 * 2**30), ("1.5GiB", 3 * 2**29), ("2 MB", 2 * 2**20), (64, 64), ("1e3", 1000)],
)  # fmt: skip
def test_parse_memory(text, n):
    assert parse_memory(text) == n


@pytest.mark.parametrize("bad", ["0", "-1G", "lots", "", "1X", True, None, float("nan"), 0.5])
def test_parse_memory_refuses(bad):
    with pytest.raises(ValueError, match="max_memory"):
        parse_memory(bad)


def test_default_limit_is_half_of_available(monkeypatch):
    avail, source = guard.available_memory()
    # read once: other processes change what is available between two reads
    monkeypatch.setattr(guard, "available_memory", lambda: (avail, source))
    limit, how = guard.memory_limit(None)
    assert limit == avail // 2 and "half" in how
    assert guard.memory_limit("1G") == (2**30, "max_memory=1G")


def test_the_message_says_estimate_limit_and_what_to_change():
    est = guard.best_response_estimate(Rules(goal=10**4, players=3))
    with pytest.raises(MemoryLimitError) as info:
        check_memory(est, "1G")
    msg = str(info.value)
    assert isinstance(info.value, ValueError)
    for words in (
        "best response",
        "goal 10000, 3 players",
        "states need about",
        "1 GiB",
        "lower the goal",
        "--max-memory",
    ):
        assert words in msg
    assert check_memory(guard.best_response_estimate(Rules()), "1G") is not None


def test_estimates_grow_with_the_problem():
    for est in (guard.best_response_estimate, guard.equilibrium_estimate, guard.sequential_estimate):
        sizes = [est(Rules(goal=g)).bytes for g in (50, 100, 200)]
        assert sizes == sorted(sizes) and sizes[0] < sizes[-1]
    players = [guard.best_response_estimate(Rules(goal=20, players=n)).bytes for n in (2, 3, 4, 5)]
    assert players == sorted(players)
    sym = guard.reduced_estimate(Rules(goal=30, players=4), opponents=hold_at(5))
    full = guard.reduced_estimate(Rules(goal=30, players=4), opponents=[hold_at(5), hold_at(6), hold_at(5)])
    assert sym.bytes < full.bytes


def test_the_papers_solves_pass_the_default_limit_of_a_small_machine():
    small = "2G"
    for est in (
        guard.best_response_estimate(Rules()),
        guard.best_response_estimate(Rules(players=3)),
        guard.equilibrium_estimate(Rules()),
        _solver("stackelberg").estimate_memory(Rules()),
        _solver("self_play").estimate_memory(Rules(), max_iter=200),
        _solver("limit").estimate_memory(Rules(), n_max=200),
        guard.sequential_estimate(Rules(dice=2, double_trouble=True)),
        guard.compare_estimate(Rules(dice=2)),
        guard.reduced_estimate(Rules(players=4), opponents=hold_at(25)),
    ):
        check_memory(est, small)


REFUSED = {
    "best_response": lambda m: S.best_response(hold_at(25), rules=BIG, max_memory=m),
    "best_response, 5 players": lambda m: S.best_response([hold_at(25)] * 4, rules=Rules(players=5), max_memory=m),
    "win_probability": lambda m: S.win_probability(hold_at(25), hold_at(25), rules=BIG, max_memory=m),
    "win_probabilities": lambda m: S.win_probabilities([hold_at(25)] * 2, rules=BIG, max_memory=m),
    "equilibrium": lambda m: S.equilibrium(rules=BIG, max_memory=m),
    "stopping_equilibrium": lambda m: S.stopping_equilibrium(rules=Rules(goal=10**4), max_memory=m),
    "stackelberg": lambda m: S.stackelberg(rules=Rules(goal=10**4), max_memory=m),
    "self_play": lambda m: S.self_play(rules=Rules(goal=10**5), max_memory=m),
    "exploitability": lambda m: S.exploitability(hold_at(25), rules=BIG, max_memory=m),
    "limit": lambda m: S.limit(n_max=10**7, max_memory=m),
    "hold_at_sweep": lambda m: S.hold_at_sweep(range(20, 22), rules=BIG, max_memory=m),
    "reduced_best_response": lambda m: S.reduced_best_response([hold_at(25)] * 7, rules=Rules(players=8), max_memory=m),
    "hold_at_grid": lambda m: hold_at_grid(range(20, 22), rules=Rules(goal=10**4, players=3), max_memory=m),
    "sequential.solve": lambda m: Q.solve(rules=BIG, max_memory=m),
    "sequential.value_iteration": lambda m: Q.value_iteration(rules=BIG, max_memory=m),
    "sequential.compare": lambda m: Q.compare(hold_at(20), hold_at(25), rules=Rules(goal=10**5), max_memory=m),
    "sequential.play": lambda m: Q.play(hold_at(20), hold_at(25), games=10**12, max_memory=m),
    "game_length": lambda m: length.game_length(hold_at(20), hold_at(25), rules=Rules(goal=10**5), max_memory=m),
    "play_simultaneous": lambda m: simulate.play_simultaneous([hold_at(25)] * 2, games=10**12, max_memory=m),
    "turn_totals": lambda m: simulate.turn_totals(25, 10**12, max_memory=m),
    "turn_total": lambda m: turn_total(10**12, max_memory=m),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_every_solver_refuses_at_once(name):
    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        with pytest.raises(MemoryLimitError, match="memory limit"):
            REFUSED[name](None)
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert time.perf_counter() - t0 < 2 and peak < 32 * 2**20


def test_max_memory_is_checked_and_applies_to_small_solves():
    with pytest.raises(ValueError, match="max_memory"):
        S.best_response(hold_at(3), rules=Rules(goal=5), max_memory="lots")
    with pytest.raises(MemoryLimitError, match="max_memory=1K"):
        S.best_response(hold_at(3), rules=Rules(goal=50), max_memory="1K")
    assert S.best_response(hold_at(3), rules=Rules(goal=50), max_memory="64M").value.shape == (51, 51)


@pytest.mark.parametrize(
    "name, run, estimate",
    [
        ("best response", lambda: S.best_response(hold_at(20), rules=Rules(goal=120)), guard.best_response_estimate(Rules(goal=120))),
        ("win probability", lambda: S.win_probability(hold_at(20), hold_at(25), rules=Rules(goal=120)), guard.win_probability_estimate(Rules(goal=120))),
        ("stackelberg", lambda: S.stackelberg(rules=Rules(goal=40)), _solver('stackelberg').estimate_memory(Rules(goal=40))),
        ("limit", lambda: S.limit(n_max=2000, rules=Rules(goal=60)), _solver('limit').estimate_memory(Rules(goal=60), n_max=2000)),
        ("sequential", lambda: Q.solve(rules=Rules(goal=60), engine="numpy"), guard.sequential_estimate(Rules(goal=60))),
        ("compare", lambda: Q.compare(hold_at(20), hold_at(15), rules=Rules(goal=60)), guard.compare_estimate(Rules(goal=60))),
    ],
)  # fmt: skip
def test_estimates_cover_what_numpy_allocates(name, run, estimate):
    """Traced peak (numpy reports its arrays to tracemalloc) of a second run, below the estimate
    (``benchmarks/bench_guard.py`` measures resident memory at larger goals)."""
    run()
    tracemalloc.start()
    try:
        run()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak <= estimate.bytes, (
        f"{name}: traced {peak / 2**20:.1f} MB > estimate {estimate.bytes / 2**20:.1f} MB"
    )


# --- each solver owns its estimate -----------------------------------------------------------


def test_a_moved_estimate_is_what_its_solver_refuses_with():
    """The solver checks its own estimate: the message names its task, and a limit just below
    the estimate refuses while one just above lets the check pass."""
    own = _solver("stackelberg").estimate_memory(Rules(goal=300))
    assert own.task == "Stackelberg (exact, goal 300)" and own.states == 301**2
    with pytest.raises(MemoryLimitError, match=r"Stackelberg \(exact, goal 300\)"):
        S.stackelberg(rules=Rules(goal=300), max_memory=own.bytes - 1)
    assert check_memory(own, own.bytes) is own
    sym = _solver("symmetric").estimate_memory(Rules(goal=60, players=4))
    with pytest.raises(MemoryLimitError, match="symmetric equilibrium"):
        S.symmetric_equilibrium(rules=Rules(goal=60, players=4), max_memory=sym.bytes - 1)
    # the astronomical refusal keeps each solver's label
    huge = _solver("grid").estimate_memory(Rules(goal=100, players=200))
    assert huge.task == "grid (goal 100, 200 players)" and huge.bytes == 2**200
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert guard.with_roll_model is not None and guard.BASE_BYTES == 8 * 2**20
