"""Oracle's notation: the action ints, their texts, and reading texts back.

The table of action ints is in :mod:`oracles.games.oracle.rules`. Player
actions read and write the same in every state (:func:`player_action_text`,
:func:`read_player_action`); the chance actions ``deal`` and ``oracles`` pack
a whole deal into one int and depend on the game's options, so their
functions take the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from oracles.core.codec import pack, split_groups, unpack
from oracles.core.game import notation_error
from oracles.games.oracle.cards import CARD_NAMES, COLOUR_NAMES, COLOURS, NUM_VALUES, parse_card
from oracles.games.oracle.prophecies import NUM_ORACLE_CARDS, ORACLE_IDS, oracle_index

if TYPE_CHECKING:
    from oracles.games.oracle.rules import OracleGame

PLAY_BASE = 0
KEEP_BASE = 60
LOSER_KEEP = 840
LOSER_RETURN = 841
PASS_BASE = 842
DISCARD_BASE = 1622
NUM_ACTIONS = 2402

#: Every pair ``(a, b)``, ``a < b``, of Oracle card ints, in index order.
PAIRS: tuple[tuple[int, int], ...] = tuple(
    (a, b) for a in range(NUM_ORACLE_CARDS) for b in range(a + 1, NUM_ORACLE_CARDS)
)
_PAIR_POSITION = {pair: index for index, pair in enumerate(PAIRS)}
#: ``PAIR_INDEX[a][b]``: index of the pair of ``a`` and ``b`` in either order (-1 if ``a == b``).
PAIR_INDEX: tuple[tuple[int, ...], ...] = tuple(
    tuple(_PAIR_POSITION[(min(a, b), max(a, b))] if a != b else -1 for b in range(NUM_ORACLE_CARDS))
    for a in range(NUM_ORACLE_CARDS)
)


def pair_text(word: str, pair: tuple[int, int]) -> str:
    """``pair_text("keep", (4, 11))`` -> ``"keep O05 O12"``."""
    return f"{word} {ORACLE_IDS[pair[0]]} {ORACLE_IDS[pair[1]]}"


def _player_action_text(action: int) -> str:
    if action < KEEP_BASE:
        return f"play {CARD_NAMES[action]}"
    if action < LOSER_KEEP:
        return pair_text("keep", PAIRS[action - KEEP_BASE])
    if action == LOSER_KEEP:
        return "loser keep"
    if action == LOSER_RETURN:
        return "loser return"
    if action < DISCARD_BASE:
        return pair_text("pass", PAIRS[action - PASS_BASE])
    return pair_text("discard", PAIRS[action - DISCARD_BASE])


_PLAYER_ACTION_TEXTS = tuple(_player_action_text(action) for action in range(NUM_ACTIONS))


def player_action_text(action: int) -> str:
    """Notation of a player action int (the same in every state).

    >>> player_action_text(18), player_action_text(841)
    ('play B7', 'loser return')
    """
    if 0 <= action < NUM_ACTIONS:
        return _PLAYER_ACTION_TEXTS[action]
    return f"action #{action}"


def read_player_action(text: str, tokens: Sequence[str] | None = None) -> int:
    """Read a player action's notation, any case (``NotationError`` if unreadable).

    >>> read_player_action("PLAY b7"), read_player_action("keep O12 O05") == read_player_action("keep o5 o12")
    (18, True)
    """
    words = [token.lower() for token in (tokens if tokens is not None else text.split())]
    if not words:
        raise notation_error(text, "empty action")
    word = words[0]
    if word == "play":
        if len(words) != 2:
            raise notation_error(text, "write 'play' and one card, e.g. 'play R12'")
        try:
            return PLAY_BASE + parse_card(words[1])
        except ValueError as error:
            raise notation_error(text, str(error)) from None
    if word == "loser":
        if words[1:] == ["keep"]:
            return LOSER_KEEP
        if words[1:] == ["return"]:
            return LOSER_RETURN
        raise notation_error(text, "write 'loser keep' or 'loser return'")
    bases = {"keep": KEEP_BASE, "pass": PASS_BASE, "discard": DISCARD_BASE}
    if word in bases:
        if len(words) != 3:
            raise notation_error(text, f"write '{word}' and two Oracle cards, e.g. '{word} O05 O12'")
        try:
            a, b = oracle_index(words[1]), oracle_index(words[2])
        except ValueError as error:
            raise notation_error(text, str(error)) from None
        if a == b:
            raise notation_error(text, f"names {ORACLE_IDS[a]} twice")
        return bases[word] + PAIR_INDEX[a][b]
    raise notation_error(text, f"unknown action {word!r} (play, keep, loser, pass, discard)")


# ------------------------------------------------------------------ deals
#: Byte ``d`` -> the ASCII digit of ``d`` (0..9), for :func:`pack_digits`.
_ASCII_DIGITS = bytes.maketrans(bytes(range(10)), b"0123456789")


def pack_digits(values: Sequence[int], radix: int) -> int:
    """:func:`oracles.core.codec.pack` for ``radix`` at most 10 and values
    known to be in ``0..radix-1`` (a deal drawn by the rules): one ``int()``
    of the digits' text instead of a loop of big-integer products.

    >>> from oracles.core.codec import pack
    >>> pack_digits([3, 0, 2, 1], 4) == pack([3, 0, 2, 1], 4)
    True
    """
    return int(bytes(values[::-1]).translate(_ASCII_DIGITS), radix)


def deal_owners(game: OracleGame, action: int) -> list[int] | None:
    """The owner seat of each card in play (``game.cards_in_play`` order)
    packed in a ``deal`` action, or None if it decodes to nothing."""
    try:
        return unpack(action, game.num_players, len(game.cards_in_play))
    except ValueError:
        return None


def deal_hands(game: OracleGame, action: int) -> list[list[int]]:
    """Each seat's cards (ascending) in a ``deal`` action known to be legal."""
    owners = deal_owners(game, action)
    assert owners is not None
    hands: list[list[int]] = [[] for _ in range(game.num_players)]
    for card, owner in zip(game.cards_in_play, owners, strict=True):
        hands[owner].append(card)
    return hands


def oracle_layout(game: OracleGame, action: int) -> tuple[list[list[int]], list[int]] | None:
    """An ``oracles`` action decoded into each seat's cards and (draft) the
    stack in draw order, or None if it decodes to nothing."""
    n = game.num_players
    try:
        if not game.draft:
            owners = unpack(action, n + 1, NUM_ORACLE_CARDS)
            hands: list[list[int]] = [[] for _ in range(n)]
            for card, owner in enumerate(owners):
                if owner < n:
                    hands[owner].append(card)
            return hands, []
        values = unpack(action, NUM_ORACLE_CARDS, 2 * n + game.stack_size)
    except ValueError:
        return None
    return [values[2 * seat : 2 * seat + 2] for seat in range(n)], values[2 * n :]


def pack_oracle_owners(game: OracleGame, hands: Sequence[Sequence[int]]) -> int:
    """The (non-draft) ``oracles`` action dealing ``hands`` (the rest set aside)."""
    n = game.num_players
    owners = [n] * NUM_ORACLE_CARDS
    for seat, hand in enumerate(hands):
        for card in hand:
            owners[card] = seat
    return pack(owners, n + 1)


def deal_text(game: OracleGame, action: int) -> str:
    owners = deal_owners(game, action)
    if owners is None:
        return f"deal #{action}"
    hands: list[list[str]] = [[] for _ in range(game.num_players)]
    for card, owner in zip(game.cards_in_play, owners, strict=True):
        hands[owner].append(CARD_NAMES[card])
    return "deal " + " / ".join(" ".join(hand) for hand in hands)


def oracles_text(game: OracleGame, action: int) -> str:
    layout = oracle_layout(game, action)
    if layout is None:
        return f"oracles #{action}"
    hands, stack = layout
    text = "oracles " + " / ".join(" ".join(ORACLE_IDS[card] for card in hand) for hand in hands)
    if game.draft:
        text += " ; stack " + " ".join(ORACLE_IDS[card] for card in stack)
    return text


def read_deal(game: OracleGame, text: str, body: str) -> int:
    """The ``deal`` action written ``text`` (``body``: after the word ``deal``)."""
    n = game.num_players
    groups = split_groups(body)
    if len(groups) != n:
        raise notation_error(text, f"a deal lists {n} hands separated by '/', found {len(groups)}")
    owner: dict[int, int] = {}
    size = game.hand_size
    removed = game.removed_colour
    for seat, group in enumerate(groups):
        for token in group:
            try:
                card = parse_card(token)
            except ValueError as error:
                raise notation_error(text, str(error)) from None
            if card // NUM_VALUES == removed:
                colour = COLOUR_NAMES[COLOURS[card // NUM_VALUES]]
                raise notation_error(text, f"{CARD_NAMES[card]} is out of play ({colour} is removed)")
            if card in owner:
                raise notation_error(text, f"{CARD_NAMES[card]} is dealt twice")
            owner[card] = seat
        if len(group) != size:
            raise notation_error(text, f"seat {seat} gets {len(group)} cards, not {size}")
    return pack((owner[card] for card in game.cards_in_play), n)


def read_oracles(game: OracleGame, text: str, body: str) -> int:
    """The ``oracles`` action written ``text`` (``body``: after the word ``oracles``)."""
    n = game.num_players
    stack_tokens: list[str] = []
    if game.draft:
        hands_part, sep, stack_part = body.partition(";")
        stack_words = stack_part.split()
        if not sep or not stack_words or stack_words[0].lower() != "stack":
            raise notation_error(text, "the draft variant lists the stack after '; stack'")
        stack_tokens = stack_words[1:]
        body = hands_part
    elif ";" in body:
        raise notation_error(text, "no stack without the draft variant")
    groups = split_groups(body)
    if len(groups) != n:
        raise notation_error(text, f"Oracle cards for {n} seats separated by '/', found {len(groups)}")
    seen: set[int] = set()

    def read(token: str) -> int:
        try:
            card = oracle_index(token)
        except ValueError as error:
            raise notation_error(text, str(error)) from None
        if card in seen:
            raise notation_error(text, f"{ORACLE_IDS[card]} is dealt twice")
        seen.add(card)
        return card

    hands = []
    for seat, group in enumerate(groups):
        if len(group) != game.oracle_hand:
            raise notation_error(text, f"seat {seat} gets {len(group)} Oracle cards, not {game.oracle_hand}")
        hands.append(sorted(read(token) for token in group))
    if not game.draft:
        return pack_oracle_owners(game, hands)
    if len(stack_tokens) != game.stack_size:
        raise notation_error(text, f"the stack holds {game.stack_size} cards, not {len(stack_tokens)}")
    stack = [read(token) for token in stack_tokens]
    return pack([card for hand in hands for card in hand] + stack, NUM_ORACLE_CARDS)
