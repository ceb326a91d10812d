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

**Codename: Oracle** (``codename``; 20 cells ``a1``..``e4`` as
``column * 4 + row``, 5 symbols star square wave circle cross)

======================  ===========  ===============================================
piece                   size         content
======================  ===========  ===============================================
``seat``                2            one-hot
``to_move``             2            one-hot: the seat to act
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
``used``                5            peeks, swap, replace, guess, reveals this turn
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

Information state adds ``log_counts`` (2×24: per actor, how many of each kind
of logged event: code shuffle first peek swap replace reveal guess end respond
block codeswap recode pick place fill target take name reshuffle scramble draw
strike other). The game is long and its knowledge is already summarised
in the view (what is known of every card), so this is not perfect recall; the
information-state string is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from oracles.core.game import Game, State
from oracles.games.codename.rules import TASK_NAMES

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


def _one_hot(target: np.ndarray, index: int | None) -> None:
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


# --------------------------------------------------------------------------- Oracle
class OracleEncoder(Encoder):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        from oracles.games.oracle import cards, prophecies, rules

        self._rules = rules
        self._card = {name: index for index, name in enumerate(cards.CARD_NAMES)}
        self._oracle = {name: index for index, name in enumerate(prophecies.ORACLE_IDS)}
        self._creature = {name: index for index, name in enumerate(cards.CREATURE_NAMES)}
        n = self.n
        opts = game.options
        self.rounds = int(opts["rounds"])
        self.draft = bool(opts["draft"])
        self.hand = cards.HAND_SIZE[n]
        self.cycles = (len(prophecies.ORACLE_IDS) - rules.DRAFT_REMOVED - 2 * n) // 2 if self.draft else 0
        obs: list[Piece] = [
            ("seat", (n,)),
            ("phase", (len(rules.PHASE_NAMES),)),
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
        _one_hot(out["seat"], view["seat"])
        _one_hot(out["phase"], self._rules.PHASE_NAMES.index(view["phase"]))
        _one_hot(out["to_act"], view["to_act"])
        _one_hot(out["dealer"], view["dealer"])
        _one_hot(out["round"], view["round"])
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
                _one_hot(out["trick_leader"], trick["leader"])
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
        n = self.n
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
        start = max((i for i, e in enumerate(log) if e["action"].startswith("oracles")), default=len(log))
        cycle = -1
        for entry in log[start + 1 :]:
            words = entry["action"].split()
            actor = entry["by"]
            if words[0] == "draw":
                cycle += 1
            if (
                words[0] not in ("draw", "pass", "discard")
                or cycle < 0
                or cycle >= self.cycles
                or "?" in words
            ):
                continue
            cards = [oracle[w.upper()] for w in words[1:]]
            row = out["draft_log"][cycle]
            if words[0] == "draw":
                row[0, cards] = 1.0
            elif words[0] == "pass" and actor == seat:
                row[2, cards] = 1.0
            elif words[0] == "pass" and (actor + 1) % n == seat:
                row[1, cards] = 1.0
            elif words[0] == "discard":
                row[3, cards] = 1.0
                if actor == seat:
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
        from oracles.games.oracle import cards

        game: Any = self.game
        n = self.n
        points = sorted((c.points for c in game.edition.cards), reverse=True)
        stars = sum(count * star for count, star in zip(cards.VICTORY_CHIPS[n], cards.STARS, strict=True))
        per_round = stars + points[0] + points[1]
        deal_steps = len(game.cards_in_play)
        oracle_steps = 2 * n + game.stack_size if self.draft else 40
        length = game.max_game_length() + self.rounds * (deal_steps - 1 + oracle_steps - 1)
        return Bounds(0.0, float(self.rounds * per_round), 40 if self.draft else n + 1, length, False)


# --------------------------------------------------------------------------- Inrah
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
        _one_hot(out["seat"], view["seat"])
        _one_hot(out["phase"], self._rules.PHASE_NAMES.index(view["phase"]))
        _one_hot(out["to_act"], view["to_act"])
        _one_hot(out["dealer"], view["dealer"])
        _one_hot(out["round"], view["round"])
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
            _one_hot(out["trick_leader"], view["trick_leader"])
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


# --------------------------------------------------------------------------- Codename
# The pending decision kinds of Codename's views, and its ordinary turn.
_CODENAME_DECISIONS = (*TASK_NAMES, "turn")
_CODENAME_EVENTS = (
    "code",
    "shuffle",
    "first",
    "peek",
    "swap",
    "replace",
    "reveal",
    "guess",
    "end",
    "respond",
    "block",
    "codeswap",
    "recode",
    "pick",
    "place",
    "fill",
    "target",
    "take",
    "name",
    "reshuffle",
    "scramble",
    "draw",
    "strike",
)


class CodenameEncoder(Encoder):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        from oracles.games.codename import rules

        self._symbol = {name: index for index, name in enumerate(rules.SYMBOLS)}
        self._cells = rules.CELL_NAMES
        self._cell = {name: index for index, name in enumerate(rules.CELL_NAMES)}
        self._columns = rules.COLUMNS
        self._max_length = game.max_game_length()
        obs: list[Piece] = [
            ("seat", (2,)),
            ("to_move", (2,)),
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
        self.information_layout = Layout([*obs, ("log_counts", (2, len(_CODENAME_EVENTS) + 1))])

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
        _one_hot(out["seat"], seat)
        _one_hot(out["to_move"], view["to_move"])
        out["terminal"][0] = float(view["terminal"])
        out["turn"][0] = view["turn"]
        decision = view["decision"]
        if decision is not None:
            out["decision"][_CODENAME_DECISIONS.index(decision["kind"])] = 1.0
            _one_hot(out["decision_player"], decision["player"])
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
        out["used"][:] = [used["peeks"], used["swap"], used["replace"], used["guess"], used["reveals"]]
        self._field(view["field"], out["field"])
        for name in view["face_up"]:
            out["face_up"][self._cell[name]] = 1.0
        for slot, name in enumerate(view["code"]):
            out["code"][slot, symbol[name]] = 1.0
        for name in view["hand"]:
            out["hand"][symbol[name]] += 1.0
        for name in view["aside"]:
            out["aside"][symbol[name]] += 1.0
        out["piles"][:] = [view["deck"], view["discard"]]
        for name, count in view["discard_known"].items():
            out["discard_known"][symbol[name]] = count
        opp = view["opponent"]
        self._field(opp["field"], out["opp_field"])
        for name in opp["face_up"]:
            out["opp_face_up"][self._cell[name]] = 1.0
        for slot, name in enumerate(opp["code"]):
            out["opp_code"][slot, 5 if name is None else symbol[name]] = 1.0
        for slot, names in enumerate(opp["code_excluded"]):
            for name in names:
                out["opp_code_excluded"][slot, symbol[name]] = 1.0
        out["opp_counts"][:] = [opp["hand"], opp["aside"], opp["deck"], opp["discard"]]
        for name, count in opp["discard_known"].items():
            out["opp_discard_known"][symbol[name]] = count

    def _information(self, view: dict[str, Any], out: dict[str, np.ndarray]) -> None:
        counts = out["log_counts"]
        other = len(_CODENAME_EVENTS)
        for text in view["log"]:
            words = text.split()
            if len(words) > 1 and words[0] in ("p0", "p1"):
                actor, word = int(words[0][1]), words[1]
            elif words[0] == "first" and len(words) > 1 and words[1] in ("0", "1"):
                actor, word = int(words[1]), "first"
            else:
                continue
            index = _CODENAME_EVENTS.index(word) if word in _CODENAME_EVENTS else other
            counts[actor, index] += 1.0

    def draw_label(self, state: State, step: int, item: int) -> str:
        from oracles.games.codename.rules import SYMBOLS

        decision = state.view(0)["decision"]
        kind = decision["kind"] if decision else "draw"
        return f"{kind} {step + 1}: {SYMBOLS[item]}"

    def bounds(self) -> Bounds:
        # A reshuffle arranges at most a whole deck; every chance action
        # becomes at most 50 draws.
        return Bounds(-1.0, 1.0, 5, self._max_length * 50, True)


ENCODERS: dict[str, type[Encoder]] = {
    "oracle": OracleEncoder,
    "inrah": InrahEncoder,
    "codename": CodenameEncoder,
}


def encoder_for(game: Game) -> Encoder:
    """The tensor encoder of ``game`` (one of the registered games)."""
    try:
        cls = ENCODERS[game.id]
    except KeyError:
        raise ValueError(f"no research encoder for game {game.id!r}") from None
    return cls(game)
