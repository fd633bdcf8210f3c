"""The map's legend shows each power in the colours one finds on the board (issue 32: England
was navy in the legend and lavender on the map): its swatch is filled as the power's land is,
with its units' colour in the middle."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from realpolitik.position import Position
from realpolitik.render import render
from realpolitik.variant import load_variant

NS = {"svg": "http://www.w3.org/2000/svg"}


@pytest.mark.parametrize("variant_id", ["classical", "colonial_winters"])
def test_legend_swatches_have_the_colours_of_the_board(variant_id: str) -> None:
    variant = load_variant(variant_id)
    position = Position.initial(variant)
    root = ET.fromstring(render(position))
    fills = {path.get("id"): path.get("fill")
             for path in root.iterfind("svg:g[@id='spaces']/svg:path", NS)}
    unit_fills = {el.get("fill") for el in root.iterfind("svg:g[@id='units']//*", NS)}
    legend = root.find("svg:g[@id='legend']", NS)
    assert legend is not None
    lands = [r.get("fill") for r in legend.iterfind("svg:rect[@class='land']", NS)]
    units = [c.get("fill") for c in legend.iterfind("svg:circle[@class='unit']", NS)]
    assert len(lands) == len(units) == len(variant.powers)
    checked = 0
    for power, land, unit in zip(variant.powers, lands, units, strict=True):
        owned = sorted(position.centers_of(power.id))
        if not owned:
            continue
        # the swatch's land colour is the fill of the power's spaces on the board ...
        assert fills[owned[0]] == land, (power.id, fills[owned[0]], land)
        # ... and the dot's colour is its units' colour
        if position.units_of(power.id):
            assert unit in unit_fills, (power.id, unit)
        checked += 1
    assert checked >= 7
