"""Oracle (Stefan Dorra): trick-taking with creature chips and prophecies.

Game id ``oracle``; the rules are in ``docs/rules/oracle.md`` and ``SPEC.md`` §3.

Options
=======

==================  ======  =================  ===========================================
option              type    default            meaning
==================  ======  =================  ===========================================
``players``         int     4                  3 to 5 seats
``rounds``          int     ``players``        rounds to play (at least 1)
``draft``           bool    false              Oracle cards by the rulebook's draft variant
``removed_colour``  str     ``P``              colour left out with 3 players; with 4 or
                                               5 players only the default is accepted
==================  ======  =================  ===========================================

Actions
=======

Player actions are ints in ``range(2402)``; chance actions are ints too.

===============  =================  =================================================
ints             notation           meaning
===============  =================  =================================================
0..59            ``play R12``       play a card (``colour * 12 + value - 1``)
60..839          ``keep O05 O12``   keep two dealt Oracle cards (pair index + 60)
840              ``loser keep``     the winner keeps the Loser chip it already holds
841              ``loser return``   ... or puts it back in the middle
842..1621        ``pass O01 O07``   draft: pass two cards to the left (pair + 842)
1622..2401       ``discard O03 O09``  draft: the dealer discards two (pair + 1622)
===============  =================  =================================================

A pair ``a < b`` of Oracle card ints (0..39) has index ``PAIR_INDEX[a][b]``
(lexicographic order). Pairs are written sorted and read in any order.

==============================  ==============================================
chance (notation)               int
==============================  ==============================================
``dealer K``                    ``K``
``deal <seat 0> / <seat 1> …``  the owner seat of each card in play, packed
                                (:func:`oracles.core.codec.pack`, radix n)
``oracles <seat 0> / …``        the owner of each Oracle card (n = set aside),
                                packed in radix n + 1
``oracles … ; stack …``         draft: both cards of each seat (sorted) then
                                the stack in draw order, packed in radix 40
==============================  ==============================================

Hands are written in the canonical order R1..R12 B1.. G1.. Y1.. P1..P12,
Oracle cards by id. Input accepts any order and case.

Observations (``view(seat)``)
=============================

==================  ==========================================================
key                 content
==================  ==========================================================
``hand``            the seat's cards; ``hand_sizes`` every seat's count
``oracle_cards``    its dealt Oracle cards (draft: the ones it holds now)
``kept``            its two kept cards, ``prophecies`` whether each holds now
``trick``           the current trick: leader and ``[seat, card]`` in order
``tricks``          this round's finished tricks with winner and reason
``chips``           where every chip is: middle or which seat
``scores``          totals; ``round_scores`` per finished round
``revealed``        every seat's kept cards of each finished round
``draft``           stack size and face-up discard pile (draft only)
``log``             what the seat saw of each action, hidden parts as ``?``
==================  ==========================================================
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from oracles.core.codec import pack, split_groups, unpack
from oracles.core.errors import IllegalActionError
from oracles.core.game import CHANCE, TERMINAL, Game, State, notation_error
from oracles.core.options import Option
from oracles.games.oracle.cards import (
    CARD_CREATURE,
    CARD_NAMES,
    COLOUR_NAMES,
    COLOURS,
    CREATURE_NAMES,
    HAND_SIZE,
    NUM_CARDS,
    NUM_VALUES,
    STARS,
    VICTORY_CHIPS,
    cards_of_mask,
    legal_plays,
    parse_card,
    trick_winner,
)
from oracles.games.oracle.prophecies import (
    NUM_ORACLE_CARDS,
    ORACLE_IDS,
    Edition,
    default_edition,
    oracle_index,
)

PLAY_BASE = 0
KEEP_BASE = 60
LOSER_KEEP = 840
LOSER_RETURN = 841
PASS_BASE = 842
DISCARD_BASE = 1622
NUM_ACTIONS = 2402

#: Every pair ``(a, b)``, ``a < b``, of Oracle card ints, in index order.
PAIRS: tuple[tuple[int, int], ...] = tuple(
    (a, b) for a in range(NUM_ORACLE_CARDS) for b in range(a + 1, NUM_ORACLE_CARDS)
)
_PAIR_POSITION = {pair: index for index, pair in enumerate(PAIRS)}
#: ``PAIR_INDEX[a][b]``: index of the pair of ``a`` and ``b`` in either order (-1 if ``a == b``).
PAIR_INDEX: tuple[tuple[int, ...], ...] = tuple(
    tuple(_PAIR_POSITION[(min(a, b), max(a, b))] if a != b else -1 for b in range(NUM_ORACLE_CARDS))
    for a in range(NUM_ORACLE_CARDS)
)

#: Oracle cards dealt to each seat (no draft), by number of players.
ORACLE_HAND = {3: 10, 4: 10, 5: 8}
#: Oracle cards removed unseen in the draft variant.
DRAFT_REMOVED = 16

(DEALER, DEAL, ORACLES, KEEP, DRAFT, PLAY, LOSER, OVER) = range(8)
PHASE_NAMES = ("dealer", "deal", "oracles", "keep", "draft", "play", "loser", "over")
# Events of the observation log: the history's actions plus what happens by itself.
(E_DEALER, E_DEAL, E_ORACLES, E_PLAYER, E_DRAW, E_REVEAL) = range(6)
_CHANCE_EVENT = {DEALER: E_DEALER, DEAL: E_DEAL, ORACLES: E_ORACLES}

_NOBODY = -1


def _check_removed_colour(value: Any, resolved: dict[str, Any]) -> str | None:
    if not isinstance(value, str) or value.strip().upper() not in tuple(COLOURS):
        return f"must be one of {', '.join(COLOURS)}, got {value!r}"
    if resolved["players"] != 3 and value.strip().upper() != "P":
        return f"applies to 3 players only: with {resolved['players']} players every colour is used"
    return None


def pair_text(word: str, pair: tuple[int, int]) -> str:
    """``pair_text("keep", (4, 11))`` -> ``"keep O05 O12"``."""
    return f"{word} {ORACLE_IDS[pair[0]]} {ORACLE_IDS[pair[1]]}"


class OracleGame(Game):
    """Oracle for 3 to 5 players (options in the module docstring)."""

    id = "oracle"
    unique_card_names = True
    title = "Oracle"
    min_players = 3
    max_players = 5
    option_schema = (
        Option("players", int, 4, "number of players", minimum=3, maximum=5),
        Option("rounds", int, lambda o: o["players"], "rounds to play", minimum=1),
        Option("draft", bool, False, "deal the Oracle cards by the draft variant"),
        Option("removed_colour", str, "P", "colour removed with 3 players", check=_check_removed_colour),
    )
    test_option_sets = (
        {"players": 3},
        {"players": 4},
        {"players": 5, "rounds": 2},
        {"players": 4, "draft": True, "rounds": 2},
        {"players": 3, "draft": True, "rounds": 1},
        {"players": 5, "draft": True, "rounds": 1},
    )
    #: The Oracle deck in use; a subclass may set another edition.
    edition: ClassVar[Edition] = default_edition()

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        n = self.num_players
        self.rounds: int = self.options["rounds"]
        self.draft: bool = self.options["draft"]
        self.removed_colour: int | None = (
            COLOURS.index(self.options["removed_colour"].strip().upper()) if n == 3 else None
        )
        self.hand_size = HAND_SIZE[n]
        #: Cards in play, ascending: the order of the ``deal`` packing.
        self.cards_in_play: tuple[int, ...] = tuple(
            card for card in range(NUM_CARDS) if card // NUM_VALUES != self.removed_colour
        )
        self.oracle_hand = 2 if self.draft else ORACLE_HAND[n]
        self.stack_size = NUM_ORACLE_CARDS - DRAFT_REMOVED - 2 * n if self.draft else 0
        self.victory_chips = VICTORY_CHIPS[n]
        #: Text of each seat's part of recent deals, for the views' logs.
        self.hands_text_cache: dict[tuple[int, int], list[str]] = {}

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def max_game_length(self) -> int:
        n = self.num_players
        choosing = (self.stack_size // 2) * n if self.draft else n
        # Per round: deal, oracles, the Oracle choices, the plays and at most
        # one Loser decision per trick.
        return 1 + self.rounds * (2 + choosing + self.hand_size * n + self.hand_size)

    def new_initial_state(self) -> OracleState:
        return OracleState(self)


class OracleState(State):
    """A position of Oracle. Hands are bit masks of card ints."""

    game: OracleGame

    def __init__(self, game: OracleGame) -> None:
        super().__init__(game)
        n = game.num_players
        self.phase = DEALER
        self.dealer = _NOBODY
        self.round_number = 0
        self.to_act = _NOBODY
        self.hands = [0] * n
        # Non-draft: the dealt Oracle cards; draft: the ones held right now.
        self.oracle_cards: list[list[int]] = [[] for _ in range(n)]
        self.kept: list[tuple[int, int] | None] = [None] * n
        self.chooser = 0  # position from dealer + 1 of the seat keeping / passing
        self.stack: list[int] = []
        self.stack_pos = 0
        self.discards: list[int] = []
        self.leader = _NOBODY
        self.trick: list[int] = []
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []  # (leader, cards, winner)
        self.middle = list(game.victory_chips)
        self.held = [0] * (3 * n)  # held[seat * 3 + creature]
        self.loser_holder = [_NOBODY] * 3
        self.pending = _NOBODY  # creature of a pending Loser decision
        self.round_scores: list[list[int]] = []
        self.totals = [0] * n
        self.revealed: list[list[tuple[int, int]]] = []
        self.events: list[tuple[int, int, int]] = []  # (kind, actor, action)
        self._log_texts: list[list[str]] | None = None  # per seat, made by view()

    # ------------------------------------------------------------ turn
    def current_player(self) -> int:
        phase = self.phase
        if phase <= ORACLES:
            return CHANCE
        if phase == OVER:
            return TERMINAL
        return self.to_act

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == PLAY:
            return cards_of_mask(legal_plays(self.hands[self.to_act], self.trick[0] if self.trick else None))
        if phase == KEEP:
            return self._pair_actions(self.oracle_cards[self.to_act], KEEP_BASE)
        if phase == DRAFT:
            base = DISCARD_BASE if self.chooser == self.num_players - 1 else PASS_BASE
            return self._pair_actions(self.oracle_cards[self.to_act], base)
        if phase == LOSER:
            return [LOSER_KEEP, LOSER_RETURN]
        return []

    @staticmethod
    def _pair_actions(cards: Sequence[int], base: int) -> list[int]:
        # ``cards`` is sorted, so the pair indices come out ascending.
        return [base + PAIR_INDEX[a][cards[j]] for i, a in enumerate(cards) for j in range(i + 1, len(cards))]

    # ------------------------------------------------------ validation
    def _illegal_reason(self, action: int) -> str | None:
        phase = self.phase
        n = self.num_players
        if phase == DEALER:
            return None if 0 <= action < n else f"there is no seat {action} to deal"
        if phase == DEAL:
            return self._deal_problem(action)
        if phase == ORACLES:
            return self._oracles_problem(action)
        if phase == OVER:
            return "the game is over"
        seat = self.to_act
        if phase == PLAY:
            if not 0 <= action < NUM_CARDS:
                return f"seat {seat} must play a card now"
            if not self.hands[seat] >> action & 1:
                return f"seat {seat} holds no {CARD_NAMES[action]}"
            if not legal_plays(self.hands[seat], self.trick[0] if self.trick else None) >> action & 1:
                return f"must follow {COLOUR_NAMES[COLOURS[self.trick[0] // NUM_VALUES]]['en']}"
            return None
        if phase == LOSER:
            if action in (LOSER_KEEP, LOSER_RETURN):
                return None
            creature = CREATURE_NAMES[self.pending]
            return f"seat {seat} must decide on the {creature} Loser chip (loser keep or loser return)"
        if phase == KEEP:
            return self._pair_problem(action, KEEP_BASE, "keep", "was not dealt")
        last = self.chooser == n - 1
        base, word = (DISCARD_BASE, "discard") if last else (PASS_BASE, "pass")
        return self._pair_problem(action, base, word, "does not hold")

    def _pair_problem(self, action: int, base: int, word: str, missing: str) -> str | None:
        seat = self.to_act
        if not base <= action < base + len(PAIRS):
            return f"seat {seat} must {word} two Oracle cards now"
        for card in PAIRS[action - base]:
            if card not in self.oracle_cards[seat]:
                return f"seat {seat} {missing} {ORACLE_IDS[card]}"
        return None

    def _deal_owners(self, action: int) -> list[int] | None:
        try:
            return unpack(action, self.num_players, len(self.game.cards_in_play))
        except ValueError:
            return None

    def _deal_problem(self, action: int) -> str | None:
        owners = self._deal_owners(action)
        if owners is None:
            return "not a deal of the cards in play"
        size = self.game.hand_size
        for seat in range(self.num_players):
            count = owners.count(seat)
            if count != size:
                return f"seat {seat} is dealt {count} cards, not {size}"
        return None

    def _oracle_layout(self, action: int) -> tuple[list[list[int]], list[int]] | None:
        """Decode an ``oracles`` action into hands and (draft) stack, or None."""
        game = self.game
        n = self.num_players
        try:
            if not game.draft:
                owners = unpack(action, n + 1, NUM_ORACLE_CARDS)
                hands: list[list[int]] = [[] for _ in range(n)]
                for card, owner in enumerate(owners):
                    if owner < n:
                        hands[owner].append(card)
                return hands, []
            values = unpack(action, NUM_ORACLE_CARDS, 2 * n + game.stack_size)
        except ValueError:
            return None
        return [values[2 * seat : 2 * seat + 2] for seat in range(n)], values[2 * n :]

    def _oracles_problem(self, action: int) -> str | None:
        layout = self._oracle_layout(action)
        if layout is None:
            return "not a deal of Oracle cards"
        hands, stack = layout
        want = self.game.oracle_hand
        for seat, hand in enumerate(hands):
            if len(hand) != want:
                return f"seat {seat} is dealt {len(hand)} Oracle cards, not {want}"
        if self.game.draft:
            for seat, hand in enumerate(hands):
                if hand[0] >= hand[1]:
                    return f"seat {seat}'s two Oracle cards are not distinct and in order"
            cards = [card for hand in hands for card in hand] + stack
            if len(set(cards)) != len(cards):
                return "an Oracle card is dealt twice"
        return None

    # ---------------------------------------------------------- apply
    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == PLAY:
            self.events.append((E_PLAYER, self.to_act, action))
            self._play(action)
        elif phase <= ORACLES:
            self.events.append((_CHANCE_EVENT[phase], _NOBODY, action))
            if phase == DEALER:
                self.dealer = action
                self.phase = DEAL
            elif phase == DEAL:
                self._deal(action)
            else:
                self._deal_oracles(action)
        else:
            self.events.append((E_PLAYER, self.to_act, action))
            if phase == KEEP:
                self._keep(action)
            elif phase == DRAFT:
                self._draft_step(action)
            else:
                if action == LOSER_RETURN:
                    self.loser_holder[self.pending] = _NOBODY
                self.pending = _NOBODY
                self._after_trick(self.to_act)

    def _deal(self, action: int) -> None:
        n = self.num_players
        owners = unpack(action, n, len(self.game.cards_in_play))
        hands = [0] * n
        for card, owner in zip(self.game.cards_in_play, owners, strict=True):
            hands[owner] |= 1 << card
        self.hands = hands
        self.round_number += 1
        self.middle = list(self.game.victory_chips)
        self.held = [0] * (3 * n)
        self.loser_holder = [_NOBODY] * 3
        self.kept = [None] * n
        self.oracle_cards = [[] for _ in range(n)]
        self.tricks = []
        self.trick = []
        self.discards = []
        self.stack = []
        self.stack_pos = 0
        self.phase = ORACLES

    def _deal_oracles(self, action: int) -> None:
        layout = self._oracle_layout(action)
        assert layout is not None
        hands, stack = layout
        self.oracle_cards = hands
        self.chooser = 0
        self.to_act = (self.dealer + 1) % self.num_players
        if self.game.draft:
            self.stack = stack
            self.phase = DRAFT
            self._draw()
        else:
            self.phase = KEEP

    def _draw(self) -> None:
        seat = (self.dealer + 1) % self.num_players
        pair = self.stack[self.stack_pos : self.stack_pos + 2]
        self.stack_pos += 2
        self.oracle_cards[seat] = sorted(self.oracle_cards[seat] + pair)
        self.events.append((E_DRAW, seat, PAIR_INDEX[pair[0]][pair[1]]))

    def _keep(self, action: int) -> None:
        self.kept[self.to_act] = PAIRS[action - KEEP_BASE]
        self._next_chooser()

    def _next_chooser(self) -> None:
        n = self.num_players
        self.chooser += 1
        if self.chooser == n:
            self._start_play()
        else:
            self.to_act = (self.dealer + 1 + self.chooser) % n

    def _start_play(self) -> None:
        self.phase = PLAY
        self.leader = self.to_act = (self.dealer + 1) % self.num_players

    def _draft_step(self, action: int) -> None:
        n = self.num_players
        seat = self.to_act
        holding = self.oracle_cards[seat]
        if self.chooser < n - 1:
            pair = PAIRS[action - PASS_BASE]
            self.oracle_cards[seat] = [card for card in holding if card not in pair]
            left = (seat + 1) % n
            self.oracle_cards[left] = sorted(self.oracle_cards[left] + list(pair))
            self.chooser += 1
            self.to_act = left
            return
        pair = PAIRS[action - DISCARD_BASE]
        self.oracle_cards[seat] = [card for card in holding if card not in pair]
        self.discards.extend(pair)
        self.chooser = 0
        self.to_act = (self.dealer + 1) % n
        if self.stack_pos < len(self.stack):
            self._draw()
        else:
            self.kept = [(cards[0], cards[1]) for cards in self.oracle_cards]
            self._start_play()

    def _play(self, card: int) -> None:
        n = self.num_players
        self.hands[self.to_act] &= ~(1 << card)
        trick = self.trick
        trick.append(card)
        if len(trick) < n:
            self.to_act = (self.to_act + 1) % n
            return
        index, _ = trick_winner(trick)
        winner = (self.leader + index) % n
        self.tricks.append((self.leader, tuple(trick), winner))
        self.trick = []
        creature = CARD_CREATURE[trick[index]]
        if self.middle[creature]:
            self.middle[creature] -= 1
            self.held[winner * 3 + creature] += 1
        elif self.loser_holder[creature] == winner:
            self.phase = LOSER
            self.pending = creature
            self.to_act = winner
            return
        else:
            self.loser_holder[creature] = winner
        self._after_trick(winner)

    def _after_trick(self, winner: int) -> None:
        if len(self.tricks) == self.game.hand_size:
            self._score_round()
        else:
            self.phase = PLAY
            self.leader = self.to_act = winner

    def _forfeit(self) -> None:
        forfeit_loser_chips(self.held, self.middle, self.loser_holder)

    def chip_quantities(self) -> list[list[int]]:
        """Every seat's quantity vector (see :mod:`.prophecies`) for the chips as they lie now."""
        return seat_quantities(self.held, self.loser_holder, self.num_players)

    def _score_round(self) -> None:
        self._forfeit()
        kept = [pair for pair in self.kept if pair is not None]
        points = round_points(self.chip_quantities(), kept, self.game.edition)
        for seat, total in enumerate(points):
            self.totals[seat] += total
        self.round_scores.append(points)
        self.revealed.append(kept)
        self.events.append((E_REVEAL, _NOBODY, len(self.revealed) - 1))
        if self.round_number == self.game.rounds:
            self.phase = OVER
            self.to_act = _NOBODY
        else:
            self.dealer = (self.dealer + 1) % self.num_players
            self.phase = DEAL

    # -------------------------------------------------------- notation
    def action_to_string(self, action: int) -> str:
        phase = self.phase
        if phase == DEALER:
            return f"dealer {action}"
        if phase == DEAL:
            return self._deal_text(action)
        if phase == ORACLES:
            return self._oracles_text(action)
        return player_action_text(action)

    def _deal_text(self, action: int) -> str:
        owners = self._deal_owners(action)
        if owners is None:
            return f"deal #{action}"
        hands: list[list[str]] = [[] for _ in range(self.num_players)]
        for card, owner in zip(self.game.cards_in_play, owners, strict=True):
            hands[owner].append(CARD_NAMES[card])
        return "deal " + " / ".join(" ".join(hand) for hand in hands)

    def _oracles_text(self, action: int) -> str:
        layout = self._oracle_layout(action)
        if layout is None:
            return f"oracles #{action}"
        hands, stack = layout
        text = "oracles " + " / ".join(" ".join(ORACLE_IDS[card] for card in hand) for hand in hands)
        if self.game.draft:
            text += " ; stack " + " ".join(ORACLE_IDS[card] for card in stack)
        return text

    def _string_to_action(self, text: str) -> int:
        tokens = text.split()
        if not tokens:
            raise notation_error(text, "empty action")
        word = tokens[0].lower()
        phase = self.phase
        if phase <= ORACLES:
            expected = PHASE_NAMES[phase]
            if word != expected:
                raise notation_error(text, f"a '{expected}' chance action is expected here")
            body = text.strip()[len(word) :]
            if phase == DEALER:
                if len(tokens) != 2 or not tokens[1].isdigit():
                    raise notation_error(text, "write 'dealer K' with a seat number K")
                return int(tokens[1])
            if phase == DEAL:
                return self._read_deal(text, body)
            return self._read_oracles(text, body)
        return read_player_action(text, tokens)

    def _read_deal(self, text: str, body: str) -> int:
        n = self.num_players
        groups = split_groups(body)
        if len(groups) != n:
            raise notation_error(text, f"a deal lists {n} hands separated by '/', found {len(groups)}")
        owner: dict[int, int] = {}
        size = self.game.hand_size
        removed = self.game.removed_colour
        for seat, group in enumerate(groups):
            for token in group:
                try:
                    card = parse_card(token)
                except ValueError as error:
                    raise notation_error(text, str(error)) from None
                if card // NUM_VALUES == removed:
                    colour = COLOUR_NAMES[COLOURS[card // NUM_VALUES]]["en"]
                    raise notation_error(text, f"{CARD_NAMES[card]} is out of play ({colour} is removed)")
                if card in owner:
                    raise notation_error(text, f"{CARD_NAMES[card]} is dealt twice")
                owner[card] = seat
            if len(group) != size:
                raise notation_error(text, f"seat {seat} gets {len(group)} cards, not {size}")
        return pack((owner[card] for card in self.game.cards_in_play), n)

    def _read_oracles(self, text: str, body: str) -> int:
        game = self.game
        n = self.num_players
        stack_tokens: list[str] = []
        if game.draft:
            hands_part, sep, stack_part = body.partition(";")
            stack_words = stack_part.split()
            if not sep or not stack_words or stack_words[0].lower() != "stack":
                raise notation_error(text, "the draft variant lists the stack after '; stack'")
            stack_tokens = stack_words[1:]
            body = hands_part
        elif ";" in body:
            raise notation_error(text, "no stack without the draft variant")
        groups = split_groups(body)
        if len(groups) != n:
            raise notation_error(text, f"Oracle cards for {n} seats separated by '/', found {len(groups)}")
        seen: set[int] = set()

        def read(token: str) -> int:
            try:
                card = oracle_index(token)
            except ValueError as error:
                raise notation_error(text, str(error)) from None
            if card in seen:
                raise notation_error(text, f"{ORACLE_IDS[card]} is dealt twice")
            seen.add(card)
            return card

        hands = []
        for seat, group in enumerate(groups):
            if len(group) != game.oracle_hand:
                raise notation_error(
                    text, f"seat {seat} gets {len(group)} Oracle cards, not {game.oracle_hand}"
                )
            hands.append(sorted(read(token) for token in group))
        if not game.draft:
            owners = [n] * NUM_ORACLE_CARDS
            for seat, hand in enumerate(hands):
                for card in hand:
                    owners[card] = seat
            return pack(owners, n + 1)
        if len(stack_tokens) != game.stack_size:
            raise notation_error(text, f"the stack holds {game.stack_size} cards, not {len(stack_tokens)}")
        stack = [read(token) for token in stack_tokens]
        return pack([card for hand in hands for card in hand] + stack, NUM_ORACLE_CARDS)

    # --------------------------------------------------------- chance
    def sample_chance(self, rng: random.Random) -> int:
        game = self.game
        n = self.num_players
        if self.phase == DEALER:
            return rng.randrange(n)
        if self.phase == DEAL:
            owners = [seat for seat in range(n) for _ in range(game.hand_size)]
            rng.shuffle(owners)
            return pack(owners, n)
        if self.phase != ORACLES:
            raise IllegalActionError("not a chance node")
        cards = list(range(NUM_ORACLE_CARDS))
        rng.shuffle(cards)
        if game.draft:
            dealt = cards[DRAFT_REMOVED:]
            hands = [sorted(dealt[2 * seat : 2 * seat + 2]) for seat in range(n)]
            return pack([card for hand in hands for card in hand] + dealt[2 * n :], NUM_ORACLE_CARDS)
        owners = [n] * NUM_ORACLE_CARDS
        size = game.oracle_hand
        for seat in range(n):
            for card in cards[seat * size : (seat + 1) * size]:
                owners[card] = seat
        return pack(owners, n + 1)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == DEALER:
            n = self.num_players
            return [(seat, 1.0 / n) for seat in range(n)]
        return super().chance_outcomes()

    # ------------------------------------ chance step by step (research)
    def chance_draws(self) -> tuple[list[int], int] | None:
        """``deal``: the owner seat of each card in play, in packing order,
        drawn from ``hand_size`` copies of each seat. ``oracles``: the owner
        of each Oracle card (n = set aside) from as many copies as each
        takes; draft: the seats' two cards then the stack, drawn from the 40
        cards (the 16 left over are the ones removed)."""
        game = self.game
        n = self.num_players
        if self.phase == DEAL:
            return [seat for seat in range(n) for _ in range(game.hand_size)], len(game.cards_in_play)
        if self.phase != ORACLES:
            return None
        if game.draft:
            return list(range(NUM_ORACLE_CARDS)), 2 * n + game.stack_size
        aside = NUM_ORACLE_CARDS - n * game.oracle_hand
        items = [seat for seat in range(n) for _ in range(game.oracle_hand)] + [n] * aside
        return items, NUM_ORACLE_CARDS

    def chance_from_draws(self, drawn: Sequence[int]) -> int:
        game = self.game
        n = self.num_players
        if self.phase == DEAL:
            return pack(drawn, n)
        if self.phase == ORACLES and game.draft:
            hands = [sorted(drawn[2 * seat : 2 * seat + 2]) for seat in range(n)]
            return pack([card for hand in hands for card in hand] + list(drawn[2 * n :]), NUM_ORACLE_CARDS)
        if self.phase == ORACLES:
            return pack(drawn, n + 1)
        return super().chance_from_draws(drawn)

    def chance_draws_of(self, action: int) -> list[int]:
        game = self.game
        n = self.num_players
        if self.phase == DEAL:
            return unpack(action, n, len(game.cards_in_play))
        if self.phase == ORACLES and game.draft:
            return unpack(action, NUM_ORACLE_CARDS, 2 * n + game.stack_size)
        if self.phase == ORACLES:
            return unpack(action, n + 1, NUM_ORACLE_CARDS)
        return super().chance_draws_of(action)

    # -------------------------------------------------------- results
    def scores(self) -> list[float]:
        return list(self.totals)  # whole points: JSON shows 17, not 17.0

    def winners(self) -> list[int]:
        if self.phase != OVER:
            return []
        best = max(self.totals)
        return [seat for seat, total in enumerate(self.totals) if total == best]

    # ------------------------------------------------------ knowledge
    def unseen_cards(self, seat: int) -> int:
        """Bit mask of the cards in play that ``seat`` has not seen this round
        (the other seats' unplayed cards, together): the same in every world
        resampled for ``seat``, so bots may read it."""
        mask = 0
        for other, hand in enumerate(self.hands):
            if other != seat:
                mask |= hand
        return mask

    def prophecy_status(self, seat: int) -> list[tuple[str, bool]]:
        """Whether each of ``seat``'s kept prophecies would hold if the round
        ended with the chips as they lie now (the Loser forfeit applied)."""
        pair = self.kept[seat]
        if pair is None:
            return []
        held = self.held[:]
        if self.phase not in (DEAL, OVER):  # after scoring the forfeit is already done
            forfeit_loser_chips(held, self.middle[:], self.loser_holder)
        quantities = seat_quantities(held, self.loser_holder, self.num_players)
        cards = self.game.edition.cards
        return [(ORACLE_IDS[card], cards[card].holds(quantities, seat)) for card in pair]

    def _oracle_info(self, card: int) -> dict[str, Any]:
        prophecy = self.game.edition.cards[card]
        return {"id": prophecy.id, "text": prophecy.text_en, "points": prophecy.points}

    def _chips_view(self) -> dict[str, Any]:
        n = self.num_players
        seats = []
        quantities = self.chip_quantities()
        for seat in range(n):
            entry: dict[str, Any] = {
                name: self.held[seat * 3 + creature] for creature, name in enumerate(CREATURE_NAMES)
            }
            entry["losers"] = [CREATURE_NAMES[c] for c in range(3) if self.loser_holder[c] == seat]
            entry["stars"] = quantities[seat][9]
            seats.append(entry)
        middle: dict[str, Any] = {name: self.middle[creature] for creature, name in enumerate(CREATURE_NAMES)}
        middle["losers"] = [CREATURE_NAMES[c] for c in range(3) if self.loser_holder[c] == _NOBODY]
        return {"middle": middle, "seats": seats}

    def _view(self, seat: int | None) -> dict[str, Any]:
        assert seat is not None, "the public view is not written yet (issue 13)"
        n = self.num_players
        player = self.current_player()
        kept = self.kept[seat]
        tricks = []
        for leader, cards, winner in self.tricks:
            _, reason = trick_winner(cards)
            tricks.append(
                {
                    "leader": leader,
                    "cards": [[(leader + i) % n, CARD_NAMES[card]] for i, card in enumerate(cards)],
                    "winner": winner,
                    "reason": reason,
                }
            )
        result: dict[str, Any] = {
            "game": "oracle",
            "seat": seat,
            "players": n,
            "round": self.round_number,
            "rounds": self.game.rounds,
            "dealer": self.dealer if self.dealer != _NOBODY else None,
            "phase": PHASE_NAMES[self.phase],
            "to_act": player if player >= 0 else None,
            "removed_colour": COLOURS[self.game.removed_colour]
            if self.game.removed_colour is not None
            else None,
            "hand": [CARD_NAMES[card] for card in cards_of_mask(self.hands[seat])],
            "hand_sizes": [hand.bit_count() for hand in self.hands],
            "oracle_cards": [self._oracle_info(card) for card in self.oracle_cards[seat]],
            "kept": [self._oracle_info(card) for card in kept] if kept else [],
            "prophecies": [[card_id, holds] for card_id, holds in self.prophecy_status(seat)] if kept else [],
            "trick": {
                "leader": self.leader,
                "cards": [[(self.leader + i) % n, CARD_NAMES[card]] for i, card in enumerate(self.trick)],
            }
            if self.phase in (PLAY, LOSER)
            else None,
            "tricks": tricks,
            "chips": self._chips_view(),
            "pending_loser": CREATURE_NAMES[self.pending] if self.phase == LOSER else None,
            "scores": list(self.totals),
            "round_scores": [list(points) for points in self.round_scores],
            "revealed": [[[ORACLE_IDS[c] for c in pair] for pair in pairs] for pairs in self.revealed],
            "log": self._log(seat),
        }
        if self.game.draft:
            result["draft"] = {
                "stack": len(self.stack) - self.stack_pos,
                "discards": [ORACLE_IDS[card] for card in self.discards],
            }
        return result

    def _log(self, seat: int) -> list[dict[str, Any]]:
        """What ``seat`` saw of each event, in order."""
        if self._log_texts is None:
            self._log_texts = [[] for _ in range(self.num_players)]
        texts = self._log_texts[seat]
        # Events only ever get appended, so the texts already made stay valid.
        for index in range(len(texts), len(self.events)):
            texts.append(self._event_text(seat, *self.events[index]))
        return [
            {"by": actor if actor != _NOBODY else None, "action": text}
            for (_, actor, _), text in zip(self.events, texts, strict=True)
        ]

    def _event_text(self, seat: int, kind: int, actor: int, action: int) -> str:
        """What ``seat`` saw of one event."""
        if kind == E_DEALER:
            text = f"dealer {action}"
        elif kind in (E_DEAL, E_ORACLES):
            hands = self._hidden_hands_text(kind, action)
            word = "deal " if kind == E_DEAL else "oracles "
            text = word + " / ".join(h if s == seat else "?" for s, h in enumerate(hands))
            if kind == E_ORACLES and self.game.draft:
                text += " ; stack ?"
        elif kind == E_DRAW:
            text = pair_text("draw", PAIRS[action]) if actor == seat else "draw ? ?"
        elif kind == E_REVEAL:
            pairs = self.revealed[action]
            text = "reveal " + " / ".join(f"{ORACLE_IDS[a]} {ORACLE_IDS[b]}" for a, b in pairs)
        else:
            text = player_action_text(action)
            if KEEP_BASE <= action < LOSER_KEEP and actor != seat:
                text = "keep ? ?"
            elif PASS_BASE <= action < DISCARD_BASE and seat not in (actor, (actor + 1) % self.num_players):
                text = "pass ? ?"
        return text

    def _hidden_hands_text(self, kind: int, action: int) -> list[str]:
        """Each seat's part of a ``deal`` or ``oracles`` action, as text
        (cached on the game: views repeat them at every step)."""
        cache = self.game.hands_text_cache
        key = (kind, action)
        hands = cache.get(key)
        if hands is None:
            if len(cache) > 512:
                cache.clear()
            probe = OracleState(self.game)
            if kind == E_DEAL:
                probe.phase = DEAL
                hands = probe._deal_text(action)[len("deal ") :].split(" / ")
            else:
                probe.phase = ORACLES
                hands = probe._oracles_text(action)[len("oracles ") :].split(" ; ")[0].split(" / ")
            cache[key] = hands
        return hands

    # ------------------------------------------------------- resample
    def _resample(self, seat: int, rng: random.Random) -> OracleState:
        """A state ``seat`` cannot tell from this one, hidden parts redrawn.

        Playing cards: the other seats' unplayed cards of the current round
        are dealt anew among them, respecting how many each holds and the
        colours each has shown it lacks (earlier rounds' hands were played out,
        so they are known). Oracle cards without the draft: in every round,
        the cards ``seat`` never saw are dealt at random over the places they
        took (other seats' hands and keeps, the cards set aside); the cards it
        saw stay where it saw them. In the draft every round is drawn anew as
        the seat could imagine it (:meth:`_redrawn_draft`), so that the cards
        it passed on may have gone anywhere they could; a finished round ends
        with the keeps that were revealed.

        The world depends only on what ``seat`` knows and on ``rng``: two
        states with the same information state for ``seat`` give the same
        world from the same rng state. Every pool of hidden cards is put in a
        canonical (sorted) order before ``rng`` touches it, and hidden cards
        are drawn for places listed in an order the seat knows, never mapped
        from the true cards.
        """
        game = self.game
        n = self.num_players
        history = self._history
        unseen_maps = None if game.draft else self._oracle_relabelling(seat, rng)
        new_deal = self._resampled_deal(seat, rng)
        world_history: list[int] = []
        round_index = -1
        first_dealer = 0
        # Draft: per round, the index of its ``oracles`` action and those of its passes and discards.
        drafts: list[tuple[int, list[int]]] = []
        for kind, _actor, action in (event for event in self.events if event[0] < E_DRAW):
            if kind == E_DEALER:
                first_dealer = action
            elif kind == E_DEAL:
                round_index += 1
                if new_deal is not None and round_index == self.round_number - 1:
                    action = new_deal
            elif kind == E_ORACLES:
                if unseen_maps is None:
                    drafts.append((len(world_history), []))
                else:
                    action = self._relabel_oracles(action, unseen_maps[round_index])
            elif kind == E_PLAYER and action >= PASS_BASE:  # draft: a pass or a discard
                drafts[-1][1].append(len(world_history))
            elif kind == E_PLAYER and KEEP_BASE <= action < LOSER_KEEP:
                assert unseen_maps is not None  # keeps only without the draft
                mapping = unseen_maps[round_index]
                a, b = PAIRS[action - KEEP_BASE]
                action = KEEP_BASE + PAIR_INDEX[mapping[a]][mapping[b]]
            world_history.append(action)
        assert len(world_history) == len(history)
        revealed = self.revealed
        for index, (oracles_at, draft_at) in enumerate(drafts):
            oracles, passes = self._redrawn_draft(
                seat,
                rng,
                (first_dealer + index) % n,
                history[oracles_at],
                [history[i] for i in draft_at],
                revealed[index] if index < len(revealed) else None,
            )
            world_history[oracles_at] = oracles
            for at, action in zip(draft_at, passes, strict=True):
                world_history[at] = action
        world = OracleState(game)
        for action in world_history:
            world._apply(action)
            world._history.append(action)
        return world

    def _redrawn_draft(
        self,
        seat: int,
        rng: random.Random,
        dealer: int,
        oracles: int,
        draft: list[int],
        kept: Sequence[tuple[int, int]] | None,
    ) -> tuple[int, list[int]]:
        """A draft round (its ``oracles`` action and the passes and discards
        ``draft`` so far, dealt by ``dealer``) drawn anew as ``seat`` could
        imagine it. ``kept``: every seat's keep, revealed at the end of the
        round, or None while the round is under way.

        Positions count from the dealer's left neighbour (0) to the dealer
        (n - 1); ``seat`` sits at ``p``. Cards only ever move to higher
        positions, so the seats before ``p`` can be taken to pass on what
        they just received (what reached ``seat`` came off the stack) and so
        to keep the two cards they were dealt; the discards that ``seat``
        never held must have been dealt to the seats after it, and so must
        the cards those seats kept and ``seat`` never held (each to its
        keeper or a seat before it). Those seats pass at random, except that
        each passes on any card the dealer is known to discard in that cycle,
        never passes a card it is known to keep, and passes everything else
        in the last cycle. Every card ``seat`` never saw goes to a random free
        place; the order within a pair on the stack (never seen) is random.

        Only what ``seat`` knows goes in: its own cards, draws and passes,
        what it received, the discards and the revealed keeps, each pool in
        a canonical order before ``rng`` touches it.
        """
        game = self.game
        n = self.num_players
        p = (seat - dealer - 1) % n
        layout = self._oracle_layout(oracles)
        assert layout is not None
        dealt, true_stack = layout
        cycles = game.stack_size // 2
        own: dict[int, tuple[int, int]] = {}
        received: dict[int, tuple[int, int]] = {}
        discarded: dict[int, tuple[int, int]] = {}
        for index, action in enumerate(draft):
            cycle, position = divmod(index, n)
            pair = PAIRS[action - (DISCARD_BASE if position == n - 1 else PASS_BASE)]
            if position == p:
                own[cycle] = pair
            if position == n - 1:
                discarded[cycle] = pair
            elif position == p - 1:
                received[cycle] = pair
        if p == 0:  # the seat drew each pair: it knows them, not their order on the stack
            drawn = min(cycles, len(draft) // n + 1)
            for cycle in range(drawn):
                a, b = true_stack[2 * cycle], true_stack[2 * cycle + 1]
                received[cycle] = (a, b) if a < b else (b, a)
        stack: list[int | None] = [None] * game.stack_size
        for cycle, (a, b) in received.items():
            if rng.random() < 0.5:
                a, b = b, a
            stack[2 * cycle], stack[2 * cycle + 1] = a, b
        held_by_seat = set(dealt[seat]) | {card for card in stack if card is not None}
        discards = {card for pair in discarded.values() for card in pair}
        start: list[list[int]] = [[] for _ in range(n)]
        start[p] = list(dealt[seat])
        keeps: list[tuple[int, int]] | None = None
        if kept is None:
            later_slots = [position for position in range(p + 1, n) for _ in (0, 1)]
            rng.shuffle(later_slots)
            never_held = sorted(discards - held_by_seat)
            for card, position in zip(never_held, later_slots, strict=False):
                start[position].append(card)
            seen = held_by_seat | discards
            unseen = [card for card in range(NUM_ORACLE_CARDS) if card not in seen]
            rng.shuffle(unseen)
            fill = iter(unseen)
            for slots in start:
                while len(slots) < 2:
                    slots.append(next(fill))
            for index in range(game.stack_size):
                if stack[index] is None:
                    stack[index] = next(fill)
        else:
            keeps = [kept[(dealer + 1 + position) % n] for position in range(n)]
            for position in range(p):
                start[position] = list(keeps[position])
            # Free places of the seats after ``seat``, by position; each card
            # goes to a random one at its last possible position or before,
            # the most constrained first (so every placement is as likely).
            free = [position for position in range(p + 1, n) for _ in (0, 1)]
            placed = [
                (position, card)
                for position in range(p + 1, n)
                for card in keeps[position]
                if card not in held_by_seat
            ]
            placed += [(n - 1, card) for card in sorted(discards - held_by_seat)]
            for last, card in placed:
                choices = 0
                while choices < len(free) and free[choices] <= last:
                    choices += 1
                start[free.pop(rng.randrange(choices))].append(card)
            assert not free
        full_stack = [card for card in stack if card is not None]
        assert len(full_stack) == game.stack_size
        holding = [list(hand) for hand in start]
        passes = []
        last_pair: tuple[int, int] = (0, 0)
        for index in range(len(draft)):
            cycle, position = divmod(index, n)
            if position == 0:
                last_pair = (full_stack[2 * cycle], full_stack[2 * cycle + 1])
                holding[0] += last_pair
            hand = holding[position]
            if position == p:
                pair = own[cycle]
            elif position < p:
                pair = last_pair
            elif position == n - 1:
                pair = discarded[cycle]
            else:
                keep = keeps[position] if keeps is not None else ()
                if keeps is not None and cycle == cycles - 1:
                    forced = [card for card in hand if card not in keep]
                else:
                    forced = [card for card in hand if card in discarded.get(cycle, ())]
                rest = [card for card in hand if card not in forced and card not in keep]
                rng.shuffle(rest)
                chosen = forced + rest[: 2 - len(forced)]
                pair = (min(chosen), max(chosen))
            holding[position] = [card for card in hand if card not in pair]
            if position < n - 1:
                holding[position + 1] += pair
                last_pair = pair
            base = DISCARD_BASE if position == n - 1 else PASS_BASE
            passes.append(base + PAIR_INDEX[pair[0]][pair[1]])
        by_seat = [sorted(start[(s - dealer - 1) % n]) for s in range(n)]
        values = [card for hand in by_seat for card in hand] + full_stack
        return pack(values, NUM_ORACLE_CARDS), passes

    def _oracle_relabelling(self, seat: int, rng: random.Random) -> list[list[int]]:
        """Without the draft: per round, a permutation of the Oracle cards
        that deals the cards ``seat`` never saw in that round anew over the
        places they took and leaves the cards it saw where they are.

        The places are listed in an order the seat knows: the other seats in
        seat order, each with its keep first (if it has kept and the keeps are
        not revealed yet: its two hidden cards of one role) and then the rest
        of its hand, then the cards set aside. A random order of the unseen
        cards (sorted first) is laid over them; the permutation maps the true
        card at each place to the card drawn for it. So the world does not
        depend on which card the truth put where."""
        n = self.num_players
        rounds: list[tuple[list[list[int]], list[tuple[int, int] | None]]] = []
        for kind, actor, action in self.events:
            if kind == E_ORACLES:
                layout = self._oracle_layout(action)
                assert layout is not None
                rounds.append((layout[0], [None] * n))
            elif kind == E_PLAYER and KEEP_BASE <= action < LOSER_KEEP:
                rounds[-1][1][actor] = PAIRS[action - KEEP_BASE]
        finished = len(self.revealed)
        maps = []
        for round_index, (hands, keeps) in enumerate(rounds):
            places: list[int] = []
            for other in range(n):
                if other == seat:
                    continue
                hand = hands[other]
                keep = keeps[other]
                if keep is None:
                    places += hand
                else:
                    if round_index >= finished:  # hidden: the keep comes first
                        places += keep
                    places += [card for card in hand if card not in keep]
            dealt = 0
            for hand in hands:
                for card in hand:
                    dealt |= 1 << card
            places += [card for card in range(NUM_ORACLE_CARDS) if not dealt >> card & 1]
            drawn = sorted(places)
            rng.shuffle(drawn)
            mapping = list(range(NUM_ORACLE_CARDS))
            for old, new in zip(places, drawn, strict=True):
                mapping[old] = new
            maps.append(mapping)
        return maps

    def _relabel_oracles(self, action: int, mapping: list[int]) -> int:
        """A (non-draft) ``oracles`` action with every card renamed by ``mapping``."""
        layout = self._oracle_layout(action)
        assert layout is not None
        n = self.num_players
        owners = [n] * NUM_ORACLE_CARDS
        for owner, hand in enumerate(layout[0]):
            for card in hand:
                owners[mapping[card]] = owner
        return pack(owners, n + 1)

    def _resampled_deal(self, seat: int, rng: random.Random) -> int | None:
        """The current round's deal with the other seats' unplayed cards
        redrawn (from their pool in card order), or None if no round is under way."""
        if self.round_number == 0 or self.phase in (OVER, DEAL):
            return None
        n = self.num_players
        played = [0] * n
        void = [0] * n  # bit per colour the seat has shown it lacks
        tricks = [(leader, cards) for leader, cards, _ in self.tricks]
        if self.trick:
            tricks.append((self.leader, tuple(self.trick)))
        for leader, cards in tricks:
            led = cards[0] // NUM_VALUES
            for i, card in enumerate(cards):
                player = (leader + i) % n
                played[player] |= 1 << card
                if card // NUM_VALUES != led:
                    void[player] |= 1 << led
        others = [other for other in range(n) if other != seat]
        pool = cards_of_mask(self.unseen_cards(seat))  # ascending: the same whatever the truth
        assignment = _assign_cards(pool, others, [self.hands[o].bit_count() for o in others], void, rng)
        if assignment is None:
            return None
        hands = list(self.hands)
        for other, dealt in zip(others, assignment, strict=True):
            mask = 0
            for card in dealt:
                mask |= 1 << card
            hands[other] = mask
        owner = [0] * NUM_CARDS
        for player in range(n):
            for card in cards_of_mask(hands[player] | played[player]):
                owner[card] = player
        return pack((owner[card] for card in self.game.cards_in_play), n)

    # ----------------------------------------------------------- copy
    def clone(self) -> OracleState:
        other = OracleState.__new__(OracleState)
        other.game = self.game
        other._history = self._history[:]
        other.phase = self.phase
        other.dealer = self.dealer
        other.round_number = self.round_number
        other.to_act = self.to_act
        other.hands = self.hands[:]
        other.oracle_cards = [cards[:] for cards in self.oracle_cards]
        other.kept = self.kept[:]
        other.chooser = self.chooser
        other.stack = self.stack  # never mutated, only replaced
        other.stack_pos = self.stack_pos
        other.discards = self.discards[:]
        other.leader = self.leader
        other.trick = self.trick[:]
        other.tricks = self.tricks[:]
        other.middle = self.middle[:]
        other.held = self.held[:]
        other.loser_holder = self.loser_holder[:]
        other.pending = self.pending
        other.round_scores = self.round_scores[:]
        other.totals = self.totals[:]
        other.revealed = self.revealed[:]
        other.events = self.events[:]
        other._log_texts = None
        return other


def forfeit_loser_chips(held: list[int], middle: list[int], loser_holder: Sequence[int]) -> None:
    """End of round: each Loser chip holder puts back its victory point chips
    of that creature (``held[seat * 3 + creature]``, in place)."""
    for creature, holder in enumerate(loser_holder):
        if holder != _NOBODY:
            middle[creature] += held[holder * 3 + creature]
            held[holder * 3 + creature] = 0


def seat_quantities(held: Sequence[int], loser_holder: Sequence[int], players: int) -> list[list[int]]:
    """Every seat's quantity vector (:data:`.prophecies.QUANTITIES`) from the
    victory point chips held (``held[seat * 3 + creature]``) and the holder of
    each Loser chip (-1: the middle)."""
    result = []
    for seat in range(players):
        victory = held[seat * 3 : seat * 3 + 3]
        losers = [1 if holder == seat else 0 for holder in loser_holder]
        count = sum(victory)
        stars = victory[0] * STARS[0] + victory[1] * STARS[1] + victory[2] * STARS[2]
        result.append([*victory, *losers, sum(losers), count, count + sum(losers), stars])
    return result


def round_points(
    quantities: Sequence[Sequence[int]], kept: Sequence[Sequence[int]], edition: Edition
) -> list[int]:
    """Each seat's points for a round: the stars it keeps plus the points of
    each kept Oracle card whose prophecy holds (after the forfeit).

    The rulebook's example: 2 Pegasus, 1 Phoenix and 1 Hydra chip with the
    Hydra Loser chip, keeping O05 and O12, scores 8 + 9 = 17.

    >>> held = [1, 2, 1, 0, 0, 0, 0, 0, 0]
    >>> middle = [0, 0, 0]
    >>> forfeit_loser_chips(held, middle, [0, -1, -1])
    >>> round_points(seat_quantities(held, [0, -1, -1], 3), [(4, 11), (0, 1), (2, 3)], default_edition())
    [17, 0, 0]
    """
    cards = edition.cards
    points = []
    for seat, pair in enumerate(kept):
        total = quantities[seat][9]
        for card in pair:
            if cards[card].holds(quantities, seat):
                total += cards[card].points
        points.append(total)
    return points


def _assign_cards(
    pool: list[int], seats: list[int], capacity: list[int], void: list[int], rng: random.Random
) -> list[list[int]] | None:
    """Deal ``pool`` to ``seats`` (``capacity[i]`` cards each) so that no seat
    gets a colour it is void in; None if no deal can. Random tries first;
    if they all fail, card by card with a check (:func:`_assign_cards_checked`).
    The result depends only on ``pool`` (its order too), the constraints and
    ``rng``."""
    eligible = [[i for i, seat in enumerate(seats) if not void[seat] >> colour & 1] for colour in range(5)]
    for _ in range(30):
        order = pool[:]
        rng.shuffle(order)
        # Place the most constrained colours first so that few tries fail.
        order.sort(key=lambda card: len(eligible[card // NUM_VALUES]))
        left = capacity[:]
        result: list[list[int]] = [[] for _ in seats]
        for card in order:
            choices = [i for i in eligible[card // NUM_VALUES] if left[i]]
            if not choices:
                break
            i = rng.choices(choices, weights=[left[c] for c in choices])[0]
            left[i] -= 1
            result[i].append(card)
        else:
            return result
    return _assign_cards_checked(pool, capacity, eligible, rng)


def _assign_cards_checked(
    pool: list[int], capacity: list[int], eligible: list[list[int]], rng: random.Random
) -> list[list[int]] | None:
    """As :func:`_assign_cards` (``eligible[colour]``: the indices of the
    seats that may take it), card by card in random order, each to a random
    seat (weighted by its room) that leaves the rest dealable by Hall's
    condition: no set of seats is the only one able to take more cards than
    it has room for. Slower, but it never fails when a deal exists."""
    k = len(capacity)
    masks = [sum(1 << i for i in seats) for seats in eligible]
    need = [0] * (1 << k)  # cards left, by the set of seats that may take them
    for card in pool:
        need[masks[card // NUM_VALUES]] += 1
    left = capacity[:]
    sets = range(1 << k)

    def dealable() -> bool:
        for subset in sets:
            room = sum(left[i] for i in range(k) if subset >> i & 1)
            if sum(need[m] for m in sets if not m & ~subset) > room:
                return False
        return True

    if not dealable():
        return None
    order = pool[:]
    rng.shuffle(order)
    result: list[list[int]] = [[] for _ in range(k)]
    for card in order:
        mask = masks[card // NUM_VALUES]
        need[mask] -= 1
        choices = [i for i in range(k) if mask >> i & 1 and left[i]]
        while True:  # some choice keeps the rest dealable, since all was
            i = rng.choices(choices, weights=[left[c] for c in choices])[0]
            left[i] -= 1
            if dealable():
                break
            left[i] += 1
            choices.remove(i)
        result[i].append(card)
    return result


def _player_action_text(action: int) -> str:
    if action < KEEP_BASE:
        return f"play {CARD_NAMES[action]}"
    if action < LOSER_KEEP:
        return pair_text("keep", PAIRS[action - KEEP_BASE])
    if action == LOSER_KEEP:
        return "loser keep"
    if action == LOSER_RETURN:
        return "loser return"
    if action < DISCARD_BASE:
        return pair_text("pass", PAIRS[action - PASS_BASE])
    return pair_text("discard", PAIRS[action - DISCARD_BASE])


_PLAYER_ACTION_TEXTS = tuple(_player_action_text(action) for action in range(NUM_ACTIONS))


def player_action_text(action: int) -> str:
    """Notation of a player action int (the same in every state).

    >>> player_action_text(18), player_action_text(841)
    ('play B7', 'loser return')
    """
    if 0 <= action < NUM_ACTIONS:
        return _PLAYER_ACTION_TEXTS[action]
    return f"action #{action}"


def read_player_action(text: str, tokens: Sequence[str] | None = None) -> int:
    """Read a player action's notation, any case (``NotationError`` if unreadable).

    >>> read_player_action("PLAY b7"), read_player_action("keep O12 O05") == read_player_action("keep o5 o12")
    (18, True)
    """
    words = [token.lower() for token in (tokens if tokens is not None else text.split())]
    if not words:
        raise notation_error(text, "empty action")
    word = words[0]
    if word == "play":
        if len(words) != 2:
            raise notation_error(text, "write 'play' and one card, e.g. 'play R12'")
        try:
            return PLAY_BASE + parse_card(words[1])
        except ValueError as error:
            raise notation_error(text, str(error)) from None
    if word == "loser":
        if words[1:] == ["keep"]:
            return LOSER_KEEP
        if words[1:] == ["return"]:
            return LOSER_RETURN
        raise notation_error(text, "write 'loser keep' or 'loser return'")
    bases = {"keep": KEEP_BASE, "pass": PASS_BASE, "discard": DISCARD_BASE}
    if word in bases:
        if len(words) != 3:
            raise notation_error(text, f"write '{word}' and two Oracle cards, e.g. '{word} O05 O12'")
        try:
            a, b = oracle_index(words[1]), oracle_index(words[2])
        except ValueError as error:
            raise notation_error(text, str(error)) from None
        if a == b:
            raise notation_error(text, f"names {ORACLE_IDS[a]} twice")
        return bases[word] + PAIR_INDEX[a][b]
    raise notation_error(text, f"unknown action {word!r} (play, keep, loser, pass, discard)")
