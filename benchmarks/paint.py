"""The page: from a ``state`` message to the painted board, in Chromium.

``python benchmarks/paint.py`` (about a minute) starts ``oracles serve`` on a
free port with a fresh SQLite file and plays whole four-player Oracle games
in Debian's Chromium (launched by path, see ``oracles.web.browser``): one
person, played by this script through the notation box, and three random
bots, so that states come quickly. It measures each ``state`` the page
receives, from the message's arrival (the page's ``oracles:message`` event)
to the frame after its board is in place (``oracles:board``, then one
``requestAnimationFrame`` and a task), with the Performance API, for the two
ways the page can get its board, in the same run, alternating:

* **pushed**: the board comes drawn inside the ``state`` (the socket asks
  with ``board=1``, the page's default);
* **fetched**: the old way, a fetch of ``/t/<id>/board`` after each state
  (``localStorage.oraclesFetchBoard = "1"``).

It prints a markdown table (p50, p95, p99 and the count of each way) and the
ratio fetched ÷ pushed of the p95, and appends it with the date, the commit
and the machine's load to ``benchmarks/results/paint.md`` (``--out``). The
target (docs/web.md) is a p95 of at most 50 ms for the pushed board.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from oracles.web.browser import ARGS, CHROMIUM  # noqa: E402

#: Collects, for each state, the time from its message to the painted board.
WATCH = """
window.__paint = [];
document.addEventListener("DOMContentLoaded", function () {
  var root = document.getElementById("table");
  if (!root) return;
  var arrived = {};
  root.addEventListener("oracles:message", function (e) {
    if (e.detail.type === "state") arrived[e.detail.version] = performance.now();
  });
  root.addEventListener("oracles:board", function (e) {
    var start = arrived[e.detail.version];
    if (start === undefined) return;
    delete arrived[e.detail.version];
    requestAnimationFrame(function () {
      setTimeout(function () { window.__paint.push(performance.now() - start); }, 0);
    });
  });
});
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def post(base: str, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def wait_up(base: str, deadline: float) -> None:
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


def play_game(page: Any, base: str, fetched: bool, rng: random.Random) -> list[float]:
    """One game at a new table; the times of every state the page drew."""
    table = post(
        base,
        "/api/tables",
        {
            "game": "oracle",
            "options": {"rounds": 1},
            "seats": ["human", "bot:random", "bot:random", "bot:random"],
        },
    )
    page.goto(base + "/")
    page.evaluate(
        "f => { localStorage.oraclesTrickPause = '0';"
        " if (f) localStorage.oraclesFetchBoard = '1'; else localStorage.removeItem('oraclesFetchBoard'); }",
        fetched,
    )
    page.goto(base + table["seats"][0]["url"])
    page.wait_for_selector("#board .board")
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        page.wait_for_function(
            "() => { const b = document.querySelector('#board .board');"
            " return b && (b.dataset.myTurn === '1' || b.dataset.finished === '1'); }",
            timeout=60_000,
        )
        board = page.locator("#board .board")
        if board.get_attribute("data-finished") == "1":
            break
        version = int(board.get_attribute("data-version") or 0)
        moves = json.loads(page.locator("#legal-moves").text_content() or "[]")
        # The notation box is folded unless opened.
        page.evaluate("() => { document.getElementById('notation-box').open = true; }")
        box = page.locator('input[name="move"]')
        box.fill(rng.choice(moves))
        box.press("Enter")
        page.wait_for_function(
            f"() => parseInt(document.getElementById('table').dataset.version, 10) > {version}",
            timeout=60_000,
        )
    page.wait_for_timeout(300)
    return [float(x) for x in page.evaluate("window.__paint")]


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="games of each way (default 6)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "paint.md"))
    parser.add_argument("--note", default="")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    rng = random.Random(args.seed)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "oracles.cli",
                "serve",
                "--port",
                str(port),
                "--db",
                str(Path(folder) / "paint.sqlite3"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        )
        times: dict[str, list[float]] = {"pushed": [], "fetched": []}
        try:
            wait_up(base, time.monotonic() + 60)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                context = browser.new_context(viewport={"width": 1100, "height": 900})
                context.add_init_script(WATCH)
                page = context.new_page()
                for game in range(2 * args.games):
                    way = "fetched" if game % 2 else "pushed"
                    times[way] += play_game(page, base, way == "fetched", rng)
                browser.close()
        finally:
            server.terminate()
            server.wait(30)
    rows = ["| way | states | p50 ms | p95 ms | p99 ms |", "|---|---|---|---|---|"]
    for way, values in times.items():
        rows.append(
            f"| {way} | {len(values)} | {statistics.median(values):.1f} | {quantile(values, 0.95):.1f}"
            f" | {quantile(values, 0.99):.1f} |"
        )
    ratio = quantile(times["fetched"], 0.95) / quantile(times["pushed"], 0.95)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT)
    load = os.getloadavg()[0]
    text = "\n".join(rows) + f"\n\nfetched ÷ pushed, p95: **{ratio:.2f}**\n"
    print(text)
    if args.out:
        head = (
            f"\n## {time.strftime('%Y-%m-%d %H:%M')} · commit {commit.stdout.strip()} · load {load:.2f}"
            f" · {args.games} games each way{' · ' + args.note if args.note else ''}\n\n"
        )
        with open(args.out, "a", encoding="utf-8") as out:
            out.write(head + text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
