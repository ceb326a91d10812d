"""The Oracle terminal renderer: boards in every phase (draft and scoring
included), trick and round announcements, German labels, short forms."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rich.console import Console, RenderableType

from oracles.core.registry import load_game
from oracles.games.oracle.render import OracleRenderer
from oracles.games.oracle.rules import OracleState
from oracles.play.render import renderer_for

OPTION_SETS: list[dict[str, Any]] = [
    {"players": 3, "rounds": 2},
    {"players": 4, "rounds": 1},
    {"players": 5, "rounds": 1},
    {"players": 4, "draft": True, "rounds": 1},
]


def render(renderable: RenderableType) -> str:
    console = Console(record=True, width=120, force_terminal=False)
    console.print(renderable)
    return console.export_text()


def new_state(**options: Any) -> OracleState:
    state = load_game("oracle", **options).new_initial_state()
    assert isinstance(state, OracleState)
    return state


def legal_map(state: OracleState) -> dict[str, int]:
    return {state.action_to_string(a): a for a in state.legal_actions()}


def test_registered_for_oracle() -> None:
    assert isinstance(renderer_for("oracle", "de"), OracleRenderer)


def hand_cells(renderer: OracleRenderer, text: str, view: dict[str, Any]) -> dict[str, list[str]]:
    """The values shown in each colour row of the hand table."""
    rows: dict[str, list[str]] = {}
    start = text.find(renderer.tr("Your hand"))
    for line in text[start:].splitlines()[3:]:
        words = line.strip("│ ").split()
        if not words or words[0] not in [renderer.colour(c) for c in "RBGYP"]:
            break
        rows[words[0]] = words[1:]
    return rows


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_board_in_every_phase_shows_own_hand_and_no_other(options: dict[str, Any], lang: str) -> None:
    renderer = OracleRenderer(lang)
    rng = random.Random(7)
    state = new_state(**options)
    phases: set[str] = set()
    status_seen = False
    while True:
        seat = state.current_player() if state.current_player() >= 0 else rng.randrange(state.num_players)
        view = state.view(seat)
        phases.add(view["phase"])
        text = render(renderer.board(view, seat))
        # Own hand: every card's value in its colour's row, and nothing else there.
        rows = hand_cells(renderer, text, view)
        for colour in "RBGYP":
            mine = sorted(int(c[1:]) for c in view["hand"] if c[0] == colour)
            shown = sorted(int(v) for v in rows.get(renderer.colour(colour), []))
            assert shown == mine, (colour, text)
        # Another seat's hidden Oracle cards never show.
        own_oracles = {card["id"] for card in view["oracle_cards"]} | {card["id"] for card in view["kept"]}
        public = set(view.get("draft", {}).get("discards", []))
        for pairs in view["revealed"]:
            for pair in pairs:
                public.update(pair)
        for other in range(state.num_players):
            if other != seat:
                for card in state.view(other)["oracle_cards"]:
                    if card["id"] not in own_oracles | public:
                        assert card["id"] not in text, (card, text)
        if view["kept"]:
            status_seen = True
            assert renderer.tr("holds now") in text or renderer.tr("not now") in text
        if view["round"]:
            assert ("Runde" if lang == "de" else "round") in text
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert status_seen
    expected = {"dealer", "deal", "play", "over"} | ({"draft"} if options.get("draft") else {"keep"})
    assert expected <= phases


def test_board_during_play_shows_trick_prophecies_and_chips() -> None:
    rng = random.Random(3)
    state = new_state(players=4, rounds=1)
    while not (state.phase == 5 and len(state.tricks) >= 4 and len(state.trick) == 2):
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    view = state.view(seat)
    text = render(OracleRenderer("en").board(view, seat))
    for _seat, card in view["trick"]["cards"]:
        assert card in text
    for card in view["kept"]:
        assert card["id"] in text and card["text"] in text
    assert "Middle: Phoenix" in text
    assert "to act: you" in text
    german = render(OracleRenderer("de").board(view, seat))
    assert "Mitte: Phönix" in german and "Deine Prophezeiungen" in german
    for card in view["kept"]:
        assert state.game.edition.card(card["id"]).text_de in german


def play_until_trick(state: OracleState, rng: random.Random) -> tuple[dict[str, Any], dict[str, Any]]:
    """Random moves until a trick is finished; the views of seat 0 around that action."""
    while True:
        before = state.view(0)
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        state.apply_action(rng.choice(state.legal_actions()))
        after = state.view(0)
        if len(after["tricks"]) > len(before["tricks"]) or len(after["round_scores"]) > len(
            before["round_scores"]
        ):
            return before, after


def test_trick_winner_announced_with_card_reason_and_chip() -> None:
    state = new_state(players=3, rounds=1)
    for text in ["dealer 2", "deal " + " / ".join(three_hands())]:
        state.apply_string(text)
    rng = random.Random(1)
    state.apply_action(state.sample_chance(rng))
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    renderer = OracleRenderer("en")
    for text in ["play R12", "play R1"]:
        state.apply_string(text)
    before = [state.view(0), state.view(1)]
    state.apply_string("play B2")
    lines = renderer.announcements(before[1], state.view(1))
    assert lines[0] == "Seat 3 plays Blue 2."
    assert lines[1] == (
        "Red 1 wins: a 1 beats a 12 in the same trick. Seat 2 (you) takes a Hydra chip (2 left in the middle)."
    )
    german = OracleRenderer("de").announcements(before[0], state.view(0))
    assert german[1] == (
        "Rot 1 gewinnt: eine 1 schlägt eine 12 im selben Stich. Platz 2 nimmt einen Hydra-Chip (noch 2 in der Mitte)."
    )


def three_hands() -> list[str]:
    """Seat 0 leads R12 into seat 1's R1 (seat 2 deals)."""
    red = [f"R{v}" for v in range(1, 13)]
    blue = [f"B{v}" for v in range(1, 13)]
    green = [f"G{v}" for v in range(1, 13)]
    yellow = [f"Y{v}" for v in range(1, 13)]
    seat0 = ["R12", "R2", "R3", "R4", "R5", "R6", *blue[2:12]]
    seat1 = ["R1", "R7", "R8", "R9", "R10", "R11", *green[:10]]
    seat2 = ["B1", "B2", *green[10:], *yellow]
    assert sorted(seat0 + seat1 + seat2) == sorted(red + blue + green + yellow)
    return [" ".join(seat0), " ".join(seat1), " ".join(seat2)]


def test_loser_chip_moves_and_round_summary_are_announced() -> None:
    renderer = OracleRenderer("en")
    rng = random.Random(8)
    state = new_state(players=3, rounds=1)
    seen_loser = False
    summary: list[str] = []
    while not state.is_terminal():
        before, after = play_until_trick(state, rng)
        lines = renderer.announcements(before, after)
        assert any(" wins: " in line for line in lines)
        if any("Loser chip" in line for line in lines):
            seen_loser = True
        if len(after["round_scores"]) > len(before["round_scores"]):
            summary = lines
    assert seen_loser
    assert any(line.startswith("Round 1 is over") for line in summary)
    points = state.view(0)["round_scores"][-1]
    for s in range(3):
        line = next(
            line for line in summary if line.strip().startswith("You:" if s == 0 else f"Seat {s + 1}:")
        )
        told = next(line for line in summary if line.startswith("Round 1 is scored."))
        assert f"Seat {s + 1}{' (you)' if s == 0 else ''}: " in told
        assert f"= {points[s]} (total" in line
        for card_id in state.view(0)["revealed"][-1][s]:
            assert card_id in line


def test_the_renderer_shows_the_games_edition() -> None:
    renderer = OracleRenderer("en")
    renderer.use_game(load_game("oracle", edition="classic"))
    assert renderer.prophecy_points("O34") == 12
    renderer.use_game(load_game("oracle", edition="balanced"))
    assert (
        renderer.prophecy_points("O34") == load_game("oracle", edition="balanced").edition.card("O34").points
    )  # type: ignore[attr-defined]


def test_german_labels() -> None:
    de = OracleRenderer("de")
    de.use_game(load_game("oracle", edition="classic"))  # the points below are classic's
    assert de.action_label("play R12") == "spiele Rot 12"
    assert de.action_label("play Y3") == "spiele Gelb 3"
    assert de.action_label("keep O05 O12") == "behalte O05 O12 (9 + 6 P.)"
    assert de.action_label("loser keep") == "behalte den Verliererchip"
    assert de.action_label("loser return") == "lege den Verliererchip in die Mitte zurück"
    assert de.action_label("pass O03 O09") == "gib O03 O09 nach links weiter"
    assert de.action_label("discard O11 O20") == "lege O11 O20 ab"
    assert de.action_label("Platz 2 gibt") == "Platz 2 gibt"  # a label is left as it is
    en = OracleRenderer("en")
    en.use_game(load_game("oracle", edition="classic"))
    assert en.action_label("play R12") == "play R12"
    assert en.action_label("keep O05 O12") == "keep O05 O12 (9 + 6 pts)"
    assert de.prophecy_text("O09") == "kein Phönix-Chip"


def test_the_story_tells_the_deal_of_oracle_cards_and_nothing_observed_twice() -> None:
    state = new_state(players=3, rounds=1)
    rng = random.Random(2)
    before = state.view(0)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    renderer = OracleRenderer("de")
    assert renderer.observed(state.view(0)) is None
    told = renderer.announcements(before, state.view(0))
    assert told[-1].startswith("Die Orakelkarten werden verteilt. Deine: „")


def test_shortcuts() -> None:
    renderer = OracleRenderer("de")
    legal = {"play R12": 11, "play B12": 23, "play R3": 2, "play Y5": 41, "play P7": 54}
    view: dict[str, Any] = {}
    assert renderer.shortcut("r12", legal, view) == [11]
    assert renderer.shortcut("R12", legal, view) == [11]
    assert renderer.shortcut("rot 12", legal, view) == [11]
    assert renderer.shortcut("spiele rot 12", legal, view) == [11]
    assert renderer.shortcut("b12", legal, view) == [23]
    assert sorted(renderer.shortcut("12", legal, view)) == [11, 23]  # ambiguous: the session asks
    assert renderer.shortcut("3", legal, view) == [2]
    assert renderer.shortcut("ge5", legal, view) == [41]
    assert renderer.shortcut("gelb 5", legal, view) == [41]
    assert renderer.shortcut("y5", legal, view) == [41]
    assert renderer.shortcut("lila 7", legal, view) == [54]
    assert renderer.shortcut("g5", legal, view) == []
    keeps = {"keep O05 O12": 100, "keep O05 O09": 101}
    assert renderer.shortcut("keep 5 12", keeps, view) == [100]
    assert renderer.shortcut("behalte 12 5", keeps, view) == [100]
    assert renderer.shortcut("O05 O12", keeps, view) == [100]
    assert renderer.shortcut("o5 o9", keeps, view) == [101]
    passes = {"pass O03 O09": 7, "pass O03 O10": 8}
    assert renderer.shortcut("3 9", passes, view) == [7]
    loser = {"loser keep": 840, "loser return": 841}
    assert renderer.shortcut("keep", loser, view) == [840]
    assert renderer.shortcut("zurück", loser, view) == [841]
    assert renderer.shortcut("return", loser, view) == [841]


def test_shortcut_on_a_real_turn() -> None:
    rng = random.Random(4)
    state = new_state(players=4, rounds=1)
    while state.phase != 5:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(state.legal_actions()[0])
    legal = legal_map(state)
    renderer = OracleRenderer("en")
    for text, action in legal.items():
        card = text.split()[1]
        assert renderer.shortcut(card.lower(), legal, state.view(state.current_player())) == [action]


def test_final_table() -> None:
    rng = random.Random(6)
    state = new_state(players=3, rounds=2)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    view = state.view(1)
    text = render(OracleRenderer("de").final(view))
    assert "Punkte je Runde" in text and "Gesamt" in text
    for score in view["scores"]:
        assert f"{score:g}" in text
