"""The database: the SQLAlchemy engine (SQLite in WAL mode by default) and plain query functions.

Every function takes the connection of the caller's transaction, so the service decides what is
committed together: an order submission commits its row before the reply, and an adjudication
writes the new game record, the phase log rows and the cleared orders in one transaction.
"""

from __future__ import annotations

import json
import threading
from collections import namedtuple
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from typing import Any

from sqlalchemy import (
    BigInteger,
    Connection,
    Engine,
    Row,
    Table,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    literal,
    or_,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as SQLAlchemyTimeoutError
from sqlalchemy.pool import StaticPool

from realpolitik.server import models as m
from realpolitik.server.migrations import migrate
from realpolitik.server.values import JSON

_WRITE = "realpolitik_write"
_MIGRATION_LOCK = 0x7265616C706F6C  # PostgreSQL advisory lock key of the migrations ("realpol")


_SYNCHRONOUS = ("off", "normal", "full", "extra")


def make_engine(url: str, *, sqlite_synchronous: str = "normal") -> Engine:
    """An engine for ``url``; SQLite gets WAL mode, the ``synchronous`` level, foreign keys, a
    busy timeout and ``BEGIN IMMEDIATE`` for write transactions (so two writers queue instead of
    failing).

    :raises ValueError: ``sqlite_synchronous`` is not an SQLite level.
    """
    if sqlite_synchronous.lower() not in _SYNCHRONOUS:
        raise ValueError(f"REALPOLITIK_SQLITE_SYNCHRONOUS={sqlite_synchronous!r}: it is one of "
                         + ", ".join(_SYNCHRONOUS))
    if not url.startswith("sqlite"):
        # as many connections as the worker threads that may hold one; no ping per checkout
        # (a round trip per request): a connection the server dropped fails once and is
        # replaced by the pool
        return create_engine(url, pool_size=20, max_overflow=30, pool_recycle=3600)
    memory = url in ("sqlite://", "sqlite:///:memory:") or "mode=memory" in url
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": 30},
        poolclass=StaticPool if memory else None,
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        if not memory:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA synchronous={sqlite_synchronous.upper()}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        write = conn.get_execution_options().get(_WRITE, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


class Store:
    """The database of one server: an engine and the transactions on it."""

    def __init__(self, url: str, *, sqlite_synchronous: str = "normal") -> None:
        self.url = url
        self.engine = make_engine(url, sqlite_synchronous=sqlite_synchronous)
        self.postgres = self.engine.dialect.name == "postgresql"
        """Several server processes may share the database: changes to a game lock its row."""
        self._read_engine = self.engine.execution_options(isolation_level="AUTOCOMMIT") \
            if self.postgres else self.engine
        # SQLite has one writer at a time; queueing writers on a lock in this process avoids
        # SQLite's busy handler, which sleeps in steps of up to 100 ms (the load test's p99).
        self._write_lock: threading.RLock | None = (
            threading.RLock() if url.startswith("sqlite") else None
        )

    def migrate(self) -> int:
        """Bring the schema up to date; returns the version it was at. On PostgreSQL the
        workers starting together take turns (an advisory lock), so one migrates and the others
        find the schema up to date."""
        if not self.postgres:
            return migrate(self.engine)
        with self.engine.connect() as lock:
            lock.exec_driver_sql(f"SELECT pg_advisory_lock({_MIGRATION_LOCK})")
            lock.commit()
            try:
                return migrate(self.engine)
            finally:
                lock.exec_driver_sql(f"SELECT pg_advisory_unlock({_MIGRATION_LOCK})")
                lock.commit()

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A read-only transaction. On PostgreSQL each statement is its own (autocommit): at
        its READ COMMITTED level each statement of a transaction sees the latest commits
        anyway, so ``BEGIN`` and ``COMMIT`` would only add two round trips to every read. So
        a read of several statements checks that they saw one version of the game
        (:class:`TornRead` otherwise, and the caller reads again)."""
        with self._read_engine.connect() as conn, conn.begin():
            yield conn

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction, committed when the block ends without an exception."""
        lock = self._write_lock or nullcontext()
        with lock, self.engine.connect() as conn:
            conn.execution_options(**{_WRITE: True})
            with conn.begin():
                yield conn

    def close(self) -> None:
        """Release the connections."""
        self.engine.dispose()


# -- users and tokens ----------------------------------------------------------------------------

def create_user(conn: Connection, *, username: str, password_hash: str, now: float) -> int:
    result = conn.execute(insert(m.users).values(
        username=username, password_hash=password_hash, created_at=now))
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


def user_by_name(conn: Connection, username: str) -> Row[Any] | None:
    return conn.execute(select(m.users).where(
        func.lower(m.users.c.username) == username.lower())).first()


def database_unavailable(exc: BaseException) -> bool:
    """True if ``exc`` says the database cannot be reached or used for now (PostgreSQL down or
    restarting, no connection free in the pool, SQLite's file locked too long), rather than a
    fault of the request or of the program: the answer is 503, to try again later."""
    if isinstance(exc, OperationalError | SQLAlchemyTimeoutError):
        return True
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return True
    # the hot statements go to the driver directly (:func:`_driver`), which raises its own
    # errors (psycopg is imported only with a PostgreSQL database)
    return any(kind.__name__ == "OperationalError" and kind.__module__.startswith("psycopg")
               for kind in type(exc).__mro__)


def _driver(conn: Connection) -> Any:
    """The database driver's own connection under ``conn``, in its transaction: the hot
    statements go to it directly (SQLAlchemy's execution costs several times the statement)."""
    driver = conn.connection.driver_connection
    assert driver is not None
    return driver


def users_by_id(conn: Connection, ids: Sequence[int]) -> dict[int, str]:
    """User names by id (asked for every game view: the statement goes to the driver)."""
    if not ids:
        return {}
    driver = _driver(conn)
    wanted = sorted(set(ids))
    if conn.dialect.name == "postgresql":
        rows = driver.execute("SELECT id, username FROM users WHERE id = ANY(%s)", (wanted,))
    else:
        marks = ", ".join("?" * len(wanted))
        rows = driver.execute(f"SELECT id, username FROM users WHERE id IN ({marks})", wanted)
    return {int(user_id): str(name) for user_id, name in rows}


def add_token(conn: Connection, *, token_hash: str, user_id: int, now: float,
              expires_at: float, client: str | None = None, agent: str | None = None) -> None:
    conn.execute(insert(m.tokens).values(token_hash=token_hash, user_id=user_id, created_at=now,
                                         expires_at=expires_at, client=client, agent=agent,
                                         last_used_at=now))


_TOKEN_USED = update(m.tokens).where(
    m.tokens.c.token_hash == bindparam("key_hash"),
    or_(m.tokens.c.last_used_at.is_(None), m.tokens.c.last_used_at < bindparam("used")),
).values(last_used_at=bindparam("used"))


def set_tokens_used(conn: Connection, used: Mapping[str, float]) -> None:
    """Note when each log-in (token hash -> time) was last used; an earlier time than the one
    stored (another worker's) leaves it."""
    if used:
        conn.execute(_TOKEN_USED, [{"key_hash": token_hash, "used": when}
                                   for token_hash, when in sorted(used.items())])


def tokens_of(conn: Connection, user_id: int, now: float) -> list[Row[Any]]:
    """The user's valid log-ins, the newest first."""
    t = m.tokens
    return list(conn.execute(
        select(t.c.token_hash, t.c.created_at, t.c.expires_at, t.c.client, t.c.agent,
               t.c.last_used_at)
        .where(t.c.user_id == user_id, t.c.expires_at > now)
        .order_by(t.c.created_at.desc(), t.c.token_hash)))


def delete_tokens_of(conn: Connection, user_id: int, *, keep: str | None = None) -> list[str]:
    """Delete the user's log-ins (but ``keep``, a token hash); returns the hashes deleted."""
    t = m.tokens
    condition = t.c.user_id == user_id
    if keep is not None:
        condition = condition & (t.c.token_hash != keep)
    hashes = [str(h) for h in conn.execute(select(t.c.token_hash).where(condition)).scalars()]
    if hashes:
        conn.execute(delete(t).where(t.c.token_hash.in_(hashes)))
    return hashes


def set_password_hash(conn: Connection, user_id: int, password_hash: str) -> None:
    conn.execute(update(m.users).where(m.users.c.id == user_id)
                 .values(password_hash=password_hash))


_USER_FOR_TOKEN = (
    select(m.users.c.id, m.users.c.username, m.tokens.c.expires_at)
    .join(m.tokens, m.tokens.c.user_id == m.users.c.id)
    .where(m.tokens.c.token_hash == bindparam("token_hash"),
           m.tokens.c.expires_at > bindparam("now"))
)


def user_for_token(conn: Connection, token_hash: str, now: float) -> Row[Any, Any, Any] | None:
    return conn.execute(_USER_FOR_TOKEN, {"token_hash": token_hash, "now": now}).first()


def delete_expired_tokens(conn: Connection, now: float) -> int:
    result = conn.execute(delete(m.tokens).where(m.tokens.c.expires_at <= now))
    return int(result.rowcount)


def add_ticket(conn: Connection, *, ticket_hash: str, user_id: int, token_hash: str,
               now: float, expires_at: float, keep: int) -> None:
    """Keep a WebSocket ticket; drop the expired ones, and the user's oldest unused ones
    beyond ``keep``."""
    t = m.ws_tickets
    conn.execute(delete(t).where(t.c.expires_at <= now))
    mine = conn.execute(select(t.c.id).where(t.c.user_id == user_id)
                        .order_by(t.c.id.desc())).scalars().all()
    oldest = list(mine[max(0, keep - 1):])
    if oldest:
        conn.execute(delete(t).where(t.c.id.in_(oldest)))
    conn.execute(insert(t).values(ticket_hash=ticket_hash, user_id=user_id,
                                  token_hash=token_hash, expires_at=expires_at))


def count_tickets(conn: Connection, user_id: int) -> int:
    """The user's unused WebSocket tickets."""
    t = m.ws_tickets
    return int(conn.execute(select(func.count()).select_from(t)
                            .where(t.c.user_id == user_id)).scalar_one())


def take_ticket(conn: Connection, ticket_hash: str) -> Row[Any, Any, Any, Any] | None:
    """Use up a ticket: its row (with the user's name) if this transaction deleted it, None if
    there is no such ticket or another transaction took it first."""
    row = conn.execute(
        select(m.ws_tickets.c.user_id, m.ws_tickets.c.token_hash, m.ws_tickets.c.expires_at,
               m.users.c.username)
        .join(m.users, m.users.c.id == m.ws_tickets.c.user_id)
        .where(m.ws_tickets.c.ticket_hash == ticket_hash)).first()
    if row is None:
        return None
    taken = conn.execute(delete(m.ws_tickets).where(m.ws_tickets.c.ticket_hash == ticket_hash))
    return row if taken.rowcount == 1 else None


def delete_token(conn: Connection, token_hash: str) -> None:
    conn.execute(delete(m.tokens).where(m.tokens.c.token_hash == token_hash))


# -- games and seats ------------------------------------------------------------------------------

def insert_game(conn: Connection, **values: Any) -> int:
    result = conn.execute(insert(m.games).values(version=1, **values))
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


# The statements of the hot paths (an order submission, a game view) are built once: building
# a statement and its cache key costs more than running it on SQLite.
_GAME_STATE = select(*[c for c in m.games.c if c.name != "record"]).where(
    m.games.c.id == bindparam("game_id"))
_GAME_STATE_LOCKED = _GAME_STATE.with_for_update()
_GAME_STATE_UNLESS_LOCKED = _GAME_STATE.with_for_update(skip_locked=True)


# The hot path's statements (an order submission, a game view) go to the database driver
# directly: SQLAlchemy's execution of a statement costs several times what running it costs
# (about 20 microseconds of 25 on SQLite). They run in the caller's transaction all the same.
def _row_type(name: str, table: Table, *, leave_out: str = "") -> Any:
    """A named tuple of a table's columns, for the rows the driver returns (the columns are
    known only at import, so the type is made at run time and its rows are typed ``Any``)."""
    make: Callable[[str, list[str]], Any] = namedtuple
    return make(name, [c.name for c in table.c if c.name != leave_out])


GameStateRow = _row_type("GameStateRow", m.games, leave_out="record")
SeatRow = _row_type("SeatRow", m.seats)
PendingRow = _row_type("PendingRow", m.pending_orders)
_STATE_COLUMNS = ", ".join(GameStateRow._fields)
_BOOLEAN_STATE = GameStateRow._fields.index("private")
_BOOLEAN_PENDING = PendingRow._fields.index("ready")
_SEATS_SQL = f"SELECT {', '.join(SeatRow._fields)} FROM seats WHERE game_id = {{p}} ORDER BY seat"
_PENDING_SQL = f"SELECT {', '.join(PendingRow._fields)} FROM pending_orders WHERE game_id = {{p}}"
# PostgreSQL: the seats and pending orders only when the version is not the one the caller
# has (sent in the same round trip as the game's row, and run after it took its lock). Each
# row comes with the game's version as that statement saw it (a game without seats or orders
# gives one row of NULLs with it): a read without the lock is three statements, and a change
# committed between two of them would mix two versions of the game.
_PG_STATE = f"SELECT {_STATE_COLUMNS} FROM games WHERE id = %(game_id)s"
_SEAT_COLUMNS = ", ".join(f"s.{c.name}" for c in m.seats.c)
_PENDING_COLUMNS = ", ".join(f"p.{c.name}" for c in m.pending_orders.c)
_PG_SEATS_IF_CHANGED = (
    f"SELECT g.version, {_SEAT_COLUMNS} FROM games g"
    " LEFT JOIN seats s ON s.game_id = g.id"
    " WHERE g.id = %(game_id)s AND g.version <> %(known)s ORDER BY s.seat")
_PG_PENDING_IF_CHANGED = (
    f"SELECT g.version, {_PENDING_COLUMNS} FROM games g"
    " LEFT JOIN pending_orders p ON p.game_id = g.id"
    " WHERE g.id = %(game_id)s AND g.version <> %(known)s")
_SQLITE_STATE = f"SELECT {_STATE_COLUMNS} FROM games WHERE id = ?"
_SQLITE_SEATS = _SEATS_SQL.format(p="?")
_SQLITE_PENDING = _PENDING_SQL.format(p="?")


def _state_row(values: Sequence[Any]) -> Any:
    row = list(values)
    row[_BOOLEAN_STATE] = bool(row[_BOOLEAN_STATE])  # SQLite keeps 0 or 1
    return GameStateRow(*row)


def _pending_row(values: Sequence[Any]) -> Any:
    row = list(values)
    row[_BOOLEAN_PENDING] = bool(row[_BOOLEAN_PENDING])
    return PendingRow(*row)


def game_state_and_changes(
        conn: Connection, game_id: int, known_version: int | None, *, lock: bool = False,
        skip_locked: bool = False) -> tuple[Any | None, list[Any] | None, list[Any] | None]:
    """The game's row as :func:`game_state` reads it and, when its version is not
    ``known_version`` (None: not known), its seats and pending orders as :func:`seats_of` and
    :func:`pending_of` read them (else None, None). On PostgreSQL the three statements (and
    the transaction's ``BEGIN``) go in one round trip; the seats and orders are read after the
    game's row is locked, so they are the locked version's."""
    driver = _driver(conn)
    if conn.dialect.name == "postgresql":
        suffix = " FOR UPDATE SKIP LOCKED" if skip_locked else " FOR UPDATE" if lock else ""
        params = {"game_id": game_id, "known": -1 if known_version is None else known_version}
        with driver.pipeline():
            state = driver.execute(_PG_STATE + suffix, params)
            seats = driver.execute(_PG_SEATS_IF_CHANGED, params)
            pending = driver.execute(_PG_PENDING_IF_CHANGED, params)
        found = state.fetchone()
        if found is None:
            return None, None, None
        row: Any = GameStateRow(*found)
        if row.version == known_version:
            return row, None, None
        seat_rows, pending_rows = seats.fetchall(), pending.fetchall()
        if {r[0] for r in seat_rows} | {r[0] for r in pending_rows} != {row.version}:
            raise TornRead(game_id)  # changed between the statements (never under the lock)
        # the game_id column is NULL only in the row a game without seats or orders gives
        return row, [SeatRow(*r[1:]) for r in seat_rows if r[1] is not None], \
            [PendingRow(*r[1:]) for r in pending_rows if r[1] is not None]
    found = driver.execute(_SQLITE_STATE, (game_id,)).fetchone()
    if found is None:
        return None, None, None
    row = _state_row(found)
    if row.version == known_version:
        return row, None, None
    return row, [SeatRow(*r) for r in driver.execute(_SQLITE_SEATS, (game_id,))], \
        [_pending_row(r) for r in driver.execute(_SQLITE_PENDING, (game_id,))]


def game_state(conn: Connection, game_id: int, *, lock: bool = False,
               skip_locked: bool = False) -> Row[Any] | None:
    """The game's row without its record (which grows with every phase played and is read only
    when a process has no up-to-date copy of the game). ``lock``: lock the row until the
    transaction ends (``SELECT ... FOR UPDATE`` on PostgreSQL: changes to one game from several
    processes take turns; SQLite's write transaction already excludes every other writer);
    ``skip_locked``: None if another transaction holds the lock."""
    statement = _GAME_STATE_UNLESS_LOCKED if skip_locked else \
        _GAME_STATE_LOCKED if lock else _GAME_STATE
    return conn.execute(statement, {"game_id": game_id}).first()


class TornRead(Exception):
    """The rows read for a game are not all of one version: another process changed it between
    two statements of a read that does not lock the row. Read it again."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} changed while it was read")
        self.game_id = game_id


LOGGED_PHASES = "logged_phases"
"""The key of a stored record (``games.record``) that replaces its ``phases``: how many played
phases it has, which are the first rows of the phase log (``phases``). Each phase is written
there once, when it is played, so an adjudication writes the new phases and a small record
instead of the whole game again (the whole record grows with every phase: some hundred
milliseconds to build and write after sixty phases, while every other change waited). A
record written before has its ``phases`` in it, and is read as it is."""


def record_text(record: Mapping[str, Any], played: int) -> str:
    """A game record as ``games.record`` keeps it: without its played phases (``played`` of
    them, in the phase log), which :func:`game_record` puts back."""
    data = {key: value for key, value in record.items() if key != "phases"}
    data[LOGGED_PHASES] = played
    return json.dumps(data, ensure_ascii=False)


_PHASE_DATA = select(m.phases.c.seq, m.phases.c.data).where(
    m.phases.c.game_id == bindparam("game_id"), m.phases.c.seq < bindparam("played")
).order_by(m.phases.c.seq)


def game_record(conn: Connection, game_id: int, record_version: int | None = None) -> JSON:
    """The game's record (:mod:`realpolitik.savefile`'s document), its played phases read from
    the phase log; with ``record_version``, :class:`TornRead` unless it is the record of that
    version (it changed since the caller read the game's row). The phases a record counts were
    committed with it or before, and are never changed: reading them cannot tear.

    :raises LookupError: there is no such game, or its phase log lacks phases its record counts.
    """
    query = select(m.games.c.record).where(m.games.c.id == game_id)
    if record_version is not None:
        query = query.where(m.games.c.record_version == record_version)
    text = conn.execute(query).scalar_one_or_none()
    if text is None:
        if record_version is None:
            raise LookupError(f"no game {game_id}")
        raise TornRead(game_id)
    record: JSON = json.loads(text)
    played = record.pop(LOGGED_PHASES, None)
    if played is not None:
        rows = conn.execute(_PHASE_DATA, {"game_id": game_id, "played": int(played)}).all()
        if [int(row.seq) for row in rows] != list(range(int(played))):
            raise LookupError(f"the phase log of game {game_id} lacks phases of its record")
        record["phases"] = [json.loads(row.data) for row in rows]
    return record


_UPDATE_GAME: dict[frozenset[str], Any] = {}


def update_game(conn: Connection, game_id: int, version: int, **values: Any) -> bool:
    """Write ``values`` and bump the version if the row is still at ``version``."""
    key = frozenset(values)
    statement = _UPDATE_GAME.get(key)
    if statement is None:
        statement = _UPDATE_GAME[key] = (
            update(m.games)
            .where(m.games.c.id == bindparam("game_id"),
                   m.games.c.version == bindparam("old_version"))
            .values(version=bindparam("new_version"),
                    **{name: bindparam(f"v_{name}") for name in sorted(key)}))
    params = {f"v_{name}": value for name, value in values.items()}
    result = conn.execute(statement, {"game_id": game_id, "old_version": version,
                                      "new_version": version + 1, **params})
    return result.rowcount == 1


# On PostgreSQL, an order submission's writes are one statement (one round trip): its powers'
# pending rows, inserted or replaced, and the version bump that makes them visible to every
# worker's cache (a data-modifying WITH always runs in full, whatever the UPDATE matches).
_PG_PENDING_AND_VERSION = """
WITH pending_write AS (
    INSERT INTO pending_orders (game_id, power, phase, text, ready, updated_at)
    {rows}
    ON CONFLICT (game_id, power) DO UPDATE SET phase = excluded.phase, text = excluded.text,
        ready = excluded.ready, updated_at = excluded.updated_at
)
UPDATE games SET version = %(new_version)s, updated_at = %(now)s
WHERE id = %(game_id)s AND version = %(old_version)s
"""
_PG_PENDING_ROWS_AND_VERSION_SQL = _PG_PENDING_AND_VERSION.format(rows="""
    SELECT %(game_id)s, w.power, w.phase, w.text, w.ready, w.updated_at
    FROM unnest(CAST(%(powers)s AS varchar[]), CAST(%(phases)s AS varchar[]),
                CAST(%(texts)s AS text[]), CAST(%(readies)s AS boolean[]),
                CAST(%(times)s AS double precision[]))
         AS w(power, phase, text, ready, updated_at)""")
# one power's orders (nearly every submission): plain values, which the driver sends with less
# work than arrays (about 100 of a write transaction's 540 µs of CPU)
_PG_ONE_PENDING_AND_VERSION_SQL = _PG_PENDING_AND_VERSION.format(
    rows="VALUES (%(game_id)s, %(power)s, %(phase)s, %(text)s, %(ready)s, %(when)s)")
_SQLITE_PENDING_UPDATE = ("UPDATE pending_orders SET phase = ?, text = ?, ready = ?, "
                          "updated_at = ? WHERE game_id = ? AND power = ?")
_SQLITE_PENDING_INSERT = ("INSERT INTO pending_orders (game_id, power, phase, text, ready, "
                          "updated_at) VALUES (?, ?, ?, ?, ?, ?)")
_SQLITE_VERSION_UPDATE = "UPDATE games SET version = ?, updated_at = ? WHERE id = ? AND version = ?"


def update_game_with_pending(conn: Connection, game_id: int, version: int, now: float,
                             pending: Sequence[tuple[str, str, str | None, bool, float]]) -> bool:
    """Store the game's ``pending`` orders (power, phase, text, ready, time) and bump the
    version if the row is still at ``version`` (its ``updated_at`` set to ``now``), in one
    statement on PostgreSQL and as :func:`put_pending` and :func:`update_game` elsewhere."""
    driver = _driver(conn)
    if conn.dialect.name != "postgresql":
        for power, phase, order_text, ready, when in pending:
            if driver.execute(_SQLITE_PENDING_UPDATE, (phase, order_text, ready, when, game_id,
                                                       power)).rowcount == 0:
                driver.execute(_SQLITE_PENDING_INSERT, (game_id, power, phase, order_text,
                                                        ready, when))
        return bool(driver.execute(_SQLITE_VERSION_UPDATE,
                                   (version + 1, now, game_id, version)).rowcount == 1)
    params: dict[str, Any] = {"game_id": game_id, "old_version": version,
                              "new_version": version + 1, "now": now}
    if len(pending) == 1:
        power, phase, order_text, ready, when = pending[0]
        params.update(power=power, phase=phase, text=order_text, ready=ready, when=when)
        return bool(driver.execute(_PG_ONE_PENDING_AND_VERSION_SQL, params).rowcount == 1)
    params.update(powers=[p[0] for p in pending], phases=[p[1] for p in pending],
                  texts=[p[2] for p in pending], readies=[p[3] for p in pending],
                  times=[p[4] for p in pending])
    return bool(driver.execute(_PG_PENDING_ROWS_AND_VERSION_SQL, params).rowcount == 1)


def list_games(conn: Connection, *, user_id: int | None, open_only: bool, offset: int = 0,
               limit: int = 500) -> list[Row[Any]]:
    """Games, the newest first; ``open_only``: public and not finished, those with the most
    players seated first (a flood of games no one joined sinks below the others)."""
    query = select(m.games.c.id, m.games.c.name, m.games.c.variant, m.games.c.rules,
                   m.games.c.setup, m.games.c.private, m.games.c.status, m.games.c.phase,
                   m.games.c.deadline, m.games.c.creator_id, m.games.c.settings)
    order = [m.games.c.id.desc()]
    if open_only:
        query = query.where(m.games.c.private.is_(False), m.games.c.status != "finished")
        players = select(func.count()).select_from(m.seats).where(
            m.seats.c.game_id == m.games.c.id, m.seats.c.user_id.is_not(None)
        ).scalar_subquery()
        order.insert(0, players.desc())
    if user_id is not None:
        seated = select(m.seats.c.game_id).where(m.seats.c.user_id == user_id)
        query = query.where(or_(m.games.c.id.in_(seated), m.games.c.creator_id == user_id))
    return list(conn.execute(query.order_by(*order).offset(offset).limit(limit)))


def daide_games(conn: Connection) -> list[Row[Any]]:
    """The games not finished that accept DAIDE bots, the oldest first (their settings say
    ``"daide": true``; the DAIDE port's joins are rare, so a scan of the unfinished games)."""
    query = select(m.games.c.id, m.games.c.name, m.games.c.status, m.games.c.private,
                   m.games.c.invite_code, m.games.c.settings).where(
        m.games.c.status != "finished", m.games.c.settings.contains('"daide": true'))
    return list(conn.execute(query.order_by(m.games.c.id)))


def forming_games_of(conn: Connection, user_id: int) -> int:
    """How many games the user created are still waiting for players."""
    count = conn.execute(select(func.count()).select_from(m.games).where(
        m.games.c.creator_id == user_id, m.games.c.status == "forming")).scalar_one()
    return int(count)


def due_games(conn: Connection, now: float) -> list[int]:
    rows = conn.execute(select(m.games.c.id).where(
        m.games.c.status == "active", m.games.c.deadline.is_not(None),
        m.games.c.deadline <= now).order_by(m.games.c.deadline))
    return [int(r.id) for r in rows]


def add_seats(conn: Connection, game_id: int, count: int) -> None:
    conn.execute(insert(m.seats), [{"game_id": game_id, "seat": i} for i in range(count)])


_SEATS = select(m.seats).where(m.seats.c.game_id == bindparam("game_id")).order_by(
    m.seats.c.seat)


def seats_of(conn: Connection, game_id: int) -> list[Row[Any]]:
    return list(conn.execute(_SEATS, {"game_id": game_id}))


def set_seat(conn: Connection, game_id: int, seat: int, user_id: int | None,
             now: float | None) -> None:
    conn.execute(update(m.seats).where(m.seats.c.game_id == game_id, m.seats.c.seat == seat)
                 .values(user_id=user_id, joined_at=now, concede_to=None))


def set_concession(conn: Connection, game_id: int, seat: int, to: str | None) -> None:
    conn.execute(update(m.seats).where(m.seats.c.game_id == game_id, m.seats.c.seat == seat)
                 .values(concede_to=to))


def clear_concessions(conn: Connection, game_id: int) -> None:
    conn.execute(update(m.seats).where(m.seats.c.game_id == game_id).values(concede_to=None))


def add_seat_change(conn: Connection, **values: Any) -> None:
    conn.execute(insert(m.seat_changes).values(**values))


SeatChangeRow = _row_type("SeatChangeRow", m.seat_changes)
_SEAT_CHANGES_SQL = (f"SELECT {', '.join(SeatChangeRow._fields)} FROM seat_changes"
                     " WHERE game_id = {p} ORDER BY id")


def seat_changes_of(conn: Connection, game_id: int) -> list[Any]:
    """A game's seat changes in order (asked for every game view: the statement goes to the
    driver)."""
    driver = _driver(conn)
    postgres = conn.dialect.name == "postgresql"
    rows = driver.execute(_SEAT_CHANGES_SQL.format(p="%s" if postgres else "?"), (game_id,))
    return [SeatChangeRow(*r) for r in rows]


# -- orders of the current phase -------------------------------------------------------------------

_PENDING = select(m.pending_orders).where(m.pending_orders.c.game_id == bindparam("game_id"))
_PENDING_UPDATE = update(m.pending_orders).where(
    m.pending_orders.c.game_id == bindparam("key_game"),
    m.pending_orders.c.power == bindparam("key_power"),
).values(phase=bindparam("phase"), text=bindparam("text"), ready=bindparam("ready"),
         updated_at=bindparam("updated_at"))
_PENDING_INSERT = insert(m.pending_orders)


def pending_of(conn: Connection, game_id: int) -> list[Row[Any]]:
    return list(conn.execute(_PENDING, {"game_id": game_id}))


def put_pending(conn: Connection, *, game_id: int, power: str, phase: str, text: str | None,
                ready: bool, now: float) -> None:
    values = {"phase": phase, "text": text, "ready": ready, "updated_at": now}
    result = conn.execute(_PENDING_UPDATE, {"key_game": game_id, "key_power": power, **values})
    if result.rowcount == 0:
        conn.execute(_PENDING_INSERT, {"game_id": game_id, "power": power, **values})


def clear_pending(conn: Connection, game_id: int) -> None:
    conn.execute(delete(m.pending_orders).where(m.pending_orders.c.game_id == game_id))


# -- the phase log --------------------------------------------------------------------------------

def append_phase(conn: Connection, *, game_id: int, seq: int, phase: str, data: str,
                 now: float) -> None:
    conn.execute(insert(m.phases).values(game_id=game_id, seq=seq, phase=phase, data=data,
                                         created_at=now))


def _counter(name: str, value: int) -> Any:
    """A counter from a request (up to 2^63-1) compared with a column: bound as a 64-bit
    integer, since PostgreSQL cannot make a larger number into the 32-bit type of an
    ``INTEGER`` column (an error, not an empty answer)."""
    return bindparam(name, value, type_=BigInteger)


def phases_of(conn: Connection, game_id: int, since: int = 0) -> list[Row[Any]]:
    return list(conn.execute(select(m.phases).where(
        m.phases.c.game_id == game_id, m.phases.c.seq >= _counter("since", since))
        .order_by(m.phases.c.seq)))


# -- press ---------------------------------------------------------------------------------------

def add_message(conn: Connection, **values: Any) -> int:
    result = conn.execute(insert(m.messages).values(**values))
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


def messages_of(conn: Connection, game_id: int, after: int = 0, *,
                readers: Sequence[str] | None = None, limit: int | None = None) -> list[Row[Any]]:
    """The game's messages after id ``after``, oldest first, at most ``limit`` of them; with
    ``readers``, only those the powers ``readers`` may read: the public ones, and the private
    ones they sent or were sent (chosen by the database, so that a page is full however many
    messages others exchanged)."""
    query = select(m.messages).where(
        m.messages.c.game_id == game_id, m.messages.c.id > _counter("after", after))
    if readers is not None:
        listed = literal(",") + m.messages.c.recipients + literal(",")
        query = query.where(or_(
            m.messages.c.recipients == "", m.messages.c.sender.in_(list(readers)),
            *[listed.contains(f",{power},", autoescape=True) for power in readers]))
    return list(conn.execute(query.order_by(m.messages.c.id).limit(limit)))


def messages_sent_since(conn: Connection, game_id: int, user_id: int, since: float) -> int:
    count = conn.execute(select(func.count()).select_from(m.messages).where(
        m.messages.c.game_id == game_id, m.messages.c.sender_user_id == user_id,
        m.messages.c.created_at >= since)).scalar_one()
    return int(count)
