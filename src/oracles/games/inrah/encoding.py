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

"""

from __future__ import annotations

from typing import Any

import numpy as np

from oracles.core.game import Game, State
from oracles.research.encoding import Bounds, Encoder, Layout, Piece, one_hot

_INRAH_ORACLE_KINDS = {
    ("hesinde", None): 0,
    ("efferd", "makes"): 1,
    ("efferd", "misses"): 2,
    ("phex", None): 3,
}


def _inrah_oracle(text: str) -> tuple[int, int, int]:
    """``"efferd P4 misses 1"`` -> (kind, seat, k)."""
    words = text.split()
    qualifier = words[2] if words[0] == "efferd" else None
    return _INRAH_ORACLE_KINDS[(words[0], qualifier)], int(words[1][1:]), int(words[-1])


class InrahEncoder(Encoder):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        from oracles.games.inrah import cards, rules

        self._rules = rules
        self._card = {name: index for index, name in enumerate(cards.CARD_TEXT)}
        self._element = {name: index for index, name in enumerate(cards.ELEMENTS)}
        n = self.n
        g: Any = game
        self.deck = int(g.deck_size)
        self.rounds = int(g.rounds)
        self.altaia = g.variant == rules.ALTAIA
        d, r = self.deck, self.rounds
        obs: list[Piece] = [
            ("seat", (n,)),
            ("phase", (len(rules.PHASE_NAMES),)),
            ("to_act", (n,)),
            ("dealer", (n,)),
            ("round", (r + 1,)),
            ("hand", (d,)),
            ("hand_sizes", (n,)),
            ("trump_card", (d,)),
            ("trump", (len(cards.ELEMENTS),)),
            ("bids", (n, r + 2)),
        ]
        if self.altaia:
            obs.append(("oracles", (n, 3, 4 + n + r + 1)))
        obs += [
            ("trick_leader", (n,)),
            ("trick", (n, d)),
            ("led", (len(cards.ELEMENTS) + 1,)),
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
        one_hot(out["phase"], self._rules.PHASE_NAMES.index(view["phase"]))
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
            for seat, texts in enumerate(view["oracles"]):
                for slot, text in enumerate(texts[:3]):
                    kind, named, k = _inrah_oracle(text)
                    row = out["oracles"][seat, slot]
                    row[kind] = row[4 + named] = row[4 + n + k] = 1.0
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
        n, r = self.n, self.rounds
        card = self._card
        out["bid_history"][:] = -1.0
        round_index = -1
        trick = -1
        in_trick = n
        for text in view["log"]:
            words = text.split()
            if words[0] == "deal":
                round_index += 1
                trick, in_trick = -1, n
                for name in words[1:]:
                    out["dealt"][round_index, card[name]] = 1.0
            elif len(words) > 1 and words[1] == "bid" and 0 <= round_index < r:
                out["bid_history"][round_index, int(words[0][1:])] = int(words[2])
            elif len(words) > 1 and words[1] == "play":
                if in_trick == n:
                    trick, in_trick = trick + 1, 0
                    if round_index == view["round"] - 1:
                        out["leaders"][trick, int(words[0][1:])] = 1.0
                in_trick += 1
                if round_index == view["round"] - 1:
                    out["tricks"][trick, int(words[0][1:]), card[words[2]]] = 1.0
        for index, points in enumerate(view["round_scores"]):
            out["round_scores"][index, :] = points

    def draw_label(self, state: State, step: int, item: int) -> str:
        from oracles.games.inrah.cards import CARD_TEXT

        draws = state.chance_draws()
        size = max(draws[1] // self.n, 1) if draws is not None else 1
        return f"deal {CARD_TEXT[item]} to P{step // size}"

    def bounds(self) -> Bounds:
        g: Any = self.game
        n, rounds = self.n, self.rounds
        low = high = 0.0
        for r in range(1, rounds + 1):
            if g.variant == self._rules.ALTAIA:
                low -= 50 * r
                high += 2 * (20 + 10 * r)
            elif g.variant == self._rules.PURPURBERG:
                low -= 20 * r
                high += 40 + 10 * r
            else:
                low -= 10 * r
                high += 20 + 10 * r
        length = g.max_game_length() + sum(n * r - 1 for r in range(1, rounds + 1))
        return Bounds(low, high, max(self.deck, n), length, False)
