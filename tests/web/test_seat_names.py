"""Seat names on the pages: a bot seat nobody named goes by its lobby level."""

from __future__ import annotations

import pytest

from oracles.bots.specs import bounded_spec
from oracles.web import present


def _spec(game: str, level: str) -> str:
    return next(bot.spec for bot in present.bot_levels(game) if bot.name == level)


def test_an_unnamed_bot_goes_by_its_level_in_the_viewers_language() -> None:
    # Inrah's Casual is a careless heuristic: its server name says only "heuristic".
    careless = _spec("inrah", "Casual")
    assert careless.startswith("heuristic:")
    seats = [{"name": "Seat 1"}, {"name": "Bot (heuristic)", "bot": careless}]
    assert present.seat_names(seats, "en", "inrah") == ["Seat 1", "Bot (Casual)"]
    german = present.seat_names(seats, "de", "inrah")
    assert german[0] == "Platz 1"
    assert german[1] == "Bot ({})".format(present.translate("de", "Casual")) != "Bot (Casual)"


def test_a_search_level_is_known_with_the_servers_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    master = _spec("oracle", "Master")
    seats = [
        {"name": "Bot (ismcts)", "bot": master},
        {"name": "Bot (ismcts)", "bot": _spec("oracle", "Strong")},
    ]
    assert present.seat_names(seats, "en", "oracle") == ["Bot (Master)", "Bot (Strong)"]
    # A level written without a time budget, as the lobby's fallback levels
    # are: the server seats it with one (``bounded_spec``).
    level = present.BotLevel("ismcts:iterations=400", "Strong", "search", None)
    monkeypatch.setattr(present, "bot_levels", lambda game_id: [level])
    seated = bounded_spec(level.spec, 5)
    assert seated != level.spec
    assert present.seat_names([{"name": "Bot (ismcts)", "bot": seated}], "en", "oracle") == ["Bot (Strong)"]
    other = bounded_spec("ismcts:iterations=401", 5)
    assert present.seat_names([{"name": "Bot (ismcts)", "bot": other}], "en", "oracle") == ["Bot (search)"]


def test_bots_of_no_level_and_named_seats_keep_their_names() -> None:
    seats = [
        {"name": "Bot (ismcts)", "bot": "ismcts:iterations=7"},
        {"name": "Bot (heuristic)", "bot": "no such bot"},
        {"name": "Ada", "bot": "random"},
        {"name": "Bot (random)"},
    ]
    assert present.seat_names(seats, "en", "oracle") == [
        "Bot (search)",
        "Bot (heuristic)",
        "Ada",
        "Bot (random)",
    ]
    assert present.seat_names(seats, "en") == ["Bot (search)", "Bot (heuristic)", "Ada", "Bot (random)"]
