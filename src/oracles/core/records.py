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
from oracles.core.inputs import load_game_checked
from oracles.core.text import printable, shown

#: The largest record file read, in bytes (a long game's record is a few
#: tens of kilobytes); a larger file, or an endless one such as
#: ``/dev/zero``, is refused after reading this much.
MAX_RECORD_BYTES = 1 << 20
#: The longest action text in a record (a whole deal is a few hundred).
MAX_ACTION_TEXT = 2000
#: The most digits a number in a record may have.
MAX_NUMBER_DIGITS = 100


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise RecordError(f"a number of more than {MAX_NUMBER_DIGITS} digits")
    return int(text)


def _parse_constant(name: str) -> Any:
    raise RecordError(f"{name} is not a JSON number")


def parse_record(text: str) -> dict[str, Any]:
    """Read a record's JSON text and check its shape (not its actions).

    Whatever the text (too deeply nested, numbers of thousands of digits,
    ``NaN``), the only error is a :class:`RecordError`.
    """
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"a record is at most {MAX_RECORD_BYTES} bytes")
    try:
        record = json.loads(text, parse_int=_parse_int, parse_constant=_parse_constant)
    except json.JSONDecodeError as error:
        raise RecordError(f"not valid JSON: {error}") from None
    except RecursionError:
        raise RecordError("not a record: JSON nested too deeply") from None
    except ValueError as error:  # e.g. an over-long number in a float
        raise RecordError(f"not valid JSON: {printable(str(error))}") from None
    return check_record_shape(record)


def check_record_shape(record: Any) -> dict[str, Any]:
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    fmt = record.get("format", RECORD_FORMAT)
    if fmt != RECORD_FORMAT:
        raise RecordError(f"unknown record format {shown(fmt)} (expected {RECORD_FORMAT!r})")
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
        game = load_game_checked(record["game"], record.get("options") or {})
    except OraclesError as error:
        raise RecordError(str(error)) from None
    mismatch = game.record_mismatch(record)
    if mismatch:
        raise RecordError(mismatch)
    actions = record["actions"]
    if len(actions) > game.max_game_length():
        raise RecordError(
            f"a record of {len(actions)} actions: a game of {game.id} lasts at most {game.max_game_length()}"
        )
    state = game.new_initial_state()
    for index, text in enumerate(actions):
        if not isinstance(text, str):
            raise RecordError(f"action {index} {shown(text)}: an action must be a string", index, None)
        if len(text) > MAX_ACTION_TEXT:
            raise RecordError(
                f"action {index} {shown(text)}: longer than {MAX_ACTION_TEXT} characters", index, text
            )
        try:
            state.apply_string(text)
        except NotationError as error:
            # The record line already quotes the text; give only the why.
            raise RecordError(
                f"action {index} {shown(text)}: {printable(error.why, 300)}", index, text
            ) from None
        except IllegalActionError as error:
            raise RecordError(
                f"action {index} {shown(text)}: {printable(error.reason, 300)}", index, text
            ) from None
        except (ValueError, TypeError, IndexError, KeyError) as error:
            # A game's notation reader that trips on odd text (digits such
            # as "³") must not turn a bad record into a traceback.
            raise RecordError(
                f"action {index} {shown(text)}: cannot read it ({type(error).__name__})", index, text
            ) from None
    return state


def load_record_file(path: str | Path) -> dict[str, Any]:
    """Read a record file (``RecordError`` if unreadable or malformed).

    At most :data:`MAX_RECORD_BYTES` are read, so a huge or endless file
    (``/dev/zero``) is refused without filling the memory.
    """
    name = shown(str(path))
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        raise RecordError(f"cannot read {name}: {error.strerror or 'unreadable'}") from None
    except ValueError:  # a path with a NUL character
        raise RecordError(f"cannot read {name}: not a valid path") from None
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"{name} is larger than a record may be ({MAX_RECORD_BYTES} bytes)")
    try:
        # An editor's byte-order mark in front is not part of the record.
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RecordError(f"{name} is not UTF-8 text") from None
    return parse_record(text)


def save_record(state: State, path: str | Path) -> None:
    """Write ``state``'s record as JSON; a path that cannot be written is a
    :class:`RecordError` naming it."""
    text = json.dumps(state.record(), indent=1) + "\n"
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise RecordError(f"cannot write {shown(str(path))}: {error.strerror or 'unwritable'}") from None
    except ValueError:
        raise RecordError(f"cannot write {shown(str(path))}: not a valid path") from None


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


# ------------------------------------------------------------ branching
# Two uses of a finished record (``docs/architecture.md``, Records): a new
# game "on the same deals" replays the record's chance actions in order, and
# a game "played on from here" starts at a position of the record and lets
# its later chance follow the record while it still can.


def chance_actions(record: dict[str, Any], start: int = 0) -> list[str]:
    """The texts of ``record``'s chance actions (dealer, deals, trump ...),
    in order, from action index ``start`` on. The record is replayed, so an
    illegal record is a :class:`RecordError`."""
    record = check_record_shape(record)
    replay_record(record)  # checks every action once, with its index in the error
    game = load_game_checked(record["game"], record.get("options") or {})
    state = game.new_initial_state()
    texts: list[str] = []
    for index, text in enumerate(record["actions"]):
        if index >= start and state.is_chance_node():
            texts.append(text)
        state.apply_string(text)
    return texts


def same_deals_plan(record: dict[str, Any]) -> list[str]:
    """The chance actions a game "on the same deals" as ``record`` plays:
    all of them. A :class:`RecordError` for a game whose chance follows the
    players' choices (``Game.replayable_chance``), or for a record that
    does not replay."""
    state = replay_record(record)
    if not type(state.game).replayable_chance:
        raise RecordError(
            f"{state.game.title} cannot be played again on the same deals: its chance follows the players' choices"
        )
    return chance_actions(record)


def position_after(record: dict[str, Any], version: int) -> State:
    """The state after the first ``version`` actions of ``record``
    (``RecordError`` if ``version`` is not between 0 and the record's length)."""
    record = check_record_shape(record)
    actions = record["actions"]
    if not isinstance(version, int) or isinstance(version, bool) or not 0 <= version <= len(actions):
        raise RecordError(f"a version is a whole number from 0 to {len(actions)}, not {shown(version)}")
    return replay_record({**record, "actions": actions[:version]})


class PlannedChance:
    """Chance that follows a list of planned chance actions where it can.

    At each chance node, :meth:`draw` takes the next planned action: if it is
    legal there it is the outcome, else a fresh one is drawn with the game's
    odds. Either way the plan moves on by one, so a game that strays from
    its origin (another hand played) still meets the origin's later deals at
    the same chance nodes.
    """

    def __init__(self, planned: list[str]) -> None:
        self.planned = list(planned)
        self.used = 0

    def draw(self, state: State, rng: Any) -> int:
        """The chance action at ``state`` (a chance node)."""
        if self.used < len(self.planned):
            text = self.planned[self.used]
            self.used += 1
            try:
                action = state.string_to_action(text)
                if state._illegal_reason(action) is None:
                    return action
            except (NotationError, IllegalActionError, ValueError, IndexError, KeyError, OverflowError):
                pass  # not legal here any more: a fresh draw below
        return state.sample_chance(rng)


def round_points(record: dict[str, Any]) -> list[list[float]]:
    """Each finished round's points per seat, in order, for any game.

    A round ends where a player's action leads to a chance node (the next
    deal) or to the end of the game; its points are the change of
    :meth:`State.scores` since the previous round ended. A round that scored
    nothing is still a round (a row of zeros), so two games on the same
    deals line up round by round.
    """
    state = replay_record(record)
    replay = state.game.new_initial_state()
    rows: list[list[float]] = []
    before = list(replay.scores())
    for action in state.history():
        by_player = not replay.is_chance_node()
        replay.apply_trusted(action)
        if by_player and (replay.is_chance_node() or replay.is_terminal()):
            after = list(replay.scores())
            rows.append([now - then for now, then in zip(after, before, strict=True)])
            before = after
    return rows
