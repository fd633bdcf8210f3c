"""Build the map artwork of a variant: ``realpolitik/render/<variant>.json``.

The picture is made from public-domain geography (Natural Earth land polygons, as packaged in the
npm package ``world-atlas``) and a hand-written *seeds file*, ``scripts/mapdata/<variant>.toml``:

* a map projection and a frame (the rectangle of the board, in longitude/latitude corners);
* ``patches`` (land added, e.g. to close the Danish straits or the Bosporus, which the board
  treats as land) and ``cuts`` (land removed);
* ``neutral`` polygons: land drawn grey that belongs to no space (e.g. Egypt);
* ``regions``: groups of Natural Earth countries (admin-0). The land is first cut along the
  real borders between regions, and ``region_patches`` (hand-drawn polygons) move land between
  regions where the borders of the board are not today's (East Prussia, Transylvania...);
* for every space, one or more *seed points* (longitude, latitude). Each region's land is
  divided among the land seeds inside it, and the sea among the sea spaces' seeds, by Voronoi
  cells; the land cells' edges are drawn as winding lines (``wiggle``, deterministic), so no
  border is a long straight cut. A space is the union of the cells of its seeds. Hand-placing
  seeds is how the borders are made to agree with ``adjacencies.csv``: the script prints every
  pair of spaces that touch on the picture but are not adjacent, and every adjacent pair that
  does not touch;
* optional anchor points (unit, label, centre, and one per split coast). Labels, centre markers
  and dislodged units are otherwise placed where they cover no unit and no other label
  (``Clearance``).

Steps::

    # once: put the Natural Earth land polygons of the region into scripts/mapdata/
    npm pack world-atlas@2.0.2 && tar xzf world-atlas-2.0.2.tgz
    python scripts/build_map.py extract package/land-50m.json --variant classical
    python scripts/build_map.py extract-countries package/countries-50m.json --variant classical

    # then, after each change of the seeds file
    python scripts/build_map.py build --variant classical [--preview /tmp/map.svg]

Build-time dependencies: ``shapely>=2`` and ``numpy`` (``pip install shapely numpy`` in any
environment). They are never needed at run time: the renderer reads only the JSON written here.

The output JSON holds the view box, one SVG path per space (with its terrain), the decorative
layers (islands, neutral land, lakes), and anchor points per location (unit, dislodged unit).
A variant with a map of the whole world (e.g. Colonial Winters) needs only its own seeds file
and a wider frame.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tomllib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MAPDATA = Path(__file__).resolve().parent / "mapdata"
sys.path.insert(0, str(ROOT))

Point = tuple[float, float]


# -- TopoJSON -----------------------------------------------------------------------------------


def _decode_arcs(topology: dict[str, Any]) -> list[list[Point]]:
    scale = topology["transform"]["scale"]
    translate = topology["transform"]["translate"]
    arcs = []
    for arc in topology["arcs"]:
        x = y = 0
        points = []
        for dx, dy in arc:
            x += dx
            y += dy
            points.append((x * scale[0] + translate[0], y * scale[1] + translate[1]))
        arcs.append(points)
    return arcs


def _ring(arcs: list[list[Point]], indexes: Sequence[int]) -> list[Point]:
    points: list[Point] = []
    for index in indexes:
        arc = arcs[index] if index >= 0 else list(reversed(arcs[~index]))
        points.extend(arc if not points else arc[1:])
    # The rings are spherical: an edge may cross the antimeridian. Unwrap the longitudes so that
    # the ring is continuous in the plane (a ring round a pole then fails to close: dropped).
    unwrapped: list[Point] = []
    shift = 0.0
    for i, (lon, lat) in enumerate(points):
        if i:
            jump = lon - points[i - 1][0]
            if jump > 180:
                shift -= 360
            elif jump < -180:
                shift += 360
        unwrapped.append((lon + shift, lat))
    if abs(unwrapped[-1][0] - unwrapped[0][0]) > 1e-6:
        return []
    return unwrapped


def topojson_polygons(path: Path, name: str | None = None) -> list[list[list[Point]]]:
    """Every polygon (a list of rings, outer first) of a TopoJSON file's objects; with ``name``,
    only those of the geometries whose ``properties.name`` is ``name``."""
    topology = json.loads(path.read_text())
    arcs = _decode_arcs(topology)
    polygons: list[list[list[Point]]] = []

    def add(rings: list[list[Point]]) -> None:
        if rings and rings[0]:
            polygons.append([r for r in rings if r])
            # A copy one turn east and west, for rings unwrapped past +-180 degrees.
            for turn in (-360.0, 360.0):
                polygons.append([[(x + turn, y) for x, y in r] for r in rings if r])

    def visit(geometry: dict[str, Any]) -> None:
        kind = geometry["type"]
        if name is not None and kind != "GeometryCollection" and \
                geometry.get("properties", {}).get("name") != name:
            return
        if kind == "GeometryCollection":
            for child in geometry["geometries"]:
                visit(child)
        elif kind == "Polygon":
            add([_ring(arcs, r) for r in geometry["arcs"]])
        elif kind == "MultiPolygon":
            for polygon in geometry["arcs"]:
                add([_ring(arcs, r) for r in polygon])

    for obj in topology["objects"].values():
        visit(obj)
    return polygons


# -- projection ---------------------------------------------------------------------------------


class LambertConic:
    """Lambert conformal conic projection (unit sphere), as used by most maps of Europe."""

    def __init__(self, lon0: float, lat0: float, lat1: float, lat2: float) -> None:
        phi1, phi2 = math.radians(lat1), math.radians(lat2)
        self.lon0 = math.radians(lon0)
        if abs(lat1 - lat2) < 1e-9:
            self.n = math.sin(phi1)
        else:
            self.n = math.log(math.cos(phi1) / math.cos(phi2)) / math.log(
                math.tan(math.pi / 4 + phi2 / 2) / math.tan(math.pi / 4 + phi1 / 2)
            )
        self.f = math.cos(phi1) * math.tan(math.pi / 4 + phi1 / 2) ** self.n / self.n
        self.rho0 = self._rho(math.radians(lat0))

    def _rho(self, phi: float) -> float:
        phi = max(min(phi, math.radians(89.9)), math.radians(-89.9))
        return self.f / math.tan(math.pi / 4 + phi / 2) ** self.n

    def __call__(self, lon: float, lat: float) -> Point:
        rho = self._rho(math.radians(lat))
        theta = self.n * (math.radians(lon) - self.lon0)
        return rho * math.sin(theta), self.rho0 - rho * math.cos(theta)


# -- extraction ---------------------------------------------------------------------------------


def topojson_names(path: Path) -> list[str]:
    """The names (``properties.name``) of a TopoJSON file's geometries."""
    topology = json.loads(path.read_text())
    names: list[str] = []
    for obj in topology["objects"].values():
        for geometry in obj.get("geometries", [obj]):
            name = geometry.get("properties", {}).get("name")
            if name and name not in names:
                names.append(name)
    return names


def extract(source: Path, config: dict[str, Any], out: Path) -> None:
    """Keep the land polygons inside the seeds file's ``extract_bbox``; write them as JSON."""
    kept = _clip_polygons(topojson_polygons(source), config)
    out.write_text(json.dumps({
        "source": "Natural Earth 1:50m land (public domain), via the npm package world-atlas",
        "polygons": kept,
    }, separators=(",", ":")))
    print(f"wrote {out} ({len(kept)} polygons, {out.stat().st_size // 1024} KB)")


def extract_countries(source: Path, config: dict[str, Any], out: Path) -> None:
    """Keep the country polygons (Natural Earth admin-0) inside the seeds file's
    ``extract_bbox``, by name; write them as JSON. Their borders are the land borders the seeds
    file's ``[regions]`` build on."""
    countries: dict[str, list[list[list[list[float]]]]] = {}
    for name in topojson_names(source):
        kept = _clip_polygons(topojson_polygons(source, name), config)
        if kept:
            countries[name] = kept
    out.write_text(json.dumps({
        "source": "Natural Earth 1:50m admin-0 countries (public domain), via the npm package "
                  "world-atlas",
        "countries": countries,
    }, separators=(",", ":"), sort_keys=True))
    print(f"wrote {out} ({len(countries)} countries, {out.stat().st_size // 1024} KB)")


def _clip_polygons(polygons: list[list[list[Point]]], config: dict[str, Any]
                   ) -> list[list[list[list[float]]]]:
    import shapely
    from shapely.geometry import Polygon, box
    from shapely.ops import unary_union

    west, south, east, north = config["extract_bbox"]
    window = box(west, south, east, north)
    kept = []
    for rings in polygons:
        fixed = shapely.make_valid(Polygon(rings[0], rings[1:]))
        polygon = unary_union([g for g in getattr(fixed, "geoms", [fixed])
                               if g.geom_type in ("Polygon", "MultiPolygon")])
        if not polygon.intersects(window):
            continue
        clipped = polygon.intersection(window)
        for part in getattr(clipped, "geoms", [clipped]):
            if part.geom_type != "Polygon" or part.area < 1e-4:
                continue
            kept.append([[[round(x, 3), round(y, 3)] for x, y in ring.coords]
                         for ring in (part.exterior, *part.interiors)])
    return kept


# -- build --------------------------------------------------------------------------------------


class Builder:
    """Turns a seeds file and the land polygons into the render data of one variant."""

    def __init__(self, config: dict[str, Any], land_polygons: list[list[list[Point]]],
                 countries: dict[str, list[list[list[Point]]]] | None = None) -> None:
        from shapely.geometry import Polygon, box

        self.config = config
        p = config["projection"]
        self.project_raw = LambertConic(p["lon0"], p["lat0"], p["lat1"], p["lat2"])
        frame = config["frame"]
        corners = [self.project_raw(*c) for c in frame["corners"]]
        xs = [c[0] for c in corners]
        ys = [c[1] for c in corners]
        self.x0, self.x1 = min(xs), max(xs)
        self.y0, self.y1 = min(ys), max(ys)
        self.width = float(frame["width"])
        self.scale = self.width / (self.x1 - self.x0)
        self.height = round((self.y1 - self.y0) * self.scale)
        self.frame = box(0, 0, self.width, self.height)
        self.tolerance = float(config.get("simplify", 0.8))
        self.land_polygons = [
            Polygon(self.project_ring(r[0]), [self.project_ring(h) for h in r[1:]])
            for r in land_polygons
        ]
        self.countries = countries

    def project(self, lon: float, lat: float) -> Point:
        x, y = self.project_raw(lon, lat)
        return (x - self.x0) * self.scale, (self.y1 - y) * self.scale

    def project_ring(self, ring: Iterable[Sequence[float]]) -> list[Point]:
        return [self.project(float(pt[0]), float(pt[1])) for pt in ring]

    def polygon(self, ring: Iterable[Sequence[float]]) -> Any:
        from shapely.geometry import Polygon

        return Polygon(self.project_ring(ring)).buffer(0)

    def polygon_with_holes(self, rings: Sequence[Iterable[Sequence[float]]]) -> Any:
        from shapely.geometry import Polygon

        return Polygon(self.project_ring(rings[0]),
                       [self.project_ring(r) for r in rings[1:]]).buffer(0)

    def build(self, spaces: dict[str, str], supply_centers: Iterable[str] = ()) -> dict[str, Any]:
        """``spaces`` maps each space id to its terrain (land, coast, sea, impassable)."""
        self.supply_centers = set(supply_centers)
        from shapely.geometry import Point as SPoint
        from shapely.ops import unary_union

        cfg = self.config
        land = unary_union([p.buffer(0) for p in self.land_polygons]).intersection(self.frame)
        for patch in cfg.get("patches", []):
            land = land.union(self.polygon(patch["polygon"]))
        for cut in cfg.get("cuts", []):
            land = land.difference(self.polygon(cut["polygon"]))
        land = land.simplify(self.tolerance, preserve_topology=True).buffer(0)
        land = land.intersection(self.frame)

        seeds: dict[str, list[Point]] = {}
        for space_id, points in cfg["seeds"].items():
            if space_id not in spaces:
                raise SystemExit(f"seeds file: {space_id!r} is not a space of the variant")
            seeds[space_id] = [self.project(*pt) for pt in points]
        missing = sorted(set(spaces) - set(seeds))
        if missing:
            raise SystemExit(f"seeds file: no seeds for {', '.join(missing)}")

        land_seed_points = [SPoint(pt) for s, pts in seeds.items()
                            if spaces[s] != "sea" for pt in pts]
        sea_seed_points = [SPoint(pt) for s, pts in seeds.items()
                           if spaces[s] == "sea" for pt in pts]
        min_island = float(cfg.get("min_island_area", 6.0))
        board_land, islands = [], []
        for part in getattr(land, "geoms", [land]):
            if any(part.contains(pt) for pt in land_seed_points):
                board_land.append(part)
            elif part.area >= min_island:
                islands.append(part)
        board = unary_union(board_land)
        sea_all = self.frame.difference(board)
        sea_parts, lakes = [], []
        for part in getattr(sea_all, "geoms", [sea_all]):
            if any(part.contains(pt) for pt in sea_seed_points):
                sea_parts.append(part)
            else:
                lakes.append(part)
        sea = unary_union(sea_parts)
        board = unary_union([board, *lakes])
        neutral = unary_union([self.polygon(n["polygon"]) for n in cfg.get("neutral", [])])
        neutral_land = board.intersection(neutral)
        province_land = board.difference(neutral)

        def cells(kind_sea: bool, area: Any) -> dict[str, Any]:
            points = [(s, pt) for s, pts in seeds.items()
                      if (spaces[s] == "sea") == kind_sea for pt in pts]
            return self._divide(area, points)

        land_points = [(s, pt) for s, pts in seeds.items() if spaces[s] != "sea" for pt in pts]
        shapes = {**self._land_cells(province_land, land_points), **cells(True, sea)}
        shapes = self._absorb_slivers(shapes, seeds, spaces)
        shapes = {s: _tidy(shape) if spaces[s] != "sea" else shape for s, shape in shapes.items()}

        out_spaces: dict[str, Any] = {}
        for space_id in spaces:
            shape = shapes[space_id]
            out_spaces[space_id] = {"terrain": spaces[space_id], "path": svg_path(shape)}
        decor = {
            "islands": svg_path(unary_union(islands + self.orphans)) if islands else "",
            "neutral": svg_path(neutral_land) if not neutral_land.is_empty else "",
            "lakes": svg_path(unary_union(lakes)) if lakes else "",
        }
        anchors = self._anchors(shapes, spaces)
        self.shapes = shapes
        return {
            "comment": "Generated by scripts/build_map.py from Natural Earth land (public domain) "
                       "and scripts/mapdata seeds; do not edit by hand.",
            "width": round(self.width),
            "height": self.height,
            "spaces": out_spaces,
            "decor": decor,
            **anchors,
        }

    def _divide(self, area: Any, points: list[tuple[str, Point]], amplitude: float = 0.0
                ) -> dict[str, Any]:
        """``area`` shared among the spaces of ``points`` by Voronoi cells whose edges wind by
        up to ``amplitude`` pixels (0: straight)."""
        import shapely
        from shapely.geometry import MultiPoint
        from shapely.geometry import Point as SPoint
        from shapely.ops import unary_union

        owners = {s for s, _ in points}
        if len(owners) == 1:
            return {next(iter(owners)): area}
        regions = shapely.voronoi_polygons(MultiPoint([pt for _, pt in points]),
                                           extend_to=self.frame.buffer(500))
        by_space: dict[str, list[Any]] = {}
        for region in regions.geoms:
            owner = next(s for s, pt in points if region.contains(SPoint(pt)))
            by_space.setdefault(owner, []).append(region)
        straight = {s: unary_union(r) for s, r in by_space.items()}
        if amplitude <= 0:
            return {s: _polygonal(shape.intersection(area)) for s, shape in straight.items()}
        # The shared edges of the cells become gently winding lines, the same line for both
        # neighbours; then the cells are made disjoint again and any gap goes back to the
        # straight cell it lies in.
        wiggled = {s: _wiggle(shape, amplitude) for s, shape in straight.items()}
        result: dict[str, Any] = {}
        taken = None
        for space_id in sorted(wiggled):
            shape = wiggled[space_id].intersection(area)
            if taken is not None:
                shape = shape.difference(taken)
            result[space_id] = shape
            taken = shape if taken is None else taken.union(shape)
        rest = area.difference(taken) if taken is not None else area
        if not rest.is_empty:
            for space_id, shape in straight.items():
                gap = rest.intersection(shape)
                if not gap.is_empty:
                    result[space_id] = result[space_id].union(gap)
        return {s: _polygonal(shape) for s, shape in result.items()}

    def _land_cells(self, land: Any, points: list[tuple[str, Point]]) -> dict[str, Any]:
        """The land divided among the land spaces: first into *regions* (groups of Natural
        Earth countries, so that borders between regions follow the real ones), then each
        region among the seeds it holds. Without a countries file, one Voronoi division."""
        from shapely.geometry import Point as SPoint
        from shapely.ops import unary_union

        groups = self.config.get("regions")
        amplitude = float(self.config.get("wiggle", 0.0))
        if not groups or self.countries is None:
            return self._divide(land, points, amplitude)
        region_of_country = {c: name for name, members in groups.items() for c in members}
        shapes: dict[str, list[Any]] = {}
        for country, polygons in self.countries.items():
            region = region_of_country.get(country, country)
            shapes.setdefault(region, []).extend(
                self.polygon_with_holes(rings) for rings in polygons)
        regions = {name: unary_union(parts) for name, parts in shapes.items()}
        for patch in self.config.get("region_patches", []):
            moved = _wiggle(self.polygon(patch["polygon"]), amplitude)
            if patch["region"] not in regions:
                raise SystemExit(f"seeds file: region patch {patch.get('name')!r} names an "
                                 f"unknown region {patch['region']!r}")
            for name in regions:
                regions[name] = regions[name].difference(moved)
            regions[patch["region"]] = regions[patch["region"]].union(moved)
        regions = {name: shape.intersection(land) for name, shape in regions.items()}
        # land that no country covers (coastline differences) goes to the nearest seeds
        covered = unary_union(list(regions.values()))
        # each connected piece of a region that holds no seed joins the neighbouring region
        # with which it shares the longest border
        pieces: list[tuple[str, Any, list[tuple[str, Point]]]] = []
        for name, shape in regions.items():
            for piece in getattr(shape, "geoms", [shape]):
                if piece.is_empty or piece.geom_type != "Polygon":
                    continue
                held = [(s, pt) for s, pt in points if piece.contains(SPoint(pt))]
                pieces.append((name, piece, held))
        seeded = [(n, p, h) for n, p, h in pieces if h]
        groups_out: list[tuple[Any, list[tuple[str, Point]]]] = [(p, h) for _, p, h in seeded]
        unplaced: list[Any] = []
        for _name, piece, held in pieces:
            if held:
                continue
            best, length = None, 0.0
            grown = piece.buffer(0.5)
            for i, (other, _) in enumerate(groups_out):
                shared = grown.intersection(other.boundary).length
                if shared > length:
                    best, length = i, shared
            if best is None:
                # touches no seeded region (e.g. an island joined by a patch): it goes with
                # the land that no country covers, to the nearest seeds
                unplaced.append(piece)
                continue
            area, held_there = groups_out[best]
            groups_out[best] = (area.union(piece), held_there)
        result: dict[str, list[Any]] = {}
        for area, held in groups_out:
            for space_id, shape in self._divide(area, held, amplitude).items():
                result.setdefault(space_id, []).append(shape)
        rest = _polygonal(unary_union([land.difference(covered), *unplaced]))
        if not rest.is_empty:
            for space_id, shape in self._divide(rest, points, amplitude).items():
                result.setdefault(space_id, []).append(shape)
        return {s: _polygonal(unary_union(parts)) for s, parts in result.items()}

    def _absorb_slivers(self, shapes: dict[str, Any], seeds: dict[str, list[Point]],
                        spaces: dict[str, str]) -> dict[str, Any]:
        """Give every piece of a space that holds none of its seeds to the neighbour it shares the
        most border with (or to the decorative islands if it touches no space)."""
        from shapely.geometry import Point as SPoint
        from shapely.ops import unary_union

        self.orphans: list[Any] = []
        result: dict[str, Any] = {}
        loose: list[tuple[str, Any]] = []
        for space_id, shape in shapes.items():
            own = [SPoint(p).buffer(0.5) for p in seeds[space_id]]
            kept = []
            for piece in getattr(shape, "geoms", [shape]):
                if any(piece.intersects(seed) for seed in own):
                    kept.append(piece)
                else:
                    loose.append((space_id, piece))
            result[space_id] = unary_union(kept)
        for space_id, piece in sorted(loose, key=lambda item: -item[1].area):
            best, length = None, 0.0
            for other, other_shape in result.items():
                if other == space_id or (spaces[other] == "sea") != (spaces[space_id] == "sea"):
                    continue
                shared = piece.buffer(0.05).intersection(other_shape.boundary).length
                if shared > length:
                    best, length = other, shared
            if best is None or length < 0.5:
                if spaces[space_id] == "sea":
                    result[space_id] = unary_union([result[space_id], piece])
                else:
                    self.orphans.append(piece)
            else:
                if piece.area > 20:
                    print(f"note: a piece of {space_id} ({piece.area:.0f} px2 at "
                          f"{piece.centroid.x:.0f},{piece.centroid.y:.0f}) holds none of "
                          f"its seeds and goes to {best}")
                result[best] = unary_union([result[best], piece])
        return result

    def _anchors(self, shapes: dict[str, Any], spaces: dict[str, str]) -> dict[str, Any]:
        """Where units, labels, supply-centre markers and dislodged units are drawn. Units come
        first (seeds file or the point farthest from the border); every label is then put
        where it touches no unit of any location and no other label, every centre marker where
        it touches no unit and no label, and every dislodged unit beside its place where it
        covers no label (see ``Clearance``)."""
        from shapely.geometry import Point as SPoint
        from shapely.ops import polylabel

        cfg = self.config.get("anchors", {})
        units: dict[str, Point] = {}
        labels: dict[str, Point] = {}
        centers: dict[str, Point] = {}
        dislodged: dict[str, Point] = {}
        mains = {s: max(getattr(shape, "geoms", [shape]), key=lambda g: g.area)
                 for s, shape in shapes.items()}

        for space_id, main in mains.items():
            if space_id in cfg.get("unit", {}):
                units[space_id] = self.project(*cfg["unit"][space_id])
            else:
                best = polylabel(main, tolerance=0.5)
                units[space_id] = (best.x, best.y)
        for location, lonlat in cfg.get("coast", {}).items():
            units[location] = self.project(*lonlat)
        unit_boxes = [Clearance.unit(p) for p in units.values()]

        def free(box: Box, taken: Iterable[Box]) -> bool:
            return not any(_overlap(box, other) for other in taken)

        for space_id in sorted(mains, key=lambda s: mains[s].area):
            main = mains[space_id]
            inner = main.buffer(-2)
            unit = units[space_id]
            if space_id in cfg.get("label", {}):
                labels[space_id] = self.project(*cfg["label"][space_id])
                continue
            candidates = [(unit[0] + dx, unit[1] + dy)
                          for dx, dy in Clearance.LABEL_OFFSETS + Clearance.NEARBY]
            best = polylabel(main.difference(SPoint(unit).buffer(16)), tolerance=0.5) \
                if not main.difference(SPoint(unit).buffer(16)).is_empty else None
            if best is not None:
                candidates.append((best.x, best.y))
            placed = [Clearance.label(p, s) for s, p in labels.items()]

            def fits(point: Point, sid: str = space_id, shape: Any = inner,
                     others: list[Box] = placed) -> bool:
                # the label's middle in its space and most of it too (a halo keeps it
                # readable where it crosses a coast), and nothing else under it
                box = Clearance.label(point, sid)
                drawn = _box_polygon(box)
                return (shape.contains(SPoint(point))
                        and shape.intersection(drawn).area >= 0.8 * drawn.area
                        and free(box, unit_boxes) and free(box, others))

            label = next((c for c in candidates if fits(c)), None)
            if label is None:
                print(f"note: no clear place for the label of {space_id}; put one in "
                      "[anchors.label]")
                label = candidates[0]
            labels[space_id] = label
        label_boxes = [Clearance.label(p, s) for s, p in labels.items()]

        for space_id, main in mains.items():
            if space_id in cfg.get("center", {}):
                centers[space_id] = self.project(*cfg["center"][space_id])
                continue
            if space_id not in self.supply_centers:
                continue
            unit = units[space_id]
            inner = main.buffer(-3)
            candidates = [(unit[0] + dx, unit[1] + dy)
                          for dx, dy in Clearance.CENTER_OFFSETS + Clearance.NEARBY]
            taken = unit_boxes + label_boxes + [Clearance.center(c) for c in centers.values()]
            fitting = [c for c in candidates if inner.contains(SPoint(c))
                       and free(Clearance.center(c), taken)]
            if fitting:
                centers[space_id] = fitting[0]
            else:
                print(f"note: no clear place for the centre marker of {space_id}")
                centers[space_id] = candidates[0]
        center_boxes = [Clearance.center(c) for c in centers.values()]

        for location, unit in units.items():
            candidates = [(unit[0] + dx, unit[1] + dy)
                          for dx, dy in Clearance.DISLODGED_OFFSETS + Clearance.NEARBY
                          if math.hypot(dx, dy) >= 22]
            fitting = [c for c in candidates if free(Clearance.dislodged(c), label_boxes)]
            fitting.sort(key=lambda c: sum(_overlap(Clearance.dislodged(c), b)
                                           for b in center_boxes))
            if not fitting:
                print(f"note: a dislodged unit in {location} would cover a label")
            dislodged[location] = (fitting or candidates)[0]

        def pts(points: dict[str, Point]) -> dict[str, list[float]]:
            return {k: [round(x, 1), round(y, 1)] for k, (x, y) in points.items()}

        return {"units": pts(units), "labels": pts(labels), "centers": pts(centers),
                "dislodged": pts(dislodged)}


Box = tuple[float, float, float, float]


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _box_polygon(box: Box) -> Any:
    from shapely.geometry import box as shapely_box

    return shapely_box(*box)


class Clearance:
    """The room each mark takes on the picture (boxes in pixels, as the renderer draws them:
    9.5 px bold labels, units 24 x 18 px, centre markers of radius 4.6, a dislodged unit with
    its ring of radius 12.5)."""

    LABEL_OFFSETS: tuple[Point, ...] = ((0, 17), (0, -18), (24, 0), (-24, 0), (0, 24),
                                        (0, -24), (22, 14), (-22, 14), (22, -14), (-22, -14))
    CENTER_OFFSETS: tuple[Point, ...] = ((19, -10), (-19, -10), (19, 8), (-19, 8), (0, -20),
                                         (24, 0), (-24, 0), (0, 30), (28, -18), (-28, -18))
    # far enough that the dislodged unit (and its ring) and the unit that took its place do
    # not cover each other
    DISLODGED_OFFSETS: tuple[Point, ...] = ((17, -17), (-17, -17), (17, 17), (-17, 17),
                                            (24, 0), (-24, 0))

    NEARBY: tuple[Point, ...] = tuple(sorted(
        ((float(dx), float(dy)) for dx in range(-40, 41, 4) for dy in range(-40, 41, 4)
         if 12 <= math.hypot(dx, dy) <= 40),
        key=lambda d: (math.hypot(*d), d)))
    """Further places to try, nearest first."""

    @staticmethod
    def label(at: Point, text: str) -> Box:
        half = 3.6 * len(text) + 1
        return at[0] - half, at[1] - 5, at[0] + half, at[1] + 5

    @staticmethod
    def unit(at: Point) -> Box:
        return at[0] - 12, at[1] - 10, at[0] + 12, at[1] + 8

    @staticmethod
    def center(at: Point) -> Box:
        return at[0] - 5.5, at[1] - 5.5, at[0] + 5.5, at[1] + 5.5

    @staticmethod
    def dislodged(at: Point) -> Box:
        return at[0] - 14.5, at[1] - 14.5, at[0] + 14.5, at[1] + 14.5


def _tidy(shape: Any, smallest: float = 5.0) -> Any:
    """``shape`` without the crumbs that cutting along two sets of borders leaves: parts and
    holes of less than ``smallest`` square pixels."""
    from shapely.geometry import Polygon
    from shapely.ops import unary_union

    kept = [Polygon(part.exterior, [h for h in part.interiors if Polygon(h).area >= smallest])
            for part in getattr(shape, "geoms", [shape])
            if part.geom_type == "Polygon" and part.area >= smallest]
    return unary_union(kept) if kept else shape


def _polygonal(geometry: Any) -> Any:
    """The polygons of ``geometry`` (dropping the lines and points an intersection can leave)."""
    from shapely.geometry import Polygon
    from shapely.ops import unary_union

    if geometry.geom_type == "Polygon":
        return geometry
    if geometry.geom_type == "MultiPolygon":
        return geometry
    parts: list[Any] = []
    for part in getattr(geometry, "geoms", []):
        if part.geom_type == "Polygon":
            parts.append(part)
        elif part.geom_type == "MultiPolygon":
            parts.extend(part.geoms)
    return unary_union(parts) if parts else Polygon()


def _wiggle(shape: Any, amplitude: float) -> Any:
    """``shape`` with every edge replaced by a winding line through the same two ends. The line
    depends only on the edge's two ends (not on their order), so two cells that share an edge
    still share it afterwards."""
    from shapely.geometry import Polygon

    def ring(coords: Sequence[Sequence[float]]) -> list[Point]:
        out: list[Point] = []
        for a, b in zip(coords[:-1], coords[1:], strict=True):
            out.extend(_winding_edge((a[0], a[1]), (b[0], b[1]), amplitude)[:-1])
        return out

    polygons = []
    for part in getattr(shape, "geoms", [shape]):
        if part.geom_type != "Polygon" or part.is_empty:
            continue
        polygons.append(Polygon(ring(part.exterior.coords),
                                [ring(h.coords) for h in part.interiors]).buffer(0))
    from shapely.ops import unary_union
    return unary_union(polygons)


def _winding_edge(a: Point, b: Point, amplitude: float) -> list[Point]:
    """Points from ``a`` to ``b`` along a line that winds by at most ``amplitude`` pixels
    (midpoint displacement, seeded by the rounded ends)."""
    import random
    import zlib

    ka = (round(a[0], 3), round(a[1], 3))
    kb = (round(b[0], 3), round(b[1], 3))
    first, second = sorted((ka, kb))
    rng = random.Random(zlib.crc32(repr((first, second)).encode()))
    p, q = ((a, b) if (ka, kb) == (first, second) else (b, a))
    points = [p, q]
    # halve every piece until the pieces are short, moving each new middle point sideways by
    # a share of its piece's length (so the line winds at every scale, as a river does)
    while math.dist(points[0], points[1]) > 3.0:
        refined = [points[0]]
        for u, v in zip(points[:-1], points[1:], strict=True):
            length = math.dist(u, v) or 1.0
            nx, ny = -(v[1] - u[1]) / length, (v[0] - u[0]) / length
            shift = rng.uniform(-1.0, 1.0) * min(0.6 * amplitude, 0.12 * length)
            refined.append(((u[0] + v[0]) / 2 + nx * shift, (u[1] + v[1]) / 2 + ny * shift))
            refined.append(v)
        points = refined
    return points if (ka, kb) == (first, second) else points[::-1]


def svg_path(geometry: Any) -> str:
    """An SVG path (absolute, one decimal) for a polygon or multipolygon."""
    parts = []
    for polygon in getattr(geometry, "geoms", [geometry]):
        if polygon.geom_type != "Polygon" or polygon.is_empty:
            continue
        for ring in (polygon.exterior, *polygon.interiors):
            coords = [(round(x, 1), round(y, 1)) for x, y in ring.coords[:-1]]
            deduped = [c for i, c in enumerate(coords) if i == 0 or c != coords[i - 1]]
            if len(deduped) < 3:
                continue
            head = f"M{_num(deduped[0][0])} {_num(deduped[0][1])}"
            rest = "L" + " ".join(f"{_num(x)} {_num(y)}" for x, y in deduped[1:])
            parts.append(head + rest + "Z")
    return "".join(parts)


def _num(value: float) -> str:
    text = f"{value:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def check_adjacency(
    shapes: dict[str, Any], borders: set[frozenset[str]], min_length: float, impassable: set[str]
) -> tuple[list[tuple[str, str, float]], list[tuple[str, str]]]:
    """Pairs that touch but are not adjacent (with the shared length), and adjacent pairs that
    do not touch."""
    ids = sorted(shapes)
    extra, missing = [], []
    for i, a in enumerate(ids):
        grown = shapes[a].buffer(0.3)
        for b in ids[i + 1:]:
            if not grown.intersects(shapes[b]):
                length = 0.0
            else:
                length = grown.intersection(shapes[b].boundary).length
            touch = length >= min_length
            adjacent = frozenset((a, b)) in borders
            if a in impassable or b in impassable:
                continue
            if touch and not adjacent:
                extra.append((a, b, round(length, 1)))
            if adjacent and not touch:
                missing.append((a, b))
    return extra, missing


def preview(data: dict[str, Any], path: Path) -> None:
    """A plain SVG of the spaces, for looking at while placing seeds."""
    fills = {"sea": "#bcd6ea", "land": "#eadbb4", "coast": "#eadbb4", "impassable": "#999"}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{data["width"]}" '
           f'height="{data["height"]}" viewBox="0 0 {data["width"]} {data["height"]}">']
    for space_id, space in data["spaces"].items():
        out.append(f'<path d="{space["path"]}" fill="{fills[space["terrain"]]}" '
                   f'stroke="#444" stroke-width="0.6"><title>{space_id}</title></path>')
    for layer, colour in (("islands", "#d8cfb4"), ("neutral", "#cfcfcf"), ("lakes", "#bcd6ea")):
        if data["decor"][layer]:
            out.append(f'<path d="{data["decor"][layer]}" fill="{colour}" stroke="#777" '
                       'stroke-width="0.4"/>')
    for space_id, (x, y) in data["labels"].items():
        out.append(f'<text x="{x}" y="{y}" font-size="9" text-anchor="middle" '
                   f'font-family="sans-serif">{space_id}</text>')
    for location, (x, y) in data["units"].items():
        out.append(f'<circle cx="{x}" cy="{y}" r="2.5" fill="red"><title>{location}</title>'
                   '</circle>')
    out.append("</svg>")
    path.write_text("\n".join(out))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("extract", help="cut the Natural Earth land of the region out of a "
                        "world-atlas TopoJSON file")
    ex.add_argument("topojson", type=Path)
    ex.add_argument("--variant", default="classical")
    ec = sub.add_parser("extract-countries", help="cut the Natural Earth countries of the region "
                        "out of a world-atlas TopoJSON file (countries-50m.json)")
    ec.add_argument("topojson", type=Path)
    ec.add_argument("--variant", default="classical")
    bd = sub.add_parser("build", help="make realpolitik/render/<variant>.json")
    bd.add_argument("--variant", default="classical")
    bd.add_argument("--out", type=Path)
    bd.add_argument("--preview", type=Path, help="also write a plain SVG of the spaces")
    bd.add_argument("--seeds-svg", type=Path, help="also write an SVG showing the seed points")
    args = parser.parse_args(argv)

    config = tomllib.loads((MAPDATA / f"{args.variant}.toml").read_text())
    land_file = MAPDATA / f"{args.variant}_land.json"
    countries_file = MAPDATA / f"{args.variant}_countries.json"
    if args.command == "extract":
        extract(args.topojson, config, land_file)
        return 0
    if args.command == "extract-countries":
        extract_countries(args.topojson, config, countries_file)
        return 0

    from realpolitik.geography import province_of
    from realpolitik.variant import load_variant

    variant = load_variant(args.variant)
    spaces = {p.id: p.terrain.value for p in variant.map.provinces.values()}
    land_polygons = json.loads(land_file.read_text())["polygons"]
    countries = (json.loads(countries_file.read_text())["countries"]
                 if countries_file.exists() else None)
    builder = Builder(config, land_polygons, countries)
    data = builder.build(spaces, variant.map.supply_centers())
    data["coasts"] = {p.id: list(p.coasts) for p in variant.map.provinces.values() if p.coasts}
    for location in variant.map.locations:
        if location not in data["units"]:
            raise SystemExit(f"seeds file: no [anchors.coast] point for {location}")
    out = args.out or ROOT / "realpolitik" / "render" / f"{args.variant}.json"
    out.write_text(json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n")
    print(f"wrote {out} ({out.stat().st_size // 1024} KB, {data['width']}x{data['height']})")
    if args.preview:
        preview(data, args.preview)
    if args.seeds_svg:
        seeds_svg(builder, data, args.seeds_svg)

    borders = {frozenset((province_of(a), province_of(b))) for a, b, _, _ in variant.map.borders}
    extra, missing = check_adjacency(builder.shapes, borders,
                                     float(config.get("min_touch_length", 2.0)),
                                     {s for s, t in spaces.items() if t == "impassable"})
    for a, b, length in extra:
        print(f"touch but not adjacent: {a} {b} ({length} px)")
    for a, b in missing:
        print(f"adjacent but not touching: {a} {b}")
    print(f"{len(extra)} extra, {len(missing)} missing")
    return 1 if extra or missing else 0


def seeds_svg(builder: Builder, data: dict[str, Any], path: Path) -> None:
    preview(data, path)
    text = path.read_text().rsplit("</svg>", 1)[0]
    dots = []
    for space_id, points in builder.config["seeds"].items():
        for lon, lat in points:
            x, y = builder.project(lon, lat)
            dots.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="1.6" fill="blue"/>'
                        f'<text x="{x:.1f}" y="{y - 2:.1f}" font-size="5" fill="blue">'
                        f'{space_id}</text>')
    path.write_text(text + "\n".join(dots) + "</svg>")


if __name__ == "__main__":
    raise SystemExit(main())
