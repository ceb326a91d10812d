"""Oracle's story: every event kind as a sentence in English and German,
nothing the viewer may not know, the trick's reason and the chips."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

from oracles.core.registry import game_part, load_game
from oracles.games.oracle import narrate as oracle_narrate
from oracles.games.oracle.prophecies import default_edition
from oracles.simulate import play_game

sys.path.insert(0, str(Path(__file__).parents[1]))
from narrate_checks import NAMES, check_sentence

narrate = oracle_narrate.narrate


def played(seed: int, **options: Any) -> Any:
    state = load_game("oracle", **options).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(
            state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        )
    return state


def test_the_registry_gives_the_part() -> None:
    assert game_part("oracle", "narrate") is oracle_narrate


@pytest.mark.parametrize("options", [{}, {"players": 3, "draft": True}, {"players": 5}])
def test_every_event_of_whole_games_is_told_in_both_languages(options: dict[str, Any]) -> None:
    kinds: set[str] = set()
    for seed in range(2):
        state = played(seed, **options)
        for viewer in (None, *range(state.num_players)):
            for event in state.view(viewer)["log"]:
                check_sentence(narrate, event, viewer)
                kinds.add(event["kind"])
    expected = {"dealer", "deal", "oracles", "play", "trick", "score"}
    expected |= {"draw", "pass", "discard"} if options.get("draft") else {"keep"}
    assert expected <= kinds


def test_the_trick_says_why_and_who_takes_which_chip() -> None:
    event = {
        "seq": 30,
        "seat": None,
        "kind": "trick",
        "leader": 0,
        "cards": [[0, "B7"], [1, "R11"], [2, "B10"]],
        "winner": 1,
        "reason": "highest value",
        "creature": "phoenix",
        "take": "chip",
        "from": None,
        "left": 3,
    }
    english, german = check_sentence(narrate, event, 0)
    assert (
        english
        == "Red 11 wins: highest value, even off colour. Beate takes a Phoenix chip (3 left in the middle)."
    )
    assert (
        german
        == "Rot 11 gewinnt: höchster Wert, auch in anderer Farbe. Beate nimmt einen Phönix-Chip (noch 3 in der Mitte)."
    )
    one = dict(event, cards=[[0, "R12"], [1, "G1"], [2, "B5"]], reason="1 beats 12", creature="hydra", left=0)
    assert (
        check_sentence(narrate, one, 0)[0]
        == "Green 1 wins: a 1 beats a 12 in the same trick. Beate takes the last Hydra chip."
    )
    tie = dict(event, cards=[[0, "B7"], [1, "R7"], [2, "B7"]], winner=0, reason="led colour wins the tie")
    assert "the led colour wins the tie" in check_sentence(narrate, tie, 0)[0]
    loser = dict(event, take="loser", **{"from": 2})
    assert check_sentence(narrate, loser, 0)[0].endswith("Beate takes the Phoenix Loser chip from Carl.")
    decide = dict(event, take="decide")
    assert "already holds the Phoenix Loser chip" in check_sentence(narrate, decide, 0)[0]


def test_a_hidden_keep_says_only_that_two_were_kept() -> None:
    hidden = {"seq": 3, "seat": 2, "kind": "keep"}
    assert check_sentence(narrate, hidden, 0)[0] == "Carl keeps two Oracle cards, face down."
    own = {"seq": 3, "seat": 2, "kind": "keep", "cards": ["O01", "O29"]}
    english, german = check_sentence(narrate, own, 2)
    assert english == "Carl keeps “exactly one Phoenix chip” and “fewer chips than your right neighbour”."
    assert "„genau ein Phönix-Chip“" in german
    state = played(3)
    for event in state.view(1)["log"]:
        if event["kind"] == "keep" and event["seat"] != 1:
            assert "cards" not in event  # the view masks it; the story cannot tell more


def test_the_score_tells_forfeits_prophecies_and_points_with_plurals() -> None:
    event = {
        "seq": 60,
        "seat": None,
        "kind": "score",
        "round": 2,
        "kept": [["O01", "O17"], ["O23", "O38"], ["O19", "O05"]],
        "holds": [[True, False], [False, True], [False, False]],
        "stars": [2, 1, 0],
        "forfeits": [[], [], [["pegasus", 2]]],
        "points": [6, 1, 0],
    }
    english, german = check_sentence(narrate, event, None)
    assert "Round 2 is scored." in english
    assert "Ann: “exactly one Phoenix chip” holds and “no Loser chip” fails; 6 points." in english
    assert (
        "Beate: “no chips at all” fails and “at least one victory point chip of any creature” holds; 1 point."
        in english
    )
    assert "Carl holds the Pegasus Loser chip and puts back 2 Pegasus chips." in english
    assert "1 Punkt." in german and "6 Punkte." in german and "1 Punkte" not in german


def test_seats_outside_the_names_are_counted_from_one() -> None:
    assert (
        narrate({"seq": 0, "seat": None, "kind": "dealer", "dealer": 0}, None, [], "en")
        == "Seat 1 deals the first round."
    )


def test_every_prophecy_text_is_in_the_marked_list() -> None:
    texts = {card.text_en for card in default_edition().cards}
    assert texts == set(oracle_narrate.PROPHECY_TEXTS)


def test_names_are_given_not_numbers() -> None:
    assert NAMES[1] in narrate({"seq": 1, "seat": 1, "kind": "play", "card": "Y3"}, 0, NAMES, "en")


def test_the_story_and_the_pad_word_cards_as_the_table_s_edition_does() -> None:
    """In the balanced edition O16 asks for more Phoenix chips than every
    other player: the score line and the pad say that, not the printed
    card's words, in English and in the edition's German."""
    game = load_game("oracle", players=4, rounds=1, edition="balanced")
    final, _ = play_game(game, ["heuristic"] * 4, 0)
    view = final.view(None)
    score = next(e for e in view["log"] if e.get("kind") == "score")
    assert score["kept"][2][0] == "O16"
    names = ["A", "B", "C", "D"]
    english = narrate(score, None, names, "en")
    assert "more Phoenix chips than every other player" in english
    assert "no Pegasus or Hydra chip" not in english  # the printed O16
    german = narrate(score, None, names, "de")
    assert "mehr Phönix-Chips als jeder andere Spieler" in german
    pad = oracle_narrate.score_pad(view, "de")
    texts = [p["text"] for row in pad for seat in row["seats"] for p in seat["prophecies"]]
    assert "mehr Phönix-Chips als jeder andere Spieler" in texts
    # The keep, as its player saw it, says the same words.
    own = final.view(2)["log"]
    keep = next(e for e in own if e.get("kind") == "keep" and e.get("seat") == 2)
    assert "more Phoenix chips than every other player" in narrate(keep, 2, names, "en")
    assert "mehr Phönix-Chips als jeder andere Spieler" in narrate(keep, 2, names, "de")
    # Others see that a keep happened, and nothing of its cards or texts.
    hidden = next(e for e in final.view(1)["log"] if e.get("kind") == "keep" and e.get("seat") == 2)
    assert "cards" not in hidden and "texts" not in hidden
