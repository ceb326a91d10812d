"""The play loop: humans at the keyboard, bots in the other seats.

Humans see only their seat's view. With several humans on one screen
(hot-seat), the screen is cleared between them and waits until the next
player presses Enter. A game is saved as a record on ``save``, on ``quit``,
on Ctrl-C and at the end; ``--resume`` replays such a record and goes on.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from oracles.bots.base import Bot, SeatInfo
from oracles.core.errors import IllegalActionError
from oracles.core.game import State
from oracles.play.i18n import COMMANDS, message
from oracles.play.render import Renderer


class QuitGame(Exception):
    """The player asked to stop (the game is saved first)."""


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
    ) -> None:
        self.state = state
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

    # ------------------------------------------------------------- helpers
    def say(self, key: str, **fields: object) -> None:
        self.console.print(message(self.lang, key, **fields))

    def default_save_path(self) -> Path:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        return Path(f"oracles-{self.state.game.id}-{stamp}.json")

    def save(self) -> Path:
        path = self.save_path or self.default_save_path()
        path.write_text(json.dumps(self.state.record(), indent=1) + "\n", encoding="utf-8")
        self.save_path = path
        self.say("saved", path=path)
        return path

    def pause(self, seconds: float) -> None:
        if not self.fast:
            time.sleep(seconds)

    # ---------------------------------------------------------------- loop
    def run(self) -> State:
        try:
            while not self.state.is_terminal():
                self.step()
        except (QuitGame, KeyboardInterrupt, EOFError):
            self.console.print()
            self.save()
            return self.state
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

    def hand_over(self, seat: int) -> None:
        if len(self.humans) > 1 and self.screen_owner != seat:
            self.console.clear()
            self.read(message(self.lang, "handover", who=self.renderer.seat_name(seat)) + " ")
            self.console.clear()
            self.screen_owner = seat

    def human_turn(self, seat: int) -> None:
        self.hand_over(seat)
        state = self.state
        view = state.view(seat)
        self.console.print(self.renderer.board(view, seat))
        legal_actions = state.legal_actions()
        legal = {state.action_to_string(a): a for a in legal_actions}
        self.console.print(f"[bold]{message(self.lang, 'legal')}[/bold]")
        table = Table(show_header=False, box=None)
        labels, hints = self.renderer.legal_menu(legal, view)
        by_value = self.renderer.numbers_are_values(labels)
        for index, text in enumerate(labels, start=1):
            table.add_row("" if by_value else f"[bold]{index}[/bold]", self.renderer.action_label(text))
        self.console.print(table)
        for hint in hints:
            self.console.print(f"  [dim]{hint}[/dim]")
        self.say("your_turn", seat=seat)
        self.install_completion(list(legal))
        while True:
            text = self.read(message(self.lang, "prompt")).strip()
            if not text:
                continue
            word = text.lower()
            if word in COMMANDS["help"]:
                self.say("help")
                continue
            if word in COMMANDS["save"]:
                self.save()
                continue
            if word in COMMANDS["quit"]:
                raise QuitGame
            action = self.parse(text, legal, [] if by_value else labels, view)
            if action is None:
                continue
            before = view
            try:
                state.apply_action(action)
            except IllegalActionError as error:
                self.say("bad_input", reason=error.reason)
                continue
            self.report(before, seat)
            return

    def parse(self, text: str, legal: dict[str, int], labels: list[str], view: dict[str, Any]) -> int | None:
        """``labels`` is the numbered menu; empty when numbers are values."""
        if text.isdigit() and labels and 1 <= int(text) <= len(labels):
            return legal[labels[int(text) - 1]]
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
        if action is not None:
            # Readable but not legal here: let the rules say why.
            try:
                self.state.clone().apply_action(action)
            except IllegalActionError as error:
                self.say("bad_input", reason=error.reason)
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
        if self.save_path is not None:
            self.save()
