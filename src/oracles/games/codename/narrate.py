"""Codename: Oracle's story: one event of a view's log as a sentence in the
viewer's language (the game part ``narrate``; the terminal, the web page
and the replay tell the duel with these sentences).

Every life change is its own ``life`` event, right after what caused it
(a strike that hits, a wrong guess, a healing set), and the game's end is
an ``over`` event with its reason, so the story explains both. Secret
fields (a hand, a peeked card) are in the viewer's copy only when the viewer
saw them; without them the sentence says only what happened.

>>> narrate({"seq": 40, "seat": 1, "kind": "life", "player": 0, "change": -2, "life": 7}, 0, ["Ann", "Bot"], "en")
'Ann loses 2 life (7 left).'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from oracles.core.game import Game, State
from oracles.games.codename.actions import kind_of_cells
from oracles.i18n import N_, ntranslate, seat_name, translate


def standing_word(score: float, lang: str) -> str:
    """A seat's result in the final standings: a duel is won, lost or drawn
    (its scores of +1, -1 and 0 are no points a player counts).

    >>> standing_word(1, "en"), standing_word(-1, "de"), standing_word(0, "de")
    ('won', 'verloren', 'unentschieden')
    """
    if score > 0:
        return translate(lang, "won")
    return translate(lang, "lost") if score < 0 else translate(lang, "drawn")


SYMBOL_WORDS = {
    "star": N_("star"),
    "square": N_("square"),
    "wave": N_("wave"),
    "circle": N_("circle"),
    "cross": N_("cross"),
}


def symbol_words(symbol: object, lang: str) -> str:
    word = SYMBOL_WORDS.get(str(symbol))
    return translate(lang, word) if word else str(symbol)


def symbols_words(symbols: Sequence[object], lang: str) -> str:
    return ", ".join(symbol_words(s, lang) for s in symbols) or "–"


def _cells(cells: Sequence[object]) -> str:
    return " ".join(str(c) for c in cells)


def _cards(cells: Sequence[object], symbols: Sequence[object], lang: str) -> str:
    return ", ".join(f"{cell} {symbol_words(s, lang)}" for cell, s in zip(cells, symbols, strict=False))


def _set_kind(event: dict[str, Any], lang: str) -> str:
    kind = event.get("set")
    if kind == "strike":
        cells = event.get("cells") or ["?"]
        return translate(lang, "a strike on column {column}", column=str(cells[0])[:1])
    if kind == "shield":
        return translate(lang, "a shield")
    return translate(lang, "a focus")


def _over(event: dict[str, Any], names: Sequence[str], lang: str) -> str:
    reason = event.get("reason")
    winners = [w for w in event.get("winners") or [] if isinstance(w, int)]
    if reason == "turns":
        return translate(lang, "The turn limit is reached: the game is drawn.")
    if reason == "code" and winners:
        return translate(
            lang,
            "{name} named the whole opposing code: {name} wins.",
            name=seat_name(winners[0], names, lang),
        )
    if winners:
        return translate(
            lang,
            "{loser}'s life is down to zero: {winner} wins.",
            loser=seat_name(1 - winners[0], names, lang),
            winner=seat_name(winners[0], names, lang),
        )
    return translate(lang, "Both lives fell to zero in the same turn: the game is drawn.")


#: Events that mark the flow of the turns rather than tell what a player did
#: (a turn begins or ends, a card drawn up): the status's "Last:" line passes
#: over them to the strike, damage or reveal before.
QUIET_KINDS = frozenset({"turn", "end", "draw", "reshuffle", "first"})

#: What a seat deciding in the other seat's turn does, for the status's headline.
ANSWERS = {
    "respond": N_("Answer {name}'s strike"),
    "block": N_("Answer {name}'s strike: choose your shield"),
    "codeswap": N_("Your shield acts in {name}'s turn"),
    "place": N_("Your shield acts in {name}'s turn"),
    "fill": N_("Your shield acts in {name}'s turn"),
}


def headline(view: Mapping[str, Any], names: Sequence[str], lang: str) -> str:
    """The status's headline for the seat of ``view`` when it decides in the
    other seat's turn (it answers a strike, its shield acts); empty on its
    own turn (the page says "Your turn").

    >>> headline({"seat": 0, "turn_player": 1, "decision": {"kind": "respond", "player": 0}}, ["Ann", "Bot"], "en")
    "Answer Bot's strike"
    >>> headline({"seat": 0, "turn_player": 0, "decision": {"kind": "turn", "player": 0}}, ["Ann", "Bot"], "en")
    ''
    """
    decision = view.get("decision") or {}
    seat, turn_player = view.get("seat"), view.get("turn_player")
    words = ANSWERS.get(str(decision.get("kind")))
    if words is None or turn_player is None or turn_player == seat:
        return ""
    return translate(lang, words, name=seat_name(turn_player, names, lang))


def replay_view(views: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The replay board's view of a finished game (its record is public):
    seat 0's view, with each seat's code and hand as that seat knew them
    (the other's stayed "?" on the board while "All hands" showed them).
    Only the replay of a game over calls it: a live seat's view never
    holds the other's code or hand.

    >>> mine = {"seat": 0, "sides": [{"code": ["star"], "hand": ["wave"]}, {"hand_count": 1}]}
    >>> theirs = {"seat": 1, "sides": [{}, {"code": ["cross"], "hand": ["circle"], "hand_count": 1}]}
    >>> replay_view([mine, theirs])["sides"][1]
    {'hand_count': 1, 'code': ['cross'], 'hand': ['circle']}
    >>> mine["sides"][1]
    {'hand_count': 1}
    """
    board = dict(views[0]) if views else {}
    sides = [dict(side) for side in board.get("sides") or []]
    for seat, side in enumerate(sides):
        if seat >= len(views):
            continue
        own = (views[seat].get("sides") or [{}] * len(sides))[seat]
        for key in ("code", "hand"):
            if own.get(key) is not None:
                side[key] = list(own[key])
    if sides:
        board["sides"] = sides
    return board


def narrate(event: dict[str, Any], viewer: int | None, names: Sequence[str], lang: str) -> str:
    """``event`` (one entry of ``view(viewer)["log"]``) as a sentence in ``lang``."""
    kind = event.get("kind")
    player = event.get("player", event.get("seat"))
    name = seat_name(player, names, lang)
    cells = list(event.get("cells") or [])
    if kind == "code":
        if "code" in event:
            return translate(
                lang,
                "{name} chooses the code row {symbols}.",
                name=name,
                symbols=symbols_words(event["code"], lang),
            )
        return translate(lang, "{name} chooses a secret code row.", name=name)
    if kind == "shuffle":
        if "hand" in event:
            return translate(
                lang,
                "{name}'s cards are shuffled: twenty face down to the Mind-field, the hand {symbols}, the rest to the deck.",
                name=name,
                symbols=symbols_words(event["hand"], lang),
            )
        return translate(
            lang,
            "{name}'s cards are shuffled: twenty face down to the Mind-field, five to the hand, the rest to the deck.",
            name=name,
        )
    if kind == "first":
        return translate(lang, "{name} begins.", name=name)
    if kind == "turn":
        return translate(lang, "Turn {turn}: {name} plays.", turn=event.get("turn"), name=name)
    if kind == "peek":
        if "symbols" in event:
            return translate(
                lang, "{name} peeks at {cards}.", name=name, cards=_cards(cells, event["symbols"], lang)
            )
        return translate(lang, "{name} peeks at {cells}.", name=name, cells=_cells(cells))
    if kind == "swap":
        return translate(
            lang, "{name} swaps {first} and {second} unseen.", name=name, first=cells[0], second=cells[-1]
        )
    if kind == "replace":
        if "symbol" in event:
            return translate(
                lang,
                "{name} replaces {cell} by {symbol} from the hand.",
                name=name,
                cell=event.get("cell"),
                symbol=symbol_words(event["symbol"], lang),
            )
        return translate(
            lang, "{name} replaces {cell} by a card from the hand.", name=name, cell=event.get("cell")
        )
    if kind == "reveal":
        symbols = symbols_words(event.get("symbols") or [], lang)
        if event.get("valid"):
            return translate(
                lang,
                "{name} reveals {cells} ({symbols}): {set}.",
                name=name,
                cells=_cells(cells),
                symbols=symbols,
                set=_set_kind(event, lang),
            )
        return translate(
            lang,
            "{name} reveals {cells} ({symbols}): not a set; the cards go back face down and the turn ends.",
            name=name,
            cells=_cells(cells),
            symbols=symbols,
        )
    if kind == "respond":
        if not cells:
            return translate(lang, "{name} does not answer the strike.", name=name)
        symbols = symbols_words(event.get("symbols") or [], lang)
        if event.get("valid"):
            return translate(
                lang,
                "{name} answers the strike with {cells} ({symbols}): a shield, which stays up.",
                name=name,
                cells=_cells(cells),
                symbols=symbols,
            )
        return translate(
            lang,
            "{name} answers the strike with {cells} ({symbols}): not a shield; it costs nothing.",
            name=name,
            cells=_cells(cells),
            symbols=symbols,
        )
    if kind == "hit":
        return translate(
            lang,
            "{name}'s strike on column {column} is not blocked: it hits.",
            name=name,
            column=event.get("column"),
        )
    if kind == "block":
        return translate(
            lang,
            "{name} blocks the strike with the {symbol} shield {cells}; the shield is discarded.",
            name=name,
            symbol=symbol_words(event.get("symbol"), lang),
            cells=_cells(cells),
        )
    if kind == "discard_shield":
        return translate(
            lang,
            "{name}'s {symbol} shield {cells} is discarded by a wave focus.",
            name=name,
            symbol=symbol_words(event.get("symbol"), lang),
            cells=_cells(cells),
        )
    if kind == "code_shown":
        if "symbol" in event and viewer is not None and viewer != player:
            # The one who sees it reads it: the card is shown to them.
            return translate(
                lang,
                "{name}'s code card in slot {slot} is shown to you: {symbol}.",
                name=name,
                slot=event.get("slot"),
                symbol=symbol_words(event["symbol"], lang),
            )
        if "symbol" in event:
            return translate(
                lang,
                "{name}'s code card in slot {slot} is shown to the opponent: {symbol}.",
                name=name,
                slot=event.get("slot"),
                symbol=symbol_words(event["symbol"], lang),
            )
        return translate(
            lang,
            "{name}'s code card in slot {slot} is shown to the opponent.",
            name=name,
            slot=event.get("slot"),
        )
    if kind == "discard_hand":
        return ntranslate(
            lang,
            "{name} discards the whole hand ({count} card).",
            "{name} discards the whole hand ({count} cards).",
            int(event.get("count") or 0),
            name=name,
        )
    if kind == "codeswap":
        slots = list(event.get("slots") or [])
        if not slots:
            return translate(lang, "{name} keeps the code row as it is.", name=name)
        return translate(
            lang, "{name} swaps code cards {first} and {second}.", name=name, first=slots[0], second=slots[-1]
        )
    if kind == "recode":
        if "symbol" in event:
            return translate(
                lang,
                "{name} puts {symbol} from the hand into code slot {slot}.",
                name=name,
                symbol=symbol_words(event["symbol"], lang),
                slot=event.get("slot"),
            )
        return translate(
            lang, "{name} puts a hand card into code slot {slot}.", name=name, slot=event.get("slot")
        )
    if kind == "pick":
        return translate(
            lang, "{name} picks {cell} to be shuffled as well.", name=name, cell=event.get("cell")
        )
    if kind == "scramble":
        return translate(
            lang,
            "{name}'s cards {cells} are shuffled and dealt back face down, unseen.",
            name=name,
            cells=_cells(cells),
        )
    if kind == "aside":
        if "symbols" in event:
            return translate(
                lang,
                "{name} draws {symbols} to place.",
                name=name,
                symbols=symbols_words(event["symbols"], lang),
            )
        return ntranslate(
            lang,
            "{name} draws {count} card to place.",
            "{name} draws {count} cards to place.",
            int(event.get("count") or 0),
            name=name,
        )
    if kind == "place":
        if "symbol" in event:
            return translate(
                lang,
                "{name} places {symbol} at {cell}.",
                name=name,
                symbol=symbol_words(event["symbol"], lang),
                cell=event.get("cell"),
            )
        return translate(lang, "{name} places a card at {cell}.", name=name, cell=event.get("cell"))
    if kind == "fill":
        if event.get("source") == "deck":
            return translate(lang, "{name} fills {cell} from the deck.", name=name, cell=event.get("cell"))
        if "symbol" in event:
            return translate(
                lang,
                "{name} fills {cell} with {symbol} from the hand.",
                name=name,
                cell=event.get("cell"),
                symbol=symbol_words(event["symbol"], lang),
            )
        return translate(lang, "{name} fills {cell} from the hand.", name=name, cell=event.get("cell"))
    if kind == "target":
        return translate(
            lang, "{name} has the opponent's card at {cell} discarded.", name=name, cell=event.get("cell")
        )
    if kind == "search":
        owner = seat_name(event.get("owner"), names, lang)
        if "symbols" in event:
            return translate(
                lang,
                "{name} searches {owner}'s discard pile: {symbols}.",
                name=name,
                owner=owner,
                symbols=symbols_words(event["symbols"], lang),
            )
        return translate(lang, "{name} searches {owner}'s discard pile.", name=name, owner=owner)
    if kind == "take":
        return translate(
            lang,
            "{name} takes {symbol} from the discard pile into {cell}.",
            name=name,
            symbol=symbol_words(event.get("symbol"), lang),
            cell=event.get("cell"),
        )
    if kind == "name":
        slots = list(event.get("slots") or [])
        symbol = symbol_words(event.get("symbol"), lang)
        if "slots" not in event:  # a spectator's copy: which slots is the players'
            return translate(lang, "{name} names {symbol}.", name=name, symbol=symbol)
        if not slots:
            return translate(
                lang,
                "{name} names {symbol}: no code card of the opponent shows it.",
                name=name,
                symbol=symbol,
            )
        return translate(
            lang,
            "{name} names {symbol}: the opponent's code slots {slots} show it.",
            name=name,
            symbol=symbol,
            slots=" ".join(str(s) for s in slots),
        )
    if kind == "guess":
        # A spectator's copy has only the count (the damage tells it).
        right = list(event.get("right") or [])
        if "right" not in event:
            right = [None] * int(event.get("count") or 0)
        symbols = symbols_words(event.get("symbols") or [], lang)
        if len(right) == 5:
            return translate(
                lang, "{name} guesses the code {symbols}: all five right.", name=name, symbols=symbols
            )
        text = ntranslate(
            lang,
            "{name} guesses the code {symbols}: {count} of 5 right",
            "{name} guesses the code {symbols}: {count} of 5 right",
            len(right),
            name=name,
            symbols=symbols,
        )
        if right and right[0] is not None:
            text += " " + translate(lang, "(slots {slots})", slots=" ".join(str(s) for s in right))
        return text + "."
    if kind == "open":
        if not cells:
            return translate(lang, "No card of {name} is opened.", name=name)
        return translate(
            lang,
            "{name}'s cards are opened: {cards}.",
            name=name,
            cards=_cards(cells, event.get("symbols") or [], lang),
        )
    if kind == "life":
        change = int(event.get("change") or 0)
        if change < 0:
            return ntranslate(
                lang,
                "{name} loses {count} life ({life} left).",
                "{name} loses {count} life ({life} left).",
                -change,
                name=name,
                life=event.get("life"),
            )
        return ntranslate(
            lang,
            "{name} gains {count} life ({life} now).",
            "{name} gains {count} life ({life} now).",
            change,
            name=name,
            life=event.get("life"),
        )
    if kind == "end":
        return translate(lang, "{name} ends the turn.", name=name)
    if kind == "draw":
        if "symbols" in event:
            return translate(
                lang, "{name} draws {symbols}.", name=name, symbols=symbols_words(event["symbols"], lang)
            )
        return ntranslate(
            lang,
            "{name} draws {count} card.",
            "{name} draws {count} cards.",
            int(event.get("count") or 0),
            name=name,
        )
    if kind == "reshuffle":
        return ntranslate(
            lang,
            "{name}'s discard pile ({count} card) is shuffled into a new deck.",
            "{name}'s discard pile ({count} cards) is shuffled into a new deck.",
            int(event.get("count") or 0),
            name=name,
        )
    if kind == "over":
        return _over(event, names, lang)
    return translate(lang, "{name}: {what}", name=name, what=str(kind))


def example_move(lang: str) -> str:
    """A move in notation to show as the notation box's example."""
    return translate(lang, "e.g. {move}", move="peek a1 b2")


def move_label(move: str, lang: str, names: Sequence[str] = (), game: Game | None = None) -> str:
    """A legal move's notation as a button's words (the notation itself when
    it has none: a debug ``first``). No move of Codename names a seat, nor reads
    the game's options: ``names`` and ``game`` are there for the narrate
    parts' one signature."""
    words = move.split()
    verb, args = (words[0], words[1:]) if words else ("", [])
    if verb in ("code", "guess") and len(args) == 5:
        said = N_("Choose the code: {symbols}") if verb == "code" else N_("Guess the code: {symbols}")
        return translate(lang, said, symbols=symbols_words(args, lang))
    if verb == "peek" and len(args) == 2:
        return translate(lang, "Peek at {cell} and {other}", cell=args[0], other=args[1])
    if verb == "swap" and len(args) == 2:
        return translate(lang, "Swap {cell} and {other}", cell=args[0], other=args[1])
    if verb == "replace" and len(args) == 2:
        return translate(
            lang,
            "Replace {cell} by {symbol} from your hand",
            cell=args[0],
            symbol=symbol_words(args[1], lang),
        )
    if verb == "reveal" and args:
        return translate(
            lang, "Reveal {cells} ({kind})", cells=_cells(args), kind=translate(lang, kind_of_cells(args))
        )
    if verb == "respond" and args and args != ["pass"]:
        return translate(lang, "Answer with the shield {cells}", cells=_cells(args))
    if verb == "block" and args:
        if args[0] == "row" and len(args) == 2:
            return translate(lang, "Block with row {row}", row=args[1])
        return translate(lang, "Block with {cells}", cells=_cells(args))
    if verb == "codeswap" and len(args) == 2:
        return translate(lang, "Swap code slots {slot} and {other}", slot=args[0], other=args[1])
    if verb == "recode" and len(args) == 2:
        return translate(
            lang, "Put {symbol} into code slot {slot}", symbol=symbol_words(args[1], lang), slot=args[0]
        )
    if verb in ("place", "fill") and args:
        cell = args[0] if len(args) == 2 else None
        what = args[-1]
        if what == "deck":
            if cell:
                return translate(lang, "Fill {cell} from the deck", cell=cell)
            return translate(lang, "Fill from the deck")
        symbol = symbol_words(what, lang)
        if verb == "place":
            if cell:
                return translate(lang, "Place {symbol} at {cell}", symbol=symbol, cell=cell)
            return translate(lang, "Place {symbol}", symbol=symbol)
        if cell:
            return translate(lang, "Fill {cell} with {symbol} from your hand", cell=cell, symbol=symbol)
        return translate(lang, "Fill with {symbol} from your hand", symbol=symbol)
    if words == ["end"]:
        return translate(lang, "End the turn (draw up to five)")
    if words == ["respond", "pass"]:
        return translate(lang, "Do not answer the strike")
    if words == ["codeswap", "pass"]:
        return translate(lang, "Keep the code row as it is")
    if len(words) == 2:
        verb, argument = words
        if verb == "peek":
            return translate(lang, "Peek at {cell}", cell=argument)
        if verb == "pick":
            return translate(lang, "Shuffle {cell} as well", cell=argument)
        if verb == "target":
            return translate(lang, "Discard the card at {cell}", cell=argument)
        if verb == "take":
            return translate(lang, "Take {symbol}", symbol=symbol_words(argument, lang))
        if verb == "name":
            return translate(lang, "Name {symbol}", symbol=symbol_words(argument, lang))
    return move


# ------------------------------------------------------------- the advice's reasons
#: A difference between two moves' outcome rates worth a sentence (a tenth
#: of the worlds): below it the rates are within the luck of a few worlds.
NOTABLE = 0.1

#: The outcomes of a turn: whether each is good for the seat, and its
#: sentence (whole, so that each language orders it as it must).
TURN_FACTS = {
    "hit:dealt": (
        True,
        N_(
            "Your strike hits this turn in {rate} of the games the bot played out, against {other_rate} with “{move}”."
        ),
    ),
    "hit:taken": (
        False,
        N_(
            "Your opponent's strike hits you this turn in {rate} of the games the bot played out, against {other_rate} with “{move}”."
        ),
    ),
    "code:found": (
        True,
        N_(
            "A card of your opponent's code is shown to you this turn in {rate} of the games the bot played out, "
            "against {other_rate} with “{move}”."
        ),
    ),
    "code:shown": (
        False,
        N_(
            "A card of your code is shown to your opponent this turn in {rate} of the games the bot played out, "
            "against {other_rate} with “{move}”."
        ),
    ),
    "game:won": (
        True,
        N_(
            "You win this turn in {rate} of the games the bot played out, against {other_rate} with “{move}”."
        ),
    ),
    "game:lost": (
        False,
        N_(
            "You lose this turn in {rate} of the games the bot played out, against {other_rate} with “{move}”."
        ),
    ),
}


def outcomes(world: State, seat: int) -> dict[str, bool]:
    """What came true for ``seat`` in the turn just played in ``world`` (the
    hook :data:`oracles.bots.hooks.Outcomes`; the advice plays each move to
    the start of the next turn or the end): whether either seat's strike
    hit, a card of either code was shown, the game was won or lost. Read
    from the public part of the log only (who struck, whose code was shown),
    never the symbols."""
    from oracles.games.codename.rules import CodenameState

    if isinstance(world, CodenameState):
        events = [entry.public for entry in world._logs]
    else:
        events = world.view(seat)["log"]
    # The turn just played: after the last ``turn`` event at the end of the
    # game, else between the last two (the last began the next turn).
    starts = [index for index, event in enumerate(events) if event.get("kind") == "turn"]
    if world.is_terminal():
        turn = events[starts[-1] if starts else 0 :]
    else:
        turn = events[starts[-2] if len(starts) > 1 else 0 : starts[-1] if starts else len(events)]
    other = 1 - seat
    said = [(event.get("kind"), event.get("player")) for event in turn]
    winners = world.winners() if world.is_terminal() else []
    return {
        "hit:dealt": ("hit", seat) in said,
        "hit:taken": ("hit", other) in said,
        "code:found": ("code_shown", other) in said,
        "code:shown": ("code_shown", seat) in said,
        "game:won": seat in winners,
        "game:lost": other in winners and seat not in winners,
    }


def why(
    move: str,
    rates: Mapping[str, float],
    other: str | None,
    other_rates: Mapping[str, float] | None,
    ahead: bool,
    lang: str,
    game: Game | None = None,
    names: Sequence[str] = (),
) -> str | None:
    """Why ``move`` is better (``ahead``) or worse than ``other`` this turn
    (the hook :data:`oracles.bots.hooks.Why`): the outcome of
    :func:`outcomes` whose share of the worlds differs most in that
    direction, by at least :data:`NOTABLE`; None otherwise (the value, a
    chance of winning, says the rest). ``game`` is not read: no word of
    these reasons depends on the table's options."""
    if other is None or other_rates is None:
        return None
    chosen: tuple[float, str] | None = None
    # In the table's order, so that a tie names the cause (the strike that
    # hit) before its consequence (the code card it showed).
    for key, (good, _) in TURN_FACTS.items():
        if key not in rates or key not in other_rates:
            continue
        gain = rates[key] - other_rates[key]
        if not good:
            gain = -gain
        if not ahead:
            gain = -gain
        if gain >= NOTABLE and (chosen is None or gain > chosen[0]):
            chosen = (gain, key)
    if chosen is None:
        return None
    key = chosen[1]
    return translate(
        lang,
        TURN_FACTS[key][1],
        rate=translate(lang, "{percent}%", percent=round(100 * rates[key])),
        other_rate=translate(lang, "{percent}%", percent=round(100 * other_rates[key])),
        move=move_label(other, lang, names),
    )
