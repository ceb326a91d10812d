"""The core tests' toy high-card game under an id of its own."""

from __future__ import annotations

from toygame import ToyGame


class WebToyGame(ToyGame):
    id = "toyweb"
    title = "Toy high card"
