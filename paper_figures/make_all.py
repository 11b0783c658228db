"""Regenerate every figure: run ``main()`` of each ``paper_figures/fig_*.py``.

``python paper_figures/make_all.py [substring ...]`` runs only the matching scripts.
``--workers N`` (``--jobs``, ``-j``; default: every core, or ``$PIGTHEORY_WORKERS``) draws them
on N processes, the slowest first. The cached solves that several figures read (the same
entries as the claims report's, :mod:`analyses._plan`) are jobs of their own that run before
the figures that read them, so that no two processes solve one entry at once; after ``make
claims`` they only load. Each figure writes its own files, the same bytes whichever process
draws it.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

from analyses import _plan
from analyses._schedule import Job, add_workers_option, run_jobs

HERE = Path(__file__).resolve().parent

READS: dict[str, tuple[str, ...]] = {
    "fig_cycling_states": (_plan.SP, _plan.EQUILIBRIUM),
    "fig_equilibrium_mixing": (_plan.EQUILIBRIUM,),
    "fig_hold_at_sweep": (_plan.SWEEP,),
    "fig_scaling": (_plan.SCALING,),
    "fig_seq_hold_at": tuple(_plan.HOLD_AT.values()),
    "fig_seq_multiplayer": tuple(
        _plan.SEQUENTIAL[case] for case in _plan.SEQUENTIAL if case[1] == 12 or case[:2] == (3, 100)
    ),
    "fig_seq_two_dice_boundary": (_plan.HOLD_AT[False],),
    "fig_seq_two_dice_goal": tuple(_plan.FIRST_PLAYER.values()),
    "fig_stackelberg": (_plan.STACKELBERG["exact"],),
    "fig_stopping_rules": (_plan.STOPPING,),
    "fig_symmetric_dynamics": (*_plan.DYNAMICS.values(), _plan.CERTIFICATE[3, 100]),
    "fig_symmetric_mixed": (_plan.SYMMETRIC[3, 100],),
    "fig_symmetric_opening": (_plan.SYMMETRIC[3, 100], _plan.SYMMETRIC[4, 100], _plan.EQUILIBRIUM),
    "fig_symmetric_values": (_plan.SYMMETRIC[3, 100],),
    "fig_three_player_grid": (_plan.GRID,),
}
"""For each figure, the cached solves it reads (it is drawn after them)."""

COST: dict[str, float] = {
    "fig_learning": 31,
    "fig_seq_one_die_practical": 12,
}
"""Seconds of a figure once its solves are cached (the others take a few seconds)."""


def figures(only: list[str] | None = None) -> list[str]:
    """The figure scripts' names (``fig_*``), sorted; only those containing a word of ``only``."""
    return [
        path.stem
        for path in sorted(HERE.glob("fig_*.py"))
        if not only or any(word in path.stem for word in only)
    ]


def draw(stem: str) -> None:
    """Run ``paper_figures/<stem>.py``'s ``main()``."""
    importlib.import_module(f"paper_figures.{stem}").main()


def jobs(stems: list[str]) -> list[Job]:
    """The cached solves the figures ``stems`` read, then the figures."""
    reads = [solve for stem in stems for solve in READS.get(stem, ())]
    solves = _plan.jobs_for(reads)
    return solves + [
        Job(stem, "paper_figures.make_all:draw", (stem,), READS.get(stem, ()), COST.get(stem, 3.0))
        for stem in stems
    ]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Draw every figure (paper_figures/fig_*.py).")
    parser.add_argument("only", nargs="*", help="draw only the figures whose name contains one of these")
    add_workers_option(parser, "processes")
    args = parser.parse_args(argv)
    stems = figures(args.only or None)
    if args.workers == 1:  # here, one after the other, in name order
        for stem in stems:
            t0 = time.perf_counter()
            draw(stem)
            print(f"{stem}: {time.perf_counter() - t0:.1f} s", flush=True)
        return 0
    run_jobs(jobs(stems), workers=args.workers, log=lambda line: print(line, flush=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
