"""Fixtures of the runtime's tests: the executors every path must agree on.

A Dask ``LocalCluster`` of two worker processes (free ports, no dashboard) and a process pool of
two, one of each per test module (starting a cluster takes a few seconds); the checkout's root,
for subprocesses that must import this pigtheory.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
"""The checkout (the folder that holds ``pigtheory/``)."""


@pytest.fixture(scope="module")
def client():
    """A Dask client on a LocalCluster of 2 worker processes (skipped without distributed)."""
    pytest.importorskip("distributed")
    from pigtheory.parallel import local_cluster

    with local_cluster(2) as c:
        yield c


@pytest.fixture(scope="module")
def pool():
    """A process pool of 2 workers."""
    with ProcessPoolExecutor(2) as p:
        yield p


@pytest.fixture
def root() -> Path:
    """The checkout's root folder."""
    return ROOT
