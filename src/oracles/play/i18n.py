"""Messages of the terminal front end, translated through :mod:`oracles.i18n`.

Each message has a key used by the session and an English text that is its
catalog entry (German in ``oracles/locale/de/LC_MESSAGES/oracles.po``).
"""

from __future__ import annotations

from oracles.i18n import N_, translate

MESSAGES: dict[str, str] = {
    "seat": N_("seat {seat}"),
    "you": N_("you"),
    "your_turn": N_("Your move, seat {seat}."),
    "legal": N_("Legal moves"),
    "prompt": N_("move (number, notation, help, hint, save, quit)> "),
    "bad_input": N_("Not a legal move here: {reason}"),
    "ambiguous": N_("'{text}' could mean: {options}"),
    "unknown": N_("'{text}' matches no legal move"),
    "saved": N_("Game saved to {path} (resume with: oracles play --resume {path})"),
    "saved_over": N_("Game saved to {path} (it is over: oracles replay {path} shows how it ended)"),
    "handover": N_("Pass the screen to {who} and press Enter when only they can see it..."),
    "game_over": N_("Game over."),
    "winners": N_("Winner(s): {names}"),
    "draw": N_("No winner: a draw."),
    "scores": N_("Scores"),
    "help": N_(
        "Type the number of a move, its notation (e.g. as listed), or a short form the game "
        "understands. 'hint' shows the bot's best moves, 'save' writes the record, 'quit' saves and leaves."
    ),
    "dealing": N_("Cards are dealt."),
    "resumed": N_("Resumed a game of {actions} actions."),
    "save_failed": N_("Could not save to {path}: {why}. Type 'save FILE' to save elsewhere."),
    "save_failed_leaving": N_("Could not save to {path}: {why}."),
    "not_saved": N_("The game could not be saved anywhere; it goes on. Type 'save FILE' to try a path."),
    "lost": N_("The game could not be saved."),
    "thinking": N_("Thinking about your move..."),
    "hint_title": N_("Hint: the bot's estimate of your best moves"),
    "hint_move": N_("move"),
    "hint_points": N_("points this round"),
    "hint_chance": N_("chance to win"),
    "hints_taken": N_("Hints taken by {who}: {count}"),
}

#: Words the prompt understands besides moves, in every language.
COMMANDS = {
    "help": {"help", "hilfe", "?"},
    "hint": {"hint", "tipp"},
    "save": {"save", "speichern"},
    "quit": {"quit", "exit", "ende", "q"},
}


def message(lang: str, key: str, **fields: object) -> str:
    """The message ``key`` in ``lang`` with its fields filled in."""
    return translate(lang, MESSAGES[key], **fields)
