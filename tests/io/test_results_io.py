"""Saving and loading results and policies (pigtheory.io), read-only arrays, the cache folder."""

from __future__ import annotations

import dataclasses
import errno
import importlib
import io
import json
import math
import os
import pkgutil
import stat

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import pigtheory
from pigtheory import (
    HoldAt,
    MixedPolicy,
    Result,
    Rules,
    Solution,
    ThresholdTable,
    hold_at,
    referee,
    sequential,
)
from pigtheory.io import (
    Saveable,
    atomic_write,
    atomic_write_buffers,
    cache_path,
    cached,
    cached_arrays,
    resolve_cache_dir,
    save,
)
from pigtheory.learning import LearningRun, q_learning
from pigtheory.length import TurnDistribution, game_length, single_player
from pigtheory.policies.sequential import base_pace_race, pace_race, scoring_turns
from pigtheory.published import PublishedTables, webapp_policies
from pigtheory.sequential import Comparison, Games, SequentialSolution, super_six
from pigtheory.sequential import best_response as sequential_best_response
from pigtheory.sequential.multiplayer.play import play_multiplayer
from pigtheory.sequential.super_six import SuperSixSolution
from pigtheory.simulate import Simulation, play_simultaneous
from pigtheory.simultaneous import (
    CycleNash,
    Equilibrium,
    HoldAtTable,
    LimitAnalysis,
    ReducedSolution,
    SelfPlay,
    Stackelberg,
    best_response,
    chunked_best_response,
    cycle_nash,
    equilibrium,
    hold_at_sweep,
    limit,
    reduced_best_response,
    self_play,
    stackelberg,
    symmetric_best_response,
    symmetric_dynamics,
    symmetric_equilibrium,
)
from pigtheory.simultaneous.best_response import StoppingSolution
from pigtheory.simultaneous.stopping import (
    StoppingClasses,
    StoppingEquilibrium,
    certify_classes,
    stopping_equilibrium,
)
from pigtheory.simultaneous.sweeps.grid import cached_hold_at_grid, hold_at_grid
from pigtheory.simultaneous.sweeps.resumable import hold_at_table
from pigtheory.stopping import RandomStoppingRule, StoppingRule


def _quietly(make):
    """Build a result whose solver warns on purpose (an unfinished iteration)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return make()


CYCLE = Rules(goal=44)  # the smallest goal whose self-play cycles and whose equilibrium mixes


@pytest.fixture(scope="module")
def objects(tmp_path_factory) -> dict[str, object]:
    """One instance of every result and policy type, on small goals."""
    tmp_store = tmp_path_factory.mktemp("store")
    sp = self_play(rules=CYCLE, progress=False)
    rng = np.random.default_rng(0)
    th = rng.integers(1, 4, size=(6, 6, 3))
    w = rng.random((6, 6, 3))
    return {
        "Solution": best_response(hold_at(3), rules=Rules(goal=8)),
        "Solution (value iteration)": best_response(
            hold_at(3), rules=Rules(goal=8), method="value_iteration"
        ),
        "ReducedSolution": reduced_best_response([hold_at(3)] * 2, rules=Rules(goal=6, players=3)),
        "Equilibrium": equilibrium(rules=CYCLE),
        "SelfPlay": sp,
        "SelfPlay (no cycle)": _quietly(lambda: self_play(rules=CYCLE, max_iter=2, progress=False)),
        "CycleNash": cycle_nash(sp),
        "Stackelberg": stackelberg(rules=Rules(goal=12)),
        "Stackelberg (iteration)": stackelberg(rules=Rules(goal=8), method="value_iteration", progress=False),
        "LimitAnalysis": limit(n_max=12, rules=Rules(goal=10)),
        "LimitAnalysis (deviation pays)": limit(n_max=20),
        "HoldAtSweep": hold_at_sweep(range(2, 7), rules=Rules(goal=10), progress=False),
        "HoldAtGrid": hold_at_grid([2, 3], rules=Rules(goal=6, players=3), workers=1, progress=False),
        "SequentialSolution": sequential.solve(rules=Rules(goal=8)),
        "SequentialSolution (Double Trouble)": sequential.solve(
            rules=Rules(goal=6, dice=2, double_trouble=True), progress=False
        ),
        "Comparison": sequential.compare(hold_at(3), scoring_turns(3), rules=Rules(goal=8)),
        "SuperSixSolution": super_six(4),
        "Games": sequential.play(hold_at(2), hold_at(3), rules=Rules.piglet(goal=3), games=50, rng=1),
        "Simulation": play_simultaneous([hold_at(2)] * 2, Rules(goal=6), games=1, rng=0),
        "TurnDistribution": game_length(hold_at(2), hold_at(2), rules=Rules.piglet(goal=3)),
        "TurnDistribution (alone)": single_player(2, rules=Rules.piglet(goal=3)),
        "HoldAt": hold_at(7),
        "ThresholdTable": ThresholdTable(
            np.minimum(4, 6 - np.arange(6))[:, None] * np.ones(6, int), name="t"
        ),
        "MixedPolicy": MixedPolicy(th, w / w.sum(axis=-1, keepdims=True), "random mix"),
        "MixedPolicy (broadcast)": MixedPolicy.of([(hold_at(2), 0.25), (hold_at(5), 0.75)], Rules(goal=6)),
        "ScoringTurns": scoring_turns(4),
        "BasePaceRace": base_pace_race(),
        "PaceRace": pace_race(),
        "PublishedTables": webapp_policies(),
        "StoppingSolution": best_response(hold_at(4), rules=Rules(goal=12), strategies="stopping"),
        "StoppingEquilibrium": stopping_equilibrium(rules=Rules(goal=45)),
        "StoppingClasses": certify_classes(stopping_equilibrium(rules=Rules(goal=12, die_faces=3))),
        "LimitAnalysis (stopping)": limit(n_max=12, rules=Rules(goal=10), strategies="stopping"),
        "StoppingRule": StoppingRule.from_policy(hold_at(3), Rules(goal=6)),
        "RandomStoppingRule": RandomStoppingRule(np.full((6, 6, 6), 0.25), "quarter"),
        "SymmetricEquilibrium": symmetric_equilibrium(rules=Rules(goal=6, players=3)),
        "SymmetricBestResponse": symmetric_best_response(
            symmetric_equilibrium(rules=Rules(goal=5, players=3))
        ),
        "SymmetricDynamics": symmetric_dynamics(rules=Rules(goal=5, players=3), max_iter=3),
        "ChunkedSolution": chunked_best_response(
            [hold_at(3)] * 2, rules=Rules(goal=6, players=3), store=tmp_store / "chunked"
        ),
        "ChunkedEquilibrium": sequential.equilibrium(rules=Rules(goal=6, players=3), store=tmp_store / "seq"),
        "SweepTable": hold_at_table(goals=[6, 8], ns=[2, 3]),
        "SequentialResponse": sequential_best_response(hold_at(3), rules=Rules(goal=8)),
        "Evaluation": referee.evaluate(hold_at(3), rules=Rules(goal=6)),
        "Evaluation (horizon)": referee.evaluate(hold_at(2), rules=Rules.piglet(goal=4), horizon=7),
        "BestResponse": referee.best_response(hold_at(3), rules=Rules(goal=6)),
        "BestResponse (horizon)": referee.best_response(hold_at(3), rules=Rules(goal=6), horizon=6),
        "Exploitability": referee.exploitability(hold_at(3), rules=Rules(goal=6)),
        "Diagnostics": referee.diagnose(hold_at(3), rules=Rules(goal=6)),
        "LearningRun": q_learning(rules=Rules(goal=6), checkpoints=(10, 20), rng=0),
        "MultiplayerEquilibrium": sequential.equilibrium(rules=Rules.piglet(goal=3, players=3)),
        "MultiplayerGames": play_multiplayer(
            sequential.equilibrium(rules=Rules.piglet(goal=3, players=3)), games=20, rng=0
        ),
        "MultiplayerPolicy": sequential.equilibrium(rules=Rules.piglet(goal=3, players=4)).policy,
    }


EXPECTED_TYPES = {
    "Evaluation": referee.Evaluation,
    "BestResponse": referee.BestResponse,
    "Exploitability": referee.Exploitability,
    "Diagnostics": referee.Diagnostics,
    "LearningRun": LearningRun,
    "StoppingSolution": StoppingSolution,
    "StoppingEquilibrium": StoppingEquilibrium,
    "StoppingRule": StoppingRule,
    "RandomStoppingRule": RandomStoppingRule,
    "Solution": Solution,
    "ReducedSolution": ReducedSolution,
    "Equilibrium": Equilibrium,
    "SelfPlay": SelfPlay,
    "CycleNash": CycleNash,
    "Stackelberg": Stackelberg,
    "LimitAnalysis": LimitAnalysis,
    "HoldAtSweep": HoldAtTable,
    "HoldAtGrid": HoldAtTable,
    "SweepTable": HoldAtTable,
    "SequentialSolution": SequentialSolution,
    "Comparison": Comparison,
    "SuperSixSolution": SuperSixSolution,
    "Games": Games,
    "Simulation": Simulation,
    "TurnDistribution": TurnDistribution,
    "HoldAt": HoldAt,
    "ThresholdTable": ThresholdTable,
    "MixedPolicy": MixedPolicy,
    "PublishedTables": PublishedTables,
}


def assert_same(a: object, b: object, where: str = "obj") -> None:
    """Same type and same content, arrays bit for bit (dtype, shape and bytes)."""
    assert type(a) is type(b), f"{where}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray)
        assert a.dtype == b.dtype and a.shape == b.shape, where
        assert np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes(), where
    elif isinstance(a, float):
        assert isinstance(b, float)
        assert (math.isnan(a) and math.isnan(b)) or a == b, where
    elif isinstance(a, (tuple, list)):
        assert isinstance(b, (tuple, list))
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{where}[{i}]")
    elif isinstance(a, dict):
        assert isinstance(b, dict)
        assert list(a) == list(b), where
        for k in a:
            assert_same(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, nx.Graph):
        assert isinstance(b, nx.Graph)
        assert nx.utils.graphs_equal(a, b), where
        assert list(a.nodes) == list(b.nodes) and list(a.edges) == list(b.edges), where
    elif dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            assert_same(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


def arrays_of(obj: object, where: str = "obj") -> list[tuple[str, np.ndarray]]:
    """Every array inside a result or policy, with where it sits."""
    if isinstance(obj, np.ndarray):
        return [(where, obj)]
    if isinstance(obj, (tuple, list)):
        return [a for i, x in enumerate(obj) for a in arrays_of(x, f"{where}[{i}]")]
    if isinstance(obj, dict):
        return [a for k, x in obj.items() for a in arrays_of(x, f"{where}[{k!r}]")]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return [
            a for f in dataclasses.fields(obj) for a in arrays_of(getattr(obj, f.name), f"{where}.{f.name}")
        ]
    return []


# --- round trips --------------------------------------------------------------------------


def test_every_result_type_is_covered(objects):
    for name, cls in EXPECTED_TYPES.items():
        assert type(objects[name]) is cls, name
    results = {
        Solution,
        ReducedSolution,
        Equilibrium,
        SelfPlay,
        CycleNash,
        Stackelberg,
        LimitAnalysis,
        HoldAtTable,
        SequentialSolution,
        Comparison,
        SuperSixSolution,
        Games,
        Simulation,
        TurnDistribution,
        StoppingSolution,
        StoppingEquilibrium,
        StoppingClasses,
    }
    assert all(issubclass(cls, Result) for cls in results)
    # every Result subclass defined in the package is covered by the fixtures
    for module in pkgutil.walk_packages(pigtheory.__path__, "pigtheory."):
        if not module.name.endswith("__main__"):  # running that one is the command line
            importlib.import_module(module.name)
    seen = {type(obj) for obj in objects.values()}
    stack, defined = [Result], set()
    while stack:
        for sub in stack.pop().__subclasses__():
            if sub.__module__.startswith("pigtheory."):
                defined.add(sub)
                stack.append(sub)
    assert defined <= seen, sorted(c.__name__ for c in defined - seen)
    policies = (HoldAt, ThresholdTable, MixedPolicy, PublishedTables, StoppingRule, RandomStoppingRule)
    assert all(issubclass(cls, Saveable) for cls in policies)


def test_every_object_reads_well(objects):
    """A short repr (never a whole array), an HTML table, and a long-form table (issue 23)."""
    import pandas as pd

    for name, obj in objects.items():
        text = repr(obj)
        assert "[[" not in text and len(text) < 3000, name
        assert obj._repr_html_().startswith("<table>"), name
        df = obj.to_frame()
        assert isinstance(df, pd.DataFrame) and len(df) >= 1, name
        value = getattr(obj, "value", None)
        if isinstance(value, np.ndarray) and value.ndim:
            assert len(df) == value.size, name
            np.testing.assert_array_equal(df["value"].to_numpy(), value.ravel(), err_msg=name)


def test_the_fixtures_exercise_the_hard_fields(objects):
    eq, sp = objects["Equilibrium"], objects["SelfPlay"]
    assert eq.mixed_states and isinstance(eq.mixed_states[0], tuple)
    assert sp.period == 2 and sp.coupling.number_of_edges() > 0 and sp.transitions.number_of_edges() > 0
    assert objects["SelfPlay (no cycle)"].cycle == ()
    assert objects["LimitAnalysis (deviation pays)"].smallest_n is None
    assert math.isnan(objects["Simulation"].turns_sd) and math.isnan(
        objects["TurnDistribution (alone)"].first_wins
    )
    assert objects["Comparison"].value_a.shape[0] == 3  # the counter of "3 scoring turns"


def test_every_object_round_trips(objects, tmp_path):
    for n, (name, obj) in enumerate(objects.items()):
        path = save(obj, tmp_path / f"{n}.npz")
        back = pigtheory.load(path)
        assert_same(obj, back, name)
        if isinstance(obj, Saveable):
            assert_same(obj, type(obj).load(obj.save(tmp_path / f"{n}-method.npz")), name)


def test_a_loaded_result_still_works(objects, tmp_path):
    eq = Equilibrium.load(objects["Equilibrium"].save(tmp_path / "eq.npz"))
    i, j = eq.mixed_states[0]
    assert eq.strategy(i, j) == objects["Equilibrium"].strategy(i, j)
    red = ReducedSolution.load(objects["ReducedSolution"].save(tmp_path / "red.npz"))
    assert red.at(0, 1, 2) == objects["ReducedSolution"].at(0, 1, 2)
    seq = SequentialSolution.load(objects["SequentialSolution"].save(tmp_path / "seq.npz"))
    assert seq.first_player_win == objects["SequentialSolution"].first_player_win
    mix = pigtheory.load(objects["MixedPolicy (broadcast)"].save(tmp_path / "mix.npz"))
    rules = Rules(goal=6)
    a, b = pigtheory.as_mixture(mix, rules), pigtheory.as_mixture(objects["MixedPolicy (broadcast)"], rules)
    assert np.array_equal(a.thresholds, b.thresholds) and np.array_equal(a.weights, b.weights)


def test_the_file_is_an_npz_with_json_metadata(objects, tmp_path):
    path = objects["Equilibrium"].save(tmp_path / "eq.npz")
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["pigtheory.json"][()]))
        assert {"value", "policy.thresholds", "policy.weights", "lower"} <= set(data.files)
    assert meta["type"] == "Equilibrium" and meta["pigtheory_version"] == pigtheory.__version__
    assert meta["fields"]["rules"]["fields"]["goal"] == 44
    assert meta["fields"]["method"] == "exact" and isinstance(meta["fields"]["iterations"], int)


@settings(max_examples=40, deadline=None)
@given(
    value=hnp.arrays(np.float64, (6, 6), elements=st.floats(0, 1) | st.just(float("nan"))),
    policy=hnp.arrays(hnp.integer_dtypes() | hnp.unsigned_integer_dtypes(), (5, 5)),
    iterations=st.integers(0, 2**62),
    residual=st.floats(allow_nan=True, allow_infinity=True),
    method=st.text(),
)
def test_any_solution_round_trips_bit_for_bit(tmp_path_factory, value, policy, iterations, residual, method):
    sol = Solution(value, policy, iterations, residual, method, Rules(goal=5, face_points=(1, 1, 2, 2, 9)))
    back = Solution.load(sol.save(tmp_path_factory.mktemp("h") / "s.npz", compress=False))
    assert_same(sol, back)


@pytest.mark.parametrize(
    "value, policy, rules, match",
    [
        (np.zeros((6, 5)), np.ones((5, 5), int), Rules(goal=5), r"needs shape \(6, 6\)"),
        (np.zeros((11, 11)), np.ones((10, 10), int), Rules(goal=10, players=10**6), "needs 65 axes"),
        (
            np.zeros((11, 11)),
            np.ones((10, 10), int),
            Rules(goal=10, players=3),
            r"needs shape \(11, 11, 11\)",
        ),
        (np.full((6, 6), 1.5), np.ones((5, 5), int), Rules(goal=5), r"in \[0, 1\]"),
        (np.full((6, 6), -np.inf), np.ones((5, 5), int), Rules(goal=5), r"in \[0, 1\]"),
        (np.zeros((6, 6)), np.ones((5, 4), int), Rules(goal=5), r"policy: .* needs shape \(5, 5\)"),
    ],
)
def test_a_result_whose_arrays_do_not_fit_its_rules_is_refused(tmp_path, value, policy, rules, match):
    """Built directly or read from a file whose metadata was edited: refused, naming the field."""
    with pytest.raises(ValueError, match=match):
        Solution(value, policy, 0, 0.0, "exact", rules)
    good = Solution(np.zeros((6, 6)), np.ones((5, 5), int), 0, 0.0, "exact", Rules(goal=5))
    path = good.save(tmp_path / "good.npz", compress=False)
    with np.load(path, allow_pickle=False) as data:
        members = {k: data[k] for k in data.files}
    meta = json.loads(str(members["pigtheory.json"][()]))
    meta["fields"]["rules"]["fields"].update(goal=rules.goal, players=rules.players)
    members.update({"pigtheory.json": np.array(json.dumps(meta)), "value": value, "policy": policy})
    np.savez(tmp_path / "edited.npz", **members)
    with pytest.raises(ValueError, match=match):
        pigtheory.load(tmp_path / "edited.npz")


def test_an_archive_member_that_claims_more_than_it_holds_is_refused_before_reading(tmp_path):
    """A crafted .npy header claiming 3.2 GB inside a tiny archive: refused from the header."""
    import io
    import zipfile

    path = Solution(np.zeros((6, 6)), np.ones((5, 5), int), 0, 0.0, "exact", Rules(goal=5)).save(
        tmp_path / "s.npz", compress=False
    )
    with zipfile.ZipFile(path) as z:
        members = {n: z.read(n) for n in z.namelist()}
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": "<f8", "fortran_order": False, "shape": (20000, 20000)}
    )
    old = members["value.npy"]
    members["value.npy"] = header.getvalue() + old[len(header.getvalue()) :]
    with zipfile.ZipFile(tmp_path / "crafted.npz", "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    with pytest.raises(ValueError, match="claims 3200000000 bytes"):
        pigtheory.load(tmp_path / "crafted.npz")


# --- read-only arrays ---------------------------------------------------------------------


def test_every_array_is_read_only(objects, tmp_path):
    for n, (name, obj) in enumerate(objects.items()):
        for copy in (obj, pigtheory.load(save(obj, tmp_path / f"{n}.npz"))):
            for where, arr in arrays_of(copy, name):
                assert not arr.flags.writeable, where
                if arr.size:
                    with pytest.raises(ValueError, match="read-only"):
                        arr.flat[0] = arr.flat[0]


def test_policy_arrays_are_copies(objects):
    th = np.full((4, 4, 1), 2)
    w = np.ones((4, 4, 1))
    mix = MixedPolicy(th, w)
    th[0, 0, 0] = 3  # the caller's array stays the caller's
    assert mix.thresholds[0, 0, 0] == 2 and th.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        equilibrium(rules=Rules(goal=10)).policy.weights[0, 0, 0] = 0.5
    assert not objects["Equilibrium"].opponent_policy.thresholds.flags.writeable


# --- bad files ----------------------------------------------------------------------------


def test_missing_corrupted_or_foreign_files(objects, tmp_path):
    with pytest.raises(ValueError, match="missing.npz"):
        pigtheory.load(tmp_path / "missing.npz")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip file at all")
    with pytest.raises(ValueError, match="junk.npz"):
        pigtheory.load(junk)
    good = objects["Stackelberg"].save(tmp_path / "good.npz")
    cut = tmp_path / "cut.npz"
    cut.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    with pytest.raises(ValueError, match="cut.npz"):
        pigtheory.load(cut)
    plain = tmp_path / "plain.npz"
    np.savez(plain, value=np.zeros(3))
    with pytest.raises(ValueError, match="plain.npz.*pigtheory.json"):
        pigtheory.load(plain)
    npy = tmp_path / "array.npy"
    np.save(npy, np.zeros(3))
    with pytest.raises(ValueError, match="array.npy"):
        pigtheory.load(npy)


def test_wrong_type_is_refused(objects, tmp_path):
    path = objects["Stackelberg"].save(tmp_path / "st.npz")
    with pytest.raises(ValueError, match=r"st\.npz: holds Stackelberg, expected Equilibrium"):
        Equilibrium.load(path)
    with pytest.raises(ValueError, match="expected HoldAt"):
        HoldAt.load(path)
    assert type(Solution.load(path)) is Stackelberg  # a Stackelberg is a Solution
    assert type(Result.load(path)) is Stackelberg


def _rewrite(path, edit):
    """Rewrite a saved file's metadata with ``edit(meta)``, keeping its arrays."""
    with np.load(path, allow_pickle=False) as data:
        members = {k: data[k] for k in data.files}
    meta = json.loads(str(members["pigtheory.json"][()]))
    edit(meta)
    members["pigtheory.json"] = np.array(json.dumps(meta))
    with open(path, "wb") as f:
        np.savez(f, **members)


def test_metadata_that_does_not_fit_is_refused(objects, tmp_path):
    path = objects["HoldAtGrid"].save(tmp_path / "grid.npz")
    _rewrite(path, lambda m: m["fields"].update(seconds=3.0))  # a field that no longer exists
    with pytest.raises(ValueError, match=r"grid\.npz.*HoldAtTable has fields"):
        pigtheory.load(path)
    path = objects["HoldAt"].save(tmp_path / "newer.npz")
    _rewrite(path, lambda m: m.update(format_version=99))
    with pytest.raises(ValueError, match="newer.npz.*version 99"):
        pigtheory.load(path)
    path = objects["HoldAt"].save(tmp_path / "foreign.npz")
    _rewrite(path, lambda m: m.update(type="system", module="os"))
    with pytest.raises(ValueError, match="foreign.npz.*not part of pigtheory"):
        pigtheory.load(path)
    path = objects["HoldAt"].save(tmp_path / "invalid.npz")
    _rewrite(path, lambda m: m["fields"].update(n=0))  # HoldAt validates n >= 1
    with pytest.raises(ValueError, match="invalid.npz.*not valid"):
        pigtheory.load(path)


def test_loading_never_unpickles(tmp_path):
    meta = {
        "format": "pigtheory",
        "format_version": 1,
        "type": "HoldAt",
        "module": "pigtheory.policies",
        "fields": {"n": {"$array": "n"}},
    }
    path = tmp_path / "pickled.npz"
    with open(path, "wb") as f:  # an object array is stored with pickle
        np.savez(f, **{"pigtheory.json": np.array(json.dumps(meta)), "n": np.array([3], dtype=object)})
    with pytest.raises(ValueError, match="pickled.npz"):
        pigtheory.load(path)


def test_what_cannot_be_saved(tmp_path):
    with pytest.raises(ValueError, match=r"path: .*\.npz"):
        save(hold_at(3), tmp_path / "policy.txt")
    with pytest.raises(ValueError, match="obj"):
        save({"a": 1}, tmp_path / "dict.npz")
    bad = Solution(np.zeros((6, 6)), np.ones((5, 5), int), 0, 0.0, "x", Rules(goal=5))
    object.__setattr__(bad, "value", np.array([None, 1]))  # no constructor would accept it
    with pytest.raises(ValueError, match="value.*pickle"):
        bad.save(tmp_path / "objects.npz")
    assert list(tmp_path.iterdir()) == []


# --- writing ------------------------------------------------------------------------------


def test_files_are_0644_and_no_temporary_file_remains(objects, tmp_path):
    path = objects["Equilibrium"].save(tmp_path / "sub" / "eq.npz")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o644
    assert [p.name for p in path.parent.iterdir()] == ["eq.npz"]
    objects["Equilibrium"].save(path)  # overwriting is atomic too
    assert [p.name for p in path.parent.iterdir()] == ["eq.npz"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "x.txt"
    path.write_text("old")

    def fail(tmp: str) -> None:
        with open(tmp, "w") as f:
            f.write("half")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        atomic_write(path, fail)
    assert path.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["x.txt"]


def test_buffers_are_written_whole_0644_or_not_at_all(tmp_path):
    path = tmp_path / "x.npy"
    array = np.arange(12.0).reshape(3, 4)
    head = io.BytesIO()
    np.lib.format.write_array_header_1_0(head, np.lib.format.header_data_from_array_1_0(array))
    atomic_write_buffers(path, [head.getvalue(), memoryview(array).cast("B")])
    assert np.array_equal(np.load(path), array) and stat.S_IMODE(os.stat(path).st_mode) == 0o644

    class Failing:
        def __iter__(self):
            yield b"half"
            raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OSError):
        atomic_write_buffers(path, Failing())
    assert np.array_equal(np.load(path), array) and [p.name for p in tmp_path.iterdir()] == ["x.npy"]
    with pytest.raises(ValueError, match="folder"):
        atomic_write_buffers(tmp_path, [b"x"])


# --- the cache ----------------------------------------------------------------------------


@pytest.fixture
def elsewhere(tmp_path, monkeypatch):
    """Run in an empty working directory with no cache variables set."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.delenv("PIGTHEORY_CACHE_DIR", raising=False)
    monkeypatch.delenv("PIGTHEORY_NO_CACHE", raising=False)
    return work


def _counting(result):
    calls = []

    def compute():
        calls.append(1)
        return result

    return compute, calls


def test_cache_honours_the_environment_at_call_time(elsewhere, tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("PIGTHEORY_CACHE_DIR", str(folder))  # after pigtheory was imported
    sol = best_response(hold_at(3), rules=Rules(goal=8))
    compute, calls = _counting(sol)
    first = cached("br", {"n": 3, "rules": Rules(goal=8)}, compute, expected=Solution)
    second = cached("br", {"n": 3, "rules": Rules(goal=8)}, compute, expected=Solution)
    assert len(calls) == 1 and first is sol
    assert_same(sol, second)
    assert [p.parent for p in folder.iterdir()] == [folder] and len(list(folder.iterdir())) == 1
    assert list(elsewhere.iterdir()) == []
    assert cache_path("br", {"n": 3, "rules": Rules(goal=8)}) != cache_path(
        "br", {"n": 3, "rules": Rules(goal=9)}
    )


def test_cache_dir_argument_wins_and_default_is_the_user_cache(elsewhere, tmp_path, monkeypatch):
    import platformdirs

    assert resolve_cache_dir() == resolve_cache_dir(platformdirs.user_cache_dir("pigtheory"))
    assert elsewhere not in resolve_cache_dir().parents and resolve_cache_dir() != elsewhere
    monkeypatch.setenv("PIGTHEORY_CACHE_DIR", str(tmp_path / "env"))
    grid = cached_hold_at_grid([2, 3], rules=Rules(goal=6, players=3), workers=1, cache_dir=tmp_path / "arg")
    assert len(list((tmp_path / "arg").glob("hold_at_grid-*.npz"))) == 1
    assert not (tmp_path / "env").exists() and list(elsewhere.iterdir()) == []
    again = cached_hold_at_grid([3, 2], rules=Rules(goal=6, players=3), workers=1, cache_dir=tmp_path / "arg")
    assert_same(grid, again)
    assert grid.n_solves == 3 and not hasattr(grid, "seconds")


def test_no_cache_recomputes_and_damage_is_repaired(elsewhere, tmp_path, monkeypatch):
    compute, calls = _counting(hold_at(4))
    assert cached("p", {}, compute, cache_dir=tmp_path) == hold_at(4)
    monkeypatch.setenv("PIGTHEORY_NO_CACHE", "1")
    cached("p", {}, compute, cache_dir=tmp_path)
    assert len(calls) == 2
    monkeypatch.delenv("PIGTHEORY_NO_CACHE")
    cache_path("p", {}, cache_dir=tmp_path).write_bytes(b"damaged")
    assert cached("p", {}, compute, cache_dir=tmp_path) == hold_at(4) and len(calls) == 3
    assert cached("p", {}, compute, cache_dir=tmp_path) == hold_at(4) and len(calls) == 3
    assert list(elsewhere.iterdir()) == []


def test_cached_arrays_and_bad_cache_names(elsewhere, tmp_path):
    calls = []

    def compute():
        calls.append(1)
        return {"x": np.arange(3)}

    for _ in range(2):
        out = cached_arrays("arrays", {"v": 1}, compute, cache_dir=tmp_path)
        assert out["x"].tolist() == [0, 1, 2]
    assert len(calls) == 1 and list(elsewhere.iterdir()) == []
    with pytest.raises(ValueError, match="name"):
        cache_path("../escape", {})
    with pytest.raises(ValueError, match="params"):
        cache_path("ok", {"f": object()})


def test_archives_deflate_what_shrinks_and_depend_on_the_arrays_alone(tmp_path):
    """Tables of values that barely deflate are stored, mostly-zero arrays deflated; numpy
    reads both back bit for bit, and the same arrays give the same bytes."""
    import zipfile

    from pigtheory.io.archive import write_npz

    rng = np.random.default_rng(0)
    arrays = {"noise": rng.random(300_000), "zeros": np.zeros(300_000), "flags": rng.random(5000) < 0.01}
    paths = [tmp_path / "a.npz", tmp_path / "b.npz", tmp_path / "plain.npz"]
    for path, compress in zip(paths, (True, True, False), strict=True):
        with open(path, "wb") as f:
            write_npz(f, arrays, compress=compress)
    kinds = {i.filename: i.compress_type for i in zipfile.ZipFile(paths[0]).infolist()}
    assert kinds == {
        "noise.npy": zipfile.ZIP_STORED,
        "zeros.npy": zipfile.ZIP_DEFLATED,
        "flags.npy": zipfile.ZIP_DEFLATED,
    }
    assert {i.compress_type for i in zipfile.ZipFile(paths[2]).infolist()} == {zipfile.ZIP_STORED}
    assert paths[0].read_bytes() == paths[1].read_bytes()
    for path in paths:
        with np.load(path, allow_pickle=False) as data:
            assert sorted(data.files) == sorted(arrays)
            for name, a in arrays.items():
                assert data[name].dtype == a.dtype and data[name].tobytes() == a.tobytes()


def test_a_result_refuses_values_outside_the_probabilities_and_skips_nan():
    """``value`` holds win probabilities: the blockwise NaN-skipping range of check_shapes
    against numpy's masked min and max (C, Fortran and strided arrays, blocks of NaN), and a
    Solution built with 1.5, -inf or NaN everywhere."""
    from pigtheory import Rules
    from pigtheory.results import Solution, _known_range

    rng = np.random.default_rng(0)
    flat = rng.random(3 * (1 << 16) + 7)
    flat[: 1 << 16] = np.nan  # a whole block of NaN
    for a in (flat, np.asfortranarray(rng.random((300, 700))), rng.random((400, 900))[:, ::3]):
        a[rng.random(a.shape) < 0.2] = np.nan
        known = a[~np.isnan(a)]
        assert _known_range(a) == (float(known.min()), float(known.max()))
    assert all(math.isnan(x) for x in _known_range(np.full(10, np.nan)))
    rules = Rules(goal=4)
    policy = np.full((4, 4), 1)
    for bad in (1.5, -np.inf):
        value = np.full((5, 5), 0.5)
        value[2, 3] = bad
        with pytest.raises(ValueError, match=r"value: Solution holds win probabilities in \[0, 1\]"):
            Solution(value, policy, 1, 0.0, "exact", rules)
    Solution(np.full((5, 5), np.nan), policy, 1, 0.0, "exact", rules)  # nothing known: nothing to refuse


def _with_metadata(src, dst, edit):
    """``src`` (a pigtheory archive) written again as ``dst`` with its metadata edited."""
    with np.load(src) as data:
        members = {k: data[k] for k in data.files}
    meta = json.loads(str(members.pop("pigtheory.json")[()]))
    edit(meta)
    np.savez(dst, **members, **{"pigtheory.json": np.array(json.dumps(meta))})
    return dst


@pytest.mark.parametrize(
    "edit, words",
    [
        (lambda m: m.update(format="other"), "not a pigtheory file (its metadata has no format 'pigtheory')"),
        (lambda m: m.update(format_version=999), "file format version 999; this pigtheory reads versions up to"),
        (lambda m: m.update(type=3), "the metadata names no type"),
        (lambda m: m.update(module="os", type="system"), "type os.system is not part of pigtheory"),
        (lambda m: m.update(module="pigtheory", type="NoSuchResult"), "unknown type pigtheory.NoSuchResult"),
        (lambda m: m.update(module="pigtheory", type="hold_at"), "pigtheory.hold_at is not a pigtheory result or policy"),
        (lambda m: m.update(fields=3), "a Solution without fields"),
    ],
)  # fmt: skip
def test_an_archive_whose_metadata_was_edited_is_refused_in_words(tmp_path, edit, words):
    """Metadata edited by hand or by another program: the loader names the file and what is
    wrong, imports nothing outside pigtheory, and builds only pigtheory's result types."""
    src = pigtheory.save(best_response(hold_at(4), rules=Rules(goal=8)), tmp_path / "r.npz")
    path = _with_metadata(src, tmp_path / "edited.npz", edit)
    with pytest.raises(ValueError, match="edited.npz") as info:
        pigtheory.load(path)
    assert words in str(info.value)


def test_save_refuses_another_suffix_and_foreign_objects(tmp_path):
    result = best_response(hold_at(4), rules=Rules(goal=8))
    with pytest.raises(ValueError, match="path: pigtheory files end in .npz"):
        pigtheory.save(result, tmp_path / "r.zip")
    with pytest.raises(ValueError, match="obj: only pigtheory results and policies can be saved, got dict"):
        pigtheory.save({"value": 1}, tmp_path / "r.npz")
    assert not any(tmp_path.iterdir())
