"""Pieces shared by the policy file formats: rules as JSON, axis names, building a policy of a
kind from its arrays and parameters, and how a JSON value is described in an error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..rules import Rules
from .kinds import PolicyKind, has_name_field, policy_class

__all__ = [
    "POLICY_FORMAT",
    "POLICY_VERSION",
    "POLICY_SUFFIXES",
    "VALUE_COLUMNS",
    "rules_to_dict",
    "rules_from_dict",
    "axis_names",
    "policy_fields",
    "extra_dims",
    "build_policy",
    "json_type",
    "reject_constant",
]

POLICY_FORMAT = "pigtheory-policy"
"""The ``format`` field of a JSON policy file."""
POLICY_VERSION = 1
"""The version of the policy file format, written into every policy file."""
POLICY_SUFFIXES = (".json", ".csv", ".npy")
"""The suffixes of the three policy file formats."""
VALUE_COLUMNS = ("threshold", "weight", "roll", "prob")
"""The value columns a CSV policy file may have; every other column is an axis of the table."""


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    """Every field of ``rules`` as JSON values.

    A subclass of :class:`~pigtheory.Rules` (a new die, defined outside the package) has a roll
    rule that no file can record: ``ValueError`` rather than a file that reads back as other
    rules.
    """
    if type(rules) is not Rules:
        raise ValueError(
            f"rules: a {type(rules).__name__} (a Rules subclass) cannot be written to a policy file; "
            "its roll rule is code, not fields"
        )
    out: dict[str, Any] = {f: getattr(rules, f) for f in rules.__dataclass_fields__}
    if out["face_points"] is not None:
        out["face_points"] = list(out["face_points"])
    return out


def rules_from_dict(data: Any, where: str) -> Rules | None:
    """Rules from their JSON form (``None`` stays None); errors name ``where`` and the field."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ValueError(f"{where}: expected an object of rules fields or null, got {json_type(data)}")
    fields = Rules.__dataclass_fields__
    for key in data:
        if key not in fields:
            raise ValueError(f"{where}.{key}: unknown rules field (expected {', '.join(fields)})")
    kw = dict(data)
    if isinstance(kw.get("face_points"), list):
        kw["face_points"] = tuple(kw["face_points"])
    try:
        return Rules(**kw)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{where}: {exc}") from None


def axis_names(ndim: int, extra: tuple[str, ...] = ()) -> list[str]:
    """Column names of a table with ``ndim`` state axes (own score first), then ``extra``."""
    if ndim == 1:
        state = ["own"]
    elif ndim == 2:
        state = ["own", "other"]
    else:
        state = ["own"] + [f"other{n}" for n in range(1, ndim)]
    return state + list(extra)


def policy_fields(policy: Any, kind: PolicyKind) -> tuple[dict[str, np.ndarray], dict[str, Any], str | None]:
    """The arrays, parameters and name (None if the class has none) of a policy of ``kind``.

    Returns
    -------
    arrays : dict of str to numpy.ndarray
        ``kind.arrays``' fields, as stored (own score first).
    params : dict
        ``kind.params``' fields, as plain Python scalars.
    name : str or None
    """
    arrays = {a: np.asarray(getattr(policy, a)) for a, _ in kind.arrays}
    params = {p: _plain(getattr(policy, p)) for p in kind.params}
    name = getattr(policy, "name", None) if has_name_field(type(policy)) else None
    return arrays, params, name


def _plain(x: Any) -> Any:
    return x.item() if isinstance(x, np.generic) else x


def extra_dims(kind: PolicyKind, arr: np.ndarray) -> int:
    """How many axes of ``arr`` come after the state axes."""
    if kind.name == "roll_table":
        return arr.ndim - 2  # own, other, then turn total (and forced)
    return len(kind.extra_axes)


def build_policy(kind: PolicyKind, arrays: dict, params: dict, name: Any, path: Path, where: str) -> Any:
    """``Class(**arrays, **params, name=name)`` of ``kind``; its ``ValueError`` names the file.

    Parameters
    ----------
    kind : PolicyKind
    arrays, params : dict
        The fields read from the file.
    name : str or None
        Passed when the class has a ``name`` field.
    path : pathlib.Path
        The file, for error messages.
    where : str
        The place in the file, for error messages.

    Returns
    -------
    policy
        An instance of ``kind``'s class.
    """
    cls = policy_class(kind)
    if cls is None:
        raise ValueError(f"{path}: {where}: this pigtheory has no {kind.cls} for kind {kind.name!r}")
    kw = {**arrays, **params}
    if name is not None:
        if not isinstance(name, str):
            raise ValueError(f"{path}: field name: expected a string, got {json_type(name)}")
        if has_name_field(cls):
            kw["name"] = name
    try:
        return cls(**kw)
    except TypeError as exc:
        raise ValueError(f"{path}: {where}: {exc}") from None
    except ValueError as exc:
        raise ValueError(f"{path}: {where}: {exc}") from None


def json_type(x: Any) -> str:
    """How an error describes the JSON value ``x`` ("a list", "a number (2.5)")."""
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(x), f"a number ({x!r})" if isinstance(x, (int, float)) else type(x).__name__
    )


def reject_constant(name: str) -> Any:
    """``json.loads(parse_constant=...)``: NaN and Infinity are not JSON."""
    raise ValueError(f"{name} is not a number JSON allows")
