"""Build the results paper: every number of the text from the data, then Typst.

Run from the repository root as ``python -m paper.build`` (``make paper``). It reads

- ``analyses/results.json``: every claim of ``make claims`` (paper's number, ours, status, note);
- ``analyses/records/*.json``: the stored records of the long solves (``analyses.verify_large``);
- ``analyses/certified.json``: the verified enclosures (``analyses.certified``);

and writes ``paper/_generated/data.json`` (keys of strings and tables, read by the Typst text
``paper/pigtheory.typ``), the docs page ``docs/paper.md``, and ``paper/pigtheory.pdf``.

Notes
-----
The text types no result: every number is a key of ``data.json`` (``tests/paper`` checks both
directions). Numbers quoted from a claim row are pulled out of its text by a pattern that must
match exactly once, so a change of ``results.json`` that moves a number breaks the build
instead of leaving a stale number in the paper. The PDF is byte-identical run to run: Typst is
deterministic, the document date is none and only Typst's embedded fonts are used.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAPER = ROOT / "paper"
GENERATED = PAPER / "_generated"
RESULTS = ROOT / "analyses" / "results.json"
RECORDS = ROOT / "analyses" / "records"
CERTIFIED = ROOT / "analyses" / "certified.json"
DOCS_PAGE = ROOT / "docs" / "paper.md"
STATUSES = ("reproduced", "differs", "not computable", "extension")


def _row(claims: list[dict], cid: str, contains: str = "") -> dict:
    rows = [c for c in claims if c["id"] == cid and contains in c["claim"]]
    if len(rows) != 1:
        raise ValueError(f"claim id={cid!r} containing {contains!r}: {len(rows)} rows, expected 1")
    return rows[0]


def _grab(text: str, pattern: str, what: str) -> tuple[str, ...]:
    found = re.findall(pattern, text)
    if len(found) != 1:
        raise ValueError(f"{what}: pattern {pattern!r} matches {len(found)} times in {text!r}")
    hit = found[0]
    return hit if isinstance(hit, tuple) else (hit,)


def _seats(text: str) -> list[str]:
    return [s.strip() for s in text.split(",")]


def headline(claims: list[dict]) -> dict[str, str]:
    """The numbers the prose quotes, by key, each pulled from one claim row."""
    h: dict[str, str] = {}
    m1 = _row(claims, "M.1")["ours"]
    for n, goal in ((2, 100), (3, 100), (4, 50), (5, 20), (6, 12)):
        (vals,) = _grab(m1, rf"n={n} goal {goal}: \(([^)]*)\)", f"M.1 n={n}")
        for seat, v in enumerate(_seats(vals), start=1):
            h[f"seq{n}_seat{seat}"] = v
        h[f"seq{n}_goal"] = str(goal)
    m2 = _row(claims, "M.2")["ours"]
    for n in (2, 3, 4, 5, 6):
        (t,) = _grab(m2, rf"n={n}: (\d+) \(goal", f"M.2 n={n}")
        h[f"seq{n}_opening"] = t
    (h["seq3_mixed_groups"],) = _grab(_row(claims, "M.3")["ours"], r"goal 100: (\d+)", "M.3")
    (h["seq3_several_groups"],) = _grab(_row(claims, "M.4")["ours"], r"goal 100: (\d+)", "M.4")
    (h["seq3_nonthreshold"],) = _grab(_row(claims, "M.6")["ours"], r"n=3 goal 100: (\d+)", "M.6")
    (h["seq2_nonthreshold"],) = _grab(_row(claims, "M.6")["ours"], r"n=2 goal 100: (\d+)", "M.6")
    h["goal"] = "100"  # the standard goal of Pig (pigtheory.Rules().goal), checked in tests
    n4 = _row(claims, "N.4")
    h["np_start_paper"], h["np_start"] = n4["paper"], n4["ours"]
    (h["np_equations"],) = (_row(claims, "N.3")["ours"],)
    br = _row(claims, "Z23.3", "win rate")
    h["br25_paper"], h["br25"] = br["paper"], br["ours"]
    (h["br25_long"],) = _grab(br["note"], r"ours (0\.\d+)", "Z23.3 note")
    h["br25_hardest"] = _row(claims, "Z23.3", "hardest")["ours"]
    h["sim_mixing_states"] = _row(claims, "Z23.N1")["ours"]
    h["sim_support"] = _row(claims, "Z23.N2")["ours"]
    h["sim_cycle_states"], h["sim_cycle_states_paper"] = (
        _row(claims, "Z23.6", "number of states")["ours"],
        _row(claims, "Z23.6", "number of states")["paper"],
    )
    h["expl_hold25"] = _row(claims, "Z23.N8")["ours"]
    h["expl_cycle1"] = _row(claims, "Z23.N4")["ours"]
    h["expl_mix5050"] = _row(claims, "Z23.11", "exploitability")["ours"]
    s1 = _seats(_row(claims, "Z23.S1")["ours"].replace(";", ","))
    h["sym3_states"], h["sym3_mixed"], h["sym3_support"] = s1[0], s1[2], s1[3]
    s5 = _seats(_row(claims, "Z23.S5")["ours"].replace(";", ","))
    h["sym4_states"], h["sym4_mixed"], h["sym4_opening"] = s5[0], s5[1], s5[2]
    h["sym3_opening"] = _seats(_row(claims, "Z23.S2")["ours"].replace(";", ","))[0]
    h["sym2_opening"] = _seats(_row(claims, "Z23.S9")["ours"].replace(";", ","))[0]
    h["sr_gain"] = _row(claims, "Z23.SR1")["ours"]
    h["sr_states"] = _row(claims, "Z23.SR2")["ours"]
    h["sr_needs"] = _row(claims, "Z23.SR4.3")["ours"]
    lim = _row(claims, "Z23.21")
    h["limit_paper"], h["limit"] = lim["paper"], lim["ours"]
    (h["limit_dev"],) = _grab(lim["note"], r"wins (0\.\d+) > 1/", "Z23.21 note")
    (h["limit_ratio"],) = _grab(_row(claims, "Z23.20")["note"], r"tends to .* = (0\.\d+) < 1", "Z23.20")
    h["z22_goal100"] = _row(claims, "Z22.1", "both optimal, goal 100")["ours"]
    h["z22_goal200"] = _row(claims, "Z22.1", "goal 200")["ours"]
    h["z22_hold"] = _row(claims, "Z22.2", "best hold")["ours"]
    h["z22_hold_win"] = _row(claims, "Z22.2", "optimal's average win")["ours"]
    (h["z22_mc"],) = _grab(_row(claims, "Z22.2", "all 78")["ours"], r"^(\d+/\d+)", "Z22.2")
    h["dt_hold"] = _row(claims, "Z22.4", "best hold")["ours"]
    h["dt_hold_win"] = _row(claims, "Z22.4", "optimal's average win")["ours"]
    h["np_adv25"] = _row(claims, "N.5", "hold at 25")["ours"]
    (h["np_adv25_at"],) = _grab(_row(claims, "N.5", "hold at 25")["claim"], r"hold at (\d+)", "N.5")
    (h["np_adv20_at"],) = _grab(_row(claims, "N.5", "hold at 20")["claim"], r"hold at (\d+)", "N.5")
    (h["piglet_goal"],) = _grab(_row(claims, "N.1")["claim"], r"Piglet to (\d+)", "N.1")
    (h["piglet2_goal"],) = _grab(_row(claims, "N.2")["claim"], r"Piglet to (\d+)", "N.2")
    (h["z22_se"],) = _grab(_row(claims, "Z22.2", "all 78")["ours"], r"within (\d+) MC SE", "Z22.2")
    (h["poster_at"],) = _grab(_row(claims, "V.1", "hold at 20: mean")["claim"], r"hold at (\d+)", "V.1")
    h["np_adv20"] = _row(claims, "N.5", "hold at 20")["ours"]
    (h["piglet_cells"],) = _grab(_row(claims, "N.1")["ours"], r"^(\d+/\d+)", "N.1")
    (h["piglet2"],) = _grab(_row(claims, "N.2")["note"], r"= (\d+/\d+)", "N.2")
    h["poster_best"] = _row(claims, "V.2")["ours"]
    h["poster_mean20"] = _row(claims, "V.1", "hold at 20: mean")["ours"]
    h["poster_mean20_paper"] = _row(claims, "V.1", "hold at 20: mean")["paper"]
    (h["supersix_rows"],) = _grab(_row(claims, "S.1")["ours"], r"^(\d+/\d+)", "S.1")
    z22 = _row(claims, "Z22.1", "text")
    h["z22_text_paper"], h["z22_text"] = z22["paper"], z22["ours"]
    # large counts with thousands separators, as a reader expects them
    return {k: f"{int(v):,}" if v.isdigit() and len(v) >= 5 else v for k, v in h.items()}


def counts(claims: list[dict]) -> dict[str, str]:
    """How many rows have each status, and how many rows come from the papers."""
    c = {s: sum(r["status"] == s for r in claims) for s in STATUSES}
    unknown = {r["status"] for r in claims} - set(STATUSES)
    if unknown:
        raise ValueError(f"results.json: unknown status {sorted(unknown)}, allowed {STATUSES}")
    return {
        "n_rows": str(len(claims)),
        "n_published": str(len(claims) - c["extension"]),
        "n_reproduced": str(c["reproduced"]),
        "n_differs": str(c["differs"]),
        "n_not_computable": str(c["not computable"]),
        "n_extension": str(c["extension"]),
    }


def _fmt_bytes(n: int) -> str:
    return f"{n / 2**30:.1f} GiB" if n >= 2**30 else f"{n / 2**20:.0f} MiB"


def records() -> list[dict[str, str]]:
    """The table of the long solves, one row per record, recorded first."""
    rows = []
    for path in sorted(RECORDS.glob("*.json")):
        rec = json.loads(path.read_text())
        rules = rec["rules"]
        row = {
            "name": rec["name"],
            "players": str(rules["players"]),
            "goal": str(rules["goal"]),
            "status": rec["status"],
            "run": "planned",
        }
        if rec["status"] == "recorded":
            m = rec["measured"]
            ch = rec.get("chunked")
            if ch is None:
                row["run"] = "in memory"
            else:
                row["run"] = f"chunked, {ch['workers']} workers" if ch.get("workers") else "chunked, serial"
            row.update(
                values=", ".join(f"{v:.5f}" for v in rec["start_values"]),
                opening=str(rec["opening_threshold"]),
                nashconv=f"{rec['certificate']['nash_conv']:.1e}",
                cpu=f"{m['cpu_s']:.1f} s",
                memory=_fmt_bytes(m["peak_rss_bytes"]),
                sha=rec["sha256"]["value"][:12],
                machine=f"{m['machine']['cpu']}, {m['machine']['cores']} cores, "
                f"{_fmt_bytes(m['machine']['memory_bytes'])}",
            )
        else:
            rep = rec.get("reported", {})
            row.update(
                values=rep.get("start_values", "-"),
                opening=rep.get("opening_threshold", "-"),
                nashconv=rep.get("nash_conv", "-"),
                cpu=rep.get("cpu", "-"),
                memory=rep.get("peak_memory", "-"),
                sha="not recorded",
                machine=rep.get("source", "-"),
            )
        rows.append(row)
    rows.sort(key=lambda r: (r["status"] != "recorded", int(r["players"]), int(r["goal"])))
    return rows


def certified() -> list[dict[str, str]]:
    """The verified enclosures, as strings (empty when ``analyses/certified.json`` is absent)."""
    if not CERTIFIED.is_file():
        return []
    out = []
    for e in json.loads(CERTIFIED.read_text())["enclosures"]:
        row = {k: str(e[k]) for k in ("key", "what", "method", "value", "enclosure", "width", "claim")}
        row["gain"] = e.get("bellman_gain_upper", "")
        out.append(row)
    return out


def collect() -> dict:
    """Everything the text reads, as one JSON-able dict."""
    claims = json.loads(RESULTS.read_text())["claims"]
    data: dict = {}
    data.update(counts(claims))
    data.update(headline(claims))
    from analyses.certified import certified_cell, certified_cells

    cells = certified_cells()
    data["claims"] = [
        {
            **{k: c[k] for k in ("id", "claim", "paper", "ours", "status")},
            "certified": certified_cell(cells, c["id"], c["claim"]),
        }
        for c in claims
    ]
    data["differs"] = [
        {k: c[k] for k in ("id", "claim", "paper", "ours", "note")}
        for c in claims
        if c["status"] == "differs"
    ]
    data["records"] = records()
    for path in sorted(RECORDS.glob("*.json")):
        rec = json.loads(path.read_text())
        if rec["status"] == "recorded":
            for seat, v in enumerate(rec["start_values"], start=1):
                data[f"rec_{rec['name']}_seat{seat}"] = f"{v:.5f}"
            data[f"rec_{rec['name']}_opening"] = str(rec["opening_threshold"])
            data[f"rec_{rec['name']}_goal"] = str(rec["rules"]["goal"])
            data[f"rec_{rec['name']}_mixed"] = f"{rec['mixed_groups']:,}"
            data[f"rec_{rec['name']}_cpu"] = f"{rec['measured']['cpu_s']:.0f}"
            data[f"rec_{rec['name']}_memory"] = _fmt_bytes(rec["measured"]["peak_rss_bytes"])
    machines = sorted({r["machine"] for r in data["records"] if r["status"] == "recorded"})
    data["record_machine"] = "; ".join(machines)
    data["certified"] = certified()
    for e in data["certified"]:
        data[f"cert_{e['key']}"] = e["value"]
        data[f"cert_{e['key']}_width"] = e["width"]
    return data


def docs_page(data: dict) -> str:
    """The HTML version: a MyST page with the same numbers (math by the site's offline MathJax)."""
    d = data
    lines = [
        "# The results paper",
        "",
        "<!-- generated by `python -m paper.build` (make paper) from analyses/results.json; do not edit -->",
        "",
        "The full text is {download}`paper/pigtheory.pdf <../paper/pigtheory.pdf>` (`make paper` builds",
        "it in the repository). This page holds its abstract and its tables, generated from the same",
        "data.",
        "",
        "## Abstract",
        "",
        ABSTRACT.format(**{k: v for k, v in d.items() if isinstance(v, str)}),
        "",
        "## Verified enclosures",
        "",
        "Each number below is enclosed in a ball $[m \\pm r]$ of arb ball arithmetic, which provably",
        "contains the exact real, or is exact; `python -m analyses.certified` recomputes them.",
        "",
        "| number | method | enclosure | width $2r$ |",
        "|---|---|---|---|",
    ]
    lines += [f"| {e['what']} | {e['method']} | `{e['enclosure']}` | {e['width']} |" for e in d["certified"]]
    lines += [
        "",
        "## Long solves",
        "",
        "| players | goal | run | P(win) by seat | CPU | peak memory |",
        "|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {r['players']} | {r['goal']} | {r['run']} | {r['values']} | {r['cpu']} | {r['memory']} |"
        for r in d["records"]
    ]
    lines += [
        "",
        "## Every claim",
        "",
        "| id | claim | paper | ours | status | certified |",
        "|---|---|---|---|---|---|",
    ]
    esc = lambda s: s.replace("|", "\\|")  # noqa: E731
    lines += [
        f"| {c['id']} | {esc(c['claim'])} | {esc(c['paper'])} | {esc(c['ours'])} | {c['status']} | {c['certified']} |"
        for c in d["claims"]
    ]
    return "\n".join(lines) + "\n"


# The abstract, shared by the PDF (through data.json) and the docs page.
ABSTRACT = (
    "We solve the dice game Pig and its relatives exactly and check every published number. "
    "Scores never decrease, so each game is a directed acyclic graph of score levels with a "
    "self-loop at every state (everybody busts), and each level is solved once, without a "
    "tolerance. Of {n_published} published claims, {n_reproduced} are reproduced and "
    "{n_differs} differ, each with its reason. Simultaneous Pig has an exact mixed equilibrium "
    "where self-play only cycles: it mixes at {sim_mixing_states} states. The fewest players "
    "from which everybody holding at the goal is an equilibrium is {limit}, not {limit_paper}. "
    "Multiplayer sequential Pig is solved and certified: at goal {goal} the seats of three "
    "players win {seq3_seat1}, {seq3_seat2} and {seq3_seat3}, each enclosed to a width of "
    "{cert_seq3_seat1_width}, and the profile's NashConv is at most {cert_seq3_nashconv}. "
    "The first player's optimal chance "
    "in two-player Pig, {cert_seq2_start}, is enclosed in ball arithmetic to a width of "
    "{cert_seq2_start_width}."
)


def main(argv: list[str] | None = None) -> int:
    import typst

    data = collect()
    data["abstract"] = ABSTRACT.format(**{k: v for k, v in data.items() if isinstance(v, str)})
    GENERATED.mkdir(exist_ok=True)
    (GENERATED / "data.json").write_text(
        json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    )
    DOCS_PAGE.write_text(docs_page(data))
    pdf = typst.compile(str(PAPER / "pigtheory.typ"), root=str(ROOT), ignore_system_fonts=True)
    (PAPER / "pigtheory.pdf").write_bytes(pdf)
    print(f"paper/pigtheory.pdf: {len(pdf):,} bytes; docs/paper.md; paper/_generated/data.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
