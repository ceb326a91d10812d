"""Terminal renderers, one module per game (see ``oracles.play.render``)."""
