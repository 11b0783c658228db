"""Doctests see the public names, as a user who ran ``from pigtheory import *`` would."""

import numpy as np
import pytest

import pigtheory
from pigtheory import simultaneous


@pytest.fixture(autouse=True)
def _doctest_names(doctest_namespace):
    doctest_namespace.update({name: getattr(pigtheory, name) for name in pigtheory.__all__})
    doctest_namespace.update({name: getattr(simultaneous, name) for name in simultaneous.__all__})
    doctest_namespace["np"] = np

# The docs' Sphinx configuration is not a module of the package.
collect_ignore = ["docs/conf.py"]
