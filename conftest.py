"""Doctests see the public names, as a user who ran ``from pigtheory import *`` would."""

import os

import numpy as np
import pytest
from hypothesis import settings

import pigtheory
from pigtheory import simultaneous


@pytest.fixture(autouse=True)
def _doctest_names(doctest_namespace):
    doctest_namespace.update({name: getattr(pigtheory, name) for name in pigtheory.__all__})
    doctest_namespace.update({name: getattr(simultaneous, name) for name in simultaneous.__all__})
    doctest_namespace["np"] = np


# Property tests draw the same examples on every run of ``make test`` (a CI run is then the run
# that was checked here, not a new draw); ``make test-slow`` sets PIGTHEORY_HYPOTHESIS=explore
# and draws new ones each time, which is where a new hostile input is found.
settings.register_profile("pinned", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("PIGTHEORY_HYPOTHESIS", "pinned"))

# The docs' Sphinx configuration is not a module of the package.
collect_ignore = ["docs/conf.py"]
