"""Fixtures of the runtime's tests: the checkout's root, for subprocesses that must import this
pigtheory (the executors every path must agree on, ``client`` and ``pool``, are in
``tests/conftest.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
"""The checkout (the folder that holds ``pigtheory/``)."""


@pytest.fixture
def root() -> Path:
    """The checkout's root folder."""
    return ROOT
