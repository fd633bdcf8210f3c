"""The database tables (SQLAlchemy Core), as the latest migration leaves them.

The engine state of a game is its game record (``realpolitik.savefile``) in ``games.record``,
rewritten in the same transaction as each adjudication; the orders given for the current phase
live in ``pending_orders`` (one row per power, committed before the reply) and are replayed onto
the game when it is loaded. ``phases`` is the append-only log of played phases that the history
endpoints read without loading the engine.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

users = Table(
    "users", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("username", String(32), nullable=False, unique=True),
    Column("password_hash", String(200), nullable=False),
    Column("created_at", Float, nullable=False),
)

tokens = Table(
    "tokens", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False,
           index=True),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False, index=True),
    Column("client", String(64), nullable=True),  # the address it logged in from
    Column("agent", String(200), nullable=True),  # the User-Agent it logged in with
    # when a request last came with it (written a tick late: AccountService.save_last_used)
    Column("last_used_at", Float, nullable=True),
)

games = Table(
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
    # bumped with ``record`` only (``version`` is bumped by every change)
    Column("record_version", Integer, nullable=False, server_default="0"),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
)

seats = Table(
    "seats", metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=True, index=True),
    Column("concede_to", String(40), nullable=True),
    Column("joined_at", Float, nullable=True),
)

pending_orders = Table(
    "pending_orders", metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("power", String(40), primary_key=True),
    Column("phase", String(12), nullable=False),
    Column("text", Text, nullable=True),
    Column("ready", Boolean, nullable=False),
    Column("updated_at", Float, nullable=False),
)

phases = Table(
    "phases", metadata,
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("phase", String(12), nullable=False),
    Column("data", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)

messages = Table(
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

seat_changes = Table(
    "seat_changes", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", Integer, ForeignKey("games.id", ondelete="CASCADE"), nullable=False,
           index=True),
    Column("phase", String(12), nullable=False),
    Column("powers", Text, nullable=False),  # comma-separated power ids of the seat
    Column("kind", String(12), nullable=False),  # joined, left, replaced, freed, bot
    Column("player_id", Integer, ForeignKey("users.id"), nullable=True),
    Column("previous_id", Integer, ForeignKey("users.id"), nullable=True),
    Column("by_id", Integer, ForeignKey("users.id"), nullable=True),
    Column("by_gamesmaster", Boolean, nullable=False),
    Column("created_at", Float, nullable=False),
)

ws_tickets = Table(
    "ws_tickets", metadata,
    # single-use WebSocket tickets (POST /auth/ticket), as SHA-256; shared by the workers
    Column("id", Integer, primary_key=True, autoincrement=True),  # the order of issue
    Column("ticket_hash", String(64), nullable=False, unique=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("expires_at", Float, nullable=False, index=True),
)

mail_prefs = Table(
    "mail_prefs", metadata,
    # a user's e-mail address and what they want to hear of (see notify.py)
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
)

mail_outbox = Table(
    "mail_outbox", metadata,
    # mail waiting to be sent (sent_at null), or sent; in_digest: waits for the user's digest
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
)

mail_marks = Table(
    "mail_marks", metadata,
    # a deadline reminder sent: one per player, game and phase
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("game_id", Integer, primary_key=True),
    Column("phase", String(12), primary_key=True),
    Column("kind", String(16), primary_key=True),
)
