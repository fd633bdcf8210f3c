"""Passwords (argon2id) and bearer tokens (random, stored as their SHA-256)."""

from __future__ import annotations

import hashlib
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher()


def hash_password(password: str) -> str:
    """The argon2id hash of ``password`` (with its salt and parameters)."""
    return _hasher.hash(password)


def verify_password(stored: str, password: str) -> bool:
    """True if ``password`` matches the stored hash."""
    try:
        return _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def new_token() -> str:
    """A fresh bearer token: 32 random bytes, URL-safe."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256 (the token itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


def invite_code() -> str:
    """A code that lets someone join a private game."""
    return secrets.token_urlsafe(9)
