"""Inrah-Orakel rules as pure functions: following, trick winner, scoring,
with every worked example of the rulebook."""

from __future__ import annotations

import pytest

from oracles.core.registry import load_game
from oracles.games.inrah.cards import (
    CARD_TEXT,
    ELEMENT_OF,
    FULL_DECK,
    IS_SPECIAL,
    parse_card,
)
from oracles.games.inrah.scoring import bid_points, makes_points, misses_points, team_points
from oracles.games.inrah.tricks import (
    FIRST_SEER,
    FREE,
    HIGHEST_LED,
    HIGHEST_TRUMP,
    NO_LED,
    ONLY_MAGES,
    led_element,
    legal_plays,
    trick_winner,
)

FIRE, WATER, AIR, ICE = 0, 1, 2, 5


def cards(text: str) -> list[int]:
    result = [parse_card(word) for word in text.split()]
    assert None not in result, text
    return [c for c in result if c is not None]


# ------------------------------------------------------------------- deck
def test_deck_notation_is_lower_case_and_round_trips() -> None:
    assert len(set(CARD_TEXT)) == FULL_DECK == 72
    for c, text in enumerate(CARD_TEXT):
        assert text == text.lower()
        assert parse_card(text) == parse_card(text.upper()) == c
    assert CARD_TEXT[:12] == tuple(
        f"fire-{r}"
        for r in ("ace", "2", "3", "4", "5", "6", "7", "squire", "knight", "seer", "mage", "prince")
    )
    assert [CARD_TEXT[12 * e] for e in range(6)] == [
        "fire-ace",
        "water-ace",
        "air-ace",
        "ore-ace",
        "humus-ace",
        "ice-ace",
    ]


def test_german_spellings_are_read() -> None:
    assert parse_card("Humus-Fürst") == parse_card("humus-prince") == parse_card("humus-fuerst")
    assert parse_card("Erz-Knappin") == parse_card("ore-squire") and parse_card(
        "eis-weissagerin"
    ) == parse_card("ice-seer")
    assert parse_card("Feuer-As") == parse_card("fire-ace") == parse_card("fire-1")
    assert parse_card("luft-magier") == parse_card("air-mage")
    assert parse_card("fire-8") is None and parse_card("wood-7") is None


# -------------------------------------------------------------- following
FOLLOWING = [
    # trick so far, hand, allowed plays
    ("", "fire-7 water-2 air-seer", "fire-7 water-2 air-seer"),
    ("fire-3", "fire-7 water-2 air-seer ore-mage", "fire-7 air-seer ore-mage"),
    ("fire-3", "water-2 air-7", "water-2 air-7"),
    # a seer or mage of the led element is no normal card of it: no duty
    ("fire-3", "fire-seer fire-mage water-2", "fire-seer fire-mage water-2"),
    # mage led: the first normal card sets the element
    ("water-mage", "fire-7 water-2 water-seer", "fire-7 water-2 water-seer"),
    ("water-mage fire-3", "fire-7 water-2 water-seer", "fire-7 water-seer"),
    ("ice-mage air-mage water-ace", "water-prince air-2", "water-prince"),
    # seer led: nothing to follow in the whole trick
    ("air-seer", "fire-7 water-2", "fire-7 water-2"),
    ("air-seer fire-3", "fire-7 water-2", "fire-7 water-2"),
    # mage then seer before any normal card: nothing to follow
    ("water-mage air-seer", "fire-7 water-2", "fire-7 water-2"),
    ("water-mage air-seer fire-3", "fire-7 water-2", "fire-7 water-2"),
    # a seer after the first normal card changes nothing
    ("water-mage fire-3 air-seer", "fire-7 water-2", "fire-7"),
]


@pytest.mark.parametrize(("trick", "hand", "allowed"), FOLLOWING)
def test_following(trick: str, hand: str, allowed: str) -> None:
    led = led_element(cards(trick))
    assert legal_plays(cards(hand), led) == cards(allowed)


def test_led_states() -> None:
    assert led_element([]) == NO_LED
    assert led_element(cards("fire-mage water-mage")) == NO_LED
    assert led_element(cards("fire-mage air-seer")) == FREE
    assert led_element(cards("fire-mage ore-4 air-seer")) == ELEMENT_OF[parse_card("ore-4") or 0]


# ----------------------------------------------------------- trick winner
WINNERS = [
    # trick in play order, trump element (-1: none), winner position, reason
    ("fire-3 water-prince fire-2", -1, 0, HIGHEST_LED),
    ("fire-3 fire-prince fire-knight", -1, 1, HIGHEST_LED),
    ("water-3 air-prince", -1, 0, HIGHEST_LED),
    ("water-3 air-prince fire-ace", FIRE, 2, HIGHEST_TRUMP),
    ("water-3 fire-ace fire-2", FIRE, 2, HIGHEST_TRUMP),
    ("fire-knight fire-squire water-prince", FIRE, 0, HIGHEST_TRUMP),
    ("water-3 fire-ace air-seer", FIRE, 2, FIRST_SEER),
    ("fire-7 water-seer air-seer", -1, 1, FIRST_SEER),
    ("ice-seer fire-prince water-seer", FIRE, 0, FIRST_SEER),
    ("fire-mage water-mage air-mage", -1, 0, ONLY_MAGES),
    ("water-mage fire-mage", FIRE, 0, ONLY_MAGES),
    ("fire-mage water-3 water-7 air-prince", -1, 2, HIGHEST_LED),
    ("fire-mage water-3 water-7 air-prince", AIR, 3, HIGHEST_TRUMP),
    ("water-mage fire-mage air-2", -1, 2, HIGHEST_LED),
    # the mage never wins against a normal card, even of the trump element
    ("fire-ace fire-mage", FIRE, 0, HIGHEST_TRUMP),
    ("water-2 fire-mage", FIRE, 0, HIGHEST_LED),
]


@pytest.mark.parametrize(("trick", "trump", "position", "reason"), WINNERS)
def test_trick_winner(trick: str, trump: int, position: int, reason: str) -> None:
    assert trick_winner(cards(trick), trump) == (position, reason)


def test_fire_ace_as_trump_beats_all_other_elements_but_a_seer() -> None:
    fire_ace, fire_two = cards("fire-ace fire-2")
    for other in range(FULL_DECK):
        if ELEMENT_OF[other] == FIRE:
            continue
        for trick, ace_at in (([other, fire_ace], 1), ([fire_ace, other], 0)):
            position, reason = trick_winner(trick, FIRE)
            if CARD_TEXT[other].endswith("-seer"):
                assert (position, reason) == (1 - ace_at, FIRST_SEER)
            else:
                assert (position, reason) == (ace_at, HIGHEST_TRUMP), CARD_TEXT[other]
    assert trick_winner([fire_ace, fire_two], FIRE) == (1, HIGHEST_TRUMP)
    assert trick_winner([fire_two, fire_ace], FIRE) == (0, HIGHEST_TRUMP)


def test_seer_or_mage_never_counts_as_trump_or_led_card() -> None:
    specials = [c for c in range(24) if IS_SPECIAL[c]]
    assert [CARD_TEXT[c] for c in specials] == ["fire-seer", "fire-mage", "water-seer", "water-mage"]
    assert trick_winner(cards("water-2 fire-mage water-ace"), FIRE) == (0, HIGHEST_LED)


# ---------------------------------------------------------------- scoring
@pytest.mark.parametrize(
    ("bid", "tricks", "points"),
    [(4, 1, -30), (4, 7, -30), (4, 4, 60), (0, 0, 20), (0, 3, -30), (12, 12, 140)],
)
def test_bid_points(bid: int, tricks: int, points: int) -> None:
    assert bid_points(bid, tricks) == points


def test_purpurberg_example_loses_nothing() -> None:
    # A bids 2 and takes 1, C bids 3 and takes 4: wrong, but the sums agree.
    assert team_points(2, 1, 3, 4) == 0
    assert team_points(2, 2, 3, 3) == 40 + 50
    assert team_points(2, 2, 3, 1) == -20
    assert team_points(0, 1, 0, 0) == -10


def test_phex_example() -> None:
    # "C will not take 4 tricks"
    assert [misses_points(4, t) for t in (2, 3, 4, 5)] == [-20, -10, -80, -10]
    assert misses_points(0, 0) == 0


def test_hesinde_scores_like_a_bid() -> None:
    assert [makes_points(2, t) for t in (0, 1, 2, 3)] == [-20, -10, 40, -10]


# ------------------------------------------------------ game length
@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_usual_game_ends_at_the_twelfth_prophecy(players: int) -> None:
    """Rulebook: "Das Spiel endet ... wenn beim Austeilen nicht mehr jeder die
    selbe Kartenzahl erhalten kann, für gewöhnlich bei der 12. Prophezeiung in
    der es dann auch kein Trumpfelement mehr gibt." With the default deck (one
    element per player up to five) three to five players play twelve rounds,
    the last one deals the whole deck (no trump card is left to turn up)."""
    game = load_game("inrah", players=players)
    assert game.options["rounds"] == 12
    assert game.options["elements"] == players
    assert not game.has_trump_round(12) and game.has_trump_round(11)


def test_six_players_default_to_five_elements_as_spec_says() -> None:
    """SPEC section 4: "elements 3-6 (default 3 for 3 players, 4 for 4, 5 for
    5-6)" and "rounds (default: ... deck size // players)": 60 // 6 = 10. A
    record of six players that leaves the options out replays on that deck
    (it refused one: 'the next action is a chance trump'); all six elements
    and twelve rounds remain an option."""
    game = load_game("inrah", players=6)
    assert game.options["elements"] == 5 and game.options["rounds"] == 10
    assert game.has_trump_round(9) and not game.has_trump_round(10)
    six = load_game("inrah", players=6, elements=6)
    assert six.options["rounds"] == 12 and not six.has_trump_round(12)


def test_six_players_may_choose_five_elements_explicitly() -> None:
    game = load_game("inrah", players=6, elements=5)
    assert game.options["rounds"] == 10
