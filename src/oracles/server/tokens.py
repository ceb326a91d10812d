"""Seat tokens: the secret in a seat's link, stored only as its SHA-256."""

from __future__ import annotations

import hashlib
import secrets


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A seat's secret: 256 bits from the OS."""
    return secrets.token_urlsafe(32)
