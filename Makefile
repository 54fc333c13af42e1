# Two commands a newcomer needs: `make run` and `make test`. Each creates .venv if missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8501

.PHONY: run test test-fast lint bench clean

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

test: $(VENV)/.dev-installed  ## lint, the whole suite (unit, AppTest, browser), the mutation check
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m pytest
	$(PY) tests/mutation/run_mutants.py

test-fast: $(VENV)/.dev-installed  ## everything but the browser tests
	$(PY) -m pytest -m "not e2e"

lint: $(VENV)/.dev-installed
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

bench: $(VENV)/.dev-installed
	$(PY) -m bench

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache test-artifacts
