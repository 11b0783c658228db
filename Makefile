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

.PHONY: test test-slow figures claims bench bench-learners lint docs clean lock check-reproducible paper paper-check verify-large

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
	PIGTHEORY_HYPOTHESIS=explore $(PY) -m pytest -q -n $(JOBS)

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

# PigBench's light leaderboard (about 10 minutes on 2 cores): benchmarks/records/pigbench.json
bench-learners: $(STAMP)
	$(PY) -m benchmarks.pigbench_learners

# The site, into docs/_build/html: every warning (a broken link, a malformed docstring, a public
# constant without a docstring) stops the build.
docs: $(STAMP)
	$(PY) -m sphinx -W --keep-going -q -b html -d docs/_build/doctrees docs docs/_build/html
	@echo "docs: open docs/_build/html/index.html"

# The results paper: paper/pigtheory.pdf (Typst, byte-identical run to run), its data
# paper/_generated/data.json and the docs page docs/paper.md, from analyses/results.json, the
# records of the long solves and the verified enclosures (analyses/certified.json; refresh them
# with `python -m analyses.certified`, about 15 s).
paper: $(STAMP)
	$(PY) -m paper.build

# Render the pages to PNG (poppler-utils' pdftoppm) into paper/_build/pages for a reader's look,
# and list the fonts (every one must be embedded).
paper-check: paper
	rm -rf paper/_build/pages && mkdir -p paper/_build/pages
	pdftoppm -r 60 -png paper/pigtheory.pdf paper/_build/pages/page
	pdffonts paper/pigtheory.pdf
	@! pdffonts paper/pigtheory.pdf | awk 'NR > 2 && $$(NF-4) != "yes"' | grep . || (echo "a font is not embedded"; exit 1)
	@echo "paper-check: pages in paper/_build/pages"

# Solve the stored long runs again (analyses/records/*.json, all or NAMES=...) and compare
# the SHA-256 of their arrays: 4 players at goal 100 takes about 10 minutes of CPU and 8.3 GiB.
verify-large: $(STAMP)
	$(PY) -m analyses.verify_large $(NAMES)

lint: $(STAMP)
	$(PY) -m ruff check pigtheory analyses paper paper_figures benchmarks tests docs requirements
	$(PY) -m ruff format --check pigtheory analyses paper paper_figures benchmarks tests docs requirements
	$(PY) -m mypy pigtheory
	$(VENV)/bin/lint-imports --no-cache

# A fresh clone of HEAD, a cold cache, `make figures`: git status must stay clean (about 11
# minutes on 2 idle cores; .ci/check-reproducible says more).
check-reproducible:
	bash .ci/check-reproducible

clean:
	rm -rf $(VENV) .cache build *.egg-info .pytest_cache docs/_build docs/_generated paper/_build
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
