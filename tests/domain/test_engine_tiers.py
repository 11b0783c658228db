"""The tiered ``engine="auto"`` (:mod:`pigtheory.engine`): the background load of the compiled
engine, the rent-or-buy rule, and the same bits whichever engine a call took."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import pigtheory.engine as engine_module
from pigtheory.engine import NUMBA_LOAD_SECONDS, choose_engine


@pytest.fixture
def cold(monkeypatch):
    """A process that never imported numba and made no tiered solve."""
    pytest.importorskip("numba")
    monkeypatch.delitem(sys.modules, "numba", raising=False)
    monkeypatch.setattr(engine_module, "_NUMPY_SECONDS", [0.0])
    monkeypatch.setattr(engine_module, "_TIER", engine_module._Tier())
    return engine_module


def test_the_second_tiered_solve_loads_in_the_background_and_later_ones_take_numba(cold):
    loaded = []

    def load():
        loaded.append(True)

    assert choose_engine("auto", 10, same_bits=True, load=load) == "numpy"
    assert not cold._TIER.loads and not loaded  # a one-off solve loads nothing
    assert choose_engine("auto", 10, same_bits=True, load=load) == "numpy"
    cold.wait_for_loads()  # the public wait: returns once the background load has run
    assert loaded == [True] and not cold._TIER.loading()
    assert choose_engine("auto", 10, same_bits=True, load=load) == "numba"
    assert choose_engine("auto", 10, same_bits=True, load=load) == "numba"
    assert loaded == [True]  # loaded once
    assert choose_engine("auto", 10, load=load) == "numpy"  # engines that differ: size only
    assert choose_engine("numpy", 10, same_bits=True, load=load) == "numpy"


def test_the_fourth_tiered_solve_waits_for_the_load_and_takes_numba(cold):
    """A loop of solves: calls 1..3 numpy (the load runs from call 2), call 4 waits for it."""
    import threading

    release, loaded = threading.Event(), []

    def load():
        release.wait(5)  # a load still running when calls 2 and 3 are made
        loaded.append(True)

    engines = [choose_engine("auto", 10, same_bits=True, load=load) for _ in range(3)]
    assert engines == ["numpy"] * 3 and not loaded and cold._TIER.loading()
    assert cold.NUMBA_WAIT_CALLS == 4
    release.set()
    assert choose_engine("auto", 10, same_bits=True, load=load) == "numba" and loaded == [True]
    assert choose_engine("auto", 10, same_bits=True, load=load) == "numba"


def test_a_failed_load_leaves_the_rent_or_buy_rule(cold):
    def load():
        raise RuntimeError("no compiler here")

    for _ in range(3):
        assert choose_engine("auto", 10, same_bits=True, load=load) == "numpy"
    cold._TIER.wait()
    for _ in range(3):  # the fourth call's wait finds the load failed: numpy still
        assert choose_engine("auto", 10, same_bits=True, load=load) == "numpy"
    cold._NUMPY_SECONDS[0] = NUMBA_LOAD_SECONDS  # the numpy time paid for a load: buy
    assert choose_engine("auto", 10, same_bits=True, load=load) == "numba"


_LOOP = """
import hashlib, json, sys
import numpy as np
from pigtheory import Rules, hold_at
from pigtheory.simultaneous import best_response
import pigtheory.engine as E
rules = Rules(goal=int(sys.argv[1]))
out = []
for i in range(int(sys.argv[2])):
    numba_ready = bool(E._TIER.ready)
    sol = best_response(hold_at(7), rules=rules)
    out.append([numba_ready, hashlib.sha256(np.ascontiguousarray(sol.value).tobytes()
                + np.ascontiguousarray(sol.policy.table if hasattr(sol.policy, "table") else sol.policy).tobytes()).hexdigest()])
    if numba_ready and i > 3:
        break
    E._TIER.wait()  # a script's other work between solves: the load finishes
print(json.dumps({"calls": out, "numba": "numba" in sys.modules}))
"""


def test_a_process_that_keeps_solving_moves_to_numba_with_the_same_bits():
    """A fresh process: the first calls run numpy, then the compiled engine once loaded in the
    background; every call's value and policy have the same SHA-256."""
    pytest.importorskip("numba")
    out = subprocess.run(
        [sys.executable, "-c", _LOOP, "30", "12"], capture_output=True, text=True, check=True
    )
    res = json.loads(out.stdout.strip().splitlines()[-1])
    engines = [ready for ready, _ in res["calls"]]
    assert engines[:2] == [False, False] and engines[-1] is True and res["numba"]
    assert len({h for _, h in res["calls"]}) == 1
