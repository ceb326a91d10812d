"""Terminal renderer for ``oracle``: the hand by colour and creature, the
chips on the table, the trick, the prophecies and what happened (trick
winners with the reason, who took which chip, round results).

Everything is drawn from a seat's *view*; the texts come in English and
German (``TEXTS``; the generic ones live in :mod:`oracles.play.i18n`, the
prophecy texts in the edition's data). Short forms for moves: ``r12``,
``R12``, ``rot 12``, ``red12``, ``12`` when only one 12 may be played (German
colour letters too: ``ge`` gelb, ``gr`` grün, ``l`` lila); ``keep 5 12``,
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

from oracles.games.oracle.cards import COLOURS, CREATURE_DISPLAY, CREATURE_NAMES, STARS, parse_card
from oracles.games.oracle.prophecies import Edition, chip_quantities
from oracles.games.oracle.rules import OracleGame
from oracles.play.render import Renderer

#: Terminal colour of each card colour.
COLOUR_STYLES = {"R": "red", "B": "blue", "G": "green", "Y": "yellow", "P": "magenta"}
#: Value ranges of the creatures, by machine name.
CREATURE_RANGES = {"hydra": (1, 5), "pegasus": (6, 9), "phoenix": (10, 12)}

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Oracle",
        "round": "round {r} of {rounds}",
        "dealer": "dealer: {who}",
        "to_act": "to act: {who}",
        "phase.dealer": "drawing the dealer",
        "phase.deal": "dealing",
        "phase.oracles": "dealing Oracle cards",
        "phase.keep": "choosing Oracle cards",
        "phase.draft": "passing Oracle cards (draft)",
        "phase.play": "playing tricks",
        "phase.loser": "Loser chip decision",
        "phase.over": "game over",
        "colour.R": "red",
        "colour.B": "blue",
        "colour.G": "green",
        "colour.Y": "yellow",
        "colour.P": "purple",
        "seat": "Seat",
        "cards": "Cards",
        "chips": "Chips",
        "stars": "Stars",
        "total": "Total",
        "round_col": "R{r}",
        "left": "left neighbour",
        "right": "right neighbour",
        "dealer_mark": "dealer",
        "turn_mark": "to act",
        "none": "–",
        "middle": "Middle",
        "middle_left": "{creature} {count}× {stars}",
        "loser_chip": "{creature} Loser chip",
        "losers_in_middle": "Loser chips: {names}",
        "no_losers_in_middle": "no Loser chip in the middle",
        "last_chip_warning": "no victory chip left of {creatures}: winning with it takes its Loser chip!",
        "trick": "Trick",
        "led": "led: {colour}",
        "empty_trick": "(no card yet: you lead)",
        "empty_trick_other": "(no card yet)",
        "last_trick": "Last trick",
        "hand": "Your hand",
        "no_cards": "(no cards)",
        "must_follow": "you must follow {colour}",
        "free_play": "you may play any card",
        "prophecies": "Your prophecies",
        "holds": "holds now",
        "fails": "not now",
        "points": "{points} pts",
        "dealt_oracles": "Your Oracle cards: keep two (e.g. 'keep {a} {b}')",
        "draft_oracles": (
            "Your Oracle cards: pass two to your left neighbour (e.g. '{a} {b}'); "
            "you keep the two you hold at the end"
        ),
        "draft_discard": "Your Oracle cards: you deal, discard two face up (e.g. '{a} {b}')",
        "draft_hold": "Your Oracle cards (you keep the two you hold at the end)",
        "draft_info": "Stack: {stack} cards · discarded: {discards}",
        "loser_pending": "You won {creature} again while holding its Loser chip: keep it or return it to the middle?",
        "rules": (
            "Highest value wins (any colour); 1 beats 12; ties: led colour, else first played. "
            "1–5 Hydra (5★), 6–9 Pegasus (3★), 10–12 Phoenix (2★). The Loser chip of a creature "
            "makes you hand back all your chips of it at the end."
        ),
        "wins": "{who} wins the trick with {card}: {reason}",
        "you_win": "You win the trick with {card}: {reason}",
        "reason.highest value": "highest value",
        "reason.1 beats 12": "1 beats 12",
        "reason.led colour wins the tie": "led colour wins the tie",
        "reason.first played wins the tie": "first played wins the tie",
        "takes_chip": "{who} takes a {creature} chip ({stars}★); {left} left in the middle",
        "takes_loser_middle": "{who} takes the {creature} Loser chip from the middle (no {creature} chip left)",
        "takes_loser_from": "{who} takes the {creature} Loser chip from {owner}",
        "loser_decides": "{who} already holds the {creature} Loser chip and decides: keep it or return it",
        "takes_chip_you": "You take a {creature} chip ({stars}★); {left} left in the middle",
        "takes_loser_middle_you": "You take the {creature} Loser chip from the middle (no {creature} chip left)",
        "takes_loser_from_you": "You take the {creature} Loser chip from {owner}",
        "loser_decides_you": "You already hold the {creature} Loser chip and decide: keep it or return it",
        "round_over": "Round {r} is over:",
        "round_line": "{who}: {stars} stars{forfeit}{props} = {points} (total {total})",
        "forfeit": " (forfeits {count} {creature} chip(s) for the Loser chip)",
        "prophecy_line": " + {id} {mark} {value}",
        "play": "play {card}",
        "keep_action": "keep {a} {b} ({pa} + {pb} pts)",
        "pass_action": "pass {a} {b} to the left",
        "discard_action": "discard {a} {b}",
        "loser_keep": "keep the Loser chip",
        "loser_return": "return the Loser chip to the middle",
        "keep_hidden": "keeps two Oracle cards",
        "pass_hidden": "passes two Oracle cards to the left",
        "draw": "draws {cards}",
        "draw_hidden": "draws two Oracle cards",
        "you_draw": "You draw {cards} from the stack",
        "draws": "{who} draws two Oracle cards from the stack",
        "deal_action": "the cards are dealt",
        "oracles_action": "Oracle cards dealt: {cards}",
        "oracles_hidden": "Oracle cards are dealt",
        "dealer_action": "{who} deals",
        "reveal": "revealed: {pairs}",
        "rounds_title": "Points per round",
        "round_word": "Round",
    },
    "de": {
        "title": "Oracle",
        "round": "Runde {r} von {rounds}",
        "dealer": "Geber: {who}",
        "to_act": "am Zug: {who}",
        "phase.dealer": "Geber wird ausgelost",
        "phase.deal": "Karten werden verteilt",
        "phase.oracles": "Orakelkarten werden verteilt",
        "phase.keep": "Orakelkarten wählen",
        "phase.draft": "Orakelkarten weitergeben (Variante)",
        "phase.play": "Stichspiel",
        "phase.loser": "Entscheidung über den Verliererchip",
        "phase.over": "Spielende",
        "colour.R": "Rot",
        "colour.B": "Blau",
        "colour.G": "Grün",
        "colour.Y": "Gelb",
        "colour.P": "Lila",
        "seat": "Platz",
        "cards": "Karten",
        "chips": "Chips",
        "stars": "Sterne",
        "total": "Gesamt",
        "round_col": "R{r}",
        "left": "linker Nachbar",
        "right": "rechter Nachbar",
        "dealer_mark": "Geber",
        "turn_mark": "am Zug",
        "none": "–",
        "middle": "Mitte",
        "middle_left": "{creature} {count}× {stars}",
        "loser_chip": "{creature}-Verliererchip",
        "losers_in_middle": "Verliererchips: {names}",
        "no_losers_in_middle": "kein Verliererchip in der Mitte",
        "last_chip_warning": "kein Siegpunktchip mehr von {creatures}: ein Stich damit bringt dessen Verliererchip!",
        "trick": "Stich",
        "led": "ausgespielt: {colour}",
        "empty_trick": "(noch keine Karte: du spielst aus)",
        "empty_trick_other": "(noch keine Karte)",
        "last_trick": "Letzter Stich",
        "hand": "Deine Hand",
        "no_cards": "(keine Karten)",
        "must_follow": "du musst {colour} bedienen",
        "free_play": "du darfst jede Karte spielen",
        "prophecies": "Deine Prophezeiungen",
        "holds": "erfüllt",
        "fails": "noch nicht",
        "points": "{points} P.",
        "dealt_oracles": "Deine Orakelkarten: behalte zwei (z. B. 'behalte {a} {b}')",
        "draft_oracles": (
            "Deine Orakelkarten: gib zwei an deinen linken Nachbarn weiter (z. B. '{a} {b}'); "
            "am Ende behältst du die zwei, die du dann hältst"
        ),
        "draft_discard": "Deine Orakelkarten: du gibst, lege zwei offen ab (z. B. '{a} {b}')",
        "draft_hold": "Deine Orakelkarten (du behältst die zwei, die du am Ende hältst)",
        "draft_info": "Stapel: {stack} Karten · abgelegt: {discards}",
        "loser_pending": (
            "Du hast wieder {creature} gewonnen und hältst schon den Verliererchip: "
            "behalten oder in die Mitte zurücklegen?"
        ),
        "rules": (
            "Der höchste Wert gewinnt (jede Farbe); 1 schlägt 12; bei Gleichstand: ausgespielte Farbe, "
            "sonst die zuerst gespielte. 1–5 Hydra (5★), 6–9 Pegasus (3★), 10–12 Phönix (2★). Wer den "
            "Verliererchip eines Wesens hat, gibt am Ende alle Chips dieses Wesens zurück."
        ),
        "wins": "{who} gewinnt den Stich mit {card}: {reason}",
        "you_win": "Du gewinnst den Stich mit {card}: {reason}",
        "reason.highest value": "höchster Wert",
        "reason.1 beats 12": "1 schlägt 12",
        "reason.led colour wins the tie": "bei Gleichstand gewinnt die ausgespielte Farbe",
        "reason.first played wins the tie": "bei Gleichstand gewinnt die zuerst gespielte Karte",
        "takes_chip": "{who} nimmt einen {creature}-Chip ({stars}★); noch {left} in der Mitte",
        "takes_loser_middle": (
            "{who} nimmt den {creature}-Verliererchip aus der Mitte (kein {creature}-Chip mehr übrig)"
        ),
        "takes_loser_from": "{who} nimmt {owner} den {creature}-Verliererchip ab",
        "loser_decides": (
            "{who} hat den {creature}-Verliererchip schon und entscheidet: behalten oder zurücklegen"
        ),
        "takes_chip_you": "Du nimmst einen {creature}-Chip ({stars}★); noch {left} in der Mitte",
        "takes_loser_middle_you": (
            "Du nimmst den {creature}-Verliererchip aus der Mitte (kein {creature}-Chip mehr übrig)"
        ),
        "takes_loser_from_you": "Du nimmst {owner} den {creature}-Verliererchip ab",
        "loser_decides_you": "Du hast den {creature}-Verliererchip schon und entscheidest: behalten oder zurücklegen",
        "round_over": "Runde {r} ist vorbei:",
        "round_line": "{who}: {stars} Sterne{forfeit}{props} = {points} (gesamt {total})",
        "forfeit": " ({count} {creature}-Chip(s) wegen des Verliererchips zurückgegeben)",
        "prophecy_line": " + {id} {mark} {value}",
        "play": "spiele {card}",
        "keep_action": "behalte {a} {b} ({pa} + {pb} P.)",
        "pass_action": "gib {a} {b} nach links weiter",
        "discard_action": "lege {a} {b} ab",
        "loser_keep": "behalte den Verliererchip",
        "loser_return": "lege den Verliererchip in die Mitte zurück",
        "keep_hidden": "behält zwei Orakelkarten",
        "pass_hidden": "gibt zwei Orakelkarten nach links weiter",
        "draw": "zieht {cards}",
        "draw_hidden": "zieht zwei Orakelkarten",
        "you_draw": "Du ziehst {cards} vom Stapel",
        "draws": "{who} zieht zwei Orakelkarten vom Stapel",
        "deal_action": "die Karten werden verteilt",
        "oracles_action": "Orakelkarten verteilt: {cards}",
        "oracles_hidden": "die Orakelkarten werden verteilt",
        "dealer_action": "{who} gibt",
        "reveal": "aufgedeckt: {pairs}",
        "rounds_title": "Punkte je Runde",
        "round_word": "Runde",
    },
}

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
#: Log entries that happen by themselves after an action.
_AUTOMATIC = ("draw ", "reveal ")
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

    edition: Edition = OracleGame.edition

    # ------------------------------------------------------------ words
    def t(self, key: str, **fields: object) -> str:
        table = TEXTS.get(self.lang, TEXTS["en"])
        return table.get(key, TEXTS["en"][key]).format(**fields)

    def creature(self, name: str) -> str:
        """A creature's display name (``phoenix`` -> ``Phönix`` in German)."""
        names = CREATURE_DISPLAY.get(self.lang, CREATURE_DISPLAY["en"])
        return names[CREATURE_NAMES.index(name)] if name in CREATURE_NAMES else name

    def card_name(self, card: str) -> str:
        """``R12`` in English, ``Rot 12`` in German."""
        if self.lang != "de" or len(card) < 2 or card[0] not in COLOURS:
            return card
        return f"{self.t('colour.' + card[0])} {card[1:]}"

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
                    self.t("loser_pending", creature=self.creature(view["pending_loser"])),
                    style="bold yellow",
                )
            )
        if phase != "over":
            parts.append(Text(self.t("rules"), style="dim italic"))
        return Panel(Group(*parts), title=self.t("title"), title_align="left", border_style="magenta")

    def _header(self, view: dict[str, Any], seat: int) -> Text:
        head = Text()
        if view.get("round"):
            head.append(self.t("round", r=view["round"], rounds=view["rounds"]), style="bold")
            head.append("  ·  ")
        head.append(self.t(f"phase.{view.get('phase')}"))
        if view.get("dealer") is not None:
            head.append("  ·  " + self.t("dealer", who=self._who(view["dealer"], seat)))
        if view.get("to_act") is not None:
            head.append("  ·  ")
            head.append(self.t("to_act", who=self._who(view["to_act"], seat)), style="bold yellow")
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
            text.append("✗ " + self.t("loser_chip", creature=self.creature(name)), style="bold red")
        if not text:
            text.append(self.t("none"), style="dim")
        return text

    def _seats_table(self, view: dict[str, Any], viewer: int) -> Table:
        n = view["players"]
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        table.add_column(self.t("seat"), no_wrap=True)
        table.add_column(self.t("cards"), justify="right")
        table.add_column(self.t("chips"))
        table.add_column(self.t("stars"), justify="right")
        rounds = view.get("round_scores") or []
        for r in range(1, len(rounds) + 1):
            table.add_column(self.t("round_col", r=r), justify="right")
        table.add_column(self.t("total"), justify="right")
        chips = view["chips"]["seats"]
        for s in range(n):
            name = Text(self._who(s, viewer), style="bold cyan" if s == viewer else "")
            if s != viewer and s == (viewer + 1) % n:
                name.append(f" ({self.t('left')})", style="dim")
            elif s != viewer and s == (viewer - 1) % n:
                name.append(f" ({self.t('right')})", style="dim")
            if view.get("dealer") == s:
                name.append(f" · {self.t('dealer_mark')}", style="yellow")
            if view.get("to_act") == s:
                name.append(f" ▶ {self.t('turn_mark')}", style="bold yellow")
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
        line = Text(f"{self.t('middle')}: ", style="bold")
        empty = []
        for i, name in enumerate(("phoenix", "pegasus", "hydra")):
            if i:
                line.append("  ·  ")
            count = middle.get(name, 0)
            stars = "★" * STARS[CREATURE_NAMES.index(name)]
            low, high = CREATURE_RANGES[name]
            line.append(
                self.t("middle_left", creature=self.creature(name), count=count, stars=stars),
                style="bold" if count else "dim",
            )
            line.append(f" ({low}–{high})", style="dim")
            if count == 0 and view.get("phase") in ("play", "loser"):
                empty.append(self.creature(name))
        losers = [self.creature(name) for name in middle.get("losers", [])]
        line.append("  ·  ")
        if losers:
            line.append(self.t("losers_in_middle", names=", ".join(losers)), style="red")
        else:
            line.append(self.t("no_losers_in_middle"), style="dim")
        if empty:
            line.append("\n⚠ " + self.t("last_chip_warning", creatures=", ".join(empty)), style="yellow")
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
        head = Text(f"{self.t('trick')}: ", style="bold")
        if plays:
            head.append_text(self._trick_line(plays, viewer))
            colour = plays[0][1][:1]
            head.append(f"   ({self.t('led', colour=self.t('colour.' + colour))})", style="dim")
        else:
            mine = view.get("to_act") == viewer
            head.append(self.t("empty_trick" if mine else "empty_trick_other"), style="dim")
        if not plays and view.get("tricks"):
            lines.append(self._last_trick_text(view, viewer))
        lines.append(head)
        return Group(*lines)

    def _last_trick_text(self, view: dict[str, Any], viewer: int) -> Text:
        last = view["tricks"][-1]
        line = Text(f"{self.t('last_trick')}: ", style="dim bold")
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
        title = Text(f"{self.t('hand')}:", style="bold")
        if not hand:
            return Group(title, Text("  " + self.t("no_cards"), style="dim"))
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
            label = Text(self.t("colour." + colour), style=COLOUR_STYLES[colour])
            table.add_row(label, *cells)
        parts: list[RenderableType] = [title, table]
        if view.get("phase") == "play" and view.get("to_act") == seat:
            if follow is not None:
                parts.append(Text(self.t("must_follow", colour=self.t("colour." + follow)), style="italic"))
            else:
                parts.append(Text(self.t("free_play"), style="italic dim"))
        return Group(*parts)

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
                self.t("points", points=card["points"]),
            ]
            if status is not None:
                holds = status.get(card["id"], False)
                row.append(
                    Text("✓ " + self.t("holds"), style="bold green")
                    if holds
                    else Text("✗ " + self.t("fails"), style="red")
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
            parts.append(Text(f"{self.t('prophecies')}:", style="bold"))
            parts.append(self._oracle_table(kept, status))
        elif phase in ("keep", "draft") and dealt:
            ids = [card["id"] for card in dealt]
            example = {"a": ids[0], "b": ids[1] if len(ids) > 1 else ids[0]}
            if phase == "keep":
                key = "dealt_oracles" if view.get("to_act") == seat else "draft_hold"
                if view.get("to_act") != seat:
                    key = "dealt_oracles"
            elif view.get("to_act") == seat:
                key = "draft_discard" if view.get("dealer") == seat else "draft_oracles"
            else:
                key = "draft_hold"
            parts.append(Text(self.t(key, **example) + ":", style="bold"))
            parts.append(self._oracle_table(dealt, None))
        draft = view.get("draft")
        if draft and phase == "draft":
            discards = " ".join(draft.get("discards") or []) or self.t("none")
            parts.append(
                Text(self.t("draft_info", stack=draft.get("stack", 0), discards=discards), style="dim")
            )
        return parts

    # ---------------------------------------------------- announcements
    def _winner_line(self, trick: dict[str, Any], viewer: int | None) -> str:
        winner = trick["winner"]
        card = next((c for s, c in trick["cards"] if s == winner), "?")
        key = f"reason.{trick['reason']}"
        reason = self.t(key) if key in TEXTS["en"] else trick["reason"]
        if winner == viewer:
            return self.t("you_win", card=self.card_name(card), reason=reason)
        return self.t("wins", who=self._cap_who(winner, viewer), card=self.card_name(card), reason=reason)

    def announcements(self, before: dict[str, Any], after: dict[str, Any]) -> list[str]:
        lines: list[str] = []
        viewer = after.get("seat")
        for entry in (after.get("log") or [])[len(before.get("log") or []) :]:
            action = str(entry.get("action", ""))
            if action.startswith("draw ") and entry.get("by") is not None:
                lines.append(self._draw_line(entry["by"], action, viewer))
        trick = self._new_trick(before, after)
        if trick is not None:
            lines.append(self._winner_line(trick, viewer))
            chip = self._chip_line(before, after, trick, viewer)
            if chip:
                lines.append(chip)
        if len(after.get("round_scores") or []) > len(before.get("round_scores") or []):
            lines.extend(self._round_summary(before, after, trick, viewer))
        return lines

    def _draw_line(self, seat: int, action: str, viewer: int | None) -> str:
        cards = action.split()[1:]
        if seat == viewer and "?" not in cards:
            return self.t("you_draw", cards=" ".join(cards))
        return self.t("draws", who=self._cap_who(seat, viewer))

    @staticmethod
    def _new_trick(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
        """The trick finished by the last action, if any."""
        if before.get("phase") != "play":
            return None
        tricks = after.get("tricks") or []
        if before.get("round") == after.get("round") and len(tricks) > len(before.get("tricks") or []):
            return dict(tricks[-1])
        if after.get("round_scores") and len(after["round_scores"]) > len(before.get("round_scores") or []):
            # The last trick of the round: rebuild it from the trick before.
            plays = [list(p) for p in (before.get("trick") or {}).get("cards") or []]
            last = (after.get("log") or [{}])[-1]
            action = str(last.get("action", ""))
            if action.startswith("play ") and last.get("by") is not None:
                plays.append([last["by"], action.split()[1]])
                from oracles.games.oracle.cards import trick_winner

                index, reason = trick_winner([parse_card(card) for _, card in plays])
                return {"cards": plays, "winner": plays[index][0], "reason": reason}
        return None

    def _chip_line(
        self, before: dict[str, Any], after: dict[str, Any], trick: dict[str, Any], viewer: int | None
    ) -> str | None:
        winner = trick["winner"]
        card = next((c for s, c in trick["cards"] if s == winner), None)
        if card is None:
            return None
        name = _creature_of(card)
        creature = self.creature(name)
        who = self._cap_who(winner, viewer)
        you = "_you" if winner == viewer else ""
        middle = before["chips"]["middle"]
        if middle.get(name, 0) > 0:
            stars = STARS[CREATURE_NAMES.index(name)]
            return self.t("takes_chip" + you, who=who, creature=creature, stars=stars, left=middle[name] - 1)
        owner = next((s for s, entry in enumerate(before["chips"]["seats"]) if name in entry["losers"]), None)
        if owner is None:
            return self.t("takes_loser_middle" + you, who=who, creature=creature)
        if owner == winner:
            return self.t("loser_decides" + you, who=who, creature=creature)
        return self.t("takes_loser_from" + you, who=who, creature=creature, owner=self._who(owner, viewer))

    def _round_summary(
        self, before: dict[str, Any], after: dict[str, Any], trick: dict[str, Any] | None, viewer: int | None
    ) -> list[str]:
        n = after["players"]
        points = after["round_scores"][-1]
        seats = after["chips"]["seats"]
        # Victory chips each seat had before the forfeit.
        held = [{name: before["chips"]["seats"][s].get(name, 0) for name in CREATURE_NAMES} for s in range(n)]
        if trick is not None:
            card = next((c for s, c in trick["cards"] if s == trick["winner"]), None)
            if card is not None and before["chips"]["middle"].get(_creature_of(card), 0) > 0:
                held[trick["winner"]][_creature_of(card)] += 1
        quantities = [
            chip_quantities(
                seats[s].get("hydra", 0),
                seats[s].get("pegasus", 0),
                seats[s].get("phoenix", 0),
                [CREATURE_NAMES.index(name) for name in seats[s].get("losers", [])],
            )
            for s in range(n)
        ]
        revealed = (after.get("revealed") or [[]])[-1]
        lines = [self.t("round_over", r=before.get("round"))]
        for s in range(n):
            forfeit = ""
            for name in seats[s].get("losers", []):
                if held[s][name]:
                    forfeit += self.t("forfeit", count=held[s][name], creature=self.creature(name))
            props = ""
            if s < len(revealed):
                for card_id in revealed[s]:
                    try:
                        holds = self.edition.card(card_id).holds(quantities, s)
                    except (ValueError, IndexError):
                        continue
                    value = self.prophecy_points(card_id) if holds else 0
                    mark = "✓" if holds else "✗"
                    props += self.t("prophecy_line", id=card_id, mark=mark, value=value)
                    props += f" ({self.prophecy_text(card_id)})"
            lines.append(
                "  "
                + self.t(
                    "round_line",
                    who=self._cap_who(s, viewer),
                    stars=seats[s].get("stars", 0),
                    forfeit=forfeit,
                    props=props,
                    points=f"{points[s]:g}",
                    total=f"{after['scores'][s]:g}",
                )
            )
        return lines

    def final(self, view: dict[str, Any]) -> RenderableType:
        return self.points_table(
            view, self.t("rounds_title"), self.t("round_word"), self.t("total"), signed=False
        )

    # ---------------------------------------------------------- labels
    def observed(self, view: dict[str, Any]) -> str | None:
        """The last action the viewer saw, not counting what follows by
        itself (a draw, the reveal): those are announced separately."""
        log = view.get("log")
        if not isinstance(log, list) or not log:
            return None
        for entry in reversed(log):
            action = str(entry.get("action", "")) if isinstance(entry, dict) else str(entry)
            if not action.startswith(_AUTOMATIC):
                return action
        return None

    def action_label(self, text: str) -> str:
        words = text.split()
        if not words:
            return text
        verb = words[0].lower()
        if verb == "play" and len(words) == 2:
            return self.t("play", card=self.card_name(words[1].upper()))
        if verb in ("keep", "pass", "discard", "draw") and len(words) == 3:
            a, b = words[1].upper(), words[2].upper()
            if a == "?":
                return self.t(f"{verb}_hidden") if verb != "discard" else text
            if verb == "keep":
                return self.t("keep_action", a=a, b=b, pa=self.prophecy_points(a), pb=self.prophecy_points(b))
            if verb == "draw":
                return self.t("draw", cards=f"{a} {b}")
            return self.t(f"{verb}_action", a=a, b=b)
        if verb == "loser" and len(words) == 2 and words[1] in ("keep", "return"):
            return self.t(f"loser_{words[1]}")
        if verb == "dealer" and len(words) == 2 and words[1].isdigit():
            return self.t("dealer_action", who=self._cap_who(int(words[1]), None))
        if verb == "deal":
            return self.t("deal_action")
        if verb == "oracles":
            mine = [part.split() for part in text[len("oracles") :].split(";")[0].split("/")]
            own = [part for part in mine if part and part != ["?"]]
            if own:
                return self.t("oracles_action", cards=" ".join(own[0]))
            return self.t("oracles_hidden")
        if verb == "reveal":
            pairs = [part.strip() for part in text[len("reveal") :].split("/")]
            shown = ", ".join(f"{self._who(s, None)}: {pair}" for s, pair in enumerate(pairs))
            return self.t("reveal", pairs=shown)
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


def _creature_of(card: str) -> str:
    value = int(card[1:])
    for name, (low, high) in CREATURE_RANGES.items():
        if low <= value <= high:
            return name
    return "hydra"
