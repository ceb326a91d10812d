"""Take the table's screenshots in ``docs/images/`` anew: one per phase of
each game, at a desktop's size and, for the play phase, a phone's.

Starts the server on a throwaway SQLite file, opens a seat in the system's
Chromium (``oracles.web.browser``), plays by clicking the pieces (a random
legal one each time, like the browser tests) against bots and saves a
picture the first time each phase is on screen::

    PYTHONPATH=src .venv/bin/python tools/screenshots.py oracle inrah

The names are ``lobby.png``, ``table-<game>-<phase>.png`` (``keep``, ``play``, ``trick``,
``loser``, ``bid``, ``over``...) and ``phone-<game>.png``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "server"), str(ROOT / "tests" / "web")]

from playwright.sync_api import sync_playwright  # noqa: E402
from serverkit import ThreadServer  # noqa: E402
from webkit import click_a_move, version, wait_version_change  # noqa: E402

from oracles.server.config import Settings, database_url  # noqa: E402
from oracles.web.browser import ARGS, CHROMIUM  # noqa: E402

IMAGES = ROOT / "docs" / "images"
TABLES = {
    "oracle": ({"rounds": 2}, ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"]),
    "inrah": ({"rounds": 4}, ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"]),
    "codename": ({"max_turns": 12}, ["human", "bot:heuristic"]),
}
NAMES = ["Ada", "Bertram", "Cleo", "Dmitri"]


def create(base: str, game: str) -> str:
    options, seats = TABLES[game]
    body = json.dumps(
        {"game": game, "options": options, "seats": seats, "names": NAMES[: len(seats)], "clock": 600}
    )
    request = urllib.request.Request(
        base + "/api/tables", body.encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        answer = json.loads(response.read())
    return str(answer["seats"][0]["url"])


def phase_of(page: Any) -> str:
    board = page.locator("#board .board").first
    if board.get_attribute("data-finished") == "1":
        return "over"
    if page.locator("#board [data-finished-trick]").count():
        return "trick"
    return str(board.get_attribute("data-phase") or "")


def shoot(browser: Any, base: str, game: str, width: int, height: int, phone: bool, seed: int) -> list[str]:
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone, locale="en-US"
    )
    # A finished trick stays on screen a while (its own shot), then the game goes on.
    context.add_init_script("localStorage.setItem('oraclesTrickPause', '3000')")
    page = context.new_page()
    page.goto(base + create(base, game))
    page.wait_for_selector("#board .board")
    rng = random.Random(seed)
    taken: list[str] = []
    for _ in range(2000):
        page.wait_for_function(
            "() => { const b = document.querySelector('#board .board');"
            " return b && (b.dataset.myTurn === '1' || b.dataset.finished === '1'); }",
            timeout=60000,
        )
        page.wait_for_timeout(150)
        phase = phase_of(page)
        name = f"phone-{game}" if phone else f"table-{game}-{phase}"
        if (phone and phase == "play" and not taken) or (not phone and name not in taken):
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(IMAGES / f"{name}.png"), full_page=not phone)
            taken.append(name)
            if phone:
                break
        if phase == "over":
            break
        before = version(page)
        click_a_move(page, rng, touch=phone)
        wait_version_change(page, before, timeout=60)
    context.close()
    return taken


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=["oracle", "inrah"], choices=sorted(TABLES))
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    IMAGES.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            db_url=database_url(str(Path(folder) / "shots.sqlite3")), bot_pause=0.0, bot_mode="thread"
        )
        with ThreadServer(settings) as server, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                # The lobby first, while the server has no table yet.
                lobby = browser.new_page(viewport={"width": 1100, "height": 900}, locale="en-US")
                lobby.goto(server.base + "/")
                lobby.screenshot(path=str(IMAGES / "lobby.png"), full_page=True)
                lobby.close()
                print("lobby")
                for game in args.games:
                    for shot in shoot(browser, server.base, game, 1100, 900, False, args.seed):
                        print(shot)
                    for shot in shoot(browser, server.base, game, 390, 844, True, args.seed):
                        print(shot)
            finally:
                browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
