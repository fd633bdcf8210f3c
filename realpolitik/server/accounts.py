"""Accounts: sign-up, log-in (argon2id), bearer tokens (random, stored as SHA-256)."""

from __future__ import annotations

import re
from collections.abc import Callable

from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from realpolitik.server import security
from realpolitik.server import store as db
from realpolitik.server.settings import Settings
from realpolitik.server.values import Account, ServiceError, bad, conflict

_USERNAME = re.compile(r"^[A-Za-z0-9_.-]{2,32}$")


class AccountService:
    """Who is who."""

    def __init__(self, store: db.Store, settings: Settings, clock: Callable[[], float]) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock

    def sign_up(self, username: str, password: str) -> tuple[Account, str]:
        """Create an account and log it in; returns the account and a bearer token."""
        if not _USERNAME.match(username):
            raise bad("a user name is 2 to 32 letters, digits, '_', '.' or '-'", "bad_username",
                      field="username")
        if len(password) < 8:
            raise bad("a password needs at least 8 characters", "weak_password",
                      field="password")
        hashed = security.hash_password(password)
        now = self.clock()
        try:
            with self.store.write() as conn:
                if db.user_by_name(conn, username) is not None:
                    raise conflict(f"the user name {username!r} is taken", "username_taken")
                user_id = db.create_user(conn, username=username, password_hash=hashed, now=now)
                token = self._new_token(conn, user_id, now)
        except IntegrityError as exc:
            raise conflict(f"the user name {username!r} is taken", "username_taken") from exc
        return Account(user_id, username), token

    def log_in(self, username: str, password: str) -> tuple[Account, str]:
        """Check a password; returns the account and a new bearer token."""
        with self.store.read() as conn:
            row = db.user_by_name(conn, username)
        if row is None or not security.verify_password(row.password_hash, password):
            raise ServiceError(401, "bad_credentials", "wrong user name or password")
        with self.store.write() as conn:
            token = self._new_token(conn, int(row.id), self.clock())
        return Account(int(row.id), str(row.username)), token

    def _new_token(self, conn: Connection, user_id: int, now: float) -> str:
        token = security.new_token()
        db.add_token(conn, token_hash=security.token_hash(token), user_id=user_id, now=now,
                     expires_at=now + self.settings.token_days * 86400)
        return token

    def log_out(self, token: str) -> None:
        """Forget a token."""
        with self.store.write() as conn:
            db.delete_token(conn, security.token_hash(token))

    def authenticate(self, token: str) -> Account | None:
        """The account a bearer token belongs to, if it is valid."""
        with self.store.read() as conn:
            row = db.user_for_token(conn, security.token_hash(token), self.clock())
        return None if row is None else Account(int(row.id), str(row.username))
