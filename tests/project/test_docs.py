"""The documentation site: the generated reference covers every public name, the gallery every
figure, the table of differences every claim that differs; the command line's help describes
every argument; and the site builds with warnings as errors and no broken internal link.

The pages' code blocks are doctested separately (``--doctest-glob`` over ``docs/``)."""

from __future__ import annotations

import argparse
import importlib
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "_ext"))

import pigdocs  # noqa: E402  (the docs' own extension, not installed)


def test_every_public_module_has_a_section():
    modules = [m for m in pigdocs.public_modules() if pigdocs.documented(m)]
    assert "pigtheory.simultaneous.core.levels" in modules  # the walk reaches subpackages
    pages = {pigdocs.section_of(m) for m in modules}
    assert pages == {page for page, *_ in pigdocs.SECTIONS}  # and no section is empty


def test_every_public_name_is_documented_once():
    at = pigdocs.documented_at()
    documented = {}
    for module, names in at.items():
        mod = importlib.import_module(module)
        for name in names:
            key = pigdocs.object_key(name, getattr(mod, name))
            assert key not in documented, f"{module}.{name} is documented twice"
            documented[key] = f"{module}.{name}"
    for module in at:
        mod = importlib.import_module(module)
        for name in pigdocs.public_names(mod):
            assert pigdocs.object_key(name, getattr(mod, name)) in documented, (
                f"{module}.{name} is not documented"
            )


def test_reference_pages_hold_a_directive_per_name():
    pages = pigdocs.reference_pages()  # raises if a public constant has no docstring
    text = "\n".join(pages.values())
    for module, names in pigdocs.documented_at().items():
        assert f".. automodule:: {module}\n" in text
        section = text.split(f".. automodule:: {module}\n", 1)[1].split("```", 1)[0]
        for name in names:
            assert re.search(rf"^\.\. (autoclass|autofunction|py:data):: {name}$", section, re.M), name


def test_links_by_any_import_path_resolve():
    pigdocs._ALIASES.update(pigdocs.aliases())
    assert pigdocs.resolve_alias("pigtheory.io.files.save") == "pigtheory.save"
    assert pigdocs.resolve_alias("pigtheory.simultaneous.two_player.equilibrium.equilibrium") == (
        "pigtheory.simultaneous.equilibrium"
    )
    # relative to the module a docstring is in, and a method after its class
    assert pigdocs.resolve_alias("as_mixture", "pigtheory.simultaneous.evaluate") == "pigtheory.as_mixture"
    assert pigdocs.resolve_alias("Equilibrium.strategy", "pigtheory.simultaneous.two_player.equilibrium") == (
        "pigtheory.simultaneous.Equilibrium.strategy"
    )
    assert pigdocs.resolve_alias("no_such_name", "pigtheory.simultaneous") is None
    # a module whose path is also a documented function's is a scope, not a match
    assert pigdocs.resolve_alias("pigtheory.io.files.save", "pigtheory.simultaneous.best_response") == (
        "pigtheory.save"
    )


def test_gallery_shows_every_figure_script():
    scripts = pigdocs.figure_scripts()
    stems = {path.stem for path in (ROOT / "paper_figures").glob("fig_*.py")}
    assert {stem for stem, _, _ in scripts} == stems
    drawn = {name for _, name, _ in scripts}
    assert drawn == {p.stem for p in (ROOT / "paper_figures").glob("*.png")}  # no orphan, none missing
    page = pigdocs.gallery_page()
    for stem, name, caption in scripts:
        assert caption and "Writes" not in caption
        assert f"python -m paper_figures.{stem}`" in page and f"figures/{name}.png" in page


def test_differs_table_has_every_claim_the_report_counts():
    report = (ROOT / "analyses" / "REPORT.md").read_text(encoding="utf-8")
    match = re.search(r"(\d+) published claims: \d+ reproduced, (\d+) differ", report)
    assert match
    table = pigdocs.differs_page()
    rows = [line for line in table.splitlines() if line.startswith("| ") and not line.startswith("| id ")]
    assert all(line.count(" | ") == 5 for line in rows)  # six cells: no stray pipe
    assert len(rows) == int(match.group(2))
    assert f"Of the {match.group(1)} published claims" in table


def test_sources_table_adds_up_to_the_report():
    report = (ROOT / "analyses" / "REPORT.md").read_text(encoding="utf-8")
    total, reproduced, differ = map(
        int, re.search(r"(\d+) published claims: (\d+) reproduced, (\d+) differ", report).groups()
    )
    rows = [line.split(" | ")[1:5] for line in pigdocs.sources_page().splitlines()[2:]]
    sums = [sum(int(row[k]) for row in rows) for k in range(3)]
    assert sums == [total, reproduced, differ]


def test_kinds_table_lists_every_registered_kind():
    from pigtheory.io import KINDS

    table = pigdocs.kinds_page()
    for name in KINDS:
        assert f"| `{name}` |" in table


def _parsers(parser: argparse.ArgumentParser, prog: str = "pigtheory"):
    yield prog, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, f"{prog} {name}")


def test_cli_help_describes_every_argument():
    from pigtheory.cli import build_parser

    parsers = list(_parsers(build_parser()))
    assert len(parsers) > 10
    for prog, parser in parsers:
        texts = [parser.description or "", parser.epilog or ""]
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
                continue
            assert action.help, f"{prog}: {action.dest} has no help"
            texts.append(action.help)
        # Help is plain text: a reST role would show as markup in --help (and the
        # reference is built from these strings).
        for text in texts:
            assert not re.search(r":\w+:`", text), f"{prog}: markup in help: {text!r}"


def test_readme_links_to_pages_that_exist():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = [link for link in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme) if "://" not in link]
    assert any(link.startswith("docs/") for link in links)
    for link in links:
        assert (ROOT / link).exists(), link


def _documented_commands() -> list[tuple[str, str]]:
    """(file, command line) of every ``$ pigtheory ...`` line and inline `pigtheory ...` of the
    README and the docs' pages (their shell examples, which the doctests do not run)."""
    out = []
    for path in [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]:
        if any(part.startswith("_") for part in path.relative_to(ROOT).parts):
            continue
        text = path.read_text(encoding="utf-8")
        lines = re.findall(r"^\$ pigtheory (.*)$", text, re.M) + re.findall(r"`pigtheory ([^`]+)`", text)
        out += [(path.name, line.split("  #")[0].strip()) for line in lines]
    return out


def test_documented_commands_parse(tmp_path, monkeypatch):
    """Every command the pages show is accepted by the parser (files they name may be missing)."""
    import shlex

    from pigtheory.cli import UsageError, build_parser

    monkeypatch.chdir(tmp_path)
    commands = _documented_commands()
    assert len(commands) > 20
    names = set(next(a for a in build_parser()._actions if a.dest == "command").choices)
    for where, line in commands:
        if line.startswith(("COMMAND", "...")):
            continue
        if len(shlex.split(line)) == 1 and not line.startswith("-"):  # a command named in prose
            assert line in names, (where, line)
            continue
        try:
            build_parser().parse_args(shlex.split(line))
        except SystemExit:  # --help, --version
            assert "--help" in line or "--version" in line, (where, line)
        except UsageError as exc:
            assert "no such file" in str(exc), (where, line, str(exc))


def _html_links(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="([^"]+)"', html)


@pytest.mark.skipif(
    importlib.util.find_spec("sphinx") is None, reason="Sphinx is not installed (pip install -e '.[docs]')"
)
def test_site_builds_without_warnings_or_broken_links(tmp_path):
    out = tmp_path / "html"
    # `make docs`'s command, in a fresh process (Sphinx and docutils keep global registries)
    build = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html"]
        + ["-d", str(tmp_path / "doctrees"), str(DOCS), str(out)],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    pages = list(out.rglob("*.html"))
    for page in ("index", "gallery", "reference/cli", "reference/policy-files", "tutorial/index"):
        assert (out / f"{page}.html").exists(), page
    ids: dict[Path, set[str]] = {}
    broken = []
    for page in pages:
        html = page.read_text(encoding="utf-8")
        for link in _html_links(html):
            parts = urlsplit(link)
            if parts.scheme or link.startswith(("mailto:", "//")):
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if not target.exists():
                broken.append(f"{page.relative_to(out)} -> {link}")
                continue
            if parts.fragment and target.suffix == ".html":
                if target not in ids:
                    ids[target] = set(re.findall(r'id="([^"]+)"', target.read_text(encoding="utf-8")))
                if parts.fragment not in ids[target]:
                    broken.append(f"{page.relative_to(out)} -> {link} (no such anchor)")
    assert not broken, "\n".join(broken[:20])
    # readable offline: no page loads a script or a stylesheet over the network, and the pages
    # with formulas load the MathJax copied into the site (the link check above found its file)
    remote, math_pages = [], 0
    for page in pages:
        html = page.read_text(encoding="utf-8")
        for tag in re.findall(r"<(?:script|link)\b[^>]*>", html):
            if re.search(r'(?:src|href)="(?:https?:)?//', tag) and (
                tag.startswith("<script") or "stylesheet" in tag
            ):
                remote.append(f"{page.relative_to(out)}: {tag}")
        if 'class="math' in html:
            math_pages += 1
            assert re.search(r'<script[^>]*src="(\.\./)*_static/mathjax/tex-chtml\.js"', html), page
        # nor does an inline configuration point MathJax (or anything) at a server
        for body in re.findall(r"<script\b[^>]*>(.*?)</script>", html, re.S):
            if re.search(r"(?:https?:)?//[\w.-]+\.\w+/", body):
                remote.append(f"{page.relative_to(out)}: {body[:120]}")
    assert remote == [], "\n".join(remote[:20])
    assert math_pages >= 5
    # MathJax's fonts travel with it (tex-chtml.js loads them relative to itself)
    assert (
        len(list((out / "_static" / "mathjax" / "output" / "chtml" / "fonts" / "woff-v2").glob("*.woff")))
        >= 10
    )
    # every figure of the gallery made it into the site
    gallery = (out / "gallery.html").read_text(encoding="utf-8")
    assert len(re.findall(r"<img ", gallery)) == len(pigdocs.figure_scripts())
