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

from realpolitik.bots import Bot, make_bot
from realpolitik.daide.board import DaideMap
from realpolitik.daide.hosting import (
    HostedMap,
    OrderSheet,
    ending,
    first_token,
    hello,
    next_message,
    results,
    texts,
)
from realpolitik.daide.tokens import Item, Message
from realpolitik.daide.wire import Connection
from realpolitik.game import Game
from realpolitik.position import PhaseType, Position
from realpolitik.variant import Variant


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
    sheet: OrderSheet = field(init=False)
    draw: bool = False
    eliminated_in: int | None = None

    def __post_init__(self) -> None:
        self.sheet = OrderSheet(self.power)


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
        seconds = max(1, int(self.settings.deadline)) if self.settings.deadline else None
        return hello(self.dmap, seat.power, seat.passcode,
                     None if seconds is None else (seconds, seconds, seconds))

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
            seat.sheet.clear()
            seat.draw = False
        due = set(game.powers_to_order())
        for power in due:
            seat = self.seats[power]
            if seat.bot is not None:
                for order in seat.bot.orders(position, power, game.rules):
                    seat.sheet.take(order)
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
            if seat.sheet.orders:
                game.submit(power, [order for order, _ in seat.sheet.orders.values()])
            elif seat.client is None and seat.bot is None:
                self.broadcast(("CCD", (self.dmap.power_tokens[power],)))
        resolution = game.process()
        self.last_results = results(self.dmap, position, resolution)
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
            if seat.sheet.waiting or self._missing(seat):
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
        self.end_messages = ending(
            self.dmap, end, position, {p: s.player for p, s in self.seats.items()},
            {p: s.eliminated_in for p, s in self.seats.items() if s.eliminated_in is not None})
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

    # -- orders ----------------------------------------------------------------------------

    def missing(self, seat: _Seat) -> Message:
        """``MIS`` for a seat: the units still without orders, or the adjustments due."""
        return seat.sheet.missing(self.dmap, self.game.position, self.game.rules,
                                  to_order=seat.power in self.game.powers_to_order())

    def _missing(self, seat: _Seat) -> tuple[Item, ...] | int:
        return seat.sheet.missing_items(self.dmap, self.game.position, self.game.rules,
                                        to_order=seat.power in self.game.powers_to_order())

    def submit(self, seat: _Seat, items: Sequence[Item]) -> list[Message]:
        """Take a ``SUB``'s orders: ``THX`` for each, then ``MIS`` if orders are missing."""
        who = f"game {self.index + 1}: {seat.player} ({seat.power})"
        replies = seat.sheet.submit(
            self.dmap, self.game.position, self.game.rules, items,
            to_order=seat.power in self.game.powers_to_order(),
            log=lambda text: self.log(f"{who} {text}"))
        self.changed.set()
        return replies


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
        self._hosted = HostedMap(self.dmap)

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
        connection = self._hosted.connection(reader, writer)
        try:
            await self._hosted.serve(connection, lambda: self._serve(connection),
                                     lambda exc: self.log(f"connection closed: {exc}"))
        finally:
            writer.close()

    async def _serve(self, connection: Connection) -> None:
        client = _Client(connection)
        game = self.game
        game.clients.append(client)
        try:
            while (message := await next_message(connection)) is not None:
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
            client.name, client.version = texts(args)
            seat.player = f"{client.name} {client.version}".strip()
            send(("YES", message))
            send(self.dmap.map_message())
        elif head == "OBS":
            client.observer = True
            send(("YES", message))
            send(self.dmap.map_message())
        elif head == "IAM" and len(args) == 2:
            power = self.dmap.powers.get(first_token(args[0]))
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
            send(self.dmap.map_message())
        elif head == "MDF" and not args:
            send(self.dmap.mdf())
        elif head == "YES" and args and first_token(args[0]) == "MAP":
            client.map_accepted = True
            if game.started:
                send(game.last_sco)
                send(game.now())
            game.changed.set()
        elif head == "REJ" and args and first_token(args[0]) == "MAP":
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
            seat.sheet.waiting = False
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
                seat.sheet.waiting = True
            elif inner == ("DRW",):
                seat.draw = False
            elif inner == ("SUB",):
                seat.sheet.orders.clear()
            elif inner and inner[0] == "SUB":
                seat.sheet.remove(inner[1:])
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


__all__ = ["DaideGame", "DaideServer", "GameSummary", "SeatResult", "ServerSettings"]
