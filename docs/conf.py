"""Sphinx configuration of the pigtheory documentation (``make docs``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pigtheory

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))  # the docs' own extension, pigdocs (not installed)

project = "pigtheory"
author = "The pigtheory developers"
copyright = "2026, the pigtheory developers"
release = pigtheory.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "sphinx-mathjax-offline",
    "sphinxarg.ext",
    "pigdocs",
]

# MathJax 3 is served with the site, not fetched from a CDN when a page is read: the
# sphinx-mathjax-offline package (a pip dependency of the docs extra, not code of ours) copies
# its MathJax into _static/mathjax at the end of the build, and pages load it from there.
# tests/project/test_docs.py checks that no page references a script or stylesheet over the network.
mathjax_path = "mathjax/tex-chtml.js"

# No viewcode: its "[docs]" links back from the highlighted source assume that an object is
# documented in its defining module, and ours are documented where they are imported from.
# No intersphinx: its inventories (Python, numpy, scipy) are fetched over the network, and the
# build must work offline with warnings as errors. Names of other projects render as plain text.

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
# The generated fragments are included by pages, not pages of their own.
exclude_patterns = ["_build", "**.tmp", "_ext", "_generated/*_body.md"]
# Pages that include a generated fragment (the gallery, the table of claims) start it at H2.
# "ref.python" is Sphinx's warning that a word of a type (``shape (goal + 1,)``) matches several
# attributes; it is not a link anybody wrote.
suppress_warnings = ["myst.header", "ref.python"]

# Every link to a function, method, module or attribute of ours must resolve (a broken one stops
# the build). Types in docstrings are prose ("numpy.ndarray, shape (goal + 1,)"), not links, and
# other projects have no inventory offline (no intersphinx), so those are not checked.
nitpicky = True
_EXTERNAL = (
    "numpy|scipy|matplotlib|dask|distributed|concurrent|importlib|os|pathlib|json|fractions|"
    "collections|typing|numba|nashpy|networkx|sympy|threadpoolctl|platformdirs|math|random|"
    "selenium|argparse|io|tempfile|functools|itertools|dataclasses|types|enum|"
    "gymnasium|pettingzoo|pyspiel|open_spiel"
)
nitpick_ignore_regex = [
    (r"py:class", r".*"),
    (r"py:(func|meth|mod|data|obj|attr|exc)", rf"({_EXTERNAL})(\..*)?"),
    (r"py:exc", r"(ValueError|TypeError|KeyError|OSError|RuntimeError|FileNotFoundError|MemoryError)"),
]

myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 3
myst_dmath_double_inline = True

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_typehints_description_target = "documented_params"
autodoc_preserve_defaults = True
autodoc_class_signature = "separated"
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
napoleon_use_ivar = True  # dataclass fields are documented once, by autodoc, not again as attributes
# The house style's module docstrings have sections beyond numpydoc's (Shapes first); napoleon
# renders them as rubrics like Notes.
napoleon_custom_sections = [
    "Shapes",
    "Variants",
    "Strided views",
    "Readings",
    "Names",
    "Moves",
    "Kinds of policy",
    "Formats",
    "Format",
    "Events",
    "Estimates",
    "Engines",
    "Data format",
    "Batches",
    "Files (``out``)",
    'Practical policies (one die; "100" of the slides is the goal)',
]

# The doctest flags (# doctest: +SKIP, +ELLIPSIS) that make test reads are not shown to readers.
trim_doctest_flags = True

html_theme = "furo"
html_title = f"pigtheory {release}"
html_static_path = ["_static"]
html_show_sourcelink = True
pygments_style = "sphinx"
