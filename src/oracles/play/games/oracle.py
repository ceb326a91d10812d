"""Terminal renderer for ``oracle`` (placeholder: the generic view until written)."""

from __future__ import annotations

from oracles.play.render import Renderer


class OracleRenderer(Renderer):
    """Draws a seat's view of oracle."""
