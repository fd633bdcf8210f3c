"""The web page: ``/`` and its static files, and the read-only facts the page needs to offer
choices before a game exists (variants, their powers and setups, rule editions).

The page holds no rules (style guide §8): it shows the server's SVG and takes its choices from
``/games/{id}/legal-orders``. This module only serves files and lists what the engine declares.
"""

from __future__ import annotations

import logging
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse

from realpolitik.errors import RealpolitikError
from realpolitik.rules import EDITIONS
from realpolitik.server.colours import chart_colours
from realpolitik.server.service import daide_bots_problem
from realpolitik.variant import available_variants, load_variant

_log = logging.getLogger("realpolitik.server")

STATIC = Path(__file__).resolve().parent.parent / "static"
_TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html",
          ".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon"}
_NO_CACHE = {"Cache-Control": "no-cache"}

router = APIRouter(tags=["web"])


@router.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
def index() -> FileResponse:
    """The single page: lobby, game, press and history."""
    return FileResponse(STATIC / "index.html", media_type="text/html", headers=_NO_CACHE)


@router.api_route("/static/{name:path}", methods=["GET", "HEAD"], include_in_schema=False)
def static(name: str) -> FileResponse:
    """A file of the page (no directory listings, nothing outside the static folder)."""
    if "\x00" in name:  # no file name holds one (resolve() would raise)
        raise HTTPException(404, {"code": "not_found", "message": "no such file"})
    path = (STATIC / name).resolve()
    if not path.is_relative_to(STATIC) or not path.is_file() or path.suffix not in _TYPES:
        raise HTTPException(404, {"code": "not_found", "message": f"no file {name!r}"})
    return FileResponse(path, media_type=_TYPES[path.suffix], headers=_NO_CACHE)


@cache
def _variants(search: tuple[Path, ...]) -> list[dict[str, Any]]:
    out = []
    for variant_id in available_variants(search):
        try:
            variant = load_variant(variant_id, search=search)
        except RealpolitikError as exc:
            # (serve checks them at start: a folder edited since) one bad variant is left out,
            # not the whole list
            _log.warning("the variant %r is left out of the lobby: %s", variant_id, exc)
            continue
        chart = chart_colours({p.id: p.colour for p in variant.powers})
        out.append({
            "id": variant.id,
            "name": variant.name,
            # the chart's colour: the map's, darkened where it would not show on white
            "powers": [{"id": p.id, "name": p.name, "colour": p.colour,
                        "chart_colour": chart[p.id]} for p in variant.powers],
            # each province's name, for the page's lists and completion (orders keep the ids)
            "places": {p: variant.map.name(p) for p in variant.map.provinces},
            # "daide_bots": whether a game of this setup may open its free seats to DAIDE bots
            "setups": [{"id": s.id, "players": s.players, "name": s.name,
                        "teams": [list(team) for team in s.teams],
                        "daide_bots": daide_bots_problem(variant, s) is None}
                       for s in (variant.setups or (variant.setup(),))],
            # its readings of unclear rules a new game may choose: each policy's values, the
            # variant's own choice first
            "policies": {name: [variant.policies[name], *(v for v in values
                                                           if v != variant.policies[name])]
                         for name, values in variant.hooks.policies().items()},
            # groups of spaces the game page offers to jump to (a world map's continents)
            "regions": [{"name": name, "provinces": list(ids)}
                        for name, ids in variant.hooks.regions(variant).items()],
        })
    return out


@router.get("/web/variants", tags=["web"])
def variants(request: Request) -> dict[str, Any]:
    """The variants a game can be created with (their powers, with colours, and the setups for
    fewer players, with the powers each player commands), the rule editions, and the server's
    limits on what is typed (characters of a message and of a power's orders), which the page
    shows as one types rather than cutting anything."""
    search = request.app.state.service.variant_search
    return {"variants": _variants(search), "editions": list(EDITIONS),
            "limits": _limits(request)}


def _limits(request: Request) -> dict[str, int]:
    settings = request.app.state.service.settings
    return {"press_chars": settings.max_press_chars, "order_chars": settings.max_order_chars}
