"""Terminal renderer for ``codename``: both Mind-fields as grids, codes, hand,
lives, the turn's budget, and what happened in plain words.

Everything is drawn from a seat's *view*; texts come in English and German
(``TEXTS``; the generic ones live in :mod:`oracles.play.i18n`). Symbols are
shown as coloured glyphs: ★ star, ■ square, ≈ wave, ● circle, ✚ cross.

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

import re
from functools import partial
from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from oracles.play.render import Renderer

SYMBOLS = ("star", "square", "wave", "circle", "cross")
GLYPHS = {"star": "★", "square": "■", "wave": "≈", "circle": "●", "cross": "✚"}
STYLES = {
    "star": "bold yellow",
    "square": "bold blue",
    "wave": "bold cyan",
    "circle": "bold magenta",
    "cross": "bold red",
}
NAMES_DE = {"star": "Stern", "square": "Quadrat", "wave": "Welle", "circle": "Kreis", "cross": "Kreuz"}
COLUMNS = "abcde"
CELL_NAMES = tuple(f"{col}{row}" for col in COLUMNS for row in range(1, 5))

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
for _en, _de in NAMES_DE.items():
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
_CELL = re.compile(r"^[a-e][1-4]$")
_FORMS = re.compile(r"<([^|<>]*)\|([^|<>]*)>")

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Codename: Oracle",
        "turn": "turn {n} of {max}",
        "setup": "setup",
        "over": "game over",
        "you": "you",
        "opp": "opponent",
        "You": "You",
        "Opp": "The opponent",
        "to_move": "{who} to move",
        "your_field": "Your Mind-field",
        "opp_field": "Opponent's Mind-field (what you know)",
        "code": "Code row",
        "your_code": "Your code",
        "opp_code": "Opponent's code",
        "not": "not",
        "seen_by_opp": "◆ = seen by the opponent",
        "hand": "Your hand",
        "aside": "Cards to place",
        "no_cards": "(none)",
        "life": "Life",
        "deck": "deck {n}",
        "hand_n": "hand {n}",
        "discard": "discard {n}",
        "known": "known: {cards}",
        "cards": "Cards",
        "budget": "This turn",
        "peeks_left": "peeks left {n}",
        "swap_left": "swap {state}",
        "replace_left": "replace {state}",
        "guess_left": "guess {state}",
        "reveals": "reveals {n}",
        "free": "free",
        "used": "used",
        "legend": "★ star ■ square ≈ wave ● circle ✚ cross · ? unknown · {up} face-up shield · - empty",
        "decision.code": "Choose your secret code row: five symbols for slots a–e (e.g. code s q w c x).",
        "decision.turn": "Your turn: peek, swap, replace, reveal sets, guess, then end.",
        "decision.turn_opp": "The opponent's turn.",
        "decision.respond": "The opponent strikes your column {col} with {sym}: reveal a shield shape (a row) "
        "or pass.",
        "decision.block": "Several of your shields can block: choose one.",
        "decision.codeswap": "Your square shield was discarded: you may swap two of your code cards.",
        "decision.recode": "Square focus: put a hand card into a code slot (recode <slot> <symbol>).",
        "decision.pick": "Wave strike: pick one more face-down card of the opponent outside column {col}.",
        "decision.place": "Wave shield: place the drawn cards, cell by cell ({cells}).",
        "decision.fill": "Cross shield: refill each cell from your hand or the deck ({cells}).",
        "decision.target": "Circle strike: choose the opponent's card in column {col} to discard.",
        "decision.take": "Circle strike: take a card from the opponent's discard pile.",
        "decision.name": "Circle focus: name a symbol; the opponent shows you those code cards.",
        "decision.wait": "Waiting for the opponent.",
        "menu.peek": "peek at a card: p <cell> (e.g. p a1), {n} left",
        "menu.swap": "swap two face-down cards unseen: s <cell> <cell> (e.g. s a1 c3)",
        "menu.replace": "replace a card by a hand card: r <cell> <symbol> (e.g. r b2 c); hand: {hand}",
        "menu.reveal": "reveal a set: v <cells>: 3-4 cells of a column (strike), 3-5 adjacent of a row "
        "(shield), a 2×2 block (focus); a wrong set ends your turn",
        "menu.guess": "guess the opponent's code: g <5 symbols> (e.g. g s q w c x); 2 damage per wrong slot",
        "menu.code": "type: code <5 symbols>, e.g. code s q w c x (s star, q square, w wave, c circle, x cross)",
        "menu.respond": "or any shield shape: respond <cells> (3-5 adjacent cells of a row, e.g. b2 c2 d2); "
        "it blocks if it spans column {col} and shows one symbol (a star strike: only stars); "
        "a wrong one costs nothing but shows the cards",
        "menu.symbols": "symbols: s ★ star, q ■ square, w ≈ wave, c ● circle, x ✚ cross",
        "kind.strike": "strike",
        "kind.shield": "shield",
        "kind.focus": "focus",
        "col": "column {col}",
        # actions
        "a.peek": "peek {cell}",
        "a.swap": "swap {a} {b}",
        "a.replace": "replace {cell} by {sym}",
        "a.reveal": "reveal {cells} ({kind})",
        "a.reveal_known": "reveal {cells} ({kind}, {sym} known)",
        "a.guess": "guess {syms}",
        "a.code": "code {syms}",
        "a.end": "end the turn (draw up to five)",
        "a.respond": "respond with {cells} (shield)",
        "a.respond_pass": "do not respond",
        "a.block": "block with {cells}",
        "a.codeswap": "swap code cards {a} and {b}",
        "a.codeswap_pass": "keep the code as it is",
        "a.recode": "put {sym} into code slot {slot}",
        "a.pick": "also scramble {cell}",
        "a.place": "place {sym} at {cell}",
        "a.fill": "fill {cell} with {sym} from your hand",
        "a.fill_deck": "fill {cell} from the deck",
        "a.target": "discard the card at {cell}",
        "a.take": "take {sym}",
        "a.name": "name {sym}",
        # what happened
        "h.code_own": "You chose your code: {syms}.",
        "h.code_opp": "The opponent chose a code.",
        "h.deal_own": "Your field is dealt face down; your hand: {syms}.",
        "h.deal_opp": "The opponent's cards are dealt.",
        "h.first": "{who} will start.",
        "h.turn": "— Turn {n}: {who} —",
        "h.peek_own": "You peek at {cell}: {sym}.",
        "h.peek_opp": "The opponent peeks at his {cell}.",
        "h.swap": "{who} swapped {a} and {b}.",
        "h.replace_own": "You replace {cell} by {sym}.",
        "h.replace_opp": "The opponent replaces his {cell} by a hand card.",
        "h.reveal_valid": "{who} revealed {cells}: {syms}: a valid {kind}!",
        "h.reveal_invalid": "{who} revealed {cells}: {syms}: not a set; the cards go back face down.",
        "h.respond_valid": "{who} responded with {cells}: {syms}: a shield!",
        "h.respond_invalid": "{who} responded with {cells}: {syms}: not a shield.",
        "h.respond_pass": "{who} did not respond.",
        "h.hits": "The strike on column {col} hits.",
        "h.block": "{who} blocked with the shield {cells}; it is discarded.",
        "h.code_seen": "You see the opponent's code slot {slot}: {sym}.",
        "h.code_shown": "The opponent now knows your code slot {slot}.",
        "h.discard_hand": "{who} discarded the whole hand ({n} cards).",
        "h.codeswap": "{who} swapped code cards {a} and {b}.",
        "h.codeswap_pass": "{who} kept the code as it was.",
        "h.recode_own": "You put {sym} into your code slot {slot}.",
        "h.recode_opp": "The opponent replaced his code card in slot {slot}.",
        "h.pick": "{who} picked {cell} to scramble as well.",
        "h.scramble": "{who}'s cards {cells} were shuffled and dealt back unseen.",
        "h.place_own": "You place {sym} at {cell}.",
        "h.place_opp": "The opponent places a card at {cell}.",
        "h.fill_own": "You fill {cell} with {sym}.",
        "h.fill_opp": "The opponent fills {cell} from his hand.",
        "h.fill_deck": "{who} filled {cell} from the deck.",
        "h.target": "{who} had the card at {cell} discarded.",
        "h.pile": "The opponent's discard pile: {syms}.",
        "h.take": "{who} took {sym} into {cell}.",
        "h.name": "{who} named {sym}: code slots {slots}.",
        "h.name_none": "{who} named {sym}: no such code card.",
        "h.guess": "{who} guessed {syms}: {n} of 5 right{slots}.",
        "h.end": "{who} ended the turn.",
        "h.draw_own": "You draw {syms}.",
        "h.draw_opp": "The opponent draws {n}.",
        "h.looks_own": "You look at {syms}.",
        "h.looks_opp": "The opponent looks at {n} cards.",
        "h.opens": "{who}'s cards are opened: {cards}.",
        "h.opens_none": "No card of {who} was opened.",
        "h.reshuffle": "{who}'s discard pile ({n} cards) becomes the new deck.",
        "h.limit": "The turn limit is reached: a draw.",
        "h.life_lost": "{who} lose {n} life ({life} left).",
        "h.life_lost_opp": "The opponent loses {n} life ({life} left).",
        "h.life_gain": "{who} gain {n} life ({life}).",
        "h.life_gain_opp": "The opponent gains {n} life ({life}).",
        "h.win": "You win!",
        "h.lose": "The opponent wins.",
        "h.draw": "Nobody wins: a draw.",
        "final.title": "Final position",
        "final.life": "Life: you {me}, opponent {opp}",
        "slots_known": "known slots: {n} of 5",
    },
    "de": {
        "title": "Codename: Oracle",
        "turn": "Zug {n} von {max}",
        "setup": "Vorbereitung",
        "over": "Spielende",
        "you": "du",
        "opp": "Gegner",
        "You": "Du",
        "Opp": "Der Gegner",
        "to_move": "{who} <ist|bist> am Zug",
        "your_field": "Dein Geistfeld",
        "opp_field": "Geistfeld des Gegners (was du weißt)",
        "code": "Code-Reihe",
        "your_code": "Dein Code",
        "opp_code": "Code des Gegners",
        "not": "nicht",
        "seen_by_opp": "◆ = dem Gegner bekannt",
        "hand": "Deine Hand",
        "aside": "Karten zum Legen",
        "no_cards": "(keine)",
        "life": "Leben",
        "deck": "Stapel {n}",
        "hand_n": "Hand {n}",
        "discard": "Ablage {n}",
        "known": "bekannt: {cards}",
        "cards": "Karten",
        "budget": "Dieser Zug",
        "peeks_left": "ansehen noch {n}",
        "swap_left": "tauschen {state}",
        "replace_left": "ersetzen {state}",
        "guess_left": "raten {state}",
        "reveals": "aufgedeckt {n}",
        "free": "frei",
        "used": "genutzt",
        "legend": "★ Stern ■ Quadrat ≈ Welle ● Kreis ✚ Kreuz · ? unbekannt · {up} offener Schild · - leer",
        "decision.code": "Wähle deine geheime Code-Reihe: fünf Symbole für die Plätze a–e "
        "(z. B. code s q w k x).",
        "decision.turn": "Dein Zug: ansehen, tauschen, ersetzen, Sets aufdecken, raten, dann beenden.",
        "decision.turn_opp": "Der Gegner ist am Zug.",
        "decision.respond": "Der Gegner schlägt deine Spalte {col} mit {sym}: decke eine Schild-Form "
        "(eine Reihe) auf oder passe.",
        "decision.block": "Mehrere deiner Schilde können blocken: wähle einen.",
        "decision.codeswap": "Dein Quadrat-Schild wurde abgeworfen: du darfst zwei Code-Karten tauschen.",
        "decision.recode": "Quadrat-Fokus: lege eine Handkarte in einen Code-Platz (recode <Platz> <Symbol>).",
        "decision.pick": "Wellen-Schlag: wähle eine weitere verdeckte Karte des Gegners außerhalb "
        "von Spalte {col}.",
        "decision.place": "Wellen-Schild: lege die gezogenen Karten Feld für Feld ({cells}).",
        "decision.fill": "Kreuz-Schild: fülle jedes Feld aus der Hand oder vom Stapel ({cells}).",
        "decision.target": "Kreis-Schlag: wähle die Karte des Gegners in Spalte {col}, die er abwirft.",
        "decision.take": "Kreis-Schlag: nimm eine Karte aus der Ablage des Gegners.",
        "decision.name": "Kreis-Fokus: nenne ein Symbol; der Gegner zeigt dir diese Code-Karten.",
        "decision.wait": "Warte auf den Gegner.",
        "menu.peek": "Karte ansehen: p <Feld> (z. B. p a1), noch {n}",
        "menu.swap": "zwei verdeckte Karten ungesehen tauschen: t <Feld> <Feld> (z. B. t a1 c3)",
        "menu.replace": "Karte durch eine Handkarte ersetzen: r <Feld> <Symbol> (z. B. r b2 k); Hand: {hand}",
        "menu.reveal": "Set aufdecken: v <Felder>: 3-4 Felder einer Spalte (Schlag), 3-5 nebeneinander "
        "in einer Reihe (Schild), ein 2×2-Block (Fokus); ein falsches Set beendet den Zug",
        "menu.guess": "Code des Gegners raten: g <5 Symbole> (z. B. g s q w k x); 2 Schaden je falschem Platz",
        "menu.code": "tippe: code <5 Symbole>, z. B. code s q w k x (s Stern, q Quadrat, w Welle, "
        "k Kreis, x Kreuz)",
        "menu.respond": "oder eine beliebige Schild-Form: antworten <Felder> (3-5 nebeneinander in einer Reihe, "
        "z. B. b2 c2 d2); sie blockt, wenn sie Spalte {col} überdeckt und ein Symbol zeigt (Stern-Schlag: nur "
        "Sterne); eine falsche kostet nichts, zeigt aber die Karten",
        "menu.symbols": "Symbole: s ★ Stern, q ■ Quadrat, w ≈ Welle, k ● Kreis, x ✚ Kreuz",
        "kind.strike": "Schlag",
        "kind.shield": "Schild",
        "kind.focus": "Fokus",
        "col": "Spalte {col}",
        "a.peek": "ansehen {cell}",
        "a.swap": "tauschen {a} {b}",
        "a.replace": "ersetzen {cell} durch {sym}",
        "a.reveal": "aufdecken {cells} ({kind})",
        "a.reveal_known": "aufdecken {cells} ({kind}, {sym} bekannt)",
        "a.guess": "raten {syms}",
        "a.code": "Code {syms}",
        "a.end": "Zug beenden (auf fünf nachziehen)",
        "a.respond": "antworten mit {cells} (Schild)",
        "a.respond_pass": "nicht antworten",
        "a.block": "blocken mit {cells}",
        "a.codeswap": "Code-Karten {a} und {b} tauschen",
        "a.codeswap_pass": "Code lassen, wie er ist",
        "a.recode": "{sym} in Code-Platz {slot} legen",
        "a.pick": "auch {cell} mischen",
        "a.place": "{sym} auf {cell} legen",
        "a.fill": "{cell} mit {sym} aus der Hand füllen",
        "a.fill_deck": "{cell} vom Stapel füllen",
        "a.target": "Karte auf {cell} abwerfen lassen",
        "a.take": "{sym} nehmen",
        "a.name": "{sym} nennen",
        "h.code_own": "Du hast deinen Code gewählt: {syms}.",
        "h.code_opp": "Der Gegner hat einen Code gewählt.",
        "h.deal_own": "Dein Feld liegt verdeckt aus; deine Hand: {syms}.",
        "h.deal_opp": "Die Karten des Gegners sind verteilt.",
        "h.first": "{who} <beginnt|beginnst>.",
        "h.turn": "— Zug {n}: {who} —",
        "h.peek_own": "Du siehst {cell} an: {sym}.",
        "h.peek_opp": "Der Gegner sieht sein Feld {cell} an.",
        "h.swap": "{who} <tauscht|tauschst> {a} und {b}.",
        "h.replace_own": "Du ersetzt {cell} durch {sym}.",
        "h.replace_opp": "Der Gegner ersetzt sein Feld {cell} durch eine Handkarte.",
        "h.reveal_valid": "{who} <deckt|deckst> {cells} auf: {syms}: ein gültiger {kind}!",
        "h.reveal_invalid": "{who} <deckt|deckst> {cells} auf: {syms}: kein Set; die Karten werden wieder verdeckt.",
        "h.respond_valid": "{who} <antwortet|antwortest> mit {cells}: {syms}: ein Schild!",
        "h.respond_invalid": "{who} <antwortet|antwortest> mit {cells}: {syms}: kein Schild.",
        "h.respond_pass": "{who} <antwortet|antwortest> nicht.",
        "h.hits": "Der Schlag auf Spalte {col} trifft.",
        "h.block": "{who} <blockt|blockst> mit dem Schild {cells}; er wird abgeworfen.",
        "h.code_seen": "Du siehst den Code-Platz {slot} des Gegners: {sym}.",
        "h.code_shown": "Der Gegner kennt jetzt deinen Code-Platz {slot}.",
        "h.discard_hand": "{who} <wirft|wirfst> die ganze Hand ab ({n} Karten).",
        "h.codeswap": "{who} <tauscht|tauschst> die Code-Karten {a} und {b}.",
        "h.codeswap_pass": "{who} <lässt|lässt> den Code, wie er ist.",
        "h.recode_own": "Du legst {sym} in deinen Code-Platz {slot}.",
        "h.recode_opp": "Der Gegner ersetzt seine Code-Karte auf Platz {slot}.",
        "h.pick": "{who} <wählt|wählst> {cell} zum Mitmischen.",
        "h.scramble": "Die Karten {cells} ({who}) werden gemischt und ungesehen neu ausgelegt.",
        "h.place_own": "Du legst {sym} auf {cell}.",
        "h.place_opp": "Der Gegner legt eine Karte auf {cell}.",
        "h.fill_own": "Du füllst {cell} mit {sym}.",
        "h.fill_opp": "Der Gegner füllt {cell} aus der Hand.",
        "h.fill_deck": "{who} <füllt|füllst> {cell} vom Stapel.",
        "h.target": "{who} <lässt|lässt> die Karte auf {cell} abwerfen.",
        "h.pile": "Ablage des Gegners: {syms}.",
        "h.take": "{who} <nimmt|nimmst> {sym} nach {cell}.",
        "h.name": "{who} <nennt|nennst> {sym}: Code-Plätze {slots}.",
        "h.name_none": "{who} <nennt|nennst> {sym}: keine solche Code-Karte.",
        "h.guess": "{who} <rät|rätst> {syms}: {n} von 5 richtig{slots}.",
        "h.end": "{who} <beendet|beendest> den Zug.",
        "h.draw_own": "Du ziehst {syms}.",
        "h.draw_opp": "Der Gegner zieht {n}.",
        "h.looks_own": "Du siehst dir {syms} an.",
        "h.looks_opp": "Der Gegner sieht sich {n} Karten an.",
        "h.opens": "Aufgedeckte Karten ({who}): {cards}.",
        "h.opens_none": "Keine Karte ({who}) wurde aufgedeckt.",
        "h.reshuffle": "Die Ablage ({who}, {n} Karten) wird zum neuen Stapel.",
        "h.limit": "Die Zuggrenze ist erreicht: unentschieden.",
        "h.life_lost": "{who} verlierst {n} Leben (noch {life}).",
        "h.life_lost_opp": "Der Gegner verliert {n} Leben (noch {life}).",
        "h.life_gain": "{who} gewinnst {n} Leben ({life}).",
        "h.life_gain_opp": "Der Gegner gewinnt {n} Leben ({life}).",
        "h.win": "Du gewinnst!",
        "h.lose": "Der Gegner gewinnt.",
        "h.draw": "Niemand gewinnt: unentschieden.",
        "final.title": "Endstand",
        "final.life": "Leben: du {me}, Gegner {opp}",
        "slots_known": "bekannte Plätze: {n} von 5",
    },
}


def _turn_player(view: dict[str, Any]) -> int:
    """Whose turn it is (the current decision may be the other seat's response)."""
    for line in reversed(view.get("log") or []):
        words = line.split()
        if len(words) == 3 and words[0] == "turn":
            return int(words[2][1:])
        if words and words[0] == "first":
            return int(words[1])
    return int(view["to_move"] or 0)


def shown_slots(view: dict[str, Any]) -> set[str]:
    """The seat's own code slots the opponent has seen (followed through the log:
    shown by a strike or shield, moved by a code swap, forgotten by a recode)."""
    me = f"p{view['seat']}"
    opp = f"p{1 - view['seat']}"
    shown: set[str] = set()
    for line in view.get("log") or []:
        words = line.split()
        if len(words) >= 3 and words[0] == opp and words[1] in ("guess", "name"):
            # "p1 guess <5 symbols>: right a b" / "p1 name star: a c"
            after = line.partition(":")[2].split()
            shown.update(w for w in after if w in COLUMNS)
            continue
        if len(words) < 3 or words[0] != me:
            continue
        if words[1] == "code" and len(words) == 4 and words[3] == "shown":
            shown.add(words[2])
        elif words[1] == "codeswap" and len(words) == 4:
            a, b = words[2], words[3]
            had_a, had_b = a in shown, b in shown
            shown.discard(a)
            shown.discard(b)
            if had_a:
                shown.add(b)
            if had_b:
                shown.add(a)
        elif words[1] == "recode":
            shown.discard(words[2])
    return shown


def _kind_of(cells: list[str]) -> str:
    """strike, shield or focus for a set shape's cells."""
    cols = {c[0] for c in cells}
    rows = {c[1] for c in cells}
    if len(cols) == 1:
        return "strike"
    if len(rows) == 1:
        return "shield"
    return "focus"


class CodenameRenderer(Renderer):
    """Draws a seat's view of Codename: Oracle."""

    # ------------------------------------------------------------ words
    def t(self, key: str, you: bool = False, **fields: object) -> str:
        """A text; ``<er-form|du-form>`` picks the verb form for the seat named (``you``)."""
        table = TEXTS.get(self.lang, TEXTS["en"])
        text = table.get(key, TEXTS["en"][key])
        text = _FORMS.sub(lambda m: m.group(2) if you else m.group(1), text)
        return text.format(**fields)

    def sym_name(self, symbol: str) -> str:
        return NAMES_DE.get(symbol, symbol) if self.lang == "de" else symbol

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
        opp = view["opponent"]
        mine = Group(
            Text(self.t("your_field"), style="bold cyan"), self._grid(view["field"], view["face_up"])
        )
        theirs = Group(Text(self.t("opp_field"), style="bold"), self._grid(opp["field"], opp["face_up"]))
        if any(v != "-" for v in view["field"].values()):
            parts.append(Columns([mine, theirs], padding=(0, 4)))
        if view["code"]:
            parts.append(self._own_code(view))
        parts.append(self._opp_code(opp))
        legend = Text()
        before, _, after = self.t("legend", up="\0").partition("\0")
        legend.append(before, style="dim")
        legend.append(" ★ ", style="reverse bold yellow")
        legend.append(after, style="dim")
        parts.append(legend)
        parts.append(self._hand(view))
        parts.append(self._cards(view))
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
        if view["to_move"] is not None and not view["terminal"]:
            head.append("  ·  ")
            head.append(
                self.t(
                    "to_move", you=view["to_move"] == seat, who=self.who(view["to_move"], seat, capital=True)
                ),
                style="bold yellow" if view["to_move"] == seat else "",
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

    def _own_code(self, view: dict[str, Any]) -> Text:
        line = Text.assemble((f"{self.t('your_code')}: ", "bold"))
        shown = shown_slots(view)
        for slot, symbol in zip(COLUMNS, view["code"], strict=False):
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

    def _cards(self, view: dict[str, Any]) -> Text:
        opp = view["opponent"]
        line = Text.assemble((f"{self.t('cards')}: ", "bold"))
        line.append(
            f"{self.t('you')}: {self.t('deck', n=view['deck'])}, {self.t('discard', n=view['discard'])}"
        )
        known = view.get("discard_known") or {}
        if known:
            line.append(f" ({self.t('known', cards=self._counts(known))})", style="dim")
        line.append("   ")
        line.append(
            f"{self.t('opp')}: {self.t('hand_n', n=opp['hand'])}, {self.t('deck', n=opp['deck'])}, "
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
        line.append(f"{self.t('budget')} ({self.who(_turn_player(view), seat)}): ", style="bold")
        line.append(self.t("peeks_left", n=2 - used["peeks"]))
        for key, flag in (("swap_left", "swap"), ("replace_left", "replace"), ("guess_left", "guess")):
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
        return self.t(key, **fields) if key in TEXTS["en"] else ""

    # ---------------------------------------------------------- labels
    def action_label(self, text: str) -> str:
        """A move's notation in words (German with ``lang == "de"``); log lines
        are told by :meth:`announcements` instead."""
        words = text.split()
        if not words:
            return text
        verb, args = words[0].lower(), words[1:]
        t = self.t
        if verb == "peek" and len(args) == 1:
            return t("a.peek", cell=args[0])
        if verb == "swap" and len(args) == 2:
            return t("a.swap", a=args[0], b=args[1])
        if verb == "replace" and len(args) == 2:
            return t("a.replace", cell=args[0], sym=self.syms([args[1]]))
        if verb == "reveal" and args:
            return t("a.reveal", cells=" ".join(args), kind=t(f"kind.{_kind_of(args)}"))
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

    def observed(self, view: dict[str, Any]) -> str | None:
        # Everything seen is told by announcements() from the log, line by line.
        return None

    # ---------------------------------------------------- announcements
    def announcements(self, before: dict[str, Any], after: dict[str, Any]) -> list[str]:
        viewer = after["seat"]
        lines = []
        for line in after["log"][len(before.get("log") or []) :]:
            told = self.tell(line, viewer)
            if told:
                lines.append(told)
        for seat in (viewer, 1 - viewer):
            change = after["life"][seat] - before["life"][seat]
            life = after["life"][seat]
            if change < 0:
                key = "h.life_lost" if seat == viewer else "h.life_lost_opp"
                lines.append(self.t(key, who=self.t("You"), n=-change, life=life))
            elif change > 0:
                key = "h.life_gain" if seat == viewer else "h.life_gain_opp"
                lines.append(self.t(key, who=self.t("You"), n=change, life=life))
        if after["terminal"] and not before.get("terminal"):
            winners = after["winners"]
            lines.append(self.t("h.draw" if not winners else "h.win" if viewer in winners else "h.lose"))
        return [_escape(line) for line in lines]

    def tell(self, line: str, viewer: int) -> str | None:
        """One log line of the engine in words (``None`` for lines not worth telling)."""
        words = line.split()
        if not words:
            return None
        t = self.t
        if words[0] == "first":
            first = int(words[1])
            return t("h.first", you=first == viewer, who=self.who(first, viewer, capital=True))
        if words[0] == "turn" and len(words) == 3:
            return t("h.turn", n=words[1], who=self.who(int(words[2][1:]), viewer, capital=True))
        if words[0] == "game":
            return None
        if words[0] == "turn":  # "turn limit: draw"
            return t("h.limit")
        if not re.match(r"^p[01]$", words[0]) or len(words) < 2:
            return line
        seat = int(words[0][1])
        own = seat == viewer
        who = self.who(seat, viewer, capital=True)
        t = partial(self.t, you=own)
        verb, args = words[1], words[2:]
        head, _, tail = line.partition(":")
        shown = tail.split()
        if verb == "code":
            if not args:
                return t("h.code_opp")
            if len(args) == 5:
                return t("h.code_own", syms=self.syms(args))
            if args[1] == "shown":
                return t("h.code_shown", slot=args[0])
            return t("h.code_seen", slot=args[0], sym=self.syms([args[1]]))
        if verb == "shuffle":
            return t("h.deal_own", syms=self.syms(args[1:])) if own else t("h.deal_opp")
        if verb == "peek":
            return (
                t("h.peek_own", cell=args[0], sym=self.syms(args[1:]))
                if len(args) == 2
                else (t("h.peek_opp", cell=args[0]))
            )
        if verb == "swap":
            return t("h.swap", who=who, a=args[0], b=args[1])
        if verb == "replace":
            if len(args) == 2:
                return t("h.replace_own", cell=args[0], sym=self.syms([args[1]]))
            return t("h.replace_opp", cell=args[0])
        if verb in ("reveal", "respond"):
            if args == ["pass"]:
                return t("h.respond_pass", who=who)
            cells = head.split()[2:]
            valid = len(set(shown)) == 1
            fields: dict[str, Any] = {"who": who, "cells": " ".join(cells), "syms": self.syms(shown)}
            if verb == "respond":
                return t("h.respond_valid" if valid else "h.respond_invalid", **fields)
            if valid:
                return t("h.reveal_valid", kind=t(f"kind.{_kind_of(cells)}"), **fields)
            return t("h.reveal_invalid", **fields)
        if verb == "strike":
            return t("h.hits", col=args[0])
        if verb == "block":
            return t("h.block", who=who, cells=" ".join(args))
        if verb == "discards":
            return t("h.discard_hand", who=who, n=args[-1])
        if verb == "codeswap":
            if args == ["pass"]:
                return t("h.codeswap_pass", who=who)
            return t("h.codeswap", who=who, a=args[0], b=args[1])
        if verb == "recode":
            if len(args) == 2:
                return t("h.recode_own", slot=args[0], sym=self.syms([args[1]]))
            return t("h.recode_opp", slot=args[0])
        if verb == "pick":
            return t("h.pick", who=who, cell=args[0])
        if verb == "scramble":
            return t("h.scramble", who=self.who(seat, viewer), cells=" ".join(args))
        if verb in ("place", "fill"):
            if len(args) == 2 and args[1] == "deck":
                return t("h.fill_deck", who=who, cell=args[0])
            if len(args) == 2:
                return t(f"h.{verb}_own", cell=args[0], sym=self.syms([args[1]]))
            return t(f"h.{verb}_opp", cell=args[0])
        if verb == "target":
            return t("h.target", who=who, cell=args[0])
        if verb == "discard":  # "p1 discard pile star wave ..."
            return t("h.pile", syms=self.syms([a for a in args[1:] if a in GLYPHS]) or "-")
        if verb == "take":
            return t("h.take", who=who, sym=self.syms([args[0]]), cell=args[-1])
        if verb == "name":
            symbol = head.split()[2]
            if shown == ["none"]:
                return t("h.name_none", who=who, sym=self.syms([symbol]))
            return t("h.name", who=who, sym=self.syms([symbol]), slots=" ".join(shown))
        if verb == "guess":
            guessed = head.split()[2:]
            right = [w for w in shown[1:] if w in COLUMNS]
            slots = f" ({' '.join(right)})" if right else ""
            return t("h.guess", who=who, syms=self.syms(guessed), n=len(right), slots=slots)
        if verb == "end":
            return None  # the next "turn" line says it
        if verb == "draw":
            if own:
                return t("h.draw_own", syms=self.syms(args))
            return t("h.draw_opp", n=args[0])
        if verb == "looks":
            if own:
                return t("h.looks_own", syms=self.syms(args[1:]))
            return t("h.looks_opp", n=args[-1])
        if verb == "opens":
            pairs = args
            if pairs == ["-"]:
                return t("h.opens_none", who=self.who(seat, viewer))
            cards = ", ".join(f"{pairs[i]} {self.syms([pairs[i + 1]])}" for i in range(0, len(pairs) - 1, 2))
            return t("h.opens", who=self.who(seat, viewer), cards=cards)
        if verb == "reshuffle":
            return t("h.reshuffle", who=self.who(seat, viewer), n=args[0])
        return line

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
        field = view["field"]
        numbered: list[str] = []
        hints: list[str] = []
        verbs = {text.split()[0] for text in legal}
        opp_code = view["opponent"]["code"]
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
        used = view["used"]
        if "peek" in verbs:
            hints.append(self.t("menu.peek", n=2 - used["peeks"]))
        if "swap" in verbs:
            hints.append(self.t("menu.swap"))
        if "replace" in verbs:
            hints.append(self.t("menu.replace", hand=self.syms(view["hand"])))
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
        field = view["field"]

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
        cells = [a for a in args if _CELL.match(a)]
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
            elif len(cells) == 2:
                out.append(f"swap {joined}")
            else:
                out += [f"reveal {joined}", f"respond {joined}"]
            if verb in (None, "block"):
                out += [t for t in legal if t.startswith("block ") and set(cells) <= set(t.split()[1:])]
        if len(args) == 2 and _CELL.match(args[0]):
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
    return all(_CELL.match(t) or t in SYMBOL_WORDS or t in COLUMNS or t in DECK_WORDS for t in tokens)


def _symbols(args: list[str]) -> list[str] | None:
    """Symbols written as words or letters (``s q w c x``), or compactly (``sqwcx``)."""
    if len(args) == 1 and len(args[0]) == 5 and all(ch in COMPACT for ch in args[0]):
        return [COMPACT[ch] for ch in args[0]]
    names = [SYMBOL_WORDS.get(a) for a in args]
    if not names or any(n is None for n in names):
        return None
    return [n for n in names if n is not None]


def _escape(line: str) -> str:
    """Keep rich from reading brackets in a line as markup."""
    return line.replace("[", "\\[")
