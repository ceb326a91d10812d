"""Inrah's story: every event kind told in English and German, the trick's
winner and reason on the card that completes it, the round's points."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

from oracles.core.registry import game_part, load_game
from oracles.games.inrah import narrate as inrah_narrate
from oracles.games.inrah.cards import parse_card
from oracles.games.inrah.tricks import trick_winner

sys.path.insert(0, str(Path(__file__).parents[1]))
from narrate_checks import check_sentence

narrate = inrah_narrate.narrate


def played(seed: int, **options: Any) -> Any:
    state = load_game("inrah", **options).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(
            state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        )
    return state


def test_the_registry_gives_the_part() -> None:
    assert game_part("inrah", "narrate") is inrah_narrate


@pytest.mark.parametrize(
    "options",
    [
        {"players": 3, "rounds": 4},
        {"players": 4, "variant": "purpurberg", "rounds": 3},
        {"players": 3, "variant": "altaia", "rounds": 3},
    ],
)
def test_every_event_of_whole_games_is_told_in_both_languages(options: dict[str, Any]) -> None:
    kinds: set[str] = set()
    for seed in range(2):
        state = played(seed, **options)
        for viewer in (None, *range(state.num_players)):
            for event in state.view(viewer)["log"]:
                check_sentence(narrate, event, viewer)
                kinds.add(event["kind"])
    expected = {"dealer", "deal", "trump", "play"}
    expected |= {"hesinde", "efferd", "phex"} if options.get("variant") == "altaia" else {"bid"}
    assert expected <= kinds


def test_the_completing_card_carries_the_rules_winner_and_the_round_points() -> None:
    state = played(5, players=3, rounds=3)
    n = 3
    for viewer in (None, 0):
        log = state.view(viewer)["log"]
        plays = [e for e in log if e["kind"] == "play"]
        trumps = {e["round"]: e["element"] for e in log if e["kind"] == "trump"}
        elements = ("fire", "water", "air", "ore", "humus", "ice")
        for start in range(0, len(plays), n):
            trick = plays[start : start + n]
            assert all("winner" not in e for e in trick[:-1])
            trump = trumps.get(trick[0]["round"])
            position, why = trick_winner(
                [parse_card(e["card"]) for e in trick], elements.index(trump) if trump else -1
            )
            assert trick[-1]["winner"] == trick[position]["seat"] and trick[-1]["reason"] == why
        ends = [e for e in plays if "points" in e]
        assert [e["points"] for e in ends] == state.view(viewer)["round_scores"]


def test_sentences_of_a_trick_and_a_round() -> None:
    event = {
        "seq": 20,
        "seat": 2,
        "kind": "play",
        "round": 1,
        "trick": 1,
        "card": "fire-3",
        "winner": 1,
        "reason": "first seer",
        "points": [20, 30, -10],
    }
    english, german = check_sentence(narrate, event, 0)
    assert english == (
        "Carl plays Fire 3. Beate takes trick 1: the first seer played takes the trick."
        " Round 1 is over: Ann 20 points, Beate 30 points, Carl -10 points."
    )
    assert german.startswith("Carl spielt Feuer-3. Beate nimmt Stich 1: die zuerst gespielte Weissagerin")
    bid = {"seq": 4, "seat": 0, "kind": "bid", "round": 1, "bid": 1}
    assert check_sentence(narrate, bid, 0) == ("Ann bids 1 trick.", "Ann sagt 1 Stich an.")
    phex = {"seq": 4, "seat": 0, "kind": "phex", "round": 1, "named": 2, "k": 2, "makes": False}
    assert check_sentence(narrate, phex, 0)[1] == "Ann sagt voraus (Phex): Carl macht nicht genau 2 Stiche."


def test_altaia_oracles_have_words_on_their_buttons() -> None:
    """The series and compare pages and the move buttons show a move in words:
    every oracle a seat may announce is told, the seat counted from 1."""
    state = load_game("inrah", players=3, variant="altaia", rounds=2).new_initial_state()
    rng = random.Random(4)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    moves = [state.action_to_string(a) for a in state.legal_actions()]
    assert {m.split()[0] for m in moves} == {"hesinde"}
    assert inrah_narrate.move_label("hesinde P2 1", "en") == "Hesinde: Seat 3 takes exactly 1 trick"
    assert (
        inrah_narrate.move_label("efferd P0 misses 2", "de") == "Efferd: Platz 1 macht nicht genau 2 Stiche"
    )
    assert inrah_narrate.move_label("phex P1 0", "en") == "Phex: Seat 2 does not take exactly 0 tricks"
    for move in moves:
        for lang in ("en", "de"):
            assert inrah_narrate.move_label(move, lang) != move
    for broken in ("phex P1", "hesinde X1 2", "efferd P1 3", "hesinde P1 two"):
        assert inrah_narrate.move_label(broken, "en") == broken
