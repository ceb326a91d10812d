"""Every game as an OpenSpiel Python game (``pip install 'oracles[research]'``).

Importing this module registers ``python_oracles_oracle``,
``python_oracles_inrah`` and ``python_oracles_codename`` with pyspiel::

    import pyspiel
    import oracles.research.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("python_oracles_oracle", {"players": 3, "rounds": 1})

**Parameters** are the game's options, with the defaults of
``option_defaults()``. An integer option whose default depends on other
options (Oracle's ``rounds``; Inrah's ``elements`` and ``rounds``) has the
parameter default ``-1``, meaning "the game's default for the other
options"; ``game.get_parameters()`` then shows the resolved value.

**Game type**: sequential, explicit stochastic chance, imperfect information,
terminal rewards, information-state and observation strings and tensors;
general-sum, except Codename (zero-sum: +1 / -1, a draw 0 / 0). Returns are
the game's ``scores()`` at the end (0 before).

**Chance, step by step.** OpenSpiel needs chance nodes that list their
outcomes, but a whole deal is one chance action of the game API. Where
``State.chance_draws()`` describes a node as draws, the adapter plays it as
that many chance steps, each drawing one item uniformly among those left
(the item id is the chance action; outcomes with equal ids are merged, with
their count as weight), and applies ``chance_from_draws`` to the underlying
state after the last one. Oracle's deal thus becomes one step per card
(outcome: the seat that gets it), its Oracle cards one step per card (the
seat, or ``n`` for set aside; draft: the card ids of the hands then the
stack), Inrah's deal one step per card (card ids, seat 0's hand first), and
Codename's shuffles one step per card (its symbol); their action strings
say what goes where (``deal R5 to P2``). ``max_game_length`` and
``max_chance_outcomes`` count these steps. While a deal is being drawn the
seats see nothing of it but how many steps were taken; the deal shows in
their views once complete.

**Observations** come from ``make_py_observer``: the information state
(``perfect_recall=True``) is the view's canonical JSON
(``State.information_state_string``) and the tensor of
:mod:`oracles.research.encoding`; the observation (default) is the view
without its log and the observation tensor. Only the observing seat's private
information is supported (``PrivateInfoType.SINGLE_PLAYER``).

``state.resample_from_infostate(player, sampler)`` draws a world with the
game's own resampling (``sampler`` is any callable returning floats in
[0, 1), e.g. ``pyspiel.UniformProbabilitySampler(0., 1.)``; it seeds a
``random.Random``) and replays its history through the adapter; in a deal
under way, the steps drawn so far are drawn afresh (no seat has seen them).
States pickle (OpenSpiel's ``serialize``) as their game, options and
history, and games as their string.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from oracles.core.errors import OptionError
from oracles.core.game import CHANCE, Game, State
from oracles.core.registry import game_class, game_ids, load_game
from oracles.research.encoding import Encoder, encoder_for

PREFIX = "python_oracles_"
#: Parameter value of an integer option whose default depends on others.
AUTO = -1


def short_name(game_id: str) -> str:
    """``"oracle"`` -> ``"python_oracles_oracle"``."""
    return PREFIX + game_id


def parameter_specification(game_id: str) -> dict[str, Any]:
    """The pyspiel parameters of a game: its options with their defaults."""
    cls = game_class(game_id)
    defaults = cls.option_defaults()
    spec: dict[str, Any] = {}
    for option in cls.option_schema:
        spec[option.name] = AUTO if callable(option.default) and option.kind is int else defaults[option.name]
    return spec


def options_from_parameters(game_id: str, params: dict[str, Any] | None) -> dict[str, Any]:
    """Game options from pyspiel parameters (``AUTO`` values left to the game)."""
    cls = game_class(game_id)
    auto = {o.name for o in cls.option_schema if callable(o.default) and o.kind is int}
    return {k: v for k, v in (params or {}).items() if not (k in auto and v == AUTO)}


def game_type(game_id: str) -> Any:
    cls = game_class(game_id)
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"Python oracles {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if cls.zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_specification(game_id),
    )


class _Core:
    """The underlying game state and the chance steps drawn so far.

    Kept in one attribute so that OpenSpiel's clone (a ``deepcopy`` of the
    Python attributes) is the game's own fast ``clone``, and pickled as game,
    options and history.
    """

    __slots__ = ("drawn", "remaining", "slots", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        self.drawn: list[int] = []
        #: item -> count left, while a node is drawn step by step (else None).
        self.remaining: dict[int, int] | None = None
        self.slots = 0

    def begin_draws(self) -> bool:
        """Set up step-by-step drawing if the state is at such a node."""
        if self.remaining is not None:
            return True
        if not self.state.is_chance_node():
            return False
        draws = self.state.chance_draws()
        if draws is None:
            return False
        items, self.slots = draws
        remaining: dict[int, int] = {}
        for item in items:
            remaining[item] = remaining.get(item, 0) + 1
        self.remaining = remaining
        self.drawn = []
        return True

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        other = _Core(self.state.clone())
        other.drawn = list(self.drawn)
        other.remaining = dict(self.remaining) if self.remaining is not None else None
        other.slots = self.slots
        return other

    def __getstate__(self) -> dict[str, Any]:
        return {
            "game": self.state.game.id,
            "options": dict(self.state.game.options),
            "history": self.state.history(),
            "drawn": list(self.drawn),
        }

    def __setstate__(self, data: dict[str, Any]) -> None:
        state = load_game(data["game"], **data["options"]).new_initial_state()
        for action in data["history"]:
            state.apply_action(action)
        self.state = state
        self.drawn = []
        self.remaining = None
        self.slots = 0
        if data["drawn"]:
            self.begin_draws()
            for item in data["drawn"]:
                self.draw(item)

    def draw(self, item: int) -> None:
        assert self.remaining is not None
        if self.remaining.get(item, 0) <= 0:
            raise ValueError(f"chance outcome {item} is not available here")
        self.remaining[item] -= 1
        self.drawn.append(item)
        if len(self.drawn) == self.slots:
            action = self.state.chance_from_draws(self.drawn)
            self.drawn = []
            self.remaining = None
            self.slots = 0
            self.state.apply_trusted(action)


class OraclesGame(pyspiel.Game):  # type: ignore[misc]
    """A registered game of this project as a pyspiel game."""

    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.core: Game = load_game(self.game_id, **options_from_parameters(self.game_id, params))
        self.encoder: Encoder = encoder_for(self.core)
        bounds = self.encoder.bounds()
        if max(bounds.max_game_length, bounds.max_chance_outcomes, self.core.num_distinct_actions()) >= 2**31:
            # pyspiel counts in 32 bits: a TypeError from deep inside otherwise.
            raise OptionError(
                f"{self.game_id} with options {dict(self.core.options)} can last "
                f"{bounds.max_game_length} steps, more than OpenSpiel counts (2**31)"
            )
        info = pyspiel.GameInfo(
            num_distinct_actions=self.core.num_distinct_actions(),
            max_chance_outcomes=bounds.max_chance_outcomes,
            num_players=self.core.num_players,
            min_utility=bounds.min_utility,
            max_utility=bounds.max_utility,
            utility_sum=0.0 if bounds.zero_sum else None,
            max_game_length=bounds.max_game_length,
        )
        super().__init__(game_type(self.game_id), info, dict(self.core.options))

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # Made again from its string in the other process: pyspiel's own
        # pickling would skip __init__, which builds the game's core.
        return (game_from_string, (str(self),))

    def new_initial_state(self) -> OraclesState:
        return OraclesState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> Observer:
        return Observer(self, iig_obs_type, params)


class OraclesState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state wrapping a game state (see the module docstring)."""

    def __init__(self, game: OraclesGame) -> None:
        super().__init__(game)
        self._core = _Core(game.core.new_initial_state())

    @property
    def core_state(self) -> State:
        """The underlying :class:`oracles.core.game.State` (do not mutate)."""
        return self._core.state

    def pending_draws(self) -> int:
        """Chance steps taken of the deal being drawn (0 if none)."""
        return len(self._core.drawn)

    # ------------------------------------------------------------- turn
    def current_player(self) -> int:
        return self._core.state.current_player()

    def is_terminal(self) -> bool:
        return self._core.state.is_terminal()

    def _legal_actions(self, player: int) -> list[int]:
        return self._core.state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        core = self._core
        if not core.state.is_chance_node():
            return []
        if not core.begin_draws():
            return core.state.chance_outcomes()
        assert core.remaining is not None
        total = sum(core.remaining.values())
        return [(item, count / total) for item, count in sorted(core.remaining.items()) if count]

    def _apply_action(self, action: int) -> None:
        core = self._core
        action = int(action)
        if core.state.is_chance_node() and core.begin_draws():
            core.draw(action)
        else:
            core.state.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        core = self._core
        if player == CHANCE and core.state.is_chance_node() and core.begin_draws():
            game: OraclesGame = self.get_game()
            return game.encoder.draw_label(core.state, len(core.drawn), int(action))
        try:
            return core.state.action_to_string(int(action))
        except Exception:
            return f"action {action}"

    # ----------------------------------------------------------- results
    def returns(self) -> list[float]:
        state = self._core.state
        if not state.is_terminal():
            return [0.0] * state.num_players
        return [float(x) for x in state.returns()]

    def rewards(self) -> list[float]:
        return self.returns()

    # --------------------------------------------------------- knowledge
    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float] | None = None):  # type: ignore[no-untyped-def]
        """A state ``player_id`` cannot tell from this one (see the module docstring)."""
        if callable(probability_sampler):
            seed = int(probability_sampler() * 2**53)
        else:
            seed = random.getrandbits(53)
        world = self._core.state.resample_from_infostate(player_id, random.Random(seed))
        result = self.get_game().new_initial_state()
        for action in world.history():
            inner = result._core.state
            if inner.is_chance_node() and inner.chance_draws() is not None:
                for item in inner.chance_draws_of(action):
                    result.apply_action(item)
            else:
                result.apply_action(action)
        # A deal under way: its cards drawn so far are no seat's knowledge
        # (the information state counts them, nothing more), so the world
        # draws them afresh; copied, they were the other seats' true cards
        # (and in Codename could be unavailable in the new world).
        rng = random.Random(seed ^ 0x5EED)
        for _ in self._core.drawn:
            outcomes = result.chance_outcomes()
            result.apply_action(_pick_outcome(outcomes, rng))
        return result

    def __str__(self) -> str:
        state = self._core.state
        record = state.record()
        text = " ; ".join(record["actions"])
        if self._core.drawn:
            text += f" ; (drawing: {' '.join(map(str, self._core.drawn))})"
        return text


def _pick_outcome(outcomes: list[tuple[int, float]], rng: random.Random) -> int:
    """A chance outcome drawn with its probability."""
    point, total = rng.random(), 0.0
    for action, probability in outcomes:
        total += probability
        if point < total:
            return action
    return outcomes[-1][0]


def _suffix(core: _Core) -> str:
    return f" [draws {len(core.drawn)}]" if core.drawn else ""


class Observer:
    """pyspiel's PyObserver interface: ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def __init__(self, game: OraclesGame, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError("only observations with public information and the seat's own private one")
        self.perfect_recall: bool = bool(iig_obs_type.perfect_recall)
        self.encoder = game.encoder
        layout = self.encoder.information_layout if self.perfect_recall else self.encoder.observation_layout
        self.tensor: np.ndarray
        self.tensor, self.dict = layout.new()

    def set_from(self, state: OraclesState, player: int) -> None:
        self.tensor.fill(0.0)
        self.encoder.encode(state._core.state, player, self.perfect_recall, self.dict)

    def string_from(self, state: OraclesState, player: int) -> str:
        core = state._core
        if self.perfect_recall:
            return core.state.information_state_string(player) + _suffix(core)
        view = core.state.view(player)
        view.pop("log", None)
        return json.dumps(view, sort_keys=True, separators=(",", ":")) + _suffix(core)


def game_from_string(text: str) -> Any:
    """``pyspiel.load_game(text)`` with this project's games registered (the
    unpickling of a game)."""
    return pyspiel.load_game(text)


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for game_id in game_ids():
        name = short_name(game_id)
        if name in registered:
            continue
        cls = type(f"OraclesGame_{game_id}", (OraclesGame,), {"game_id": game_id, "__module__": __name__})
        # A module attribute, so that pickle finds the class of a game (a
        # game handed to another process, by multiprocessing or Ray).
        globals()[cls.__name__] = cls
        pyspiel.register_game(game_type(game_id), cls)


_register()
