"""Inrah-Orakel notation: each action as text (``play fire-7``, ``bid 2``,
``efferd P1 misses 0``, ``deal fire-7 / water-2 / ...``) and text back to the
action's integer. The forms are listed in :mod:`oracles.games.inrah.rules`;
input is case-insensitive and takes the German card words too.

What an action means depends on the phase (``play``, ``bid`` and the oracles
share no integers with the chance actions of the same phase), so both
directions take the phase and round of the state that reads or writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from oracles.core.codec import pack, split_groups
from oracles.core.game import notation_error
from oracles.games.inrah.cards import CARD_TEXT, ELEMENT_OF, ELEMENTS, parse_card
from oracles.games.inrah.constants import (
    ALTAIA,
    DEAL,
    DEALER,
    EFFERD_MAKES,
    EFFERD_MISSES,
    HESINDE_KIND,
    ORACLE_MAKES,
    ORACLE_NAME,
    OVER,
    PHASE_NAMES,
    PHEX_KIND,
    TRUMP,
)

if TYPE_CHECKING:
    from oracles.games.inrah.rules import InrahGame

_ORACLE_VERBS = ("hesinde", "efferd", "phex")


def oracle_notation(oracle: tuple[int, int, int]) -> str:
    """An oracle ``(kind, seat named, k)`` in notation: ``efferd P2 misses 1``."""
    kind, named, k = oracle
    if kind in (EFFERD_MAKES, EFFERD_MISSES):
        return f"efferd P{named} {'makes' if ORACLE_MAKES[kind] else 'misses'} {k}"
    return f"{ORACLE_NAME[kind]} P{named} {k}"


def deal_notation(hands: Sequence[Sequence[int]]) -> str:
    return "deal " + " / ".join(" ".join(CARD_TEXT[c] for c in hand) for hand in hands)


def write_action(game: InrahGame, phase: int, round_number: int, action: int) -> str:
    """``action`` in notation, as read in ``phase`` of round ``round_number``
    (an integer that is no action there is written ``#<int>``)."""
    if phase == DEALER:
        return f"dealer {action}"
    if phase == DEAL:
        hands = game.deal_hands(round_number, action)
        return f"deal #{action}" if isinstance(hands, str) else deal_notation(hands)
    if phase == TRUMP:
        return f"trump {CARD_TEXT[action]}" if 0 <= action < game.deck_size else f"trump #{action}"
    if 0 <= action < game.deck_size:
        return f"play {CARD_TEXT[action]}"
    if game.bid_base <= action < game.oracle_base:
        return f"bid {action - game.bid_base}"
    if game.oracle_base <= action < game.num_actions:
        return oracle_notation(game.oracle_of(action))
    return f"action #{action}"


def read_action(game: InrahGame, phase: int, round_number: int, to_act: int, text: str) -> int:
    """The integer of the action ``text`` names in ``phase`` of round
    ``round_number`` (``to_act``: the seat to act, for messages), or a
    :class:`~oracles.core.errors.NotationError` saying what is wrong. Whether
    the action is legal now is the rules' question, not this one's."""
    if not isinstance(text, str):
        raise notation_error(str(text), "an action is written as text")
    words = text.strip().lower().split()
    if not words:
        raise notation_error(text, "empty action")
    verb = words[0]
    if phase == OVER:
        raise notation_error(text, "the game is over")
    if phase <= TRUMP:
        expected = PHASE_NAMES[phase]
        if verb != expected:
            raise notation_error(text, f"the next action is a chance '{expected}'")
        if phase == DEALER:
            return _read_number(text, words, 0, game.num_players - 1, "a dealer")
        if phase == DEAL:
            return _read_deal(game, round_number, text)
        return _read_card(game, text, words[1:])
    if verb == "play":
        return _read_card(game, text, words[1:])
    if verb == "bid":
        return game.bid_base + _read_number(text, words, 0, game.rounds, "a bid")
    if verb in _ORACLE_VERBS:
        return _read_oracle(game, text, verb, words)
    if verb == "trump":
        raise notation_error(text, "no trump card is turned up now")
    if verb in ("dealer", "deal"):
        raise notation_error(text, f"no chance '{verb}' now: seat {to_act} is to act")
    raise notation_error(text, f"unknown action {verb!r} (play, bid, hesinde, efferd, phex)")


def _read_number(text: str, words: list[str], low: int, high: int, what: str) -> int:
    if len(words) != 2 or not words[1].isdigit() or not low <= int(words[1]) <= high:
        raise notation_error(text, f"{what} is written '{words[0]} K' with K from {low} to {high}")
    return int(words[1])


def _read_card(game: InrahGame, text: str, words: list[str]) -> int:
    if len(words) != 1:
        raise notation_error(text, "name exactly one card, e.g. 'fire-7'")
    c = parse_card(words[0])
    if c is None:
        raise notation_error(text, f"{words[0]!r} is not a card (element-rank, e.g. 'fire-7')")
    if c >= game.deck_size:
        raise notation_error(text, f"{ELEMENTS[ELEMENT_OF[c]]} is not in this deck")
    return c


def _read_deal(game: InrahGame, round_number: int, text: str) -> int:
    n, r = game.num_players, round_number
    groups = split_groups(text.strip()[4:])
    if len(groups) != n:
        raise notation_error(text, f"a deal lists {n} hands separated by '/', found {len(groups)}")
    flat: list[int] = []
    for seat, group in enumerate(groups):
        if len(group) != r:
            raise notation_error(
                text,
                f"round {r} deals {r} card{'' if r == 1 else 's'} to each seat; seat {seat} gets {len(group)}",
            )
        flat.extend(sorted(_read_card(game, text, [word]) for word in group))
    return pack(flat, game.deck_size)


def split_oracle(words: Sequence[str]) -> tuple[int, int, int]:
    """An oracle's words, in lower case (``efferd p2 misses 1``), as ``(kind,
    seat named, k)``; ValueError naming the form when they are not one. The
    seat and k are not checked against a game (the reader does that).

    >>> split_oracle(["efferd", "p2", "misses", "1"]) == (EFFERD_MISSES, 2, 1)
    True
    """
    verb = words[0] if words else ""
    if verb == "efferd":
        if len(words) != 4 or words[2] not in ("makes", "misses"):
            raise ValueError("write 'efferd P<seat> makes <k>' or 'efferd P<seat> misses <k>'")
        kind = EFFERD_MAKES if words[2] == "makes" else EFFERD_MISSES
        words = [words[0], words[1], words[3]]
    elif verb in _ORACLE_VERBS:
        kind = HESINDE_KIND if verb == "hesinde" else PHEX_KIND
    else:
        raise ValueError(f"{verb!r} is not an oracle (hesinde, efferd, phex)")
    form = f"write '{verb} P<seat> <k>'"
    if len(words) != 3 or not words[1].startswith("p") or not words[1][1:].isdigit():
        raise ValueError(form)
    if not words[2].isdigit():
        raise ValueError(f"{form} with k a number of tricks")
    return kind, int(words[1][1:]), int(words[2])


def _read_oracle(game: InrahGame, text: str, verb: str, words: list[str]) -> int:
    if game.variant != ALTAIA:
        raise notation_error(text, f"{verb} oracles belong to the altaia variant")
    try:
        kind, named, k = split_oracle(words)
    except ValueError as error:
        raise notation_error(text, str(error)) from None
    if named >= game.num_players:
        raise notation_error(text, f"there is no seat P{named}")
    if k > game.rounds:
        raise notation_error(text, f"write '{verb} P<seat> <k>' with k from 0 to {game.rounds}")
    return game.oracle_action(kind, named, k)
