"""Tensors of what a seat knows in this game, for the research adapters.

See :mod:`oracles.research.encoding` for the conventions (pieces in table
order, one-hot rows, raw counts); this module holds the layout of
this game.

**Oracle** (``oracle``; ``H`` cards per hand, ``R`` rounds, 60 playing cards
``colour * 12 + value - 1``, 40 Oracle cards ``O01``..``O40`` as 0..39,
creatures in the order hydra, pegasus, phoenix)

======================  ===========  ===============================================
piece                   size         content
======================  ===========  ===============================================
``seat``                n            one-hot: the observing seat
``phase``               8            one-hot: dealer deal oracles keep draft play loser over
``to_act``              n            one-hot: the seat to act
``dealer``              n            one-hot: this round's dealer
``round``               R + 1        one-hot: the round (0 before the first deal)
``hand``                60           the seat's cards
``hand_sizes``          n            cards in each hand
``oracle_cards``        40           Oracle cards dealt to the seat (draft: held now)
``kept``                40           its two kept cards
``prophecies``          2            whether each kept prophecy holds now (id order)
``trick_leader``        n            one-hot: who led the current trick
``trick``               n×60         the card each seat played to the current trick
``played``              n×60         the cards each seat played this round
``chips``               n×3          victory point chips each seat holds
``losers``              (n+1)×3      holder of each Loser chip (row n: the middle)
``middle``              3            victory point chips left in the middle
``pending_loser``       3            one-hot: the Loser chip the winner decides on
``scores``              n            totals
``revealed``            n×40         each seat's kept cards of the last finished round
``draft``               41           draft only: stack size, then the discard pile
======================  ===========  ===============================================

Information state adds, for the current round ``tricks`` (H×n×60: the card
each seat played to each trick, in order) and ``leaders`` (H×n), then
``round_scores`` (R×n), ``revealed_all`` (R×n×40: every finished round's
kept cards) and, in the draft, ``draft_log`` (C×4×40 for the C cycles: the
cards the seat drew, received, passed or discarded, and the dealer's
discards). Earlier rounds' tricks are summarised by their scores.

"""

from __future__ import annotations

from typing import Any

import numpy as np

from oracles.core.game import Game, State
from oracles.research.encoding import Bounds, Encoder, Layout, Piece, one_hot


class OracleEncoder(Encoder):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        from oracles.games.oracle import cards, phases, prophecies

        self._phases = phases
        self._card = {name: index for index, name in enumerate(cards.CARD_NAMES)}
        self._oracle = {name: index for index, name in enumerate(prophecies.ORACLE_IDS)}
        self._creature = {name: index for index, name in enumerate(cards.CREATURE_NAMES)}
        n = self.n
        opts = game.options
        self.rounds = int(opts["rounds"])
        self.draft = bool(opts["draft"])
        self.hand = cards.HAND_SIZE[n]
        self.cycles = (len(prophecies.ORACLE_IDS) - phases.DRAFT_REMOVED - 2 * n) // 2 if self.draft else 0
        obs: list[Piece] = [
            ("seat", (n,)),
            ("phase", (len(phases.PHASE_NAMES),)),
            ("to_act", (n,)),
            ("dealer", (n,)),
            ("round", (self.rounds + 1,)),
            ("hand", (60,)),
            ("hand_sizes", (n,)),
            ("oracle_cards", (40,)),
            ("kept", (40,)),
            ("prophecies", (2,)),
            ("trick_leader", (n,)),
            ("trick", (n, 60)),
            ("played", (n, 60)),
            ("chips", (n, 3)),
            ("losers", (n + 1, 3)),
            ("middle", (3,)),
            ("pending_loser", (3,)),
            ("scores", (n,)),
            ("revealed", (n, 40)),
        ]
        if self.draft:
            obs.append(("draft", (41,)))
        info = [
            *obs,
            ("tricks", (self.hand, n, 60)),
            ("leaders", (self.hand, n)),
            ("round_scores", (self.rounds, n)),
            ("revealed_all", (self.rounds, n, 40)),
        ]
        if self.draft:
            info.append(("draft_log", (self.cycles, 4, 40)))
        self.observation_layout = Layout(obs)
        self.information_layout = Layout(info)

    def _observation(self, view: dict[str, Any], out: dict[str, np.ndarray]) -> None:
        n = self.n
        card, oracle = self._card, self._oracle
        one_hot(out["seat"], view["seat"])
        one_hot(out["phase"], self._phases.PHASE_NAMES.index(view["phase"]))
        one_hot(out["to_act"], view["to_act"])
        one_hot(out["dealer"], view["dealer"])
        one_hot(out["round"], view["round"])
        for name in view["hand"]:
            out["hand"][card[name]] = 1.0
        out["hand_sizes"][:] = view["hand_sizes"]
        for entry in view["oracle_cards"]:
            out["oracle_cards"][oracle[entry["id"]]] = 1.0
        for entry in view["kept"]:
            out["kept"][oracle[entry["id"]]] = 1.0
        for i, (_, holds) in enumerate(sorted(view["prophecies"])):
            out["prophecies"][i] = float(holds)
        trick = view["trick"]
        if trick is not None:
            if trick["cards"]:
                one_hot(out["trick_leader"], trick["leader"])
            for seat, name in trick["cards"]:
                out["trick"][seat, card[name]] = 1.0
                out["played"][seat, card[name]] = 1.0
        for done in view["tricks"]:
            for seat, name in done["cards"]:
                out["played"][seat, card[name]] = 1.0
        chips = view["chips"]
        for seat, entry in enumerate(chips["seats"]):
            for creature, index in self._creature.items():
                out["chips"][seat, index] = entry[creature]
            for creature in entry["losers"]:
                out["losers"][seat, self._creature[creature]] = 1.0
        for creature, index in self._creature.items():
            out["middle"][index] = chips["middle"][creature]
        for creature in chips["middle"]["losers"]:
            out["losers"][n, self._creature[creature]] = 1.0
        if view["pending_loser"] is not None:
            out["pending_loser"][self._creature[view["pending_loser"]]] = 1.0
        out["scores"][:] = view["scores"]
        if view["revealed"]:
            for seat, pair in enumerate(view["revealed"][-1]):
                for name in pair:
                    out["revealed"][seat, oracle[name]] = 1.0
        if self.draft:
            draft = view["draft"]
            out["draft"][0] = draft["stack"]
            for name in draft["discards"]:
                out["draft"][1 + oracle[name]] = 1.0

    def _information(self, view: dict[str, Any], out: dict[str, np.ndarray]) -> None:
        card, oracle = self._card, self._oracle
        tricks = [(done["leader"], done["cards"]) for done in view["tricks"]]
        if view["trick"] is not None and view["trick"]["cards"]:
            tricks.append((view["trick"]["leader"], view["trick"]["cards"]))
        for index, (leader, cards) in enumerate(tricks):
            out["leaders"][index, leader] = 1.0
            for seat, name in cards:
                out["tricks"][index, seat, card[name]] = 1.0
        for index, points in enumerate(view["round_scores"]):
            out["round_scores"][index, :] = points
        for index, pairs in enumerate(view["revealed"]):
            for seat, pair in enumerate(pairs):
                for name in pair:
                    out["revealed_all"][index, seat, oracle[name]] = 1.0
        if not self.draft:
            return
        seat = view["seat"]
        log = view["log"]
        start = max((i for i, e in enumerate(log) if e["kind"] == "oracles"), default=len(log))
        cycle = -1
        for event in log[start + 1 :]:
            kind = event["kind"]
            if kind == "draw":
                cycle += 1
            if (
                kind not in ("draw", "pass", "discard")
                or not 0 <= cycle < self.cycles
                or "cards" not in event
            ):
                continue
            cards = [oracle[name] for name in event["cards"]]
            row = out["draft_log"][cycle]
            if kind == "draw":
                row[0, cards] = 1.0
            elif kind == "pass" and event["seat"] == seat:
                row[2, cards] = 1.0
            elif kind == "pass" and event["to"] == seat:
                row[1, cards] = 1.0
            elif kind == "discard":
                row[3, cards] = 1.0
                if event["seat"] == seat:
                    row[2, cards] = 1.0

    def draw_label(self, state: State, step: int, item: int) -> str:
        from oracles.games.oracle.cards import CARD_NAMES
        from oracles.games.oracle.prophecies import ORACLE_IDS

        game: Any = self.game
        n = self.n
        draws = state.chance_draws()
        if draws is not None and draws[1] == len(game.cards_in_play):  # the deal, not the Oracle cards
            return f"deal {CARD_NAMES[game.cards_in_play[step]]} to P{item}"
        if not self.draft:
            return f"oracles {ORACLE_IDS[step]} {'set aside' if item == n else f'to P{item}'}"
        where = f"to P{step // 2}" if step < 2 * n else f"stack {step - 2 * n + 1}"
        return f"oracles {ORACLE_IDS[item]} {where}"

    def bounds(self) -> Bounds:
        game: Any = self.game
        n = self.n
        low, high = game.utility_bounds()
        deal_steps = len(game.cards_in_play)
        oracle_steps = 2 * n + game.stack_size if self.draft else 40
        length = game.max_game_length() + self.rounds * (deal_steps - 1 + oracle_steps - 1)
        return Bounds(low, high, 40 if self.draft else n + 1, length, game.zero_sum)
