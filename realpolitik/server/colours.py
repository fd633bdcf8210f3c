"""Power colours for drawing on the page's light background: a map colour that is too light
there (classical Russia's white, Turkey's yellow) is darkened until it stands out, keeping its
hue, so that a power's line on the centre chart is never invisible."""

from __future__ import annotations

import math
from collections.abc import Mapping

CHART_BACKGROUND = "#ffffff"
"""The background of the centre chart (``svg.chart`` in style.css)."""

MIN_CONTRAST = 3.0
"""WCAG 2.1's least contrast ratio for the parts of a graphic that carry meaning (1.4.11)."""


def _channel(value: float) -> float:
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def luminance(colour: str) -> float:
    """The relative luminance (WCAG 2.1) of ``#rrggbb``."""
    text = colour.lstrip("#")
    red, green, blue = (_channel(int(text[i:i + 2], 16) / 255) for i in (0, 2, 4))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(colour1: str, colour2: str) -> float:
    """The contrast ratio (WCAG 2.1) of two ``#rrggbb`` colours, 1 to 21."""
    lighter, darker = sorted((luminance(colour1), luminance(colour2)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


MIN_DISTANCE = 15.0
"""The least distance (CIE76, in CIELAB) kept between a darkened colour and the others."""


def _shade(colour: str, scale: float) -> str:
    text = colour.lstrip("#")
    return "#" + "".join(f"{round(int(text[i:i + 2], 16) * scale):02x}" for i in (0, 2, 4))


def chart_colour(colour: str, background: str = CHART_BACKGROUND,
                 minimum: float = MIN_CONTRAST) -> str:
    """``colour`` as it is, if it contrasts at least ``minimum`` with ``background``; otherwise
    the lightest shade of it (each channel scaled down alike) that does."""
    if contrast(colour, background) >= minimum:
        return colour.lower()
    low, high = 0.0, 1.0  # low always contrasts enough (black does, on a light background)
    for _ in range(20):
        middle = (low + high) / 2
        if contrast(_shade(colour, middle), background) >= minimum:
            low = middle
        else:
            high = middle
    return _shade(colour, low)


def _lab(colour: str) -> tuple[float, float, float]:
    """CIELAB (D65) of ``#rrggbb``."""
    text = colour.lstrip("#")
    red, green, blue = (_channel(int(text[i:i + 2], 16) / 255) for i in (0, 2, 4))
    xyz = (0.4124 * red + 0.3576 * green + 0.1805 * blue) / 0.95047, \
        0.2126 * red + 0.7152 * green + 0.0722 * blue, \
        (0.0193 * red + 0.1192 * green + 0.9505 * blue) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = (f(t) for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def chart_colours(colours: Mapping[str, str]) -> dict[str, str]:
    """Each power's colour for the chart (:func:`chart_colour`); a colour that had to be
    darkened and then lies close to another power's is darkened further, a tenth at a time,
    until it is :data:`MIN_DISTANCE` away from all (or a third of its shade is left)."""
    out = {power: chart_colour(colour) for power, colour in colours.items()}
    for power, colour in colours.items():
        if out[power] == colour.lower():
            continue
        shade = out[power]
        for _ in range(6):
            if all(math.dist(_lab(shade), _lab(other)) >= MIN_DISTANCE
                   for p, other in out.items() if p != power):
                break
            shade = _shade(shade, 0.85)
        out[power] = shade
    return out
