"""The static play site: HTML, CSS and JavaScript from the package, data packed from solves.

The site is a folder that opens from ``file://`` or any static host (no server code, no
build step, nothing fetched from elsewhere)::

    index.html  style.css  engine.js  analysis.js  app.js
    data/catalog.js          the opponents: names, rules, descriptions, file sizes
    data/<key>.js            one per opponent: its tables and the person's values
    multi.html  multi.js     with multiplayer games: n-player sequential Pig, the person at
    data/multi-*.js          one seat, the equilibrium at the others (one file per game,
                             :func:`pigtheory.play.multiplayer.pack_multiplayer`)

Browsers refuse ``fetch`` of local files from a page opened as ``file://``, so every data
file is a script that hands a JSON object to the page (``PigSite.register({...})``); the
object is plain JSON (``json.loads`` reads it after the prefix).

Data format
-----------
Each opponent file holds ``{"key", "sections", "blob"}``: ``blob`` is base64 of one gzip
stream (written with mtime 0, so builds are byte-stable) of concatenated little-endian
arrays, each starting on a 4-byte boundary; ``sections[name]`` gives its ``offset``,
``length`` (elements), ``dtype`` and ``shape``. Sections:

``opponent_roll``, ``best_roll`` (dtype ``bits``)
    Roll tables, one bit per state ``(own, other, k)`` in C order, least significant bit
    first (``numpy.packbits(..., bitorder="little")``). Sequential: the opponent's and the
    person's best response (``best_roll`` is absent when it equals ``opponent_roll``, as
    against the optimum); simultaneous: the person's best stopping rule only.
``value`` (dtype ``fixed24``)
    The person's start-of-turn win probabilities ``V[i, j]`` (person first), rounded to
    multiples of ``2**-24`` (error at most ``3e-8``), stored as int32 second differences
    (along both axes) with the four bytes of every number in four separate planes: the
    smooth table then compresses to about 17 kB at goal 100 instead of 35 kB for float32.
``opponent_threshold``, ``mixed_threshold`` (``u8`` or ``u16``); ``mixed_state``, ``mixed_weight`` (``u32``)
    Simultaneous opponents: the threshold at each of its states (own score first); where it
    mixes, the state's index ``own * goal + other``, its thresholds and integer weights summing
    to ``2**32`` (:func:`pigtheory.play.rng.quantize_weights`), sampled with the shared
    generator.

The page rebuilds every other number from these (``analysis.js``): the values during a turn
and during the opponent's turn by the backward passes of
:mod:`pigtheory.sequential.best_response` and
:func:`pigtheory.simultaneous.best_response.turn_values`.
:func:`read_site_data` decodes a file in Python, for the tests.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
import os
import shutil
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np

from ..games import outcomes
from ..io import atomic_write, check_writable
from ..simultaneous.best_response import StoppingSolution
from ..validation import check_path
from .opponents import Opponent

__all__ = [
    "build_site",
    "check_site_folder",
    "MARKER",
    "SiteReport",
    "pack_opponent",
    "read_site_data",
    "STATIC_FILES",
    "FIXED_SCALE",
]

STATIC_FILES = ("index.html", "style.css", "engine.js", "analysis.js", "app.js")
"""The page's files, copied from the package into the site's folder."""
MULTI_FILES = ("multi.html", "multi.js")
"""The multiplayer page's files, copied when the site has multiplayer games."""
FIXED_SCALE = 1 << 24
"""Values are stored as integers: ``round(value * FIXED_SCALE)``."""


@dataclass(frozen=True)
class SiteReport:
    """What :func:`build_site` wrote: the folder, and bytes per file (relative paths).

    Attributes
    ----------
    out : pathlib.Path
        The site's folder.
    sizes : dict of str to int
        Bytes of every file written, by its path relative to ``out``.
    """

    out: Path
    sizes: dict

    @property
    def total_bytes(self) -> int:
        """Bytes of all the files written."""
        return sum(self.sizes.values())


def _rules_json(opp: Opponent) -> dict[str, Any]:
    r = opp.rules
    return {
        "goal": r.goal,
        "dieFaces": r.die_faces,
        "bustFace": r.bust_face,
        "dice": r.dice,
        "doubleTrouble": r.double_trouble,
        # the game model's outcome table (Rules.roll_outcome of every roll, numbered in base
        # dieFaces: pigtheory.games.Outcomes.to_json): the page's engine and analyst read a
        # roll only through it
        "rolls": outcomes(r).to_json(),
        "label": str(r).removesuffix(", 2 players"),
        "note": r.describe_roll(),
    }


def _planes(a: np.ndarray) -> bytes:
    """The bytes of a little-endian int32 array, plane by plane (all first bytes, ...)."""
    raw = np.frombuffer(np.ascontiguousarray(a, dtype="<i4").tobytes(), dtype=np.uint8)
    return raw.reshape(-1, 4).T.tobytes()


def _second_differences(q: np.ndarray) -> np.ndarray:
    return np.diff(np.diff(q, axis=0, prepend=0), axis=1, prepend=0)


def pack_opponent(opp: Opponent) -> dict[str, Any]:
    """The JSON object of one opponent's data file (see the module docstring).

    Returns
    -------
    dict
        ``{"key", "sections", "blob"}``: the sections' offsets, lengths, dtypes and shapes, and
        the base64 gzip stream of their arrays.
    """
    g = opp.rules.goal
    chunks: list[bytes] = []
    sections: dict[str, dict[str, Any]] = {}
    offset = 0

    def add(name: str, data: bytes, dtype: str, shape: tuple[int, ...], length: int) -> None:
        nonlocal offset
        pad = -offset % 4
        chunks.append(b"\0" * pad)
        offset += pad
        sections[name] = {"offset": offset, "length": length, "dtype": dtype, "shape": list(shape)}
        chunks.append(data)
        offset += len(data)

    def add_bits(name: str, table: np.ndarray) -> None:
        bits = np.packbits(np.asarray(table, dtype=bool).ravel(), bitorder="little")
        add(name, bits.tobytes(), "bits", table.shape, table.size)

    def add_ints(name: str, a: np.ndarray, dtype: str) -> None:
        np_dtype = {"u8": "<u1", "u16": "<u2", "u32": "<u4"}[dtype]
        a = np.asarray(a)
        add(name, np.ascontiguousarray(a, dtype=np_dtype).tobytes(), dtype, a.shape, a.size)

    resp = opp.response
    if opp.mode == "sequential":
        best = resp.policy[..., 0] if resp.policy.ndim == 4 else resp.policy
        start = resp.value[..., 0, 0] if resp.value.ndim == 4 else resp.value[:, :, 0]
        assert opp.table.roll is not None
        add_bits("opponent_roll", opp.table.roll)
        if not np.array_equal(best, opp.table.roll):
            add_bits("best_roll", best)
    else:
        th, w = opp.table.thresholds, opp.table.weights
        assert th is not None and w is not None
        tdtype = "u8" if g < 256 else "u16"
        n_used = (w > 0).sum(axis=-1)
        pure = np.take_along_axis(th, np.argmax(w, axis=-1)[..., None], axis=-1)[..., 0]
        add_ints("opponent_threshold", pure, tdtype)
        mixed = np.flatnonzero(n_used > 1)
        if mixed.size:
            width = int(n_used.max())
            m_th = np.zeros((mixed.size, width), dtype=np.int64)
            m_w = np.zeros((mixed.size, width), dtype=np.int64)
            for row, flat in enumerate(mixed.tolist()):
                own, other = divmod(flat, g)
                keep = np.flatnonzero(w[own, other] > 0)
                m_th[row, : keep.size] = th[own, other, keep]
                m_w[row, : keep.size] = w[own, other, keep]
            add_ints("mixed_state", mixed, "u32")
            add_ints("mixed_threshold", m_th, tdtype)
            add_ints("mixed_weight", m_w, "u32")
        assert isinstance(resp, StoppingSolution)
        add_bits("best_roll", resp.policy.roll)
        start = resp.value[:g, :g]
    q = np.round(np.asarray(start, dtype=float) * FIXED_SCALE).astype(np.int64)
    add("value", _planes(_second_differences(q)), "fixed24", q.shape, q.size)
    blob = gzip.compress(b"".join(chunks), compresslevel=9, mtime=0)
    return {"key": opp.key, "sections": sections, "blob": base64.b64encode(blob).decode("ascii")}


def read_site_data(path: str | os.PathLike) -> dict[str, np.ndarray]:
    """Decode an opponent's data file back into arrays (values as floats).

    Parameters
    ----------
    path : path-like
        A ``data/<key>.js`` file of a built site.

    Returns
    -------
    dict of str to numpy.ndarray
        One array per section of the module docstring, of the section's shape: roll tables
        bool ``(goal, goal, goal)``, ``value`` float ``(goal, goal)`` (rounded to multiples of
        ``2**-24``), thresholds and mixes as stored.
    """
    path = check_path("path", path)
    try:
        text = path.read_text(encoding="utf-8")
        obj = json.loads(text[text.index("(") + 1 : text.rindex(")")])
        raw = gzip.decompress(base64.b64decode(obj["blob"]))
        sections = dict(obj["sections"])
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, EOFError) as exc:
        raise ValueError(
            f"{path}: not an opponent's data file of a built site (data/<key>.js): {type(exc).__name__}: {exc}"
        ) from None
    out: dict[str, np.ndarray] = {}
    for name, sec in sections.items():
        shape, n, off = tuple(sec["shape"]), sec["length"], sec["offset"]
        if sec["dtype"] == "bits":
            nbytes = (n + 7) // 8
            bits = np.unpackbits(np.frombuffer(raw, np.uint8, nbytes, off), bitorder="little")[:n]
            out[name] = bits.astype(bool).reshape(shape)
        elif sec["dtype"] == "fixed24":
            planes = np.frombuffer(raw, np.uint8, 4 * n, off).reshape(4, n)
            d = np.frombuffer(planes.T.tobytes(), dtype="<i4").reshape(shape).astype(np.int64)
            out[name] = np.cumsum(np.cumsum(d, axis=0), axis=1) / FIXED_SCALE
        else:
            dtype = {"u8": "<u1", "u16": "<u2", "u32": "<u4"}[sec["dtype"]]
            out[name] = np.frombuffer(raw, dtype, n, off).reshape(shape)
    return out


def _catalog_entry(opp: Opponent, file: str, size: int) -> dict[str, Any]:
    resp = opp.response
    if opp.mode == "sequential":
        start = {"first": round(resp.first_player_win, 6), "second": round(resp.second_player_win, 6)}  # type: ignore[union-attr]
    else:
        start = {"start": round(float(resp.value[0, 0]), 6)}
    return {
        "key": opp.key,
        "name": opp.name,
        "about": opp.about,
        "mode": opp.mode,
        "rules": _rules_json(opp),
        "file": file,
        "bytes": size,
        "win": start,
    }


def _write_text(path: Path, text: str) -> int:
    """Write ``text`` to ``path`` atomically; returns the file's size in bytes."""

    def write(tmp: str) -> None:
        Path(tmp).write_text(text, encoding="utf-8")

    atomic_write(path, write)
    return path.stat().st_size


def _script(call: str, obj: Any) -> str:
    return f"PigSite.{call}({json.dumps(obj, sort_keys=True, separators=(',', ':'))});\n"


MARKER = ".pigtheory-site"
"""A file every built site holds, so that a later build knows the folder is a site it may replace."""


def check_site_folder(out: Any, *, force: bool = False) -> Path:
    """Check ``out`` before any work: where :func:`build_site` may put a site.

    Parameters
    ----------
    out : path-like
        A folder that does not exist yet, an empty folder, or a site built earlier (it holds
        :data:`MARKER`). Never ``""`` (that would be the working folder).
    force : bool
        Also accept a folder that holds other files: the site's files are put beside them
        (files of the same names are replaced), the others are left alone.

    Returns
    -------
    pathlib.Path

    Raises
    ------
    ValueError
        ``out`` is empty, a file, in a place that cannot be written, or a non-empty folder
        that is not a site (without ``force``).
    """
    if not isinstance(out, (str, os.PathLike)) or not os.fspath(out):
        raise ValueError(f"out: expected the path of a folder for the site, got {out!r}")
    out = Path(out)
    check_writable(out / "index.html", "out")  # names too long, loops of links, permissions
    if out.exists() and not out.is_dir():
        raise ValueError(f"out: {str(out)!r} is a file, expected a folder for the site")
    if out.is_dir() and not force and not (out / MARKER).exists() and any(out.iterdir()):
        raise ValueError(
            f"out: {str(out)!r} holds files that are not a pigtheory site; give an empty or new "
            "folder, or force=True (--force) to put the site beside them"
        )
    return out


def build_site(
    out: str | os.PathLike,
    opponents: Iterable[Opponent],
    *,
    title: str = "Play Pig",
    force: bool = False,
    multiplayer: Iterable[Any] = (),
) -> SiteReport:
    """Write the static site for ``opponents`` into the folder ``out``.

    The site is built whole in a temporary folder beside ``out`` and then moved into place,
    so that a failure (a full disk, an error in an opponent) leaves ``out`` as it was and no
    half-written site anywhere.

    Parameters
    ----------
    out : path-like
        A new or empty folder, or a site built earlier (replaced whole); see
        :func:`check_site_folder` for ``force``.
    opponents : iterable of Opponent
        In the order the page lists them (within each mode); keys must be unique.
    title : str
        The page's title, at most 200 characters (HTML-escaped in the page).
    force : bool
        Put the site into a folder that holds other files (they are left alone).
    multiplayer : iterable of MultiplayerOpponents
        Multiplayer sequential games (:func:`pigtheory.play.multiplayer.multiplayer_opponents`)
        for the page ``multi.html``, linked from the main page; keys must be unique.

    Returns
    -------
    SiteReport
        Every file written with its size in bytes.
    """
    out = check_site_folder(out, force=force)
    if isinstance(opponents, (str, bytes, dict)) or not isinstance(opponents, Iterable):
        raise ValueError(f"opponents must be a list of Opponent objects, got {opponents!r:.80}")
    opponents = list(opponents)
    for opp in opponents:
        if not isinstance(opp, Opponent):
            raise ValueError(
                f"opponents: expected Opponent objects (pigtheory.play.opponent(name) makes one), got {opp!r:.80}"
            )
    if not isinstance(title, str) or not 0 < len(title) <= 200:
        raise ValueError(f"title: expected text of 1 to 200 characters, got {title!r:.80}")
    if not isinstance(force, bool):
        raise ValueError(f"force must be True or False, got {force!r}")
    from .multiplayer import MultiplayerOpponents

    if isinstance(multiplayer, (str, bytes, dict)) or not isinstance(multiplayer, Iterable):
        raise ValueError(f"multiplayer must be a list of MultiplayerOpponents, got {multiplayer!r:.80}")
    multiplayer = list(multiplayer)
    for m in multiplayer:
        if not isinstance(m, MultiplayerOpponents):
            raise ValueError(f"multiplayer: expected MultiplayerOpponents, got {m!r:.80}")
    if len({m.key for m in multiplayer}) != len(multiplayer):
        raise ValueError("multiplayer: two games share a key (players, goal and passing)")
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".building", dir=out.parent))
    os.chmod(work, 0o755)  # mkdtemp's 0700 would hide the site from a web server's user
    try:
        sizes = _write_site(work, opponents, title, multiplayer)
        _move_into_place(work, out)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return SiteReport(out, sizes)


def _write_site(
    folder: Path, opponents: Iterable[Opponent], title: str, multiplayer: tuple | list = ()
) -> dict[str, int]:
    (folder / "data").mkdir(parents=True, exist_ok=True)
    sizes: dict[str, int] = {}
    static = files("pigtheory.play").joinpath("static")
    for name in STATIC_FILES:
        text = static.joinpath(name).read_text(encoding="utf-8")
        if name == "index.html":
            text = text.replace("{{title}}", html.escape(title, quote=True))
            if multiplayer:
                link = '<p><a href="multi.html" id="multi-link">Multiplayer games: you against the equilibrium</a></p>'
                text = text.replace("<!--multiplayer-->", link)
        sizes[name] = _write_text(folder / name, text)
    if multiplayer:
        from .multiplayer import pack_multiplayer

        tags = []
        for m in multiplayer:
            rel = f"data/{m.key}.js"
            obj = pack_multiplayer(m)
            sizes[rel] = _write_text(
                folder / rel,
                f"PigMulti.register({json.dumps(obj, sort_keys=True, separators=(',', ':'))});\n",
            )
            tags.append(f'<script src="{html.escape(rel, quote=True)}"></script>')
        for name in MULTI_FILES:
            text = static.joinpath(name).read_text(encoding="utf-8")
            if name == "multi.html":
                text = text.replace("{{title}}", html.escape(title, quote=True)).replace(
                    "{{scripts}}", "\n".join(tags)
                )
            sizes[name] = _write_text(folder / name, text)
    entries = []
    seen: set[str] = set()
    for opp in opponents:
        if not isinstance(opp, Opponent):
            raise ValueError(
                f"opponents: expected Opponent objects (pigtheory.play.opponent(name) makes one), got {opp!r:.80}"
            )
        if opp.key in seen:
            raise ValueError(f"opponents: two opponents share the key {opp.key!r}")
        seen.add(opp.key)
        rel = f"data/{opp.key}.js"
        sizes[rel] = _write_text(folder / rel, _script("register", pack_opponent(opp)))
        entries.append(_catalog_entry(opp, rel, sizes[rel]))
    if not entries:
        raise ValueError("opponents: the site needs at least one opponent")
    sizes["data/catalog.js"] = _write_text(
        folder / "data/catalog.js", _script("catalog", {"title": title, "opponents": entries})
    )
    sizes[MARKER] = _write_text(
        folder / MARKER, "A site built by pigtheory (pigtheory site); a new build replaces it whole.\n"
    )
    return sizes


def _move_into_place(work: Path, out: Path) -> None:
    """``work`` becomes ``out``: renamed where ``out`` is missing, empty or a site (the old
    site is moved aside first and removed after), else moved in file by file (``force``)."""
    if out.is_dir() and not (out / MARKER).exists() and any(out.iterdir()):
        for src in sorted(work.rglob("*")):
            if src.is_file():
                dest = out / src.relative_to(work)
                dest.parent.mkdir(parents=True, exist_ok=True)
                os.replace(src, dest)
        return
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".old", dir=out.parent))
        os.rmdir(old)
        os.replace(out, old)
    try:
        os.replace(work, out)
    except OSError:
        if old is not None:
            os.replace(old, out)  # put the earlier site back
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
