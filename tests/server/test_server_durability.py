"""Durability: ``oracles serve`` killed with SIGKILL at random moments and
started again on the same database loses no acknowledged move, leaves no
table stuck, and its bots carry on."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable
from typing import Any

from serverkit import Client, ProcessServer, http
from websockets.exceptions import ConnectionClosed, InvalidMessage, InvalidStatus, InvalidURI

from oracles.core.records import replay_record

KILLS = {"sqlite": 20, "postgresql": 20}
SEATS = ["human", "bot:heuristic", "bot:random", "bot:heuristic"]
OPTIONS = {"rounds": 2}
#: What a client meets when the server is killed under it (``InvalidMessage``:
#: killed during the handshake, before its answer).
DISCONNECTED = (ConnectionClosed, InvalidStatus, InvalidMessage, InvalidURI, OSError, TimeoutError, EOFError)


async def _get(server: ProcessServer, path: str) -> tuple[int, Any]:
    status, body, _ = await asyncio.to_thread(http, server.base, "GET", path)
    return status, body


async def _create(server: ProcessServer, game: str, seats: list[str]) -> dict[str, Any]:
    body = {"game": game, "options": OPTIONS, "seats": seats}
    for _ in range(100):
        try:
            status, table, _ = await asyncio.to_thread(http, server.base, "POST", "/api/tables", body)
            break
        except OSError:
            # The killer may SIGKILL the server mid-request (the test's own
            # race, not a lost move): nothing was acknowledged, so ask again
            # once it is back.
            await asyncio.sleep(0.2)
    else:
        raise AssertionError("the server did not come back to take the table")
    assert status == 201, table
    return table  # type: ignore[no-any-return]


def test_sigkill_and_restart(new_db: Callable[[], str], request: Any) -> None:
    backend = request.node.callspec.params["new_db"]
    kills_wanted = KILLS[backend]
    server = ProcessServer(new_db(), "--bot-pause", "0.03", "--bot-mode", "thread", "--grace", "600")
    rng = random.Random(f"durability-{backend}")
    server.start()
    tokens: list[str] = []
    try:
        asyncio.run(_drive(server, rng, kills_wanted, tokens))
        # A graceful stop (SIGTERM) ends cleanly (uvicorn re-raises the
        # signal once it has shut down), and no token was ever logged.
        assert server.stop() in (0, -15)
        log = server.output()
        assert '"event": "stopped"' in log
        assert tokens and not any(token in log for token in tokens)
    except BaseException:
        print(server.output()[-5000:])
        raise
    finally:
        server.close()


async def _drive(server: ProcessServer, rng: random.Random, kills_wanted: int, tokens: list[str]) -> None:
    # A table of bots alone, which must carry on by itself after every restart.
    bots_only = await _create(server, "oracle", ["bot:random"] * 4)
    acknowledged: dict[str, dict[int, str]] = {}  # table -> version -> the move acknowledged
    seen: dict[str, int] = {}  # table -> highest version a state showed
    kills = 0
    finished_tables: list[str] = []

    async def killer() -> None:
        nonlocal kills
        while kills < kills_wanted:
            await asyncio.sleep(rng.uniform(0.05, 0.6))
            server.kill()
            kills += 1
            await asyncio.to_thread(server.start)
            # Nothing acknowledged or shown is lost. (Taken before asking:
            # the player goes on meanwhile, on the new process.)
            known = {t: max([seen[t], *acknowledged[t]]) for t in list(seen)}
            for table_id, version in known.items():
                _, info = await _get(server, f"/api/tables/{table_id}")
                assert info["version"] >= version, (table_id, info["version"], version)

    killing = asyncio.create_task(killer())
    while not killing.done() or not finished_tables:
        table = await _create(server, "oracle", SEATS)
        tokens.append(table["seats"][0]["token"])
        acknowledged[table["id"]] = {}
        seen[table["id"]] = 0
        await _play(server, table, rng, acknowledged[table["id"]], seen)
        finished_tables.append(table["id"])
        if killing.done() and killing.exception() is not None:
            break
    await killing
    assert kills >= kills_wanted
    # Every game ends; the bots' game too; each record holds every acknowledged move.
    for table_id in [*finished_tables, bots_only["id"]]:
        deadline = time.monotonic() + 60
        while (await _get(server, f"/api/tables/{table_id}"))[1]["status"] != "finished":
            assert time.monotonic() < deadline, f"table {table_id} is stuck"
            await asyncio.sleep(0.1)
        status, record = await _get(server, f"/api/tables/{table_id}/record")
        assert status == 200
        assert replay_record(record).is_terminal()
        for version, text in acknowledged.get(table_id, {}).items():
            assert record["actions"][version - 1] == text, (table_id, version)


async def _play(
    server: ProcessServer,
    table: dict[str, Any],
    rng: random.Random,
    acked: dict[int, str],
    seen: dict[str, int],
) -> None:
    """Play seat 0 to the end through kills: reconnect, resend the pending move."""
    url = f"{server.ws_base}/ws/tables/{table['id']}?token={table['seats'][0]['token']}"
    pending: dict[str, Any] | None = None
    count = 0
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        client = Client(url)
        try:
            await client.connect()
            if pending is not None:
                await client.send(pending)
            while True:
                message = await client.recv(timeout=10)
                kind = message["type"]
                if kind == "state":
                    assert message["version"] >= seen[table["id"]], "a state went back in time"
                    seen[table["id"]] = message["version"]
                    if message["status"] == "finished":
                        return
                    if message["legal"] and pending is None:
                        await asyncio.sleep(rng.uniform(0, 0.05))
                        count += 1
                        pending = {
                            "type": "move",
                            "action": rng.choice(message["legal"]),
                            "version": message["version"],
                            "id": f"{table['id']}-{count}",
                        }
                        await client.send(pending)
                elif kind == "ack" and pending is not None and message["id"] == pending["id"]:
                    acked[message["version"]] = pending["action"]
                    pending = None
                elif kind == "error":
                    raise AssertionError(f"unexpected error {message} for {pending}")
        except DISCONNECTED:
            await asyncio.sleep(0.05)
        finally:
            with contextlib.suppress(Exception):
                await client.close()
    raise AssertionError(f"table {table['id']} did not finish")


def test_a_restart_keeps_the_move_clock_running(new_db: Callable[[], str]) -> None:
    """Regression: the clock of a person to move lived in memory, so a
    server restarted (or killed) mid-turn gave that person the whole clock
    again; it now counts on from the move before, as stored, also for a
    table that waited for its people and started later."""
    server = ProcessServer(new_db(), "--bot-pause", "0", "--bot-mode", "thread", "--log-level", "warning")
    server.start()
    try:
        body = {
            "game": "inrah",
            "options": OPTIONS,
            "seats": ["human", "bot:random", "bot:random"],
            "clock": 300,
        }
        waiting = {**body, "seats": ["human", "human", "bot:random"], "wait": True}
        status, table, _ = http(server.base, "POST", "/api/tables", body)
        assert status == 201, table
        status, later, _ = http(server.base, "POST", "/api/tables", waiting)
        assert status == 201, later

        async def clock_left(table_id: str, token: str) -> float:
            """The seconds left to the person to move, as a seat hears them."""
            async with Client(f"{server.ws_base}/ws/tables/{table_id}?token={token}") as client:
                state = await client.recv_type("state")
                while state.get("deadline") is None:
                    state = await client.recv_type("state")
                return float(state["deadline"]["left"])

        async def arrive(token: str) -> None:
            async with Client(f"{server.ws_base}/ws/tables/{later['id']}?token={token}") as client:
                await client.recv_type("state")

        first = asyncio.run(clock_left(table["id"], table["seats"][0]["token"]))
        assert 295 <= first <= 300
        time.sleep(4)  # the later table waits: its clock has not begun
        for seat in (0, 1):  # both people come: it starts
            asyncio.run(arrive(later["seats"][seat]["token"]))
        time.sleep(3)
        server.kill()
        server.start()
        after = asyncio.run(clock_left(table["id"], table["seats"][0]["token"]))
        assert after <= first - 3, (first, after)
        started = asyncio.run(clock_left(later["id"], later["seats"][0]["token"]))
        assert 290 <= started <= 297, started  # from its start, not its creation
    except BaseException:
        print(server.output()[-4000:])
        raise
    finally:
        server.close()


def test_a_choice_held_ahead_outlives_a_restart(new_db: Callable[[], str]) -> None:
    """Regression: a keep chosen ahead of the seat's turn was acknowledged
    as held, but kept in memory only: a restart (or the table let go from
    memory) lost it. It is stored before the ack, played when the turn
    comes after the restart, and gone from the database once played."""
    server = ProcessServer(new_db(), "--bot-pause", "0", "--grace", "600", "--log-level", "warning")
    server.start()
    try:
        body = {"game": "oracle", "options": {"rounds": 1, "players": 3}, "seats": ["human"] * 3}
        status, table, _ = http(server.base, "POST", "/api/tables", body)
        assert status == 201, table
        urls = [f"{server.ws_base}/ws/tables/{table['id']}?token={s['token']}" for s in table["seats"]]

        async def first_states() -> list[dict[str, Any]]:
            states = []
            for url in urls:
                async with Client(url) as client:
                    state = await client.recv_type("state")
                    while not (state["legal"] or state.get("ahead")):
                        state = await client.recv_type("state")
                    states.append(state)
            return states

        async def hold(seat: int, action: str, version: int) -> None:
            async with Client(urls[seat]) as client:
                await client.recv_type("state")
                await client.send({"type": "move", "action": action, "version": version, "id": "early"})
                while True:
                    reply = await client.recv()
                    if reply.get("id") == "early":
                        assert reply["type"] == "ack" and reply.get("held") is True, reply
                        return

        states = asyncio.run(first_states())
        last = max(range(3), key=lambda s: 0 if states[s]["legal"] else len(states[s]["ahead"]))
        assert not states[last]["legal"] and states[last]["ahead"]
        chosen = sorted(states[last]["ahead"])[-1]
        asyncio.run(hold(last, chosen, states[last]["version"]))
        server.kill()
        server.start()

        async def after_restart() -> dict[str, Any]:
            async with Client(urls[last]) as mine:
                state = await mine.recv_type("state")
                assert state.get("held") == chosen, state
            # The others keep in turn; the held choice is played when its turn comes.
            for _ in range(3):
                for seat in range(3):
                    if seat == last:
                        continue
                    async with Client(urls[seat]) as client:
                        state = await client.recv_type("state")
                        if state["legal"] and all(m.startswith("keep ") for m in state["legal"]):
                            move = {"type": "move", "action": state["legal"][0], "version": state["version"]}
                            await client.send({**move, "id": f"k{seat}"})
                            while (await client.recv()).get("id") != f"k{seat}":
                                pass
            async with Client(urls[last]) as mine:
                state = await mine.recv_type("state")
                while state["view"]["phase"] == "keep":
                    state = await mine.recv_type("state")
                return state

        final = asyncio.run(after_restart())
        assert [o["id"] for o in final["view"]["kept"]] == [c.upper() for c in chosen.split()[1:]]
        assert "held" not in final
    except BaseException:
        print(server.output()[-4000:])
        raise
    finally:
        server.close()
