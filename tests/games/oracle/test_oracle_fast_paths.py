"""Oracle's shortcuts for random play give what the plain rules give: the
legal plays by table lookup, deals packed by ``int()``, the drawn deal's
decoding kept on the game, and the inlined ``apply_trusted``."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles import load_game
from oracles.core.codec import pack
from oracles.games.oracle.cards import (
    NUM_CARDS,
    NUM_VALUES,
    cards_of_mask,
    legal_play_list,
    legal_plays,
    trick_winner,
)
from oracles.games.oracle.notation import pack_digits
from oracles.games.oracle.prophecies import QUANTITIES, Prophecy, compile_condition, edition_named
from oracles.games.oracle.rules import OracleGame, OracleState
from oracles.games.oracle.scoring import (
    _compiled_test,
    card_points,
    compiled_tests,
    points_of,
    prophecies_hold,
    prophecies_hold_by,
    score_kept,
    seat_quantities,
)

OPTION_SETS = [
    {"players": 3, "rounds": 2},
    {"players": 3, "removed_colour": "G", "rounds": 1},
    {"players": 4, "rounds": 2},
    {"players": 5, "rounds": 1},
    {"players": 4, "draft": True, "rounds": 1},
]


@given(st.integers(0, (1 << NUM_CARDS) - 1), st.none() | st.integers(0, NUM_CARDS - 1))
def test_legal_play_list_is_the_cards_of_legal_plays(hand: int, first_card: int | None) -> None:
    assert legal_play_list(hand, first_card) == cards_of_mask(legal_plays(hand, first_card))


def _plain_trick_winner(cards: list[int], led: int | None) -> tuple[int, str]:
    """The trick winner as the rulebook says it, written plainly."""
    if led is None:
        led = cards[0] // NUM_VALUES
    values = [card % NUM_VALUES + 1 for card in cards]
    one_beats_twelve = 12 in values and 1 in values
    best = 1 if one_beats_twelve else max(values)
    candidates = [index for index, value in enumerate(values) if value == best]
    if len(candidates) > 1:
        for index in candidates:
            if cards[index] // NUM_VALUES == led:
                return index, "led colour wins the tie"
        return candidates[0], "first played wins the tie"
    return candidates[0], "1 beats 12" if one_beats_twelve else "highest value"


@given(
    st.lists(st.integers(0, NUM_CARDS - 1), min_size=3, max_size=5, unique=True),
    st.none() | st.integers(0, 4),
)
def test_trick_winner_is_the_plain_rule(cards: list[int], led: int | None) -> None:
    assert trick_winner(cards, led) == _plain_trick_winner(cards, led)


@pytest.mark.parametrize("edition", ["classic", "balanced"])
@given(players=st.integers(3, 5), data=st.data())
def test_compiled_prophecies_agree_with_the_cards(edition: str, players: int, data: st.DataObject) -> None:
    deck = edition_named(edition).for_players(players)  # that count's conditions
    held = data.draw(st.lists(st.integers(0, 4), min_size=3 * players, max_size=3 * players))
    losers = data.draw(st.lists(st.integers(-1, players - 1), min_size=3, max_size=3))
    quantities = seat_quantities(held, losers, players)
    every_card = [list(range(seat, 40, players)) for seat in range(players)]
    assert prophecies_hold_by(compiled_tests(deck), quantities, every_card) == prophecies_hold(
        quantities, every_card, deck
    )


_SCOPES = ["number", "", "left.", "right.", "others_min.", "others_max."]


def _term(scope: str, data: st.DataObject) -> str:
    if scope == "number":
        return str(data.draw(st.integers(-1, 12)))
    return scope + data.draw(st.sampled_from(QUANTITIES))


@pytest.mark.parametrize("right", _SCOPES)
@pytest.mark.parametrize("left", _SCOPES)
@given(players=st.integers(3, 5), data=st.data())
def test_compiled_test_of_any_condition_is_the_card(
    left: str, right: str, players: int, data: st.DataObject
) -> None:
    """Every shape of clause an edition file may write (a number or any
    seat's quantity on either side, alone or after other clauses), not only
    the shapes the shipped editions use, compiles to the card's own test."""
    operator = data.draw(st.sampled_from(["==", "!=", "<", "<=", ">", ">="]))
    clause = f"{_term(left, data)} {operator} {_term(right, data)}"
    before = data.draw(st.lists(st.sampled_from(["hydra >= 0", "stars < 99", "left.chips >= 0"]), max_size=2))
    condition = " and ".join([*before, clause])
    card = Prophecy("O01", 5, "", "", condition, compile_condition(condition))
    held = data.draw(st.lists(st.integers(0, 3), min_size=3 * players, max_size=3 * players))
    losers = data.draw(st.lists(st.integers(-1, players - 1), min_size=3, max_size=3))
    quantities = seat_quantities(held, losers, players)
    test = _compiled_test(card)
    for seat in range(players):
        assert test(quantities, seat, players) == card.holds(quantities, seat)


@pytest.mark.parametrize("edition", ["classic", "balanced"])
@given(players=st.integers(3, 5), data=st.data())
def test_score_kept_is_holds_then_points(edition: str, players: int, data: st.DataObject) -> None:
    deck = edition_named(edition).for_players(players)
    held = data.draw(st.lists(st.integers(0, 4), min_size=3 * players, max_size=3 * players))
    losers = data.draw(st.lists(st.integers(-1, players - 1), min_size=3, max_size=3))
    kept = [
        tuple(data.draw(st.lists(st.integers(0, 39), min_size=2, max_size=2, unique=True)))
        for _ in range(players)
    ]
    quantities = seat_quantities(held, losers, players)
    holds = prophecies_hold(quantities, kept, deck)
    assert score_kept(compiled_tests(deck), card_points(deck), quantities, kept) == (
        holds,
        points_of(quantities, kept, deck, holds),
    )


@given(
    st.integers(2, 10).flatmap(
        lambda radix: st.tuples(st.just(radix), st.lists(st.integers(0, radix - 1), min_size=1, max_size=70))
    )
)
def test_pack_digits_is_pack(case: tuple[int, list[int]]) -> None:
    radix, values = case
    assert pack_digits(values, radix) == pack(values, radix)


@pytest.mark.parametrize("options", OPTION_SETS)
def test_trusted_play_with_cached_deals_matches_checked_replay(options: dict[str, object]) -> None:
    """Random play (``apply_trusted``, each deal decoded from the cache) and
    a checked replay of its history on a game that never drew a deal
    (``apply_action``, every deal unpacked) pass through the same states."""
    played = load_game("oracle", **options)
    assert isinstance(played, OracleGame)
    for seed in range(3):
        rng = random.Random(seed)
        trusted = played.new_initial_state()
        checked = load_game("oracle", **options).new_initial_state()
        assert isinstance(trusted, OracleState) and isinstance(checked, OracleState)
        while not trusted.is_terminal():
            if trusted.is_chance_node():
                action = trusted.sample_chance(rng)
            else:
                legal = trusted.legal_actions()
                assert legal == checked.legal_actions()
                action = rng.choice(legal)
            trusted.apply_trusted(action)
            checked.apply_action(action)
            assert trusted.hands == checked.hands
            assert trusted.oracle_cards == checked.oracle_cards
            assert trusted.current_player() == checked.current_player()
            assert trusted.is_chance_node() == checked.is_chance_node()
        assert checked.is_terminal()
        assert trusted.history() == checked.history()
        assert trusted.scores() == checked.scores() and trusted.winners() == checked.winners()
        for seat in (None, *range(trusted.num_players)):
            assert trusted.view(seat) == checked.view(seat)


def test_a_deal_other_than_the_drawn_one_is_decoded() -> None:
    """The cache holds the last drawn deal only: applying another deal (a
    record, a resampled world) decodes that one."""
    game = load_game("oracle", players=4, rounds=1)
    assert isinstance(game, OracleGame)
    first, second = game.new_initial_state(), game.new_initial_state()
    rng = random.Random(1)
    for state in (first, second):
        state.apply_action(0)
    dealt = first.sample_chance(rng)
    other = second.sample_chance(rng)  # now the cached one
    assert dealt != other
    first.apply_action(dealt)
    second.apply_action(other)
    assert first.hands != second.hands
    fresh = load_game("oracle", players=4, rounds=1).new_initial_state()
    assert isinstance(fresh, OracleState)
    fresh.apply_action(0)
    fresh.apply_action(dealt)
    assert fresh.hands == first.hands
