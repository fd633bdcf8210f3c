"""A picture of any map drawn from its data: for a variant that comes with no artwork.

Each space is a point: where ``provinces.csv`` puts it (its optional ``x`` and ``y`` columns),
or else where a force-directed layout of the adjacency graph puts it (neighbours pulled
together, every pair pushed apart; seeded, so the same map gives the same picture). The
spaces' shapes are the cells of those points (every place nearer to its point than to any
other), and a dotted line joins the two spaces of each border, so that what borders what can be
read off the picture even where two cells touch without a border between them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

from realpolitik.geography import Terrain, province_of
from realpolitik.variant import Variant

Point = tuple[float, float]

WIDTH = 1000.0
MARGIN = 70.0
TOP = 120.0
"""Room above the map for the title and the note."""
_ITERATIONS = 300
_MIN_ITERATIONS = 40


def schematic_layout(variant: Variant) -> dict[str, Point]:
    """Province id -> its point in picture coordinates (``WIDTH`` wide, margins included)."""
    the_map = variant.map
    ids = sorted(the_map.provinces)
    edges = sorted(_edges(variant))
    fixed = {p: variant.coordinates[p] for p in ids if p in variant.coordinates}
    points = _spring(ids, edges, fixed) if len(fixed) < len(ids) else dict(fixed)
    return _fit(points)


def _edges(variant: Variant) -> set[tuple[str, str]]:
    the_map = variant.map
    edges: set[tuple[str, str]] = set()

    def add(a: str, b: str) -> None:
        pa, pb = province_of(a), province_of(b)
        if pa != pb:
            edges.add((min(pa, pb), max(pa, pb)))

    for province in the_map.provinces.values():
        for other in the_map.army_neighbours(province.id):
            add(province.id, other)
        for location in (province.id, *province.coasts):
            for other in the_map.fleet_neighbours(location):
                add(location, other)
    for a, b in the_map.support_borders:
        add(a, b)
    return edges


def _spring(ids: Sequence[str], edges: Sequence[tuple[str, str]], fixed: Mapping[str, Point],
            ) -> dict[str, Point]:
    """Fruchterman and Reingold's layout on the unit square, ``fixed`` points kept."""
    generator = random.Random(len(ids))
    spread = _fit_unit(fixed) if fixed else {}
    points = {p: spread.get(p, (generator.random(), generator.random())) for p in ids}
    ideal = 1.0 / math.sqrt(max(len(ids), 1))
    temperature = 0.1
    # the layout costs iterations x spaces squared: fewer rounds on a big map (a few seconds
    # for a map of 552 spaces, once per loaded variant)
    rounds = max(_MIN_ITERATIONS,
                 min(_ITERATIONS, _ITERATIONS * 100 * 100 // max(len(ids), 1) ** 2))
    cooling = (0.002 / temperature) ** (1 / rounds)
    for _ in range(rounds):
        shift = {p: [0.0, 0.0] for p in ids}
        for i, a in enumerate(ids):
            ax, ay = points[a]
            for b in ids[i + 1:]:
                dx, dy = ax - points[b][0], ay - points[b][1]
                distance = max(math.hypot(dx, dy), 1e-4)
                push = ideal * ideal / distance
                shift[a][0] += dx / distance * push
                shift[a][1] += dy / distance * push
                shift[b][0] -= dx / distance * push
                shift[b][1] -= dy / distance * push
        for a, b in edges:
            dx, dy = points[a][0] - points[b][0], points[a][1] - points[b][1]
            distance = max(math.hypot(dx, dy), 1e-4)
            pull = distance * distance / ideal
            shift[a][0] -= dx / distance * pull
            shift[a][1] -= dy / distance * pull
            shift[b][0] += dx / distance * pull
            shift[b][1] += dy / distance * pull
        for p in ids:
            if p in spread:
                continue
            dx, dy = shift[p]
            length = max(math.hypot(dx, dy), 1e-9)
            step = min(length, temperature)
            x = min(1.0, max(0.0, points[p][0] + dx / length * step))
            y = min(1.0, max(0.0, points[p][1] + dy / length * step))
            points[p] = (x, y)
        temperature *= cooling
    return points


def _fit_unit(points: Mapping[str, Point]) -> dict[str, Point]:
    xs = [x for x, _ in points.values()]
    ys = [y for _, y in points.values()]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)
    return {p: ((x - min(xs)) / span, (y - min(ys)) / span) for p, (x, y) in points.items()}


def _fit(points: Mapping[str, Point]) -> dict[str, Point]:
    unit = _fit_unit(points)
    inner = WIDTH - 2 * MARGIN
    return {p: (MARGIN + x * inner, TOP + y * inner) for p, (x, y) in unit.items()}


def cells(points: Mapping[str, Point], width: float, height: float) -> dict[str, list[Point]]:
    """Each point's cell (the places nearer to it than to any other point), clipped to the
    picture: the rectangle cut by the half-plane of every other point."""
    out: dict[str, list[Point]] = {}
    items = sorted(points.items())
    for name, (px, py) in items:
        polygon: list[Point] = [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)]
        for other, (qx, qy) in items:
            if other == name or not polygon:
                continue
            # keep the side of the bisector nearer to p: n . x <= c
            nx, ny = qx - px, qy - py
            c = (qx * qx + qy * qy - px * px - py * py) / 2
            polygon = _clip(polygon, nx, ny, c)
        out[name] = polygon
    return out


def _clip(polygon: Sequence[Point], nx: float, ny: float, c: float) -> list[Point]:
    kept: list[Point] = []
    for i, current in enumerate(polygon):
        previous = polygon[i - 1]
        inside_now = nx * current[0] + ny * current[1] <= c
        inside_before = nx * previous[0] + ny * previous[1] <= c
        if inside_now != inside_before:
            (x1, y1), (x2, y2) = previous, current
            denominator = nx * (x2 - x1) + ny * (y2 - y1)
            t = (c - nx * x1 - ny * y1) / denominator if denominator else 0.0
            kept.append((x1 + t * (x2 - x1), y1 + t * (y2 - y1)))
        if inside_now:
            kept.append(current)
    return kept


def _path(polygon: Sequence[Point]) -> str:
    if not polygon:
        return ""
    first, *rest = polygon
    return (f"M{first[0]:.1f} {first[1]:.1f}L"
            + " ".join(f"{x:.1f} {y:.1f}" for x, y in rest) + "Z")


def schematic_art_data(variant: Variant) -> dict[str, object]:
    """The artwork of ``variant`` drawn from its data, in the form of the artwork files
    (``realpolitik/render/<id>.json``, a variant folder's ``map.json``)."""
    the_map = variant.map
    points = schematic_layout(variant)
    height = max(y for _, y in points.values()) + MARGIN + 30  # and the legend below
    shapes = cells(points, WIDTH, height)
    spaces = {}
    units: dict[str, Point] = {}
    labels: dict[str, Point] = {}
    centers: dict[str, Point] = {}
    dislodged: dict[str, Point] = {}
    coasts: dict[str, list[str]] = {}
    for province in the_map.provinces.values():
        x, y = points[province.id]
        spaces[province.id] = {"path": _path(shapes[province.id]),
                               "terrain": province.terrain.value}
        units[province.id] = (x, y)
        labels[province.id] = (x, y + 22)
        dislodged[province.id] = (x + 14, y - 12)
        if province.is_supply_center:
            centers[province.id] = (x - 16, y - 12)
        if province.coasts:
            coasts[province.id] = list(province.coasts)
            for location in province.coasts:
                near = [points[province_of(n)] for n in the_map.fleet_neighbours(location)]
                if near:
                    tx = sum(p[0] for p in near) / len(near)
                    ty = sum(p[1] for p in near) / len(near)
                    length = max(math.hypot(tx - x, ty - y), 1e-9)
                    reach = min(28.0, length / 2)
                    at = (x + (tx - x) / length * reach, y + (ty - y) / length * reach)
                else:
                    at = (x, y)
                units[location] = at
                dislodged[location] = (at[0] + 14, at[1] - 12)
    links = " ".join(f"M{points[a][0]:.1f} {points[a][1]:.1f}L{points[b][0]:.1f} "
                     f"{points[b][1]:.1f}" for a, b in sorted(_edges(variant))
                     if the_map.provinces[a].terrain is not Terrain.IMPASSABLE)
    return {
        "width": int(WIDTH),
        "height": math.ceil(height),
        "spaces": spaces,
        "units": {k: list(v) for k, v in units.items()},
        "labels": {k: list(v) for k, v in labels.items()},
        "centers": {k: list(v) for k, v in centers.items()},
        "dislodged": {k: list(v) for k, v in dislodged.items()},
        "coasts": coasts,
        "decor": {"links": links},
        "note": f"{variant.name}: a schematic map drawn from the variant's data",
    }

