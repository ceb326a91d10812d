"""Every page and every event kind in German: nothing a marked English text
says may show through untranslated.

The pages are rendered from their templates as the server renders them (no
server needed): the lobby, the rules of each game, and the table page and
board of each game at its start, in the middle and at the end, for a seat
and a spectator; the story of each game's events comes from the narrate
parts. A marked English text found in the German page fails the test.
"""

from __future__ import annotations

import random
import re
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from oracles.core.registry import load_game
from oracles.i18n import catalog_path, ntranslate, translate
from oracles.web import present, routes

sys.path.insert(0, str(Path(__file__).parent))
from test_catalogs import marked_messages


@cache
def english_texts() -> list[str]:
    """The marked English texts that German changes, cut into the pieces
    a page can show (the parts between placeholders), longest first."""
    with catalog_path("de").open("rb") as source:
        catalog = read_po(source, locale="de")
    german = {m.id if isinstance(m.id, str) else m.id[0]: m.string for m in catalog if m.id}
    pieces: set[str] = set()
    for message in marked_messages():
        translated = german.get(message)
        text = translated if isinstance(translated, str) else (translated or ("",))[0]
        if not text or text == message:
            continue
        for piece in re.split(r"\{[^}]*\}", message):
            piece = piece.strip(" .,:;()–-")
            # Whole words only, two or more of them: single words may be
            # names or the same in both languages ("Hydra", "Team").
            if len(piece.split()) >= 2 and piece not in text:
                pieces.add(piece)
    return sorted(pieces, key=len, reverse=True)


def text_of(html: str) -> str:
    html = re.sub(r"<script.*?</script>|<style.*?</style>|<svg.*?</svg>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'")


#: Program values a page must never show.
PROGRAM_VALUES = re.compile(r"\bTrue\b|\bFalse\b|\bNone\b|\[['\d]|\b(peek|swap|replace|guess|reveals) –")


def untranslated(html: str) -> list[str]:
    text = text_of(html)
    found = [piece for piece in english_texts() if re.search(rf"(?<!\w){re.escape(piece)}(?!\w)", text)]
    return found + [match.group(0) for match in PROGRAM_VALUES.finditer(text)]


def render(name: str, **context: Any) -> str:
    def tr(message: str, **fields: Any) -> str:
        return translate("de", message, **fields)

    def ntr(singular: str, plural: str, count: int, **fields: Any) -> str:
        return ntranslate("de", singular, plural, count, **fields)

    template = routes.environment().get_template(name)
    return template.render(lang="de", tr=tr, ntr=ntr, languages=("en", "de"), path="/", **context)


class FakeTable:
    def __init__(self, game: str, finished: bool) -> None:
        self.id, self.game_id, self.finished = "t1", game, finished


def states(game: str, options: dict[str, Any]) -> list[Any]:
    """The game at its start, after a few moves, in the middle and at the end."""
    state = load_game(game, **options).new_initial_state()
    rng = random.Random(7)
    taken = [state.clone()]
    steps = 0
    while not state.is_terminal():
        state.apply_action(
            state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        )
        steps += 1
        if steps in (8, 40):
            taken.append(state.clone())
    return [*taken, state]


def board_for(state: Any, seat: int | None) -> dict[str, Any]:
    view = state.view(seat)
    legal = []
    if seat is not None and not state.is_terminal() and state.current_player() == seat:
        legal = [state.action_to_string(a) for a in state.legal_actions()]
    names = present.seat_names([{"name": f"Seat {i + 1}"} for i in range(state.num_players)], "de")
    return {
        "unavailable": False,
        "game": view["game"],
        "view": view,
        "legal": legal,
        "clicks": present.one_click(legal),
        "verbs": present.composed_verbs(legal),
        "version": 1,
        "seat": seat,
        "names": names,
        "seats_info": [{"name": n} for n in names],
        "finished": state.is_terminal(),
        "table_id": "t1",
    }


def test_the_german_lobby_and_rules_pages() -> None:
    games = [
        {
            "id": g,
            "title": present.GAME_TITLES[g],
            "blurb": present.GAME_BLURBS[g],
            "options": routes.option_fields(g),
            "max_players": 6,
        }
        for g in ("oracle", "inrah", "codename")
    ]
    lobby = render(
        "lobby.html",
        games=games,
        tables=[{"id": "t1", "game": "inrah", "seats": [{"name": "Seat 1"}], "open": [0]}],
        bots={g: present.bot_levels(g) for g in ("oracle", "inrah", "codename")},
        error="x",
    )
    assert untranslated(lobby) == []
    for game in ("oracle", "inrah", "codename"):
        assert untranslated(render("rules.html", game=game, title=game)) == [], game


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("oracle", {"players": 3}),
        ("oracle", {"players": 4, "draft": True}),
        ("inrah", {"players": 4, "variant": "purpurberg", "rounds": 3}),
        ("inrah", {"players": 3, "variant": "altaia", "rounds": 3}),
        ("codename", {}),
    ],
)
def test_every_table_page_and_board_in_german(game: str, options: dict[str, Any]) -> None:
    for state in states(game, options):
        for seat in (None, 0, 1):
            board = board_for(state, seat)
            html = render(
                "table.html",
                table=FakeTable(game, state.is_terminal()),
                seat=seat,
                token="",
                board=board,
                title=game,
            )
            assert untranslated(html) == [], (game, seat, state.is_terminal())


def test_the_detector_finds_english() -> None:
    assert "The story so far" in untranslated("<p>The story so far</p>")
