"""Reports as a gamesmaster reads them out: orders read, results, positions. Each report is built
once as JSON-ready data and then written either as JSON or as text."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from realpolitik.adjudication.outcomes import OrderResult, Resolution
from realpolitik.errors import OrderTextError
from realpolitik.game import REPLACED, Game, SubmittedOrder
from realpolitik.legality import retreat_options
from realpolitik.notation import parse_orders
from realpolitik.orders import Order, Retreat
from realpolitik.position import Phase, PhaseType, Position
from realpolitik.savefile import (
    centers_to_json,
    resolution_to_json,
    result_to_json,
    units_to_json,
)
from realpolitik.variant import Variant, normalize_name
from realpolitik.variant_rules import NEUTRAL
from realpolitik.winter import adjustments_to_json
from realpolitik.writing import UNIT_TEXT, names_table, write_order

from ._common import JSON, Style, power_name

ERROR_OUTCOMES = {"invalid": "unreadable", "unknown": "unknown", "ambiguous": "ambiguous",
                  "illegal": "illegal"}
"""The ``outcome`` of a void order by why it was void (parse errors never reach the
adjudicator)."""


@dataclass(frozen=True, slots=True)
class Given:
    """One order as given: its power, the text, what it was read as (or why not)."""

    power: str
    text: str
    order: Order | None
    error: str | None = None
    kind: str | None = None

    @classmethod
    def from_submitted(cls, power: str, entry: SubmittedOrder) -> Given:
        return cls(power, entry.text, entry.order, entry.error, entry.error_kind)


def first_line(text: str | None) -> str:
    return (text or "").splitlines()[0] if text else ""


# -- names -------------------------------------------------------------------------------------

def with_names(variant: Variant, data: JSON) -> JSON:
    """``data`` with its ``names`` table (:func:`names_table`) when the variant writes places
    by name; unchanged otherwise."""
    table = names_table(variant, data)
    if table:
        data["names"] = table
    return data


def named(data: Mapping[str, Any], text: str) -> str:
    """A place or unit of a report as people read it, through the report's ``names`` table
    (``"F E8"`` -> ``"F London"``); as it is without one."""
    table = data.get("names")
    if not table:
        return text
    if text in table:
        return str(table[text])
    unit = UNIT_TEXT.fullmatch(text)
    if unit is not None and unit.group(2) in table:
        return text[:unit.start(2)] + str(table[unit.group(2)])
    return text


# -- order results --------------------------------------------------------------------------------

def _take(pool: list[OrderResult | None], test: Any) -> OrderResult | None:
    for index, result in enumerate(pool):
        if result is not None and test(result):
            pool[index] = None
            return result
    return None


def order_results(given: Sequence[Given], resolution: Resolution,
                  variant: Variant | None = None) -> list[JSON]:
    """The case format's ``order_results``: one entry per order given, in the order given, with
    its ``input`` text; orders that could not be read are void. Results the adjudicator reports
    for units that were given no order come last, with ``input`` null. With a ``variant`` that
    writes places by name, each order has its ``name`` too (``F London - English Channel``)."""
    pool: list[OrderResult | None] = list(resolution.results)
    out: list[JSON] = []
    named_too = variant is not None and variant.writes_names

    def result_json(result: OrderResult) -> JSON:
        data = result_to_json(result)
        if named_too:
            assert variant is not None
            data["name"] = write_order(result.order, variant)
        return data

    for entry in given:
        base: JSON = {"power": entry.power.upper(), "input": entry.text}
        if entry.order is None:
            out.append({**base, "order": None, "result": "void",
                        "outcome": ERROR_OUTCOMES.get(entry.kind or "invalid", "unreadable"),
                        "reason": first_line(entry.error)})
            continue
        order = entry.order
        # An order a later one for the same unit replaced was never carried out: taking a
        # result for it would give the later order's result to this line.
        replaced = entry.kind == REPLACED
        found = None if replaced else _take(pool, lambda r, o=order: r.order == o) or _take(
            pool, lambda r, o=order, p=entry.power: r.power == p and r.order.province == o.province
            and type(r.order) is type(o))
        if found is None:
            reason = first_line(entry.error) or "the adjudicator gave no result for this order"
            outcome = REPLACED if replaced else "illegal" if entry.error else "void"
            void: JSON = {**base, "order": str(order), "result": "void",
                          "outcome": outcome, "reason": reason}
            if named_too:
                assert variant is not None
                void["name"] = write_order(order, variant)
            out.append(void)
            continue
        out.append({**base, **result_json(found)})
    for result in pool:
        if result is not None:
            out.append({"power": result.power.upper(), "input": None, **result_json(result)})
    return out


def resolution_json(resolution: Resolution, before: Position, after: Position | None,
                    given: Sequence[Given], *, centers_known: bool = True) -> JSON:
    """A phase's result in the case format (``order_results``, ``units_after``...)."""
    base = resolution_to_json(resolution)
    data: JSON = {"phase": str(before.phase),
                  "order_results": order_results(given, resolution, before.variant),
                  "units_after": base["units_after"]}
    if before.phase.type is PhaseType.MOVEMENT:
        data["dislodged_after"] = base.get("dislodged_after", {})
        data["standoffs_after"] = base.get("standoffs_after", [])
    if after is not None and centers_known:
        data["centers_after"] = centers_to_json(after.centers)
    if before.phase.type is PhaseType.ADJUSTMENTS:
        data["civil_disorder"] = base.get("civil_disorder", {})
    if after is not None:
        data["next_phase"] = str(after.phase)
    return data


# -- a played phase ----------------------------------------------------------------------------

def adjustments_json(game_or_position: Game | Position) -> JSON:
    """Power -> its builds (and where) or removals, for an adjustment phase: the engine's one
    count (:func:`realpolitik.winter.adjustments`), with the sentence every view writes."""
    position = game_or_position.position if isinstance(game_or_position, Game) \
        else game_or_position
    return adjustments_to_json(position)


def center_changes(before: Position, after: Position) -> list[JSON]:
    changes = []
    for center in sorted(set(before.centers) | set(after.centers)):
        old, new = before.centers.get(center), after.centers.get(center)
        if old != new:
            changes.append({"center": center.upper(), "from": old.upper() if old else None,
                            "to": new.upper() if new else None})
    return changes


def phase_report(game: Game, index: int) -> JSON:
    """Everything one played phase decided, JSON-ready (``process`` and ``history``)."""
    record = game.history[index]
    after = game.history[index + 1].position if index + 1 < len(game.history) \
        else game.position
    given = [Given.from_submitted(power, entry) for power in game.powers
             for entry in record.orders.get(power, ())]
    data = resolution_json(record.resolution, record.position, after, given)
    data["phase_name"] = game.variant.calendar.phase_name(record.position.phase)
    _mark_obliged_retreats(data, after, game)
    if record.position.phase.type is PhaseType.RETREATS:
        retreated = {r.order.province for r in record.resolution.results
                     if r.succeeded and isinstance(r.order, Retreat)}
        disbanded = [d.unit for d in record.position.dislodged
                     if d.unit.province not in retreated]
        data["disbanded"] = units_to_json(disbanded)
    data["center_changes"] = center_changes(record.position, after)
    centres_moved = after.phase.type is not PhaseType.RETREATS \
        and game.variant.calendar.centers_counted(record.position.phase, after.phase)
    if centres_moved or record.position.phase.type is PhaseType.ADJUSTMENTS:
        data["center_counts"] = {p.upper(): len(after.centers_of(p)) for p in game.powers}
    if after.phase.type is PhaseType.ADJUSTMENTS:
        data["adjustments"] = adjustments_json(after)
    data["powers_in_civil_disorder"] = [p.upper() for p in record.civil_disorder]
    data["notes"] = list(record.notes)
    if index == len(game.history) - 1 and game.end is not None:
        data["end"] = end_json(game)
    return with_names(game.variant, data)


def _mark_obliged_retreats(data: JSON, after: Position, game: Game) -> None:
    """Mark in ``dislodged_after`` each unit that may not disband (``"may_disband": false``:
    with a retreat open, under a variant's rule that armies must retreat when able)."""
    if after.phase.type is not PhaseType.RETREATS or not data.get("dislodged_after"):
        return
    hooks = after.variant.hooks
    for dislodged in after.dislodged:
        unit = dislodged.unit
        info = data["dislodged_after"].get(unit.power.upper(), {}).get(
            f"{unit.type.value} {unit.location.upper()}")
        if isinstance(info, dict):
            options = retreat_options(after, dislodged, rules=game.rules)
            info["may_disband"] = hooks.may_disband(after, dislodged, options)


def end_json(game: Game) -> JSON | None:
    if game.end is None:
        return None
    return {"kind": game.end.kind.value, "winners": [p.upper() for p in game.end.winners],
            "phase": game.end.phase, "summary": game.end.summary}


def _named(game: Game, power: str) -> str:
    """A power's name as players read it, from its id in any case (``USA`` -> ``United
    States``)."""
    return power_name(game, power.lower())


def _owners(game: Game, power: str, *, start: bool = False) -> str:
    """A power's name in the possessive (``England's``, ``the United States'``), capitalised
    at the ``start`` of a sentence."""
    text = game.variant.power_possessive(power.lower())
    return text[0].upper() + text[1:] if start else text


def _names(items: Iterable[str]) -> str:
    return ", ".join(items)


_UNREAD = {PhaseType.MOVEMENT: "the unit holds",
           PhaseType.RETREATS: "it is as if the unit had no order",
           PhaseType.ADJUSTMENTS: "nothing is built or removed by it"}
"""What comes of an order that could not be read, by the phase."""


def format_results(game: Game, data: Mapping[str, Any], style: Style) -> list[str]:
    """The text of a phase report, as read out to the players."""
    lines = [style.bold(f"{data['phase_name']} ({data['phase']}): results")]
    unread = _UNREAD[Phase.parse(data["phase"]).type]
    by_power: dict[str, list[Mapping[str, Any]]] = {}
    for entry in data["order_results"]:
        by_power.setdefault(entry["power"], []).append(entry)
    for power in game.powers:
        entries = by_power.get(power.upper())
        if not entries:
            continue
        lines.append(f"  {power_name(game, power)}")
        for entry in entries:
            shown = str(entry.get("name") or entry["order"] or entry["input"])
            result = entry["result"]
            mark = {"succeeds": style.good("succeeds"), "fails": style.bad("fails   "),
                    "void": style.warn("void    ")}.get(result, result)
            reason = str(entry["reason"])
            if entry["order"] is None:
                reason = f"'{entry['input']}' could not be read: {reason}; {unread}"
            elif not reason.startswith(shown):
                reason = f"{shown}: {reason}"
            if entry["input"] is None:
                reason += " (no order was given)"
            lines.append(f"    {mark}  {reason}")
    dislodged = data.get("dislodged_after") or {}
    if dislodged:
        lines.append("  Dislodged:")
        for power, units in dislodged.items():
            for unit, info in units.items():
                retreats = [named(data, r) for r in info.get("retreats") or []]
                whence = f" (attacked from {named(data, info['attacker'])})" \
                    if info.get("attacker") else ""
                whose = f"{_owners(game, power, start=True)} {named(data, unit)}{whence}"
                if retreats and info.get("may_disband", True):
                    lines.append(f"    {whose} may retreat to {_names(retreats)}, or disband")
                elif retreats:
                    lines.append(f"    {whose} must retreat to {_names(retreats)} (it may not "
                                 "disband while it can retreat)")
                else:
                    lines.append(f"    {whose} has no retreat and will be disbanded")
    if data.get("standoffs_after"):
        lines.append(f"  Stand-offs (left empty, no retreat there): "
                     f"{_names(named(data, s) for s in data['standoffs_after'])}")
    for power, units in (data.get("disbanded") or {}).items():
        lines.append(f"  Disbanded: {_owners(game, power)} "
                     f"{_names(named(data, u) for u in units)}")
    removed = data.get("civil_disorder") or {}
    for power, units in removed.items():
        lines.append(f"  Civil disorder: {_named(game, power)} gave too few removals; removed "
                     f"{_names(named(data, u) for u in units)}")
    if data.get("powers_in_civil_disorder"):
        lines.append("  Gave no orders (civil disorder: units hold, retreats disband): "
                     + _names(_named(game, p) for p in data["powers_in_civil_disorder"]))
    grouped: dict[tuple[str, str], list[str]] = {}
    for change in data.get("center_changes", []):
        key = (change["to"] or "", change["from"] or "")
        grouped.setdefault(key, []).append(named(data, change["center"]))
    order = {p.upper(): i for i, p in enumerate(game.powers)}
    changes = [f"{_named(game, to) if to else 'nobody'} takes {_names(centres)}"
               + (f" from {_named(game, was)}" if was else "")
               for (to, was), centres in sorted(grouped.items(),
                                                key=lambda kv: (order.get(kv[0][0], 99), kv[0]))]
    if changes:
        lines.append(f"  Centres changing hands: {'; '.join(changes)}")
    if "center_counts" in data:
        tally = ", ".join(f"{_named(game, p)} {n}" for p, n in data["center_counts"].items() if n)
        lines.append(f"  Supply centres: {tally}")
    adjustments = data.get("adjustments")
    if adjustments:
        lines.append("  Adjustments due:")
        lines.extend(f"    {text}" for text in format_adjustments(adjustments, game))
    for note in data.get("notes", []):
        lines.append(f"  Note: {note}")
    if data.get("end"):
        lines.append(style.bold(f"  Game over: {data['end']['summary']}"))
    elif "next_phase" in data:
        following = game.variant.calendar.parse_phase(data["next_phase"])
        lines.append(f"  Next: {game.variant.calendar.phase_name(following)} "
                     f"({data['next_phase']})")
    return lines


def format_adjustments(adjustments: Mapping[str, Any], game: Game | None = None) -> list[str]:
    """One line per power of an ``adjustments`` report: the sentence of the engine's count
    (the builds it may make and where, or the removals it owes, and why when the count is not
    its centres minus its units)."""
    return [str(info["summary"]) for info in adjustments.values()]


# -- orders as read ----------------------------------------------------------------------------

def _error_json(error: OrderTextError) -> JSON:
    data = error.to_dict()
    data["status"] = error.kind
    return data


def read_orders(game: Game, text: str, power: str | None) -> list[JSON]:
    """Give a block of orders to the game and say, per line, what was understood, what could not
    be read and why. The orders are kept as the powers' pending orders."""
    sheet = parse_orders(text, game.position, power=power)
    if power is not None:
        kept: dict[str, tuple[SubmittedOrder, ...]] = {power: game.submit(power, text)}
    else:
        kept = game.submit_sheet(text)
    queues = {p: list(entries) for p, entries in kept.items()}
    out: list[JSON] = []
    for entry in sheet.entries:
        owner = power or entry.power or (entry.order.power if entry.order else None) or ""
        queue = queues.get(owner, [])
        submitted = queue.pop(0) if queue else None
        item: JSON = {"line": entry.line, "power": owner.upper() or None, "text": entry.text,
                      "order": None, "kept": bool(owner) and submitted is not None}
        if entry.error is not None:
            item.update(_error_json(entry.error))
            item["source_line"] = entry.error.text
            item["text"] = entry.text
            note = _not_a_power(game, entry.error.text)
            if note:
                item["note"] = note
        elif submitted is not None and submitted.error_kind == REPLACED:
            item.update({"order": str(submitted.order), "status": REPLACED,
                         "message": submitted.error or REPLACED, "hint": ""})
        elif submitted is not None and submitted.error_kind == "illegal":
            item.update({"order": str(submitted.order), "status": "illegal",
                         "message": submitted.error or "illegal", "hint": ""})
        else:
            order = submitted.order if submitted is not None else entry.order
            item.update({"order": str(order), "status": "ok"})
        read = submitted.order if submitted is not None else entry.order
        if game.variant.writes_names and read is not None and item["order"] is not None:
            item["name"] = write_order(read, game.variant)
        out.append(item)
    return out


_HEADER = re.compile(r"^\s*([A-Za-z][A-Za-z .'-]*?)\s*:")


def _not_a_power(game: Game, line: str) -> str:
    """A hint for a line headed by a name that is not a power (``Englnd: A Lvp-Yor``)."""
    match = _HEADER.match(line)
    if match is None or normalize_name(match.group(1)) in game.variant.power_names:
        return ""
    names = [power_name(game, p) for p in game.powers]
    close = difflib.get_close_matches(match.group(1).title(), names, n=1)
    guess = f"; did you mean {close[0]}?" if close else ""
    return (f"'{match.group(1)}:' heads the line like a power's name, but it is not a power"
            f"{guess} The powers are {', '.join(names)}")


def missing_orders(game: Game, powers: Iterable[str]) -> list[str]:
    """What the named powers still leave open or overdo (:meth:`Game.warnings`): units with no
    order, builds not used, too many or too few removals, orders replaced by later ones."""
    return [note for power in powers for note in game.warnings(power)]


def awaited(game: Game) -> list[str]:
    """Powers that must still give orders this phase."""
    if game.end is not None:
        return []
    return [p for p in game.powers_to_order()
            if not game.has_submitted(p) and p not in game.setup.inactive]


def _if_left(game: Game) -> str:
    """What comes of an illegal order left as it is, in this phase."""
    kind = game.position.phase.type
    if kind is PhaseType.MOVEMENT:
        return "the unit will hold"
    if kind is PhaseType.RETREATS:
        return "the unit will be disbanded"
    return "it will not be carried out"


def format_read(game: Game, lines: Sequence[Mapping[str, Any]], style: Style) -> list[str]:
    """The text of what ``orders`` understood, line by line."""
    out = []
    width = max((len(str(item["text"])) for item in lines), default=10)
    name_width = name_column(game)
    indent = " " * (9 + name_width)  # under the text, past the line number and the power
    for item in lines:
        where = f"line {item['line']}"
        who = f"{_named(game, item['power']) if item['power'] else '?':<{name_width}}"
        status = item["status"]
        if status == "ok":
            out.append(f"  {where:<8} {who} {item['text']:<{width}}  -> "
                       f"{item.get('name') or item['order']}")
            continue
        if status == REPLACED:
            out.append(f"  {where:<8} {who} {item['text']:<{width}}  "
                       + style.warn(f"not followed: {item['message']}"))
            continue
        if status == "illegal":
            out.append(f"  {where:<8} {who} {item['text']:<{width}}  "
                       + style.bad(f"illegal: {item['message']}"))
            out.append(f"  {indent} read as {item.get('name') or item['order']}; {_if_left(game)} "
                       "unless you send "
                       "this power's orders again with a legal order")
            continue
        message = item["message"]
        label = {"ambiguous": "ambiguous", "unknown": "not understood",
                 "invalid": "not understood"}.get(status, status)
        text = f"{label}: {message}"
        if item.get("hint"):
            text += f"; {item['hint']}"
        out.append(f"  {where:<8} {who} {item['text']:<{width}}  " + style.bad(text))
        candidates = item.get("candidates") or []
        if candidates and not all(c in message or c in item.get("hint", "") for c in candidates):
            out.append(f"  {indent} every reading: {' | '.join(candidates)}")
        suggestions = item.get("suggestions") or []
        if suggestions and not all(s in message or s in item.get("hint", "")
                                   for s in suggestions):
            out.append(f"  {indent} did you mean: {', '.join(suggestions)}")
        line_text, span = item.get("source_line") or "", item.get("span")
        if line_text and span:
            start, end = span
            out.append(f"  {indent} {line_text}")
            out.append(f"  {indent} {' ' * start}{'^' * max(1, end - start)}")
        if item.get("note"):
            out.append(f"  {indent} {item['note']}")
        if not item["kept"]:
            out.append(f"  {indent} (not kept: put it under a power's name, e.g. "
                       "'England: A Lon-Nth')")
    return out


def position_report(game: Game, position: Position) -> JSON:
    """A position for ``show``: the case-format notation plus tallies."""
    from realpolitik.savefile import position_to_json

    data: JSON = position_to_json(position)
    data["phase_name"] = position.variant.calendar.phase_name(position.phase)
    data["center_counts"] = {p.upper(): len(position.centers_of(p)) for p in game.powers}
    inactive = position.variant.hooks.inactive_units(position)
    if inactive:
        data["inactive_units"] = units_to_json(
            [position.units[p] for p in sorted(inactive) if p in position.units])
    if position.dislodged:
        from realpolitik.legality import retreat_options

        data["retreats"] = {}
        for d in position.dislodged:
            options = retreat_options(position, d, rules=game.rules)
            data["retreats"].setdefault(d.unit.power.upper(), {})[str(d.unit)] = [
                o.upper() for o in options]
    if position.phase.type is PhaseType.ADJUSTMENTS:
        data["adjustments"] = adjustments_json(position)
    return with_names(position.variant, data)


INACTIVE_MARK = "*"
"""Written after an inactive unit in ``show`` (a line below says what it means)."""


def format_sea_superiority(game: Game, table: Mapping[str, Any]) -> str:
    """The sea-superiority line of ``show``: who holds it, then each power's fleets and tier,
    the most fleets first."""
    holder = table.get("holder")
    fleets: Mapping[str, int] = table.get("fleets") or {}
    tiers: Mapping[str, str] = table.get("tiers") or {}
    rank = {p: i for i, p in enumerate(game.variant.power_ids)}
    order = sorted(fleets, key=lambda p: (-fleets[p], rank.get(p, len(rank)), p))
    counts = ", ".join(f"{power_name(game, p)} {fleets[p]} ({tiers.get(p, '?')})" for p in order)
    who = f"{power_name(game, holder)} holds it" if isinstance(holder, str) else "nobody holds it"
    return f"  Sea superiority: {who}; fleets (tier): {counts}"


def name_column(game: Game) -> int:
    """The width of a column of power names: the longest name of the variant (at least 8, the
    classical map's column)."""
    return max(8, *(len(power_name(game, p)) for p in game.variant.power_ids))


def format_position(game: Game, data: Mapping[str, Any], style: Style) -> list[str]:
    """The text of a position for ``show``: each power's centres and units, then dislodged
    units, stand-offs and adjustments due."""
    lines = [style.bold(f"{data['phase_name']} ({data['phase']})")]
    units = data.get("units", {})
    centers = data.get("centers", {})
    width = name_column(game)
    inactive = {u for listed in data.get("inactive_units", {}).values() for u in listed}
    # a protectorate's units (a variant's) are marked with its name
    country_of = {where: country for country, info in (data.get("protectorates") or {}).items()
                  for where in info.get("units", ())}

    def marked(unit: str) -> str:
        country = country_of.get(unit.split()[-1].split("/")[0])
        shown = named(data, unit)
        text = f"{shown} ({country})" if country else shown
        return text + INACTIVE_MARK if unit in inactive else text

    by_name = bool(data.get("names"))  # places written by name are listed alphabetically

    def in_order(items: Sequence[str]) -> list[str]:
        return sorted(items, key=lambda u: named(data, u).split(" ", 1)[-1]) if by_name \
            else list(items)

    def listed(power_units: Sequence[str]) -> str:
        return _names(marked(u) for u in in_order(power_units)) or "-"

    for power in game.powers:
        key = power.upper()
        if not units.get(key) and not centers.get(key):
            continue
        owned = centers.get(key, [])
        lines.append(f"  {power_name(game, power):<{width}} {len(owned):>2} centres  units: "
                     f"{listed(units.get(key, []))}")
        lines.append(f"  {'':<{width}}             centres: "
                     f"{_names(named(data, c) for c in in_order(owned)) or '-'}")
    neutral = units.get(NEUTRAL.upper())
    if neutral:  # the units of no power (a variant's defended neutrals)
        lines.append(f"  {power_name(game, NEUTRAL):<{width}}             units: "
                     f"{listed(neutral)}")
    if inactive:
        lines.append(f"  {INACTIVE_MARK} inactive: the unit holds until it is mobilised or "
                     "attacked")
    superiority = data.get("sea_superiority")
    if isinstance(superiority, Mapping):
        lines.append(format_sea_superiority(game, superiority))
    for power, entries in data.get("dislodged", {}).items():
        for unit, attacker in entries.items():
            options = [named(data, o)
                       for o in data.get("retreats", {}).get(power, {}).get(unit, [])]
            lines.append(f"  Dislodged: {_owners(game, power)} {named(data, unit)} (attacked "
                         f"from {named(data, attacker)}); "
                         f"may retreat to {_names(options) or 'nowhere (it will disband)'}")
    if data.get("standoffs"):
        lines.append(f"  Stand-offs: {_names(named(data, s) for s in data['standoffs'])}")
    if data.get("adjustments"):
        lines.append("  Adjustments due:")
        lines.extend(f"    {text}"
                     for text in format_adjustments(data["adjustments"], game))
    return lines
