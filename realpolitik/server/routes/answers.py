"""Long answers written where the work is done: on the service's thread, not the event loop."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import Response
from pydantic import TypeAdapter

from realpolitik.server.hot import json_body
from realpolitik.server.service import GameService


async def json_answer(service: GameService, function: Callable[..., Any], *args: Any,
                      model: Any = None, **kwargs: Any) -> Response:
    """The answer of a service call as JSON, its bytes written on the service's thread
    (:meth:`GameService.call`) with the call. FastAPI checks and writes an ``async`` route's
    answer on the event loop, where a long one (a page of 100 press messages of 4,000
    characters, a game's history) held every other request meanwhile. ``model``: the
    response model the answer is checked and written with (its defaults filled in), as
    FastAPI would; without it the service's answer is written as it is."""
    adapter = TypeAdapter(model) if model is not None else None

    def answer() -> bytes:
        content = function(*args, **kwargs)
        if adapter is not None:
            content = adapter.dump_python(adapter.validate_python(content), mode="json",
                                         by_alias=True)
        return json_body(content)

    return Response(await service.call(answer), media_type="application/json")
