"""Oracle's story: one event of a view's log as a sentence in the viewer's
language (the game part ``narrate``; the terminal, the web page and the
replay all tell the game with these sentences).

The event is the viewer's copy (already masked by the rules): a keep the
viewer may not see carries no cards, so the sentence says only that two
were kept. Seats are named by ``names`` (a seat outside it is called
"Seat N", counted from 1). Every text comes from the catalog; the Oracle
cards' texts are the edition's English texts, translated there too.

>>> narrate({"seq": 9, "seat": 2, "kind": "play", "card": "R11"}, None, ["Ann", "Beate", "Carl"], "en")
'Carl plays Red 11.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from oracles.core.game import Game, State
from oracles.games.oracle.prophecies import Edition, default_edition
from oracles.i18n import N_, ntranslate, seat_name, translate

#: Colour names by notation letter, as a card is called ("Red 11").
COLOUR_WORDS = {
    "R": N_("Red"),
    "B": N_("Blue"),
    "G": N_("Green"),
    "Y": N_("Yellow"),
    "P": N_("Purple"),
}
#: Creature names by the views' machine names.
CREATURE_WORDS = {"hydra": N_("Hydra"), "pegasus": N_("Pegasus"), "phoenix": N_("Phoenix")}

#: The Oracle cards' texts (the editions' ``text_en``), marked so that the catalog
#: translates them; a test keeps this list in step with the editions' data.
PROPHECY_TEXTS = (
    N_("exactly one Phoenix chip"),
    N_("exactly one Pegasus chip"),
    N_("exactly one Hydra chip"),
    N_("exactly two Phoenix chips"),
    N_("exactly two Pegasus chips"),
    N_("exactly two Hydra chips"),
    N_("exactly three Phoenix chips"),
    N_("exactly three Pegasus chips"),
    N_("no Phoenix chip"),
    N_("no Pegasus chip"),
    N_("no Hydra chip"),
    N_("at least one each of Phoenix, Pegasus and Hydra chips"),
    N_("more Hydra chips than Phoenix chips"),
    N_("more Pegasus chips than Phoenix chips"),
    N_("as many Phoenix chips as Pegasus chips, at least one of each"),
    N_("at least one Phoenix chip and no Pegasus or Hydra chip"),
    N_("no Loser chip"),
    N_("exactly one Loser chip"),
    N_("at least two Loser chips"),
    N_("the Phoenix Loser chip"),
    N_("the Pegasus Loser chip"),
    N_("the Hydra Loser chip"),
    N_("no chips at all"),
    N_("exactly one chip"),
    N_("exactly two chips"),
    N_("exactly three chips"),
    N_("exactly four chips"),
    N_("at least five chips"),
    N_("fewer chips than your right neighbour"),
    N_("fewer chips than your left neighbour"),
    N_("more chips than your right neighbour"),
    N_("more chips than your left neighbour"),
    N_("as many chips as your left neighbour"),
    N_("fewer chips than every other player"),
    N_("more chips than every other player"),
    N_("at least 10 stars"),
    N_("exactly 5 stars"),
    N_("at least one victory point chip of any creature"),
    N_("as many victory point chips as Loser chips, at least one of each"),
    N_("more stars than your left neighbour"),
)


def card_words(card: str, lang: str) -> str:
    """A playing card in words: ``R11`` is "Red 11" ("Rot 11")."""
    colour = COLOUR_WORDS.get(card[:1])
    if colour is None:
        return card
    return translate(lang, "{colour} {value}", colour=translate(lang, colour), value=card[1:])


def creature_words(creature: object, lang: str) -> str:
    word = CREATURE_WORDS.get(str(creature))
    return translate(lang, word) if word else str(creature)


def prophecy_words(card_id: str, lang: str, game: Game | None = None) -> str:
    """An Oracle card by its text: «exactly one Phoenix chip», as ``game``'s
    edition words it (the printed edition without a game)."""
    edition = getattr(game, "edition", None)
    try:
        card = (edition if isinstance(edition, Edition) else default_edition()).card(card_id)
    except (KeyError, ValueError):
        return card_id
    return translate(lang, "“{text}”", text=_worded(card.texts, card_id, lang))


def _worded(texts: object, card_id: str, lang: str) -> str:
    """A card's text as the table's edition words it (an event's ``texts``
    entry: English and German), translated: the catalog's words for a text
    it knows, else the edition's own German; the printed text where the
    event has none."""
    if not (isinstance(texts, list | tuple) and len(texts) == 2):
        return prophecy_text(card_id, lang)
    english, german = str(texts[0]), str(texts[1])
    said = translate(lang, english)
    if lang != "en" and said == english and german:
        return german
    return said


def _nth(items: object, index: int) -> object:
    return items[index] if isinstance(items, list) and 0 <= index < len(items) else None


def _cards_words(event: dict[str, Any], lang: str) -> str:
    """An event's Oracle cards by their texts, joined: «“…” and “…”»."""
    texts = event.get("texts")
    return _and(
        [
            translate(lang, "“{text}”", text=_worded(_nth(texts, i), str(c), lang))
            for i, c in enumerate(event.get("cards") or [])
        ],
        lang,
    )


def prophecy_text(card_id: str, lang: str) -> str:
    """An Oracle card's text alone, translated (the id if it is unknown)."""
    try:
        return translate(lang, default_edition().card(card_id).text_en)
    except (KeyError, ValueError):
        return card_id


def _and(items: list[str], lang: str) -> str:
    if len(items) <= 1:
        return "".join(items)
    return translate(lang, "{first} and {second}", first=", ".join(items[:-1]), second=items[-1])


def trick_reason(event: dict[str, Any], lang: str) -> str:
    """Why the trick's card won, in words (the rules' reason, and whether the
    winner was off the led colour)."""
    reason = event.get("reason")
    cards = [play[1] for play in event.get("cards") or [] if isinstance(play, list) and len(play) == 2]
    led = cards[0][:1] if cards else ""
    winning = next((c for s, c in event.get("cards") or [] if s == event.get("winner")), "")
    if reason == "1 beats 12":
        return translate(lang, "a 1 beats a 12 in the same trick")
    if reason == "led colour wins the tie":
        return translate(lang, "equal values: the led colour wins the tie")
    if reason == "first played wins the tie":
        return translate(lang, "equal values, none of the led colour: the first played wins the tie")
    if winning[:1] != led:
        return translate(lang, "highest value, even off colour")
    return translate(lang, "highest value")


def _trick(event: dict[str, Any], names: Sequence[str], lang: str) -> str:
    winner = seat_name(event.get("winner"), names, lang)
    creature = creature_words(event.get("creature"), lang)
    winning = next((c for s, c in event.get("cards") or [] if s == event.get("winner")), "")
    head = translate(
        lang, "{card} wins: {reason}.", card=card_words(str(winning), lang), reason=trick_reason(event, lang)
    )
    take = event.get("take")
    if take == "chip":
        left = int(event.get("left") or 0)
        if left:
            tail = ntranslate(
                lang,
                "{name} takes a {creature} chip ({count} left in the middle).",
                "{name} takes a {creature} chip ({count} left in the middle).",
                left,
                name=winner,
                creature=creature,
            )
        else:
            tail = translate(lang, "{name} takes the last {creature} chip.", name=winner, creature=creature)
    elif take == "loser":
        source = event.get("from")
        if source is None:
            tail = translate(
                lang,
                "No {creature} chip is left: {name} takes the {creature} Loser chip from the middle.",
                name=winner,
                creature=creature,
            )
        else:
            tail = translate(
                lang,
                "No {creature} chip is left: {name} takes the {creature} Loser chip from {holder}.",
                name=winner,
                creature=creature,
                holder=seat_name(source, names, lang),
            )
    else:
        tail = translate(
            lang,
            "{name} already holds the {creature} Loser chip and decides whether to keep it.",
            name=winner,
            creature=creature,
        )
    return f"{head} {tail}"


def _score(event: dict[str, Any], names: Sequence[str], lang: str) -> str:
    parts = [translate(lang, "Round {round} is scored.", round=event.get("round"))]
    kept = event.get("kept") or []
    holds = event.get("holds") or []
    forfeits = event.get("forfeits") or []
    points = event.get("points") or []
    for seat, total in enumerate(points):
        name = seat_name(seat, names, lang)
        for creature, chips in forfeits[seat] if seat < len(forfeits) else []:
            parts.append(
                ntranslate(
                    lang,
                    "{name} holds the {creature} Loser chip and puts back {count} {creature} chip.",
                    "{name} holds the {creature} Loser chip and puts back {count} {creature} chips.",
                    int(chips),
                    name=name,
                    creature=creature_words(creature, lang),
                )
            )
        pair = kept[seat] if seat < len(kept) else []
        held = holds[seat] if seat < len(holds) else []
        said = []
        for index, card_id in enumerate(pair):
            worded = _worded(_nth(_nth(event.get("texts"), seat), index), str(card_id), lang)
            text = translate(lang, "“{text}”", text=worded)
            ok = bool(held[index]) if index < len(held) else False
            said.append(
                translate(lang, "{prophecy} holds", prophecy=text)
                if ok
                else translate(lang, "{prophecy} fails", prophecy=text)
            )
        if said:
            parts.append(
                ntranslate(
                    lang,
                    "{name}: {prophecies}; {count} point.",
                    "{name}: {prophecies}; {count} points.",
                    int(total),
                    name=name,
                    prophecies=_and(said, lang),
                )
            )
        else:
            parts.append(
                ntranslate(lang, "{name}: {count} point.", "{name}: {count} points.", int(total), name=name)
            )
    return " ".join(parts)


def narrate(event: dict[str, Any], viewer: int | None, names: Sequence[str], lang: str) -> str:
    """``event`` (one entry of ``view(viewer)["log"]``) as a sentence in ``lang``."""
    kind = event.get("kind")
    name = seat_name(event.get("seat"), names, lang)
    if kind == "dealer":
        return translate(
            lang, "{name} deals the first round.", name=seat_name(event.get("dealer"), names, lang)
        )
    if kind == "deal":
        return translate(
            lang,
            "Round {round}: {dealer} deals the cards.",
            round=event.get("round"),
            dealer=seat_name(event.get("dealer"), names, lang),
        )
    if kind == "oracles":
        if "stack" in event:
            return ntranslate(
                lang,
                "Two Oracle cards are dealt to each player; {count} card lies in the stack.",
                "Two Oracle cards are dealt to each player; {count} cards lie in the stack.",
                int(event["stack"]),
            )
        cards = event.get("cards")
        if cards:
            return translate(
                lang,
                "Oracle cards are dealt. Yours: {cards}.",
                cards=_cards_words(event, lang),
            )
        return translate(lang, "Oracle cards are dealt.")
    if kind == "keep":
        cards = event.get("cards")
        if cards:
            return translate(
                lang,
                "{name} keeps {cards}.",
                name=name,
                cards=_cards_words(event, lang),
            )
        return translate(lang, "{name} keeps two Oracle cards, face down.", name=name)
    if kind == "draw":
        name = seat_name(event.get("drawer"), names, lang)
        cards = event.get("cards")
        if cards:
            return translate(
                lang,
                "{name} draws {cards} from the stack.",
                name=name,
                cards=_cards_words(event, lang),
            )
        return translate(lang, "{name} draws two Oracle cards from the stack.", name=name)
    if kind == "pass":
        receiver = seat_name(event.get("to"), names, lang)
        cards = event.get("cards")
        if cards:
            return translate(
                lang,
                "{name} passes {cards} to {receiver}.",
                name=name,
                receiver=receiver,
                cards=_cards_words(event, lang),
            )
        return translate(lang, "{name} passes two Oracle cards to {receiver}.", name=name, receiver=receiver)
    if kind == "discard":
        return translate(lang, "{name} discards {cards} face up.", name=name, cards=_cards_words(event, lang))
    if kind == "play":
        return translate(
            lang, "{name} plays {card}.", name=name, card=card_words(str(event.get("card")), lang)
        )
    if kind == "trick":
        return _trick(event, names, lang)
    if kind == "loser":
        creature = creature_words(event.get("creature"), lang)
        if event.get("choice") == "keep":
            return translate(lang, "{name} keeps the {creature} Loser chip.", name=name, creature=creature)
        return translate(
            lang, "{name} puts the {creature} Loser chip back in the middle.", name=name, creature=creature
        )
    if kind == "score":
        return _score(event, names, lang)
    return translate(lang, "{name}: {what}", name=name, what=str(kind))


def turn_prompt(legal: Sequence[str], view: dict[str, Any], names: Sequence[str], lang: str) -> str:
    """What the seat to move is to do now, when its moves are no cards to
    play: the status says it (a phone showed only "Last: the Oracle cards
    are dealt…", cut, and the keep's heading below the hand, off screen).

    >>> turn_prompt(["keep O01 O02"], {}, [], "de")
    'Wähle zwei Prophezeiungen, die du behältst'
    >>> turn_prompt(["pass O01 O02"], {"seat": 0}, ["Ann", "Bo"], "en")
    'Choose two prophecies to pass to Bo'
    >>> turn_prompt(["play R3"], {}, [], "en")
    ''
    """
    verb = legal[0].split()[0] if legal else ""
    if verb == "keep":
        return translate(lang, "Choose two prophecies to keep")
    if verb == "pass":
        seat = view.get("seat")
        left = (seat + 1) % len(names) if isinstance(seat, int) and names else None
        return translate(lang, "Choose two prophecies to pass to {name}", name=seat_name(left, names, lang))
    if verb == "discard":
        return translate(lang, "Choose two prophecies to lay face up on the discard pile")
    if verb == "loser":
        return translate(lang, "Keep the Loser chip, or return it to the middle?")
    return ""


def waiting_words(view: dict[str, Any], names: Sequence[str], lang: str) -> str:
    """What the page waits for, where a seat's turn is no card to play: "Warte
    auf Mittel-Bot 4" said nothing of the Loser chip it was deciding on.

    >>> waiting_words({"phase": "loser", "to_act": 1}, ["Ann", "Bo"], "de")
    'Warte auf Bo: Verliererchip behalten oder in die Mitte zurücklegen?'
    >>> waiting_words({"phase": "play", "to_act": 1}, ["Ann", "Bo"], "de")
    ''
    """
    seat = view.get("to_act", view.get("to_move"))
    if view.get("phase") == "loser" and isinstance(seat, int):
        return translate(
            lang,
            "Waiting for {name}: keep the Loser chip, or return it to the middle?",
            name=seat_name(seat, names, lang),
        )
    return ""


def example_move(lang: str) -> str:
    """A move in notation to show as the notation box's example."""
    return translate(lang, "e.g. {move}", move="play R7")


#: Stars on one victory point chip of each creature, for the score pad.
CREATURE_STARS = (("hydra", 5), ("pegasus", 3), ("phoenix", 2))


def score_pad(view: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    """The score pad of every finished round, from the view's ``score``
    events (public once the round is scored): per round and seat the chips
    won by creature, the Loser chips and what they take back, each kept prophecy
    with its text, whether it held and its points, and the round's total."""
    pads = []
    for event in view.get("log") or []:
        if not isinstance(event, dict) or event.get("kind") != "score":
            continue
        seats = []
        chips = event.get("chips") or []
        for seat, total in enumerate(event.get("points") or []):
            held = chips[seat] if seat < len(chips) else {}
            kept = (event.get("kept") or [[]])[seat] if seat < len(event.get("kept") or []) else []
            holds = (event.get("holds") or [[]])[seat] if seat < len(event.get("holds") or []) else []
            worth = (event.get("worth") or [[]])[seat] if seat < len(event.get("worth") or []) else []
            prophecies = []
            for index, card_id in enumerate(kept):
                ok = bool(holds[index]) if index < len(holds) else False
                value = int(worth[index]) if index < len(worth) else 0
                prophecies.append(
                    {
                        "id": card_id,
                        "text": _worded(_nth(_nth(event.get("texts"), seat), index), str(card_id), lang),
                        "holds": ok,
                        "points": value if ok else 0,
                    }
                )
            forfeited = dict((event.get("forfeits") or [[]] * (seat + 1))[seat])
            # As on the rulebook's pad: the chips won, then what the Loser
            # chips take back (the event's chips are those left after it).
            won = {name: int(held.get(name, 0)) + int(forfeited.get(name, 0)) for name, _ in CREATURE_STARS}
            seats.append(
                {
                    "creatures": [
                        {
                            "name": creature_words(name, lang),
                            "chips": won[name],
                            "stars": won[name] * stars,
                            "each": stars,
                        }
                        for name, stars in CREATURE_STARS
                    ],
                    "losers": [
                        creature_words(name, lang)
                        for name in (event.get("losers") or [[]] * (seat + 1))[seat]
                    ],
                    "forfeits": [
                        {"name": creature_words(name, lang), "chips": int(count)}
                        for name, count in (event.get("forfeits") or [[]] * (seat + 1))[seat]
                    ],
                    "chip_stars": (event.get("stars") or [0] * (seat + 1))[seat],
                    "prophecies": prophecies,
                    "total": total,
                }
            )
        pads.append({"round": event.get("round"), "seats": seats})
    return pads


def made_label(move: str, lang: str, names: Sequence[str] = (), game: Game | None = None) -> str:
    """A move made, as the comparison of tables tells it: a keep is said
    done ("Behalten: … und …"; the button's "Behalte … und …" read as an order)."""
    words = move.split()
    if len(words) == 3 and words[0] == "keep":
        if game is not None:
            first, second = (prophecy_words(word.upper(), lang, game) for word in words[1:])
        else:
            first, second = words[1].upper(), words[2].upper()
        return translate(lang, "Kept {first} and {second}", first=first, second=second)
    return move_label(move, lang, names, game)


def move_label(move: str, lang: str, names: Sequence[str] = (), game: Game | None = None) -> str:
    """A legal move's notation as a button's words (the notation itself when
    it has no shorter words). No move of Oracle names a seat: ``names`` is
    there for the narrate parts' one signature. A keep names its two cards
    by their ids, which the table's cards show; given ``game``, the game
    played, by their texts as its edition words them, for a page that shows
    no cards (the comparison of tables on the same deals)."""
    words = move.split()
    if words == ["loser", "keep"]:
        return translate(lang, "Keep the Loser chip")
    if words == ["loser", "return"]:
        return translate(lang, "Put the Loser chip back in the middle")
    if len(words) == 2 and words[0] == "play":
        return translate(lang, "Play {card}", card=card_words(words[1], lang))
    if len(words) == 3 and words[0] == "keep":
        if game is not None:
            first, second = (prophecy_words(word.upper(), lang, game) for word in words[1:])
        else:
            first, second = words[1].upper(), words[2].upper()
        return translate(lang, "Keep {first} and {second}", first=first, second=second)
    return move


def prophecy_table(lang: str) -> list[tuple[str, str, int]]:
    """Every Oracle card of the printed (classic) edition: id, text in
    ``lang`` and points, for the rules page."""
    return [(card.id, translate(lang, card.text_en), card.points) for card in default_edition().cards]


# ------------------------------------------------------------- the advice's reasons
#: A difference between two moves' outcome rates worth a sentence (a tenth
#: of the worlds): below it the rates are within the luck of a few worlds.
NOTABLE = 0.1


def outcomes(world: State, seat: int) -> dict[str, bool]:
    """What came true for ``seat`` at the round just scored in ``world``
    (the hook :data:`oracles.bots.hooks.Outcomes`), read from the ``score``
    event of that seat's log: for each prophecy the seat kept,
    ``"holds:<id>"``; for each creature, ``"loser:<creature>"`` (the seat
    ends the round with that Loser chip). The other seats' prophecies are
    revealed there too, but are not read: the reasons speak only of the
    seat's own cards and of public chips."""
    from oracles.games.oracle.phases import E_SCORE
    from oracles.games.oracle.rules import OracleState
    from oracles.games.oracle.views import event_view

    if isinstance(world, OracleState):
        # Only the last scoring, as the seat's log shows it: this runs at
        # the end of every rollout, and the whole log (or view) would cost
        # a quarter of a late round's rollout.
        last = next((e for e in reversed(world._events) if e.kind == E_SCORE), None)
        log = [] if last is None else [event_view(world, last, seat)]
    else:
        log = world.view(seat)["log"]
    for event in reversed(log):
        if event.get("kind") != "score":
            continue
        kept = event.get("kept") or []
        holds = event.get("holds") or []
        losers = event.get("losers") or []
        found = {
            f"holds:{card}": bool(held)
            for card, held in zip(
                kept[seat] if seat < len(kept) else [], holds[seat] if seat < len(holds) else [], strict=False
            )
        }
        mine = losers[seat] if seat < len(losers) else []
        for creature in CREATURE_WORDS:
            found[f"loser:{creature}"] = creature in mine
        return found
    return {}


def _percent(rate: float, lang: str) -> str:
    return translate(lang, "{percent}%", percent=round(100 * rate))


def _held_alone(rates: Mapping[str, float], lang: str, game: Game | None = None) -> str | None:
    """The seat's kept prophecies and how often each holds, without a
    comparison (a keep, whose cards no other move shares)."""
    kept = [(key.partition(":")[2], rate) for key, rate in rates.items() if key.startswith("holds:")]
    if not kept:
        return None
    if len(kept) == 1:
        card, rate = kept[0]
        return translate(
            lang,
            "{prophecy} holds in {rate} of the games the bot played out.",
            prophecy=prophecy_words(card, lang, game),
            rate=_percent(rate, lang),
        )
    (first, first_rate), (second, second_rate) = kept[:2]
    return translate(
        lang,
        "{first} holds in {first_rate} of the games the bot played out, {second} in {second_rate}.",
        first=prophecy_words(first, lang, game),
        first_rate=_percent(first_rate, lang),
        second=prophecy_words(second, lang, game),
        second_rate=_percent(second_rate, lang),
    )


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
    """Why ``move`` is better (``ahead``) or worse than ``other``, from the
    share of the same worlds in which each outcome of :func:`outcomes` came
    true after each (the hook :data:`oracles.bots.hooks.Why`): the prophecy
    kept alive or lost, the Loser chip avoided or risked, whichever differs
    most; a keep (or a move with nothing to compare) says how often its
    prophecies hold. None when nothing differs by :data:`NOTABLE`. The cards
    are worded as ``game``'s edition words them (the table's count)."""
    chosen: tuple[float, str] | None = None
    if other is not None and other_rates is not None and not move.startswith("keep "):
        for key, rate in rates.items():
            if key not in other_rates:
                continue
            gain = rate - other_rates[key]
            if key.startswith("loser:"):
                gain = -gain  # a Loser chip costs its creature's chips
            if not ahead:
                gain = -gain
            if gain >= NOTABLE and (chosen is None or gain > chosen[0]):
                chosen = (gain, key)
    if chosen is None or other is None or other_rates is None:
        return _held_alone(rates, lang, game) if ahead else None
    key = chosen[1]
    kind, _, name = key.partition(":")
    fields = {
        "rate": _percent(rates[key], lang),
        "other_rate": _percent(other_rates[key], lang),
        "move": move_label(other, lang, names),
    }
    if kind == "loser":
        creature = creature_words(name, lang)
        if ahead:
            return translate(
                lang,
                "Avoids the {creature} Loser chip: you end with it in {rate} of the games the bot played out, against {other_rate} with “{move}”.",
                creature=creature,
                **fields,
            )
        return translate(
            lang,
            "Risks the {creature} Loser chip: you end with it in {rate} of the games the bot played out, against {other_rate} with “{move}”.",
            creature=creature,
            **fields,
        )
    text = prophecy_words(name, lang, game)
    if ahead:
        return translate(
            lang,
            "Keeps {prophecy} alive: it holds in {rate} of the games the bot played out, against {other_rate} with “{move}”.",
            prophecy=text,
            **fields,
        )
    return translate(
        lang,
        "{prophecy} holds in only {rate} of the games the bot played out, against {other_rate} with “{move}”.",
        prophecy=text,
        **fields,
    )
