"""Shared fixtures: the toy game registered for core tests."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

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
