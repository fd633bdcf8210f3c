"""The service's values and errors: what routes pass in and get back, free of HTTP and SQL."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from realpolitik.orders import Order

JSON = dict[str, Any]

MAX_DEADLINE_SECONDS = 60 * 86400
"""A deadline is at most 60 days away (a phase's period, and how far the gamesmaster may move
it)."""


class ServiceError(Exception):
    """A request the service refuses: an HTTP status, a short code and a sentence, plus fields."""

    def __init__(self, status: int, code: str, message: str, *,
                 headers: dict[str, str] | None = None, **fields: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
        self.fields = fields

    def detail(self) -> JSON:
        """The ``detail`` object of the error answer."""
        return {"code": self.code, "message": self.message, **self.fields}


def not_found(what: str) -> ServiceError:
    return ServiceError(404, "not_found", f"no such {what}")


def forbidden(message: str, code: str = "forbidden") -> ServiceError:
    return ServiceError(403, code, message)


def conflict(message: str, code: str = "conflict") -> ServiceError:
    return ServiceError(409, code, message)


def bad(message: str, code: str = "bad_request", **fields: Any) -> ServiceError:
    return ServiceError(422, code, message, **fields)


# -- game settings ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Deadlines:
    """Seconds allowed per phase: the rulebook's 30 minutes of diplomacy before the first move
    and 15 before each later one (IV.1); short periods for retreats and adjustments."""

    first_movement: int = 30 * 60
    movement: int = 15 * 60
    retreats: int = 5 * 60
    adjustments: int = 5 * 60


@dataclass(frozen=True, slots=True)
class PressRules:
    """Who may talk when: private messages and public announcements, and whether press stays
    open during retreats and adjustments (closed by default: 1971 XIV.1, 1992 XV.2)."""

    private: bool = True
    public: bool = True
    outside_diplomacy: bool = False


@dataclass(frozen=True, slots=True)
class GameOptions:
    """What a creator chooses for a new game."""

    name: str
    variant: str = "classical"
    rules: str = "2023"
    players: str | None = None
    """The setup id (``"7"``, ``"6"``, ``"5"``, ``"4"``, ``"3"``, ``"3b"``, ``"2"``)."""
    private: bool = False
    deadlines: Deadlines = field(default_factory=Deadlines)
    press: PressRules = field(default_factory=PressRules)
    end_year: int | None = None
    """A short game (III): it stops after this year's adjustments."""
    join_as: str | None = None
    """A power for the creator to take at once."""
    fill_with_bots: str | None = None
    """A bot (``heuristic``, ``random``, ``hold``) for every seat the creator does not take."""
    daide_bots: bool = False
    """DAIDE bots (DumbBot and others) may take free seats through the server's DAIDE port."""
    policies: dict[str, str] = field(default_factory=dict)
    """The variant's policies the game chooses otherwise (name -> value)."""


@dataclass(frozen=True, slots=True)
class DaideSeat:
    """A DAIDE bot in a seat: the name and version it gave (``NME``) and the passcode it takes
    the seat back with after a disconnection (``IAM``)."""

    name: str
    version: str
    passcode: int

    @property
    def label(self) -> str:
        """How the page shows the bot: ``DumbBot 1.0 (DAIDE)``."""
        return " ".join(part for part in (self.name, self.version) if part) + " (DAIDE)"


@dataclass(frozen=True, slots=True)
class Account:
    """A logged-in user."""

    id: int
    username: str


@dataclass(frozen=True, slots=True)
class OrderLine:
    """One order of a submission, as the wire shows it."""

    line: int | None
    text: str
    order: Order | None
    error: JSON | None


def iso_time(ts: float | None) -> str | None:
    """``ts`` (seconds since the epoch) as ISO 8601 in UTC; None for None, or for a time no
    calendar can show (not finite, or beyond the year 9999)."""
    if ts is None:
        return None
    try:
        return datetime.fromtimestamp(ts, UTC).isoformat().replace("+00:00", "Z")
    except (OverflowError, ValueError, OSError):
        return None
