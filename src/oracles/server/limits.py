"""The server's bounds on what a stranger may ask of it (``docs/server.md``, *Limits*).

One place for every limit that keeps an anonymous client from reading the
server's disk, pinning its CPU or filling its memory: the size of a request
body, the options and bot specs a table may have, how often a client may
create tables, join, chat or open sockets, and how many sockets a table or a
client may hold. The numbers live in :class:`~oracles.server.config.Settings`;
this module applies them.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from oracles.bots.specs import bounded_spec
from oracles.core.errors import OraclesError
from oracles.core.options import check_remote_options
from oracles.core.registry import game_class


class TableError(Exception):
    """A request about tables that cannot be met: ``status`` is the HTTP
    answer (422 unless said), ``retry_after`` the seconds after which it
    may succeed (429, 503)."""

    def __init__(self, message: str, status: int = 422, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


class LimitError(TableError):
    """A request beyond one of the server's bounds."""

    def __init__(self, status: int, message: str, retry_after: float | None = None) -> None:
        super().__init__(message, status, retry_after)


class TokenBucket:
    """``rate`` events a second, bursts of ``burst``."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        self.tokens -= 1
        return self.tokens >= 0

    def wait(self) -> float:
        """Seconds until one more event would be allowed."""
        return max(0.0, -self.tokens / self.rate) if self.rate > 0 else math.inf


class RateLimiter:
    """A token bucket per key (a client's address, a table), at most
    ``max_keys`` of them: the least recently used are forgotten, so a
    flood of addresses cannot fill the memory."""

    def __init__(self, what: str, rate: float, burst: float, max_keys: int = 10_000) -> None:
        self.what = what
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def hit(self, key: str) -> None:
        """Count one event of ``key``; :class:`LimitError` (429) past the rate."""
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst)
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        if not bucket.take():
            bucket.tokens += 1  # a refused event is not counted against the next
            wait = max(1, math.ceil(bucket.wait() + 1 / self.rate)) if self.rate > 0 else 60
            raise LimitError(429, f"too many {self.what}: try again in {wait} s", retry_after=wait)


def checked_options(game_id: str, options: dict[str, Any]) -> None:
    """Refuse option values beyond a server's bounds (a path as an edition,
    a billion rounds) before the game reads them: :class:`LimitError` 422."""
    try:
        check_remote_options(game_id, game_class(game_id).option_schema, options)
    except OraclesError as error:
        raise LimitError(422, str(error)) from None


def checked_bot(spec: str, max_seconds: float) -> str:
    """The bot spec as this server runs it (time budget capped), or
    :class:`LimitError` 422 naming why not."""
    try:
        return bounded_spec(spec, max_seconds)
    except OraclesError as error:
        raise LimitError(422, str(error)) from None


def client_address(scope: Mapping[str, Any]) -> str:
    """The client's address as the ASGI server saw it (after a trusted
    proxy's ``X-Forwarded-For``, which uvicorn applies)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"
