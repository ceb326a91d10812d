"""A tiny hidden-information game that exercises the core API on its own.

Two seats get one card each from 1..5 (one chance action: ``deal 3 / 5``).
Seat 0, then seat 1, says ``bet`` or ``fold``; a seat that folds scores -1,
and if both bet the higher card scores +2 and the lower -2 (equal: 0).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from oracles.core.codec import pack, split_groups, unpack
from oracles.core.game import CHANCE, TERMINAL, Game, State, notation_error
from oracles.core.options import Option
from oracles.core.parts import GameParts

BET, FOLD = 0, 1
NAMES = ("bet", "fold")


class ToyGame(Game):
    id = "toy"
    title = "Toy high card"
    unique_card_names = True
    zero_sum = False
    option_schema: ClassVar[tuple[Option, ...]] = (
        Option("players", int, 2, "number of seats", minimum=2, maximum=2),
        Option("top", int, 5, "highest card", minimum=2, maximum=9),
    )
    min_players = 2
    max_players = 2

    def num_distinct_actions(self) -> int:
        return 2

    def max_game_length(self) -> int:
        return 3

    def new_initial_state(self) -> ToyState:
        return ToyState(self)


class ToyState(State):
    def __init__(self, game: ToyGame) -> None:
        super().__init__(game)
        self.cards: list[int] = []
        self.moves: list[int] = []

    def current_player(self) -> int:
        if not self.cards:
            return CHANCE
        if len(self.moves) == 2 or FOLD in self.moves:
            return TERMINAL
        return len(self.moves)

    def legal_actions(self) -> list[int]:
        return [BET, FOLD] if self.current_player() >= 0 else []

    def _illegal_reason(self, action: int) -> str | None:
        if not self.cards:
            try:
                a, b = unpack(action, 10, 2)
            except ValueError:
                return "not a deal"
            top = self.game.options["top"]
            if not (1 <= a <= top and 1 <= b <= top) or a == b:
                return "a deal is two different cards from 1 to top"
            return None
        return None if action in (BET, FOLD) else f"no action {action}"

    def _apply(self, action: int) -> None:
        if not self.cards:
            self.cards = unpack(action, 10, 2)
        else:
            self.moves.append(action)

    def action_to_string(self, action: int) -> str:
        if not self.cards:
            a, b = unpack(action, 10, 2)
            return f"deal {a} / {b}"
        return NAMES[action]

    def _string_to_action(self, text: str) -> int:
        words = text.strip().lower()
        if not self.cards:
            if not words.startswith("deal "):
                raise notation_error(text, "expected 'deal A / B'")
            groups = split_groups(words[5:])
            if len(groups) != 2 or any(len(g) != 1 or not g[0].isdigit() for g in groups):
                raise notation_error(text, "expected 'deal A / B'")
            return pack([int(groups[0][0]) % 10, int(groups[1][0]) % 10], 10)
        if words in NAMES:
            return NAMES.index(words)
        raise notation_error(text, "expected bet or fold")

    def sample_chance(self, rng: random.Random) -> int:
        a, b = rng.sample(range(1, self.game.options["top"] + 1), 2)
        return pack([a, b], 10)

    def scores(self) -> list[float]:
        if self.current_player() != TERMINAL:
            return [0, 0]
        if FOLD in self.moves:
            folder = self.moves.index(FOLD)
            return [-1 if seat == folder else 0 for seat in range(2)]
        a, b = self.cards
        return [2, -2] if a > b else [-2, 2]

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        s = self.scores()
        best = max(s)
        return [i for i in range(2) if s[i] == best]

    def _view(self, seat: int | None) -> dict[str, Any]:
        showdown = self.is_terminal() and FOLD not in self.moves
        player = self.current_player()
        log: list[dict[str, Any]] = []
        if self.cards:
            # The deal: a seat sees its own card, the public view none.
            deal: dict[str, Any] = {"seq": 0, "seat": None, "kind": "deal"}
            if seat is not None:
                deal["card"] = self.cards[seat]
            log.append(deal)
        log += [{"seq": i + 1, "seat": i, "kind": NAMES[m]} for i, m in enumerate(self.moves)]
        return {
            "game": self.game.id,
            "seat": seat,
            "players": 2,
            "phase": "deal" if not self.cards else "over" if player == TERMINAL else "bet",
            "to_act": player if player >= 0 else None,
            "terminal": player == TERMINAL,
            "scores": self.scores(),
            "winners": self.winners(),
            "log": log,
            "hand": [self.cards[seat]] if seat is not None and self.cards else None,
            "showdown": list(self.cards) if showdown else None,
        }

    def _resample(self, seat: int, rng: random.Random) -> ToyState:
        world = ToyState(self.game)  # type: ignore[arg-type]
        if self.cards:
            mine = self.cards[seat]
            if self.is_terminal() and FOLD not in self.moves:
                other = self.cards[1 - seat]
            else:
                other = rng.choice([c for c in range(1, self.game.options["top"] + 1) if c != mine])
            cards = [mine, other] if seat == 0 else [other, mine]
            world.apply_action(pack(cards, 10))
        for move in self.moves:
            world.apply_action(move)
        return world

    def clone(self) -> ToyState:
        twin = ToyState(self.game)  # type: ignore[arg-type]
        twin.cards = list(self.cards)
        twin.moves = list(self.moves)
        twin._history = list(self._history)
        return twin


#: Registered in tests as game "toy" (see ``tests/conftest.py``).
PARTS = GameParts(game=":ToyGame")
