"""Records (``docs/architecture.md``, Records): a game as JSON, replayed action by action.

>>> from oracles.core.registry import load_game
>>> state = load_game("oracle").new_initial_state()
>>> state.apply_string("dealer 2")
2
>>> record = state.record()
>>> record["actions"]
['dealer 2']
>>> replay_record(record).history() == state.history()
True
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from oracles.core.errors import IllegalActionError, NotationError, OraclesError, RecordError
from oracles.core.game import RECORD_FORMAT, State
from oracles.core.registry import load_game


def parse_record(text: str) -> dict[str, Any]:
    """Read a record's JSON text and check its shape (not its actions)."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"not valid JSON: {error}") from None
    return check_record_shape(record)


def check_record_shape(record: Any) -> dict[str, Any]:
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    fmt = record.get("format", RECORD_FORMAT)
    if fmt != RECORD_FORMAT:
        raise RecordError(f"unknown record format {fmt!r} (expected {RECORD_FORMAT!r})")
    if not isinstance(record.get("game"), str):
        raise RecordError("a record needs a 'game' string")
    options = record.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RecordError("'options' must be a JSON object")
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise RecordError("a record needs an 'actions' list")
    return record


def replay_record(record: dict[str, Any]) -> State:
    """Replay ``record`` and return the state it reaches.

    Raises :class:`RecordError` whose message names the first action that
    cannot be applied: ``action 17 'play B7': must follow red``.
    """
    record = check_record_shape(record)
    try:
        game = load_game(record["game"], **(record.get("options") or {}))
    except OraclesError as error:
        raise RecordError(str(error)) from None
    state = game.new_initial_state()
    for index, text in enumerate(record["actions"]):
        if not isinstance(text, str):
            raise RecordError(f"action {index} {text!r}: an action must be a string", index, str(text))
        try:
            state.apply_string(text)
        except NotationError as error:
            # The record line already quotes the text; give only the why.
            raise RecordError(f"action {index} '{text}': {error.why}", index, text) from None
        except IllegalActionError as error:
            raise RecordError(f"action {index} '{text}': {error.reason}", index, text) from None
    return state


def load_record_file(path: str | Path) -> dict[str, Any]:
    """Read a record file (``RecordError`` if unreadable or malformed)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise RecordError(f"cannot read {str(path)!r}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{str(path)!r} is not UTF-8 text") from None
    return parse_record(text)


def save_record(state: State, path: str | Path) -> None:
    """Write ``state``'s record as JSON."""
    Path(path).write_text(json.dumps(state.record(), indent=1) + "\n", encoding="utf-8")


def summary(state: State) -> dict[str, Any]:
    """The machine-readable result ``oracles replay --json`` prints."""
    terminal = state.is_terminal()
    player = state.current_player()
    return {
        "game": state.game.id,
        "options": dict(state.game.options),
        "actions": len(state.history()),
        "terminal": terminal,
        "current_player": player if player >= 0 else None,
        "chance_node": state.is_chance_node(),
        "scores": list(state.scores()),
        "winners": list(state.winners()) if terminal else [],
    }
