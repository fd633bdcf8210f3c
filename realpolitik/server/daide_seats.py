"""DAIDE bots in the seats of the server's games: finding a game for a bot, taking a free seat,
taking it back after a disconnection, what the bot sees of its game, its orders and draw votes.

These are the service's operations for the DAIDE port (:mod:`realpolitik.server.daide`), run on
the service's threads like every other; they change games through the same transactions as a
person's requests (:class:`~realpolitik.server.service.GameService`), so a DAIDE bot's orders,
ready flag and draw vote are stored, shown and adjudicated as a person's are. A DAIDE bot's seat
is kept in the game's settings (``daide_seats``: name, version, passcode) and survives its
connection.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from realpolitik.game import GameEnd, PhaseRecord
from realpolitik.orders import Order
from realpolitik.position import Position
from realpolitik.rules import Rules
from realpolitik.server import store as db
from realpolitik.server.service import GameService, _Loaded, _record_text
from realpolitik.server.values import DaideSeat, ServiceError, conflict, forbidden

MAX_NAME_CHARS = 40
"""The longest name or version a DAIDE bot may give (``NME``); a longer one is refused, not
cut."""


@dataclass(frozen=True)
class DaideView:
    """What a DAIDE connection needs of its game, read in one go."""

    game_id: int
    name: str
    status: str
    position: Position
    rules: Rules
    played: tuple[PhaseRecord, ...]
    """The phases played since the ones the connection has seen."""
    history_length: int
    end: GameEnd | None
    to_order: tuple[str, ...]
    holds: bool
    """The connection's seat is still its own (False: the gamesmaster gave it away)."""
    deadline: float | None
    seconds: tuple[int, int, int]
    """The time given to movement, retreat and adjustment phases."""
    players: dict[str, str]
    """Who plays each power, for the game's summary (``SMR``)."""
    eliminated: dict[str, int]
    """The powers out of the game, each with the year it lost its last unit and centre."""
    press_open: bool
    """Private press may be sent now."""


class DaideSeats:
    """The service's operations for DAIDE bots."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    # -- finding a game ---------------------------------------------------------------------------

    def find(self, reference: str | None, free_seat: bool = True) -> int:
        """The game a DAIDE client named (``SEL``): by its number or name (a public game) or
        invite code (a private one). Named none: the oldest public game that accepts DAIDE
        bots and has a free seat (or, not ``free_seat``, any: to watch).

        :raises ServiceError: no such game.
        """
        with self.service.store.read() as conn:
            rows = db.daide_games(conn)
        if reference is None:
            for row in rows:
                if row.private:
                    continue
                if not free_seat or self._free_seats(self.service._read(int(row.id),
                                                                         orders=False)):
                    return int(row.id)
            raise conflict("no game that accepts DAIDE bots has a free seat", "no_free_seat")
        wanted = reference.strip()
        for row in rows:
            if row.private:
                if wanted == row.invite_code:
                    return int(row.id)
            elif wanted == str(row.id) or wanted.casefold() == str(row.name).casefold():
                return int(row.id)
        raise ServiceError(404, "not_found", f"no game {wanted!r} accepts DAIDE bots")

    @staticmethod
    def _free_seats(loaded: _Loaded) -> list[int]:
        if loaded.row.status not in ("forming", "active") or loaded.engine.is_over:
            return []
        return [int(s.seat) for s in loaded.seats
                if not loaded.seat_filled(int(s.seat)) and loaded.powers_of_seat(int(s.seat))]

    # -- seats --------------------------------------------------------------------------------

    def take(self, game_id: int, name: str, version: str) -> tuple[str, int]:
        """Seat a DAIDE bot (its ``NME``) in a free seat of the game, drawn by lot; returns
        its power and the passcode it takes the seat back with.

        :raises ServiceError: a name too long, the game takes no DAIDE bots, or no seat is free.
        """
        for text in (name, version):
            if len(text) > MAX_NAME_CHARS:
                raise ServiceError(422, "too_long", f"a DAIDE bot's name and version are at "
                                   f"most {MAX_NAME_CHARS} characters each")
        service = self.service
        held = DaideSeat(name.strip(), version.strip(), random.SystemRandom().randrange(1, 8192))
        with service._changing(game_id) as (conn, loaded):
            settings = loaded.settings
            if not settings.get("daide"):
                raise forbidden("this game takes no DAIDE bots", "no_daide")
            free = self._free_seats(loaded)
            if not free:
                raise conflict("every seat of this game is taken", "seat_taken")
            seat = random.SystemRandom().choice(free)
            settings.setdefault("daide_seats", {})[str(seat)] = {
                "name": held.name, "version": held.version, "passcode": held.passcode}
            settings.setdefault("daide_joins", []).append(held.label)
            powers = loaded.powers_of_seat(seat)
            loaded.game.note(f"{held.label} took {' / '.join(p.title() for p in powers)}")
            values: dict[str, Any] = {"settings": json.dumps(settings),
                                      "record": _record_text(loaded.game)}
            full = all(loaded.seat_filled(int(s.seat)) or int(s.seat) == seat
                       for s in loaded.seats)
            if loaded.row.status == "forming" and full:
                values.update(status="active",
                              deadline=service._deadline_for(loaded, service.clock()))
            service._log_seat(conn, loaded, seat, "daide", player=None, previous=None, by=None)
            service._save(conn, loaded, **values)
        service.hub.publish(game_id, {"type": "joined", "powers": list(powers), "player": None,
                                      "bot": held.label})
        if "deadline" in values:
            service._publish_deadline(game_id, "active", values["deadline"])
        service._advance(game_id)
        return powers[0], held.passcode

    def rejoin(self, game_id: int | None, power: str, passcode: int) -> int:
        """The game in which a DAIDE bot holds ``power`` with ``passcode`` (``IAM``): the one
        it named, or any that accepts DAIDE bots.

        :raises ServiceError: no such seat.
        """
        if game_id is None:
            with self.service.store.read() as conn:
                candidates = [int(row.id) for row in db.daide_games(conn)]
        else:
            candidates = [game_id]
        for candidate in candidates:
            loaded = self.service._read(candidate, orders=False)
            held = loaded.daide_of(power)
            if held is not None and held.passcode == passcode:
                return candidate
        raise forbidden(f"no DAIDE bot holds {power.title()} with that passcode", "not_your_seat")

    # -- the game as the bot sees it ------------------------------------------------------------

    def view(self, game_id: int, power: str | None, passcode: int | None,
             since: int) -> DaideView:
        """The game now, with the phases played after the first ``since``."""
        service = self.service
        with service._locked(game_id):
            loaded = service._read(game_id, orders=False)
            game = loaded.engine
            history = game.history
            settings = loaded.settings
            deadlines = settings["deadlines"]
            names = self._players(loaded)
            return DaideView(
                game_id=game_id, name=str(loaded.row.name), status=str(loaded.row.status),
                position=game.position, rules=game.rules, played=tuple(history[since:]),
                history_length=len(history), end=game.end,
                to_order=tuple(p for p in game.powers_to_order()
                               if loaded.seat_of(p) is not None),
                holds=power is None or self._holds(loaded, power, passcode),
                deadline=loaded.row.deadline,
                seconds=(int(deadlines["movement"]), int(deadlines["retreats"]),
                         int(deadlines["adjustments"])),
                players=names, eliminated=_eliminated(history, game.position),
                press_open=bool(settings["press"].get("private"))
                and service._press_closed(loaded) is None)

    def _players(self, loaded: _Loaded) -> dict[str, str]:
        with self.service.store.read() as conn:
            users = db.users_by_id(conn, [u for p in loaded.engine.powers
                                          if (u := loaded.user_of(p)) is not None])
        out = {}
        for power in loaded.engine.powers:
            held, bot, user = loaded.daide_of(power), loaded.bot_of(power), loaded.user_of(power)
            if held is not None:
                out[power] = f"{held.name} {held.version}".strip()
            elif bot is not None:
                out[power] = f"realpolitik {bot}"
            elif user is not None:
                out[power] = users.get(user, "a player")
        return out

    @staticmethod
    def _holds(loaded: _Loaded, power: str, passcode: int | None) -> bool:
        held = loaded.daide_of(power)
        return held is not None and held.passcode == passcode

    def _check_holder(self, loaded: _Loaded, power: str, passcode: int) -> None:
        if not self._holds(loaded, power, passcode):
            raise forbidden(f"this connection no longer holds {power.title()}", "not_your_seat")

    # -- orders and draws -----------------------------------------------------------------------

    def give_orders(self, game_id: int, power: str, passcode: int, phase: str,
                    orders: Sequence[Order], ready: bool) -> None:
        """The bot's orders for ``phase`` (all it has given: they replace the earlier ones),
        stored as their canonical text like a person's, and whether it is ready.

        :raises ServiceError: the seat is not the bot's, the game moved on, or is not open.
        """
        service = self.service
        with service._changing(game_id) as (conn, loaded):
            self._check_holder(loaded, power, passcode)
            service._check_phase(loaded, phase)
            service._check_orders_open(loaded, power)
            loaded.engine.submit(power, list(orders))
            loaded.unapplied.discard(power)
            previous = loaded.pending.get(power)
            was_ready = previous is not None and previous.phase == phase and previous.ready
            service._set_pending(conn, loaded, power, "\n".join(str(o) for o in orders), ready)
            service._save(conn, loaded)
        service._after_ready_change(game_id, loaded, announce=ready != was_ready)

    def vote_draw(self, game_id: int, power: str, passcode: int, in_favour: bool) -> None:
        """The bot's vote on a draw (``DRW``, ``NOT (DRW)``): counted as a player's.

        :raises ServiceError: the seat is not the bot's, or the game is not under way.
        """
        service = self.service
        with service._changing(game_id) as (conn, loaded):
            self._check_holder(loaded, power, passcode)
            game = loaded.game
            if loaded.row.status not in ("active", "paused") or power not in game.active_powers():
                raise conflict("no draw to vote on", "not_active")
            game.vote_draw(power, in_favour, unplayed=loaded.unplayed())
            count = service._draw_votes_saved(conn, loaded)
        service._draw_votes_told(game_id, game, count)


def _eliminated(history: Sequence[PhaseRecord], now: Position) -> dict[str, int]:
    """Each power that has lost every unit and centre, with the year of the phase after which
    it had none."""
    positions = [record.position for record in history] + [now]
    out: dict[str, int] = {}
    for power in now.variant.power_ids:
        if now.units_of(power) or now.centers_of(power):
            continue
        for before, after in zip(positions, positions[1:], strict=False):
            if not after.units_of(power) and not after.centers_of(power):
                out[power] = before.phase.year
                break
    return out


__all__ = ["MAX_NAME_CHARS", "DaideSeats", "DaideView"]
