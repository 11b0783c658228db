"""Pages of the documentation that are generated from the code, not typed: the API reference
(one page per section, every public name once), the gallery (every ``paper_figures/fig_*.py``
with its caption and command) and the table of published claims that we do not reproduce (from
``analyses/results.json``, which ``make claims`` writes).

The pages are written into ``docs/_generated/`` (git-ignored) when the build starts, and only when
their text changed, so that Sphinx rebuilds what changed. ``python docs/_ext/pigdocs.py`` writes
them without building.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import pkgutil
import re
import shutil
import types
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1]
ROOT = DOCS.parent
OUT = DOCS / "_generated"

# The reference's sections, in reading order: (page, title, introduction, module prefixes). Every
# public module (no part of its dotted name starts with "_") must fall into exactly one section;
# a module that falls into none stops the build (`sections` raises), so a new module is documented
# or the build says why not.
SECTIONS: list[tuple[str, str, str, tuple[str, ...]]] = [
    (
        "api_basics",
        "Rules, turns and policies",
        "The game's rules, the game model (the outcome table of one roll and the one transition "
        "of sequential and of simultaneous play), the turn-total distributions X_k, and the "
        "policies every solver reads and returns (thresholds, mixtures, stopping rules, the roll "
        "tables of sequential Pig).",
        (
            "pigtheory",
            "pigtheory.rules",
            "pigtheory.games",
            "pigtheory.turn_totals",
            "pigtheory.policies",
            "pigtheory.stopping",
        ),
    ),
    (
        "api_simultaneous",
        "Simultaneous Pig: the solvers",
        "Best responses, evaluation, equilibria (threshold, stopping-rule and symmetric), "
        "self-play, Stackelberg, the n-player solvers and the n -> infinity limit "
        "(Zhu, Ma, Chen & Liu 2023).",
        ("pigtheory.simultaneous",),
    ),
    (
        "api_core",
        "Simultaneous Pig: the exact core",
        "The building blocks every simultaneous solver is a loop over: the score levels of the DAG, "
        "the continuation expectation, the action sets (thresholds and stopping rules) with the "
        "self-loop in closed form, the stage games, and the compiled engines.",
        ("pigtheory.simultaneous.core",),
    ),
    (
        "api_sequential",
        "Sequential Pig",
        "Turn-taking Pig with one die, Piglet, two dice, Double Trouble and Super Six "
        "(Neller & Presser; Zhu & Ma 2022).",
        ("pigtheory.sequential",),
    ),
    (
        "api_referee",
        "The referee: exact scores for any policy",
        "Exact evaluation, best responses, exploitability / NashConv, regret and per-state "
        "diagnostics of any policy of two-player sequential Pig (tables, callables, pigtheory "
        "policies, OpenSpiel policies; OpenSpiel's horizon included), the same for simultaneous "
        "Pig, conversions to and from OpenSpiel's ``pig``, and learners scored with it.",
        ("pigtheory.referee",),
    ),
    (
        "api_results",
        "Results and files",
        "The result family and everything that reads or writes a file: save/load, policy files, "
        "the cache, atomic writes.",
        ("pigtheory.results", "pigtheory.io", "pigtheory.display"),
    ),
    (
        "api_play",
        "Play",
        "The static play site and the terminal game against any solved policy.",
        ("pigtheory.play",),
    ),
    (
        "api_runtime",
        "The out-of-core runtime",
        "Solves larger than memory, cut into chunks of score levels: the store of finished chunks "
        "(header, seals with checksums, memory-mapped reads), the schedule that submits a chunk once "
        "what it reads is finished, and sealed records.",
        ("pigtheory.runtime",),
    ),
    (
        "api_sweeps",
        "Sweeps, parallel runs and resources",
        "Independent tasks on any executor (a Dask cluster included), BLAS threads, the "
        "engine choice, the compiled kernels (numba) and the memory guard.",
        ("pigtheory.parallel", "pigtheory.engine", "pigtheory.jit", "pigtheory.guard"),
    ),
    (
        "api_figures",
        "Figures",
        "Results in, a matplotlib Figure out: the functions behind the gallery.",
        ("pigtheory.plots",),
    ),
    (
        "api_envs",
        "Learning environments",
        "Gymnasium, PettingZoo and OpenSpiel environments of sequential and simultaneous Pig (the "
        "``rl`` extra): observations relative to the observer, an action mask and the canonical "
        "state in ``info``, rewards that are win shares.",
        ("pigtheory.envs",),
    ),
    (
        "api_other",
        "Simulation, game length, published tables and helpers",
        "The Monte Carlo referee, the length of a game, the tables published with the papers, "
        "argument checks and the progress bar.",
        (
            "pigtheory.simulate",
            "pigtheory.length",
            "pigtheory.published",
            "pigtheory.validation",
            "pigtheory.progress",
        ),
    ),
]

# Public modules that have no reference page, and why (a package counts with its submodules).
NOT_DOCUMENTED = {
    "pigtheory.cli": "the command line has its own reference, generated from the parser",
}


def documented(module: str) -> bool:
    """Whether ``module`` has a reference entry: neither it nor a package above it is in
    :data:`NOT_DOCUMENTED`."""
    return not any(module == m or module.startswith(m + ".") for m in NOT_DOCUMENTED)


def public_modules() -> list[str]:
    """Every importable module of the package whose dotted name has no part starting with ``_``."""
    import pigtheory

    names = ["pigtheory"]
    for info in pkgutil.walk_packages(pigtheory.__path__, "pigtheory."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.append(info.name)
    return sorted(names)


def section_of(module: str) -> str:
    """The page of ``module``: the section with the longest matching prefix."""
    best, length = None, -1
    for page, _title, _intro, prefixes in SECTIONS:
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > length:
                best, length = page, len(prefix)
    if best is None:
        raise RuntimeError(f"docs: module {module} is in no section of docs/_ext/pigdocs.py SECTIONS")
    return best


def public_names(module: types.ModuleType) -> list[str]:
    """The names ``module`` exports: ``__all__``, without submodules."""
    names = getattr(module, "__all__", None)
    if names is None:
        return []
    return [n for n in names if not isinstance(getattr(module, n), types.ModuleType)]


def object_key(attr: str, obj: object) -> tuple[str, int]:
    """What tells public objects apart: classes and functions by identity; constants by name
    too, since two constants may be the same small int."""
    return ("", id(obj)) if inspect.isclass(obj) or callable(obj) else (attr, id(obj))


def documented_at() -> dict[str, list[str]]:
    """Module -> the names documented on its entry. Every public object is documented once, at the
    shallowest public module that exports it (``pigtheory.simultaneous.equilibrium``, say, not
    the submodule that defines it); deeper modules that re-export it link there instead."""
    modules = [m for m in public_modules() if documented(m)]
    # Shallowest first, so a package claims the names it re-exports before its submodules do.
    modules.sort(key=lambda m: (m.count("."), m))
    seen: dict[tuple[str, int], str] = {}
    out: dict[str, list[str]] = {}
    for name in modules:
        module = importlib.import_module(name)
        mine = []
        for attr in public_names(module):
            obj = getattr(module, attr)
            key = object_key(attr, obj)
            if key in seen:
                continue
            seen[key] = f"{name}.{attr}"
            mine.append(attr)
        out[name] = mine
    return out


def _directive(module: types.ModuleType, attr: str) -> list[str]:
    """The autodoc directive of ``module.attr``, by what the object is."""
    obj = getattr(module, attr)
    if inspect.isclass(obj):
        return [f".. autoclass:: {attr}", "   :members:", "   :undoc-members:", "   :show-inheritance:"]
    if callable(obj):
        return [f".. autofunction:: {attr}"]
    doc = data_doc(obj, attr)
    return [f".. py:data:: {attr}", ""] + [f"   {line}" if line else "" for line in doc]


def data_doc(obj: object, attr: str) -> list[str]:
    """The attribute docstring (the string after ``NAME = ...``) of a public constant, read from the
    module that assigns it: a package that re-exports it has none of its own."""
    import sys

    from sphinx.pycode import ModuleAnalyzer

    for name, module in sorted(sys.modules.items()):
        if not name.startswith("pigtheory") or getattr(module, attr, None) is not obj:
            continue
        try:
            docs = ModuleAnalyzer.for_module(name).find_attr_docs()
        except Exception:  # a compiled or source-less module: try the next one
            continue
        lines = docs.get(("", attr))
        if lines:
            return [line.rstrip() for line in lines]
    MISSING.append(attr)
    return ["(no docstring)"]


MISSING: list[str] = []
"""Public constants found without a docstring while the pages were generated."""


def reference_pages() -> dict[str, str]:
    """Page name -> MyST text of every reference page.

    Each module gets its docstring (``automodule`` without members) and then one directive per
    name it documents, so that a module and a function of the same dotted name
    (``pigtheory.simultaneous.equilibrium`` once was) can both be documented: the module's entry
    is then not indexed."""
    at = documented_at()
    by_page: dict[str, list[str]] = {page: [] for page, *_ in SECTIONS}
    for module in sorted(at, key=lambda m: (m != "pigtheory", m)):
        by_page[section_of(module)].append(module)
    taken = {f"{module}.{name}" for module, names in at.items() for name in names}
    pages = {}
    MISSING.clear()
    for page, title, intro, _prefixes in SECTIONS:
        lines = [f"# {title}", "", intro, ""]
        for name in by_page[page]:
            module = importlib.import_module(name)
            lines += [f"## `{name}`", "", "```{eval-rst}", f".. automodule:: {name}", "   :no-members:"]
            if name in taken:
                lines.append("   :no-index:")
            lines += ["", f".. currentmodule:: {name}", ""]
            for attr in at[name]:
                lines += _directive(module, attr) + [""]
            lines += ["```", ""]
        pages[page] = "\n".join(lines).rstrip() + "\n"
    if MISSING:
        raise RuntimeError(
            "docs: public constants without a docstring (a string after the assignment): "
            + ", ".join(MISSING)
        )
    return pages


# --- gallery ------------------------------------------------------------------------------------

_WRITES = re.compile(r"\s*Writes\s+``paper_figures/[\w-]+\.png``(?:\s*(?:and|/)\s*``\.pdf``)?\.?\s*")
_ROLE = re.compile(r":(\w+):`([^`]+)`")


def rst_to_myst(text: str) -> str:
    """Inline reST of a docstring (``literal``, :func:`name`) as MyST."""
    text = text.replace("``", "`")
    return _ROLE.sub(lambda m: "{py:" + m.group(1) + "}`" + m.group(2) + "`", text)


def _saved_name(tree: ast.Module, path: Path) -> str:
    """The figure name of the script's ``save(fig, "NAME")`` call."""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "save"
            and len(node.args) == 2
            and isinstance(node.args[1], ast.Constant)
        ):
            return str(node.args[1].value)
    raise RuntimeError(f'docs: {path.name} has no save(fig, "NAME") call with a literal name')


def figure_scripts() -> list[tuple[str, str, str]]:
    """(script stem, figure name, caption) of every ``paper_figures/fig_*.py``, in file order.

    The caption is the script's docstring without its "Writes ..." sentence; the figure name is
    the literal name of its ``save(fig, NAME)`` call."""
    out = []
    for path in sorted((ROOT / "paper_figures").glob("fig_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        doc = ast.get_docstring(tree) or ""
        if not doc:
            raise RuntimeError(f"docs: {path.name} has no docstring to caption its figure")
        caption = " ".join(_WRITES.sub(" ", doc).split())
        out.append((path.stem, _saved_name(tree, path), rst_to_myst(caption)))
    return out


def _title(name: str) -> str:
    """A figure's heading from its file name: ``seq_two_dice_goal`` -> "Sequential: two dice goal"."""
    words = name.split("_")
    if words[0] == "seq":
        return "Sequential: " + " ".join(words[1:])
    return " ".join(words).capitalize()


def gallery_page() -> str:
    lines = []
    for stem, name, caption in figure_scripts():
        lines += [
            f"## {_title(name)}",
            "",
            f"```{{figure}} /_generated/figures/{name}.png",
            f":alt: {name}",
            f":name: fig-{name}",
            "",
            caption,
            "```",
            "",
            f"Drawn by `python -m paper_figures.{stem}` (source: `paper_figures/{stem}.py`); "
            f"`make figures` draws them all. PDF: `paper_figures/{name}.pdf`.",
            "",
        ]
    return "\n".join(lines).rstrip() + "\n"


# --- what the papers got wrong ---------------------------------------------------------------------


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def claims() -> list[dict]:
    return json.loads((ROOT / "analyses" / "results.json").read_text(encoding="utf-8"))["claims"]


PAPERS = {
    "Z23": "Zhu, Ma, Chen & Liu, Scientific Reports 13 (2023): simultaneous Pig",
    "Z22": "Zhu & Ma, Stats 5 (2022): two-dice Pig and Double Trouble",
    "N": "Neller & Presser (2004) and Neller's slides: sequential Pig and Piglet",
    "V": "Veliz (2024), poster: single-player thresholds",
    "S": "Höhle (2023), blog: Super Six",
    "M": "no paper: multiplayer sequential Pig, our own results (issue 21)",
}
"""The sources of the claims, by the prefix of the claims' ids."""


def _paper(claim: dict) -> str:
    prefix = claim["id"].split(".")[0]
    if prefix not in PAPERS:
        raise RuntimeError(f"docs: claim {claim['id']} has an id prefix missing from pigdocs.PAPERS")
    return prefix


def differs_page() -> str:
    """The claims that ``make claims`` reports as *differs*, by paper, with our value and why."""
    rows = [c for c in claims() if c["status"] == "differs"]
    total = sum(1 for c in claims() if c["status"] != "extension")
    lines = [
        f"Of the {total} published claims that `make claims` checks, {len(rows)} differ from ours. "
        "The table is generated from `analyses/results.json` when the documentation is built; "
        "`analyses/REPORT.md` has every claim, reproduced ones included.",
        "",
    ]
    for prefix, title in PAPERS.items():
        items = [c for c in rows if _paper(c) == prefix]
        if not items:
            continue
        lines += [
            f"### {title}",
            "",
            "| id | where | claim | paper | ours | why |",
            "|---|---|---|---|---|---|",
        ]
        for c in items:
            lines.append(
                f"| {_cell(c['id'])} | {_cell(c['source'])} | {_cell(c['claim'])} | {_cell(c['paper'])} "
                f"| {_cell(c['ours'])} | {_cell(c.get('note', ''))} |"
            )
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def sources_page() -> str:
    """Per source: how many of its claims we check, reproduce, find different; our extensions."""
    lines = [
        "| source | claims checked | reproduced | differ | our results beyond it |",
        "|---|---|---|---|---|",
    ]
    for prefix, title in PAPERS.items():
        mine = [c for c in claims() if _paper(c) == prefix]
        count = {
            status: sum(1 for c in mine if c["status"] == status) for status in ("reproduced", "differs")
        }
        ext = sum(1 for c in mine if c["status"] == "extension")
        checked = len(mine) - ext
        lines.append(f"| {title} | {checked} | {count['reproduced']} | {count['differs']} | {ext} |")
    return "\n".join(lines) + "\n"


# --- the kinds of policy file ---------------------------------------------------------------------


def kinds_page() -> str:
    """The table of every kind of policy a file can hold, from the registry itself."""
    from pigtheory.io import KINDS

    lines = [
        "| kind | class | arrays | parameters | extra axes | play |",
        "|---|---|---|---|---|---|",
    ]
    for kind in KINDS.values():
        module, cls = kind.cls.split(":")
        arrays = ", ".join(f"`{name}` ({dtype})" for name, dtype in kind.arrays) or "none"
        params = ", ".join(f"`{p}`" for p in kind.params) or "none"
        axes = ", ".join(f"`{a}`" for a in kind.extra_axes) or "none"
        lines.append(
            f"| `{kind.name}` | {{py:class}}`{module}.{cls}` | {arrays} | {params} | {axes} "
            f"| {'sequential' if kind.sequential else 'simultaneous'} |"
        )
    return "\n".join(lines) + "\n"


# --- writing ---------------------------------------------------------------------------------------


def pages() -> dict[str, str]:
    out = dict(reference_pages())
    out["gallery_body"] = gallery_page()
    out["differs_body"] = differs_page()
    out["kinds_body"] = kinds_page()
    out["sources_body"] = sources_page()
    return out


def write(out: Path = OUT) -> list[Path]:
    """Write every generated page under ``out``; returns the files whose text changed."""
    from pigtheory.io import atomic_write

    out.mkdir(parents=True, exist_ok=True)
    changed = []
    # Sphinx reads images from its source folder only: the gallery's figures are copied in.
    (out / "figures").mkdir(exist_ok=True)
    for _stem, name, _caption in figure_scripts():
        src, dst = ROOT / "paper_figures" / f"{name}.png", out / "figures" / f"{name}.png"
        if not dst.exists() or dst.read_bytes() != src.read_bytes():
            atomic_write(dst, lambda tmp, src=src: shutil.copyfile(src, tmp))
            changed.append(dst)
    for name, text in pages().items():
        path = out / f"{name}.md"
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            # atomic, under a unique temporary name: a build and the tests may write at once
            atomic_write(path, lambda tmp, text=text: Path(tmp).write_text(text, encoding="utf-8"))
            changed.append(path)
    return changed


# --- links by any path ---------------------------------------------------------------------------


def aliases() -> dict[str, str]:
    """Every dotted path by which a documented object is reached -> the path it is documented at.

    ``pigtheory.io.save``, ``pigtheory.io.files.save`` and ``pigtheory.save`` are one function,
    documented once (at the shallowest public module); a docstring may link it by any of them."""
    import sys

    canonical: dict[tuple[str, int], str] = {}
    for module, names in documented_at().items():
        mod = importlib.import_module(module)
        for attr in names:
            obj = getattr(mod, attr)
            key = object_key(attr, obj)
            canonical[key] = f"{module}.{attr}"
    out: dict[str, str] = {}
    for name, module in list(sys.modules.items()):
        if not (name == "pigtheory" or name.startswith("pigtheory.")) or module is None:
            continue
        for attr, obj in list(vars(module).items()):
            key = object_key(attr, obj)
            if key in canonical:
                out.setdefault(f"{name}.{attr}", canonical[key])
    return out


_ALIASES: dict[str, str] = {}


def resolve_alias(target: str, module: str | None = None, cls: str | None = None) -> str | None:
    """``target`` (as written in a docstring, relative to ``module`` and ``cls`` if given) as the
    path it is documented at, or None. The longest known prefix is replaced: a method
    ``ReducedSolution.expand`` follows its class."""
    target = target.lstrip("~.")
    scopes = [""]
    if module:
        parts = module.split(".")
        scopes = [".".join(parts[:i]) + "." for i in range(len(parts), 0, -1)] + [""]
        if cls:
            scopes.insert(0, f"{module}.{cls}.")
    for scope in scopes:
        full = scope + target
        bits = full.split(".")
        inside = scope.count(".")  # the match must reach into the target, not stop at the scope
        for i in range(len(bits), inside, -1):
            head = ".".join(bits[:i])
            if head in _ALIASES:
                return ".".join([_ALIASES[head], *bits[i:]])
    return None


def _on_missing_reference(app, env, node, contnode):
    if node.get("refdomain") != "py":
        return None
    new = resolve_alias(node["reftarget"], node.get("py:module"), node.get("py:class"))
    if new is None or new == node["reftarget"]:
        return None
    domain = env.domains["py"]
    return domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"], new, node, contnode)


def _on_builder_inited(app) -> None:
    write()
    _ALIASES.clear()
    _ALIASES.update(aliases())


def setup(app) -> dict:
    app.connect("builder-inited", _on_builder_inited)
    app.connect("missing-reference", _on_missing_reference)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


if __name__ == "__main__":
    for path in write():
        print(path)
