"""A seeded interleaving fuzz: several clients per seat move, resend,
reconnect and send stale moves in random orders. Every move id is applied
at most once, every client converges on the same final version, and the
record replays."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from serverkit import Client, ThreadServer, http
from test_server_protocol import create, seat_url

from oracles.core.records import replay_record

SEEDS = [1, 2, 3]


@pytest.mark.parametrize("seed", SEEDS)
def test_interleavings_converge(start_server: Any, seed: int) -> None:
    server: ThreadServer = start_server()
    rng = random.Random(seed)
    game, options, seats = rng.choice(
        [
            ("inrah", {"rounds": 3}, ["human", "human", "human", "bot:random"]),
            ("oracle", {"rounds": 1, "players": 3}, ["human", "bot:random", "human"]),
            ("codename", {"max_turns": 30}, ["human", "human"]),
        ]
    )
    table = create(server, game, options, seats)
    humans = [i for i, kind in enumerate(seats) if kind == "human"]
    # Two clients for each person: a phone and a laptop, say.
    clients = [(seat, Client(seat_url(server, table, seat))) for seat in humans for _ in range(2)]

    async def scenario() -> int:
        try:
            return await fuzz()
        finally:
            for _, client in clients:
                await client.close()

    async def fuzz() -> int:
        sent: list[tuple[int, dict[str, Any]]] = []
        for _, client in clients:
            await client.connect()
        for _step in range(2000):
            _, info, _ = await asyncio.to_thread(http, server.base, "GET", f"/api/tables/{table['id']}")
            if info["status"] == "finished":
                break
            for _ in range(8):
                seat, client = rng.choice(clients)
                op = rng.choices(["move", "resend", "stale", "reconnect", "read"], [6, 2, 1, 1, 3])[0]
                if client.ws is None:
                    await client.connect()
                if op == "move" and client.state is not None and client.state["legal"]:
                    move = {
                        "type": "move",
                        "action": rng.choice(client.state["legal"]),
                        "version": client.state["version"],
                        "id": f"s{seed}-{len(sent)}",
                    }
                    sent.append((seat, move))
                    await client.send(move)
                elif op == "resend" and sent:
                    old_seat, move = rng.choice(sent)
                    if old_seat == seat:
                        await client.send(move)
                elif op == "stale" and client.state is not None and client.state["version"] > 0:
                    await client.send(
                        {
                            "type": "move",
                            "action": "bid 0",
                            "version": client.state["version"] - 1,
                            "id": f"stale{_step}",
                        }
                    )
                elif op == "reconnect":
                    await client.close()
                    await client.connect()
                await client.drain(rng.choice([0.0, 0.005, 0.02]))
        else:
            raise AssertionError("the game did not end")
        for _, client in clients:
            if client.ws is None:
                await client.connect()
            await client.send({"type": "hello"})
            await client.drain(0.1)
        versions = {client.state["version"] for _, client in clients if client.state is not None}
        assert len(versions) == 1, versions
        # Each move id was applied at most once, whatever the resends.
        applied: dict[str, int] = {}
        for _, client in clients:
            for message in client.received:
                if message["type"] == "ack" and not message.get("duplicate"):
                    assert message["id"] not in applied, message
                    applied[message["id"]] = message["version"]
                if message["type"] == "error":
                    assert message["code"] in {"stale", "illegal", "not_your_turn"}, message
        for _, client in clients:
            for message in client.received:
                if message["type"] == "ack" and message.get("duplicate"):
                    assert applied.get(message["id"], message["version"]) == message["version"]
            await client.close()
        return versions.pop()

    final_version = asyncio.run(scenario())
    status, record, _ = http(server.base, "GET", f"/api/tables/{table['id']}/record")
    assert status == 200 and len(record["actions"]) == final_version
    assert replay_record(record).is_terminal()
