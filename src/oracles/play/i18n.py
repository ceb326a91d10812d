"""Messages of the terminal front end in English and German."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "seat": "seat {seat}",
        "you": "you",
        "your_turn": "Your move, seat {seat}.",
        "legal": "Legal moves",
        "prompt": "move (number, notation, 'help', 'save' or 'quit')> ",
        "bad_input": "Not a legal move here: {reason}",
        "ambiguous": "'{text}' could mean: {options}",
        "unknown": "'{text}' matches no legal move",
        "saved": "Game saved to {path} (resume with: oracles play --resume {path})",
        "handover": "Pass the screen to {who} and press Enter when only they can see it...",
        "game_over": "Game over.",
        "winners": "Winner(s): {names}",
        "draw": "No winner: a draw.",
        "scores": "Scores",
        "help": (
            "Type the number of a move, its notation (e.g. as listed), or a short form the game "
            "understands. 'save' writes the record, 'quit' saves and leaves."
        ),
        "dealing": "Cards are dealt.",
        "resumed": "Resumed a game of {actions} actions.",
    },
    "de": {
        "seat": "Platz {seat}",
        "you": "du",
        "your_turn": "Du bist am Zug, Platz {seat}.",
        "legal": "Erlaubte Züge",
        "prompt": "Zug (Nummer, Notation, 'hilfe', 'speichern' oder 'ende')> ",
        "bad_input": "Hier nicht erlaubt: {reason}",
        "ambiguous": "'{text}' kann heißen: {options}",
        "unknown": "'{text}' passt zu keinem erlaubten Zug",
        "saved": "Partie gespeichert in {path} (weiter mit: oracles play --resume {path})",
        "handover": "Gib den Bildschirm an {who} weiter und drücke Enter, wenn nur diese Person hinsieht...",
        "game_over": "Spielende.",
        "winners": "Gewonnen: {names}",
        "draw": "Kein Sieger: unentschieden.",
        "scores": "Punkte",
        "help": (
            "Gib die Nummer eines Zuges ein, seine Notation (wie aufgelistet) oder eine Kurzform. "
            "'speichern' sichert die Partie, 'ende' sichert und beendet."
        ),
        "dealing": "Die Karten werden verteilt.",
        "resumed": "Partie mit {actions} Aktionen fortgesetzt.",
    },
}

COMMANDS = {
    "help": {"help", "hilfe", "?"},
    "save": {"save", "speichern"},
    "quit": {"quit", "exit", "ende", "q"},
}


def message(lang: str, key: str, **fields: object) -> str:
    table = MESSAGES.get(lang, MESSAGES["en"])
    return table.get(key, MESSAGES["en"][key]).format(**fields)
