"""Sealed JSON records: small files of work done (a sweep's tasks and index) that carry their
own checksum, so that a damaged or edited file is recognised and never reused as a result.

A record is a JSON object with one extra field, ``"sha256"``: the hex digest of the canonical
JSON (sorted keys, no spaces) of every other field. :func:`read_record` recomputes it; a file
that does not parse, is not an object, lacks the field or whose fields do not match it raises
:class:`DamagedRecord` (a ``ValueError``) saying which. The checksum finds damage and edits;
it is no signature (anybody can recompute it), and readers still check every field's type and
range.

Examples
--------
>>> import tempfile
>>> from pathlib import Path
>>> with tempfile.TemporaryDirectory() as folder:
...     path = write_record(Path(folder) / "task.json", {"goal": 10, "value": 0.5})
...     read_record(path)
{'goal': 10, 'value': 0.5}
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from ..io.atomic import atomic_write
from ..validation import check_path

__all__ = ["DamagedRecord", "write_record", "read_record", "checksum"]

FIELD = "sha256"
"""Name of the field that holds a record's checksum."""


class DamagedRecord(ValueError):
    """A record file that cannot be trusted: unreadable, not an object, or its checksum fails."""


def checksum(fields: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON of ``fields`` (sorted keys, compact, finite numbers only)."""
    if not isinstance(fields, dict):
        raise ValueError(f"fields must be a dict, got {type(fields).__name__}")
    try:
        text = json.dumps(fields, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise ValueError(f"fields: not JSON of finite numbers ({exc})") from None
    return hashlib.sha256(text.encode()).hexdigest()


def write_record(path: str | os.PathLike, fields: dict[str, Any]) -> Path:
    """Write ``fields`` with their checksum as one JSON object, atomically (mode 0644).

    Parameters
    ----------
    path : path-like
    fields : dict
        JSON-serialisable, finite numbers only, without the key ``"sha256"``.

    Returns
    -------
    pathlib.Path
    """
    path = check_path("path", path)
    if not isinstance(fields, dict):
        raise ValueError(f"fields must be a dict, got {type(fields).__name__}")
    if FIELD in fields:
        raise ValueError(f"fields: {FIELD!r} is the checksum's own field")
    doc = {**fields, FIELD: checksum(fields)}
    text = json.dumps(doc, indent=1, allow_nan=False) + "\n"

    def write(tmp: str) -> None:
        Path(tmp).write_text(text)

    return atomic_write(path, write)


def read_record(path: str | os.PathLike) -> dict[str, Any]:
    """The fields of a record written by :func:`write_record`, its checksum verified.

    Raises
    ------
    DamagedRecord
        The file cannot be read or parsed, holds no JSON object, has no checksum, or its
        fields do not match the checksum (damaged or edited); the message says which.
    """
    path = check_path("path", path)
    try:
        doc = json.loads(path.read_bytes().decode("utf-8"), parse_constant=_no_constant)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise DamagedRecord(f"{path}: unreadable ({type(exc).__name__}: {exc})") from None
    if not isinstance(doc, dict):
        raise DamagedRecord(f"{path}: expected a JSON object, got {type(doc).__name__}")
    stored = doc.pop(FIELD, None)
    if not isinstance(stored, str):
        raise DamagedRecord(f"{path}: no checksum (field {FIELD!r}); not written by this pigtheory")
    if checksum(doc) != stored:
        raise DamagedRecord(f"{path}: the checksum does not match its fields (damaged or edited)")
    return doc


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number in a record")
