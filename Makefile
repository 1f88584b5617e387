# Two commands for learners and teachers:
#   make lab    start the course in JupyterLab (COURSE_LANG=en|zh|pt picks the home notebook)
#   make test   run every test: unit tests, then nbval over every lesson and exercise solution
# Both create .venv and install the project into it on first use.
# The course as a website: make site (then open build/site/html/index.html); make site-test.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
COURSE_LANG ?= en
LAB_FLAGS ?=
# JupyterLab refuses to run as root (containers, CI) unless told it is on purpose.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)
NOTEBOOKS := notebooks/en notebooks/zh notebooks/pt exercises/en/solutions exercises/zh/solutions exercises/pt/solutions
# Notebooks run on every core (pytest-xdist); --dist loadscope keeps each notebook's cells on one
# worker and one kernel, as nbval needs. A kernel gets 300 s to start, not nbval's 60: on a loaded
# two-core CI machine one took longer and failed a whole notebook before its first cell.
NBVAL_TIMEOUTS := --nbval-cell-timeout 300 --nbval-kernel-startup-timeout 300
NBVAL := -p no:python -p no:cacheprovider --nbval --nbval-current-env \
         --nbval-sanitize-with tests/nbval_sanitize.cfg $(NBVAL_TIMEOUTS) \
         -n auto --dist loadscope

.PHONY: lab test unit nbtest notebooks bench crosscheck test-tf venv clean site site-test assignments test-classroom

venv: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 10), "Python 3.10 or newer is needed, found " + sys.version.split()[0]'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	$(PY) -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (tfdist-sim)" >/dev/null
	touch $(STAMP)

# The course's JupyterLab settings (jupyterlab/overrides.json: no news feed, no update check,
# nothing fetched from the web) go into the venv, where JupyterLab reads its defaults.
lab: $(STAMP)
	$(PY) -m tools.lab_settings
	$(VENV)/bin/jupyter lab $(ROOT_FLAG) --ServerApp.root_dir="$(CURDIR)" \
	    --LabApp.default_url=/lab/tree/notebooks/$(COURSE_LANG)/index.ipynb $(LAB_FLAGS)

test: unit nbtest

unit: $(STAMP)
	$(PY) -m pytest tests

nbtest: $(STAMP)
	MPLBACKEND=module://matplotlib_inline.backend_inline $(PY) -m pytest $(NBVAL) $(NOTEBOOKS)

# Regenerate notebooks/{en,zh,pt} and exercises/{en,zh,pt} from their sources, then execute them
# so the committed files carry their outputs (what nbval compares).
notebooks: $(STAMP)
	$(PY) -m tools.build_notebooks --execute

# The course as a static website in three languages (docs/site.md): runs every lesson and solution
# again to keep their figures (cached in build/site/executed), builds it with Sphinx + MyST-NB and
# checks its links, figures and languages.
SITE_STAMP := $(VENV)/.installed-site
CHROMIUM ?= /usr/bin/chromium

$(SITE_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[dev,site]'
	touch $(SITE_STAMP)

site: $(SITE_STAMP)
	$(PY) -m tools.website

# Opens the built site in headless Chromium (Debian's; installed here where missing, as root).
site-test: $(SITE_STAMP)
	@test -x $(CHROMIUM) || { test "$$(id -u)" = 0 && apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } || \
	    { echo "site-test needs Debian's chromium: sudo apt-get install chromium"; exit 1; }
	SITE_HTML=$(CURDIR)/build/site/html CHROMIUM=$(CHROMIUM) $(PY) -m pytest -p no:cacheprovider tests/website -v

# A class's assignments (docs/teaching.md): every exercise as an nbgrader source and release notebook
# in each language, in build/assignments/{en,zh,pt}; no network needed once installed. nbgrader lives
# in its own venv, so its JupyterLab extensions stay out of the learners' lab.
CLASSVENV ?= .venv-classroom
CLASSSTAMP := $(CLASSVENV)/.installed-classroom

$(CLASSSTAMP): pyproject.toml
	test -x $(CLASSVENV)/bin/python || $(PYTHON) -m venv $(CLASSVENV)
	$(CLASSVENV)/bin/pip install --quiet --upgrade pip
	$(CLASSVENV)/bin/pip install --quiet -e '.[classroom]'
	touch $(CLASSSTAMP)

assignments: $(CLASSSTAMP)
	$(CLASSVENV)/bin/python -m tools.assignments

# The grading path end to end through nbgrader: synthetic submissions (correct, wrong in each way a
# checker knows, broken, empty) released, autograded and given feedback; scores and language asserted.
test-classroom: $(CLASSSTAMP)
	$(CLASSVENV)/bin/python -m pytest -p no:cacheprovider tests/classroom -v

bench: $(STAMP)
	@set -e; for f in bench/[!_]*.py; do echo "== $$f"; $(PY) $$f; done

# Run the same scenarios on real TensorFlow 2.21 and on sim.tf and compare the numbers
# (tests/tf_crosscheck). TensorFlow is large, so it lives in its own venv, not in .venv.
# `crosscheck` is the older name of the same target.
TFVENV ?= .venv-tf
TFSTAMP := $(TFVENV)/.installed-tf

$(TFSTAMP): pyproject.toml Makefile
	test -x $(TFVENV)/bin/python || $(PYTHON) -m venv $(TFVENV)
	$(TFVENV)/bin/pip install --quiet 'tensorflow-cpu==2.21.*' 'tf-keras==2.21.*' 'tensorboard==2.21.*' pytest 'nbval>=0.11' 'ipykernel>=6.25' 'ipywidgets>=8.1'
	$(TFVENV)/bin/pip install --quiet -e .
	touch $(TFSTAMP)

# Lesson 10 runs TensorFlow live where it is installed and shows its recorded run where not:
# make test checks the second way, this the first (English only: the code cells and numbers are
# the same in every language, and make test checks each language's text).
test-tf: $(TFSTAMP)
	SIM_TF_PYTHON=$(CURDIR)/$(TFVENV)/bin/python $(TFVENV)/bin/python -m pytest -p no:cacheprovider tests/tf_crosscheck -v
	MPLBACKEND=module://matplotlib_inline.backend_inline SIM_TF_PYTHON=$(CURDIR)/$(TFVENV)/bin/python \
	    $(TFVENV)/bin/python -m pytest -p no:python -p no:cacheprovider --nbval --nbval-current-env \
	    --nbval-sanitize-with tests/nbval_sanitize.cfg $(NBVAL_TIMEOUTS) notebooks/en/10_*.ipynb

crosscheck: test-tf

clean:
	rm -rf $(VENV) $(CLASSVENV) .pytest_cache build *.egg-info
