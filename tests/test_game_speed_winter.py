"""The winter's adjustment counts worked out from the units the movement listing counted
(``adjustments.units_listed``, asked by ``phases._following`` of a Fall that lost no unit)
against the counts worked out from the board, and the listing's unit counts
(``listing.listed_unit_counts``) against the units counted by power."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from random_play import movement_positions, playing

from realpolitik.adjudication.adjustments import units_listed
from realpolitik.game import Game
from realpolitik.legality import _count_adjustments, due_adjustments
from realpolitik.listing import legal_orders, listed_unit_counts, movement_parts
from realpolitik.position import Phase, PhaseType, Position, Season
from realpolitik.variant import load_variant

_COUNTS = "adjustment counts"


def _fresh(position: Position) -> Position:
    """The same position with empty caches (nothing listed or counted)."""
    return position.replace()


def _units_by_power(position: Position) -> dict[str, int]:
    powers = set(position.variant.power_ids)
    return dict(Counter(u.power for u in position.units.values() if u.power in powers))


def _winter_of(position: Position) -> Position:
    """The adjustment phase after the movement position ``position``, had it lost no unit and
    kept its centres (its units as they stand)."""
    return position.replace(phase=Phase(Season.WINTER, position.phase.year,
                                        PhaseType.ADJUSTMENTS))


def test_winter_counts_in_games_are_the_counts_of_the_board() -> None:
    """In seeded random games, every winter reached has the adjustment counts its board
    gives, and most winters got them from the Fall's listing (kept before anything asked)."""
    winters = from_listing = 0
    for seed in range(3):
        for game in playing(seed, years=12):
            position = game.position
            if position.phase.type is not PhaseType.ADJUSTMENTS:
                continue
            winters += 1
            from_listing += _COUNTS in position.caches.names()
            assert dict(due_adjustments(position)) \
                == dict(_count_adjustments(_fresh(position))), position.phase
    assert winters > 20
    assert from_listing > winters // 2


def _listed(position: Position) -> Position:
    """The position with empty caches, then its legal orders listed (every power's at once)."""
    fresh = _fresh(position)
    legal_orders(fresh, position.variant.power_ids[0])
    return fresh


def test_listed_unit_counts_are_the_units_by_power() -> None:
    """A listed movement position's unit counts, as the listing counted them, whole or in
    parts, are its units counted by power; none before it is listed."""
    for position in movement_positions("classical", 4, 1908):
        assert listed_unit_counts(_listed(position)) == _units_by_power(position), \
            position.phase
        fresh = _fresh(position)
        assert listed_unit_counts(fresh) is None
        movement_parts(fresh)  # (in parts only)
        assert listed_unit_counts(fresh) == _units_by_power(position), position.phase


def test_units_listed_keeps_the_counts_of_the_board() -> None:
    """The winter's counts kept from the listing of the movement position before equal the
    board's; nothing is kept when that position was not listed."""
    for position in movement_positions("classical", 5, 1910):
        listed = _listed(position)
        winter = _winter_of(listed)
        units_listed(listed, winter)
        assert _COUNTS in winter.caches.names()
        assert dict(due_adjustments(winter)) == dict(_count_adjustments(_fresh(winter)))
        unlisted = _fresh(position)
        winter = _winter_of(unlisted)
        units_listed(unlisted, winter)
        assert _COUNTS not in winter.caches.names()


def test_a_neutral_unit_leaves_the_counts_to_the_board() -> None:
    """A unit of no power is not listed: the listing's counts do not add up to the board and
    the winter's counts are worked out from the board, as before."""
    variant = load_variant(Path(__file__).parent / "variants" / "neutrals")
    game = Game(variant)
    position = game.position
    assert any(u.power not in variant.power_ids for u in position.units.values())
    for power in game.powers_to_order():
        game.legal_orders(power)
    winter = _winter_of(position)
    units_listed(position, winter)
    assert _COUNTS not in winter.caches.names()
    assert dict(due_adjustments(winter)) == dict(_count_adjustments(_fresh(winter)))
