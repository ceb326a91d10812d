"""The phases of an Oracle round and the kinds of its internal log: the
constants the rules, the notation and the resampler share (their one home,
so that those modules need not import each other)."""

from __future__ import annotations

from typing import Any, NamedTuple

from oracles.games.oracle.cards import CARD_NAMES, CREATURE_NAMES

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
