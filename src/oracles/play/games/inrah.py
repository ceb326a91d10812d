"""Terminal renderer for ``inrah`` (placeholder: the generic view until written)."""

from __future__ import annotations

from oracles.play.render import Renderer


class InrahRenderer(Renderer):
    """Draws a seat's view of inrah."""
