"""Every entry point is guarded: found by walking the package, not from a list.

The public API is every function in the ``__all__`` of every public module (a dotted name with
no part starting with ``_``). Each is called with one argument at a time replaced by a hostile
value of the wrong type or out of range (the other arguments small and valid, found by their
names); the call must raise ``ValueError`` (the package's word for input it refuses, memory
refusals included), never another exception, and must not start the work. A new public
function is covered as soon as it exists; one whose required arguments have names this file
does not know fails :func:`test_every_required_argument_is_known`, so that it gets covered.

The command line is walked the same way: every option of every subcommand that takes a value
gets a hostile one, and the command must exit 2 or 1 with one line on stderr.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import pigtheory
import pigtheory.runtime
from pigtheory import Rules, hold_at
from pigtheory.rules import integral

SMALL = Rules(goal=6)


def public_modules() -> list[str]:
    """Every public module but the deprecated shims (they re-export what lives elsewhere)."""
    names = ["pigtheory"]
    for info in pkgutil.walk_packages(pigtheory.__path__, "pigtheory."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        names.append(info.name)
    return sorted(names)


def _importable(name: str):
    try:
        return importlib.import_module(name)
    except ImportError:  # an optional extra that is missing: its own tests say so
        return None


def entry_points() -> dict[str, object]:
    """Every public function once (by the shallowest module that exports it)."""
    found: dict[int, tuple[str, object]] = {}
    for modname in public_modules():
        module = _importable(modname)
        if module is None:
            continue
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name, None)
            if inspect.isfunction(obj) and id(obj) not in found:
                found[id(obj)] = (f"{modname}.{name}", obj)
    return dict(sorted(found.values(), key=lambda kv: kv[0]))


# Small valid values for required arguments, by name (the package's names are conventional).
VALID = {
    "eq": lambda t: __import__("pigtheory").sequential.equilibrium(
        rules=Rules(goal=6, players=3), progress=False
    ),
    "policy": lambda t: hold_at(3),
    "policy_a": lambda t: hold_at(3),
    "policy_b": lambda t: hold_at(3),
    "opponent": lambda t: hold_at(3),
    "opponents": lambda t: hold_at(3),
    "opponents_list": lambda t: [hold_at(3)],
    "profile": lambda t: [hold_at(3), hold_at(3)],
    "rules": lambda t: SMALL,
    "k": lambda t: 3,
    "n": lambda t: 3,
    "t": lambda t: 3,
    "goal": lambda t: 6,
    "players": lambda t: 3,
    "chunk": lambda t: 10,
    "goals": lambda t: [6],
    "ns": lambda t: [3],
    "thresholds": lambda t: [3, 3],
    "path": lambda t: _tmp_policy(t),
    "out": lambda t: t / "out",
    "store": lambda t: t / "store",
    "obj": lambda t: hold_at(3),
    "name": lambda t: "hold-at-3",
    "params": lambda t: {"goal": 6},
    "compute": lambda t: lambda: hold_at(3),
    "write": lambda t: lambda tmp: open(tmp, "w").close(),
    "buffers": lambda t: [b"pig"],
    "runs": lambda t: [
        dict(players=3, goal=g, chunk=c, cpu_s=1.0 + g / 10)
        for g, c in ((10, 20), (12, 50), (14, 9), (16, 100), (9, 30))
    ],
    "fields": lambda t: {"value": 0.5},
    "seed": lambda t: 1,
    "p": lambda t: 0.5,
    "kind": lambda t: None,  # register_kind's only argument: every value tried is hostile
    "self_play_result": lambda t: pigtheory.simultaneous.self_play(rules=SMALL, max_iter=20),
    # another library's objects: OpenSpiel's pig, an environment's agent, a learner's panels
    "game": lambda t: _pig_game(),
    "player_id": lambda t: 0,
    "agent": lambda t: lambda obs: 1,
    "gap": lambda t: np.array([0.01, 0.1]),
    "panels": lambda t: [
        {
            "title": "t",
            "xlabel": "x",
            "x": [1, 10],
            "exact": [0.1, 0.01],
            "mc": [0.1, 0.0],
            "mc_se": [0.01, 0.01],
        }
    ],
    "roll": lambda t: np.ones((2, 6), dtype=bool),
    "own": lambda t: np.array([0, 3]),
    # the out-of-core runtime: a plan of two chunks, the second reading the first's block
    "plan": lambda t: pigtheory.runtime.Plan({(1, 0): set(), (0, 0): {1}}, {0: 1, 1: 1}),
    "task": lambda t: lambda block, chunk: lambda: block,
    "on_done": lambda t: lambda key, result, free: None,
    "tasks": lambda t: [{"id": "a", "i": 1}, {"id": "b", "i": 2}],
    "solve": lambda t: lambda task: {**task, "value": 0.5},
    # the file-system helpers of pigtheory.io.atomic, and the runtime's resumable tasks
    "exc": lambda t: OSError(28, "No space left on device", str(t / "x")),
    "folder": lambda t: t,
    "need": lambda t: 1000,  # runtime.check_disk: the bytes a store needs, and the solve's name
    "what": lambda t: "a solve",
    "policy_or_agent": lambda t: hold_at(3),  # PigBench: scored on the task OVERRIDE gives
    "pvec": lambda t: [0.25, 0.25, 0.25],  # learning.solve_under_die: a die of P(gain r)
    "p_bust": lambda t: 0.25,
    "value": lambda t: 3,  # rules.integral: any value is returned, converted or as it is
    # referee.horizon's bounds: a fixed seat's roll probabilities and a move limit
    "table": lambda t: np.full((SMALL.goal,) * 3, 0.5),
    "horizon": lambda t: 40,
}


def _pig_game(**params):
    """OpenSpiel's pig, goal 6 (the tests that need it skip where OpenSpiel is not installed)."""
    return pytest.importorskip("pyspiel").load_game("pig", {"winscore": 6, **params})


# Optional arguments that set the size of the work, by name: small, so that a hostile value
# that is accepted (a valid bound, a flag) costs little; outputs go to the test's folder.
SIZES = {
    "rules": lambda t: SMALL,
    "goal": lambda t: 6,
    "goals": lambda t: [6],
    "ns": lambda t: [3],
    "hold_at_n": lambda t: [3],
    "n_max": lambda t: 3,
    "games": lambda t: 20,
    "sticks": lambda t: 3,
    "max_iter": lambda t: 5,
    "max_turns": lambda t: 200,
    "checkpoints": lambda t: (2,),
    "webapp": lambda t: False,
    "cache_dir": lambda t: t / "cache",
    "out": lambda t: t / "out",
    "store": lambda t: t / "store",
    "simulations": lambda t: 10,
}

# Hostile values, by the kind of argument (a value of each is tried in each argument).
HOSTILE = [
    "goal 10",
    -1,
    10**30,
    float("nan"),
    float("inf"),
    True,
    [object()],
    {"goal": 10},
]

# Arguments that take anything by design (a title, a callable, streams, a label), or whose
# hostile values are the caller's own business: not fuzzed.
FREE = {"title", "compute", "write", "stdin", "stdout", "kwargs", "args", "task", "tag", "desc"}

# Entry points left out, with the reason.
SKIP = {
    "pigtheory.play.play_terminal": "reads a terminal; its arguments are checked in test_hostile_files",
    "pigtheory.parallel.dask_client": "connects to a Dask scheduler (tests/runtime/test_executors.py)",
    "pigtheory.parallel.local_cluster": "starts worker processes (tests/runtime/test_executors.py)",
    "pigtheory.io.clear_cache": "empties the user's cache folder when given None (tests/cli/test_cli_first_hour.py)",
}

# Modules whose functions are building blocks: they take arrays, kinds and rules that the
# public solvers and readers have built or checked already, so they are not fuzzed here.
INTERNAL = {
    "pigtheory.simultaneous.core.": "the solvers' kernels (arrays of the solvers' own making)",
    "pigtheory.simultaneous.two_player.nash.": "matrix-game kernels over payoff arrays the solvers build",
    "pigtheory.simultaneous.nplayer.level_store.": "block numbering of the chunked solver's own store",
    "pigtheory.simultaneous.nplayer.kernels.": "the column solver's kernels (arrays of the solvers' own making)",
    "pigtheory.simultaneous.nplayer.general.": "kernels of best_response against state-dependent opponents, which checks them",
    "pigtheory.simultaneous.nplayer.gathered.": "the chunk kernel of chunked_best_response, which checks it",
    "pigtheory.simultaneous.nplayer.score_sets.": "tuple ranks of the n-player solvers' own tables",
    "pigtheory.simultaneous.nplayer.chunk_task.": "one chunk of chunked_best_response, which checks it",
    "pigtheory.simultaneous.nplayer.chunked.": "helpers of chunked_best_response, which checks them",
    "pigtheory.simultaneous.symmetric.": "helpers of the symmetric solvers, which check them",
    "pigtheory.simultaneous.best_response.": "helpers of best_response, which checks them",
    "pigtheory.simultaneous.nplayer.reduced.": "helpers of best_response, which checks them",
    "pigtheory.sequential.model.": "the roll model of rules the solvers have checked",
    "pigtheory.sequential.compare.": "helpers of sequential.compare, which checks them",
    "pigtheory.sequential.two_dice.": "helpers of the two-dice solver, which checks them",
    "pigtheory.io.policy_": "the policy-file codec's parts, called by read_policy/write_policy",
    "pigtheory.io.kinds.": "the policy-kind registry, called by the readers and writers",
    "pigtheory.io.archive.": "the archive's own helpers",
    "pigtheory.play.opponents.": "opponent builders called by play.opponent, which checks them",
    "pigtheory.play.site.": "packing of opponents that play.opponent built",
    "pigtheory.play.game.": "dice of rules the game has checked",
    "pigtheory.play.terminal.": "event text of the terminal game",
    "pigtheory.plots": "figures drawn from results the solvers returned",
    "pigtheory.validation.": "the guards themselves (name= is the caller's label)",
    "pigtheory.results.": "checks run on results the package builds or has read",
    "pigtheory.progress.": "the progress bar (a display, its arguments are the package's)",
    "pigtheory.engine.": "engine choice, called with checked engines",
    "pigtheory.guard.": "the memory estimates, called with rules the solvers have checked",
    "pigtheory.policies.take_at_states": "indexing with states the solvers build",
    "pigtheory.policies.tables.": "the policy classes' own table checks, called on arrays they copied",
    "pigtheory.parallel.": "the task runner (tasks are the solvers' callables)",
    "pigtheory.play.quantize_weights": "rounding of the web app's own weight arrays",
    "pigtheory.play.turn_values": "values of a result the play module computed",
    "pigtheory.sequential.turn_matrix": "transition matrix of a roll table the solvers built",
    "pigtheory.stopping.is_threshold_rule": "judges the arrays of a stopping rule a solver returned",
    "pigtheory.cli.": "argparse builders and helpers; the command line is walked below, command by command",
    "pigtheory.display.": "text and HTML of objects the package built",
    "pigtheory.sequential.multiplayer.certificates.": "certificate kernels over arrays sequential.equilibrium built",
    "pigtheory.sequential.multiplayer.group_kernels.": "compiled loops over arrays sequential.equilibrium built",
    "pigtheory.sequential.multiplayer.certificate_kernels.": "compiled loops over arrays sequential.equilibrium built",
    "pigtheory.sequential.multiplayer.profile_kernels.": "compiled loops over arrays the referee built",
    "pigtheory.sequential.multiplayer.certify_float.enclose_values": "the arrays of a solve, built by enclose_profile",
    "pigtheory.sequential.pair_kernels.run_horizon_layers": "compiled layers over arrays the referee built",
    "pigtheory.jit.": "the compile idiom, called with the package's own kernels (tests/domain/test_jit.py)",
    "pigtheory.sequential.multiplayer.enclosure.": "ball arithmetic over a group sequential.equilibrium solved",
    "pigtheory.sequential.multiplayer.mixed_groups.": "the group solver, called by sequential.equilibrium with its own data",
    "pigtheory.sequential.multiplayer.group_solver.": "compiled loops over arrays sequential.equilibrium built",
    "pigtheory.sequential.multiplayer.mix_kernels.": "compiled loops over a mixed group sequential.equilibrium built",
    "pigtheory.sequential.multiplayer.chunk_kernels.": "compiled loops over rows a chunk task gathered from its store",
    "pigtheory.sequential.multiplayer.chunk_task.": "one chunk of the chunked equilibrium, which checks it",
    "pigtheory.sequential.multiplayer.chunked.": "the chunked equilibrium's parts, called by sequential.equilibrium(store=), which checks them",
    "pigtheory.sequential.multiplayer.group_store.": "tuple rotations of the chunked equilibrium's own store",
    "pigtheory.sequential.multiplayer.plan.groups_by_sum": "counts of the plan's own goal and players, checked by sequential.plan",
    "pigtheory.sequential.opponent_turn_values": "values of a roll table sequential.best_response built",
    "pigtheory.simultaneous.certify_classes": "classes of an equilibrium the solver returned (tests/simultaneous/stopping/test_certify.py)",
    "pigtheory.referee.evaluate.referee_estimate": "the referee's memory estimate, called with rules it has checked",
    "pigtheory.simultaneous.two_player.stackelberg.estimate_memory": "a solver's own memory estimate, called with rules it has checked",
    "pigtheory.simultaneous.two_player.self_play.estimate_memory": "a solver's own memory estimate, called with rules it has checked",
    "pigtheory.simultaneous.limit.estimate_memory": "a solver's own memory estimate, called with rules it has checked",
    "pigtheory.simultaneous.sweeps.sweep.estimate_memory": "a solver's own memory estimate, called with rules it has checked",
    "pigtheory.simultaneous.sweeps.grid.estimate_memory": "a solver's own memory estimate, called with rules it has checked",
    "pigtheory.sequential.super_six.estimate_memory": "a solver's own memory estimate, called with sticks it has checked",
    "pigtheory.length.estimate_memory": "a solver's own memory estimate, called with rules it has checked",
    "pigtheory.referee.evaluate.check_horizon": "the referee's guard of horizon= itself",
}


def _internal(name: str) -> str | None:
    for prefix, reason in INTERNAL.items():
        if name.startswith(prefix):
            return reason
    return None


def _tmp_policy(tmp_path):
    path = tmp_path / "policy.json"
    pigtheory.save(hold_at(3), path)
    return path


def _required(fn) -> list[inspect.Parameter]:
    sig = inspect.signature(fn)
    return [
        p
        for p in sig.parameters.values()
        if p.default is inspect.Parameter.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]


def covered() -> dict[str, object]:
    """The entry points fuzzed here: every one that is not skipped or internal."""
    return {k: fn for k, fn in entry_points().items() if k not in SKIP and _internal(k) is None}


def test_the_walk_finds_the_entry_points():
    points = entry_points()
    # 235 public functions when this was written (73 fuzzed; the rest kernels and helpers).
    assert len(points) >= 230, len(points)
    for name in ("pigtheory.simultaneous.best_response", "pigtheory.turn_total", "pigtheory.load"):
        assert name in points, name
        assert name in covered(), name
    assert len(covered()) >= 70, sorted(covered())
    for name in SKIP:
        assert name in points, f"{name} is skipped but no longer public"


def test_every_required_argument_is_known():
    """An entry point whose required arguments this file cannot supply would go unfuzzed."""
    unknown = {name: [p.name for p in _required(fn) if p.name not in VALID] for name, fn in covered().items()}
    unknown = {k: v for k, v in unknown.items() if v}
    assert not unknown, unknown


# Where one entry point needs another valid value than the name's usual one.
OVERRIDE = {
    "pigtheory.io.cached_arrays": {"compute": lambda t: lambda: {"a": np.arange(3)}},
    "pigtheory.referee.openspiel.from_openspiel_policy": {"policy": lambda t: _uniform_policy()},
    "pigtheory.referee.score": {"t": lambda t: "piglet"},
}


def _uniform_policy():
    from open_spiel.python import policy as osp

    return osp.UniformRandomPolicy(_pig_game())


def _arguments(fn, tmp_path, entry: str = "") -> dict[str, object]:
    sig = inspect.signature(fn)
    kwargs = {p.name: VALID[p.name](tmp_path) for p in _required(fn)}
    kwargs.update({k: make(tmp_path) for k, make in OVERRIDE.get(entry, {}).items()})
    for name, make in SIZES.items():
        if name in sig.parameters and name not in kwargs:
            kwargs[name] = make(tmp_path)
    return kwargs


def _call(fn, kwargs):
    sig = inspect.signature(fn)
    args, kw = [], {}
    for name, value in kwargs.items():
        if sig.parameters[name].kind == inspect.Parameter.POSITIONAL_ONLY:
            args.append(value)
        else:
            kw[name] = value
    return fn(*args, **kw)


def _fuzzable():
    out = []
    for name, fn in covered().items():
        params = [
            p.name
            for p in inspect.signature(fn).parameters.values()
            if p.name not in FREE and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        ]
        out += [(name, p) for p in params]
    return out


CASES = _fuzzable()


def _garbage(*args, **kwargs):
    return "garbage"


def _foreign_game():
    return pytest.importorskip("pyspiel").load_game("tic_tac_toe")


def _axes():
    from matplotlib.figure import Figure

    return Figure().subplots()


# Wrong-typed objects of the libraries the package meets (tried in every argument, like HOSTILE):
# another OpenSpiel game, OpenSpiel's pig with parameters it loads without a word (goal 0), a
# numpy generator, matplotlib axes, an array of no shape the package uses, a callable that
# answers garbage, a class where an instance is expected.
OBJECTS = {
    "tic_tac_toe": _foreign_game,
    "pig(winscore=0)": lambda: _pig_game(winscore=0),
    "Generator": lambda: np.random.default_rng(0),
    "Axes": _axes,
    "array(2,3,5)": lambda: np.zeros((2, 3, 5)),
    "callable->'garbage'": lambda: _garbage,
    "class Rules": lambda: Rules,
}


# Documented exceptions that are not about a refused argument, with the reason.
DOCUMENTED = {
    ("pigtheory.simulate.play_simultaneous", "max_turns"): (
        RuntimeError,
        "games still running: raise max_turns",
    ),
}

# Arguments that size the work: an integer between 50 and 10**12 is a valid size that costs
# time (a long simulation, a big goal), not a hostile value, so the fuzz does not draw one;
# None there means the default size (goal 100).
WORK = {
    "games",
    "n_max",
    "k",
    "n",
    "t",
    "max_iter",
    "max_turns",
    "max_passes",
    "goal",
    "sticks",
    "chunk",
    "block",
    "simulations",
    "rollouts",
    "horizon",
    "in_flight",
    "batch_size",
}


def _refuses_or_accepts(entry, fn, kwargs, shown, param=None):
    documented = DOCUMENTED.get((entry, param), (ValueError,))[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            _call(fn, kwargs)
        except (ValueError, documented):
            pass
        except Exception as exc:  # noqa: BLE001 - the point of the test
            pytest.fail(f"{entry}({shown}) raised {type(exc).__name__}: {exc}")


@pytest.mark.parametrize("entry, param", CASES, ids=[f"{e}:{a}" for e, a in CASES])
def test_a_hostile_argument_gets_a_clear_error(entry, param, tmp_path, monkeypatch):
    """Each hostile value and object in ``param``: a ValueError, or accepted as valid."""
    monkeypatch.chdir(tmp_path)  # a path-like hostile value ('goal 10') lands here
    fn = entry_points()[entry]
    base = _arguments(fn, tmp_path, entry)
    for bad in HOSTILE:
        _refuses_or_accepts(entry, fn, {**base, param: bad}, f"{param}={bad!r:.40}", param)
    for label, make in OBJECTS.items():
        _refuses_or_accepts(entry, fn, {**base, param: make()}, f"{param}={label}", param)


def test_the_former_gaps_are_walked():
    """The entry points that take another library's objects (OpenSpiel's games and policies,
    agents, a learner's panels, a stopping rule's raw arrays) are in the walk, every argument."""
    walked = {e for e, _ in CASES}
    for name in (
        "pigtheory.referee.baselines.to_openspiel_policy",
        "pigtheory.referee.baselines.openspiel_bot",
        "pigtheory.referee.openspiel.openspiel_rules",
        "pigtheory.referee.openspiel.from_openspiel_policy",
        "pigtheory.learning.openspiel_q_learning",
        "pigtheory.referee.plots.plot_learning",
        "pigtheory.referee.plots.games_to_resolve",
        "pigtheory.envs.agents.sequential_agent_table",
        "pigtheory.envs.agents.simultaneous_agent_table",
        "pigtheory.stopping.rule_outcomes",
    ):
        assert name in walked, name


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    case=st.sampled_from(CASES),
    value=st.one_of(
        st.integers(min_value=-(10**20), max_value=10**20),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=12),
        st.none(),
        st.lists(st.integers(-3, 3), max_size=3),
        st.builds(np.int64, st.integers(-(10**6), 10**6)),
        st.sampled_from(sorted(OBJECTS)).map(lambda label: OBJECTS[label]()),
        st.lists(
            st.sampled_from(sorted(OBJECTS)).map(lambda label: OBJECTS[label]()), min_size=1, max_size=2
        ),
    ),
)
def test_fuzz_any_entry_point(tmp_path, monkeypatch, case, value):
    """Any value in any argument: a result or a ValueError, nothing else (hypothesis)."""
    monkeypatch.chdir(tmp_path)
    entry, param = case
    if param in WORK or param in SIZES:
        n = integral(value)  # an integral float is a size too (6.0 is 6)
        sized = isinstance(n, (int, np.integer)) and not isinstance(n, bool) and 50 < n < 10**12
        assume(not sized and value is not None)
    fn = entry_points()[entry]
    kwargs = {**_arguments(fn, tmp_path, entry), param: value}
    _refuses_or_accepts(entry, fn, kwargs, f"{param}={value!r:.40}", param)


# --- the command line -----------------------------------------------------------------------

# Small valid values of the positional arguments and required options, by their dest.
CLI_VALID = {
    "action": "info",
    "k": "3",
    "policy": "hold-at-3",
    "policy_a": "hold-at-3",
    "policy_b": "hold-at-3",
    "opponent": "hold-at-3",
    "file": "hold-at-3",  # pigtheory referee FILE reads a policy's name as the other commands do
}
# Options set small on every command that has them, so that an accepted value costs little.
CLI_SMALL = {
    "--goal": "6",
    "--goals": "6",
    "--ns": "3",
    "--n-max": "3",
    "--max-iter": "5",
    "--no-webapp": None,
}

# Hostile values: negative, overflowing, not a number, a 300-byte file name, empty, huge.
CLI_HOSTILE = ["-1", "1e999", "nan", "x" * 300, "", "1" + "0" * 40]

# Options whose hostile values are valid by design, with the reason.
CLI_FREE = {
    ("site", "--title"): "free text (escaped in the page; length checked in test_play_site)",
    ("sweep", "--scheduler"): "an address, tried only when the sweep runs (tests/runtime/test_executors.py)",
}


# Folder names: '-1', 'nan', '1e999' and a 41-digit number are valid names (the folder is made
# in the test's temporary folder); '' and a 300-byte name must still be refused.
CLI_FOLDERS = {("site", "--out"), ("sweep", "--out")}
NAME_LIKE = {"-1", "nan", "1e999", "1" + "0" * 40}

# Values that are valid by design: a memory limit past any machine means no limit.
CLI_ACCEPTED = {"--max-memory": {"1e999", "1" + "0" * 40}}


def _subparsers():
    import argparse

    from pigtheory.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices


def cli_cases() -> list[tuple[str, str]]:
    """``(command, dest or option)`` for every argument of every command that takes a value."""
    import argparse

    cases = []
    for name, sp in _subparsers().items():
        for a in sp._actions:
            if isinstance(a, argparse._HelpAction) or (a.option_strings and a.nargs == 0):
                continue
            key = a.option_strings[-1] if a.option_strings else a.dest
            if (name, key) not in CLI_FREE:
                cases.append((name, key))
    return cases


def _cli_base(command: str, hostile: str) -> tuple[list[str], list[str]]:
    """``(positionals, options)``: valid positionals and required options, small sizes."""
    import argparse

    positionals, options = [], []
    for a in _subparsers()[command]._actions:
        if isinstance(a, argparse._HelpAction) or a.dest == "help":
            continue
        if not a.option_strings:
            if a.nargs != "?":
                positionals.append(a.dest)
            continue
        flag = a.option_strings[-1]
        if flag == hostile:
            continue
        if a.required:
            options += [flag, CLI_VALID[a.dest]]
        elif flag in CLI_SMALL:
            options += [flag] if CLI_SMALL[flag] is None else [flag, CLI_SMALL[flag]]
    return positionals, options


CLI_CASES = cli_cases()


def test_the_walk_finds_every_command():
    commands = {c for c, _ in CLI_CASES}
    assert {"turn-total", "best-response", "site", "play", "sweep", "symmetric-equilibrium"} <= commands
    assert ("best-response", "--opponent") in CLI_CASES and ("turn-total", "k") in CLI_CASES
    assert len(CLI_CASES) >= 75, len(CLI_CASES)  # 78 when this was written


@pytest.mark.parametrize("command, arg", CLI_CASES, ids=[f"{c}:{a}" for c, a in CLI_CASES])
def test_a_hostile_command_line_gets_one_line(command, arg, tmp_path, monkeypatch, capsys):
    """Every hostile value in every argument: exit 1 or 2, one line on stderr, no traceback."""
    from pigtheory.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))  # `play` never waits for a key
    positionals, options = _cli_base(command, arg)
    for bad in CLI_HOSTILE:
        if arg in positionals:
            argv = [command, *(bad if p == arg else CLI_VALID[p] for p in positionals), *options]
        else:
            argv = [command, *(CLI_VALID[p] for p in positionals), *options, arg, bad]
        status = main(argv)
        out, err = capsys.readouterr()
        shown = f"pigtheory {' '.join(a[:40] for a in argv)}"
        if (command, arg) in CLI_FOLDERS and bad in NAME_LIKE:
            assert status == 0 and (tmp_path / bad).is_dir(), f"{shown}: {err[:500]}"
            continue
        if bad in CLI_ACCEPTED.get(arg, ()):
            assert status == 0, f"{shown}: {err[:500]}"
            continue
        assert status in (1, 2), f"{shown}: status {status}, stdout {out[:200]!r}"
        assert err.count("\n") == 1 and "Traceback" not in err, f"{shown}: {err[:500]}"
        # the argument is named, not left to the system's words ("[Errno 36] File name too long")
        assert "[Errno" not in err, f"{shown}: {err[:500]}"
