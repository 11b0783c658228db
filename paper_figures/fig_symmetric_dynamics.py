"""Three players, goal 100: exploitability over the iterations of best-response dynamics
(undamped and damped) and fictitious play on the whole game, beside the backward-induction
equilibrium. Writes ``paper_figures/symmetric_dynamics.png``/``.pdf``."""

from __future__ import annotations

from analyses.z23._symmetric_data import DYNAMICS, certificate, dynamics, symmetric
from paper_figures._common import save
from pigtheory.plots import plot_dynamics


def main() -> None:
    runs = {label: dynamics(label) for label in DYNAMICS}
    br, br_seconds = certificate(3)
    seconds = {label: secs for label, (_, secs) in runs.items()}
    seconds["backward induction"] = symmetric(3)[1] + br_seconds
    save(
        plot_dynamics({k: run for k, (run, _) in runs.items()}, br.exploitability, seconds),
        "symmetric_dynamics",
    )


if __name__ == "__main__":
    main()
