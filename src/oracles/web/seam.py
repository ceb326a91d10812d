"""What the web pages need of the game server, as typed protocols.

The web package never imports the server (an import contract says so): the
server's ``create_app`` hands its hub, hint desk and helpers to
:func:`oracles.web.routes.web_routes` and
:func:`oracles.web.branches.branch_routes`. These protocols name exactly
what the pages use, so mypy checks the server's classes
(``oracles.server.hub.Hub``, ``runtime.TableRuntime``, ``invites.Invites``,
``hints.Hints``) against them where they are passed in, and a page that
reached for more would fail the type check.

The protocols are generic in the table type ``T``: a hub gives its own
tables and its invite desk takes them back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from oracles.core.game import State


class SeatPlace(Protocol):
    """One seat of a table as the pages read it."""

    @property
    def kind(self) -> str: ...  # "human" or "bot"
    @property
    def bot(self) -> str | None: ...
    @property
    def claimed(self) -> bool: ...


class StateShape(Protocol):
    """A seat's ``state`` message as a board reads it (the server's
    ``protocol.StateMessage``): only what that seat may know."""

    @property
    def version(self) -> int: ...
    @property
    def view(self) -> dict[str, Any]: ...
    @property
    def legal(self) -> list[str]: ...
    @property
    def ahead(self) -> list[str] | None: ...
    @property
    def held(self) -> str | None: ...
    @property
    def deadline(self) -> dict[str, Any] | None: ...


class LiveTable(Protocol):
    """A table in the server's memory, as the pages read it."""

    @property
    def id(self) -> str: ...
    @property
    def game_id(self) -> str: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def seats(self) -> Sequence[SeatPlace]: ...
    @property
    def state(self) -> State: ...
    @property
    def clock(self) -> int | None: ...
    @property
    def waiting(self) -> bool: ...
    @property
    def turn_based(self) -> bool: ...
    @property
    def spectator_chat(self) -> str: ...
    @property
    def creator_hash(self) -> str | None: ...
    @property
    def rematch_of(self) -> str | None: ...
    @property
    def deals_from(self) -> str | None: ...
    @property
    def branch_of(self) -> str | None: ...
    @property
    def branch_version(self) -> int | None: ...
    @property
    def version(self) -> int: ...
    @property
    def finished(self) -> bool: ...

    def seats_info(self) -> list[dict[str, Any]]: ...

    def state_message(self, seat: int | None) -> StateShape: ...

    def record(self) -> dict[str, Any]: ...

    async def submit(self, seat: int, text: str, version: int, move_id: str | None) -> Any: ...


T = TypeVar("T", bound=LiveTable)
T_contra = TypeVar("T_contra", bound=LiveTable, contravariant=True)


class InviteDesk(Protocol[T_contra]):
    """Open seats and their claims (stored in the server's database)."""

    async def seat_of(self, table: T_contra, token: str) -> int | None: ...

    async def join(self, table_id: str, body: Any) -> tuple[int, dict[str, Any]]: ...


class Limiter(Protocol):
    def hit(self, key: str) -> None: ...


class TableHub(Protocol[T]):
    """The server's tables: read, listed, created."""

    @property
    def invites(self) -> InviteDesk[T] | None: ...
    @property
    def join_limiter(self) -> Limiter: ...

    async def read(self, table_id: str) -> T | None: ...

    async def deals_in_play(self, table: T) -> bool: ...

    async def lobby(self, limit: int = 200) -> list[dict[str, Any]]: ...

    async def create(
        self,
        game_id: str,
        options: dict[str, Any],
        seat_specs: list[Any],
        *,
        clock: int | None = None,
        listed: bool = True,
        waiting: bool = False,
        creator_seat: int | None = None,
        turn_based: bool = False,
        spectator_chat: str = "own",
        client: str | None = None,
        origin: Any = None,
    ) -> tuple[T, list[str | None]]: ...


class HintDesk(Protocol[T_contra]):
    """The server's hint desk: whether a table has hints, those taken, and
    the review of a finished game (whose seats it calls as the pages do)."""

    async def enable(self, table_id: str) -> None: ...

    async def enabled(self, table_id: str) -> bool: ...

    async def taken(self, table_id: str, seats: int) -> list[int]: ...

    def review(self, table: T_contra, seat: int) -> tuple[str, list[dict[str, Any]] | None]: ...
