"""A chat line reaches each socket once, however often its id comes.

Regression (session 15): on two processes sharing PostgreSQL, a socket
once heard a line twice (``test_chat_reaches_the_other_process`` failed in
CI): the line was stored before the socket's history was read, and its own
sending (or its relay from the other process) came after the history.
"""

from __future__ import annotations

from types import SimpleNamespace

from oracles.server.protocol import ChatLine
from oracles.server.runtime import CHAT_SENT, TableRuntime


class Socket:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.chat_held: list[tuple[int, str]] | None = None
        self.chat_had: frozenset[int] = frozenset()
        self.sent: list[str] = []

    def send(self, message: str) -> None:
        self.sent.append(message)


def test_a_chat_line_sent_twice_reaches_each_socket_once() -> None:
    player, spectator = Socket(0), Socket(None)
    table = SimpleNamespace(
        chat_sent=[],
        connections={player, spectator},
        chat_message=lambda seat, text: ChatLine(seat=seat, name="Ann", text=text),
    )
    TableRuntime.broadcast_chat(table, 7, 0, "hello")  # type: ignore[arg-type]
    TableRuntime.broadcast_chat(table, 7, 0, "hello")  # type: ignore[arg-type]
    TableRuntime.broadcast_chat(table, 8, 0, "again")  # type: ignore[arg-type]
    assert [('"hello"' in m, '"again"' in m) for m in player.sent] == [(True, False), (False, True)]
    assert spectator.sent == []  # the players' lines stay with the players


def test_a_line_in_a_socket_s_history_is_not_sent_to_it_again() -> None:
    # The race CI met: the history was read after the line was stored, and
    # the line's own sending (or its relay) came after the history.
    newcomer, other = Socket(0), Socket(1)
    newcomer.chat_had = frozenset({7})
    table = SimpleNamespace(
        chat_sent=[],
        connections={newcomer, other},
        chat_message=lambda seat, text: ChatLine(seat=seat, name="Ann", text=text),
    )
    TableRuntime.broadcast_chat(table, 7, 0, "hello")  # type: ignore[arg-type]
    assert newcomer.sent == [] and len(other.sent) == 1


def test_the_ids_remembered_are_bounded() -> None:
    player = Socket(0)
    table = SimpleNamespace(
        chat_sent=[],
        connections={player},
        chat_message=lambda seat, text: ChatLine(seat=seat, name="Ann", text=text),
    )
    for chat_id in range(CHAT_SENT + 5):
        TableRuntime.broadcast_chat(table, chat_id, 0, "line")  # type: ignore[arg-type]
    assert len(table.chat_sent) == CHAT_SENT and table.chat_sent[0] == 5
