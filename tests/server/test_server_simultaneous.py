"""Choices made at once (docs/server.md, "Choosing at once"): Oracle's keep is
chosen by every person at the same time; the server holds a choice made
ahead of the seat's turn and plays it when the engine's order gets there,
telling nobody else anything."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from serverkit import Client, ThreadServer, http, play_randomly


def create(server: ThreadServer, seats: list[str]) -> dict[str, Any]:
    status, body, _ = http(
        server.base, "POST", "/api/tables", {"game": "oracle", "options": {"rounds": 1}, "seats": seats}
    )
    assert status == 201, body
    return body  # type: ignore[no-any-return]


def seat_url(server: ThreadServer, table: dict[str, Any], seat: int) -> str:
    return f"{server.ws_base}/ws/tables/{table['id']}?token={table['seats'][seat]['token']}"


async def choices(client: Client) -> dict[str, Any]:
    """The client's newest state once it offers a keep, now or ahead."""
    while True:
        state = client.state
        if state is not None and (state["legal"] or state.get("ahead")):
            return state
        await client.recv()


async def choose(client: Client, move_id: str) -> tuple[str, dict[str, Any]]:
    state = await choices(client)
    offered = state["legal"] or state["ahead"]
    action = sorted(offered)[-1]
    await client.send({"type": "move", "action": action, "version": state["version"], "id": move_id})
    while True:
        reply = await client.recv()
        if reply.get("id") == move_id:
            assert reply["type"] == "ack", reply
            # The ack comes first; the state it made follows (docs/server.md).
            await client.state_at_least(reply["version"])
            return action, reply


@pytest.mark.parametrize("later_first", [True, False], ids=["later-seat-first", "earlier-seat-first"])
def test_two_people_keep_at_once_in_either_order(start_server: Any, later_first: bool) -> None:
    server = start_server()
    table = create(server, ["human", "bot:heuristic", "human", "bot:heuristic"])

    async def scenario() -> None:
        async with Client(seat_url(server, table, 0)) as a, Client(seat_url(server, table, 2)) as b:
            first_a, first_b = await choices(a), await choices(b)
            dealer = first_a["view"]["dealer"]
            order = {seat: (seat - dealer - 1) % 4 for seat in (0, 2)}
            earlier, later = (a, b) if order[0] < order[2] else (b, a)
            # The later seat cannot act yet: its keep is offered ahead.
            later_state = first_b if later is b else first_a
            assert later_state["legal"] == [] and later_state["ahead"]
            assert all(m.startswith("keep ") for m in later_state["ahead"])
            kept: dict[int, str] = {}
            for client in (later, earlier) if later_first else (earlier, later):
                action, reply = await choose(client, f"k{id(client)}")
                kept[0 if client is a else 2] = action
                if client is later and later_first:
                    assert reply.get("held") is True
                    # Its own fresh state (sent before the ack) shows the choice held.
                    state = client.state
                    assert state is not None and state["held"] == action and "ahead" not in state
            # Both keeps are played in the engine's order; the rest of the round follows.
            rng = random.Random(3)
            finals = await asyncio.gather(play_randomly(a, rng, tag="a"), play_randomly(b, rng, tag="b"))
            for seat, final in zip((0, 2), finals, strict=True):
                assert final["status"] == "finished"
                assert final["view"]["revealed"][0][seat] == kept[seat].split()[1:]
            # Nobody was told of another's held choice before it was played.
            for client, other in ((a, 2), (b, 0)):
                for message in client.received:
                    if message.get("type") == "state" and "held" in message:
                        assert message["held"] == kept[0 if client is a else 2]
                text = json.dumps([m for m in client.received if m.get("type") != "state"])
                assert kept[other] not in text

    asyncio.run(scenario())


def test_a_second_choice_ahead_is_refused(start_server: Any) -> None:
    server = start_server()
    table = create(server, ["human", "human", "human", "human"])

    async def scenario() -> None:
        clients = [Client(seat_url(server, table, seat)) for seat in range(4)]
        for client in clients:
            await client.connect()
        try:
            states = [await choices(client) for client in clients]
            waiting = next(i for i, s in enumerate(states) if not s["legal"])
            client = clients[waiting]
            _, reply = await choose(client, "first")
            assert reply.get("held") is True
            await client.send(
                {
                    "type": "move",
                    "action": states[waiting]["ahead"][0],
                    "version": states[waiting]["version"],
                    "id": "second",
                }
            )
            while True:
                answer = await client.recv()
                if answer.get("id") == "second":
                    break
            assert answer["type"] == "error" and answer["code"] == "not_your_turn"
        finally:
            for client in clients:
                await client.close()

    asyncio.run(scenario())
