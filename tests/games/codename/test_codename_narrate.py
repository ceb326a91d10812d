"""Codename's story: every event kind told in English and German, secrets
only where the viewer saw them, and a whole game against the bot that
explains every life change and the end."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

from oracles.bots.base import SeatInfo
from oracles.bots.specs import make_bot
from oracles.core.registry import game_part, load_game
from oracles.games.codename import narrate as codename_narrate
from oracles.games.codename.views import EVENT_KINDS
from oracles.i18n import move_label

sys.path.insert(0, str(Path(__file__).parents[1]))
from narrate_checks import check_sentence

narrate = codename_narrate.narrate

#: One event of every kind, with its fields (views.py), secrets included.
SAMPLES: dict[str, dict[str, Any]] = {
    "code": {"player": 0, "code": ["star", "square", "wave", "circle", "cross"]},
    "shuffle": {"player": 0, "hand": ["star", "star", "wave", "circle", "cross"]},
    "first": {"player": 1},
    "turn": {"player": 1, "turn": 3},
    "peek": {"player": 0, "cells": ["a1", "b2"], "symbols": ["star", "wave"]},
    "swap": {"player": 0, "cells": ["a1", "c3"]},
    "replace": {"player": 0, "cell": "b2", "symbol": "circle"},
    "reveal": {
        "player": 1,
        "cells": ["c1", "c2", "c3"],
        "symbols": ["star"] * 3,
        "set": "strike",
        "valid": True,
    },
    "respond": {"player": 0, "cells": ["b1", "c1", "d1"], "symbols": ["star"] * 3, "valid": True},
    "hit": {"player": 1, "column": "c"},
    "block": {"player": 0, "cells": ["b1", "c1", "d1"], "symbol": "star"},
    "discard_shield": {"player": 0, "cells": ["b1", "c1", "d1"], "symbol": "star"},
    "code_shown": {"player": 0, "slot": "c", "symbol": "circle"},
    "discard_hand": {"player": 0, "count": 4},
    "codeswap": {"player": 0, "slots": ["a", "d"]},
    "recode": {"player": 0, "slot": "b", "symbol": "wave"},
    "pick": {"player": 1, "cell": "d4"},
    "scramble": {"player": 0, "cells": ["a1", "a2", "d4"]},
    "aside": {"player": 0, "count": 3, "symbols": ["star", "wave", "wave"]},
    "place": {"player": 0, "cell": "a1", "symbol": "star"},
    "fill": {"player": 0, "cell": "a2", "source": "hand", "symbol": "cross"},
    "target": {"player": 1, "cell": "c2"},
    "search": {"player": 1, "owner": 0, "symbols": ["star", "cross"]},
    "take": {"player": 1, "symbol": "cross", "cell": "c2"},
    "name": {"player": 1, "symbol": "star", "slots": ["a", "e"]},
    "guess": {"player": 1, "symbols": ["star", "square", "wave", "circle", "cross"], "right": ["a", "b"]},
    "open": {"player": 0, "cells": ["a1", "b1"], "symbols": ["star", "wave"]},
    "life": {"player": 0, "change": -2, "life": 7},
    "end": {"player": 1},
    "draw": {"player": 1, "count": 2, "symbols": ["star", "square"]},
    "reshuffle": {"player": 1, "count": 12},
    "over": {"reason": "life", "winners": [1]},
}
#: The secret fields, left out of a copy that did not see them.
SECRETS = {"code", "hand", "symbols", "symbol"}


def test_the_registry_gives_the_part() -> None:
    assert game_part("codename", "narrate") is codename_narrate


def test_every_event_kind_is_told_with_and_without_its_secrets() -> None:
    assert set(SAMPLES) == set(EVENT_KINDS)
    for kind, fields in SAMPLES.items():
        event = {"seq": 10, "seat": fields.get("player"), "kind": kind, **fields}
        check_sentence(narrate, event, 0, ["Ann", "Bot"])
        masked = {
            k: v
            for k, v in event.items()
            if k not in SECRETS
            or kind in ("reveal", "respond", "guess", "block", "discard_shield", "take", "name", "open")
        }
        check_sentence(narrate, masked, 1, ["Ann", "Bot"])


def test_sentences_that_matter() -> None:
    names = ["Ann", "Bot"]
    told = {
        kind: narrate({"seq": 1, "seat": None, "kind": kind, **fields}, 0, names, "en")
        for kind, fields in SAMPLES.items()
    }
    assert told["reveal"] == "Bot reveals c1 c2 c3 (star, star, star): a strike on column c."
    assert told["hit"] == "Bot's strike on column c is not blocked: it hits."
    assert told["life"] == "Ann loses 2 life (7 left)."
    assert (
        told["guess"] == "Bot guesses the code star, square, wave, circle, cross: 2 of 5 right (slots a b)."
    )
    assert told["over"] == "Ann's life is down to zero: Bot wins."
    assert (
        narrate({"seq": 1, "seat": 1, "kind": "peek", "player": 1, "cells": ["a1"]}, 0, names, "en")
        == "Bot peeks at a1."
    )
    heal = narrate(
        {"seq": 1, "seat": 1, "kind": "life", "player": 1, "change": 3, "life": 12}, 0, names, "de"
    )
    assert heal == "Bot gewinnt 3 Leben (jetzt 12)."
    draw = narrate({"seq": 1, "seat": None, "kind": "over", "reason": "turns", "winners": []}, 0, names, "en")
    assert draw == "The turn limit is reached: the game is drawn."
    # A code card shown: to the one reading it, "to you" (was "to the opponent").
    shown = {"seq": 1, "seat": 0, "kind": "code_shown", "player": 1, "slot": "a", "symbol": "circle"}
    assert narrate(shown, 0, names, "de") == "Die Codekarte von Bot an Stelle a wird dir gezeigt: Kreis."
    assert narrate(shown, None, names, "en") == "Bot's code card in slot a is shown to the opponent: circle."


def test_a_whole_game_against_the_bot_explains_every_life_change_and_the_end() -> None:
    state = load_game("codename").new_initial_state()
    rng = random.Random(4)
    bots = [make_bot("heuristic", 0, seed=1), make_bot("heuristic", 1, seed=2)]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            seat = state.current_player()
            state.apply_action(bots[seat].choose(SeatInfo(state, seat)))
    view = state.view(0)
    names = ["Ann", "Bot"]
    story = [narrate(event, 0, names, "en") for event in view["log"]]
    life = [9, 9]
    for event, sentence in zip(view["log"], story, strict=True):
        check_sentence(narrate, event, 0, names)
        if event["kind"] == "life":
            life[event["player"]] += event["change"]
            assert str(abs(event["change"])) in sentence and str(event["life"]) in sentence
    assert life == view["life"]
    assert view["log"][-1]["kind"] == "over"
    assert " wins" in story[-1] or "drawn" in story[-1]
    # The end turns both code rows face up, for everyone.
    for seat in (None, 0, 1):
        for side in state.view(seat)["sides"]:
            assert None not in side["code"] and len(side["code"]) == 5


@pytest.mark.parametrize(
    ("move", "english", "german"),
    [
        (
            "code star wave wave circle cross",
            "Choose the code: star, wave, wave, circle, cross",
            "Code wählen: Stern, Welle, Welle, Kreis, Kreuz",
        ),
        (
            "guess star star square wave cross",
            "Guess the code: star, star, square, wave, cross",
            "Code raten: Stern, Stern, Quadrat, Welle, Kreuz",
        ),
        ("peek a1 b2", "Peek at a1 and b2", "a1 und b2 ansehen"),
        ("swap a1 e4", "Swap a1 and e4", "a1 und e4 tauschen"),
        ("replace c3 wave", "Replace c3 by wave from your hand", "c3 durch Welle aus der Hand ersetzen"),
        ("reveal a1 a2 a3", "Reveal a1 a2 a3 (strike)", "a1 a2 a3 aufdecken (Schlag)"),
        ("reveal a1 b1 c1", "Reveal a1 b1 c1 (shield)", "a1 b1 c1 aufdecken (Schild)"),
        ("reveal a1 a2 b1 b2", "Reveal a1 a2 b1 b2 (focus)", "a1 a2 b1 b2 aufdecken (Fokus)"),
        ("respond a3 b3 c3", "Answer with the shield a3 b3 c3", "Mit dem Schild a3 b3 c3 antworten"),
        ("block row 2", "Block with row 2", "Mit Reihe 2 blocken"),
        ("block a2 b2", "Block with a2 b2", "Mit a2 b2 blocken"),
        ("codeswap a c", "Swap code slots a and c", "Code-Plätze a und c tauschen"),
        ("recode b star", "Put star into code slot b", "Stern in Code-Platz b legen"),
        ("place a1 wave", "Place wave at a1", "Welle auf a1 legen"),
        ("fill b2 cross", "Fill b2 with cross from your hand", "b2 mit Kreuz aus der Hand füllen"),
        ("fill b2 deck", "Fill b2 from the deck", "b2 vom Stapel füllen"),
    ],
)
def test_every_move_has_words_in_both_languages(move: str, english: str, german: str) -> None:
    """Regression: a move's words were its notation ("respond a3 b3 c3",
    "code star star ...") on German pages' hint lists and reviews; only
    ``end`` and the passes had words."""
    assert move_label("codename", move, "en") == english
    assert move_label("codename", move, "de") == german
