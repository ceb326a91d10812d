"""The page's words without a server: the story of the whole game on the
board, the score pads (the rulebook's example of Chrisly's 17 points), the
final standings with ties, and German with no English left over."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from oracles.core.registry import load_game
from oracles.i18n import ntranslate, translate
from oracles.web import present, routes


def finished(game: str, seed: int, **options: Any) -> Any:
    state = load_game(game, **options).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(
            state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        )
    return state


def render(
    name: str,
    view: dict[str, Any],
    names: list[str],
    lang: str = "en",
    seat: int | None = 0,
    board_extra: dict[str, Any] | None = None,
) -> str:
    board = {
        "unavailable": False,
        "game": view["game"],
        "view": view,
        "legal": [],
        "clicks": [],
        "verbs": [],
        "version": 1,
        "seat": seat,
        "names": names,
        "seats_info": [{"name": n} for n in names],
        "finished": bool(view.get("terminal")),
        "table_id": "t1",
        **(board_extra or {}),
    }

    def tr(message: str, **fields: Any) -> str:
        return translate(lang, message, **fields)

    def ntr(singular: str, plural: str, count: int, **fields: Any) -> str:
        return ntranslate(lang, singular, plural, count, **fields)

    template = routes.environment().get_template(name)
    return template.render(
        board=board, view=view, lang=lang, tr=tr, ntr=ntr, languages=("en", "de"), path="/"
    )


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'")


CHRISLY = {
    "seq": 99,
    "seat": None,
    "kind": "score",
    "round": 1,
    "kept": [["O05", "O12"], ["O17", "O38"], ["O09", "O24"]],
    "holds": [[True, False], [True, True], [False, False]],
    "worth": [[9, 6], [2, 1], [3, 6]],
    "stars": [8, 10, 0],
    "forfeits": [[["hydra", 1]], [], []],
    "chips": [
        {"hydra": 0, "pegasus": 2, "phoenix": 1},
        {"hydra": 0, "pegasus": 0, "phoenix": 5},
        {"hydra": 0, "pegasus": 0, "phoenix": 0},
    ],
    "losers": [["hydra"], [], []],
    "points": [17, 13, 0],
}


def chrisly_view() -> dict[str, Any]:
    return {
        "game": "oracle",
        "seat": None,
        "players": 3,
        "phase": "deal",
        "to_act": None,
        "terminal": False,
        "scores": [17, 13, 0],
        "winners": [],
        "round_scores": [[17, 13, 0]],
        "log": [{"seq": 0, "seat": None, "kind": "dealer", "dealer": 0}, CHRISLY],
    }


def test_the_rulebooks_scoring_example_is_a_sheet_of_17_points() -> None:
    html = render("oracle/scorepad.html", chrisly_view(), ["Chrisly", "Stefan", "Uwe"])
    text = text_of(html)
    assert 'data-total="17"' in html
    # On a phone the columns stack, so every cell carries its seat's name.
    assert html.count('<td data-seat="Chrisly"') == 8 and html.count('<td data-seat="Uwe"') == 8
    # Her Hydra chip is on the sheet, then taken back by the Hydra Loser chip.
    assert "Hydra (5★ each) 1 chip = 5★" in text
    assert "Pegasus (3★ each) 2 chips = 6★" in text
    assert "Phoenix (2★ each) 1 chip = 2★" in text
    assert "Loser chips Hydra costs 1 Hydra chip" in text
    assert "Chips after the Loser chips 8 points" in text
    assert "exactly two Pegasus chips ✔ came true : 9 points" in text
    assert "at least one each of Phoenix, Pegasus and Hydra chips ✘ did not come true : 0 points" in text
    assert "Round total 17 points 13 points 0 points" in text
    german = text_of(render("oracle/scorepad.html", chrisly_view(), ["Chrisly", "Stefan", "Uwe"], "de"))
    assert "genau zwei Pegasus-Chips ✔ eingetroffen : 9 Punkte" in german
    assert "Summe der Runde 17 Punkte 13 Punkte 0 Punkte" in german
    assert "1 Punkte" not in german


def test_the_engine_scores_chrislys_round_as_the_pad_shows_it() -> None:
    # The engine's own score event for her chips and cards gives the same 17.
    from oracles.games.oracle.prophecies import chip_quantities, default_edition

    edition = default_edition()
    # Chrisly (seat 0): the Hydra chip forfeited, two Pegasus, one Phoenix, the Hydra Loser chip.
    quantities = [chip_quantities(0, 2, 1, losers=[0]), chip_quantities(phoenix=5), chip_quantities()]
    held = [edition.card("O05").holds(quantities, 0), edition.card("O12").holds(quantities, 0)]
    assert held == [True, False]
    assert quantities[0][9] + 9 * held[0] + 6 * held[1] == 17


@pytest.mark.parametrize(
    ("game", "options"),
    [("oracle", {"players": 3}), ("inrah", {"players": 3, "rounds": 3}), ("codename", {})],
)
def test_a_finished_board_tells_the_whole_story_the_pad_and_the_standings(
    game: str, options: dict[str, Any]
) -> None:
    state = finished(game, 3, **options)
    names = ["Ann", "Beate", "Carl"][: state.num_players]
    view = state.view(0)
    html = render("board.html", view, names)
    story = re.search(r'<ol class="story" reversed[^>]*>(.*?)</ol>', html, re.S)
    assert story is not None
    lines = re.findall(r"<li[ >]", story.group(1))
    assert len(lines) == len(view["log"])
    # Each line is numbered by the action it tells (the replay's count).
    last = max(event["seq"] for event in view["log"]) + 1
    assert f"(up to action {last}, newest first)" in html
    values = [int(v) for v in re.findall(r'<li data-n="\d+" value="(\d+)"', story.group(1))]
    assert values == [event["seq"] + 1 for event in reversed(view["log"])]
    assert "Final standings" in html and "/replay/t1" in html
    assert 'class="scorepad"' in html
    text = text_of(html)
    for value in (" True", " None", "['", "[0,", "Seat 0"):
        assert value not in text, value
    # A duel is won or lost: its +1 and -1 are no points to count (regression).
    places = re.search(r'<ol class="places">(.*?)</ol>', html, re.S)
    assert places is not None
    if game == "codename":
        assert "point" not in places.group(1) and re.search(r"(won|lost|drawn)</li>", places.group(1))
    else:
        assert "points</li>" in places.group(1) or "point</li>" in places.group(1)


def test_a_finished_inrah_board_shows_the_last_trick_not_an_empty_one() -> None:
    """The centre of a finished game said "No card played yet." (regression)."""
    state = finished("inrah", 3, players=3, rounds=3)
    view = state.view(0)
    last = view["last_trick"]
    html = render("board.html", view, ["Ann", "Beate", "Carl"])
    assert "No card played yet" not in html
    assert "data-finished-trick" in html
    assert f"{['Ann', 'Beate', 'Carl'][last['winner']]} takes the trick" in html
    # Who laid each card, for a screen reader (a seat's place on the felt
    # says it to the eye), as the trick being played tells it.
    finished_trick = html.split("data-finished-trick", 1)[1].split("</section>", 1)[0]
    assert finished_trick.count('<span class="sr-only">') == len(last["plays"]) == 3


def test_oracles_finished_trick_names_who_laid_each_card() -> None:
    """Between two tricks the felt shows the trick just taken; a screen
    reader hears who laid each card, as with the trick being played."""
    state = load_game("oracle", players=3).new_initial_state()
    rng = random.Random(4)
    while True:
        state.apply_action(
            state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        )
        view = state.view(0)
        if view["tricks"] and not view["trick"]["cards"] and view["phase"] == "play":
            break
    html = render("board.html", view, ["Ann", "Beate", "Carl"])
    finished_trick = html.split("data-finished-trick", 1)[1].split("</section>", 1)[0]
    laid = [seat for seat, _ in view["tricks"][-1]["cards"]]
    spoken = re.findall(r'<span class="sr-only">([^<]*)</span>', finished_trick)
    assert spoken == [["Ann", "Beate", "Carl"][seat] for seat in laid] and len(laid) == 3


def test_standings_share_places_on_ties() -> None:
    assert present.standings({"scores": [5, 9, 9, 1]}, ["A", "B", "C", "D"]) == [
        (1, "B", 9),
        (1, "C", 9),
        (3, "A", 5),
        (4, "D", 1),
    ]


#: Texts that may stay the same in German: names, numbers, symbols, notation.
ALLOWED = re.compile(
    r"^[\W\d_]*$|^(Ann|Beate|Carl|Oracles?|Inrah|Codename|Hydra|Pegasus|Humus|Hesinde|Efferd|Phex|Chips?|Team|Fokus)$"
)


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("oracle", {"players": 3, "draft": True}),
        ("oracle", {"players": 4}),
        ("inrah", {"players": 4, "variant": "purpurberg", "rounds": 2}),
        ("inrah", {"players": 3, "variant": "altaia", "rounds": 2}),
        ("codename", {}),
    ],
)
def test_the_story_and_the_pads_in_german_have_no_english_left(game: str, options: dict[str, Any]) -> None:
    state = finished(game, 1, **options)
    names = ["Ann", "Beate", "Carl", "Dora"][: state.num_players]
    for seat in (None, 0):
        view = state.view(seat)
        german = present.story(game, view, names, "de")
        english = present.story(game, view, names, "en")
        for de, en in zip(german, english, strict=True):
            assert de != en, f"not translated: {en}"
        html = render(f"{game}/scorepad.html", view, names, "de", seat)
        for english_word in ("points", "chips", "came true", "Round", "Loser", "wins", "life", "each"):
            assert not re.search(rf"\b{english_word}\b", text_of(html)), english_word


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("oracle", {"players": 4}),
        ("inrah", {"players": 4, "variant": "purpurberg", "rounds": 2}),
        ("inrah", {"players": 3, "variant": "altaia", "rounds": 2}),
        ("codename", {}),
    ],
)
def test_every_cell_of_the_pads_says_whose_it_is_for_a_phone(game: str, options: dict[str, Any]) -> None:
    """On a phone a pad's columns stack (style.css), the headings go, and each
    cell shows its data-seat before it: none may be left without one."""
    state = finished(game, 2, **options)
    names = ["Ann", "Beate", "Carl", "Dora"][: state.num_players]
    html = render(f"{game}/scorepad.html", state.view(0), names, "de", 0)
    cells = re.findall(r"<td([^>]*)>(.*?)</td>", html, re.S)
    assert cells
    for attributes, content in cells:
        if content.strip() and "colspan" not in attributes:  # a row of its own needs no label
            # a cell names its seat, or its column where its row's heading names the seat
            label = re.search(r'data-(seat|label)="([^"]+)"', attributes)
            assert label, (attributes, content[:60])


def rules_page(game: str, lang: str) -> str:
    def tr(message: str, **fields: Any) -> str:
        return translate(lang, message, **fields)

    def ntr(singular: str, plural: str, count: int, **fields: Any) -> str:
        return ntranslate(lang, singular, plural, count, **fields)

    template = routes.environment().get_template("rules.html")
    return text_of(
        template.render(game=game, title=game, lang=lang, tr=tr, ntr=ntr, languages=("en", "de"), path="/")
    )


def test_the_rules_pages_state_the_rulebooks_points_in_both_languages() -> None:
    oracle = rules_page("oracle", "en")
    assert "The highest value wins, whatever its colour" in oracle
    assert "1 beats 12: when a trick holds a 12 and a 1, the 1 counts as the highest card" in oracle
    assert (
        "the one of the colour led wins; when none of them is of the colour led, the one played first wins"
        in oracle
    )
    assert "17 points" in oracle and "Beate wins with the highest value and takes a Phoenix chip" in oracle
    assert "highest card of the led colour wins" not in oracle
    codename = rules_page("codename", "en")
    assert "five columns by four rows" in codename
    assert "five rows and four columns" not in codename
    inrah = rules_page("inrah", "en")
    assert "20 + 40 = 60 points" in inrah and "Purpurberg" in inrah and "Altaïa" in inrah
    for game in ("oracle", "inrah", "codename"):
        english, german = rules_page(game, "en"), rules_page(game, "de")
        assert "docs/" not in english and "docs/" not in german
        assert len(german) > 2000
        for sentence in re.findall(r"[A-Z][a-z]+ [a-z]+ [a-z]+ [a-z]+ [a-z]+", english):
            assert sentence not in german, sentence
    assert "fünf Spalten und vier Reihen" in rules_page("codename", "de")
    assert "1 schlägt 12" in rules_page("oracle", "de")


def lobby_page(lang: str) -> str:
    def tr(message: str, **fields: Any) -> str:
        return translate(lang, message, **fields)

    def ntr(singular: str, plural: str, count: int, **fields: Any) -> str:
        return ntranslate(lang, singular, plural, count, **fields)

    games = [
        {
            "id": g,
            "title": present.game_title(g),
            "blurb": present.game_blurb(g),
            "options": routes.option_fields(g),
            "max_players": 6,
        }
        for g in ("oracle", "inrah", "codename")
    ]
    tables = [{"id": "t1", "game": "oracle", "seats": [{"name": "Seat 1"}, {"name": "Bot"}], "open": [0]}]
    template = routes.environment().get_template("lobby.html")
    bots = {g: present.bot_levels(g) for g in ("oracle", "inrah", "codename")}
    return template.render(
        games=games,
        tables=tables,
        bots=bots,
        error=None,
        lang=lang,
        tr=tr,
        ntr=ntr,
        languages=("en", "de"),
        path="/",
    )


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_lobby_names_and_explains_every_option_with_the_right_control(lang: str) -> None:
    html = lobby_page(lang)
    text = text_of(html)
    for raw in (
        "removed_colour",
        "forbid_exact_sum",
        "blocked_strike_shows_code",
        "max_turns",
        "max_reveals",
        "edition",
    ):
        assert raw not in text, raw
    colour = re.search(r'<select name="oracle.removed_colour".*?</select>', html, re.S)
    assert (
        colour is not None
        and colour.group(0).count("<option") == 5
        and 'value="P" selected' in colour.group(0)
    )
    assert re.search(r'name="oracle.players" id="oracle.players" value="4" min="3" max="5"', html)
    assert (
        'type="checkbox" name="oracle.draft"' in html
        and 'type="checkbox" name="codename.blocked_strike_shows_code"' in html
    )
    variant = re.search(r'<select name="inrah.variant".*?</select>', html, re.S)
    assert variant is not None and 'value="altaia"' in variant.group(0)
    if lang == "de":
        assert "Farbe, die bei drei Spielern wegfällt" in text and "Zuggrenze" in text and "Lila" in text
        assert "Platz 1" in text and "Seat 1" not in text
        # The bot choices: their names and what they are, in German.
        assert "(heuristisch)" in text and "(zufällig)" in text and "(heuristic)" not in text
        # Inrah's own levels (careless heuristics) in German too.
        assert "(unachtsam)" in text and "(meist heuristisch)" in text and "careless" not in text


def test_the_lobby_seats_casual_bots_by_default_in_every_game() -> None:
    # The default opponent is the ladder's second level, whatever bot plays
    # it in that game (Inrah's is a careless heuristic, not "heuristic").
    html = lobby_page("en")
    for game in ("oracle", "inrah", "codename"):
        casual = present.bot_levels(game)[1]
        seat = re.search(rf'<select name="{game}.seat1".*?</select>', html, re.S)
        assert seat is not None
        chosen = re.findall(r'<option value="([^"]*)" selected', seat.group(0))
        assert chosen == [f"bot:{casual.spec}"], (game, chosen)


def test_the_notation_example_is_the_games_own() -> None:
    assert present.example_move("oracle", "en") == "e.g. play R7"
    assert present.example_move("inrah", "de") == "z. B. play fire-7"
    assert present.example_move("codename", "en") == "e.g. peek a1 b2"


def test_the_replay_tells_what_each_step_did() -> None:
    state = finished("oracle", 4, players=3, rounds=1)
    view = state.view(0)
    plays = [e for e in view["log"] if e["kind"] == "play"]
    last = plays[-1]["seq"]
    told = present.replay_story("oracle", [view], ["Ann", "Beate", "Carl"], "en", last)
    assert told[0].endswith(".") and " plays " in told[0]
    assert any(" wins: " in line for line in told) and any("Round 1 is scored." in line for line in told)

    def tr(message: str, **fields: Any) -> str:
        return translate("de", message, **fields)

    class Table:
        id, game_id, finished = "t1", "oracle", True

    html = (
        routes.environment()
        .get_template("replay.html")
        .render(
            lang="de",
            tr=tr,
            ntr=lambda a, b, count, /, **f: ntranslate("de", a, b, count, **f),
            languages=("en", "de"),
            path="/",
            review_seat=None,
            review_state="off",
            marks=[],
            mark_here=None,
            query_review="",
            table=Table(),
            record={},
            step=last + 1,
            total=last + 1,
            action="play R1",
            actions=[],
            names=["Ann", "Beate", "Carl"],
            seats=[{"seat": 0, "view": view}],
            board={
                "unavailable": False,
                "game": "oracle",
                "view": view,
                "legal": [],
                "clicks": [],
                "verbs": [],
                "version": 1,
                "seat": 0,
                "names": ["Ann", "Beate", "Carl"],
                "seats_info": [],
                "finished": True,
                "table_id": "t1",
                "replay": True,
            },
            title="Oracle",
        )
    )
    caption = re.search(r'<p class="step-story" id="step-story">(.*?)</p>', html, re.S)
    assert caption is not None and "Runde 1 wird gewertet." in caption.group(1)


def test_the_replay_of_a_finished_game_names_every_seats_keep() -> None:
    """Every hand is public once the game is over: another seat's keep is
    told with its cards, in the third person ("Beate keeps ..."), where seat
    0's view alone said "two Oracle cards, face down"."""
    state = finished("oracle", 4, players=3, rounds=1)
    views = [state.view(seat) for seat in range(3)]
    names = ["Ann", "Beate", "Carl"]
    keeps = [e for e in views[0]["log"] if e["kind"] == "keep"]
    assert len(keeps) == 3
    for keep in keeps:
        told = present.replay_story("oracle", views, names, "en", keep["seq"])
        assert told == [f"{names[keep['seat']]} keeps " + told[0].split(" keeps ", 1)[1]], told
        assert "face down" not in told[0] and "“" in told[0], told


def test_the_replay_tells_a_private_deal_as_nobodys() -> None:
    """Regression: the replay told the Oracle cards dealt as seat 0 saw them,
    "Yours: ...", on a page every seat and spectator reads. A chance event
    keeps what every seat saw alike (the board shows each hand)."""
    state = finished("oracle", 4, players=3, rounds=1)
    views = [state.view(seat) for seat in range(3)]
    dealt = next(e for e in views[0]["log"] if e["kind"] == "oracles")
    assert dealt.get("cards"), dealt  # seat 0's own view names its cards
    for lang in ("en", "de"):
        told = present.replay_story("oracle", views, ["Ann", "Beate", "Carl"], lang, dealt["seq"])
        assert told and not any("Yours" in line or "Deine" in line for line in told), told
        assert told[0] == translate(lang, "Oracle cards are dealt."), told


def test_the_replays_hands_show_every_seats_cards_and_codenames_code() -> None:
    """Regression: the replay's "All hands" read a hand and a code that
    Codename's view keeps under ``sides``, and listed each seat with nothing.
    Each seat's hand (and Codename's code row) is drawn from its own view;
    a hand played out says so."""
    from types import SimpleNamespace

    from oracles.bots.base import SeatInfo
    from oracles.bots.specs import make_bot

    state = load_game("codename").new_initial_state()
    rng = random.Random(4)
    bots = [make_bot("heuristic", seat, 4) for seat in range(2)]
    for _ in range(12):  # into the play, by the heuristic (a random move may guess and end it)
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(bots[state.current_player()].choose(SeatInfo(state, state.current_player())))
    assert not state.is_terminal()
    template = routes.environment().get_template("codename/hand.html")

    def tr(message: str, **fields: Any) -> str:
        return translate("de", message, **fields)

    for seat in range(2):
        view = state.view(seat)
        side = view["sides"][seat]
        html = template.render(s={"seat": seat, "view": view}, cards=[], lang="de", tr=tr, present=present)
        assert html.count('class="zener z-') == len(side["hand"]) + len(side["code"]) > 5, html
        assert "Code-Reihe" in html
    over = finished("oracle", 2, players=3, rounds=1)
    hand = (
        routes.environment()
        .get_template("hand.html")
        .render(
            s={"seat": 0, "view": over.view(0)},
            cards=[],
            table=SimpleNamespace(game_id="oracle"),
            lang="de",
            tr=tr,
            present=present,
        )
    )
    assert "keine Karten mehr" in hand


def test_the_end_tells_a_winner_so() -> None:
    """A new player read "Game over. Won by: Seat 1." and nothing for them:
    the winner's own board now says "You won!" (in German too); another
    seat's, a spectator's and a replay's do not."""
    state = finished("inrah", 3, players=3, rounds=2)
    winners = state.winners()
    names = ["Ann", "Beate", "Carl"]
    said = "You won!" if len(winners) == 1 else "You share the win!"
    for seat in range(3):
        html = render("board.html", state.view(seat), names, seat=seat)
        assert (said in html) == (seat in winners), seat
    assert said not in render("board.html", state.view(None), names, seat=None)
    assert said not in render(
        "board.html", state.view(winners[0]), names, seat=winners[0], board_extra={"replay": True}
    )
    german = render("board.html", state.view(winners[0]), names, "de", seat=winners[0])
    assert ("Du hast gewonnen!" if len(winners) == 1 else "Du teilst dir den Sieg!") in german


def test_a_lone_winner_is_told_once() -> None:
    """Regression: the lone winner's status said "You won! Game over. Ann
    (you) won." The others' boards still name the winner."""
    for seed in range(20):
        state = finished("inrah", seed, players=3, rounds=2)
        if len(state.winners()) == 1:
            break
    winner = state.winners()[0]
    names = ["Ann", "Beate", "Carl"]
    mine = re.search(
        r'id="status"[^>]*>(.*?)</p>', render("board.html", state.view(winner), names, seat=winner), re.S
    )
    assert mine and "You won!" in mine.group(1) and f"{names[winner]} (you) won" not in mine.group(1), mine
    other = (winner + 1) % 3
    theirs = re.search(
        r'id="status"[^>]*>(.*?)</p>', render("board.html", state.view(other), names, seat=other), re.S
    )
    assert theirs and f"{names[winner]} won." in theirs.group(1), theirs


def test_a_table_waiting_for_its_players_names_nobody_to_play() -> None:
    """A new player at a friends table read "Waiting for Bot (Casual)" and
    saw "to play" on that seat, or on their own, before the game began."""
    state = load_game("oracle").new_initial_state()
    rng = random.Random(2)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    names = ["Ann", "Beate", "Carl", "Dora"]
    html = render("board.html", state.view(0), names, board_extra={"waiting": True})
    status = re.search(r'id="status"[^>]*>(.*?)</p>', html, re.S)
    assert status and "Waiting for the players" in status.group(1), status
    assert "to play" not in html and "Waiting for Beate" not in html
    playing = render("board.html", state.view(0), names)
    assert "to play" in playing


def test_inrahs_bid_tally_wraps_as_one_piece() -> None:
    """On a German phone "bisher angesagt: 1 von 1" ended a line and
    "Stichen" stood alone below it, like a heading: the tally is one
    unbreakable piece, a line of its own on a phone."""
    state = load_game("inrah", players=3).new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node() or not any(b is not None for b in state.view(0).get("bids") or []):
        state.apply_action(
            state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        )
    html = render("board.html", state.view(0), ["Ann", "Beate", "Carl"], "de")
    group = re.search(r'<span class="tally-group">(.*?)</span></span>', html, re.S)
    assert group is not None and "bisher angesagt:" in group.group(1) and "Stich" in group.group(1)
    assert re.search(r"</span>\s+<span class=\"tally-group\">", html)  # "Feuer · bisher", not "Feuer· bisher"
    style = routes.environment().get_template("inrah/style.html").render()
    assert re.search(r"\.tally-group \{ white-space: nowrap; \}", style)
    assert re.search(r"max-width: 600px\) \{[^}]*\} \.game-inrah \.tally-group \{ display: block;", style)


def test_oracles_keep_says_what_to_do_in_the_status() -> None:
    """A phone showed "Zuletzt: Die Orakelkarten werden verteilt. Deine: …",
    cut after three lines, and the keep's prompt below the hand, off screen:
    the status says what to do now instead; the deal stays in the story."""
    state = load_game("oracle").new_initial_state()
    rng = random.Random(2)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    while not state.action_to_string(state.legal_actions()[0]).startswith("keep "):
        state.apply_action(
            state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        )
    seat = state.current_player()
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    html = render(
        "board.html", state.view(seat), ["Ann", "Beate", "Carl", "Dora"], "de", seat, {"legal": legal}
    )
    status = re.search(r'id="status"[^>]*>(.*?)</p>', html, re.S)
    assert status is not None
    assert '<span class="turn-prompt">Wähle zwei Prophezeiungen, die du behältst</span>' in status.group(1)
    assert "Zuletzt:" not in status.group(1)


def test_oracles_pad_folds_its_rounds_the_newest_open() -> None:
    """A finished game's page was some 13,600 px tall on a phone: every
    round's pad a line a seat. Each round is a fold now, only the newest
    open, and its short cells (chips, points) stand side by side."""
    state = finished("oracle", 5, players=4)
    html = render("oracle/scorepad.html", state.view(0), ["Ann", "Beate", "Carl", "Dora"], "de")
    folds = re.findall(r'<details class="pad-round" data-round="(\d+)"( open)?>', html)
    assert [int(n) for n, _ in folds] == list(range(len(folds), 0, -1)) and len(folds) >= 2
    assert [bool(o) for _, o in folds] == [True] + [False] * (len(folds) - 1)
    assert f"<summary>Runde {len(folds)}</summary>" in html
    assert 'data-seat="Ann" class="short"' in html


def test_a_friend_not_come_yet_is_no_away_seat_to_play() -> None:
    """Before the game began a friend's free seat showed "○ away" and the
    frame of the seat to play, and the page said its waiting sentence twice
    (the friends panel's banner and the status): the seat is "not here yet",
    unframed, and the status counts the seats still free."""
    state = load_game("oracle").new_initial_state()
    rng = random.Random(2)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    names = ["Ann", "Beate", "Carl", "Dora"]
    info = [
        {"name": "Ann", "kind": "human", "connected": True},
        {"name": "Beate", "kind": "human", "open": True},
    ]
    info += [{"name": n, "kind": "bot", "connected": True} for n in names[2:]]
    view = state.view(0)
    extra = {"waiting": True, "seats_info": info}
    html = render("board.html", view, names, "de", 0, extra)
    assert "abwesend" not in html and "noch nicht da" in html
    assert not re.search(r'class="seat [^"]*acting', html)
    status = re.search(r'id="status"[^>]*>(.*?)</p>', html, re.S)
    assert status and "Warten auf die Mitspieler: 1 Platz ist noch frei." in status.group(1), status
    assert translate(
        "de", "Waiting for the players: the game begins when every seat is taken."
    ) not in status.group(1)


def test_the_winner_is_named_in_a_sentence() -> None:
    """ "Spielende. Gewonnen von: Carl." read as a form's field: now "Carl hat gewonnen."."""
    state = finished("oracle", 3, players=3, rounds=1)
    winners = state.winners()
    names = ["Ann", "Beate", "Carl"]
    loser = next(seat for seat in range(3) if seat not in winners)
    html = render("board.html", state.view(loser), names, "de", seat=loser)
    said = (
        f"{names[winners[0]]} hat gewonnen."
        if len(winners) == 1
        else f"{', '.join(names[w] for w in winners)} teilen sich den Sieg."
    )
    assert f'<span class="winners">{said}</span>' in html and "Gewonnen von" not in html


def test_waiting_on_a_loser_chip_says_what_is_decided() -> None:
    """ "Warte auf Mittel-Bot 4" stood there while that bot decided on a
    Loser chip: the status says what it decides."""

    def deciding(seed: int) -> Any:
        state = load_game("oracle").new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if (
                not state.is_chance_node()
                and state.view(0).get("phase") == "loser"
                and state.current_player() != 0
            ):
                return state
            state.apply_action(
                state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
            )
        return None

    state = next(s for s in map(deciding, range(50)) if s is not None)
    view = state.view(0)
    names = ["Ann", "Beate", "Carl", "Dora"]
    html = render("board.html", view, names, "de")
    status = re.search(r'id="status"[^>]*>(.*?)</p>', html, re.S)
    who = names[view.get("to_act", view.get("to_move"))]
    assert (
        status
        and f"Warte auf {who}: Verliererchip behalten oder in die Mitte zurücklegen?" in status.group(1)
    )


def test_a_table_with_no_free_seat_promises_none() -> None:
    """A table of bots and its maker said its link was "to watch, or to take
    a free seat": it has no free seat."""

    def panel(invites: list[dict[str, Any]]) -> str:
        friends = {"creator": True, "waiting": False, "invites": invites, "table_url": "http://x/t/t1"}
        friends |= {"finished": False, "turn_based": False, "start_bot": "", "clock_hours": 0}
        template = routes.environment().get_template("friends_panel.html")
        return template.render(
            table={"id": "t1", "game_id": "oracle", "seats": [{"name": "Ann"}]},
            seat=0,
            friends=friends,
            title="Oracle",
            own="Ann",
            lang="de",
            tr=lambda m, **f: translate("de", m, **f),
            ntr=lambda s, p, n, **f: ntranslate("de", s, p, n, **f),
        )

    assert "Link des Tisches (zum Zuschauen):" in panel([]) and "freien Platz" not in panel([])
    invite = {"seat": 1, "url": "http://x/t/t1/seat/1", "qr": ""}
    assert "um einen freien Platz zu nehmen" in panel([invite])
