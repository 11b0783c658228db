"""Three players, goal 100: exploitability over the iterations of best-response dynamics
(undamped and damped) and fictitious play on the whole game, beside the backward-induction
equilibrium. Writes ``paper_figures/symmetric_dynamics.png``/``.pdf``.

The legend has no run times and exploitabilities below 1e-13 (rounding noise of the exact
methods, whose last bits differ between machines) are drawn at that floor, so that the figure
is the same on every machine; the times are those of analyses/TIMINGS.md."""

from __future__ import annotations

import dataclasses

from analyses.z23._symmetric_data import DYNAMICS, certificate, dynamics
from paper_figures._common import save, stable
from pigtheory.plots import plot_dynamics

FLOOR = 1e-13  # far above rounding noise (a few 1e-16), far below what the dynamics reach


def main() -> None:
    # the exploitabilities rounded to 9 digits: not the last bits of the machine's arithmetic
    runs = {label: dynamics(label)[0] for label in DYNAMICS}
    runs = {label: dataclasses.replace(run, epsilon=stable(run.epsilon)) for label, run in runs.items()}
    br = certificate(3)[0]
    save(plot_dynamics(runs, br.exploitability, floor=FLOOR), "symmetric_dynamics")


if __name__ == "__main__":
    main()
