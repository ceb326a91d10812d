# Every target creates .venv and installs the project on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-dev

.PHONY: play demo test lint typecheck unit bench strength clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

GAME ?= oracle
ARGS ?=

## The program's main job: play GAME (default oracle) in the terminal against bots.
play: $(STAMP)
	$(BIN)/oracles play $(GAME) $(ARGS)

## A non-interactive taste: 100 games of Oracle between random bots.
demo: $(STAMP)
	$(BIN)/oracles simulate oracle -n 100 --players 4 --seed 1

## Everything CI checks: lint, types, tests.
test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks tools
	$(BIN)/ruff format --check src tests benchmarks tools

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

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
