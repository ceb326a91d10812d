"""The WebSocket messages, read and written in one place (``docs/server.md``).

Every client message is one of the typed classes below, decoded by one
msgspec decoder (:func:`parse_client_message`): a tagged union on ``type``,
integers bounded to 64 bits, text strict UTF-8 without lone surrogates, no
key beyond those a message declares. Anything else raises
:class:`ProtocolError` carrying one of the error codes; nothing else in the
server looks at raw client JSON.

Client messages:

``{"type": "move", "action": "play R7", "version": 12, "id": "c1-7"}``
    a move; ``id`` makes a resent move harmless.
``{"type": "hello", "version": 12}``
    asks for the current state (a reconnecting client may send it).
``{"type": "chat", "text": "..."}`` and ``{"type": "name", "name": "..."}``
    a chat line, a seat's display name.
``{"type": "ping"}``
    answered ``{"type": "pong"}``.
``{"type": "hint", "version": 12, "id": "h1"}``
    asks for the bot's advice (tables with hints on; ``oracles.server.hints``).

Server messages: ``state`` and ``error``, ``ack`` (a move of this connection
was applied, or had been already), ``chat``, ``seats`` (names and presence
changed), ``rematch`` (the next game's table) and ``pong``.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Annotated, Any

import msgspec
import orjson

#: Largest client message, in bytes; bigger closes the socket with 1009.
MAX_MESSAGE = 64 * 1024
MAX_ID = 128
MAX_ACTION = 4096
MAX_NAME = 40
#: Longest chat line read (the server's ``chat_max`` may be shorter).
MAX_CHAT = 2000

STALE = "stale"
ILLEGAL = "illegal"

#: Why JSON nested past what the decoder can follow is refused (a few
#: thousand brackets overflow its recursion, well under the size limits).
TOO_DEEP = "the JSON is nested too deeply"
NOT_YOUR_TURN = "not_your_turn"
BAD_MESSAGE = "bad_message"
UNAVAILABLE = "unavailable"


class ProtocolError(Exception):
    """A message that cannot be acted on: ``code`` is an error code."""

    def __init__(self, code: str, message: str, why: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        #: For an illegal move, the rules' reason (a ``Reason`` that a page
        #: in another language words for its player).
        self.why = why


#: A version is within 64 bits, as every number the server reads
#: (docs/server.md): a larger one is a bad message, not a stale move.
Version = Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]
MoveId = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_ID)]


class _Message(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    """Every client message: tagged by ``type``, no other key allowed."""


class Move(_Message, frozen=True, tag="move"):
    """A move in notation, chosen at ``version``; ``id`` makes a resend harmless."""

    action: Annotated[str, msgspec.Meta(max_length=MAX_ACTION)]
    version: Version
    id: MoveId | None = None


class Hello(_Message, frozen=True, tag="hello"):
    """Send me the state again (a reconnecting client)."""

    version: Version | None = None


class Chat(_Message, frozen=True, tag="chat"):
    """A chat line (at most ``chat_max`` characters)."""

    text: Annotated[str, msgspec.Meta(max_length=MAX_CHAT)]


class Name(_Message, frozen=True, tag="name"):
    """This seat's display name."""

    name: Annotated[str, msgspec.Meta(max_length=MAX_NAME)]


class Ping(_Message, frozen=True, tag="ping"):
    """Are you there? (answered ``pong``)."""


class Hint(_Message, frozen=True, tag="hint"):
    """Ask for the bot's advice at ``version`` (tables with hints on)."""

    version: Version
    id: MoveId | None = None


ClientMessage = Move | Hello | Chat | Name | Ping | Hint
_DECODER = msgspec.json.Decoder(ClientMessage)
_PATH = re.compile(r" - at (`key` in )?`\$\.?([^`]*)`$")
_UNKNOWN = re.compile(r"^Object contains unknown field `([^`]*)`")


def _bad(message: str) -> ProtocolError:
    return ProtocolError(BAD_MESSAGE, message)


def explain(error: msgspec.MsgspecError) -> str:
    """msgspec's complaint in the server's words, naming the key.

    >>> explain(msgspec.ValidationError("Expected `int`, got `str` - at `$.version`"))
    "'version': expected int, got str"
    >>> explain(msgspec.ValidationError("Object contains unknown field `colour` - at `$.options`"))
    "'options': unknown key 'colour'"
    """
    text = str(error)
    found = _PATH.search(text)
    where = found.group(2) if found else ""
    if found and found.group(1):
        text = "a key: " + text[: found.start()]
        found = None
    text = text[: found.start()] if found else text
    unknown = _UNKNOWN.match(text)
    if unknown:
        text = f"unknown key {unknown.group(1)[:40]!r}"
    elif isinstance(error, msgspec.ValidationError):
        text = text.replace("`", "")
        text = text[:1].lower() + text[1:]
    else:
        text = "not valid JSON in UTF-8 (" + text.replace("JSON is malformed: ", "") + ")"
    return f"{where!r}: {text}" if where else text


def _text(value: str, key: str) -> str:
    if not value.strip():
        raise _bad(f"'{key}' must not be empty")
    return value


#: A \\uD800-\\uDFFF escape: half of a UTF-16 pair, no character alone.
_LONE_SURROGATE = re.compile(
    rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)
LONE_SURROGATE = "not valid JSON in UTF-8 (a \\uD800-\\uDFFF escape without its pair is no character)"


def has_lone_surrogate(raw: bytes) -> bool:
    """Whether JSON text ``raw`` escapes half a UTF-16 pair alone (msgspec
    calls one at a string's end "truncated" input).

    >>> has_lone_surrogate(b'"\\\\ud800"'), has_lone_surrogate(b'"\\\\ud83d\\\\ude00"')
    (True, False)
    """
    return _LONE_SURROGATE.search(raw) is not None


def parse_client_message(raw: str | bytes | None, chat_max: int = 500) -> ClientMessage:
    """Read one client message, or raise :class:`ProtocolError`.

    >>> parse_client_message('{"type": "move", "action": "bid 1", "version": 3, "id": "a"}')
    Move(action='bid 1', version=3, id='a')
    >>> parse_client_message('{"type": "move", "action": "bid 1"}')
    Traceback (most recent call last):
    ...
    oracles.server.protocol.ProtocolError: object missing required field version
    >>> parse_client_message('{"type": "ping", "colour": 1}')
    Traceback (most recent call last):
    ...
    oracles.server.protocol.ProtocolError: unknown key 'colour'
    """
    if raw is None:
        raise _bad("messages are JSON text")
    if isinstance(raw, str):
        try:
            raw = raw.encode("utf-8")
        except UnicodeEncodeError:
            raise _bad("the message is not valid UTF-8 text") from None
    try:
        message = _DECODER.decode(raw)
    except msgspec.ValidationError as error:
        if "`$.type`" in str(error) or "missing required field `type`" in str(error):
            raise _bad("a message needs a 'type': move, hello, chat, name, ping or hint") from None
        raise _bad(explain(error)) from None
    except msgspec.DecodeError as error:
        if has_lone_surrogate(raw):
            # msgspec calls a lone one at a string's end "truncated" input.
            raise _bad(LONE_SURROGATE) from None
        if not raw.strip():
            raise _bad("the message is empty: messages are JSON objects") from None
        raise _bad(explain(error)) from None
    except RecursionError:
        raise _bad(TOO_DEEP) from None
    if isinstance(message, Move):
        _text(message.action, "action")
    elif isinstance(message, Chat):
        text = _text(message.text, "text").strip()
        if len(text) > chat_max:
            raise _bad(f"'text' is longer than {chat_max} characters")
        return Chat(text=text)
    elif isinstance(message, Name):
        name, problem = read_name(_text(message.name, "name"))
        if problem:
            raise _bad(problem)
        return Name(name=name)
    return message


def read_name(text: str) -> tuple[str, str | None]:
    """A seat's name as typed, its runs of spaces made one, and why it
    cannot be one (None if it can): 1 to :data:`MAX_NAME` characters, none
    of them a control or format character (a NUL, a bell, a zero-width
    space, a right-to-left override would each be stored and shown to every
    seat). The one rule for a name given at creation, on joining and later.

    >>> read_name("  Ann   Lee "), read_name("a\u202eb")
    (('Ann Lee', None), ('a\u202eb', 'a name has no control characters'))
    """
    name = " ".join(text.split())
    if not name or len(name) > MAX_NAME:
        return name, f"a name is 1 to {MAX_NAME} characters"
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        return name, "a name has no control characters"
    return name, None


def move_id_of(raw: str | bytes | None) -> str | None:
    """The ``id`` of a move message, if it is one (for errors that refuse it
    unread)."""
    try:
        message = parse_client_message(raw, chat_max=MAX_CHAT)
    except ProtocolError:
        return None
    return message.id if isinstance(message, Move) else None


# ------------------------------------------------------------ server messages
class _Sent(msgspec.Struct, frozen=True, omit_defaults=True, tag_field="type"):
    """Every server message: tagged by ``type``; a field at its default
    (``None``, ``False``) is left out."""


class StateMessage(_Sent, frozen=True, tag="state"):
    """The table as this socket may see it: on connecting and after every change."""

    version: int
    seat: int | None
    view: dict[str, Any]
    legal: list[str]
    status: str
    #: A choice this seat may make before its turn comes (Oracle's keep).
    ahead: list[str] | None = None
    #: The choice it made ahead, held until its turn.
    held: str | None = None
    #: The move clock of the person to act: seat, seconds, left.
    deadline: dict[str, Any] | None = None
    #: The table waits for its people: nobody moves yet.
    waiting: bool = False
    #: This seat's board drawn as HTML in the socket's language, for a
    #: socket that asked with ``board=1`` (the web page); left out once the
    #: game is over.
    board: str | None = None


class AckMessage(_Sent, frozen=True, tag="ack"):
    """A move of this socket's seat was applied (``duplicate``: already
    before; ``held``: a choice made ahead, played when the seat's turn comes)."""

    version: int
    id: str | None = None
    duplicate: bool = False
    held: bool = False


class ErrorMessage(_Sent, frozen=True, tag="error"):
    """A message refused: ``code`` says why, ``id`` names the move or hint."""

    code: str
    message: str
    id: str | None = None


class ChatLine(_Sent, frozen=True, tag="chat"):
    """A chat line, its name and text HTML-escaped."""

    seat: int | None
    name: str
    text: str


class SeatsMessage(_Sent, frozen=True, tag="seats"):
    """Names and presence of the seats (sent when they change)."""

    seats: list[dict[str, Any]]


class RematchMessage(_Sent, frozen=True, tag="rematch"):
    """The next game's table was made; ``wants``: the seats of the people
    who asked for it so far."""

    id: str
    watch: str
    wants: list[int]


class StartedMessage(_Sent, frozen=True, tag="started"):
    """A waiting table started: its creator let bots take the empty seats,
    or the last person came."""


class PongMessage(_Sent, frozen=True, tag="pong"):
    """The answer to ``ping``."""


class HintAnswer(_Sent, frozen=True, tag="hint"):
    """The bot's advice for the seat to act, to the asking socket only."""

    # ``moves``: per candidate, best first, ``action`` (notation), ``value``,
    # ``margin`` and ``why`` (a sentence in the socket's language, or null).

    version: int
    seat: int
    unit: str
    best: str
    worlds: int
    moves: list[dict[str, Any]]
    id: str | None = None


ServerMessage = (
    StateMessage
    | AckMessage
    | ErrorMessage
    | ChatLine
    | SeatsMessage
    | RematchMessage
    | StartedMessage
    | PongMessage
    | HintAnswer
)
CLIENT_MESSAGES: tuple[type[_Message], ...] = (Move, Hello, Chat, Name, Ping, Hint)
SERVER_MESSAGES: tuple[type[_Sent], ...] = (
    StateMessage,
    AckMessage,
    ErrorMessage,
    ChatLine,
    SeatsMessage,
    RematchMessage,
    StartedMessage,
    PongMessage,
    HintAnswer,
)


def error(code: str, message: str, move_id: str | None = None) -> ErrorMessage:
    return ErrorMessage(code=code, message=message, id=move_id)


_ENCODER = msgspec.json.Encoder()


def encode(message: ServerMessage | dict[str, Any]) -> str:
    """A server message as compact JSON text.

    >>> encode(AckMessage(version=8, id="m1"))
    '{"type":"ack","version":8,"id":"m1"}'
    >>> encode({"type": "chat", "text": "é", "n": [1, 2.5, None]})
    '{"type":"chat","text":"é","n":[1,2.5,null]}'
    """
    if isinstance(message, _Sent):
        try:
            return _ENCODER.encode(message).decode()
        except (msgspec.EncodeError, UnicodeEncodeError):
            message = msgspec.to_builtins(message)
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except (orjson.JSONEncodeError, UnicodeDecodeError, TypeError):
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def _shown(kind: msgspec.inspect.Type) -> str:
    """A field's type as the message table shows it.

    >>> _shown(msgspec.inspect.type_info(MoveId | None))
    'text (1–128) or null'
    """
    inspect = msgspec.inspect
    if isinstance(kind, inspect.UnionType):
        return " or ".join(_shown(t) for t in kind.types)
    if isinstance(kind, inspect.NoneType):
        return "null"
    if isinstance(kind, inspect.BoolType):
        return "bool"
    if isinstance(kind, inspect.IntType):
        return "int ≥ 0" if kind.ge == 0 else "int"
    if isinstance(kind, inspect.StrType):
        if kind.max_length is None:
            return "text"
        low = f"{kind.min_length}–" if kind.min_length else "≤ "
        return f"text ({low}{kind.max_length})"
    if isinstance(kind, inspect.ListType):
        return f"list of {_shown(kind.item_type)}"
    if isinstance(kind, inspect.DictType | inspect.AnyType):
        return "object"
    return type(kind).__name__


def message_table() -> str:
    """The Markdown table of every message, both ways, as ``docs/server.md``
    shows it (a test checks that the page holds this very table).

    >>> message_table().splitlines()[2].startswith("| client → server | `move` |")
    True
    """
    rows = ["| way | type | fields | what |", "|---|---|---|---|"]
    for way, classes in (("client → server", CLIENT_MESSAGES), ("server → client", SERVER_MESSAGES)):
        for cls in classes:
            info = msgspec.inspect.type_info(cls)
            assert isinstance(info, msgspec.inspect.StructType)
            fields = [
                f"`{field.encode_name}`{'' if field.required else ' (optional)'}: {_shown(field.type)}"
                for field in info.fields
            ]
            doc = " ".join((cls.__doc__ or "").split()).replace("``", "`")
            rows.append(f"| {way} | `{info.tag}` | {'; '.join(fields) or '–'} | {doc} |")
    return "\n".join(rows)
