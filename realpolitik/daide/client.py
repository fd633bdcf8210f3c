"""A DAIDE client: one of realpolitik's bots plays a game on any DAIDE server (Parlance's, or
``realpolitik daide serve``), from the handshake to ``OFF`` (``realpolitik daide play``).

The client knows a map when it is one of realpolitik's variants (``standard`` is the classical
map): it checks the server's map description against the variant before it accepts the map.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from realpolitik import __version__
from realpolitik.bots import Bot
from realpolitik.daide.board import DaideMap, MapError, OrderNote, convoy_routes, format_item
from realpolitik.daide.tokens import DaideSyntaxError, Item, Message, Text, TokenTable
from realpolitik.daide.wire import (
    Connection,
    ConnectionClosed,
    ErrorCode,
    Frame,
    ProtocolError,
    initial_message,
    parse_representation,
)
from realpolitik.legality import adjustment_counts
from realpolitik.orders import Build, Waive
from realpolitik.position import PhaseType, Position
from realpolitik.rules import Rules, rules_for
from realpolitik.variant import Variant, load_variant

CLIENT_NAME = "realpolitik"


@dataclass
class ClientResult:
    """How one bot's game went, as the client saw it."""

    power: str | None = None
    """The power the server gave the bot (its id in the variant)."""
    power_name: str | None = None
    """That power's name, as people write it (``Eastreach``, ``France``)."""
    end: str = ""
    """``solo``, ``draw``, or why the game stopped for this client."""
    winner: str | None = None
    centres: dict[str, int] = field(default_factory=dict)
    """Each power's centres at the end (from ``SMR``, or the last ``SCO``)."""
    phases: int = 0
    """Phases the bot ordered in."""
    problems: list[str] = field(default_factory=list)
    """Orders the server refused, and messages the client could not read."""


def variant_for_map(name: str, known: Sequence[Variant] = ()) -> Variant:
    """The variant a DAIDE map name stands for: ``standard`` is the classical map, another name
    is one of the ``known`` variants (by its DAIDE name) or a shipped variant of that id.

    :raises MapError: realpolitik has no such variant.
    """
    for variant in known:
        if DaideMap.of(variant).name.lower() == name.lower():
            return variant
    wanted = "classical" if name.lower() == "standard" else name.lower()
    try:
        return load_variant(wanted)
    except (FileNotFoundError, ValueError):
        raise MapError(f"the server's map {name!r} is none of realpolitik's variants") from None


class BotClient:
    """One bot on one DAIDE connection."""

    def __init__(self, bot: Bot, *, rules: Rules | None = None,
                 variants: Sequence[Variant] = (), game: str | None = None,
                 log: Callable[[str], None] | None = None) -> None:
        """``variants``: variants beyond the shipped ones whose maps the bot may be offered;
        ``game``: the game to join on a server that hosts several (``SEL``, before ``NME``)."""
        self.bot = bot
        self.game = game
        self.variants = tuple(variants)
        self.rules = rules or rules_for("2023")
        self.log = log or (lambda _text: None)
        self.result = ClientResult()
        self.dmap: DaideMap | None = None
        self.map_name = ""
        self.power: str | None = None
        self.sco: Message | None = None
        self.position: Position | None = None
        self.fixed: set[str] = set()
        """Units whose refused order was already replaced this phase (so it is done once)."""

    async def play(self, host: str, port: int) -> ClientResult:
        """Connect, play until the server ends the game or the connection, and say how it
        went."""
        reader, writer = await asyncio.open_connection(host, port)
        connection = Connection(reader, writer)
        writer.write(initial_message())
        try:
            kind, payload = await connection.read_frame()
            if kind is not Frame.REPRESENTATION:
                raise ProtocolError(ErrorCode.RM_NOT_FIRST,
                                    "the server's first message was not its RM")
            connection.table = TokenTable.standard().with_representation(
                parse_representation(payload))
            if self.game is not None:
                connection.send(("SEL", (Text(self.game),)))
            else:
                self._introduce(connection)
            while True:
                kind, payload = await connection.read_frame()
                if kind in (Frame.FINAL, Frame.ERROR):
                    self.result.end = self.result.end or "the server closed the connection"
                    break
                if kind is not Frame.DIPLOMACY:
                    continue
                try:
                    message = connection.decode(payload)
                except DaideSyntaxError as exc:
                    self.result.problems.append(f"unreadable message from the server: {exc}")
                    continue
                if not self.handle(connection, message):
                    break
                await connection.drain()
        except ConnectionClosed:
            self.result.end = self.result.end or "the connection dropped"
        except ProtocolError as exc:
            self.result.end = f"protocol error: {exc}"
        finally:
            await connection.close()
        return self.result

    @staticmethod
    def _introduce(connection: Connection) -> None:
        connection.send(("NME", (Text(CLIENT_NAME),), (Text(f"v{__version__}"),)))

    def handle(self, connection: Connection, message: Message) -> bool:
        """Answer one message from the server; False when the game is over for this client."""
        send = connection.send
        head, args = (message[0] if message else None), message[1:]
        answer_to = _text(_without_err(args[0])) if head in ("YES", "REJ", "HUH") and args \
            else ""
        if answer_to == "SEL":  # the game named: join it (a server that knows no SEL: join)
            if head == "REJ":
                self.result.end = f"the server has no game {self.game!r} for DAIDE bots"
                return False
            self._introduce(connection)
        elif head == "MAP" and args:
            self.map_name = _text(args[0])
            try:
                self.dmap = DaideMap.of(variant_for_map(self.map_name, self.variants))
            except MapError as exc:
                self.result.end = str(exc)
                send(("REJ", message))
                return False
            send(("MDF",))
        elif head == "MDF" and self.dmap is not None:
            try:
                self.dmap.check_mdf(message)
            except MapError as exc:
                self.result.end = f"map {self.map_name!r}: {exc}"
                send(("REJ", ("MAP", (Text(self.map_name),))))
                return False
            send(("YES", ("MAP", (Text(self.map_name),))))
        elif head == "HLO" and args and self.dmap is not None:
            self.power = self.dmap.powers.get(_text(args[0]))
            self.result.power = self.power
            if self.power is not None:
                self.result.power_name = self.dmap.variant.power_name(self.power)
        elif head == "SCO":
            self.sco = message
            self._count_centres(message)
        elif head == "NOW" and self.dmap is not None and not self.result.end:
            self._order(connection, message)
        elif head == "THX" and len(args) == 2:
            self._refused(connection, args[0], args[1])
        elif head in ("SLO", "DRW"):
            self.result.end = "solo" if head == "SLO" else "draw"
            if head == "SLO" and args and self.dmap is not None:
                self.result.winner = self.dmap.powers.get(_text(args[0]))
        elif head == "SMR":
            self._summary(args)
            if self.result.end:  # the game is over: leave, as the DAIDE bots do
                return False
        elif head == "OFF":
            self.result.end = self.result.end or "the server ended the game (OFF)"
            return False
        elif head == "REJ" and args and _text(args[0]) == "NME":
            self.result.end = "the server has no seat for the bot (the game is full or started)"
            return False
        elif head == "FRM" and len(args) >= 3:
            # press this bot cannot read: say so, as a level-0 client should
            sender, press = args[0], args[-1]
            send(("SND", sender, ("HUH", ("ERR", *press) if isinstance(press, tuple)
                                  else ("ERR",))))
            send(("SND", sender, ("TRY", ())))
        elif head in ("HUH", "PRN"):
            self.result.problems.append(f"the server could not read {format_item(message)}")
            self._unread(connection, message)
        return True

    def _order(self, connection: Connection, now: Message) -> None:
        assert self.dmap is not None
        try:
            position = self.dmap.read_position(now, self.sco)
        except (ValueError, OrderNote) as exc:
            self.result.problems.append(f"cannot read the position: {exc}")
            return
        self.position = position
        self.fixed = set()
        if self.power is None:
            return
        orders = self.bot.orders(position, self.power, self.rules)
        if position.phase.type is PhaseType.ADJUSTMENTS:
            due = adjustment_counts(position).get(self.power, 0)
            builds = sum(1 for o in orders if isinstance(o, Build | Waive))
            if due > 0 and builds < due:  # DAIDE wants every unused build waived
                orders += [Waive(self.power)] * (due - builds)
        if not orders:
            return
        routes = convoy_routes(orders, position)
        written: list[Item] = []
        for order in orders:
            try:
                written.append(self.dmap.order(order, position, routes))
            except MapError as exc:
                self.result.problems.append(str(exc))
        if written:
            self.result.phases += 1
            connection.send(("SUB", *written))

    def _refused(self, connection: Connection, order: Item, note: Item) -> None:
        """An order the server refused: note it, and put a hold, disband or waive in its place
        (once per unit a phase)."""
        if note == ("MBV",) or self.dmap is None or not isinstance(order, tuple):
            return
        self.result.problems.append(f"{format_item(order)} refused: {format_item(note)}")
        unit = order[0]
        if not isinstance(unit, tuple) or format_item(unit) in self.fixed:
            return
        self.fixed.add(format_item(unit))
        replacement = {"RTO": "DSB", "BLD": None, "REM": None, "DSB": None}.get(
            str(order[1]), "HLD")
        if order[1] == "BLD":
            connection.send(("SUB", (unit[0], "WVE")))
        elif replacement is not None:
            connection.send(("SUB", (unit, replacement)))

    def _unread(self, connection: Connection, message: Message) -> None:
        """Orders the server could not read: sent again one by one, and an order it cannot
        read alone is replaced, so that no unit is left waiting for an order."""
        inner = message[1] if len(message) == 2 and isinstance(message[1], tuple) else ()
        if not inner or inner[0] != "SUB":
            return
        orders = [_without_err(o) for o in inner[1:]]
        if len(orders) > 1:
            for order in orders:
                connection.send(("SUB", order))
        elif orders and isinstance(orders[0], tuple):
            self._refused(connection, orders[0], ("HUH",))

    def _count_centres(self, sco: Message) -> None:
        if self.dmap is None:
            return
        counts: dict[str, int] = {}
        for group in sco[1:]:
            if isinstance(group, tuple) and group and str(group[0]) in self.dmap.powers:
                counts[self.dmap.powers[str(group[0])]] = len(group) - 1
        self.result.centres = {p: counts.get(p, 0) for p in self.dmap.variant.power_ids}

    def _summary(self, entries: tuple[Item, ...]) -> None:
        if self.dmap is None:
            return
        for entry in entries[1:]:
            if isinstance(entry, tuple) and len(entry) >= 4 and isinstance(entry[3], int):
                power = self.dmap.powers.get(str(entry[0]))
                if power is not None:
                    self.result.centres[power] = entry[3]


async def play_bots(host: str, port: int, bots: list[Bot], *, rules: Rules | None = None,
                    variants: Sequence[Variant] = (), game: str | None = None,
                    log: Callable[[str], None] | None = None) -> list[ClientResult]:
    """Connect every bot to the server at once and play until each one's game ends
    (``variants``: maps beyond the shipped variants the bots may be offered; ``game``: the
    game to join, on a server that hosts several)."""
    clients = [BotClient(bot, rules=rules, variants=variants, game=game, log=log)
               for bot in bots]
    return list(await asyncio.gather(*(c.play(host, port) for c in clients)))


def _without_err(item: Item) -> Item:
    """An item of a ``HUH`` with its ``ERR`` marker taken out."""
    if isinstance(item, tuple):
        return tuple(_without_err(i) for i in item if i != "ERR")
    return item


def _text(item: Item) -> str:
    if isinstance(item, tuple) and item:
        item = item[0]
    return item.value if isinstance(item, Text) else str(item)


__all__ = ["BotClient", "ClientResult", "play_bots", "variant_for_map"]
