"""The cost of one exact n-player best response against the number of states (Zhu et al. 2023:
O(100^n)): candidate thresholds compared and the memory estimate, which do not depend on the
machine (the measured times are in analyses/TIMINGS.md). Writes ``paper_figures/scaling.png``/``.pdf``."""

from __future__ import annotations

from analyses.z23._scaling_data import measurements
from analyses.z23.scaling import counted
from paper_figures._common import save
from pigtheory.plots import plot_scaling


def main() -> None:
    save(plot_scaling(counted(measurements())), "scaling")


if __name__ == "__main__":
    main()
