"""Fixed-size float tensors of what a seat knows, and the bounds of each game.

Every tensor is encoded from ``state.view(seat)``, the one source of what a
seat may know (``docs/architecture.md``), so it cannot carry a hidden card
that the view does not show; ``tests/research`` checks that a seat's tensors
are unchanged by ``resample_from_infostate(seat)``. The size depends only on
the game's options. Two tensors per game:

- the **observation** (what the seat sees now), and
- the **information state**: the observation followed by what perfect recall
  needs, as far as a fixed size allows (the round's plays in order, earlier
  rounds' results...). The information-state *string* (the view's canonical
  JSON, log included) is always exact.

Pieces are laid out in the order of the tables; ``k×m`` is a ``k`` by ``m``
block flattened row by row; *one-hot* rows are all zero when there is
nothing to show (no dealer yet, nobody to act, an empty trick slot). Counts and
scores are raw numbers. ``n`` is the number of players.

Each game's layout is documented in its own encoder module,
``oracles.games.<id>.encoding``, and found through the registry (``encoder_for``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from oracles.core.game import Game, State

Piece = tuple[str, tuple[int, ...]]


class Layout:
    """Named pieces of one flat float32 tensor."""

    def __init__(self, pieces: Sequence[Piece]) -> None:
        self.pieces = list(pieces)
        self.size = sum(int(np.prod(shape)) for _, shape in self.pieces)

    def new(self) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """A zero tensor and named, reshaped views of its pieces."""
        tensor = np.zeros(self.size, np.float32)
        return tensor, self.views(tensor)

    def views(self, tensor: np.ndarray) -> dict[str, np.ndarray]:
        result: dict[str, np.ndarray] = {}
        start = 0
        for name, shape in self.pieces:
            size = int(np.prod(shape))
            result[name] = tensor[start : start + size].reshape(shape)
            start += size
        return result


def one_hot(target: np.ndarray, index: int | None) -> None:
    if index is not None and 0 <= index < target.shape[-1]:
        target[index] = 1.0


@dataclass(frozen=True)
class Bounds:
    """Facts a framework needs that the game API does not state."""

    min_utility: float
    max_utility: float
    #: Largest chance outcome +1 once deals are drawn card by card.
    max_chance_outcomes: int
    #: Most steps once every deal is drawn card by card.
    max_game_length: int
    zero_sum: bool


class Encoder:
    """Observation and information-state tensors of one game (options fixed)."""

    observation_layout: Layout
    information_layout: Layout

    def __init__(self, game: Game) -> None:
        self.game = game
        self.n = game.num_players

    def encode(self, state: State, seat: int, perfect_recall: bool, out: dict[str, np.ndarray]) -> None:
        """Write the tensor of ``seat`` into the zeroed views ``out``."""
        view = state.view(seat)
        self._observation(view, out)
        if perfect_recall:
            self._information(view, out)

    def observation(self, state: State, seat: int) -> np.ndarray:
        tensor, views = self.observation_layout.new()
        self.encode(state, seat, False, views)
        return tensor

    def information_state(self, state: State, seat: int) -> np.ndarray:
        tensor, views = self.information_layout.new()
        self.encode(state, seat, True, views)
        return tensor

    def _observation(self, view: dict[str, Any], out: dict[str, np.ndarray]) -> None:
        raise NotImplementedError

    def _information(self, view: dict[str, Any], out: dict[str, np.ndarray]) -> None:
        raise NotImplementedError

    def bounds(self) -> Bounds:
        raise NotImplementedError

    def draw_label(self, state: State, step: int, item: int) -> str:
        """Text of the chance step that draws ``item`` into slot ``step`` of
        the node ``state`` is at (see ``State.chance_draws``)."""
        return f"draw {item}"

    def value_bound(self) -> float:
        """No entry of a tensor exceeds this in absolute value (scores,
        counts and the turn number are all bounded by the utilities or the
        game's length)."""
        bounds = self.bounds()
        return float(max(abs(bounds.min_utility), abs(bounds.max_utility), self.game.max_game_length()))


def encoder_for(game: Game) -> Encoder:
    """The tensor encoder of ``game``, declared by the game's parts."""
    from oracles.core.registry import game_part

    cls: type[Encoder] | None = game_part(game.id, "encoder")
    if cls is None:
        raise ValueError(f"no research encoder for game {game.id!r}")
    return cls(game)
