"""Open an ``oracles analyze`` report in Chromium and save a screenshot.

Uses Playwright with the system's Chromium (``/usr/bin/chromium``, or
``ORACLES_CHROMIUM``), as ``tests/web`` does; fails if any plot image did
not load::

    .venv/bin/python tools/report_screenshot.py report/report.html docs/images/analysis-oracle.png
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import sync_playwright

from oracles.web.browser import ARGS, CHROMIUM


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path, help="the report.html to open")
    parser.add_argument("png", help="the screenshot to write")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=1800)
    args = parser.parse_args()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": args.width, "height": args.height})
            page.goto(args.report.resolve().as_uri())
            page.wait_for_load_state("load")
            sizes = page.eval_on_selector_all("img", "images => images.map(i => [i.src, i.naturalWidth])")
            broken = [src for src, width in sizes if not width]
            if not sizes or broken:
                print(f"images that did not load: {broken or 'none found'}")
                return 1
            page.screenshot(path=args.png)
            print(f"{args.png}: {len(sizes)} plots")
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
