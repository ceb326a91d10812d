"""The Inrah-Orakel terminal renderer: boards for every variant and phase,
trick and round announcements, German labels, short forms."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rich.console import Console, RenderableType

from oracles.core.registry import load_game
from oracles.games.inrah.render import InrahRenderer
from oracles.games.inrah.rules import InrahState
from oracles.play.render import renderer_for

OPTION_SETS: list[dict[str, Any]] = [
    {"players": 4, "rounds": 4},
    {"players": 3, "trump": False, "rounds": 3},
    {"players": 4, "variant": "purpurberg", "rounds": 3},
    {"players": 6, "variant": "purpurberg", "elements": 3},
    {"players": 5, "variant": "altaia", "rounds": 3},
]


def render(renderable: RenderableType) -> str:
    console = Console(record=True, width=120, force_terminal=False)
    console.print(renderable)
    return console.export_text()


def new_state(**options: Any) -> InrahState:
    state = load_game("inrah", **options).new_initial_state()
    assert isinstance(state, InrahState)
    return state


def scenario(options: dict[str, Any], actions: list[str]) -> InrahState:
    state = new_state(**options)
    for text in actions:
        state.apply_string(text)
    return state


def legal_map(state: InrahState) -> dict[str, int]:
    return {state.action_to_string(a): a for a in state.legal_actions()}


#: A quick first round (seat 2 deals, seat 2 takes the trick) and the plays of
#: a second one dealt "air-2 air-3 / air-4 air-5 / air-6 air-7".
ROUND_ONE = ["dealer 2", "deal fire-ace / fire-2 / fire-3", "bid 0", "bid 0", "bid 0"]
ROUND_ONE += ["play fire-ace", "play fire-2", "play fire-3"]
ROUND_TWO = ["play air-4", "play air-6", "play air-2", "play air-7", "play air-3", "play air-5"]


def test_registered_for_inrah() -> None:
    assert isinstance(renderer_for("inrah", "de"), InrahRenderer)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_board_in_every_phase_shows_own_hand_and_no_other(options: dict[str, Any], lang: str) -> None:
    renderer = InrahRenderer(lang)
    rng = random.Random(7)
    state = new_state(**options)
    phases: set[str] = set()
    while True:
        seat = rng.randrange(state.num_players)
        view = state.view(seat)
        if view["phase"] in phases and rng.random() > 0.1:
            state.apply_action(
                state.sample_chance(rng) if state.is_chance_node() else state.legal_actions()[0]
            )
            continue
        phases.add(view["phase"])
        text = render(renderer.board(view, seat))
        for card in view["hand"]:
            assert renderer.card_name(card) in text
        public = {p["card"] for p in view["trick"]} | ({view["trump_card"]} if view["trump_card"] else set())
        if view["last_trick"]:
            public |= {p["card"] for p in view["last_trick"]["plays"]}
        for other in range(state.num_players):
            if other != seat:
                for card in set(state.view(other)["hand"]) - public:
                    assert renderer.card_name(card) not in text.split(), (card, text)
        if view["round"]:
            assert ("Runde" if lang == "de" else "round") in text
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    predictions = {"hesinde", "efferd", "phex"} if options.get("variant") == "altaia" else {"bid"}
    assert {"dealer", "deal", "play", "over"} | predictions <= phases
    final = render(renderer.final(state.view(0)))
    assert ("Gesamt" if lang == "de" else "Total") in final


def test_board_contents() -> None:
    state = scenario(
        {"players": 3, "rounds": 2},
        ["dealer 2", "deal fire-ace / fire-2 / fire-3", "trump air-2", "bid 0", "bid 1", "bid 0"],
    )
    state.apply_string("play fire-ace")
    text = render(InrahRenderer("en").board(state.view(1), 1))
    assert "round 1 of 2" in text
    assert "Trump: air (air-2)" in text
    assert "fire-2" in text and "Your hand" in text
    assert "fire-3" not in text  # seat 2's card
    assert "seat 1 fire-ace" in text and "led: fire" in text
    assert "dealer" in text and "▶" in text
    assert "You bid 1 and took 0: 1 more to take." in text


def test_hand_sorted_by_element_then_rank() -> None:
    view = {"hand": ["water-seer", "fire-prince", "fire-7", "water-mage", "fire-ace", "water-2"]}
    text = render(InrahRenderer("en")._hand_text(view, None))
    order = [
        text.index(c) for c in ("fire-ace", "fire-7", "fire-prince", "water-mage", "water-2", "water-seer")
    ]
    assert order == sorted(order)


def test_trick_winner_is_announced_with_its_reason() -> None:
    options = {"players": 3, "rounds": 2, "trump": False}
    state = scenario(
        options,
        [
            *ROUND_ONE,
            "deal water-3 air-mage / water-4 air-knight / water-seer air-squire",
            "bid 0",
            "bid 1",
            "bid 0",
        ],
    )
    renderer = InrahRenderer("en")
    state.apply_string("play water-4")
    first = state.view(0)
    state.apply_string("play water-seer")
    middle = state.view(0)
    # The trick is not complete yet: the story tells only the card.
    assert renderer.announcements(first, middle) == ["Seat 3 plays Water Seer."]
    state.apply_string("play water-3")
    after = state.view(0)
    lines = renderer.announcements(middle, after)
    assert lines == [
        "Seat 1 (you) plays Water 3. Seat 3 takes trick 1: the first seer played takes the trick."
    ]
    assert "Last trick: seat 2 water-4" in render(renderer.board(after, 0))
    german = InrahRenderer("de").announcements(middle, state.view(1))
    assert german == [
        "Platz 1 spielt Wasser-3. Platz 3 nimmt Stich 1: die zuerst gespielte Weissagerin nimmt den Stich."
    ]


def test_round_summary_after_the_last_trick() -> None:
    state = scenario(
        {"players": 3, "rounds": 2, "trump": False},
        [
            "dealer 2",
            "deal fire-ace / fire-2 / fire-3",
            "bid 0",
            "bid 1",
            "bid 1",
            "play fire-ace",
            "play fire-2",
        ],
    )
    renderer = InrahRenderer("en")
    before = state.view(0)
    state.apply_string("play fire-3")
    lines = renderer.announcements(before, state.view(0))
    assert lines[0] == (
        "Seat 3 plays Fire 3. Seat 3 takes trick 1: highest card of the led element."
        " Round 1 is over: Seat 1 (you) 20 points, Seat 2 -10 points, Seat 3 30 points."
    )
    assert lines[1] == "Round 1 is over:"
    assert "you: bid 0, took 0: +20 (total 20)" in lines[2]
    assert "seat 2: bid 1, took 0: -10 (total -10)" in lines[3]
    assert "seat 3: bid 1, took 1: +30 (total 30)" in lines[4]
    german = InrahRenderer("de").announcements(before, state.view(0))
    assert german[1] == "Runde 1 ist vorbei:"
    assert "du: Ansage 0, Stiche 0: +20 (gesamt 20)" in german[2]


def test_altaia_summary_and_table_show_oracles() -> None:
    options = {"players": 3, "variant": "altaia", "rounds": 1}
    state = scenario(options, ["dealer 2", "deal fire-seer / fire-2 / water-3", "trump air-2"])
    for text in ["hesinde P0 1", "hesinde P1 0", "hesinde P2 0", "efferd P1 makes 0", "efferd P0 misses 0"]:
        state.apply_string(text)
    state.apply_string("efferd P0 makes 1")
    for text in ["phex P2 1", "phex P2 1", "phex P1 1", "play fire-seer", "play fire-2"]:
        state.apply_string(text)
    board = render(InrahRenderer("de").board(state.view(0), 0))
    assert "Hesinde: du = 1" in board and "Phex: Platz 3 ≠ 1" in board and "Orakel" in board
    before = state.view(0)
    state.apply_string("play water-3")
    lines = InrahRenderer("en").announcements(before, state.view(0))
    assert "Seat 1 (you) takes trick 1: the first seer played takes the trick." in lines[0]
    assert lines[2].startswith(
        "  you: took 1; oracles Hesinde: you = 1, Efferd: seat 2 = 0, Phex: seat 3 ≠ 1:"
    )


# --------------------------------------------------------------- labels
def test_german_action_labels() -> None:
    de = InrahRenderer("de")
    assert de.action_label("play fire-7") == "spiele Feuer-7"
    assert de.action_label("play water-seer") == "spiele Wasser-Weissagerin"
    assert de.action_label("bid 2") == "sage 2 Stiche"
    assert de.action_label("bid 1") == "sage 1 Stich"
    assert de.action_label("hesinde P2 1") == "Hesinde: Platz 3 macht genau 1 Stich"
    assert de.action_label("efferd P0 misses 2") == "Efferd: Platz 1 macht nicht 2 Stiche"
    assert de.action_label("phex P1 0") == "Phex: Platz 2 macht nicht 0 Stiche"
    assert de.action_label("trump ice-prince") == "Trumpf: Eis-Fürst"
    assert de.action_label("deal fire-ace ore-mage") == "deine Karten: Feuer-As Erz-Magier"
    assert de.action_label("dealer 2") == "Platz 3 gibt"
    en = InrahRenderer("en")
    assert en.action_label("play fire-7") == "play fire-7"
    assert en.action_label("bid 2") == "bid 2"


def test_the_story_tells_each_event_and_observed_is_left_to_it() -> None:
    state = scenario({"players": 3, "rounds": 1}, ["dealer 0"])
    renderer, english = InrahRenderer("de"), InrahRenderer("en")
    before = state.view(1)
    state.apply_string("deal fire-7 / water-2 / fire-prince")
    assert english.observed(state.view(1)) is None
    assert english.announcements(before, state.view(1)) == ["Round 1: 1 card is dealt to each player."]
    before = state.view(0)
    state.apply_string("trump air-2")
    assert renderer.announcements(before, state.view(0)) == ["Die Trumpfkarte ist Luft-2: Luft ist Trumpf."]
    before = state.view(0)
    state.apply_string("bid 1")
    assert renderer.announcements(before, state.view(0)) == ["Platz 2 sagt 1 Stich an."]


def test_the_story_tells_the_oracles() -> None:
    state = scenario(
        {"players": 3, "variant": "altaia", "rounds": 1},
        ["dealer 2", "deal fire-seer / fire-2 / water-3", "trump air-2"],
    )
    before = state.view(2)
    state.apply_string("hesinde P0 1")
    assert InrahRenderer("de").announcements(before, state.view(2)) == [
        "Platz 1 sagt voraus (Hesinde): Platz 1 macht genau 1 Stich."
    ]
    english = InrahRenderer("en")
    for text in ["hesinde P1 0", "hesinde P2 0"]:
        state.apply_string(text)
    before = state.view(0)
    state.apply_string("efferd P2 misses 0")
    assert english.announcements(before, state.view(0)) == [
        "Seat 1 (you) foretells (Efferd): Seat 3 does not take exactly 0 tricks."
    ]
    assert english.oracle_label(state.view(0)["oracles"][0][1]) == "Efferd: seat 3 ≠ 0"
    assert english.oracle_label(state.view(0)["oracles"][0][0], viewer=0) == "Hesinde: you = 1"


def test_german_board_has_no_english_words() -> None:
    state = scenario(
        {"players": 4, "rounds": 2, "variant": "purpurberg"},
        ["dealer 3", "deal fire-ace / fire-2 / fire-3 / water-ace", "trump air-2", "bid 0", "bid 1"],
    )
    text = render(InrahRenderer("de").board(state.view(0), 0))
    for word in (
        "Runde 1 von 2",
        "Ansagen",
        "Trumpf: Luft (Luft-2)",
        "Platz",
        "Ansage",
        "Stiche",
        "Deine Hand",
    ):
        assert word in text
    assert "Feuer-As" in text and "Geber" in text and "am Zug" in text
    for english in ("round", "Trump:", "Seat", "Bid", "Tricks", "Your hand", "dealer", "fire-ace"):
        assert english not in text
    for text in ["bid 1", "bid 0"]:
        state.apply_string(text)
    assert state.view(0)["phase"] == "play" and state.current_player() == 0
    board = render(InrahRenderer("de").board(state.view(0), 0))
    assert "Du hast 0 angesagt und 0 gemacht: keinen Stich mehr nehmen." in board
    assert "Euer Team hat 1 angesagt und 0 gemacht." in board


# ------------------------------------------------------------ shortcuts
def play_state() -> InrahState:
    state = scenario(
        {"players": 3, "rounds": 3, "trump": False},
        [*ROUND_ONE, "deal air-2 air-3 / air-4 air-5 / air-6 air-7", "bid 0", "bid 0", "bid 0", *ROUND_TWO],
    )
    state.apply_string("deal fire-7 water-7 water-prince / fire-2 fire-3 fire-4 / air-ace air-2 air-3")
    return state


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("fire-7", ["play fire-7"]),
        ("f7", ["play fire-7"]),
        ("Feuer-7", ["play fire-7"]),
        ("spiele feuer-7", ["play fire-7"]),
        ("wp", ["play water-prince"]),
        ("w-fürst", ["play water-prince"]),
        ("prince", ["play water-prince"]),
        ("Fürst", ["play water-prince"]),
        ("fire", ["play fire-7"]),
        ("7", ["play fire-7", "play water-7"]),
        ("x9", []),
    ],
)
def test_card_shortcuts(text: str, expected: list[str]) -> None:
    state = play_state()
    for _ in range(3):
        state.apply_string(state.action_to_string(state.legal_actions()[0]))
    assert state.view(0)["phase"] == "play" and state.current_player() == 2
    state.apply_string("play air-ace")
    assert state.current_player() == 0
    legal = legal_map(state)
    found = InrahRenderer("en").shortcut(text, legal, state.view(0))
    assert sorted(state.action_to_string(a) for a in found) == expected


def test_bid_shortcuts() -> None:
    state = play_state()
    legal = legal_map(state)
    renderer = InrahRenderer("de")
    view = state.view(state.current_player())
    for text, bid in [("2", "bid 2"), ("sage 3", "bid 3"), ("1 Stich", "bid 1"), ("bid 0", "bid 0")]:
        assert [state.action_to_string(a) for a in renderer.shortcut(text, legal, view)] == [bid]
    assert renderer.shortcut("9", legal, view) == []


def test_oracle_shortcuts() -> None:
    state = scenario(
        {"players": 3, "variant": "altaia", "rounds": 1},
        ["dealer 2", "deal fire-seer / fire-2 / water-3", "trump air-2"],
    )
    renderer = InrahRenderer("de")
    found = renderer.shortcut("hesinde 0 1", legal_map(state), state.view(0))
    assert [state.action_to_string(a) for a in found] == ["hesinde P0 1"]
    for text in ["hesinde P0 1", "hesinde P1 0", "hesinde P2 0"]:
        state.apply_string(text)
    found = renderer.shortcut("efferd 1 macht 0", legal_map(state), state.view(0))
    assert [state.action_to_string(a) for a in found] == ["efferd P1 makes 0"]
    found = renderer.shortcut("efferd p2 nicht 1", legal_map(state), state.view(0))
    assert [state.action_to_string(a) for a in found] == ["efferd P2 misses 1"]
