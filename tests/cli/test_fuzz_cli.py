"""Fuzzing the command line: random argument vectors built from every command, option and
kind of value (valid, out of range, malformed, huge; policy files good and bad).

The only outcomes allowed are a result (status 0, numbers on stdout) or a clear error: status
1 or 2 with one line on stderr, never a traceback or an internal error. Every run carries
``--max-memory 16M``, so a huge input must be refused by the guard rather than tried, and the
values of ``--goal`` are small or huge, so that the whole run stays within seconds.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pigtheory import Rules, hold_at
from pigtheory.cli import main
from pigtheory.io import write_policy
from pigtheory.simultaneous import equilibrium

COMMANDS = [
    "turn-total",
    "win-probability",
    "best-response",
    "sequential",
    "compare",
    "limit",
    "equilibrium",
    "self-play",
    "stackelberg",
    "exploitability",
    "no-such-command",
]
OPTIONS = [
    "--goal", "--players", "--dice", "--double-trouble", "--piglet", "--n-max", "--show", "--exact",
    "--json", "--method", "--tol", "--max-iter", "--order", "--sweep", "--opponent", "--out",
    "--output", "--max-memory", "--debug", "--nope",
]  # fmt: skip
NUMBERS = [
    "-1",
    "0",
    "1",
    "2",
    "3",
    "5",
    "8",
    "1000000",
    "10000000000000",
    "nan",
    "inf",
    "1e-300",
    "0.5",
    "x",
    "",
]
WORDS = [
    "hold-at-3", "hold-at-0", "hold-at-x", "optimal", "scoring-turns-2", "pace-race", "base-pace-race-1-2-3",
    "exact", "value_iteration", "increasing", "jacobi", "16M", "1", "lots",
]  # fmt: skip


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Policy files (valid for goal 8, valid for other goals, broken) and output names."""
    d = tmp_path_factory.mktemp("cli-fuzz")
    rules = Rules(goal=8)
    write_policy(hold_at(3), d / "h8.csv", rules=rules)
    write_policy(hold_at(3), d / "h8.npy", rules=rules)
    write_policy(equilibrium(rules=rules).policy, d / "eq8.json", rules=rules)
    write_policy(hold_at(3), d / "h5.json", rules=Rules(goal=5))
    (d / "broken.json").write_text('{"kind": "mixed", "version": 1, "arrays": {"thresholds": [[1]]}}')
    (d / "ragged.csv").write_text("own,other,threshold\n0,0,1\n0,1\n")
    (d / "junk.npy").write_bytes(b"\x93NUMPY junk")
    names = [
        str(d / n)
        for n in ("h8.csv", "h8.npy", "eq8.json", "h5.json", "broken.json", "ragged.csv", "junk.npy")
    ]
    outs = [
        str(d / n) for n in ("out.json", "out.csv", "out.npy", "out.txt", "sub/out.json", "h8.csv/x.json")
    ]
    return names, outs


@pytest.fixture(autouse=True, scope="module")
def cache_folder(tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PIGTHEORY_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        yield


def argv_strategy(files):
    names, outs = files
    token = st.one_of(
        st.sampled_from(OPTIONS),
        st.sampled_from(NUMBERS),
        st.sampled_from(WORDS),
        st.sampled_from(names),
        st.sampled_from(outs),
        st.text(max_size=4),
    )
    return st.tuples(st.sampled_from(COMMANDS), st.lists(token, max_size=8)).map(
        lambda t: [t[0], *t[1], "--max-memory", "16M"]
    )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_command_lines(capsys, files, data):
    argv = data.draw(argv_strategy(files))
    # every line ends with --max-memory 16M, which bounds the work a command may start (tests
    # never fail on wall-clock time: a loaded machine made this take 44 s once)
    status = main(argv)
    out, err = capsys.readouterr()
    assert status in (0, 1, 2), (argv, status)
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    errors = [line for line in err.splitlines() if ": warning: " not in line]
    if status == 0:
        assert out.strip() and errors == [], (argv, out, err)
    else:
        assert len(errors) == 1 and "error: " in errors[0], (argv, err)


def test_fuzz_vocabulary_reaches_results_and_both_errors(capsys, files):
    """The vocabulary above can produce all three outcomes (so the test above can fail)."""
    names, _ = files
    statuses = {
        main(["win-probability", names[0], "hold-at-3", "--goal", "8", "--max-memory", "16M"]),
        main(["win-probability", names[3], "hold-at-3", "--goal", "8", "--max-memory", "16M"]),
        main(["equilibrium", "--goal", "1000000", "--max-memory", "16M"]),
    }
    capsys.readouterr()
    assert statuses == {0, 1, 2}
