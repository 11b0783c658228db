"""Fixtures shared by the tests of several parts: the executors every chunked and parallel path
must agree on. A Dask ``LocalCluster`` of two worker processes (free ports, no dashboard: a
taken port 8787 made distributed leak a socket) and a process pool of two, one of each per test
module (starting a cluster takes a few seconds). The Hypothesis profiles are in the checkout's
``conftest.py``."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import pytest


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
