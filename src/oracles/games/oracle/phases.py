"""The phases of an Oracle round and the kinds of its internal log: the
constants the rules, the notation and the resampler share (their one home,
so that those modules need not import each other)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from oracles.games.oracle.cards import CARD_NAMES, CREATURE_NAMES
from oracles.games.oracle.prophecies import ORACLE_IDS

if TYPE_CHECKING:
    from oracles.games.oracle.prophecies import Edition

#: Oracle cards dealt to each seat (no draft), by number of players.
ORACLE_HAND = {3: 10, 4: 10, 5: 8}
#: Oracle cards removed unseen in the draft variant.
DRAFT_REMOVED = 16

(DEALER, DEAL, ORACLES, KEEP, DRAFT, PLAY, LOSER, OVER) = range(8)
PHASE_NAMES = ("dealer", "deal", "oracles", "keep", "draft", "play", "loser", "over")
# Kinds of the internal log: the history's actions (chance and player), then
# what happens by itself after one (a draw from the stack, a finished trick,
# the scoring of a round). Resampling relies on the first four coming first.
(E_DEALER, E_DEAL, E_ORACLES, E_PLAYER, E_DRAW, E_TRICK, E_SCORE) = range(7)


#: ``[seat, card name]`` for every seat and card: a trick event's plays are
#: these lists, shared by every event (and every table) that names them, so
#: a server holding thousands of logs keeps one of each. Read, never change.
_PLAYED: dict[int, list[Any]] = {}


def played(seat: int, players: int, card: int) -> list[Any]:
    """The shared ``[seat, name]`` of ``card`` played by ``seat`` (mod ``players``)."""
    seat %= players
    key = seat * 256 + card
    pair = _PLAYED.get(key)
    if pair is None:
        pair = _PLAYED[key] = [seat, CARD_NAMES[card]]
    return pair


class TrickFacts(NamedTuple):
    """A finished trick as the rules log it: plain numbers, turned into the
    event's words only when a view asks (random play and search never do)."""

    leader: int
    cards: tuple[int, ...]
    winner: int
    reason: str
    creature: int
    #: ``chip``, ``loser`` (the Loser chip moves to the winner) or ``decide``.
    take: str
    #: The seat the Loser chip came from, or None.
    taken_from: int | None
    #: Victory point chips of that creature left in the middle.
    left: int

    def event_fields(self, players: int) -> dict[str, Any]:
        return {
            "kind": "trick",
            "leader": self.leader,
            "cards": [played(self.leader + i, players, c) for i, c in enumerate(self.cards)],
            "winner": self.winner,
            "reason": self.reason,
            "creature": CREATURE_NAMES[self.creature],
            "take": self.take,
            "from": self.taken_from,
            "left": self.left,
        }


class ScoreFacts(NamedTuple):
    """A round's scoring as the rules log it: the numbers only, turned into
    the ``score`` event's words when a view asks. Random play and search
    score a round at the end of every rollout and never look; building the
    words there was a third of a short rollout's time."""

    round: int
    #: Each seat's kept pair of Oracle cards.
    kept: list[tuple[int, int]]
    holds: list[list[bool]]
    #: ``held[seat * 3 + creature]`` before the Loser forfeit, and after.
    before: list[int]
    held: list[int]
    loser_holder: list[int]
    #: Each seat's stars (after the forfeit) and points.
    stars: list[int]
    points: list[int]

    def event_fields(self, players: int, edition: Edition) -> dict[str, Any]:
        held, before, loser_holder = self.held, self.before, self.loser_holder
        forfeits: list[list[list[Any]]] = [[] for _ in range(players)]
        for creature, holder in enumerate(loser_holder):
            if holder != -1 and before[holder * 3 + creature]:
                forfeits[holder].append([CREATURE_NAMES[creature], before[holder * 3 + creature]])
        cards = edition.cards
        ids = ORACLE_IDS
        return {
            "kind": "score",
            "round": self.round,
            "kept": [[ids[card] for card in pair] for pair in self.kept],
            "holds": self.holds,
            # What each kept card is worth when it holds (the game's edition).
            "worth": [[cards[card].points for card in pair] for pair in self.kept],
            # Their texts as the edition words them at this count (an edition
            # may change what a card asks): the story and the pad say these.
            "texts": [[cards[card].texts for card in pair] for pair in self.kept],
            "stars": list(self.stars),
            "forfeits": forfeits,
            # The chips each seat scores with, after the forfeit (public): for
            # the score pad.
            "chips": [
                {name: held[seat * 3 + creature] for creature, name in enumerate(CREATURE_NAMES)}
                for seat in range(players)
            ],
            "losers": [
                [CREATURE_NAMES[c] for c in range(3) if loser_holder[c] == seat] for seat in range(players)
            ],
            "points": list(self.points),
        }
