# pigtheory: every target bootstraps .venv on a fresh machine with Python 3.11 and make.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# The exact versions that `make` installs (pip constraints); `make lock` refreshes them.
LOCK   := requirements/dev.lock
JOBS   ?= 2
# make's own runs (claims, figures, tests) keep their solves in the checkout's git-ignored
# .cache/ (removed by `make clean`); the library's default is the user's cache directory.
export PIGTHEORY_CACHE_DIR ?= $(CURDIR)/.cache

.PHONY: test test-slow figures claims bench lint docs clean lock check-reproducible

# The wheel holds pigtheory alone; analyses/ and paper_figures/ are packages of the checkout,
# which the .pth file puts on the venv's path (their scripts then run as files or modules).
$(STAMP): pyproject.toml $(LOCK)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c $(LOCK) -e '.[dev]'
	$(PY) -c 'import pathlib, sys, sysconfig; pathlib.Path(sysconfig.get_path("purelib"), "pigtheory-checkout.pth").write_text(sys.argv[1] + "\n")' "$(CURDIR)"
	touch $(STAMP)

# Resolve `.[dev]` afresh from the package index and write the exact versions to $(LOCK).
lock:
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) requirements/lock.py

test: $(STAMP)
	$(PY) -m pytest -q -n $(JOBS) -m "not slow"

test-slow: $(STAMP)
	$(PY) -m pytest -q -n $(JOBS)

# On JOBS processes ($PIGTHEORY_WORKERS if set): each cached solve is a job, each analysis and
# figure runs after the solves it reads, longest chains first; the report is put together in
# module order, byte for byte what one process writes.
claims: $(STAMP)
	$(PY) -m analyses.run_all --workers $(or $(PIGTHEORY_WORKERS),$(JOBS))

# The claims report and every figure as one graph of jobs: a figure fills a process the
# analyses leave idle (paper_figures/make_all.py alone draws the figures, e.g. after `make claims`).
figures: $(STAMP)
	$(PY) -m analyses.run_all --figures --workers $(or $(PIGTHEORY_WORKERS),$(JOBS))

bench: $(STAMP)
	$(PY) benchmarks/run_all.py

# The site, into docs/_build/html: every warning (a broken link, a malformed docstring, a public
# constant without a docstring) stops the build.
docs: $(STAMP)
	$(PY) -m sphinx -W --keep-going -q -b html -d docs/_build/doctrees docs docs/_build/html
	@echo "docs: open docs/_build/html/index.html"

lint: $(STAMP)
	$(PY) -m ruff check pigtheory analyses paper_figures benchmarks tests docs requirements
	$(PY) -m ruff format --check pigtheory analyses paper_figures benchmarks tests docs requirements
	$(PY) -m mypy pigtheory
	$(VENV)/bin/lint-imports --no-cache

# A fresh clone of HEAD, a cold cache, `make figures`: git status must stay clean (about 11
# minutes on 2 idle cores; .ci/check-reproducible says more).
check-reproducible:
	bash .ci/check-reproducible

clean:
	rm -rf $(VENV) .cache build *.egg-info .pytest_cache docs/_build docs/_generated
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
