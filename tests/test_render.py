"""The map picture: golden SVGs, the picture agreeing with the map data, and robustness.

Set ``REALPOLITIK_UPDATE_GOLDENS=1`` to rewrite the golden files in ``tests/golden/`` (then review
the diff, and look at the pictures).
"""

from __future__ import annotations

import json
import math
import os
import random
import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import pytest

from realpolitik.adjudication import adjudicate
from realpolitik.adjudication.outcomes import OrderResult, Outcome, Result
from realpolitik.geography import Terrain, UnitType, province_of
from realpolitik.listing import legal_orders
from realpolitik.notation import parse_orders
from realpolitik.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from realpolitik.phases import next_position
from realpolitik.position import DislodgedUnit, Phase, Position, Unit
from realpolitik.render import load_map_art, render, svg_to_png
from realpolitik.render.png import PngUnavailableError
from realpolitik.variant import Variant, load_variant

GOLDEN = Path(__file__).parent / "golden"
DATA = Path(__file__).parent / "data"
UPDATE = os.environ.get("REALPOLITIK_UPDATE_GOLDENS") == "1"


@pytest.fixture(scope="module")
def variant() -> Variant:
    return load_variant("classical")


def _check_golden(name: str, svg: str) -> None:
    path = GOLDEN / name
    if UPDATE or not path.exists():
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(svg, encoding="utf-8")
        if not UPDATE:
            pytest.fail(f"{name} did not exist and was written: check it and commit it")
    assert svg == path.read_text(encoding="utf-8"), (
        f"{name} changed; if that is meant, rerun with REALPOLITIK_UPDATE_GOLDENS=1 and look at it"
    )


def _sample_game(variant: Variant) -> list[tuple[Position, list[Order]]]:
    """The 1971 rulebook's sample game: each phase's position and orders."""
    game = json.loads((DATA / "sample_game_1971.json").read_text())
    position = Position.initial(variant)
    phases = []
    for phase in game["phases"]:
        assert str(position.phase) == phase["phase"]
        orders: list[Order] = []
        for power, lines in phase["orders"].items():
            sheet = parse_orders("\n".join(lines), position, power=power.lower())
            assert not sheet.errors
            orders.extend(sheet.orders)
        phases.append((position, orders))
        position = next_position(position, adjudicate(position, orders))
    return phases


# -- golden files -------------------------------------------------------------------------------


def test_golden_start(variant: Variant) -> None:
    _check_golden("start.svg", render(Position.initial(variant)))


def test_golden_sample_game_fall_1902_with_results(variant: Variant) -> None:
    phases = dict((str(p.phase), (p, o)) for p, o in _sample_game(variant))
    position, orders = phases["F1902M"]
    svg = render(position, orders=orders, results=adjudicate(position, orders))
    _check_golden("sample_F1902M.svg", svg)


def test_golden_hand_made_results(variant: Variant) -> None:
    """Results made by hand (not by the adjudicator): every kind of mark on one picture."""
    a, f = UnitType.ARMY, UnitType.FLEET
    position = Position.build(variant, "S1901M", [
        Unit("france", a, "par"), Unit("germany", a, "mun"), Unit("france", a, "mar"),
        Unit("england", f, "nth"), Unit("england", a, "yor"), Unit("italy", a, "ven"),
        Unit("austria", a, "tri"), Unit("austria", a, "tyr"), Unit("russia", f, "stp/sc"),
        Unit("germany", a, "kie"),
    ], variant.start_centers)

    def res(order: Order, power: str, result: Result, outcome: Outcome) -> OrderResult:
        return OrderResult(order, power, result, outcome, reason="")

    results = [
        res(Move(a, "par", "bur"), "france", Result.FAILS, Outcome.BOUNCED),
        res(Move(a, "mun", "bur"), "germany", Result.FAILS, Outcome.BOUNCED),
        res(SupportMove(a, "mar", "par", "bur"), "france", Result.SUCCEEDS, Outcome.SUPPORTED),
        res(Convoy(f, "nth", "yor", "nwy"), "england", Result.SUCCEEDS, Outcome.CONVOYED),
        res(Move(a, "yor", "nwy", via_convoy=True), "england", Result.SUCCEEDS, Outcome.MOVED),
        res(Hold(a, "ven"), "italy", Result.FAILS, Outcome.DISLODGED),
        res(Move(a, "tri", "ven"), "austria", Result.SUCCEEDS, Outcome.MOVED),
        res(SupportMove(a, "tyr", "tri", "ven"), "austria", Result.FAILS, Outcome.CUT),
        res(SupportHold(a, "kie", "mun"), "germany", Result.SUCCEEDS, Outcome.SUPPORTED),
        res(Move(f, "stp/sc", "bot"), "russia", Result.SUCCEEDS, Outcome.MOVED),
    ]
    _check_golden("hand_results.svg", render(position, results=results, title="Example"))


def test_golden_retreats_and_adjustments(variant: Variant) -> None:
    a, f = UnitType.ARMY, UnitType.FLEET
    retreat = Position.build(
        variant, "F1902R", [Unit("germany", a, "bur"), Unit("france", a, "gas")],
        variant.start_centers,
        dislodged=[DislodgedUnit(Unit("france", a, "par"), "bur"),
                   DislodgedUnit(Unit("italy", f, "tys"), "rom")],
    )
    retreat_results = [
        OrderResult(Retreat(a, "par", "pic"), "france", Result.SUCCEEDS, Outcome.RETREATED, ""),
        OrderResult(Disband(f, "tys"), "italy", Result.SUCCEEDS, Outcome.DISBANDED, ""),
    ]
    adjustment = Position.build(variant, "W1902A", [Unit("england", a, "bel")],
                                variant.start_centers)
    adjustment_results = [
        OrderResult(Build(f, "lon"), "england", Result.SUCCEEDS, Outcome.BUILT, ""),
        OrderResult(Build(f, "stp/nc"), "russia", Result.SUCCEEDS, Outcome.BUILT, ""),
        OrderResult(Disband(a, "bel"), "england", Result.SUCCEEDS, Outcome.REMOVED, ""),
        OrderResult(Waive("turkey"), "turkey", Result.SUCCEEDS, Outcome.WAIVED, ""),
    ]
    svg = (render(retreat, results=retreat_results) + render(adjustment,
                                                             results=adjustment_results))
    _check_golden("retreats_adjustments.svg", svg)


# -- the picture agrees with the map data -------------------------------------------------------

_PATH_TOKEN = re.compile(r"[MLZ]|-?\d+(?:\.\d+)?")


def _rings(path: str) -> list[list[tuple[float, float]]]:
    """The closed rings of a path made of absolute M, L and Z commands."""
    rings: list[list[tuple[float, float]]] = []
    numbers: list[float] = []
    current: list[tuple[float, float]] = []
    for token in _PATH_TOKEN.findall(path):
        if token in "MLZ":
            if token == "M":
                current = []
                rings.append(current)
            elif token == "Z":
                current.append(current[0])
            continue
        numbers.append(float(token))
        if len(numbers) == 2:
            current.append((numbers[0], numbers[1]))
            numbers = []
    return rings


def _distance_to_segment(p: tuple[float, float], a: tuple[float, float],
                         b: tuple[float, float]) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy)
                                               / length2))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def shared_border_lengths(paths: dict[str, str], *, epsilon: float = 0.5,
                          step: float = 1.0) -> dict[frozenset[str], float]:
    """For each pair of shapes, the length of border they share (within ``epsilon``).

    Pure Python: every border segment is put in a grid; points are sampled along each shape's
    border every ``step`` units and matched against the other shapes' segments nearby.
    """
    cell = 8.0
    grid: dict[tuple[int, int], list[tuple[str, tuple[float, float], tuple[float, float]]]]
    grid = defaultdict(list)
    segments: dict[str, list[tuple[tuple[float, float], tuple[float, float]]]] = {}
    for space, path in paths.items():
        segs = [(r[i], r[i + 1]) for r in _rings(path) for i in range(len(r) - 1)]
        segments[space] = segs
        for a, b in segs:
            x0, x1 = sorted((a[0], b[0]))
            y0, y1 = sorted((a[1], b[1]))
            for gx in range(int((x0 - epsilon) // cell), int((x1 + epsilon) // cell) + 1):
                for gy in range(int((y0 - epsilon) // cell), int((y1 + epsilon) // cell) + 1):
                    grid[(gx, gy)].append((space, a, b))
    lengths: dict[frozenset[str], float] = defaultdict(float)
    for space, segs in segments.items():
        for a, b in segs:
            length = math.dist(a, b)
            samples = max(1, math.ceil(length / step))
            for i in range(samples):
                t = (i + 0.5) / samples
                p = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
                near = {other for other, c, d in grid[(int(p[0] // cell), int(p[1] // cell))]
                        if other != space and _distance_to_segment(p, c, d) <= epsilon}
                for other in near:
                    lengths[frozenset((space, other))] += length / samples
    # each shared stretch was counted once from each side
    return {pair: total / 2 for pair, total in lengths.items()}


MIN_SHARED_BORDER = 2.0
"""Pixels of common border for two spaces to count as touching. Shapes that meet only at a point
(where three or four spaces meet) share less than this, and do not touch, as on the board."""


def test_spaces_touch_on_the_picture_iff_adjacent(variant: Variant) -> None:
    """Two spaces touch on the picture exactly when the map data make them adjacent.

    Known exceptions, all deliberate:

    * Switzerland is impassable: it has no adjacencies, yet on the picture it borders Burgundy,
      Munich, Tyrolia, Piedmont and Marseilles. Its pairs are not checked.
    * The board closes some real straits, and so does the picture (``patches`` in the seeds file
      ``scripts/mapdata/classical.toml``): the Danish straits (so Denmark touches Sweden and the
      Skagerrak does not touch the Baltic), the Bosporus, the Sea of Marmara and the Dardanelles
      (Constantinople is one land space; the Black Sea does not touch the Aegean) and the Sea of
      Azov (Sevastopol's coast). These need no exception in the test: the shapes are drawn so.
    * Spaces meeting only at a point do not count as touching (see ``MIN_SHARED_BORDER``).
    """
    art = load_map_art(variant)
    adjacent = {frozenset((province_of(a), province_of(b))) for a, b, _, _ in variant.map.borders}
    impassable = {p.id for p in variant.map.provinces.values()
                  if p.terrain is Terrain.IMPASSABLE}
    shared = shared_border_lengths(dict(art.paths))
    touching = {pair for pair, length in shared.items() if length >= MIN_SHARED_BORDER}
    checked_touching = {pair for pair in touching if not pair & impassable}
    extra = sorted(tuple(sorted(pair)) for pair in checked_touching - adjacent)
    missing = sorted(tuple(sorted(pair)) for pair in adjacent - touching)
    assert extra == [], f"touch on the picture but are not adjacent: {extra}"
    assert missing == [], f"adjacent but do not touch on the picture: {missing}"
    # Switzerland is drawn among its real neighbours.
    swiss = {next(iter(pair - {"swi"})) for pair in touching if "swi" in pair}
    assert swiss == {"bur", "mun", "tyr", "pie", "mar"}


def test_every_location_has_anchors(variant: Variant) -> None:
    art = load_map_art(variant)
    assert set(art.paths) == set(variant.map.provinces)
    for location in variant.map.locations:
        assert location in art.units, location
    for province in variant.map.provinces:
        assert province in art.labels, province
    for center in variant.map.supply_centers():
        assert center in art.centers, center
    for province in variant.map.provinces.values():
        assert art.coasts.get(province.id, ()) == province.coasts
    for x, y in [*art.units.values(), *art.labels.values(), *art.centers.values()]:
        assert 0 <= x <= art.width and 0 <= y <= art.height


def test_unit_anchors_lie_in_their_space(variant: Variant) -> None:
    """Each unit anchor is inside its own space's shape (a ray-casting test on the path)."""
    art = load_map_art(variant)

    def inside(point: tuple[float, float], path: str) -> bool:
        x, y = point
        crossings = 0
        for ring in _rings(path):
            for (x1, y1), (x2, y2) in zip(ring, ring[1:], strict=False):
                if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                    crossings += 1
        return crossings % 2 == 1

    for location, point in art.units.items():
        assert inside(point, art.paths[province_of(location)]), location


def test_land_borders_follow_the_land(variant: Variant) -> None:
    """Borders between two land spaces are real borders or winding lines, never the long
    straight cuts of a plain Voronoi division (the old picture had pieces of 280 px)."""
    art = load_map_art(variant)
    owners: dict[frozenset[tuple[float, float]], set[str]] = defaultdict(set)
    for space_id, path in art.paths.items():
        if art.terrain[space_id] == Terrain.SEA:
            continue
        for ring in _rings(path):
            for a, b in zip(ring, ring[1:], strict=False):
                owners[frozenset((a, b))].add(space_id)
    shared = [(math.dist(*edge), sorted(spaces)) for edge, spaces in owners.items()
              if len(spaces) > 1 and len(edge) == 2]
    assert len(shared) > 2000  # the borders are drawn with many short pieces
    longest = max(shared)
    assert longest[0] < 15, f"a straight piece of {longest[0]:.0f} px between {longest[1]}"


# The room marks take on the picture, as render() draws them (boxes: left, top, right, bottom).
def _label_box(at: tuple[float, float], text: str) -> tuple[float, float, float, float]:
    half = 3.3 * len(text)  # bold 9.5 px capitals are about 6.6 px wide
    return at[0] - half, at[1] - 3.6, at[0] + half, at[1] + 3.6


def _unit_box(at: tuple[float, float]) -> tuple[float, float, float, float]:
    return at[0] - 11, at[1] - 9, at[0] + 11, at[1] + 7  # a fleet's hull and sail


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_labels_are_clear_of_units_dislodged_units_and_centres(variant: Variant) -> None:
    """No unit (of any location), dislodged unit (with its ring) or centre marker is drawn over
    a space's name, e.g. BUD, SEV, TRI, BLA, NTH and BEL, which the old picture covered."""
    art = load_map_art(variant)
    labels = {s: _label_box(p, s) for s, p in art.labels.items()}
    for checked in ("bud", "sev", "tri", "bla", "nth", "bel"):
        assert checked in labels
    clashes = []
    for space_id, box in labels.items():
        for location, at in art.units.items():
            if _overlap(box, _unit_box(at)):
                clashes.append((space_id, "unit", location))
        for location, at in art.dislodged.items():
            if _overlap(box, (at[0] - 14, at[1] - 14, at[0] + 14, at[1] + 14)):
                clashes.append((space_id, "dislodged unit", location))
        for center, at in art.centers.items():
            if _overlap(box, (at[0] - 5, at[1] - 5, at[0] + 5, at[1] + 5)):
                clashes.append((space_id, "centre", center))
        for other, other_box in labels.items():
            if other < space_id and _overlap(box, other_box):
                clashes.append((space_id, "label", other))
    assert not clashes
    assert set(art.dislodged) == set(art.units)
    # a dislodged unit with its ring and the unit that took its place do not cover each other
    for location, at in art.dislodged.items():
        assert math.dist(at, art.units[location]) >= 22, location


def test_names_are_drawn_over_units_and_arrows(variant: Variant) -> None:
    """The names come after the units, orders and marks in the SVG, so nothing covers them."""
    phases = dict((str(p.phase), (p, o)) for p, o in _sample_game(variant))
    position, orders = phases["F1902M"]
    svg = render(position, orders=orders, results=adjudicate(position, orders))
    order_of = [m.group(1) for m in re.finditer(r'<g id="(\w+)"', svg)]
    for layer in ("units", "orders", "marks"):
        assert order_of.index(layer) < order_of.index("labels")


def test_power_colours_stand_apart_also_for_colour_blind_players(variant: Variant) -> None:
    """Each power's colour differs from every other one, from the sea and from the land by a
    CIEDE2000 distance of at least 15 for normal vision and simulated protanopia and
    deuteranopia; the lighter fills of owned spaces by at least 9 (the old colours: 4.5, for
    Austria and Italy seen with deuteranopia)."""
    from colour_vision import VISIONS, difference

    from realpolitik.render import svg as svg_module

    colours = {p.id: p.colour for p in variant.powers}
    backgrounds = {"sea": svg_module.SEA, "land": svg_module.LAND}
    fills = {p: svg_module._tint(c, svg_module.OWNED_TINT) for p, c in colours.items()}
    weakest: list[tuple[float, str, str, str]] = []
    for vision in VISIONS:
        for table, floor in ((colours, 15.0), (fills, 9.0)):
            names = sorted(table)
            for i, a in enumerate(names):
                for b in names[i + 1:]:
                    weakest.append((difference(table[a], table[b], vision) - floor, a, b,
                                    vision))
                for place, background in backgrounds.items():
                    weakest.append((difference(table[a], background, vision) - floor, a, place,
                                    vision))
    assert min(weakest)[0] >= 0, min(weakest)


def test_colour_difference_matches_published_values() -> None:
    """CIEDE2000 against pairs from Sharma, Wu and Dalal's test data, and the simulation
    against what it must do: greys stay grey, red and green move together for protanopes."""
    from colour_vision import ciede2000, difference, lab

    assert ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387)) == \
        pytest.approx(1.2644, abs=1e-4)
    assert ciede2000((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514)) == \
        pytest.approx(0.9082, abs=1e-4)
    for vision in ("protanopia", "deuteranopia"):
        grey = lab("#808080", vision)
        assert abs(grey[1]) < 1 and abs(grey[2]) < 1
        assert difference("#d62728", "#2ca02c", vision) < difference("#d62728", "#2ca02c") / 2


def test_art_file_is_small() -> None:
    size = (Path(load_map_art.__code__.co_filename).parent / "classical.json").stat().st_size
    assert size < 300_000


# -- the renderer -------------------------------------------------------------------------------


def test_output_is_deterministic_and_well_formed(variant: Variant) -> None:
    position = Position.initial(variant)
    first = render(position, size=800, title="Test")
    assert first == render(position, size=800, title="Test")
    root = ET.fromstring(first)
    assert root.get("width") == "800"
    assert "Test: Spring 1901 movement" in first


def test_options(variant: Variant) -> None:
    position = Position.initial(variant)
    plain = render(position, show_labels=False)
    assert ">PAR</text>" not in plain
    assert ">PAR</text>" in render(position)
    assert "#123456" in render(position, colours={"france": "#123456"})


def test_orders_may_be_given_per_power(variant: Variant) -> None:
    position = Position.initial(variant)
    move = Move(UnitType.ARMY, "par", "bur")
    assert render(position, orders={"france": [move]}) == render(position, orders=[move])


def _random_orders(position: Position, rng: random.Random) -> list[Order]:
    """Random orders of every kind, legal or not (the renderer must draw them all)."""
    the_map = position.variant.map
    locations = list(the_map.locations)
    orders: list[Order] = []
    for unit in position.units.values():
        other = rng.choice(locations)
        near = sorted(the_map.fleet_neighbours(unit.location) | the_map.army_neighbours(
            unit.province)) or [other]
        target = rng.choice(near)
        kind = rng.randrange(7)
        if kind == 0:
            orders.append(Hold(unit.type, unit.location))
        elif kind == 1:
            orders.append(Move(unit.type, unit.location, target, via_convoy=rng.random() < 0.2))
        elif kind == 2:
            orders.append(SupportHold(unit.type, unit.location, other))
        elif kind == 3:
            orders.append(SupportMove(unit.type, unit.location, other, target))
        elif kind == 4:
            orders.append(Convoy(unit.type, unit.location, other, target))
        elif kind == 5:
            orders.append(Retreat(unit.type, unit.location, target))
        else:
            orders.append(Disband(unit.type, unit.location))
    orders.append(Build(UnitType.FLEET, rng.choice(locations)))
    orders.append(Waive())
    return orders


def test_random_positions_orders_and_results_render(variant: Variant) -> None:
    rng = random.Random(1901)
    the_map = variant.map
    locations = list(the_map.locations)
    for round_ in range(60):
        units: dict[str, Unit] = {}
        for _ in range(rng.randrange(0, 30)):
            location = rng.choice(locations)
            unit_type = rng.choice((UnitType.ARMY, UnitType.FLEET))
            if the_map.can_hold(unit_type, location) and province_of(location) not in units:
                units[province_of(location)] = Unit(rng.choice(variant.power_ids), unit_type,
                                                    location)
        centers = {c: rng.choice(variant.power_ids) for c in the_map.supply_centers()
                   if rng.random() < 0.6}
        phase = rng.choice(["S1901M", "F1903R", "W1905A"])
        dislodged = [DislodgedUnit(Unit("turkey", UnitType.ARMY, p), None)
                     for p in rng.sample(sorted(the_map.provinces), 2)
                     if the_map.can_hold(UnitType.ARMY, p) and p not in units]
        position = Position(variant, Phase.parse(phase), units, centers, tuple(dislodged))
        orders = _random_orders(position, rng)
        results = [OrderResult(o, rng.choice(variant.power_ids), rng.choice(list(Result)),
                               rng.choice(list(Outcome)), "") for o in orders
                   if rng.random() < 0.7]
        svg = render(position, orders=orders if round_ % 2 else None, results=results,
                     size=rng.choice([None, 640, 1500]), show_labels=bool(round_ % 3))
        ET.fromstring(svg)


def test_every_phase_of_a_seeded_random_game_renders(variant: Variant) -> None:
    rng = random.Random(7)
    position = Position.initial(variant)
    for _ in range(14):
        orders: list[Order] = []
        for power in variant.power_ids:
            for options in legal_orders(position, power).values():
                orders.append(rng.choice(options))
        resolution = adjudicate(position, orders)
        ET.fromstring(render(position, orders=orders, results=resolution))
        position = next_position(position, resolution)
    ET.fromstring(render(position))


# -- PNG ----------------------------------------------------------------------------------------


def test_svg_to_png(variant: Variant) -> None:
    pytest.importorskip("cairosvg")
    png = svg_to_png(render(Position.initial(variant), size=300))
    assert png.startswith(b"\x89PNG\r\n\x1a\n")


def test_svg_to_png_without_cairosvg(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    real = importlib.import_module

    def fake(name: str, package: str | None = None) -> object:
        if name == "cairosvg":
            raise ImportError("No module named 'cairosvg'")
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", fake)
    with pytest.raises(PngUnavailableError, match=r"pip install 'realpolitik\[png\]'"):
        svg_to_png("<svg xmlns='http://www.w3.org/2000/svg'/>")
