"""The gamesmaster as a service: games, seats, orders, deadlines, press, draws (accounts are in
:mod:`realpolitik.server.accounts`).

Routes call this module and nothing else; it calls the engine (:class:`realpolitik.game.Game`)
and the store. It knows no HTTP: failures are :class:`ServiceError` values with a status code
and fields, which the app turns into ``{"detail": {...}}`` answers.

A game's engine state is loaded from its record (and the orders of the current phase) and kept
in a cache keyed by the row's version; every change bumps the version in the same transaction
that stores it, so a stale cache is never used. Changes to one game are serialised by a lock.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import logging
import random
import threading
import time
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar

import anyio.to_thread
from sqlalchemy import Connection, Row

from realpolitik import savefile
from realpolitik.bots import BOT_NAMES, make_bot
from realpolitik.daide.board import DaideMap, MapError
from realpolitik.errors import GameError, RealpolitikError
from realpolitik.game import REPLACED, Game, PhaseRecord, SubmittedOrder, replaced_orders
from realpolitik.legality import check_order
from realpolitik.notation import parse_orders
from realpolitik.orders import Order, Waive
from realpolitik.position import PhaseType, Position
from realpolitik.render import render
from realpolitik.rule_notes import rule_notes_to_json
from realpolitik.rules import rules_for
from realpolitik.server import security
from realpolitik.server import store as db
from realpolitik.server.accounts import AccountService
from realpolitik.server.events import Event, Hub, SocketCount
from realpolitik.server.fairness import FairGate, current_client
from realpolitik.server.notify import Notifier
from realpolitik.server.privacy import orders_revision, phase_as_seen, record_as_seen
from realpolitik.server.settings import Settings
from realpolitik.server.values import (
    JSON,
    MAX_DEADLINE_SECONDS,
    Account,
    DaideSeat,
    Deadlines,
    GameOptions,
    OrderLine,
    PressRules,
    ServiceError,
    bad,
    conflict,
    forbidden,
    iso_time,
    not_found,
)
from realpolitik.variant import (
    VARIANTS_PATH_VARIABLE,
    Setup,
    Variant,
    available_variants,
    load_variant,
    search_folders,
)
from realpolitik.winter import adjustments, adjustments_to_json
from realpolitik.writing import PlaceWriter, names_table, place_names, place_writer

log = logging.getLogger("realpolitik.server")


def _adjustment(game: Game, power: str) -> int:
    """The builds (> 0) ``power`` can make or the removals (< 0) it owes this winter: the
    engine's one count (:func:`realpolitik.winter.adjustments`); 0 in other phases."""
    info = adjustments(game.position).get(power)
    if info is None:
        return 0
    return info.builds if info.due > 0 else info.due


def builds_used(game: Game, power: str) -> list[JSON]:
    """The builds ``power``'s orders of each of the variant's own kinds use this winter
    (:meth:`Game.builds_used`), each with what its kind says they go to (``"used to
    transform"``); empty in other phases and in variants without kinds of their own."""
    kinds = game.variant.kinds
    return [{"kind": name, "builds": count, "words": kinds.by_name[name].builds_used_phrase}
            for name, count in game.builds_used(power).items()]


def rule_notes_view(position: Position) -> JSON:
    """The variant's rules acting now, in words (its hooks' ``rule_notes``), as the game view
    gives them: ``rule_notes``, each power's that say anything, and ``game_notes``, the
    game's (None when empty)."""
    hooks = position.variant.hooks
    per_power = {}
    for power in position.variant.power_ids:
        notes = hooks.rule_notes(position, power)
        if notes:
            per_power[power] = rule_notes_to_json(notes)
    game_notes = hooks.rule_notes(position, None)
    return {"rule_notes": per_power,
            "game_notes": rule_notes_to_json(game_notes) if game_notes else None}


_T = TypeVar("_T")

ANY_POWER = "any"
"""What a player writes to take a power drawn by lot (``join``, ``join_as``)."""

Clock = Callable[[], float]
"""Seconds since the epoch (``time.time``); tests pass a clock they move by hand."""

__all__ = ["Account", "Clock", "Deadlines", "GameOptions", "GameService", "OrderLine",
           "PressRules", "ServiceError", "iso_time"]


@dataclass(frozen=True, slots=True)
class _Pending:
    """A power's orders for the current phase as stored (one ``pending_orders`` row)."""

    power: str
    phase: str
    text: str | None
    ready: bool


class _Busy(Exception):
    """Another transaction holds the game's row (and is changing the game)."""


@dataclass
class _Cached:
    """What a process keeps of a game between requests, valid while the row's version is
    ``version``: the engine state (record plus pending orders), the seats and pending rows.
    While the row's ``record_version`` is the same, the record is too, and only the pending
    orders that changed need giving to the game again (another process took the orders);
    that is done when the game's orders are first needed, not at load (see
    :attr:`_Loaded.game`)."""

    version: int
    record_version: int
    game: Game
    seats: list[Row[Any]] | None  # None: read them again (a change of seat is not mirrored)
    pending: dict[str, _Pending]
    unapplied: set[str] = field(default_factory=set)
    """Powers whose stored orders (in ``pending``) the game has not been given yet; shared
    with the :class:`_Loaded` of this entry, and changed only under the game's process lock."""


@dataclass
class _Loaded:
    row: Row[Any]
    engine: Game
    """The game, possibly without the stored orders of the powers in ``unapplied``: enough
    for what does not depend on other powers' orders (the position, the phase, who orders,
    one power's own new orders); everything else uses :attr:`game`."""
    seats: list[Row[Any]]
    pending: dict[str, _Pending]
    lock: threading.RLock
    unapplied: set[str] = field(default_factory=set)
    saved: bool = False
    seats_changed: bool = False
    record_saved: bool = False
    unsaved: dict[str, tuple[str, str, str | None, bool, float]] = field(default_factory=dict)
    """Pending rows set by this change and not yet written: :meth:`GameService._save` writes
    them with the version bump."""

    @property
    def game(self) -> Game:
        """The game with every power's stored orders given: those that another process took
        since this one last had the game are read now (under the game's process lock), not
        when the game was loaded, so that an order submission, which needs only its own
        power's orders, does not read every other power's as well."""
        if self.unapplied:
            with self.lock:
                for power in sorted(self.unapplied):
                    stored = self.pending[power]
                    assert stored.text is not None
                    self.engine.submit(power, stored.text)
                self.unapplied.clear()
        return self.engine

    @property
    def version(self) -> int:
        return int(self.row.version)

    @property
    def record_version(self) -> int:
        return int(self.row.record_version)

    @property
    def settings(self) -> JSON:
        value: JSON = json.loads(self.row.settings)
        return value

    @property
    def bots(self) -> dict[int, str]:
        """Seat -> the bot that plays it (kept in the game's settings)."""
        return {int(seat): str(name) for seat, name in self.settings.get("bots", {}).items()}

    def bot_of(self, power: str) -> str | None:
        """The bot that commands ``power``, if one of realpolitik's bots does."""
        seat = self.seat_of(power)
        return None if seat is None else self.bots.get(seat)

    @property
    def daide_seats(self) -> dict[int, DaideSeat]:
        """Seat -> the DAIDE bot that holds it (kept in the game's settings)."""
        if '"daide_seats"' not in self.row.settings:  # most games: no need to read them
            return {}
        return {int(seat): DaideSeat(**held)
                for seat, held in self.settings["daide_seats"].items()}

    def daide_of(self, power: str) -> DaideSeat | None:
        """The DAIDE bot that commands ``power``, if one does."""
        seat = self.seat_of(power)
        return None if seat is None else self.daide_seats.get(seat)

    def seat_filled(self, seat: int) -> bool:
        """True if a player or a bot (realpolitik's or a DAIDE bot) sits in ``seat``."""
        return self.seats[seat].user_id is not None or seat in self.bots \
            or seat in self.daide_seats

    def commanded(self, power: str) -> bool:
        """True if a player or a bot commands ``power``."""
        seat = self.seat_of(power)
        return seat is not None and seat < len(self.seats) and self.seat_filled(seat)

    def seat_of(self, power: str) -> int | None:
        try:
            return self.engine.team_of(power)
        except KeyError:
            return None

    def powers_of_seat(self, seat: int) -> tuple[str, ...]:
        return tuple(p for p in self.engine.powers if self.seat_of(p) == seat)

    def user_of(self, power: str) -> int | None:
        seat = self.seat_of(power)
        if seat is None or seat >= len(self.seats):
            return None
        user = self.seats[seat].user_id
        return None if user is None else int(user)

    def powers_of_user(self, user_id: int) -> tuple[str, ...]:
        return tuple(p for s in self.seats if s.user_id == user_id
                     for p in self.powers_of_seat(int(s.seat)))

    def unplayed(self) -> frozenset[str]:
        """Powers whose seat has no player (in civil disorder until someone takes it)."""
        return frozenset(p for p in self.engine.powers
                         if self.seat_of(p) is not None and not self.commanded(p))

    def ready(self) -> list[str]:
        return sorted(p for p, row in self.pending.items()
                      if row.ready and row.phase == str(self.engine.phase))


class _GameCache:
    """The games a process keeps loaded, the least recently used dropped beyond ``size`` (a
    game in mid-play takes some hundreds of KB: its whole history is in memory)."""

    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self._games: OrderedDict[int, _Cached] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: int) -> _Cached | None:
        with self._lock:
            cached = self._games.get(game_id)
            if cached is not None:
                self._games.move_to_end(game_id)
            return cached

    def put(self, game_id: int, cached: _Cached) -> None:
        with self._lock:
            self._games[game_id] = cached
            self._games.move_to_end(game_id)
            while len(self._games) > self.size:
                self._games.popitem(last=False)

    def pop(self, game_id: int, default: None = None) -> _Cached | None:
        with self._lock:
            return self._games.pop(game_id, default)

    def __len__(self) -> int:
        return len(self._games)


def lines_of_entries(text: str, entries: Sequence[SubmittedOrder]) -> list[OrderLine] | None:
    """The answer's lines for orders the engine read from ``text``, each with the number of the
    line it was found on; None if an order has an error or replaces an earlier one for the same
    unit (:meth:`GameService.describe` gives their fields), or cannot be placed in the text."""
    if replaced_orders([entry.order for entry in entries]):
        return None
    rows = text.splitlines()
    row, column = 0, 0
    lines = []
    for entry in entries:
        if not entry.ok:
            return None
        while row < len(rows):
            stripped = rows[row].strip()
            at = -1 if not stripped or stripped.startswith("#") else \
                rows[row].find(entry.text, column)
            if at >= 0:
                lines.append(OrderLine(row + 1, entry.text, entry.order, None))
                column = at + len(entry.text)
                break
            row, column = row + 1, 0
        else:
            return None
    return lines


def _changed_orders(cached: _Cached, pending: Mapping[str, _Pending]) -> set[str] | None:
    """The powers whose stored orders the cached game has not been given (they changed since
    it was cached, or were not given yet), or None when giving orders cannot bring it up to
    date (orders withdrawn: load the record)."""
    phase = str(cached.game.phase)
    if set(cached.pending) - set(pending):
        return None
    changed = set()
    for power, now in pending.items():
        before = cached.pending.get(power)
        given_before = before is not None and before.text is not None and before.phase == phase
        if now.text is None or now.phase != phase:
            if given_before:
                return None
            continue
        if power in cached.unapplied or not given_before or before is None \
                or before.text != now.text:
            changed.add(power)
    return changed


def _record_text(game: Game) -> str:
    """The game record as stored: without the played phases, which are the rows of the phase
    log (written once each, as they are played: :data:`store.LOGGED_PHASES`), and without the
    pending orders, which live in their own rows. Its size does not grow with the game."""
    data = savefile.game_to_json(game, phases=False)
    data["current"] = {**data["current"], "orders": {}}
    return db.record_text(data, len(game.history))


def _add_unordered_dislodged(entry: JSON, played: PhaseRecord) -> None:
    """Put into a played phase's results the units that had no order and were dislodged:
    the adjudicator reports orders, and such a unit (which held, having no order) would
    otherwise be missing from its player's results."""
    resolution = played.resolution
    if not resolution.dislodged:
        return
    ordered = {r.order.province for r in resolution.results if not isinstance(r.order, Waive)}
    results = entry["resolution"]["results"]
    for dislodged in resolution.dislodged:
        unit = dislodged.unit
        if unit.province in ordered:
            continue
        writer = place_writer(played.position.variant)
        by = f" by the unit from {writer.place(dislodged.attacker_from)}" \
            if dislodged.attacker_from else ""
        written = writer.unit_of(unit)
        entry_json: JSON = {
            "power": unit.power.upper(), "order": str(unit), "result": "dislodged",
            "outcome": "dislodged", "unordered": True,
            "reason": f"{written} had no order, so it held, and was dislodged{by}."}
        if writer.by_name:
            entry_json["name"] = written
        results.append(entry_json)


def _add_names(entry: JSON, played: PhaseRecord) -> None:
    """In a variant that writes places by name: each result of a played phase with its order
    as people read it (``name``), and the phase with the name of every place it mentions by
    code (``names``)."""
    variant = played.position.variant
    if not variant.writes_names:
        return
    writer = place_writer(variant)
    for data, result in zip(entry["resolution"]["results"], played.resolution.results,
                            strict=False):
        data["name"] = writer.order(result.order)
    entry["names"] = names_table(variant, entry)


def daide_bots_problem(variant: Variant, setup: Setup) -> str | None:
    """Why DAIDE bots cannot take seats in a game of ``variant`` and ``setup``, or None when
    they can: a variant DAIDE describes with the standard map's tokens (the server's DAIDE
    port names its map in the handshake, before a game is chosen: the standard one), one
    power a seat (a DAIDE client plays one power). What DAIDE can describe is the DAIDE
    layer's to say (:meth:`DaideMap.of`), not this one's."""
    try:
        standard, why = DaideMap.of(variant).is_standard(), ""
    except MapError as exc:
        standard, why = False, f" ({exc})"
    if not standard:
        return f"DAIDE bots play the classical map on this server, not {variant.name}{why}"
    if any(len(team) > 1 for team in setup.teams):
        return f"DAIDE bots play one power each; in {setup.name} a player has several"
    return None


class GameService:
    """Everything players and gamesmasters can do, over one store."""

    def __init__(self, store: db.Store, settings: Settings, *, hub: Hub | None = None,
                 clock: Clock = time.time) -> None:
        self.store = store
        self.settings = settings
        self.hub = hub or Hub()
        self.clock = clock
        self.accounts = AccountService(store, settings, clock, self.hub)
        self.sockets = SocketCount(settings.sockets_per_client)
        self.notifier = Notifier(store, settings, clock)
        self._cache = _GameCache(settings.game_cache_size)
        # a game's lock lives while a request or the cached copy of the game holds it: asking
        # about ever more game ids leaves nothing behind
        self._locks: weakref.WeakValueDictionary[int, threading.RLock] = \
            weakref.WeakValueDictionary()
        self._locks_guard = threading.Lock()
        self._order_times: dict[tuple[int, int], deque[float]] = {}
        self._order_times_swept = clock()
        self._variants: dict[str, Variant] = {}
        self.variant_search = search_folders({VARIANTS_PATH_VARIABLE: settings.variants_path})
        """The folders of variants offered besides the shipped ones (``variants_path``)."""
        self._gates: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, tuple[FairGate, anyio.CapacityLimiter]] = \
            weakref.WeakKeyDictionary()

    def _variant(self, name: str) -> Variant:
        """A variant for one game: a copy of the one this process read from its files once
        (the copy has caches of its own, so games never share them across threads)."""
        template = self._variants.get(name)
        if template is None:
            template = self._variants[name] = load_variant(name, search=self.variant_search)
        return dataclasses.replace(template)

    def phase_name(self, variant: str, phase: str) -> str:
        """``"Spring 1901 movement"`` for a phase of a game of ``variant`` (its seasons'
        names); the phase as written if the variant or phase cannot be read."""
        try:
            if variant not in self._variants:
                self._variant(variant)
            calendar = self._variants[variant].calendar
            return calendar.phase_name(calendar.parse_phase(phase))
        except ValueError:  # (a VariantError is one)
            return phase

    DATABASE_THREADS = 2
    """Threads per process that run service calls: enough to go on while some wait for the
    database or a row lock, few enough that they do not spend the process's CPU contending
    for the interpreter lock. In the load test of two workers, 40 threads (anyio's default)
    cost a third more CPU per order submission than 4, and 4 a quarter more than 2 (2.4-2.7 ms
    against 1.8-2.3 ms)."""

    async def call(self, function: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """Run a service method from a route on one of :attr:`DATABASE_THREADS` threads, never
        on the event loop: a request that takes long (an adjudication, a long order text, a
        statement waiting for a lock or a PostgreSQL round trip) then delays no other
        request's reading, writing or waiting. The waiting calls are let in one client at a
        time in turn (:class:`~realpolitik.server.fairness.FairGate`; the client is
        :data:`~realpolitik.server.fairness.current_client`), so that a client with many
        requests at once waits behind its own rather than making everyone wait."""
        loop = asyncio.get_running_loop()
        gate = self._gates.get(loop)
        if gate is None:
            gate = self._gates[loop] = (FairGate(self.DATABASE_THREADS),
                                        anyio.CapacityLimiter(self.DATABASE_THREADS))
        turns, threads = gate
        if kwargs:
            function = functools.partial(function, **kwargs)
        async with turns.slot(current_client.get()):
            return await anyio.to_thread.run_sync(function, *args, limiter=threads)

    # -- loading and saving games ---------------------------------------------------------------

    def _lock_of(self, game_id: int) -> threading.RLock:
        """The lock of this process's copy of the game."""
        with self._locks_guard:
            return self._locks.setdefault(game_id, threading.RLock())

    @contextmanager
    def _locked(self, game_id: int) -> Iterator[None]:
        with self._lock_of(game_id):
            yield

    _READ_ATTEMPTS = 10
    """Reads of a game without its lock tried before giving up: each is repeated only when
    another process committed a change to the game between two of its statements."""

    def _load(self, conn: Connection, game_id: int, *, lock: bool = False,
              skip_locked: bool = False) -> _Loaded:
        """The game as of the caller's transaction: the row (without the record) is read every
        time; the engine state, seats and pending orders come from the cache while its version
        is the row's; when only orders changed (another process took them) they are replayed
        onto the cached game; the record is read and loaded only when it changed. ``lock``,
        ``skip_locked``: as :func:`store.game_state` (:class:`_Busy` if the row is locked).
        Without the lock, a read that saw two versions of the game is made again."""
        for _ in range(self._READ_ATTEMPTS):
            try:
                return self._load_once(conn, game_id, lock=lock, skip_locked=skip_locked)
            except db.TornRead:
                continue
        raise conflict("the game kept changing while it was read; try again", "retry")

    def _load_once(self, conn: Connection, game_id: int, *, lock: bool,
                   skip_locked: bool) -> _Loaded:
        cached = self._cache.get(game_id)
        known = cached.version if cached is not None and cached.seats is not None else None
        row, seat_rows, pending_rows = db.game_state_and_changes(
            conn, game_id, known, lock=lock, skip_locked=skip_locked)
        if row is None:
            if skip_locked:
                raise _Busy(game_id)
            raise not_found("game")
        version, record_version = int(row.version), int(row.record_version)
        guard = self._lock_of(game_id)
        if cached is not None and cached.version == version and cached.seats is not None:
            return _Loaded(row, cached.game, cached.seats, dict(cached.pending), guard,
                           cached.unapplied)
        assert seat_rows is not None and pending_rows is not None
        seats = seat_rows
        pending = {str(p.power): _Pending(str(p.power), str(p.phase), p.text, bool(p.ready))
                   for p in pending_rows}
        game, unapplied = None, set()
        if cached is not None and cached.record_version == record_version:
            changed = _changed_orders(cached, pending)
            if changed is not None:
                game, unapplied = cached.game, changed
                # the new entry gives those orders from now on: an older copy's set would give
                # older texts
                cached.unapplied.clear()
        if game is None:
            # the orders of the phases the cached copy played are taken from it, not read
            # again (most of a load's time; another process adjudicated the game)
            earlier = cached.game if cached is not None else None

            def variant_of(name: str) -> Variant:
                # the copy this game had: its caches (the map's tables, the names the parser
                # knows and has read) are this game's, used under its lock, and still good
                if earlier is not None and savefile.variant_reference(earlier.variant) == name:
                    return earlier.variant
                return self._variant(name)

            game = savefile.game_from_json(db.game_record(conn, game_id, record_version),
                                           earlier=earlier, variants=variant_of)
            for power, p in sorted(pending.items()):
                if p.text is not None and p.phase == str(game.phase):
                    game.submit(power, p.text)
        self._cache.put(game_id, _Cached(version, record_version, game, seats, pending,
                                         unapplied))
        return _Loaded(row, game, seats, dict(pending), guard, unapplied)

    def _set_pending(self, conn: Connection, loaded: _Loaded, power: str, text: str | None,
                     ready: bool) -> None:
        """Set ``power``'s orders and ready flag for the current phase (mirrored in ``loaded``,
        which the cache keeps once the change is committed); :meth:`_save` stores them."""
        phase = str(loaded.engine.phase)
        loaded.unsaved[power] = (power, phase, text, ready, self.clock())
        loaded.pending[power] = _Pending(power, phase, text, ready)

    def _read(self, game_id: int, *, orders: bool = True) -> _Loaded:
        """The game as stored; ``orders``: with every power's orders given to it (under the
        lock), else ``loaded.engine`` may lack those another process took. A caller that uses
        the engine afterwards holds the game's lock (:meth:`_locked`) while it does: a change
        edits the cached game in place, and the legal orders of a game being adjudicated in
        another thread failed now and then under load (a 500)."""
        with self._locked(game_id), self.store.read() as conn:
            loaded = self._load(conn, game_id)
            if orders:
                loaded.game  # every power's orders given, under the lock  # noqa: B018
            return loaded

    def _save(self, conn: Connection, loaded: _Loaded, **values: Any) -> None:
        """Bump the game's version with ``values``, in the caller's transaction (and its record
        version when the record is among them)."""
        values.setdefault("updated_at", self.clock())
        if "record" in values:
            values["record_version"] = loaded.record_version + 1
            loaded.record_saved = True
        game_id = int(loaded.row.id)
        pending = list(loaded.unsaved.values())
        loaded.unsaved.clear()
        if pending and set(values) == {"updated_at"}:  # orders and ready flags: the hot path
            saved = db.update_game_with_pending(conn, game_id, loaded.version,
                                                values["updated_at"], pending)
        else:
            for power, phase, text, ready, when in pending:
                db.put_pending(conn, game_id=game_id, power=power, phase=phase, text=text,
                               ready=ready, now=when)
            saved = db.update_game(conn, game_id, loaded.version, **values)
        if not saved:
            self._cache.pop(int(loaded.row.id), None)
            raise conflict("the game changed meanwhile; try again", "retry")
        loaded.saved = True

    @contextmanager
    def _changing(self, game_id: int, *,
                  skip_locked: bool = False) -> Iterator[tuple[Connection, _Loaded]]:
        """Open a write transaction, lock the game's row (other processes' changes to it wait
        for the commit: the database serialises them) and load it; the process lock guards this
        process's copy of the game, which the change edits in place. A refusal
        (:class:`ServiceError`) comes before any change; on any other failure the cache is
        dropped, so a half-made change in memory is never used. ``skip_locked``: raise
        :class:`_Busy` instead of waiting for another transaction's lock."""
        with self._locked(game_id):
            try:
                with self.store.write() as conn:
                    loaded = self._load(conn, game_id, lock=True, skip_locked=skip_locked)
                    yield conn, loaded
                    if loaded.unsaved:  # orders set and never stored: a mistake in this module
                        raise RuntimeError(f"pending orders of game {game_id} set but not saved")
                if loaded.saved:
                    self._cache.put(game_id, _Cached(
                        loaded.version + 1, loaded.record_version + loaded.record_saved,
                        loaded.engine, None if loaded.seats_changed else loaded.seats,
                        loaded.pending, loaded.unapplied))
            except (ServiceError, _Busy):
                raise  # refused before anything changed (``_save`` drops the cache itself)
            except BaseException:
                self._cache.pop(game_id, None)
                raise

    # -- views and permissions ------------------------------------------------------------------

    def _check_visible(self, loaded: _Loaded, user: Account | None,
                       invite: str | None = None) -> None:
        row = loaded.row
        if not row.private:
            return
        if user is not None and (user.id == row.creator_id or loaded.powers_of_user(user.id)):
            return
        if invite is not None and invite == row.invite_code:
            return
        raise not_found("game")

    def _my_powers(self, loaded: _Loaded, user: Account, power: str | None) -> tuple[str, ...]:
        mine = loaded.powers_of_user(user.id)
        if not mine:
            raise forbidden("you do not play in this game", "not_a_player")
        if power is None:
            return mine
        power = power.strip().lower()
        if power not in mine:
            raise forbidden(f"you do not command {power!r} in this game", "not_your_power")
        return (power,)

    def _my_power(self, loaded: _Loaded, user: Account, power: str | None) -> str:
        """The one power of the user's that ``power`` names; without it, the user's only
        power (422 ``which_power`` for a player commanding several)."""
        mine = self._my_powers(loaded, user, power)
        if len(mine) > 1:
            raise bad(f"you command several powers here ({', '.join(mine)}): say which with "
                      "'power'", "which_power", field="power")
        return mine[0]

    def _check_gm(self, loaded: _Loaded, user: Account) -> None:
        if loaded.row.creator_id != user.id:
            raise forbidden("only the gamesmaster of this game may do that", "not_gamesmaster")

    def _deadline_for(self, loaded: _Loaded, now: float) -> float:
        return self._deadline_of(loaded.settings, loaded.game, now)

    @staticmethod
    def _deadline_of(settings: JSON, game: Game, now: float) -> float:
        """When the current phase of ``game`` ends if it starts at ``now``."""
        deadlines = settings["deadlines"]
        kind = game.phase.type
        if kind is PhaseType.MOVEMENT:
            seconds = deadlines["first_movement"] if not game.history else deadlines["movement"]
        elif kind is PhaseType.RETREATS:
            seconds = deadlines["retreats"]
        else:
            seconds = deadlines["adjustments"]
        return now + float(seconds)

    def _to_order(self, loaded: _Loaded) -> list[str]:
        """Powers with a player's seat that have something to order this phase."""
        return [p for p in loaded.engine.powers_to_order() if loaded.seat_of(p) is not None]

    def game_view(self, game_id: int, user: Account | None, invite: str | None = None) -> JSON:
        """The public state of a game, plus what the user may see of it."""
        # one transaction for the game and its seats' history (a round trip less each way on
        # PostgreSQL than a transaction of its own); the view needs no power's orders, so
        # those another process took are not read for it (:meth:`_view`)
        with self._locked(game_id):
            with self.store.read() as conn:
                loaded = self._load(conn, game_id)
                self._check_visible(loaded, user, invite)
                changes = db.seat_changes_of(conn, game_id)
                ids = {int(s.user_id) for s in loaded.seats if s.user_id is not None}
                ids |= {int(v) for c in changes for v in (c.player_id, c.previous_id, c.by_id)
                        if v is not None}
                names = db.users_by_id(conn, [*ids, int(loaded.row.creator_id)])
            view = self._view(loaded, user, names)
        # the DAIDE bots that took seats, in the order they did (a seat change has no bot)
        daide_joins = iter(loaded.settings.get("daide_joins", []))
        view["seat_changes"] = [{
            "phase": c.phase, "powers": [p for p in str(c.powers).split(",") if p],
            "kind": c.kind, "player": names.get(c.player_id) if c.player_id else None,
            "bot": next(daide_joins, None) if c.kind == "daide" else None,
            "previous": names.get(c.previous_id) if c.previous_id else None,
            "by": names.get(c.by_id) if c.by_id else None,
            "by_gamesmaster": bool(c.by_gamesmaster),
            "gamesmaster_took_it": bool(c.by_gamesmaster) and c.player_id is not None
            and c.player_id == loaded.row.creator_id,
            "at": iso_time(c.created_at)} for c in changes]
        return view

    def _view(self, loaded: _Loaded, user: Account | None, names: Mapping[int, str]) -> JSON:
        """The game as anyone may see it (under the game's process lock). Nothing here depends
        on the powers' orders but who is in civil disorder, which a power leaves by giving
        orders: the orders another process took (``loaded.unapplied``) are not read for it."""
        row, game = loaded.row, loaded.engine
        # (a power whose orders are not given to this copy yet has given orders)
        civil_disorder = game.civil_disorder - loaded.unapplied
        mine = loaded.powers_of_user(user.id) if user else ()
        is_gm = user is not None and user.id == row.creator_id
        in_favour, needed = game.draw_vote_count(loaded.unplayed())
        settings = loaded.settings
        seats = []
        bots = loaded.bots
        daide = loaded.daide_seats
        for seat in loaded.seats:
            uid = seat.user_id
            held = daide.get(int(seat.seat))
            seats.append({
                "seat": int(seat.seat),
                "powers": list(loaded.powers_of_seat(int(seat.seat))),
                "player": names.get(int(uid)) if uid is not None else None,
                "bot": bots.get(int(seat.seat)),
                "daide": None if held is None else held.label,
            })
        end = game.end
        now = self.clock()
        return {
            "id": int(row.id),
            "name": row.name,
            "variant": row.variant,
            "rules": row.rules,
            "players": row.setup,
            "setup_name": game.setup.name,
            "private": bool(row.private),
            "invite_code": row.invite_code if (is_gm or mine) else None,
            "status": row.status,
            "phase": str(game.phase),
            "phase_type": game.phase.type.name.lower(),
            "phase_name": game.variant.calendar.phase_name(game.phase),
            "seasons": {s.code: s.name for s in game.variant.calendar.seasons},
            "deadline": iso_time(row.deadline),
            "seconds_left": None if row.deadline is None else max(0.0, row.deadline - now),
            "paused_remaining": row.paused_remaining,
            "now": iso_time(now),
            "deadlines": settings["deadlines"],
            "press": settings["press"],
            "press_open": self._press_closed(loaded) is None,
            "end_year": game.end_year,
            "gamesmaster": names.get(int(row.creator_id)),
            "seats": seats,
            "powers": list(game.powers),
            "position": savefile.position_to_json(game.position),
            "centers": game.centers(),
            "names": place_names(game.variant),
            "policies": dict(game.variant.policies),
            "policies_changed": self._policies_changed(row.variant, game),
            "order_kinds": game.variant.kinds.to_json(),
            # what the variant's state shows, and its rules acting now in words
            "variant_state": game.variant.hooks.public_state(game.position),
            **rule_notes_view(game.position),
            # the winter's builds and removals: the engine's one count, with its sentence
            "adjustments": adjustments_to_json(game.position),
            "to_order": self._to_order(loaded),
            "orders_in": self._orders_in(loaded),
            "ready": loaded.ready(),
            "civil_disorder": sorted(civil_disorder
                                     | (loaded.unplayed() & set(game.active_powers()))),
            "free": sorted(loaded.unplayed()),
            "eliminated": list(game.eliminated),
            "draw_votes": {"in_favour": in_favour, "needed": needed},
            "end": None if end is None else {"kind": end.kind.value, "winners": list(end.winners),
                                             "phase": end.phase, "summary": end.summary},
            "my_powers": list(mine),
            "am_gamesmaster": is_gm,
            "bots": {p: name for p in game.powers if (name := self._bot_label(loaded, p))},
            "daide_bots": bool(settings.get("daide")),
            "daide_port": self.settings.daide_port or None if settings.get("daide") else None,
        }

    @staticmethod
    def _bot_label(loaded: _Loaded, power: str) -> str | None:
        """The bot that commands ``power`` as the page names it: ``heuristic``, or a DAIDE
        bot's name and version, ``DumbBot 1.0 (DAIDE)``."""
        held = loaded.daide_of(power)
        return held.label if held is not None else loaded.bot_of(power)

    def list_games(self, user: Account | None, *, mine: bool, offset: int = 0,
                   limit: int = 500) -> list[JSON]:
        """Open games anyone may join or watch (those with the most players first, so that
        empty games cannot crowd out the others), or the games the user plays or runs; at
        most ``limit`` from ``offset``."""
        if mine and user is None:
            raise ServiceError(401, "not_logged_in", "log in to list your games")
        with self.store.read() as conn:
            rows = db.list_games(conn, user_id=user.id if mine and user else None,
                                 open_only=not mine, offset=offset, limit=limit)
            out = []
            for row in rows:
                seats = db.seats_of(conn, int(row.id))
                settings = json.loads(row.settings)
                bots = settings.get("bots", {})
                daide = settings.get("daide_seats", {})
                out.append({
                    "id": int(row.id), "name": row.name, "variant": row.variant,
                    "rules": row.rules, "players": row.setup, "private": bool(row.private),
                    "status": row.status, "phase": row.phase,
                    "phase_name": self.phase_name(row.variant, row.phase),
                    "deadline": iso_time(row.deadline),
                    "seats": len(seats),
                    "seats_free": sum(1 for s in seats if s.user_id is None
                                      and str(s.seat) not in bots and str(s.seat) not in daide),
                    "daide_bots": bool(settings.get("daide")),
                    "bots": sorted({*bots.values(),
                                    *(DaideSeat(**held).label for held in daide.values())}),
                })
        if mine and user is not None:
            for summary in out:
                summary.update(self._my_part(int(summary["id"]), user))
        return out

    def _my_part(self, game_id: int, user: Account) -> JSON:
        """For the list of one's own games: one's powers, and those that still owe orders."""
        with self._locked(game_id):
            loaded = self._read(game_id)
            mine = loaded.powers_of_user(user.id)
            ready = set(loaded.ready())
            needed = [] if loaded.row.status not in ("active", "forming") else [
                p for p in self._to_order(loaded)
                if p in mine and p not in ready and p not in self._orders_in(loaded)]
            return {"my_powers": list(mine), "orders_needed": needed}

    @staticmethod
    def _orders_in(loaded: _Loaded) -> list[str]:
        """Powers whose order text for the current phase is not empty."""
        phase = str(loaded.engine.phase)
        return sorted(p for p, row in loaded.pending.items()
                      if row.phase == phase and (row.text or "").strip())

    # -- creating and joining --------------------------------------------------------------------

    def create_game(self, user: Account, options: GameOptions) -> int:
        """Create a game; the creator is its gamesmaster (and may take a power at once)."""
        offered = available_variants(self.variant_search)
        if options.variant not in offered:
            raise bad(f"there is no variant called {options.variant!r} on this server; the "
                      f"variants are {', '.join(offered)} (its operator offers more by naming "
                      f"their folders in {VARIANTS_PATH_VARIABLE})", "bad_variant",
                      field="variant")
        try:
            rules_for(options.rules)
            variant = load_variant(options.variant, search=self.variant_search)
            setup = variant.setup(options.players)
        except (ValueError, RealpolitikError) as exc:
            raise bad(str(exc), "bad_setting") from exc
        policies = self._checked_policies(variant, options.policies)
        game = Game(variant, rules=options.rules, players=setup.id,
                    seed=random.SystemRandom().randrange(2**31), end_year=options.end_year,
                    policies=policies or None)
        if options.end_year is not None and options.end_year < game.phase.year:
            raise bad(f"the short game cannot end before {game.phase.year}", "bad_setting",
                       field="end_year")
        join_seat: int | None = None
        join_as, drawn = options.join_as, False
        if join_as is not None and join_as.strip().lower() == ANY_POWER:
            # drawn here, so that the bots fill the other seats
            join_as = random.SystemRandom().choice(
                [team[0] for team in setup.teams])
            drawn = True
        if join_as is not None:
            wanted = join_as.strip().lower()
            if wanted not in game.powers:
                raise bad(f"{wanted!r} is not a power of this game", "bad_power",
                          field="join_as")
            join_seat = game.team_of(wanted)
        now = self.clock()
        settings: JSON = {"deadlines": asdict(options.deadlines), "press": asdict(options.press)}
        all_bots = False
        if options.daide_bots:
            self._check_daide_setup(variant, setup)
            settings["daide"] = True
        if options.fill_with_bots is not None:
            bot = self._bot_name(options.fill_with_bots, "fill_with_bots")
            settings["bots"] = {str(seat): bot for seat in range(len(setup.teams))
                                if seat != join_seat}
            all_bots = join_seat is None
        with self.store.write() as conn:
            waiting = db.forming_games_of(conn, user.id)
            if waiting >= self.settings.forming_games_per_user:
                raise ServiceError(429, "too_many_games", f"you have {waiting} games waiting "
                                   "for players: start one (or let it fill) before creating "
                                   "another")
            game_id = db.insert_game(
                conn, name=options.name, creator_id=user.id, variant=variant.id,
                rules=game.rules.edition, setup=setup.id, private=options.private,
                invite_code=security.invite_code() if options.private else None,
                settings=json.dumps(settings), status="active" if all_bots else "forming",
                phase=str(game.phase), paused_remaining=None, record=_record_text(game),
                # a game of bots alone (to watch) starts at once
                deadline=self._deadline_of(settings, game, now) if all_bots else None,
                created_at=now, updated_at=now)
            db.add_seats(conn, game_id, len(setup.teams))
        if join_as:
            self.join(user, game_id, join_as, None, drawn=drawn)
        if options.fill_with_bots is not None:
            self._advance(game_id)
        return game_id

    def _policies_changed(self, variant_id: str, game: Game) -> dict[str, str]:
        """The policies ``game`` chose otherwise than its variant, each with the variant's own
        choice."""
        own = self._variant(variant_id).policies
        return {name: own[name] for name, value in game.variant.policies.items()
                if name in own and own[name] != value}

    @staticmethod
    def _check_daide_setup(variant: Variant, setup: Setup) -> None:
        """DAIDE bots can play this game (:func:`daide_bots_problem`).

        :raises ServiceError: they cannot, saying why.
        """
        problem = daide_bots_problem(variant, setup)
        if problem is not None:
            raise bad(problem, "bad_setting", field="daide_bots")

    @staticmethod
    def _checked_policies(variant: Variant, chosen: Mapping[str, str]) -> dict[str, str]:
        """The policies a new game chooses, each checked against the variant's: 422
        ``bad_policy`` naming the policy and the values it may take (or the variant's
        policies, for a name it does not have)."""
        known = variant.hooks.policies()
        out = {}
        for name, value in chosen.items():
            key, wanted = name.strip().lower(), value.strip().lower()
            allowed = known.get(key)
            if allowed is None:
                which = f"its policies are {', '.join(known)}" if known else \
                    "it has no policies to choose"
                raise bad(f"{variant.name} has no policy called {name!r}: {which}",
                          "bad_policy", field="policies", policy=name, allowed=list(known))
            if wanted not in allowed:
                raise bad(f"the policy {key!r} of {variant.name} cannot be {value!r}: it is "
                          f"one of {', '.join(allowed)}", "bad_policy", field="policies",
                          policy=key, allowed=list(allowed))
            out[key] = wanted
        return out

    @staticmethod
    def _bot_name(name: str, field: str) -> str:
        bot = name.strip().lower()
        if bot not in BOT_NAMES:
            raise bad(f"{name!r} is not a bot; the bots are {', '.join(BOT_NAMES)}", "bad_bot",
                      field=field)
        return bot

    def join(self, user: Account, game_id: int, power: str, invite: str | None, *,
             drawn: bool = False) -> JSON:
        """Take the seat that commands ``power`` (in 2-4 player games a seat holds several).

        ``power`` may be ``any``: the seat is drawn by lot among the free ones, as the rulebooks
        have the players "draw lots to determine which Great Power each will represent" (I),
        and the draw is noted in the game's history. ``drawn`` says that ``power`` was drawn so
        already (a new game's ``join_as``)."""
        power = power.strip().lower()
        with self._changing(game_id) as (conn, loaded):
            self._check_visible(loaded, user, invite)
            if loaded.row.private and user.id != loaded.row.creator_id \
                    and invite != loaded.row.invite_code:
                raise forbidden("this game is private: you need its invite code", "bad_invite")
            if loaded.row.status == "finished":
                raise conflict("the game is over", "game_over")
            if loaded.powers_of_user(user.id):
                raise conflict("you already play in this game", "already_playing")
            if power == ANY_POWER:
                free = [int(s.seat) for s in loaded.seats if not loaded.seat_filled(int(s.seat))]
                if not free:
                    raise conflict("every seat of this game is taken", "seat_taken")
                power = loaded.powers_of_seat(random.SystemRandom().choice(free))[0]
                drawn = True
            if power not in loaded.game.powers:
                raise bad(f"{power!r} is not a power of this game", "bad_power", field="power")
            seat = loaded.seat_of(power)
            if seat is None:
                raise conflict(f"{power.title()} has no player in this setup", "no_seat")
            if loaded.seats[seat].user_id is not None:
                raise conflict(f"{power.title()} is taken", "seat_taken")
            if seat in loaded.bots or seat in loaded.daide_seats:
                raise conflict(f"{power.title()} is played by a bot; the gamesmaster can give "
                               "the seat to you", "seat_taken")
            now = self.clock()
            db.set_seat(conn, game_id, seat, user.id, now)
            self._log_seat(conn, loaded, seat, "joined", player=user.id, previous=None,
                           by=user.id)
            loaded.seats_changed = True
            values: dict[str, Any] = {}
            full = all(loaded.seat_filled(int(s.seat)) or int(s.seat) == seat
                       for s in loaded.seats)
            if loaded.row.status == "forming" and full:
                values = {"status": "active", "deadline": self._deadline_for(loaded, now)}
            powers = loaded.powers_of_seat(seat)
            names = " / ".join(p.title() for p in powers)
            if drawn:
                loaded.game.note(f"{user.username} drew lots for a power and plays {names}")
                values["record"] = _record_text(loaded.game)
            self._save(conn, loaded, **values)
        self.hub.publish(game_id, {"type": "joined", "powers": list(powers),
                                   "player": user.username, "drawn": drawn})
        if "deadline" in values:
            self._publish_deadline(game_id, "active", values["deadline"])
        self._advance(game_id)
        return {"seat": seat, "powers": list(powers), "drawn": drawn}

    def leave(self, user: Account, game_id: int) -> None:
        """Give up one's seat; the powers fall into civil disorder until someone takes it."""
        with self._changing(game_id) as (conn, loaded):
            mine = self._my_powers(loaded, user, None)
            seat = loaded.seat_of(mine[0])
            assert seat is not None
            db.set_seat(conn, game_id, seat, None, None)
            self._log_seat(conn, loaded, seat, "left", player=None, previous=user.id,
                           by=user.id)
            loaded.seats_changed = True
            self._save(conn, loaded)
        self.hub.publish(game_id, {"type": "left", "powers": list(mine)})
        self.hub.disconnect(game_id, user.id, 4403, "you left this game; reconnect to watch")
        self._advance(game_id)  # the others may all be ready: the free seat is not waited for

    def _log_seat(self, conn: Connection, loaded: _Loaded, seat: int, kind: str, *,
                  player: int | None, previous: int | None, by: int | None) -> None:
        """Keep a seat change in ``seat_changes``: the game view shows them all, so a
        gamesmaster who gives a seat to themselves (and can then read that power's orders and
        press) does so in view of every player."""
        db.add_seat_change(conn, game_id=int(loaded.row.id), phase=str(loaded.game.phase),
                           powers=",".join(loaded.powers_of_seat(seat)), kind=kind,
                           player_id=player, previous_id=previous, by_id=by,
                           by_gamesmaster=by == int(loaded.row.creator_id) and kind in (
                               "replaced", "freed", "bot"),
                           created_at=self.clock())

    # -- orders ---------------------------------------------------------------------------------

    def _check_rate(self, user: Account, game_id: int) -> None:
        """Count an order submission of a player of the game (so there is one entry per seat
        taken at most); the entries of a minute ago are swept once a minute."""
        now = self.clock()
        with self._locks_guard:
            if now - self._order_times_swept >= 60:
                self._order_times = {key: times for key, times in self._order_times.items()
                                     if times and times[-1] > now - 60}
                self._order_times_swept = now
            times = self._order_times.setdefault((user.id, game_id), deque())
            while times and times[0] <= now - 60:
                times.popleft()
            if len(times) >= self.settings.orders_per_minute:
                raise ServiceError(429, "too_many_requests",
                                   "too many order submissions; wait a minute")
            times.append(now)

    def _check_orders_open(self, loaded: _Loaded, power: str) -> None:
        status = loaded.row.status
        if status == "finished":
            raise conflict("the game is over", "game_over")
        if status == "paused":
            raise conflict("the game is paused", "paused")
        if power not in loaded.engine.powers_to_order():
            raise conflict(f"{power.title()} has nothing to order in {loaded.engine.phase}",
                            "nothing_to_order")

    def describe(self, game: Game, power: str, text: str) -> list[OrderLine]:
        """Read ``text`` as ``power``'s orders without giving them: each line with its order or
        its error fields (kind, line, span, message, hint, candidates or suggestions)."""
        sheet = parse_orders(text, game.position, power=power)
        lines: list[OrderLine] = []
        for entry in sheet.entries:
            if entry.error is not None:
                lines.append(OrderLine(entry.line, entry.text, None, entry.error.to_dict()))
                continue
            assert entry.order is not None
            problem = check_order(game.position, entry.order, rules=game.rules)
            error = None
            if problem is not None:
                error = {"kind": "illegal", "reason": problem[0], "message": problem[1],
                         "line": entry.line, "text": entry.text}
            lines.append(OrderLine(entry.line, entry.text, entry.order, error))
        # two orders for one unit: the later replaces the earlier, and the player is told so
        for index, later in replaced_orders([line.order for line in lines]).items():
            line = lines[index]
            lines[index] = OrderLine(line.line, line.text, line.order, {
                "kind": REPLACED, "line": line.line, "text": line.text,
                "message": f"replaced by the later order {lines[later].text} for the same unit",
                "hint": "each unit takes one order: the later one is followed"})
        return lines

    @staticmethod
    def _check_phase(loaded: _Loaded, phase: str | None) -> None:
        """Refuse a request meant for another phase than the current one (a page or program
        that has not yet seen the game move on: bots make phases pass quickly)."""
        if phase is not None and phase.strip().upper() != str(loaded.engine.phase):
            now = loaded.engine.variant.calendar.phase_name(loaded.engine.phase)
            raise conflict(f"the game has moved on to {now}; this was "
                           f"meant for {phase.strip().upper()}: look at the new phase first",
                           "phase_changed")

    def submit_orders(self, user: Account, game_id: int, power: str, text: str,
                      ready: bool | None = None, phase: str | None = None,
                      revision: str | None = None,
                      ) -> tuple[str, list[OrderLine], bool, list[str], list[JSON]]:
        """Give ``power``'s orders for the current phase (replacing earlier ones); returns the
        phase, each order with its messages, the ready flag, what the orders leave open
        (:meth:`Game.warnings`) and the builds its orders of the variant's own kinds use
        (:func:`builds_used`), as of this submission: read in the same transaction rather
        than with another request to the database. Unreadable and illegal lines are kept
        (nothing typed is lost) but not carried out. ``revision``: the
        :func:`~realpolitik.server.privacy.orders_revision` of the orders the sender last saw;
        if they have changed since (another tab or device), the orders are refused (409
        ``orders_changed``) instead of overwriting what the sender has not seen."""
        if len(text) > self.settings.max_order_chars:
            raise ServiceError(413, "too_long", f"order text is limited to "
                               f"{self.settings.max_order_chars} characters")
        with self._changing(game_id) as (conn, loaded):
            power = self._my_power(loaded, user, power)
            self._check_rate(user, game_id)
            self._check_phase(loaded, phase)
            self._check_orders_open(loaded, power)
            self._check_revision(loaded, power, revision)
            # this power's orders need no other power's: those another process took are not
            # read here (``loaded.engine``, not ``loaded.game``)
            game = loaded.engine
            try:
                entries = game.submit(power, text)
            except GameError as exc:
                raise conflict(str(exc), "game_error") from exc
            loaded.unapplied.discard(power)
            # the engine has read the text; only a text with an error is read again, for the
            # error's fields (span, hint, suggestions)
            lines = lines_of_entries(text, entries)
            if lines is None:
                lines = self.describe(game, power, text)
            previous = loaded.pending.get(power)
            phase = str(game.phase)
            was_ready = previous is not None and previous.phase == phase and bool(previous.ready)
            is_ready = was_ready if ready is None else bool(ready)
            warnings = game.warnings(power)
            used = builds_used(game, power)
            self._set_pending(conn, loaded, power, text, is_ready)
            self._save(conn, loaded)
        self._tell_own_pages(game_id, user, power, phase, text, is_ready)
        self._after_ready_change(game_id, loaded, announce=is_ready != was_ready)
        return phase, lines, is_ready, warnings, used

    @staticmethod
    def _stored_text(loaded: _Loaded, power: str) -> str | None:
        """``power``'s order text for the current phase as stored (None: none given)."""
        row = loaded.pending.get(power)
        return row.text if row is not None and row.phase == str(loaded.engine.phase) else None

    def _check_revision(self, loaded: _Loaded, power: str, revision: str | None) -> None:
        """Refuse orders written on a view of ``power``'s orders older than the stored ones."""
        if revision is None:
            return
        phase = str(loaded.engine.phase)
        if revision.strip() != orders_revision(phase, self._stored_text(loaded, power)):
            raise conflict(f"{power.title()}'s orders were changed elsewhere (in another tab "
                           "or on another device) after this page loaded them; nothing was "
                           "overwritten: look at them and send again", "orders_changed")

    def _tell_own_pages(self, game_id: int, user: Account, power: str, phase: str,
                        text: str, ready: bool) -> None:
        """Tell the user's other pages of this game (other tabs, other devices) that
        ``power``'s orders changed, so they show them (only the user hears of it: the event
        carries the new revision, not the orders)."""
        self.hub.publish(game_id, {"type": "orders", "power": power, "phase": phase,
                                   "revision": orders_revision(phase, text), "ready": ready},
                         (user.id,))

    def orders(self, user: Account, game_id: int) -> dict[str, JSON]:
        """The user's own orders for the current phase: per power, the text and each line."""
        with self._locked(game_id):
            loaded = self._read(game_id)
            mine = self._my_powers(loaded, user, None)
            out: dict[str, JSON] = {}
            for power in mine:
                row = loaded.pending.get(power)
                text = row.text if row is not None and row.phase == str(loaded.game.phase) else None
                out[power] = {
                    "text": text,
                    "revision": orders_revision(str(loaded.game.phase), text),
                    "submitted": loaded.game.has_submitted(power),
                    "ready": bool(row.ready) if row is not None else False,
                    "lines": self.describe(loaded.game, power, text) if text else [],
                    "warnings": loaded.game.warnings(power)
                    if power in loaded.game.powers_to_order() else [],
                    "builds_used": builds_used(loaded.game, power),
                }
            return out

    def warnings(self, user: Account, game_id: int, power: str) -> list[str]:
        """What one of the user's powers' orders leave open or overdo this phase
        (:meth:`Game.warnings`); empty once the phase has moved on."""
        with self._locked(game_id):
            loaded = self._read(game_id)
            power = self._my_power(loaded, user, power)
            game = loaded.game
            if game.is_over or power not in game.powers_to_order():
                return []
            return game.warnings(power)

    def set_ready(self, user: Account, game_id: int, power: str | None, ready: bool,
                  phase: str | None = None,
                  revisions: Mapping[str, str] | None = None) -> tuple[list[str], list[str]]:
        """Mark the user's powers (or one) ready or not; a ready power that gave no orders has
        given none on purpose (its units hold, and it is not in civil disorder). Returns the
        powers changed and, when marked ready, what their orders leave open (the warnings of
        the phase they were ready for). ``revisions``: per power, the revision of the orders
        the sender sees; orders changed since (elsewhere) refuse the flag (409
        ``orders_changed``): no one is marked ready on orders they have not seen."""
        with self._changing(game_id) as (conn, loaded):
            powers = self._my_powers(loaded, user, power)
            self._check_phase(loaded, phase)
            if ready:
                for p, revision in (revisions or {}).items():
                    if p.strip().lower() in powers:
                        self._check_revision(loaded, p.strip().lower(), revision)
            game = loaded.game
            to_order = set(game.powers_to_order())
            if loaded.row.status != "active":
                raise conflict(f"the game is {loaded.row.status}", "not_active")
            changed = []
            for p in powers:
                if p not in to_order:
                    continue
                row = loaded.pending.get(p)
                text = row.text if row is not None and row.phase == str(game.phase) else None
                if text is None and ready:
                    game.submit(p, "")
                    text = ""
                self._set_pending(conn, loaded, p, text, ready)
                changed.append(p)
            if power is not None and not changed:
                raise conflict(f"{powers[0].title()} has nothing to order in {game.phase}",
                                "nothing_to_order")
            warnings = [w for p in changed for w in game.warnings(p)] if ready else []
            self._save(conn, loaded)
        self._after_ready_change(game_id, loaded)
        return changed, warnings

    def _after_ready_change(self, game_id: int, loaded: _Loaded, *,
                            announce: bool = True) -> None:
        """Tell the watchers who is ready (unless not ``announce``: an order submission that
        left its power's flag as it was, where the event would say nothing new to every worker
        and every watcher), and adjudicate at once when every power that must order is ready
        (``loaded`` is the game as the change just committed left it)."""
        if announce:
            self.hub.publish(game_id, {"type": "ready", "phase": str(loaded.engine.phase),
                                       "ready": loaded.ready()})
        self._advance(game_id, loaded)

    MAX_BOT_PHASES = 40
    """How many phases one call of :meth:`_advance` may play in a row when bots are ready at
    once (a game of bots alone, or one whose players have nothing to order); after that the
    deadline moves the game on."""

    def _advance(self, game_id: int, loaded: _Loaded | None = None) -> None:
        """Bots give their orders for the current phase and are ready at once; when every power
        that must order is ready (and each has a player or a bot), the phase is adjudicated and
        the same follows in the next phase. ``loaded``: the game as a change just committed left
        it (saves reading it again)."""
        for _ in range(self.MAX_BOT_PHASES):
            if loaded is None:
                loaded = self._read(game_id)
            if self._bots_to_act(loaded):
                loaded = self._bots_order(game_id) or self._read(game_id)
            if loaded.row.status != "active":
                return
            if not self._all_ready(loaded):
                return
            if not self.process(game_id, expected_phase=str(loaded.engine.phase)):
                return
            loaded = None

    @staticmethod
    def _all_ready(loaded: _Loaded) -> bool:
        """True if the phase can be adjudicated now: every power that must order and has a
        player (or a bot) is ready. A power whose seat is free is in civil disorder (1971
        XIV.3, 1992 XV.4: its units hold, it raises no units, removals follow XIV.4 / XV.5), so
        it is not waited for. A movement phase needs at least one such power ready, and a game
        with no one seated waits for its deadline."""
        if not any(loaded.seat_filled(int(s.seat)) for s in loaded.seats):
            return False
        game = loaded.engine  # the position and phase: no power's orders needed
        to_order = [p for p in game.powers_to_order() if loaded.seat_of(p) is not None]
        seated = [p for p in to_order if loaded.commanded(p)]
        if not seated and (not to_order or game.phase.type is PhaseType.MOVEMENT):
            return False
        return set(seated) <= set(loaded.ready())

    @staticmethod
    def _bots_to_act(loaded: _Loaded) -> bool:
        """True if a bot has a power with something to order and is not ready yet."""
        if not loaded.bots or loaded.row.status not in ("forming", "active") \
                or loaded.engine.is_over:
            return False
        phase = str(loaded.engine.phase)
        for power in loaded.engine.powers_to_order():
            row = loaded.pending.get(power)
            if loaded.bot_of(power) is not None and not (
                    row is not None and row.phase == phase and row.ready):
                return True
        return False

    def _bots_order(self, game_id: int) -> _Loaded | None:
        """Each bot whose power has something to order and is not ready yet gives its orders
        (as their canonical text, kept like a player's) and is ready; returns the game as
        committed, or None if no bot acted."""
        with self._changing(game_id) as (conn, loaded):
            game = loaded.game
            if loaded.row.status not in ("forming", "active") or game.is_over:
                return None
            phase = str(game.phase)
            acted = []
            for power in game.powers_to_order():
                name = loaded.bot_of(power)
                row = loaded.pending.get(power)
                if name is None or (row is not None and row.phase == phase and row.ready):
                    continue
                seat = loaded.seat_of(power)
                bot = make_bot(name, seed=game.seed * 101 + (seat or 0))
                orders = bot.orders(game.position, power, game.rules)
                game.submit(power, orders)
                self._set_pending(conn, loaded, power,
                                  "\n".join(str(order) for order in orders), True)
                acted.append(power)
            if acted:
                self._save(conn, loaded)
        if not acted:
            return None
        self.hub.publish(game_id, {"type": "ready", "phase": phase, "ready": loaded.ready()})
        return loaded

    def writer_of(self, game_id: int) -> PlaceWriter | None:
        """The writer of the places of a game the service holds (as the last request left
        it), where its variant writes places by name; None otherwise (the wire's codes are
        the names then)."""
        cached = self._cache.get(game_id)
        if cached is None or not cached.game.variant.writes_names:
            return None
        return place_writer(cached.game.variant)

    def legal_orders(self, user: Account, game_id: int, power: str) -> dict[str, list[Order]]:
        """Every legal order of one of the user's powers this phase, per location."""
        with self._locked(game_id):
            loaded = self._read(game_id, orders=False)  # the position's orders, not the powers'
            power = self._my_power(loaded, user, power)
            if loaded.row.status == "finished":
                return {}
            return {loc: list(orders) for loc, orders in loaded.engine.legal_orders(power).items()}

    def turn(self, user: Account, game_id: int, power: str | None, since: int | None,
             press_after: int) -> JSON:
        """Everything a program playing ``power`` needs for the current phase, in one answer:
        the game's state (as :meth:`game_view`), whether the power must order and how many
        builds (> 0) or removals (< 0) it has, its legal orders, the orders it gave so far, the
        phases played from ``since`` (by default the last one), and the press after message
        ``press_after`` that the user may read."""
        with self._locked(game_id):
            loaded = self._read(game_id)
            power = self._my_power(loaded, user, power)
            game = loaded.game
            view = self.game_view(game_id, user)
            over = loaded.row.status == "finished"
            must_order = not over and power in game.powers_to_order()
            row = loaded.pending.get(power)
            current = row is not None and row.phase == str(game.phase)
            played = len(game.history)
            start = max(0, played - 1) if since is None else since
            return {
                "game": view,
                "power": power,
                "must_order": must_order,
                "adjustment": _adjustment(game, power) if must_order else 0,
                "legal_orders": {loc: list(orders) for loc, orders in
                                 game.legal_orders(power).items()} if must_order else {},
                "orders": row.text if current and row is not None else None,
                "ready": bool(row.ready) if current and row is not None else False,
                "played": played,
                "results": self.history(user, game_id, start),
                "press": self.press(user, game_id, press_after),
            }

    # -- processing --------------------------------------------------------------------------------

    def process(self, game_id: int, *, expected_phase: str | None = None,
                due_by: float | None = None) -> bool:
        """Adjudicate the current phase now (missing orders: civil disorder) and start the next
        one with its deadline; returns False if there was nothing to do. ``due_by``: only if
        the deadline is at or before it, checked under the row's lock (so a deadline is
        processed once, whichever process sees it first), and not at all if another
        transaction holds the game (it is checked again at the next tick)."""
        try:
            return self._process(game_id, expected_phase, due_by)
        except _Busy:
            return False

    def _process(self, game_id: int, expected_phase: str | None, due_by: float | None) -> bool:
        with self._changing(game_id, skip_locked=due_by is not None) as (conn, loaded):
            game = loaded.game
            if loaded.row.status != "active" or game.is_over:
                return False
            if expected_phase is not None and str(game.phase) != expected_phase:
                return False
            if due_by is not None and (loaded.row.deadline is None
                                       or loaded.row.deadline > due_by):
                return False
            before = len(game.history)
            game.process()
            while not game.is_over and game.phase.type is not PhaseType.MOVEMENT \
                    and not game.powers_to_order():
                game.process()
            self._bots_vote(loaded)  # on a draw still proposed, in the new position
            now = self.clock()
            # only the new phases are written out, once each, and the record without its
            # phases: writing the whole record again took some hundred milliseconds after
            # sixty phases, during which no other change was written
            new_phases = [savefile.phase_to_json(played) for played in game.history[before:]]
            for offset, entry in enumerate(new_phases):
                _add_names(entry, game.history[before + offset])
                _add_unordered_dislodged(entry, game.history[before + offset])
                db.append_phase(conn, game_id=game_id, seq=before + offset,
                                phase=entry["phase"], data=json.dumps(entry, ensure_ascii=False),
                                now=now)
            db.clear_pending(conn, game_id)
            loaded.pending = {}
            over = game.is_over
            deadline = None if over else self._deadline_for(loaded, now)
            self._save(conn, loaded, record=_record_text(game), phase=str(game.phase),
                       status="finished" if over else "active", deadline=deadline,
                       paused_remaining=None)
            event: Event = {
                "type": "phase",
                "phase": str(game.phase),
                "phase_type": game.phase.type.name.lower(),
                "deadline": iso_time(deadline),
                "status": "finished" if over else "active",
                # every watcher gets this event: the orders as read, no one's other lines
                "results": [dict(phase_as_seen(entry), seq=before + i)
                            for i, entry in enumerate(new_phases)],
                "position": savefile.position_to_json(game.position),
                "centers": game.centers(),
            }
        self.hub.publish(game_id, event)
        self._mail_phase_played(loaded, game, before)
        if over:
            self._publish_end(game_id, game)
        return True

    def _mail_phase_played(self, loaded: _Loaded, game: Game, first_played: int) -> None:
        """Tell the players by e-mail (those who chose it) that a phase was played."""
        users = [u for p in game.powers if (u := loaded.user_of(p)) is not None]
        self.notifier.phase_played(int(loaded.row.id), str(loaded.row.name), users,
                                   game.variant.calendar.phase_name(
                                       game.history[first_played].position.phase),
                                   game.variant.calendar.phase_name(game.phase))

    def owing_orders(self, game_id: int) -> dict[int, list[str]]:
        """The players of an active game whose powers still owe orders this phase (neither
        given nor marked ready), each with those powers (the deadline reminders)."""
        with self._locked(game_id):
            loaded = self._read(game_id)
            if loaded.row.status != "active":
                return {}
            ready, given = set(loaded.ready()), set(self._orders_in(loaded))
            out: dict[int, list[str]] = {}
            for power in self._to_order(loaded):
                user = loaded.user_of(power)
                if user is not None and power not in ready and power not in given:
                    out.setdefault(user, []).append(power)
            return out

    def process_due(self) -> list[int]:
        """Process every active game whose deadline has passed (at start-up, every overdue one).
        A failure in one game is logged and does not stop the others."""
        now = self.clock()
        with self.store.read() as conn:
            due = db.due_games(conn, now)
        done = []
        for game_id in due:
            try:
                if self.process(game_id, due_by=now):
                    done.append(game_id)
                    self._advance(game_id)
            except ServiceError:
                continue
            except Exception:  # one broken game must not stop the clock for the others
                log.exception("processing game %s failed", game_id)
        try:
            self.accounts.save_last_used()  # for the sessions list
        except Exception:  # nor the sessions list
            log.exception("noting when the log-ins were last used failed")
        try:
            self.notifier.remind(self)  # into the outbox: the mail task sends it
        except Exception:  # the mail must not stop the clock either
            log.exception("queueing the deadline reminders failed")
        return done

    def _publish_deadline(self, game_id: int, status: str, deadline: float | None) -> None:
        self.hub.publish(game_id, {"type": "deadline", "status": status,
                                   "deadline": iso_time(deadline)})

    def _publish_end(self, game_id: int, game: Game) -> None:
        end = game.end
        assert end is not None
        self.hub.publish(game_id, {"type": "end", "kind": end.kind.value,
                                   "winners": list(end.winners), "summary": end.summary})

    # -- the gamesmaster -----------------------------------------------------------------------

    def pause(self, user: Account, game_id: int) -> None:
        """Stop the clock; orders and press wait until the game resumes."""
        with self._changing(game_id) as (conn, loaded):
            self._check_gm(loaded, user)
            if loaded.row.status != "active":
                raise conflict(f"the game is {loaded.row.status}, not active", "not_active")
            remaining = max(0.0, (loaded.row.deadline or self.clock()) - self.clock())
            self._save(conn, loaded, status="paused", deadline=None, paused_remaining=remaining)
        self._publish_deadline(game_id, "paused", None)

    def resume(self, user: Account, game_id: int) -> None:
        """Restart the clock with the time that was left when the game was paused."""
        with self._changing(game_id) as (conn, loaded):
            self._check_gm(loaded, user)
            if loaded.row.status != "paused":
                raise conflict(f"the game is {loaded.row.status}, not paused", "not_paused")
            deadline = self.clock() + float(loaded.row.paused_remaining or 0.0)
            self._save(conn, loaded, status="active", deadline=deadline, paused_remaining=None)
        self._publish_deadline(game_id, "active", deadline)

    def extend(self, user: Account, game_id: int, seconds: int) -> float | None:
        """Give the current phase more time (a negative number shortens it)."""
        with self._changing(game_id) as (conn, loaded):
            self._check_gm(loaded, user)
            row = loaded.row
            now = self.clock()
            if row.status == "paused":
                remaining = max(0.0, float(row.paused_remaining or 0.0) + seconds)
                self._check_deadline_bound(remaining)
                self._save(conn, loaded, paused_remaining=remaining)
                return None
            if row.status != "active" or row.deadline is None:
                raise conflict(f"the game is {row.status}: it has no deadline", "not_active")
            deadline = max(now, float(row.deadline) + seconds)
            self._check_deadline_bound(deadline - now)
            self._save(conn, loaded, deadline=deadline)
        self._publish_deadline(game_id, "active", deadline)
        return deadline

    @staticmethod
    def _check_deadline_bound(seconds_away: float) -> None:
        if not seconds_away <= MAX_DEADLINE_SECONDS:
            raise bad(f"a deadline can be at most {MAX_DEADLINE_SECONDS // 86400} days away; "
                      f"this one would be {seconds_away / 86400:.1f} days away", "bad_duration",
                      field="seconds")

    def start(self, user: Account, game_id: int) -> None:
        """Start a game that is still forming; powers without a player are in civil disorder
        until someone joins."""
        with self._changing(game_id) as (conn, loaded):
            self._check_gm(loaded, user)
            if loaded.row.status != "forming":
                raise conflict(f"the game is {loaded.row.status}, not forming", "not_forming")
            deadline = self._deadline_for(loaded, self.clock())
            self._save(conn, loaded, status="active", deadline=deadline)
        self._publish_deadline(game_id, "active", deadline)
        self._advance(game_id)

    def process_now(self, user: Account, game_id: int) -> None:
        """End the current phase at once."""
        loaded = self._read(game_id)
        self._check_gm(loaded, user)
        if not self.process(game_id):
            raise conflict(f"the game is {loaded.row.status}: nothing to process", "not_active")
        self._advance(game_id)

    def replace(self, user: Account, game_id: int, power: str, username: str | None) -> None:
        """Give the seat that commands ``power`` to another user, or free it (1971 XIV.3,
        1992 XV.4: a player who left is replaced by someone without a country)."""
        power = power.strip().lower()
        with self._changing(game_id) as (conn, loaded):
            self._check_gm(loaded, user)
            seat = loaded.seat_of(power) if power in loaded.game.powers else None
            if seat is None:
                raise bad(f"{power!r} is not a power with a seat in this game", "bad_power",
                           field="power")
            new_user: int | None = None
            if username is not None:
                row = db.user_by_name(conn, username)
                if row is None:
                    raise not_found("user")
                new_user = int(row.id)
                if loaded.powers_of_user(new_user):
                    raise conflict(f"{username} already plays in this game", "already_playing")
            previous = loaded.seats[seat].user_id
            previous = None if previous is None else int(previous)
            db.set_seat(conn, game_id, seat, new_user, self.clock() if new_user else None)
            loaded.seats_changed = True
            values: dict[str, Any] = {}
            if seat in loaded.bots or seat in loaded.daide_seats:
                # The bot gives up its seat (a DAIDE bot's connection is told, OFF). Its orders
                # stay for the phase, not ready: the new player may keep or change them before
                # the phase is adjudicated.
                settings = loaded.settings
                for kind in ("bots", "daide_seats"):
                    if kind in settings:
                        settings[kind] = {k: v for k, v in settings[kind].items()
                                          if k != str(seat)}
                values["settings"] = json.dumps(settings)
                phase = str(loaded.game.phase)
                for p in loaded.powers_of_seat(seat):
                    given = loaded.pending.get(p)
                    if given is not None and given.phase == phase:
                        self._set_pending(conn, loaded, p, given.text, False)
            self._log_seat(conn, loaded, seat, "replaced" if new_user else "freed",
                           player=new_user, previous=previous, by=user.id)
            self._save(conn, loaded, **values)
        self.hub.publish(game_id, {"type": "replaced", "powers":
                                   list(loaded.powers_of_seat(seat)), "player": username,
                                   "by_gamesmaster": True,
                                   "gamesmaster_took_it": new_user == user.id})
        if previous is not None and previous != new_user:
            self.hub.disconnect(game_id, previous, 4403,
                                "the gamesmaster gave your seat to someone else")
        self._advance(game_id)  # a freed seat is not waited for

    def seat_bot(self, user: Account, game_id: int, power: str, bot: str) -> JSON:
        """Seat a bot in the free seat that commands ``power`` (the gamesmaster only). The bot
        gives its orders at once if its power has something to order, and every phase after."""
        power = power.strip().lower()
        name = self._bot_name(bot, "bot")
        with self._changing(game_id) as (conn, loaded):
            self._check_gm(loaded, user)
            if loaded.row.status == "finished":
                raise conflict("the game is over", "game_over")
            seat = loaded.seat_of(power) if power in loaded.game.powers else None
            if seat is None:
                raise bad(f"{power!r} is not a power with a seat in this game", "bad_power",
                          field="power")
            if loaded.seat_filled(seat):
                raise conflict(f"{power.title()} is taken; free the seat first (replace)",
                               "seat_taken")
            settings = loaded.settings
            settings.setdefault("bots", {})[str(seat)] = name
            values: dict[str, Any] = {"settings": json.dumps(settings)}
            full = all(loaded.seat_filled(int(s.seat)) or int(s.seat) == seat
                       for s in loaded.seats)
            if loaded.row.status == "forming" and full:
                values.update(status="active", deadline=self._deadline_for(loaded, self.clock()))
            self._log_seat(conn, loaded, seat, "bot", player=None, previous=None, by=user.id)
            self._save(conn, loaded, **values)
            powers = loaded.powers_of_seat(seat)
        self.hub.publish(game_id, {"type": "joined", "powers": list(powers), "player": None,
                                   "bot": name})
        if "deadline" in values:
            self._publish_deadline(game_id, "active", values["deadline"])
        self._advance(game_id)
        return {"seat": seat, "powers": list(powers), "bot": name}

    # -- draws and concessions ---------------------------------------------------------------

    def vote_draw(self, user: Account, game_id: int, in_favour: bool,
                  power: str | None = None) -> JSON:
        """Vote for or against a draw among the survivors for the user's powers (or one). The
        votes are secret: only the count is shown until the draw is agreed by all."""
        with self._changing(game_id) as (conn, loaded):
            game = loaded.game
            if loaded.row.status not in ("active", "paused"):
                raise conflict(f"the game is {loaded.row.status}", "not_active")
            survivors = set(game.active_powers())
            powers = [p for p in self._my_powers(loaded, user, power) if p in survivors]
            if not powers:
                raise conflict("none of your powers is still in the game", "eliminated")
            for p in powers:
                game.vote_draw(p, in_favour, unplayed=loaded.unplayed())
                if game.is_over:
                    break
            count = self._draw_votes_saved(conn, loaded)
        self._draw_votes_told(game_id, game, count)
        return {"in_favour": count[0], "needed": count[1],
                "end": None if game.end is None else game.end.summary}

    def _draw_votes_saved(self, conn: Connection, loaded: _Loaded) -> tuple[int, int]:
        """After a vote on a draw (a player's or a DAIDE bot's): the bots vote, the game is
        saved (finished when the draw is agreed); returns the votes in favour and needed."""
        game = loaded.game
        self._bots_vote(loaded)
        values: dict[str, Any] = {"record": _record_text(game)}
        if game.is_over:
            values.update(status="finished", deadline=None)
        self._save(conn, loaded, **values)
        return game.draw_vote_count(loaded.unplayed())

    def _draw_votes_told(self, game_id: int, game: Game, count: tuple[int, int]) -> None:
        """Tell the game's watchers the count of a draw vote (and the end, when agreed)."""
        self.hub.publish(game_id, {"type": "draw_votes", "in_favour": count[0],
                                   "needed": count[1]})
        if game.is_over:
            self._publish_end(game_id, game)

    @staticmethod
    def _bots_vote(loaded: _Loaded) -> None:
        """While a player (not a bot) has voted for a draw, each bot votes by its draw policy
        (``realpolitik.bots.DrawPolicy``: for when it cannot win); with no such vote standing
        the bots vote against, so a bot never proposes a draw."""
        game = loaded.game
        if not loaded.bots or game.is_over:
            return
        unplayed = loaded.unplayed()
        votes = game.draw_votes
        survivors = game.active_powers()
        proposed = any(votes.get(p) for p in survivors
                       if loaded.bot_of(p) is None and p not in unplayed)
        history = [record.position for record in game.history] if proposed else []
        for power in survivors:
            name = loaded.bot_of(power)
            if name is None:
                continue
            seat = loaded.seat_of(power) or 0
            in_favour = proposed and make_bot(name, seed=game.seed * 101 + seat).draw_vote(
                game.position, power, history)
            if bool(votes.get(power)) != in_favour:
                game.vote_draw(power, in_favour, unplayed=unplayed)
                if game.is_over:
                    return

    def concede(self, user: Account, game_id: int, to: str | None) -> JSON:
        """Concede the game to the player commanding ``to`` (or withdraw with None); when every
        other surviving player concedes to the same power, the game ends."""
        with self._changing(game_id) as (conn, loaded):
            game = loaded.game
            if loaded.row.status not in ("active", "paused"):
                raise conflict(f"the game is {loaded.row.status}", "not_active")
            mine = self._my_powers(loaded, user, None)
            my_seat = loaded.seat_of(mine[0])
            assert my_seat is not None
            if to is not None:
                to = to.strip().lower()
                winner_seat = loaded.seat_of(to) if to in game.powers else None
                if winner_seat is None or to not in game.active_powers():
                    raise bad(f"{to!r} is not a power still in the game", "bad_power",
                               field="to")
                if winner_seat == my_seat:
                    raise bad("you cannot concede to yourself", "bad_power", field="to")
            db.set_concession(conn, game_id, my_seat, to)
            loaded.seats_changed = True
            seats = db.seats_of(conn, game_id)
            survivors = set(game.active_powers())
            if to is not None:
                winner_seat = loaded.seat_of(to)
                # a seat without a player has no one to concede: the players decide
                others = [s for s in seats if int(s.seat) != winner_seat
                          and s.user_id is not None
                          and survivors & set(loaded.powers_of_seat(int(s.seat)))]
                if all(s.concede_to == to for s in others):
                    game.concede(to)
            values: dict[str, Any] = {}
            if game.is_over:
                values = {"record": _record_text(game), "status": "finished", "deadline": None}
            self._save(conn, loaded, **values)
        if game.is_over:
            self._publish_end(game_id, game)
        return {"conceded_to": to, "end": None if game.end is None else game.end.summary}

    # -- history and the record --------------------------------------------------------------

    def history(self, user: Account | None, game_id: int, since: int = 0) -> list[JSON]:
        """Every played phase: the position, every power's orders as read and their results;
        the lines that were not orders only for the user's own powers, marked not sent
        (:func:`~realpolitik.server.privacy.phase_as_seen`)."""
        loaded = self._read(game_id)
        self._check_visible(loaded, user)
        own = loaded.powers_of_user(user.id) if user is not None else ()
        with self.store.read() as conn:
            rows = db.phases_of(conn, game_id, since)
        out = []
        for row in rows:
            entry: JSON = phase_as_seen(json.loads(row.data), own)
            entry["seq"] = int(row.seq)
            out.append(entry)
        return out

    def record(self, user: Account | None, game_id: int) -> str:
        """The full game record (savefile JSON), once the game is over."""
        with self._locked(game_id):
            loaded = self._read(game_id)
            self._check_visible(loaded, user)
            if not loaded.game.is_over:
                raise conflict("the game record is available once the game is over", "not_over")
            # the lines that were not orders are their writers' own: not in the public record
            public = record_as_seen(savefile.game_to_json(loaded.game))
            return json.dumps(public, indent=1, ensure_ascii=False) + "\n"

    def map_svg(self, user: Account | None, game_id: int, seq: int | None = None,
                mine: bool = False) -> str:
        """The map as SVG: the current position (with the user's own orders of this phase if
        ``mine``), or played phase ``seq`` with every order and its result."""
        with self._locked(game_id):
            loaded = self._read(game_id)
            self._check_visible(loaded, user)
            game = loaded.game
            title = str(loaded.row.name)
            if seq is None:
                orders: dict[str, list[Order]] = {}
                if mine and user is not None:
                    for power in loaded.powers_of_user(user.id):
                        given = [e.order for e in game.orders_of(power) if e.ok and e.order]
                        if given:
                            orders[power] = given
                return render(game.position, orders=orders or None, title=title)
            if seq >= len(game.history):
                raise not_found("phase")
            played = game.history[seq]
            return render(played.position, results=played.resolution, title=title)

    # -- press ---------------------------------------------------------------------------------

    def _press_closed(self, loaded: _Loaded) -> str | None:
        press = loaded.settings["press"]
        if loaded.row.status == "finished":
            return "the game is over"
        if loaded.row.status == "paused":
            return "the game is paused: press waits until the gamesmaster resumes it"
        if not press["private"] and not press["public"]:
            return "this game has no press"
        if loaded.engine.phase.type is not PhaseType.MOVEMENT and not press["outside_diplomacy"]:
            return "press is closed during retreats and adjustments"
        return None

    def send_press(self, user: Account, game_id: int, sender: str | None,
                   recipients: Sequence[str] | None, body: str) -> JSON:
        """Send a message to some powers, or (``recipients`` None) a public announcement."""
        body = body.strip()
        if not body:
            raise bad("the message is empty", "empty", field="body")
        if len(body) > self.settings.max_press_chars:
            raise ServiceError(413, "too_long", f"a message is limited to "
                               f"{self.settings.max_press_chars} characters", field="body")
        loaded = self._read(game_id)
        (sender,) = self._my_powers(loaded, user, sender) if sender is not None else \
            self._my_powers(loaded, user, None)[:1]
        closed = self._press_closed(loaded)
        if closed:
            raise conflict(closed, "press_closed")
        press = loaded.settings["press"]
        to: list[str] = []
        if recipients is None:
            if not press["public"]:
                raise forbidden("this game has no public announcements", "no_public_press")
        else:
            if not press["private"]:
                raise forbidden("this game has no private press", "no_private_press")
            to = sorted({r.strip().lower() for r in recipients})
            unknown = [r for r in to if r not in loaded.game.powers]
            if unknown:
                raise bad(f"not powers of this game: {', '.join(unknown)}", "bad_power",
                           field="recipients")
            if sender in to:
                to.remove(sender)
            if not to:
                raise bad("a private message needs at least one other power", "no_recipients",
                           field="recipients")
        now = self.clock()
        with self._locked(game_id), self.store.write() as conn:
            if db.messages_sent_since(conn, game_id, user.id, now - 60) \
                    >= self.settings.press_per_minute:
                raise ServiceError(429, "too_many_requests", "too many messages; wait a minute")
            message_id = db.add_message(conn, game_id=game_id, phase=str(loaded.game.phase),
                                        sender=sender, sender_user_id=user.id,
                                        recipients=",".join(to), body=body, created_at=now)
        message = {"id": message_id, "phase": str(loaded.game.phase), "sender": sender,
                   "recipients": to or None, "public": not to, "body": body,
                   "sent_at": iso_time(now)}
        audience = None
        if to:
            audience = {u for p in [sender, *to] if (u := loaded.user_of(p)) is not None}
        self.hub.publish(game_id, {"type": "press", "message": message}, audience)
        readers = audience if audience is not None else \
            {u for p in loaded.game.powers if (u := loaded.user_of(p)) is not None}
        self.notifier.press_sent(game_id, str(loaded.row.name), readers - {user.id},
                                 loaded.game.variant.power_name(sender), not to, body)
        return message

    PRESS_PAGE = 100
    """Messages in one answer of :meth:`press` unless asked for fewer (at most
    :data:`PRESS_PAGE_MAX`): a client reads further pages with ``after``."""
    PRESS_PAGE_MAX = 500

    def press(self, user: Account | None, game_id: int, after: int = 0,
              limit: int = PRESS_PAGE) -> list[JSON]:
        """The messages the user may read after id ``after``, oldest first, at most ``limit``
        (a page: the next starts after the last one's id): public ones, and private ones to or
        from a power the user commands now."""
        loaded = self._read(game_id)
        self._check_visible(loaded, user)
        mine = sorted(loaded.powers_of_user(user.id)) if user else []
        with self.store.read() as conn:
            rows = db.messages_of(conn, game_id, after, readers=mine,
                                  limit=max(1, min(limit, self.PRESS_PAGE_MAX)))
        out = []
        for row in rows:
            to = [p for p in str(row.recipients).split(",") if p]
            out.append({"id": int(row.id), "phase": row.phase, "sender": row.sender,
                        "recipients": to or None, "public": not to, "body": row.body,
                        "sent_at": iso_time(row.created_at)})
        return out

    # -- for the WebSocket ---------------------------------------------------------------------

    def can_watch(self, user: Account | None, game_id: int) -> None:
        """Raise unless the user may watch the game's live events."""
        loaded = self._read(game_id)
        self._check_visible(loaded, user)

    def powers_in(self, game_id: int) -> Iterable[str]:
        """The powers of a game."""
        return self._read(game_id).game.powers
