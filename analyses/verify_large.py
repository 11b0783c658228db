"""Stored records of the long multiplayer sequential solves, and their verification on demand.

``make claims`` cannot afford the largest solves of multiplayer sequential Pig (4 players at
goal 100 takes tens of minutes and 8.3 GiB). Their results are kept as small JSON records under
``analyses/records/``: the command, the rules, the package version, the start values by seat,
the certificate (NashConv and the largest one-shot deviation gains), the SHA-256 of the full
arrays (values and packed roll bits), and the run time, peak memory and machine as measured.

Usage (from the repository root)::

    python -m analyses.verify_large                      # verify every recorded record
    python -m analyses.verify_large seq_3p_goal100       # verify one
    python -m analyses.verify_large --record 3 100       # solve and write a record
    python -m analyses.verify_large --record 4 100 --enclose   # ... with certified bounds

A record whose ``status`` is ``"planned"`` holds no result (only what a run must compute); it
is listed and skipped. Verification solves again and compares: the SHA-256 of every array must
match exactly, the start values to the last bit (they are stored as ``float.hex``).

Notes
-----
The arrays are hashed as their raw bytes in C order with dtype and shape in the digest, so a
record names one exact result. The solver is deterministic (the same bits on 1 or more
threads; see ``docs/howto/multiplayer.md``), which is what makes an exact comparison possible.
A record made with ``--enclose`` also holds the certified bounds of its start values and an
upper bound of NashConv (:mod:`pigtheory.sequential.multiplayer.certify_float`); verifying it
recomputes them and compares the radius and the bound to the last bit.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import resource
import sys
import time
from pathlib import Path

import numpy as np

RECORDS = Path(__file__).resolve().parent / "records"
FORMAT = 1
REQUIRED = ("format", "name", "status", "command", "rules")
RESULT = (
    "package_version",
    "start_values",
    "start_values_hex",
    "opening_threshold",
    "certificate",
    "sha256",
    "measured",
)


def array_sha256(a: np.ndarray) -> str:
    """SHA-256 of an array's dtype, shape and bytes (C order)."""
    a = np.ascontiguousarray(a)
    h = hashlib.sha256(f"{a.dtype.str}{a.shape}".encode())
    h.update(a.reshape(-1).view(np.uint8))  # the bytes, without a copy of a large array
    return h.hexdigest()


def _machine() -> dict:
    try:
        mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):  # pragma: no cover - not POSIX
        mem = None
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:  # pragma: no cover
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_bytes": mem,
        "python": platform.python_version(),
        "system": platform.system(),
    }


def _outward(x: float, r: float) -> tuple[float, float]:
    """Floats ``lo <= x - r`` and ``hi >= x + r`` (exact rational sums rounded outward)."""
    import math
    from fractions import Fraction

    lo, hi = Fraction(x) - Fraction(r), Fraction(x) + Fraction(r)
    flo, fhi = float(lo), float(hi)
    if Fraction(flo) > lo:
        flo = math.nextafter(flo, -math.inf)
    if Fraction(fhi) < hi:
        fhi = math.nextafter(fhi, math.inf)
    return flo, fhi


def enclosure_fields(eq, max_memory: str | None = None) -> dict:
    """The certified bounds of a solved profile (:mod:`pigtheory.sequential.multiplayer.certify_float`)
    as a record's ``enclosure`` entry, with the time it took."""
    from pigtheory.sequential.multiplayer.certify_float import enclose_profile

    w0, c0 = time.perf_counter(), time.process_time()
    b = enclose_profile(eq, max_memory=max_memory)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    bounds = [_outward(float(v), b.start_radius) for v in b.start_value]
    return {
        "method": "a-posteriori interval residuals of the float values, propagated level by level "
        "(pigtheory.sequential.multiplayer.certify_float)",
        "start_radius": b.start_radius,
        "start_radius_hex": float(b.start_radius).hex(),
        "start_lower": [lo for lo, _ in bounds],
        "start_upper": [hi for _, hi in bounds],
        "best_response_radius": b.best_response_radius,
        "nash_conv_upper": b.nash_conv_upper,
        "nash_conv_upper_hex": float(b.nash_conv_upper).hex(),
        "max_residual": b.max_residual,
        "max_amplification": b.max_amplification,
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
    }


def compute(
    players: int, goal: int, threads: int = 1, max_memory: str | None = None, enclose: bool = False
) -> dict:
    """Solve ``players`` at ``goal`` (certified) and return the record's result fields; with
    ``enclose``, also the certified bounds of the start values and NashConv (``enclosure``)."""
    import pigtheory
    from pigtheory import Rules
    from pigtheory.sequential import equilibrium

    if not (isinstance(players, int) and 2 <= players <= 8):
        raise ValueError(f"players={players!r}: must be an int in 2..8")
    if not (isinstance(goal, int) and 2 <= goal <= 200):
        raise ValueError(f"goal={goal!r}: must be an int in 2..200")
    rules = Rules(goal=goal, players=players)
    w0, c0 = time.perf_counter(), time.process_time()
    eq = equilibrium(rules=rules, certify=True, threads=threads, progress=False, max_memory=max_memory)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    gains = np.asarray(eq.deviation_gain, dtype=float)
    start = [float(v) for v in eq.start_values]
    extra = {"enclosure": enclosure_fields(eq, max_memory)} if enclose else {}
    return extra | {
        "package_version": pigtheory.__version__,
        "start_values": [round(v, 12) for v in start],
        "start_values_hex": [v.hex() for v in start],
        "opening_threshold": int(eq.opening_threshold),
        "mixed_groups": int(len(eq.mixed_groups)),
        "several_groups": int(len(eq.several_groups)),
        "certificate": {
            "nash_conv": float(eq.nash_conv),
            "max_deviation_gain": float(np.nanmax(gains)),
        },
        "sha256": {
            "value": array_sha256(np.asarray(eq.value)),
            "roll_bits": array_sha256(np.asarray(eq.policy.roll_bits)),
        },
        "measured": {
            "wall_s": round(wall, 1),
            "cpu_s": round(cpu, 1),
            "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
            "threads": threads,
            "machine": _machine(),
        },
    }


def make_record(
    players: int, goal: int, threads: int = 1, max_memory: str | None = None, enclose: bool = False
) -> dict:
    """A complete ``recorded`` record of one solve."""
    name = f"seq_{players}p_goal{goal}"
    rec = {
        "format": FORMAT,
        "name": name,
        "status": "recorded",
        "command": f"python -m analyses.verify_large --record {players} {goal}",
        "rules": {"game": "sequential", "players": players, "goal": goal, "die_faces": 6, "bust_face": 1},
    }
    if enclose:
        rec["command"] += " --enclose"
    rec.update(compute(players, goal, threads, max_memory, enclose))
    return rec


def check_format(rec: dict) -> None:
    """Raise ``ValueError`` naming what is missing or malformed in a record."""
    for key in REQUIRED:
        if key not in rec:
            raise ValueError(f"record {rec.get('name', '?')!r}: missing {key!r}")
    if rec["status"] not in ("recorded", "planned"):
        raise ValueError(f"record {rec['name']!r}: status={rec['status']!r}, allowed 'recorded' or 'planned'")
    if rec["status"] == "recorded":
        for key in RESULT:
            if key not in rec:
                raise ValueError(f"record {rec['name']!r}: recorded but missing {key!r}")
        for k, v in rec["sha256"].items():
            if not (isinstance(v, str) and len(v) == 64 and all(c in "0123456789abcdef" for c in v)):
                raise ValueError(f"record {rec['name']!r}: sha256[{k!r}]={v!r} is not a hex digest")
        if len(rec["start_values"]) != rec["rules"]["players"]:
            raise ValueError(
                f"record {rec['name']!r}: {len(rec['start_values'])} start values for "
                f"{rec['rules']['players']} players"
            )


def load(name: str, root: Path | None = None) -> dict:
    """The record ``name`` (file ``root/name.json``, default :data:`RECORDS`), format-checked."""
    root = RECORDS if root is None else root
    path = root / f"{name}.json"
    if not path.is_file():
        known = sorted(p.stem for p in root.glob("*.json"))
        raise ValueError(f"record={name!r}: no such record; known: {', '.join(known)}")
    rec = json.loads(path.read_text())
    check_format(rec)
    return rec


def verify(rec: dict, fresh: dict | None = None, max_memory: str | None = None) -> list[str]:
    """Differences between a record and a fresh solve (empty when it verifies)."""
    if rec["status"] != "recorded":
        return []
    if fresh is None:
        enclose = "enclosure" in rec
        fresh = compute(rec["rules"]["players"], rec["rules"]["goal"], max_memory=max_memory, enclose=enclose)
    bad = []
    for k, v in rec["sha256"].items():
        if fresh["sha256"].get(k) != v:
            bad.append(f"sha256[{k}]: recorded {v[:16]}..., now {fresh['sha256'].get(k, '')[:16]}...")
    if fresh["start_values_hex"] != rec["start_values_hex"]:
        bad.append(f"start values: recorded {rec['start_values']}, now {fresh['start_values']}")
    if "enclosure" in rec:
        for k in ("start_radius_hex", "nash_conv_upper_hex"):
            if fresh.get("enclosure", {}).get(k) != rec["enclosure"][k]:
                bad.append(
                    f"enclosure {k}: recorded {rec['enclosure'][k]}, now {fresh.get('enclosure', {}).get(k)}"
                )
    if fresh["opening_threshold"] != rec["opening_threshold"]:
        bad.append(
            f"opening threshold: recorded {rec['opening_threshold']}, now {fresh['opening_threshold']}"
        )
    return bad


def write(rec: dict, root: Path | None = None) -> Path:
    """Write a record atomically as ``root/<name>.json`` (default :data:`RECORDS`)."""
    from pigtheory.io import atomic_write

    check_format(rec)
    root = RECORDS if root is None else root
    root.mkdir(parents=True, exist_ok=True)
    path = root / f"{rec['name']}.json"
    text = json.dumps(rec, indent=1, sort_keys=True) + "\n"
    atomic_write(path, lambda tmp: Path(tmp).write_text(text))
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="records to verify (default: all recorded)")
    parser.add_argument("--record", nargs=2, type=int, metavar=("PLAYERS", "GOAL"))
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--max-memory", help="the guard's limit, e.g. 14G (6 players at goal 22)")
    parser.add_argument("--enclose", action="store_true", help="also certify the start values and NashConv")
    args = parser.parse_args(argv)
    try:
        if args.record:
            path = write(
                make_record(
                    *args.record, threads=args.threads, max_memory=args.max_memory, enclose=args.enclose
                )
            )
            print(f"wrote {path.relative_to(RECORDS.parent.parent)}")
            return 0
        names = args.names or sorted(p.stem for p in RECORDS.glob("*.json"))
        failed = 0
        for name in names:
            rec = load(name)
            if rec["status"] == "planned":
                print(f"{name}: planned, not recorded here (skipped)")
                continue
            bad = verify(rec, max_memory=args.max_memory)
            print(f"{name}: {'OK' if not bad else 'MISMATCH'}")
            for line in bad:
                print(f"  {line}")
            failed += bool(bad)
        return 1 if failed else 0
    except ValueError as exc:
        print(f"verify_large: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
