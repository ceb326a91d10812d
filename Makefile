# Every target creates .venv and installs the project on first use: a
# player's targets (serve, play, demo) the base dependencies only, a
# developer's (test, lint, ...) the pinned lock with every tool.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
BASE   := $(VENV)/.installed-base
STAMP  := $(VENV)/.installed-dev

.PHONY: serve play demo test lint typecheck unit bench strength messages lock clean

LOCK   := requirements/dev.lock

# The tools and libraries come pinned from the lock file, so every machine
# lints, type-checks and tests with the same versions; the project itself is
# installed on top, editable, without touching the pins.
$(STAMP): pyproject.toml $(LOCK)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

# A player's install: the project (editable, so a `git pull` takes effect)
# and its base dependencies, none of the research, analysis or test tools.
# A developer's .venv already holds all of it: then nothing is installed
# (the pins stay), so `make serve` and `make test` work in either order.
$(BASE): pyproject.toml
	@if [ -f $(STAMP) ] && [ $(STAMP) -nt pyproject.toml ]; then \
		echo "$(VENV) has the developer install: nothing to add"; \
	else \
		set -e; \
		$(PYTHON) -m venv $(VENV); \
		$(BIN)/python -m pip install --quiet --upgrade pip; \
		$(BIN)/python -m pip install --quiet -e .; \
	fi
	touch $(BASE)

## Re-pin the lock file after changing the dependencies in pyproject.toml.
lock: $(STAMP)
	$(BIN)/python -m pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml --extra dev --python-version 3.11 \
		--python-platform x86_64-unknown-linux-gnu --quiet -o $(LOCK)

GAME ?= oracle
ARGS ?=

HOST ?= 127.0.0.1
PORT ?= 8000

## Play in the browser: run the game server (SQLite in your data folder) and
## print the lobby's address. HOST=0.0.0.0 opens it to the local network.
serve: $(BASE)
	$(BIN)/oracles serve --host $(HOST) --port $(PORT)

## Play GAME (default oracle) in the terminal against bots.
play: $(BASE)
	$(BIN)/oracles play $(GAME) $(ARGS)

## A non-interactive taste: 100 games of Oracle between random bots.
demo: $(BASE)
	$(BIN)/oracles simulate oracle -n 100 --players 4 --seed 1

## Everything CI checks: lint, types, tests.
test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/ruff format --check src tests benchmarks tools
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -n 2

## Engine speed against OpenSpiel (about 80 s).
bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py

## The bots' strength matrix (hours on 2 cores; ARGS=--quick for a smoke run).
strength: $(STAMP)
	$(BIN)/python benchmarks/strength.py $(ARGS)

## Extract the texts marked for translation and update the catalogs
## (then translate the new entries in src/oracles/locale/*/LC_MESSAGES/oracles.po).
messages: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k translate:2 -k ntranslate:2,3 -k N_ -k tr -k ntr:1,2 -k reason:1 \
		--no-location --omit-header -o .venv/oracles.pot .
	$(BIN)/pybabel update -i .venv/oracles.pot -d src/oracles/locale -D oracles --no-wrap --ignore-obsolete

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
