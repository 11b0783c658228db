"""Old import paths of issue 20's moves: each still gives the same object, with a
DeprecationWarning that names the new home; files saved under the old module names still load."""

from __future__ import annotations

import importlib
import json
import sys

import numpy as np
import pytest

from pigtheory import load

MOVED = [
    ("pigtheory.sweeps", "pigtheory.simultaneous.resumable", ["hold_at_table", "sweep_tasks"]),
    ("pigtheory.play.policy_files", "pigtheory.play.file_opponents", ["opponents_from_file"]),
    (
        "pigtheory.sequential.policies",
        "pigtheory.policies.sequential",
        ["RollTable", "roll_table", "pace_race"],
    ),
    ("pigtheory.play.sequential_response", "pigtheory.sequential.best_response", ["SequentialResponse"]),
    ("pigtheory.plots_symmetric", "pigtheory.plots.symmetric", ["plot_opening"]),
]


@pytest.mark.parametrize(("old", "new", "names"), MOVED, ids=[m[0] for m in MOVED])
def test_a_moved_module_warns_and_reexports(old, new, names):
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=new.replace(".", r"\.")):
        shim = importlib.import_module(old)
    target = importlib.import_module(new)
    for name in names:
        assert getattr(shim, name) is getattr(target, name)


def test_renamed_names_warn_and_point_to_one_thing():
    from pigtheory import io, play

    with pytest.warns(DeprecationWarning, match=r"pigtheory\.io\.load"):
        old = play.read_policy_file
    assert old is io.load
    # the one read_policy_file left: a policy and the rules its file records
    assert io.read_policy_file is importlib.import_module("pigtheory.io.policy_files").read_policy_file
    with pytest.raises(AttributeError):
        play.no_such_name  # noqa: B018


def test_old_module_names_in_saved_files_still_load(tmp_path):
    from pigtheory.policies.sequential import RollTable
    from pigtheory.simultaneous.resumable import hold_at_table
    from pigtheory.simultaneous.sweep import HoldAtTable

    table = hold_at_table(goals=[8], ns=[2, 3])
    roll = RollTable(np.zeros((6, 6, 6), dtype=bool), name="never roll")
    for obj, old_module in ((table, "pigtheory.sweeps"), (roll, "pigtheory.sequential.policies")):
        path = obj.save(tmp_path / f"{type(obj).__name__}.npz")
        with np.load(path, allow_pickle=False) as data:
            members = {k: data[k] for k in data.files}
        meta = json.loads(str(members["pigtheory.json"][()]))
        assert meta["module"] != old_module
        meta["module"] = old_module  # as an earlier pigtheory wrote it
        if old_module == "pigtheory.sweeps":
            meta["type"] = "SweepTable"  # the table's old name there
        members["pigtheory.json"] = np.array(json.dumps(meta))
        np.savez(path, **members)
        sys.modules.pop(old_module, None)
        with pytest.warns(DeprecationWarning):
            back = load(path)
        assert type(back) is type(obj)
    assert isinstance(back, RollTable) and not back.roll.any()
    back_table = load(tmp_path / "HoldAtTable.npz")
    assert isinstance(back_table, HoldAtTable)
    assert np.array_equal(back_table.value, table.value) and back_table.value.size == 2


def test_saveable_needs_no_import_of_io_by_the_domain(tmp_path):
    import subprocess

    code = (
        "import sys\n"
        "from pigtheory.policies import hold_at\n"
        "assert 'pigtheory.io' not in sys.modules, 'the domain imported io'\n"
        f"p = hold_at(4).save({str(tmp_path / 'h.npz')!r})\n"
        "print(type(hold_at(4)).load(p).n)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "4"
