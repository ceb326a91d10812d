"""Shared fixtures: the toy game registered for core tests; the benchmark
scripts loaded as modules."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

from oracles.core import registry

# The toy game lives beside the core tests, the Codename scenario builders
# beside the Codename tests; make both importable from every test.
sys.path.insert(0, str(Path(__file__).parent / "core"))
sys.path.insert(0, str(Path(__file__).parent / "games" / "codename"))


@pytest.fixture
def toy_registered() -> Iterator[str]:
    """Register tests/core/toygame.py as game 'toy' for the test's duration."""
    registry.GAMES["toy"] = "toygame"
    try:
        yield "toy"
    finally:
        registry.GAMES.pop("toy", None)


@pytest.fixture(scope="session")
def load_benchmark() -> Iterator[Callable[[str], ModuleType]]:
    """Import a script of ``benchmarks/`` by name (``"peeking"``): the folder
    is on the path while the session lasts, as the scripts' imports of one
    another (``import strength``) expect when run from it."""
    folder = str(Path(__file__).parents[1] / "benchmarks")
    sys.path.insert(0, folder)
    try:
        yield importlib.import_module
    finally:
        sys.path.remove(folder)
