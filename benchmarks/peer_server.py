"""The peer: a naive game server that `benchmarks/server.py` measures beside
``oracles serve``, with the same load client, in the same run.

It is what a first version would be: a plain Starlette app on uvicorn that
speaks the part of the protocol the load client uses (``docs/server.md``:
``POST /api/tables``, the table's socket with ``state``, ``move``, ``ack``,
``error``, ``ping``), keeps every table in memory, commits each move to a
SQLite file before answering (one transaction a move, in the event loop),
and after each move builds and encodes every socket's view anew and sends
them one after the other. Nothing is cached, batched or shared between
seats. Its SQLite file has the same ``tables``/``moves`` columns the load
benchmark writes into (`server.py`'s ``spread_progress``), and it rebuilds
its tables from the file when it starts.

    python benchmarks/peer_server.py --port 8800 --db /tmp/peer.sqlite3
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import secrets
import sqlite3
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import uvicorn  # noqa: E402
from starlette.applications import Starlette  # noqa: E402
from starlette.requests import Request  # noqa: E402
from starlette.responses import JSONResponse, PlainTextResponse  # noqa: E402
from starlette.routing import Route, WebSocketRoute  # noqa: E402
from starlette.websockets import WebSocket, WebSocketDisconnect  # noqa: E402

from oracles.core.registry import load_game  # noqa: E402

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, game TEXT, tokens TEXT);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT, version INTEGER, seat INTEGER, action TEXT, move_id TEXT, created_at TEXT,
    PRIMARY KEY (table_id, version)
);
"""


class Table:
    def __init__(self, table_id: str, tokens: list[str]) -> None:
        self.id = table_id
        self.tokens = tokens
        self.state = load_game("oracle", players=len(tokens)).new_initial_state()
        self.version = 0
        self.sockets: list[tuple[WebSocket, int]] = []


class Peer:
    def __init__(self, db: Path) -> None:
        self.db = sqlite3.connect(db, isolation_level=None)
        self.db.executescript(SCHEMA)
        self.rng = random.Random()
        self.tables: dict[str, Table] = {}
        for table_id, tokens in self.db.execute("SELECT id, tokens FROM tables").fetchall():
            table = Table(table_id, json.loads(tokens))
            for (action,) in self.db.execute(
                "SELECT action FROM moves WHERE table_id = ? ORDER BY version", (table_id,)
            ):
                table.state.apply_string(action)
                table.version += 1
            self.tables[table_id] = table

    def store(self, table: Table, seat: int | None, action: int) -> None:
        text = table.state.action_to_string(action)
        table.state.apply_action(action)
        table.version += 1
        self.db.execute("BEGIN")
        self.db.execute(
            "INSERT INTO moves VALUES (?, ?, ?, ?, NULL, datetime('now'))",
            (table.id, table.version, seat, text),
        )
        self.db.execute("COMMIT")

    def deal(self, table: Table) -> None:
        while table.state.is_chance_node():
            self.store(table, None, table.state.sample_chance(self.rng))

    def message(self, table: Table, seat: int) -> str:
        state = table.state
        legal = (
            [state.action_to_string(a) for a in state.legal_actions()]
            if state.current_player() == seat
            else []
        )
        # Compact, as oracles serve writes it (the load client reads both alike).
        return json.dumps(
            {
                "type": "state",
                "version": table.version,
                "seat": seat,
                "view": state.view(seat),
                "legal": legal,
                "status": "finished" if state.is_terminal() else "playing",
            },
            separators=(",", ":"),
        )

    async def create(self, request: Request) -> JSONResponse:
        body = await request.json()
        seats = len(body.get("seats", [])) or 4
        table_id = secrets.token_urlsafe(9)
        tokens = [secrets.token_urlsafe(24) for _ in range(seats)]
        self.db.execute("INSERT INTO tables VALUES (?, 'oracle', ?)", (table_id, json.dumps(tokens)))
        table = self.tables[table_id] = Table(table_id, tokens)
        self.deal(table)
        return JSONResponse(
            {"id": table_id, "seats": [{"seat": i, "token": t} for i, t in enumerate(tokens)]}, 201
        )

    async def socket(self, websocket: WebSocket) -> None:
        table = self.tables.get(websocket.path_params["table_id"])
        token = websocket.query_params.get("token")
        if table is None or token not in table.tokens:
            await websocket.close(code=4404)
            return
        seat = table.tokens.index(token)
        await websocket.accept()
        table.sockets.append((websocket, seat))
        try:
            await websocket.send_text(self.message(table, seat))
            while True:
                message = json.loads(await websocket.receive_text())
                if message.get("type") == "ping":
                    await websocket.send_text('{"type":"pong"}')
                    continue
                if message.get("type") != "move":
                    continue
                if message.get("version") != table.version or table.state.current_player() != seat:
                    await websocket.send_text(
                        json.dumps({"type": "error", "code": "stale", "id": message.get("id")})
                    )
                    continue
                try:
                    action = table.state.string_to_action(message["action"])
                    if action not in table.state.legal_actions():
                        raise ValueError(message["action"])
                except Exception:
                    await websocket.send_text(
                        json.dumps({"type": "error", "code": "illegal", "id": message.get("id")})
                    )
                    continue
                self.store(table, seat, action)
                self.deal(table)
                await websocket.send_text(
                    json.dumps({"type": "ack", "version": table.version, "id": message.get("id")})
                )
                for other, other_seat in list(table.sockets):
                    # A socket gone meanwhile: its own loop notices.
                    with contextlib.suppress(Exception):
                        await other.send_text(self.message(table, other_seat))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            if (websocket, seat) in table.sockets:
                table.sockets.remove((websocket, seat))


def app(db: Path) -> Starlette:
    peer = Peer(db)

    async def healthz(request: Request) -> PlainTextResponse:
        return PlainTextResponse("ok")

    return Starlette(
        routes=[
            Route("/healthz", healthz),
            Route("/api/tables", peer.create, methods=["POST"]),
            WebSocketRoute("/ws/tables/{table_id}", peer.socket),
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8800)
    parser.add_argument("--db", type=Path, required=True)
    args = parser.parse_args(argv)
    uvicorn.run(app(args.db), host="127.0.0.1", port=args.port, log_level="warning")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
