"""The play loop: humans at the keyboard, bots in the other seats.

Humans see only their seat's view. With several humans on one screen
(hot-seat), the screen is cleared between them and waits until the next
player presses Enter. A game is saved as a record on ``save``, on ``quit``,
on Ctrl-C and at the end; ``--resume`` replays such a record and goes on.

Whatever is typed, the game is never lost: typed text is cleaned before it
is read (:func:`clean_typed`) and escaped before it is echoed (rich markup,
control characters); a save that fails is reported in one line and the game
goes on in memory (``save FILE`` writes elsewhere); and should anything fail
unexpectedly, the game is saved before the error is reported.
"""

from __future__ import annotations

import errno
import json
import random
import re
import sys
import tempfile
import time
import unicodedata
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from oracles.bots.base import Bot, SeatInfo
from oracles.core.errors import IllegalActionError, OraclesError
from oracles.core.game import State
from oracles.core.records import PlannedChance
from oracles.core.text import printable
from oracles.i18n import N_, reason_words, translate
from oracles.play.i18n import COMMANDS, message
from oracles.play.render import Renderer

#: The longest typed line read; the rest is ignored (a move is a few words).
MAX_TYPED = 200
#: The most characters of one over-long line skipped before the input is
#: taken as broken (a piped endless line) and ended.
MAX_SKIPPED = 1 << 20
#: A menu number: at most six ASCII digits.
_MENU_NUMBER = re.compile(r"[0-9]{1,6}", re.ASCII)
#: Erases the terminal's scrollback (xterm and most emulators), so that the
#: previous player's hand cannot be scrolled back to on a shared screen.
CLEAR_SCROLLBACK = "\x1b[3J"


#: Why a save failed, in words the catalog translates (the system's own
#: text, English, for any other error).
SAVE_ERRORS: dict[int, str] = {
    errno.ENOENT: N_("there is no such folder"),
    errno.ENOTDIR: N_("a part of the path is not a folder"),
    errno.EACCES: N_("writing there is not allowed"),
    errno.EPERM: N_("writing there is not allowed"),
    errno.EISDIR: N_("that is a folder"),
    errno.ENOSPC: N_("the disk is full"),
    errno.EROFS: N_("the disk is read-only"),
}


#: A menu longer than this, of labels no longer than ``SHORT_LABEL``, is
#: laid out in columns.
LONG_MENU = 15
SHORT_LABEL = 28


class QuitGame(Exception):
    """The player asked to stop (the game is saved first)."""


class PlayAborted(OraclesError):
    """The game stopped on an unexpected error, after being saved (or after
    trying to): the front end prints it as one line."""


def clean_typed(text: str) -> str:
    """A typed line made safe to read: compatibility forms folded (``²`` and
    ``¹`` become ``2`` and ``1``), every other decimal digit written in ASCII
    (``٣`` becomes ``3``), control and invisible characters dropped, and at
    most :data:`MAX_TYPED` characters kept.

    >>> clean_typed(" bid ¹\x1b[2J ")
    'bid 1[2J'
    >>> clean_typed("٣")
    '3'
    """
    folded = unicodedata.normalize("NFKC", text[: MAX_TYPED * 2])
    kept: list[str] = []
    for char in folded:
        if char.isascii():
            if char.isprintable():
                kept.append(char)
        elif unicodedata.category(char) == "Zs":
            kept.append(" ")
        elif unicodedata.category(char)[0] not in "CZ":
            digit = unicodedata.decimal(char, None)
            kept.append(str(digit) if digit is not None else char)
    return "".join(kept)[:MAX_TYPED].strip()


def bounded_input(prompt: str, stream: TextIO | None = None) -> str:
    """``input`` for a stdin that is not a terminal (a pipe, a file): a line
    is read up to ``4 * MAX_TYPED`` characters and the rest of it skipped, so
    that an endless line (``< /dev/zero``) cannot fill the memory; a line that
    does not end within :data:`MAX_SKIPPED` characters ends the input
    (``EOFError``: the game is saved and the program leaves). A terminal
    bounds its lines itself and keeps ``input`` for line editing."""
    source = stream if stream is not None else sys.stdin
    print(prompt, end="", flush=True)
    line = source.readline(4 * MAX_TYPED)
    if not line:
        raise EOFError
    skipped = 0
    while not line.endswith("\n"):
        rest = source.readline(4096)
        if not rest:
            break
        skipped += len(rest)
        if rest.endswith("\n"):
            break
        if skipped > MAX_SKIPPED:
            raise EOFError
    return line.rstrip("\n")


def menu_number(text: str) -> int | None:
    """``text`` as a menu number (ASCII digits, at most six), else ``None``.

    >>> menu_number("12"), menu_number("²"), menu_number("9" * 5000)
    (12, None, None)
    """
    return int(text) if _MENU_NUMBER.fullmatch(text) else None


class PlaySession:
    def __init__(
        self,
        state: State,
        humans: list[int],
        bots: dict[int, Bot],
        renderer: Renderer,
        console: Console,
        seed: int | str = 0,
        save_path: Path | None = None,
        fast: bool = False,
        read: Callable[[str], str] = input,
        chance: PlannedChance | None = None,
    ) -> None:
        self.state = state
        #: Chance planned from a record (``oracles replay --from``), else drawn.
        self.chance = chance
        self.humans = humans
        self.bots = bots
        self.renderer = renderer
        renderer.use_game(state.game)
        self.console = console
        self.chance_rng = random.Random(f"play:{seed}:{len(state.history())}")
        self.save_path = save_path
        self.fast = fast
        self.read = read
        self.lang = renderer.lang
        self.screen_owner: int | None = humans[0] if len(humans) == 1 else None
        #: Hints asked for, per seat (shown with the result).
        self.hints: dict[int, int] = {}
        #: Actions in the game when the session began (a resumed record):
        #: a record resumed at its end is not written again.
        self.started_at = len(state.history())

    # ------------------------------------------------------------- helpers
    def say(self, key: str, **fields: object) -> None:
        """Print message ``key``; its fields may hold text from outside (what
        was typed, a path), so they are made printable and markup-escaped."""
        safe = {name: escape(printable(str(value), 300)) for name, value in fields.items()}
        self.console.print(message(self.lang, key, **safe))

    def default_save_path(self, folder: Path | None = None) -> Path:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        name = f"oracles-{self.state.game.id}-{stamp}.json"
        return folder / name if folder is not None else Path(name)

    def write(self, path: Path, leaving: bool = False) -> bool:
        """Write the record to ``path``; on failure say why in one line and
        return ``False`` (the game stays in memory)."""
        text = json.dumps(self.state.record(), indent=1) + "\n"
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as error:
            said = SAVE_ERRORS.get(error.errno or 0)
            why = translate(self.lang, said) if said else error.strerror or type(error).__name__
            self.say("save_failed_leaving" if leaving else "save_failed", path=path, why=why)
            return False
        except ValueError:  # a NUL in the path
            why = translate(self.lang, N_("not a valid path"))
            self.say("save_failed_leaving" if leaving else "save_failed", path=path, why=why)
            return False
        self.save_path = path
        # A finished game is replayed, not resumed.
        self.say("saved_over" if self.state.is_terminal() else "saved", path=path)
        return True

    def save(self, path: Path | None = None) -> Path | None:
        """Save to ``path``, or the save path, or a fresh name here; the
        path written, or ``None`` if that failed (reported)."""
        target = path or self.save_path or self.default_save_path()
        return target if self.write(target) else None

    def save_somewhere(self) -> Path | None:
        """Save before leaving: the save path, else a fresh name in this
        folder, else in the temporary folder. ``None`` if all failed."""
        candidates = [
            self.save_path,
            self.default_save_path(),
            self.default_save_path(Path(tempfile.gettempdir())),
        ]
        for path in dict.fromkeys(p for p in candidates if p is not None):
            # No "type 'save FILE'" while leaving: the next place is tried.
            if self.write(path, leaving=True):
                return path
        return None

    def pause(self, seconds: float) -> None:
        if not self.fast:
            time.sleep(seconds)

    # ---------------------------------------------------------------- loop
    def run(self) -> State:
        try:
            while not self.state.is_terminal():
                self.step()
        except QuitGame:  # saved already
            return self.state
        except (KeyboardInterrupt, EOFError):
            self.console.print()
            if self.save_somewhere() is None:
                self.say("lost")
            return self.state
        except Exception as error:
            # Not the player's doing (a bot's or a renderer's bug): keep the
            # game first, then report in one line.
            path = self.save_somewhere()
            what = (
                str(error) if isinstance(error, OraclesError) else f"internal error ({type(error).__name__})"
            )
            kept = f"saved to {path}" if path is not None else "it could not be saved"
            raise PlayAborted(f"the game stopped: {printable(what, 300)}; {kept}") from None
        self.finish()
        return self.state

    def viewer(self) -> int:
        """The seat whose eyes are on the screen now."""
        if self.screen_owner is not None:
            return self.screen_owner
        return self.humans[0]

    def step(self) -> None:
        state = self.state
        viewer = self.viewer()
        before = state.view(viewer)
        if state.is_chance_node():
            if self.chance is not None:
                state.apply_action(self.chance.draw(state, self.chance_rng))
            else:
                state.apply_trusted(state.sample_chance(self.chance_rng))
            self.report(before, None)
            return
        seat = state.current_player()
        if seat in self.humans:
            self.human_turn(seat)
            return
        action = self.bots[seat].choose(SeatInfo(state, seat))
        state.apply_action(action)
        self.report(before, seat)
        self.pause(0.5)

    def report(self, before: dict[str, Any], actor: int | None) -> None:
        viewer = self.viewer()
        after = self.state.view(viewer)
        seen = self.renderer.observed(after)
        if seen is not None and actor is not None and actor != viewer:
            self.console.print(
                f"[cyan]{self.renderer.seat_name(actor, viewer)}[/cyan]: {self.renderer.action_label(seen)}"
            )
        elif seen is not None and actor is None:
            self.console.print(f"[dim]{self.renderer.action_label(seen)}[/dim]")
        for line in self.renderer.announcements(before, after):
            self.console.print(f"[bold yellow]{line}[/bold yellow]")

    def clear_screen(self) -> None:
        """Clear the screen and the scrollback, where the last player's hand
        would otherwise stay one scroll away."""
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write(CLEAR_SCROLLBACK)
            self.console.file.flush()

    def hand_over(self, seat: int) -> None:
        if len(self.humans) > 1 and self.screen_owner != seat:
            self.clear_screen()
            self.read(message(self.lang, "handover", who=self.renderer.seat_name(seat)) + " ")
            self.clear_screen()
            self.screen_owner = seat

    def human_turn(self, seat: int) -> None:
        self.hand_over(seat)
        state = self.state
        view = state.view(seat)
        self.console.print(self.renderer.board(view, seat))
        legal_actions = state.legal_actions()
        legal = {state.action_to_string(a): a for a in legal_actions}
        self.console.print(f"[bold]{message(self.lang, 'legal')}[/bold]")
        labels, hints = self.renderer.legal_menu(legal, view)
        by_value = self.renderer.numbers_are_values(labels)
        shown = [self.renderer.action_label(text) for text in labels]
        if len(shown) > LONG_MENU and max(map(len, shown)) <= SHORT_LABEL:
            # Many short moves (an Oracle keep's 45 pairs) in columns: a line
            # each pushed the board off a 40-line screen.
            self.console.print(
                Columns(
                    [f"[bold]{index:>2}[/bold] {label}" for index, label in enumerate(shown, start=1)],
                    column_first=True,
                    padding=(0, 3),
                )
            )
        else:
            table = Table(show_header=False, box=None)
            for index, label in enumerate(shown, start=1):
                table.add_row("" if by_value else f"[bold]{index}[/bold]", label)
            self.console.print(table)
        for hint in hints:
            self.console.print(f"  [dim]{hint}[/dim]")
        self.say("your_turn", seat=seat + 1)
        self.install_completion(list(legal))
        while True:
            text = clean_typed(self.read(message(self.lang, "prompt")))
            if not text:
                continue
            word, _, rest = text.partition(" ")
            word = word.lower()
            if text.lower() in COMMANDS["help"]:
                self.say("help")
                continue
            if text.lower() in COMMANDS["hint"]:
                self.show_hint(seat)
                continue
            if word in COMMANDS["save"]:
                self.save(Path(rest.strip()) if rest.strip() else None)
                continue
            if text.lower() in COMMANDS["quit"]:
                if self.save_somewhere() is None:
                    self.say("not_saved")
                    continue
                raise QuitGame
            action = self.read_action(text, legal, [] if by_value else labels, view)
            if action is None:
                # What was typed matched nothing: say again how a move is
                # typed here (Codename's code has no numbered menu).
                for hint in hints:
                    self.console.print(f"  [dim]{hint}[/dim]")
                continue
            before = view
            try:
                state.apply_action(action)
            except IllegalActionError as error:
                self.say("bad_input", reason=self.why_not(error.reason))
                continue
            self.report(before, seat)
            return

    def why_not(self, why: str) -> str:
        """The rules' reason for refusing a move, said to the player in the
        session's language, seats named as the story names them."""
        player = self.state.current_player()
        view = self.state.view(player if 0 <= player < self.state.num_players else None)
        return reason_words(why, self.lang, self.renderer.story_names(view))

    def show_hint(self, seat: int) -> None:
        """The bot's view of this decision: the best few moves and their
        estimated values (``oracles.bots.advice``), from this seat's
        information only. Hints taken are counted and shown at the end."""
        from babel.numbers import format_percent

        from oracles.bots.advice import advise, reasons
        from oracles.i18n import decimal

        self.hints[seat] = self.hints.get(seat, 0) + 1
        self.say("thinking")
        advice = advise(SeatInfo(self.state, seat), seed=len(self.state.history()))
        table = Table(title=message(self.lang, "hint_title"), box=None)
        table.add_column(message(self.lang, "hint_move"))
        unit = "hint_points" if advice.unit == "points" else "hint_chance"
        table.add_column(message(self.lang, unit), justify="right")
        for move in advice.moves[:5]:
            if advice.unit == "points":
                shown = ("+" if move.value >= 0 else "") + decimal(move.value, self.lang)
            else:
                shown = format_percent(move.value, locale=self.lang)
            table.add_row(escape(self.renderer.action_label(move.notation)), shown)
        self.console.print(table)
        # Why the best move, in words, from the same worlds as the values.
        # Seats called as the terminal's story calls them ("Seat 2", "Seat 1 (you)").
        names = self.renderer.story_names(self.state.view(seat))
        said = reasons(advice, self.state.game.id, self.lang, self.state.game, names)
        if said and said[0]:
            self.console.print(escape(said[0]))

    def read_action(
        self, text: str, legal: dict[str, int], labels: list[str], view: dict[str, Any]
    ) -> int | None:
        """:meth:`parse`, with any failure of a game's reader on odd text
        reported as "matches no legal move" rather than ending the game."""
        try:
            return self.parse(text, legal, labels, view)
        except OraclesError:
            raise
        except (ValueError, TypeError, IndexError, KeyError, OverflowError):
            self.say("unknown", text=text)
            return None

    def parse(self, text: str, legal: dict[str, int], labels: list[str], view: dict[str, Any]) -> int | None:
        """``labels`` is the numbered menu; empty when numbers are values."""
        number = menu_number(text)
        if number is not None and labels and 1 <= number <= len(labels):
            return legal[labels[number - 1]]
        try:
            action = self.state.string_to_action(text)
        except IllegalActionError:
            action = None
        if action is not None and action in legal.values():
            return action
        matches = self.renderer.shortcut(text, legal, view)
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            options = ", ".join(self.state.action_to_string(a) for a in matches)
            self.say("ambiguous", text=text, options=options)
            return None
        if action is None:
            # A short form of a move that is not legal ("b7" while blue
            # cannot be played): read it with the verb due now, for the why.
            for verb in sorted({t.split()[0] for t in legal}):
                try:
                    action = self.state.string_to_action(f"{verb} {text}")
                    break
                except IllegalActionError:
                    continue
        if action is not None:
            # Readable but not legal here: let the rules say why.
            try:
                self.state.clone().apply_action(action)
            except IllegalActionError as error:
                self.say("bad_input", reason=self.why_not(error.reason))
                return None
        self.say("unknown", text=text)
        return None

    def install_completion(self, labels: list[str]) -> None:
        try:
            import readline
        except ImportError:  # pragma: no cover - not every terminal has it
            return
        options = sorted(set(labels) | {label.split()[-1] for label in labels})

        def complete(text: str, index: int) -> str | None:
            found = [o for o in options if o.lower().startswith(text.lower())]
            return found[index] if index < len(found) else None

        readline.set_completer(complete)
        readline.set_completer_delims(" \t")
        readline.parse_and_bind("tab: complete")

    def finish(self) -> None:
        state = self.state
        viewer = self.viewer()
        view = state.view(viewer)
        self.say("game_over")
        self.console.print(self.renderer.final(view))
        winners = state.winners()
        if winners:
            self.say("winners", names=", ".join(self.renderer.seat_name(w, viewer) for w in winners))
        else:
            self.say("draw")
        for seat, count in sorted(self.hints.items()):
            self.say("hints_taken", who=self.renderer.seat_name(seat, viewer), count=count)
        if self.save_path is not None and len(state.history()) != self.started_at:
            self.save()  # a failure is reported; the result is on screen
