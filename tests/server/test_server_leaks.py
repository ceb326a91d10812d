"""Secrecy: in whole games of each game, played over the server, no message
to a seat holds a card of another seat's hand, and every ``state`` is
exactly that seat's view at that version (checked against the finished
record); spectators see no hand."""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import pytest
from serverkit import Client, ThreadServer, http, play_randomly
from test_server_protocol import create, seat_url, watch_url

from oracles.core.game import State
from oracles.core.records import replay_record

#: game -> options, seats (two or more people, so that each has secrets to keep)
TABLES: dict[str, tuple[dict[str, Any], list[str]]] = {
    "oracle": ({"rounds": 1}, ["human", "human", "bot:heuristic", "human"]),
    "inrah": ({"rounds": 4}, ["human", "human", "bot:random"]),
    "codename": ({"max_turns": 40}, ["human", "human"]),
}
#: games whose hands are lists of unique card names, checkable by name
NAMED_CARDS = {"oracle", "inrah"}


def tokens(message: dict[str, Any]) -> set[str]:
    """Every word of a message, lower case (card names are single words).
    A board drawn into the message counts by its words and attributes, not
    by the drawings' path data (``M6 6 26 26`` is no card)."""
    board = message.get("board")
    if isinstance(board, str):
        board = re.sub(r"<svg\b.*?</svg>", " ", board, flags=re.S)
        message = {**message, "board": board}
    return set(re.findall(r"[a-z0-9-]+", json.dumps(message).lower()))


def states_by_version(record: dict[str, Any]) -> list[State]:
    """The true state after each prefix of the record."""
    state = replay_record({**record, "actions": []})
    states = [state.clone()]
    for text in record["actions"]:
        state.apply_string(text)
        states.append(state.clone())
    return states


def normal(data: Any) -> Any:
    return json.loads(json.dumps(data))


def other_hands(state: State, seat: int) -> set[str]:
    hidden: set[str] = set()
    for other in range(state.num_players):
        if other != seat:
            hidden |= {card.lower() for card in state.view(other)["hand"]}
    return hidden


#: actions every seat sees (a card played in round 1 may be dealt again in round 2)
PUBLIC = ("play ", "trump ")


def public_cards(record: dict[str, Any], version: int) -> set[str]:
    seen: set[str] = set()
    for text in record["actions"][:version]:
        if text.startswith(PUBLIC):
            seen |= set(text.lower().split()[1:])
    return seen


def check_seat_messages(
    game: str, seat: int, messages: list[dict[str, Any]], states: list[State], record: dict[str, Any]
) -> int:
    """Check what ``seat`` received; return how many states were checked."""
    version = 0
    checked = 0
    for message in messages:
        if message["type"] == "state":
            version = message["version"]
            truth = states[version]
            assert message["seat"] == seat
            assert message["view"] == normal(truth.view(seat)), f"seat {seat} version {version}"
            legal = (
                [truth.action_to_string(a) for a in truth.legal_actions()]
                if truth.current_player() == seat
                else []
            )
            assert message["legal"] == legal
            checked += 1
        if game in NAMED_CARDS:
            hidden = other_hands(states[version], seat) - public_cards(record, version)
            leaked = tokens(message) & hidden
            assert not leaked, f"seat {seat} saw {sorted(leaked)} at version {version}: {message}"
        elif message["type"] == "state":
            opponent = message["view"]["sides"][1 - seat]
            assert opponent["hand"] is None, "the opponent's hand is only a count"
    return checked


@pytest.mark.parametrize("drawn", [False, True], ids=["bare", "with-board"])
@pytest.mark.parametrize("game", sorted(TABLES))
def test_no_message_leaks_a_hand(start_server: Any, game: str, drawn: bool) -> None:
    """``with-board``: the sockets ask for their board in each state, as the
    web page does; what is drawn there holds no other seat's card either."""
    server: ThreadServer = start_server()
    options, seats = TABLES[game]
    table = create(server, game, options, seats)
    humans = [i for i, kind in enumerate(seats) if kind == "human"]
    ask = "&board=1" if drawn else ""

    async def scenario() -> list[Client]:
        clients = [Client(seat_url(server, table, seat) + ask) for seat in humans]
        try:
            for client in clients:
                await client.connect()
            await asyncio.gather(
                *(play_randomly(c, random.Random(f"{game}{i}"), tag=f"s{i}-") for i, c in enumerate(clients))
            )
            for client in clients:
                await client.drain(0.1)
        finally:
            for client in clients:
                await client.close()
        return clients

    clients = asyncio.run(scenario())
    status, record, _ = http(server.base, "GET", f"/api/tables/{table['id']}/record")
    assert status == 200
    states = states_by_version(record)
    assert states[-1].is_terminal()
    for seat, client in zip(humans, clients, strict=True):
        assert check_seat_messages(game, seat, client.received, states, record) > 3
        assert any("board" in m for m in client.received) == drawn


@pytest.mark.parametrize("game", sorted(TABLES))
def test_spectators_see_no_hand(start_server: Any, game: str) -> None:
    server: ThreadServer = start_server()
    options, seats = TABLES[game]
    table = create(server, game, options, ["bot:random"] * len(seats))

    async def scenario() -> Client:
        async with Client(watch_url(server, table)) as watcher:
            state = await watcher.recv()
            assert state["type"] == "state", state
            while state["status"] != "finished":
                state = await watcher.recv_type("state")
        return watcher

    watcher = asyncio.run(scenario())
    _, record, _ = http(server.base, "GET", f"/api/tables/{table['id']}/record")
    states = states_by_version(record)
    for message in watcher.received:
        if message["type"] != "state":
            continue
        truth = states[message["version"]]
        assert message["seat"] is None and message["legal"] == []
        assert message["view"] == normal(truth.view(None))
        assert not message["view"].get("hand"), "a spectator has no hand"
        for side in message["view"].get("sides", []):  # Codename
            assert side["hand"] is None, "a spectator sees no hand"
        if game in NAMED_CARDS and not truth.is_terminal():
            hands = set().union(
                *({c.lower() for c in truth.view(s)["hand"]} for s in range(truth.num_players))
            )
            assert not tokens(message) & (hands - public_cards(record, message["version"]))


def test_the_check_catches_a_leak() -> None:
    """The check above is not vacuous: a message naming another seat's card fails it."""
    from oracles.core.registry import load_game

    state = load_game("inrah", players=3, rounds=2).new_initial_state()
    rng = random.Random(5)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    record = state.record()
    states = states_by_version(record)
    version = len(record["actions"])
    honest = {"type": "state", "version": version, "seat": 0, "view": normal(state.view(0)), "legal": []}
    if state.current_player() == 0:
        honest["legal"] = [state.action_to_string(a) for a in state.legal_actions()]
    assert check_seat_messages("inrah", 0, [honest], states, record) == 1
    spy = {"type": "chat", "seat": 1, "name": "x", "text": f"I hold {state.view(1)['hand'][0]}"}
    with pytest.raises(AssertionError, match="saw"):
        check_seat_messages("inrah", 0, [honest, spy], states, record)
