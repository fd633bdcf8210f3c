"""Draw a position, its orders and their results as SVG text (standard library only).

The artwork (one path per space, anchor points per location) comes from
``realpolitik/render/<variant>.json``, made by ``scripts/build_map.py``. The output depends only
on the arguments: the same input gives the same bytes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from xml.sax.saxutils import escape

from realpolitik.adjudication.outcomes import OrderResult, Outcome, Resolution, Result
from realpolitik.caches import CacheSlot
from realpolitik.errors import RealpolitikError
from realpolitik.geography import Terrain, UnitType, province_of
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
    VariantOrder,
    Waive,
)
from realpolitik.position import PhaseType, Position, Unit
from realpolitik.variant import Variant
from realpolitik.writing import place_writer

ART_DIR = Path(__file__).parent

Point = tuple[float, float]
_ColourOf = Callable[[str | None], str]
_Anchor = Callable[[str], Point]

SEA = "#8fc1db"
LAND = "#e3cfa5"
NEUTRAL_LAND = "#d9d4c7"
BORDER = "#5b5346"
LABEL = "#2b2620"
FAILED = "#d0021b"
INACTIVE_RING = "#4a4a4a"
"""The dashed ring around an inactive unit (one that only holds until brought into play)."""
UNIT_RADIUS = 9.0
OWNED_TINT = 0.5
"""How much of its owner's colour a space with an owned supply centre is filled with."""


class MapArtError(RealpolitikError, ValueError):
    """A variant has no map artwork, or its artwork file is broken."""


@dataclass(frozen=True, slots=True)
class MapArt:
    """The picture of a variant's board: shapes and anchor points in picture coordinates."""

    width: int
    height: int
    paths: Mapping[str, str]
    """Space id -> SVG path data."""
    terrain: Mapping[str, str]
    """Space id -> terrain (``land``, ``coast``, ``sea``, ``impassable``)."""
    units: Mapping[str, Point]
    """Location id (provinces and each coast) -> where a unit there is drawn."""
    labels: Mapping[str, Point]
    """Space id -> where its abbreviation is written."""
    centers: Mapping[str, Point]
    """Supply-centre id -> where its marker is drawn."""
    dislodged: Mapping[str, Point]
    """Location id -> where a dislodged unit there is drawn (beside the unit, clear of labels)."""
    coasts: Mapping[str, tuple[str, ...]]
    """Province id -> its coast locations, for provinces with several coasts."""
    decor: Mapping[str, str]
    """Decorative layers (``islands``, ``neutral``, ``lakes``) -> SVG path data."""
    label_text: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Space id -> the text written on it (default: the id in capitals)."""
    label_size: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))
    """Space id -> the font size of its label (default: the map's one size)."""
    note: str = ""
    """A remark written on every picture of the map (e.g. that it is a reconstruction)."""


def load_map_art(variant: Variant) -> MapArt:
    """The artwork of ``variant`` (read once and kept with the variant): the ``map.json`` of
    its folder or of the nearest variant it extends that has one, else the artwork shipped for
    it (``realpolitik/render/<id>.json``), else a schematic map drawn from its data
    (:mod:`realpolitik.render.schematic`). Artwork that lacks a space of the map is passed
    over (a child variant that changed the map).

    :raises MapArtError: an artwork file is broken.
    """
    return _map_art(variant)


def _art_files(variant: Variant) -> list[Path]:
    files = []
    package_variants = Path(__file__).parent.parent / "variants"
    for folder in variant.folders:
        files.append(folder / "map.json")
        if folder.parent == package_variants.resolve():
            files.append(ART_DIR / f"{folder.name}.json")
    if not variant.folders:
        files.append(ART_DIR / f"{variant.id}.json")
    return files


def _read_map_art(variant: Variant) -> MapArt:
    passable = {p.id for p in variant.map.provinces.values()}
    for path in _art_files(variant):
        if not path.is_file():
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise MapArtError(f"the map picture {path} is broken: {exc}") from exc
        art = _art_from_data(data, path.name)
        if passable <= set(art.paths):
            return art
    from realpolitik.render.schematic import schematic_art_data

    return _art_from_data(schematic_art_data(variant), "the schematic map")


def _art_from_data(data: Mapping[str, object], origin: str) -> MapArt:
    """Artwork from its JSON form (``origin`` names it in errors)."""
    try:
        spaces = _table(data["spaces"])
        return MapArt(
            width=int(str(data["width"])),
            height=int(str(data["height"])),
            paths=MappingProxyType({k: str(_table(v)["path"]) for k, v in spaces.items()}),
            terrain=MappingProxyType({k: str(_table(v)["terrain"]) for k, v in spaces.items()}),
            units=MappingProxyType({k: _point(v) for k, v in _table(data["units"]).items()}),
            labels=MappingProxyType({k: _point(v) for k, v in _table(data["labels"]).items()}),
            centers=MappingProxyType({k: _point(v) for k, v in _table(data["centers"]).items()}),
            dislodged=MappingProxyType({k: _point(v)
                                        for k, v in _table(data.get("dislodged", {})).items()}),
            coasts=MappingProxyType({k: tuple(str(c) for c in _list(v))
                                     for k, v in _table(data.get("coasts", {})).items()}),
            decor=MappingProxyType({k: str(v) for k, v in _table(data.get("decor", {})).items()}),
            label_text=MappingProxyType(
                {k: str(v) for k, v in _table(data.get("label_text", {})).items()}),
            label_size=MappingProxyType(
                {k: float(str(v)) for k, v in _table(data.get("label_sizes", {})).items()}),
            note=str(data.get("note", "")),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise MapArtError(f"the map picture {origin} is broken: {exc!r}") from exc


def _table(value: object) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise TypeError(f"expected a table, found {value!r}")
    return value


def _list(value: object) -> list[object]:
    if not isinstance(value, list):
        raise TypeError(f"expected a list, found {value!r}")
    return value


_map_art: CacheSlot[Variant, MapArt] = CacheSlot("map art", _read_map_art)
"""A variant's artwork, read once (one per variant)."""


def _point(value: object) -> Point:
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError(f"not a point: {value!r}")
    return float(value[0]), float(value[1])


# -- numbers and colours ------------------------------------------------------------------------


def _n(value: float) -> str:
    """A coordinate with at most one decimal, the same text for the same value."""
    text = f"{value:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def _rgb(colour: str) -> tuple[int, int, int]:
    text = colour.lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    try:
        return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)
    except ValueError:
        return 136, 136, 136


def _is_dark(colour: str) -> bool:
    r, g, b = _rgb(colour)
    return 0.299 * r + 0.587 * g + 0.114 * b < 140


def _outline(colour: str) -> str:
    """A colour that stands out against ``colour`` (for outlines and letters)."""
    return "#ffffff" if _is_dark(colour) else "#1a1a1a"


def _tint(colour: str, amount: float) -> str:
    """``colour`` mixed with white: amount 1 is the colour, 0 is white."""
    r, g, b = _rgb(colour)
    mix = [round(255 - (255 - c) * amount) for c in (r, g, b)]
    return "#{:02x}{:02x}{:02x}".format(*mix)


# -- geometry -----------------------------------------------------------------------------------


def _shorten(a: Point, b: Point, start: float, end: float) -> tuple[Point, Point]:
    length = math.dist(a, b)
    if length < 1e-6 or length <= start + end + 2:
        return a, b
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    return (a[0] + ux * start, a[1] + uy * start), (b[0] - ux * end, b[1] - uy * end)


def _arrow_head(tip: Point, toward: Point, size: float) -> str:
    """A filled triangle whose point is ``tip``, pointing away from ``toward``."""
    angle = math.atan2(tip[1] - toward[1], tip[0] - toward[0])
    left = (tip[0] - size * math.cos(angle - 0.45), tip[1] - size * math.sin(angle - 0.45))
    right = (tip[0] - size * math.cos(angle + 0.45), tip[1] - size * math.sin(angle + 0.45))
    return (f"M{_n(tip[0])} {_n(tip[1])}L{_n(left[0])} {_n(left[1])}"
            f"L{_n(right[0])} {_n(right[1])}Z")


def _bend(a: Point, b: Point, amount: float) -> Point:
    """The control point of a gentle curve from ``a`` to ``b``."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    dx, dy = b[0] - a[0], b[1] - a[1]
    return mx - dy * amount, my + dx * amount


def _quad(a: Point, c: Point, b: Point, t: float) -> Point:
    u = 1 - t
    return (u * u * a[0] + 2 * u * t * c[0] + t * t * b[0],
            u * u * a[1] + 2 * u * t * c[1] + t * t * b[1])


# -- the drawing --------------------------------------------------------------------------------


class _Canvas:
    def __init__(self) -> None:
        self.layers: dict[str, list[str]] = {
            name: [] for name in ("orders_under", "units", "orders", "marks")
        }

    def add(self, layer: str, element: str) -> None:
        self.layers[layer].append(element)


def _unit_symbol(unit_type: UnitType, at: Point, colour: str, *, extra: str = "") -> str:
    x, y = at
    edge = _outline(colour)
    if unit_type is UnitType.ARMY:
        body = (f'<circle cx="{_n(x)}" cy="{_n(y)}" r="8.5" fill="{colour}" stroke="#000" '
                'stroke-width="2.6"/>'
                f'<circle cx="{_n(x)}" cy="{_n(y)}" r="8.5" fill="{colour}" stroke="{edge}" '
                'stroke-width="1"/>'
                # a cannon: barrel and wheel
                f'<path d="M{_n(x - 5)} {_n(y + 1.5)}L{_n(x + 5)} {_n(y - 3.5)}" stroke="{edge}" '
                'stroke-width="2.4" stroke-linecap="round"/>'
                f'<circle cx="{_n(x - 1.5)} " cy="{_n(y + 2.5)}" r="2.4" fill="{edge}"/>')
    else:
        hull = (f"M{_n(x - 11)} {_n(y + 1)}L{_n(x + 11)} {_n(y + 1)}"
                f"L{_n(x + 7)} {_n(y + 7)}L{_n(x - 7)} {_n(y + 7)}Z")
        sail = f"M{_n(x - 1)} {_n(y - 9)}L{_n(x - 1)} {_n(y - 1)}L{_n(x + 7)} {_n(y - 1)}Z"
        body = (f'<path d="{hull}{sail}" fill="{colour}" stroke="#000" stroke-width="2.6" '
                'stroke-linejoin="round"/>'
                f'<path d="{hull}{sail}" fill="{colour}" stroke="{edge}" stroke-width="1" '
                'stroke-linejoin="round"/>')
    return f"<g{extra}>{body}</g>"


def _line(a: Point, b: Point, colour: str, *, width: float = 3.0, dash: str = "",
          opacity: float = 1.0) -> str:
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    op = f' opacity="{opacity}"' if opacity < 1 else ""
    d = f"M{_n(a[0])} {_n(a[1])}L{_n(b[0])} {_n(b[1])}"
    return (f'<g{op}><path d="{d}" stroke="#000" stroke-width="{_n(width + 2)}" fill="none"'
            f'{dash_attr} stroke-linecap="round"/>'
            f'<path d="{d}" stroke="{colour}" stroke-width="{_n(width)}" fill="none"'
            f'{dash_attr} stroke-linecap="round"/></g>')


def _move_arrow(a: Point, b: Point, colour: str, *, failed: bool, dash: str = "",
                void: bool = False) -> str:
    start, end = _shorten(a, b, UNIT_RADIUS + 1, UNIT_RADIUS + 1)
    head_base = _shorten(start, end, 0, 9)[1]
    opacity = 0.45 if void else 1.0
    parts = [_line(start, head_base, colour, width=3.2, dash=dash, opacity=opacity)]
    head = _arrow_head(end, start, 12)
    op = f' opacity="{opacity}"' if void else ""
    parts.append(f'<path d="{head}" fill="{colour}" stroke="#000" stroke-width="1.2"'
                 f' stroke-linejoin="round"{op}/>')
    if failed:
        # a stop bar across the arrow, just before the head
        length = math.dist(start, end) or 1.0
        ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
        bar_at = (end[0] - ux * 15, end[1] - uy * 15)
        px, py = -uy * 8, ux * 8
        bar = (f"M{_n(bar_at[0] - px)} {_n(bar_at[1] - py)}"
               f"L{_n(bar_at[0] + px)} {_n(bar_at[1] + py)}")
        parts.append(f'<path d="{bar}" stroke="#fff" stroke-width="6" stroke-linecap="round"/>'
                     f'<path d="{bar}" stroke="{FAILED}" stroke-width="3.6" '
                     'stroke-linecap="round"/>')
    return "".join(parts)


def _cross(at: Point, size: float, colour: str = FAILED) -> str:
    x, y = at
    d = (f"M{_n(x - size)} {_n(y - size)}L{_n(x + size)} {_n(y + size)}"
         f"M{_n(x - size)} {_n(y + size)}L{_n(x + size)} {_n(y - size)}")
    return (f'<path d="{d}" stroke="#fff" stroke-width="5.5" stroke-linecap="round"/>'
            f'<path d="{d}" stroke="{colour}" stroke-width="3" stroke-linecap="round"/>')


def _ring(at: Point, radius: float, colour: str, *, dash: str = "", width: float = 2.4) -> str:
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    x, y = at
    return (f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(radius)}" fill="none" stroke="#000" '
            f'stroke-width="{_n(width + 1.8)}"{dash_attr}/>'
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(radius)}" fill="none" stroke="{colour}" '
            f'stroke-width="{_n(width)}"{dash_attr}/>')


class _Pen:
    """What a variant's kind of order draws its mark with (:class:`realpolitik.kinds.Pen`):
    the map's own rings, crosses and unit symbols, at the ordered unit."""

    failed = FAILED

    def __init__(self, canvas: _Canvas, at: Point) -> None:
        self.canvas = canvas
        self.at = at

    def ring(self, radius: float, colour: str, *, dash: str | None = None,
             width: float = 2.0) -> None:
        self.canvas.add("orders", _ring(self.at, radius, colour, dash=dash or "", width=width))

    def cross(self, size: float, *, offset: tuple[float, float] = (0.0, 0.0)) -> None:
        self.canvas.add("marks", _cross((self.at[0] + offset[0], self.at[1] + offset[1]), size))

    def unit(self, unit_type: UnitType, colour: str) -> None:
        self.canvas.add("units", _unit_symbol(unit_type, self.at, colour))


def _normalise_orders(orders: Iterable[Order] | Mapping[str, Iterable[Order]] | None
                      ) -> list[Order]:
    if orders is None:
        return []
    if isinstance(orders, Mapping):
        return [o for power in sorted(orders) for o in orders[power]]
    return list(orders)


def render(
    position: Position,
    *,
    orders: Iterable[Order] | Mapping[str, Iterable[Order]] | None = None,
    results: Resolution | Sequence[OrderResult] | None = None,
    size: float | None = None,
    show_labels: bool = True,
    colours: Mapping[str, str] | None = None,
    title: str | None = None,
) -> str:
    """The map of ``position`` as SVG text.

    ``orders`` (a list, or a mapping of power -> orders) are drawn as arrows and markers; when
    only ``results`` are given, their orders are drawn. ``results`` (a :class:`Resolution` or
    OrderResults) mark bounced moves with a stop bar, cut or failed supports with a cross,
    dislodged units offset with a red ring, and builds and removals. ``size`` is the width in
    pixels (the height follows); ``colours`` overrides power colours (power id -> ``#rrggbb``);
    ``title`` is written before the phase name.

    :raises MapArtError: the variant has no map picture.
    """
    variant = position.variant
    art = load_map_art(variant)
    the_map = variant.map
    palette = {p.id: p.colour for p in variant.powers}
    if colours:
        palette.update(colours)

    result_list: list[OrderResult] = []
    if isinstance(results, Resolution):
        result_list = list(results.results)
    elif results is not None:
        result_list = list(results)
    by_text: dict[str, OrderResult] = {str(r.order): r for r in result_list}
    order_list = _normalise_orders(orders)
    if not order_list:
        order_list = [r.order for r in result_list]

    def colour_of(power: str | None) -> str:
        return palette.get(power or "", "#888888")

    def anchor(location: str) -> Point:
        if location in art.units:
            return art.units[location]
        return art.units[province_of(location)]

    dislodged_here: set[str] = set()
    for r in result_list:
        if r.outcome is Outcome.DISLODGED and not isinstance(r.order, Waive):
            dislodged_here.add(r.order.province)
    if isinstance(results, Resolution):
        dislodged_here.update(d.unit.province for d in results.dislodged)

    def unit_point(unit: Unit) -> Point:
        return anchor(unit.location)

    named = _named_labels(variant) if variant.writes_names else None
    width = float(size) if size else float(art.width)
    height = width * art.height / art.width
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
        f'viewBox="0 0 {art.width} {art.height}" font-family="DejaVu Sans, Verdana, sans-serif">',
        "<defs>"
        '<pattern id="impassable" patternUnits="userSpaceOnUse" width="7" height="7" '
        'patternTransform="rotate(45)"><rect width="7" height="7" fill="#c9c4b8"/>'
        '<path d="M0 0V7" stroke="#7d776b" stroke-width="2.2"/></pattern>'
        "</defs>",
        f'<rect width="{art.width}" height="{art.height}" fill="{SEA}"/>',
    ]

    # spaces, filled by terrain and centre ownership
    out.append('<g id="spaces" stroke="' + BORDER + '" stroke-width="0.8" '
               'stroke-linejoin="round">')
    for space_id in sorted(art.paths):
        terrain = art.terrain[space_id]
        if terrain == Terrain.SEA:
            fill = SEA
        elif terrain == Terrain.IMPASSABLE:
            fill = "url(#impassable)"
        else:
            owner = position.centers.get(space_id)
            fill = _tint(colour_of(owner), OWNED_TINT) if owner else LAND
        if named is not None:  # a tooltip: the name and the key's code
            out.append(f'<path id="{space_id}" d="{art.paths[space_id]}" fill="{fill}">'
                       f'<title>{escape(named.titles[space_id])}</title></path>')
        else:
            out.append(f'<path id="{space_id}" d="{art.paths[space_id]}" fill="{fill}"/>')
    out.append("</g>")
    decor_fill = {"neutral": NEUTRAL_LAND, "islands": "#e3dccb", "lakes": SEA}
    out.append('<g id="decor" stroke="#8a8374" stroke-width="0.5">')
    for layer in ("neutral", "islands", "lakes"):
        if art.decor.get(layer):
            out.append(f'<path d="{art.decor[layer]}" fill="{decor_fill[layer]}"/>')
    if art.decor.get("links"):
        # a schematic map's borders, one dotted line per pair of neighbours
        out.append(f'<path id="links" d="{art.decor["links"]}" fill="none" stroke="{BORDER}" '
                   'stroke-width="1.2" stroke-dasharray="2 4" opacity="0.7"/>')
    out.append("</g>")

    # supply centres
    out.append('<g id="centers">')
    for center in the_map.supply_centers():
        if center not in art.centers:
            continue
        x, y = art.centers[center]
        owner = position.centers.get(center)
        fill = colour_of(owner) if owner else "#ffffff"
        out.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="4.6" fill="{fill}" stroke="#000" '
                   'stroke-width="1.3"/>'
                   f'<circle cx="{_n(x)}" cy="{_n(y)}" r="1.6" fill="{_outline(fill)}"/>')
    out.append("</g>")

    out.append('<g id="coasts" font-size="7" font-style="italic" fill="#1d4f7a" '
               'text-anchor="middle">')
    for province in sorted(art.coasts):
        for location in art.coasts[province]:
            if location not in art.units:
                continue
            x, y = art.units[location]
            out.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="10.5" fill="none" stroke="#1d4f7a" '
                       'stroke-width="0.8" stroke-dasharray="2 2"/>')
            if show_labels:
                code = location.split("/", 1)[1]
                out.append(f'<text x="{_n(x)}" y="{_n(y + 18)}">{escape(code)}</text>')
    out.append("</g>")

    canvas = _Canvas()
    # units on the board (dislodged ones offset, with a red ring; inactive ones faded, in a
    # dashed ring)
    inactive = variant.hooks.inactive_units(position)
    for province in sorted(position.units):
        unit = position.units[province]
        at = unit_point(unit)
        if province in dislodged_here:
            continue  # drawn offset below, with a red ring
        if province in inactive:
            canvas.add("units", _inactive_unit(unit.type, at, colour_of(unit.power)))
        else:
            canvas.add("units", _unit_symbol(unit.type, at, colour_of(unit.power)))
    def beside(location: str) -> Point:
        """Where a dislodged unit at ``location`` is drawn."""
        if location in art.dislodged:
            return art.dislodged[location]
        x, y = anchor(location)
        return x + 17.0, y - 17.0

    dislodged_units = list(position.dislodged)
    if isinstance(results, Resolution) and position.phase.type is PhaseType.MOVEMENT:
        dislodged_units.extend(results.dislodged)
    drawn_dislodged: set[str] = set()
    for dislodged in sorted(dislodged_units, key=lambda d: d.unit.location):
        unit = dislodged.unit
        if unit.province in drawn_dislodged:
            continue
        drawn_dislodged.add(unit.province)
        moved = beside(unit.location)
        canvas.add("units", _unit_symbol(unit.type, moved, colour_of(unit.power)))
        canvas.add("marks", _ring(moved, 12.5, FAILED, width=2.2))
    for r in result_list:
        if isinstance(r.order, Waive) or r.outcome is not Outcome.DISLODGED:
            continue
        if r.order.province not in drawn_dislodged:
            unit_or_none = position.units.get(r.order.province)
            if unit_or_none is None:
                continue
            drawn_dislodged.add(r.order.province)
            moved = beside(unit_or_none.location)
            canvas.add("units", _unit_symbol(unit_or_none.type, moved,
                                             colour_of(unit_or_none.power)))
            canvas.add("marks", _ring(moved, 12.5, FAILED, width=2.2))

    # where each moving unit goes, for support-to-move curves
    move_lines: dict[str, tuple[Point, Point, str]] = {}
    for order in order_list:
        if isinstance(order, Move):
            move_lines[order.province] = (anchor(order.location), anchor(order.destination),
                                          province_of(order.destination))

    for order in order_list:
        _draw_order(order, by_text.get(str(order)), position, canvas, colour_of, anchor,
                    move_lines, dislodged_here, beside)

    out.append('<g id="units">' + "".join(canvas.layers["units"]) + "</g>")
    out.append('<g id="orders">' + "".join(canvas.layers["orders_under"])
               + "".join(canvas.layers["orders"]) + "</g>")
    out.append('<g id="marks">' + "".join(canvas.layers["marks"]) + "</g>")

    # the names of the spaces, last so that no unit or arrow covers them
    if show_labels:
        halo: list[str] = []
        texts: list[str] = []
        for space_id in sorted(art.labels):
            x, y = art.labels[space_id]
            sea = art.terrain[space_id] == Terrain.SEA
            style = ' font-style="italic" fill="#1d4f7a"' if sea else ""
            text = escape(art.label_text.get(space_id, space_id.upper()))
            size = art.label_size.get(space_id)
            if named is not None and space_id in named.sizes:
                text, size = escape(named.texts[space_id]), named.sizes[space_id]
            where = f'x="{_n(x)}" y="{_n(y + (3.4 if size is None else size * 0.36))}"'
            if named is not None:  # which space a name is (the page finds labels by it)
                where += f' data-space="{space_id}"'
            if size is not None:
                where += f' font-size="{_n(size)}"'
            halo.append(f"<text {where}>{text}</text>")
            texts.append(f"<text {where}{style}>{text}</text>")
        if named is not None:
            leaders = "".join(named.leaders)
            out.append(f'<g id="leaders" stroke="{LABEL}" stroke-width="0.7">{leaders}</g>')
            for space_id, (lx, ly) in sorted(named.outside.items()):
                sea = art.terrain[space_id] == Terrain.SEA
                style = ' font-style="italic" fill="#1d4f7a"' if sea else ""
                where = f'x="{_n(lx)}" y="{_n(ly + _LEADER_SIZE * 0.36)}" ' \
                        f'font-size="{_n(_LEADER_SIZE)}" data-space="{space_id}"'
                text = escape(named.texts[space_id])
                halo.append(f"<text {where}>{text}</text>")
                texts.append(f"<text {where}{style}>{text}</text>")
        # the halo is drawn as a separate layer: cairosvg ignores paint-order
        out.append('<g id="labels" font-size="9.5" font-weight="bold" text-anchor="middle">'
                   '<g fill="none" stroke="#ffffff" stroke-width="2.6" stroke-opacity="0.8" '
                   'stroke-linejoin="round">' + "".join(halo) + "</g>"
                   f'<g fill="{LABEL}">' + "".join(texts) + "</g></g>")

    # title and the table of centres
    heading = position.variant.calendar.phase_name(position.phase)
    heading = heading[0].upper() + heading[1:]
    if title:
        heading = f"{title}: {heading}"
    out.append('<g id="title">'
               f'<rect x="8" y="8" width="{_n(14 + 10.5 * len(heading))}" height="30" rx="4" '
               'fill="#ffffff" fill-opacity="0.85" stroke="#5b5346"/>'
               f'<text x="16" y="29" font-size="18" font-weight="bold" fill="#2b2620">'
               f"{escape(heading)}</text></g>")
    if art.note:
        # said on every picture of a map that is not the original (a reconstructed one)
        out.append('<g id="note">'
                   f'<rect x="8" y="42" width="{_n(14 + 8.2 * len(art.note))}" '
                   'height="26" rx="4" fill="#ffffff" fill-opacity="0.85" stroke="#5b5346"/>'
                   '<text x="16" y="60" font-size="15" font-style="italic" '
                   f'fill="#2b2620">{escape(art.note)}</text></g>')
    out.append(_legend(position, palette, art, inactive=bool(inactive)))
    out.append("</svg>")
    return "\n".join(out) + "\n"


_LEADER_SIZE = 5.5
"""The font size of a name written beside its space at the end of a leader line (the page's
zoom shows it up to three times as large)."""
_LEADER_REACH = (30.0, 44.0, 60.0)
"""How far from its space a name at the end of a leader line may be written."""


@dataclass(frozen=True)
class _NamedLabels:
    """The labels of a map whose places are written by name: each space's name on it where it
    fits (the art's font size, made smaller for a name longer than the art's text), else the
    key's code on it and the name beside it at the end of a leader line; and a tooltip."""

    texts: Mapping[str, str]
    """Space id -> its name as the variant writes it."""
    sizes: Mapping[str, float]
    """Space id -> the font size of the name written on the space (absent: the code stays
    on it, and the name is ``outside``)."""
    outside: Mapping[str, Point]
    """Space id -> where its name is written beside it."""
    leaders: tuple[str, ...]
    """The leader lines, as SVG."""
    titles: Mapping[str, str]
    """Space id -> the tooltip: the name and the key's code (``London (e8)``)."""


def _make_named_labels(variant: Variant) -> _NamedLabels:
    art = load_map_art(variant)
    writer = place_writer(variant)
    texts = {space: writer.place(space) for space in art.labels}
    sizes: dict[str, float] = {}
    small: list[str] = []
    for space, name in texts.items():
        drawn = art.label_text.get(space, space.upper())
        size = art.label_size.get(space, 9.5)
        if drawn == space.upper() and drawn != name.upper():
            small.append(space)  # the art found no room for the name
        else:
            sizes[space] = round(size * min(1.0, len(drawn) / max(len(name), 1)), 1)
    taken: list[tuple[float, float, float, float]] = []
    """The boxes of names written so far, and of every label on its space."""
    for space, (x, y) in art.labels.items():
        half = len(art.label_text.get(space, space)) * art.label_size.get(space, 9.5) * 0.3
        taken.append((x - half, y - 4, x + half, y + 4))
    outside: dict[str, Point] = {}
    leaders: list[str] = []
    for space in sorted(small, key=lambda s: art.labels[s]):
        x, y = art.labels[space]
        half = len(texts[space]) * _LEADER_SIZE * 0.3
        best: tuple[float, Point] | None = None
        far = _LEADER_REACH[-1] + half + 60  # only the boxes that a candidate may touch
        near = [t for t in taken if t[2] > x - far and t[0] < x + far
                and t[3] > y - far and t[1] < y + far]
        for reach in _LEADER_REACH:
            for step in range(12):
                angle = math.pi * 2 * step / 12 - math.pi / 2
                cx, cy = x + reach * math.cos(angle), y + reach * math.sin(angle) * 0.7
                box = (cx - half, cy - 3.5, cx + half, cy + 3.5)
                if box[0] < 0 or box[2] > art.width or box[1] < 0 or box[3] > art.height:
                    continue
                overlap = sum(max(0.0, min(box[2], t[2]) - max(box[0], t[0]))
                              * max(0.0, min(box[3], t[3]) - max(box[1], t[1])) for t in near)
                score = overlap + reach * 0.5
                if best is None or score < best[0]:
                    best = (score, (cx, cy))
            if best is not None and best[0] <= reach * 0.5:
                break  # a place with no overlap at this reach
        assert best is not None
        cx, cy = best[1]
        outside[space] = (cx, cy)
        taken.append((cx - half, cy - 3.5, cx + half, cy + 3.5))
        # the line runs from the edge of the code on the space to the near edge of the name
        ex = min(max(x, cx - half), cx + half)
        ey = cy + (3.5 if y > cy else -3.5) if abs(x - cx) <= half else cy
        code_half = len(space) * art.label_size.get(space, 9.5) * 0.32
        length = math.hypot(ex - x, ey - y) or 1.0
        start = min(1.0, max(code_half, 4.0) / length)
        sx, sy = x + (ex - x) * start, y + (ey - y) * start
        leaders.append(f'<line x1="{_n(sx)}" y1="{_n(sy)}" x2="{_n(ex)}" y2="{_n(ey)}"/>')
    titles = {space: f"{writer.names(space)} ({space})" for space in art.paths}
    return _NamedLabels(MappingProxyType(texts), MappingProxyType(sizes),
                        MappingProxyType(outside), tuple(leaders), MappingProxyType(titles))


_named_labels: CacheSlot[Variant, _NamedLabels] = CacheSlot("named map labels",
                                                            _make_named_labels)
"""The labels of a variant's map written by name (one set per variant: the art and the names
are fixed)."""


def _inactive_unit(unit_type: UnitType, at: Point, colour: str) -> str:
    """A unit that only holds until brought into play (a variant's inactive unit): faded, in a
    dashed grey ring."""
    return (_unit_symbol(unit_type, at, colour, extra=' class="inactive" opacity="0.45"')
            + _ring(at, 13.5, INACTIVE_RING, dash="3 2.5", width=1.6))


def _legend(position: Position, palette: Mapping[str, str], art: MapArt, *,
            inactive: bool = False) -> str:
    """The table of powers (colour, centres, units), and with ``inactive`` a row saying how an
    inactive unit is drawn."""
    variant = position.variant
    rows = []
    for power in variant.powers:
        centers = len(position.centers_of(power.id))
        units = len(position.units_of(power.id))
        rows.append((power, centers, units))
    line = 17
    height = 10 + line * (len(rows) + (2 if inactive else 0))
    # wide enough for the longest name beside its counts (158 fits the classical powers)
    longest = max((len(power.name) for power in variant.powers), default=0)
    width = max(158, round(26 + 6.6 * longest + 78))
    x0 = 8
    y0 = art.height - height - 8
    parts = [f'<g id="legend" font-size="11.5" fill="#2b2620">'
             f'<rect x="{x0}" y="{_n(y0)}" width="{width}" height="{height}" rx="4" '
             'fill="#ffffff" '
             'fill-opacity="0.85" stroke="#5b5346"/>']
    for i, (power, centers, units) in enumerate(rows):
        y = y0 + 6 + i * line
        colour = palette.get(power.id, power.colour)
        # the swatch is the power's land as the map fills it, with its units' colour in the
        # middle: the two colours one looks for on the board
        parts.append(f'<rect x="{x0 + 6}" y="{_n(y + 1.5)}" width="15" height="12" '
                     f'fill="{_tint(colour, OWNED_TINT)}" stroke="#000" stroke-width="1" '
                     'class="land"/>'
                     f'<circle cx="{x0 + 13.5}" cy="{_n(y + 7.5)}" r="3.4" fill="{colour}" '
                     'stroke="#000" stroke-width="0.8" class="unit"/>'
                     f'<text x="{x0 + 26}" y="{_n(y + 12)}">{escape(power.name)}</text>'
                     f'<text x="{x0 + width - 8}" y="{_n(y + 12)}" text-anchor="end">'
                     f"{centers} SC, {units} u</text>")
    if inactive:
        row = y0 + 6 + len(rows) * line + line / 2
        parts.append(_inactive_unit(UnitType.ARMY, (x0 + 14, row + 7), "#888888")
                     + f'<text x="{x0 + 34}" y="{_n(row + 11)}" class="inactive-legend">'
                     "inactive unit</text>")
    parts.append("</g>")
    return "".join(parts)


def _draw_order(
    order: Order,
    result: OrderResult | None,
    position: Position,
    canvas: _Canvas,
    colour_of: _ColourOf,
    anchor: _Anchor,
    move_lines: Mapping[str, tuple[Point, Point, str]],
    dislodged_here: set[str],
    beside: _Anchor,
) -> None:
    if isinstance(order, Waive):
        return
    unit = position.units.get(order.province)
    power = order.power or (unit.power if unit else None) or (result.power if result else None)
    if power is None:
        for waiting in position.dislodged:
            if waiting.unit.province == order.province:
                power = waiting.unit.power
    colour = colour_of(power)
    void = result is not None and result.result is Result.VOID
    failed = result is not None and result.result is Result.FAILS
    here = anchor(order.location)

    if isinstance(order, Hold):
        canvas.add("orders", _ring(here, 13.5, colour, width=2.6))
        if failed or void:
            canvas.add("marks", _cross((here[0] + 11, here[1] - 11), 4))
    elif isinstance(order, Move):
        canvas.add("orders", _move_arrow(here, anchor(order.destination), colour,
                                         failed=failed, void=void,
                                         dash="7 4" if order.via_convoy else ""))
    elif isinstance(order, SupportHold):
        held = anchor(order.supported_location)
        supported_unit = position.units.get(province_of(order.supported_location))
        if supported_unit is not None:
            held = anchor(supported_unit.location)
        start, end = _shorten(here, held, UNIT_RADIUS, 15)
        canvas.add("orders_under", _line(start, end, colour, width=2.2, dash="5 3.5",
                                         opacity=0.45 if void else 1.0))
        canvas.add("orders_under", _ring(held, 15, colour, dash="5 3.5", width=2.0))
        if failed or void:
            canvas.add("marks", _cross(((start[0] + end[0]) / 2, (start[1] + end[1]) / 2), 5))
    elif isinstance(order, SupportMove):
        supported_unit = position.units.get(province_of(order.supported_location))
        source = anchor(supported_unit.location if supported_unit else order.supported_location)
        line = move_lines.get(province_of(order.supported_location))
        if line is None or line[2] != province_of(order.destination):
            line = (source, anchor(order.destination), province_of(order.destination))
        target = ((line[0][0] + line[1][0]) / 2, (line[0][1] + line[1][1]) / 2)
        start = _shorten(here, target, UNIT_RADIUS, 0)[0]
        control = _bend(start, target, 0.25)
        d = (f"M{_n(start[0])} {_n(start[1])}Q{_n(control[0])} {_n(control[1])} "
             f"{_n(target[0])} {_n(target[1])}")
        op = ' opacity="0.45"' if void else ""
        canvas.add("orders_under",
                   f'<g{op}><path d="{d}" fill="none" stroke="#000" stroke-width="4.2" '
                   'stroke-dasharray="5 3.5"/>'
                   f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="2.2" '
                   'stroke-dasharray="5 3.5"/>'
                   f'<circle cx="{_n(target[0])}" cy="{_n(target[1])}" r="3.4" fill="{colour}" '
                   'stroke="#000" stroke-width="1.2"/></g>')
        if failed or void:
            canvas.add("marks", _cross(_quad(start, control, target, 0.5), 5))
    elif isinstance(order, Convoy):
        army = anchor(order.army_location)
        dest = anchor(order.destination)
        a1, b1 = _shorten(army, here, UNIT_RADIUS, UNIT_RADIUS + 3)
        a2, b2 = _shorten(here, dest, UNIT_RADIUS + 3, UNIT_RADIUS + 2)
        d = (f"M{_n(a1[0])} {_n(a1[1])}L{_n(b1[0])} {_n(b1[1])}"
             f"M{_n(a2[0])} {_n(a2[1])}L{_n(b2[0])} {_n(b2[1])}")
        op = ' opacity="0.45"' if void else ""
        canvas.add("orders_under",
                   f'<g{op}><path d="{d}" fill="none" stroke="#000" stroke-width="4" '
                   'stroke-dasharray="1.5 4" stroke-linecap="round"/>'
                   f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="2.4" '
                   'stroke-dasharray="1.5 4" stroke-linecap="round"/></g>')
        canvas.add("orders", _ring(here, 13, colour, dash="3 2.5", width=2.0))
        if failed or void:
            canvas.add("marks", _cross((here[0] + 11, here[1] - 11), 4))
    elif isinstance(order, Retreat):
        start = here
        if position.phase.type is PhaseType.RETREATS:
            start = beside(order.location)
        canvas.add("orders", _move_arrow(start, anchor(order.destination), colour,
                                         failed=failed, void=void, dash="3 3"))
    elif isinstance(order, Disband):
        at = here
        if position.phase.type is PhaseType.RETREATS:
            at = beside(order.location)
        canvas.add("marks", _cross(at, 8.5))
    elif isinstance(order, VariantOrder):
        kind = position.variant.kinds.get(order)
        if kind is not None:  # (an order of a kind the variant does not declare: no mark)
            kind.draw(order, _Pen(canvas, here), colour, succeeded=not failed and not void,
                      void=void)
    elif isinstance(order, Build):
        built = result is None or result.result is Result.SUCCEEDS
        extra = "" if built else ' opacity="0.4"'
        canvas.add("units", _unit_symbol(order.unit_type, here, colour, extra=extra))
        canvas.add("marks", _ring(here, 13.5, "#2ca02c" if built else FAILED, width=2.4))
        plus_at = (here[0] + 11, here[1] - 11)
        x, y = plus_at
        canvas.add("marks",
                   f'<circle cx="{_n(x)}" cy="{_n(y)}" r="5.5" fill="#2ca02c" stroke="#fff" '
                   f'stroke-width="1.2"/><path d="M{_n(x - 3)} {_n(y)}H{_n(x + 3)}M{_n(x)} '
                   f'{_n(y - 3)}V{_n(y + 3)}" stroke="#fff" stroke-width="1.6"/>')
