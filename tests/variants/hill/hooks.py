"""King of the Hill: the rule this variant adds to the rulebooks' game, as two hooks."""

from __future__ import annotations

from collections.abc import Sequence

from realpolitik.adjudication.outcomes import Resolution
from realpolitik.hooks import VariantHooks, VariantState, Victory
from realpolitik.position import Position, Season

HILL = "hil"
FALLS_TO_WIN = 2


class KingOfTheHill(VariantHooks):
    """Whoever holds the Hill at the end of two Fall turns in a row wins."""

    def next_state(self, before: Position, resolution: Resolution,
                   after: Position) -> VariantState:
        if before.phase.season is not Season.FALL or after.phase.season is Season.FALL:
            return before.state  # counted once, when the Fall turn is over
        unit = after.units.get(HILL)
        holder = unit.power if unit is not None else None
        falls = before.state.get("falls", 0)
        kept = holder is not None and holder == before.state.get("holder")
        count = falls + 1 if kept and isinstance(falls, int) else 1
        return {"holder": holder, "falls": count if holder is not None else 0}

    def victory(self, position: Position, teams: Sequence[Sequence[str]], target: int, *,
                count_units: bool = False, per_power: bool = False) -> Victory | None:
        holder = position.state.get("holder")
        if position.state.get("falls") == FALLS_TO_WIN:
            for index, team in enumerate(teams):
                if holder in team:
                    return Victory(index, f"{str(holder).title()} held the Hill for two years")
        return super().victory(position, teams, target, count_units=count_units,
                               per_power=per_power)
