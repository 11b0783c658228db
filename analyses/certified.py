"""Verified enclosures of the paper's headline numbers, in arb ball arithmetic or exact rationals.

Usage (from the repository root)::

    python -m analyses.certified            # recompute and write analyses/certified.json (~1 min)
    python -m analyses.certified --check    # recompute and compare with the stored file

Every computation here is generic over a *field*: :class:`Balls` (python-flint's ``arb``, a
midpoint and a radius that provably contains the exact real) or :class:`Exact`
(``fractions.Fraction``, for small goals in the tests). The floating-point solvers of
:mod:`pigtheory` only supply the *policy* to check (which action at which state); every value
is computed again in the field, from the rules alone.

Notes
-----
**Two-player sequential Pig** (Neller & Presser). For a fixed policy, the win probability of the
mover at ``(i, j, k)`` depends on the states of the same score pair only through
``x = P(j, i, 0)``, the opponent's start-of-turn value after a bust or a hold at ``k = 0``. Going
down the turn total, each value is affine, ``P(i, j, k) = A_k + B_k x``, with

    roll:  A_k = 1/6 + 1/6 sum_{r=2..6} A_{k+r},   B_k = -1/6 + 1/6 sum_{r=2..6} B_{k+r}
    hold:  A_k = 1 - P(j, i + k, 0), B_k = 0   (k >= 1; a higher score sum, already enclosed)
    hold at k = 0:  A_0 = 1, B_0 = -1,

(``A = 1, B = 0`` once ``i + k >= goal``). The pair ``(i, j), (j, i)`` then gives two affine
equations ``y = A + B x``, ``x = A' + B' y`` solved in the field: the enclosure contains the
exact value of the policy. **Optimality**: at every state the other action's value, computed
from the same enclosures, is compared with the policy's; the largest upper bound of its gain is
reported (a one-shot deviation bound).

**Simultaneous Pig, best response to "hold at n"** (Zhu et al. 2023). Scores never decrease, so
with the higher score levels enclosed the state's value solves ``V = max_k (a_k + c_k V)``, whose
solution is ``max_k a_k / (1 - c_k)`` (``docs/explanation/dag.md``). Each ratio is enclosed and
the maximum of enclosures encloses the maximum, so no policy is needed: the enclosure is of the
exact best-response value over all thresholds.

**Simultaneous equilibrium at the start**: the game is symmetric and constant-sum (A's and B's
win probabilities add to one, a tie counting one half each), so its value at ``(0, 0)`` is
exactly one half; no computation is needed and none is done. With ``n`` players, every player
of a *symmetric* profile has the same chance at the start and the chances add to one (the game
ends with probability one and a tie shares the win), so the symmetric equilibrium's start value
is exactly ``1/n``; that the profile *is* an equilibrium rests on the solver's floating-point
certificate (largest deviation gain below 1e-12), which is not redone here.

**Multiplayer sequential Pig** (3 players at goal 100 here, 4 players at goal 100 from its
stored record). Ball arithmetic over 10^6-10^8 score tuples in Python is too slow, so the
solver's float values ``W`` are enclosed a posteriori
(:mod:`pigtheory.sequential.multiplayer.certify_float`): the residual of the profile's own
equations ``W = T(W)`` (the die's chances exact, the stored mixing probabilities as exact
numbers) is bounded in interval arithmetic with outward rounding at every tuple, and carried
down the score levels, amplified within a rotation group by at most ``n / (1 - rho)``, ``rho``
the chance that all ``n`` turns end in a bust. The same for each seat's exact best response
gives a certified upper bound of NashConv. The bounds are for the profile *as played* (the
float mixing probabilities), which is the profile the quoted values belong to.

References
----------
Neller, T. W. & Presser, C. G. M. (2004), Optimal play of the dice game Pig, The UMAP Journal 25(1).
Zhu, T., Ma, M., Chen, L. & Liu, Z. (2023), Scientific Reports 13.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from fractions import Fraction
from pathlib import Path

from flint import arb, ctx, fmpq

OUT = Path(__file__).resolve().parent / "certified.json"
PREC = 200  # bits of arb precision: radii near 1e-55, far below the 1e-12 asked
MAX_WIDTH = 1e-12


class Exact:
    """Exact rationals (small goals)."""

    name = "exact rationals"

    @staticmethod
    def const(q: Fraction) -> Fraction:
        return Fraction(q)

    @staticmethod
    def max(a, b):
        return a if a >= b else b

    @staticmethod
    def upper(a) -> float:
        return float(a)


class Balls:
    """python-flint ``arb`` balls at :data:`PREC` bits."""

    name = "arb ball arithmetic"

    def __init__(self) -> None:
        ctx.prec = PREC

    @staticmethod
    def const(q: Fraction) -> arb:
        return arb(fmpq(q.numerator, q.denominator))

    @staticmethod
    def max(a, b):
        return a.max(b)

    @staticmethod
    def upper(a) -> float:
        return float(a.upper())


def _check_goal(goal: int, low: int = 2, high: int = 200) -> int:
    if not (isinstance(goal, int) and low <= goal <= high):
        raise ValueError(f"goal={goal!r}: must be an int in {low}..{high}")
    return goal


# -- two-player sequential Pig ------------------------------------------------------------


def sequential_policy_value(roll, goal: int, field) -> tuple[dict, object]:
    """Start-of-turn values ``P(i, j, 0)`` of a fixed two-player policy, and the largest gain bound.

    ``roll[i, j, k]`` (True: roll) is the policy for both players, own score first. Returns the
    dict ``{(i, j): P(i, j, 0)}`` in the field and the largest upper bound of what the other
    action gains at any state (a float; the optimality check).
    """
    goal = _check_goal(goal)
    sixth = field.const(Fraction(1, 6))
    one = field.const(Fraction(1))
    zero = field.const(Fraction(0))
    start: dict = {}
    worst = float("-inf")

    def affine(i, j):
        """(A, B, gainA, gainB) lists of the mover at (i, j) over k, in terms of x = P(j, i, 0)."""
        top = goal - i
        A = [one] * (top + 6)
        B = [zero] * (top + 6)
        other = [None] * top
        for k in range(top - 1, -1, -1):
            ra = sixth + sixth * (A[k + 2] + A[k + 3] + A[k + 4] + A[k + 5] + A[k + 6])
            rb = -sixth + sixth * (B[k + 2] + B[k + 3] + B[k + 4] + B[k + 5] + B[k + 6])
            if k == 0:
                ha, hb = one, -one
            else:
                ha, hb = one - start[(j, i + k)], zero
            if roll[i][j][k]:
                A[k], B[k], other[k] = ra, rb, (ha - ra, hb - rb)
            else:
                A[k], B[k], other[k] = ha, hb, (ra - ha, rb - hb)
        return A[0], B[0], other

    for level in range(2 * (goal - 1), -1, -1):
        for i in range(max(0, level - goal + 1), min(goal - 1, level) + 1):
            j = level - i
            if j < i:
                continue
            a, b, gi = affine(i, j)
            if i == j:
                y = a / (one - b)
                x = y
                gj = gi
            else:
                a2, b2, gj = affine(j, i)
                y = (a + b * a2) / (one - b * b2)  # P(i, j, 0)
                x = a2 + b2 * y  # P(j, i, 0)
            start[(i, j)], start[(j, i)] = y, x
            for gains, xs in ((gi, x), (gj, y)):
                for da, db in gains:
                    worst = max(worst, field.upper(da + db * xs))
    return start, worst


def sequential_start(goal: int = 100, field=None) -> dict:
    """Enclosure of the first player's optimal win probability in two-player sequential Pig."""
    from pigtheory import Rules
    from pigtheory.sequential import solve

    field = field or Balls()
    sol = solve(rules=Rules(goal=_check_goal(goal), players=2))
    roll = sol.policy.tolist()
    t0 = time.perf_counter()
    start, gain = sequential_policy_value(roll, goal, field)
    return {
        "value": start[(0, 0)],
        "gain": gain,
        "float": float(sol.value[0, 0, 0]),
        "seconds": time.perf_counter() - t0,
    }


# -- simultaneous Pig: best response to hold at n ---------------------------------------


def turn_distribution(k: int, room: int) -> dict[int, Fraction]:
    """Exact law of a turn's points when holding at ``min(k, room)``: ``{0: bust, x: P}``."""
    stop = min(k, room)
    law: dict[int, Fraction] = {}
    live = {0: Fraction(1)}
    while live:
        nxt: dict[int, Fraction] = {}
        for t, p in live.items():
            if t >= stop and t > 0:
                law[t] = law.get(t, Fraction(0)) + p
                continue
            law[0] = law.get(0, Fraction(0)) + p / 6
            for r in range(2, 7):
                nxt[t + r] = nxt.get(t + r, Fraction(0)) + p / 6
        live = nxt
    return law


def simultaneous_best_response(n: int, goal: int, field) -> object:
    """Enclosure of the best response's value at (0, 0) against "hold at n" (two players)."""
    goal = _check_goal(goal)
    if not (isinstance(n, int) and 1 <= n <= goal):
        raise ValueError(f"n={n!r}: must be an int in 1..goal ({goal})")
    laws: dict = {}

    def law(k, room):
        key = min(k, room)
        if key not in laws:
            laws[key] = {x: field.const(p) for x, p in turn_distribution(key, room).items()}
        return laws[key]

    half, one, zero = (field.const(Fraction(v)) for v in (Fraction(1, 2), 1, 0))
    V: dict = {}

    def val(i, j):
        i, j = min(i, goal), min(j, goal)
        if i >= goal:
            return half if j >= goal else one
        if j >= goal:
            return zero
        return V[(i, j)]

    for level in range(2 * (goal - 1), -1, -1):
        for i in range(max(0, level - goal + 1), min(goal - 1, level) + 1):
            j = level - i
            opp = law(n, goal - j)
            room = goal - i
            W: dict = {}
            best = None
            for k in range(1, room + 1):
                mine = law(k, room)
                a = zero
                for x, px in mine.items():
                    if x not in W:
                        W[x] = sum((py * val(i + x, j + y) for y, py in opp.items() if x or y), zero)
                    a = a + px * W[x]
                c = mine.get(0, zero) * opp.get(0, zero)
                r = a / (one - c)
                best = r if best is None else field.max(best, r)
            V[(i, j)] = best
    return V[(0, 0)]


# -- the file ----------------------------------------------------------------------------


def _entry(key, what, method, ball, claim, contains, seconds, gain=None) -> dict:
    width = float((2 * ball.rad()).upper())
    if width > MAX_WIDTH:
        raise ArithmeticError(f"{key}: enclosure width {width:.1e} above {MAX_WIDTH:.0e}")
    out = {
        "key": key,
        "what": what,
        "method": method,
        "claim": claim,
        "claim_contains": contains,
        "value": ball.mid().str(16, radius=False),
        "enclosure": ball.str(20, radius=True),
        "width": f"{width:.1e}",
        "seconds": round(seconds, 1),
    }
    if gain is not None:
        out["bellman_gain_upper"] = f"{gain:.1e}"
    return out


def certified_cells(path: Path = OUT) -> dict[tuple[str, str], str]:
    """``{(claim id, claim text): cell}`` for the report's *certified* column."""
    if not path.is_file():
        return {}
    cells = {}
    for e in json.loads(path.read_text())["enclosures"]:
        how = e.get("cell") or ("exact" if e["width"] == "0" else f"arb, width {e['width']}")
        cells[(e["claim"], e["claim_contains"])] = how
    return cells


def certified_cell(cells: dict, claim_id: str, claim: str) -> str:
    """The cell of one report row: how its number is certified, or empty."""
    return next((v for (cid, part), v in cells.items() if cid == claim_id and part in claim), "")


# -- multiplayer sequential Pig: the float profile's a-posteriori enclosure -------------------

MULTI_METHOD = "a-posteriori interval bound of the float values (profile as played)"
RECORDS = Path(__file__).resolve().parent / "records"


def _multiplayer_entries(
    n: int, goal: int, bounds: dict, seconds: float, source: str, claim: str
) -> list[dict]:
    """Table rows of one game's certified start values and NashConv bound (``bounds``: a
    record's ``enclosure`` fields, start values included); the first seat's row supports the
    report row ``claim`` (none if empty)."""
    rad = bounds["start_radius"]
    width = float(2 * rad)
    out = []
    for s, v in enumerate(bounds["start_value"], start=1):
        out.append(
            {
                "key": f"seq{n}_seat{s}",
                "what": f"{n}-player sequential Pig, goal {goal}: seat {s}'s win at the start",
                "method": MULTI_METHOD + source,
                "claim": claim if s == 1 else "",
                "claim_contains": "P(win) by seat" if (s == 1 and claim) else "",
                "cell": f"n={n} goal {goal}: interval, width {width:.1e}",
                "value": repr(float(v)),
                "enclosure": f"[{float(v)!r} +/- {rad:.2e}]",
                "width": f"{width:.1e}",
                "seconds": round(seconds, 1),
            }
        )
    out.append(
        {
            "key": f"seq{n}_nashconv",
            "what": f"{n}-player sequential Pig, goal {goal}: NashConv of the profile as played",
            "method": "from the certified best-response and profile bounds" + source,
            "claim": "",
            "claim_contains": "",
            "value": f"{bounds['nash_conv_upper']:.1e}",
            "enclosure": f"[0, {bounds['nash_conv_upper']:.2e}]",
            "width": f"{bounds['nash_conv_upper']:.1e}",
            "seconds": round(seconds, 1),
        }
    )
    return out


def multiplayer_solved(n: int, goal: int) -> list[dict]:
    """Solve ``n`` players at ``goal`` and enclose (3 players at goal 100: about 15 s)."""
    from analyses.verify_large import enclosure_fields
    from pigtheory import Rules
    from pigtheory.sequential import equilibrium

    t0 = time.perf_counter()
    eq = equilibrium(rules=Rules(goal=goal, players=n), progress=False)
    bounds = enclosure_fields(eq) | {"start_value": [float(v) for v in eq.start_values]}
    return _multiplayer_entries(n, goal, bounds, time.perf_counter() - t0, "", "M.1")


def multiplayer_recorded(name: str) -> list[dict]:
    """The enclosure stored in a record of ``analyses/records`` (``make verify-large`` redoes
    it); none if the record holds none."""
    rec = json.loads((RECORDS / f"{name}.json").read_text())
    if "enclosure" not in rec:
        return []
    bounds = rec["enclosure"] | {"start_value": [float.fromhex(h) for h in rec["start_values_hex"]]}
    n, goal = rec["rules"]["players"], rec["rules"]["goal"]
    seconds = rec["measured"]["cpu_s"] + rec["enclosure"]["cpu_s"]  # CPU of the solve and the bounds
    return _multiplayer_entries(n, goal, bounds, seconds, f"; record {name}", "")


def compute_all(goal: int = 100) -> dict:
    """Every enclosure of the paper, as the JSON-able content of ``certified.json``."""
    field = Balls()
    out = []
    s = sequential_start(goal, field)
    out.append(
        _entry(
            "seq2_start",
            f"two-player sequential Pig, goal {goal}: first player's optimal win",
            "interval solve of the policy's equations; interval Bellman check",
            s["value"],
            "N.4",
            "optimal first player",
            s["seconds"],
            s["gain"],
        )
    )
    t0 = time.perf_counter()
    br = simultaneous_best_response(25, goal, field)
    out.append(
        _entry(
            "br25",
            f"simultaneous Pig, goal {goal}: best response to hold at 25 at the start",
            "interval backward induction, max of enclosed ratios",
            br,
            "Z23.3",
            "win rate",
            time.perf_counter() - t0,
        )
    )
    out.append(
        {
            "key": "sim_eq_start",
            "what": f"simultaneous Pig, goal {goal}: equilibrium value at the start",
            "method": "exact: a symmetric constant-sum game",
            "claim": "Z23.N3",
            "claim_contains": "equilibrium value",
            "value": "0.5",
            "enclosure": "1/2",
            "width": "0",
            "seconds": 0.0,
        }
    )
    for n, cid, part in ((3, "Z23.S2", "value there"), (4, "", "")):
        out.append(
            {
                "key": f"sym{n}_start",
                "claim": cid,
                "claim_contains": part,
                "what": f"simultaneous Pig, {n} players, goal {goal}: symmetric profile's value at the start",
                "method": "exact: a symmetric profile of a symmetric game, ties shared (equilibrium: float certificate)",
                "value": f"1/{n}",
                "enclosure": f"1/{n}",
                "width": "0",
                "seconds": 0.0,
            }
        )
    out += multiplayer_solved(3, goal)
    out += multiplayer_recorded(f"seq_4p_goal{goal}")
    return {"precision_bits": PREC, "enclosures": out}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the stored file")
    args = parser.parse_args(argv)
    data = compute_all()
    strip = lambda d: [  # noqa: E731
        {k: v for k, v in e.items() if k != "seconds" and not k.startswith("cpu")} for e in d["enclosures"]
    ]
    for e in data["enclosures"]:
        print(f"{e['key']}: {e['enclosure']} width {e['width']} ({e['seconds']} s)")
    if args.check:
        stored = json.loads(OUT.read_text())
        same = strip(stored) == strip(data)
        print("certified.json:", "same enclosures" if same else "DIFFERS")
        return 0 if same else 1
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
