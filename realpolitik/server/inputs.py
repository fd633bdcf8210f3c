"""One input policy for every request: JSON bodies are strict JSON (no ``NaN`` or ``Infinity``,
no lone UTF-16 surrogates in any string), ids and counters fit the database's 64-bit integers,
and the answer to a refused request can always be written.

FastAPI reads bodies with Python's ``json`` module, which accepts ``NaN``, ``Infinity`` and
``"\\ud800"``; such values later break the database, the validation answer or the engine. The
route class :class:`StrictJSONRoute` reads every JSON body strictly first and refuses these with
422 naming the field, before any handler runs.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import Path, Query, Request, Response
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute

log = logging.getLogger("realpolitik.server")

MAX_ID = 2**63 - 1
"""The largest id or counter the database can hold (a signed 64-bit integer)."""

GameId = Annotated[int, Path(ge=1, le=MAX_ID, description="the game's id")]
"""A game id in a path: refused with 422 outside 1..2^63-1 (it could not be in the database)."""


def counter(description: str) -> Any:
    """A ``Query`` for a non-negative id or sequence number that the database can compare."""
    return Query(ge=0, le=MAX_ID, description=description)


class StrictJSONError(ValueError):
    """A JSON body that Python reads but that is not strict JSON; ``path`` names the field."""

    def __init__(self, message: str, path: tuple[str | int, ...]) -> None:
        super().__init__(message)
        self.message = message
        self.path = path


def _refuse_constant(name: str) -> float:
    raise StrictJSONError(f"{name} is not a JSON number: send a finite number", ())


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def check_strict(value: Any, path: tuple[str | int, ...] = ()) -> None:
    """Raise :class:`StrictJSONError` for a non-finite number or a string (or key) holding a
    lone surrogate anywhere in ``value``."""
    if isinstance(value, str):
        if _has_surrogate(value):
            raise StrictJSONError("the text holds a lone UTF-16 surrogate (an escape like "
                                  "\\ud800 without its pair): it is not valid Unicode", path)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise StrictJSONError("the number is not finite: send a finite number", path)
    elif isinstance(value, dict):
        for key, item in value.items():
            if _has_surrogate(key):
                raise StrictJSONError("a field name holds a lone UTF-16 surrogate: it is not "
                                      "valid Unicode", path)
            check_strict(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            check_strict(item, (*path, index))


def strict_loads(body: bytes | str) -> Any:
    """Read strict JSON: like :func:`json.loads`, but non-finite numbers and lone surrogates
    raise :class:`StrictJSONError` (with the field's path where there is one).

    :raises json.JSONDecodeError: not JSON at all.
    """
    value = json.loads(body, parse_constant=_refuse_constant)
    check_strict(value)
    return value


def _is_json(request: Request) -> bool:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    return kind == "application/json" or kind.endswith("+json")


class StrictJSONRoute(APIRoute):
    """An API route whose JSON body must be strict JSON (see the module's docstring)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict_handler(request: Request) -> Response:
            if request.method not in ("GET", "HEAD", "OPTIONS") and _is_json(request):
                body = await request.body()
                if body:
                    try:
                        strict_loads(body)
                    except StrictJSONError as exc:
                        raise RequestValidationError([{
                            "type": "json_invalid", "loc": ("body", *exc.path),
                            "msg": exc.message, "input": None}]) from None
                    except ValueError:
                        pass  # not JSON at all: FastAPI's own answer says where
            return await handler(request)

        return strict_handler


def _writable(value: Any) -> Any:
    """``value`` with every part that cannot be written as strict JSON in UTF-8 replaced by a
    short printable stand-in (the answer to a bad request must never fail on the bad input it
    quotes): a lone surrogate becomes its escape, a NaN its name."""
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, str):
        text = value if len(value) <= 1000 else value[:1000] + "..."
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, list | tuple):
        return [_writable(item) for item in value]
    if isinstance(value, dict):
        return {_writable(str(key)): _writable(item) for key, item in value.items()}
    return _writable(repr(value))


def _safe(value: Any) -> Any:
    try:
        encoded = jsonable_encoder(value, custom_encoder={Exception: str})
    except Exception:  # whatever it is, its repr can be shown
        encoded = repr(value)
    return _writable(encoded)


async def validation_error_answer(_request: Request, exc: Exception) -> JSONResponse:
    """422 with FastAPI's ``detail`` list; every part that cannot be written as JSON (a NaN, a
    lone surrogate, an exception object) is replaced by its printable form."""
    assert isinstance(exc, RequestValidationError)
    detail = [{key: _safe(value) for key, value in error.items() if key != "url"}
              for error in exc.errors()]
    return JSONResponse({"detail": detail}, 422)
