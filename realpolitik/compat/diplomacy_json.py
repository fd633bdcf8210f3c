"""The saved-game JSON of the ``diplomacy`` package (``to_saved_game_format``), in and out.

That format is what research tools and datasets of played games use::

    {"id": ..., "map": "standard", "rules": [...],
     "phases": [{"name": "S1901M", "state": {...}, "orders": {"FRANCE": ["A PAR - BUR", ...]},
                 "results": {"A PAR": [], ...}, "messages": [...]}, ...]}

:func:`game_from_diplomacy_json` replays the recorded orders of every phase on realpolitik's
engine and checks that each phase comes out as recorded (phase name, units, supply centres).
:func:`compare_diplomacy_json` adjudicates every recorded phase on its own, from the recorded
state, and lists where realpolitik's result differs from the recorded one.
:func:`game_to_diplomacy_json` writes a realpolitik game in the format, which the package's
``from_saved_game_format`` reads.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from realpolitik.adjudication import adjudicate
from realpolitik.errors import RealpolitikError
from realpolitik.game import Game as _Game
from realpolitik.geography import UnitType
from realpolitik.legality import retreat_options
from realpolitik.listing import legal_orders
from realpolitik.maptables import MapTables, tables_for
from realpolitik.notation import parse_order
from realpolitik.orders import Order, Waive
from realpolitik.phases import next_position
from realpolitik.position import Phase, PhaseType, Position, Unit
from realpolitik.rules import Rules, rules_for
from realpolitik.variant import Variant, load_variant

from .diplomacy import Game
from .diplomacy_words import (
    diplomacy_state,
    listing_texts,
    order_statuses,
    order_text,
    record_orders,
    unit_text,
    update_influence,
)

__all__ = [
    "Disagreement",
    "ReplayMismatchError",
    "compare_diplomacy_json",
    "game_from_diplomacy_json",
    "game_to_diplomacy_json",
    "position_from_diplomacy_state",
]

JSON = dict[str, Any]
_MAPS = {"standard": "classical"}


class ReplayMismatchError(RealpolitikError, ValueError):
    """A replayed phase does not come out as the saved game records it."""

    def __init__(self, disagreement: Disagreement) -> None:
        super().__init__(str(disagreement))
        self.disagreement = disagreement


@dataclass(frozen=True)
class Disagreement:
    """A phase whose result differs from the record: what was expected and what came out."""

    phase: str
    """The phase adjudicated (``"F1903M"``)."""
    what: str
    """``"phase"`` (the next phase's name), ``"units"`` or ``"centers"``."""
    expected: Any
    got: Any
    orders: Mapping[str, Sequence[str]] = field(default_factory=dict)
    """The orders of the phase, as recorded."""
    state: Mapping[str, Any] = field(default_factory=dict)
    """The recorded state the phase was adjudicated from."""

    def __str__(self) -> str:
        if isinstance(self.expected, dict) and isinstance(self.got, dict):
            keys = sorted(set(self.expected) | set(self.got))
            diff = {k: {"recorded": self.expected.get(k), "realpolitik": self.got.get(k)}
                    for k in keys if self.expected.get(k) != self.got.get(k)}
            return f"{self.phase}: {self.what} differ: {diff}"
        return f"{self.phase}: {self.what}: recorded {self.expected!r}, got {self.got!r}"


def _variant(data: Mapping[str, Any]) -> Variant:
    name = str(data.get("map", "standard"))
    return load_variant(_MAPS.get(name, name))


def _sets(by_power: Mapping[str, Iterable[str]]) -> dict[str, list[str]]:
    return {p.upper(): sorted(v) for p, v in by_power.items() if v}


def position_from_diplomacy_state(state: Mapping[str, Any], variant: Variant | str = "classical",
                                  ) -> Position:
    """The position of a movement or adjustment phase from the package's state dictionary.

    Retreat phases are not read this way (the state does not say where attackers came from):
    :func:`compare_diplomacy_json` takes them from the movement phase before.
    """
    the_variant = load_variant(_MAPS.get(variant, variant)) if isinstance(variant, str) \
        else variant
    units: list[Unit] = []
    for power, texts in state.get("units", {}).items():
        for text in texts:
            if text.startswith("*"):
                continue
            kind, where = text.split()
            units.append(Unit(power.lower(), UnitType(kind), where.lower()))
    centers = {c.lower(): power.lower()
               for power, owned in state.get("centers", {}).items() for c in owned}
    return Position.build(the_variant, Phase.parse(state["name"]), units, centers)


def _orders_from_strings(position: Position, power: str, texts: Iterable[str], rules: Rules,
                         tables: MapTables) -> list[Order]:
    """Orders of ``power`` from the package's strings: legal ones by look-up (under the strings
    the facade lists them by), others parsed."""
    table: dict[str, Order] = {}
    listing_texts(position.variant).fill(legal_orders(position, power, rules=rules), table)
    out: list[Order] = []
    for text in texts:
        if not text or text.startswith("VOID"):
            continue
        normal = " ".join(text.upper().split())
        found: Order | None = table.get(normal) or table.get(normal + " VIA")
        if found is None:
            if normal == "WAIVE":
                continue
            try:
                found = parse_order(normal, position, power=power)
            except RealpolitikError:
                continue
        out.append(found)
    return out


def compare_diplomacy_json(data: Mapping[str, Any], *, rules: Rules | str = "2000",
                           ) -> list[Disagreement]:
    """Adjudicate every recorded phase from its recorded state and list the differences.

    Each movement and adjustment phase starts from the state the record gives; a retreat phase
    starts from realpolitik's own result of the movement phase before (when that agreed). A
    difference in one phase does not carry into the next.
    """
    the_rules = rules if isinstance(rules, Rules) else rules_for(rules)
    variant = _variant(data)
    tables = tables_for(variant)
    phases = list(data.get("phases", []))
    out: list[Disagreement] = []
    carried: Position | None = None
    for index in range(len(phases) - 1):
        phase, after = phases[index], phases[index + 1]
        name = phase["name"]
        if name.endswith("R"):
            if carried is None or str(carried.phase) != name:
                carried = None
                continue
            position = carried
        else:
            position = position_from_diplomacy_state(phase["state"], variant)
        carried = None
        orders: list[Order] = []
        for power, texts in (phase.get("orders") or {}).items():
            if texts:
                orders.extend(_orders_from_strings(position, power.lower(), texts, the_rules,
                                                   tables))
        resolution = adjudicate(position, orders, rules=the_rules)
        following = next_position(position, resolution)
        if after["name"][-1:] != "R" and _nowhere_to_retreat(following, the_rules):
            # the package disbands units with nowhere to go at once, without a retreat phase
            following = next_position(following, adjudicate(following, [], rules=the_rules))
        recorded = after["state"]
        found = _differences(name, following, recorded, phase, after["name"])
        out.extend(found)
        if not found and following.phase.type is PhaseType.RETREATS:
            carried = following
    return out


def _nowhere_to_retreat(position: Position, rules: Rules) -> bool:
    """True in a retreat phase where no dislodged unit has anywhere to go."""
    return position.phase.type is PhaseType.RETREATS and not any(
        retreat_options(position, d, rules=rules) for d in position.dislodged)


def _differences(name: str, following: Position, recorded: Mapping[str, Any],
                 phase: Mapping[str, Any], next_name: str) -> list[Disagreement]:
    context = {"orders": phase.get("orders") or {}, "state": phase["state"]}
    out: list[Disagreement] = []
    if next_name != "COMPLETED" and str(following.phase) != next_name:
        out.append(Disagreement(name, "phase", next_name, str(following.phase), **context))
    units = _units_of(following)
    if units != _sets(recorded.get("units", {})):
        out.append(Disagreement(name, "units", _sets(recorded.get("units", {})), units,
                                **context))
    centers = _sets({p: [c.upper() for c, o in following.centers.items() if o == p.lower()]
                     for p in following.variant.power_ids})
    if next_name != "COMPLETED" and centers != _sets(recorded.get("centers", {})):
        out.append(Disagreement(name, "centers", _sets(recorded.get("centers", {})), centers,
                                **context))
    return out


def _units_of(position: Position) -> dict[str, list[str]]:
    units: dict[str, list[str]] = {}
    for unit in position.units.values():
        units.setdefault(unit.power.upper(), []).append(unit_text(unit))
    for d in position.dislodged:
        units.setdefault(d.unit.power.upper(), []).append("*" + unit_text(d.unit))
    return {p: sorted(v) for p, v in units.items()}


def game_from_diplomacy_json(data: Mapping[str, Any], *, rules: Rules | str = "2000",
                             strict: bool = True) -> _Game:
    """Replay a saved game of the ``diplomacy`` package on realpolitik.

    Every phase's recorded orders are given and the phase processed; the phase reached, the units
    (dislodged ones too) and the supply centres are checked against the record of the next phase.
    With ``strict`` a difference raises :class:`ReplayMismatchError`; otherwise the replay goes
    on from realpolitik's own result (and may drift).
    """
    facade = Game(str(data.get("id") or "") or None, map_name=str(data.get("map", "standard")),
                  rules=list(data.get("rules", [])), edition=rules)
    game = facade.realpolitik_game
    phases = list(data.get("phases", []))
    for index, phase in enumerate(phases):
        if game.is_over:
            break
        name = phase["name"]
        if name != str(game.phase):
            problem = Disagreement(phases[index - 1]["name"] if index else "start", "phase",
                                   name, str(game.phase))
            if strict:
                raise ReplayMismatchError(problem)
            break
        last = index == len(phases) - 1
        for power, texts in (phase.get("orders") or {}).items():
            if texts is None:
                continue
            if last and not texts:
                continue
            facade.set_orders(power, [t for t in texts if not t.startswith("VOID")])
        if last:
            break
        facade.send_orders()
        game.process()
        after = phases[index + 1]
        if after["name"][-1:] != "R" and not game.is_over \
                and _nowhere_to_retreat(game.position, game.rules):
            game.process()  # the package skips a retreat phase with nowhere to retreat
        if strict:
            for problem in _differences(name, game.position,
                                        after["state"], phase, after["name"]):
                raise ReplayMismatchError(problem)
    return game


def game_to_diplomacy_json(game: _Game | Game, *, game_id: str | None = None,
                           rules: Sequence[str] | None = None) -> JSON:
    """A realpolitik game as the package's saved game (``to_saved_game_format``).

    Each played phase gives its state, the orders carried out or tried (as the package writes
    them; WAIVE left out, as it does), and the results in its words (``bounce``, ``void``...).
    The current phase follows with the orders given so far; a finished game's last phase is
    called ``COMPLETED``, as in the package.
    """
    facade = game if isinstance(game, Game) else None
    the_game = game.realpolitik_game if isinstance(game, Game) else game
    identifier = game_id or (facade.game_id if facade else "realpolitik")
    map_name = "standard" if the_game.variant.id == "classical" else the_game.variant.id
    if rules is None:
        rules = facade.rules if facade else ("NO_PRESS", "POWER_CHOICE")
    rule_list = list(rules)
    influence: dict[str, str] = {}
    phases: list[JSON] = []
    tables = tables_for(the_game.variant)
    for record in the_game.history:
        if _nowhere_to_retreat(record.position, the_game.rules):
            continue  # the package has no such phase: it disbands those units at once
        update_influence(influence, record.position)
        phases.append({
            "name": str(record.position.phase),
            "state": diplomacy_state(the_game, record.position, influence),
            "orders": record_orders(the_game, record),
            "results": order_statuses(record.position, record.resolution),
            "messages": [],
        })
    position = the_game.position
    update_influence(influence, position)
    state = diplomacy_state(the_game, position, influence)
    current: JSON = {"name": str(position.phase), "state": state, "orders": {},
                     "results": {}, "messages": []}
    if the_game.is_over:
        current["name"] = state["name"] = "COMPLETED"
    for power in the_game.powers:
        entries = the_game.orders_of(power)
        current["orders"][power.upper()] = (
            [order_text(e.order, tables, position) for e in entries
             if e.order is not None and e.ok and not isinstance(e.order, Waive)]
            if the_game.has_submitted(power) else None)
    phases.append(current)
    for phase in phases:
        phase["state"]["game_id"] = identifier
        phase["state"]["map"] = map_name
        phase["state"]["rules"] = rule_list
    return {"id": identifier, "map": map_name, "rules": rule_list, "phases": phases}
