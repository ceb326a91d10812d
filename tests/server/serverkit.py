"""Helpers of the server tests: a real listening server (in a thread or a
subprocess), a WebSocket client whose every receive has a timeout, a
PostgreSQL cluster made from Debian's binaries, and a random player."""

from __future__ import annotations

import asyncio
import contextlib
import glob
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from oracles.server.app import create_app
from oracles.server.cli import uvicorn_config
from oracles.server.config import Settings

RECV_TIMEOUT = 20.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# ------------------------------------------------------------------ HTTP
def http(
    base: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, Any, dict[str, str]]:
    """One request; returns status, decoded JSON (or text) and headers."""
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=RECV_TIMEOUT) as response:
            status, raw, head = response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as error:
        status, raw, head = error.code, error.read(), dict(error.headers)
    try:
        return status, json.loads(raw), head
    except ValueError:
        return status, raw.decode(), head


# --------------------------------------------------------------- servers
class ThreadServer:
    """The app under uvicorn in a background thread (its own event loop)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.app = create_app(settings)
        self.port = free_port()
        # The server's own configuration (its WebSocket protocol included).
        config = uvicorn_config(self.app, "127.0.0.1", self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


class ProcessServer:
    """``oracles serve`` as a child process, to be killed and restarted."""

    def __init__(self, db: str, *extra: str, port: int | None = None) -> None:
        self.db = db
        self.extra = extra
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the server

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30) -> None:
        command = [sys.executable, "-m", "oracles.cli", "serve", "--port", str(self.port), "--db", self.db]
        self.proc = subprocess.Popen(
            [*command, *self.extra], stdout=self.log, stderr=self.log, start_new_session=True
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.output()[-2000:]}")
            with contextlib.suppress(OSError):
                status, body, _ = http(self.base, "GET", "/healthz")
                if status == 200 and body.get("ok"):
                    return
            time.sleep(0.05)
        raise RuntimeError("the server did not answer /healthz")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stop(self) -> int | None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return None if self.proc is None else self.proc.returncode

    def close(self) -> None:
        """Stop the server and drop its log."""
        self.stop()
        self.log.close()

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")


# ------------------------------------------------------------ PostgreSQL
def postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


class PostgresCluster:
    """A throwaway cluster: initdb in a temporary folder, pg_ctl on a free
    port, run as the unprivileged ``postgres`` user when we are root."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.dir = Path(tempfile.mkdtemp(prefix="oracles-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            user = "postgres" if shutil.which("runuser") and _user_exists("postgres") else "nobody"
            self.prefix = ["runuser", "-u", user, "--"]
            shutil.chown(self.dir, user=user)
            os.chmod(self.dir, 0o700)
        self.counter = 0

    def _run(self, *args: str) -> None:
        subprocess.run([*self.prefix, *args], check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        self._run(
            str(self.bindir / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8"
        )
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir} -c fsync=on"
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.dir / "log"),
            "-w",
            "start",
        )

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)

    def new_database(self) -> str:
        """A fresh empty database's URL."""
        self.counter += 1
        name = f"t{os.getpid()}_{self.counter}"

        async def create() -> None:
            import asyncpg

            conn = await asyncpg.connect(
                host="127.0.0.1", port=self.port, user="postgres", database="postgres"
            )
            try:
                await conn.execute(f'CREATE DATABASE "{name}"')
            finally:
                await conn.close()

        asyncio.run(create())
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"


def _user_exists(name: str) -> bool:
    import pwd

    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


# ---------------------------------------------------------------- client
class Client:
    """A WebSocket client that keeps every message it received."""

    def __init__(self, url: str, origin: str | None = None, headers: dict[str, str] | None = None) -> None:
        self.url = url
        self.origin = origin
        self.headers = headers or {}
        self.ws: ClientConnection | None = None
        self.received: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None

    async def __aenter__(self) -> Client:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def connect(self) -> None:
        headers = {**self.headers, **({"Origin": self.origin} if self.origin else {})} or None
        self.ws = await asyncio.wait_for(
            connect(
                self.url,
                additional_headers=headers,
                compression=None,
                max_size=2**24,
                open_timeout=RECV_TIMEOUT,
            ),
            RECV_TIMEOUT,
        )

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            self.ws = None

    async def send(self, message: Any) -> None:
        assert self.ws is not None
        await self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    async def recv(self, timeout: float = RECV_TIMEOUT) -> dict[str, Any]:
        assert self.ws is not None
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        message: dict[str, Any] = json.loads(raw)
        self.received.append(message)
        if message.get("type") == "state":
            self.state = message
        return message

    async def recv_type(self, kind: str, timeout: float = RECV_TIMEOUT) -> dict[str, Any]:
        """The next message of ``kind`` (others are kept and skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            message = await self.recv(max(0.01, deadline - time.monotonic()))
            if message.get("type") == kind:
                return message

    async def state_at_least(self, version: int, timeout: float = RECV_TIMEOUT) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while self.state is None or self.state["version"] < version:
            await self.recv(max(0.01, deadline - time.monotonic()))
        return self.state

    async def drain(self, quiet: float = 0.05) -> None:
        """Read whatever arrives until ``quiet`` seconds pass without a message."""
        with contextlib.suppress(TimeoutError):
            while True:
                await self.recv(quiet)


async def play_randomly(
    client: Client, rng: random.Random, timeout: float = 120, tag: str = "m"
) -> dict[str, Any]:
    """Play the client's seat with random legal moves until the game ends;
    return the final state message."""
    deadline = time.monotonic() + timeout
    count = 0
    if client.state is None:
        await client.recv_type("state")
    while True:
        state = client.state
        assert state is not None
        if state["status"] == "finished":
            return state
        if state["legal"]:
            count += 1
            move_id = f"{tag}{count}"
            await client.send(
                {
                    "type": "move",
                    "action": rng.choice(state["legal"]),
                    "version": state["version"],
                    "id": move_id,
                }
            )
            while True:
                reply = await client.recv(max(0.01, deadline - time.monotonic()))
                if reply.get("type") in ("ack", "error") and reply.get("id") == move_id:
                    assert reply["type"] == "ack", reply
                    break
            await client.state_at_least(reply["version"])
        else:
            await client.recv(max(0.01, deadline - time.monotonic()))
        if time.monotonic() > deadline:
            raise TimeoutError("the game did not end in time")
