"""What any DAIDE server says about a game, whoever hosts it: the handshake, reading a client's
messages, a power's orders for the phase (``SUB``, ``THX``, ``MIS``), the results (``ORD``) and
the end (``SLO``/``DRW``, ``SMR``).

Two servers use it: ``realpolitik daide serve`` (:mod:`realpolitik.daide.server`, games of its
own) and the game server's DAIDE port (:mod:`realpolitik.server.daide`, DAIDE bots in the
seats of the server's games).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field

from realpolitik.adjudication.outcomes import OrderResult, Outcome, Resolution, Result
from realpolitik.daide.board import DaideMap, MapError, OrderNote, format_item, loose
from realpolitik.daide.tokens import (
    BRA,
    KET,
    BracketError,
    DaideSyntaxError,
    Item,
    Message,
    Text,
    TokenTable,
)
from realpolitik.daide.tokens import encode as encode_message
from realpolitik.daide.wire import (
    MAGIC,
    VERSION,
    Connection,
    ConnectionClosed,
    ErrorCode,
    Frame,
    ProtocolError,
    representation_payload,
)
from realpolitik.game import GameEnd
from realpolitik.legality import adjustment_counts
from realpolitik.listing import legal_orders
from realpolitik.orders import (
    Build,
    Convoy,
    Disband,
    Move,
    Order,
    Retreat,
    Waive,
    unit_key,
    with_power,
)
from realpolitik.position import PhaseType, Position
from realpolitik.rules import Rules

PRESS_LEVEL = 10
"""The press level a server announces: peace and alliances; press is passed on unread."""

INITIAL_MESSAGE_SECONDS = 30.0
"""How long a new connection has to send its initial message (protocol document, 2.2)."""

_BRA, _KET = BRA.to_bytes(2, "big"), KET.to_bytes(2, "big")


class HostedMap:
    """The map a DAIDE server hosts, as every connection's handshake gives it: the map, its
    representation message and the token table that reads the clients' messages with the map's
    tokens; and the opening of each connection."""

    def __init__(self, dmap: DaideMap) -> None:
        self.dmap = dmap
        self.representation = representation_payload(dmap.representation())
        self.table = TokenTable.standard().with_representation(dmap.representation())

    def connection(self, reader: asyncio.StreamReader,
                   writer: asyncio.StreamWriter) -> Connection:
        """A new client's connection, reading with the map's tokens."""
        connection = Connection(reader, writer)
        connection.table = self.table
        return connection

    async def serve(self, connection: Connection, run: Callable[[], Awaitable[None]],
                    refused: Callable[[ProtocolError], None]) -> None:
        """The handshake (:func:`accept`), then ``run`` until the client leaves; a protocol
        error is given to ``refused`` and closes the connection with its code, a dropped
        connection ends it quietly."""
        try:
            await accept(connection, self.representation)
            await run()
        except ProtocolError as exc:
            refused(exc)
            await connection.close(exc.code)
        except ConnectionClosed:
            pass


async def accept(connection: Connection, representation: bytes) -> None:
    """The server's side of the handshake: the client's initial message, checked, answered
    with the representation message.

    :raises ProtocolError: no initial message in time, or a wrong one.
    :raises ConnectionClosed: the connection dropped.
    """
    try:
        kind, payload = await asyncio.wait_for(connection.read_frame(), INITIAL_MESSAGE_SECONDS)
    except TimeoutError:
        raise ProtocolError(ErrorCode.IM_TIMER, "no initial message in time") from None
    if kind is not Frame.INITIAL:
        raise ProtocolError(ErrorCode.IM_NOT_FIRST, "the first message was not IM")
    if len(payload) != 4:
        raise ProtocolError(ErrorCode.TOO_SHORT, "an IM is four bytes")
    version, magic = payload[0] << 8 | payload[1], payload[2] << 8 | payload[3]
    if magic != MAGIC:
        code = ErrorCode.WRONG_ENDIAN if magic == 0x10DA else ErrorCode.BAD_MAGIC
        raise ProtocolError(code, f"magic number 0x{magic:04X}")
    if version != VERSION:
        raise ProtocolError(ErrorCode.VERSION, f"protocol version {version}")
    connection.write_frame(Frame.REPRESENTATION, representation)


async def next_message(connection: Connection) -> Message | None:
    """The client's next diplomacy message; None when it sent its final (or an error) message.
    A message whose brackets do not match is answered ``PRN``, one whose tokens do not read
    ``HUH (ERR)``, and the next one is read.

    :raises ProtocolError: a message the client may not send.
    :raises ConnectionClosed: the connection dropped.
    """
    while True:
        kind, payload = await connection.read_frame()
        if kind in (Frame.FINAL, Frame.ERROR):
            return None
        if kind is Frame.INITIAL:
            raise ProtocolError(ErrorCode.MORE_THAN_ONE_IM, "a second IM")
        if kind is Frame.REPRESENTATION:
            raise ProtocolError(ErrorCode.RM_FROM_CLIENT, "an RM from a client")
        try:
            return connection.decode(payload)
        except BracketError:
            # PRN quotes the message as it came, unmatched brackets and all
            connection.write_frame(Frame.DIPLOMACY, encode_message(("PRN",), connection.table)
                                   + _BRA + payload + _KET)
        except DaideSyntaxError:
            connection.send(("HUH", ("ERR",)))


def hello(dmap: DaideMap, power: str, passcode: int,
          seconds: tuple[int, int, int] | None = None) -> Message:
    """``HLO (power) (passcode) (variant options)``: press level 10, and the time limits of
    movement, retreat and adjustment phases when there are any."""
    options: list[Item] = [("LVL", PRESS_LEVEL)]
    if seconds is not None:
        options += [("MTL", max(1, seconds[0])), ("RTL", max(1, seconds[1])),
                    ("BTL", max(1, seconds[2]))]
    return ("HLO", (dmap.power_tokens[power],), (passcode,), tuple(options))


@dataclass
class OrderSheet:
    """One power's orders for the current phase as a DAIDE client gives them: each order taken,
    keyed by its unit, with the message item it came as."""

    power: str
    orders: dict[object, tuple[Order, Item]] = field(default_factory=dict)
    waiting: bool = False
    """``NOT (GOF)``: do not process before the deadline."""

    def clear(self) -> None:
        """A new phase: no orders yet."""
        self.orders.clear()
        self.waiting = False

    def take(self, order: Order, item: Item = ()) -> None:
        """Keep ``order`` (replacing an earlier one for its unit)."""
        self.orders[_key(order, self.orders)] = (order, item)

    def remove(self, items: Sequence[Item]) -> None:
        """``NOT (SUB (order) ...)``: take back the orders given as ``items``."""
        for item in items:
            for key, (_, given) in list(self.orders.items()):
                if given == item:
                    del self.orders[key]

    def submit(self, dmap: DaideMap, position: Position, rules: Rules, items: Sequence[Item],
               *, to_order: bool, log: Callable[[str], None] | None = None) -> list[Message]:
        """Take a ``SUB``'s orders: ``THX`` for each (``MBV``, or the note that says why not),
        then ``MIS`` if orders are still missing. ``to_order``: the power has something to
        order this phase; ``log`` is told of each order refused ("gave ...: note, why")."""
        replies: list[Message] = []
        listing = legal_orders(position, self.power, rules=rules)
        the_map = position.variant.map
        legal = {loose(order, the_map): order for options in listing.values()
                 for order in options}
        for item in items:
            try:
                order = self._check(dmap.read_order(item, position, self.power), legal, position)
            except OrderNote as note:
                replies.append(("THX", item, (note.note,)))
                if log is not None:
                    log(f"gave {format_item(item)}: {note.note}, {note}")
                continue
            self.take(order, item)
            replies.append(("THX", item, ("MBV",)))
        if self.missing_items(dmap, position, rules, to_order=to_order):
            replies.append(self.missing(dmap, position, rules, to_order=to_order))
        return replies

    def missing(self, dmap: DaideMap, position: Position, rules: Rules, *,
                to_order: bool) -> Message:
        """``MIS``: the units still without orders, or the builds or removals still due."""
        left = self.missing_items(dmap, position, rules, to_order=to_order)
        if isinstance(left, int):
            return ("MIS", (left,)) if left else ("MIS",)
        return ("MIS", *left)

    def missing_items(self, dmap: DaideMap, position: Position, rules: Rules, *,
                      to_order: bool) -> tuple[Item, ...] | int:
        """What ``MIS`` lists (empty or 0: nothing is missing); builds due are negative."""
        if not to_order:
            return ()
        power = self.power
        kind = position.phase.type
        if kind is PhaseType.ADJUSTMENTS:
            due = adjustment_counts(position).get(power, 0)
            given = len(self.orders)
            if due > 0:  # DAIDE: every build due is given or waived, even one with no site
                return -(due - given) if given < due else 0
            return max(0, -due - given)
        if kind is PhaseType.RETREATS:
            now = dmap.now(position, rules)
            return tuple(u for u in now[2:] if isinstance(u, tuple) and len(u) == 5
                         and u[0] == dmap.power_tokens[power]
                         and dmap.read_province(u[2]) not in self.orders)
        return tuple(dmap.unit(u) for u in position.units_of(power)
                     if u.province not in self.orders)

    def _check(self, order: Order, legal: dict[Order, Order], position: Position) -> Order:
        """The listed order that ``order`` (read from DAIDE) stands for.

        :raises OrderNote: it is not legal, or one build or removal too many.
        """
        if position.phase.type is PhaseType.ADJUSTMENTS:
            due = adjustment_counts(position).get(self.power, 0)
            if isinstance(order, Build | Waive) and (due <= 0 or len(self.orders) >= due):
                raise OrderNote("NMB", "no more builds are due")
            if isinstance(order, Disband) and (due >= 0 or len(self.orders) >= -due):
                raise OrderNote("NMR", "no more removals are due")
            if isinstance(order, Waive):
                return order
        listed = legal.get(loose(order, position.variant.map))
        if listed is not None:
            return listed
        raise OrderNote(_note_for(order, position, self.power), f"{order} is not legal now")


def results(dmap: DaideMap, position: Position, resolution: Resolution) -> list[Message]:
    """``ORD`` for every order of a played phase; in a movement phase also for every unit left
    without an order (it held), as DAIDE reports every unit."""
    messages = [_ord(dmap, position, result) for result in resolution.results]
    if position.phase.type is PhaseType.MOVEMENT:
        ordered = {unit_key(r.order) for r in resolution.results}
        dislodged = {d.unit.province for d in resolution.dislodged}
        turn = dmap.turn(position.phase)
        for unit in position.units.values():
            if unit.province not in ordered:
                outcome: tuple[Item, ...] = ("RET",) if unit.province in dislodged else ("SUC",)
                messages.append(("ORD", turn, (dmap.unit(unit), "HLD"), outcome))
    return messages


def ending(dmap: DaideMap, end: GameEnd, position: Position, players: Mapping[str, str],
           eliminated: Mapping[str, int]) -> list[Message]:
    """How a game ends: ``SLO (power)`` or ``DRW``, then ``SMR`` (each power with who played
    it, written "name version", its centres and the year it was eliminated in)."""
    if end.kind.value == "victory" and len(end.winners) == 1:
        first: Message = ("SLO", (dmap.power_tokens[end.winners[0]],))
    else:
        first = ("DRW",)
    smr: list[Item] = [dmap.turn(position.phase)]
    for power in position.variant.power_ids:
        name, _, version = (players.get(power) or "nobody").partition(" ")
        entry: list[Item] = [dmap.power_tokens[power], (Text(name),), (Text(version or "-"),),
                             len(position.centers_of(power))]
        if power in eliminated:
            entry.append(eliminated[power])
        smr.append(tuple(entry))
    return [first, ("SMR", *smr)]


def _ord(dmap: DaideMap, position: Position, result: OrderResult) -> Message:
    order = result.order
    if order.power is None:
        order = with_power(order, result.power)
    try:
        written = dmap.order(order, position)
    except MapError:
        written = (dmap.power_tokens.get(result.power, "UNO"), "HLD")
    return ("ORD", dmap.turn(position.phase), written, _result_tokens(result))


def _note_for(order: Order, position: Position, power: str) -> str:
    """The DAIDE note for an order that is not legal."""
    the_map = position.variant.map
    if isinstance(order, Retreat):
        return "NVR"
    if isinstance(order, Build):
        province = order.location.partition("/")[0]
        if province not in the_map.supply_centers():
            return "NSC"
        if province not in position.variant.home_centers(power):
            return "HSC"
        if position.centers.get(province) != power:
            return "YSC"
        if position.unit_at(province) is not None:
            return "ESC"
        return "CST"
    if isinstance(order, Convoy) and not the_map.is_sea(order.location):
        return "NAS"
    return "FAR"


def _result_tokens(result: OrderResult) -> tuple[Item, ...]:
    outcome = result.outcome
    simple = {Outcome.BOUNCED: "BNC", Outcome.CUT: "CUT", Outcome.CONVOY_DISRUPTED: "DSR",
              Outcome.UNMATCHED: "NSO", Outcome.NO_CONVOY: "NSO", Outcome.SELF_DISLODGE: "BNC",
              Outcome.CROSSING_CLOSED: "BNC", Outcome.PARADOX: "FLD", Outcome.ILLEGAL: "NSO",
              Outcome.AMBIGUOUS: "NSO", Outcome.UNREADABLE: "NSO", Outcome.NO_EFFECT: "NSO"}
    if outcome is Outcome.DISLODGED:
        order = result.order
        if isinstance(order, Move):
            return ("BNC", "RET")
        if result.result is Result.SUCCEEDS and not isinstance(order, Convoy):
            return ("SUC", "RET")
        return ("RET",)
    if isinstance(result.order, Retreat) and result.result is not Result.SUCCEEDS:
        return ("BNC",)
    token = simple.get(outcome)
    if token is None:
        token = "SUC" if result.result is Result.SUCCEEDS else "FLD"
    return (token,)


def _key(order: Order, taken: dict[object, tuple[Order, Item]]) -> object:
    key = unit_key(order)
    if key is None:  # a waive: each one counts
        return ("waive", sum(1 for k in taken if isinstance(k, tuple)))
    return key


def texts(args: Sequence[Item]) -> tuple[str, ...]:
    """The texts of ``(text) (text) ...`` arguments (``NME ('name') ('version')``); "" for an
    argument that is not a text."""
    return tuple(str(a[0]) if isinstance(a, tuple) and a and isinstance(a[0], Text) else ""
                 for a in args)


def first_token(item: Item) -> str:
    """The first token of a bracketed item, or the item itself."""
    return str(item[0]) if isinstance(item, tuple) and item else str(item)


__all__ = ["INITIAL_MESSAGE_SECONDS", "PRESS_LEVEL", "OrderSheet", "accept", "ending", "hello",
           "next_message", "results", "texts", "first_token"]
