"""Terminal renderer for ``codename`` (placeholder: the generic view until written)."""

from __future__ import annotations

from oracles.play.render import Renderer


class CodenameRenderer(Renderer):
    """Draws a seat's view of codename."""
