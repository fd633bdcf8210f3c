"""Every order of the rulebooks' sample games (seeds 000 and 001) reads as the book means.

The orders are in ``tests/data/sample_game_*.json`` exactly as the books print them; the few
places where the scan is illegible are listed, with the book's text, in each phase's
``corrections``. The expected readings are the canonical orders of each phase's ``expect``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from realpolitik.geography import UnitType
from realpolitik.notation import parse_orders
from realpolitik.position import DislodgedUnit, Position, Unit
from realpolitik.variant import load_variant

DATA = Path(__file__).parent / "data"
VARIANT = load_variant("classical")


def _units(spec: dict[str, list[str]]) -> list[Unit]:
    units = []
    for power, entries in spec.items():
        for entry in entries:
            kind, where = entry.split()
            units.append(Unit(power.lower(), UnitType(kind), where.lower()))
    return units


def _phases() -> list[tuple[str, dict[str, Any], Position]]:
    cases = []
    for book in ("1971", "1992"):
        game = json.loads((DATA / f"sample_game_{book}.json").read_text())
        position = Position.initial(VARIANT)
        for phase in game["phases"]:
            name = phase["phase"]
            position = position.replace(phase=type(position.phase).parse(name))
            cases.append((f"{book}-{name}", phase, position))
            after = phase["expect"].get("units_after")
            if after:
                dislodged_spec = phase["expect"].get("dislodged", {})
                dislodged = tuple(
                    DislodgedUnit(u, attacker.lower())
                    for power, entries in dislodged_spec.items()
                    for u, attacker in zip(
                        _units({power: list(entries)}), entries.values(), strict=True
                    )
                )
                position = Position.build(VARIANT, name, _units(after), dislodged=dislodged)
    return cases


CASES = _phases()


@pytest.mark.parametrize(("name", "phase", "position"), CASES, ids=[c[0] for c in CASES])
def test_book_orders_read_as_the_book_means(
    name: str, phase: dict[str, Any], position: Position
) -> None:
    expected = set(phase["expect"].get("succeeds", [])) | set(phase["expect"].get("fails", []))
    read: set[str] = set()
    for power, orders in phase["orders"].items():
        sheet = parse_orders("\n".join(orders), position, power=power.lower())
        assert not sheet.errors, [str(e) for e in sheet.errors]
        # the books' nationality words ("S Turk. A Bul-Rum") are read; the expectations omit them
        read |= {re.sub(r" (S|C) [A-Z]{4,} ", r" \1 ", str(o)) for o in sheet.orders}
    assert read == expected
