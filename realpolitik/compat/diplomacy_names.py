"""The ``diplomacy`` package's named values: order results, rule names, game statuses.

Code written for that package compares results with ``diplomacy.utils.order_results.BOUNCE``,
passes ``diplomacy.utils.strings.ACTIVE`` and reads ``constants.DEFAULT_GAME_RULES``; with
:func:`realpolitik.compat.install` those modules are made from this one. An order result here is
a string (``BOUNCE == "bounce"``), so the facade's results, which are plain strings, compare
equal to them as the package's do.
"""

from __future__ import annotations


class OrderResult(str):
    """An order's result: the word (``"bounce"``) with the package's number for it."""

    code: int

    def __new__(cls, code: int, message: str) -> OrderResult:
        made = super().__new__(cls, message)
        made.code = code
        return made

    @property
    def message(self) -> str:
        """The word itself: ``"bounce"``."""
        return str.__str__(self)

    def __reduce__(self) -> tuple[object, ...]:
        return (OrderResult, (self.code, self.message))


_OFFSET = 10000
OK = OrderResult(0, "")
NO_CONVOY = OrderResult(_OFFSET + 1, "no convoy")
BOUNCE = OrderResult(_OFFSET + 2, "bounce")
VOID = OrderResult(_OFFSET + 3, "void")
CUT = OrderResult(_OFFSET + 4, "cut")
DISLODGED = OrderResult(_OFFSET + 5, "dislodged")
DISRUPTED = OrderResult(_OFFSET + 6, "disrupted")
DISBAND = OrderResult(_OFFSET + 7, "disband")
MAYBE = OrderResult(_OFFSET + 8, "maybe")

ORDER_RESULTS = {"OK": OK, "NO_CONVOY": NO_CONVOY, "BOUNCE": BOUNCE, "VOID": VOID, "CUT": CUT,
                 "DISLODGED": DISLODGED, "DISRUPTED": DISRUPTED, "DISBAND": DISBAND,
                 "MAYBE": MAYBE, "OrderResult": OrderResult, "ORDER_RESULT_OFFSET": _OFFSET}
"""What ``diplomacy.utils.order_results`` holds."""

DEFAULT_GAME_RULES = ("SOLITAIRE", "NO_PRESS", "IGNORE_ERRORS", "POWER_CHOICE")
"""The rules a ``Game()`` starts with, as in the package."""

CONSTANTS = {"DEFAULT_GAME_RULES": DEFAULT_GAME_RULES, "DEFAULT_HOST": "localhost",
             "DEFAULT_PORT": 8432}
"""What ``diplomacy.utils.constants`` holds (the network values only for code that reads them)."""

# Game statuses, roles, recipients and the keys of the package's dictionaries: each name is its
# own lower-case word in the package (``strings.ACTIVE == "active"``).
_WORDS = (
    "ACTIVE", "CANCELED", "COMPLETED", "FORMING", "PAUSED",
    "CENTERS", "CIVIL_DISORDER", "CONTROLLED_POWERS", "GAME_ID", "HOMES", "INFLUENCE", "MAP",
    "MAP_NAME", "MESSAGE", "MESSAGES", "NAME", "NOTE", "ORDERS", "OUTCOME", "PHASE", "PHASES",
    "POWER", "POWERS", "RECIPIENT", "RESULTS", "RETREATS", "ROLE", "RULES", "SENDER", "STATE",
    "STATUS", "TIME_SENT", "TIMESTAMP", "UNITS", "ZOBRIST_HASH", "ADJUST",
    "MASTER_TYPE", "OMNISCIENT_TYPE", "OBSERVER_TYPE", "SERVER_TYPE",
)
STRINGS: dict[str, object] = {word: word.lower() for word in _WORDS}
"""What ``diplomacy.utils.strings`` holds, for the names research code uses."""
STRINGS.update({
    "ALL_GAME_STATUSES": ("forming", "active", "paused", "completed", "canceled"),
    "ALL_ROLE_TYPES": frozenset({"omniscient_type", "observer_type", "server_type"}),
})
