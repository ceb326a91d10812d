"""Where the rulebook's text decides a ruling (issue 14): one test per sentence,
quoted in its docstring (``/work/shared/rulebooks/codename-oracle.txt``)."""

from __future__ import annotations

import codename_scenarios as scenarios
import pytest
from codename_scenarios import FULL_CODE, play, shuffle_text, start

from oracles import load_game
from oracles.core.errors import IllegalActionError, RecordError
from oracles.core.records import replay_record
from oracles.games.codename.rules import CodenameState


def cells_of(letter: str, *cells: str) -> dict[str, str]:
    return dict.fromkeys(cells, letter)


def decision(state: CodenameState) -> str:
    return str(state.view(0)["decision"]["kind"])


def record(fields: tuple[dict[str, str], dict[str, str]], first: int, moves: list[str]) -> dict[str, object]:
    """A game record: both codes FULL_CODE, hands SQWOX, the given fields."""
    actions = [f"code {FULL_CODE}", f"code {FULL_CODE}"]
    actions += [shuffle_text(seat, FULL_CODE, fields[seat], "SQWOX", "") for seat in (0, 1)]
    return {"game": "codename", "actions": [*actions, f"first {first}", *moves]}


def test_life_at_zero_loses_even_if_healed_later_in_the_same_action() -> None:
    """ "A player wins the game under the following conditions: [...] That player
    deals enough psychic damage to his opponent to move his life counter to
    zero." The counter reached zero: healing afterwards does not undo it.

    p0 guesses itself down to 1 life, then a wave focus opens p1's columns a
    and b: the square strike in column a is blocked by p1's star shield (1
    damage to p0: life 0), the cross strike in column b then hits (p0 gains 1
    life back). The focus has resolved with p0 at 1 life, and p1 wins."""
    fields = (
        cells_of("W", "a1", "a2", "b1", "b2"),
        {
            **cells_of("S", "a4", "b4", "c4"),
            **cells_of("Q", "a1", "a2", "a3"),
            **cells_of("X", "b1", "b2", "b3"),
        },
    )
    moves = ["reveal a4 b4 c4", "end", "guess star star star star star", "reveal a1 a2 b1 b2"]
    moves += ["respond pass", "respond pass"]
    state = replay_record(record(fields, 1, moves))
    view = state.view(None)
    assert [e["change"] for e in view["log"] if e["kind"] == "life" and e["player"] == 0][-2:] == [-1, 1]
    assert view["life"] == [1, 8]
    assert state.is_terminal() and state.winners() == [1] and state.scores() == [-1.0, 1.0]
    assert view["log"][-1] == {
        "seq": len(moves) + 4,
        "seat": 1,
        "kind": "over",
        "reason": "life",
        "winners": [1],
    }


def test_peeking_is_one_action_of_up_to_two_cards_once_per_turn() -> None:
    """ "Look at up to 2 cards in their Mind-field and place them back in the
    same position face down." and "Note that each action, excepting #4, may
    only be performed once by a player on their turn." A second peek later in
    the turn is refused, and a record holding one names its index."""
    state = play(start(), "peek a1 c3")
    peek = scenarios.events(state.view(0), "peek")[-1]
    assert peek == {"kind": "peek", "player": 0, "cells": ["a1", "c3"], "symbols": ["star", "square"]}
    assert scenarios.events(state.view(1), "peek")[-1] == {"kind": "peek", "player": 0, "cells": ["a1", "c3"]}
    assert state.view(0)["used"]["peek"] is True
    with pytest.raises(IllegalActionError, match="already peeked"):
        state.apply_string("peek b1")
    moves = ["peek a1", "swap b1 b2", "peek c1"]
    with pytest.raises(RecordError, match="action 7 'peek c1': you have already peeked this turn") as error:
        replay_record(record(({}, {}), 0, moves))
    assert error.value.index == 7 and error.value.text == "peek c1"


def test_a_blocked_strike_still_shows_the_code_card() -> None:
    """ "When revealed, a Strike deals 1 psychic damage to your opponent. That
    player must then reveal the code card for the corresponding column to
    you." and for shields: "prevent that damage and ignore all special effects
    associated with that Strike". Showing the code card is part of every
    strike, not a special effect; the option ``blocked_strike_shows_code``
    keeps the other reading."""
    fields = (cells_of("X", "a1", "a2", "a3"), cells_of("Q", "a1", "b1", "c1"))
    moves = ("reveal a1 b1 c1", "end", "reveal a1 a2 a3", "respond pass", "codeswap pass")
    state = play(start(fields=fields, first=1), *moves)
    assert state.view(0)["life"] == [9, 9]  # no damage, no cross effect
    assert state.view(0)["sides"][1]["code"] == ["star", None, None, None, None]
    assert state.view(1)["sides"][1]["code_shown"] == ["a"]
    other = play(start(fields=fields, first=1, blocked_strike_shows_code=False), *moves)
    assert other.view(0)["sides"][1]["code"] == [None] * 5
    assert load_game("codename").options["blocked_strike_shows_code"] is True


def test_a_wave_focus_discards_face_up_shields_in_both_columns() -> None:
    """ "After all valid sets have been resolved discard all cards in both
    columns and replace them as normal." Face-up shields there are cards in
    those columns: a shield reaching into them is discarded whole, with its
    discard effect (a star shield: 1 damage to the player of the focus)."""
    fields = (cells_of("W", "a1", "a2", "b1", "b2"), cells_of("S", "b4", "c4", "d4"))
    state = play(start(fields=fields, first=1), "reveal b4 c4 d4", "end", "reveal a1 a2 b1 b2")
    view = state.view(0)
    assert view["sides"][1]["face_up"] == []
    assert scenarios.events(view, "discard_shield") == [
        {"kind": "discard_shield", "player": 1, "cells": ["b4", "c4", "d4"], "symbol": "star"}
    ]
    assert view["life"] == [8, 9]
    assert view["sides"][1]["discard"] == 10  # 7 face-down cards of columns a, b and the 3 shield cards
    assert all(view["sides"][1]["field"][cell] is None for cell in ("a1", "b4", "c4", "d4"))
    assert state.current_player() == 1  # no set found: the turn ended


def test_a_strike_found_by_a_wave_focus_is_answered_and_has_its_field_effect() -> None:
    """ "Treat any valid set revealed in this way as having been revealed by
    you." A strike found by a wave focus may be answered with a shield, and its
    special effect applies as for any strike (here a circle strike: target, take)."""
    fields = (cells_of("W", "c1", "c2", "d1", "d2"), cells_of("O", "d1", "d2", "d3"))
    state = play(start(fields=fields), "reveal c1 c2 d1 d2")
    assert decision(state) == "respond" and state.current_player() == 1
    assert state.view(1)["decision"] == {"kind": "respond", "player": 1, "column": "d", "symbol": "circle"}
    play(state, "respond pass")
    assert state.view(0)["life"] == [9, 8]
    assert state.view(0)["sides"][1]["code"] == [None, None, None, "circle", None]
    assert decision(state) == "target" and state.current_player() == 0
    play(state, "target d4")
    assert decision(state) == "take"
    play(state, state.action_to_string(state.legal_actions()[0]))
    assert decision(state) == "turn" and state.current_player() == 0
    assert state.view(0)["sides"][1]["discard"] == 8  # the opened columns went after the effect


def test_a_strike_found_by_a_wave_focus_can_be_blocked_by_a_response() -> None:
    """ "Treat any valid set revealed in this way as having been revealed by
    you." and "You may reveal a Shield as a response to a Strike on your
    opponent's turn." """
    fields = (
        cells_of("W", "c1", "c2", "d1", "d2"),
        {**cells_of("O", "d1", "d2", "d3"), **cells_of("S", "c4", "d4", "e4")},
    )
    state = play(start(fields=fields), "reveal c1 c2 d1 d2", "respond c4 d4 e4")
    view = state.view(0)
    assert view["life"] == [8, 9]  # blocked by the star shield, which hurts the striker when discarded
    assert scenarios.events(view, "block")[-1]["cells"] == ["c4", "d4", "e4"]
    assert view["sides"][1]["code"] == [None, None, None, "circle", None]  # a blocked strike shows it too
    assert decision(state) == "turn" and state.current_player() == 0
