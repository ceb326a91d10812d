"""Hostile input at every boundary of the program (issue 15).

Each example of the issue is a test here (or, for the terminal, in
``tests/play/test_play_hostile.py``), and property tests throw generated
input at each boundary: record text and records, option values, action
text, typed terminal input, bot specs and command lines. The promise
checked is the same everywhere: a documented error with one printable line,
or a correct result; never another exception, never a traceback.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from oracles.bots.specs import make_bot, parse_bot_spec
from oracles.cli import main
from oracles.core.errors import OptionError, RecordError, UnknownGameError
from oracles.core.inputs import load_game_checked
from oracles.core.records import MAX_RECORD_BYTES, load_record_file, parse_record, replay_record
from oracles.core.registry import game_class, game_ids
from oracles.core.text import printable, shown
from oracles.play.render import renderer_for
from oracles.play.session import PlaySession, clean_typed
from oracles.workers import max_workers

ORACLES = str(Path(sys.executable).parent / "oracles")
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """``main(argv)`` in this process: status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def assert_one_clean_line(err: str) -> None:
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err and "\x1b" not in err and "\r" not in err
    assert len(err) <= 1001


def write(tmp_path: Path, content: str | bytes, name: str = "record.json") -> str:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return str(path)


# --------------------------------------------------------------- the examples


@pytest.mark.parametrize(
    ("content", "line"),
    [
        pytest.param("[" * 100_000, "nested too deeply", id="deep-json"),
        pytest.param(
            '{"game": "oracle", "options": {"players": ' + "9" * 5000 + '}, "actions": []}',
            "more than 100 digits",
            id="huge-integer",
        ),
        pytest.param('{"game": "oracle", "options": {"players": NaN}, "actions": []}', "NaN", id="nan"),
        pytest.param(
            '{"game": "oracle", "options": {"players": "--3"}, "actions": []}', "got '--3'", id="minus-minus"
        ),
        pytest.param(
            '{"game": "oracle", "options": {"players": "³"}, "actions": []}', "got '³'", id="superscript"
        ),
        pytest.param(
            '{"game": "oracle", "options": {"game_id": 1}, "actions": []}',
            "unknown option 'game_id'",
            id="game_id",
        ),
        pytest.param(
            '{"game": "oracle", "options": {"self": 1}, "actions": []}', "unknown option 'self'", id="self"
        ),
        pytest.param(
            '{"game": "oracle", "actions": ["dealer 1\\u001b[2J\\nmore"]}',
            "action 0 'dealer 1\\x1b[2J\\nmore'",
            id="escapes",
        ),
        pytest.param(
            json.dumps({"game": "oracle", "actions": ["x" * 900_000]}),
            "longer than 2000 characters",
            id="long-action",
        ),
        pytest.param(
            json.dumps({"game": "\x1b[31m" * 300, "actions": []}), "unknown game '\\x1b[31m", id="long-game"
        ),
        pytest.param(
            json.dumps({"game": "inrah", "actions": ["dealer 0"] * 5000}),
            "lasts at most",
            id="too-many-actions",
        ),
    ],
)
def test_replay_of_hostile_records_is_one_line(tmp_path: Path, content: str, line: str) -> None:
    status, out, err = run_cli(["replay", write(tmp_path, content), "--json"])
    assert status == 1 and out == ""
    assert_one_clean_line(err)
    assert line in err


def test_replay_of_an_endless_file_reads_a_bounded_amount() -> None:
    status, _, err = run_cli(["replay", "/dev/zero"])
    assert status == 1
    assert_one_clean_line(err)
    assert f"larger than a record may be ({MAX_RECORD_BYTES} bytes)" in err


def test_replay_of_a_file_just_over_the_limit(tmp_path: Path) -> None:
    path = write(tmp_path, b" " * (MAX_RECORD_BYTES + 1))
    with pytest.raises(RecordError, match="larger than a record may be"):
        load_record_file(path)


@pytest.mark.parametrize(
    ("argv", "status", "line"),
    [
        (["simulate", "oracle", "-n", "x"], 2, "argument -n/--games: must be an integer from 1 to 1000000"),
        (["simulate", "oracle", "-n", "9" * 5000], 2, "argument -n/--games: must be an integer"),
        (["simulate", "oracle", "-n", "²"], 2, "got '²'"),
        (["simulate", "oracle", "--seed", "1" * 30], 2, "argument --seed"),
        (["simulate", "oracle", "--no-such-flag"], 2, "unrecognized arguments: --no-such-flag"),
        (["no-such-command"], 2, "invalid choice: 'no-such-command'"),
        (["simulate", "oracle", "-n", "1", "--workers", "64"], 1, "--workers must be from 1 to"),
        (["simulate", "oracle", "-n", "1", "--option", "players=--3"], 1, "got '--3'"),
        (["simulate", "oracle", "-n", "1", "--option", "players=³"], 1, "got '³'"),
        (["simulate", "oracle", "-n", "1", "--option", "game_id=x"], 1, "unknown option 'game_id'"),
        (["simulate", "oracle", "-n", "1", "--option", "self=x"], 1, "unknown option 'self'"),
        (
            ["simulate", "oracle", "-n", "1", "--records", "/proc/nope"],
            1,
            "cannot write records into '/proc/nope'",
        ),
        (
            ["simulate", "oracle", "-n", "1", "--bots", "ismcts:seconds=inf"],
            1,
            "'seconds' must be a number from 0",
        ),
        (
            ["simulate", "oracle", "-n", "1", "--bots", "ismcts:c=nan"],
            1,
            "'c' must be a number from 0 to 100",
        ),
        (
            ["simulate", "oracle", "-n", "1", "--bots", "ismcts:prune=maybe"],
            1,
            "'prune' must be true or false",
        ),
        (["simulate", "\x1b[2J", "-n", "1"], 1, "unknown game '\\x1b[2J'"),
        (["tournament", "oracle", "--bots", "random", "--option", "players=" + "9" * 5000], 1, "players"),
        (["tournament", "oracle", "--bots", "random", "--workers", "1000"], 1, "--workers must be from 1 to"),
        (["replay", "x\x00y"], 1, "not a valid path"),
        (["tournament", "oracle", "--bots", ",".join(["random"] * 40), "-n", "1"], 1, "more than 10000"),
        (
            ["tournament", "oracle", "--bots", "random,heuristic", "-n", "1000000", "--players", "3"],
            1,
            "more than 1000000",
        ),
    ],
)
def test_hostile_arguments_are_one_line(argv: list[str], status: int, line: str) -> None:
    got, _, err = run_cli(argv)
    assert got == status, err
    assert_one_clean_line(err)
    assert line in err


def test_workers_are_capped_per_machine() -> None:
    assert 1 <= max_workers() <= 32
    assert run_cli(["simulate", "oracle", "-n", "1", "--workers", str(max_workers() + 1)])[0] == 1


def test_records_into_a_file_not_a_folder(tmp_path: Path) -> None:
    blocker = write(tmp_path, "x", "file")
    status, _, err = run_cli(["simulate", "oracle", "-n", "1", "--records", blocker])
    assert status == 1
    assert_one_clean_line(err)


def test_no_option_name_collides_with_a_parameter() -> None:
    for name in ("game_id", "self", "options", "cls"):
        with pytest.raises(OptionError, match=f"unknown option '{name}'"):
            load_game_checked("oracle", {name: 1})
    with pytest.raises(OptionError):
        load_game_checked("oracle", {3: 1})
    with pytest.raises(UnknownGameError):
        load_game_checked(None)


def _as_a_shell_starts_a_job() -> None:
    """In the child before it runs: SIGINT delivered and handled by default,
    as a shell starts a foreground job. An ignored or blocked signal is
    inherited across exec, so pytest started in the background (``nohup``,
    ``&``: SIGINT ignored) would start a run that cannot be interrupted."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _interrupt(argv: list[str], ready: Any) -> str:
    """Start ``oracles argv`` in its own process group, wait until
    ``ready()`` (at most two minutes, for a busy machine), send SIGINT to the
    group as a terminal's Ctrl-C does; check that it ends with status 130 and
    no process left; return its stderr. The run stops within a second or
    two; the bound of 30 s only tells a hang from a machine busy with other
    work (make test's other worker, a browser, a benchmark)."""
    child = subprocess.Popen(
        [ORACLES, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        text=True,
        preexec_fn=_as_a_shell_starts_a_job,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not ready():
        time.sleep(0.1)
    os.killpg(child.pid, signal.SIGINT)
    try:
        _, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            # Reap it and close its pipes here, so that a hang fails this
            # test alone and not the next one on the same worker.
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
    assert child.returncode == 130
    with contextlib.suppress(ProcessLookupError):
        os.killpg(child.pid, 0)
        pytest.fail("a process of the run is still alive")
    return err


def test_ctrl_c_stops_the_workers_at_once(tmp_path: Path) -> None:
    """The run ends with one line, and the records already written are kept,
    each complete."""
    records = tmp_path / "records"
    run = ["simulate", "oracle", "-n", "1000000", "--workers", "4", "--records", str(records), "--quiet"]
    err = _interrupt([*run, "--players", "3", "--option", "rounds=1"], lambda: list(records.glob("*.json")))
    assert err == "interrupted\n"
    written = sorted(records.glob("*.json"))
    assert written and all(replay_record(load_record_file(path)).is_terminal() for path in written)


def test_ctrl_c_stops_a_tournament_at_once() -> None:
    started = time.monotonic()
    run = ["tournament", "oracle", "--bots", "random,heuristic", "-n", "100000", "--workers", "4", "--quiet"]
    err = _interrupt([*run, "--players", "3"], lambda: time.monotonic() - started > 2)
    assert err == "interrupted\n"


# --------------------------------------------------------------- properties


def _containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20), _containers, max_leaves=20
)
hostile_text = st.one_of(
    st.text(max_size=60),
    st.sampled_from(
        ["[/]", "[/bold]", "²", "bid ¹", "--3", "³", "٣", "\x1b[2J", "1" * 5000, "-0", "+1", " 3 "]
    ),
    st.text(alphabet="0123456789²³¹٣-+ .e", max_size=30),
)


@PROPERTY
@given(st.one_of(st.text(max_size=200), json_values.map(json.dumps)))
def test_property_record_text_parses_or_is_a_record_error(text: str) -> None:
    try:
        record = parse_record(text)
    except RecordError as error:
        assert "\n" not in str(error)
        return
    assert isinstance(record, dict)


@PROPERTY
@given(
    game=st.sampled_from(["oracle", "inrah", "codename", "chess", "ORACLE "]) | st.text(max_size=10),
    options=st.dictionaries(
        st.sampled_from(["players", "rounds", "draft", "removed_colour", "self", "game_id"])
        | st.text(max_size=8),
        json_values | hostile_text,
        max_size=3,
    ),
    actions=st.lists(st.sampled_from(["dealer 0", "dealer 1", "bid 1", "pass"]) | hostile_text, max_size=4),
)
def test_property_records_replay_or_are_a_record_error(
    game: str, options: dict[str, Any], actions: list[Any]
) -> None:
    record = {"game": game, "options": options, "actions": actions}
    try:
        state = replay_record(record)
    except RecordError as error:
        assert len(str(error).splitlines()) == 1
        return
    assert len(state.history()) == len(actions)


@PROPERTY
@given(game=st.sampled_from(["oracle", "inrah", "codename"]), data=st.data())
def test_property_option_values_coerce_or_are_an_option_error(game: str, data: st.DataObject) -> None:
    schema = game_class(game).option_schema
    option = data.draw(st.sampled_from(schema))
    value = data.draw(json_values | hostile_text | st.integers(-(10**30), 10**30))
    try:
        result = option.coerce(game, value, game_class(game).option_defaults())
    except OptionError as error:
        assert len(str(error).splitlines()) == 1 and len(str(error)) < 600
        return
    assert type(result) is option.kind


def _walk(game_id: str, seed: int, steps: int) -> list[str]:
    state = load_game_checked(game_id).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return list(state.record()["actions"])


@PROPERTY
@given(
    game=st.sampled_from(["oracle", "inrah", "codename"]),
    steps=st.integers(0, 12),
    text=hostile_text | st.sampled_from(["bid ¹", "bid " + "9" * 5000, "play ²", "code ² q w c x", "deal ³"]),
)
def test_property_action_text_in_a_record_is_applied_or_refused(game: str, steps: int, text: str) -> None:
    actions = [*_walk(game, steps, steps), text]
    try:
        replay_record({"game": game, "actions": actions})
    except RecordError as error:
        assert len(str(error).splitlines()) == 1 and "\x1b" not in str(error)


@PROPERTY
@given(
    st.one_of(
        st.text(max_size=80),
        st.builds(
            lambda name, pairs: ":".join([name, *pairs]),
            st.sampled_from(["ismcts", "random", "heuristic", "ISMCTS", "x"]),
            st.lists(
                st.builds(
                    lambda key, value: f"{key}={value}",
                    st.sampled_from(
                        ["iterations", "seconds", "c", "rollout", "horizon", "turns", "prune", "depth"]
                    ),
                    hostile_text
                    | st.sampled_from(
                        ["inf", "-inf", "nan", "1e308", "1e999", "maybe", "on", "OFF", "1_0", "0x10"]
                    ),
                ),
                max_size=3,
            ),
        ),
    )
)
def test_property_bot_specs_are_valid_or_an_option_error(spec: str) -> None:
    try:
        cls, params = parse_bot_spec(spec)
    except OptionError as error:
        assert len(str(error).splitlines()) == 1 and len(str(error)) < 600
        return
    for key, value in params.items():
        kind = cls.params[key]
        if kind is bool:
            assert isinstance(value, bool)
        elif kind in (int, float):
            assert math.isfinite(value)
            low, high = cls.param_ranges[key]
            assert low <= value <= high
    make_bot(spec, 0)


@PROPERTY
@given(st.text(max_size=300), st.integers(1, 200))
def test_property_printable_is_one_bounded_clean_line(text: str, limit: int) -> None:
    shown_text = printable(text, limit)
    assert len(shown_text) <= limit
    assert all(char.isprintable() or char == " " for char in shown_text)
    assert shown(text).startswith("'")


@PROPERTY
@given(st.text(max_size=300))
def test_property_typed_text_is_cleaned(text: str) -> None:
    cleaned = clean_typed(text)
    assert len(cleaned) <= 200
    assert all(char.isprintable() for char in cleaned)
    assert all(char in "0123456789" for char in cleaned if char.isdecimal())


def _lines(texts: list[str]) -> Iterator[str]:
    yield from texts


@PROPERTY
@given(st.lists(hostile_text | st.sampled_from(["1", "2", "help", "save", "?"]), max_size=8))
def test_property_typed_input_never_ends_or_loses_the_game(texts: list[str]) -> None:
    lines = _lines(texts)

    def read(_prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    state = load_game_checked("inrah", {"players": 3, "rounds": 1}).new_initial_state()
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=False)
    with tempfile.TemporaryDirectory() as folder:
        save = Path(folder) / "game.json"
        bots = {seat: make_bot("random", seat, 1) for seat in (1, 2)}
        session = PlaySession(
            state,
            [0],
            bots,
            renderer_for("inrah", "en"),
            console,
            seed=1,
            save_path=save,
            fast=True,
            read=read,
        )
        session.run()
        saved = replay_record(load_record_file(save))
    assert saved.history() == state.history()
    assert "\x1b" not in out.getvalue()


COMMANDS = ["games", "replay", "simulate", "tournament"]
FLAGS = [
    "-n",
    "--players",
    "--option",
    "--bots",
    "--seed",
    "--records",
    "--workers",
    "--json",
    "--seat",
    "--quiet",
]
VALUES = [
    "1",
    "2",
    "0",
    "-1",
    "²",
    "9" * 40,
    "players=--3",
    "self=1",
    "x",
    "random",
    "ismcts:seconds=nan",
    "[/]",
]


@PROPERTY
@given(
    command=st.sampled_from(COMMANDS),
    game=st.sampled_from([*game_ids(), "chess", "[/]", "\x1b[2J"]),
    rest=st.lists(st.sampled_from(FLAGS + VALUES) | hostile_text, max_size=6),
)
def test_property_command_lines_end_in_a_result_or_one_line(command: str, game: str, rest: list[str]) -> None:
    if "\x00" in "".join(rest):
        rest = [part.replace("\x00", "") for part in rest]
    # Keep every run tiny: one game or deal, random bots, one process, no records.
    tail = (
        ["-n", "1", "--bots", "random", "--workers", "1", "--quiet"]
        if command in ("simulate", "tournament")
        else []
    )
    argv = [command, "/no/such/file.json" if command == "replay" else game, *rest, *tail]
    if command in ("simulate", "tournament"):
        argv = [a for a in argv if a != "--records"]
    status, _, err = run_cli(argv)
    if status != 0:
        assert status in (1, 2)
        assert_one_clean_line(err)


def test_piped_input_reads_bounded_lines() -> None:
    from oracles.play.session import MAX_SKIPPED, bounded_input

    with contextlib.redirect_stdout(io.StringIO()):
        assert bounded_input("> ", io.StringIO("x" * 10_000 + "\n1\n")) == "x" * 800
        stream = io.StringIO("y" * 10_000 + "\n1\n")
        bounded_input("> ", stream)
        assert bounded_input("> ", stream) == "1"
        with pytest.raises(EOFError):
            bounded_input("> ", io.StringIO("\0" * (MAX_SKIPPED + 10_000)))


def test_play_from_an_endless_pipe_saves_and_leaves(tmp_path: Path) -> None:
    with open("/dev/zero", "rb") as zero:
        done = subprocess.run(
            [ORACLES, "play", "inrah", "--players", "3", "--fast", "--seed", "1"],
            stdin=zero,
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=120,
        )
    assert done.returncode == 0 and "Traceback" not in done.stderr
    (saved,) = tmp_path.glob("oracles-inrah-*.json")
    assert load_record_file(saved)["game"] == "inrah"
