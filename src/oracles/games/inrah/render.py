"""Terminal renderer for ``inrah``: the hand by element in colour, the table,
the trick, and what happened (trick winners with the reason, round results).

Everything is drawn from a seat's *view* and its log events; texts are
English messages marked for the catalog (:mod:`oracles.i18n`), card and
element names come in German from :mod:`oracles.games.inrah.cards`. Short forms
for moves: ``fire-7``, ``Feuer-7``, ``f7``, ``7`` or ``fire`` when only one
legal card fits, ``fp`` (fire prince), ``ws`` (water seer); bids as a bare
number (``2``), ``sage 2`` or ``2 stiche``; Altaïa oracles as ``hesinde 0 1``,
``efferd 2 macht 1``, ``phex 3 0``.
"""

from __future__ import annotations

import re
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from oracles.games.inrah.cards import (
    ACE,
    ELEMENT_OF,
    ELEMENTS,
    ELEMENTS_DE,
    KNIGHT,
    MAGE,
    PRINCE,
    RANK_OF,
    RANKS,
    RANKS_DE,
    SEER,
    SQUIRE,
    parse_card,
)
from oracles.games.inrah.constants import ALTAIA, PURPURBERG, STANDARD
from oracles.games.inrah.scoring import partner, team
from oracles.games.inrah.tricks import FIRST_SEER, HIGHEST_LED, HIGHEST_TRUMP, ONLY_MAGES
from oracles.games.inrah.views import Oracle
from oracles.i18n import N_
from oracles.play.render import Renderer

#: Colour of each element, in the order of ``ELEMENTS``.
ELEMENT_STYLES: dict[str, str] = {
    "fire": "red",
    "water": "blue",
    "air": "bright_white",
    "ore": "yellow",
    "humus": "green",
    "ice": "bright_cyan",
}

TITLE = "Inrah-Orakel"

#: What each phase is called on the board.
PHASE_TEXT: dict[str, str] = {
    "dealer": N_("drawing the dealer"),
    "deal": N_("dealing"),
    "trump": N_("turning up trump"),
    "bid": N_("bidding"),
    "hesinde": N_("Hesinde oracles"),
    "efferd": N_("Efferd oracles"),
    "phex": N_("Phex oracles"),
    "play": N_("playing tricks"),
    "over": N_("game over"),
}
#: The variants worth naming on the board (the standard game is not named).
VARIANT_TEXT: dict[str, str] = {
    PURPURBERG: N_("Purpurberg (teams of opposite seats)"),
    ALTAIA: N_("Altaïa (three oracles each)"),
}
#: Why a trick was won, keyed by the rules' reason.
REASON_TEXT: dict[str, str] = {
    FIRST_SEER: N_("first seer"),
    HIGHEST_TRUMP: N_("highest trump"),
    HIGHEST_LED: N_("highest of the led element"),
    ONLY_MAGES: N_("only mages: first mage"),
}

#: Rank words accepted alone (``7``, ``seer``, ``Fürst``) and after an element.
_RANK_WORDS: dict[str, int] = {"1": ACE, "fuerst": PRINCE}
for _i, _en in enumerate(RANKS):
    _RANK_WORDS[_en] = _i
    _RANK_WORDS[RANKS_DE[_i].lower()] = _i
#: Short rank letters accepted only after an element (``fp``, ``ws``, ``e-k``).
_RANK_SHORT: dict[str, int] = {
    **_RANK_WORDS,
    "a": ACE,
    "s": SQUIRE,
    "sq": SQUIRE,
    "kn": SQUIRE,
    "k": KNIGHT,
    "kt": KNIGHT,
    "r": KNIGHT,
    "se": SEER,
    "ws": SEER,
    "w": SEER,
    "m": MAGE,
    "mg": MAGE,
    "p": PRINCE,
    "pr": PRINCE,
    "f": PRINCE,
    "fu": PRINCE,
}
#: Element words, accepted alone (``fire`` when only one fire card is legal).
_ELEMENT_WORDS: dict[str, int] = {}
for _i, (_en, _de) in enumerate(zip(ELEMENTS, ELEMENTS_DE, strict=True)):
    _ELEMENT_WORDS[_en] = _i
    _ELEMENT_WORDS[_de.lower()] = _i
#: Element letters before a rank (English and German; ``e`` is Erz, ``ei`` Eis).
_ELEMENT_SHORT: dict[str, int] = {
    **_ELEMENT_WORDS,
    "f": 0,
    "w": 1,
    "a": 2,
    "l": 2,
    "o": 3,
    "e": 3,
    "h": 4,
    "i": 5,
    "ei": 5,
}

#: Sort key of a card within its element: mage, ace .. prince, seer.
_ORDER = {r: i for i, r in enumerate((MAGE, *range(ACE, KNIGHT + 1), PRINCE, SEER))}

_ORACLE = re.compile(r"^(hesinde|efferd|phex) p?(\d+) (?:(makes|misses|macht|verfehlt|nicht) )?(\d+)$")


class InrahRenderer(Renderer):
    """Draws a seat's view of Inrah-Orakel."""

    def card_name(self, card: str) -> str:
        """A card's name in the interface language (``Feuer-7`` in German),
        its words from the catalog."""
        if self.lang == "en":
            return card
        element, _, rank = card.partition("-")
        return f"{self.tr(element)}-{self.tr(rank) if not rank.isdigit() else rank}"

    def element_name(self, element: str) -> str:
        return self.tr(element) if self.lang != "en" else element

    def card_text(self, card: str, trump: str | None = None) -> Text:
        """A card in its element's colour; seers bold, mages italic, trump underlined."""
        element, _, rank = card.partition("-")
        style = ELEMENT_STYLES.get(element, "")
        if rank == "seer":
            style += " bold"
        elif rank == "mage":
            style += " italic"
        if trump is not None and element == trump and rank not in ("seer", "mage"):
            style += " underline"
        return Text(self.card_name(card), style=style.strip())

    def _who(self, seat: int, viewer: int | None = None) -> str:
        return self.seat_name(seat, viewer)

    # ------------------------------------------------------------ board
    def board(self, view: dict[str, Any], seat: int) -> RenderableType:
        trump = view.get("trump")
        parts: list[RenderableType] = []
        head = Text()
        if view.get("round"):
            head.append(
                self.tr("round {r} of {rounds}", r=view["round"], rounds=view["rounds"]), style="bold"
            )
            head.append("  ·  ")
        head.append(self.tr(PHASE_TEXT[view["phase"]]))
        variant = VARIANT_TEXT.get(view.get("variant", STANDARD))
        if variant is not None:
            head.append("  ·  " + self.tr(variant), style="magenta")
        parts.append(head)
        if view.get("trump_card"):
            line = Text(self.tr("Trump") + ": ", style="bold")
            line.append(self.element_name(trump or ""), style=ELEMENT_STYLES.get(trump or "", "") + " bold")
            line.append(" (")
            line.append_text(self.card_text(view["trump_card"]))
            line.append(")")
            parts.append(line)
        elif view.get("phase") not in ("dealer", "deal", "trump", "over"):
            parts.append(Text(self.tr("no trump this round"), style="dim"))
        parts.append(self._seats_table(view, seat))
        parts.append(self._trick_text(view, seat))
        parts.append(self._hand_text(view, trump))
        hint = self._need_hint(view, seat)
        if hint is not None:
            parts.append(hint)
        return Panel(Group(*parts), title=TITLE, title_align="left", border_style="magenta")

    def _seats_table(self, view: dict[str, Any], viewer: int) -> Table:
        n = view["players"]
        variant = view.get("variant")
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        table.add_column("")
        table.add_column(self.tr("Seat"))
        if variant == PURPURBERG:
            table.add_column(self.tr("Team"), justify="center")
        altaia = variant == ALTAIA
        table.add_column(
            self.tr("Oracles") if altaia else self.tr("Bid"), justify="left" if altaia else "right"
        )
        table.add_column(self.tr("Tricks"), justify="right")
        table.add_column(self.tr("Cards"), justify="right")
        table.add_column(self.tr("Score"), justify="right")
        bids = view.get("bids") or [None] * n
        oracles = view.get("oracles") or [[] for _ in range(n)]
        for s in range(n):
            marks = []
            if view.get("to_act") == s:
                marks.append("▶ " + self.tr("to act"))
            if view.get("dealer") == s:
                marks.append(self.tr("dealer"))
            name = Text(self._who(s, viewer), style="bold cyan" if s == viewer else "")
            row: list[RenderableType] = [Text(" ".join(marks), style="bold yellow"), name]
            if variant == PURPURBERG:
                row.append("ABC"[team(s, n)])
            if altaia:
                row.append(", ".join(self.oracle_label(o, viewer) for o in oracles[s]) or "–")
            else:
                row.append("–" if bids[s] is None else str(bids[s]))
            row.append(str(view["tricks_taken"][s]))
            row.append(str(view["hand_sizes"][s]))
            row.append(f"{view['scores'][s]:g}")
            table.add_row(*row)
        return table

    def _trick_line(self, plays: list[dict[str, Any]], viewer: int, trump: str | None) -> Text:
        line = Text()
        for i, play in enumerate(plays):
            if i:
                line.append("  ·  ", style="dim")
            line.append(self._who(play["seat"], viewer) + " ")
            line.append_text(self.card_text(play["card"], trump))
        return line

    def _trick_text(self, view: dict[str, Any], viewer: int) -> RenderableType:
        trump = view.get("trump")
        lines: list[RenderableType] = []
        if view.get("phase") == "play":
            head = Text(self.tr("Trick") + ": ", style="bold")
            if view.get("trick"):
                head.append_text(self._trick_line(view["trick"], viewer, trump))
                if view.get("seer_first"):
                    head.append("   (" + self.tr("seer first: nothing to follow") + ")", style="italic")
                elif view.get("led"):
                    led = self.tr("led: {element}", element=self.element_name(view["led"]))
                    head.append(f"   ({led})", style="dim")
            else:
                head.append(self.tr("(no card yet)"), style="dim")
            lines.append(head)
        last = view.get("last_trick")
        if last and not view.get("trick"):
            line = Text(self.tr("Last trick") + ": ", style="dim bold")
            line.append_text(self._trick_line(last["plays"], viewer, trump))
            line.append("  →  " + self._winner_line(last, viewer), style="dim")
            lines.append(line)
        return Group(*lines)

    def _hand_text(self, view: dict[str, Any], trump: str | None) -> Text:
        line = Text(self.tr("Your hand") + ": ", style="bold")
        hand = sorted(view.get("hand") or [], key=_hand_key)
        if not hand:
            line.append(self.tr("(no cards)"), style="dim")
        previous = None
        for card in hand:
            element = card.partition("-")[0]
            if previous is not None:
                line.append("   " if element != previous else " ")
            line.append_text(self.card_text(card, trump))
            previous = element
        return line

    def _need_hint(self, view: dict[str, Any], seat: int) -> Text | None:
        bids = view.get("bids")
        if view.get("phase") != "play" or not bids or bids[seat] is None:
            return None
        bid, taken = bids[seat], view["tricks_taken"][seat]
        text = self.tr("You bid {bid} and took {taken}:", bid=bid, taken=taken) + " "
        if taken < bid:
            text += self.tr("{n} more to take.", n=bid - taken)
        elif taken == bid:
            text += self.tr("take no more tricks.")
        else:
            text += self.tr("{n} too many.", n=taken - bid)
        n = view["players"]
        mate = partner(seat, n)
        if view.get("variant") == PURPURBERG and bids[mate] is not None:
            text += " " + self.tr(
                "Your team bid {bid} and took {taken}.",
                bid=bid + bids[mate],
                taken=taken + view["tricks_taken"][mate],
            )
        return Text(text, style="italic")

    # ---------------------------------------------------- announcements
    def _winner_line(self, last: dict[str, Any], viewer: int | None) -> str:
        winner = last["winner"]
        card = next((p["card"] for p in last["plays"] if p["seat"] == winner), "?")
        reason = last["reason"]
        reason_text = self.tr(REASON_TEXT[reason]) if reason in REASON_TEXT else reason
        if winner == viewer:
            return self.tr(
                "You win the trick with {card}: {reason}", card=self.card_name(card), reason=reason_text
            )
        return self.tr(
            "{who} wins the trick with {card}: {reason}",
            who=self._who(winner, viewer),
            card=self.card_name(card),
            reason=reason_text,
        )

    def summaries(self, before: dict[str, Any], after: dict[str, Any]) -> list[str]:
        """The round's summary when one just ended (the story told the tricks)."""
        viewer = after.get("seat")
        if len(after.get("round_scores") or []) > len(before.get("round_scores") or []):
            return self._round_summary(after, viewer)
        return []

    def _round_summary(self, view: dict[str, Any], viewer: int | None) -> list[str]:
        finished = view["last_round"]
        lines = [self.tr("Round {r} is over:", r=finished["round"])]
        for s, points in enumerate(finished["points"]):
            fields = {
                "who": self._who(s, viewer),
                "taken": finished["tricks_taken"][s],
                "points": f"{points:+g}",
                "total": f"{view['scores'][s]:g}",
            }
            if finished["oracles"] is not None:
                text = ", ".join(self.oracle_label(o, viewer) for o in finished["oracles"][s]) or "–"
                line = self.tr(
                    "{who}: took {taken}; oracles {oracles}: {points} (total {total})", oracles=text, **fields
                )
            else:
                line = self.tr(
                    "{who}: bid {bid}, took {taken}: {points} (total {total})",
                    bid=finished["bids"][s],
                    **fields,
                )
            lines.append("  " + line)
        return lines

    def final(self, view: dict[str, Any]) -> RenderableType:
        return self.points_table(
            view, self.tr("Points per round"), self.tr("Round"), self.tr("Total"), signed=True
        )

    # ---------------------------------------------------------- labels
    def oracle_label(self, oracle: Oracle, viewer: int | None = None) -> str:
        """An Altaïa oracle in short, the seat as the table names it: Hesinde
        on the third seat for 1 trick is ``Hesinde: seat 3 = 1``, Phex on the
        viewer's own for 2 is ``Phex: you ≠ 2``."""
        sign = "=" if oracle["makes"] else "≠"
        return f"{oracle['kind'].capitalize()}: {self._who(oracle['named'], viewer)} {sign} {oracle['k']}"

    def _oracle_line(self, kind: str, named: int, k: int, makes: bool) -> str:
        who = self.seat_name(named)
        fields = {"i": named, "who": who}
        if kind == "hesinde":
            return self.ntr(
                "hesinde P{i} {count} ({who} takes exactly {count})",
                "hesinde P{i} {count} ({who} takes exactly {count})",
                k,
                **fields,
            )
        if kind == "phex":
            return self.ntr(
                "phex P{i} {count} ({who} does not take {count})",
                "phex P{i} {count} ({who} does not take {count})",
                k,
                **fields,
            )
        if makes:
            return self.ntr(
                "efferd P{i} makes {count} ({who} takes exactly {count})",
                "efferd P{i} makes {count} ({who} takes exactly {count})",
                k,
                **fields,
            )
        return self.ntr(
            "efferd P{i} misses {count} ({who} does not take {count})",
            "efferd P{i} misses {count} ({who} does not take {count})",
            k,
            **fields,
        )

    def _play_line(self, card: str) -> str:
        return self.tr("play {card}", card=self.card_name(card))

    def _bid_line(self, k: int) -> str:
        return self.ntr("bid {count}", "bid {count}", k)

    def _deal_line(self, cards: list[str]) -> str:
        return self.tr("your cards: {cards}", cards=" ".join(self.card_name(c) for c in cards))

    def _trump_line(self, card: str) -> str:
        return self.tr("trump: {card}", card=self.card_name(card))

    def _dealer_line(self, dealer: int) -> str:
        return self.tr("{who} deals", who=self._who(dealer))

    def action_label(self, text: str) -> str:
        """A legal move's notation as the player reads it; text that is not
        notation (such as a line from :meth:`observed`) is left as it is."""
        words = text.split()
        if not words:
            return text
        verb = words[0].lower()
        if verb == "play" and len(words) == 2:
            return self._play_line(words[1])
        if verb == "bid" and len(words) == 2 and words[1].isdigit():
            return self._bid_line(int(words[1]))
        if verb in ("hesinde", "efferd", "phex"):
            match = _ORACLE.match(text.strip().lower())
            if match:
                kind, seat, how, count = match.groups()
                return self._oracle_line(kind, int(seat), int(count), how in (None, "makes", "macht"))
            return text
        if verb == "deal":
            return self._deal_line(words[1:])
        if verb == "trump" and len(words) == 2:
            return self._trump_line(words[1])
        if verb == "dealer" and len(words) == 2 and words[1].isdigit():
            return self._dealer_line(int(words[1]))
        return text

    # -------------------------------------------------------- shortcuts
    def shortcut(self, text: str, legal: dict[str, int], view: dict[str, Any]) -> list[int]:
        text = " ".join(text.strip().lower().split())
        found = super().shortcut(text, legal, view)
        if found:
            return found
        for prefix in ("play ", "spiele ", "spiel ", "sage ", "bid ", "ansage "):
            if text.startswith(prefix):
                text = text[len(prefix) :]
                break
        plays = {t.split()[1]: a for t, a in legal.items() if t.startswith("play ")}
        if plays:
            return [a for card, a in plays.items() if text in _card_aliases(card)]
        bids = {int(t.split()[1]): a for t, a in legal.items() if t.startswith("bid ")}
        if bids:
            match = re.match(r"^(\d+)(?: (?:stich|stiche|trick|tricks))?$", text)
            if match and int(match.group(1)) in bids:
                return [bids[int(match.group(1))]]
            return []
        match = _ORACLE.match(text)
        if match:
            kind, seat, how, k = match.groups()
            if kind == "efferd":
                notation = f"efferd P{seat} {'makes' if how in ('makes', 'macht') else 'misses'} {k}"
            else:
                notation = f"{kind} P{seat} {k}"
            return [a for t, a in legal.items() if t.lower() == notation.lower()]
        return []


def _hand_key(card: str) -> tuple[int, int]:
    c = parse_card(card)
    if c is None:
        return (99, 99)
    return (ELEMENT_OF[c], _ORDER[RANK_OF[c]])


def _card_aliases(card: str) -> set[str]:
    """Every way of writing ``card`` that the shortcut accepts."""
    c = parse_card(card)
    if c is None:
        return {card}
    element, rank = ELEMENT_OF[c], RANK_OF[c]
    elements = [w for w, e in _ELEMENT_SHORT.items() if e == element]
    ranks = [w for w, r in _RANK_SHORT.items() if r == rank]
    aliases = {w for w, r in _RANK_WORDS.items() if r == rank}
    aliases.update(w for w, e in _ELEMENT_WORDS.items() if e == element)
    for e in elements:
        for r in ranks:
            aliases.update((f"{e}{r}", f"{e}-{r}", f"{e} {r}"))
    return aliases
