"""Hints at the table (``oracles.server.hints``): off unless the table's
creator turns them on, only for the seat to act, answered only to the
socket that asked, computed from that seat's information alone."""

from __future__ import annotations

import asyncio
import contextlib
import random
from types import SimpleNamespace
from typing import Any

import pytest
from serverkit import Client, ThreadServer, http, play_randomly
from sqlalchemy.ext.asyncio import create_async_engine

from oracles.core.records import replay_record
from oracles.core.registry import load_game
from oracles.server import db, hints
from oracles.server.protocol import ProtocolError, parse_client_message
from oracles.simulate import play_game


def create(server: ThreadServer, **more: Any) -> dict[str, Any]:
    body = {"game": "inrah", "options": {"players": 3, "rounds": 3}, "seats": ["human"] * 3, **more}
    status, answer, _ = http(server.base, "POST", "/api/tables", body)
    assert status == 201, answer
    return answer  # type: ignore[no-any-return]


def url(server: ThreadServer, table: dict[str, Any], seat: int | None) -> str:
    base = f"{server.ws_base}/ws/tables/{table['id']}"
    return base if seat is None else f"{base}?token={table['seats'][seat]['token']}"


async def drain(client: Client, seconds: float = 0.5) -> None:
    """Read whatever arrives within ``seconds``."""
    with contextlib.suppress(TimeoutError):
        while True:
            await client.recv(seconds)


def test_hint_message_is_parsed_and_checked() -> None:
    message = parse_client_message('{"type": "hint", "version": 4, "id": "h1"}')
    assert message == parse_client_message('{"type":"hint","version":4,"id":"h1"}')
    assert message.version == 4 and message.id == "h1"  # type: ignore[union-attr]
    for bad in ('{"type": "hint"}', '{"type": "hint", "version": -1}', '{"type": "hint", "version": "3"}'):
        with pytest.raises(ProtocolError) as caught:
            parse_client_message(bad)
        assert caught.value.code == "bad_message"


def test_bad_hints_option_is_refused(start_server: Any) -> None:
    server = start_server()
    body = {"game": "inrah", "options": {"players": 3}, "seats": ["human"] * 3, "hints": "yes"}
    status, answer, _ = http(server.base, "POST", "/api/tables", body)
    assert status == 422 and "hints" in answer["error"]


def test_hints_are_off_by_default(start_server: Any) -> None:
    server = start_server()
    table = create(server)
    status, summary, _ = http(server.base, "GET", f"/api/tables/{table['id']}")
    assert status == 200 and "hints" not in summary

    async def scenario() -> None:
        async with Client(url(server, table, 0)) as client:
            state = await client.recv_type("state")
            await client.send({"type": "hint", "version": state["version"], "id": "h1"})
            error = await client.recv_type("error")
            assert error["code"] == hints.HINTS_OFF and error["id"] == "h1"

    asyncio.run(scenario())


def test_hint_goes_only_to_the_seat_to_act(start_server: Any) -> None:
    server = start_server()
    table = create(server, hints=True)

    async def scenario() -> None:
        clients = [Client(url(server, table, seat)) for seat in range(3)]
        spectator = Client(url(server, table, None))
        for client in [*clients, spectator]:
            await client.connect()
        try:
            states = [await client.recv_type("state") for client in clients]
            await spectator.recv_type("state")
            version = states[0]["version"]
            to_act = next(seat for seat, state in enumerate(states) if state["legal"])
            other = (to_act + 1) % 3

            # Out of turn, from a spectator, for a stale version: refused.
            await clients[other].send({"type": "hint", "version": version, "id": "x"})
            assert (await clients[other].recv_type("error"))["code"] == "not_your_turn"
            await spectator.send({"type": "hint", "version": version, "id": "s"})
            assert (await spectator.recv_type("error"))["code"] == "not_your_turn"
            await clients[to_act].send({"type": "hint", "version": version + 5, "id": "old"})
            assert (await clients[to_act].recv_type("error"))["code"] == "stale"

            await clients[to_act].send({"type": "hint", "version": version, "id": "h1"})
            hint = await clients[to_act].recv_type("hint")
            assert hint["id"] == "h1" and hint["version"] == version and hint["seat"] == to_act
            legal = states[to_act]["legal"]
            assert hint["best"] == hint["moves"][0]["action"] and hint["best"] in legal
            assert {m["action"] for m in hint["moves"]} <= set(legal)
            assert hint["unit"] == "points"
            values = [m["value"] for m in hint["moves"]]
            assert values == sorted(values, reverse=True)

            # Asking again at the same decision answers the same, and is
            # still one hint taken.
            await clients[to_act].send({"type": "hint", "version": version, "id": "h2"})
            again = await clients[to_act].recv_type("hint")
            assert again["moves"] == hint["moves"] and again["id"] == "h2"

            for client in [clients[other], clients[(to_act + 2) % 3], spectator]:
                await drain(client)
                assert not [m for m in client.received if m.get("type") == "hint"]
        finally:
            for client in [*clients, spectator]:
                await client.close()

        status, summary, _ = http(server.base, "GET", f"/api/tables/{table['id']}")
        assert status == 200
        expected = [0, 0, 0]
        expected[to_act] = 1
        assert summary["hints"] == {"taken": expected}

    asyncio.run(scenario())


def _swap_hidden(actions: list[str], a: int, b: int) -> list[str]:
    """The same Oracle deal with the hands (cards and oracle cards) of
    seats ``a`` and ``b`` exchanged."""
    out = []
    for text in actions:
        word, _, rest = text.partition(" ")
        if word in ("deal", "oracles"):
            parts = rest.split(" / ")
            parts[a], parts[b] = parts[b], parts[a]
            text = f"{word} {' / '.join(parts)}"
        out.append(text)
    return out


def test_hint_knows_only_the_seat_s_information() -> None:
    """Two deals that differ only in the cards of the two other seats give
    the seat to act the same view, and so the same hint."""

    options = {"players": 3, "rounds": 1}
    state = load_game("oracle", **options).new_initial_state()
    rng = random.Random(7)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    actions = list(state.record()["actions"])
    seat = state.current_player()
    others = [s for s in range(3) if s != seat]
    swapped = _swap_hidden(actions, *others)
    assert swapped != actions
    first = replay_record({"game": "oracle", "options": options, "actions": actions})
    second = replay_record({"game": "oracle", "options": options, "actions": swapped})
    assert first.view(seat) == second.view(seat)
    assert first.view(others[0]) != second.view(others[0])
    one = hints.compute("oracle", options, actions, seat, "s", seconds=600.0, worlds=3)
    two = hints.compute("oracle", options, swapped, seat, "s", seconds=600.0, worlds=3)
    assert one == two


def test_review_marks_a_random_player_s_decisions() -> None:
    """A seat that plays at random against the heuristic bot gets marks,
    each at one of its own decisions, the bot's move costing more than the
    default margin less than the one played."""

    options = {"players": 3, "rounds": 1}
    final, _ = play_game(load_game("oracle", **options), ["random", "heuristic", "heuristic"], 3)
    actions = final.record()["actions"]
    marks = hints.review_marks("oracle", options, actions, 0, seconds=600.0, worlds=3)
    assert marks
    for mark in marks:
        before = replay_record({"game": "oracle", "options": options, "actions": actions[: mark["index"]]})
        assert before.current_player() == 0
        assert actions[mark["index"]] == mark["played"] != mark["best"]
        assert mark["unit"] == "points" and mark["cost"] > 2.0
        assert set(mark["why"]) == {"en", "de"}  # worded once for either page
    # A random player's keep and plays lose prophecies and take Loser chips:
    # some marks say so, in both languages, and the two differ.
    worded = [m["why"] for m in marks if m["why"]["en"]]
    assert worded and all(why["de"] and why["de"] != why["en"] for why in worded)
    # Done in parts, as the server does, it marks the same decisions.
    indices = hints.review_plan("oracle", options, actions, 0)
    assert {m["index"] for m in marks} <= set(indices)
    half = len(indices) // 2
    parts = [
        hints.review_part("oracle", options, actions, 0, p, 600.0, 3)
        for p in (indices[:half], indices[half:])
    ]
    assert parts[0] + parts[1] == marks


class _SlowPool:
    """A stand-in for the bot pool that holds each call until released."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.calls = 0

    async def call(self, fn: Any, *args: Any) -> Any:
        self.calls += 1
        await self.release.wait()
        return fn(*args)


def test_one_hint_at_a_time_and_stale_after_a_move(tmp_path: Any) -> None:
    """A second request while the first is worked out is ``hint_busy``; a
    hint whose table moved on meanwhile is ``stale``, and not counted."""
    state = load_game("inrah", players=3, rounds=2).new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    texts = list(state.record()["actions"])
    seat = state.current_player()
    table = SimpleNamespace(
        id="t1", game_id="inrah", options=dict(state.game.options), state=state, texts=texts, finished=False
    )
    table.version = len(texts)

    async def scenario() -> None:
        engine = create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'h.sqlite3'}")
        async with engine.begin() as conn:
            await conn.run_sync(db.metadata.create_all)
        pool = _SlowPool()
        desk = hints.Hints(engine, pool)  # type: ignore[arg-type]
        await desk.enable("t1")
        first = asyncio.create_task(desk.ask(table, seat, table.version, "a"))  # type: ignore[arg-type]
        while pool.calls == 0:
            await asyncio.sleep(0.01)
        with pytest.raises(ProtocolError) as busy:
            await desk.ask(table, seat, table.version, "b")  # type: ignore[arg-type]
        assert busy.value.code == hints.HINT_BUSY
        table.version += 1  # someone moved while the hint was worked out
        pool.release.set()
        with pytest.raises(ProtocolError) as stale:
            await first
        assert stale.value.code == "stale"
        assert await desk.taken("t1", 3) == [0, 0, 0]
        await engine.dispose()

    asyncio.run(scenario())


def test_a_rematch_keeps_the_hints(start_server: Any) -> None:
    server = start_server()
    table = create(
        server, hints=True, seats=["human", "bot:random", "bot:random"], options={"players": 3, "rounds": 1}
    )

    async def scenario() -> None:
        async with Client(url(server, table, 0)) as client:
            await client.recv_type("state")
            await play_randomly(client, random.Random(2))

    asyncio.run(scenario())
    token = table["seats"][0]["token"]
    status, new, _ = http(server.base, "POST", f"/api/tables/{table['id']}/rematch?token={token}")
    assert status == 201
    status, summary, _ = http(server.base, "GET", f"/api/tables/{new['id']}")
    assert status == 200 and summary["hints"] == {"taken": [0, 0, 0]}


async def seat_to_act(server: ThreadServer, table: dict[str, Any]) -> tuple[int, int]:
    """The seat to act at a new three-seat table, and the table's version."""
    states = []
    for seat in range(3):
        async with Client(url(server, table, seat)) as client:
            states.append(await client.recv_type("state"))
    to_act = next(seat for seat, state in enumerate(states) if state["legal"])
    return to_act, int(states[to_act]["version"])


def test_hint_reasons_come_in_the_socket_s_language(start_server: Any) -> None:
    """A socket that asked for boards in German gets each move's ``why`` in
    German; another socket of the same seat, asking for no board, the same
    advice with its reasons in English."""
    server = start_server()
    table = create(server, hints=True)

    async def scenario() -> None:
        to_act, version = await seat_to_act(server, table)
        german = Client(url(server, table, to_act) + "&board=1", headers={"Accept-Language": "de"})
        english = Client(url(server, table, to_act))
        async with german, english:
            await german.recv_type("state")
            await english.recv_type("state")
            await german.send({"type": "hint", "version": version, "id": "de"})
            in_german = await german.recv_type("hint")
            await english.send({"type": "hint", "version": version, "id": "en"})
            in_english = await english.recv_type("hint")
        # Round 1 of Inrah opens with a bid: the best bid says how often it
        # is made.
        best_de, best_en = in_german["moves"][0]["why"], in_english["moves"][0]["why"]
        assert best_de.startswith("Erfüllt deine Ansage von ") and " der Annahmen" in best_de
        assert best_en.startswith("Makes your bid of ") and " of the games the bot played out" in best_en
        # Each move in words, in the socket's language ("Bid 1 trick").
        assert all(m["label"].endswith(" ansagen") for m in in_german["moves"]), in_german["moves"]
        assert all(m["label"].startswith("Bid ") for m in in_english["moves"]), in_english["moves"]
        words = ("why", "label")
        strip = [{k: v for k, v in m.items() if k not in words} for m in in_german["moves"]]
        assert strip == [{k: v for k, v in m.items() if k not in words} for m in in_english["moves"]]
        assert all(set(m) == {"action", "value", "margin", "why", "label"} for m in in_english["moves"])

    asyncio.run(scenario())


def test_altaia_hints_call_the_seats_by_their_names(start_server: Any) -> None:
    """An Altaïa oracle names a seat: the hint's words and reasons call it
    what the table page calls it (Ada, Bea, Cem), in the socket's language,
    not "Seat 2"."""
    server = start_server()
    table = create(
        server,
        hints=True,
        options={"players": 3, "rounds": 2, "variant": "altaia"},
        names=["Ada", "Bea", "Cem"],
    )

    async def scenario() -> None:
        to_act, version = await seat_to_act(server, table)
        german = Client(url(server, table, to_act) + "&board=1", headers={"Accept-Language": "de"})
        async with german:
            await german.recv_type("state")
            await german.send({"type": "hint", "version": version, "id": "de"})
            answer = await german.recv_type("hint")
        labels = [m["label"] for m in answer["moves"]]
        assert labels and all(label.startswith("Hesinde: ") for label in labels), labels
        assert all(any(name in label for name in ("Ada", "Bea", "Cem")) for label in labels), labels
        said = " ".join(m["why"] or "" for m in answer["moves"])
        assert "Platz" not in said and "Platz" not in " ".join(labels), (said, labels)

    asyncio.run(scenario())
