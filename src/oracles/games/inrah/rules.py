"""Inrah-Orakel (game id ``inrah``): predict your tricks with the Inrah deck.

Each round ``r`` deals ``r`` cards to every seat; the players predict how many
tricks they will take (``bid``, or the three Altaïa oracles), play the tricks,
and score their predictions. Full rules: ``docs/rules/inrah.md``.

**Options**

====================  =====================  ===================================================
option                default                meaning
====================  =====================  ===================================================
``players``           4                      3 to 6 seats
``elements``          one per player         elements in the deck (3 to 6), the first k of fire,
                      (3 / 4 / 5 / 5)        water, air, ore, humus, ice; 12 cards each
``trump``             true                   turn up a trump card when cards remain undealt
``forbid_exact_sum``  false                  the dealer may not make the bids add up to r
                                             (no effect in ``altaia``, which has no bids)
``variant``           ``standard``           ``standard``, ``purpurberg`` (even seats: teams of
                                             opposite seats), ``altaia`` (three oracles each)
``rounds``            deck // players        rounds played, 1 to deck // players (12 with the
                                             default deck)
====================  =====================  ===================================================

**Actions and notation** (input is case-insensitive; German card words work too)

===============================  ========  ==========================================================
notation                         who       integer
===============================  ========  ==========================================================
``dealer K``                     chance    ``K``: seat K deals round 1 (uniform)
``deal <seat 0> / <seat 1> ...`` chance    the hands, each sorted, packed in base ``deck``
``trump <card>``                 chance    the card's int; its element is trump, even for a seer/mage
``play <card>``                  player    the card's int, ``0 .. deck-1``
``bid K``                        player    ``deck + K``
``hesinde P<i> <k>``             player    ``deck + rounds + 1 + i·(rounds+1) + k``
``efferd P<i> makes <k>``        player    the hesinde int ``+ players·(rounds+1)``
``efferd P<i> misses <k>``       player    the hesinde int ``+ 2·players·(rounds+1)``
``phex P<i> <k>``                player    the hesinde int ``+ 3·players·(rounds+1)``
===============================  ========  ==========================================================

Cards are written ``element-rank``: ``fire-7``, ``ice-seer``, ``air-ace``
(see :mod:`oracles.games.inrah.cards`); :mod:`oracles.games.inrah.notation`
reads and writes these forms. ``P<i>`` names seat ``i`` and keeps its
capital P on output, as the contract writes it.

**Observation**: ``view(seat)`` is what ``seat`` may know (its own hand, never
another's), ``view(None)`` what everyone sees; both JSON-ready, with the keys
and log events of :mod:`oracles.games.inrah.views`. :meth:`InrahState.knowledge`
is the same for bots, as ints.

**Modules**: this one holds the game, the state and the turn flow; the
notation is in :mod:`.notation`, a round's points in :mod:`.scoring`, the
views and their events in :mod:`.views` and the resampling of hidden cards in
:mod:`.resample`.

>>> from oracles.core.registry import load_game
>>> state = load_game("inrah", players=3, rounds=1).new_initial_state()
>>> for text in ["dealer 2", "deal fire-7 / water-seer / air-mage", "trump fire-ace"]:
...     _ = state.apply_string(text)
>>> [state.action_to_string(a) for a in state.legal_actions()]
['bid 0', 'bid 1']
>>> for text in ["bid 0", "bid 1", "bid 1", "play fire-7", "play water-seer", "play air-mage"]:
...     _ = state.apply_string(text)
>>> state.scores(), state.winners()
([20, 30, -10], [1])
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, NamedTuple, cast

from oracles.core.codec import pack, unpack
from oracles.core.errors import reason
from oracles.core.game import CHANCE, TERMINAL, Game, State
from oracles.core.options import Option
from oracles.core.rand import pick, shuffle
from oracles.games.inrah.cards import (
    CARD_TEXT,
    CARDS_PER_ELEMENT,
    ELEMENT_OF,
    ELEMENTS,
    IS_SPECIAL,
    MAX_ELEMENTS,
)
from oracles.games.inrah.constants import (
    ALTAIA,
    BID,
    DEAL,
    DEALER,
    EFFERD,
    EFFERD_MAKES,
    EFFERD_MISSES,
    HESINDE,
    HESINDE_KIND,
    ORACLE_OF_PHASE,
    OVER,
    PHASE_NAMES,
    PHEX,
    PHEX_KIND,
    PLAY,
    PURPURBERG,
    STANDARD,
    TRUMP,
)
from oracles.games.inrah.notation import read_action, write_action
from oracles.games.inrah.resample import resample
from oracles.games.inrah.scoring import round_points
from oracles.games.inrah.tricks import (
    FOLLOWS,
    LED_BY,
    NO_LED,
    legal_plays,
    must_follow,
    next_led,
    trick_winner,
)
from oracles.games.inrah.views import LastRound, build_view, oracle_fields
from oracles.i18n import N_


class SeatKnowledge(NamedTuple):
    """What one seat may know, as plain ints for fast bots (see
    :meth:`InrahState.knowledge`); ``-1`` means "none" or "not yet"."""

    seat: int
    phase: str
    round: int
    dealer: int
    to_act: int
    #: The seat's own cards, sorted.
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    trump_card: int
    trump: int
    #: Bid per seat (-1 until made; all -1 in Altaïa).
    bids: tuple[int, ...]
    #: Altaïa: each seat's oracles so far as ``(kind, seat named, k)``, kind
    #: 0 hesinde, 1 efferd makes, 2 efferd misses, 3 phex (empty outside Altaïa).
    oracles: tuple[tuple[tuple[int, int, int], ...], ...]
    #: Leader and cards of the current trick; ``led`` as in :mod:`tricks`.
    leader: int
    trick: tuple[int, ...]
    led: int
    #: Cards of this round's complete tricks.
    played: tuple[int, ...]
    taken: tuple[int, ...]
    scores: tuple[float, ...]


def _default_elements(options: dict[str, Any]) -> int:
    # SPEC section 4: 3 for 3 players, 4 for 4, 5 for 5 and 6. (Issue 14 had
    # made six players use all six elements for the rulebook's "usual" twelve
    # rounds; a record that leaves the option out must replay as SPEC reads
    # it, so the contract's default stands and six elements are an option.)
    return min(int(options["players"]), 5)


@functools.cache
def whole_deck(size: int) -> frozenset[int]:
    """The cards of a deck of ``size`` cards."""
    return frozenset(range(size))


def _deck_size(options: dict[str, Any]) -> int:
    return CARDS_PER_ELEMENT * int(options["elements"])


def _check_variant(value: Any, options: dict[str, Any]) -> str | None:
    if value == PURPURBERG and options["players"] % 2:
        return (
            f"purpurberg needs an even number of players (teams of opposite seats), not {options['players']}"
        )
    return None


def _check_rounds(value: Any, options: dict[str, Any]) -> str | None:
    most = _deck_size(options) // options["players"]
    if not 1 <= value <= most:
        return (
            f"must be from 1 to {most}: a deck of {_deck_size(options)} cards deals at most "
            f"{most} cards to each of {options['players']} players, got {value}"
        )
    return None


class InrahGame(Game):
    """Inrah-Orakel with its options fixed (see the module docstring)."""

    id = "inrah"
    unique_card_names = True
    title = "Inrah-Orakel"
    short_title = "Inrah"
    blurb = N_("Bid exactly how many tricks you will take, round after round.")
    min_players = 3
    max_players = 6
    option_schema: ClassVar[tuple[Option, ...]] = (
        Option("players", int, 4, "number of seats", minimum=3, maximum=6),
        Option(
            "elements",
            int,
            _default_elements,
            "elements in the deck (default one per player, five for six), the first k of fire, water, air, ore, humus, ice",
            minimum=3,
            maximum=MAX_ELEMENTS,
        ),
        Option("trump", bool, True, "turn up a trump card while cards remain undealt"),
        Option("forbid_exact_sum", bool, False, "the dealer may not make the bids add up to the tricks"),
        Option(
            "variant",
            str,
            STANDARD,
            "standard, purpurberg (teams of opposite seats) or altaia (three oracles each)",
            choices=(STANDARD, PURPURBERG, ALTAIA),
            check=_check_variant,
        ),
        Option(
            "rounds",
            int,
            lambda o: _deck_size(o) // o["players"],
            "rounds to play (round r deals r cards each)",
            check=_check_rounds,
        ),
    )
    test_option_sets: ClassVar[tuple[dict[str, Any], ...]] = (
        {"players": 4, "rounds": 4},
        {"players": 3, "rounds": 3, "trump": False},
        {"players": 4, "forbid_exact_sum": True, "rounds": 3},
        {"players": 4, "variant": PURPURBERG, "rounds": 3},
        {"players": 5, "variant": ALTAIA, "rounds": 3},
        {"players": 6, "elements": 3},
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        n = self.num_players
        self.deck_size: int = _deck_size(self.options)
        #: Every card of the deck (the cards not dealt are the deck less the
        #: hands); one set per deck size, shared by every table's game.
        self.deck: frozenset[int] = whole_deck(self.deck_size)
        self.rounds: int = int(self.options["rounds"])
        self.variant: str = self.options["variant"]
        self.use_trump: bool = bool(self.options["trump"])
        self.forbid_exact_sum: bool = bool(self.options["forbid_exact_sum"]) and self.variant != ALTAIA
        #: First int of the bid block, and of each Altaïa oracle block.
        self.bid_base: int = self.deck_size
        self.oracle_base: int = self.deck_size + self.rounds + 1
        self.oracle_block: int = n * (self.rounds + 1)
        self.num_actions: int = self.oracle_base + (4 * self.oracle_block if self.variant == ALTAIA else 0)
        length = 1
        for r in range(1, self.rounds + 1):
            length += 1 + (1 if self.has_trump_round(r) else 0) + n * r
            length += 3 * n if self.variant == ALTAIA else n
        self._max_length = length

    def oracle_action(self, kind: int, named: int, k: int) -> int:
        """The action of an Altaïa oracle of ``kind`` about seat ``named``."""
        return self.oracle_base + kind * self.oracle_block + named * (self.rounds + 1) + k

    def oracle_of(self, action: int) -> tuple[int, int, int]:
        """``(kind, seat named, k)`` of an oracle action in range."""
        kind, rest = divmod(action - self.oracle_base, self.oracle_block)
        named, k = divmod(rest, self.rounds + 1)
        return kind, named, k

    def deal_hands(self, round_number: int, action: int) -> list[list[int]] | str:
        """The hands of a deal action of round ``round_number``, or why it is
        not one."""
        n, r = self.num_players, round_number
        try:
            flat = unpack(action, self.deck_size, n * r)
        except ValueError:
            return f"not a deal of {r} cards to each of {n} seats"
        return [flat[i * r : (i + 1) * r] for i in range(n)]

    def has_trump_round(self, round_number: int) -> bool:
        """Whether round ``round_number`` turns up a trump card."""
        return self.use_trump and self.num_players * round_number < self.deck_size

    def num_distinct_actions(self) -> int:
        return self.num_actions

    def utility_bounds(self) -> tuple[float, float]:
        """Lowest and highest total a seat can reach: every round at its worst
        or best (see :mod:`oracles.games.inrah.scoring`)."""
        low = high = 0.0
        for r in range(1, self.rounds + 1):
            if self.variant == ALTAIA:
                # Worst: Hesinde off by r (-10r), and an Efferd and a Phex
                # "not r" that fail because the seat named takes r (-20r
                # each). Best: two exact "makes r" (+20 + 10r each) and a Phex
                # "not 0" that fails (0).
                low -= 50 * r
                high += 2 * (20 + 10 * r)
            elif self.variant == PURPURBERG:
                # The team misses by up to 2r, or both partners hit r tricks
                # between them: (20 + 10 t1) + (20 + 10 t2) with t1 + t2 = r.
                low -= 20 * r
                high += 40 + 10 * r
            else:
                low -= 10 * r
                high += 20 + 10 * r
        return low, high

    def max_game_length(self) -> int:
        return self._max_length

    def new_initial_state(self) -> InrahState:
        return InrahState(self)


class InrahState(State):
    """A position of Inrah-Orakel. Fields are private; read them through
    :meth:`view` and the public methods."""

    game: InrahGame

    def __init__(self, game: InrahGame) -> None:
        super().__init__(game)
        n = game.num_players
        self._n = n
        self._phase = DEALER
        self._round = 0
        self._dealer = -1
        self._to_act = -1
        self._hands: list[list[int]] = [[] for _ in range(n)]
        self._trump_card = -1
        self._trump = -1
        self._bids: list[int] = [-1] * n
        #: Altaïa: each seat's oracles so far, as ``(kind, seat named, k)``.
        self._oracles: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
        self._leader = -1
        self._trick: list[int] = []
        self._led = NO_LED
        self._last_trick: tuple[int, tuple[int, ...], int, str] | None = None
        self._played: list[int] = []
        self._taken: list[int] = [0] * n
        self._round_points: list[list[int]] = []
        #: The round just finished, as its summary shows it, until the next ends.
        self._last_round: LastRound | None = None
        self._totals: list[float] = [0] * n
        #: History index of this round's deal.
        self._deal_index = -1
        #: One entry per action: ``(phase, seat acting or -1, value)``; a deal's
        #: value is the tuple of all hands (views mask the others'). Read it
        #: as ``_log``: a random playout leaves its plays and deals out
        #: (``_unlogged``, see :meth:`play_out_at_random`).
        self._action_log: list[tuple[int, int, Any]] = []
        self._unlogged = False
        # What resampling for a seat needs that the rng does not change, and
        # the (seat, history length) it was made for (see .resample).
        self._resample_memo: tuple[tuple[int, int], Any] | None = None

    @property
    def _log(self) -> list[tuple[int, int, Any]]:
        """The action log, made whole first if a random playout left parts
        of it out (what views, resampling and :meth:`known_voids` read)."""
        if self._unlogged:
            # A state is what its history replays to: a replay remakes the
            # log exactly.
            replayed = self.game.new_initial_state()
            for action in self._history:
                replayed.apply_trusted(action)
            self._action_log = replayed._action_log
            self._unlogged = False
        return self._action_log

    # ------------------------------------------------------------ turn
    def current_player(self) -> int:
        phase = self._phase
        if phase <= TRUMP:
            return CHANCE
        if phase == OVER:
            return TERMINAL
        return self._to_act

    def is_chance_node(self) -> bool:
        return self._phase <= TRUMP

    def is_terminal(self) -> bool:
        return self._phase == OVER

    @property
    def num_players(self) -> int:
        return self._n

    def legal_actions(self) -> list[int]:
        phase = self._phase
        if phase == PLAY:
            return legal_plays(self._hands[self._to_act], self._led)
        if phase == BID:
            game = self.game
            r = self._round
            bids = [game.bid_base + k for k in range(r + 1)]
            forbidden = self._forbidden_bid()
            if forbidden >= 0:
                bids.remove(game.bid_base + forbidden)
            return bids
        if HESINDE <= phase <= PHEX:
            return self._legal_oracles()
        return []

    def _forbidden_bid(self) -> int:
        """The dealer's forbidden bid under ``forbid_exact_sum``, or -1."""
        if not self.game.forbid_exact_sum or self._to_act != self._dealer:
            return -1
        rest = self._round - (sum(self._bids) + 1)  # the dealer's own -1 is still in the sum
        return rest if 0 <= rest <= self._round else -1

    def _oracle_kinds(self) -> tuple[int, ...]:
        if self._phase == HESINDE:
            return (HESINDE_KIND,)
        if self._phase == EFFERD:
            return (EFFERD_MAKES, EFFERD_MISSES)
        return (PHEX_KIND,)

    def _legal_oracles(self) -> list[int]:
        game = self.game
        named = {target for _, target, _ in self._oracles[self._to_act]}
        actions: list[int] = []
        for kind in self._oracle_kinds():
            for target in range(self.num_players):
                if target in named:
                    continue
                first = game.oracle_action(kind, target, 0)
                actions.extend(range(first, first + self._round + 1))
        return actions

    # ---------------------------------------------------------- legality
    def _illegal_reason(self, action: int) -> str | None:
        phase = self._phase
        game = self.game
        if phase == PLAY:
            if not 0 <= action < game.num_actions:
                return f"no action {action} in this game"
            if action >= game.deck_size:
                return reason(
                    "you must play a card now", "seat {seat} is to play a card now", seat=self._to_act
                )
            hand = self._hands[self._to_act]
            if action not in hand:
                return reason(
                    "you hold no {card}",
                    "seat {seat} holds no {card}",
                    seat=self._to_act,
                    card=CARD_TEXT[action],
                )
            if (
                self._led >= 0
                and not IS_SPECIAL[action]
                and ELEMENT_OF[action] != self._led
                and must_follow(hand, self._led)
            ):
                return reason(
                    "you must follow {element}", "must follow {element}", element=ELEMENTS[self._led]
                )
            return None
        if phase == BID:
            if not game.bid_base <= action < game.oracle_base:
                return reason("you must bid now", "seat {seat} is to bid now", seat=self._to_act)
            k = action - game.bid_base
            if k > self._round:
                return reason(
                    "you may bid at most {round} in round {round}",
                    "bid {k} is more than the {tricks} of round {round}",
                    k=k,
                    round=self._round,
                    tricks=f"{self._round} trick" + ("" if self._round == 1 else "s"),
                )
            if k == self._forbidden_bid():
                tricks = "trick" if self._round == 1 else "tricks"
                return reason(
                    "the bids may not add up to {round}: as the dealer you may not bid {k}",
                    "bids may not add up to {round} {tricks}: the dealer may not bid {k}",
                    round=self._round,
                    tricks=tricks,
                    k=k,
                )
            return None
        if HESINDE <= phase <= PHEX:
            return self._oracle_reason(action)
        if phase == DEALER:
            return None if 0 <= action < self.num_players else f"there is no seat {action} to deal"
        if phase == DEAL:
            return self._deal_reason(action)
        if phase == TRUMP:
            if not 0 <= action < game.deck_size:
                return f"no card {action} in a deck of {game.deck_size}"
            for hand in self._hands:
                if action in hand:
                    return f"{CARD_TEXT[action]} was dealt, it cannot be turned up"
            return None
        return reason("the game is over")

    def _oracle_reason(self, action: int) -> str | None:
        game = self.game
        oracle = ORACLE_OF_PHASE[self._phase]
        kind, target, k = (
            self.game.oracle_of(action) if game.oracle_base <= action < game.num_actions else (-1, 0, 0)
        )
        if kind not in self._oracle_kinds():
            return reason(
                "you must make your {name} oracle now",
                "seat {seat} is to make a {oracle} oracle now",
                seat=self._to_act,
                oracle=oracle,
                name=oracle.capitalize(),
            )
        if k > self._round:
            return reason(
                "no one takes more than {round} in round {round}",
                "{k} tricks is more than the {round} of round {round}",
                k=k,
                round=self._round,
            )
        for _, named, _ in self._oracles[self._to_act]:
            if named == target:
                return reason(
                    "you have named {target} already this round",
                    "P{target} was already named in an oracle of seat {seat}",
                    target=target,
                    seat=self._to_act,
                )
        return None

    def _decode_deal(self, action: int) -> list[list[int]] | str:
        return self.game.deal_hands(self._round, action)

    def _deal_reason(self, action: int) -> str | None:
        hands = self._decode_deal(action)
        if isinstance(hands, str):
            return hands
        seen: set[int] = set()
        for hand in hands:
            for c in hand:
                if c in seen:
                    return f"{CARD_TEXT[c]} is dealt twice"
                seen.add(c)
            if hand != sorted(hand):
                return "a deal's hands must be in sorted order"
        return None

    # ------------------------------------------------------------ apply
    def apply_trusted(self, action: int) -> None:
        # Plays are nearly every step of a search rollout: straight to them.
        if self._phase == PLAY:
            self._play(action)
        else:
            self._apply(action)
        self._history.append(action)

    def _apply(self, action: int) -> None:
        phase = self._phase
        if phase == PLAY:
            self._play(action)
        elif phase == BID:
            seat = self._to_act
            self._action_log.append((BID, seat, action - self.game.bid_base))
            self._bids[seat] = action - self.game.bid_base
            self._next_bidder(PLAY)
        elif HESINDE <= phase <= PHEX:
            seat = self._to_act
            oracle = self.game.oracle_of(action)
            self._action_log.append((phase, seat, oracle))
            self._oracles[seat].append(oracle)
            self._next_bidder(phase + 1 if phase != PHEX else PLAY)
        elif phase == DEALER:
            self._action_log.append((DEALER, -1, action))
            self._dealer = action
            self._start_round(1)
        elif phase == DEAL:
            hands = self._decode_deal(action)
            assert not isinstance(hands, str)
            self._deal(hands)
        elif phase == TRUMP:
            self._action_log.append((TRUMP, -1, action))
            self._trump_card = action
            self._trump = ELEMENT_OF[action]
            self._start_predictions()

    def _deal(self, hands: list[list[int]]) -> None:
        """The deal's hands (sorted) go to the seats: before its action
        joins the history."""
        if not self._unlogged:
            self._action_log.append((DEAL, -1, tuple(tuple(h) for h in hands)))
        self._hands = hands
        self._deal_index = len(self._history)
        if self.game.has_trump_round(self._round):
            self._phase = TRUMP
        else:
            self._start_predictions()

    def play_out_at_random(self, rng: random.Random) -> None:
        """``State.play_out_at_random`` with the tricks played out here, and a
        deal's hands kept as drawn rather than packed into its action and
        unpacked again: the same moves for the same ``rng``.

        The plays and deals are not logged as they are made (a rollout reads
        only the scores); the first reader of the log has it remade from the
        history (:attr:`_log`)."""
        draw = rng.random
        if self._phase != OVER:
            self._unlogged = True
        history = self._history
        deck_size = self.game.deck_size
        while True:
            phase = self._phase
            if phase == PLAY:
                self._play_tricks_at_random(draw)
            elif phase == DEAL:
                hands = self._draw_deal(rng)
                self._deal(hands)
                history.append(pack([c for hand in hands for c in hand], deck_size))
            elif phase == OVER:
                return
            elif phase <= TRUMP:
                self.apply_trusted(self.sample_chance(rng))
            else:
                legal = self.legal_actions()
                self.apply_trusted(legal[int(draw() * len(legal))])

    def _start_round(self, round_number: int) -> None:
        n = self.num_players
        self._round = round_number
        self._phase = DEAL
        self._trump_card = self._trump = -1
        self._bids = [-1] * n
        self._oracles = [[] for _ in range(n)]
        self._taken = [0] * n
        self._played = []
        self._trick = []
        self._led = NO_LED

    def _start_predictions(self) -> None:
        self._phase = HESINDE if self.game.variant == ALTAIA else BID
        self._to_act = (self._dealer + 1) % self.num_players

    def _next_bidder(self, next_phase: int) -> None:
        if self._to_act == self._dealer:
            self._phase = next_phase
            if next_phase == PLAY:
                self._leader = (self._dealer + 1) % self.num_players
        self._to_act = (self._to_act + 1) % self.num_players

    def _play(self, c: int) -> None:
        seat = self._to_act
        self._action_log.append((PLAY, seat, c))
        self._hands[seat].remove(c)
        trick = self._trick
        trick.append(c)
        if self._led == NO_LED:
            self._led = LED_BY[c]
        if len(trick) < self._n:
            self._to_act = (seat + 1) % self._n
        else:
            self._end_trick()

    def _end_trick(self) -> None:
        """The full trick goes to its winner, who leads the next (or the round ends)."""
        trick = self._trick
        position, why = trick_winner(trick, self._trump)
        winner = (self._leader + position) % self._n
        self._taken[winner] += 1
        self._played.extend(trick)
        self._last_trick = (self._leader, tuple(trick), winner, why)
        self._trick = []
        self._led = NO_LED
        self._leader = self._to_act = winner
        if not self._hands[winner]:
            self._end_round()

    def _play_tricks_at_random(self, draw: Callable[[], float]) -> None:
        """Random cards until the round ends: ``legal_plays`` and
        ``apply_trusted`` written out for a card, the rollouts' inner loop."""
        n = self._n
        hands = self._hands
        history = self._history
        seat = self._to_act
        trick = self._trick
        led = self._led
        while True:
            hand = hands[seat]
            legal = hand
            if led >= 0:
                follows = FOLLOWS[led]
                for c in hand:
                    if follows[c]:
                        legal = [c for c in hand if follows[c] or IS_SPECIAL[c]]
                        break
            card = legal[int(draw() * len(legal))]
            hand.remove(card)
            trick.append(card)
            if led == NO_LED:
                led = LED_BY[card]
            if len(trick) < n:
                history.append(card)
                seat = seat + 1 if seat + 1 < n else 0
                continue
            self._to_act = seat
            self._led = led
            self._end_trick()
            history.append(card)
            if self._phase != PLAY:
                return
            seat = self._to_act
            trick = self._trick
            led = NO_LED

    def _end_round(self) -> None:
        points = self.round_points()
        self._round_points.append(points)
        altaia = self.game.variant == ALTAIA
        self._last_round = {
            "round": self._round,
            # The round's own lists: the next round starts with new ones.
            "bids": None if altaia else self._bids,
            "oracles": [[oracle_fields(o) for o in seat_oracles] for seat_oracles in self._oracles]
            if altaia
            else None,
            "tricks_taken": self._taken,
            "points": points,
        }
        for seat, p in enumerate(points):
            self._totals[seat] += p
        if self._round == self.game.rounds:
            self._phase = OVER
            self._to_act = -1
        else:
            self._dealer = (self._dealer + 1) % self.num_players
            self._start_round(self._round + 1)

    def round_points(self) -> list[int]:
        """Points of the current round from the tricks taken so far (the
        round's score once its last trick is taken)."""
        return round_points(self.game.variant, self._bids, self._oracles, self._taken)

    # --------------------------------------------------------- notation
    def action_to_string(self, action: int) -> str:
        return write_action(self.game, self._phase, self._round, action)

    def _string_to_action(self, text: str) -> int:
        return read_action(self.game, self._phase, self._round, self._to_act, text)

    # ----------------------------------------------------------- chance
    def starter(self) -> int | None:
        # The game's first action is ``dealer K``: seat K dealt round 1.
        return self._history[0] if self._history else None

    def starter_chance(self, seat: int) -> int | None:
        return seat if self._phase == DEALER and not self._history else None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._phase == DEALER:
            n = self.num_players
            return [(seat, 1.0 / n) for seat in range(n)]
        if self._phase == TRUMP:
            rest = self._undealt()
            return [(c, 1.0 / len(rest)) for c in rest]
        return super().chance_outcomes()

    def _undealt(self) -> list[int]:
        return sorted(self.game.deck.difference(*self._hands))

    def sample_chance(self, rng: random.Random) -> int:
        self.check_chance(rng)
        phase = self._phase
        if phase == DEALER:
            return rng.randrange(self.num_players)
        if phase == TRUMP:
            return pick(self._undealt(), rng)
        if phase != DEAL:
            raise ValueError("sample_chance called outside a chance node")
        return pack([c for hand in self._draw_deal(rng) for c in hand], self.game.deck_size)

    def _draw_deal(self, rng: random.Random) -> list[list[int]]:
        """The hands of a random deal of this round, each sorted."""
        r = self._round
        cards = list(range(self.game.deck_size))
        # A uniform ordered sample drawn with one rng.random() a card:
        # rng.sample draws each index bit by bit, and deals are a seventh of
        # a search rollout.
        shuffle(cards, rng, self.num_players * r)
        return [sorted(cards[seat * r : (seat + 1) * r]) for seat in range(self.num_players)]

    # ------------------------------------ chance step by step (research)
    def chance_draws(self) -> tuple[list[int], int] | None:
        """``deal``: the cards of seat 0's hand, then seat 1's, ..., drawn
        from the deck (the trump node is listed by ``chance_outcomes``)."""
        if self._phase != DEAL:
            return None
        return list(range(self.game.deck_size)), self.num_players * self._round

    def chance_from_draws(self, drawn: Sequence[int]) -> int:
        if self._phase != DEAL:
            return super().chance_from_draws(drawn)
        r = self._round
        flat: list[int] = []
        for seat in range(self.num_players):
            flat.extend(sorted(drawn[seat * r : (seat + 1) * r]))
        return pack(flat, self.game.deck_size)

    def chance_draws_of(self, action: int) -> list[int]:
        if self._phase != DEAL:
            return super().chance_draws_of(action)
        return unpack(action, self.game.deck_size, self.num_players * self._round)

    # ---------------------------------------------------------- results
    def scores(self) -> list[float]:
        return list(self._totals)

    def winners(self) -> list[int]:
        if self._phase != OVER:
            return []
        best = max(self._totals)
        return [seat for seat, total in enumerate(self._totals) if total == best]

    # -------------------------------------------------------- knowledge
    def _view(self, seat: int | None) -> dict[str, Any]:
        return cast(dict[str, Any], build_view(self, seat))

    def knowledge(self, seat: int) -> SeatKnowledge:
        """What ``seat`` may know, as ints (a cheap, read-only snapshot for
        bots; :meth:`view` is the JSON form). Never another seat's hand."""
        return SeatKnowledge(
            seat,
            PHASE_NAMES[self._phase],
            self._round,
            self._dealer,
            self._to_act if BID <= self._phase < OVER else -1,
            tuple(self._hands[seat]),
            tuple(map(len, self._hands)),
            self._trump_card,
            self._trump,
            tuple(self._bids),
            tuple(map(tuple, self._oracles)) if self.game.variant == ALTAIA else (),
            self._leader if self._trick else -1,
            tuple(self._trick),
            self._led,
            tuple(self._played),
            tuple(self._taken),
            tuple(self._totals),
        )

    def known_voids(self) -> list[int]:
        """Per seat, a bit mask of the elements it is known to hold no normal
        card of in this round: it played a normal card of another element
        while one was led. Playing a seer or mage proves nothing."""
        voids = [0] * self.num_players
        if self._deal_index < 0:
            return voids
        n = self.num_players
        led = NO_LED
        count = 0
        for phase, actor, c in self._log[self._deal_index + 1 :]:
            if phase != PLAY:
                continue
            if led >= 0 and not IS_SPECIAL[c] and ELEMENT_OF[c] != led:
                voids[actor] |= 1 << led
            led = next_led(led, c)
            count += 1
            if count % n == 0:
                led = NO_LED
        return voids

    def _resample(self, seat: int, rng: random.Random) -> InrahState:
        # The other seats' unseen cards dealt anew: see .resample.
        return resample(self, seat, rng)

    def clone(self) -> InrahState:
        twin = InrahState.__new__(InrahState)
        twin.game = self.game
        twin._n = self._n
        twin._history = self._history[:]
        twin._phase = self._phase
        twin._round = self._round
        twin._dealer = self._dealer
        twin._to_act = self._to_act
        twin._hands = [hand[:] for hand in self._hands]
        twin._trump_card = self._trump_card
        twin._trump = self._trump
        twin._bids = self._bids[:]
        twin._oracles = [oracles[:] for oracles in self._oracles]
        twin._leader = self._leader
        twin._trick = self._trick[:]
        twin._led = self._led
        twin._last_trick = self._last_trick
        twin._played = self._played[:]
        twin._taken = self._taken[:]
        twin._round_points = self._round_points[:]
        twin._last_round = self._last_round  # replaced, never changed in place
        twin._totals = self._totals[:]
        twin._deal_index = self._deal_index
        twin._action_log = self._action_log[:]
        twin._unlogged = self._unlogged
        twin._resample_memo = None
        return twin

    def __str__(self) -> str:
        return (
            f"<inrah round {self._round}/{self.game.rounds}, {PHASE_NAMES[self._phase]}, "
            f"scores {self._totals}>"
        )
