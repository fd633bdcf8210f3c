"""The server's settings, read from the environment (``REALPOLITIK_*``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

_PREFIX = "REALPOLITIK_"


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the server can be told; each field can be set by ``REALPOLITIK_<NAME>``
    (``REALPOLITIK_DATABASE_URL=postgresql+psycopg://...``)."""

    database_url: str = "sqlite:///realpolitik.db"
    """Any SQLAlchemy URL; the default is an SQLite file in the working directory (WAL mode)."""
    sqlite_synchronous: str = "normal"
    """SQLite's ``synchronous`` pragma: ``normal`` (the default) syncs the write-ahead log to
    disk at checkpoints, so a commit survives the server being killed but the last ones may be
    lost if the machine itself crashes; ``full`` syncs every commit (a disk flush each, which
    limits an ordinary disk to some hundreds of commits a second)."""
    game_cache_size: int = 500
    """Games each server process keeps loaded (least recently used dropped first); a game in
    mid-play takes about 0.7 MB, and one not loaded costs a few milliseconds to load."""
    tick_seconds: float = 1.0
    """How often the background task looks for phases whose deadline has passed."""
    token_days: float = 30.0
    """How long a log-in token stays valid."""
    max_body_bytes: int = 65536
    """Requests with a larger body are refused (413)."""
    max_order_chars: int = 8000
    """The longest order text accepted in one submission."""
    max_press_chars: int = 4000
    """The longest press message."""
    press_per_minute: int = 30
    """Press messages one user may send per game per minute."""
    orders_per_minute: int = 120
    """Order submissions one user may make per game per minute."""
    hash_workers: int = 2
    """Passwords hashed or checked at once (argon2id takes 64 MiB and about 0.1-0.5 s each);
    more requests wait their turn without holding a worker thread."""
    login_failures_per_account: str = "10 per 15 minutes"
    """Failed log-ins one account may have (from every address together) before each further
    attempt waits ``login_delay_seconds`` before its password is checked. Never a refusal: a
    stranger could then lock the owner out."""
    login_delay_seconds: float = 2.0
    """The wait of a log-in to an account past ``login_failures_per_account``."""
    login_failures_per_account_and_client: str = "10 per 15 minutes"
    """Failed log-ins to one account from one client address before that address is refused
    (429) for it; attempts still under way count too. The owner, elsewhere, is not."""
    login_failures_per_client: str = "30 per 15 minutes"
    """Failed log-ins from one client address (all accounts together)."""
    signups_per_client: str = "10 per hour"
    """Sign-ups from one client address."""
    taken_names_per_client: str = "5 per hour"
    """Sign-ups from one client address that found their name taken; past it, every sign-up
    from the address is refused (429) for a while, whatever the name, so that the answers do
    not tell which names exist beyond the few it has asked about."""
    games_per_client: str = "30 per hour"
    """New games from one client address."""
    forming_games_per_user: int = 5
    """Games one user may have created that still wait for players (429 for another): with
    the lobby listing the games with most players first, a flood of empty games hides none."""
    ticket_seconds: float = 30.0
    """How long a WebSocket ticket (``POST /auth/ticket``) may wait before it is used."""
    sockets_per_client: int = 20
    """Live connections (WebSockets) one client address may hold at once; more are closed at
    once (code 1008). Behind a reverse proxy this counts the addresses uvicorn is told
    (``--forwarded-allow-ips``)."""
    ws_check_seconds: float = 15.0
    """How often an open WebSocket checks that its user may still watch (the token is still
    valid, the game still visible to them)."""
    access_log: bool = True
    """Log a line per request (uvicorn's access log). It costs about a tenth of a worker's CPU
    per request under load; a site that logs at its reverse proxy may turn it off."""
    variants_path: str = ""
    """Folders of variants the server offers besides the shipped ones, separated by ``:``
    (``;`` on Windows): each a variant's folder or a folder of variants' folders. A game
    names its variant by id, so a folder may move between these places."""
    smtp_host: str = ""
    """The SMTP server that sends notifications by e-mail; empty (the default): no e-mail."""
    smtp_port: int = 25
    """Its port (587 with ``smtp_starttls``, 465 with ``smtp_ssl``)."""
    smtp_user: str = ""
    """The user name to log in to the SMTP server with (empty: no log-in)."""
    smtp_password: str = ""
    """Its password."""
    smtp_starttls: bool = False
    """Upgrade the connection with STARTTLS before logging in."""
    smtp_ssl: bool = False
    """Connect over TLS from the start (SMTPS, port 465)."""
    mail_from: str = "realpolitik <realpolitik@localhost>"
    """The sender of the notifications."""
    public_url: str = "http://127.0.0.1:8000"
    """The address players open the site at: the links in the mail (game, verify,
    unsubscribe) start with it."""
    reminder_hours: float = 12.0
    """A player whose orders are not in gets a reminder when this much time is left."""
    digest_hours: float = 24.0
    """A player who chose the digest gets at most one mail this often, with everything since."""
    background: bool = True
    """Run the deadline task (tests turn it off and call ``process_due`` themselves)."""
    daide_port: int = 0
    """The TCP port DAIDE bots (DumbBot and others) connect to, to take free seats in the
    games that accept them (docs/daide.md); 0: none. With several workers the first to start
    holds it and reaches every worker's games through the database."""
    daide_host: str = "127.0.0.1"
    """The address the DAIDE port listens on."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: object) -> Settings:
        """The settings from ``env`` (default ``os.environ``), then ``overrides``.

        :raises ValueError: a variable does not hold a value of the field's type.
        """
        source = os.environ if env is None else env
        # each value is read as its field's default is typed (bool, int, float or str)
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = source.get(_PREFIX + f.name.upper())
            if raw is None:
                continue
            default = getattr(cls(), f.name)
            try:
                if isinstance(default, bool):
                    values[f.name] = raw.strip().lower() in {"1", "true", "yes", "on"}
                elif isinstance(default, int):
                    values[f.name] = int(raw)
                elif isinstance(default, float):
                    values[f.name] = float(raw)
                else:
                    values[f.name] = raw
            except ValueError as exc:
                raise ValueError(f"{_PREFIX}{f.name.upper()}={raw!r}: {exc}") from exc
        values.update({k: v for k, v in overrides.items() if v is not None})
        return replace(cls(), **values)
