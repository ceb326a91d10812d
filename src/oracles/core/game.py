"""The game-agnostic API: :class:`Game` (static facts) and :class:`State`.

The shape follows OpenSpiel. A state is at a *chance node* (the deck is
shuffled, a dealer is drawn, ...), at a *decision node* of one seat, or
*terminal*. Every step of a game, chance included, is an integer action with a
text form in the game's notation (``docs/rules/<id>.md``), so a list of texts, a
*record*, replays a game exactly.

A whole deal is one chance action. Its integer is the deal packed with
:func:`oracles.core.codec.pack`: large, but a Python ``int`` does not mind.
Such chance nodes cannot list their outcomes (``chance_outcomes`` raises
:class:`ChanceNotEnumerableError`); ``sample_chance(rng)`` draws one.

What a game must implement (the abstract methods below; the public
``view``, ``string_to_action`` and ``apply_action`` check their arguments
and then call the game's own method, so a game never sees a bad seat, a
text that is not a string or an action that is not an integer):

=============================  ==============================================
``current_player``             seat to act, ``CHANCE`` or ``TERMINAL``
``legal_actions``              sorted legal actions of the seat to act
``_illegal_reason(a)``         why ``a`` is illegal here, or ``None``
``_apply(a)``                  perform a legal action (no checks)
``action_to_string(a)``        notation of ``a`` in this state
``_string_to_action(s)``       inverse, case-insensitive, ``NotationError``
``sample_chance(rng)``         draw a chance action
``scores`` / ``winners``       cumulative points / winning seats
``_view(seat)``                JSON-ready dict of what ``seat`` may know
                               (``None``: the public view), ``core.views``
``resample_from_infostate``    a full state consistent with a seat's view
``clone``                      an independent copy
=============================  ==============================================

Optional: ``chance_draws``, ``chance_from_draws`` and ``chance_draws_of``
describe a chance node that cannot be listed as a sequence of small uniform
draws without replacement (for research frameworks that need enumerable
chance; see :meth:`State.chance_draws`).
"""

from __future__ import annotations

import functools
import json
import operator
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from oracles.core.errors import ChanceNotEnumerableError, IllegalActionError, NotationError, SeatError
from oracles.core.options import Option, resolve_options

#: ``current_player()`` at a chance node (the same value as OpenSpiel's).
CHANCE = -1
#: ``current_player()`` once the game is over (the same value as OpenSpiel's).
TERMINAL = -4

RECORD_FORMAT = "oracles/1"

#: Longest action text ``string_to_action`` reads (a whole deal of the
#: largest game is far shorter); longer input is refused unread.
MAX_ACTION_TEXT = 4096


class Game(ABC):
    """A game with its options fixed: the factory of initial states.

    Subclasses set the class attributes and implement the abstract methods.
    ``options`` holds every option, validated and with defaults filled in.
    """

    #: Short id used by ``load_game`` and in records, e.g. ``"oracle"``.
    id: ClassVar[str]
    #: Human-readable name.
    title: ClassVar[str]
    #: The name on buttons and tabs, where the title is long ("" = the title).
    short_title: ClassVar[str] = ""
    #: One sentence that tells a newcomer what the game is (English; a
    #: front end translates it: the game marks it for the catalog).
    blurb: ClassVar[str] = ""
    #: The declared options, in resolution order (``players`` first).
    option_schema: ClassVar[tuple[Option, ...]]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: Whether every finished game's returns sum to zero (a duel's win/loss).
    zero_sum: ClassVar[bool] = False
    #: Whether each card in a hand has a name no other card shares (``R12``,
    #: ``fire-7``), so that a leaked card is a string the consistency suite
    #: can search the public view for.
    unique_card_names: ClassVar[bool] = False
    #: Whether a record's chance actions can be played again under other
    #: play ("the same deals at another table"): false where chance depends
    #: on the players' choices (Codename's shuffles follow the codes chosen).
    replayable_chance: ClassVar[bool] = True
    #: Option sets the shared consistency suite plays (main variants).
    test_option_sets: ClassVar[tuple[dict[str, Any], ...]] = ({},)

    def __init__(self, **options: Any) -> None:
        self.options: dict[str, Any] = resolve_options(self.id, self.option_schema, options)

    @classmethod
    def option_defaults(cls) -> dict[str, Any]:
        """All options with their default values (defaults that depend on
        other options are resolved against the other defaults)."""
        return resolve_options(cls.id, cls.option_schema, {})

    @functools.cached_property
    def num_players(self) -> int:
        # Cached: options never change after __init__, and states ask at every step.
        return int(self.options.get("players", self.min_players))

    @abstractmethod
    def num_distinct_actions(self) -> int:
        """Upper bound (exclusive) of every player action's integer."""

    @abstractmethod
    def max_game_length(self) -> int:
        """Most actions, chance included, a game can last."""

    def record_extra(self) -> dict[str, Any]:
        """Keys a record of this game carries beside its options, so that it
        replays the same later (Oracle: the digest of an edition read from a
        file, whose cards may change on disk). None by default."""
        return {}

    def record_mismatch(self, record: dict[str, Any]) -> str | None:
        """Why ``record`` would not replay as it was played with this game
        (its :meth:`record_extra` differs), or None."""
        return None

    def utility_bounds(self) -> tuple[float, float]:
        """The lowest and the highest value ``returns()`` can give a seat
        with these options (research frameworks need them up front)."""
        raise NotImplementedError(f"{self.id} does not state its utility bounds")

    @abstractmethod
    def new_initial_state(self) -> State:
        """The state before anything happened (usually a chance node)."""

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({opts})"


class State(ABC):
    """A position of a game, mutable through :meth:`apply_action`."""

    game: Game
    _history: list[int]

    def __init__(self, game: Game) -> None:
        self.game = game
        self._history = []

    # ----------------------------------------------------------- whose turn
    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, or ``CHANCE``, or ``TERMINAL``."""

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    @property
    def num_players(self) -> int:
        return self.game.num_players

    # ------------------------------------------------------------- actions
    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Sorted legal actions of the seat to act; empty at chance and
        terminal nodes."""

    @abstractmethod
    def _illegal_reason(self, action: int) -> str | None:
        """Why ``action`` cannot be applied here (chance nodes included), or
        ``None`` when it can."""

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Apply an action already known to be legal."""

    def apply_action(self, action: int) -> None:
        """Apply ``action``; raise :class:`IllegalActionError` (and change
        nothing) if it is not legal here."""
        if self.is_terminal():
            raise IllegalActionError("the game is over")
        if isinstance(action, bool) or not hasattr(type(action), "__index__"):
            raise IllegalActionError(f"an action is an integer, not {type(action).__name__}")
        action = operator.index(action)  # a NumPy integer is one too
        if action < 0:
            raise IllegalActionError(f"no action has a negative number ({action})")
        try:
            reason = self._illegal_reason(action)
        except (ValueError, OverflowError, IndexError, KeyError):
            # A number far outside what the game packs (a huge int, a deal
            # that decodes to nonsense) is simply not one of its actions.
            reason = "not an action of this game here"
        if reason is not None:
            raise IllegalActionError(reason)
        self._apply(action)
        self._history.append(action)

    def apply_trusted(self, action: int) -> None:
        """Apply an action taken from ``legal_actions()`` or
        ``sample_chance()`` without checking it again (simulation and search
        hot paths). Anything from outside goes through :meth:`apply_action`."""
        self._apply(action)
        self._history.append(action)

    def play_out_at_random(self, rng: random.Random) -> None:
        """Play on to the end: chance by ``sample_chance``, every seat a
        uniformly random legal action (:func:`oracles.core.rand.pick`).
        Search rollouts and random simulation spend most of their time
        here, so a game may do the same faster; it must make exactly the
        moves this loop makes with the same ``rng`` (the shared consistency
        checks compare the two)."""
        draw = rng.random
        while True:
            player = self.current_player()
            if player == TERMINAL:
                return
            if player == CHANCE:
                self.apply_trusted(self.sample_chance(rng))
            else:
                legal = self.legal_actions()
                self.apply_trusted(legal[int(draw() * len(legal))])

    def apply_string(self, text: str) -> int:
        """Read ``text`` in the game's notation and apply it; return the action."""
        action = self.string_to_action(text)
        self.apply_action(action)
        return action

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """The notation of ``action`` in this state (chance included)."""

    def string_to_action(self, text: str) -> int:
        """Read the notation of an action in this state (case-insensitive);
        raise :class:`NotationError` if it cannot be read."""
        if not isinstance(text, str):
            raise NotationError(f"an action is written as text, not {type(text).__name__}")
        if len(text) > MAX_ACTION_TEXT:
            raise notation_error(text[:40] + "...", f"longer than {MAX_ACTION_TEXT} characters")
        try:
            return self._string_to_action(text)
        except NotationError:
            raise
        except (ValueError, IndexError, KeyError, OverflowError):
            # A reader tripping on odd text ("bid ¹", thousands of digits) is
            # still just text that names no action here.
            raise notation_error(text[:40], "not an action of this game here") from None

    @abstractmethod
    def _string_to_action(self, text: str) -> int:
        """The game's reader behind :meth:`string_to_action` (``text`` is a
        string of bounded length)."""

    def history(self) -> list[int]:
        """Every action applied so far, chance included."""
        return list(self._history)

    def starter(self) -> int | None:
        """The seat that dealt the first round (or began the game), once
        chance has picked it; ``None`` before, and in games where chance
        picks no such seat. A rematch lets the next seat start.
        """
        return None

    def starter_chance(self, seat: int) -> int | None:
        """At the chance event that picks :meth:`starter`: the chance action
        that makes ``seat`` the starter; ``None`` at any other node."""
        return None

    # -------------------------------------------------------------- chance
    @abstractmethod
    def sample_chance(self, rng: random.Random) -> int:
        """At a chance node: draw a chance action with the game's odds
        (:meth:`check_chance` first: one error for every game elsewhere)."""

    def check_chance(self, rng: object) -> None:
        """Raise :class:`IllegalActionError` unless this is a chance node
        and ``rng`` a ``random.Random``: what each game's
        :meth:`sample_chance` asks first."""
        self._require_chance_node()
        if not isinstance(rng, random.Random):
            raise IllegalActionError(f"chance is drawn with a random.Random, not {type(rng).__name__}")

    def _require_chance_node(self) -> None:
        """Raise :class:`IllegalActionError` unless this is a chance node."""
        if not self.is_chance_node():
            if self.is_terminal():
                raise IllegalActionError("the game is over: no chance is left to draw")
            raise IllegalActionError(f"no chance to draw here: seat {self.current_player()} is to act")

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(action, probability)`` pairs at a chance node, when they can
        be listed; a whole deal cannot. Asked elsewhere, an
        :class:`IllegalActionError` says it is no chance node (a seat's
        turn was "too many to list")."""
        self._require_chance_node()
        raise ChanceNotEnumerableError("the outcomes of this chance node are too many to list")

    # ------------------------------------------------- chance, step by step
    # A whole deal is one action, too many to list. Research frameworks
    # (OpenSpiel) need enumerable chance, so a game may describe such a node
    # as a sequence of small draws: ``slots`` items drawn one by one,
    # uniformly without replacement, from a multiset of item ids. Drawing so
    # and packing the result with ``chance_from_draws`` must give the same
    # distribution as ``sample_chance``. ``chance_draws_of`` goes back: one
    # drawing order that packs to a given chance action.

    def chance_draws(self) -> tuple[list[int], int] | None:
        """At a chance node that ``chance_outcomes`` cannot list: the
        multiset of item ids drawn from (sorted, repeats allowed) and how
        many slots are filled by drawing one by one, uniformly without
        replacement. ``None`` where ``chance_outcomes`` lists the node (and
        the default, for games without the hook)."""
        return None

    def chance_from_draws(self, drawn: Sequence[int]) -> int:
        """The chance action for the items drawn in this order (one per
        slot), at a node where :meth:`chance_draws` is not ``None``."""
        raise ChanceNotEnumerableError("this chance node cannot be drawn step by step")

    def chance_draws_of(self, action: int) -> list[int]:
        """A drawing order that :meth:`chance_from_draws` packs to
        ``action`` (its inverse), at a node where :meth:`chance_draws` is
        not ``None``."""
        raise ChanceNotEnumerableError("this chance node cannot be drawn step by step")

    # ------------------------------------------------------------- results
    @abstractmethod
    def scores(self) -> list[float]:
        """Game points per seat, cumulative over the rounds played."""

    @abstractmethod
    def winners(self) -> list[int]:
        """Winning seats (ties share); empty while the game goes on."""

    def returns(self) -> list[float]:
        """OpenSpiel-style utilities: the scores."""
        return list(self.scores())

    def early_choices(self, seat: int) -> list[int]:
        """The actions ``seat`` may already choose though it is not yet to
        act: a choice the rulebook has everyone make at once, which the
        engine takes one seat at a time (Oracle's keep). Each must be legal
        when the seat's turn comes, whatever the others choose meanwhile, and
        choosing it early must tell nobody anything. Empty by default."""
        return []

    # ---------------------------------------------------------- knowledge
    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may know, as a JSON-serializable dict in the
        shared schema (:mod:`oracles.core.views`); ``None`` gives the public
        view, what a spectator sees. It includes what the seat observed of
        each action, in order, so two histories look the same to a seat
        exactly when their views do. A seat outside ``0..players-1`` raises
        :class:`SeatError`."""
        return self._view(self.check_seat(seat, allow_public=True))

    @abstractmethod
    def _view(self, seat: int | None) -> dict[str, Any]:
        """The game's view behind :meth:`view` (``seat`` already checked)."""

    def check_seat(self, seat: object, allow_public: bool = False) -> Any:
        """``seat`` if it is a seat of this game (or ``None`` where the
        public view is meant), else :class:`SeatError`."""
        if seat is None and allow_public:
            return None
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.num_players:
            small = isinstance(seat, int) and not isinstance(seat, bool) and abs(seat) < 10**9
            shown = repr(seat) if small or isinstance(seat, bool) else type(seat).__name__
            raise SeatError(f"no seat {shown} in a game of {self.num_players} players")
        return seat

    def information_state_string(self, seat: int) -> str:
        """A canonical text of :meth:`view`: equal exactly when the seat
        cannot tell the two states apart."""
        return json.dumps(self.view(self.check_seat(seat)), sort_keys=True, separators=(",", ":"))

    def resample_from_infostate(self, seat: int, rng: random.Random) -> State:
        """A full state, drawn at random among those ``seat`` cannot tell
        from this one, whose history is a legal game."""
        if not isinstance(rng, random.Random):
            raise IllegalActionError(f"a world is drawn with a random.Random, not {type(rng).__name__}")
        return self._resample(self.check_seat(seat), rng)

    @abstractmethod
    def _resample(self, seat: int, rng: random.Random) -> State:
        """The game's resampler behind :meth:`resample_from_infostate`."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy."""

    # ------------------------------------------------------------- records
    def record(self) -> dict[str, Any]:
        """This game as a record (``docs/architecture.md``, Records)."""
        replay = self.game.new_initial_state()
        texts: list[str] = []
        for action in self._history:
            texts.append(replay.action_to_string(action))
            replay.apply_trusted(action)
        return {
            "format": RECORD_FORMAT,
            "game": self.game.id,
            "options": dict(self.game.options),
            "actions": texts,
            **self.game.record_extra(),
        }

    def __str__(self) -> str:
        return f"<{self.game.id} state after {len(self._history)} actions>"


def notation_error(text: str, why: str) -> NotationError:
    """A uniform "cannot read" error for ``string_to_action``."""
    return NotationError(f"cannot read {text!r}: {why}", why=why)
