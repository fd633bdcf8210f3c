"""The game record: a whole game as one versioned JSON document, and back.

The document keeps, per phase, the position, every order as written and as read (or why it could
not be read), each result with its reason, the powers in civil disorder and the events of the
phase; then the current phase's pending orders, the draw votes and the end. Loading replays the
recorded orders from the start and checks that every phase comes out exactly as recorded.
The format is described in ``docs/game-record.md``.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from realpolitik.adjudication.outcomes import OrderResult, Resolution
from realpolitik.errors import GameError, VariantError, VariantWarning
from realpolitik.game import EndKind, Game, GameEnd, PhaseRecord, SubmittedOrder
from realpolitik.geography import UnitType
from realpolitik.hooks import NO_STATE
from realpolitik.notation import parse_order
from realpolitik.position import DislodgedUnit, Position, Unit
from realpolitik.rules import rules_for
from realpolitik.variant import VARIANTS_PATH_VARIABLE, Variant, load_variant

FORMAT = "realpolitik-game"
VERSION = 1

JSON = dict[str, Any]


def _unit_text(unit: Unit) -> str:
    return f"{unit.type.value} {unit.location.upper()}"


def _parse_unit(power: str, text: str, same: Mapping[str, str]) -> Unit:
    kind, where = text.split()
    return Unit(_same(same, power.lower()), UnitType(kind.upper()), _same(same, where.lower()))


def _same_names(variant: Variant) -> dict[str, str]:
    """Each place's and power's id -> the variant's own string object for it: names read from
    a record are then the objects the engine's tables hold, found in them by identity."""
    same = dict(variant.map.names)
    same.update((power.id, power.id) for power in variant.powers)
    return same


def _same(same: Mapping[str, str], name: str) -> str:
    return same.get(name, name)


def units_to_json(units: Mapping[str, Unit] | list[Unit]) -> dict[str, list[str]]:
    """power (upper case) -> ["A PAR", "F STP/SC"], in the case-format notation."""
    out: dict[str, list[str]] = {}
    values = units.values() if isinstance(units, Mapping) else units
    for unit in sorted(values, key=lambda u: (u.power, u.location)):
        out.setdefault(unit.power.upper(), []).append(_unit_text(unit))
    return out


def centers_to_json(centers: Mapping[str, str]) -> dict[str, list[str]]:
    """power (upper case) -> sorted owned centres (upper case)."""
    out: dict[str, list[str]] = {}
    for center, power in sorted(centers.items()):
        out.setdefault(power.upper(), []).append(center.upper())
    return out


def position_to_json(position: Position) -> JSON:
    """A position in the notation of the adjudication case format."""
    data: JSON = {
        "phase": str(position.phase),
        "units": units_to_json(position.units),
        "centers": centers_to_json(position.centers),
    }
    if position.dislodged:
        data["dislodged"] = {}
        for d in position.dislodged:
            data["dislodged"].setdefault(d.unit.power.upper(), {})[_unit_text(d.unit)] = (
                d.attacker_from.upper() if d.attacker_from else None
            )
        via: dict[str, list[str]] = {}
        for d in position.dislodged:
            if d.via_convoy:
                via.setdefault(d.unit.power.upper(), []).append(_unit_text(d.unit))
        if via:
            data["dislodged_via_convoy"] = via
    if position.standoffs:
        data["standoffs"] = sorted(s.upper() for s in position.standoffs)
    if position.state:
        data["state"] = dict(position.state)  # the variant's own, JSON already
    return data


def position_from_json(game: Game, data: Mapping[str, Any]) -> Position:
    """Read a position written by :func:`position_to_json` for ``game``'s board."""
    variant = game.position.variant
    same = _same_names(variant)
    units = [_parse_unit(p, u, same) for p, entries in data.get("units", {}).items()
             for u in entries]
    centers = {_same(same, c.lower()): _same(same, p.lower())
               for p, cs in data.get("centers", {}).items() for c in cs}
    via = {(p.lower(), u) for p, us in data.get("dislodged_via_convoy", {}).items() for u in us}
    dislodged = [
        DislodgedUnit(_parse_unit(p, u, same),
                      _same(same, attacker.lower()) if attacker else None,
                      (p.lower(), u) in via)
        for p, entries in data.get("dislodged", {}).items() for u, attacker in entries.items()
    ]
    return Position.build(variant, str(data["phase"]), units, centers,
                          dislodged=dislodged,
                          standoffs=[_same(same, s.lower()) for s in data.get("standoffs", [])],
                          state=data.get("state") or NO_STATE)


def result_to_json(result: OrderResult) -> JSON:
    """One order's result in the case format's ``order_results`` shape."""
    data: JSON = {
        "power": result.power.upper(),
        "order": str(result.order),
        "result": result.result.value,
        "outcome": result.outcome.value,
        "reason": result.reason,
    }
    if result.by:
        data["by"] = list(result.by)
    if result.strength is not None:
        data["strength"] = result.strength
    if result.opposed_by is not None:
        data["opposed_by"] = result.opposed_by
    return data


def resolution_to_json(resolution: Resolution) -> JSON:
    """What a phase decided: results, units after, dislodged units and their retreats."""
    data: JSON = {
        "results": [result_to_json(r) for r in resolution.results],
        "units_after": units_to_json(resolution.units),
    }
    if resolution.dislodged:
        data["dislodged_after"] = {}
        for d in resolution.dislodged:
            data["dislodged_after"].setdefault(d.unit.power.upper(), {})[_unit_text(d.unit)] = {
                "attacker": d.attacker_from.upper() if d.attacker_from else None,
                "retreats": [r.upper() for r in resolution.retreat_options.get(
                    d.unit.location, ())],
            }
    if resolution.standoffs:
        data["standoffs_after"] = sorted(s.upper() for s in resolution.standoffs)
    if resolution.civil_disorder:
        data["civil_disorder"] = units_to_json(list(resolution.civil_disorder))
    return data


def _submitted_to_json(entry: SubmittedOrder) -> JSON:
    data: JSON = {"text": entry.text, "order": str(entry.order) if entry.order else None}
    if entry.error is not None:
        data["error"] = entry.error
        data["error_kind"] = entry.error_kind
    return data


def _orders_to_json(orders: Mapping[str, tuple[SubmittedOrder, ...]]) -> JSON:
    return {power.upper(): [_submitted_to_json(e) for e in entries]
            for power, entries in sorted(orders.items())}


def _options_changed(game: Game) -> dict[str, str]:
    """The rule options that differ from the game's edition."""
    base = rules_for(game.rules.edition).options()
    return {k: v for k, v in game.rules.options().items() if base.get(k) != v}


def phase_to_json(record: PhaseRecord) -> JSON:
    """One played phase as the record's ``phases`` list keeps it: the position, the orders as
    written and as read, the resolution, the powers in civil disorder, notes and events."""
    return {
        "phase": str(record.position.phase),
        "position": position_to_json(record.position),
        "orders": _orders_to_json(record.orders),
        "resolution": resolution_to_json(record.resolution),
        "civil_disorder": [p.upper() for p in record.civil_disorder],
        "notes": list(record.notes),
        **({"events": list(record.events)} if record.events else {}),
    }


def game_to_json(game: Game, *, phases: bool = True) -> JSON:
    """The whole game as a JSON-ready dict (see ``docs/game-record.md``). ``phases=False``
    leaves the played phases out (``"phases": []``), for a store that keeps each played phase
    apart (:func:`phase_to_json`) and writes it once, as the game server does: the rest of
    the record stays small however long the game."""
    data: JSON = {
        "format": FORMAT,
        "version": VERSION,
        "variant": variant_reference(game.variant),
        # a variant from a folder: its id and hash find it again when the folder has moved
        **({"variant_id": game.variant.id, "variant_digest": game.variant.digest}
           if game.variant.source != game.variant.id else {}),
        "rules": game.rules.edition,
        "options": _options_changed(game),
        "players": game.setup.id,
        "seed": game.seed,
        "end_year": game.end_year,
        **({"policies": dict(sorted(game.policies.items()))} if game.policies else {}),
        "phases": [phase_to_json(record) for record in game.history] if phases else [],
        "current": {
            "position": position_to_json(game.position),
            "orders": _orders_to_json({p: game.orders_of(p) for p in game.powers
                                       if game.has_submitted(p)}),
            **({"notes": list(game.current_notes)} if game.current_notes else {}),
        },
        "draw_votes": {p.upper(): v for p, v in sorted(game.draw_votes.items())},
        "end": None if game.end is None else {
            "kind": game.end.kind.value,
            "winners": [p.upper() for p in game.end.winners],
            "phase": game.end.phase,
            "summary": game.end.summary,
        },
    }
    return data


def dumps(game: Game) -> str:
    """The game record as JSON text."""
    return json.dumps(game_to_json(game), indent=1, ensure_ascii=False) + "\n"


def _restore_entries(game: Game, power: str, entries: list[JSON],
                     kept: tuple[SubmittedOrder, ...] | None = None) -> list[SubmittedOrder]:
    """The recorded ``entries`` as submitted orders, read in the game's current position;
    ``kept``: the same phase's entries of a copy of the game loaded before, taken as they are
    when they write out as exactly these entries (the orders are not read again)."""
    if kept is not None and len(kept) == len(entries) \
            and all(_submitted_to_json(k) == e for k, e in zip(kept, entries, strict=True)):
        return list(kept)
    restored = []
    for entry in entries:
        order = None
        if entry.get("order"):
            order = parse_order(entry["order"], game.position, power=power)
        restored.append(SubmittedOrder(entry.get("text", ""), order, entry.get("error"),
                                       entry.get("error_kind")))
    return restored


def variant_reference(variant: Variant) -> str:
    """How a record names its variant: the folder it was loaded from, else its id (what
    :func:`~realpolitik.variant.load_variant` reads back)."""
    return variant.source or variant.id


def _moved_to_id(data: Mapping[str, Any]) -> str:
    """The record's variant reference, or its id when the folder it names is gone."""
    reference = str(data["variant"])
    if data.get("variant_id") is not None and not (Path(reference) / "variant.toml").is_file():
        return str(data["variant_id"])
    return reference


def _recorded_variant(data: Mapping[str, Any], search: Sequence[Path]) -> Variant:
    """The variant a record names: by its reference (an id, or the folder it was loaded
    from); a folder no longer there is found again by the recorded id and hash among the
    folders of ``search``."""
    reference = str(data["variant"])
    variant_id = data.get("variant_id")
    recorded_digest = data.get("variant_digest")
    if variant_id is not None and not (Path(reference) / "variant.toml").is_file():
        try:
            variant = load_variant(str(variant_id), search=search, digest=recorded_digest)
        except VariantError as exc:
            raise GameError(f"the record's variant {variant_id!r} is no longer at {reference} "
                            f"and was not found elsewhere ({exc}); name its folder in "
                            f"{VARIANTS_PATH_VARIABLE}") from exc
    else:
        variant = load_variant(reference, search=search, digest=recorded_digest)
    if recorded_digest and variant.digest and variant.digest != recorded_digest:
        # The replay still checks every recorded position; this says why one may not match.
        where = variant.folders[0] if variant.folders else reference
        warnings.warn(VariantWarning(
            f"the files of variant {variant.id!r} ({where}) have changed since this game was "
            "recorded; the game is replayed under the files as they are now"), stacklevel=3)
    return variant


def game_from_json(data: Mapping[str, Any], *, earlier: Game | None = None,
                   variants: Callable[[str], Variant] | None = None,
                   search: Sequence[Path] = ()) -> Game:
    """Rebuild a game from its record by replaying every phase; checks each recorded position.
    ``earlier``: a copy of the same game loaded before (a server's, whose copy fell behind the
    record): for each phase it played from the same position, the orders recorded as it
    recorded them are taken from its history instead of being read again from their text,
    which is most of the time of a load. ``variants``: gives the variant the record names
    (default: :func:`~realpolitik.variant.load_variant`, which reads its files again, with
    ``search``: the folders where a variant whose folder has moved is looked for by its id
    and hash, :func:`~realpolitik.variant.search_folders`).

    :raises GameError: the document is not a game record, or does not replay as recorded.
    """
    if data.get("format") != FORMAT:
        raise GameError(f"not a realpolitik game record (format is {data.get('format')!r})")
    if int(data.get("version", 0)) > VERSION:
        raise GameError(f"the record has format version {data['version']}; this realpolitik "
                        f"reads up to version {VERSION}")
    game = Game(
        _recorded_variant(data, search) if variants is None else variants(
            _moved_to_id(data)),
        rules=data.get("rules", "2023"),
        options=data.get("options") or None,
        players=data.get("players"),
        seed=int(data.get("seed", 0)),
        end_year=data.get("end_year"),
        policies=data.get("policies") or None,
    )
    same = _same_names(game.position.variant)
    for number, phase in enumerate(data.get("phases", []), start=1):
        recorded = position_from_json(game, phase["position"])
        if recorded != game.position:
            raise GameError(
                f"phase {number} ({phase['phase']}) does not replay: the record's position "
                f"differs from the one reached by replaying the orders before it"
            )
        known = earlier.history[number - 1] \
            if earlier is not None and number <= len(earlier.history) else None
        if known is not None and known.position != game.position:
            known = None
        for power, entries in phase.get("orders", {}).items():
            power_id = _same(same, power.lower())
            kept = known.orders.get(power_id) if known is not None else None
            game.restore_orders(power_id, _restore_entries(game, power_id, entries, kept))
        for event in phase.get("events", []):
            game.note(str(event))
        game.process()
    current = data.get("current", {})
    for note in current.get("notes", []):
        game.note(str(note))
    for power, entries in current.get("orders", {}).items():
        power_id = _same(same, power.lower())
        game.restore_orders(power_id, _restore_entries(game, power_id, entries))
    if "position" in current and position_from_json(game, current["position"]) != game.position:
        raise GameError("the record's current position differs from the replayed one")
    game.restore_draw_votes({p.lower(): bool(v) for p, v in data.get("draw_votes", {}).items()})
    end = data.get("end")
    if end is not None and game.end is None:
        game.end = GameEnd(EndKind(end["kind"]), tuple(p.lower() for p in end["winners"]),
                           end["phase"], end["summary"])
    return game


def loads(text: str, *, earlier: Game | None = None,
          variants: Callable[[str], Variant] | None = None,
          search: Sequence[Path] = ()) -> Game:
    """Read a game record from JSON text (``earlier``, ``variants``, ``search``: as
    :func:`game_from_json`)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise GameError(f"the game file is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise GameError("the game file must hold a JSON object")
    return game_from_json(data, earlier=earlier, variants=variants, search=search)


__all__ = [
    "FORMAT",
    "VERSION",
    "dumps",
    "game_from_json",
    "game_to_json",
    "loads",
    "phase_to_json",
    "position_from_json",
    "position_to_json",
    "variant_reference",
    "resolution_to_json",
    "PhaseRecord",
]
