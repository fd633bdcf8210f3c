"""Pictures of positions, orders and results.

:func:`render` draws a position (with orders and their results, if given) as SVG text, in pure
Python. :func:`svg_to_png` turns that text into PNG bytes; it needs the optional dependency
``cairosvg`` (``pip install 'realpolitik[png]'``).

The map artwork of each variant is a data file, ``realpolitik/render/<variant>.json``, made by
``scripts/build_map.py``.
"""

from realpolitik.render.png import svg_to_png
from realpolitik.render.svg import MapArt, load_map_art, render

__all__ = ["MapArt", "load_map_art", "render", "svg_to_png"]
