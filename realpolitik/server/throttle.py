"""Rate limits per account and per client address, with the ``limits`` library (a sliding
window counter in memory, whose entries expire with their window: a key asked about once
leaves nothing behind a window later; one server process keeps them; a restart forgets them).

Only what costs the server or threatens an account is limited: failed log-ins (per account and
client address together, and per client address), sign-ups, sign-ups that found their name
taken and new games (per client address). Failed log-ins per account alone are never refused
(a stranger could then lock anyone out): past the limit, each attempt on the account waits a
little first (:meth:`Throttle.spent`). Each limit is a setting written as ``limits`` reads it,
such as ``"10 per 15 minutes"``.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import limits
from limits.storage import MemoryStorage
from limits.strategies import SlidingWindowCounterRateLimiter

from realpolitik.server.settings import Settings
from realpolitik.server.values import ServiceError


class Throttle:
    """The server's rate limits, by name (``login_account``, ``login_pair``, ``login_client``,
    ``signup``, ``signup_taken``, ``new_game``)."""

    def __init__(self, settings: Settings) -> None:
        self._limiter = SlidingWindowCounterRateLimiter(MemoryStorage())
        self._pending: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()
        self._limits: dict[str, tuple[limits.RateLimitItem, str]] = {}
        for name, text, what in [
            ("login_account", settings.login_failures_per_account,
             "too many failed log-ins for this account"),
            ("login_pair", settings.login_failures_per_account_and_client,
             "too many failed log-ins for this account from your address"),
            ("login_client", settings.login_failures_per_client,
             "too many failed log-ins from your address"),
            ("signup", settings.signups_per_client, "too many sign-ups from your address"),
            ("signup_taken", settings.taken_names_per_client,
             "too many sign-ups with names already taken from your address"),
            ("new_game", settings.games_per_client, "too many new games from your address"),
        ]:
            try:
                self._limits[name] = (limits.parse(text), what)
            except ValueError as exc:
                raise ValueError(f"the rate limit {text!r} ({name}) cannot be read: write it "
                                 "like '10 per 15 minutes'") from exc

    def _refusal(self, name: str, key: str) -> ServiceError:
        item, what = self._limits[name]
        stats = self._limiter.get_window_stats(item, name, key)
        wait = max(1, math.ceil(stats.reset_time - time.time()))
        return ServiceError(429, "too_many_requests", f"{what} ({item}); try again in {wait} s",
                            headers={"Retry-After": str(wait)}, retry_after=wait)

    def spent(self, name: str, key: str) -> bool:
        """True if ``key`` has used all of ``name``'s allowance in the current window."""
        item, _ = self._limits[name]
        return not self._limiter.test(item, name, key)

    def check(self, name: str, key: str) -> None:
        """Raise 429 if ``key`` has used all of ``name``'s allowance (counting nothing)."""
        if self.spent(name, key):
            raise self._refusal(name, key)

    def count(self, name: str, key: str) -> None:
        """Count one event against ``name`` for ``key``, never refusing."""
        item, _ = self._limits[name]
        self._limiter.hit(item, name, key)

    def hit(self, name: str, key: str) -> None:
        """Count one event against ``name`` for ``key``; raise 429 if it was over the limit."""
        item, _ = self._limits[name]
        if not self._limiter.hit(item, name, key):
            raise self._refusal(name, key)

    @contextmanager
    def attempt(self, name: str, key: str) -> Iterator[list[bool]]:
        """Hold a place for one attempt whose failure counts against ``name``: attempts still
        running count too, so a burst of concurrent attempts cannot all pass the check before
        the first failure is recorded. Set ``outcome[0] = True`` (the yielded list) on
        success; anything else counts as a failure, except an exception.

        :raises ServiceError: 429, the limit is spent by failures and attempts under way.
        """
        item, _ = self._limits[name]
        slot = (name, key)
        with self._lock:
            remaining = self._limiter.get_window_stats(item, name, key).remaining
            pending = self._pending.get(slot, 0)
            if remaining - pending <= 0:
                raise self._refusal(name, key)
            self._pending[slot] = pending + 1
        outcome = [False]
        failed = False
        try:
            yield outcome
            failed = not outcome[0]
        finally:
            with self._lock:
                left = self._pending.get(slot, 1) - 1
                if left > 0:
                    self._pending[slot] = left
                else:
                    self._pending.pop(slot, None)
                if failed:
                    self._limiter.hit(item, name, key)
