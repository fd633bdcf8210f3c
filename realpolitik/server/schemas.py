"""Wire schemas (pydantic) and the converters between them and engine and service values.

The engine has no pydantic; everything that crosses HTTP is declared here, so the OpenAPI
description lists every field. Orders travel as text (read by the engine's parser) or as
structured orders, which are turned into the canonical text and read by the same parser, so both
ways give the same per-line messages.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from realpolitik.game import REPLACED
from realpolitik.geography import UnitType
from realpolitik.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    VariantOrder,
    Waive,
)
from realpolitik.server.values import (
    MAX_DEADLINE_SECONDS,
    Deadlines,
    GameOptions,
    OrderLine,
    PressRules,
)
from realpolitik.writing import PlaceWriter

_DURATION = re.compile(r"(\d+)\s*([smhd])")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
MAX_DURATION = MAX_DEADLINE_SECONDS
"""The longest period, and the furthest a deadline may be moved: 60 days."""


def parse_duration(value: object) -> int:
    """Seconds from ``90``, ``"90"``, ``"30m"``, ``"2h"``, ``"3d"``, ``"1h30m"`` or ``"-10m"``.

    :raises ValueError: not a duration, or one beyond any bound a duration may have (more than
        a year either way), or a number that is not finite.
    """
    if isinstance(value, bool):
        raise ValueError("a duration is a number of seconds or text like '30m', '2h', '3d'")
    seconds: int | None = None
    if isinstance(value, int):
        seconds = value
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("a duration must be a finite number of seconds")
        seconds = int(value) if abs(value) < 2**63 else None
    elif isinstance(value, str):
        text = value.strip().lower()
        sign = -1 if text.startswith("-") else 1
        text = text.lstrip("+-").strip()
        if len(text) > 40:
            raise ValueError("a duration is at most 40 characters: write it like '30m', '2h'")
        if text.isdigit():
            seconds = sign * int(text)
        else:
            parts = _DURATION.findall(text)
            if parts and _DURATION.sub("", text).strip() == "":
                seconds = sign * sum(int(n) * _UNITS[u] for n, u in parts)
    else:
        raise ValueError(f"{value!r} is not a duration: write seconds or text like '30m', "
                         "'2h', '3d'")
    if seconds is None:
        raise ValueError(f"{value!r} is not a duration: write seconds or text like '30m', "
                         "'2h', '3d'")
    if abs(seconds) > 366 * 86400:
        raise ValueError(f"{value!r} is more than a year: a deadline is at most 60 days away")
    return seconds


def _spoken(seconds: int) -> str:
    """A number of seconds as people say it: ``10 seconds``, ``5 minutes``, ``60 days``."""
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds and seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return f"{seconds} second{'s' if seconds != 1 else ''}"


def _within(low: int, high: int, what: str) -> AfterValidator:
    def check(seconds: int) -> int:
        if seconds < low:
            raise ValueError(f"{_spoken(seconds)} is too short: {what} is at least "
                             f"{_spoken(low)}")
        if seconds > high:
            raise ValueError(f"{_spoken(seconds)} is too long: {what} is at most "
                             f"{_spoken(high)}")
        return seconds
    return AfterValidator(check)


Duration = Annotated[int, BeforeValidator(parse_duration),
                     _within(10, MAX_DURATION, "a deadline"),
                     Field(json_schema_extra={"minimum": 10, "maximum": MAX_DURATION})]
"""Seconds; also written ``"30m"``, ``"2h"``, ``"3d"``. Between 10 seconds and 60 days."""

Shift = Annotated[int, BeforeValidator(parse_duration),
                  _within(-MAX_DURATION, MAX_DURATION, "a deadline's move"),
                  Field(json_schema_extra={"minimum": -MAX_DURATION, "maximum": MAX_DURATION})]
"""Seconds to move a deadline by, either way; at most 60 days."""

Power = Annotated[str, Field(min_length=2, max_length=40, examples=["france"])]
PolicyWord = Annotated[str, Field(min_length=1, max_length=40)]
"""A policy's name or value (``second_place``, ``count``)."""

# The defaults of a new game are the service's (values.py); the wire models only declare them.
_DEADLINES = Deadlines()
_PRESS = PressRules()


class Strict(BaseModel):
    """Unknown fields are an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


# -- accounts -------------------------------------------------------------------------------------

class Credentials(Strict):
    username: str = Field(min_length=2, max_length=32, examples=["alice"])
    password: str = Field(min_length=1, max_length=200)


class TokenOut(BaseModel):
    token: str
    """Send as ``Authorization: Bearer <token>``."""
    user_id: int
    username: str


class PasswordChange(Strict):
    current_password: str = Field(min_length=1, max_length=200)
    new_password: str = Field(min_length=1, max_length=200)


class RevokedOut(BaseModel):
    revoked: int
    """How many log-ins were ended."""


class SessionOut(BaseModel):
    """One log-in of the user: a token still valid."""

    id: str
    """Names the log-in for ``DELETE /auth/sessions/{id}`` (not the token, nor enough to
    make one)."""
    created_at: str | None
    expires_at: str | None
    last_used_at: str | None
    """When a request last came with it (to the second the server's task last noted it: at
    most ``REALPOLITIK_TICK_SECONDS`` late, a few more with several workers)."""
    client: str | None
    """The address it logged in from."""
    agent: str | None
    """The browser or program it logged in with (its ``User-Agent``)."""
    current: bool
    """True for the log-in of this request."""


class TicketOut(BaseModel):
    ticket: str
    """Open ``/games/{id}/ws?ticket=<ticket>`` with it, once."""
    expires_in: float
    """Seconds it stays valid."""


class UserOut(BaseModel):
    id: int
    username: str


# -- games ----------------------------------------------------------------------------------------

class DeadlinesIn(Strict):
    """Time per phase: the rulebook's 30 minutes before the first move, 15 before the others
    (IV.1), and 5 minutes for retreats and adjustments, unless set."""

    first_movement: Duration = _DEADLINES.first_movement
    movement: Duration = _DEADLINES.movement
    retreats: Duration = _DEADLINES.retreats
    adjustments: Duration = _DEADLINES.adjustments


class PressIn(Strict):
    """Private messages, public announcements, and whether press stays open during retreats
    and adjustments (closed by default: 1971 XIV.1, 1992 XV.2)."""

    private: bool = _PRESS.private
    public: bool = _PRESS.public
    outside_diplomacy: bool = _PRESS.outside_diplomacy


class GameCreate(Strict):
    name: str = Field(min_length=1, max_length=100, examples=["Friday game"])
    variant: str = Field(default="classical", max_length=40)
    rules: str = Field(default="2023", max_length=20, examples=["2023", "1971", "1982"])
    players: str | None = Field(default=None, max_length=10,
                                examples=["7", "6", "5", "4", "3", "3b", "2"])
    private: bool = False
    """A private game is not listed; joining takes its invite code."""
    deadlines: DeadlinesIn = Field(default_factory=DeadlinesIn)
    press: PressIn = Field(default_factory=PressIn)
    end_year: int | None = Field(default=None, ge=1, le=9999)
    join_as: Power | None = None
    fill_with_bots: str | None = Field(default=None, max_length=20,
                                       examples=["heuristic", "random", "hold"])
    """A bot for every seat but the creator's (``join_as``): the game starts at once."""
    daide_bots: bool = False
    """DAIDE bots (DumbBot and others) may take free seats through the server's DAIDE port
    (``realpolitik serve --daide-port``): classical games with one power a player."""
    policies: dict[PolicyWord, PolicyWord] | None = Field(
        default=None, max_length=50, examples=[{"second_place": "count"}])
    """The variant's policies (its readings of an unclear rule) this game chooses otherwise,
    name -> value, as ``realpolitik new --policy NAME=VALUE``; ``GET /web/variants`` lists
    each variant's policies with their values, the first the variant's own choice."""

    def to_options(self) -> GameOptions:
        return GameOptions(
            name=self.name, variant=self.variant, rules=self.rules, players=self.players,
            private=self.private, deadlines=Deadlines(**self.deadlines.model_dump()),
            press=PressRules(**self.press.model_dump()), end_year=self.end_year,
            join_as=self.join_as, fill_with_bots=self.fill_with_bots,
            daide_bots=self.daide_bots,
            policies=dict(self.policies or {}))


class GameCreated(BaseModel):
    id: int


class GameSummary(BaseModel):
    id: int
    name: str
    variant: str
    rules: str
    players: str
    private: bool
    status: str
    phase: str
    phase_name: str = ""
    """The phase as players read it, with the season's name from the variant's year
    (``Summer 1901 movement``)."""
    deadline: str | None
    seats: int
    seats_free: int
    daide_bots: bool = False
    """DAIDE bots may take its free seats."""
    bots: list[str] = []
    """The bots that play in it: realpolitik's by name (``heuristic``), DAIDE bots by the name
    and version they gave (``DumbBot 1.0 (DAIDE)``)."""
    my_powers: list[str] = []
    """In the list of one's own games: the powers one plays."""
    orders_needed: list[str] = []
    """In the list of one's own games: those of one's powers that have orders to give this
    phase and have given none and are not ready."""


class SeatOut(BaseModel):
    seat: int
    powers: list[str]
    player: str | None
    bot: str | None = None
    """The bot that plays the seat (``heuristic``, ``random``, ``hold``), if a bot does."""
    daide: str | None = None
    """The DAIDE bot that plays the seat, by the name and version it gave
    (``DumbBot 1.0 (DAIDE)``), if one does."""


class SeatChangeOut(BaseModel):
    """A seat taken, given up or given by the gamesmaster; shown to everyone who sees the
    game, so that a gamesmaster who takes a seat (and with it that power's orders and press)
    does it openly."""

    phase: str
    powers: list[str]
    kind: Literal["joined", "left", "replaced", "freed", "bot", "daide"]
    """``bot``: the gamesmaster seated a bot; ``daide``: a DAIDE bot took the seat (``bot``
    names it)."""
    bot: str | None = None
    """For ``daide``: the DAIDE bot, ``DumbBot 1.0 (DAIDE)``."""
    player: str | None
    """Who holds the seat after the change (None: free)."""
    previous: str | None
    by: str | None
    by_gamesmaster: bool
    gamesmaster_took_it: bool
    """The gamesmaster gave the seat to themselves."""
    at: str | None


class DrawCount(BaseModel):
    in_favour: int
    needed: int


class EndOut(BaseModel):
    kind: str
    winners: list[str]
    phase: str
    summary: str


class TallyOut(BaseModel):
    """A count the page keeps as the power's orders are given: its orders of ``kind`` given,
    of at most ``limit`` ("1 of 3 given")."""

    kind: str
    limit: int


class RuleNoteOut(BaseModel):
    """One rule acting now, in words (:class:`realpolitik.rule_notes.RuleNote`)."""

    topic: str
    """What it is about, a stable key never shown (``"transform"``)."""
    heading: str
    text: str
    """Sentences, places and powers by name."""
    brief: str = ""
    """A few words for a closed box's line (``"1 may transform"``)."""
    tally: TallyOut | None = None
    pressing: bool = False
    """Something to decide now: shown open."""


class UnitMarkOut(BaseModel):
    """A note beside one of the power's units (:class:`realpolitik.rule_notes.UnitMark`)."""

    province: str
    mark: str
    """The style of the note, never shown: ``"idle"`` (greyed: the unit cannot do as ordered
    now), ``"choice"`` (one of a choice to make); other words plain."""
    text: str
    """Shown beside the unit: ``"may transform"``."""
    why: str


class UnitChoiceOut(BaseModel):
    """A choice the power's orders make (:class:`realpolitik.rule_notes.UnitChoice`): of
    ``units``, the first ``count`` given an order other than a hold are chosen, and such an
    order to another is void; an order of ``kind`` chooses a unit that then holds."""

    heading: str
    text: str
    units: list[str]
    count: int
    kind: str
    when_full: str
    """Said, after "void: ", of another unit's order but a hold once ``count`` are chosen."""


class RuleNotesOut(BaseModel):
    """The variant's rules acting now, in words (its hooks' ``rule_notes``)."""

    notes: list[RuleNoteOut] = Field(default_factory=list)
    marks: list[UnitMarkOut] = Field(default_factory=list)
    choice: UnitChoiceOut | None = None
    legend: str = ""
    """The sentence under the map explaining its marks for the variant's rules."""


class BuildsUsedOut(BaseModel):
    """Builds that orders of a kind the variant declares use this winter."""

    kind: str
    builds: int
    words: str
    """What they go to, after their number: ``"used to transform"`` ("1 used to
    transform")."""


class AdjustmentOut(BaseModel):
    """One power's builds or removals this winter: the engine's one count
    (:func:`realpolitik.winter.adjustments`), which every view shows."""

    centres: int
    units: int
    builds: int | None = None
    """Builds it can carry out (at most ``due``); absent when it must remove."""
    due: int | None = None
    """Builds the rules give it (its centres minus its units, as the variant counts them)."""
    build_sites: list[str] = Field(default_factory=list)
    """Where a unit can be built (codes)."""
    unbuildable: dict[str, str] = Field(default_factory=dict)
    """Free places it may build in where no unit can be built now -> why."""
    limit: str | None = None
    """Why ``builds`` is less than ``due``."""
    removals: int | None = None
    notes: list[str] = Field(default_factory=list)
    """Why the count is not its centres minus its units (units that need no centre, a cap)."""
    summary: str
    """The sentence: "England may build 1 (21 centres, 22 units; India's 2 armies need no
    supply centres (rule 7(e))): A45"."""


class OrderKindOut(BaseModel):
    """A kind of order the game's variant adds (:class:`realpolitik.kinds.OrderKind`)."""

    name: str
    """The ``kind`` of its orders (``"transform"``), and the keyword written."""
    label: str
    """The order menu's word for it (``"Transform"``)."""
    labels: dict[str, str] = Field(default_factory=dict)
    """The menu's words in a phase where they differ from ``label``, by the phase's name."""
    phases: list[Literal["movement", "retreats", "adjustments"]]
    """The phases its orders are given in."""
    argument: str | None = None
    """What the order names after the keyword (its ``to``), if anything."""


class GameOut(BaseModel):
    """A game as anyone who may see it sees it (orders and private press are never here)."""

    id: int
    name: str
    variant: str
    rules: str
    players: str
    setup_name: str
    private: bool
    invite_code: str | None
    """Shown to the gamesmaster and the players only."""
    status: Literal["forming", "active", "paused", "finished"]
    phase: str
    phase_type: str
    phase_name: str = ""
    """The phase as players read it: ``Spring 1901 movement``."""
    seasons: dict[str, str] = Field(default_factory=dict)
    """The variant's seasons, each code of a phase name -> its name, in the order of the year
    (``{"S": "Spring", "U": "Summer", "F": "Fall", "W": "Winter"}``): how the page names
    every phase of the game, its history's too."""
    deadline: str | None
    seconds_left: float | None
    paused_remaining: float | None
    now: str | None
    deadlines: dict[str, int]
    press: dict[str, bool]
    press_open: bool
    end_year: int | None
    gamesmaster: str | None
    seats: list[SeatOut]
    powers: list[str]
    position: dict[str, Any]
    """``phase``, ``units`` and ``centers`` per power (upper case), ``dislodged`` if any."""
    centers: dict[str, int]
    to_order: list[str]
    orders_in: list[str]
    """The powers that have given orders this phase (not what they are)."""
    ready: list[str]
    civil_disorder: list[str]
    """Powers in civil disorder: those that missed their orders, and those without a player."""
    free: list[str] = Field(default_factory=list)
    """Powers whose seat has no player (nor bot): in civil disorder, not waited for."""
    eliminated: list[str]
    draw_votes: DrawCount
    end: EndOut | None
    my_powers: list[str]
    am_gamesmaster: bool
    bots: dict[str, str] = Field(default_factory=dict)
    """Power -> the bot that commands it. realpolitik's bots (``heuristic``) order at the start
    of each phase and are ready at once; they read no press and answer none. A DAIDE bot
    (``DumbBot 1.0 (DAIDE)``) orders over the DAIDE port; it reads no one's press but other
    DAIDE bots'."""
    daide_bots: bool = False
    """DAIDE bots may take free seats, through the server's DAIDE port."""
    daide_port: int | None = None
    """The server's DAIDE port, when the game accepts DAIDE bots and the server has one."""
    seat_changes: list[SeatChangeOut]
    """Every seat change of the game, oldest first."""
    policies: dict[str, str] = Field(default_factory=dict)
    """The variant's named policies (readings of ambiguous rules) this game plays under."""
    policies_changed: dict[str, str] = Field(default_factory=dict)
    """Of ``policies``, those this game chose otherwise than its variant, each with the
    variant's own choice."""
    order_kinds: list[OrderKindOut] = Field(default_factory=list)
    """The kinds of order the variant adds to the rulebooks' (none in most variants): what the
    order menu offers beside hold, move, support and the others."""
    variant_state: dict[str, Any] = Field(default_factory=dict)
    """What of the variant's own state anyone may see (its hooks' ``public_state``, as ``show
    --json`` gives it): empty in most variants."""
    rule_notes: dict[str, RuleNotesOut] = Field(default_factory=dict)
    """Power -> the variant's rules acting now on its units, in words (its hooks'
    ``rule_notes``), for each power they say anything of: what the page shows above the
    power's orders and beside its units."""
    game_notes: RuleNotesOut | None = None
    """The variant's rules acting now on the whole game, for anyone (none in most variants)."""
    adjustments: dict[str, AdjustmentOut] = Field(default_factory=dict)
    """In an adjustment phase, each power with builds or removals due (upper case) -> them."""
    names: dict[str, str] | None = None
    """In a variant that writes places by name: every place's name by its
    code (``{"E8": "London", "E26/WC": "Kiel (wc)"}``); null where the codes are the names
    (the classical map)."""


class JoinIn(Strict):
    power: Power
    """The power to take, or ``any`` for one drawn by lot among the free seats."""
    invite_code: str | None = Field(default=None, max_length=40)


class JoinOut(BaseModel):
    seat: int
    powers: list[str]
    drawn: bool = False
    """True if the power was drawn by lot (``"power": "any"``)."""


# -- orders ---------------------------------------------------------------------------------------

OrderKind = Annotated[str, Field(pattern=r"^[a-z][a-z_]*$", max_length=30,
                                 examples=["move", "support", "build", "transform"])]
"""``hold``, ``move``, ``support``, ``convoy``, ``retreat``, ``disband``, ``build``, ``waive``,
or a kind of order the game's variant declares (its ``order_kinds`` in the game view)."""


class StructuredOrder(BaseModel):
    """An order as fields: ``{"kind": "move", "unit": "A PAR", "to": "BUR"}``;
    ``{"kind": "support", "unit": "A MAR", "target": "A PAR", "to": "BUR"}`` (no ``to`` for a
    support to hold); ``{"kind": "convoy", "unit": "F MAO", "target": "A BRE", "to": "SPA"}``;
    and in a variant that declares its own kinds of order, ``{"kind": NAME, "unit": "A BRE"}``,
    with ``"to"`` for what the order names beside its unit, if anything (``{"kind": "block",
    "unit": "A E49", "to": "SICILY"}``): read as ``A BRE NAME``, and refused with the parser's
    message where the variant has no such kind."""

    model_config = ConfigDict(extra="forbid")

    kind: OrderKind
    unit: str | None = Field(default=None, max_length=20, examples=["A PAR", "F STP/SC"])
    to: str | None = Field(default=None, max_length=20)
    target: str | None = Field(default=None, max_length=20)
    via_convoy: bool = False

    @model_validator(mode="after")
    def _fields_for_kind(self) -> StructuredOrder:
        needs_unit = self.kind != "waive"
        if needs_unit and not self.unit:
            raise ValueError(f"a {self.kind} order needs 'unit'")
        if self.kind in ("move", "retreat", "convoy") and not self.to:
            raise ValueError(f"a {self.kind} order needs 'to'")
        if self.kind in ("support", "convoy") and not self.target:
            raise ValueError(f"a {self.kind} order needs 'target'")
        return self

    def to_text(self) -> str:
        """The order in the notation the parser reads."""
        unit = self.unit or ""
        match self.kind:
            case "hold":
                return f"{unit} H"
            case "move":
                return f"{unit} - {self.to}" + (" VIA" if self.via_convoy else "")
            case "support":
                return f"{unit} S {self.target}" + (f" - {self.to}" if self.to else "")
            case "convoy":
                return f"{unit} C {self.target} - {self.to}"
            case "retreat":
                return f"{unit} R {self.to}"
            case "disband":
                return f"{unit} D"
            case "build":
                return f"{unit} B"
            case "waive":
                return "WAIVE"
            case _:  # a variant's own kind: its keyword after the unit
                return f"{unit} {self.kind.upper()}" + (f" {self.to}" if self.to else "")


class OrderOut(StructuredOrder):
    """An engine order as fields, with its canonical text. In a variant that writes places by
    name it also has ``name``, the order as people read it (``F London -
    English Channel``, read back to the same order), and ``unit_name``, ``to_name`` and
    ``target_name`` beside ``unit``, ``to`` and ``target``."""

    model_config = ConfigDict(extra="allow")
    text: str


def order_to_wire(order: Order, writer: PlaceWriter | None = None) -> OrderOut:
    """The wire form of an engine order; with the ``writer`` of a variant that writes places
    by name, with the names beside the codes."""
    fields = _order_fields(order)
    if writer is None or not writer.by_name or isinstance(order, Waive):
        return OrderOut(**fields)
    fields["name"] = writer.order(order)
    fields["unit_name"] = writer.unit(order.unit_type, order.location)
    if isinstance(order, Move | Retreat | SupportMove | Convoy):
        fields["to_name"] = writer.place(order.destination)
    elif isinstance(order, VariantOrder) and order.argument is not None:
        kind = writer.variant.kinds.get(order)
        fields["to_name"] = kind.write_argument(order.argument, writer) if kind is not None \
            else order.argument.upper()
    if isinstance(order, SupportHold | SupportMove):
        fields["target_name"] = writer.unit(order.supported_type, order.supported_location)
    elif isinstance(order, Convoy):
        fields["target_name"] = writer.unit(UnitType.ARMY, order.army_location)
    # (the fields are the engine's own, already valid: no second validation)
    return OrderOut.model_construct(None, **fields)


def _order_fields(order: Order) -> dict[str, Any]:
    """The fields of an order's wire form (those not at their default)."""
    text = str(order)
    if isinstance(order, Waive):
        return {"kind": "waive", "text": text}
    unit = order.unit_text
    if isinstance(order, Hold):
        return {"kind": "hold", "unit": unit, "text": text}
    if isinstance(order, Move):
        return {"kind": "move", "unit": unit, "to": order.destination.upper(),
                "via_convoy": order.via_convoy, "text": text}
    if isinstance(order, SupportHold | SupportMove):
        kind = f"{order.supported_type.value} " if order.supported_type else ""
        target = f"{kind}{order.supported_location.upper()}"
        to = order.destination.upper() if isinstance(order, SupportMove) else None
        return {"kind": "support", "unit": unit, "target": target, "to": to, "text": text}
    if isinstance(order, Convoy):
        return {"kind": "convoy", "unit": unit, "target": f"A {order.army_location.upper()}",
                "to": order.destination.upper(), "text": text}
    if isinstance(order, Retreat):
        return {"kind": "retreat", "unit": unit, "to": order.destination.upper(), "text": text}
    if isinstance(order, Disband):
        return {"kind": "disband", "unit": unit, "text": text}
    if isinstance(order, VariantOrder):
        if order.argument is None:
            return {"kind": order.kind, "unit": unit, "text": text}
        return {"kind": order.kind, "unit": unit, "to": order.argument.upper(), "text": text}
    assert isinstance(order, Build)
    return {"kind": "build", "unit": unit, "text": text}


class OrdersIn(Strict):
    """A power's whole set of orders for the phase, replacing any given before: ``text`` (one
    order per line, or separated by commas) or ``orders`` (structured), not both."""

    power: Power
    text: str | None = Field(default=None, examples=["A PAR - BUR\nA MAR S A PAR - BUR"])
    orders: list[StructuredOrder] | None = Field(default=None, max_length=100)
    ready: bool | None = None
    """Also set the ready flag (left as it was if absent)."""
    phase: str | None = Field(default=None, max_length=12, examples=["S1901M"])
    """The phase these orders are for: if the game has moved on since, they are refused (409
    ``phase_changed``) instead of landing on the next phase."""
    revision: str | None = Field(default=None, max_length=32, examples=["3f0c9a1be2d4c5a6"])
    """The ``revision`` of this power's orders that the sender last saw (from ``GET .../orders``
    or the answer to its last ``PUT``): if they have been changed since (in another tab, on
    another device), these orders are refused (409 ``orders_changed``), not written over them."""

    @model_validator(mode="after")
    def _one_of(self) -> OrdersIn:
        if (self.text is None) == (self.orders is None):
            raise ValueError("give either 'text' or 'orders'")
        return self

    def as_text(self) -> str:
        if self.text is not None:
            return self.text
        return "\n".join(o.to_text() for o in self.orders or [])


class OrderError(BaseModel):
    """Why a line was not taken: ``kind`` is ``invalid``, ``unknown``, ``ambiguous`` or
    ``illegal``; ``span`` the characters of ``text`` at fault; ``candidates`` the readings of an
    ambiguous order, ``suggestions`` the names close to an unknown one, ``reason`` the short code
    of an illegal order."""

    model_config = ConfigDict(extra="allow")

    kind: str
    message: str
    line: int | None = None
    span: list[int] | None = None
    text: str | None = None
    hint: str | None = None
    candidates: list[str] | None = None
    suggestions: list[str] | None = None
    reason: str | None = None


class OrderLineOut(BaseModel):
    line: int | None
    text: str
    ok: bool
    """The line is read and will be carried out."""
    order: OrderOut | None
    error: OrderError | None
    replaced: bool = False
    """A later line gives the same unit another order, which is followed instead: not a
    mistake (``error`` says which line; its kind is ``replaced``), so not counted in
    ``errors``."""


def line_to_wire(line: OrderLine, writer: PlaceWriter | None = None) -> OrderLineOut:
    return OrderLineOut(
        line=line.line, text=line.text, ok=line.error is None and line.order is not None,
        order=order_to_wire(line.order, writer) if line.order is not None else None,
        error=OrderError(**line.error) if line.error is not None else None,
        replaced=line.error is not None and line.error.get("kind") == REPLACED)


def count_lines(wire: Sequence[OrderLineOut]) -> tuple[int, int]:
    """The lines that will be carried out, and those with an error (a line replaced by a later
    one for the same unit is neither)."""
    accepted = sum(1 for w in wire if w.ok)
    return accepted, sum(1 for w in wire if not w.ok and not w.replaced)


class OrdersOut(BaseModel):
    phase: str
    power: str
    ready: bool
    lines: list[OrderLineOut]
    accepted: int
    """How many lines will be carried out."""
    errors: int
    """How many lines cannot be carried out as written (replaced lines are not counted)."""
    revision: str = ""
    """The fingerprint of these orders as stored: send it back with the next orders."""
    warnings: list[str] = Field(default_factory=list)
    """What the orders leave open or overdo (units without orders, builds not used, more
    removals than due, an order replaced by a later one): to show before "ready"."""
    builds_used: list[BuildsUsedOut] = Field(default_factory=list)
    """In a winter, the builds the orders of the variant's own kinds use, by kind (a
    transform uses one): the builds left are those due less these."""


class MyPowerOrders(BaseModel):
    text: str | None
    revision: str = ""
    """The fingerprint of these orders as stored: send it back with the next orders (``PUT``)."""
    submitted: bool
    ready: bool
    lines: list[OrderLineOut]
    warnings: list[str] = Field(default_factory=list)
    """As in :class:`OrdersOut`."""
    builds_used: list[BuildsUsedOut] = Field(default_factory=list)
    """In a winter, the builds the orders of the variant's own kinds use, by kind (a
    transform uses one): the builds left are those due less these."""


class ReadyIn(Strict):
    power: Power | None = None
    """One of your powers; all of them if absent."""
    ready: bool = True
    phase: str | None = Field(default=None, max_length=12, examples=["S1901M"])
    """The phase you are ready in: if the game has moved on since, the flag is refused (409
    ``phase_changed``) rather than set in a phase you have not seen."""
    revisions: dict[Power, Annotated[str, Field(max_length=32)]] | None = Field(
        default=None, max_length=20)
    """Per power, the ``revision`` of its orders as you see them: if they have been changed
    since (in another tab, on another device), "ready" is refused (409 ``orders_changed``)."""


class ReadyOut(BaseModel):
    powers: list[str]
    ready: bool
    warnings: list[str] = Field(default_factory=list)
    """What the powers marked ready leave open (their units will hold, builds are waived...),
    so that a ready given by mistake can be taken back before the others are ready."""


# -- press ----------------------------------------------------------------------------------------

class PressMessageIn(Strict):
    sender: Power | None = None
    """The power you speak as (needed only if you command several)."""
    to: list[Power] | None = Field(default=None, max_length=10)
    """The powers that receive the message; absent for a public announcement."""
    body: str = Field(min_length=1)


class PressMessageOut(BaseModel):
    id: int
    phase: str
    sender: str
    recipients: list[str] | None
    public: bool
    body: str
    sent_at: str | None


# -- the gamesmaster, draws and ends --------------------------------------------------------------

class ExtendIn(Strict):
    seconds: Shift = Field(examples=[600, "10m", "1d", "-5m"])
    """Seconds (or ``"10m"``, ``"1d"``) to add; negative shortens. The deadline can be moved
    at most 60 days from now."""


class DeadlineOut(BaseModel):
    deadline: str | None


class ReplaceIn(Strict):
    power: Power
    username: str | None = Field(default=None, max_length=32)
    """The new player; absent to free the seat for anyone to join."""


class BotSeatIn(Strict):
    power: Power
    bot: str = Field(default="heuristic", max_length=20, examples=["heuristic", "random",
                                                                  "hold"])


class BotSeatOut(BaseModel):
    seat: int
    powers: list[str]
    bot: str


class DrawIn(Strict):
    in_favour: bool = True
    power: Power | None = None


class DrawOut(BaseModel):
    in_favour: int
    needed: int
    end: str | None


class ConcedeIn(Strict):
    to: Power | None
    """The power to concede to; null withdraws your concession."""


class ConcedeOut(BaseModel):
    conceded_to: str | None
    end: str | None


class Ok(BaseModel):
    ok: bool = True


class TurnOut(BaseModel):
    """Everything a program playing one power needs for the current phase (``GET .../turn``)."""

    game: GameOut
    power: str
    must_order: bool
    """True if the power has something to order in this phase."""
    adjustment: int
    """In an adjustment phase: the builds (> 0) or removals (< 0) the power has; else 0."""
    legal_orders: dict[str, list[OrderOut]]
    """Every legal order per unit location (or build site, or ``waive``), as
    ``GET .../legal-orders`` gives them; empty when the power has nothing to order."""
    orders: str | None
    """The power's orders given so far this phase (text), if any."""
    ready: bool
    played: int
    """How many phases have been played (the next one's ``seq``)."""
    results: list[dict[str, Any]]
    """The played phases from ``since`` (by default the last one), as ``GET .../history``."""
    press: list[PressMessageOut]
    """The messages after ``press_after`` that you may read."""
