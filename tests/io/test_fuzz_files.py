"""Fuzzing the file readers: random bytes, and random damage to valid JSON, CSV, ``.npy`` and
``.npz`` files, fed to every reader of policies and results.

The only outcomes allowed are a policy or result, or a ``ValueError`` that names the file; no
other exception, and a small input never makes a reader allocate much (traced peak below
``PEAK``).
"""

from __future__ import annotations

import io
import json
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pigtheory
from pigtheory import MixedPolicy, Rules, ThresholdTable, hold_at
from pigtheory.cli import parse_policy
from pigtheory.io import KINDS, read_policy, write_policy
from pigtheory.policies.sequential import RollTable
from pigtheory.results import Result

PEAK = 64 * 2**20
FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
RULES = Rules(goal=6)


def _valid_files(folder: Path) -> dict[str, bytes]:
    """Bytes of valid files of every format, to damage."""
    table = np.minimum(3, 6 - np.arange(6))[:, None] * np.ones((6, 6), dtype=np.int64)
    mixed = MixedPolicy(np.stack([table, np.ones_like(table)], -1), np.full((6, 6, 2), 0.5))
    roll = np.arange(6)[None, None, :] < 2 + np.zeros((6, 6, 1), dtype=int)
    out = {}
    for name, obj, kw in [
        ("table.json", ThresholdTable(table), {"rules": RULES}),
        ("mixed.json", mixed, {"rules": RULES}),
        ("hold.json", hold_at(3), {}),
        ("roll.json", RollTable(roll), {"rules": RULES}),
        ("table.csv", ThresholdTable(table), {"rules": RULES}),
        ("mixed.csv", mixed, {"rules": RULES}),
        ("roll.csv", RollTable(roll), {}),
        ("table.npy", ThresholdTable(table), {}),
        ("roll.npy", RollTable(roll), {}),
    ]:
        out[name] = write_policy(obj, folder / name, **kw).read_bytes()
    out["table.npz"] = ThresholdTable(table).save(folder / "table.npz").read_bytes()
    return out


@pytest.fixture(scope="module")
def valid(tmp_path_factory):
    return _valid_files(tmp_path_factory.mktemp("valid"))


READERS = {
    "pigtheory.load": lambda p: pigtheory.load(p),
    "read_policy": lambda p: read_policy(p),
    "read_policy with rules": lambda p: read_policy(p, rules=RULES),
    "the command line": lambda p: parse_policy(str(p)).policy,
}


def check_outcome(path: Path, reader) -> None:
    tracemalloc.start()
    try:
        out = reader(path)
    except ValueError as exc:
        assert path.name in str(exc), f"the error does not name the file: {exc}"
        out = None
    except Exception as exc:  # the argparse type of the command line
        if type(exc).__name__ != "ArgumentTypeError":
            raise
        assert path.name in str(exc) or "expected" in str(exc), str(exc)
        out = None
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peak < PEAK, f"{peak / 2**20:.0f} MB to read {path.stat().st_size} bytes"
    if out is not None:
        assert (
            isinstance(out, Result)
            or type(out).__name__ in {"HoldAt", "ThresholdTable", "MixedPolicy", "RollTable"}
            or any(type(out).__name__ == k.cls.split(":")[1] for k in KINDS.values())
        )


@FAST
@given(
    data=st.binary(max_size=3000),
    suffix=st.sampled_from([".json", ".csv", ".npy", ".npz"]),
    reader=st.sampled_from(sorted(READERS)),
)
def test_random_bytes(tmp_path, data, suffix, reader):
    path = tmp_path / f"random{suffix}"
    path.write_bytes(data)
    check_outcome(path, READERS[reader])


@FAST
@given(
    name=st.sampled_from(["table.json", "mixed.json", "hold.json", "roll.json", "table.csv", "mixed.csv", "roll.csv", "table.npy", "roll.npy", "table.npz"]),
    edits=st.lists(st.tuples(st.sampled_from(["flip", "cut", "insert", "delete"]), st.floats(0, 1), st.binary(min_size=1, max_size=8)), min_size=1, max_size=4),
    reader=st.sampled_from(sorted(READERS)),
)  # fmt: skip
def test_damaged_files(tmp_path, valid, name, edits, reader):
    data = bytearray(valid[name])
    for op, where, blob in edits:
        at = int(where * max(len(data) - 1, 0))
        if op == "flip" and data:
            data[at] ^= blob[0] or 1
        elif op == "cut":
            del data[at:]
        elif op == "insert":
            data[at:at] = blob
        elif op == "delete":
            del data[at : at + len(blob)]
    path = tmp_path / name
    path.write_bytes(bytes(data))
    check_outcome(path, READERS[reader])


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=30,
)


def _paths(doc, prefix=()):
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:3]):
            yield from _paths(v, prefix + (i,))


@FAST
@given(
    name=st.sampled_from(["table.json", "mixed.json", "hold.json", "roll.json"]),
    pick=st.floats(0, 1),
    value=JSON_VALUES,
    drop=st.booleans(),
)
def test_malformed_json(tmp_path, valid, name, pick, value, drop):
    doc = json.loads(valid[name])
    paths = list(_paths(doc))[1:]
    where = paths[int(pick * (len(paths) - 1))]
    parent = doc
    for key in where[:-1]:
        parent = parent[key]
    if drop and isinstance(parent, dict):
        del parent[where[-1]]
    else:
        parent[where[-1]] = value
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    for reader in READERS.values():
        check_outcome(path, reader)


CELLS = st.one_of(
    st.integers(-3, 8).map(str),
    st.sampled_from(["", " ", "nan", "inf", "-0", "1.5", "1e3", "x", "true", "9" * 30, "0x1"]),
)
HEADERS = st.lists(
    st.sampled_from(
        ["own", "other", "other1", "other2", "turn_total", "forced", "threshold", "weight", "roll", "foo"]
    ),
    min_size=1,
    max_size=5,
)


@FAST
@given(
    header=HEADERS,
    rows=st.lists(st.lists(CELLS, min_size=0, max_size=6), max_size=40),
    comments=st.lists(st.sampled_from(["# kind: mixed", "# kind: roll_table", "# kind: nope", "# rules: {", '# rules: {"goal": 0}', '# rules: {"goal": 6}', "# params: [1]", "# name: x"]), max_size=3),
    sep=st.sampled_from([",", ";"]),
)  # fmt: skip
def test_malformed_csv(tmp_path, header, rows, comments, sep):
    lines = [*comments, sep.join(header), *(sep.join(r) for r in rows)]
    path = tmp_path / "random.csv"
    path.write_text("\n".join(lines) + "\n")
    for reader in READERS.values():
        check_outcome(path, reader)


@FAST
@given(
    dtype=st.sampled_from(["<i8", "<i4", "|u1", "|b1", "<f8", "<f4", "<c16", "<U3", "|S2", "<M8[D]"]),
    shape=st.lists(st.integers(0, 7), max_size=4),
    claim=st.one_of(st.none(), st.lists(st.integers(0, 10**7), max_size=4)),
    seed=st.integers(0, 2**16),
)
def test_malformed_npy(tmp_path, dtype, shape, claim, seed):
    rng = np.random.default_rng(seed)
    arr = (
        (rng.integers(-2, 8, size=shape)).astype(np.dtype(dtype))
        if dtype[1] not in "US"
        else np.full(shape, "ab", dtype=dtype)
    )
    buf = io.BytesIO()
    np.save(buf, arr, allow_pickle=False)
    data = buf.getvalue()
    if claim is not None:  # a header that claims another shape
        header = {
            "descr": np.lib.format.dtype_to_descr(arr.dtype),
            "fortran_order": False,
            "shape": tuple(claim),
        }
        head = io.BytesIO()
        np.lib.format.write_array_header_1_0(head, header)
        data = head.getvalue() + data[len(data) - arr.nbytes :]
    path = tmp_path / "random.npy"
    path.write_bytes(data)
    for reader in READERS.values():
        check_outcome(path, reader)
