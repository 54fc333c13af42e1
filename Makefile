# Two commands a newcomer needs: `make run` and `make test`. Each creates .venv if missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8501

.PHONY: run dev classroom test test-fast lint bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(VENV)/.run-installed: requirements.txt | $(PY)
	$(PY) -m pip install -q -r requirements.txt
	touch $@

$(VENV)/.dev-installed: requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install -q -r requirements-dev.txt
	touch $@ $(VENV)/.run-installed

run: $(VENV)/.run-installed  ## start the app on http://localhost:$(PORT)
	$(PY) -m streamlit run app.py --server.port $(PORT)

# .streamlit/config.toml holds the production settings (no file watcher); while editing
# the code, watch the files and rerun on save.
dev: $(VENV)/.run-installed  ## like run, with live reload
	$(PY) -m streamlit run app.py --server.port $(PORT) \
		--server.fileWatcherType auto --server.runOnSave true

# One Streamlit process per core behind nginx on $(PORT), sticky by client address.
classroom: $(VENV)/.run-installed  ## serve a class on http://<this machine>:$(PORT); Ctrl-C stops
	PORT=$(PORT) PYTHON=$(PY) bash deploy/classroom.sh

test: $(VENV)/.dev-installed  ## lint, then the whole suite (unit, AppTest, browser)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m pytest

test-fast: $(VENV)/.dev-installed  ## everything but the browser tests
	$(PY) -m pytest -m "not e2e"

lint: $(VENV)/.dev-installed
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

bench: $(VENV)/.dev-installed  ## every benchmark, including a short load test (bench/load.py)
	$(PY) -m bench

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache test-artifacts
