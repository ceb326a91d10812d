"""The JSON API and the WebSocket protocol of ``docs/server.md``, through a real
listening server and a WebSocket client, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import pytest
from serverkit import Client, ThreadServer, http, play_randomly
from websockets.exceptions import ConnectionClosed, InvalidStatus

from oracles.core.records import replay_record

#: Small games, so that whole games stay quick.
GAMES: dict[str, tuple[dict[str, Any], list[str]]] = {
    "oracle": ({"rounds": 1}, ["human", "bot:heuristic", "bot:random", "bot:heuristic"]),
    "inrah": ({"rounds": 2}, ["human", "bot:heuristic", "bot:random", "bot:heuristic"]),
    "codename": ({"max_turns": 30}, ["human", "bot:heuristic"]),
}


def create(
    server: ThreadServer, game: str, options: dict[str, Any], seats: list[str], **more: Any
) -> dict[str, Any]:
    status, body, _ = http(
        server.base, "POST", "/api/tables", {"game": game, "options": options, "seats": seats, **more}
    )
    assert status == 201, body
    return body  # type: ignore[no-any-return]


def seat_url(server: ThreadServer, table: dict[str, Any], seat: int) -> str:
    return f"{server.ws_base}/ws/tables/{table['id']}?token={table['seats'][seat]['token']}"


def watch_url(server: ThreadServer, table: dict[str, Any]) -> str:
    return f"{server.ws_base}/ws/tables/{table['id']}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_whole_game_with_bots(start_server: Any, game: str) -> None:
    server = start_server()
    options, seats = GAMES[game]
    table = create(server, game, options, seats)
    assert [s["kind"] for s in table["seats"]] == [s.split(":")[0] for s in seats]
    assert "token" not in table["seats"][1]
    status, body, _ = http(server.base, "GET", f"/api/tables/{table['id']}/record")
    assert status == 409 and "error" in body

    async def scenario() -> dict[str, Any]:
        async with Client(seat_url(server, table, 0)) as client:
            first = await client.recv_type("state")
            assert first["seat"] == 0 and first["version"] >= 0
            return await play_randomly(client, random.Random(game))

    final = asyncio.run(scenario())
    status, info, _ = http(server.base, "GET", f"/api/tables/{table['id']}")
    assert status == 200
    assert info["status"] == "finished" and info["version"] == final["version"]
    assert info["game"] == game and [s["seat"] for s in info["seats"]] == list(range(len(seats)))
    status, record, _ = http(server.base, "GET", f"/api/tables/{table['id']}/record")
    assert status == 200 and record["game"] == game
    assert len(record["actions"]) == final["version"]
    state = replay_record(record)
    assert state.is_terminal()
    assert state.view(0) == final["view"]


def test_finished_tables_leave_memory(start_server: Any) -> None:
    """A finished table nobody watches is dropped from the server's memory
    (``/healthz`` counts the tables held) and loads again on demand; the
    hint desk forgets it too."""
    server = start_server()
    table = create(server, "oracle", {"rounds": 1}, ["bot:random"] * 4, hints=True)
    deadline = time.monotonic() + 60
    while True:
        status, info, _ = http(server.base, "GET", f"/api/tables/{table['id']}")
        if info["status"] == "finished" or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert info["status"] == "finished"
    _, health, _ = http(server.base, "GET", "/healthz")
    assert health["tables"] == 0
    # Asked for again, it is loaded from the database whole.
    status, record, _ = http(server.base, "GET", f"/api/tables/{table['id']}/record")
    assert status == 200 and replay_record(record).is_terminal()
    _, health, _ = http(server.base, "GET", "/healthz")
    assert health["tables"] == 0  # loaded for the request only
    assert table["id"] not in server.app.state.hints._tables

    async def watch() -> dict[str, Any]:
        async with Client(watch_url(server, table)) as client:
            state = await client.recv_type("state")
            _, during, _ = http(server.base, "GET", "/healthz")
            assert during["tables"] == 1  # held while someone watches
            return state

    assert asyncio.run(watch())["version"] == info["version"]


def test_a_held_table_is_not_let_go(tmp_path: Any) -> None:
    """Regression: a socket found its table, then awaited (its seat's
    claim) while a move elsewhere let the idle runtime go from memory; the
    next socket loaded a second runtime, and the two played apart (the
    game stalled). A held table stays, and a runtime let go never plays."""
    from oracles.server.app import create_app
    from oracles.server.config import Settings, database_url
    from oracles.server.hub import SeatSpec

    settings = Settings(db_url=database_url(str(tmp_path / "db.sqlite3")), bot_pause=0.0, bot_mode="thread")
    app = create_app(settings)
    hub = app.state.hub

    async def scenario() -> tuple[bool, bool, bool, int]:
        async with app.router.lifespan_context(app):
            return await steps()

    async def steps() -> tuple[bool, bool, bool, int]:
        humans = [SeatSpec("human", None, f"P{i}") for i in range(3)]
        created, _ = await hub.create("oracle", {"rounds": 1}, humans)
        runtime = await hub.get(created.id)  # (creation let the idle table go)
        assert runtime is not None and runtime.idle  # a person to move, nobody there
        async with hub.hold(runtime.id) as held:
            assert held is runtime
            hub.release(runtime)
            kept = hub.tables.get(runtime.id) is runtime
        let_go = runtime.id not in hub.tables  # the hold's end lets it go
        again = await hub.get(runtime.id)
        assert again is not None and again is not runtime
        runtime.seats[runtime.state.current_player()].standin = True
        runtime.schedule()
        return kept, let_go, runtime.bot_task is None, again.version

    kept, let_go, idle_old, version = asyncio.run(scenario())
    assert kept and let_go and idle_old and version > 0


def test_api_errors(start_server: Any) -> None:
    server = start_server()
    bad = [
        {"game": "chess", "seats": ["human"]},
        {"game": "oracle", "options": {"players": 9}, "seats": ["human"] * 9},
        {"game": "oracle", "seats": ["human", "human"]},
        {"game": "oracle", "seats": ["human", "bot:nobot", "human", "human"]},
        {"game": "oracle", "seats": ["human", "bot:heuristic:depth=3", "human", "human"]},
        {"game": "oracle", "seats": ["human", "robot", "human", "human"]},
        {"game": "oracle", "seats": "human"},
        {"game": "oracle", "options": [], "seats": ["human"] * 4},
        {"game": "oracle", "seats": ["human"] * 4, "clock": 0},
        [],
    ]
    for body in bad:
        status, answer, _ = http(server.base, "POST", "/api/tables", body)
        assert status == 422, (body, answer)
        assert isinstance(answer["error"], str) and answer["error"]
    status, answer, _ = http(server.base, "POST", "/api/tables", b"{not json")
    assert status == 422 and "JSON" in answer["error"]
    assert http(server.base, "GET", "/api/tables/nosuchtable")[0] == 404
    assert http(server.base, "GET", "/api/tables/nosuchtable/record")[0] == 404
    status, health, _ = http(server.base, "GET", "/healthz")
    assert status == 200 and health["ok"] is True


def test_lobby_page_and_headers(start_server: Any) -> None:
    server = start_server()
    table = create(
        server,
        "inrah",
        {"rounds": 1},
        ["human", "human", "bot:random", "bot:random"],
        names=["Ann", "Bo", None, None],
    )
    status, lobby, _ = http(server.base, "GET", "/api/tables")
    assert status == 200
    assert [t["id"] for t in lobby["tables"]] == [table["id"]]
    text = json.dumps(lobby)
    for seat in table["seats"][:2]:
        assert seat["token"] not in text
    assert [s["name"] for s in lobby["tables"][0]["seats"]][:2] == ["Ann", "Bo"]
    status, page, headers = http(server.base, "GET", table["seats"][0]["url"])
    assert status == 200 and "data-version" in page
    assert {k.lower(): v for k, v in headers.items()}["referrer-policy"] == "no-referrer"


def test_bad_moves(start_server: Any) -> None:
    """Stale, illegal, out-of-turn and malformed messages change nothing and
    get one error each; a stale move is followed by a fresh state."""
    server = start_server()
    table = create(server, "inrah", {"rounds": 2}, ["human", "human", "human"])

    async def scenario() -> None:
        clients = [Client(seat_url(server, table, seat)) for seat in range(3)]
        for client in clients:
            await client.connect()
            await client.recv_type("state")
        state = clients[0].state
        assert state is not None
        to_act = state["view"]["to_act"]
        mover, idle = clients[to_act], clients[(to_act + 1) % 3]
        version = mover.state["version"]  # type: ignore[index]
        legal = mover.state["legal"]  # type: ignore[index]
        assert legal and idle.state["legal"] == []  # type: ignore[index]

        async def expect_error(client: Client, message: Any, code: str) -> dict[str, Any]:
            await client.send(message)
            error = await client.recv_type("error")
            assert error["code"] == code, error
            assert isinstance(error["message"], str) and error["message"]
            return error

        await expect_error(
            idle, {"type": "move", "action": "bid 0", "version": version, "id": "x1"}, "not_your_turn"
        )
        await expect_error(
            mover, {"type": "move", "action": "bid 9", "version": version, "id": "x2"}, "illegal"
        )
        await expect_error(
            mover, {"type": "move", "action": "fly away", "version": version, "id": "x3"}, "illegal"
        )
        await expect_error(
            mover, {"type": "move", "action": legal[0], "version": version - 1, "id": "x4"}, "stale"
        )
        fresh = await mover.recv_type("state")
        assert fresh["version"] == version and fresh["legal"] == legal
        for bad in [
            "not json",
            "[1, 2]",
            {"type": "move"},
            {"type": "move", "action": legal[0], "version": "7"},
            {"type": "move", "action": legal[0], "version": True},
            {"type": "move", "action": "", "version": version},
            {"type": "move", "action": legal[0], "version": version, "id": 5},
            {"type": "dance"},
            {"kind": "move"},
            b"\x00\x01binary",
        ]:
            await expect_error(mover, bad, "bad_message")
        _, info, _ = http(server.base, "GET", f"/api/tables/{table['id']}")
        assert info["version"] == version
        # And a good move still goes through.
        await mover.send({"type": "move", "action": legal[0], "version": version, "id": "ok"})
        ack = await mover.recv_type("ack")
        assert ack == {"type": "ack", "id": "ok", "version": version + 1}
        for client in clients:
            await client.state_at_least(version + 1)
            await client.close()

    asyncio.run(scenario())


def test_oversize_origin_and_token(start_server: Any) -> None:
    server = start_server(allowed_origins=("https://friend.example",))
    table = create(server, "codename", {}, ["human", "human"])

    async def scenario() -> None:
        async with Client(seat_url(server, table, 0)) as client:
            await client.recv_type("state")
            await client.send("x" * (64 * 1024 + 1))
            with pytest.raises(ConnectionClosed) as closed:
                for _ in range(10):
                    await client.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        for url, origin in [
            (seat_url(server, table, 0), "https://evil.example"),
            (watch_url(server, table), "http://localhost:1"),
            # The server's own host and port under another scheme is another origin.
            (seat_url(server, table, 0), server.base.replace("http://", "https://")),
            (seat_url(server, table, 0)[:-4] + "AAAA", None),
            (f"{server.ws_base}/ws/tables/{table['id']}?token=", None),
            (f"{server.ws_base}/ws/tables/nosuchtable", None),
        ]:
            with pytest.raises(InvalidStatus) as refused:
                await Client(url, origin=origin).connect()
            assert refused.value.response.status_code == 403
        for origin in (server.base, "https://friend.example"):
            async with Client(seat_url(server, table, 1), origin=origin) as client:
                assert (await client.recv_type("state"))["seat"] == 1

    asyncio.run(scenario())


def test_resent_move_and_reconnect(start_server: Any) -> None:
    """A resent move id is answered once and applied once; a client that
    reconnects mid-game gets the current state at once."""
    server = start_server()
    table = create(server, "oracle", {"rounds": 1}, ["human", "bot:random", "bot:random", "bot:random"])

    async def scenario() -> None:
        client = Client(seat_url(server, table, 0))
        await client.connect()
        while True:
            state = await client.recv_type("state")
            if state["legal"]:
                break
        move = {"type": "move", "action": state["legal"][0], "version": state["version"], "id": "resend-1"}
        await client.send(move)
        ack = await client.recv_type("ack")
        assert ack["version"] == state["version"] + 1 and "duplicate" not in ack
        # The connection drops before the client saw anything else.
        await client.close()
        await client.connect()
        fresh = await client.recv_type("state")
        assert fresh["version"] >= state["version"] + 1
        await client.send(move)
        again = await client.recv_type("ack")
        assert again == {"type": "ack", "id": "resend-1", "version": state["version"] + 1, "duplicate": True}
        await client.send({"type": "hello", "version": fresh["version"]})
        await client.recv_type("state")
        await client.drain(0.2)
        acks = [m for m in client.received if m.get("id") == "resend-1"]
        assert len(acks) == 2  # one per send, never more
        await play_randomly(client, random.Random(1), tag="r")
        await client.close()
        status, record, _ = http(server.base, "GET", f"/api/tables/{table['id']}/record")
        assert status == 200
        replay_record(record)

    asyncio.run(scenario())


def test_rate_limit(start_server: Any) -> None:
    server = start_server(rate=5.0, burst=5)
    table = create(server, "codename", {}, ["human", "bot:random"])

    async def scenario() -> None:
        async with Client(seat_url(server, table, 0)) as client:
            await client.recv_type("state")
            for _ in range(8):  # a burst of 5 allowed, then errors
                await client.send({"type": "ping"})
            await client.drain(0.3)
            assert [m["type"] for m in client.received].count("pong") == 5
            errors = [m for m in client.received if m.get("type") == "error" and "slow down" in m["message"]]
            assert len(errors) == 3 and errors[0]["code"] == "bad_message"
            for _ in range(20):  # a flood closes the connection
                await client.send({"type": "ping"})
            with pytest.raises(ConnectionClosed) as closed:
                for _ in range(40):
                    await client.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008

    asyncio.run(scenario())


def test_chat_names_and_rematch(start_server: Any) -> None:
    server = start_server()
    table = create(server, "codename", {"max_turns": 4}, ["human", "bot:random"])

    async def scenario() -> None:
        async with Client(seat_url(server, table, 0)) as client:
            await client.recv_type("state")
            await client.send({"type": "name", "name": "  Ann  <b> "})
            while (await client.recv_type("seats"))["seats"][0]["name"] != "Ann <b>":
                pass
            await client.send({"type": "chat", "text": "<script>hi</script>"})
            line = await client.recv_type("chat")
            assert line["text"] == "&lt;script&gt;hi&lt;/script&gt;" and line["seat"] == 0
            assert line["name"] == "Ann &lt;b&gt;"
            await client.send({"type": "chat", "text": "x" * 501})
            assert (await client.recv_type("error"))["code"] == "bad_message"
            await play_randomly(client, random.Random(3))
            status, again, _ = http(server.base, "POST", f"/api/tables/{table['id']}/rematch?token=bad")
            assert status == 403
            token = table["seats"][0]["token"]
            status, again, _ = http(server.base, "POST", f"/api/tables/{table['id']}/rematch?token={token}")
            assert status == 201, again
            note = await client.recv_type("rematch")
            assert note["id"] == again["id"]
        status, same, _ = http(server.base, "POST", f"/api/tables/{table['id']}/rematch?token={token}")
        assert same["id"] == again["id"]
        _, old, _ = http(server.base, "GET", f"/api/tables/{table['id']}/record")
        first_old = next(a for a in old["actions"] if a.startswith("first"))
        async with Client(f"{server.ws_base}/ws/tables/{again['id']}?token={token}") as client:
            state = await client.recv_type("state")
            assert state["seat"] == 0
            while not state["legal"]:
                state = await client.recv_type("state")
            await client.send({"type": "move", "action": state["legal"][0], "version": state["version"]})
            await client.state_at_least(5)  # both codes chosen, then the shuffles and who starts
        _, info, _ = http(server.base, "GET", f"/api/tables/{again['id']}")
        assert info["seats"][0]["name"] == "Ann <b>"
        # The rematch's starting seat is the next one.
        starting = int(first_old.split()[1])
        runtime = server.app.state.hub.tables.get(again["id"])
        if runtime is not None:
            texts = runtime.texts
        else:  # the short game is already over, and let go from memory
            texts = http(server.base, "GET", f"/api/tables/{again['id']}/record")[1]["actions"]
        first_new = next(t for t in texts if t.startswith("first"))
        assert int(first_new.split()[1]) == (starting + 1) % 2

    asyncio.run(scenario())


def test_absent_player_and_clock(start_server: Any) -> None:
    """After the grace period a stand-in bot plays an absent person's seat;
    the person takes it back on return. The per-move clock hands one move
    to the stand-in."""
    server = start_server(grace=0.3)
    table = create(server, "inrah", {"rounds": 3}, ["human", "bot:random", "bot:random"])

    async def scenario() -> None:
        client = Client(seat_url(server, table, 0))
        await client.connect()
        state = await client.recv_type("state")
        await client.close()
        await asyncio.sleep(1.0)
        _, info, _ = http(server.base, "GET", f"/api/tables/{table['id']}")
        assert info["version"] > state["version"]
        await client.connect()
        back = await client.recv_type("state")
        _, info, _ = http(server.base, "GET", f"/api/tables/{table['id']}")
        assert info["seats"][0]["connected"] is True and "standin" not in info["seats"][0]
        if back["status"] == "playing":
            while not client.state["legal"]:  # type: ignore[index]
                await client.recv_type("state")
            waiting = client.state["version"]  # type: ignore[index]
            await asyncio.sleep(0.6)
            _, info, _ = http(server.base, "GET", f"/api/tables/{table['id']}")
            assert info["version"] == waiting  # the person has the seat back
        await client.close()

        clocked = create(server, "inrah", {"rounds": 2}, ["human", "bot:random", "bot:random"], clock=1)
        async with Client(seat_url(server, clocked, 0)) as slow:
            while not (await slow.recv_type("state"))["legal"]:
                pass
            version = slow.state["version"]  # type: ignore[index]
            moved = await slow.state_at_least(version + 1, timeout=5)
            assert moved["version"] > version

    asyncio.run(scenario())


def test_the_others_are_told_how_long_until_a_stand_in_plays(start_server: Any) -> None:
    """While a person who left has their grace, the seats say how many
    seconds remain (``standin_in``), to the socket of another person and in
    the table's summary; once the stand-in plays, it says ``standin``, and
    a seat that never left says neither."""
    server = start_server(grace=3)
    table = create(server, "oracle", {"rounds": 1, "players": 3}, ["human", "human", "bot:random"])

    async def scenario() -> None:
        async with Client(seat_url(server, table, 1)) as other:
            await other.recv_type("state")
            leaver = Client(seat_url(server, table, 0))
            await leaver.connect()
            await leaver.recv_type("state")
            await leaver.close()
            while True:
                seats = (await other.recv_type("seats"))["seats"]
                if "standin_in" in seats[0]:
                    break
            assert 1 <= seats[0]["standin_in"] <= 3 and seats[0]["connected"] is False
            assert "standin_in" not in seats[1] and "standin_in" not in seats[2]
            _, info, _ = http(server.base, "GET", f"/api/tables/{table['id']}")
            assert 0 <= info["seats"][0]["standin_in"] <= 3
            while True:
                seats = (await other.recv_type("seats", timeout=10))["seats"]
                if seats[0].get("standin"):
                    break
            assert "standin_in" not in seats[0]

    asyncio.run(scenario())


def test_process_pool_bots(start_server: Any) -> None:
    """The default: bots think in a process pool."""
    server = start_server(bot_mode="process")
    table = create(
        server, "inrah", {"rounds": 2}, ["bot:heuristic", "bot:random", "bot:ismcts:iterations=20"]
    )
    deadline = time.monotonic() + 60
    while http(server.base, "GET", f"/api/tables/{table['id']}")[1]["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    status, record, _ = http(server.base, "GET", f"/api/tables/{table['id']}/record")
    assert status == 200 and replay_record(record).is_terminal()


def test_spectator(start_server: Any) -> None:
    """A spectator gets the public view (seat null, nothing legal) and may not move."""
    server = start_server()
    table = create(server, "oracle", {"rounds": 1}, ["human", "bot:random", "bot:random", "bot:random"])

    async def scenario() -> None:
        async with Client(watch_url(server, table)) as watcher:
            state = await watcher.recv()
            assert state["type"] == "state", state
            assert state["seat"] is None and state["legal"] == []
            assert state["view"]["seat"] is None
            await watcher.send({"type": "move", "action": "play R1", "version": state["version"], "id": "w"})
            error = await watcher.recv_type("error")
            assert error["code"] == "not_your_turn"

    asyncio.run(scenario())


def test_an_illegal_move_is_explained_in_the_pages_language(start_server: Any) -> None:
    """A page's socket (``board=1``) hears why its move is refused in the
    page's language, said to its player; any other client hears the rules'
    English line, which names the seat."""
    server = start_server()
    table = create(server, "inrah", {"rounds": 2}, ["human", "human", "human"])

    async def scenario() -> None:
        plain = Client(seat_url(server, table, 0))
        await plain.connect()
        state = await plain.recv_type("state")
        to_act = state["view"]["to_act"]
        url = seat_url(server, table, to_act)
        german = Client(url + "&board=1", headers={"Accept-Language": "de-DE,de;q=0.9"})
        english = Client(url)
        for client in (german, english):
            await client.connect()
            await client.recv_type("state")
        move = {"type": "move", "action": "bid 2", "version": state["version"]}
        await german.send({**move, "id": "g"})
        said = await german.recv_type("error")
        assert said["message"] == "'bid 2': in Runde 1 darfst du höchstens 1 ansagen", said
        await english.send({**move, "id": "e"})
        said = await english.recv_type("error")
        assert said["message"] == "'bid 2': bid 2 is more than the 1 trick of round 1", said
        for client in (plain, german, english):
            await client.close()

    asyncio.run(scenario())
