"""Accounts: sign-up, log-in (argon2id), bearer tokens (random, stored as SHA-256), and what a
user does to secure an account: change the password, see and end log-ins, log out
everywhere."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import Connection, Row
from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool

from realpolitik.server import security
from realpolitik.server import store as db
from realpolitik.server.events import Hub
from realpolitik.server.settings import Settings
from realpolitik.server.throttle import Throttle
from realpolitik.server.values import (
    Account,
    ServiceError,
    bad,
    conflict,
    iso_time,
    not_found,
)

_TICKETS_PER_USER = 20
"""Unused tickets one user may hold at once (each is kept in memory until used or expired)."""

_USERNAME = re.compile(r"^[A-Za-z0-9_.-]{2,32}$")

TOKEN_MEMORY_SECONDS = 60.0
"""How long a process remembers a checked token without asking the database again. A log-out
forgets it at once in the process that served it, and in the others through the event bus
(PostgreSQL); this bound is for a notice that never arrived."""
_TOKEN_MEMORY_SIZE = 100_000


class AccountService:
    """Who is who. Sign-up and log-in are coroutines: their password work runs in a bounded
    pool (:class:`~realpolitik.server.security.PasswordPool`), their database work in the
    thread pool."""

    def __init__(self, store: db.Store, settings: Settings, clock: Callable[[], float],
                 hub: Hub | None = None) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock
        self.hub = hub or Hub()
        self.passwords = security.PasswordPool(settings.hash_workers)
        self.throttle = Throttle(settings)
        self._known: dict[str, tuple[Account, float]] = {}  # token hash -> (account, until)
        self._used: dict[str, float] = {}
        """Token hash -> when a request last came with it, since :meth:`save_last_used`: a
        request notes it here (no database write on its way), the deadline task's turn
        writes them all in one transaction."""

    async def sign_up(self, username: str, password: str, client: str = "local",
                      agent: str | None = None) -> tuple[Account, str]:
        """Create an account and log it in; returns the account and a bearer token.

        A taken name is refused (409), but an address that has found
        ``taken_names_per_client`` names taken is refused every sign-up for a while (429),
        so that sign-up cannot be used to find out which names exist."""
        if not _USERNAME.match(username):
            raise bad("a user name is 2 to 32 letters, digits, '_', '.' or '-'", "bad_username",
                      field="username")
        self.throttle.check("signup_taken", client)
        self.throttle.hit("signup", client)
        problem = await self.passwords.problem(password, username)
        if problem is not None:
            raise bad(problem, "weak_password", field="password")
        hashed = await self.passwords.hash(password)
        try:
            return await run_in_threadpool(self._create, username, hashed, client, agent)
        except ServiceError as exc:
            if exc.code == "username_taken":
                self.throttle.count("signup_taken", client)
            raise

    def _create(self, username: str, hashed: str, client: str,
                agent: str | None) -> tuple[Account, str]:
        now = self.clock()
        try:
            with self.store.write() as conn:
                if db.user_by_name(conn, username) is not None:
                    raise conflict(f"the user name {username!r} is taken", "username_taken")
                user_id = db.create_user(conn, username=username, password_hash=hashed, now=now)
                token = self._new_token(conn, user_id, now, client, agent)
        except IntegrityError as exc:
            raise conflict(f"the user name {username!r} is taken", "username_taken") from exc
        return Account(user_id, username), token

    async def log_in(self, username: str, password: str, client: str = "local",
                     agent: str | None = None) -> tuple[Account, str]:
        """Check a password; returns the account and a new bearer token. Failed attempts are
        limited per account and client address together, and per client address (429 with
        ``Retry-After`` beyond); an account with many failures from everywhere is not refused,
        but each attempt on it waits ``login_delay_seconds`` first. An unknown user name costs
        the same time as a wrong password."""
        row, ok = await self._check_password(username, password, client)
        if row is None or not ok:
            raise ServiceError(401, "bad_credentials", "wrong user name or password")
        token = await run_in_threadpool(self._log_in_row, int(row.id), client, agent)
        return Account(int(row.id), str(row.username)), token

    async def _check_password(self, username: str, password: str,
                              client: str) -> tuple[Row[Any] | None, bool]:
        """The user's row and whether ``password`` is theirs, counted as a log-in attempt."""
        account = username.lower()
        with self.throttle.attempt("login_client", client) as by_client, \
                self.throttle.attempt("login_pair", f"{account}\n{client}") as by_pair:
            if self.throttle.spent("login_account", account):
                await asyncio.sleep(self.settings.login_delay_seconds)
            row = await run_in_threadpool(self._user_row, username)
            ok = await self.passwords.verify(None if row is None else str(row.password_hash),
                                             password)
            by_client[0] = by_pair[0] = ok
        if not ok:
            self.throttle.count("login_account", account)
        return row, ok

    def _user_row(self, username: str) -> Row[Any] | None:
        with self.store.read() as conn:
            return db.user_by_name(conn, username)

    def _log_in_row(self, user_id: int, client: str, agent: str | None) -> str:
        with self.store.write() as conn:
            return self._new_token(conn, user_id, self.clock(), client, agent)

    def _new_token(self, conn: Connection, user_id: int, now: float, client: str,
                   agent: str | None) -> str:
        db.delete_expired_tokens(conn, now)  # each log-in sweeps the tokens that ran out
        token = security.new_token()
        db.add_token(conn, token_hash=security.token_hash(token), user_id=user_id, now=now,
                     expires_at=now + self.settings.token_days * 86400, client=client[:64],
                     agent=agent)
        return token

    def log_out(self, token: str) -> None:
        """Forget a token, and close the live connections opened with it."""
        token_hash = security.token_hash(token)
        with self.store.write() as conn:
            db.delete_token(conn, token_hash)
        self._ended([token_hash])

    def _ended(self, token_hashes: Iterable[str]) -> None:
        """Forget ended log-ins in every process, and close the sockets opened with them."""
        for token_hash in token_hashes:
            self.forget(token_hash)
            self.hub.disconnect_token(token_hash, 4401, "logged out")

    # -- securing an account ---------------------------------------------------------------------

    async def change_password(self, account: Account, token: str, current: str, new: str,
                              client: str = "local") -> int:
        """Give the account a new password, checking the current one (a failure counts as a
        failed log-in); every other log-in of the account ends. Returns how many did."""
        row, ok = await self._check_password(account.username, current, client)
        if row is None or int(row.id) != account.id or not ok:
            raise ServiceError(403, "bad_credentials", "the current password is wrong",
                               field="current_password")
        if new == current:
            raise bad("the new password is the one you have now: choose a different one",
                      "same_password", field="new_password")
        problem = await self.passwords.problem(new, account.username)
        if problem is not None:
            raise bad(problem, "weak_password", field="new_password")
        hashed = await self.passwords.hash(new)
        return await run_in_threadpool(self._set_password, account.id, hashed,
                                       security.token_hash(token))

    def _set_password(self, user_id: int, hashed: str, keep: str) -> int:
        with self.store.write() as conn:
            db.set_password_hash(conn, user_id, hashed)
            ended = db.delete_tokens_of(conn, user_id, keep=keep)
        self._ended(ended)
        return len(ended)

    def log_out_everywhere(self, account: Account) -> int:
        """End every log-in of the account, this one too; returns how many."""
        with self.store.write() as conn:
            ended = db.delete_tokens_of(conn, account.id)
        self._ended(ended)
        return len(ended)

    def sessions(self, account: Account, token: str) -> list[dict[str, Any]]:
        """The account's log-ins still valid, the newest first: each with an id for
        :meth:`end_session`, when it was made and expires, its address and browser, and
        whether it is the one of ``token``."""
        mine = security.token_hash(token)
        with self.store.read() as conn:
            rows = db.tokens_of(conn, account.id, self.clock())
        used = self._used
        return [{"id": session_id(str(r.token_hash)), "created_at": iso_time(r.created_at),
                 "expires_at": iso_time(r.expires_at),
                 "last_used_at": iso_time(max(
                     (t for t in (r.last_used_at, used.get(r.token_hash)) if t is not None),
                     default=None)),
                 "client": r.client, "agent": r.agent,
                 "current": r.token_hash == mine} for r in rows]

    def _note_use(self, token_hash: str) -> None:
        """Remember that a request came with this token now (see :meth:`save_last_used`)."""
        if len(self._used) >= _TOKEN_MEMORY_SIZE and token_hash not in self._used:
            return  # a flood of tokens between two turns: the next turn notes them again
        self._used[token_hash] = self.clock()

    def save_last_used(self) -> int:
        """Write when each log-in was last used (since the last call); how many. The deadline
        task calls this each turn, so the sessions list is at most a turn late."""
        used, self._used = self._used, {}
        if used:
            with self.store.write() as conn:
                db.set_tokens_used(conn, used)
        return len(used)

    def end_session(self, account: Account, session: str) -> None:
        """End one of the account's log-ins, named by its id (:meth:`sessions`).

        :raises ServiceError: 404, the account has no such log-in.
        """
        with self.store.write() as conn:
            found = [str(r.token_hash) for r in db.tokens_of(conn, account.id, self.clock())
                     if session_id(str(r.token_hash)) == session]
            for token_hash in found:
                db.delete_token(conn, token_hash)
        if not found:
            raise not_found("log-in")
        self._ended(found)

    def forget(self, token_hash: str) -> None:
        """Stop remembering a token (it was revoked, here or in another process)."""
        self._known.pop(token_hash, None)

    def remembered(self, token: str) -> Account | None:
        """The account of a token checked within :data:`TOKEN_MEMORY_SECONDS`, without asking
        the database; None if it must be checked (:meth:`authenticate`)."""
        token_hash = security.token_hash(token)
        hit = self._known.get(token_hash)
        if hit is None or hit[1] <= self.clock():
            return None
        self._note_use(token_hash)
        return hit[0]

    def purge_expired(self) -> int:
        """Delete every token past its expiry; returns how many."""
        with self.store.write() as conn:
            return db.delete_expired_tokens(conn, self.clock())

    def authenticate(self, token: str) -> Account | None:
        """The account a bearer token belongs to, if it is valid."""
        return self.authenticate_hash(security.token_hash(token))

    def authenticate_hash(self, token_hash: str) -> Account | None:
        """The account of the token whose hash is ``token_hash``, if it is still valid
        (remembered for up to :data:`TOKEN_MEMORY_SECONDS`)."""
        now = self.clock()
        hit = self._known.get(token_hash)
        if hit is not None and hit[1] > now:
            self._note_use(token_hash)
            return hit[0]
        with self.store.read() as conn:
            row = db.user_for_token(conn, token_hash, now)
        if row is None:
            self._known.pop(token_hash, None)
            return None
        self._note_use(token_hash)
        account = Account(int(row.id), str(row.username))
        if len(self._known) >= _TOKEN_MEMORY_SIZE:
            self._known.clear()
        self._known[token_hash] = (account, min(float(row.expires_at), now + TOKEN_MEMORY_SECONDS))
        return account

    # -- WebSocket tickets: the token never goes into a URL (nor the access log) -----------------

    def issue_ticket(self, account: Account, token: str) -> str:
        """A single-use ticket for one WebSocket connection, valid ``ticket_seconds``; kept in
        the database (as its hash) with the log-in it stands for, so that any worker can take
        the socket."""
        now = self.clock()
        ticket = security.new_token()
        with self.store.write() as conn:
            db.add_ticket(conn, ticket_hash=security.token_hash(ticket), user_id=account.id,
                          token_hash=security.token_hash(token), now=now,
                          expires_at=now + self.settings.ticket_seconds,
                          keep=_TICKETS_PER_USER)
        return ticket

    def redeem_ticket(self, ticket: str) -> tuple[Account, str]:
        """The account and token hash of a ticket, which is used up.

        :raises TicketError: unknown or used (4401), or expired (4408); or its log-in ended
            meanwhile (4401).
        """
        with self.store.write() as conn:
            found = db.take_ticket(conn, security.token_hash(ticket))
        if found is None:
            raise TicketError(4401, "unknown or used ticket: get one from POST /auth/ticket")
        if found.expires_at <= self.clock():
            raise TicketError(4408, "the ticket expired: get a new one from POST /auth/ticket")
        token_hash = str(found.token_hash)
        if self.authenticate_hash(token_hash) is None:
            raise TicketError(4401, "the log-in of this ticket has ended: log in again")
        return Account(int(found.user_id), str(found.username)), token_hash


def session_id(token_hash: str) -> str:
    """The id a log-in is shown by: the start of its token's hash (which the database keeps;
    the token itself cannot be found from it)."""
    return token_hash[:16]


class TicketError(Exception):
    """A WebSocket ticket that cannot be used: the close ``code`` and the ``reason``."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
