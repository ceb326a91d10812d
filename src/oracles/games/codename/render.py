"""Terminal renderer for ``codename``: both Mind-fields as grids, codes, hand,
lives, the turn's budget, and what happened in plain words.

Everything is drawn from a seat's *view* (its events and knowledge fields;
no log text is parsed). The texts are English msgids kept in ``TEXTS`` (and
``TEXTS_YOU`` for sentences about the viewer, whose verb agrees with "you" in
German); their translations live in the gettext catalog
(:mod:`oracles.i18n`). Symbols are shown as coloured glyphs: ★ star,
■ square, ≈ wave, ● circle, ✚ cross.

Short forms (English and German words may be mixed; case does not matter):

=====================================  ===========================================
typed                                  means
=====================================  ===========================================
``p a1`` / ``ansehen a1`` / ``a1``     ``peek a1`` (a lone cell: peek, pick or target)
``s a1 c3`` / ``t a1 c3`` / ``a1 c3``  ``swap a1 c3``
``r b2 c`` / ``ersetzen b2 kreis``     ``replace b2 circle``; ``b2 c`` alone too
``v a1 a2 a3`` / ``a1 a2 a3``          ``reveal a1 a2 a3`` (``respond`` when struck)
``g s q w c x`` / ``g sqwcx``          ``guess star square wave circle cross``
``code sqwcx`` / ``sqwcx``             ``code star square wave circle cross`` (setup)
``e`` / ``fertig``                     ``end``
``pass`` / ``passen`` / ``-``          ``respond pass`` or ``codeswap pass``
``b c3`` / any cell of the shield      ``block c3 d3 e3``
``a c``                                ``codeswap a c``; ``c s`` is ``recode c star``
``c2 s`` / ``c2 deck`` / ``c2 stapel`` ``place c2 star``, ``fill c2 star``, ``fill c2 deck``
``s`` / ``stern``                      ``take star`` or ``name star``
=====================================  ===========================================

Symbol letters: ``s`` star (Stern), ``q`` square (Quadrat), ``w`` wave
(Welle), ``c``/``o``/``k`` circle (Kreis), ``x``/``+`` cross (Kreuz); the full
English or German word works too.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from oracles.games.codename.actions import CELL_INDEX, COLUMNS, kind_of_cells
from oracles.i18n import N_
from oracles.play.render import Renderer

GLYPHS = {"star": "★", "square": "■", "wave": "≈", "circle": "●", "cross": "✚"}
STYLES = {
    "star": "bold yellow",
    "square": "bold blue",
    "wave": "bold cyan",
    "circle": "bold magenta",
    "cross": "bold red",
}
#: German symbol words accepted in short forms (the names shown come from the catalog).
INPUT_WORDS_DE = {"star": "Stern", "square": "Quadrat", "wave": "Welle", "circle": "Kreis", "cross": "Kreuz"}

#: Symbol words and letters accepted in short forms.
SYMBOL_WORDS: dict[str, str] = {
    "s": "star",
    "st": "star",
    "q": "square",
    "sq": "square",
    "w": "wave",
    "c": "circle",
    "o": "circle",
    "k": "circle",
    "x": "cross",
    "+": "cross",
    "kreis": "circle",
    "kreuz": "cross",
}
for _en, _de in INPUT_WORDS_DE.items():
    SYMBOL_WORDS[_en] = _en
    SYMBOL_WORDS[_de.lower()] = _en
#: One letter per symbol for compact codes (``sqwcx``).
COMPACT = {"s": "star", "q": "square", "w": "wave", "c": "circle", "o": "circle", "k": "circle", "x": "cross"}

VERBS: dict[str, str] = {
    "p": "peek",
    "peek": "peek",
    "an": "peek",
    "ansehen": "peek",
    "s": "swap",
    "sw": "swap",
    "swap": "swap",
    "t": "swap",
    "tausch": "swap",
    "tauschen": "swap",
    "r": "replace",
    "rep": "replace",
    "replace": "replace",
    "ers": "replace",
    "ersetzen": "replace",
    "v": "reveal",
    "rev": "reveal",
    "reveal": "reveal",
    "auf": "reveal",
    "aufdecken": "reveal",
    "g": "guess",
    "guess": "guess",
    "rate": "guess",
    "raten": "guess",
    "e": "end",
    "end": "end",
    "f": "end",
    "fertig": "end",
    "zugende": "end",
    "respond": "respond",
    "antworten": "respond",
    "antwort": "respond",
    "b": "block",
    "block": "block",
    "blocken": "block",
    "code": "code",
    "codeswap": "codeswap",
    "recode": "recode",
    "pick": "pick",
    "target": "target",
    "ziel": "target",
    "take": "take",
    "nehmen": "take",
    "name": "name",
    "nennen": "name",
    "place": "place",
    "legen": "place",
    "fill": "fill",
    "füllen": "fill",
    "auffüllen": "fill",
}
PASS_WORDS = {"pass", "passen", "-", "nein", "no", "keine"}
DECK_WORDS = {"deck", "stapel", "d"}

#: The renderer's texts by key, in English (the catalog has their translations).
TEXTS: dict[str, str] = {
    "title": N_("Codename: Oracle"),
    "turn": N_("turn {n} of {max}"),
    "setup": N_("setup"),
    "over": N_("game over"),
    "you": N_("you"),
    "opp": N_("opponent"),
    "You": N_("You"),
    "Opp": N_("The opponent"),
    "to_act": N_("The opponent to move"),
    "your_field": N_("Your Mind-field"),
    "opp_field": N_("Opponent's Mind-field (what you know)"),
    "code": N_("Code row"),
    "your_code": N_("Your code"),
    "opp_code": N_("Opponent's code"),
    "not": N_("not"),
    "seen_by_opp": N_("◆ = seen by the opponent"),
    "hand": N_("Your hand"),
    "aside": N_("Cards to place"),
    "no_cards": N_("(none)"),
    "life": N_("Life"),
    "deck": N_("deck {n}"),
    "hand_n": N_("hand {n}"),
    "discard": N_("discard {n}"),
    "known": N_("known: {cards}"),
    "cards": N_("Cards"),
    "budget": N_("This turn"),
    "peek_left": N_("peek {state}"),
    "swap_left": N_("swap {state}"),
    "replace_left": N_("replace {state}"),
    "guess_left": N_("guess {state}"),
    "reveals": N_("reveals {n}"),
    "free": N_("free"),
    "used": N_("used"),
    "legend": N_("★ star ■ square ≈ wave ● circle ✚ cross · ? unknown · {up} face-up shield · - empty"),
    "decision.code": N_("Choose your secret code row: five symbols for slots a–e (e.g. code s q w c x)."),
    "decision.turn": N_("Your turn: peek, swap, replace, reveal sets, guess, then end."),
    "decision.turn_opp": N_("The opponent's turn."),
    "decision.respond": N_(
        "The opponent strikes your column {col} with {sym}: reveal a shield shape (a row) or pass."
    ),
    "decision.block": N_("Several of your shields can block: choose one."),
    "decision.codeswap": N_("Your square shield was discarded: you may swap two of your code cards."),
    "decision.recode": N_("Square focus: put a hand card into a code slot (recode <slot> <symbol>)."),
    "decision.pick": N_("Wave strike: pick one more face-down card of the opponent outside column {col}."),
    "decision.place": N_("Wave shield: place the drawn cards, cell by cell ({cells})."),
    "decision.fill": N_("Cross shield: refill each cell from your hand or the deck ({cells})."),
    "decision.target": N_("Circle strike: choose the opponent's card in column {col} to discard."),
    "decision.take": N_("Circle strike: take a card from the opponent's discard pile."),
    "decision.name": N_("Circle focus: name a symbol; the opponent shows you those code cards."),
    "decision.wait": N_("Waiting for the opponent."),
    "menu.peek": N_("peek at one or two cards: p <cell> [<cell>] (e.g. p a1 b2)"),
    "menu.swap": N_("swap two face-down cards unseen: s <cell> <cell> (e.g. s a1 c3)"),
    "menu.replace": N_("replace a card by a hand card: r <cell> <symbol> (e.g. r b2 c); hand: {hand}"),
    "menu.reveal": N_(
        "reveal a set: v <cells>: 3-4 cells of a column (strike), 3-5 adjacent of a row (shield), a 2×2 block (focus); a wrong set ends your turn"
    ),
    "menu.guess": N_("guess the opponent's code: g <5 symbols> (e.g. g s q w c x); 2 damage per wrong slot"),
    "menu.code": N_(
        "type: code <5 symbols>, e.g. code s q w c x (s star, q square, w wave, c circle, x cross)"
    ),
    "menu.respond": N_(
        "or any shield shape: respond <cells> (3-5 adjacent cells of a row, e.g. b2 c2 d2); it blocks if it spans column {col} and shows one symbol (a star strike: only stars); a wrong one costs nothing but shows the cards"
    ),
    "menu.symbols": N_("symbols: s ★ star, q ■ square, w ≈ wave, c ● circle, x ✚ cross"),
    "kind.strike": N_("strike"),
    "kind.shield": N_("shield"),
    "kind.focus": N_("focus"),
    "col": N_("column {col}"),
    "a.peek": N_("peek {cell}"),
    "a.swap": N_("swap {a} {b}"),
    "a.replace": N_("replace {cell} by {sym}"),
    "a.reveal": N_("reveal {cells} ({kind})"),
    "a.reveal_known": N_("reveal {cells} ({kind}, {sym} known)"),
    "a.guess": N_("guess {syms}"),
    "a.code": N_("code {syms}"),
    "a.end": N_("end the turn (draw up to five)"),
    "a.respond": N_("respond with {cells} (shield)"),
    "a.respond_pass": N_("do not respond"),
    "a.block": N_("block with {cells}"),
    "a.codeswap": N_("swap code cards {a} and {b}"),
    "a.codeswap_pass": N_("keep the code as it is"),
    "a.recode": N_("put {sym} into code slot {slot}"),
    "a.pick": N_("also scramble {cell}"),
    "a.place": N_("place {sym} at {cell}"),
    "a.fill": N_("fill {cell} with {sym} from your hand"),
    "a.fill_deck": N_("fill {cell} from the deck"),
    "a.target": N_("discard the card at {cell}"),
    "a.take": N_("take {sym}"),
    "a.name": N_("name {sym}"),
    "final.title": N_("Final position"),
    "final.life": N_("Life: you {me}, opponent {opp}"),
    "slots_known": N_("known slots: {n} of 5"),
}
#: The texts whose verb agrees with "you" in other languages: the form used when
#: the viewer is the one named (``t(key, you=True)``).
TEXTS_YOU: dict[str, str] = {
    "to_act": N_("You to move"),
}


class CodenameRenderer(Renderer):
    """Draws a seat's view of Codename: Oracle."""

    # ------------------------------------------------------------ words
    def t(self, key: str, you: bool = False, **fields: object) -> str:
        """The text of ``key`` in this renderer's language; ``you`` picks the
        form for a sentence about the viewer (the verb agrees with "you")."""
        message = TEXTS_YOU[key] if you and key in TEXTS_YOU else TEXTS[key]
        return self.tr(message, **fields)

    def sym_name(self, symbol: str) -> str:
        return self.tr(symbol) if symbol in GLYPHS else symbol

    def sym_text(self, symbol: str | None) -> Text:
        """A symbol as a coloured glyph and its name."""
        if symbol is None or symbol not in GLYPHS:
            return Text("?", style="dim")
        return Text(f"{GLYPHS[symbol]} {self.sym_name(symbol)}", style=STYLES[symbol])

    def syms(self, symbols: list[str]) -> str:
        return " ".join(f"{GLYPHS.get(s, '')}{self.sym_name(s)}" for s in symbols)

    def who(self, seat: int, viewer: int, capital: bool = False) -> str:
        if seat == viewer:
            return self.t("You" if capital else "you")
        return self.t("Opp" if capital else "opp")

    def seat_name(self, seat: int, viewer: int | None = None) -> str:
        if viewer is None:
            return super().seat_name(seat, viewer)
        return self.who(seat, viewer)

    # ------------------------------------------------------------ board
    def board(self, view: dict[str, Any], seat: int) -> RenderableType:
        parts: list[RenderableType] = [self._head(view, seat)]
        own, opp = view["sides"][seat], view["sides"][1 - seat]
        mine = Group(Text(self.t("your_field"), style="bold cyan"), self._grid(own["field"], own["face_up"]))
        theirs = Group(Text(self.t("opp_field"), style="bold"), self._grid(opp["field"], opp["face_up"]))
        if any(v != "-" for v in own["field"].values()):
            parts.append(Columns([mine, theirs], padding=(0, 4)))
        if own["code"]:
            parts.append(self._own_code(own))
        parts.append(self._opp_code(opp))
        legend = Text()
        before, _, after = self.t("legend", up="\0").partition("\0")
        legend.append(before, style="dim")
        legend.append(" ★ ", style="reverse bold yellow")
        legend.append(after, style="dim")
        parts.append(legend)
        parts.append(self._hand(own))
        parts.append(self._cards(own, opp))
        budget = self._budget(view, seat)
        if budget is not None:
            parts.append(budget)
        parts.append(Text(self._decision(view, seat), style="italic"))
        return Panel(Group(*parts), title=self.t("title"), title_align="left", border_style="magenta")

    def _head(self, view: dict[str, Any], seat: int) -> Text:
        head = Text()
        if view["terminal"]:
            head.append(self.t("over"), style="bold")
        elif view["turn"]:
            head.append(self.t("turn", n=view["turn"], max=view["max_turns"]), style="bold")
        else:
            head.append(self.t("setup"), style="bold")
        if view["to_act"] is not None and not view["terminal"]:
            head.append("  ·  ")
            head.append(
                self.t(
                    "to_act", you=view["to_act"] == seat, who=self.who(view["to_act"], seat, capital=True)
                ),
                style="bold yellow" if view["to_act"] == seat else "",
            )
        head.append("  ·  ")
        head.append(f"{self.t('life')}: ", style="bold")
        head.append(f"{self.t('you')} {view['life'][seat]}", style="bold green")
        head.append("  ")
        head.append(f"{self.t('opp')} {view['life'][1 - seat]}", style="bold red")
        return head

    def _cell_text(self, symbol: str | None, up: bool) -> Text:
        if symbol is None:
            return Text("?", style="dim")
        if symbol == "-":
            return Text("-", style="dim")
        text = Text(GLYPHS.get(symbol, "?"), style=STYLES.get(symbol, ""))
        if up:
            text.stylize("reverse")
        return text

    def _grid(self, field: dict[str, str | None], face_up: list[str]) -> Table:
        table = Table(box=box.SQUARE, show_header=True, header_style="bold", padding=(0, 0))
        table.add_column("", style="bold", justify="center", min_width=3)
        for col in COLUMNS:
            table.add_column(col, justify="center", min_width=3)
        up = set(face_up)
        for row in range(1, 5):
            cells = [self._cell_text(field.get(f"{col}{row}"), f"{col}{row}" in up) for col in COLUMNS]
            table.add_row(str(row), *cells)
        return table

    def _own_code(self, own: dict[str, Any]) -> Text:
        line = Text.assemble((f"{self.t('your_code')}: ", "bold"))
        shown = set(own["code_shown"])
        for slot, symbol in zip(COLUMNS, own["code"], strict=False):
            line.append(f"{slot} ")
            line.append(GLYPHS.get(symbol, "?"), style=STYLES.get(symbol, ""))
            if slot in shown:
                line.append("◆", style="red")
            line.append("  ")
        return line

    def _opp_code(self, opp: dict[str, Any]) -> Text:
        line = Text.assemble((f"{self.t('opp_code')}: ", "bold"))
        excluded = opp.get("code_excluded") or [[] for _ in range(5)]
        for slot, symbol, notx in zip(COLUMNS, opp["code"], excluded, strict=False):
            line.append(f"{slot} ")
            if symbol is not None:
                line.append(GLYPHS.get(symbol, "?"), style=STYLES.get(symbol, ""))
            else:
                line.append("?", style="dim")
                if notx:
                    line.append(f" ({self.t('not')} ", style="dim")
                    for s in notx:
                        line.append(GLYPHS.get(s, s), style=STYLES.get(s, ""))
                    line.append(")", style="dim")
            line.append("  ")
        known = sum(1 for s in opp["code"] if s is not None)
        line.append(self.t("slots_known", n=known), style="dim")
        return line

    def _hand(self, view: dict[str, Any]) -> Text:
        """The viewer's hand and cards to place (``view`` is the viewer's side)."""
        line = Text.assemble((f"{self.t('hand')}: ", "bold"))
        if not view["hand"]:
            line.append(self.t("no_cards"), style="dim")
        for i, symbol in enumerate(view["hand"]):
            if i:
                line.append("  ")
            line.append_text(self.sym_text(symbol))
        if view.get("aside"):
            line.append(f"    {self.t('aside')}: ", style="bold")
            for symbol in view["aside"]:
                line.append_text(self.sym_text(symbol))
                line.append(" ")
        return line

    def _cards(self, view: dict[str, Any], opp: dict[str, Any]) -> Text:
        line = Text.assemble((f"{self.t('cards')}: ", "bold"))
        line.append(
            f"{self.t('you')}: {self.t('deck', n=view['deck'])}, {self.t('discard', n=view['discard'])}"
        )
        known = view.get("discard_known") or {}
        if known:
            line.append(f" ({self.t('known', cards=self._counts(known))})", style="dim")
        line.append("   ")
        line.append(
            f"{self.t('opp')}: {self.t('hand_n', n=opp['hand_count'])}, {self.t('deck', n=opp['deck'])}, "
            f"{self.t('discard', n=opp['discard'])}"
        )
        known = opp.get("discard_known") or {}
        if known:
            line.append(f" ({self.t('known', cards=self._counts(known))})", style="dim")
        return line

    @staticmethod
    def _counts(counts: dict[str, int]) -> str:
        return " ".join(f"{n}{GLYPHS.get(s, s)}" for s, n in counts.items())

    def _budget(self, view: dict[str, Any], seat: int) -> Text | None:
        if view["terminal"] or not view["turn"]:
            return None
        used = view["used"]
        line = Text()
        line.append(f"{self.t('budget')} ({self.who(view['turn_player'], seat)}): ", style="bold")
        flags = (
            ("peek_left", "peek"),
            ("swap_left", "swap"),
            ("replace_left", "replace"),
            ("guess_left", "guess"),
        )
        for index, (key, flag) in enumerate(flags):
            if index:
                line.append(" · ")
            line.append(
                self.t(key, state=self.t("used" if used[flag] else "free")), style="dim" if used[flag] else ""
            )
        line.append(" · " + self.t("reveals", n=used["reveals"]))
        return line

    def _decision(self, view: dict[str, Any], seat: int) -> str:
        decision = view.get("decision")
        if view["terminal"] or decision is None:
            return ""
        kind = decision["kind"]
        if decision.get("player") != seat:
            return self.t("decision.turn_opp") if kind == "turn" else self.t("decision.wait")
        if kind == "turn":
            return self.t("decision.turn")
        fields: dict[str, Any] = {}
        if "column" in decision:
            fields["col"] = decision["column"]
        if "symbol" in decision:
            fields["sym"] = self.syms([decision["symbol"]])
        if "cells" in decision:
            fields["cells"] = " ".join(decision["cells"])
        key = f"decision.{kind}"
        return self.t(key, **fields) if key in TEXTS else ""

    # ---------------------------------------------------------- labels
    def action_label(self, text: str) -> str:
        """A move's notation in words (German with ``lang == "de"``); log lines
        are told by :meth:`announcements` instead."""
        words = text.split()
        if not words:
            return text
        verb, args = words[0].lower(), words[1:]
        t = self.t
        if verb == "peek" and len(args) in (1, 2):
            return t("a.peek", cell=" ".join(args))
        if verb == "swap" and len(args) == 2:
            return t("a.swap", a=args[0], b=args[1])
        if verb == "replace" and len(args) == 2:
            return t("a.replace", cell=args[0], sym=self.syms([args[1]]))
        if verb == "reveal" and args:
            return t("a.reveal", cells=" ".join(args), kind=t(f"kind.{kind_of_cells(args)}"))
        if verb in ("guess", "code") and len(args) == 5:
            return t(f"a.{verb}", syms=self.syms(args))
        if verb == "end":
            return t("a.end")
        if verb == "respond":
            return t("a.respond_pass") if args == ["pass"] else t("a.respond", cells=" ".join(args))
        if verb == "block":
            return t("a.block", cells=" ".join(args))
        if verb == "codeswap":
            return t("a.codeswap_pass") if args == ["pass"] else t("a.codeswap", a=args[0], b=args[-1])
        if verb == "recode" and len(args) == 2:
            return t("a.recode", slot=args[0], sym=self.syms([args[1]]))
        if verb == "pick" and len(args) == 1:
            return t("a.pick", cell=args[0])
        if verb == "place" and len(args) == 2:
            return t("a.place", cell=args[0], sym=self.syms([args[1]]))
        if verb == "fill" and len(args) == 2:
            if args[1] == "deck":
                return t("a.fill_deck", cell=args[0])
            return t("a.fill", cell=args[0], sym=self.syms([args[1]]))
        if verb == "target" and len(args) == 1:
            return t("a.target", cell=args[0])
        if verb in ("take", "name") and len(args) == 1:
            return t(f"a.{verb}", sym=self.syms([args[0]]))
        return text

    # ------------------------------------------------------ move list
    def legal_menu(self, legal: dict[str, int], view: dict[str, Any]) -> tuple[list[str], list[str]]:
        """The moves worth numbering (notations, keys of ``legal``) and hint lines
        for the rest. A turn offers up to about 3,500 moves (3,125 guesses, 190
        swaps...): those are summarised as short forms, and only ``end``, the
        reveals of sets known to be valid and a known winning guess are numbered.
        Other decisions are short lists and are numbered in full."""
        decision = view.get("decision") or {}
        kind = decision.get("kind")
        if kind == "code":
            return [], [self.t("menu.code"), self.t("menu.symbols")]
        if kind == "respond":
            return self._respond_menu(legal, view, decision)
        if kind != "turn":
            return list(legal), []
        own, opp = view["sides"][view["seat"]], view["sides"][1 - view["seat"]]
        field = own["field"]
        numbered: list[str] = []
        hints: list[str] = []
        verbs = {text.split()[0] for text in legal}
        opp_code = opp["code"]
        if "guess" in verbs and all(s is not None for s in opp_code):
            win = "guess " + " ".join(opp_code)
            if win in legal:
                numbered.append(win)
        for text in legal:
            words = text.split()
            if words[0] == "reveal":
                symbols = {field.get(c) for c in words[1:]}
                if len(symbols) == 1 and None not in symbols:
                    numbered.append(text)
        if "end" in legal:
            numbered.append("end")
        if "peek" in verbs:
            hints.append(self.t("menu.peek"))
        if "swap" in verbs:
            hints.append(self.t("menu.swap"))
        if "replace" in verbs:
            hints.append(self.t("menu.replace", hand=self.syms(own["hand"])))
        if "reveal" in verbs:
            hints.append(self.t("menu.reveal"))
        if "guess" in verbs:
            hints.append(self.t("menu.guess"))
        hints.append(self.t("menu.symbols"))
        return numbered, hints

    def _respond_menu(
        self, legal: dict[str, int], view: dict[str, Any], decision: dict[str, Any]
    ) -> tuple[list[str], list[str]]:
        """Struck: ``pass``, then the shield shapes over the struck column, the
        ones known to be valid first; other rows by hint."""
        col = decision.get("column", "")
        field = view["sides"][view["seat"]]["field"]

        def known_valid(text: str) -> bool:
            symbols = {field.get(c) for c in text.split()[1:]}
            return len(symbols) == 1 and None not in symbols

        shapes = [t for t in legal if t.startswith("respond ") and t != "respond pass"]
        over = [t for t in shapes if any(c[0] == col for c in t.split()[1:])]
        over.sort(key=lambda t: (not known_valid(t), len(t)))
        numbered = (["respond pass"] if "respond pass" in legal else []) + over
        return numbered, [self.t("menu.respond", col=col), self.t("menu.symbols")]

    # -------------------------------------------------------- shortcuts
    def shortcut(self, text: str, legal: dict[str, int], view: dict[str, Any]) -> list[int]:
        tokens = text.strip().lower().split()
        if not tokens:
            return []
        for candidate in self._readings(tokens, legal):
            if candidate in legal:
                return [legal[candidate]]
        return super().shortcut(text, legal, view)

    def _readings(self, tokens: list[str], legal: dict[str, int]) -> list[str]:
        """Notations the typed tokens may stand for, most specific first."""
        verbs = {t.split()[0] for t in legal}
        verb = VERBS.get(tokens[0])
        args = tokens[1:] if verb is not None else tokens
        out: list[str] = []
        if len(tokens) == 1 and tokens[0] in PASS_WORDS:
            return ["respond pass", "codeswap pass"]
        # A verb that is not due (``s`` before a symbol) is read as a bare argument.
        if verb is not None and verb not in verbs and not (verb == "reveal" and "respond" in verbs):
            if verb in ("end",) or not _args_only(tokens):
                return []
            verb, args = None, tokens
        symbols = _symbols(args)
        cells = [a for a in args if a in CELL_INDEX]
        all_cells = len(cells) == len(args) and args
        if verb in (None, "guess", "code") and symbols is not None and len(symbols) == 5:
            names = " ".join(symbols)
            wanted = [verb] if verb else ["guess", "code"]
            out += [f"{v} {names}" for v in wanted]
        if verb == "end":
            out.append("end")
        if all_cells:
            joined = " ".join(sorted(cells, key=lambda c: (c[0], c[1])))
            if len(cells) == 1:
                for v in [verb] if verb else ["peek", "pick", "target"]:
                    out.append(f"{v} {cells[0]}")
            # A typed verb is kept: "reveal a1 a2" is a reveal that is not
            # legal, never the swap that two bare cells would mean.
            elif len(cells) == 2:
                out += [f"{v} {joined}" for v in ([verb] if verb else ["swap"])]
            elif verb in (None, "reveal"):
                out += [f"reveal {joined}", f"respond {joined}"]
            else:
                out.append(f"{verb} {joined}")
            if verb in (None, "block"):
                out += [t for t in legal if t.startswith("block ") and set(cells) <= set(t.split()[1:])]
        if len(args) == 2 and args[0] in CELL_INDEX:
            symbol = SYMBOL_WORDS.get(args[1])
            if symbol is not None:
                for v in [verb] if verb else ["replace", "place", "fill"]:
                    out.append(f"{v} {args[0]} {symbol}")
            if args[1] in DECK_WORDS:
                out.append(f"fill {args[0]} deck")
        if len(args) == 2 and all(a in COLUMNS for a in args):
            a, b = sorted(args)
            out.append(f"codeswap {a} {b}")
        if len(args) == 2 and args[0] in COLUMNS and args[1] in SYMBOL_WORDS:
            out.append(f"recode {args[0]} {SYMBOL_WORDS[args[1]]}")
        if len(args) == 1 and args[0] in SYMBOL_WORDS:
            symbol = SYMBOL_WORDS[args[0]]
            out += [f"{v} {symbol}" for v in ([verb] if verb else ["take", "name"])]
        return out

    # ------------------------------------------------------------ final
    def final(self, view: dict[str, Any]) -> RenderableType:
        seat = view["seat"]
        return Group(
            self.board(view, seat),
            Text(self.t("final.life", me=view["life"][seat], opp=view["life"][1 - seat]), style="bold"),
        )


def _args_only(tokens: list[str]) -> bool:
    return all(t in CELL_INDEX or t in SYMBOL_WORDS or t in COLUMNS or t in DECK_WORDS for t in tokens)


def _symbols(args: list[str]) -> list[str] | None:
    """Symbols written as words or letters (``s q w c x``), or compactly (``sqwcx``)."""
    if len(args) == 1 and len(args[0]) == 5 and all(ch in COMPACT for ch in args[0]):
        return [COMPACT[ch] for ch in args[0]]
    names = [SYMBOL_WORDS.get(a) for a in args]
    if not names or any(n is None for n in names):
        return None
    return [n for n in names if n is not None]
