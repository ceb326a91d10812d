"""The Oracle cards as data, and the small language of their conditions.

An *edition* is a JSON file (default: ``data/prophecies.json`` beside this
module) holding 40 cards ``O01``..``O40``, each with ``points``, ``text_en``,
``text_de`` and a ``condition``. A condition is one or more comparisons joined
by ``and``; each compares two terms with ``== != < <= > >=``. A term is an
integer or ``[scope.]quantity``:

==================  ==========================================================
quantity            meaning (after the end-of-round forfeit)
==================  ==========================================================
``hydra``           victory point chips of Hydra (*X chips*: no Loser chip)
``pegasus``         victory point chips of Pegasus
``phoenix``         victory point chips of Phoenix
``hydra_loser``     1 if the seat holds the Hydra Loser chip, else 0
``pegasus_loser``   the same for Pegasus
``phoenix_loser``   the same for Phoenix
``losers``          Loser chips held
``victory``         victory point chips held
``chips``           every chip held (victory point and Loser chips)
``stars``           stars on the victory point chips held
==================  ==========================================================

========================  ==================================================
scope                     whose chips
========================  ==================================================
(none)                    the card's owner
``left.`` / ``right.``    the left neighbour (seat + 1) / right (seat - 1)
``others_min.``           the smallest value among all other seats
``others_max.``           the largest value among all other seats
========================  ==================================================

A card's ``points`` is a positive integer (the same at every player count)
or an object keyed by player count, ``{"3": 4, "4": 5, "5": 6}``, naming
every count the game allows (:data:`PLAYER_COUNTS`). Its ``condition``,
``text_en`` and ``text_de`` may likewise be a text or an object keyed by
player count, ``{"3": "hydra == 1", "4": "hydra == 1", "5": "hydra >= 2"}``:
a card may ask something else at a table of five. Its texts must then
follow: wherever two counts' conditions differ, both texts differ too (a
card never shows one count's words for another count's condition). A game
plays its own count's card: ``OracleGame`` resolves its edition once
(:meth:`Edition.for_players`), so scoring, views, bots and analysis read
plain integer ``points``, one ``condition`` (compiled) and one text per
language from ``game.edition`` and never see the tables.

A second edition is dropped in as data: ``load_edition(path)`` reads any file
of this shape. The game's ``edition`` option names one (:func:`edition_named`):
``classic``, the project's first edition (``data/prophecies.json``, the points
of the project's own deck), ``balanced``, re-pointed by ``oracles balance``, which also gave
the few cards no points could balance a new condition in this language
(``data/editions/balanced.json``), or the path of an edition file. A subclass
of ``OracleGame`` may also fix its ``edition``. No code names a card.

>>> edition = default_edition()
>>> edition.for_players(3) is edition  # integer points: nothing to resolve
True
>>> card = edition.card("O12")
>>> card.points, card.condition
(6, 'phoenix >= 1 and pegasus >= 1 and hydra >= 1')
>>> seat = chip_quantities(hydra=1, pegasus=2, phoenix=1)
>>> card.holds([seat], 0)
True
"""

from __future__ import annotations

import functools
import hashlib
import json
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

from oracles.games.oracle.cards import STARS

#: Index of each quantity in a seat's quantity vector (see :func:`chip_quantities`).
QUANTITIES = (
    "hydra",
    "pegasus",
    "phoenix",
    "hydra_loser",
    "pegasus_loser",
    "phoenix_loser",
    "losers",
    "victory",
    "chips",
    "stars",
)
_QUANTITY_INDEX = {name: index for index, name in enumerate(QUANTITIES)}
_SCOPES = ("self", "left", "right", "others_min", "others_max")
_OPERATORS: dict[str, Callable[[int, int], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<=": operator.le,
    ">=": operator.ge,
    "<": operator.lt,
    ">": operator.gt,
}

NUM_ORACLE_CARDS = 40
#: The player counts Oracle is played at (``OracleGame.min_players`` to ``max_players``):
#: the keys a card's per-count points must give.
PLAYER_COUNTS = (3, 4, 5)
#: The count whose points an unresolved card's ``points`` holds (the game's default seats).
DEFAULT_PLAYERS = 4
DEFAULT_EDITION_PATH = Path(__file__).with_name("data") / "prophecies.json"
EDITIONS_DIR = Path(__file__).with_name("data") / "editions"
#: The shipped editions by name (the ``edition`` option's values besides a path).
EDITION_PATHS = {"classic": DEFAULT_EDITION_PATH, "balanced": EDITIONS_DIR / "balanced.json"}

# A compiled term: ("int", value) or (scope, quantity index).
Term = tuple[str, int]
Clause = tuple[Callable[[int, int], bool], Term, Term]


def chip_quantities(
    hydra: int = 0, pegasus: int = 0, phoenix: int = 0, losers: Sequence[int] = ()
) -> list[int]:
    """The quantity vector of one seat holding these victory point chips and
    the Loser chips of the creatures in ``losers`` (0 Hydra, 1 Pegasus, 2 Phoenix)."""
    victory = (hydra, pegasus, phoenix)
    loser_flags = [1 if creature in losers else 0 for creature in range(3)]
    stars = sum(count * star for count, star in zip(victory, STARS, strict=True))
    return [*victory, *loser_flags, sum(loser_flags), sum(victory), sum(victory) + sum(loser_flags), stars]


def _compile_term(text: str, card_id: str) -> Term:
    if text.lstrip("-").isdigit():
        return ("int", int(text))
    scope, _, quantity = text.rpartition(".")
    scope = scope or "self"
    if scope not in _SCOPES or quantity not in _QUANTITY_INDEX:
        raise ValueError(f"Oracle card {card_id}: unknown term {text!r} in its condition")
    return (scope, _QUANTITY_INDEX[quantity])


def compile_condition(condition: str, card_id: str = "?") -> tuple[Clause, ...]:
    """Parse a condition text into clauses (``ValueError`` if malformed)."""
    clauses = []
    for part in condition.split(" and "):
        tokens = part.split()
        if len(tokens) != 3 or tokens[1] not in _OPERATORS:
            raise ValueError(f"Oracle card {card_id}: cannot read {part!r} (expected 'term op term')")
        clauses.append(
            (_OPERATORS[tokens[1]], _compile_term(tokens[0], card_id), _compile_term(tokens[2], card_id))
        )
    return tuple(clauses)


def _term_value(term: Term, quantities: Sequence[Sequence[int]], seat: int) -> int:
    scope, index = term
    if scope == "int":
        return index
    n = len(quantities)
    if scope == "self":
        return quantities[seat][index]
    if scope == "left":
        return quantities[(seat + 1) % n][index]
    if scope == "right":
        return quantities[(seat - 1) % n][index]
    others = [quantities[other][index] for other in range(n) if other != seat]
    return min(others) if scope == "others_min" else max(others)


class Wording(NamedTuple):
    """What a card asks at one player count: its condition and its texts."""

    condition: str
    text_en: str
    text_de: str


@dataclass(frozen=True)
class Prophecy:
    """One Oracle card: its id, points, texts and condition.

    ``points_by_players`` is empty when the card's points are the same at
    every player count; otherwise it holds ``(players, points)`` for each of
    :data:`PLAYER_COUNTS` and ``points`` is the value at :data:`DEFAULT_PLAYERS`.
    ``wording_by_players`` does the same for the condition and texts
    (``(players, Wording)``; ``condition``, ``clauses`` and the texts are then
    the default count's). Read a card for a game from an edition resolved by
    :meth:`Edition.for_players` (or through :meth:`at_players`)."""

    id: str
    points: int
    text_en: str
    text_de: str
    condition: str
    clauses: tuple[Clause, ...] = field(repr=False, compare=False)
    points_by_players: tuple[tuple[int, int], ...] = ()
    wording_by_players: tuple[tuple[int, Wording], ...] = ()

    def points_at(self, players: int) -> int:
        """The card's points in a game of ``players`` seats."""
        for count, value in self.points_by_players:
            if count == players:
                return value
        return self.points

    @property
    def wording(self) -> Wording:
        return Wording(self.condition, self.text_en, self.text_de)

    @functools.cached_property
    def texts(self) -> list[str]:
        """``[English, German]``: how an event carries the card's words. One
        list a card, shared by every event that names it (a server holds
        thousands of logs): read it, never change it."""
        return [self.text_en, self.text_de]

    def wording_at(self, players: int) -> Wording:
        """The card's condition and texts in a game of ``players`` seats."""
        for count, value in self.wording_by_players:
            if count == players:
                return value
        return self.wording

    @property
    def per_count(self) -> bool:
        """Whether the card's points or wording depend on the player count."""
        return bool(self.points_by_players or self.wording_by_players)

    def at_players(self, players: int) -> Prophecy:
        """The card as a game of ``players`` seats plays it: that count's
        points, condition (compiled) and texts, with no tables left."""
        if not self.per_count:
            return self
        wording = self.wording_at(players)
        clauses = self.clauses
        if wording.condition != self.condition:
            clauses = compile_condition(wording.condition, self.id)
        return replace(
            self,
            points=self.points_at(players),
            text_en=wording.text_en,
            text_de=wording.text_de,
            condition=wording.condition,
            clauses=clauses,
            points_by_players=(),
            wording_by_players=(),
        )

    def holds(self, quantities: Sequence[Sequence[int]], seat: int) -> bool:
        """Whether the prophecy holds for ``seat``, given every seat's
        quantity vector (:func:`chip_quantities`)."""
        return all(
            compare(_term_value(left, quantities, seat), _term_value(right, quantities, seat))
            for compare, left, right in self.clauses
        )

    def text(self, lang: str = "en") -> str:
        return self.text_de if lang == "de" else self.text_en


@dataclass(frozen=True)
class Edition:
    """A deck of 40 Oracle cards; card int ``k`` is ``cards[k]`` (id ``O{k+1:02}``)."""

    name: str
    cards: tuple[Prophecy, ...]
    #: This edition resolved per player count (:meth:`for_players`), made on first use.
    _resolved: dict[int, Edition] = field(default_factory=dict, init=False, compare=False, repr=False)
    #: What other modules derive from these cards once per edition, by name
    #: (scoring's compiled tests): every game of the edition shares it.
    derived: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    def card(self, card_id: str) -> Prophecy:
        return self.cards[oracle_index(card_id)]

    @property
    def per_count(self) -> bool:
        """Whether some card's points, condition or texts depend on the player count."""
        return any(card.per_count for card in self.cards)

    def points_for(self, card: str | int, players: int) -> int:
        """A card's (id or index) points in a game of ``players`` seats: the
        one place that picks a count's points."""
        prophecy = self.card(card) if isinstance(card, str) else self.cards[card]
        return prophecy.points_at(players)

    def for_players(self, players: int) -> Edition:
        """This edition as a game of ``players`` seats plays it: every card's
        points, condition and texts that count's, with no table left (``self``
        when no card has one, so classic stays the very same object). Made
        once per edition and count."""
        if not self.per_count:
            return self
        resolved = self._resolved.get(players)
        if resolved is None:
            cards = tuple(card.at_players(players) for card in self.cards)
            resolved = self._resolved[players] = Edition(name=self.name, cards=cards)
        return resolved


def oracle_id(index: int) -> str:
    """``0`` -> ``"O01"``."""
    return f"O{index + 1:02d}"


ORACLE_IDS = tuple(oracle_id(index) for index in range(NUM_ORACLE_CARDS))


def oracle_index(token: str) -> int:
    """Read an Oracle card id, any case (``o5``, ``O05``); ``ValueError`` if none."""
    text = token.strip().upper()
    if (
        len(text) < 2
        or text[0] != "O"
        or not text[1:].isdigit()
        or not 1 <= int(text[1:]) <= NUM_ORACLE_CARDS
    ):
        raise ValueError(f"{token!r} is not an Oracle card (O01 to O40)")
    return int(text[1:]) - 1


def _points_of(table: Sequence[tuple[int, int]]) -> tuple[int, tuple[tuple[int, int], ...]]:
    """A card's ``(points, per-count table)`` from its points at every
    count: the default count's points, and no table when they are all equal."""
    default = dict(table)[DEFAULT_PLAYERS]
    if len({points for _, points in table}) == 1:
        return default, ()
    return default, tuple(table)


#: The most points a prophecy may pay (the classic deck's dearest pays 14).
MAX_CARD_POINTS = 1000


def read_points(value: object, card_id: str) -> tuple[int, tuple[tuple[int, int], ...]]:
    """A card's ``points`` field as (points, per-count table); ``ValueError``
    naming the card and what is wrong. An integer is the same at every count
    (the table is empty); an object must give a positive integer for each of
    :data:`PLAYER_COUNTS`, keyed by the count (a table whose values are all
    equal is read as that integer)."""
    if isinstance(value, dict):
        keys = sorted(str(key) for key in value)
        wanted = [str(count) for count in PLAYER_COUNTS]
        if keys != wanted:
            raise ValueError(
                f"Oracle card {card_id}: per-count points must be keyed by the player counts "
                f"{', '.join(wanted)} (each once), got {', '.join(keys) or 'none'}"
            )
        table = []
        for count in PLAYER_COUNTS:
            points = value.get(str(count))
            if isinstance(points, bool) or not isinstance(points, int) or not 1 <= points <= MAX_CARD_POINTS:
                raise ValueError(
                    f"Oracle card {card_id}: its points at {count} players must be an integer "
                    f"from 1 to {MAX_CARD_POINTS}, got {points!r}"
                )
            table.append((count, points))
        return _points_of(table)
    if isinstance(value, bool):
        raise ValueError(
            f"Oracle card {card_id}: points must be an integer or per-count points, got {value!r}"
        )
    # An integer, and only an integer: "7" and 7.5 were read as 7, and 0,
    # -50 or 10**30 were taken as they came.
    if not isinstance(value, int) or not 1 <= value <= MAX_CARD_POINTS:
        raise ValueError(
            f"Oracle card {card_id}: points must be an integer from 1 to {MAX_CARD_POINTS} or an object "
            f'keyed by player count (e.g. {{"3": 4, "4": 5, "5": 6}}), got {value!r}'
        )
    return value, ()


def _read_text_field(value: object, card_id: str, key: str) -> dict[int, str]:
    """A card's ``condition``, ``text_en`` or ``text_de`` at every player
    count, from a text or an object keyed by count; ``ValueError`` naming the
    card, the field and what is wrong."""
    if isinstance(value, dict):
        keys = sorted(str(count) for count in value)
        wanted = [str(count) for count in PLAYER_COUNTS]
        if keys != wanted:
            raise ValueError(
                f"Oracle card {card_id}: a per-count {key} must be keyed by the player counts "
                f"{', '.join(wanted)} (each once), got {', '.join(keys) or 'none'}"
            )
        table = {count: value.get(str(count)) for count in PLAYER_COUNTS}
    else:
        table = dict.fromkeys(PLAYER_COUNTS, value)
    for count, text in table.items():
        if not isinstance(text, str) or not text.strip():
            raise ValueError(
                f"Oracle card {card_id}: its {key} at {count} players must be a non-empty text, got {text!r}"
            )
    return {count: str(text) for count, text in table.items()}


def read_wording(row: dict[str, object], card_id: str) -> tuple[Wording, tuple[tuple[int, Wording], ...]]:
    """A card's ``condition`` and texts as (the default count's wording,
    per-count table: empty when every count asks the same); ``ValueError``
    naming the card if a field is malformed, a condition cannot be read, or
    a text does not change where the condition does."""
    conditions = _read_text_field(row.get("condition"), card_id, "condition")
    english = _read_text_field(row.get("text_en"), card_id, "text_en")
    german = _read_text_field(row.get("text_de", row.get("text_en")), card_id, "text_de")
    table = tuple(
        (count, Wording(conditions[count], english[count], german[count])) for count in PLAYER_COUNTS
    )
    for count, wording in table:
        where = card_id if len(set(conditions.values())) == 1 else f"{card_id} (at {count} players)"
        compile_condition(wording.condition, where)
    for count, wording in table:
        for other, theirs in table:
            if other < count and theirs.condition != wording.condition:
                for key, mine, them in (
                    ("text_en", wording.text_en, theirs.text_en),
                    ("text_de", wording.text_de, theirs.text_de),
                ):
                    if mine == them:
                        raise ValueError(
                            f"Oracle card {card_id}: its condition at {count} players differs from "
                            f"that at {other}, so its {key} must too (give {key} per player count)"
                        )
    return _wording_of(table)


def _wording_of(
    table: Sequence[tuple[int, Wording]],
) -> tuple[Wording, tuple[tuple[int, Wording], ...]]:
    """A card's (default wording, per-count table) from its wording at every
    count: no table when they are all the same."""
    default = dict(table)[DEFAULT_PLAYERS]
    if len({wording for _, wording in table}) == 1:
        return default, ()
    return default, tuple(table)


def _card(
    card_id: str,
    points: tuple[int, tuple[tuple[int, int], ...]],
    wording: tuple[Wording, tuple[tuple[int, Wording], ...]],
) -> Prophecy:
    (value, points_table), (default, wording_table) = points, wording
    return Prophecy(
        id=card_id,
        points=value,
        text_en=default.text_en,
        text_de=default.text_de,
        condition=default.condition,
        clauses=compile_condition(default.condition, card_id),
        points_by_players=points_table,
        wording_by_players=wording_table,
    )


def load_edition(path: str | Path) -> Edition:
    """Read an edition file (see the module docstring); ``ValueError`` if it
    is not a complete, well-formed deck of 40 cards."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8-sig"))
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror or 'unreadable'}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not an edition file: not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise ValueError(
            f"{path} is not an edition file: not JSON ({error.msg}, line {error.lineno})"
        ) from None
    rows = data.get("cards") if isinstance(data, dict) else data
    if not isinstance(rows, list):
        raise ValueError(f"{path} is not an edition file: no list of cards")
    if len(rows) != NUM_ORACLE_CARDS:
        raise ValueError(f"an edition holds {NUM_ORACLE_CARDS} Oracle cards, {path} has {len(rows)}")
    cards = []
    for index, row in enumerate(rows):
        if not isinstance(row, dict) or not isinstance(row.get("id"), str) or "points" not in row:
            raise ValueError(f"card {index + 1} of {path} needs an 'id' and 'points'")
        if row["id"].upper() != oracle_id(index):
            raise ValueError(f"card {index + 1} of {path} must have id {oracle_id(index)}, not {row['id']!r}")
        card_id = oracle_id(index)
        cards.append(_card(card_id, read_points(row["points"], card_id), read_wording(row, card_id)))
    name = str(data.get("edition", Path(path).stem)) if isinstance(data, dict) else Path(path).stem
    return Edition(name=name, cards=tuple(cards))


_DEFAULT: list[Edition] = []


def default_edition() -> Edition:
    """The project's first edition, ``classic`` (the project's own points), read once."""
    if not _DEFAULT:
        _DEFAULT.append(load_edition(DEFAULT_EDITION_PATH))
    return _DEFAULT[0]


_NAMED: dict[str, Edition] = {}


def edition_named(name: str) -> Edition:
    """A shipped edition by name (``classic``, ``balanced``, any case) or an
    edition file by path, each read once per process; ``ValueError`` if it is
    neither or the file is malformed.

    >>> edition_named("classic").card("O34").points
    12
    >>> edition_named("Balanced").card("O34").condition
    'chips < others_min.chips'
    """
    key = name.strip()
    edition = _NAMED.get(key)
    if edition is None:
        path = EDITION_PATHS.get(key.lower())
        if path is None:
            path = Path(key)
            if not path.is_file():
                if key.lower().endswith(".json") or "/" in key or "\\" in key:
                    raise ValueError(f"no edition file {name!r} (looked for it from {Path.cwd()})")
                raise ValueError(
                    f"unknown edition {name!r}: {', '.join(EDITION_PATHS)} or the path of an edition file"
                )
        edition = default_edition() if path == DEFAULT_EDITION_PATH else load_edition(path)
        _NAMED[key] = edition
    return edition


def edition_points(edition: Edition) -> dict[str, int]:
    """Each card's points by id: what an edition changes.

    >>> edition_points(default_edition())["O38"]
    1
    """
    return {card.id: card.points for card in edition.cards}


def repointed(edition: Edition, points: dict[str, int], name: str) -> Edition:
    """The same cards and conditions with new points, the same at every
    player count (ids missing from ``points`` keep theirs, per-count tables
    included); ``ValueError`` unless every point is a positive integer."""
    cards = []
    for card in edition.cards:
        if card.id not in points:
            cards.append(card)
            continue
        value = points[card.id]
        if not isinstance(value, int) or value < 1:
            raise ValueError(f"{card.id}: points must be a positive integer, got {value!r}")
        cards.append(replace(card, points=value, points_by_players=()))
    return Edition(name=name, cards=tuple(cards))


def with_points_at(edition: Edition, players: int, played: Edition, name: str) -> Edition:
    """``edition`` with ``played``'s cards (points, conditions and texts) at
    ``players`` seats, each card keeping ``edition``'s points, condition and
    texts at the other counts: how ``oracles balance --players N`` writes one
    count into a per-count edition. A card that comes out the same at every
    count gets a plain integer and plain texts again."""
    cards = []
    for old, new in zip(edition.cards, played.for_players(players).cards, strict=True):
        points = _points_of(
            [(count, new.points if count == players else old.points_at(count)) for count in PLAYER_COUNTS]
        )
        wording = _wording_of(
            [(count, new.wording if count == players else old.wording_at(count)) for count in PLAYER_COUNTS]
        )
        cards.append(_card(old.id, points, wording))
    return Edition(name=name, cards=tuple(cards))


def _per_count_field(values: Sequence[object]) -> object:
    """One field as an edition file writes it: plain when the same at every count."""
    if len(set(values)) == 1:
        return values[0]
    return {str(count): value for count, value in zip(PLAYER_COUNTS, values, strict=True)}


@functools.lru_cache(maxsize=16)  # every record of a simulation asks it of the same edition
def edition_digest(edition: Edition) -> str:
    """A short fingerprint of ``edition``'s cards (conditions, texts and
    points): a record made with an edition file keeps it, so that a file
    changed since cannot silently change the replay."""
    return hashlib.sha256(edition_json(edition).encode("utf-8")).hexdigest()[:16]


def edition_json(edition: Edition, description: str = "") -> str:
    """An edition as the text of an edition file (readable by :func:`load_edition`)."""
    rows = []
    for card in edition.cards:
        wordings = [card.wording_at(count) for count in PLAYER_COUNTS]
        rows.append(
            {
                "id": card.id,
                "points": _per_count_field([card.points_at(count) for count in PLAYER_COUNTS]),
                "text_en": _per_count_field([wording.text_en for wording in wordings]),
                "text_de": _per_count_field([wording.text_de for wording in wordings]),
                "condition": _per_count_field([wording.condition for wording in wordings]),
            }
        )
    data = {"edition": edition.name, "description": description, "cards": rows}
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
