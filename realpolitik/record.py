"""A compact, human-readable game record: "PGN for Diplomacy".

Headers in square brackets, then every phase's name followed by one line per power with its
orders in canonical text::

    [Variant "classical"]
    [Rules "2023"]
    [Players "7"]
    [Seed "0"]
    [Result "*"]

    S1901M
    ENGLAND: F EDI - NWG, A LVP - YOR, F LON - NTH
    FRANCE: A PAR - BUR, A MAR - SPA, F BRE - MAO

A power that gave no orders at all (civil disorder) has no line; ``GERMANY: -`` means it
submitted an empty set of orders. Reading a record replays it; writing it again gives the same
text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from realpolitik.errors import GameError
from realpolitik.game import Game
from realpolitik.writing import write_order

_HEADER = re.compile(r'\[(\w+)\s+"([^"]*)"\]')
_PHASE = re.compile(r"[A-Z]+\d{3,4}[MRA]")
"""A phase's name: its season's code (the variant's: ``S``, ``F``, ``W``, a summer's ``U``...),
year and type."""


def _result(game: Game) -> str:
    if game.end is None:
        return "*"
    winners = "/".join(p.upper() for p in game.end.winners)
    return f"{game.end.kind.value} {winners}"


def to_text(game: Game) -> str:
    """The game as a record: headers, then each phase's orders."""
    headers: Mapping[str, object] = {
        "Variant": game.variant.source or game.variant.id,
        "Rules": game.rules.edition,
        "Players": game.setup.id,
        "Seed": game.seed,
        **({"EndYear": game.end_year} if game.end_year is not None else {}),
        **({"Policies": " ".join(f"{k}={v}" for k, v in sorted(game.policies.items()))}
           if game.policies else {}),
        "Result": _result(game),
    }
    lines = [f'[{key} "{value}"]' for key, value in headers.items()]
    for record in game.history:
        lines.append("")
        lines.append(str(record.position.phase))
        for power in sorted(record.orders):
            orders = [write_order(e.order, game.variant) for e in record.orders[power]
                      if e.order is not None]
            lines.append(f"{power.upper()}: {', '.join(orders) if orders else '-'}")
    return "\n".join(lines) + "\n"


def from_text(text: str) -> Game:
    """Replay a record into a game.

    :raises GameError: a header or line cannot be read, or a phase is not the one the game
        reaches (the message names the line).
    """
    headers: dict[str, str] = {}
    phases: list[tuple[int, str, dict[str, str]]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        header = _HEADER.fullmatch(line)
        if header is not None:
            if phases:
                raise GameError(f"line {number}: headers come before the first phase")
            headers[header.group(1)] = header.group(2)
            continue
        if _PHASE.fullmatch(line):
            phases.append((number, line, {}))
            continue
        power, colon, written_orders = line.partition(":")
        if not colon or not phases:
            raise GameError(f"line {number}: expected a phase (S1901M) or 'POWER: orders', "
                            f"found {line!r}")
        phases[-1][2][power.strip().lower()] = written_orders.strip()
    try:
        game = Game(
            headers.get("Variant", "classical"),
            rules=headers.get("Rules", "2023"),
            players=headers.get("Players"),
            seed=int(headers.get("Seed", "0")),
            end_year=int(headers["EndYear"]) if "EndYear" in headers else None,
            policies=dict(item.split("=", 1) for item in headers.get("Policies", "").split()
                          if "=" in item) or None,
        )
    except ValueError as exc:
        raise GameError(f"the headers cannot start a game: {exc}") from exc
    for number, phase_name, orders in phases:
        if phase_name != str(game.phase):
            raise GameError(f"line {number}: the record says {phase_name} but the game is at "
                            f"{game.phase}")
        for power, written in orders.items():
            entries = game.submit(power, "" if written == "-" else written.replace(", ", "\n"))
            bad = [e for e in entries if not e.ok and e.error_kind != "illegal"]
            if bad:
                raise GameError(f"line {number}: {bad[0].error}")
        game.process()
    return game
