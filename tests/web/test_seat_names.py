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
    assert present.seat_names(seats, "en", "inrah") == ["Player 1", "Casual Bot"]
    german = present.seat_names(seats, "de", "inrah")
    assert german[0] == "Spieler 1"
    assert german[1] == "{}-Bot".format(present.translate("de", "Casual")) == "Mittel-Bot"


def test_a_search_level_is_known_with_the_servers_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    master = _spec("oracle", "Master")
    seats = [
        {"name": "Bot (ismcts)", "bot": master},
        {"name": "Bot (ismcts)", "bot": _spec("oracle", "Strong")},
    ]
    assert present.seat_names(seats, "en", "oracle") == ["Master Bot", "Strong Bot"]
    # A level written without a time budget, as the lobby's fallback levels
    # are: the server seats it with one (``bounded_spec``).
    level = present.BotLevel("ismcts:iterations=400", "Strong", "search", None)
    monkeypatch.setattr(present, "bot_levels", lambda game_id: [level])
    seated = bounded_spec(level.spec, 5)
    assert seated != level.spec
    assert present.seat_names([{"name": "Bot (ismcts)", "bot": seated}], "en", "oracle") == ["Strong Bot"]
    other = bounded_spec("ismcts:iterations=401", 5)
    assert present.seat_names([{"name": "Bot (ismcts)", "bot": other}], "en", "oracle") == ["Search Bot"]


def test_bots_of_no_level_and_named_seats_keep_their_names() -> None:
    seats = [
        {"name": "Bot (ismcts)", "bot": "ismcts:iterations=7"},
        {"name": "Bot (heuristic)", "bot": "no such bot"},
        {"name": "Ada", "bot": "random"},
        {"name": "Bot (random)"},
    ]
    assert present.seat_names(seats, "en", "oracle") == [
        "Search Bot",
        "Heuristic Bot",
        "Ada",
        "Random Bot",
    ]
    assert present.seat_names(seats, "en") == ["Search Bot", "Heuristic Bot", "Ada", "Random Bot"]


def test_bots_of_one_level_are_told_apart_by_their_seat_in_short_names() -> None:
    """A new player read "Bot (Casual) 2": the number hung after the
    brackets. Now the level is the name's first word, the number its last."""
    casual = _spec("oracle", "Casual")
    seats = [{"name": "Seat 1"}] + [{"name": "Bot (heuristic)", "bot": casual}] * 3
    assert present.seat_names(seats, "en", "oracle") == [
        "Player 1",
        "Casual Bot 2",
        "Casual Bot 3",
        "Casual Bot 4",
    ]
    assert present.seat_names(seats, "de", "oracle") == [
        "Spieler 1",
        "Mittel-Bot 2",
        "Mittel-Bot 3",
        "Mittel-Bot 4",
    ]
    mixed = [
        {"name": "Bot (random)", "bot": _spec("oracle", "Novice")},
        {"name": "Bot (heuristic)", "bot": casual},
    ]
    assert present.seat_names(mixed, "de", "oracle") == ["Anfänger-Bot", "Mittel-Bot"]
    for names in (present.seat_names(seats, lang, "oracle") for lang in ("en", "de")):
        assert not any("(" in name for name in names)
        assert max(len(name) for name in names) <= 16


def test_a_person_nobody_named_is_no_rank_and_the_viewer_is_marked() -> None:
    """A new player read "4. Platz 1: 31 Punkte" in the standings: "Platz 1"
    (seat 1) read as first place, in fourth. A person nobody named is
    "Spieler 1" now, and the viewer's own line says "(du)"."""
    from .test_web_words import finished, render

    seats = [{"name": "Seat 1"}, {"name": "Seat 2"}]
    assert present.seat_names(seats, "de") == ["Spieler 1", "Spieler 2"]
    assert present.seat_names(seats, "en") == ["Player 1", "Player 2"]
    state = finished("inrah", 3, players=3, rounds=2)
    names = present.seat_names([{"name": f"Seat {n}"} for n in (1, 2, 3)], "de")
    html = render("board.html", state.view(1), names, "de", seat=1)
    places = html.split('<ol class="places">', 1)[1].split("</ol>", 1)[0]
    assert "Platz" not in places and "Spieler 2 (du):" in places and "Spieler 1:" in places
    replay = render("board.html", state.view(1), names, "de", seat=1, board_extra={"replay": True})
    assert "(du)" not in replay.split('<ol class="places">', 1)[1].split("</ol>", 1)[0]
