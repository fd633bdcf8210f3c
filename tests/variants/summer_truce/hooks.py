"""Summer Truce: no Summer turn in the first year of the game (one hook)."""

from __future__ import annotations

from realpolitik.hooks import VariantHooks
from realpolitik.position import Phase, Position

SUMMER = "U"


class SummerTruce(VariantHooks):
    """Summer Campaigns, with the first year's Summer turn skipped."""

    def phase_skipped(self, position: Position) -> bool:
        first_year = Phase.parse(position.variant.start_phase).year
        return position.phase.season == SUMMER and position.phase.year == first_year
