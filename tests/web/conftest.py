"""Fixtures of the browser tests: a real server and Debian's Chromium.

The browser is the system's ``/usr/bin/chromium`` (browsers are never
downloaded); without it these tests are skipped. Set
``ORACLES_SCREENSHOTS=1`` to write the screenshots of ``docs/images``.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "server"))

from serverkit import ThreadServer

from oracles.server.config import Settings, database_url
from oracles.web.browser import ARGS, CHROMIUM

IMAGES = Path(__file__).parents[2] / "docs" / "images"


def _skip_reason() -> str | None:
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        return f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (dev extra)"
    return None


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("web") / "web.sqlite3"
    settings = Settings(db_url=database_url(str(db)), bot_pause=0.0, bot_mode="thread", grace=60.0)
    with ThreadServer(settings) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def shot() -> Any:
    """``shot(page, name)`` saves a screenshot in docs/images when asked to."""

    def take(page: Any, name: str, full_page: bool = True) -> None:
        if os.environ.get("ORACLES_SCREENSHOTS"):
            IMAGES.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(IMAGES / f"{name}.png"), full_page=full_page)

    return take
