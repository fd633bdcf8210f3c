"""The busiest routes answered without FastAPI's machinery: an order submission
(``PUT /games/{id}/orders``), a game view (``GET /games/{id}``) and a power's legal orders
(``GET /games/{id}/legal-orders?power=``).

Under load, FastAPI's layers (its middleware, the route table walked in turn, the dependency
solver, the response model checked again) cost about as much CPU per request as the work itself.
These three routes, which a playing client calls all the time, are recognised here first and
answered directly: the same body checks (strict JSON, the same pydantic model), the same
service call, the same answer (the response model's JSON, the security headers). Anything out of
the ordinary (a body that is not plain JSON or does not validate, a token this process has not
checked lately, a query other than the usual one, a body without a length) is handed to the
FastAPI application unchanged, the body replayed, so every refusal is written by the one code
path that writes it for every other route. The routes stay declared in FastAPI too: they are
what ``/openapi.json`` describes and what answers the unusual requests.
"""

from __future__ import annotations

import json
import logging
import re
import traceback
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qsl

from pydantic import TypeAdapter, ValidationError

from realpolitik.errors import RealpolitikError
from realpolitik.server.inputs import MAX_ID, strict_loads
from realpolitik.server.privacy import orders_revision
from realpolitik.server.schemas import (
    BuildsUsedOut,
    GameOut,
    OrderOut,
    OrdersIn,
    OrdersOut,
    count_lines,
    line_to_wire,
    order_to_wire,
)
from realpolitik.server.service import Account, GameService, ServiceError
from realpolitik.server.store import database_unavailable

log = logging.getLogger("realpolitik.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_ORDERS_PATH = re.compile(r"/games/([0-9]{1,19})/orders")
_LEGAL_PATH = re.compile(r"/games/([0-9]{1,19})/legal-orders")
_GAME_PATH = re.compile(r"/games/([0-9]{1,19})")
_POWER_MAX_CHARS = 40  # as the routes' Query(max_length=40)

_game_out = TypeAdapter(GameOut)
_orders_out = TypeAdapter(OrdersOut)
_legal_out = TypeAdapter(dict[str, list[OrderOut]])


class _FallBack(Exception):
    """This request is not an ordinary one: the FastAPI application answers it."""


def _game_id(match: re.Match[str] | None) -> int:
    if match is None:
        raise _FallBack
    game_id = int(match.group(1))
    if not 1 <= game_id <= MAX_ID:
        raise _FallBack
    return game_id


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope["headers"]:
        if key == name:
            return bytes(value)
    return None


RETRY_AFTER_SECONDS = 5
"""What a 503 answer (the database cannot be reached) tells the client to wait."""


def failure_answer(scope: Scope, exc: BaseException) -> tuple[int, Any, dict[str, str]]:
    """The status, ``detail`` and headers of the answer to an exception no handler took: 503
    with ``Retry-After`` when the database cannot be reached (logged in one line), else 500
    (logged with its traceback)."""
    if database_unavailable(exc):
        log.warning("the database is unavailable answering %s %s: %s", scope.get("method"),
                    scope.get("path"), _short(exc))
        return 503, {"code": "unavailable", "message": "the database cannot be reached just "
                     f"now: try again in {RETRY_AFTER_SECONDS} seconds"}, \
            {"Retry-After": str(RETRY_AFTER_SECONDS)}
    log.error("unexpected error answering %s %s: %s\n%s", scope.get("method"), scope.get("path"),
              _short(exc), "".join(traceback.format_tb(exc.__traceback__, limit=-30)))
    return 500, {"code": "internal_error", "message": "the server failed on this request; it is "
                 "logged"}, {}


def _short(exc: BaseException) -> str:
    """The exception's kind and the start of its message: a message may quote the request
    (a validation error quotes the body), which the log must not keep whole."""
    text = str(exc)
    return f"{type(exc).__name__}: {text[:300]}{'...' if len(text) > 300 else ''}"


def json_body(content: Any) -> bytes:
    """The body of a JSON answer, written as FastAPI's ``JSONResponse`` writes it."""
    return json.dumps(content, ensure_ascii=False, allow_nan=False, indent=None,
                      separators=(",", ":")).encode("utf-8")


class HotRoutes:
    """Answers the three busiest routes of ``service`` or hands the request to ``fallback`` (the
    whole FastAPI application), with the same answers as FastAPI would give; ``extra_headers``
    are sent with every answer (the security headers)."""

    def __init__(self, service: GameService, fallback: ASGIApp, *, max_body_bytes: int,
                 extra_headers: list[tuple[bytes, bytes]]) -> None:
        self.service = service
        self.fallback = fallback
        self.max_body_bytes = max_body_bytes
        self.extra_headers = extra_headers

    def route_for(self, scope: Scope) -> Callable[[Scope, Receive, Send], Awaitable[None]] | None:
        """The handler of an HTTP request this class answers, or None."""
        if scope.get("root_path"):
            return None
        method, path = scope["method"], scope["path"]
        if method == "PUT" and path.endswith("/orders"):
            return self._submit_orders
        if method == "GET":
            if path.endswith("/legal-orders"):
                return self._legal_orders
            if _GAME_PATH.fullmatch(path):
                return self._game_view
        return None

    # -- the routes ------------------------------------------------------------------------------

    async def _submit_orders(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self._plain_body(scope):
            await self.fallback(scope, receive, send)
            return
        body = await self._read_body(receive)
        if body is None:
            return  # the client went away
        try:
            game_id = _game_id(_ORDERS_PATH.fullmatch(scope["path"]))
            if scope.get("query_string"):
                raise _FallBack
            user = self._remembered_user(scope, required=True)
            assert user is not None
            request = self._orders_in(scope, body)
        except _FallBack:
            await self.fallback(scope, _replay(body, receive), send)
            return
        service = self.service

        # the answer is made and written on the service's thread with the call (300 lines
        # of errors written on the event loop held every other request meanwhile)
        def submitted() -> bytes:
            text = request.as_text()
            phase, lines, ready, warnings, used = service.submit_orders(
                user, game_id, request.power, text, request.ready, request.phase,
                request.revision)
            writer = service.writer_of(game_id)
            wire = [line_to_wire(line, writer) for line in lines]
            accepted, errors = count_lines(wire)
            out = OrdersOut(phase=phase, power=request.power.strip().lower(), ready=ready,
                            lines=wire, accepted=accepted, errors=errors,
                            warnings=warnings, builds_used=[BuildsUsedOut(**u) for u in used],
                            revision=orders_revision(phase, text))
            return _orders_out.dump_json(out, by_alias=True)

        await self._respond(scope, send, lambda: service.call(submitted))

    async def _game_view(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            game_id = _game_id(_GAME_PATH.fullmatch(scope["path"]))
            if scope.get("query_string"):
                raise _FallBack  # an invite code: the full route reads it
            user = self._remembered_user(scope, required=False)
        except _FallBack:
            await self.fallback(scope, receive, send)
            return
        service = self.service

        def viewed() -> bytes:
            view = service.game_view(game_id, user, None)
            return _game_out.dump_json(_game_out.validate_python(view), by_alias=True)

        await self._respond(scope, send, lambda: service.call(viewed))

    async def _legal_orders(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            game_id = _game_id(_LEGAL_PATH.fullmatch(scope["path"]))
            query = parse_qsl(scope.get("query_string", b"").decode("latin-1"),
                              keep_blank_values=True, strict_parsing=True)
            if len(query) != 1 or query[0][0] != "power" \
                    or len(query[0][1]) > _POWER_MAX_CHARS:
                raise _FallBack
            power = query[0][1]
            user = self._remembered_user(scope, required=True)
            assert user is not None  # (required: a request without one falls back)
        except (_FallBack, ValueError, UnicodeDecodeError):
            await self.fallback(scope, receive, send)
            return
        service = self.service

        def listed() -> bytes:
            legal = service.legal_orders(user, game_id, power)
            writer = service.writer_of(game_id)
            return _legal_out.dump_json({loc: [order_to_wire(o, writer) for o in orders]
                                         for loc, orders in legal.items()}, by_alias=True)

        await self._respond(scope, send, lambda: service.call(listed))

    # -- the parts ---------------------------------------------------------------------------------

    def _remembered_user(self, scope: Scope, *, required: bool) -> Account | None:
        """The user of the request's bearer token when this process checked it lately; None
        without a token when none is ``required``. Anything else (no token where one is
        needed, another scheme, a token to check in the database) falls back, so the answer
        and the check are the dependencies' own (``deps.py``)."""
        authorization = _header(scope, b"authorization")
        if authorization is None:
            if required:
                raise _FallBack
            return None
        scheme, _, token = authorization.decode("latin-1").partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise _FallBack
        user = self.service.accounts.remembered(token)
        if user is None:
            raise _FallBack
        return user

    def _orders_in(self, scope: Scope, body: bytes) -> OrdersIn:
        content_type = _header(scope, b"content-type")
        if content_type is None or \
                content_type.split(b";")[0].strip().lower() != b"application/json":
            raise _FallBack
        try:
            data = strict_loads(body)
            return OrdersIn.model_validate(data)
        except (ValueError, ValidationError):  # the full route says what is wrong
            raise _FallBack from None

    def _plain_body(self, scope: Scope) -> bool:
        """True if the request declares its body's length, within the limit (otherwise the
        FastAPI application's body limit reads it and answers)."""
        declared = _header(scope, b"content-length")
        return declared is not None and declared.isdigit() \
            and int(declared) <= self.max_body_bytes \
            and _header(scope, b"transfer-encoding") is None

    @staticmethod
    async def _read_body(receive: Receive) -> bytes | None:
        """The request's body; None if the client went away."""
        chunks = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return None
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                return b"".join(chunks)

    async def _respond(self, scope: Scope, send: Send,
                       answer: Callable[[], Awaitable[bytes]]) -> None:
        """Send ``answer()``'s JSON with 200, or the error answer of what it raised: a refusal
        by the service, an engine error, or (logged) anything else."""
        status, headers = 200, None
        try:
            body = await answer()
        except ServiceError as exc:
            status, body = exc.status, json_body({"detail": exc.detail()})
            headers = exc.headers
        except RealpolitikError as exc:
            status, body = 409, json_body({"detail": {"code": "game_error",
                                                              "message": str(exc)}})
        except Exception as exc:
            status, detail, headers = failure_answer(scope, exc)
            body = json_body({"detail": detail})
        head = [(b"content-length", str(len(body)).encode()),
                (b"content-type", b"application/json")]
        if headers:
            head += [(k.lower().encode("latin-1"), v.encode("latin-1"))
                     for k, v in headers.items()]
        await send({"type": "http.response.start", "status": status,
                    "headers": head + self.extra_headers})
        await send({"type": "http.response.body", "body": body})


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` first, then whatever the connection says next."""
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if not replayed:
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
