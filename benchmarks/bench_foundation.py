"""Foundation benchmarks: the X_k table, exact policy evaluation, and the simulator.

Each line prints the median wall time of repeated runs and a ratio against a baseline timed
in the same process:

* ``turn_total_table`` (floats, one vectorised pass) against the exact ``Fraction``
  distributions of every k = 1..100 computed one at a time;
* ``win_probability`` at goal 200 against goal 100 (4x the states: a ratio near 4 means the
  level-by-level induction scales with the number of states);
* exact ``win_probability`` at goal 100 against simulating 10^5 games of the same profile.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._timing import median_time  # noqa: E402
from pigtheory import Rules, hold_at, turn_total, turn_total_table  # noqa: E402
from pigtheory.simulate import play_simultaneous as simulate  # noqa: E402
from pigtheory.simultaneous import win_probability  # noqa: E402


def _table_uncached(goal: int) -> object:
    turn_total_table.cache_clear()
    return turn_total_table(Rules(goal=goal))


def _line(name: str, seconds: float, baseline: str | None = None, ratio: float | None = None) -> None:
    extra = f"   ratio {ratio:8.2f}  ({baseline})" if ratio is not None else ""
    print(f"{name:46s} {seconds * 1e3:10.2f} ms{extra}", flush=True)


def main() -> None:
    table = median_time(lambda: _table_uncached(100), 50)
    exact = median_time(lambda: [turn_total(k, exact=True) for k in range(1, 101)], 3)
    _line("turn_total_table, goal 100", table)
    _line("exact turn_total, k = 1..100", exact, "exact / table", exact / table)

    a, b = hold_at(25), hold_at(20)
    wp100 = median_time(lambda: win_probability(a, b, rules=Rules(goal=100)), 7)
    wp200 = median_time(lambda: win_probability(a, b, rules=Rules(goal=200)), 5)
    _line("win_probability, goal 100", wp100)
    _line("win_probability, goal 200", wp200, "goal 200 / goal 100; states x4", wp200 / wp100)

    sim = median_time(lambda: simulate([a, b], games=100_000, rng=0), 3)
    _line("simulate 10^5 games, goal 100", sim, "simulate / exact", sim / wp100)


if __name__ == "__main__":
    main()
