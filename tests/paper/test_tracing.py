"""The results paper: no number typed by hand, every key it reads exists, same bytes run to run."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from paper import build

ROOT = Path(__file__).resolve().parents[2]
# The text; template.typ is page layout (sizes, spacing), no prose.
TEXT = ROOT / "paper" / "pigtheory.typ"
SOURCES = [TEXT]
NAMES = re.compile(r"SHA-256")  # names that contain digits
DATA = ROOT / "paper" / "_generated" / "data.json"
YEAR = re.compile(r"\b(19|20)\d\d\b")


def prose(source: str) -> str:
    """The Typst markup that a reader sees, with code, labels, references and comments removed.

    Removed: ``//`` comments; lines of code (``#import``, ``#let``, ``#set``, ``#show``);
    ``#d.key`` reads of the data; ``<label>`` and ``@ref`` (citation keys, labels); code
    arguments of functions (``width: 78%``, ``columns: (...)``); raw text in backticks
    (commands and file names); math keeps only what is not a single digit.
    """
    text = NAMES.sub(" ", re.sub(r"//[^\n]*", "", source))
    text = "\n".join(line for line in text.splitlines() if not re.match(r"\s*#(import|let|set|show)\b", line))
    text = re.sub(r"#d\.[A-Za-z0-9_]+", " KEY ", text)
    text = re.sub(r"<[a-z][a-z0-9-]*>", " ", text)
    text = re.sub(r"@[a-z][a-z0-9-]*", " ", text)
    text = re.sub(r"`[^`]*`", " ", text)
    # code arguments: name: value up to the next comma or bracket (sizes, columns, styles)
    text = re.sub(r"\b[a-z-]+: *\([^()]*\)", " ", text)
    text = re.sub(r"\b[a-z-]+: *[0-9.]+(%|pt|cm|em|fr)?", " ", text)
    text = re.sub(r'"[^"]*\.(pdf|svg|png|yml|json)"', " ", text)
    # single digits in math are constants of a formula (1 - c, k + 1), not results
    text = re.sub(r"\$[^$]*\$", lambda m: re.sub(r"(?<![\d.])\d(?![\d.])", " ", m.group(0)), text)
    return text


def test_no_number_typed_by_hand():
    assert SOURCES, "no Typst sources under paper/"
    hits = []
    for path in SOURCES:
        for line in prose(path.read_text()).splitlines():
            for m in re.finditer(r"\d+([.,]\d+)*", YEAR.sub(" ", line)):
                hits.append(f"{path.name}: {m.group(0)!r} in {line.strip()[:80]!r}")
    assert hits == [], "numbers typed by hand (make them keys of data.json):\n" + "\n".join(hits)


def test_the_scanner_finds_a_number_typed_by_hand():
    typed = "The first player wins #d.np_start, that is 0.5306, and opens at 21.\n"
    found = re.findall(r"\d+([.,]\d+)*", prose(typed))
    assert len(found) == 2
    assert re.findall(r"\d+", prose("See @zhu2023 and <fig-limit>; $1 - c_k$ and #d.seq3_seat1.")) == []


def test_every_key_the_text_reads_exists():
    data = json.loads(DATA.read_text())
    keys = set()
    for path in SOURCES:
        keys |= set(re.findall(r"\bd\.([A-Za-z0-9_]+)", path.read_text()))
    assert keys, "the text reads no data"
    missing = sorted(k for k in keys if k not in data)
    assert missing == []


def test_data_is_what_the_generator_writes_now():
    """data.json is in sync with results.json, the records and certified.json."""
    data = build.collect()
    data["abstract"] = build.ABSTRACT.format(**{k: v for k, v in data.items() if isinstance(v, str)})
    assert json.loads(DATA.read_text()) == json.loads(json.dumps(data))


def test_headline_numbers_come_from_the_claims():
    claims = json.loads(build.RESULTS.read_text())["claims"]
    h = build.headline(claims)
    by_id = {c["id"]: c for c in claims}
    assert h["np_start"] == by_id["N.4"]["ours"]
    assert f"({h['seq3_seat1']}, {h['seq3_seat2']}, {h['seq3_seat3']})" in by_id["M.1"]["ours"]
    assert h["limit"] == by_id["Z23.21"]["ours"]
    from pigtheory import Rules

    assert h["goal"] == str(Rules().goal)
    # the three seats of three players share the whole probability (rounding to 4 digits)
    assert abs(sum(float(h[f"seq3_seat{s}"]) for s in (1, 2, 3)) - 1) < 2e-4


def test_a_moved_number_breaks_the_build():
    claims = json.loads(build.RESULTS.read_text())["claims"]
    bad = [dict(c, ours="n=2 goal 100: 0.53") if c["id"] == "M.1" else c for c in claims]
    with pytest.raises(ValueError, match="M.1"):
        build.headline(bad)


def test_pdf_is_byte_identical_run_to_run(tmp_path):
    typst = pytest.importorskip("typst")
    one = typst.compile(str(TEXT), root=str(ROOT), ignore_system_fonts=True)
    two = typst.compile(str(TEXT), root=str(ROOT), ignore_system_fonts=True)
    assert one[:5] == b"%PDF-" and hashlib.sha256(one).digest() == hashlib.sha256(two).digest()
    committed = ROOT / "paper" / "pigtheory.pdf"
    assert committed.read_bytes() == one, "paper/pigtheory.pdf is stale: run `make paper`"


def test_readme_headline_results_match_the_data():
    """The README's first screen quotes three results of the paper: they must be the data's."""
    readme = (ROOT / "README.md").read_text()
    first_screen = readme[: readme.index("## Two commands")]
    assert "paper/pigtheory.pdf" in first_screen
    data = json.loads(DATA.read_text())
    flat = " ".join(first_screen.split())
    assert f"wins {data['cert_seq2_start']}," in flat
    assert (
        f"Of {data['n_published']} published claims, {data['n_reproduced']} are reproduced and "
        f"{data['n_differs']} differ" in flat
    )
    assert f"from {data['limit']} players on, not {data['limit_paper']}" in flat
    assert f"win {data['seq3_seat1']}, {data['seq3_seat2']} and {data['seq3_seat3']}" in flat
    assert f"at goal {data['goal']}" in flat
