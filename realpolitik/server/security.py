"""Passwords (argon2id) and bearer tokens (random, stored as their SHA-256)."""

from __future__ import annotations

import functools
import hashlib
import secrets

import anyio
import anyio.to_thread
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


@functools.cache
def dummy_hash() -> str:
    """A hash of a password no one has, to check against when the user name is unknown: the
    answer then takes as long as for a known user (no user enumeration by timing)."""
    return _hasher.hash(secrets.token_urlsafe(16))


class PasswordPool:
    """Hash and check passwords on at most ``workers`` threads at once. Argon2id takes 64 MiB
    and a good fraction of a second per password; unbounded, a flood of log-ins would take all
    the memory and every worker thread (and with them every other request). Waiting requests
    wait in the event loop, holding no thread."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError("hash_workers must be at least 1")
        self.workers = workers
        self._limiter: anyio.CapacityLimiter | None = None

    def _pool(self) -> anyio.CapacityLimiter:
        if self._limiter is None:  # made in the event loop that uses it
            self._limiter = anyio.CapacityLimiter(self.workers)
        return self._limiter

    async def hash(self, password: str) -> str:
        """:func:`hash_password`, in the pool."""
        return await anyio.to_thread.run_sync(hash_password, password, limiter=self._pool())

    async def verify(self, stored: str | None, password: str) -> bool:
        """:func:`verify_password` against ``stored``, or against :func:`dummy_hash` when there
        is no user (then always False, after the same work)."""
        against = stored if stored is not None else dummy_hash()
        ok = await anyio.to_thread.run_sync(verify_password, against, password,
                                            limiter=self._pool())
        return ok and stored is not None


def new_token() -> str:
    """A fresh bearer token: 32 random bytes, URL-safe."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256 (the token itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


def invite_code() -> str:
    """A code that lets someone join a private game."""
    return secrets.token_urlsafe(9)
