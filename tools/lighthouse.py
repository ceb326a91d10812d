"""Lighthouse's accessibility score of the web pages (docs/web.md, "Tests").

Starts the server on a throwaway SQLite file (as the browser tests do), makes
the tables, runs Lighthouse 12's accessibility category on the lobby, an
Oracle and an Inrah table, a Codename table choosing its code and on a turn, the replay of
a finished game and the rules of Oracle and Codename, in Debian's Chromium, prints the scores and
the failing audits, and exits 1 when a page scores below the minimum::

    npm ci --prefix tools/lighthouse        # once: Lighthouse 12.2.3, pinned
    PYTHONPATH=src .venv/bin/python tools/lighthouse.py [--desktop] [--lang de] [--min 98]

``CHROME_PATH`` names the browser (``/usr/bin/chromium`` by default).
Exit status: 0 all pages at or above the minimum, 1 one below, 2 Lighthouse
not installed or a page that could not be measured.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RUNNER = ROOT / "tools" / "lighthouse" / "run.mjs"
MODULES = ROOT / "tools" / "lighthouse" / "node_modules" / "lighthouse"
sys.path[:0] = [str(ROOT / "tests" / "server")]

MINIMUM = 98
NAMES = ["Ada", "Bot (heuristic) Bertram", "Cleo", "Dmitri"]


def missing() -> str | None:
    """Why Lighthouse cannot run here, or None."""
    if shutil.which("node") is None:
        return "no node on the PATH"
    if not MODULES.is_dir():
        return "Lighthouse is not installed (npm ci --prefix tools/lighthouse)"
    chrome = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
    if not Path(chrome).exists():
        return f"no Chromium at {chrome}"
    return None


def api(base: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data, {"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=20) as response:
        return json.loads(response.read())


def create(base: str, game: str, options: dict[str, Any], seats: list[str]) -> dict[str, Any]:
    body = {"game": game, "options": options, "seats": seats, "names": NAMES[: len(seats)]}
    return api(base, "/api/tables", body)  # type: ignore[no-any-return]


async def codename_to_a_turn(ws_base: str, table: dict[str, Any]) -> None:
    """Play seat 0's moves (its code, its answers to strikes: the last legal
    move each time) until it has a turn of its own to play."""
    from serverkit import Client

    url = f"{ws_base}/ws/tables/{table['id']}?token={table['seats'][0]['token']}"
    async with Client(url) as client:
        count = 0
        while True:
            state = client.state or await client.recv_type("state")
            if state["status"] == "finished":
                raise RuntimeError("the Codename game ended before a turn of seat 0")
            if state["legal"]:
                if state["view"].get("decision", {}).get("kind") == "turn":
                    return
                count += 1
                await client.send(
                    {
                        "type": "move",
                        "action": state["legal"][-1],
                        "version": state["version"],
                        "id": f"l{count}",
                    }
                )
                await client.state_at_least(state["version"] + 1)
            else:
                await client.recv()


def wait_finished(base: str, table_id: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while api(base, f"/api/tables/{table_id}")["status"] != "finished":
        if time.monotonic() > deadline:
            raise RuntimeError(f"table {table_id} did not finish in {seconds} s")
        time.sleep(0.1)


def pages(base: str, ws_base: str) -> dict[str, str]:
    """Each page to measure, by name: the tables made for it on this server."""
    oracle = create(
        base, "oracle", {"rounds": 1}, ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"]
    )
    inrah = create(base, "inrah", {"rounds": 3}, ["human", "bot:heuristic", "bot:heuristic"])
    code = create(base, "codename", {"max_turns": 10}, ["human", "bot:heuristic"])
    turn = create(base, "codename", {"max_turns": 10}, ["human", "bot:heuristic"])
    asyncio.run(codename_to_a_turn(ws_base, turn))
    finished = create(base, "oracle", {"rounds": 1}, ["bot:random"] * 4)
    wait_finished(base, finished["id"])
    return {
        "lobby": "/",
        "table oracle": oracle["seats"][0]["url"],
        "table inrah": inrah["seats"][0]["url"],
        "table codename (code)": code["seats"][0]["url"],
        "table codename (turn)": turn["seats"][0]["url"],
        "replay": f"/replay/{finished['id']}?step=20",
        "rules oracle": "/rules/oracle",
        "rules codename": "/rules/codename",
    }


def measure(urls: list[str], desktop: bool, language: str | None) -> dict[str, Any]:
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    if desktop:
        env["LIGHTHOUSE_FORM"] = "desktop"
    if language:
        env["LIGHTHOUSE_LANG"] = language
    done = subprocess.run(
        ["node", str(RUNNER), *urls], capture_output=True, text=True, env=env, timeout=600, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"Lighthouse failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def report(named: dict[str, str], results: dict[str, Any], base: str, minimum: int) -> int:
    """Print the scores and failing audits; the exit status."""
    status = 0
    width = max(len(name) for name in named)
    print(f"{'page':<{width}}  score")
    for name, path in named.items():
        result = results.get(base + path) or {}
        score = result.get("score")
        mark = "" if score is not None and score >= minimum else f"  below {minimum}"
        print(f"{name:<{width}}  {score if score is not None else '—':>5}{mark}")
        if result.get("error"):
            print(f"{'':<{width}}    error: {result['error']}")
            status = max(status, 2)
        for audit in result.get("failing", []):
            print(f"{'':<{width}}    {audit['id']} (weight {audit['weight']}): {audit['title']}")
            for item in audit["items"]:
                print(f"{'':<{width}}      {item}")
        if score is None:
            status = max(status, 2)
        elif score < minimum:
            status = max(status, 1)
    return status


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min", type=int, default=MINIMUM, help=f"the lowest score that passes ({MINIMUM})")
    parser.add_argument(
        "--desktop", action="store_true", help="a desktop's size (default: Lighthouse's phone)"
    )
    parser.add_argument(
        "--lang", choices=["en", "de"], help="the pages' language (default: the browser's, English)"
    )
    args = parser.parse_args()
    reason = missing()
    if reason:
        print(f"lighthouse: {reason}", file=sys.stderr)
        return 2
    from serverkit import ThreadServer

    from oracles.server.config import Settings, database_url

    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            db_url=database_url(str(Path(folder) / "lighthouse.sqlite3")),
            bot_pause=0.0,
            bot_mode="thread",
            grace=600.0,
        )
        with ThreadServer(settings) as server:
            named = pages(server.base, server.ws_base)
            try:
                results = measure([server.base + path for path in named.values()], args.desktop, args.lang)
            except (RuntimeError, subprocess.TimeoutExpired, ValueError) as error:
                print(f"lighthouse: {error}", file=sys.stderr)
                return 2
            return report(named, results, server.base, args.min)


if __name__ == "__main__":
    raise SystemExit(main())
