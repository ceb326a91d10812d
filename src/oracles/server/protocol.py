"""The WebSocket messages, read and written in one place (``SPEC.md`` §7).

Every client message goes through :func:`parse_client_message`, which either
returns a typed message or raises :class:`ProtocolError` carrying one of the
SPEC's error codes; nothing else in the server looks at raw client JSON.

Client messages:

``{"type": "move", "action": "play R7", "version": 12, "id": "c1-7"}``
    the SPEC's move; ``id`` makes a resent move harmless.
``{"type": "hello", "version": 12}``
    asks for the current state (a reconnecting client may send it).
``{"type": "chat", "text": "..."}`` and ``{"type": "name", "name": "..."}``
    a chat line, a seat's display name.
``{"type": "ping"}``
    answered ``{"type": "pong"}``.
``{"type": "hint", "version": 12, "id": "h1"}``
    asks for the bot's advice (tables with hints on; ``oracles.server.hints``).

Server messages: ``state`` and ``error`` as in the SPEC, ``ack`` (a move of
this connection was applied, or had been already), ``chat``, ``seats``
(names and presence changed), ``rematch`` (the next game's table) and
``pong``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import orjson

#: Largest client message, in bytes; bigger closes the socket with 1009.
MAX_MESSAGE = 64 * 1024
MAX_ID = 128
MAX_ACTION = 4096
MAX_NAME = 40

STALE = "stale"
ILLEGAL = "illegal"
NOT_YOUR_TURN = "not_your_turn"
BAD_MESSAGE = "bad_message"


class ProtocolError(Exception):
    """A message that cannot be acted on: ``code`` is a SPEC error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Move:
    action: str
    version: int
    id: str | None


@dataclass(frozen=True)
class Hello:
    version: int | None


@dataclass(frozen=True)
class Chat:
    text: str


@dataclass(frozen=True)
class Name:
    name: str


@dataclass(frozen=True)
class Ping:
    pass


@dataclass(frozen=True)
class Hint:
    version: int
    id: str | None


ClientMessage = Move | Hello | Chat | Name | Ping | Hint


def _bad(message: str) -> ProtocolError:
    return ProtocolError(BAD_MESSAGE, message)


def _int(data: dict[str, Any], key: str, required: bool) -> int | None:
    value = data.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise _bad(f"'{key}' must be a non-negative integer")
    return value


def _text(data: dict[str, Any], key: str, limit: int, required: bool = True) -> str | None:
    value = data.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise _bad(f"'{key}' must be a string")
    if not value.strip():
        raise _bad(f"'{key}' must not be empty")
    if len(value) > limit:
        raise _bad(f"'{key}' is longer than {limit} characters")
    return value


def parse_client_message(raw: str | bytes | None, chat_max: int = 500) -> ClientMessage:
    """Read one client message, or raise :class:`ProtocolError`.

    >>> parse_client_message('{"type": "move", "action": "bid 1", "version": 3, "id": "a"}')
    Move(action='bid 1', version=3, id='a')
    >>> parse_client_message('{"type": "move", "action": "bid 1"}')
    Traceback (most recent call last):
    ...
    oracles.server.protocol.ProtocolError: 'version' must be a non-negative integer
    """
    if not isinstance(raw, str):
        raise _bad("messages are JSON text")
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        raise _bad("not valid JSON") from None
    if not isinstance(data, dict):
        raise _bad("a message is a JSON object")
    kind = data.get("type")
    if kind == "move":
        action = _text(data, "action", MAX_ACTION)
        version = _int(data, "version", required=True)
        move_id = _text(data, "id", MAX_ID, required=False)
        assert action is not None and version is not None
        return Move(action=action, version=version, id=move_id)
    if kind == "hello":
        return Hello(version=_int(data, "version", required=False))
    if kind == "chat":
        text = _text(data, "text", chat_max)
        assert text is not None
        return Chat(text=text.strip())
    if kind == "name":
        name = _text(data, "name", MAX_NAME)
        assert name is not None
        return Name(name=" ".join(name.split()))
    if kind == "ping":
        return Ping()
    if kind == "hint":
        hint_version = _int(data, "version", required=True)
        assert hint_version is not None
        return Hint(version=hint_version, id=_text(data, "id", MAX_ID, required=False))
    if isinstance(kind, str):
        raise _bad(f"unknown message type {kind[:40]!r}")
    raise _bad("a message needs a 'type' string")


def move_id_of(raw: str | bytes | None) -> str | None:
    """The ``id`` of a move message, if it is one (for errors that refuse it
    unread)."""
    try:
        message = parse_client_message(raw, chat_max=MAX_MESSAGE)
    except ProtocolError:
        return None
    return message.id if isinstance(message, Move) else None


def error(code: str, message: str, move_id: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if move_id is not None:
        out["id"] = move_id
    return out


def encode(message: dict[str, Any]) -> str:
    """A server message as compact JSON text (orjson; the standard library
    for what orjson refuses, such as a lone surrogate in a chat line).

    >>> encode({"type": "chat", "text": "é", "n": [1, 2.5, None]})
    '{"type":"chat","text":"é","n":[1,2.5,null]}'
    """
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except (orjson.JSONEncodeError, UnicodeDecodeError):
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False)
