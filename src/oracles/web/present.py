"""From a seat's view to what the templates show: card faces, sorted hands,
one-click moves and the texts of events, in the viewer's language.

Everything here reads the JSON view (``docs/architecture.md``, views) and the ``legal`` list
of a ``state`` message; nothing reaches into a game's modules, so a page
never shows more than the seat's own view holds. Keys are read with
``.get`` because the views are still converging on the shared schema.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oracles.core.registry import GAMES, game_class, game_part
from oracles.i18n import N_, decimal, ntranslate, translate
from oracles.i18n import move_label as move_label  # the templates' present.move_label


def option_words(game: str, option: str) -> dict[str, Any]:
    """The lobby's words for ``option`` of ``game``, from the game's faces
    part (``OPTION_WORDS``): ``label``, ``help`` and ``choices`` ((value,
    words) pairs), the words to translate; the option's own name and doc
    where the game says none.

    >>> option_words("inrah", "variant")["choices"][1]
    ('purpurberg', 'Purpurberg (teams)')
    """
    faces = game_part(game, "faces")
    words = dict(getattr(faces, "OPTION_WORDS", {}).get(option, {}))
    if "label" not in words or "help" not in words:
        schema = {o.name: o for o in game_class(game).option_schema}
        found = schema.get(option)
        words.setdefault("label", option)
        words.setdefault("help", found.doc if found is not None else None)
    words.setdefault("choices", None)
    return words


def example_move(game: str, lang: str) -> str:
    """The notation box's example: a move of ``game``, from its narrate part."""
    narrate = game_part(game, "narrate")
    example = getattr(narrate, "example_move", None)
    return str(example(lang)) if example is not None else ""


#: The ladder's level names (``ladder.json``, written by ``benchmarks/ladder.py``),
#: listed here so that the catalog holds them.
LEVEL_NAMES = (N_("Novice"), N_("Casual"), N_("Strong"), N_("Master"))
#: The words of the ladder's ``what`` (the lobby translates them).
LEVEL_WHAT = (
    N_("random"),
    N_("heuristic"),
    N_("search"),
    N_("deep search"),
    # A game's own levels (Inrah's careless heuristics, ``docs/bots.md``).
    N_("careless"),
    N_("mostly heuristic"),
)
LADDER = Path(__file__).with_name("ladder.json")


@functools.cache
def ladder() -> dict[str, Any]:
    """The ladder's levels and ratings; empty if the file is missing or bad
    (the lobby then shows the levels without ratings)."""
    try:
        data = json.loads(LADDER.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


@dataclass(frozen=True)
class BotLevel:
    spec: str
    name: str
    what: str
    #: OpenSkill ordinal (mu - 3 sigma) in this game, if measured.
    rating: float | None


#: Offered when the ladder file cannot be read.
_FALLBACK_LEVELS = (
    {"spec": "random", "name": "Novice", "what": "random"},
    {"spec": "heuristic", "name": "Casual", "what": "heuristic"},
    {"spec": "ismcts:iterations=400", "name": "Strong", "what": "search"},
)


def bot_levels(game_id: str) -> list[BotLevel]:
    """The lobby's bot choices for ``game_id``, named and rated by the ladder."""
    data = ladder()
    levels = data.get("levels") or _FALLBACK_LEVELS
    measured = data.get("games", {}).get(game_id, {})
    ratings = measured.get("ratings", {})
    # The spec the ladder measured in this game (its search tuning included).
    specs = measured.get("specs", {})
    # What a level is where the game plays it by another bot.
    what = measured.get("what", {})
    out = []
    for level in levels:
        rating = ratings.get(level.get("key"), {}).get("ordinal")
        spec = specs.get(level.get("key"), level["spec"])
        out.append(
            BotLevel(
                spec,
                level["name"],
                what.get(level.get("key"), level["what"]),
                float(rating) if rating is not None else None,
            )
        )
    return out


def default_bot(game_id: str) -> str:
    """The seat kind of a bot the lobby offers first: its second level
    (Casual), as in the form's seat lists and for one-click play, so that a
    bot seated without a choice is one of the levels the lobby names.

    >>> default_bot("oracle")
    'bot:heuristic'
    """
    levels = bot_levels(game_id)
    return "bot:" + (levels[1].spec if len(levels) > 1 else "heuristic")


def game_title(game_id: str) -> str:
    """The name a page shows for ``game_id``: its short title.

    >>> game_title("inrah")
    'Inrah'
    """
    cls = game_class(game_id)
    return cls.short_title or cls.title


def game_blurb(game_id: str) -> str:
    """The game's one sentence for newcomers (English: the page translates it)."""
    return game_class(game_id).blurb


def replayable(game_id: str) -> bool:
    """Whether another table can play this game's deals (its chance does
    not follow the players' choices)."""
    return bool(game_class(game_id).replayable_chance)


def games_in_order() -> list[str]:
    """The games in the registry's order (the first is the default)."""
    return list(GAMES)


@dataclass(frozen=True)
class Card:
    """A card face: its notation, the CSS colour class, the symbol to draw
    and the short rank shown on it."""

    code: str
    colour: str
    symbol: str
    rank: str
    title: str


def face(game: str, code: str, lang: str) -> dict[str, Any]:
    """The drawing data of one piece of ``game`` (its ``faces`` part); a
    plain face named by its code for a game that draws none.

    >>> face("oracle", "R12", "en")["creature"]
    'phoenix'
    """
    faces = game_part(game, "faces")
    if faces is None:
        return {
            "code": code,
            "token": code.lower(),
            "colour": "grey",
            "symbol": "circle",
            "rank": code,
            "title": code,
        }
    found: dict[str, Any] = faces.face(code, lang)
    return found


def card(game: str, code: str, lang: str) -> Card:
    """A card's face, as the shared templates (the replay's hands) draw it.

    >>> card("inrah", "fire-seer", "de").title
    'Feuer Weissagerin'
    """
    found = face(game, code, lang)
    return Card(code, found["colour"], found["symbol"], str(found["rank"]), found["title"])


def sort_hand(game: str, hand: list[str]) -> list[str]:
    """The hand in the order of the game's ``faces`` part (as dealt without one).

    >>> sort_hand("oracle", ["Y2", "R10", "R2"])
    ['R2', 'R10', 'Y2']
    >>> sort_hand("inrah", ["air-4", "fire-prince", "fire-2"])
    ['fire-2', 'fire-prince', 'air-4']
    """
    faces = game_part(game, "faces")
    if faces is None:
        return list(hand)
    return sorted(hand, key=faces.sort_key)


def one_click(legal: list[str]) -> list[str]:
    """The moves a single button plays: those of one or two words.

    >>> one_click(["play R2", "keep O01 O02", "pass"])
    ['play R2', 'pass']
    """
    return [move for move in legal if len(move.split()) <= 2]


def composed_verbs(legal: list[str]) -> list[str]:
    """The first words of moves of several parts, chosen by selecting then
    confirming (``keep O01 O05``, ``reveal a1 b2``, ``guess star ...``).

    >>> composed_verbs(["play R2", "keep O01 O02", "keep O01 O03"])
    ['keep']
    """
    seen: list[str] = []
    for move in legal:
        words = move.split()
        if len(words) > 2 and words[0] not in seen:
            seen.append(words[0])
    return seen


def event_line(game: str, event: dict[str, Any], viewer: int | None, names: list[str], lang: str) -> str:
    """One event of the viewer's log as a sentence in ``lang``, told by the
    game's ``narrate`` part (the same sentences as the terminal's).

    >>> event_line("oracle", {"seq": 4, "seat": 1, "kind": "play", "card": "R5"}, None, ["Ann", "Bo"], "en")
    'Bo plays Red 5.'
    """
    narrate = game_part(game, "narrate")
    if narrate is None or not isinstance(event, dict):
        return translate(lang, "(an event this page cannot tell)")
    return str(narrate.narrate(event, viewer, names, lang))


def narrator(game: str) -> Any:
    """The game's ``narrate`` part (its story and score pad), or None."""
    return game_part(game, "narrate")


def turn_prompt(game: str, legal: list[str], view: dict[str, Any], names: list[str], lang: str) -> str:
    """What the seat to move is to do now, in words, where the game's
    narrate part says it (Oracle's keep: "Choose two prophecies to keep");
    empty where its moves speak for themselves."""
    prompt = getattr(narrator(game), "turn_prompt", None)
    return str(prompt(legal, view, names, lang)) if prompt is not None and legal else ""


def made_label(game: str, move: str, lang: str, names: Sequence[str] = (), played: Any = None) -> str:
    """A move made, in words that say it was made (the comparison of tables:
    "0 Stiche angesagt", not the button's "0 Stiche ansagen"), where the
    game's narrate part has them; else its button's words."""
    label = getattr(narrator(game), "made_label", None)
    return (
        str(label(move, lang, names, played))
        if label is not None
        else move_label(game, move, lang, names, played)
    )


def waiting_words(game: str, view: dict[str, Any], names: list[str], lang: str) -> str:
    """What another seat's turn is deciding, where the game's narrate part
    says it (Oracle's Loser chip); empty for a turn of playing a card."""
    words = getattr(narrator(game), "waiting_words", None)
    return str(words(view, names, lang)) if words is not None else ""


def has_score_pad(board: dict[str, Any]) -> bool:
    """Whether the board's view has a finished round (or a finished game)
    for the game's score pad, and the game has a pad."""
    view = board.get("view") or {}
    return bool(view.get("round_scores") or view.get("terminal"))


def standings(view: dict[str, Any], names: list[str]) -> list[tuple[int, str, Any]]:
    """(place, name, score) of every seat, best first; tied seats share a place.

    >>> standings({"scores": [10, 25, 10]}, ["Ann", "Bo", "Cy"])
    [(1, 'Bo', 25), (2, 'Ann', 10), (2, 'Cy', 10)]
    """
    scores = view.get("scores") or []
    ranked = sorted(range(len(scores)), key=lambda seat: -scores[seat])
    out: list[tuple[int, str, Any]] = []
    for index, seat in enumerate(ranked):
        place = out[-1][0] if out and scores[seat] == out[-1][2] else index + 1
        name = names[seat] if seat < len(names) else str(seat + 1)
        out.append((place, name, scores[seat]))
    return out


def hints_of_people(board: dict[str, Any]) -> list[tuple[int, int]]:
    """(seat, hints taken) of every seat a person holds, for the game's end
    (a bot cannot take a hint, so its seat is left out of the count).

    >>> hints_of_people({"hints_taken": [2, 0, 1], "seats_info": [{"kind": "human"}, {"kind": "bot"}, {}]})
    [(0, 2), (2, 1)]
    """
    info = board.get("seats_info") or []
    return [
        (seat, taken)
        for seat, taken in enumerate(board.get("hints_taken") or [])
        if seat >= len(info) or info[seat].get("kind") != "bot"
    ]


def standing_word(game: str, score: float, lang: str) -> str:
    """A seat's score in the final standings: the game's own words where its
    narrate part has them (Codename: won, lost, drawn), else its points.

    >>> standing_word("inrah", 40, "de"), standing_word("codename", 1, "de")
    ('40 Punkte', 'gewonnen')
    """
    words = getattr(narrator(game), "standing_word", None)
    if words is not None:
        return str(words(score, lang))
    return ntranslate(lang, "{count} point", "{count} points", int(score))


def end_reason(game: str, view: dict[str, Any], names: list[str], lang: str) -> str:
    """Why the game ended, in words: the game's last ``over`` event told, if
    it logs one (Codename does); empty otherwise (the standings say it)."""
    for event in reversed(view.get("log") or []):
        if isinstance(event, dict) and event.get("kind") == "over":
            return event_line(game, event, view.get("seat"), names, lang)
    return ""


def replay_story(game: str, views: list[dict[str, Any]], names: list[str], lang: str, seq: int) -> list[str]:
    """What the action at ``seq`` of a finished game did (the replay's
    caption): every hand is public now, so an event a seat made (a keep, a
    pass, a code card shown) is told with all that any seat saw of it, in
    the third person; a chance event with what every seat saw of it alike
    (the board shows each hand). (Told from seat 0's view alone, the other
    seats' keeps stayed "two cards, face down", and the Oracle cards dealt
    were "yours", seat 0's.)"""
    base = (views[0].get("log") or []) if views else []
    lines = []
    for index, event in enumerate(base):
        if not isinstance(event, dict) or event.get("seq") != seq:
            continue
        seen = [event]
        for view in views[1:]:
            log = view.get("log") or []
            if (
                index < len(log)
                and log[index].get("seq") == seq
                and log[index].get("kind") == event.get("kind")
            ):
                seen.append(log[index])
        if event.get("seat") is None:
            shared = {
                key: value for key, value in event.items() if all(other.get(key) == value for other in seen)
            }
            lines.append(event_line(game, shared, None, names, lang))
            continue
        lines.append(event_line(game, max(seen, key=len), None, names, lang))
    return lines


def replay_view(game: str, views: list[dict[str, Any]]) -> dict[str, Any]:
    """The view the replay of a finished game draws its board from: the
    game's own (its ``narrate`` part's ``replay_view``: Codename shows each
    seat's code and hand, public once the game is over), else seat 0's."""
    merge = getattr(narrator(game), "replay_view", None)
    if merge is not None and views:
        return dict(merge(views))
    return views[0] if views else {}


def story(game: str, view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """The whole log of ``view`` as sentences, newest first."""
    log = view.get("log") or []
    viewer = view.get("seat")
    return [event_line(game, event, viewer, names, lang) for event in reversed(log)]


def last_event(game: str, view: dict[str, Any], names: list[str], lang: str) -> str:
    """The newest event of ``view`` worth the status's "Last:" line: the
    game's ``narrate`` part may name the kinds that only mark the turns
    (``QUIET_KINDS``: "Turn 4: Ann plays."), passed over for the strike or
    reveal before them; the newest event if all are quiet.

    >>> log = [{"seq": 1, "seat": 1, "kind": "life", "player": 0, "change": -1, "life": 8},
    ...        {"seq": 2, "seat": 1, "kind": "turn", "player": 0, "turn": 4}]
    >>> last_event("codename", {"log": log, "seat": 0}, ["Ann", "Bot"], "en")
    'Ann loses 1 life (8 left).'
    """
    log = [event for event in view.get("log") or [] if isinstance(event, dict)]
    quiet: frozenset[str] = getattr(narrator(game), "QUIET_KINDS", frozenset())
    for event in reversed(log):
        if event.get("kind") not in quiet:
            return event_line(game, event, view.get("seat"), names, lang)
    return event_line(game, log[-1], view.get("seat"), names, lang) if log else ""


def headline(game: str, view: dict[str, Any], names: list[str], lang: str) -> str:
    """The status's headline when the seat decides outside its own turn, in
    the game's words (its ``narrate`` part's ``headline``); empty otherwise."""
    words = getattr(narrator(game), "headline", None)
    return str(words(view, names, lang)) if words is not None else ""


def story_actions(view: dict[str, Any]) -> list[int | None]:
    """For each line of :func:`story` (newest first), the number of the
    action it tells, counted from 1 as the record counts them: the replay's
    "Action 12 of 300" and the lobby's "move 12". Some actions tell two
    lines (a card and the trick it wins), some none.

    >>> story_actions({"log": [{"seq": 0}, {"seq": 4}, {"seq": 4}, {}]})
    [None, 5, 5, 1]
    """
    log = view.get("log") or []
    return [event["seq"] + 1 if isinstance(event.get("seq"), int) else None for event in reversed(log)]


def winners(view: dict[str, Any]) -> list[int]:
    """The view's ``winners``; for a view without them, at the end, the
    seats with the top score.

    >>> winners({"winners": [2]}), winners({"scores": [3, 7, 7]})
    ([2], [1, 2])
    """
    found = view.get("winners")
    if isinstance(found, list) and found:
        return [w for w in found if isinstance(w, int)]
    scores = view.get("scores") or []
    numbers = [s for s in scores if isinstance(s, int | float)]
    if not numbers or len(numbers) != len(scores):
        return []
    top = max(numbers)
    return [seat for seat, score in enumerate(numbers) if score == top]


_DEFAULT_SEAT_NAME = re.compile(r"^Seat (\d+)$")
#: The server's name of a bot seat nobody named: "Bot (heuristic)".
_DEFAULT_BOT_NAME = re.compile(r"^Bot \((\w+)\)$")
#: A bot of no lobby level, called by its kind.
BOT_KIND_NAMES = {"random": N_("Random Bot"), "heuristic": N_("Heuristic Bot"), "ismcts": N_("Search Bot")}


def _level_named(game_id: str, spec: str) -> BotLevel | None:
    """The lobby's level that plays by ``spec`` in ``game_id``, if one does.
    A server adds its time budget to a searching level's spec, so a spec
    matches a level that leaves the budget out once the budget is taken off."""
    from oracles.bots.specs import parse_bot_spec

    try:
        key = parse_bot_spec(spec)[0].time_param
    except Exception:  # a spec of another program's making: no level
        return None
    unbudgeted = ":".join(part for part in spec.split(":") if part.partition("=")[0].strip() != key)
    for level in bot_levels(game_id):
        if spec == level.spec or unbudgeted == level.spec:
            return level
    return None


def _default_name(seat: dict[str, Any], lang: str, game_id: str | None) -> str:
    """A server's default seat name in the viewer's language (others as they
    are); a bot seat nobody named is called by its lobby level where it
    plays one ("Casual Bot"), else by its kind ("Search Bot")."""
    name = str(seat.get("name", ""))
    number = _DEFAULT_SEAT_NAME.match(name)
    if number:
        # "Player 1", not "Seat 1": German "Platz 1" read as a rank ("4. Platz 1").
        return translate(lang, "Player {seat}", seat=number.group(1))
    bot = _DEFAULT_BOT_NAME.match(name)
    if bot and bot.group(1) in BOT_KIND_NAMES:
        spec = seat.get("bot")
        level = _level_named(game_id, spec) if game_id and isinstance(spec, str) else None
        if level is None:
            return translate(lang, BOT_KIND_NAMES[bot.group(1)])
        return translate(lang, "{level} Bot", level=translate(lang, level.name))
    return name


def chosen_name(name: str) -> str:
    """A seat's name as its own name box shows it: empty while it is the
    server's default ("Seat 2"), which the box shows translated as its
    placeholder instead.

    >>> chosen_name("Seat 2"), chosen_name("Ada")
    ('', 'Ada')
    """
    return "" if _DEFAULT_SEAT_NAME.match(name) else name


def seat_names(seats: list[dict[str, Any]], lang: str = "en", game_id: str | None = None) -> list[str]:
    """Each seat's name, numbered by its seat when several seats share one;
    the server's default names ("Seat 2", "Bot (heuristic)") in the
    viewer's language, a bot of one of ``game_id``'s lobby levels by the
    level's name ("Casual Bot 2": short, and a name in every sentence).

    >>> seat_names([{"name": "Seat 1"}, {"name": "Bot"}, {"name": "Bot"}], "de")
    ['Spieler 1', 'Bot 2', 'Bot 3']
    >>> seat_names([{"name": "Bot (heuristic)"}, {"name": "Bot (random)"}], "de")
    ['Heuristik-Bot', 'Zufalls-Bot']
    >>> seat_names([{"name": "Seat 1"}] + [{"name": "Bot (heuristic)", "bot": "heuristic"}] * 2, "en", "oracle")
    ['Player 1', 'Casual Bot 2', 'Casual Bot 3']
    >>> seat_names([{"name": "Bot (random)", "bot": "random"}], "de", "oracle")
    ['Anfänger-Bot']
    """
    names = [_default_name(seat, lang, game_id) for seat in seats]
    return [f"{n} {i + 1}" if names.count(n) > 1 else n for i, n in enumerate(names)]


def own_names(names: list[str], seat: int | None, lang: str) -> list[str]:
    """The seats' names with the viewer's own marked, for the standings and
    the end's words ("4. Player 1 (you): 31 points").

    >>> own_names(["Ann", "Bo"], 1, "de"), own_names(["Ann"], None, "en")
    (['Ann', 'Bo (du)'], ['Ann'])
    """
    return [translate(lang, "{name} (you)", name=n) if i == seat else n for i, n in enumerate(names)]


def cost_text(mark: dict[str, Any], tr: Any, lang: str = "en") -> str:
    """A review mark's estimated cost in words: points (with ``lang``'s
    decimal mark), or a chance of winning."""
    if mark.get("unit") == "win chance":
        return str(tr("{percent}% less chance to win", percent=round(100 * float(mark["cost"]))))
    return str(tr("{points} points", points=decimal(float(mark["cost"]), lang)))
