"""How a game is drawn in the terminal.

A :class:`Renderer` turns a seat's *view* (never the state) into rich
renderables and reads short forms of moves. Each game declares its own in its
parts (``oracles.games.<id>.render``); the default shows the view
generically, which works for any game that follows the shared view schema.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.pretty import Pretty
from rich.table import Table
from rich.text import Text

from oracles.core.errors import OraclesError
from oracles.core.registry import game_part
from oracles.i18n import ntranslate, translate
from oracles.play.i18n import message


class Renderer:
    """The generic renderer; games subclass it."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang

    def tr(self, message: str, **fields: object) -> str:
        """``message`` (English, marked for the catalog) in this renderer's
        language, with its fields filled in."""
        return translate(self.lang, message, **fields)

    def ntr(self, singular: str, plural: str, count: int, **fields: object) -> str:
        """The singular or plural form of a message for ``count``."""
        return ntranslate(self.lang, singular, plural, count, **fields)

    def use_game(self, game: Any) -> None:
        """Adapt to the game about to be shown (the Oracle renderer takes its
        edition's texts and points); the generic renderer needs nothing."""

    def seat_name(self, seat: int, viewer: int | None = None) -> str:
        """A seat as people read it: "you", else "seat n" counted from 1
        (the story's "Seat n" too; ``--seat`` and the notation count from 0)."""
        if seat == viewer:
            return message(self.lang, "you")
        return message(self.lang, "seat", seat=seat + 1)

    def board(self, view: dict[str, Any], seat: int) -> RenderableType:
        """Everything ``seat`` knows, drawn as a table."""
        shown = {k: v for k, v in view.items() if k not in ("log",)}
        return Pretty(shown, expand_all=False)

    def scores(self, view: dict[str, Any]) -> RenderableType:
        table = Table(title=message(self.lang, "scores"))
        scores = view.get("scores") or []
        for seat in range(len(scores)):
            table.add_column(self.seat_name(seat, view.get("seat")), justify="right")
        table.add_row(*[f"{s:g}" for s in scores])
        return table

    def action_label(self, text: str) -> str:
        """A move's notation as shown to the player (translated if needed)."""
        return text

    def observed(self, view: dict[str, Any]) -> str | None:
        """What the viewing seat saw of the last action, if the view logs it
        and the game does not tell its own story (see :meth:`story`)."""
        log = view.get("log")
        if _narrator(view) is not None:
            return None
        if isinstance(log, list) and log:
            return str(log[-1])
        return None

    def story_names(self, view: dict[str, Any]) -> list[str]:
        """The seats as the terminal's story calls them: "Seat 1", counted
        from 1, the viewer's own "Seat 1 (you)"."""
        viewer = view.get("seat")
        names = []
        for seat in range(int(view.get("players") or len(view.get("scores") or []))):
            name = self.tr("Seat {seat}", seat=seat + 1)
            names.append(self.tr("{name} (you)", name=name) if seat == viewer else name)
        return names

    def story(self, before: dict[str, Any], after: dict[str, Any]) -> list[str]:
        """The events logged since ``before``, told by the game's ``narrate``
        part in this renderer's language (the web page's sentences too)."""
        narrator = _narrator(after)
        if narrator is None:
            return []
        log = after.get("log") or []
        seen = before.get("log") or []
        last = seen[-1].get("seq", -1) if seen and isinstance(seen[-1], dict) else -1
        names = self.story_names(after)
        viewer = after.get("seat")
        # Every event an action sets off carries that action's seq.
        return [
            str(narrator.narrate(event, viewer, names, self.lang))
            for event in log
            if isinstance(event, dict) and int(event.get("seq", -1)) > last
        ]

    def summaries(self, before: dict[str, Any], after: dict[str, Any]) -> list[str]:
        """Lines summing up what just ended (a round's points), told after
        the story; none by default."""
        return []

    def announcements(self, before: dict[str, Any], after: dict[str, Any]) -> list[str]:
        """Lines worth saying after an action: the game's story of what
        happened since ``before``, then the summaries."""
        return [line.replace("[", "\\[") for line in self.story(before, after)] + self.summaries(
            before, after
        )

    def shortcut(self, text: str, legal: dict[str, int], view: dict[str, Any]) -> list[int]:
        """Legal actions a short form may mean (an empty list if none)."""
        text = text.strip().lower()
        exact = [a for t, a in legal.items() if t.lower() == text]
        if exact:
            return exact
        # The last word of a notation alone ("r12" for "play R12"), then any suffix.
        by_last = [a for t, a in legal.items() if t.lower().split()[-1] == text]
        if by_last:
            return by_last
        return [a for t, a in legal.items() if t.lower().endswith(" " + text)]

    def legal_menu(self, legal: dict[str, int], view: dict[str, Any]) -> tuple[list[str], list[str]]:
        """The legal moves worth a number in the menu (keys of ``legal``) and
        hint lines summarising the rest; every legal move stays typeable.
        The default numbers them all."""
        return list(legal), []

    def numbers_are_values(self, labels: list[str]) -> bool:
        """Whether a typed number names a value rather than a menu position:
        true when every legal move is one word and a number (``bid 0``,
        ``bid 1``...), where typing ``2`` can only sensibly mean ``bid 2``."""
        words = [label.split() for label in labels]
        return bool(words) and all(len(w) == 2 and w[1].isdigit() and w[0] == words[0][0] for w in words)

    def points_table(
        self, view: dict[str, Any], title: str, round_label: str, total_label: str, signed: bool = False
    ) -> Table:
        """Points per round (``view["round_scores"]``) and totals, a column
        per seat: the end-of-game table of round-based games."""
        table = Table(title=title, box=box.SIMPLE_HEAD)
        table.add_column(round_label, justify="right")
        for seat in range(len(view["scores"])):
            table.add_column(self.seat_name(seat, view.get("seat")), justify="right")
        shape = "{:+g}" if signed else "{:g}"
        for number, points in enumerate(view.get("round_scores") or [], start=1):
            table.add_row(str(number), *[shape.format(p) for p in points])
        table.add_row(
            Text(total_label, style="bold"), *[Text(f"{s:g}", style="bold") for s in view["scores"]]
        )
        return table

    def final(self, view: dict[str, Any]) -> RenderableType:
        return Group(self.scores(view))


def _narrator(view: dict[str, Any]) -> Any:
    """The ``narrate`` part of the view's game, or None."""
    game = view.get("game")
    if not isinstance(game, str):
        return None
    try:
        return game_part(game, "narrate")
    except (KeyError, ValueError, OraclesError):
        return None


def renderer_for(game_id: str, lang: str) -> Renderer:
    """The renderer ``game_id`` declares, or the generic one."""
    cls: type[Renderer] | None = game_part(game_id, "renderer")
    return (cls or Renderer)(lang)
