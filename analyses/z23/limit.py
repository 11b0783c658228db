"""n players, n -> infinity: everybody holding at the goal (claims Z23.20, Z23.21).

(Z23.19, P(X_100 >= 100), is reported once, exactly, by ``analyses/z23/turn_totals.py``;
``limit()`` uses the same number as ``p_finish``.)

Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023), "Infinite number of players":

* Z23.19: "a player using the strategy 'hold at 100' will have 1 - 0.9898 = 1.02% chance to
  win the game in one turn", i.e. P(X_100 >= 100) = 1.02%.
* Z23.20: "the Nash equilibrium is that every player will select the 'hold at 100' strategy
  when there are infinite number of players."
* Z23.21: "when n is greater than or equal to 99, we have 1/99 ~ 1.01% < 1.02%. As long as the
  number of players exceed 98, then every player should only consider the 'hold at 100'
  strategy."

Ours: :func:`pigtheory.simultaneous.limit` solves, for every n up to 1000, the best response
of one player when the n - 1 others hold at 100 (they stay at 0 until someone finishes, so the
state is the player's own score; ties share 1/m over the binomial number of simultaneous
finishers). Everybody holding at 100 is a symmetric Nash equilibrium exactly when no policy
beats 1/n; ``smallest_n`` is the first n from which this holds for every larger n <= 1000.
"""

from __future__ import annotations

from analyses._claims import DIFFERS, REPRODUCED, Row, print_rows
from pigtheory import turn_total_table
from pigtheory.simultaneous import limit

SOURCE = "Zhu et al. 2023 (Sci. Rep.), Infinite number of players"
N_MAX = 1000
CLAIMS = [
    ("Z23.20", SOURCE, "everybody holding at 100 is the Nash equilibrium as n -> infinity", None),
    ("Z23.21", SOURCE, 99, 0),
]


def main():
    res = limit(n_max=N_MAX)
    t = turn_total_table()
    p = res.p_finish
    # As n -> infinity the game ends after the first turn: a deviation can only win by
    # finishing at once, with a threshold k < 100 (X_k >= 100 needs k >= 95).
    first_turn = max(1.0 - t.bust[k] - t.band[k, : max(0, 100 - k)].sum() for k in range(95, 100))
    ratio_limit = first_turn / p
    n = res.n
    dev_n = n * res.deviation_value
    pays = res.deviation_value > res.hold_value + 1e-13
    monotone_after = bool((~pays[res.row(res.smallest_n) :]).all()) if res.smallest_n else False
    rows = [
        Row(
            "Z23.20",
            SOURCE,
            "n -> infinity: everybody holding at 100 is a (symmetric) Nash equilibrium",
            "yes",
            "yes" if monotone_after else "no",
            REPRODUCED if monotone_after else DIFFERS,
            f"no policy beats 1/n for every n = {res.smallest_n}..{N_MAX}; n x (best deviation) falls from "
            f"{dev_n[res.row(res.smallest_n)]:.4f} at n = {res.smallest_n} to {dev_n[-1]:.4f} at n = {N_MAX} and tends to "
            f"max_k<100 P(X_k >= 100) / P(X_100 >= 100) = {ratio_limit:.4f} < 1",
        ),
        Row(
            "Z23.21",
            SOURCE,
            "smallest number of players from which everybody should hold at 100",
            "99",
            str(res.smallest_n),
            REPRODUCED if res.smallest_n == 99 else DIFFERS,
            f"exact: from n = {res.smallest_n} on no deviation beats 1/n (at n = {res.smallest_n - 1} the best deviation, "
            f"hold at {int(res.deviation_threshold[res.row(res.smallest_n - 1)])} first, wins "
            f"{res.deviation_value[res.row(res.smallest_n - 1)]:.5f} > 1/{res.smallest_n - 1}). The paper's 99 is where "
            f"1/n < P(X_100 >= 100) = {p:.5f} (1/98 = {1 / 98:.5f}, 1/99 = {1 / 99:.5f}): a bound for a different "
            "statement (a player among n who all play some other common strategy gains by switching to hold at 100), "
            "not the threshold at which holding at 100 becomes an equilibrium",
        ),
    ]
    show = [2, 3, 5, 10, 20, 30, 40, 50, 55, 58, 59, 60, 80, 98, 99, 100, 200, 500, 1000]
    lines = [
        "| n | 1/n | best deviation | its first threshold | n x deviation | deviation pays |",
        "|---|---|---|---|---|---|",
    ]
    for k in show:
        r = res.row(k)
        lines.append(
            f"| {k} | {res.hold_value[r]:.6f} | {res.deviation_value[r]:.6f} | {int(res.deviation_threshold[r])} | "
            f"{dev_n[r]:.4f} | {'yes' if pays[r] else 'no'} |"
        )
    md = (
        f"One player against n - 1 players holding at 100 (exact, all n <= {N_MAX} in one pass). "
        f"P(X_100 >= 100) = {p:.6f}; smallest n = {res.smallest_n}.\n\n" + "\n".join(lines)
    )
    print_rows(rows)
    return rows, md


if __name__ == "__main__":
    main()
