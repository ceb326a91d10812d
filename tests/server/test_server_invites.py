"""Invites that last (docs/server.md, "Invites and the waiting room"):
``POST /api/tables/<id>/join`` claims an unclaimed human seat through the
database, so that a claim survives a SIGKILL and a restart and is decided
once across every process sharing a PostgreSQL database; private tables
stay out of the lobby; a waiting table starts when its seats are held or
its creator starts it."""

from __future__ import annotations

import asyncio
import contextlib
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from serverkit import Client, PostgresCluster, ProcessServer, http, postgres_bin
from websockets.exceptions import InvalidStatus

SERVE = ("--bot-pause", "0.02", "--bot-mode", "thread", "--grace", "600", "--log-level", "warning")
#: Two people and two bots, one short round.
SEATS = ["human", "human", "bot:random", "bot:random"]


def create(base: str, **extra: Any) -> dict[str, Any]:
    body = {"game": "oracle", "options": {"rounds": 1}, "seats": SEATS, **extra}
    status, table, _ = http(base, "POST", "/api/tables", body)
    assert status == 201, table
    return table  # type: ignore[no-any-return]


def join(base: str, table_id: str, seat: Any, name: Any = None) -> tuple[int, Any]:
    body = {"seat": seat} if name is None else {"seat": seat, "name": name}
    status, answer, _ = http(base, "POST", f"/api/tables/{table_id}/join", body)
    return status, answer


def ws(server: Any, table_id: str, token: str | None) -> str:
    query = "" if token is None else f"?token={token}"
    return f"{server.ws_base}/ws/tables/{table_id}{query}"


def test_join_after_sigkill_and_restart(new_db: Callable[[], str]) -> None:
    server = ProcessServer(new_db(), *SERVE)
    server.start()
    try:
        table = create(server.base, wait=True)
        tid = table["id"]
        first = table["seats"][0]["token"]

        async def arrive() -> None:
            # The creator's seat is held once its token comes.
            async with Client(ws(server, tid, first)) as client:
                state = await client.recv_type("state")
                assert state["seat"] == 0 and state.get("waiting") is True and state["legal"] == []

        asyncio.run(arrive())
        server.kill()
        server.start()
        assert http(server.base, "GET", f"/api/tables/{tid}")[1]["waiting"] is True
        status, claim = join(server.base, tid, 1, "Bob")
        assert status == 200, claim
        assert claim["seat"] == 1 and claim["url"] == f"/t/{tid}?token={claim['token']}"
        assert claim["token"] != table["seats"][1]["token"]
        # Held seats answer 409: the one just claimed, the creator's, a bot's.
        assert join(server.base, tid, 1, "Eve")[0] == 409
        assert join(server.base, tid, 0)[0] == 409
        assert join(server.base, tid, 2)[0] == 409
        # Every seat is held: the table has started; the names are stored.
        info = http(server.base, "GET", f"/api/tables/{tid}")[1]
        assert "waiting" not in info and info["seats"][1]["name"] == "Bob"
        assert not any(s.get("open") for s in info["seats"])
        server.kill()
        server.start()
        # The claimed token is the seat's, after another restart too; the
        # create answer's token of that seat is no longer anyone's.
        assert join(server.base, tid, 1)[0] == 409

        async def play() -> None:
            async with Client(ws(server, tid, claim["token"])) as client:
                state = await client.recv_type("state")
                assert state["seat"] == 1 and "waiting" not in state
            refused = Client(ws(server, tid, table["seats"][1]["token"]))
            with pytest.raises(InvalidStatus):  # the handshake is refused
                async with refused:
                    await refused.recv()

        asyncio.run(play())
        assert claim["token"] not in server.output() and first not in server.output()
    except BaseException:
        print(server.output()[-4000:])
        raise
    finally:
        server.close()


def test_join_errors_and_private_tables(start_server: Any) -> None:
    server = start_server()
    public = create(server.base)
    private = create(server.base, listed=False)
    listed = [t["id"] for t in http(server.base, "GET", "/api/tables")[1]["tables"]]
    assert public["id"] in listed and private["id"] not in listed
    # Reached by its links: its API, its page and its invites.
    assert http(server.base, "GET", f"/api/tables/{private['id']}")[1]["listed"] is False
    assert "/t/" + private["id"] not in http(server.base, "GET", "/")[1]
    assert join(server.base, private["id"], 1)[0] == 200
    assert (
        http(server.base, "POST", "/api/tables", {"game": "oracle", "seats": SEATS, "listed": "no"})[0] == 422
    )
    assert http(server.base, "POST", "/api/tables", {"game": "oracle", "seats": SEATS, "wait": 1})[0] == 422
    tid = public["id"]
    assert join(server.base, "nosuchtable", 1)[0] == 404
    assert join(server.base, tid, 9)[0] == 422
    assert join(server.base, tid, "1")[0] == 422
    assert join(server.base, tid, True)[0] == 422
    assert join(server.base, tid, 1, "x" * 41)[0] == 422
    assert join(server.base, tid, 1, "bad\x00name")[0] == 422
    assert join(server.base, tid, 1, 5)[0] == 422
    assert join(server.base, tid, 1, "   ")[0] == 422
    assert http(server.base, "POST", f"/api/tables/{tid}/join", b"[1]")[0] == 422
    assert http(server.base, "POST", f"/api/tables/{tid}/join", b"{")[0] == 422
    # None of these claimed the seat.
    assert join(server.base, tid, 1, "Ann")[0] == 200


def test_waiting_room_and_start(start_server: Any) -> None:
    server = start_server(grace=0.2)
    table = create(server.base, wait=True)
    tid = table["id"]
    creator, other = table["seats"][0]["token"], table["seats"][1]["token"]

    async def scenario() -> None:
        async with Client(ws(server, tid, creator)) as client:
            state = await client.recv_type("state")
            assert state["waiting"] is True and state["legal"] == []
            # Nobody moves while the table waits, and no stand-in comes.
            await client.send({"type": "move", "action": "pass", "version": state["version"], "id": "w1"})
            error = await client.recv_type("error")
            assert error["code"] == "not_your_turn"
            await asyncio.sleep(0.5)
            info = http(server.base, "GET", f"/api/tables/{tid}")[1]
            assert info["waiting"] is True and info["version"] == state["version"]
            assert not any(s.get("standin") for s in info["seats"])
            # Only the creator starts it.
            assert http(server.base, "POST", f"/api/tables/{tid}/start?token={other}")[0] == 403
            assert http(server.base, "POST", f"/api/tables/{tid}/start")[0] == 403
            status, started, _ = http(server.base, "POST", f"/api/tables/{tid}/start?token={creator}")
            assert status == 200 and "waiting" not in started
            assert started["seats"][1]["kind"] == "bot"
            await client.recv_type("started")
            # A bot took the empty seat: it can no longer be claimed.
            assert join(server.base, tid, 1)[0] == 409
            # Starting again changes nothing.
            assert http(server.base, "POST", f"/api/tables/{tid}/start?token={creator}")[0] == 200
            while True:
                state = await client.recv_type("state")
                if state["legal"]:
                    break

    asyncio.run(scenario())


def test_start_seats_the_bot_it_names(start_server: Any) -> None:
    """The start may name the bot for the empty seats (the page sends the
    lobby's default level): a bad spec is refused with its reason and the
    table waits on; without one the stand-in's spec sits down."""
    server = start_server()
    tid, creator = (t := create(server.base, wait=True))["id"], t["seats"][0]["token"]
    path = f"/api/tables/{tid}/start?token={creator}"
    status, error, _ = http(server.base, "POST", path, {"bot": "no-such-bot"})
    assert status == 422 and "no-such-bot" in error["error"], error
    status, error, _ = http(server.base, "POST", path, {"bot": "heuristic", "seat": 1})
    assert status == 422 and "seat" in error["error"], error
    assert http(server.base, "GET", f"/api/tables/{tid}")[1]["waiting"] is True
    status, started, _ = http(server.base, "POST", path, {"bot": "heuristic:noise=0.5"})
    assert status == 200, started
    assert started["seats"][1]["kind"] == "bot" and started["seats"][1]["bot"] == "heuristic:noise=0.5"
    plain = create(server.base, wait=True)
    status, started, _ = http(
        server.base, "POST", f"/api/tables/{plain['id']}/start?token={plain['seats'][0]['token']}"
    )
    assert status == 200 and started["seats"][1]["bot"] == "heuristic"


def test_names_are_escaped(start_server: Any) -> None:
    server = start_server()
    table = create(server.base, wait=True)
    tid = table["id"]
    status, claim = join(server.base, tid, 1, "<b>Bob</b> & co")
    assert status == 200
    assert http(server.base, "GET", f"/api/tables/{tid}")[1]["seats"][1]["name"] == "<b>Bob</b> & co"

    async def chat() -> None:
        async with Client(ws(server, tid, claim["token"])) as client:
            await client.recv_type("state")
            await client.send({"type": "chat", "text": "hi"})
            line = await client.recv_type("chat")
            assert line["name"] == "&lt;b&gt;Bob&lt;/b&gt; &amp; co" and line["seat"] == 1

    asyncio.run(chat())
    page = http(server.base, "GET", f"/t/{tid}")[1]
    assert "<b>Bob</b>" not in page


# ---------------------------------------------------------------- PostgreSQL
@pytest.fixture
def pair(pg_cluster: PostgresCluster | None) -> Iterator[tuple[ProcessServer, ProcessServer]]:
    if pg_cluster is None:
        pytest.skip("PostgreSQL binaries not installed")
    db = pg_cluster.new_database()
    first = ProcessServer(db, *SERVE)
    first.start()  # migrates once, before the second starts
    second = ProcessServer(db, *SERVE)
    second.start()
    try:
        yield first, second
    finally:
        for server in (first, second):
            with contextlib.suppress(Exception):
                server.close()


@pytest.mark.skipif(postgres_bin() is None, reason="PostgreSQL binaries not installed")
def test_two_processes_share_the_invites(pair: tuple[ProcessServer, ProcessServer]) -> None:
    a, b = pair
    table = create(a.base, wait=True)
    tid = table["id"]
    creator = table["seats"][0]["token"]

    async def scenario() -> None:
        async with Client(ws(a, tid, creator)) as host:
            assert (await host.recv_type("state"))["waiting"] is True
            # The same seat claimed through both processes at once: one wins.
            answers = await asyncio.gather(
                asyncio.to_thread(join, a.base, tid, 1, "Ann"), asyncio.to_thread(join, b.base, tid, 1, "Bea")
            )
            assert sorted(status for status, _ in answers) == [200, 409], answers
            winner = next(answer for status, answer in answers if status == 200)
            # The table started on the process that did not take the claim too.
            await host.recv_type("started")
            # The new token works on either process.
            for server in (a, b):
                async with Client(ws(server, tid, winner["token"])) as guest:
                    state = await guest.recv_type("state")
                    assert state["seat"] == 1 and "waiting" not in state
            info = http(b.base, "GET", f"/api/tables/{tid}")[1]
            assert info["seats"][1]["name"] in ("Ann", "Bea") and "waiting" not in info

    try:
        asyncio.run(scenario())
        for server in pair:
            assert winner_free(server.output()), server.output()[-3000:]
    except BaseException:
        print(a.output()[-3000:], b.output()[-3000:])
        raise


def winner_free(output: str) -> bool:
    """No error and no token in a server's log."""
    return '"level": "error"' not in output and "Traceback" not in output


# ------------------------------------------------------ rematch, stand-ins
async def play_to_end(client: Client, tag: str) -> dict[str, Any]:
    """Play the first legal move each turn until the game is over."""
    count = 0
    while True:
        state = client.state or await client.recv_type("state")
        if state["status"] == "finished":
            return state
        if state["legal"]:
            count += 1
            await client.send(
                {
                    "type": "move",
                    "action": state["legal"][0],
                    "version": state["version"],
                    "id": f"{tag}{count}",
                }
            )
            await client.state_at_least(state["version"] + 1)
        else:
            await client.recv_type("state")


def test_rematch_wants_both_people(start_server: Any) -> None:
    server = start_server()
    body = {"game": "codename", "options": {"max_turns": 2}, "seats": ["human", "human"], "wait": True}
    status, table, _ = http(server.base, "POST", "/api/tables", body)
    assert status == 201
    tid = table["id"]
    ann, bob = (s["token"] for s in table["seats"])

    async def scenario() -> None:
        async with Client(ws(server, tid, ann)) as first, Client(ws(server, tid, bob)) as second:
            await first.recv_type("state")
            await second.recv_type("state")
            await asyncio.gather(play_to_end(first, "a"), play_to_end(second, "b"))
            status, again, _ = http(server.base, "POST", f"/api/tables/{tid}/rematch?token={ann}")
            assert status == 201
            # Bob sees that Ann wants a rematch; the new table waits for him.
            note = await second.recv_type("rematch")
            assert note["id"] == again["id"] and note["wants"] == [0]
            info = http(server.base, "GET", f"/api/tables/{again['id']}")[1]
            assert info["waiting"] is True and not any(s.get("open") for s in info["seats"])
            # Nobody else can take Bob's seat of the rematch.
            assert join(server.base, again["id"], 1)[0] == 409
            status, same, _ = http(server.base, "POST", f"/api/tables/{tid}/rematch?token={bob}")
            assert status == 201 and same["id"] == again["id"]
            assert (await first.recv_type("rematch"))["wants"] == [0]
            assert (await first.recv_type("rematch"))["wants"] == [0, 1]
            info = http(server.base, "GET", f"/api/tables/{again['id']}")[1]
            assert "waiting" not in info and [s["kind"] for s in info["seats"]] == ["human", "human"]
        record = http(server.base, "GET", f"/api/tables/{tid}/record")[1]
        assert record["players"] == ["Seat 1", "Seat 2"]

    asyncio.run(scenario())


def test_a_returning_person_hears_what_the_stand_in_played(start_server: Any) -> None:
    server = start_server(grace=0.2)
    table = create(server.base, seats=["human", "bot:random", "bot:random", "bot:random"])
    tid, token = table["id"], table["seats"][0]["token"]

    async def scenario() -> None:
        client = Client(ws(server, tid, token))
        await client.connect()
        before = await client.recv_type("state")
        await client.close()
        deadline = asyncio.get_running_loop().time() + 60
        while True:
            info = http(server.base, "GET", f"/api/tables/{tid}")[1]
            if info["status"] == "finished":
                break
            assert asyncio.get_running_loop().time() < deadline
            await asyncio.sleep(0.1)
        await client.connect()
        notice = await client.recv_type("standin")
        assert notice["moves"] and all(m["version"] > before["version"] for m in notice["moves"])
        record = http(server.base, "GET", f"/api/tables/{tid}/record")[1]
        for move in notice["moves"]:
            assert record["actions"][move["version"] - 1] == move["action"]
            assert "label" not in move  # a program reads the notation
        await client.close()
        # A page (board=1) hears them in its language's words too.
        page = Client(ws(server, tid, token) + "&board=1", headers={"Accept-Language": "de"})
        await page.connect()
        told = await page.recv_type("standin")
        assert [m["action"] for m in told["moves"]] == [m["action"] for m in notice["moves"]]
        assert all(m["label"] and m["label"] != m["action"] for m in told["moves"]), told
        assert any(m["label"].endswith(" spielen") or " behalten" in m["label"] for m in told["moves"]), told
        await page.close()

    asyncio.run(scenario())


# ------------------------------------------------ turn-based, spectators
def test_turn_based_table_waits_for_its_person(start_server: Any) -> None:
    server = start_server(grace=0.1)
    assert (
        http(server.base, "POST", "/api/tables", {"game": "oracle", "seats": SEATS, "turn_hours": 0})[0]
        == 422
    )
    assert (
        http(server.base, "POST", "/api/tables", {"game": "oracle", "seats": SEATS, "turn_hours": 721})[0]
        == 422
    )
    bad = {"game": "oracle", "seats": SEATS, "turn_hours": 2, "clock": 5}
    assert http(server.base, "POST", "/api/tables", bad)[0] == 422
    table = create(server.base, turn_hours=48, seats=["human", "bot:random", "bot:random", "bot:random"])
    tid, token = table["id"], table["seats"][0]["token"]
    info = http(server.base, "GET", f"/api/tables/{tid}")[1]
    assert info["turn_based"] is True and info["clock"] == 48 * 3600

    async def scenario() -> None:
        async with Client(ws(server, tid, token)) as client:
            state = await client.recv_type("state")
            while not state["legal"]:
                state = await client.recv_type("state")
        # Away for many times the grace: no stand-in plays the seat.
        await asyncio.sleep(0.8)
        info = http(server.base, "GET", f"/api/tables/{tid}")[1]
        assert info["version"] == state["version"] and not info["seats"][0].get("standin")

    asyncio.run(scenario())


def test_spectators_have_their_own_chat_or_none(start_server: Any) -> None:
    server = start_server()
    table = create(server.base)
    tid, token = table["id"], table["seats"][0]["token"]
    quiet = create(server.base, spectator_chat="none")
    assert (
        http(server.base, "POST", "/api/tables", {"game": "oracle", "seats": SEATS, "spectator_chat": "all"})[
            0
        ]
        == 422
    )

    async def scenario() -> None:
        async with Client(ws(server, tid, token)) as player, Client(ws(server, tid, None)) as watcher:
            await player.recv_type("state")
            await watcher.recv_type("state")
            await player.send({"type": "chat", "text": "players only"})
            await watcher.send({"type": "chat", "text": "watchers only"})
            assert (await player.recv_type("chat"))["text"] == "players only"
            assert (await watcher.recv_type("chat"))["text"] == "watchers only"
            await player.drain(0.3)
            await watcher.drain(0.3)
            assert [m["text"] for m in player.received if m["type"] == "chat"] == ["players only"]
            assert [m["text"] for m in watcher.received if m["type"] == "chat"] == ["watchers only"]
        # The history too keeps them apart.
        async with Client(ws(server, tid, None)) as late:
            await late.recv_type("state")
            assert (await late.recv_type("chat"))["text"] == "watchers only"
            await late.drain(0.3)
            assert [m["text"] for m in late.received if m["type"] == "chat"] == ["watchers only"]
        async with Client(ws(server, quiet["id"], None)) as watcher:
            await watcher.recv_type("state")
            await watcher.send({"type": "chat", "text": "hello?"})
            assert (await watcher.recv_type("error"))["code"] == "bad_message"

    asyncio.run(scenario())


# ------------------------------------------------------------- the pages
class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def post_form(base: str, path: str, fields: dict[str, str]) -> tuple[int, str]:
    opener = urllib.request.build_opener(_NoRedirect)
    data = urllib.parse.urlencode(fields).encode()
    try:
        with opener.open(base + path, data=data, timeout=20) as response:
            return response.status, response.headers.get("location", "")
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("location", "")


def test_lobby_form_invite_page_and_private_tables(start_server: Any) -> None:
    server = start_server()
    fields = {
        "game": "oracle",
        "oracle.rounds": "1",
        "oracle.seat0": "human",
        "oracle.seat1": "human",
        "oracle.seat2": "bot:random",
        "oracle.seat3": "bot:random",
        "name": "Ann <i>",
        "private": "1",
        "turn_hours": "24",
        "spectator_chat": "none",
    }
    status, location = post_form(server.base, "/new", fields)
    assert status == 303 and "?token=" in location
    tid, token = location.split("/t/")[1].split("?token=")
    info = http(server.base, "GET", f"/api/tables/{tid}")[1]
    assert info["listed"] is False and info["waiting"] is True and info["turn_based"] is True
    assert info["clock"] == 24 * 3600 and info["spectator_chat"] == "none"
    assert info["seats"][0]["name"] == "Ann <i>" and info["seats"][1]["open"] is True
    assert tid not in http(server.base, "GET", "/")[1]
    # The creator's page: the invite link of seat 2 with its QR code, escaped names.
    page = http(server.base, "GET", f"/t/{tid}?token={token}")[1]
    assert f"/t/{tid}/seat/1" in page and "<svg" in page and "data-start" in page
    assert "Ann <i>" not in page
    # A spectator's page has no invite, no start, and no chat to write in.
    watch = http(server.base, "GET", f"/t/{tid}")[1]
    assert f"/t/{tid}/seat/1" not in watch and "data-start" not in watch
    assert 'aria-labelledby="chat-h" hidden' in watch and 'id="sound"' not in watch
    assert 'id="sound"' in page
    # The invite page, then the claim through its form.
    status, invite, _ = http(server.base, "GET", f"/t/{tid}/seat/1")
    assert status == 200 and "data-sit" in invite
    status, location = post_form(server.base, f"/join/{tid}/1", {"name": "Bob"})
    assert status == 303 and location.startswith(f"/t/{tid}?token=")
    status, invite, _ = http(server.base, "GET", f"/t/{tid}/seat/1")
    assert status == 409 and "data-sit" not in invite
    assert post_form(server.base, f"/join/{tid}/1", {"name": "Eve"}) == (303, "/?error=taken")
    assert http(server.base, "GET", f"/t/{tid}/seat/9")[0] == 404
    assert http(server.base, "GET", "/t/nosuchtable/seat/1")[0] == 404
    assert "waiting" not in http(server.base, "GET", f"/api/tables/{tid}")[1]


def test_an_invite_names_an_unnamed_creators_seat_taken(start_server: Any) -> None:
    """Regression (session 30): a creator who gave no name showed on the
    friend's invite as "Platz 1: Platz 1"; a seat held by someone without a
    name says it is taken, in the friend's language."""
    server = start_server()
    fields = {"game": "codename", "codename.seat0": "human", "codename.seat1": "human"}
    status, location = post_form(server.base, "/new", fields)
    assert status == 303
    tid = location.split("/t/")[1].split("?token=")[0]
    english = http(server.base, "GET", f"/t/{tid}/seat/1")[1]
    assert "<li>Seat 1: taken</li>" in english
    german = http(server.base, "GET", f"/t/{tid}/seat/1", headers={"Accept-Language": "de"})[1]
    assert "<li>Platz 1: besetzt</li>" in german and "<li>Platz 2: <strong>dein Platz</strong></li>" in german


def test_an_invite_to_a_seat_taken_does_not_call_it_yours(start_server: Any) -> None:
    """The link of a seat someone took listed it as "your seat" and then
    said "This seat is taken."; now the list names who holds it."""
    server = start_server()
    fields = {"game": "codename", "codename.seat0": "human", "codename.seat1": "human"}
    _, location = post_form(server.base, "/new", fields)
    tid = location.split("/t/")[1].split("?token=")[0]
    assert post_form(server.base, f"/join/{tid}/1", {"name": "Bob"})[0] == 303
    page = http(server.base, "GET", f"/t/{tid}/seat/1")[1]
    assert "This seat is taken." in page and "your seat" not in page
    assert "<li>Seat 2: Bob</li>" in page


def test_a_waiting_table_offers_no_choice_ahead(start_server: Any) -> None:
    """Regression: a table waiting for its players (a rematch, or one made
    with ``"wait": true``) offered a seat its Oracle keep ahead of its turn
    (45 pairs) and then refused it: "the table is waiting for its players"."""
    server = start_server()
    body = {
        "game": "oracle",
        "options": {"rounds": 1},
        "seats": ["human", "human", "bot:random", "bot:random"],
    }
    status, table, _ = http(server.base, "POST", "/api/tables", {**body, "wait": True})
    assert status == 201
    tid, ann = table["id"], table["seats"][0]["token"]

    async def scenario() -> None:
        async with Client(ws(server, tid, ann)) as first:
            state = await first.recv_type("state")
            assert state.get("waiting") and not state["legal"] and not state.get("ahead"), state

    asyncio.run(scenario())
