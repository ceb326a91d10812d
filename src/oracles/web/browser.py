"""How the project launches Chromium (the browser tests, the report
screenshot): Debian's own binary by path, never a downloaded browser."""

from __future__ import annotations

import os

#: The Chromium binary (``ORACLES_CHROMIUM`` overrides Debian's path).
CHROMIUM = os.environ.get("ORACLES_CHROMIUM", "/usr/bin/chromium")
#: Flags for a headless run in a container: no sandbox, GPU or network chatter.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
