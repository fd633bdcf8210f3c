"""One input policy for every request: JSON bodies are strict JSON (nested at most 32 deep, no
``NaN`` or ``Infinity``, no lone UTF-16 surrogates nor NUL characters in any string), ids and
counters fit the database's 64-bit integers, and the answer to a refused request can always be
written.

FastAPI reads bodies with Python's ``json`` module, which accepts ``NaN``, ``Infinity`` and
``"\\ud800"``; such values later break the database, the validation answer or the engine. The
route class :class:`StrictJSONRoute` reads every JSON body strictly first and refuses these with
422 naming the field, before any handler runs.
"""

from __future__ import annotations

import json
import logging
import math
import re
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


MAX_JSON_DEPTH = 32
"""The deepest nesting of arrays and objects a JSON body may have (the deepest any route
reads is 3). Python's JSON reader and the checks after it recurse once per level: a body of a
few thousand ``[`` would exhaust the interpreter's stack (``RecursionError``, a 500)."""

_JSON_NESTING = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[{]|[\]}]')
"""A string (skipped whole, brackets in it do not count), an opening or a closing bracket."""


def nesting_too_deep(body: bytes | str, limit: int = MAX_JSON_DEPTH) -> bool:
    """True if the arrays and objects of the JSON text ``body`` nest deeper than ``limit``; in
    time linear in its length, without reading it as JSON."""
    raw = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False  # the common case: too few brackets to nest so deep
    depth = 0
    for match in _JSON_NESTING.finditer(raw):
        bracket = match.group()
        if bracket in (b"[", b"{"):
            depth += 1
            if depth > limit:
                return True
        elif bracket in (b"]", b"}"):
            depth -= 1
    return False


def _check_text(text: str, path: tuple[str | int, ...], what: str) -> None:
    if _has_surrogate(text):
        raise StrictJSONError(f"{what} holds a lone UTF-16 surrogate (an escape like \\ud800 "
                              "without its pair): it is not valid Unicode", path)
    if "\x00" in text:
        raise StrictJSONError(f"{what} holds a NUL character (\\u0000), which no field "
                              "accepts", path)


def check_strict(value: Any, path: tuple[str | int, ...] = ()) -> None:
    """Raise :class:`StrictJSONError` for a non-finite number or a string (or key) holding a
    lone surrogate or a NUL character anywhere in ``value`` (nested at most
    :data:`MAX_JSON_DEPTH` deep, as :func:`strict_loads` ensures)."""
    if isinstance(value, str):
        _check_text(value, path, "the text")
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise StrictJSONError("the number is not finite: send a finite number", path)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key, path, "a field name")
            check_strict(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            check_strict(item, (*path, index))


def strict_loads(body: bytes | str) -> Any:
    """Read strict JSON: like :func:`json.loads`, but nesting deeper than
    :data:`MAX_JSON_DEPTH`, non-finite numbers, lone surrogates and NUL characters raise
    :class:`StrictJSONError` (with the field's path where there is one).

    :raises ValueError: not JSON at all (:class:`json.JSONDecodeError`, or a number of more
        digits than Python reads).
    """
    if nesting_too_deep(body):
        raise StrictJSONError(f"the JSON nests arrays and objects more than {MAX_JSON_DEPTH} "
                              "deep", ())
    value = json.loads(body, parse_constant=_refuse_constant)
    check_strict(value)
    return value


def _is_json(request: Request) -> bool:
    """True if FastAPI may read the body as JSON: it says so, or says nothing."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    return not kind or kind == "application/json" or kind.endswith("+json")


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


def _writable(value: Any, depth: int = 0) -> Any:
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
    if depth >= MAX_JSON_DEPTH:
        return "..."  # the input is quoted so far down, no further
    if isinstance(value, list | tuple):
        return [_writable(item, depth + 1) for item in value[:100]]
    if isinstance(value, dict):
        return {_writable(str(key)): _writable(item, depth + 1)
                for key, item in list(value.items())[:100]}
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
