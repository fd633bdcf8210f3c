"""A DAIDE server: hosts games of a variant that DAIDE clients join over TCP, the seats they leave
empty played by realpolitik's bots (``realpolitik daide serve``, docs/daide.md).

One game at a time: the clients of a game join it, it starts when every seat is taken, and it
ends with ``OFF``; the next game then takes new connections. The engine's
:class:`~realpolitik.game.Game` adjudicates; this module only speaks the protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from realpolitik.adjudication.outcomes import OrderResult, Outcome, Result
from realpolitik.bots import Bot, make_bot
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
    encode,
)
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
from realpolitik.game import EndKind, Game
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
from realpolitik.variant import Variant

PRESS_LEVEL = 10
"""The press level the server announces: peace and alliances; press is passed on unread."""

_BRA, _KET = BRA.to_bytes(2, "big"), KET.to_bytes(2, "big")

INITIAL_MESSAGE_SECONDS = 30.0
"""How long a new connection has to send its initial message (protocol document, 2.2)."""


@dataclass
class ServerSettings:
    """What ``realpolitik daide serve`` was asked for."""

    variant: Variant
    host: str = "127.0.0.1"
    port: int = 16713
    games: int = 1
    """Games to play before the server stops (0: until stopped)."""
    end_year: int | None = None
    deadline: float | None = None
    """Seconds per phase; without it the server waits for every connected player."""
    bots: Sequence[str] = ()
    """The realpolitik bots that take seats (by name); the other seats wait for DAIDE
    clients."""
    seed: int = 0
    rules: str = "2023"


@dataclass
class SeatResult:
    """How one power ended a game."""

    power: str
    player: str
    """The DAIDE client's name and version, or ``realpolitik <bot> bot``."""
    centres: int
    eliminated_in: int | None


@dataclass
class GameSummary:
    """One finished game, as ``daide serve`` prints it."""

    index: int
    end_kind: str
    phase: str
    summary: str
    winners: tuple[str, ...]
    seats: list[SeatResult]
    seconds: float

    def as_json(self) -> dict[str, object]:
        """The summary as plain values."""
        return {"game": self.index + 1, "end": self.end_kind, "phase": self.phase,
                "summary": self.summary, "winners": list(self.winners),
                "seconds": round(self.seconds, 2),
                "seats": [{"power": s.power, "player": s.player, "centres": s.centres,
                           "eliminated_in": s.eliminated_in} for s in self.seats]}


@dataclass
class _Client:
    connection: Connection
    name: str = ""
    version: str = ""
    seat: _Seat | None = None
    observer: bool = False
    map_accepted: bool = False


@dataclass
class _Seat:
    power: str
    passcode: int
    bot: Bot | None = None
    client: _Client | None = None
    player: str = ""
    orders: dict[object, tuple[Order, Item]] = field(default_factory=dict)
    waiting: bool = False
    """NOT (GOF): do not process before the deadline."""
    draw: bool = False
    eliminated_in: int | None = None


class DaideGame:
    """One game on the server: its seats, its clients, and the turn loop."""

    def __init__(self, settings: ServerSettings, index: int, dmap: DaideMap,
                 log: Callable[[str], None]) -> None:
        self.settings = settings
        self.index = index
        self.dmap = dmap
        self.log = log
        seed = settings.seed + index
        self.game = Game(settings.variant, rules=settings.rules, seed=seed,
                         end_year=settings.end_year)
        powers = list(self.game.powers)
        randomness = random.Random(seed)
        randomness.shuffle(powers)
        self.seats: dict[str, _Seat] = {}
        for i, power in enumerate(powers):
            seat = _Seat(power, randomness.randrange(1, 8191))
            if i < len(settings.bots):
                seat.bot = make_bot(settings.bots[i], seed=seed)
                seat.player = f"realpolitik {settings.bots[i]} bot"
            self.seats[power] = seat
        self.clients: list[_Client] = []
        self.started = False
        self.changed = asyncio.Event()
        self.deadline_at: float | None = None
        self.last_results: list[Message] = []
        self.last_sco: Message = dmap.sco(self.game.position)
        self.end_messages: list[Message] = []
        self.finished = asyncio.Event()

    # -- seats -----------------------------------------------------------------------------

    def free_seats(self) -> list[_Seat]:
        """Seats for DAIDE players that nobody has taken yet."""
        return [s for s in self.seats.values() if s.bot is None and not s.player]

    def _all_joined(self) -> bool:
        return all(s.bot is not None or (s.client is not None and s.client.map_accepted)
                   for s in self.seats.values())

    def hello(self, seat: _Seat) -> Message:
        """``HLO (power) (passcode) (variant options)``."""
        options: list[Item] = [("LVL", PRESS_LEVEL)]
        if self.settings.deadline:
            seconds = max(1, int(self.settings.deadline))
            options += [("MTL", seconds), ("RTL", seconds), ("BTL", seconds)]
        return ("HLO", (self.dmap.power_tokens[seat.power],), (seat.passcode,), tuple(options))

    # -- sending ---------------------------------------------------------------------------

    def broadcast(self, message: Message) -> None:
        """Send a message to every client of the game that has accepted the map."""
        for client in self.clients:
            if client.map_accepted:
                client.connection.send(message)

    def now(self) -> Message:
        """The current ``NOW``."""
        return self.dmap.now(self.game.position, self.game.rules)

    # -- the turn loop ---------------------------------------------------------------------

    async def run(self) -> GameSummary:
        """Wait for the players, play the game to its end, and say how it went."""
        while not self._all_joined():
            self.changed.clear()
            await self.changed.wait()
        self.started = True
        started = time.monotonic()
        for seat in self.seats.values():
            if seat.client is not None:
                seat.client.connection.send(self.hello(seat))
        self.broadcast(self.last_sco)
        self.broadcast(self.now())
        self.log(f"game {self.index + 1}: started; " + ", ".join(
            f"{self.settings.variant.power_name(s.power)}: {s.player}"
            for s in self.seats.values()))
        while not self.game.is_over:
            await self._play_phase()
            await asyncio.sleep(0)  # let the messages out (bots alone never wait)
        summary = self._summary(time.monotonic() - started)
        self.finished.set()
        return summary

    async def _play_phase(self) -> None:
        game = self.game
        position = game.position
        for seat in self.seats.values():
            seat.orders.clear()
            seat.waiting = False
            seat.draw = False
        due = set(game.powers_to_order())
        for power in due:
            seat = self.seats[power]
            if seat.bot is not None:
                for order in seat.bot.orders(position, power, game.rules):
                    seat.orders[_key(order, seat.orders)] = (order, ())
        self.deadline_at = (time.monotonic() + self.settings.deadline
                            if self.settings.deadline else None)
        if self.deadline_at is not None:
            self.broadcast(("TME", (int(self.settings.deadline or 0),)))
        while not self._ready(due) and not self._draw_agreed():
            self.changed.clear()
            if self.deadline_at is None:
                await self.changed.wait()
                continue
            left = self.deadline_at - time.monotonic()
            if left <= 0:
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)
        if self._draw_agreed():
            for power in game.active_powers():
                game.vote_draw(power)
            if game.is_over:  # (the engine counts players as it does on the game server)
                self._announce_end(position)
                return
        for power in due:
            seat = self.seats[power]
            if seat.orders:
                game.submit(power, [order for order, _ in seat.orders.values()])
            elif seat.client is None and seat.bot is None:
                self.broadcast(("CCD", (self.dmap.power_tokens[power],)))
        resolution = game.process()
        self.last_results = [self._ord(position, result) for result in resolution.results]
        if position.phase.type is PhaseType.MOVEMENT:
            # DAIDE reports every unit: those left without orders held
            ordered = {unit_key(r.order) for r in resolution.results}
            dislodged = {d.unit.province for d in resolution.dislodged}
            turn = self.dmap.turn(position.phase)
            for unit in position.units.values():
                if unit.province not in ordered:
                    outcome: tuple[Item, ...] = ("RET",) if unit.province in dislodged \
                        else ("SUC",)
                    self.last_results.append(("ORD", turn, (self.dmap.unit(unit), "HLD"),
                                              outcome))
        for message in self.last_results:
            self.broadcast(message)
        after = game.position
        if after.phase.type is not PhaseType.RETREATS \
                and game.variant.calendar.centers_counted(position.phase, after.phase):
            self.last_sco = self.dmap.sco(after)
            self.broadcast(self.last_sco)
            for seat in self.seats.values():
                if seat.eliminated_in is None and not after.centers_of(seat.power) \
                        and not after.units_of(seat.power):
                    seat.eliminated_in = position.phase.year
        if game.is_over:
            self._announce_end(after)
            return
        self.broadcast(self.now())

    def _ready(self, due: set[str]) -> bool:
        for power in due:
            seat = self.seats[power]
            if seat.bot is not None or seat.client is None:
                continue
            if seat.waiting or self._missing(seat):
                return False
        return True

    def _draw_agreed(self) -> bool:
        """Every power still in the game is for a draw: the DAIDE players that sent ``DRW``
        this turn, and the bots, which vote by their draw policy once a player has asked for
        one (they never ask themselves)."""
        survivors = self.game.active_powers()
        if not any(self.seats[p].draw for p in survivors):
            return False
        position = self.game.position
        history = [record.position for record in self.game.history]
        for power in survivors:
            seat = self.seats[power]
            if seat.bot is not None:
                if not seat.bot.draw_vote(position, power, history):
                    return False
            elif not seat.draw:
                return False
        return True

    def _announce_end(self, position: Position) -> None:
        end = self.game.end
        assert end is not None
        if end.kind is EndKind.VICTORY and len(end.winners) == 1:
            message: Message = ("SLO", (self.dmap.power_tokens[end.winners[0]],))
        else:
            message = ("DRW",)
        smr: list[Item] = [self.dmap.turn(position.phase)]
        for power in self.game.powers:
            seat = self.seats[power]
            name, _, version = (seat.player or "nobody").partition(" ")
            entry: list[Item] = [self.dmap.power_tokens[power], (Text(name),),
                                 (Text(version or "-"),), len(position.centers_of(power))]
            if seat.eliminated_in is not None:
                entry.append(seat.eliminated_in)
            smr.append(tuple(entry))
        self.end_messages = [message, ("SMR", *smr)]
        for item in self.end_messages:
            self.broadcast(item)
        self.broadcast(self.now())

    def _summary(self, seconds: float) -> GameSummary:
        end = self.game.end
        assert end is not None
        position = self.game.position
        seats = [SeatResult(p, self.seats[p].player or "nobody", len(position.centers_of(p)),
                            self.seats[p].eliminated_in) for p in self.game.powers]
        return GameSummary(self.index, end.kind.value, end.phase, end.summary, end.winners,
                           seats, seconds)

    def _ord(self, position: Position, result: OrderResult) -> Message:
        order = result.order
        if order.power is None:
            order = with_power(order, result.power)
        try:
            written = self.dmap.order(order, position)
        except MapError:
            written = (self.dmap.power_tokens.get(result.power, "UNO"), "HLD")
        return ("ORD", self.dmap.turn(position.phase), written, _result_tokens(result))

    # -- orders ----------------------------------------------------------------------------

    def missing(self, seat: _Seat) -> Message:
        """``MIS`` for a seat: the units still without orders, or the adjustments due."""
        left = self._missing(seat)
        if isinstance(left, int):
            return ("MIS", (left,)) if left else ("MIS",)
        return ("MIS", *left)

    def _missing(self, seat: _Seat) -> tuple[Item, ...] | int:
        position = self.game.position
        power = seat.power
        if power not in self.game.powers_to_order():
            return ()
        kind = position.phase.type
        if kind is PhaseType.ADJUSTMENTS:
            due = adjustment_counts(position).get(power, 0)
            given = len(seat.orders)
            if due > 0:  # DAIDE: every build due is given or waived, even one with no site
                return -(due - given) if given < due else 0
            return max(0, -due - given)
        if kind is PhaseType.RETREATS:
            now = self.dmap.now(position, self.game.rules)
            return tuple(u for u in now[2:] if isinstance(u, tuple) and len(u) == 5
                         and u[0] == self.dmap.power_tokens[power]
                         and self.dmap.read_province(u[2]) not in seat.orders)
        return tuple(self.dmap.unit(u) for u in position.units_of(power)
                     if u.province not in seat.orders)

    def submit(self, seat: _Seat, items: Sequence[Item]) -> list[Message]:
        """Take a ``SUB``'s orders: ``THX`` for each, then ``MIS`` if orders are missing."""
        replies: list[Message] = []
        position = self.game.position
        listing = legal_orders(position, seat.power, rules=self.game.rules)
        the_map = position.variant.map
        legal = {loose(order, the_map): order for options in listing.values()
                 for order in options}
        for item in items:
            try:
                order = self.dmap.read_order(item, position, seat.power)
                order = self._check(order, legal, seat)
            except OrderNote as note:
                replies.append(("THX", item, (note.note,)))
                self.log(f"game {self.index + 1}: {seat.player} ({seat.power}) gave "
                         f"{format_item(item)}: {note.note}, {note}")
                continue
            seat.orders[_key(order, seat.orders)] = (order, item)
            replies.append(("THX", item, ("MBV",)))
        left = self._missing(seat)
        if left:
            replies.append(self.missing(seat))
        self.changed.set()
        return replies

    def _check(self, order: Order, legal: dict[Order, Order], seat: _Seat) -> Order:
        """The listed order that ``order`` (read from DAIDE) stands for.

        :raises OrderNote: it is not legal, or one build or removal too many.
        """
        position = self.game.position
        if position.phase.type is PhaseType.ADJUSTMENTS:
            due = adjustment_counts(position).get(seat.power, 0)
            if isinstance(order, Build | Waive) and (due <= 0 or len(seat.orders) >= due):
                raise OrderNote("NMB", "no more builds are due")
            if isinstance(order, Disband) and (due >= 0 or len(seat.orders) >= -due):
                raise OrderNote("NMR", "no more removals are due")
            if isinstance(order, Waive):
                return order
        listed = legal.get(loose(order, position.variant.map))
        if listed is not None:
            return listed
        raise OrderNote(_note_for(order, position, seat.power), f"{order} is not legal now")


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


# -- connections ------------------------------------------------------------------------------

class DaideServer:
    """The TCP server: each connection's handshake, then its messages to the current game."""

    def __init__(self, settings: ServerSettings, log: Callable[[str], None] | None = None,
                 on_game: Callable[[GameSummary], None] | None = None) -> None:
        """:raises MapError: the variant is one DAIDE cannot describe."""
        self.settings = settings
        self.dmap = DaideMap.of(settings.variant)
        self.log = log or (lambda _text: None)
        self.on_game = on_game
        self.game = DaideGame(settings, 0, self.dmap, self.log)
        self.summaries: list[GameSummary] = []
        self.port: int | None = None
        self._representation = representation_payload(self.dmap.representation())
        self._table = TokenTable.standard().with_representation(self.dmap.representation())

    async def run(self, started: Callable[[int], None] | None = None) -> list[GameSummary]:
        """Serve until the games asked for are played; ``started`` gets the port."""
        server = await asyncio.start_server(self._connected, self.settings.host,
                                            self.settings.port, backlog=16)
        self.port = server.sockets[0].getsockname()[1]
        if started is not None:
            started(self.port)
        async with server:
            while True:
                summary = await self.game.run()
                self.summaries.append(summary)
                if self.on_game is not None:
                    self.on_game(summary)
                await self._close_game(self.game)
                if self.settings.games and len(self.summaries) >= self.settings.games:
                    break
                self.game = DaideGame(self.settings, len(self.summaries), self.dmap, self.log)
        return self.summaries

    async def _close_game(self, game: DaideGame) -> None:
        for client in game.clients:
            client.connection.send(("OFF",))
        for client in list(game.clients):
            await client.connection.drain()
            await client.connection.close()

    async def _connected(self, reader: asyncio.StreamReader,
                         writer: asyncio.StreamWriter) -> None:
        connection = Connection(reader, writer)
        connection.table = self._table
        try:
            await self._serve(connection)
        except ProtocolError as exc:
            self.log(f"connection closed: {exc}")
            await connection.close(exc.code)
        except ConnectionClosed:
            pass
        finally:
            writer.close()

    async def _serve(self, connection: Connection) -> None:
        try:
            kind, payload = await asyncio.wait_for(connection.read_frame(),
                                                   INITIAL_MESSAGE_SECONDS)
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
        connection.write_frame(Frame.REPRESENTATION, self._representation)
        client = _Client(connection)
        game = self.game
        game.clients.append(client)
        try:
            while True:
                kind, payload = await connection.read_frame()
                if kind is Frame.FINAL:
                    break
                if kind is Frame.ERROR:
                    break
                if kind is Frame.INITIAL:
                    raise ProtocolError(ErrorCode.MORE_THAN_ONE_IM, "a second IM")
                if kind is Frame.REPRESENTATION:
                    raise ProtocolError(ErrorCode.RM_FROM_CLIENT, "an RM from a client")
                try:
                    message = connection.decode(payload)
                except BracketError:
                    # PRN quotes the message as it came, unmatched brackets and all
                    connection.write_frame(Frame.DIPLOMACY, encode(("PRN",), self._table)
                                           + _BRA + payload + _KET)
                    continue
                except DaideSyntaxError:
                    connection.send(("HUH", ("ERR",)))
                    continue
                game = self.game if client.seat is None and not client.observer else game
                if client not in game.clients:
                    game.clients.append(client)
                self._handle(game, client, message)
                await connection.drain()
        finally:
            self._disconnected(game, client)
            await connection.close()

    def _disconnected(self, game: DaideGame, client: _Client) -> None:
        if client in game.clients:
            game.clients.remove(client)
        seat = client.seat
        if seat is not None and seat.client is client:
            seat.client = None
            if not game.started:
                seat.player = ""
            elif not game.finished.is_set():
                game.broadcast(("CCD", (self.dmap.power_tokens[seat.power],)))
            game.changed.set()

    def _handle(self, game: DaideGame, client: _Client, message: Message) -> None:
        """Answer one message from a client."""
        send = client.connection.send
        head = message[0] if message else None
        args = message[1:]
        seat = client.seat
        if head == "NME" and len(args) == 2:
            free = game.free_seats()
            if game.started or not free or seat is not None:
                send(("REJ", message))
                return
            seat = free[0]
            client.seat, seat.client = seat, client
            client.name, client.version = _texts(args)
            seat.player = f"{client.name} {client.version}".strip()
            send(("YES", message))
            send(("MAP", (Text(self.dmap.name),)))
        elif head == "OBS":
            client.observer = True
            send(("YES", message))
            send(("MAP", (Text(self.dmap.name),)))
        elif head == "IAM" and len(args) == 2:
            power = self.dmap.powers.get(_first(args[0]))
            taken = game.seats.get(power or "")
            if taken is None or not game.started or taken.bot is not None or \
                    taken.client is not None or (taken.passcode,) != args[1]:
                send(("REJ", message))
                return
            client.seat, taken.client, client.map_accepted = taken, client, True
            send(("YES", message))
            game.broadcast(("NOT", ("CCD", (self.dmap.power_tokens[taken.power],))))
            game.changed.set()
        elif head == "MAP" and not args:
            send(("MAP", (Text(self.dmap.name),)))
        elif head == "MDF" and not args:
            send(self.dmap.mdf())
        elif head == "YES" and args and _first(args[0]) == "MAP":
            client.map_accepted = True
            if game.started:
                send(game.last_sco)
                send(game.now())
            game.changed.set()
        elif head == "REJ" and args and _first(args[0]) == "MAP":
            if seat is not None and not game.started:
                seat.client, seat.player, client.seat = None, "", None
        elif head in ("YES", "REJ", "HUH", "PRN"):
            pass  # answers to what the server sent: nothing to do
        elif head == "HLO" and not args:
            send(game.hello(seat) if seat is not None and game.started else ("REJ", message))
        elif head == "NOW" and not args:
            send(game.now())
        elif head == "SCO" and not args:
            send(game.last_sco)
        elif head == "ORD" and not args:
            for result in game.last_results or [("REJ", message)]:
                send(result)
        elif head == "SMR" and not args:
            for result in game.end_messages or [("REJ", message)]:
                send(result)
        elif head == "TME" and not args:
            left = None if game.deadline_at is None else game.deadline_at - time.monotonic()
            send(("TME", (max(0, int(left)),)) if left is not None else ("REJ", message))
        elif head == "ADM" and len(args) == 2:
            game.broadcast(message)
        elif head in ("SUB", "GOF", "MIS", "DRW", "NOT", "SND"):
            self._player_message(game, client, message)
        elif head in ("HST", "LST", "SEL", "PRF"):
            send(("REJ", message))  # no history, one game at a time, powers dealt at random
        elif head == "PNG":
            send(("YES", message))
        else:
            send(("HUH", ("ERR", *message)))

    def _player_message(self, game: DaideGame, client: _Client, message: Message) -> None:
        send = client.connection.send
        seat = client.seat
        head, args = message[0], message[1:]
        if seat is None or not game.started or game.game.is_over:
            send(("REJ", message))
            return
        if head == "SUB":
            for reply in game.submit(seat, args):
                send(reply)
        elif head == "GOF" and not args:
            seat.waiting = False
            send(("YES", message))
            if game._missing(seat):
                send(game.missing(seat))
            game.changed.set()
        elif head == "MIS" and not args:
            send(game.missing(seat))
        elif head == "DRW" and not args:
            seat.draw = True
            send(("YES", message))
            game.changed.set()
        elif head == "NOT" and len(args) == 1 and isinstance(args[0], tuple):
            inner = args[0]
            if inner == ("GOF",):
                seat.waiting = True
            elif inner == ("DRW",):
                seat.draw = False
            elif inner == ("SUB",):
                seat.orders.clear()
            elif inner and inner[0] == "SUB":
                for item in inner[1:]:
                    for key, (_, given) in list(seat.orders.items()):
                        if given == item:
                            del seat.orders[key]
            else:
                send(("REJ", message))
                return
            send(("YES", message))
            game.changed.set()
        elif head == "SND" and len(args) >= 2 and isinstance(args[-2], tuple):
            self._press(game, seat, message)
        else:
            send(("HUH", ("ERR", *message)))

    def _press(self, game: DaideGame, seat: _Seat, message: Message) -> None:
        """Pass press on unread (level 10 and up are the clients' business)."""
        recipients, press = message[-2], message[-1]
        assert isinstance(recipients, tuple)
        sender = self.dmap.power_tokens[seat.power]
        for token in recipients:
            target = game.seats.get(self.dmap.powers.get(str(token), ""))
            if target is not None and target.client is not None:
                target.client.connection.send(("FRM", (sender,), recipients, press))
        assert seat.client is not None
        seat.client.connection.send(("YES", message))


def _texts(args: Sequence[Item]) -> tuple[str, str]:
    values = [str(a[0]) if isinstance(a, tuple) and a and isinstance(a[0], Text) else ""
              for a in args]
    return values[0], values[1]


def _first(item: Item) -> str:
    return str(item[0]) if isinstance(item, tuple) and item else str(item)


__all__ = ["DaideGame", "DaideServer", "GameSummary", "SeatResult", "ServerSettings"]
