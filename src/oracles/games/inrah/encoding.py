"""Tensors of what a seat knows in this game, for the research adapters.

See :mod:`oracles.research.encoding` for the conventions (pieces in table
order, one-hot rows, raw counts); this module holds the layout of
this game.

**Inrah-Orakel** (``inrah``; ``D`` = 12 × elements cards as in
:mod:`oracles.games.inrah.cards`, ``R`` rounds, 6 elements)

======================  ===========  ===============================================
piece                   size         content
======================  ===========  ===============================================
``seat``                n            one-hot
``phase``               9            one-hot: dealer deal trump bid hesinde efferd phex play over
``to_act``              n            one-hot
``dealer``              n            one-hot
``round``               R + 1        one-hot
``hand``                D            the seat's cards
``hand_sizes``          n            cards in each hand
``trump_card``          D            one-hot: the turned card
``trump``               6            one-hot: the trump element
``bids``                n×(R+2)      one-hot per seat: bid 0..R, last column "none yet"
``oracles``             n×3×(4+n+R+1)  Altaïa only: each seat's three oracles, as kind
                                     (hesinde, efferd makes, efferd misses, phex), seat
                                     named and k, one-hot each
``trick_leader``        n            one-hot
``trick``               n×D          the card each seat played to the current trick
``led``                 7            one-hot led element; last: a seer came first
``played``              D            cards of this round's complete tricks
``tricks_taken``        n            this round
``scores``              n            totals
======================  ===========  ===============================================

Information state adds ``tricks`` (R×n×D: the card each seat played to each
trick of this round, in order), ``leaders`` (R×n), ``dealt`` (R×D: the seat's
hand as dealt in each round), ``bid_history`` (R×n: each round's bids, -1
none) and ``round_scores`` (R×n). Altaïa's oracles of earlier rounds are
summarised by the round scores.

Everything is read from view fields and log event fields (the ``deal``
event's own ``hand``, a ``bid``'s ``round`` and ``bid``, a ``play``'s
``round``, ``trick`` and ``card``; see :mod:`oracles.games.inrah.views`),
never from text.

"""

from __future__ import annotations

from typing import Any

import numpy as np

from oracles.core.game import Game, State
from oracles.games.inrah.cards import CARD_TEXT, ELEMENTS
from oracles.games.inrah.constants import ALTAIA, ORACLE_MAKES, ORACLE_NAME, PHASE_NAMES
from oracles.games.inrah.rules import InrahGame
from oracles.research.encoding import Bounds, Encoder, Layout, Piece, one_hot

#: Column of each oracle kind (name, makes) in an ``oracles`` row, in the
#: order of the rules' oracle kinds.
_ORACLE_COLUMN: dict[tuple[str, bool], int] = {
    (name, makes): kind for kind, (name, makes) in enumerate(zip(ORACLE_NAME, ORACLE_MAKES, strict=True))
}


class InrahEncoder(Encoder):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        assert isinstance(game, InrahGame)
        self._card = {name: index for index, name in enumerate(CARD_TEXT)}
        self._element = {name: index for index, name in enumerate(ELEMENTS)}
        n = self.n
        self.deck = game.deck_size
        self.rounds = game.rounds
        self.altaia = game.variant == ALTAIA
        d, r = self.deck, self.rounds
        obs: list[Piece] = [
            ("seat", (n,)),
            ("phase", (len(PHASE_NAMES),)),
            ("to_act", (n,)),
            ("dealer", (n,)),
            ("round", (r + 1,)),
            ("hand", (d,)),
            ("hand_sizes", (n,)),
            ("trump_card", (d,)),
            ("trump", (len(ELEMENTS),)),
            ("bids", (n, r + 2)),
        ]
        if self.altaia:
            obs.append(("oracles", (n, 3, 4 + n + r + 1)))
        obs += [
            ("trick_leader", (n,)),
            ("trick", (n, d)),
            ("led", (len(ELEMENTS) + 1,)),
            ("played", (d,)),
            ("tricks_taken", (n,)),
            ("scores", (n,)),
        ]
        info = [
            *obs,
            ("tricks", (r, n, d)),
            ("leaders", (r, n)),
            ("dealt", (r, d)),
            ("bid_history", (r, n)),
            ("round_scores", (r, n)),
        ]
        self.observation_layout = Layout(obs)
        self.information_layout = Layout(info)

    def _observation(self, view: dict[str, Any], out: dict[str, np.ndarray]) -> None:
        n, r = self.n, self.rounds
        card = self._card
        one_hot(out["seat"], view["seat"])
        one_hot(out["phase"], PHASE_NAMES.index(view["phase"]))
        one_hot(out["to_act"], view["to_act"])
        one_hot(out["dealer"], view["dealer"])
        one_hot(out["round"], view["round"])
        for name in view["hand"]:
            out["hand"][card[name]] = 1.0
        out["hand_sizes"][:] = view["hand_sizes"]
        if view["trump_card"] is not None:
            out["trump_card"][card[view["trump_card"]]] = 1.0
        if view["trump"] is not None:
            out["trump"][self._element[view["trump"]]] = 1.0
        if view["bids"] is not None:
            for seat, bid in enumerate(view["bids"]):
                out["bids"][seat, r + 1 if bid is None else bid] = 1.0
        else:
            out["bids"][:, r + 1] = 1.0
        if self.altaia:
            for seat, oracles in enumerate(view["oracles"]):
                for slot, oracle in enumerate(oracles[:3]):
                    row = out["oracles"][seat, slot]
                    row[_ORACLE_COLUMN[oracle["kind"], oracle["makes"]]] = 1.0
                    row[4 + oracle["named"]] = row[4 + n + oracle["k"]] = 1.0
        if view["trick"]:
            one_hot(out["trick_leader"], view["trick_leader"])
        for play in view["trick"]:
            out["trick"][play["seat"], card[play["card"]]] = 1.0
        if view["led"] is not None:
            out["led"][self._element[view["led"]]] = 1.0
        if view["seer_first"]:
            out["led"][-1] = 1.0
        for name in view["played"]:
            out["played"][card[name]] = 1.0
        out["tricks_taken"][:] = view["tricks_taken"]
        out["scores"][:] = view["scores"]

    def _information(self, view: dict[str, Any], out: dict[str, np.ndarray]) -> None:
        card = self._card
        current = view["round"]
        out["bid_history"][:] = -1.0
        led_tricks = 0
        for event in view["log"]:
            kind = event["kind"]
            if kind == "deal":
                for name in event.get("hand", ()):
                    out["dealt"][event["round"] - 1, card[name]] = 1.0
            elif kind == "bid":
                out["bid_history"][event["round"] - 1, event["seat"]] = event["bid"]
            elif kind == "play" and event["round"] == current:
                trick = event["trick"] - 1
                if event["trick"] > led_tricks:  # the first card of the trick
                    led_tricks = event["trick"]
                    out["leaders"][trick, event["seat"]] = 1.0
                out["tricks"][trick, event["seat"], card[event["card"]]] = 1.0
        for index, points in enumerate(view["round_scores"]):
            out["round_scores"][index, :] = points

    def draw_label(self, state: State, step: int, item: int) -> str:
        draws = state.chance_draws()
        size = max(draws[1] // self.n, 1) if draws is not None else 1
        return f"deal {CARD_TEXT[item]} to P{step // size}"

    def bounds(self) -> Bounds:
        game = self.game
        n, rounds = self.n, self.rounds
        low, high = game.utility_bounds()
        # Each deal of n·r cards becomes n·r draws instead of one action.
        length = game.max_game_length() + sum(n * r - 1 for r in range(1, rounds + 1))
        return Bounds(low, high, max(self.deck, n), length, game.zero_sum)
