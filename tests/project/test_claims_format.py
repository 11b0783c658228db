"""The report's formatters for rounding-level numbers, and that every analysis module imports."""

from __future__ import annotations

import importlib
import pkgutil
from fractions import Fraction

import pytest

import analyses
from analyses._claims import ROUNDING_FLOOR, near, tiny


@pytest.mark.parametrize("x", [0.0, -0.0, 2.2e-16, -2.554e-15, 5.6e-16, 7.6e-13, -9.99e-13])
def test_tiny_prints_only_the_bound_below_the_floor(x):
    assert tiny(x) == "< 1e-12"


def test_tiny_is_the_same_for_every_rounding_perturbation_of_zero():
    # what another CPU/BLAS/FMA may produce for an exact zero: any few ulps, either sign
    eps = 2.0**-52
    texts = {tiny(k * eps) for k in range(-40, 41)}
    assert texts == {"< 1e-12"}


@pytest.mark.parametrize(
    ("x", "digits", "text"),
    [
        (6.5e-07, 2, "6.5e-07"),
        (1.798e-06, 4, "1.798e-06"),
        (-2.31e-02, 3, "-2.31e-02"),
        (1e-12, 2, "1.0e-12"),
    ],
)
def test_tiny_keeps_real_numbers_in_short_scientific_format(x, digits, text):
    assert tiny(x, digits=digits) == text
    # at or above the floor it is exactly the format the scripts used before
    assert text == f"{x:.{digits - 1}e}"


def test_tiny_floor_and_nan():
    assert tiny(3e-10, floor=1e-9) == "< 1e-09"
    assert tiny(3e-10) == "3.0e-10"
    assert tiny(float("nan")) == "nan"
    assert ROUNDING_FLOOR == 1e-12


@pytest.mark.parametrize("bad", [0.0, -1e-12, 1.0, "1e-12"])
def test_tiny_rejects_bad_floor(bad):
    with pytest.raises(ValueError, match="floor"):
        tiny(1.0, floor=bad)


@pytest.mark.parametrize("bad", [0, 18, 2.0, True])
def test_tiny_rejects_bad_digits(bad):
    with pytest.raises(ValueError, match="digits"):
        tiny(1.0, digits=bad)


def test_near_names_the_exact_value_up_to_rounding():
    assert near(0.499999999999997, Fraction(1, 2)) == "1/2 to < 1e-12"
    assert near(0.5, Fraction(1, 2)) == "1/2 to < 1e-12"
    assert near(0.333333333333332, Fraction(1, 3)) == "1/3 to < 1e-12"
    assert near(1 / 3 + 4e-16, Fraction(1, 3), "one third") == "one third to < 1e-12"
    # not within the floor: the value itself, to 12 decimals (never the 15 that expose last bits)
    assert near(0.3656, Fraction(1, 3)) == "0.365600000000"
    assert near(0.5 + 2e-12, Fraction(1, 2)) == "0.500000000002"
    with pytest.raises(ValueError, match="digits"):
        near(0.5, Fraction(1, 2), digits=16)


def _analysis_modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(analyses.__path__, prefix="analyses."):
        names.append(info.name)
    return sorted(names)


def test_there_are_analysis_modules():
    mods = _analysis_modules()
    assert "analyses.z23.equilibrium" in mods and "analyses.multiplayer.sequential" in mods


@pytest.mark.parametrize("name", _analysis_modules())
def test_every_analysis_module_imports(name):
    mod = importlib.import_module(name)
    leaf = name.rsplit(".", 1)[-1]
    if not leaf.startswith("_") and not hasattr(mod, "__path__") and leaf != "run_all":
        # a claim script: a main() that returns the rows
        assert callable(getattr(mod, "main", None)), name
