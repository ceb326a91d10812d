"""The consistency checks themselves must catch broken games."""

from __future__ import annotations

import random
from typing import Any

import pytest
from toygame import FOLD, ToyGame, ToyState

from oracles.testing import check_game


class LeakyState(ToyState):
    """Shows the opponent's card before the showdown."""

    def _view(self, seat: int | None) -> dict[str, Any]:
        view = super()._view(seat)
        view["other"] = self.cards[1 - seat] if self.cards and seat is not None else None
        return view

    def clone(self) -> LeakyState:
        twin = LeakyState(self.game)  # type: ignore[arg-type]
        twin.cards, twin.moves, twin._history = list(self.cards), list(self.moves), list(self._history)
        return twin


class LeakyGame(ToyGame):
    def new_initial_state(self) -> LeakyState:
        return LeakyState(self)


class SharedCloneState(ToyState):
    def clone(self) -> SharedCloneState:
        twin = SharedCloneState(self.game)  # type: ignore[arg-type]
        twin.cards, twin.moves, twin._history = self.cards, self.moves, self._history
        return twin


class SharedCloneGame(ToyGame):
    def new_initial_state(self) -> SharedCloneState:
        return SharedCloneState(self)


class UnsortedState(ToyState):
    def legal_actions(self) -> list[int]:
        return [FOLD, 0] if self.current_player() >= 0 else []


class UnsortedGame(ToyGame):
    def new_initial_state(self) -> UnsortedState:
        return UnsortedState(self)


class ShortGame(ToyGame):
    def max_game_length(self) -> int:
        return 2


class PeekingResampleState(ToyState):
    """Resamples the other card even after the showdown revealed it."""

    def _resample(self, seat: int, rng: random.Random) -> ToyState:
        world = ToyState(self.game)  # type: ignore[arg-type]
        if self.cards:
            mine = self.cards[seat]
            other = rng.choice([c for c in range(1, 6) if c != mine])
            world.apply_action(
                world.string_to_action(f"deal {mine} / {other}" if seat == 0 else f"deal {other} / {mine}")
            )
        for move in self.moves:
            world.apply_action(move)
        return world


class PeekingResampleGame(ToyGame):
    def new_initial_state(self) -> PeekingResampleState:
        return PeekingResampleState(self)


class SchemaLessState(ToyState):
    """A view without the shared keys."""

    def _view(self, seat: int | None) -> dict[str, Any]:
        view = super()._view(seat)
        del view["to_act"]
        return view


class SchemaLessGame(ToyGame):
    def new_initial_state(self) -> SchemaLessState:
        return SchemaLessState(self)


class PublicHandState(ToyState):
    """The public view shows seat 0's card."""

    def _view(self, seat: int | None) -> dict[str, Any]:
        view = super()._view(0 if seat is None else seat)
        view["seat"] = seat
        return view


class PublicHandGame(ToyGame):
    def new_initial_state(self) -> PublicHandState:
        return PublicHandState(self)


class PublicCardInLogState(ToyState):
    """The public view hides the hand but logs seat 1's dealt card."""

    def _view(self, seat: int | None) -> dict[str, Any]:
        view = super()._view(seat)
        if seat is None and self.cards:
            view["log"][0]["card"] = str(self.cards[1])
        return view


class PublicCardInLogGame(ToyGame):
    def new_initial_state(self) -> PublicCardInLogState:
        return PublicCardInLogState(self)


class BadSeqState(ToyState):
    """Log events numbered from 1, not by their index in the record."""

    def _view(self, seat: int | None) -> dict[str, Any]:
        view = super()._view(seat)
        for event in view["log"]:
            event["seq"] += 1
        return view


class BadSeqGame(ToyGame):
    def new_initial_state(self) -> BadSeqState:
        return BadSeqState(self)


class OwnPlayoutState(ToyState):
    """Its own random playout picks the last legal action, not a random one."""

    def play_out_at_random(self, rng: random.Random) -> None:
        while not self.is_terminal():
            if self.is_chance_node():
                self.apply_trusted(self.sample_chance(rng))
            else:
                rng.random()
                self.apply_trusted(self.legal_actions()[-1])

    def clone(self) -> OwnPlayoutState:
        twin = OwnPlayoutState(self.game)  # type: ignore[arg-type]
        twin.cards, twin.moves, twin._history = list(self.cards), list(self.moves), list(self._history)
        return twin


class OwnPlayoutGame(ToyGame):
    def new_initial_state(self) -> OwnPlayoutState:
        return OwnPlayoutState(self)


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (SchemaLessGame(), "no 'to_act' key"),
        (PublicHandGame(), "public view shows a hand"),
        (PublicCardInLogGame(), "public view"),
        (BadSeqGame(), "has seq"),
        (LeakyGame(), "changed its view"),
        (SharedCloneGame(), "changed a clone"),
        (UnsortedGame(), "not sorted"),
        (ShortGame(), "longer than max_game_length"),
        (PeekingResampleGame(), "changed its view"),
        (OwnPlayoutGame(), "play_out_at_random made other moves"),
    ],
)
def test_check_game_catches(toy_registered: str, game: ToyGame, message: str) -> None:
    with pytest.raises(AssertionError, match=message):
        check_game(game, playouts=20, seed=1, resample_every=1)
