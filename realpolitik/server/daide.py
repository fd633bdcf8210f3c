"""The game server's DAIDE port: DAIDE bots (DumbBot and others) take free seats in the server's
games beside people and play through the same service (docs/daide.md, "DAIDE bots on the game
server").

One port serves every game that accepts DAIDE bots. A client names its game with ``SEL
('name')`` before ``NME`` (the game's number or name, or a private game's invite code, as
Parlance's clients do when given a game); a client that names none (a stock ``dumbbot
host:port``) is seated in the oldest game that accepts DAIDE bots and has a free seat. The
handshake's representation message comes before any game is named, so the port serves the
classical map (the standard tokens).

Each connection follows its game through the service's live events (the same ones the page
gets; with several workers they come through the database from every worker), and reads the
game from the service when one arrives: ``HLO`` when the game starts, ``ORD`` for every
played phase, ``SCO`` when the centres change, ``NOW``, and at the end ``SLO`` or ``DRW``,
``SMR`` and ``OFF``. Its orders (``SUB``, ``NOT (SUB)``) are checked against the engine's legal
orders (``THX``) and stored as the power's orders; the power is ready when none is missing and
the bot has not said ``NOT (GOF)``. ``DRW`` votes for a draw. Press (``SND``) is passed on to
the other DAIDE bots of the game (``FRM``) while the game's private press is open.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

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
from realpolitik.daide.tokens import Message, Text
from realpolitik.daide.wire import Connection
from realpolitik.server.daide_seats import DaideSeats, DaideView
from realpolitik.server.events import Close, Subscriber
from realpolitik.server.fairness import current_client
from realpolitik.server.service import GameService
from realpolitik.server.values import ServiceError
from realpolitik.variant import load_variant

log = logging.getLogger("realpolitik.server")


class DaidePort:
    """The DAIDE port of a game server process: its listening socket and its connections."""

    def __init__(self, service: GameService, host: str, port: int) -> None:
        self.service = service
        self.seats = DaideSeats(service)
        self.host = host
        self.port = port
        self.hosted = HostedMap(DaideMap.of(load_variant("classical")))
        self.sessions: dict[int, list[_Session]] = {}
        """The connections of each game, for press between DAIDE bots."""
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> int:
        """Listen; returns the port (the one asked for, or the one given for 0).

        :raises OSError: the port cannot be had (another worker holds it, or another program).
        """
        self._server = await asyncio.start_server(self._connected, self.host, self.port,
                                                  backlog=64)
        self.port = self._server.sockets[0].getsockname()[1]
        log.info("DAIDE port listening on %s:%s", self.host, self.port)
        return self.port

    async def stop(self) -> None:
        """Stop listening and close every connection."""
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._server is not None:
            with contextlib.suppress(Exception):
                await self._server.wait_closed()

    async def _connected(self, reader: asyncio.StreamReader,
                         writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        connection = self.hosted.connection(reader, writer)
        session = _Session(self, connection)
        current_client.set(("daide", id(session)))  # each connection its own turn (fairness.py)
        try:
            await self.hosted.serve(connection, session.run,
                                    lambda exc: log.info("DAIDE connection closed: %s", exc))
        except Exception:  # one connection's failure must not touch the others
            log.exception("DAIDE connection failed")
        finally:
            session.leave()
            await connection.close()
            self._tasks.discard(task)


class _Session:
    """One DAIDE client: the game it chose, its seat, what it has been told."""

    def __init__(self, port: DaidePort, connection: Connection) -> None:
        self.port = port
        self.connection = connection
        self.service = port.service
        self.dmap = port.hosted.dmap
        self.game_id: int | None = None
        """The game named with ``SEL``, then the game the client is in."""
        self.power: str | None = None
        self.passcode: int | None = None
        self.observer = False
        self.name = ""
        self.map_accepted = False
        self.started = False
        """``HLO`` (or an observer's first ``NOW``) was sent."""
        self.seen = 0
        """The phases whose results the client has been sent."""
        self.view: DaideView | None = None
        self.sheet: OrderSheet | None = None
        self.sheet_phase = ""
        self.last_sco: Message | None = None
        self.ended = False
        self.subscriber: Subscriber | None = None
        self.lock = asyncio.Lock()
        self.follower: asyncio.Task[None] | None = None

    # -- the connection's life ----------------------------------------------------------------

    async def run(self) -> None:
        while not self.ended and (message := await next_message(self.connection)) is not None:
            async with self.lock:
                await self.handle(message)
            await self.connection.drain()

    def leave(self) -> None:
        """The connection ended: stop following the game (the seat stays the bot's)."""
        if self.follower is not None:
            self.follower.cancel()
        if self.subscriber is not None:
            self.service.hub.unsubscribe(self.subscriber)
        if self.game_id is not None and self in self.port.sessions.get(self.game_id, []):
            self.port.sessions[self.game_id].remove(self)
            if not self.port.sessions[self.game_id]:
                del self.port.sessions[self.game_id]

    async def call(self, function: Any, *args: Any) -> Any:
        return await self.service.call(function, *args)

    def _follow(self, game_id: int) -> None:
        """Join the game: hear of its changes from now on."""
        self.game_id = game_id
        self.port.sessions.setdefault(game_id, []).append(self)
        self.subscriber = self.service.hub.subscribe(game_id, None)
        self.follower = asyncio.create_task(self._events(self.subscriber))

    async def _events(self, subscriber: Subscriber) -> None:
        """Bring the client up to date after each event of its game (several waiting events
        make one update)."""
        while not self.ended:
            item = await subscriber.queue.get()
            while not subscriber.queue.empty():
                item = subscriber.queue.get_nowait()
            if isinstance(item, Close):
                continue
            async with self.lock:
                try:
                    await self.sync()
                except ServiceError as exc:
                    log.info("DAIDE: game %s: %s", self.game_id, exc.message)
            await self.connection.drain()
        await self.connection.close()  # after OFF: the game is over, or the seat was given away

    # -- telling the client -------------------------------------------------------------------

    async def sync(self) -> None:
        """Send what happened since the client was last told: the start, the results of the
        phases played, the new centres and position, the end."""
        if self.game_id is None or self.ended or not self.map_accepted:
            return
        view: DaideView = await self.call(self.port.seats.view, self.game_id, self.power,
                                          self.passcode, self.seen)
        self.view = view
        send = self.connection.send
        if not view.holds:
            send(("OFF",))
            self.ended = True
            return
        if view.status == "forming":
            return
        if not self.started:
            self.started = True
            self.seen = view.history_length
            if self.power is not None and self.passcode is not None:
                send(hello(self.dmap, self.power, self.passcode, view.seconds))
            self._new_phase(view)
            self.last_sco = self.dmap.sco(view.position)
            send(self.last_sco)
            if view.end is None:
                send(self.dmap.now(view.position, view.rules))
                return
        for record in view.played:
            for message in results(self.dmap, record.position, record.resolution):
                send(message)
        self.seen = view.history_length
        sco = self.dmap.sco(view.position)
        if sco != self.last_sco:
            self.last_sco = sco
            send(sco)
        if view.end is not None:
            for message in ending(self.dmap, view.end, view.position, view.players,
                                  view.eliminated):
                send(message)
            send(self.dmap.now(view.position, view.rules))
            send(("OFF",))
            self.ended = True
        elif view.played:
            self._new_phase(view)
            send(self.dmap.now(view.position, view.rules))

    def _new_phase(self, view: DaideView) -> None:
        phase = str(view.position.phase)
        if self.power is not None and phase != self.sheet_phase:
            self.sheet = OrderSheet(self.power)
            self.sheet_phase = phase

    # -- the client's messages ------------------------------------------------------------------

    async def handle(self, message: Message) -> None:
        """Answer one message from the client."""
        send = self.connection.send
        head = message[0] if message else None
        args = message[1:]
        try:
            if head == "SEL" and len(args) == 1 and self.power is None and not self.observer:
                self.game_id = await self.call(self.port.seats.find, texts(args)[0])
                send(("YES", message))
            elif head == "SEL" and not args:
                send(("SEL", (Text(str(self.game_id)),)) if self.game_id is not None
                     else ("REJ", message))
            elif head == "NME" and len(args) == 2 and self.power is None and not self.observer:
                name, version = texts(args)
                game_id = self.game_id if self.game_id is not None else \
                    await self.call(self.port.seats.find, None)
                self.power, self.passcode = await self.call(self.port.seats.take, game_id,
                                                            name, version)
                self.name = f"{name} {version}".strip()
                self._follow(game_id)
                send(("YES", message))
                send(self.dmap.map_message())
            elif head == "OBS" and self.power is None and not self.observer:
                game_id = self.game_id if self.game_id is not None else \
                    await self.call(self.port.seats.find, None, False)
                self.observer = True
                self._follow(game_id)
                send(("YES", message))
                send(self.dmap.map_message())
            elif head == "IAM" and len(args) == 2 and self.power is None and not self.observer:
                await self._rejoin(message)
            elif head == "MAP" and not args:
                send(self.dmap.map_message())
            elif head == "MDF" and not args:
                send(self.dmap.mdf())
            elif head == "YES" and args and first_token(args[0]) == "MAP":
                self.map_accepted = True
                await self.sync()
            elif head in ("YES", "REJ", "HUH", "PRN"):
                pass  # answers to what the server sent
            elif head == "HLO" and not args:
                send(hello(self.dmap, self.power, self.passcode, self.view.seconds)
                     if self.started and self.power is not None and self.passcode is not None
                     and self.view is not None else ("REJ", message))
            elif head in ("NOW", "SCO", "ORD", "SMR", "TME") and not args:
                await self._asked(message)
            elif head in ("SUB", "GOF", "MIS", "DRW", "NOT", "SND"):
                await self._player_message(message)
            elif head in ("HST", "LST", "PRF", "ADM"):
                send(("REJ", message))
            elif head == "PNG":
                send(("YES", message))
            else:
                send(("HUH", ("ERR", *message)))
        except ServiceError as exc:
            log.info("DAIDE: %s refused: %s", head, exc.message)
            send(("REJ", message))

    async def _rejoin(self, message: Message) -> None:
        power = self.dmap.powers.get(first_token(message[1]))
        code = message[2]
        passcode = code[0] if isinstance(code, tuple) and code else None
        if power is None or not isinstance(passcode, int):
            self.connection.send(("REJ", message))
            return
        game_id = await self.call(self.port.seats.rejoin, self.game_id, power, passcode)
        self.power, self.passcode = power, passcode
        self._follow(game_id)
        self.map_accepted = True
        self.connection.send(("YES", message))
        await self.sync()

    async def _asked(self, message: Message) -> None:
        """``NOW``, ``SCO``, ``ORD``, ``SMR``, ``TME``: told again on request."""
        send = self.connection.send
        view = self.view
        if view is None or self.game_id is None:
            send(("REJ", message))
            return
        head = message[0]
        if head == "NOW":
            send(self.dmap.now(view.position, view.rules))
        elif head == "SCO":
            send(self.dmap.sco(view.position))
        elif head == "ORD":
            last = view.played[-1:] or ()
            if not last and self.seen:
                full = await self.call(self.port.seats.view, self.game_id, self.power,
                                       self.passcode, self.seen - 1)
                last = full.played[-1:]
            replies = [m for r in last for m in results(self.dmap, r.position, r.resolution)]
            for reply in replies or [("REJ", message)]:
                send(reply)
        elif head == "SMR":
            if view.end is None:
                send(("REJ", message))
            else:
                send(ending(self.dmap, view.end, view.position, view.players,
                            view.eliminated)[1])
        elif head == "TME":
            if view.deadline is None:
                send(("REJ", message))
            else:
                send(("TME", (max(0, int(view.deadline - self.service.clock())),)))

    async def _player_message(self, message: Message) -> None:
        send = self.connection.send
        head, args = message[0], message[1:]
        view, sheet = self.view, self.sheet
        if self.power is None or self.passcode is None or view is None or sheet is None \
                or self.game_id is None or view.end is not None or view.status == "forming":
            send(("REJ", message))
            return
        to_order = self.power in view.to_order
        if head == "SUB":
            for reply in sheet.submit(self.dmap, view.position, view.rules, args,
                                      to_order=to_order):
                send(reply)
            await self._store_orders()
        elif head == "GOF" and not args:
            sheet.waiting = False
            send(("YES", message))
            if sheet.missing_items(self.dmap, view.position, view.rules, to_order=to_order):
                send(sheet.missing(self.dmap, view.position, view.rules, to_order=to_order))
            await self._store_orders()
        elif head == "MIS" and not args:
            send(sheet.missing(self.dmap, view.position, view.rules, to_order=to_order))
        elif head == "DRW" and not args:
            await self.call(self.port.seats.vote_draw, self.game_id, self.power, self.passcode,
                            True)
            send(("YES", message))
        elif head == "NOT" and len(args) == 1 and isinstance(args[0], tuple):
            inner = args[0]
            if inner == ("GOF",):
                sheet.waiting = True
            elif inner == ("DRW",):
                await self.call(self.port.seats.vote_draw, self.game_id, self.power,
                                self.passcode, False)
            elif inner == ("SUB",):
                sheet.orders.clear()
            elif inner and inner[0] == "SUB":
                sheet.remove(inner[1:])
            else:
                send(("REJ", message))
                return
            send(("YES", message))
            if inner[:1] in (("GOF",), ("SUB",)):
                await self._store_orders()
        elif head == "SND" and len(args) >= 2 and isinstance(args[-2], tuple):
            self._press(message, view)
        else:
            send(("HUH", ("ERR", *message)))

    async def _store_orders(self) -> None:
        """Give the bot's orders so far to the game, ready when none is missing and the bot
        has not asked to wait (``NOT (GOF)``). A phase played meanwhile: the bot is told the
        new one (its orders were for the old)."""
        view, sheet = self.view, self.sheet
        assert view is not None and sheet is not None and self.power is not None
        if self.power not in view.to_order:
            return
        missing = sheet.missing_items(self.dmap, view.position, view.rules, to_order=True)
        ready = not missing and not sheet.waiting
        try:
            await self.call(self.port.seats.give_orders, self.game_id, self.power,
                            self.passcode, self.sheet_phase,
                            [order for order, _ in sheet.orders.values()], ready)
        except ServiceError as exc:
            if exc.code != "phase_changed":
                raise
            await self.sync()

    def _press(self, message: Message, view: DaideView) -> None:
        """Pass press on unread to the DAIDE bots of the game named, while private press is
        open (people's press is text, which DAIDE bots cannot read: they get none)."""
        recipients, press = message[-2], message[-1]
        assert isinstance(recipients, tuple) and self.power is not None
        if not view.press_open:
            self.connection.send(("REJ", message))
            return
        sender = self.dmap.power_tokens[self.power]
        for session in self.port.sessions.get(self.game_id or 0, []):
            if session.power is not None and \
                    self.dmap.power_tokens[session.power] in recipients and session is not self:
                session.connection.send(("FRM", (sender,), recipients, press))
        self.connection.send(("YES", message))


__all__ = ["DaidePort"]
