"""The lock file pins every dependency the project declares, a seeded
game is the same game in another process (no hidden dependence on hash
seeds, dict order of a run or anything else that varies between processes),
and the wheel a player installs serves the game on its base dependencies."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def test_the_lock_file_pins_every_declared_dependency() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = {_name(r) for r in project["dependencies"]}
    for extra in project["optional-dependencies"].values():
        declared |= {_name(r) for r in extra if not r.startswith("oracles")}
    pinned = {
        line.split("==")[0].lower().replace("_", "-")
        for line in (ROOT / "requirements" / "dev.lock").read_text().splitlines()
        if "==" in line and not line.startswith("#")
    }
    assert declared - pinned == set(), "run `make lock` after changing pyproject.toml"


PLAY = """
import json, random, sys
from oracles import load_game
from oracles.bots import SeatInfo, make_bot
game = load_game(sys.argv[1])
state = game.new_initial_state()
rng = random.Random(11)
bots = [make_bot("heuristic", seat, seed=11) for seat in range(game.num_players)]
while not state.is_terminal() and len(state.history()) < 400:
    if state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    else:
        seat = state.current_player()
        state.apply_action(bots[seat].choose(SeatInfo(state, seat)))
print(json.dumps(state.record()))
"""


@pytest.mark.parametrize("game_id", ["oracle", "inrah", "codename"])
def test_same_seed_same_game_in_two_processes(game_id: str) -> None:
    records = []
    for hash_seed in ("1", "2"):
        result = subprocess.run(
            [sys.executable, "-c", PLAY, game_id],
            capture_output=True,
            text=True,
            check=True,
            timeout=300,
            env={"PYTHONHASHSEED": hash_seed, "PATH": "/usr/bin:/bin"},
        )
        records.append(json.loads(result.stdout))
    assert records[0] == records[1]
    assert len(records[0]["actions"]) > 10


LAZY = """
import random, sys
from oracles import load_game
from oracles.bots import SeatInfo, make_bot
for game_id in ("oracle", "inrah", "codename"):
    game = load_game(game_id)
    state = game.new_initial_state()
    rng = random.Random(1)
    bots = [make_bot("ismcts:iterations=5:rollout=heuristic", seat) for seat in range(game.num_players)]
    for _ in range(40):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            seat = state.current_player()
            state.apply_action(bots[seat].choose(SeatInfo(state, seat)))
print(" ".join(name for name in ("rich", "numpy", "babel") if name in sys.modules))
"""


def test_rules_and_bots_import_no_front_end_library() -> None:
    """Playing with bots loads each game's rules, policy and evaluator, never
    the terminal renderer (rich), the research encoder (numpy) or Babel."""
    result = subprocess.run(
        [sys.executable, "-c", LAZY], capture_output=True, text=True, check=True, timeout=300
    )
    assert result.stdout.strip() == ""


# ------------------------------------------------------- the player's wheel
#: What a player's install must not pull in (the developer's and researcher's tools).
NOT_FOR_PLAYERS = {"open-spiel", "ray", "matplotlib", "pytest", "playwright", "numpy", "mypy", "ruff"}


def _run(
    command: list[str], cwd: Path, env: dict[str, str], timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def _clean_env(home: Path) -> dict[str, str]:
    """The environment of a player's shell: pip's settings (index, proxy)
    kept, nothing of this checkout on the path, a home of its own."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["HOME"] = str(home)
    env["XDG_DATA_HOME"] = str(home / "data")
    return env


def _get(url: str, data: bytes | None = None) -> tuple[int, str, bytes]:
    request = urllib.request.Request(
        url, data=data, headers={"Content-Type": "application/json"} if data else {}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.status, answer.headers.get("content-type", ""), answer.read()


def test_the_wheel_installs_alone_and_serves(tmp_path: Path) -> None:
    """``python -m build`` makes a wheel that installs in a fresh virtual
    environment with the base dependencies only, and ``oracles serve`` from
    it serves the lobby and the static files and migrates its database."""
    pytest.importorskip("build", reason="the build frontend is a dev dependency (pip install build)")
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "src", source / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    env = _clean_env(tmp_path / "home")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    # Building fetches the build backend, installing the base dependencies:
    # without an index that answers there is nothing to check.
    probe = _run(
        [
            str(python),
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--dest",
            str(tmp_path / "probe"),
            "setuptools>=77",
            "starlette",
        ],
        tmp_path,
        env,
    )
    if probe.returncode != 0:
        pytest.skip(f"the package index cannot be reached: {probe.stderr.strip().splitlines()[-1:]}")
    built = _run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path / "dist"), str(source)],
        tmp_path,
        env,
    )
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("oracles-*.whl")
    installed = _run([str(python), "-m", "pip", "install", "--quiet", str(wheel)], tmp_path, env)
    assert installed.returncode == 0, installed.stderr[-3000:]
    listed = _run([str(python), "-m", "pip", "list", "--format", "json"], tmp_path, env)
    names = {entry["name"].lower().replace("_", "-") for entry in json.loads(listed.stdout)}
    assert "oracles" in names
    assert names & NOT_FOR_PLAYERS == set()
    where = _run([str(python), "-c", "import oracles; print(oracles.__file__)"], tmp_path, env)
    assert where.stdout.startswith(str(venv)), where.stdout + where.stderr

    port = _free_port()
    database = tmp_path / "player.sqlite3"
    log = tmp_path / "server.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [
                str(venv / "bin" / "oracles"),
                "serve",
                "--port",
                str(port),
                "--db",
                str(database),
                "--bot-workers",
                "1",
            ],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None, log.read_text()[-3000:]
            try:
                if _get(base + "/healthz")[0] == 200:
                    break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.2)
        status, kind, body = _get(base + "/")
        assert status == 200 and kind.startswith("text/html") and b"/static/style.css" in body
        for name, kind_expected in (("style.css", "text/css"), ("table.js", "text/javascript")):
            status, kind, body = _get(f"{base}/static/{name}")
            assert status == 200 and kind.startswith(kind_expected) and len(body) > 100
        seats = ["human", "bot:random", "bot:random", "bot:random"]
        status, _, body = _get(base + "/api/tables", json.dumps({"game": "oracle", "seats": seats}).encode())
        assert status == 201
        table_id = json.loads(body)["id"]
        assert json.loads(_get(f"{base}/api/tables/{table_id}")[2])["id"] == table_id
    finally:
        server.terminate()
        server.wait(timeout=60)
    # The database was made by the migrations shipped in the wheel, up to the newest.
    with sqlite3.connect(database) as conn:
        (version,) = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        assert conn.execute("SELECT count(*) FROM tables").fetchone() == (1,)
    heads = [
        re.search(r'^revision = "(\w+)"', p.read_text(), re.M)
        for p in (ROOT / "src/oracles/server/migrations/versions").glob("0*.py")
    ]
    downs = {
        m.group(1)
        for p in (ROOT / "src/oracles/server/migrations/versions").glob("0*.py")
        if (m := re.search(r'^down_revision = "(\w+)"', p.read_text(), re.M))
    }
    assert version in {h.group(1) for h in heads if h} - downs


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
