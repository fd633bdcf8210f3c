"""PNG output through the optional dependency cairosvg."""

from __future__ import annotations

import importlib
from typing import Any


class PngUnavailableError(ImportError):
    """cairosvg (or the cairo library it needs) is not installed."""


def svg_to_png(svg: str, *, scale: float = 1.0) -> bytes:
    """The PNG image of an SVG text (as made by :func:`realpolitik.render.render`).

    ``scale`` multiplies the picture's size in pixels.

    :raises PngUnavailableError: cairosvg or the cairo system library is missing.
    """
    try:
        cairosvg: Any = importlib.import_module("cairosvg")
    except (ImportError, OSError) as exc:
        raise PngUnavailableError(
            "PNG output needs cairosvg and the cairo library: install them with "
            "`pip install 'realpolitik[png]'` (and, on Debian or Ubuntu, "
            f"`apt-get install libcairo2`), or write SVG instead ({exc})"
        ) from exc
    png: bytes = cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
    return png
