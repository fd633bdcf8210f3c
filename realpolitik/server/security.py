"""Passwords (argon2id) and bearer tokens (random, stored as their SHA-256)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import os
import secrets
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher()
T = TypeVar("T")


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


HASH_NICE = 10
"""How much lower the password threads run than the rest of the server (Linux ``nice``): under
a log-in flood the CPU goes first to the other requests."""


def _lower_priority() -> None:
    with contextlib.suppress(AttributeError, OSError):  # Linux: a thread has its own nice value
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASH_NICE)


class PasswordPool:
    """Hash and check passwords on at most ``workers`` threads of their own, at a lower CPU
    priority than the rest of the server. Argon2id takes 64 MiB and a good fraction of a second
    per password; unbounded, a flood of log-ins would take all the memory, every worker thread
    (and with them every other request) and all the CPU. Waiting requests wait in the event
    loop, holding no thread."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError("hash_workers must be at least 1")
        self.workers = workers
        # idle threads end with the process; the pool outlives one lifespan of the app
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="argon2",
                                            initializer=_lower_priority)

    async def _run(self, function: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, function, *args)

    async def hash(self, password: str) -> str:
        """:func:`hash_password`, in the pool."""
        return await self._run(hash_password, password)

    async def problem(self, password: str, username: str) -> str | None:
        """:func:`password_problem`, in the pool (judging a password takes milliseconds)."""
        return await self._run(password_problem, password, username)

    async def verify(self, stored: str | None, password: str) -> bool:
        """:func:`verify_password` against ``stored``, or against :func:`dummy_hash` when there
        is no user (then always False, after the same work)."""
        against = stored if stored is not None else dummy_hash()
        ok = await self._run(verify_password, against, password)
        return ok and stored is not None


MIN_PASSWORD_CHARS = 8
"""The shortest password accepted."""

_STRENGTH_CHARS = 72
"""The characters of a password its strength is judged on (zxcvbn reads no more; a longer
password is at least as strong as its beginning)."""


def password_problem(password: str, username: str) -> str | None:
    """Why ``password`` may not be used, or None. It must have :data:`MIN_PASSWORD_CHARS`
    characters and not be easy to guess: zxcvbn (Dropbox's estimator, whose lists hold the
    passwords most often found in leaks, common words and names, keyboard patterns, dates and
    the user name) must rate it 2 of 4 or more, about 10^6 guesses or more at that rate."""
    if len(password) < MIN_PASSWORD_CHARS:
        return f"a password needs at least {MIN_PASSWORD_CHARS} characters"
    from zxcvbn import zxcvbn  # its lists take some megabytes: read on the first sign-up

    verdict = zxcvbn(password[:_STRENGTH_CHARS], user_inputs=[username])
    if verdict["score"] >= 2:
        return None
    feedback = verdict["feedback"]
    why = str(feedback.get("warning") or "").rstrip(".")
    advice = " ".join(str(s) for s in feedback.get("suggestions") or [])
    return ("this password is too easy to guess" + (f" ({why.lower()})" if why else "")
            + (f". {advice}" if advice else ". Add another word or two"))


def new_token() -> str:
    """A fresh bearer token: 32 random bytes, URL-safe."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256 (the token itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


def invite_code() -> str:
    """A code that lets someone join a private game."""
    return secrets.token_urlsafe(9)
