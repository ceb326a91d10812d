"""Oracle (Stefan Dorra): trick-taking with creature chips and prophecies.

Game id ``oracle``; the rules are in ``docs/rules/oracle.md``.

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
``edition``         str     ``classic``        the Oracle cards' points: ``classic``
                                               (the project's table), ``balanced`` (the
                                               same cards re-pointed by ``oracles
                                               balance``) or an edition file
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

Views
=====

``view(seat)`` and the public ``view(None)`` are documented, key by key and
event by event, in :mod:`oracles.games.oracle.views`.

Modules
=======

This module holds the game, the state and the turn flow; the notation is in
:mod:`.notation`, the end-of-round scoring in :mod:`.scoring`, the views and
their events in :mod:`.views` and the resampling of hidden information in
:mod:`.resample`. The state's fields are private: the other modules, the
policy, the renderer and the encoder read it through its accessors or its
views.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any, NamedTuple

from oracles.core.codec import pack, unpack
from oracles.core.errors import IllegalActionError, reason
from oracles.core.game import CHANCE, TERMINAL, Game, State, notation_error
from oracles.core.options import Option
from oracles.games.oracle.cards import (
    CARD_CREATURE,
    CARD_NAMES,
    COLOUR_BITS,
    COLOUR_CARDS,
    COLOUR_NAMES,
    COLOURS,
    CREATURE_NAMES,
    HAND_SIZE,
    NUM_CARDS,
    NUM_VALUES,
    STARS,
    VICTORY_CHIPS,
    legal_plays,
    trick_winner,
)
from oracles.games.oracle.notation import (
    DISCARD_BASE,
    KEEP_BASE,
    LOSER_KEEP,
    LOSER_RETURN,
    NUM_ACTIONS,
    PAIR_INDEX,
    PAIRS,
    PASS_BASE,
    PLAY_BASE,
    deal_hands,
    deal_owners,
    deal_text,
    oracle_layout,
    oracles_text,
    pack_digits,
    pair_text,
    player_action_text,
    read_deal,
    read_oracles,
    read_player_action,
)
from oracles.games.oracle.phases import (
    DEAL,
    DEALER,
    DRAFT,
    DRAFT_REMOVED,
    E_DEAL,
    E_DEALER,
    E_DRAW,
    E_ORACLES,
    E_PLAYER,
    E_SCORE,
    E_TRICK,
    KEEP,
    LOSER,
    ORACLE_HAND,
    ORACLES,
    OVER,
    PHASE_NAMES,
    PLAY,
    ScoreFacts,
    TrickFacts,
)
from oracles.games.oracle.prophecies import (
    EDITION_PATHS,
    NUM_ORACLE_CARDS,
    ORACLE_IDS,
    Edition,
    edition_digest,
    edition_named,
)
from oracles.games.oracle.resample import resample
from oracles.games.oracle.scoring import (
    NOBODY,
    card_points,
    compiled_tests,
    forfeit_loser_chips,
    round_points,
    score_kept,
    seat_quantities,
)
from oracles.i18n import N_

# Names other modules and tests import from here, where they used to live.
__all__ = [
    "DISCARD_BASE",
    "KEEP_BASE",
    "LOSER_KEEP",
    "LOSER_RETURN",
    "NUM_ACTIONS",
    "PAIRS",
    "PAIR_INDEX",
    "PASS_BASE",
    "PLAY_BASE",
    "OracleGame",
    "OracleState",
    "forfeit_loser_chips",
    "pair_text",
    "player_action_text",
    "read_player_action",
    "round_points",
    "seat_quantities",
]


_CHANCE_EVENT = {DEALER: E_DEALER, DEAL: E_DEAL, ORACLES: E_ORACLES}


class LoggedEvent(NamedTuple):
    """One entry of the state's log, before it is masked for a viewer."""

    kind: int
    #: The seat that acted (the drawer of a draw), or ``NOBODY``.
    actor: int
    #: The action int; for a draw the pair index drawn; else 0.
    action: int
    #: Index in the history of the action this entry belongs to.
    seq: int
    #: Public facts the rules know at that moment (a trick's result, a
    #: round's scoring, the creature of a Loser decision); never mutated.
    facts: dict[str, Any] | TrickFacts | ScoreFacts | None = None


_new_event = tuple.__new__


def _acted_at(events: list[LoggedEvent], index: int) -> int | None:
    """Who took the action that set off ``events[index]`` (None: chance):
    the actor of the record's action logged before it at the same seq."""
    seq = events[index].seq
    for at in range(index - 1, -1, -1):
        earlier = events[at]
        if earlier.seq != seq:
            break
        if earlier.kind <= E_PLAYER:
            return earlier.actor if earlier.actor != NOBODY else None
    return None


def _check_removed_colour(value: Any, resolved: dict[str, Any]) -> str | None:
    if not isinstance(value, str) or value.strip().upper() not in tuple(COLOURS):
        return f"must be one of {', '.join(COLOURS)}, got {value!r}"
    if resolved["players"] != 3 and value.strip().upper() != "P":
        return f"applies to 3 players only: with {resolved['players']} players every colour is used"
    return None


#: The most rounds a game server accepts (``docs/server.md``, limits).
MAX_REMOTE_ROUNDS = 20


def _check_edition(value: Any, resolved: dict[str, Any]) -> str | None:
    try:
        edition_named(str(value))
    except (ValueError, OSError, KeyError) as error:
        return str(error)
    return None


class OracleGame(Game):
    """Oracle for 3 to 5 players (options in the module docstring)."""

    id = "oracle"
    unique_card_names = True
    title = "Oracle"
    short_title = "Oracle"
    blurb = N_("Trick-taking for 3 to 5: win chips so that your two prophecies come true.")
    min_players = 3
    max_players = 5
    option_schema = (
        Option("players", int, 4, "number of players", minimum=3, maximum=5),
        # A server plays at most MAX_REMOTE_ROUNDS rounds: no stranger's table runs for ever.
        Option(
            "rounds",
            int,
            lambda o: o["players"],
            "rounds to play",
            minimum=1,
            remote_maximum=MAX_REMOTE_ROUNDS,
        ),
        Option("draft", bool, False, "deal the Oracle cards by the draft variant"),
        Option("removed_colour", str, "P", "colour removed with 3 players", check=_check_removed_colour),
        Option(
            "edition",
            str,
            "classic",
            "the Oracle cards' points: classic, balanced (re-pointed by oracles balance) or an edition file",
            check=_check_edition,
            # Over the network an edition is a shipped name, never a path to read.
            remote_choices=tuple(EDITION_PATHS),
        ),
    )
    test_option_sets = (
        {"players": 3},
        {"players": 4},
        {"players": 5, "rounds": 2},
        {"players": 4, "draft": True, "rounds": 2},
        {"players": 3, "draft": True, "rounds": 1},
        {"players": 5, "draft": True, "rounds": 1},
    )
    #: The Oracle deck in use: the ``edition`` option's, unless a subclass fixes one,
    #: with the points of this game's player count (:meth:`.Edition.for_players`).
    edition: Edition

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
        fixed = getattr(type(self), "edition", None)
        chosen = fixed if isinstance(fixed, Edition) else edition_named(self.options["edition"])
        # Resolved once for this table's seats: everything after (scoring,
        # views, bots, analysis) reads plain points of this player count.
        self.edition = chosen.for_players(n)
        #: The edition's prophecies compiled for scoring (see :func:`.scoring.compiled_tests`).
        self.prophecy_tests = compiled_tests(self.edition)
        #: Each Oracle card's points at this player count, for scoring.
        self.prophecy_points = card_points(self.edition)
        #: Each seat's part of recent deals as names, for the views' logs
        #: (views repeat them at every step).
        self.dealt_names_cache: dict[tuple[int, int], list[list[str]]] = {}
        #: What ``sample_chance`` shuffles to deal: ``hand_size`` times each seat.
        self.deal_owners_template: tuple[int, ...] = tuple(
            seat for seat in range(n) for _ in range(self.hand_size)
        )
        #: The last ``deal`` action drawn by ``sample_chance`` with its owner
        #: list, and the last (non-draft) ``oracles`` action with each seat's
        #: cards: a one-entry cache of their decoding, so that applying a
        #: drawn deal (random play, search) does not unpack it again.
        self.drawn_deal: tuple[int, list[int]] = (-1, [])
        self.drawn_oracles: tuple[int, list[list[int]]] = (-1, [])

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def record_extra(self) -> dict[str, Any]:
        """An edition read from a file is named by its path, whose cards may
        change on disk: the record keeps their digest too."""
        if str(self.options["edition"]).strip().lower() in EDITION_PATHS:
            return {}
        return {"edition_digest": edition_digest(edition_named(self.options["edition"]))}

    def record_mismatch(self, record: dict[str, Any]) -> str | None:
        kept = record.get("edition_digest")
        if kept is None or kept == edition_digest(edition_named(self.options["edition"])):
            return None
        return (
            f"the edition file {str(self.options['edition'])[:80]!r} has changed since this game was played "
            "(its cards differ): the record would replay to other scores"
        )

    def max_game_length(self) -> int:
        n = self.num_players
        choosing = (self.stack_size // 2) * n if self.draft else n
        # Per round: deal, oracles, the Oracle choices, the plays and at most
        # one Loser decision per trick.
        return 1 + self.rounds * (2 + choosing + self.hand_size * n + self.hand_size)

    def utility_bounds(self) -> tuple[float, float]:
        """Points never go below 0; a round gives at most every star chip
        plus the two most valuable prophecies of the edition."""
        points = sorted((card.points for card in self.edition.cards), reverse=True)
        stars = sum(count * star for count, star in zip(self.victory_chips, STARS, strict=True))
        return 0.0, float(self.rounds * (stars + points[0] + points[1]))

    def new_initial_state(self) -> OracleState:
        return OracleState(self)

    def dealt_names(self, kind: int, action: int) -> list[list[str]]:
        """Each seat's part of a legal ``deal`` (``kind`` ``E_DEAL``) or
        ``oracles`` action, as card names (cached)."""
        cache = self.dealt_names_cache
        key = (kind, action)
        hands = cache.get(key)
        if hands is None:
            if len(cache) > 512:
                cache.clear()
            if kind == E_DEAL:
                hands = [[CARD_NAMES[card] for card in hand] for hand in deal_hands(self, action)]
            else:
                layout = oracle_layout(self, action)
                assert layout is not None
                hands = [[ORACLE_IDS[card] for card in hand] for hand in layout[0]]
            cache[key] = hands
        return hands


class OracleState(State):
    """A position of Oracle. Hands are bit masks of card ints.

    Its fields are private; read them through the properties and methods
    below (public facts, or one seat's own hidden cards where named so) or
    through :meth:`view`."""

    game: OracleGame

    def __init__(self, game: OracleGame) -> None:
        super().__init__(game)
        n = game.num_players
        self._n = n
        self._phase = DEALER
        self._dealer = NOBODY
        self._round_number = 0
        self._to_act = NOBODY
        self._hands = [0] * n
        # Non-draft: the dealt Oracle cards; draft: the ones held right now.
        self._oracle_cards: list[list[int]] = [[] for _ in range(n)]
        self._kept: list[tuple[int, int] | None] = [None] * n
        self._chooser = 0  # position from dealer + 1 of the seat keeping / passing
        self._stack: list[int] = []
        self._stack_pos = 0
        self._discards: list[int] = []
        self._leader = NOBODY
        self._trick: list[int] = []
        self._tricks: list[tuple[int, tuple[int, ...], int]] = []  # (leader, cards, winner)
        self._middle = list(game.victory_chips)
        self._held = [0] * (3 * n)  # held[seat * 3 + creature]
        self._loser_holder = [NOBODY] * 3
        self._pending = NOBODY  # creature of a pending Loser decision
        self._round_scores: list[list[int]] = []
        self._totals = [0] * n
        self._revealed: list[list[tuple[int, int]]] = []
        #: The event log (read it as ``_events``), and whether a random
        #: playout left out its plays (see :meth:`play_out_at_random`).
        self._event_log: list[LoggedEvent] = []
        self._unlogged = False
        self._logs: dict[int | None, list[dict[str, Any]]] = {}  # per viewer, made by view()
        # What resampling for a seat needs that the rng does not change, and
        # the (seat, history length) it was made for (see .resample).
        self._resample_memo: tuple[tuple[int, int], Any] | None = None

    # ------------------------------------------------------- accessors
    @property
    def _events(self) -> list[LoggedEvent]:
        """The event log, made whole first if a random playout left its
        plays out (what views, resampling and narration read)."""
        if self._unlogged:
            self._relog()
        return self._event_log

    def _relog(self) -> None:
        # A state is what its history replays to, so a replay remakes the
        # log exactly. The views' entries made so far stay valid: the log
        # before the playout is the same, and events are only appended.
        self._event_log = self.replayed(self._history)._event_log
        self._unlogged = False

    @property
    def phase(self) -> int:
        """The phase: one of ``DEALER``, ``DEAL``, ... ``OVER``."""
        return self._phase

    @property
    def dealer(self) -> int:
        """This round's dealer (``NOBODY`` before the first)."""
        return self._dealer

    @property
    def round_number(self) -> int:
        """The round under way or just scored, from 1 (0 before the first deal)."""
        return self._round_number

    @property
    def hands(self) -> tuple[int, ...]:
        """Every seat's unplayed cards as bit masks. Hidden information: a
        policy reads only its own seat's entry."""
        return tuple(self._hands)

    def hand_sizes(self) -> list[int]:
        return [hand.bit_count() for hand in self._hands]

    @property
    def oracle_cards(self) -> tuple[tuple[int, ...], ...]:
        """Every seat's dealt Oracle cards (draft: the ones it holds now),
        sorted. Hidden information, as :attr:`hands`."""
        return tuple(tuple(cards) for cards in self._oracle_cards)

    @property
    def kept(self) -> tuple[tuple[int, int] | None, ...]:
        """Every seat's two kept Oracle cards this round (None until kept).
        Hidden until the round is scored, as :attr:`hands`."""
        return tuple(self._kept)

    @property
    def leader(self) -> int:
        return self._leader

    @property
    def trick(self) -> tuple[int, ...]:
        """The cards of the current trick, in play order from :attr:`leader`."""
        return tuple(self._trick)

    @property
    def tricks(self) -> tuple[tuple[int, tuple[int, ...], int], ...]:
        """This round's finished tricks: (leader, cards in play order, winner)."""
        return tuple(self._tricks)

    @property
    def middle(self) -> tuple[int, ...]:
        """Victory point chips left in the middle, per creature."""
        return tuple(self._middle)

    @property
    def held(self) -> tuple[int, ...]:
        """Victory point chips held: ``held[seat * 3 + creature]``."""
        return tuple(self._held)

    @property
    def loser_holder(self) -> tuple[int, ...]:
        """Per creature, the seat holding its Loser chip (``NOBODY``: the middle)."""
        return tuple(self._loser_holder)

    @property
    def pending_loser(self) -> int:
        """The creature of the Loser decision under way (``NOBODY`` if none)."""
        return self._pending

    @property
    def round_scores(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(points) for points in self._round_scores)

    @property
    def revealed(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Every seat's kept cards of each finished round."""
        return tuple(tuple(pairs) for pairs in self._revealed)

    @property
    def stack_left(self) -> int:
        """Draft: cards still on the stack."""
        return len(self._stack) - self._stack_pos

    @property
    def discards(self) -> tuple[int, ...]:
        """Draft: the face-up discard pile of this round."""
        return tuple(self._discards)

    def action_events(self) -> list[tuple[int, int, int]]:
        """``(kind, actor, action)`` of each action in the history, in order
        (chance kinds ``E_DEALER``, ``E_DEAL``, ``E_ORACLES``; ``E_PLAYER``)."""
        return [(e.kind, e.actor, e.action) for e in self._events if e.kind <= E_PLAYER]

    @property
    def num_players(self) -> int:
        return self._n

    # ------------------------------------------------------------ turn
    def is_chance_node(self) -> bool:
        return self._phase <= ORACLES

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def current_player(self) -> int:
        phase = self._phase
        if phase <= ORACLES:
            return CHANCE
        if phase == OVER:
            return TERMINAL
        return self._to_act

    def legal_actions(self) -> list[int]:
        phase = self._phase
        if phase == PLAY:
            # ``cards_of_mask(legal_plays(hand, led))`` by table lookups (see ``legal_play_list``).
            hand = self._hands[self._to_act]
            trick = self._trick
            if trick:
                colour = trick[0] // NUM_VALUES
                follow = COLOUR_CARDS[colour][hand >> (colour * NUM_VALUES) & COLOUR_BITS]
                if follow:
                    return list(follow)
            r, b, g, y, p = COLOUR_CARDS
            return [
                *r[hand & 4095],
                *b[hand >> 12 & 4095],
                *g[hand >> 24 & 4095],
                *y[hand >> 36 & 4095],
                *p[hand >> 48],
            ]
        if phase == KEEP:
            return self._pair_actions(self._oracle_cards[self._to_act], KEEP_BASE)
        if phase == DRAFT:
            base = DISCARD_BASE if self._chooser == self._n - 1 else PASS_BASE
            return self._pair_actions(self._oracle_cards[self._to_act], base)
        if phase == LOSER:
            return [LOSER_KEEP, LOSER_RETURN]
        return []

    def early_choices(self, seat: int) -> list[int]:
        """In the keep phase, a seat still to keep may choose its pair now:
        the rulebook has everyone choose at once, and a seat's keep depends
        on its own Oracle cards only."""
        if self._phase != KEEP or seat == self._to_act or self._kept[seat] is not None:
            return []
        return self._pair_actions(self._oracle_cards[seat], KEEP_BASE)

    @staticmethod
    def _pair_actions(cards: Sequence[int], base: int) -> list[int]:
        # ``cards`` is sorted, so the pair indices come out ascending.
        return [base + PAIR_INDEX[a][b] for a, b in combinations(cards, 2)]

    # ------------------------------------------------------ validation
    def _illegal_reason(self, action: int) -> str | None:
        phase = self._phase
        n = self._n
        if phase == DEALER:
            return None if 0 <= action < n else f"there is no seat {action} to deal"
        if phase == DEAL:
            return self._deal_problem(action)
        if phase == ORACLES:
            return self._oracles_problem(action)
        if phase == OVER:
            return reason("the game is over")
        seat = self._to_act
        if phase == PLAY:
            if not 0 <= action < NUM_CARDS:
                return reason("you must play a card now", "seat {seat} must play a card now", seat=seat)
            if not self._hands[seat] >> action & 1:
                return reason(
                    "you hold no {card}", "seat {seat} holds no {card}", seat=seat, card=CARD_NAMES[action]
                )
            if not legal_plays(self._hands[seat], self._trick[0] if self._trick else None) >> action & 1:
                colour = COLOUR_NAMES[COLOURS[self._trick[0] // NUM_VALUES]]
                return reason("you must follow {colour}", "must follow {colour}", colour=colour)
            return None
        if phase == LOSER:
            if action in (LOSER_KEEP, LOSER_RETURN):
                return None
            return reason(
                "you must first keep the {creature} Loser chip or put it back",
                "seat {seat} must decide on the {creature} Loser chip (loser keep or loser return)",
                seat=seat,
                creature=CREATURE_NAMES[self._pending],
            )
        if phase == KEEP:
            return self._pair_problem(action, KEEP_BASE, "keep", "was not dealt")
        last = self._chooser == n - 1
        base, word = (DISCARD_BASE, "discard") if last else (PASS_BASE, "pass")
        return self._pair_problem(action, base, word, "does not hold")

    def _pair_problem(self, action: int, base: int, word: str, missing: str) -> str | None:
        seat = self._to_act
        if not base <= action < base + len(PAIRS):
            logged = f"seat {{seat}} must {word} two Oracle cards now"
            if word == "keep":
                return reason("you must keep two Oracle cards now", logged, seat=seat)
            if word == "pass":
                return reason("you must pass two Oracle cards now", logged, seat=seat)
            return reason("you must discard two Oracle cards now", logged, seat=seat)
        for card in PAIRS[action - base]:
            if card not in self._oracle_cards[seat]:
                logged, name = f"seat {{seat}} {missing} {{card}}", ORACLE_IDS[card]
                if missing == "was not dealt":
                    return reason("you were not dealt {card}", logged, seat=seat, card=name)
                return reason("you do not hold {card}", logged, seat=seat, card=name)
        return None

    def _deal_problem(self, action: int) -> str | None:
        owners = deal_owners(self.game, action)
        if owners is None:
            return "not a deal of the cards in play"
        size = self.game.hand_size
        for seat in range(self.num_players):
            count = owners.count(seat)
            if count != size:
                return f"seat {seat} is dealt {count} cards, not {size}"
        return None

    def _oracles_problem(self, action: int) -> str | None:
        layout = oracle_layout(self.game, action)
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
    def _log_event(
        self,
        kind: int,
        actor: int,
        action: int = 0,
        facts: dict[str, Any] | TrickFacts | ScoreFacts | None = None,
    ) -> None:
        # tuple.__new__ skips the NamedTuple's Python-level constructor: this
        # runs at every action of every playout and search iteration.
        self._event_log.append(_new_event(LoggedEvent, (kind, actor, action, len(self._history), facts)))

    def apply_trusted(self, action: int) -> None:
        # ``State.apply_trusted`` with the play of a card inlined: the hot
        # path of random play and search.
        if self._phase == PLAY:
            history = self._history
            self._event_log.append(
                _new_event(LoggedEvent, (E_PLAYER, self._to_act, action, len(history), None))
            )
            self._play(action)
            history.append(action)
        else:
            self._apply(action)
            self._history.append(action)

    def play_out_at_random(self, rng: random.Random) -> None:
        """``State.play_out_at_random`` with the tricks played out here: the
        same moves for the same ``rng`` (the consistency suite checks it).

        The plays and tricks are not logged as they are made. A rollout only
        wants the scores, and logging was a tenth of a search iteration. The
        log is remade from the history if anything asks for it later
        (:attr:`_events`), so the views are those of the same moves played
        one by one."""
        draw = rng.random
        if self._phase != OVER:
            self._unlogged = True
        while True:
            phase = self._phase
            if phase == PLAY:
                self._play_tricks_at_random(draw)
            elif phase == OVER:
                return
            elif phase <= ORACLES:
                self.apply_trusted(self.sample_chance(rng))
            else:
                legal = self.legal_actions()
                self.apply_trusted(legal[int(draw() * len(legal))])

    def _play_tricks_at_random(self, draw: Callable[[], float]) -> None:
        """Random cards until the play phase ends (a Loser decision or the
        round's end): ``legal_actions`` and ``apply_trusted`` written out
        for a card, the rollouts' inner loop."""
        n = self._n
        hands = self._hands
        history = self._history
        r, b, g, y, p = COLOUR_CARDS
        seat = self._to_act
        trick = self._trick
        while True:
            hand = hands[seat]
            legal = None
            if trick:
                colour = trick[0] // NUM_VALUES
                legal = COLOUR_CARDS[colour][hand >> (colour * NUM_VALUES) & COLOUR_BITS]
            if not legal:
                legal = (
                    *r[hand & 4095],
                    *b[hand >> 12 & 4095],
                    *g[hand >> 24 & 4095],
                    *y[hand >> 36 & 4095],
                    *p[hand >> 48],
                )
            card = legal[int(draw() * len(legal))]
            hands[seat] = hand & ~(1 << card)
            trick.append(card)
            if len(trick) < n:
                history.append(card)
                seat = seat + 1 if seat + 1 < n else 0
                continue
            self._to_act = seat
            self._end_trick()
            history.append(card)
            if self._phase != PLAY:
                return
            seat = self._to_act
            trick = self._trick

    def _apply(self, action: int) -> None:
        phase = self._phase
        if phase == PLAY:
            self._log_event(E_PLAYER, self._to_act, action)
            self._play(action)
        elif phase <= ORACLES:
            if phase == DEALER:
                self._log_event(E_DEALER, NOBODY, action)
                self._dealer = action
                self._phase = DEAL
            elif phase == DEAL:
                self._log_event(
                    E_DEAL, NOBODY, action, {"round": self._round_number + 1, "dealer": self._dealer}
                )
                self._deal(action)
            else:
                self._log_event(E_ORACLES, NOBODY, action)
                self._deal_oracles(action)
        elif phase == LOSER:
            creature = self._pending
            self._log_event(E_PLAYER, self._to_act, action, {"creature": CREATURE_NAMES[creature]})
            if action == LOSER_RETURN:
                self._loser_holder[creature] = NOBODY
            self._pending = NOBODY
            self._after_trick(self._to_act)
        else:
            self._log_event(E_PLAYER, self._to_act, action)
            if phase == KEEP:
                self._keep(action)
            else:
                self._draft_step(action)

    def _deal(self, action: int) -> None:
        n = self._n
        game = self.game
        drawn, owners = game.drawn_deal
        if drawn != action:
            decoded = deal_owners(game, action)
            assert decoded is not None
            owners = decoded
        hands = [0] * n
        for card, owner in zip(game.cards_in_play, owners, strict=True):
            hands[owner] |= 1 << card
        self._hands = hands
        self._round_number += 1
        self._middle = list(self.game.victory_chips)
        self._held = [0] * (3 * n)
        self._loser_holder = [NOBODY] * 3
        self._kept = [None] * n
        self._oracle_cards = [[] for _ in range(n)]
        self._tricks = []
        self._trick = []
        self._discards = []
        self._stack = []
        self._stack_pos = 0
        self._phase = ORACLES

    def _deal_oracles(self, action: int) -> None:
        drawn, drawn_hands = self.game.drawn_oracles
        stack: list[int]
        if drawn == action:
            hands, stack = [hand[:] for hand in drawn_hands], []
        else:
            layout = oracle_layout(self.game, action)
            assert layout is not None
            hands, stack = layout
        self._oracle_cards = hands
        self._chooser = 0
        self._to_act = (self._dealer + 1) % self.num_players
        if self.game.draft:
            self._stack = stack
            self._phase = DRAFT
            self._draw()
        else:
            self._phase = KEEP

    def _draw(self) -> None:
        seat = (self._dealer + 1) % self.num_players
        pair = self._stack[self._stack_pos : self._stack_pos + 2]
        self._stack_pos += 2
        self._oracle_cards[seat] = sorted(self._oracle_cards[seat] + pair)
        self._log_event(E_DRAW, seat, PAIR_INDEX[pair[0]][pair[1]])

    def _keep(self, action: int) -> None:
        self._kept[self._to_act] = PAIRS[action - KEEP_BASE]
        self._next_chooser()

    def _next_chooser(self) -> None:
        n = self.num_players
        self._chooser += 1
        if self._chooser == n:
            self._start_play()
        else:
            self._to_act = (self._dealer + 1 + self._chooser) % n

    def _start_play(self) -> None:
        self._phase = PLAY
        self._leader = self._to_act = (self._dealer + 1) % self.num_players

    def _draft_step(self, action: int) -> None:
        n = self.num_players
        seat = self._to_act
        holding = self._oracle_cards[seat]
        if self._chooser < n - 1:
            pair = PAIRS[action - PASS_BASE]
            self._oracle_cards[seat] = [card for card in holding if card not in pair]
            left = (seat + 1) % n
            self._oracle_cards[left] = sorted(self._oracle_cards[left] + list(pair))
            self._chooser += 1
            self._to_act = left
            return
        pair = PAIRS[action - DISCARD_BASE]
        self._oracle_cards[seat] = [card for card in holding if card not in pair]
        self._discards.extend(pair)
        self._chooser = 0
        self._to_act = (self._dealer + 1) % n
        if self._stack_pos < len(self._stack):
            self._draw()
        else:
            self._kept = [(cards[0], cards[1]) for cards in self._oracle_cards]
            self._start_play()

    def _play(self, card: int) -> None:
        seat = self._to_act
        self._hands[seat] &= ~(1 << card)
        trick = self._trick
        trick.append(card)
        if len(trick) < self._n:
            seat += 1
            self._to_act = seat if seat < self._n else 0
        else:
            self._end_trick()

    def _end_trick(self) -> None:
        """The full trick goes to its winner, who takes a chip of the winning
        card's creature (or must decide on its Loser chip)."""
        trick = self._trick
        index, reason = trick_winner(trick)
        leader = self._leader
        winner = (leader + index) % self._n
        cards = tuple(trick)
        self._tricks.append((leader, cards, winner))
        self._trick = []
        creature = CARD_CREATURE[trick[index]]
        holder = self._loser_holder[creature]
        if self._middle[creature]:
            take = "chip"
            self._middle[creature] -= 1
            self._held[winner * 3 + creature] += 1
        elif holder == winner:
            take = "decide"
        else:
            take = "loser"
            self._loser_holder[creature] = winner
        if not self._unlogged:
            taken_from = holder if take == "loser" and holder != NOBODY else None
            facts = _new_event(
                TrickFacts,
                (leader, cards, winner, reason, creature, take, taken_from, self._middle[creature]),
            )
            self._log_event(E_TRICK, NOBODY, 0, facts)
        if take == "decide":
            self._phase = LOSER
            self._pending = creature
            self._to_act = winner
            return
        self._after_trick(winner)

    def _after_trick(self, winner: int) -> None:
        if len(self._tricks) == self.game.hand_size:
            self._score_round()
        else:
            self._phase = PLAY
            self._leader = self._to_act = winner

    def chip_quantities(self) -> list[list[int]]:
        """Every seat's quantity vector (see :mod:`.prophecies`) for the chips as they lie now."""
        return seat_quantities(self._held, self._loser_holder, self.num_players)

    def _score_round(self) -> None:
        n = self.num_players
        held = self._held
        before = held if self._unlogged else held[:]  # for the log only
        forfeit_loser_chips(held, self._middle, self._loser_holder)
        kept = [pair for pair in self._kept if pair is not None]
        quantities = self.chip_quantities()
        game = self.game
        holds, points = score_kept(game.prophecy_tests, game.prophecy_points, quantities, kept)
        totals = self._totals
        for seat, total in enumerate(points):
            totals[seat] += total
        self._round_scores.append(points)
        self._revealed.append(kept)
        if not self._unlogged:
            facts = _new_event(
                ScoreFacts,
                (
                    self._round_number,
                    kept,
                    holds,
                    before,
                    held[:],
                    self._loser_holder[:],
                    [quantities[seat][9] for seat in range(n)],
                    points,
                ),
            )
            self._log_event(E_SCORE, NOBODY, 0, facts)
        if self._round_number == self.game.rounds:
            self._phase = OVER
            self._to_act = NOBODY
        else:
            self._dealer = (self._dealer + 1) % n
            self._phase = DEAL

    # -------------------------------------------------------- notation
    def action_to_string(self, action: int) -> str:
        phase = self._phase
        if phase == DEALER:
            return f"dealer {action}"
        if phase == DEAL:
            return deal_text(self.game, action)
        if phase == ORACLES:
            return oracles_text(self.game, action)
        return player_action_text(action)

    def _string_to_action(self, text: str) -> int:
        tokens = text.split()
        if not tokens:
            raise notation_error(text, "empty action")
        word = tokens[0].lower()
        phase = self._phase
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
                return read_deal(self.game, text, body)
            return read_oracles(self.game, text, body)
        return read_player_action(text, tokens)

    # --------------------------------------------------------- chance
    def sample_chance(self, rng: random.Random) -> int:
        self.check_chance(rng)
        game = self.game
        n = self.num_players
        if self._phase == DEALER:
            return rng.randrange(n)
        if self._phase == DEAL:
            owners = list(game.deal_owners_template)
            rng.shuffle(owners)
            action = pack_digits(owners, n)
            game.drawn_deal = (action, owners)
            return action
        if self._phase != ORACLES:
            raise IllegalActionError("not a chance node")
        cards = list(range(NUM_ORACLE_CARDS))
        rng.shuffle(cards)
        if game.draft:
            dealt = cards[DRAFT_REMOVED:]
            hands = [sorted(dealt[2 * seat : 2 * seat + 2]) for seat in range(n)]
            return pack([card for hand in hands for card in hand] + dealt[2 * n :], NUM_ORACLE_CARDS)
        owners = [n] * NUM_ORACLE_CARDS
        size = game.oracle_hand
        hands = []
        for seat in range(n):
            hand = cards[seat * size : (seat + 1) * size]
            for card in hand:
                owners[card] = seat
            hand.sort()
            hands.append(hand)
        action = pack_digits(owners, n + 1)
        game.drawn_oracles = (action, hands)
        return action

    def starter(self) -> int | None:
        # The game's first action is ``dealer K``: seat K dealt round 1.
        return self._history[0] if self._history else None

    def starter_chance(self, seat: int) -> int | None:
        return seat if self._phase == DEALER and not self._history else None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._phase == DEALER:
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
        if self._phase == DEAL:
            return [seat for seat in range(n) for _ in range(game.hand_size)], len(game.cards_in_play)
        if self._phase != ORACLES:
            return None
        if game.draft:
            return list(range(NUM_ORACLE_CARDS)), 2 * n + game.stack_size
        aside = NUM_ORACLE_CARDS - n * game.oracle_hand
        items = [seat for seat in range(n) for _ in range(game.oracle_hand)] + [n] * aside
        return items, NUM_ORACLE_CARDS

    def chance_from_draws(self, drawn: Sequence[int]) -> int:
        game = self.game
        n = self.num_players
        if self._phase == DEAL:
            return pack(drawn, n)
        if self._phase == ORACLES and game.draft:
            hands = [sorted(drawn[2 * seat : 2 * seat + 2]) for seat in range(n)]
            return pack([card for hand in hands for card in hand] + list(drawn[2 * n :]), NUM_ORACLE_CARDS)
        if self._phase == ORACLES:
            return pack(drawn, n + 1)
        return super().chance_from_draws(drawn)

    def chance_draws_of(self, action: int) -> list[int]:
        game = self.game
        n = self.num_players
        if self._phase == DEAL:
            return unpack(action, n, len(game.cards_in_play))
        if self._phase == ORACLES and game.draft:
            return unpack(action, NUM_ORACLE_CARDS, 2 * n + game.stack_size)
        if self._phase == ORACLES:
            return unpack(action, n + 1, NUM_ORACLE_CARDS)
        return super().chance_draws_of(action)

    # -------------------------------------------------------- results
    def scores(self) -> list[float]:
        return list(self._totals)  # whole points: JSON shows 17, not 17.0

    def winners(self) -> list[int]:
        if self._phase != OVER:
            return []
        best = max(self._totals)
        return [seat for seat, total in enumerate(self._totals) if total == best]

    # ------------------------------------------------------ knowledge
    def unseen_cards(self, seat: int) -> int:
        """Bit mask of the cards in play that ``seat`` has not seen this round
        (the other seats' unplayed cards, together): the same in every world
        resampled for ``seat``, so bots may read it."""
        mask = 0
        for other, hand in enumerate(self._hands):
            if other != seat:
                mask |= hand
        return mask

    def prophecy_status(self, seat: int) -> list[tuple[str, bool]]:
        """Whether each of ``seat``'s kept prophecies would hold if the round
        ended with the chips as they lie now (the Loser forfeit applied)."""
        pair = self._kept[seat]
        if pair is None:
            return []
        held = self._held[:]
        if self._phase not in (DEAL, OVER):  # after scoring the forfeit is already done
            forfeit_loser_chips(held, self._middle[:], self._loser_holder)
        quantities = seat_quantities(held, self._loser_holder, self.num_players)
        cards = self.game.edition.cards
        return [(ORACLE_IDS[card], cards[card].holds(quantities, seat)) for card in pair]

    def _view(self, seat: int | None) -> dict[str, Any]:
        from oracles.games.oracle.views import build_view

        return build_view(self, seat)

    def log(self, viewer: int | None) -> list[dict[str, Any]]:
        """What ``viewer`` saw of each event, in order (copies: a caller may
        change them).

        The public log keeps the current round in full but, of earlier
        rounds, only the dealer's draw and the scoring: the same 60 cards are
        dealt every round, so an old trick would name cards in today's hands
        and the public view could not be checked for leaks by card name.
        What was played in earlier rounds is summed up by their scores."""
        from oracles.games.oracle.views import event_view

        events = self._events
        log = self._logs.setdefault(viewer, [])
        # Events only ever get appended, so the entries already made stay valid.
        for index in range(len(log), len(events)):
            entry = event_view(self, events[index], viewer)
            if events[index].kind > E_PLAYER:
                # What an action set off (a finished trick, the scoring, a
                # draw) names as ``seat`` who took that action, as every
                # event does: the action logged just before it, at its seq.
                entry["seat"] = _acted_at(events, index)
            # Most events look the same to every viewer: one dict serves them
            # all (entries are handed out as copies), which keeps a table's
            # memory down on a server that holds every seat's log.
            for other in self._logs.values():
                if other is not log and len(other) > index and other[index] == entry:
                    entry = other[index]
                    break
            log.append(entry)
        if viewer is not None:
            return [dict(entry) for entry in log]
        first = max((e.seq for e in events if e.kind == E_DEAL), default=0)
        return [
            dict(entry)
            for entry, event in zip(log, events, strict=True)
            if event.kind in (E_DEALER, E_SCORE) or event.seq >= first
        ]

    # ------------------------------------------------------- resample
    def _resample(self, seat: int, rng: random.Random) -> OracleState:
        return resample(self, seat, rng)

    def replayed(self, history: Sequence[int]) -> OracleState:
        """A new state of this game after ``history`` (trusted: no checks)."""
        world = OracleState(self.game)
        for action in history:
            world._apply(action)
            world._history.append(action)
        return world

    # ----------------------------------------------------------- copy
    def clone(self) -> OracleState:
        other = OracleState.__new__(OracleState)
        other.game = self.game
        other._history = self._history[:]
        other._n = self._n
        other._phase = self._phase
        other._dealer = self._dealer
        other._round_number = self._round_number
        other._to_act = self._to_act
        other._hands = self._hands[:]
        other._oracle_cards = [cards[:] for cards in self._oracle_cards]
        other._kept = self._kept[:]
        other._chooser = self._chooser
        other._stack = self._stack  # never mutated, only replaced
        other._stack_pos = self._stack_pos
        other._discards = self._discards[:]
        other._leader = self._leader
        other._trick = self._trick[:]
        other._tricks = self._tricks[:]
        other._middle = self._middle[:]
        other._held = self._held[:]
        other._loser_holder = self._loser_holder[:]
        other._pending = self._pending
        other._round_scores = self._round_scores[:]
        other._totals = self._totals[:]
        other._revealed = self._revealed[:]
        other._event_log = self._event_log[:]
        other._unlogged = self._unlogged
        # The views' log entries made so far stay valid for the clone (events
        # are only appended): a server that clones before each move would
        # otherwise remake every entry of the game for every view.
        other._logs = {viewer: log[:] for viewer, log in self._logs.items()} if self._logs else {}
        other._resample_memo = None
        return other
