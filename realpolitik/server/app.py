"""The ASGI application: settings, store, service, middleware, routes. Only wiring."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from realpolitik.errors import RealpolitikError
from realpolitik.server.routes import api_router, web
from realpolitik.server.service import Clock, GameService, ServiceError
from realpolitik.server.settings import Settings
from realpolitik.server.store import Store

log = logging.getLogger("realpolitik.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, whether or not they say their size."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await self._refuse(send)
                return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge
            return message

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        response = JSONResponse({"detail": {"code": "too_large", "message": f"the request body "
                                            f"is limited to {self.limit} bytes"}}, 413)
        await response({"type": "http"}, _no_receive, send)


class _TooLarge(Exception):
    pass


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


async def _deadline_loop(service: GameService, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        try:
            await run_in_threadpool(service.process_due)
        except Exception:  # keep the clock running whatever happens
            log.exception("the deadline task failed")


def create_app(settings: Settings | None = None, *, clock: Clock | None = None) -> FastAPI:
    """The server application over ``settings.database_url`` (migrated at start-up, when every
    overdue phase is also processed). ``clock`` replaces ``time.time`` (tests)."""
    settings = settings or Settings.from_env()
    store = Store(settings.database_url)
    service = GameService(store, settings, clock=clock) if clock else GameService(store, settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await run_in_threadpool(store.migrate)
        processed = await run_in_threadpool(service.process_due)
        if processed:
            log.info("processed overdue phases of games %s", processed)
        task = asyncio.create_task(_deadline_loop(service, settings.tick_seconds)) \
            if settings.background else None
        try:
            yield
        finally:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            store.close()

    app = FastAPI(
        title="realpolitik",
        summary="A Diplomacy gamesmaster: games, orders, deadlines, press and live updates.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.service = service
    app.state.settings = settings
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)

    @app.exception_handler(ServiceError)
    async def _service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse({"detail": exc.detail()}, exc.status)

    @app.exception_handler(RealpolitikError)
    async def _engine_error(_request: Request, exc: RealpolitikError) -> JSONResponse:
        return JSONResponse({"detail": {"code": "game_error", "message": str(exc)}}, 409)

    app.include_router(api_router)
    app.include_router(web.router)  # the web page (routes/web.py)
    return app


def serve(host: str = "127.0.0.1", port: int = 8000, database_url: str | None = None,
          *, log_level: str = "info") -> None:
    """Run the server with uvicorn until interrupted (``realpolitik serve``)."""
    import uvicorn

    settings = Settings.from_env(database_url=database_url)
    uvicorn.run(create_app(settings), host=host, port=port, log_level=log_level)
