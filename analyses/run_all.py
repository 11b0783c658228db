"""Compute every published claim and write analyses/REPORT.md and analyses/results.json.

Imports each ``analyses/<paper>/<claim>.py`` (files starting with ``_`` are helpers), calls
its ``main()``, and tabulates the rows. ``python analyses/run_all.py [substring ...]`` (or
``python -m analyses.run_all``) runs only the modules whose path contains one of the
substrings (the report is then not written). ``--figures`` draws every figure too, on the
same processes (``make figures``).

``--workers N`` (``--jobs``, ``-j``; default: every core, or ``$PIGTHEORY_WORKERS``) runs the
analyses on a local pool of N processes: every cached solve they read is a job of its own and
each analysis runs after the solves it reads, the longest chains of work first
(:mod:`analyses._plan`, :mod:`analyses._schedule`); the report is put together in module
order, byte for byte what ``--workers 1`` (everything in this process, one module after the
other) writes. With ``--scheduler ADDRESS`` (``$PIGTHEORY_SCHEDULER``, so that ``make claims``
can be pointed at a cluster) the analyses run here, one after the other, and those whose
``main`` takes ``executor=`` send their independent solves to that Dask scheduler.

The report and ``results.json`` hold no wall-clock times, so running this twice leaves them
unchanged; how long each module took, and the times the scripts recorded
(:func:`analyses._claims.record_time`), go to ``analyses/TIMINGS.md``, which git ignores.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import platform
import re
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from analyses import _plan
from analyses._claims import Row, record_table, record_time, recorded_tables, recorded_times
from analyses._schedule import Job, add_workers_option, run_jobs
from pigtheory.io import atomic_write
from pigtheory.parallel import dask_client

HERE = Path(__file__).resolve().parent

PAPERS = {
    "z23": "Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): simultaneous Pig",
    "z22": "Zhu & Ma, Stats 5 (2022): two-dice Pig and Double Trouble",
    "neller": "Neller & Presser: optimal play of Pig and Piglet",
    "poster": "Poster: single-player thresholds",
    "supersix": "Super Six blog post",
    "multiplayer": "Extensions: multiplayer sequential Pig (no paper; issue 21)",
}


def _natural(s: str) -> list:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]


def modules(only: list[str] | None = None) -> list[str]:
    names = []
    for path in sorted(HERE.glob("*/*.py")):
        if path.name.startswith("_") or path.parent.name.startswith("_"):
            continue
        rel = path.relative_to(HERE.parent).with_suffix("")
        if only and not any(o in str(rel) for o in only):
            continue
        names.append(".".join(rel.parts))
    return names


def run_module(name: str, executor: Any = None) -> tuple[list[Row], str | None, float, list, dict[str, str]]:
    """Run the analysis ``name``: its rows, its details (or None), its seconds, and the times
    and tables it recorded for ``analyses/TIMINGS.md``."""
    n_times, tables = len(recorded_times()), recorded_tables()
    t0 = time.perf_counter()
    main = importlib.import_module(name).main
    takes = "executor" in inspect.signature(main).parameters
    out = main(executor=executor) if takes else main()
    seconds = time.perf_counter() - t0
    md = None
    if isinstance(out, tuple):
        out, md = out
    new_tables = {k: v for k, v in recorded_tables().items() if tables.get(k) != v}
    return list(out), md, seconds, recorded_times()[n_times:], new_tables


def run(
    names: list[str], executor: Any = None, jobs: int = 1, figures: list[str] = ()
) -> tuple[list[Row], dict[str, str], dict[str, float]]:
    """Run the analyses ``names``; their rows (sorted by claim id), details and seconds.

    ``jobs`` > 1 runs them on that many processes (:mod:`analyses._plan`: every cached solve
    a job of its own, each analysis after the solves it reads, the longest chains first);
    the rows, details and recorded times are then put together in the order of ``names``, so
    the report is the same, byte for byte, as one written by a serial run.

    ``figures`` (stems of ``paper_figures/fig_*.py``) are drawn too, on the same processes:
    each figure after the solves it reads (:data:`paper_figures.make_all.READS`), so that a
    figure fills a process the analyses leave idle; serially, after the analyses.
    """
    rows: list[Row] = []
    details: dict[str, str] = {}
    times: dict[str, float] = {}
    drawn = set(figures)
    if jobs > 1:
        done = run_jobs(graph(names, figures), workers=jobs, log=_log_job)
        outputs = {name: done[name][0] for name in names}
        for name, (_, seconds) in done.items():
            if name not in outputs:
                times[f"{'figure' if name in drawn else 'solve'}: {name}"] = seconds
    else:
        outputs = {}
        for name in names:
            outputs[name] = run_module(name, executor)
            print(f"# {name}: {len(outputs[name][0])} rows in {outputs[name][2]:.1f} s", flush=True)
        if figures:
            from paper_figures import make_all

            for stem in figures:
                t0 = time.perf_counter()
                make_all.draw(stem)
                times[f"figure: {stem}"] = time.perf_counter() - t0
                print(f"# {stem}: {times[f'figure: {stem}']:.1f} s", flush=True)
    for name in names:
        out, md, seconds, recorded, tables = outputs[name]
        times[name] = seconds
        if md is not None:
            details[name] = md
        rows.extend(out)
        if jobs > 1:  # recorded in the workers: bring them here, for TIMINGS.md
            for what, sec in recorded:
                record_time(what, sec)
            for title, md_table in tables.items():
                record_table(title, md_table)
    rows.sort(key=lambda r: _natural(r.id))
    return rows, details, times


def graph(names: list[str], figures: list[str] = ()) -> list[Job]:
    """The jobs of the analyses ``names`` (:func:`analyses._plan.jobs`) and of the figures
    ``figures`` (:func:`paper_figures.make_all.jobs`), each cached solve once."""
    out = _plan.jobs(names)
    if figures:
        from paper_figures import make_all

        known = {job.name for job in out}
        out += [job for job in make_all.jobs(list(figures)) if job.name not in known]
    return out


def _log_job(line: str) -> None:
    print(line, flush=True)


def report(rows: list[Row], details: dict[str, str]) -> str:
    counts = {
        s: sum(r.status == s for r in rows) for s in ("reproduced", "differs", "not computable", "extension")
    }
    out = [
        "# Claims report",
        "",
        "Generated by `make claims` (`analyses/run_all.py`); do not edit by hand. Every number under",
        "*ours* is computed by the script named in the details; the paper's numbers are quoted from",
        "`../shared/CLAIMS.md` and the sources in `../shared/seeds/`.",
        "",
        f"**{len(rows) - counts['extension']} published claims: {counts['reproduced']} reproduced, "
        f"{counts['differs']} differ, {counts['not computable']} not computable; plus "
        f"{counts['extension']} rows of our own results beyond the papers (status *extension*).**",
        "",
    ]
    from analyses.certified import certified_cell, certified_cells

    proofs = certified_cells()
    orphans = sorted({r.id for r in rows if _paper_of(r.id) not in PAPERS})
    if orphans:
        raise ValueError(f"claim ids of no paper in PAPERS: {orphans}")
    for key, title in PAPERS.items():
        sub = [r for r in rows if _paper_of(r.id) == key]
        if not sub:
            continue
        out += [
            f"## {title}",
            "",
            "| id | claim | paper | ours | status | certified | note |",
            "|---|---|---|---|---|---|---|",
        ]
        for r in sub:
            cells = [
                r.id,
                r.claim,
                r.paper,
                r.ours,
                f"**{r.status}**" if r.status in ("differs", "not computable") else r.status,
                certified_cell(proofs, r.id, r.claim),
                r.note,
            ]
            out.append("| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |")
        out.append("")
    if details:
        out += ["## Details", ""]
        for name, md in details.items():
            out += [f"### `{name.replace('.', '/')}.py`", "", md.rstrip(), ""]
    return "\n".join(out) + "\n"


def _paper_of(claim_id: str) -> str:
    prefix = claim_id.split(".")[0].upper()
    return {
        "Z23": "z23",
        "Z22": "z22",
        "N": "neller",
        "V": "poster",
        "S": "supersix",
        "M": "multiplayer",
    }.get(prefix, "")


def executor_from(args: argparse.Namespace, stack: ExitStack) -> Any:
    """A Dask client for ``--scheduler``, else None (one process: the analyses' solves run in
    it; several: the analyses and their solves are the jobs of the pool, :func:`run`)."""
    if args.scheduler:
        return stack.enter_context(dask_client(args.scheduler))
    return None


def timings(times: dict[str, float]) -> str:
    """``analyses/TIMINGS.md``: seconds per module and the times the scripts recorded."""
    out = [
        "# Timings of the last `analyses/run_all.py`",
        "",
        f"Python {platform.python_version()} on {platform.machine()}; not under version control.",
        "",
        "| module | seconds |",
        "|---|---|",
        *(f"| `{name}` | {sec:.1f} |" for name, sec in times.items()),
        "",
        "| what | seconds |",
        "|---|---|",
        *(f"| {what} | {sec:.2f} |" for what, sec in recorded_times()),
    ]
    for title, md in recorded_tables().items():
        out += ["", f"## {title}", "", md.rstrip()]
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Compute every claim; write REPORT.md and results.json.")
    parser.add_argument("only", nargs="*", help="run only the modules whose path contains one of these")
    add_workers_option(parser, "local processes for the analyses and their solves")
    parser.add_argument(
        "--scheduler",
        default=os.environ.get("PIGTHEORY_SCHEDULER") or None,
        help="address of a running Dask scheduler (default: $PIGTHEORY_SCHEDULER); overrides --workers",
    )
    parser.add_argument(
        "--figures",
        action="store_true",
        help="draw every figure too (paper_figures/fig_*.py), on the same processes (make figures)",
    )
    args = parser.parse_args(argv)
    only = args.only or None
    if args.figures and only:
        parser.error("--figures draws every figure: give no module names with it")
    drawn: list[str] = []
    if args.figures:
        from paper_figures import make_all

        drawn = make_all.figures()
    with ExitStack() as stack:
        executor = executor_from(args, stack)
        jobs = 1 if executor is not None else args.workers
        rows, details, times = run(modules(only), executor, jobs=jobs, figures=drawn)
    if only:
        return 0
    atomic_write(HERE / "TIMINGS.md", lambda tmp: Path(tmp).write_text(timings(times)))
    atomic_write(HERE / "REPORT.md", lambda tmp: Path(tmp).write_text(report(rows, details)))
    payload = {"claims": [r.as_dict() for r in rows]}
    atomic_write(
        HERE / "results.json", lambda tmp: Path(tmp).write_text(json.dumps(payload, indent=1) + "\n")
    )
    print(
        f"wrote analyses/REPORT.md, analyses/results.json ({len(rows)} claims) and analyses/TIMINGS.md "
        f"({sum(times.values()):.1f} s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
