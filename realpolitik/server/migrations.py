"""Schema migrations: a ``schema_version`` table and a list of numbered steps, run in order at
start-up (each in its own transaction) until the database is at :data:`LATEST`.

Alembic was more machinery than one small schema needs; this keeps the same guarantees (a
recorded version, forward-only numbered steps, one transaction each) in one file. A step must
never change once released: step 1 keeps its own frozen copy of the first tables, and a change
to ``models.py`` comes with a new step that alters the tables (``ALTER TABLE ...``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    inspect,
    select,
    text,
)

_version_md = MetaData()
schema_version = Table(
    "schema_version", _version_md,
    Column("version", Integer, primary_key=True),
    Column("applied_at", Float, nullable=False),
)


def _step_1(conn: Connection) -> None:
    """The first schema: users, tokens, games, seats, pending orders, phases, messages."""
    metadata = MetaData()

    Table(
        "users", metadata,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("username", String(32), nullable=False, unique=True),
        Column("password_hash", String(200), nullable=False),
        Column("created_at", Float, nullable=False),
    )

    Table(
        "tokens", metadata,
        Column("token_hash", String(64), primary_key=True),
        Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False,
               index=True),
        Column("created_at", Float, nullable=False),
        Column("expires_at", Float, nullable=False),
    )

    Table(
        "games", metadata,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("name", String(100), nullable=False),
        Column("creator_id", Integer, ForeignKey("users.id"), nullable=False),
        Column("variant", String(40), nullable=False),
        Column("rules", String(20), nullable=False),
        Column("setup", String(10), nullable=False),
        Column("private", Boolean, nullable=False),
        Column("invite_code", String(40), nullable=True),
        Column("settings", Text, nullable=False),
        Column("status", String(12), nullable=False, index=True),
        Column("phase", String(12), nullable=False),
        Column("deadline", Float, nullable=True, index=True),
        Column("paused_remaining", Float, nullable=True),
        Column("record", Text, nullable=False),
        Column("version", Integer, nullable=False),
        Column("created_at", Float, nullable=False),
        Column("updated_at", Float, nullable=False),
    )

    Table(
        "seats", metadata,
        Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        Column("seat", Integer, primary_key=True),
        Column("user_id", Integer, ForeignKey("users.id"), nullable=True, index=True),
        Column("concede_to", String(40), nullable=True),
        Column("joined_at", Float, nullable=True),
    )

    Table(
        "pending_orders", metadata,
        Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        Column("power", String(40), primary_key=True),
        Column("phase", String(12), nullable=False),
        Column("text", Text, nullable=True),
        Column("ready", Boolean, nullable=False),
        Column("updated_at", Float, nullable=False),
    )

    Table(
        "phases", metadata,
        Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        Column("seq", Integer, primary_key=True),
        Column("phase", String(12), nullable=False),
        Column("data", Text, nullable=False),
        Column("created_at", Float, nullable=False),
    )

    Table(
        "messages", metadata,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), nullable=False,
               index=True),
        Column("phase", String(12), nullable=False),
        Column("sender", String(40), nullable=False),
        Column("sender_user_id", Integer, ForeignKey("users.id"), nullable=False),
        Column("recipients", Text, nullable=False),
        # comma-separated power ids; empty for a public announcement
        Column("body", Text, nullable=False),
        Column("created_at", Float, nullable=False),
    )
    metadata.create_all(conn)


def _step_2(conn: Connection) -> None:
    """Deadlines within bounds; an index to purge expired tokens; the log of seat changes.

    Before this step ``gm/extend`` took any number, and a deadline of thousands of years (or an
    infinite one) could be stored, which no answer could show: such deadlines are brought back
    to 60 days from now, and a paused game's remaining time to at most 60 days.
    """
    now = time.time()
    cap = 60 * 86400
    conn.execute(text("UPDATE games SET deadline = :latest WHERE deadline > :latest"),
                 {"latest": now + cap})
    conn.execute(text("UPDATE games SET deadline = :now WHERE deadline < 0"), {"now": now})
    conn.execute(text("UPDATE games SET paused_remaining = :cap WHERE paused_remaining > :cap"),
                 {"cap": cap})
    conn.execute(text("UPDATE games SET paused_remaining = 0 WHERE paused_remaining < 0"))
    conn.execute(text("CREATE INDEX ix_tokens_expires_at ON tokens (expires_at)"))
    metadata = MetaData()
    Table(
        "games", metadata, Column("id", Integer, primary_key=True))  # for the foreign key only
    Table(
        "users", metadata, Column("id", Integer, primary_key=True))
    Table(
        "seat_changes", metadata,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), nullable=False,
               index=True),
        Column("phase", String(12), nullable=False),
        Column("powers", Text, nullable=False),  # comma-separated power ids of the seat
        Column("kind", String(12), nullable=False),  # joined, left, replaced, freed
        Column("player_id", Integer, ForeignKey("users.id"), nullable=True),
        Column("previous_id", Integer, ForeignKey("users.id"), nullable=True),
        Column("by_id", Integer, ForeignKey("users.id"), nullable=True),
        Column("by_gamesmaster", Boolean, nullable=False),
        Column("created_at", Float, nullable=False),
    ).create(conn)


def _step_3(conn: Connection) -> None:
    """Several workers: ``games.record_version``, bumped with the game record only (``version``
    is bumped by every change), so that a process whose copy of a game is behind by orders only
    replays them instead of loading the whole record again; and the WebSocket tickets in a
    table (a ticket issued by one worker is redeemed by whichever worker takes the socket)."""
    conn.execute(text("ALTER TABLE games ADD COLUMN record_version INTEGER NOT NULL DEFAULT 0"))
    metadata = MetaData()
    Table("users", metadata, Column("id", Integer, primary_key=True))  # for the foreign key
    Table(
        "ws_tickets", metadata,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("ticket_hash", String(64), nullable=False, unique=True),
        Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        Column("token_hash", String(64), nullable=False),
        Column("expires_at", Float, nullable=False, index=True),
    ).create(conn)


def _step_4(conn: Connection) -> None:
    """Sessions a user can see and end: each log-in token keeps the client address and the
    browser or program (``User-Agent``) it was made from."""
    conn.execute(text("ALTER TABLE tokens ADD COLUMN client VARCHAR(64)"))
    conn.execute(text("ALTER TABLE tokens ADD COLUMN agent VARCHAR(200)"))


def _step_5(conn: Connection) -> None:
    """E-mail notifications: each user's address (verified or not) and choices, the mail
    waiting to be sent, and the reminders already sent (one per player, game and phase)."""
    metadata = MetaData()
    Table("users", metadata, Column("id", Integer, primary_key=True))  # for the foreign keys
    Table(
        "mail_prefs", metadata,
        Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        Column("email", String(254), nullable=True),
        Column("verified", Boolean, nullable=False),
        Column("verify_hash", String(64), nullable=True, index=True),
        Column("verify_expires", Float, nullable=True),
        Column("unsubscribe_key", String(64), nullable=False, unique=True),
        Column("phase", Boolean, nullable=False),
        Column("reminder", Boolean, nullable=False),
        Column("press", Boolean, nullable=False),
        Column("digest", Boolean, nullable=False),
        Column("last_digest_at", Float, nullable=True),
    ).create(conn)
    Table(
        "mail_outbox", metadata,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False,
               index=True),
        Column("kind", String(16), nullable=False),
        Column("subject", Text, nullable=False),
        Column("body", Text, nullable=False),
        Column("in_digest", Boolean, nullable=False),
        Column("created_at", Float, nullable=False),
        Column("sent_at", Float, nullable=True, index=True),
        Column("attempts", Integer, nullable=False),
        Column("error", Text, nullable=True),
    ).create(conn)
    Table(
        "mail_marks", metadata,
        Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        Column("game_id", Integer, primary_key=True),
        Column("phase", String(12), primary_key=True),
        Column("kind", String(16), primary_key=True),
    ).create(conn)


def _step_6(conn: Connection) -> None:
    """When each log-in was last used (its owner's list of sessions shows it); a log-in made
    before this step was last used, as far as is known, when it was made."""
    conn.execute(text("ALTER TABLE tokens ADD COLUMN last_used_at FLOAT"))
    conn.execute(text("UPDATE tokens SET last_used_at = created_at"))


MIGRATIONS: list[tuple[int, str, Callable[[Connection], None]]] = [
    (1, "the first schema", _step_1),
    (2, "bounded deadlines, token expiry index, seat changes", _step_2),
    (3, "the version of the game record, WebSocket tickets", _step_3),
    (4, "the address and browser of each log-in", _step_4),
    (5, "e-mail notifications: addresses, choices, outbox, reminders sent", _step_5),
    (6, "when each log-in was last used", _step_6),
]
LATEST = MIGRATIONS[-1][0]


class SchemaTooNew(RuntimeError):
    """The database was migrated by a newer realpolitik than this one."""


def current_version(conn: Connection) -> int:
    """The schema version of the database (0 for an empty one)."""
    if not inspect(conn).has_table("schema_version"):
        return 0
    versions = conn.execute(select(schema_version.c.version)).scalars().all()
    return max(versions, default=0)


def migrate(engine: Engine) -> int:
    """Bring the database up to :data:`LATEST`; returns the version it was at.

    :raises SchemaTooNew: the database is newer than this program.
    """
    with engine.begin() as conn:
        _version_md.create_all(conn)
        start = current_version(conn)
    if start > LATEST:
        raise SchemaTooNew(f"the database has schema version {start}; this realpolitik knows "
                           f"up to {LATEST}: upgrade realpolitik")
    for number, _description, step in MIGRATIONS:
        if number <= start:
            continue
        with engine.begin() as conn:
            step(conn)
            conn.execute(schema_version.insert().values(version=number, applied_at=time.time()))
    return start
