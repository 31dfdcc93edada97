# wargrid: `make play` to play, `make test` to check everything. Both set up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: play test lint fix fuzz bench snapshots clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "wargrid needs Python 3.11 or newer"'
	$(PYTHON) -m venv $(VENV)

$(VENV)/.play: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	@touch $@

$(VENV)/.dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[dev]"
	@touch $@ $(VENV)/.play

# A closed terminal hangs up make only (the session leader), which then waits for wargrid:
# wargrid ends by itself when its terminal goes (tui/terminal.py), so both end.
play: $(VENV)/.play
	$(BIN)/wargrid play

lint: $(VENV)/.dev
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports

test: lint
	$(BIN)/pytest

fix: $(VENV)/.dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

snapshots: $(VENV)/.dev
	$(BIN)/pytest tests/tui --snapshot-update

bench: $(VENV)/.dev
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis

# The long property runs (tests/conftest.py's "fuzz" profile). addopts is overridden since
# it holds xdist's "-n auto", which pytest refuses once xdist is unloaded.
fuzz: $(VENV)/.dev
	HYPOTHESIS_PROFILE=fuzz $(BIN)/pytest tests/hardening -p no:xdist -o addopts="--strict-markers"
