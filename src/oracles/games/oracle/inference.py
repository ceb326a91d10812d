"""What the other seats' card plays say about their hands: a model of play
and the weight it gives a resampled world.

A resampled world (:mod:`.resample`) deals the unseen cards at random,
keeping only what the rules force (hand sizes, the colours a seat has shown
it lacks). But a seat that let a trick go with a low card while holding the
card that would have won it, or that led a 3 while holding four Phoenix
cards, played as few players do. The search weighs each world by how likely
the other seats' plays of this round were, had they held the hands the
world gives them (:func:`weigher`), so that worlds that explain the plays
count for more.

**The model of play** is a conditional logit: a seat about to play picks
each legal card with a chance proportional to ``exp(u(card))``, where
``u`` adds up the weights of the card's features (:func:`play_features`):
its value, whether it would win the trick as it stands, whether that win
would bring a Loser chip, where it stands among the seat's legal cards (the
lowest, the highest winner...) and how long its colour is in the hand,
each by the seat's *role* (leading, following the led colour, or throwing
off another colour when void in it). The weights are
data (``data/play_model.json``), fitted by ``tools/fit_play_model.py`` on
self-play records of the search bots.

**The weight of a world** is the product, over every play of the other
seats this round, of the model's chance of the card played among the cards
that seat could legally play then: its hand in the world plus the cards it
has played since.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from math import exp, log

from oracles.core.game import State
from oracles.core.parts import fitted_weights
from oracles.games.oracle.cards import (
    CARD_CREATURE,
    COLOUR_MASK,
    NUM_CARDS,
    NUM_VALUES,
    cards_of_mask,
    trick_winner,
)
from oracles.games.oracle.phases import LOSER, PLAY
from oracles.games.oracle.rules import OracleState

#: Roles of a play: the seat leads, follows the led colour, or throws off
#: another colour (it holds none of the led one).
LEAD, FOLLOW, THROW = 0, 1, 2
ROLES = ("lead", "follow", "throw")

# The layout of the feature vector (binary features, by index).
#: Per role and value: the card's value.
_VALUE = 0
#: Per following or throwing role (1, 2) and value: the card wins the trick as it stands.
_WIN = _VALUE + 3 * NUM_VALUES
#: Per following or throwing role: the card wins and the seat plays last (a sure win).
_LAST_WIN = _WIN + 2 * NUM_VALUES
#: Per role and creature: the card would win (a lead: is led) with none of
#: its creature's victory point chips left in the middle (a Loser chip).
_LOSER = _LAST_WIN + 2
#: Per role: where the card stands among the seat's legal cards (see
#: :data:`RANKINGS`): the lowest or highest of them, of those that win the
#: trick as it stands, of those that lose it; and, for a lead or a throw,
#: how many cards of its colour the seat holds (one, two, three or more).
_RANK = _LOSER + 3 * 3
RANKINGS = ("lowest", "highest", "lowest winner", "highest winner", "lowest loser", "highest loser")
_LENGTH = _RANK + 3 * len(RANKINGS)
#: How many features there are.
NUM_FEATURES = _LENGTH + 2 * 3

_COLOUR_OF = tuple(card // NUM_VALUES for card in range(NUM_CARDS))
_VALUE_OF = tuple(card % NUM_VALUES for card in range(NUM_CARDS))
_TOP = NUM_VALUES - 1


def feature_names() -> list[str]:
    """A name for each feature index (for the model file and its report)."""
    names = [f"{role}:value={v + 1}" for role in ROLES for v in range(NUM_VALUES)]
    names += [f"{role}:wins:value={v + 1}" for role in ROLES[1:] for v in range(NUM_VALUES)]
    names += [f"{role}:wins:last" for role in ROLES[1:]]
    names += [f"{role}:loser:{creature}" for role in ROLES for creature in ("hydra", "pegasus", "phoenix")]
    names += [f"{role}:{rank}" for role in ROLES for rank in RANKINGS]
    names += [f"{role}:colour length={k}" for role in (ROLES[0], ROLES[2]) for k in ("1", "2", "3+")]
    assert len(names) == NUM_FEATURES
    return names


def _wins(trick: Sequence[int], card: int) -> bool:
    """Whether ``card`` would win ``trick`` (the cards played so far, not
    empty) as it stands (:func:`.cards.trick_winner`)."""
    values = [_VALUE_OF[c] for c in trick]
    value = _VALUE_OF[card]
    values.append(value)
    best = 0 if (_TOP in values and 0 in values) else max(values)
    if value != best:
        return False
    led = _COLOUR_OF[trick[0]]
    ties = [other for other in trick if _VALUE_OF[other] == best]
    if not ties:
        return True
    # A tie: the led colour wins it, else the first played.
    return _COLOUR_OF[card] == led and all(_COLOUR_OF[other] != led for other in ties)


def role_of(trick: Sequence[int], card: int) -> int:
    """The role of ``card`` played to ``trick`` (the cards before it)."""
    if not trick:
        return LEAD
    return FOLLOW if _COLOUR_OF[card] == _COLOUR_OF[trick[0]] else THROW


def card_features(trick: Sequence[int], card: int, middle: Sequence[int], players: int) -> list[int]:
    """The indices of the features of ``card`` played to ``trick`` (the
    cards before it, in play order) with ``middle`` victory point chips per
    creature left, at a table of ``players``: those that do not depend on
    the rest of the seat's hand."""
    value = _VALUE_OF[card]
    role = role_of(trick, card)
    active = [_VALUE + role * NUM_VALUES + value]
    creature = CARD_CREATURE[card]
    if role == LEAD:
        if not middle[creature]:
            active.append(_LOSER + creature)
        return active
    if _wins(trick, card):
        active.append(_WIN + (role - 1) * NUM_VALUES + value)
        if len(trick) == players - 1:
            active.append(_LAST_WIN + role - 1)
        if not middle[creature]:
            active.append(_LOSER + 3 * role + creature)
    return active


def hand_features(
    role: int, legal: Sequence[int], wins: Sequence[bool], hand_colours: Sequence[int]
) -> list[list[int]]:
    """For each card of ``legal`` (a seat's legal cards, all of one
    ``role``; ``wins``: whether each wins the trick as it stands), the
    indices of its features that depend on the others: where its value
    stands among them (:data:`RANKINGS`) and, leading or throwing, how many
    cards of its colour the hand holds (``hand_colours``, per colour)."""
    out: list[list[int]] = [[] for _ in legal]
    base = _RANK + role * len(RANKINGS)
    values = [_VALUE_OF[card] for card in legal]
    low, high = min(values), max(values)
    winners = [v for v, w in zip(values, wins, strict=True) if w]
    losers = [v for v, w in zip(values, wins, strict=True) if not w]
    for index, (card, value, won) in enumerate(zip(legal, values, wins, strict=True)):
        active = out[index]
        if value == low:
            active.append(base)
        if value == high:
            active.append(base + 1)
        if role != LEAD:
            if won:
                if value == min(winners):
                    active.append(base + 2)
                if value == max(winners):
                    active.append(base + 3)
            else:
                if value == min(losers):
                    active.append(base + 4)
                if value == max(losers):
                    active.append(base + 5)
        if role != FOLLOW:
            length = hand_colours[_COLOUR_OF[card]]
            active.append(_LENGTH + (0 if role == LEAD else 3) + min(length, 3) - 1)
    return out


def play_features(
    trick: Sequence[int], legal: Sequence[int], middle: Sequence[int], players: int, hand: int
) -> list[list[int]]:
    """The indices of the features of each card of ``legal`` (a seat's
    legal cards, ``hand`` its whole hand as a bit mask) played to ``trick``
    with ``middle`` victory point chips per creature left."""
    role = role_of(trick, legal[0])
    rows = [card_features(trick, card, middle, players) for card in legal]
    wins = [True] * len(legal) if role == LEAD else [_wins(trick, card) for card in legal]
    colours = [(hand & mask).bit_count() for mask in COLOUR_MASK]
    for row, extra in zip(rows, hand_features(role, legal, wins, colours), strict=True):
        row.extend(extra)
    return rows


def play_rows(state: State) -> list[list[int]] | None:
    """At a card play with a choice, the features of each legal card of the
    seat to play (:func:`play_features` read off the state), else None: what
    the fit reads from a record and what the weights add up, play by play."""
    assert isinstance(state, OracleState)
    if state.is_chance_node() or state.is_terminal() or state.phase != PLAY:
        return None
    legal = state.legal_actions()
    if len(legal) < 2:
        return None
    hand = state.hands[state.current_player()]
    return play_features(state.trick, legal, state.middle, state.num_players, hand)


@functools.cache
def play_model() -> tuple[float, ...]:
    """The fitted weights of the model of play (``data/play_model.json``)."""
    return fitted_weights("oracles.games.oracle", feature_names())


def round_plays(world: OracleState) -> list[tuple[int, tuple[int, ...], int, tuple[int, ...]]]:
    """Every card played this round, in order: (seat, the trick's cards
    before it, the card, the victory point chips in the middle then)."""
    middle = list(world.game.victory_chips)
    n = world.num_players
    tricks = [(leader, cards) for leader, cards, _ in world.tricks]
    if world.phase in (PLAY, LOSER) and world.trick:
        tricks.append((world.leader, world.trick))
    plays = []
    for leader, cards in tricks:
        now = tuple(middle)
        for index, card in enumerate(cards):
            plays.append(((leader + index) % n, cards[:index], card, now))
        if len(cards) == n:
            creature = CARD_CREATURE[cards[trick_winner(cards)[0]]]
            if middle[creature]:
                middle[creature] -= 1
    return plays


def weigher(world: State, seat: int) -> Callable[[State], float] | None:
    """For a search deciding for ``seat``: a function giving each world
    resampled for ``seat`` the log-likelihood, up to a constant, of the
    other seats' card plays this round under the model of play; None when
    they made no play that tells anything. Reads only what ``seat`` knows
    (the plays, the chips, the cards it has not seen), so any world will do."""
    assert isinstance(world, OracleState)
    if world.phase not in (PLAY, LOSER):
        return None
    weights = play_model()
    n = world.num_players
    unseen = world.unseen_cards(seat)
    plays = round_plays(world)
    later = [0] * n  # per seat, the cards it played after the play at hand
    # Per play of another seat that had a choice in some world: the seat, its
    # role, the colours its legal cards may have, the cards it surely held
    # then (those it played since, and the card played), and per card the
    # weights of its features that do not depend on the hand, and whether it
    # would have won the trick as it stood.
    terms: list[tuple[int, int, int, int, int, list[float], list[bool]]] = []
    for player, trick, card, middle in reversed(plays):
        if player != seat:
            if trick and _COLOUR_OF[card] == _COLOUR_OF[trick[0]]:
                allowed = COLOUR_MASK[_COLOUR_OF[trick[0]]]
            else:
                allowed = (1 << NUM_CARDS) - 1
            # Cards the seat may have held then: its unseen cards now and
            # those it played since.
            possible = (unseen | later[player] | 1 << card) & allowed
            if possible & unseen:
                base = [0.0] * NUM_CARDS
                wins = [True] * NUM_CARDS
                for other in cards_of_mask(possible):
                    base[other] = sum(weights[i] for i in card_features(trick, other, middle, n))
                    if trick:
                        wins[other] = _wins(trick, other)
                role = role_of(trick, card)
                terms.append((player, role, card, allowed, later[player] | 1 << card, base, wins))
        later[player] |= 1 << card
    if not terms:
        return None

    # A play's log-chance depends on the world only through the seat's legal
    # cards then (and, leading or throwing, its colours' lengths), which
    # repeat from world to world: each is worked out once.
    memo: dict[tuple[int, int], float] = {}

    def log_chance(index: int, hand: int) -> float:
        _, role, card, allowed, _, base, wins = terms[index]
        legal = cards_of_mask(hand & allowed)
        if len(legal) == 1:
            return 0.0
        colours = [(hand & mask).bit_count() for mask in COLOUR_MASK]
        extras = hand_features(role, legal, [wins[c] for c in legal], colours)
        utilities = [base[c] + sum(weights[i] for i in extra) for c, extra in zip(legal, extras, strict=True)]
        top = max(utilities)
        return utilities[legal.index(card)] - top - log(sum(exp(u - top) for u in utilities))

    def weigh(candidate: State) -> float:
        assert isinstance(candidate, OracleState)
        hands = candidate.hands
        total = 0.0
        for index, (player, role, _, allowed, known, _, _) in enumerate(terms):
            hand = hands[player] & unseen | known
            # A follower's choice reads only its cards of the led colour.
            key = (index, hand & allowed if role == FOLLOW else hand)
            value = memo.get(key)
            if value is None:
                value = memo[key] = log_chance(index, hand)
            total += value
        return total

    return weigh
