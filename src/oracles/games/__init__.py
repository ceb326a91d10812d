"""One package per game: pure rules, data and notation."""
