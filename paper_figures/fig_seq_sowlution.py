"""One-die Pig, optimal play: the roll/hold boundary (Neller & Presser's "Pig sow-lution").

For every (own score i, opponent's score j) the turn total at which the optimal player first
holds, as a surface and as contours.
"""

from __future__ import annotations

from paper_figures._common import save
from pigtheory import Rules
from pigtheory.plots import plot_hold_boundary
from pigtheory.sequential import solve


def main() -> None:
    sol = solve(rules=Rules())
    fig = plot_hold_boundary(
        sol.hold_thresholds(), "One-die Pig, goal 100: where the optimal player first holds"
    )
    save(fig, "seq_sowlution")


if __name__ == "__main__":
    main()
