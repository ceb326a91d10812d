"""What the other seats' bids and card plays say about their hands: the
weight of a resampled world.

A resampled world (:mod:`.resample`) deals the cards a seat has not seen at
random, keeping only what the rules force. But a bid is a statement about a
hand: a seat that bid three of four tricks holds seers or high trumps, one
that bid nothing holds low cards and mages. The search weighs each world by
how likely the other seats' bids this round were, had they held the hands
the world gives them (:func:`weigher`).

**The model of bidding**: a seat bids ``b`` with a chance proportional to
``exp(SHARPNESS * points(b))``, where ``points(b)`` is what the bid is worth
on average by the heuristic policy's reading of the hand as the seat saw it
when bidding (:mod:`.policy`: each card's chance to take a trick, their sum
a Poisson-binomial count of tricks). The likeliest bid is the heuristic's
own; others are less likely the more points they would give away.

**The model of card play** is a conditional logit: a seat about to play
picks each legal card with a chance proportional to ``exp(u(card))``,
``u`` the sum of the weights of the card's features (:func:`play_features`):
what kind of card it is (seer, mage, a trump, the led element, another
element; a normal card's rank in four bands), whether it would win the
trick as it stands, whether it is the strongest or the weakest of the
seat's legal cards, each split by whether the seat still needs tricks for
its bid (public: the bid and the tricks taken). A seat that needs a trick
and plays low, or has enough and wins, tells what it does not hold. The
weights are data (``data/play_model.json``), fitted by
``tools/fit_play_model.py --game inrah`` on self-play records.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from math import exp, log

from oracles.core.game import State
from oracles.core.parts import fitted_weights
from oracles.games.inrah.cards import ELEMENT_OF, MAGE, PRINCE, RANK_OF, SEER
from oracles.games.inrah.constants import BID, PLAY, STANDARD
from oracles.games.inrah.policy import _distribution, _makes_values, _Table
from oracles.games.inrah.rules import InrahState, SeatKnowledge
from oracles.games.inrah.tricks import NO_LED, legal_plays, next_led, trick_winner

#: Per point of a bid's expected worth, how much likelier it is made: a bid
#: worth 10 points less is made e times less often. The bids likeliest fit
#: 0.16 in self-play of the search bots (``tools/fit_play_model.py --game
#: inrah``: 6,000 bids) and 0.08 for OpenSpiel's search (375 bids): between.
SHARPNESS = 0.1


def bid_log_chances(
    hand: tuple[int, ...], trump_card: int, trump: int, n: int, deck_size: int
) -> list[float]:
    """The model's log-chance of each bid ``0 .. len(hand)`` by a seat of a
    table of ``n`` holding ``hand`` (sorted) before any card is played."""
    r = len(hand)
    # What a seat knows before the first trick, as far as the strengths read it.
    knowing = SeatKnowledge(
        0, "bid", r, -1, 0, hand, (r,) * n, trump_card, trump, (), (), -1, (), -1, (), (), ()
    )
    table = _Table(knowing, deck_size)
    values = _makes_values(_distribution(table.strengths(hand)))
    scaled = [SHARPNESS * v for v in values]
    top = max(scaled)
    total = log(sum(exp(s - top) for s in scaled)) + top
    return [s - total for s in scaled]


#: Kinds of card in the model of play.
KINDS = ("seer", "mage", "trump", "led", "other")
_SEER, _MAGE, _TRUMP, _LED, _OTHER = range(5)
#: Rank bands of a normal card: ace to 3, 4 to 6, 7 and squire, knight and prince.
_BAND = tuple(0 if r <= 2 else 1 if r <= 5 else 2 if r <= 7 else 3 for r in range(12))
#: Features per need (the seat needs tricks, or has enough): per kind and
#: band a lead, per kind and band a card played to a trick, per kind that
#: it wins the trick as it stands, the strongest and the weakest legal card
#: (leading, then following).
_LEAD = 0
_PLAY = _LEAD + 5 * 4
_WINS = _PLAY + 5 * 4
_EXTREME = _WINS + 5
_PER_NEED = _EXTREME + 4
NUM_FEATURES = 2 * _PER_NEED


def feature_names() -> list[str]:
    """A name for each feature index (for the model file)."""
    bands = ("ace-3", "4-6", "7-squire", "knight-prince")
    names = []
    for need in ("needs tricks", "has enough"):
        names += [f"{need}:lead:{kind}:{band}" for kind in KINDS for band in bands]
        names += [f"{need}:play:{kind}:{band}" for kind in KINDS for band in bands]
        names += [f"{need}:wins:{kind}" for kind in KINDS]
        names += [f"{need}:{role}:{end}" for role in ("lead", "play") for end in ("strongest", "weakest")]
    assert len(names) == NUM_FEATURES
    return names


def _kind(card: int, led: int, trump: int) -> int:
    rank = RANK_OF[card]
    if rank == SEER:
        return _SEER
    if rank == MAGE:
        return _MAGE
    element = ELEMENT_OF[card]
    if element == trump:
        return _TRUMP
    return _LED if element == led else _OTHER


def _strength(card: int, trump: int) -> int:
    """An order of cards by how surely they take a trick."""
    rank = RANK_OF[card]
    if rank == SEER:
        return 100
    if rank == MAGE:
        return -1
    value = 9 if rank == PRINCE else rank
    return value + (50 if ELEMENT_OF[card] == trump else 0)


def play_features(
    trick: Sequence[int], legal: Sequence[int], led: int, trump: int, needs: bool
) -> list[list[int]]:
    """The indices of the features of each card of ``legal`` (a seat's
    legal cards) played to ``trick`` (led state ``led``) by a seat that
    still ``needs`` tricks for its bid, or not."""
    base = 0 if needs else _PER_NEED
    strengths = [_strength(card, trump) for card in legal]
    strongest, weakest = max(strengths), min(strengths)
    rows = []
    for card, strength in zip(legal, strengths, strict=True):
        kind = _kind(card, led, trump)
        band = _BAND[RANK_OF[card]]
        if not trick:
            row = [base + _LEAD + 4 * kind + band]
            role = 0
        else:
            row = [base + _PLAY + 4 * kind + band]
            if trick_winner((*trick, card), trump)[0] == len(trick):
                row.append(base + _WINS + kind)
            role = 2
        if len(legal) > 1:
            if strength == strongest:
                row.append(base + _EXTREME + role)
            if strength == weakest:
                row.append(base + _EXTREME + role + 1)
        rows.append(row)
    return rows


def play_rows(state: State) -> list[list[int]] | None:
    """At a card play with a choice, the features of each legal card of the
    seat to play (:func:`play_features` read off the state), else None: what
    the fit reads from a record and what the weights add up, play by play."""
    assert isinstance(state, InrahState)
    if state.is_chance_node() or state.is_terminal() or state._phase != PLAY:
        return None
    legal = state.legal_actions()
    if len(legal) < 2:
        return None
    seat = state.current_player()
    needs = state._taken[seat] < state._bids[seat]
    return play_features(state._trick, legal, state._led, state._trump, needs)


@functools.cache
def play_model() -> tuple[float, ...]:
    """The fitted weights of the model of card play (``data/play_model.json``)."""
    return fitted_weights("oracles.games.inrah", feature_names())


def round_plays(world: InrahState) -> list[tuple[int, tuple[int, ...], int, int, bool]]:
    """Every card played this round, in order: (seat, the trick's cards
    before it, its led state, the card, whether the seat needed tricks)."""
    n = world.num_players
    plays = []
    taken = [0] * n
    trick: list[int] = []
    led = NO_LED
    leader = -1
    bids = world._bids
    for phase, actor, card in world._log[world._deal_index + 1 :]:
        if phase != PLAY:
            continue
        if not trick:
            leader = actor
        plays.append((actor, tuple(trick), led, card, taken[actor] < bids[actor]))
        trick.append(card)
        led = next_led(led, card)
        if len(trick) == n:
            taken[(leader + trick_winner(trick, world._trump)[0]) % n] += 1
            trick, led = [], NO_LED
    return plays


def weigher(world: State, seat: int) -> Callable[[State], float] | None:
    """For a search deciding for ``seat``: a function giving each world
    resampled for ``seat`` the log-likelihood, up to a constant, of the
    other seats' bids and card plays this round; None before any other seat has bid (and
    in the variants, whose predictions are not one bid). Reads only what
    ``seat`` knows (the bids, the cards played), so any world will do."""
    assert isinstance(world, InrahState)
    game = world.game
    if game.variant != STANDARD or world._phase not in (BID, PLAY):
        return None
    n = world.num_players
    bidders = [other for other in range(n) if other != seat and world._bids[other] >= 0]
    if not bidders:
        return None
    bids = world._bids
    trump_card, trump, deck_size = world._trump_card, world._trump, game.deck_size
    memo: dict[tuple[int, tuple[int, ...]], float] = {}
    weights = play_model()
    # The other seats' plays: the seat, the trick before it, its led state,
    # the card, whether it needed tricks, and the cards it played since;
    # ``played`` ends with every card each seat played this round.
    plays = []
    played: dict[int, list[int]] = {other: [] for other in range(n)}
    for player, trick, led, card, needs in reversed(round_plays(world)):
        played[player].append(card)
        if player != seat:
            plays.append((player, trick, led, card, needs, list(played[player])))

    def weigh(candidate: State) -> float:
        assert isinstance(candidate, InrahState)
        total = 0.0
        hands = candidate._hands
        for other in bidders:
            hand = tuple(sorted(hands[other] + played[other]))
            key = (other, hand)
            value = memo.get(key)
            if value is None:
                value = memo[key] = bid_log_chances(hand, trump_card, trump, n, deck_size)[bids[other]]
            total += value
        for player, trick, led, card, needs, since in plays:
            legal = legal_plays(hands[player] + since, led)
            if len(legal) == 1:
                continue
            rows = play_features(trick, legal, led, trump, needs)
            utilities = [sum(weights[i] for i in row) for row in rows]
            top = max(utilities)
            total += utilities[legal.index(card)] - top - log(sum(exp(u - top) for u in utilities))
        return total

    return weigh
