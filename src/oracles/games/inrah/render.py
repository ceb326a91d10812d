"""Terminal renderer for ``inrah``: the hand by element in colour, the table,
the trick, and what happened (trick winners with the reason, round results).

Everything is drawn from a seat's *view*; texts come in English and German
(``TEXTS``; the generic ones live in :mod:`oracles.play.i18n`). Short forms
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
    ELEMENTS,
    ELEMENTS_DE,
    MAGE,
    NAMES_DE,
    PRINCE,
    RANK_OF,
    RANKS,
    SEER,
    parse_card,
)
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

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Inrah-Orakel",
        "round": "round {r} of {rounds}",
        "variant.standard": "",
        "variant.purpurberg": "Purpurberg (teams of opposite seats)",
        "variant.altaia": "Altaïa (three oracles each)",
        "phase.dealer": "drawing the dealer",
        "phase.deal": "dealing",
        "phase.trump": "turning up trump",
        "phase.bid": "bidding",
        "phase.hesinde": "Hesinde oracles",
        "phase.efferd": "Efferd oracles",
        "phase.phex": "Phex oracles",
        "phase.play": "playing tricks",
        "phase.over": "game over",
        "trump": "Trump",
        "no_trump": "no trump this round",
        "seat": "Seat",
        "team": "Team",
        "bid": "Bid",
        "oracles": "Oracles",
        "tricks": "Tricks",
        "cards": "Cards",
        "score": "Score",
        "dealer_mark": "dealer",
        "turn_mark": "to act",
        "trick": "Trick",
        "led": "led: {element}",
        "seer_first": "seer first: nothing to follow",
        "empty_trick": "(no card yet)",
        "last_trick": "Last trick",
        "hand": "Your hand",
        "no_cards": "(no cards)",
        "need": "You bid {bid} and took {taken}: ",
        "need_more": "{n} more to take.",
        "need_none": "take no more tricks.",
        "need_over": "{n} too many.",
        "team_need": "Your team bid {bid} and took {taken}.",
        "wins": "{who} wins the trick with {card}: {reason}",
        "you_win": "You win the trick with {card}: {reason}",
        "round_over": "Round {r} is over:",
        "round_line": "{who}: bid {bid}, took {taken}: {points} (total {total})",
        "round_line_altaia": "{who}: took {taken}; oracles {oracles}: {points} (total {total})",
        "rounds_title": "Points per round",
        "round_col": "Round",
        "total": "Total",
        "reason.first seer": "first seer",
        "reason.highest trump": "highest trump",
        "reason.highest of the led element": "highest of the led element",
        "reason.only mages: first mage": "only mages: first mage",
        "play": "play {card}",
        "bid_action": "bid {k}",
        "deal": "your cards: {cards}",
        "trump_action": "trump: {card}",
        "dealer_action": "{who} deals",
        "hesinde": "hesinde P{i} {k} ({who} takes exactly {k})",
        "makes": "efferd P{i} makes {k} ({who} takes exactly {k})",
        "misses": "efferd P{i} misses {k} ({who} does not take {k})",
        "phex": "phex P{i} {k} ({who} does not take {k})",
        "seat_name": "seat {seat}",
    },
    "de": {
        "title": "Inrah-Orakel",
        "round": "Runde {r} von {rounds}",
        "variant.standard": "",
        "variant.purpurberg": "Purpurberg (Teams gegenüber)",
        "variant.altaia": "Altaïa (je drei Orakel)",
        "phase.dealer": "Geber wird ausgelost",
        "phase.deal": "Karten werden verteilt",
        "phase.trump": "Trumpf wird aufgedeckt",
        "phase.bid": "Ansagen",
        "phase.hesinde": "Hesinde-Orakel",
        "phase.efferd": "Efferd-Orakel",
        "phase.phex": "Phex-Orakel",
        "phase.play": "Stichspiel",
        "phase.over": "Spielende",
        "trump": "Trumpf",
        "no_trump": "kein Trumpf in dieser Runde",
        "seat": "Platz",
        "team": "Team",
        "bid": "Ansage",
        "oracles": "Orakel",
        "tricks": "Stiche",
        "cards": "Karten",
        "score": "Punkte",
        "dealer_mark": "Geber",
        "turn_mark": "am Zug",
        "trick": "Stich",
        "led": "angespielt: {element}",
        "seer_first": "Weissagerin zuerst: nichts zu bedienen",
        "empty_trick": "(noch keine Karte)",
        "last_trick": "Letzter Stich",
        "hand": "Deine Hand",
        "no_cards": "(keine Karten)",
        "need": "Du hast {bid} angesagt und {taken} gemacht: ",
        "need_more": "noch {n}.",
        "need_none": "keinen Stich mehr nehmen.",
        "need_over": "{n} zu viel.",
        "team_need": "Euer Team hat {bid} angesagt und {taken} gemacht.",
        "wins": "{who} gewinnt den Stich mit {card}: {reason}",
        "you_win": "Du gewinnst den Stich mit {card}: {reason}",
        "round_over": "Runde {r} ist vorbei:",
        "round_line": "{who}: Ansage {bid}, Stiche {taken}: {points} (gesamt {total})",
        "round_line_altaia": "{who}: Stiche {taken}; Orakel {oracles}: {points} (gesamt {total})",
        "rounds_title": "Punkte je Runde",
        "round_col": "Runde",
        "total": "Gesamt",
        "reason.first seer": "erste Weissagerin",
        "reason.highest trump": "höchster Trumpf",
        "reason.highest of the led element": "höchste Karte des angespielten Elements",
        "reason.only mages: first mage": "nur Magier: erster Magier",
        "play": "spiele {card}",
        "bid_action": "sage {k} {stiche}",
        "deal": "deine Karten: {cards}",
        "trump_action": "Trumpf: {card}",
        "dealer_action": "{who} gibt",
        "hesinde": "Hesinde: {who} macht genau {k} {stiche}",
        "makes": "Efferd: {who} macht genau {k} {stiche}",
        "misses": "Efferd: {who} macht nicht {k} {stiche}",
        "phex": "Phex: {who} macht nicht {k} {stiche}",
        "seat_name": "Platz {seat}",
    },
}

#: Rank words accepted alone (``7``, ``seer``, ``Fürst``) and after an element.
_RANK_WORDS: dict[str, int] = {"1": 0, "fuerst": PRINCE}
for _i, _en in enumerate(RANKS):
    _RANK_WORDS[_en] = _i
    _RANK_WORDS[NAMES_DE[_en].lower()] = _i
#: Short rank letters accepted only after an element (``fp``, ``ws``, ``e-k``).
_RANK_SHORT: dict[str, int] = {
    **_RANK_WORDS,
    "a": 0,
    "s": 7,
    "sq": 7,
    "kn": 7,
    "k": 8,
    "kt": 8,
    "r": 8,
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
_ORDER = {r: i for i, r in enumerate((MAGE, 0, 1, 2, 3, 4, 5, 6, 7, 8, PRINCE, SEER))}

_ORACLE = re.compile(r"^(hesinde|efferd|phex) p?(\d+) (?:(makes|misses|macht|verfehlt|nicht) )?(\d+)$")


class InrahRenderer(Renderer):
    """Draws a seat's view of Inrah-Orakel."""

    # ------------------------------------------------------------ words
    def t(self, key: str, **fields: object) -> str:
        table = TEXTS.get(self.lang, TEXTS["en"])
        return table.get(key, TEXTS["en"][key]).format(**fields)

    def card_name(self, card: str) -> str:
        """A card's name in the interface language (``Feuer-7`` in German)."""
        if self.lang != "de":
            return card
        element, _, rank = card.partition("-")
        return f"{NAMES_DE.get(element, element)}-{NAMES_DE.get(rank, rank)}"

    def element_name(self, element: str) -> str:
        return NAMES_DE.get(element, element) if self.lang == "de" else element

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

    def _tricks_word(self, k: int) -> str:
        return "Stich" if k == 1 else "Stiche"

    def _who(self, seat: int, viewer: int | None = None) -> str:
        return self.seat_name(seat, viewer)

    # ------------------------------------------------------------ board
    def board(self, view: dict[str, Any], seat: int) -> RenderableType:
        trump = view.get("trump")
        parts: list[RenderableType] = []
        head = Text()
        if view.get("round"):
            head.append(self.t("round", r=view["round"], rounds=view["rounds"]), style="bold")
            head.append("  ·  ")
        head.append(self.t(f"phase.{view['phase']}"))
        variant = self.t(f"variant.{view.get('variant', 'standard')}")
        if variant:
            head.append("  ·  " + variant, style="magenta")
        parts.append(head)
        if view.get("trump_card"):
            line = Text(f"{self.t('trump')}: ", style="bold")
            line.append(self.element_name(trump or ""), style=ELEMENT_STYLES.get(trump or "", "") + " bold")
            line.append(" (")
            line.append_text(self.card_text(view["trump_card"]))
            line.append(")")
            parts.append(line)
        elif view.get("phase") not in ("dealer", "deal", "trump", "over"):
            parts.append(Text(self.t("no_trump"), style="dim"))
        parts.append(self._seats_table(view, seat))
        parts.append(self._trick_text(view, seat))
        parts.append(self._hand_text(view, trump))
        hint = self._need_hint(view, seat)
        if hint is not None:
            parts.append(hint)
        return Panel(Group(*parts), title=self.t("title"), title_align="left", border_style="magenta")

    def _seats_table(self, view: dict[str, Any], viewer: int) -> Table:
        n = view["players"]
        variant = view.get("variant")
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        table.add_column("")
        table.add_column(self.t("seat"))
        if variant == "purpurberg":
            table.add_column(self.t("team"), justify="center")
        altaia = variant == "altaia"
        table.add_column(
            self.t("oracles") if altaia else self.t("bid"), justify="left" if altaia else "right"
        )
        table.add_column(self.t("tricks"), justify="right")
        table.add_column(self.t("cards"), justify="right")
        table.add_column(self.t("score"), justify="right")
        bids = view.get("bids") or [None] * n
        oracles = view.get("oracles") or [[] for _ in range(n)]
        for s in range(n):
            marks = []
            if view.get("to_act") == s:
                marks.append(f"▶ {self.t('turn_mark')}")
            if view.get("dealer") == s:
                marks.append(self.t("dealer_mark"))
            name = Text(self._who(s, viewer), style="bold cyan" if s == viewer else "")
            row: list[RenderableType] = [Text(" ".join(marks), style="bold yellow"), name]
            if variant == "purpurberg":
                row.append("ABC"[s % (n // 2)])
            if altaia:
                row.append(", ".join(self.oracle_label(o) for o in oracles[s]) or "–")
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
            head = Text(f"{self.t('trick')}: ", style="bold")
            if view.get("trick"):
                head.append_text(self._trick_line(view["trick"], viewer, trump))
                if view.get("seer_first"):
                    head.append(f"   ({self.t('seer_first')})", style="italic")
                elif view.get("led"):
                    head.append(f"   ({self.t('led', element=self.element_name(view['led']))})", style="dim")
            else:
                head.append(self.t("empty_trick"), style="dim")
            lines.append(head)
        last = view.get("last_trick")
        if last and not view.get("trick"):
            line = Text(f"{self.t('last_trick')}: ", style="dim bold")
            line.append_text(self._trick_line(last["plays"], viewer, trump))
            line.append("  →  " + self._winner_line(last, viewer), style="dim")
            lines.append(line)
        return Group(*lines)

    def _hand_text(self, view: dict[str, Any], trump: str | None) -> Text:
        line = Text(f"{self.t('hand')}: ", style="bold")
        hand = sorted(view.get("hand") or [], key=_hand_key)
        if not hand:
            line.append(self.t("no_cards"), style="dim")
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
        text = self.t("need", bid=bid, taken=taken)
        if taken < bid:
            text += self.t("need_more", n=bid - taken)
        elif taken == bid:
            text += self.t("need_none")
        else:
            text += self.t("need_over", n=taken - bid)
        n = view["players"]
        if view.get("variant") == "purpurberg" and bids[(seat + n // 2) % n] is not None:
            partner = (seat + n // 2) % n
            text += " " + self.t(
                "team_need",
                bid=bid + bids[partner],
                taken=taken + view["tricks_taken"][partner],
            )
        return Text(text, style="italic")

    # ---------------------------------------------------- announcements
    def _winner_line(self, last: dict[str, Any], viewer: int | None) -> str:
        winner = last["winner"]
        card = next((p["card"] for p in last["plays"] if p["seat"] == winner), "?")
        reason = last["reason"]
        key = f"reason.{reason}"
        reason_text = self.t(key) if key in TEXTS["en"] else reason
        if winner == viewer:
            return self.t("you_win", card=self.card_name(card), reason=reason_text)
        return self.t("wins", who=self._who(winner, viewer), card=self.card_name(card), reason=reason_text)

    def announcements(self, before: dict[str, Any], after: dict[str, Any]) -> list[str]:
        lines: list[str] = []
        viewer = after.get("seat")
        last = after.get("last_trick")
        if last is not None and last != before.get("last_trick"):
            lines.append(self._winner_line(last, viewer))
        if len(after.get("round_scores") or []) > len(before.get("round_scores") or []):
            lines.extend(self._round_summary(before, after, viewer))
        return lines

    def _round_summary(self, before: dict[str, Any], after: dict[str, Any], viewer: int | None) -> list[str]:
        n = after["players"]
        points = after["round_scores"][-1]
        taken = list(before["tricks_taken"])
        last = after.get("last_trick")
        if before.get("phase") == "play" and last is not None and last != before.get("last_trick"):
            taken[last["winner"]] += 1
        lines = [self.t("round_over", r=before.get("round"))]
        for s in range(n):
            fields = {
                "who": self._who(s, viewer),
                "taken": taken[s],
                "points": f"{points[s]:+g}",
                "total": f"{after['scores'][s]:g}",
            }
            if after.get("variant") == "altaia":
                oracles = (before.get("oracles") or [[]] * n)[s]
                text = ", ".join(self.oracle_label(o) for o in oracles) or "–"
                lines.append("  " + self.t("round_line_altaia", oracles=text, **fields))
            else:
                bid = (before.get("bids") or [None] * n)[s]
                lines.append("  " + self.t("round_line", bid="–" if bid is None else bid, **fields))
        return lines

    def final(self, view: dict[str, Any]) -> RenderableType:
        return self.points_table(
            view, self.t("rounds_title"), self.t("round_col"), self.t("total"), signed=True
        )

    # ---------------------------------------------------------- labels
    def oracle_label(self, text: str) -> str:
        """An Altaïa oracle in short: ``hesinde P2 1`` is ``Hesinde P2 = 1``,
        ``phex P0 2`` is ``Phex P0 ≠ 2`` (the same in both languages)."""
        match = _ORACLE.match(text.strip().lower())
        if not match:
            return text
        kind, seat, how, count = match.groups()
        sign = "≠" if kind == "phex" or how == "misses" else "="
        return f"{kind.capitalize()} P{seat} {sign} {count}"

    def observed(self, view: dict[str, Any]) -> str | None:
        seen = super().observed(view)
        if seen is not None and re.match(r"^P\d+ ", seen):
            # The session names the actor itself.
            return seen.partition(" ")[2]
        return seen

    def action_label(self, text: str) -> str:
        words = text.split()
        if not words:
            return text
        verb = words[0].lower()
        de = self.lang == "de"
        if verb == "play" and len(words) == 2:
            return self.t("play", card=self.card_name(words[1]))
        if verb == "bid" and len(words) == 2 and words[1].isdigit():
            k = int(words[1])
            return self.t("bid_action", k=k, stiche=self._tricks_word(k))
        if verb in ("hesinde", "efferd", "phex"):
            match = _ORACLE.match(text.strip().lower())
            if match:
                kind, seat, how, count = match.groups()
                key = kind if kind != "efferd" else ("makes" if how == "makes" else "misses")
                who = TEXTS["de" if de else "en"]["seat_name"].format(seat=seat)
                return self.t(key, i=seat, k=int(count), who=who, stiche=self._tricks_word(int(count)))
            return text
        if verb == "deal":
            return self.t("deal", cards=" ".join(self.card_name(c) for c in words[1:]))
        if verb == "trump" and len(words) == 2:
            return self.t("trump_action", card=self.card_name(words[1]))
        if verb == "dealer" and len(words) == 2 and words[1].isdigit():
            return self.t("dealer_action", who=self._who(int(words[1])))
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
    return (c // 12, _ORDER[RANK_OF[c]])


def _card_aliases(card: str) -> set[str]:
    """Every way of writing ``card`` that the shortcut accepts."""
    c = parse_card(card)
    if c is None:
        return {card}
    element, rank = c // 12, RANK_OF[c]
    elements = [w for w, e in _ELEMENT_SHORT.items() if e == element]
    ranks = [w for w, r in _RANK_SHORT.items() if r == rank]
    aliases = {w for w, r in _RANK_WORDS.items() if r == rank}
    aliases.update(w for w, e in _ELEMENT_WORDS.items() if e == element)
    for e in elements:
        for r in ranks:
            aliases.update((f"{e}{r}", f"{e}-{r}", f"{e} {r}"))
    return aliases
