"""The jobs of ``make claims`` and ``make figures`` on a process pool (analyses/_schedule.py,
analyses/_plan.py): the order of the jobs, their dependencies, errors, and a report that is
the same, byte for byte, whether the analyses ran on one process or on two."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from analyses import _plan, run_all
from analyses._claims import recorded_tables, recorded_times
from analyses._schedule import Job, critical_path, makespan, order, run_jobs
from paper_figures import make_all

ROOT = Path(__file__).resolve().parents[2]

# --- a package of fake analyses, importable by the pool's fresh processes ----------------------

HELPERS = """
import time
from pathlib import Path


def sleep_then_write(seconds, path, text):
    time.sleep(seconds)
    Path(path).write_text(text)
    return text


def read(path):
    return Path(path).read_text()


def fail(message):
    raise RuntimeError(message)
"""

ANALYSIS = """
import time

from analyses._claims import Row, record_table, record_time

def main():
    time.sleep({sleep})
    record_time("{name}: measured", {sleep})
    record_table("{name} table", "| a |\\n|---|\\n| {name} |")
    rows = [Row(cid, "src", "claim of {name}", "1", "1", "reproduced") for cid in {ids}]
    return {out}
"""


@pytest.fixture
def fake(tmp_path, monkeypatch):
    """A package ``fakeclaims`` of analyses (``fakeclaims.z.<name>``) and job helpers."""
    root = tmp_path / "fakeclaims"
    (root / "z").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "z" / "__init__.py").write_text("")
    (root / "helpers.py").write_text(textwrap.dedent(HELPERS))
    # the first analyses sleep longest, so that on two processes they finish last; rows of
    # one claim id come from several analyses, in the order of the analyses
    specs = {
        "a_first": (0.8, ["V.2", "Z23.10", "N.1"], True),
        "b_second": (0.0, ["V.2", "Z23.2", "S.1"], False),
        "c_third": (0.4, ["V.1", "Z23.10"], True),
        "d_fourth": (0.0, ["M.1", "V.2"], True),
        "e_fifth": (0.1, ["Z22.1"], False),
    }
    for name, (sleep, ids, details) in specs.items():
        out = f'rows, "details of {name}"' if details else "rows"
        (root / "z" / f"{name}.py").write_text(ANALYSIS.format(sleep=sleep, name=name, ids=ids, out=out))
    monkeypatch.syspath_prepend(str(tmp_path))  # the pool's processes inherit sys.path
    return [f"fakeclaims.z.{name}" for name in specs]


def test_the_report_of_two_processes_is_the_serial_report_byte_for_byte(fake):
    serial_rows, serial_details, serial_times = run_all.run(fake, jobs=1)
    serial_recorded = recorded_times()
    rows, details, times = run_all.run(fake, jobs=2)
    assert run_all.report(rows, details) == run_all.report(serial_rows, serial_details)
    assert json.dumps([r.as_dict() for r in rows]) == json.dumps([r.as_dict() for r in serial_rows])
    assert list(details) == list(serial_details) == [fake[0], fake[2], fake[3]]
    assert list(times) == list(serial_times) == fake  # module order, whatever finished first
    # rows of one claim id keep the order of their analyses
    v2 = [r.claim for r in rows if r.id == "V.2"]
    assert v2 == ["claim of a_first", "claim of b_second", "claim of d_fourth"]
    # the times and tables recorded in the workers come back, in module order
    again = recorded_times()[len(serial_recorded) :]
    assert [w for w, _ in again] == [f"{n.rsplit('.', 1)[1]}: measured" for n in fake]
    assert set(recorded_tables()) >= {f"{n.rsplit('.', 1)[1]} table" for n in fake}
    text = run_all.timings(times)
    assert text.index("a_first") < text.index("e_fifth")


def test_figures_join_the_graph_of_the_claims_each_solve_once(fake, monkeypatch):
    names = run_all.modules()
    stems = make_all.figures()
    jobs = run_all.graph(names, stems)
    seen = [job.name for job in jobs]
    assert len(seen) == len(set(seen))  # a solve read by an analysis and a figure is one job
    assert set(seen) == {j.name for j in _plan.jobs(names)} | {j.name for j in make_all.jobs(stems)}
    by_name = {job.name: job for job in jobs}
    for stem in stems:  # every figure waits for the solves it reads, which are in the graph
        assert set(by_name[stem].after) == set(make_all.READS.get(stem, ()))
        assert all(a in by_name for a in by_name[stem].after)
    # serially, the figures are drawn after the analyses, in the order given
    drawn: list[str] = []
    monkeypatch.setattr(make_all, "draw", drawn.append)
    rows, _, times = run_all.run(fake[:2], jobs=1, figures=["fig_b", "fig_a"])
    assert drawn == ["fig_b", "fig_a"] and rows
    assert list(times) == ["figure: fig_b", "figure: fig_a", *fake[:2]]


def test_jobs_wait_for_the_jobs_they_read_and_return_by_name(fake, tmp_path):
    out = tmp_path / "entry.txt"
    jobs = [
        Job("reader", "fakeclaims.helpers:read", (str(out),), after=("writer",), cost=1),
        Job("writer", "fakeclaims.helpers:sleep_then_write", (0.5, str(out), "solved"), cost=1),
        Job("other", "fakeclaims.helpers:sleep_then_write", (0.0, str(tmp_path / "o"), "x"), cost=5),
    ]
    done = run_jobs(jobs, workers=2, log=None)
    assert {name: value for name, (value, _) in done.items()} == {
        "reader": "solved",
        "writer": "solved",
        "other": "x",
    }
    assert run_jobs(jobs, workers=1, log=None)["reader"][0] == "solved"


def test_a_failing_job_stops_the_jobs_waiting_for_it(fake, tmp_path):
    never = tmp_path / "never.txt"
    jobs = [
        Job("bad", "fakeclaims.helpers:fail", ("the solve broke",)),
        Job("after bad", "fakeclaims.helpers:sleep_then_write", (0, str(never), "x"), after=("bad",)),
    ]
    with pytest.raises(RuntimeError, match="the solve broke") as info:
        run_jobs(jobs, workers=2, log=None)
    assert any("bad" in note for note in getattr(info.value, "__notes__", []))
    assert not never.exists()


def test_the_longest_chain_starts_first():
    jobs = [
        Job("small", "m:f", cost=3),
        Job("solve", "m:f", cost=10),
        Job("certificate", "m:f", after=("solve",), cost=10),
        Job("big alone", "m:f", cost=15),
        Job("report", "m:f", after=("certificate", "small"), cost=1),
    ]
    level = critical_path(jobs)
    assert level == {"small": 4, "solve": 21, "certificate": 11, "big alone": 15, "report": 1}
    assert order(jobs) == ["solve", "big alone", "certificate", "small", "report"]


@pytest.mark.parametrize(
    ("jobs", "message"),
    [
        ([Job("a", "m:f", after=("b",)), Job("b", "m:f", after=("a",))], "cycle"),
        ([Job("a", "m:f", after=("nobody",))], "unknown"),
        ([Job("a", "m:f"), Job("a", "m:f")], "two jobs"),
        ([Job("a", "no colon")], "module:function"),
    ],
)
def test_bad_job_graphs_are_refused_before_anything_runs(jobs, message):
    with pytest.raises(ValueError, match=message):
        run_jobs(jobs, workers=2, log=None)
    with pytest.raises(ValueError, match="workers"):
        run_jobs([Job("a", "m:f")], workers=0, log=None)


# --- the real plan ----------------------------------------------------------------------------

READERS = re.compile(
    r"\b(symmetric|certificate|dynamics|self_play_data|self_play_seconds|stackelberg_data|"
    r"stackelberg_seconds|equilibrium_data|equilibrium_policy|grid_data|grid_seconds|"
    r"stopping_equilibrium_data|stopping_classes_data|measurements|solved|first_player_wins|"
    r"first_player|optimal_vs_hold_at|two_player_opening|sweep_data)\("
)


def test_the_plan_names_real_analyses_solves_and_figures():
    names = run_all.modules()
    assert _plan.check_plan(names) == []
    stems = make_all.figures()
    assert set(make_all.READS) <= set(stems)
    solves = {job.name for job in _plan.SOLVES}
    for reads in (*_plan.READS.values(), *make_all.READS.values()):
        assert set(reads) <= solves
    jobs = _plan.jobs(names)
    assert [j.name for j in jobs if j.call == "analyses.run_all:run_module"] == names
    critical_path(jobs)  # no cycle
    critical_path(make_all.jobs(stems))


def _code(path: Path) -> str:
    text = path.read_text()
    return text.split('"""', 2)[-1] if text.startswith('"""') else text


def test_every_analysis_and_figure_that_reads_a_cached_solve_waits_for_it():
    # an analysis (or figure) calling a cached solve that is not in the plan would solve it
    # itself, maybe at the same time as another process
    missing = []
    for name in run_all.modules():
        if READERS.search(_code(ROOT / (name.replace(".", "/") + ".py"))) and name not in _plan.READS:
            missing.append(name)
    for stem in make_all.figures():
        if READERS.search(_code(ROOT / "paper_figures" / f"{stem}.py")) and stem not in make_all.READS:
            missing.append(stem)
    assert missing == []


def test_the_estimated_schedule_keeps_both_workers_busy_and_honours_the_order():
    jobs = [
        Job("small", "m:f", cost=3),
        Job("solve", "m:f", cost=10),
        Job("certificate", "m:f", after=("solve",), cost=10),
        Job("big alone", "m:f", cost=15),
        Job("report", "m:f", after=("certificate", "small"), cost=1),
    ]
    total, plan = makespan(jobs, 2)
    # solve and big alone start at once; small follows big alone (15..18) while the
    # certificate runs (10..20); the report waits for both
    assert plan["solve"][1:] == (0, 10) and plan["big alone"][1:] == (0, 15)
    assert plan["certificate"][1:] == (10, 20) and plan["small"][1:] == (15, 18)
    assert plan["report"][1:] == (20, 21) and total == 21
    assert makespan(jobs, 1)[0] == sum(j.cost for j in jobs)
