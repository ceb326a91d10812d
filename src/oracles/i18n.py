"""Translations: one gettext catalog per language, read with Babel.

Every text the program shows a person (the terminal now, the web page too)
is written in English in the source, marked for extraction, and looked up
in the catalog of the viewer's language,
``oracles/locale/<lang>/LC_MESSAGES/oracles.po``. The catalog is read with
Babel and compiled in memory on first use, so there is no build step and the
``.po`` file is the only source of each translation.

Marking: :func:`translate` (``translate(lang, "seat {seat}", seat=2)``),
:func:`ntranslate` for plurals, and :func:`N_` for texts kept in tables and
translated later. ``make messages`` extracts the marked texts
(``pybabel extract``) and updates the catalogs; a test checks that every
marked text has a German translation.

>>> translate("de", "Scores")
'Punkte'
>>> translate("en", "seat {seat}", seat=2)
'seat 2'
"""

from __future__ import annotations

import functools
import gettext
import io
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from oracles.core.game import Game

#: The languages with a catalog; English is the source language.
LANGUAGES = ("en", "de")
DOMAIN = "oracles"
LOCALE_DIR = Path(__file__).parent / "locale"


def catalog_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang`` (no translation for English or an
    unknown language)."""
    path = catalog_path(lang)
    if lang == "en" or not path.exists():
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with path.open("rb") as source:
        catalog = read_po(source, locale=lang, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def translate(lang: str, message: str, **fields: object) -> str:
    """``message`` in ``lang``, with ``{fields}`` filled in."""
    text = translations(lang).gettext(message)
    return text.format(**fields) if fields else text


def ntranslate(lang: str, singular: str, plural: str, count: int, **fields: object) -> str:
    """The singular or plural form for ``count`` in ``lang`` (``{count}`` is
    available to the text). A negative count takes the form of its size:
    "-1 point", as "1 point".

    >>> ntranslate("de", "{count} point", "{count} points", -1)
    '-1 Punkt'
    """
    text = translations(lang).ngettext(singular, plural, abs(count))
    return text.format(count=count, **fields)


def seat_name(seat: object, names: Sequence[str], lang: str) -> str:
    """A seat in a sentence: its name, else "Seat n" counted from 1 (never
    a program's 0-based number).

    >>> seat_name(1, ["Ann", "Bob"], "en"), seat_name(3, [], "de")
    ('Bob', 'Platz 4')
    """
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    if isinstance(seat, int):
        return translate(lang, "Seat {seat}", seat=seat + 1)
    return "?"


#: Fields of a :class:`~oracles.core.errors.Reason` that are words of the
#: game (a colour, an element, a Zener symbol, a creature): translated.
REASON_WORDS = frozenset({"colour", "element", "symbol", "creature"})
#: Fields that are seats (the one acting, one it names): called by name.
REASON_SEATS = frozenset({"seat", "target"})


def reason_words(why: str, lang: str, names: Sequence[str] = ()) -> str:
    """Why a move is not legal, said to the player who tried it in ``lang``:
    a :class:`~oracles.core.errors.Reason`'s ``told``, its seats called by
    ``names`` (else "Seat n" from 1), its game words translated. Any other
    text (a reason without ``told``) is returned as it is.

    >>> from oracles.core.errors import reason
    >>> why = reason("you must follow {colour}", "must follow {colour}", colour="red")
    >>> why, reason_words(why, "en"), reason_words(why, "de")
    ('must follow red', 'you must follow red', 'du musst Rot bedienen')
    >>> reason_words(reason("you have named {target} already this round", target=1), "de", ["Ann", "Bob"])
    'du hast Bob in dieser Runde schon genannt'
    """
    told = getattr(why, "told", None)
    fields = getattr(why, "fields", None)
    if told is None or fields is None:
        return why
    words = {
        key: seat_name(value, names, lang)
        if key in REASON_SEATS
        else translate(lang, value)
        if key in REASON_WORDS and isinstance(value, str)
        else value
        for key, value in fields.items()
    }
    return translate(lang, told, **words)


def move_label(
    game_id: str, move: str, lang: str, names: Sequence[str] = (), game: Game | None = None
) -> str:
    """A move's words in ``lang``, from its game's ``narrate`` part (the
    notation where the game has none): ``bid 3`` is "Bid 3 tricks" ("3 Stiche
    ansagen"); a move that names a seat (an Altaïa oracle) calls it by
    ``names``; given ``game``, the game played, a move that names its cards
    (an Oracle keep) words them as its edition does. The web's buttons and
    pages, the hint desk and the terminal's review all word moves here.

    >>> move_label("inrah", "bid 3", "de"), move_label("inrah", "play fire-7", "en")
    ('3 Stiche ansagen', 'Play Fire 7')
    """
    from oracles.core.registry import game_part

    label = getattr(game_part(game_id, "narrate"), "move_label", None)
    return str(label(move, lang, names, game)) if label is not None else move


def decimal(value: float, lang: str) -> str:
    """A number with one decimal as ``lang`` writes it (Babel's locale data):
    the terminal's review and the web page's points and ratings.

    >>> decimal(3.26, "en"), decimal(21.3, "de"), decimal(-4.0, "de")
    ('3.3', '21,3', '-4,0')
    """
    from babel.numbers import format_decimal

    return str(format_decimal(value, "0.0", locale=lang))


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now."""
    return message


def best_language(accept_language: str | None) -> str:
    """The catalog language that best fits an HTTP ``Accept-Language``
    header (English when none fits).

    >>> best_language("de-DE,de;q=0.9,en;q=0.8")
    'de'
    """
    if not accept_language:
        return "en"
    from babel import Locale, UnknownLocaleError

    ranked = []
    for part in accept_language.split(",")[:20]:
        tag, _, quality = part.strip().partition(";q=")
        try:
            weight = float(quality) if quality else 1.0
        except ValueError:
            continue
        ranked.append((weight, tag.strip()))
    for _, tag in sorted(ranked, key=lambda item: -item[0]):
        try:
            language = Locale.parse(tag.replace("-", "_")).language
        except (ValueError, UnknownLocaleError):
            continue
        if language in LANGUAGES:
            return language
    return "en"
