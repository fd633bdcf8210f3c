"""The map's convoy search on province masks against the same search by name.

:meth:`MapTables.convoy_reachable` works on masks of provinces; its answers are cached and read
by the listing and the adjudicator, so they must be the very values the plain search by name
(:func:`_reachable_by_name`, written here from the definition) gives: checked on random groups
of fleets, with and without a fleet left out, on the classical map and on Colonial Winters
(where some coastal spaces may convoy), and for every fleet group of some random games'
positions.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from realpolitik.game import Game
from realpolitik.geography import UnitType
from realpolitik.maptables import MapTables, tables_for
from realpolitik.variant import load_variant


def _reachable_by_name(tables: MapTables, origin: str, fleets: Iterable[str],
                       without: str = "") -> frozenset[str]:
    """The shores an army at ``origin`` could reach by convoy through the convoy spaces holding
    ``fleets`` (``without`` left out), searched by province name, set by set."""
    at_sea = set(fleets) - {without}
    todo = list(tables.shore_convoy_spaces.get(origin, frozenset()) & at_sea)
    seen = set(todo)
    shores: set[str] = set()
    while todo:
        here = todo.pop()
        shores |= tables.convoy_shores[here]
        for nxt in tables.convoy_adj[here]:
            if nxt in at_sea and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    shores.discard(origin)
    return frozenset(shores)


def _drawing(variant_name: str, seed: int,
             ) -> tuple[MapTables, random.Random, list[str], list[str]]:
    """The tables of ``variant_name``, a random generator seeded with ``seed``, and the map's
    convoy spaces and shores in sorted order (what the random draws are taken from)."""
    tables = tables_for(load_variant(variant_name))
    return tables, random.Random(seed), sorted(tables.convoy_spaces), sorted(tables.shores)


@pytest.mark.parametrize("variant_name", ["standard", "colonial_winters"])
@pytest.mark.parametrize("seed", range(4))
def test_mask_search_equals_search_by_name_on_random_fleets(variant_name: str, seed: int) -> None:
    tables, rng, spaces, shores = _drawing(variant_name, seed)
    others = sorted(set(tables.provinces) - tables.convoy_spaces)
    for _ in range(300):
        fleets = set(rng.sample(spaces, rng.randrange(len(spaces) + 1)))
        fleets |= set(rng.sample(others, rng.randrange(4)))  # not convoy spaces: never stepped on
        origin = rng.choice(shores if rng.random() < 0.9 else list(tables.provinces))
        without = rng.choice(["", rng.choice(spaces), rng.choice(others)])
        for given in (fleets, frozenset(fleets), sorted(fleets)):
            by_name = _reachable_by_name(tables, origin, given, without)
            assert tables.convoy_reachable(origin, given, without) == by_name
            for destination in (*shores[::7], origin, "spa/nc"):
                assert tables.has_convoy_route(origin, destination, given, without) == (
                    destination != origin and destination in by_name)


@pytest.mark.parametrize("variant_name", ["standard", "colonial_winters"])
def test_mask_search_equals_search_by_name_on_game_groups(variant_name: str) -> None:
    game = Game(variant_name, rules="2000", seed=7)
    tables = tables_for(game.variant)
    rng = random.Random(7)
    checked = 0
    while not game.is_over and game.phase.year <= 1906:
        units = game.position.units
        fleets = frozenset(p for p, u in units.items() if u.type is UnitType.FLEET)
        at_sea = frozenset(f for f in fleets if f in tables.convoy_spaces)
        for group in set(tables.fleet_groups(at_sea).values()):
            for origin in tables.shores:
                if tables.shore_convoy_spaces[origin] & group:
                    for without in ("", *sorted(group)):
                        assert tables.convoy_reachable(origin, group, without) == \
                            _reachable_by_name(tables, origin, group, without)
                        checked += 1
        for power in game.powers_to_order():
            game.submit(power, [options[rng.randrange(len(options))]
                                for options in game.legal_orders(power).values()])
        game.process()
    assert checked


def _routes_by_name(tables: MapTables, origin: str, fleets: frozenset[str],
                    destination: str | None) -> list[tuple[tuple[str, ...], frozenset[str]]]:
    """:meth:`MapTables.minimal_routes` as its docstring states it, by name (no masks)."""
    if origin not in tables.shores:
        return []
    out: list[tuple[tuple[str, ...], frozenset[str]]] = []
    origin_seas = tables.shore_convoy_spaces[origin] & fleets

    def walk(chain: list[str], earlier_shores: frozenset[str]) -> None:
        last = chain[-1]
        ends = tables.convoy_shores[last] - earlier_shores - {origin}
        if destination is not None:
            ends = ends & {destination}
        if ends:
            out.append((tuple(chain), frozenset(ends)))
        covered = earlier_shores | tables.convoy_shores[last]
        if destination is not None and destination in covered:
            return
        for nxt in tables.convoy_adj[last]:
            if nxt in fleets and nxt not in chain and nxt not in origin_seas and not any(
                    c in tables.convoy_adj[nxt] for c in chain[:-1]):
                walk([*chain, nxt], covered)

    for first in sorted(origin_seas):
        walk([first], frozenset())
    return out


@pytest.mark.parametrize("variant_name", ["standard", "colonial_winters"])
@pytest.mark.parametrize("seed", range(3))
def test_minimal_routes_equal_the_walk_by_name(variant_name: str, seed: int) -> None:
    tables, rng, spaces, shores = _drawing(variant_name, seed)
    for _ in range(150):
        fleets = frozenset(rng.sample(spaces, rng.randrange(min(len(spaces), 9) + 1)))
        origin = rng.choice(shores)
        destination = rng.choice([None, rng.choice(shores)])
        assert tables.minimal_routes(origin, fleets, destination) == \
            _routes_by_name(tables, origin, fleets, destination)
