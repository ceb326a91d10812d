"""Tensors of what a seat knows in this game, for the research adapters.

See :mod:`oracles.research.encoding` for the conventions (pieces in table
order, one-hot rows, raw counts); this module holds the layout of
this game.

**Codename: Oracle** (``codename``; 20 cells ``a1``..``e4`` as
``column * 4 + row``, 5 symbols star square wave circle cross)

======================  ===========  ===============================================
piece                   size         content
======================  ===========  ===============================================
``seat``                2            one-hot
``to_act``              2            one-hot: the seat to act
``terminal``            1            the game is over
``turn``                1            the turn number
``decision``            16           one-hot: the pending task (code respond block
                                     codeswap recode pick place fill target take name
                                     shuffle first reshuffle scramble) or a plain turn
``decision_player``     2            one-hot: who decides
``decision_column``     5            one-hot: the struck column
``decision_symbol``     5            one-hot: the strike's symbol
``decision_cells``      20           cells to place, fill or scramble
``decision_rows``       4            rows of the shields that may block
``life``                2            own, opponent's
``used``                5            peek, swap, replace, guess used; reveals this turn
``field``               20×7         own field: symbol one-hot, unknown, empty
``face_up``             20           own face-up cells
``code``                5×5          own code row
``hand``                5            own hand, per symbol
``aside``               5            own cards set aside, per symbol
``piles``               2            own deck and discard pile sizes
``discard_known``       5            own known discards, per symbol
``opp_field``           20×7         the opponent's field as far as known
``opp_face_up``         20
``opp_code``            5×6          his code as known: symbol one-hot, unknown
``opp_code_excluded``   5×5          symbols the seat knows a slot does not hold
``opp_counts``          4            his hand, aside, deck and discard sizes
``opp_discard_known``   5            his known discards, per symbol
======================  ===========  ===============================================

Information state adds ``log_counts`` (2×32: per player an event is about, how
many events of each kind it saw, in the order of
:data:`oracles.games.codename.views.EVENT_KINDS`). The game is long and its knowledge is already summarised
in the view (what is known of every card), so this is not perfect recall; the
information-state string is.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from oracles.core.game import Game, State
from oracles.games.codename.actions import CELL_NAMES, COLUMNS, SYMBOL_INDEX, SYMBOLS
from oracles.games.codename.tasks import TASK_NAMES
from oracles.games.codename.views import EVENT_KINDS
from oracles.research.encoding import Bounds, Encoder, Layout, Piece, one_hot

# The pending decision kinds of Codename's views, and its ordinary turn.
_CODENAME_DECISIONS = (*TASK_NAMES, "turn")
_EVENT_INDEX = {kind: index for index, kind in enumerate(EVENT_KINDS)}


class CodenameEncoder(Encoder):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self._symbol = SYMBOL_INDEX
        self._cell = {name: index for index, name in enumerate(CELL_NAMES)}
        self._columns = COLUMNS
        self._max_length = game.max_game_length()
        obs: list[Piece] = [
            ("seat", (2,)),
            ("to_act", (2,)),
            ("terminal", (1,)),
            ("turn", (1,)),
            ("decision", (len(_CODENAME_DECISIONS),)),
            ("decision_player", (2,)),
            ("decision_column", (5,)),
            ("decision_symbol", (5,)),
            ("decision_cells", (20,)),
            ("decision_rows", (4,)),
            ("life", (2,)),
            ("used", (5,)),
            ("field", (20, 7)),
            ("face_up", (20,)),
            ("code", (5, 5)),
            ("hand", (5,)),
            ("aside", (5,)),
            ("piles", (2,)),
            ("discard_known", (5,)),
            ("opp_field", (20, 7)),
            ("opp_face_up", (20,)),
            ("opp_code", (5, 6)),
            ("opp_code_excluded", (5, 5)),
            ("opp_counts", (4,)),
            ("opp_discard_known", (5,)),
        ]
        self.observation_layout = Layout(obs)
        self.information_layout = Layout([*obs, ("log_counts", (2, len(EVENT_KINDS)))])

    def _field(self, field: dict[str, str | None], target: np.ndarray) -> None:
        for name, symbol in field.items():
            cell = self._cell[name]
            if symbol is None:
                target[cell, 5] = 1.0
            elif symbol == "-":
                target[cell, 6] = 1.0
            else:
                target[cell, self._symbol[symbol]] = 1.0

    def _observation(self, view: dict[str, Any], out: dict[str, np.ndarray]) -> None:
        symbol = self._symbol
        seat = view["seat"]
        one_hot(out["seat"], seat)
        one_hot(out["to_act"], view["to_act"])
        out["terminal"][0] = float(view["terminal"])
        out["turn"][0] = view["turn"]
        decision = view["decision"]
        if decision is not None:
            out["decision"][_CODENAME_DECISIONS.index(decision["kind"])] = 1.0
            one_hot(out["decision_player"], decision["player"])
            if "column" in decision:
                out["decision_column"][self._columns.index(decision["column"])] = 1.0
            if "symbol" in decision:
                out["decision_symbol"][symbol[decision["symbol"]]] = 1.0
            for name in decision.get("cells", ()):
                out["decision_cells"][self._cell[name]] = 1.0
            for row in decision.get("rows", ()):
                out["decision_rows"][row - 1] = 1.0
        out["life"][:] = [view["life"][seat], view["life"][1 - seat]]
        used = view["used"]
        out["used"][:] = [used["peek"], used["swap"], used["replace"], used["guess"], used["reveals"]]
        own, opp = view["sides"][seat], view["sides"][1 - seat]
        self._field(own["field"], out["field"])
        for name in own["face_up"]:
            out["face_up"][self._cell[name]] = 1.0
        for slot, name in enumerate(own["code"]):
            out["code"][slot, symbol[name]] = 1.0
        for name in own["hand"]:
            out["hand"][symbol[name]] += 1.0
        for name in own["aside"]:
            out["aside"][symbol[name]] += 1.0
        out["piles"][:] = [own["deck"], own["discard"]]
        for name, count in own["discard_known"].items():
            out["discard_known"][symbol[name]] = count
        self._field(opp["field"], out["opp_field"])
        for name in opp["face_up"]:
            out["opp_face_up"][self._cell[name]] = 1.0
        for slot, name in enumerate(opp["code"]):
            out["opp_code"][slot, 5 if name is None else symbol[name]] = 1.0
        for slot, names in enumerate(opp["code_excluded"]):
            for name in names:
                out["opp_code_excluded"][slot, symbol[name]] = 1.0
        out["opp_counts"][:] = [opp["hand_count"], opp["aside_count"], opp["deck"], opp["discard"]]
        for name, count in opp["discard_known"].items():
            out["opp_discard_known"][symbol[name]] = count

    def _information(self, view: dict[str, Any], out: dict[str, np.ndarray]) -> None:
        counts = out["log_counts"]
        for event in view["log"]:
            player = event.get("player")
            if player is not None:
                counts[player, _EVENT_INDEX[event["kind"]]] += 1.0

    def draw_label(self, state: State, step: int, item: int) -> str:
        decision = state.view(0)["decision"]
        kind = decision["kind"] if decision else "draw"
        return f"{kind} {step + 1}: {SYMBOLS[item]}"

    def bounds(self) -> Bounds:
        # A reshuffle arranges at most a whole deck; every chance action
        # becomes at most 50 draws.
        low, high = self.game.utility_bounds()
        return Bounds(low, high, 5, self._max_length * 50, self.game.zero_sum)
