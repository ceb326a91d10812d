"""Structured logs: one JSON object a line on stderr.

Events name tables and seats, never tokens or URLs with their query string
(a seat's token is in its link), so a log can be shared.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
from typing import Any

logger = logging.getLogger("oracles.server")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "event": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            out.update(fields)
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


#: A URL's query string: from ``?`` to a space, a quote or the end.
_QUERY = re.compile(r"\?[^\s\"']*")


class RedactTokens(logging.Filter):
    """Masks every query string in any message: uvicorn logs each WebSocket
    handshake with its query string, which holds the seat's token, and a
    key may be spelt many ways that mean ``token`` (``tok%65n``, the same
    after percent-decoding), so no query is written at all.

    >>> record = logging.LogRecord("x", 20, "", 0, '"WebSocket /ws/tables/a?tok%%65n=%s" 403', ("s3cret",), None)
    >>> RedactTokens().filter(record), record.getMessage()
    (True, '"WebSocket /ws/tables/a?***" 403')
    """

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "?" in message:
            record.msg = _QUERY.sub("?***", message)
            record.args = None
        return True


def setup(level: str = "info") -> None:
    """Send the server's and uvicorn's messages to stderr as JSON lines,
    tokens masked."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RedactTokens())
    for name in ("oracles.server", "uvicorn", "uvicorn.error"):
        log = logging.getLogger(name)
        log.handlers[:] = [handler]
        log.setLevel(level.upper())
        log.propagate = False


def event(name: str, level: int = logging.INFO, **fields: Any) -> None:
    logger.log(level, name, extra={"fields": fields})


def failure(name: str, **fields: Any) -> None:
    logger.error(name, extra={"fields": fields}, exc_info=True)
