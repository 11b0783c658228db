# pigtheory: every target bootstraps .venv on a fresh machine with Python 3.11 and make.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
JOBS   ?= 2
# make's own runs (claims, figures, tests) keep their solves in the checkout's git-ignored
# .cache/ (removed by `make clean`); the library's default is the user's cache directory.
export PIGTHEORY_CACHE_DIR ?= $(CURDIR)/.cache

.PHONY: test test-slow figures claims bench lint docs clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

test: $(STAMP)
	$(PY) -m pytest -q -n $(JOBS) -m "not slow"

test-slow: $(STAMP)
	$(PY) -m pytest -q -n $(JOBS)

claims: $(STAMP)
	$(PY) analyses/run_all.py

figures: $(STAMP) claims
	$(PY) paper_figures/make_all.py

bench: $(STAMP)
	$(PY) benchmarks/run_all.py

# The site, into docs/_build/html: every warning (a broken link, a malformed docstring, a public
# constant without a docstring) stops the build.
docs: $(STAMP)
	$(PY) -m sphinx -W --keep-going -q -b html -d docs/_build/doctrees docs docs/_build/html
	@echo "docs: open docs/_build/html/index.html"

lint: $(STAMP)
	$(PY) -m ruff check pigtheory analyses paper_figures benchmarks tests docs
	$(PY) -m ruff format --check pigtheory analyses paper_figures benchmarks tests docs
	$(PY) -m mypy pigtheory
	$(VENV)/bin/lint-imports --no-cache

clean:
	rm -rf $(VENV) .cache build *.egg-info .pytest_cache docs/_build docs/_generated
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
