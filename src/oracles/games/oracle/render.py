"""Terminal renderer for ``oracle``: the hand by colour and creature, the
chips on the table, the trick, the prophecies and what happened (trick
winners with the reason, who took which chip, round results).

Everything is drawn from a seat's *view* and its events
(:mod:`oracles.games.oracle.views`); the texts are English messages
translated through the catalog (:mod:`oracles.i18n`), the prophecy texts
come from the edition's data. Short forms for moves: ``r12``, ``R12``,
``rot 12``, ``red12``, ``12`` when only one 12 may be played (German colour
letters too: ``ge`` gelb, ``gr`` grün, ``l`` lila); ``keep 5 12``,
``behalte 5 12``, ``O05 O12`` or ``5 12`` to keep, pass or discard two Oracle
cards; ``keep``/``behalten`` and ``return``/``zurück`` for the Loser chip.
"""

from __future__ import annotations

import re
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from oracles.games.oracle.cards import COLOURS, CREATURE_NAMES, CREATURE_RANGES, STARS
from oracles.games.oracle.prophecies import Edition, edition_named
from oracles.games.oracle.rules import OracleGame
from oracles.i18n import N_
from oracles.play.render import Renderer

#: Terminal colour of each card colour.
COLOUR_STYLES = {"R": "red", "B": "blue", "G": "green", "Y": "yellow", "P": "magenta"}

PHASE_TEXTS = {
    "dealer": N_("drawing the dealer"),
    "deal": N_("dealing"),
    "oracles": N_("dealing Oracle cards"),
    "keep": N_("choosing Oracle cards"),
    "draft": N_("passing Oracle cards (draft)"),
    "play": N_("playing tricks"),
    "loser": N_("Loser chip decision"),
    "over": N_("game over"),
}
COLOUR_WORDS = {"R": N_("red"), "B": N_("blue"), "G": N_("green"), "Y": N_("yellow"), "P": N_("purple")}
CREATURE_WORDS = {"hydra": N_("Hydra"), "pegasus": N_("Pegasus"), "phoenix": N_("Phoenix")}
REASONS = {
    "highest value": N_("highest value"),
    "1 beats 12": N_("1 beats 12"),
    "led colour wins the tie": N_("led colour wins the tie"),
    "first played wins the tie": N_("first played wins the tie"),
}
RULES_SUMMARY = N_(
    "Highest value wins (any colour); 1 beats 12; ties: led colour, else first played. "
    "1–5 Hydra (5★), 6–9 Pegasus (3★), 10–12 Phoenix (2★). The Loser chip of a creature "
    "makes you hand back all your chips of it at the end."
)

#: Colour words and letters accepted in short forms, to colour letters.
_COLOUR_WORDS: dict[str, str] = {
    "r": "R",
    "b": "B",
    "g": "G",
    "y": "Y",
    "p": "P",
    "red": "R",
    "blue": "B",
    "green": "G",
    "yellow": "Y",
    "purple": "P",
    "rot": "R",
    "blau": "B",
    "grün": "G",
    "gruen": "G",
    "gr": "G",
    "gelb": "Y",
    "ge": "Y",
    "lila": "P",
    "l": "P",
    "violett": "P",
}
_CARD_FORM = re.compile(r"^(?:(?:play|spiele|spiel)\s+)?([a-zäöüß]*)\s*-?\s*(\d{1,2})$")
_PAIR_FORM = re.compile(
    r"^(?:(?:keep|behalte|behalten|pass|gib|discard|lege|ablegen)\s+)?o?(\d{1,2})\s*,?\s+o?(\d{1,2})"
    r"(?:\s+(?:ab|weiter))?$"
)
_LOSER_WORDS = {
    "keep": "loser keep",
    "behalte": "loser keep",
    "behalten": "loser keep",
    "return": "loser return",
    "zurück": "loser return",
    "zurueck": "loser return",
    "zurücklegen": "loser return",
    "zuruecklegen": "loser return",
}


class OracleRenderer(Renderer):
    """Draws a seat's view of Oracle."""

    #: The edition whose texts and points are shown (the game's, see :meth:`use_game`).
    edition: Edition = edition_named(OracleGame.option_defaults()["edition"])

    def use_game(self, game: Any) -> None:
        edition = getattr(game, "edition", None)
        if isinstance(edition, Edition):
            self.edition = edition

    # ------------------------------------------------------------ words
    def creature(self, name: str) -> str:
        """A creature's display name (``phoenix`` -> ``Phönix`` in German)."""
        return self.tr(CREATURE_WORDS[name]) if name in CREATURE_WORDS else name

    def colour(self, letter: str) -> str:
        return self.tr(COLOUR_WORDS[letter]) if letter in COLOUR_WORDS else letter

    def card_name(self, card: str) -> str:
        """``R12`` in English, ``Rot 12`` in German."""
        if self.lang != "de" or len(card) < 2 or card[0] not in COLOURS:
            return card
        return f"{self.colour(card[0])} {card[1:]}"

    def card_text(self, card: str, dim: bool = False) -> Text:
        style = COLOUR_STYLES.get(card[:1], "")
        if dim:
            style += " dim"
        else:
            style += " bold"
        return Text(self.card_name(card), style=style)

    def prophecy_text(self, card_id: str) -> str:
        try:
            return self.edition.card(card_id).text(self.lang)
        except (ValueError, IndexError):
            return card_id

    def prophecy_points(self, card_id: str) -> int:
        try:
            return self.edition.card(card_id).points
        except (ValueError, IndexError):
            return 0

    def _who(self, seat: int, viewer: int | None) -> str:
        return self.seat_name(seat, viewer)

    def _cap_who(self, seat: int, viewer: int | None) -> str:
        name = self._who(seat, viewer)
        return name[:1].upper() + name[1:]

    # ------------------------------------------------------------ board
    def board(self, view: dict[str, Any], seat: int) -> RenderableType:
        parts: list[RenderableType] = [self._header(view, seat)]
        if view.get("round"):
            parts.append(self._seats_table(view, seat))
            parts.append(self._middle_text(view))
        phase = view.get("phase")
        if phase == "play":
            parts.append(self._trick_text(view, seat))
        elif view.get("tricks"):
            parts.append(self._last_trick_text(view, seat))
        if view.get("hand") or phase in ("keep", "draft", "play", "loser"):
            parts.append(self._hand_table(view, seat))
        parts.extend(self._oracle_part(view, seat))
        if phase == "loser" and view.get("to_act") == seat and view.get("pending_loser"):
            parts.append(
                Text(
                    self.tr(
                        "You won {creature} again while holding its Loser chip: "
                        "keep it or return it to the middle?",
                        creature=self.creature(view["pending_loser"]),
                    ),
                    style="bold yellow",
                )
            )
        if phase != "over":
            parts.append(Text(self.tr(RULES_SUMMARY), style="dim italic"))
        return Panel(Group(*parts), title="Oracle", title_align="left", border_style="magenta")

    def _header(self, view: dict[str, Any], seat: int) -> Text:
        head = Text()
        if view.get("round"):
            head.append(
                self.tr("round {r} of {rounds}", r=view["round"], rounds=view["rounds"]), style="bold"
            )
            head.append("  ·  ")
        phase = str(view.get("phase"))
        head.append(self.tr(PHASE_TEXTS[phase]) if phase in PHASE_TEXTS else phase)
        if view.get("dealer") is not None:
            head.append("  ·  " + self.tr("dealer: {who}", who=self._who(view["dealer"], seat)))
        if view.get("to_act") is not None:
            head.append("  ·  ")
            head.append(self.tr("to act: {who}", who=self._who(view["to_act"], seat)), style="bold yellow")
        return head

    def _chips_text(self, entry: dict[str, Any]) -> Text:
        text = Text()
        for name in ("phoenix", "pegasus", "hydra"):
            count = entry.get(name, 0)
            if count:
                if text:
                    text.append(" · ")
                text.append(f"{count} {self.creature(name)}", style="bold")
        for name in entry.get("losers", []):
            if text:
                text.append(" · ")
            text.append(
                "✗ " + self.tr("{creature} Loser chip", creature=self.creature(name)), style="bold red"
            )
        if not text:
            text.append("–", style="dim")
        return text

    def _seats_table(self, view: dict[str, Any], viewer: int) -> Table:
        n = view["players"]
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        table.add_column(self.tr("Seat"), no_wrap=True)
        table.add_column(self.tr("Cards"), justify="right")
        table.add_column(self.tr("Chips"))
        table.add_column(self.tr("Stars"), justify="right")
        rounds = view.get("round_scores") or []
        for r in range(1, len(rounds) + 1):
            table.add_column(f"R{r}", justify="right")
        table.add_column(self.tr("Total"), justify="right")
        chips = view["chips"]["seats"]
        for s in range(n):
            name = Text(self._who(s, viewer), style="bold cyan" if s == viewer else "")
            if s != viewer and s == (viewer + 1) % n:
                name.append(" (" + self.tr("left neighbour") + ")", style="dim")
            elif s != viewer and s == (viewer - 1) % n:
                name.append(" (" + self.tr("right neighbour") + ")", style="dim")
            if view.get("dealer") == s:
                name.append(" · " + self.tr("dealer"), style="yellow")
            if view.get("to_act") == s:
                name.append(" ▶ " + self.tr("to act"), style="bold yellow")
            row: list[RenderableType] = [
                name,
                str(view["hand_sizes"][s]),
                self._chips_text(chips[s]),
                str(chips[s].get("stars", 0)),
            ]
            row.extend(f"{points[s]:g}" for points in rounds)
            row.append(Text(f"{view['scores'][s]:g}", style="bold"))
            table.add_row(*row)
        return table

    def _middle_text(self, view: dict[str, Any]) -> Text:
        middle = view["chips"]["middle"]
        line = Text(self.tr("Middle") + ": ", style="bold")
        empty = []
        for i, name in enumerate(("phoenix", "pegasus", "hydra")):
            if i:
                line.append("  ·  ")
            count = middle.get(name, 0)
            stars = "★" * STARS[CREATURE_NAMES.index(name)]
            low, high = CREATURE_RANGES[name]
            line.append(f"{self.creature(name)} {count}× {stars}", style="bold" if count else "dim")
            line.append(f" ({low}–{high})", style="dim")
            if count == 0 and view.get("phase") in ("play", "loser"):
                empty.append(self.creature(name))
        losers = [self.creature(name) for name in middle.get("losers", [])]
        line.append("  ·  ")
        if losers:
            line.append(self.tr("Loser chips: {names}", names=", ".join(losers)), style="red")
        else:
            line.append(self.tr("no Loser chip in the middle"), style="dim")
        if empty:
            warning = self.tr(
                "no victory chip left of {creatures}: winning with it takes its Loser chip!",
                creatures=", ".join(empty),
            )
            line.append("\n⚠ " + warning, style="yellow")
        return line

    def _trick_line(self, plays: list[list[Any]], viewer: int) -> Text:
        line = Text()
        for i, (s, card) in enumerate(plays):
            if i:
                line.append("  ·  ", style="dim")
            line.append(self._who(s, viewer) + " ")
            line.append_text(self.card_text(card))
        return line

    def _trick_text(self, view: dict[str, Any], viewer: int) -> RenderableType:
        lines: list[RenderableType] = []
        trick = view.get("trick") or {}
        plays = trick.get("cards") or []
        head = Text(self.tr("Trick") + ": ", style="bold")
        if plays:
            head.append_text(self._trick_line(plays, viewer))
            colour = plays[0][1][:1]
            head.append("   (" + self.tr("led: {colour}", colour=self.colour(colour)) + ")", style="dim")
        else:
            mine = view.get("to_act") == viewer
            head.append(self.tr("(no card yet: you lead)") if mine else self.tr("(no card yet)"), style="dim")
        if not plays and view.get("tricks"):
            lines.append(self._last_trick_text(view, viewer))
        lines.append(head)
        return Group(*lines)

    def _last_trick_text(self, view: dict[str, Any], viewer: int) -> Text:
        last = view["tricks"][-1]
        line = Text(self.tr("Last trick") + ": ", style="dim bold")
        line.append_text(self._trick_line(last["cards"], viewer))
        line.append("  →  " + self._winner_line(last, viewer), style="dim")
        return line

    def _legal_cards(self, view: dict[str, Any], seat: int) -> tuple[set[str], str | None]:
        """The cards ``seat`` may play now, and the colour it must follow."""
        hand = view.get("hand") or []
        if view.get("phase") != "play" or view.get("to_act") != seat:
            return set(hand), None
        plays = (view.get("trick") or {}).get("cards") or []
        if not plays:
            return set(hand), None
        colour = plays[0][1][:1]
        follow = {card for card in hand if card[:1] == colour}
        return (follow, colour) if follow else (set(hand), None)

    def _hand_table(self, view: dict[str, Any], seat: int) -> RenderableType:
        hand = view.get("hand") or []
        title = Text(self.tr("Your hand") + ":", style="bold")
        if not hand:
            return Group(title, Text("  " + self.tr("(no cards)"), style="dim"))
        legal, follow = self._legal_cards(view, seat)
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        table.add_column("")
        for name in ("hydra", "pegasus", "phoenix"):
            low, high = CREATURE_RANGES[name]
            stars = "★" * STARS[CREATURE_NAMES.index(name)]
            table.add_column(f"{self.creature(name)} {low}–{high} ({stars})")
        for colour in COLOURS:
            cards = sorted((c for c in hand if c[:1] == colour), key=lambda c: int(c[1:]))
            if not cards:
                continue
            cells: list[Text] = []
            for name in ("hydra", "pegasus", "phoenix"):
                low, high = CREATURE_RANGES[name]
                cell = Text()
                for card in cards:
                    if low <= int(card[1:]) <= high:
                        if cell:
                            cell.append(" ")
                        style = COLOUR_STYLES[colour] + (" dim" if card not in legal else " bold")
                        cell.append(card[1:], style=style)
                cells.append(cell)
            label = Text(self.colour(colour), style=COLOUR_STYLES[colour])
            table.add_row(label, *cells)
        parts: list[RenderableType] = [title, table]
        if view.get("phase") == "play" and view.get("to_act") == seat:
            if follow is not None:
                parts.append(
                    Text(self.tr("you must follow {colour}", colour=self.colour(follow)), style="italic")
                )
            else:
                parts.append(Text(self.tr("you may play any card"), style="italic dim"))
        return Group(*parts)

    def _points(self, points: object) -> str:
        return self.tr("{points} pts", points=points)

    def _oracle_table(self, cards: list[dict[str, Any]], status: dict[str, bool] | None) -> Table:
        table = Table(box=None, pad_edge=False, show_header=False)
        table.add_column("id", style="bold")
        table.add_column("text")
        table.add_column("points", justify="right")
        if status is not None:
            table.add_column("status")
        for card in cards:
            row: list[RenderableType] = [
                card["id"],
                self.prophecy_text(card["id"]),
                self._points(card["points"]),
            ]
            if status is not None:
                holds = status.get(card["id"], False)
                row.append(
                    Text("✓ " + self.tr("holds now"), style="bold green")
                    if holds
                    else Text("✗ " + self.tr("not now"), style="red")
                )
            table.add_row(*row)
        return table

    def _oracle_part(self, view: dict[str, Any], seat: int) -> list[RenderableType]:
        phase = view.get("phase")
        parts: list[RenderableType] = []
        kept = view.get("kept") or []
        dealt = view.get("oracle_cards") or []
        if kept:
            status = {card_id: bool(holds) for card_id, holds in view.get("prophecies") or []}
            parts.append(Text(self.tr("Your prophecies") + ":", style="bold"))
            parts.append(self._oracle_table(kept, status))
        elif phase in ("keep", "draft") and dealt:
            ids = [card["id"] for card in dealt]
            a, b = ids[0], ids[1] if len(ids) > 1 else ids[0]
            if phase == "keep":
                title = self.tr("Your Oracle cards: keep two (e.g. 'keep {a} {b}')", a=a, b=b)
            elif view.get("to_act") == seat and view.get("dealer") == seat:
                title = self.tr("Your Oracle cards: you deal, discard two face up (e.g. '{a} {b}')", a=a, b=b)
            elif view.get("to_act") == seat:
                title = self.tr(
                    "Your Oracle cards: pass two to your left neighbour (e.g. '{a} {b}'); "
                    "you keep the two you hold at the end",
                    a=a,
                    b=b,
                )
            else:
                title = self.tr("Your Oracle cards (you keep the two you hold at the end)")
            parts.append(Text(title + ":", style="bold"))
            parts.append(self._oracle_table(dealt, None))
        draft = view.get("draft")
        if draft and phase == "draft":
            discards = " ".join(draft.get("discards") or []) or "–"
            parts.append(
                Text(
                    self.tr(
                        "Stack: {stack} cards · discarded: {discards}",
                        stack=draft.get("stack", 0),
                        discards=discards,
                    ),
                    style="dim",
                )
            )
        return parts

    # ---------------------------------------------------- announcements
    def _winner_line(self, trick: dict[str, Any], viewer: int | None) -> str:
        winner = trick["winner"]
        card = self.card_name(next((c for s, c in trick["cards"] if s == winner), "?"))
        reason = trick["reason"]
        reason = self.tr(REASONS[reason]) if reason in REASONS else reason
        if winner == viewer:
            return self.tr("You win the trick with {card}: {reason}", card=card, reason=reason)
        return self.tr(
            "{who} wins the trick with {card}: {reason}",
            who=self._cap_who(winner, viewer),
            card=card,
            reason=reason,
        )

    def summaries(self, before: dict[str, Any], after: dict[str, Any]) -> list[str]:
        """The round's scoring, line by line per seat, when a round was
        scored since ``before`` (the story told the tricks and the chips)."""
        lines: list[str] = []
        viewer = after.get("seat")
        seen = before.get("log") or []
        last = seen[-1]["seq"] if seen else -1
        for event in after.get("log") or []:
            if event["seq"] > last and event["kind"] == "score":
                lines.extend(self._round_summary(event, after, viewer))
        return lines

    def _round_summary(self, score: dict[str, Any], after: dict[str, Any], viewer: int | None) -> list[str]:
        lines = [self.tr("Round {r} is over:", r=score["round"])]
        for s, points in enumerate(score["points"]):
            forfeit = "".join(
                self.ntr(
                    " (forfeits {count} {creature} chip for the Loser chip)",
                    " (forfeits {count} {creature} chips for the Loser chip)",
                    count,
                    creature=self.creature(name),
                )
                for name, count in score["forfeits"][s]
            )
            props = ""
            for card_id, holds in zip(score["kept"][s], score["holds"][s], strict=True):
                value = self.prophecy_points(card_id) if holds else 0
                mark = "✓" if holds else "✗"
                props += f" + {card_id} {mark} {value} ({self.prophecy_text(card_id)})"
            shown, total = f"{points:g}", f"{after['scores'][s]:g}"
            line = self.tr(
                "{who}: {stars} stars{forfeit}{props} = {points} (total {total})",
                who=self._cap_who(s, viewer),
                stars=score["stars"][s],
                forfeit=forfeit,
                props=props,
                points=shown,
                total=total,
            )
            lines.append("  " + line)
        return lines

    def final(self, view: dict[str, Any]) -> RenderableType:
        return self.points_table(
            view, self.tr("Points per round"), self.tr("Round"), self.tr("Total"), signed=False
        )

    # ---------------------------------------------------------- labels
    def _keep_label(self, a: str, b: str) -> str:
        return self.tr(
            "keep {a} {b} ({pa} + {pb} pts)", a=a, b=b, pa=self.prophecy_points(a), pb=self.prophecy_points(b)
        )

    def _loser_label(self, choice: str) -> str:
        if choice == "keep":
            return self.tr("keep the Loser chip")
        return self.tr("return the Loser chip to the middle")

    def action_label(self, text: str) -> str:
        """A legal move's notation as shown in the menu; any other text (a
        label from :meth:`observed`) comes back unchanged."""
        words = text.split()
        if not words:
            return text
        verb = words[0].lower()
        if verb == "play" and len(words) == 2:
            return self.tr("play {card}", card=self.card_name(words[1].upper()))
        if verb in ("keep", "pass", "discard") and len(words) == 3:
            a, b = words[1].upper(), words[2].upper()
            if verb == "keep":
                return self._keep_label(a, b)
            if verb == "pass":
                return self.tr("pass {a} {b} to the left", a=a, b=b)
            return self.tr("discard {a} {b}", a=a, b=b)
        if verb == "loser" and len(words) == 2 and words[1] in ("keep", "return"):
            return self._loser_label(words[1])
        return text

    # -------------------------------------------------------- shortcuts
    def shortcut(self, text: str, legal: dict[str, int], view: dict[str, Any]) -> list[int]:
        text = " ".join(text.strip().lower().split())
        found = super().shortcut(text, legal, view)
        if found:
            return found
        by_notation = {t.lower(): a for t, a in legal.items()}
        if text in _LOSER_WORDS and _LOSER_WORDS[text] in by_notation:
            return [by_notation[_LOSER_WORDS[text]]]
        plays = {t.split()[1].upper(): a for t, a in legal.items() if t.lower().startswith("play ")}
        if plays:
            match = _CARD_FORM.match(text)
            if not match:
                return []
            word, value = match.group(1), int(match.group(2))
            if word and word not in _COLOUR_WORDS:
                return []
            colour = _COLOUR_WORDS.get(word)
            return [
                a
                for card, a in plays.items()
                if int(card[1:]) == value and (colour is None or card[0] == colour)
            ]
        match = _PAIR_FORM.match(text)
        if match:
            a, b = int(match.group(1)), int(match.group(2))
            if not (1 <= a <= 40 and 1 <= b <= 40) or a == b:
                return []
            ids = {f"O{a:02d}", f"O{b:02d}"}
            return [action for t, action in legal.items() if set(t.upper().split()[1:]) == ids]
        return []
