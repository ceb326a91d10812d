"""What the table page shows for playing with friends: the invite links of
the open seats (each with a QR code, drawn here as SVG), the table's own
link, whether the viewer may start a waiting table, and the table's pace.

The invites themselves live in the server's database (``oracles.server.invites``,
reached through the hub: the web package imports nothing of the server).
A seat's invite link names only the table and the seat: the token is
minted when the seat is claimed, so that a link shown in the lobby or
sent in a chat hands out no secret.
"""

from __future__ import annotations

import hmac
from hashlib import sha256
from typing import Any

import segno
from markupsafe import Markup

from oracles.web.present import default_bot


def qr_svg(url: str) -> Markup:
    """``url`` as a QR code, an inline SVG (no script, no outside request)."""
    code = segno.make(url, error="m")
    # segno draws the SVG itself from our own URL: nothing to escape.
    return Markup(code.svg_inline(scale=3, border=2))


def invite_path(table_id: str, seat: int) -> str:
    return f"/t/{table_id}/seat/{seat}"


def table_friends(table: Any, seat: int | None, token: str | None, base_url: str) -> dict[str, Any]:
    """The friends panel of ``table`` for the viewer at ``seat`` (with ``token``)."""
    base = base_url.rstrip("/")
    creator = False
    if token and table.creator_hash is not None:
        creator = hmac.compare_digest(sha256(token.encode("utf-8")).hexdigest(), table.creator_hash)
    invites = []
    if creator and not table.finished and table.rematch_of is None:
        for place in table.seats:
            if place.kind == "human" and not place.claimed:
                url = base + invite_path(table.id, place.seat)
                invites.append({"seat": place.seat, "url": url, "qr": qr_svg(url)})
    return {
        "creator": creator,
        "waiting": bool(table.waiting),
        "invites": invites,
        "table_url": f"{base}/t/{table.id}",
        "turn_based": bool(table.turn_based),
        "clock_hours": (table.clock or 0) // 3600,
        "spectator_chat": table.spectator_chat,
        "finished": bool(table.finished),
        "seat": seat,
        # Who takes the empty seats on "Start now": the lobby's default level,
        # so the table names it as the seat lists do ("Casual Bot").
        "start_bot": default_bot(table.game_id).removeprefix("bot:"),
    }
