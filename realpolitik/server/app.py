"""The ASGI application: settings, store, service, middleware, routes. Only wiring."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from starlette.concurrency import run_in_threadpool

from realpolitik.errors import RealpolitikError
from realpolitik.server import security
from realpolitik.server.bus import PgBus, SharedHub
from realpolitik.server.connections import uvicorn_limits
from realpolitik.server.daide import DaidePort
from realpolitik.server.events import Hub
from realpolitik.server.fairness import client_of, current_client
from realpolitik.server.hot import (
    ASGIApp,
    HotRoutes,
    Message,
    Receive,
    Scope,
    Send,
    failure_answer,
)
from realpolitik.server.inputs import validation_error_answer
from realpolitik.server.migrations import SchemaTooNew
from realpolitik.server.notify import mail_settings_problem
from realpolitik.server.routes import api_router, web
from realpolitik.server.service import Clock, GameService, ServiceError
from realpolitik.server.settings import Settings
from realpolitik.server.store import Store
from realpolitik.variant import (
    VARIANTS_PATH_VARIABLE,
    load_variant,
    search_folders,
    variant_folders,
    warn_of_id_clashes,
)

log = logging.getLogger("realpolitik.server")


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, whether or not they say their size.

    A body sent without a length (chunked) is read here, up to the limit, before the app sees
    it: refusing half-way through the app's own reading would surface as the app's parse error
    (400), not as 413.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = None
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                declared = value
        if declared is not None and declared.isdigit():
            if int(declared) > self.limit:
                await self._refuse(send)
                return
            await self.app(scope, receive, send)  # the server stops at the declared length
            return
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break  # the client went away; the app will see the disconnect
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                await self._refuse(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        response = JSONResponse({"detail": {"code": "too_large", "message": f"the request body "
                                            f"is limited to {self.limit} bytes"}}, 413,
                                headers={"Connection": "close"})
        await response({"type": "http"}, _no_receive, send)


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]
"""Sent with every answer: no type sniffing, no framing by other sites (clickjacking), no
addresses (game ids, invite codes in ``?invite=``) leaked to other sites in ``Referer``."""


class Guard:
    """The outermost layer of our own: adds :data:`SECURITY_HEADERS` to every answer, and turns
    an unexpected exception into a logged 500 JSON answer (503 with ``Retry-After`` when the
    database cannot be reached) *without* re-raising it, so the server keeps the connection
    open for the client's next request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = [h for h in message.get("headers", [])
                           if h[0].lower() not in {name for name, _ in SECURITY_HEADERS}]
                message["headers"] = headers + SECURITY_HEADERS
            await send(message)

        try:
            await self.app(scope, receive, with_headers)
        except Exception as exc:
            status, detail, headers = failure_answer(scope, exc)
            if started:
                raise  # half an answer is out: only closing the connection can end it
            response = JSONResponse({"detail": detail}, status, headers=headers)
            await response(scope, receive, with_headers)


SECRET_PARAMETERS = ("invite", "ticket", "token")
"""Query parameters whose values are secrets (an invite code, a WebSocket ticket, a token sent
where it should not be): the access log shows them as ``***``."""
_SECRET_VALUE = re.compile(r"([?&](?:" + "|".join(SECRET_PARAMETERS) + r")=)[^&#\s]*",
                           re.IGNORECASE)


class RedactSecrets(logging.Filter):
    """Hides :data:`SECRET_PARAMETERS` in uvicorn's access log lines (whose third argument is
    the path with its query)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str) \
                and "?" in args[2]:
            record.args = (*args[:2], _SECRET_VALUE.sub(r"\1***", args[2]), *args[3:])
        return True


def redact_access_log() -> None:
    """Install :class:`RedactSecrets` on uvicorn's access log (once per process)."""
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactSecrets) for f in access.filters):
        access.addFilter(RedactSecrets())


class ServerApp(FastAPI):
    """The FastAPI application, with the busiest routes answered first by :class:`HotRoutes`
    (which hands anything unusual back to the application)."""

    hot_routes: HotRoutes | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            current_client.set(client_of(scope))  # whose turn its service calls take
        if scope["type"] == "http" and self.hot_routes is not None:
            route = self.hot_routes.route_for(scope)
            if route is not None:
                await route(scope, receive, send)
                return
        await super().__call__(scope, receive, send)

    async def without_hot_routes(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The application as FastAPI alone answers (what :class:`HotRoutes` falls back to)."""
        await super().__call__(scope, receive, send)


async def _deadline_loop(service: GameService, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        try:
            await run_in_threadpool(service.process_due)
        except Exception:  # keep the clock running whatever happens
            log.exception("the deadline task failed")


async def _open_daide_port(service: GameService, settings: Settings) -> DaidePort | None:
    """The DAIDE port of this process, if the settings ask for one. With several workers the
    first to start holds it (the others find it taken and go without: every game is reached
    from the one that holds it, through the database)."""
    if not settings.daide_port:
        return None
    daide = DaidePort(service, settings.daide_host, settings.daide_port)
    try:
        await daide.start()
    except OSError as exc:
        log.info("DAIDE port %s:%s not opened in this process (%s): another worker holds it",
                 settings.daide_host, settings.daide_port, exc.strerror or exc)
        return None
    return daide


async def _mail_loop(service: GameService, every: float) -> None:
    """Send the mail in the outbox, apart from the deadline task: an SMTP server may take its
    time (20 seconds a step before the sending gives up), and that must delay no deadline."""
    while True:
        await asyncio.sleep(every)
        try:
            # left to finish on its own if the server stops meanwhile (it holds no lock)
            await anyio.to_thread.run_sync(service.notifier.deliver, abandon_on_cancel=True)
        except Exception:  # keep sending whatever happens
            log.exception("sending the mail failed")


def create_app(settings: Settings | None = None, *, clock: Clock | None = None) -> ServerApp:
    """The server application over ``settings.database_url`` (migrated at start-up, when every
    overdue phase is also processed). ``clock`` replaces ``time.time`` (tests)."""
    settings = settings or Settings.from_env()
    redact_access_log()
    store = Store(settings.database_url, sqlite_synchronous=settings.sqlite_synchronous)
    # over PostgreSQL this process may be one worker of several: live events and log-outs go
    # to every worker through the database (bus.py)
    hub = SharedHub() if store.postgres else Hub()
    service = GameService(store, settings, hub=hub, clock=clock or time.time)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await run_in_threadpool(store.migrate)
        await run_in_threadpool(service.accounts.purge_expired)
        await run_in_threadpool(security.dummy_hash)  # made once, before the first log-in
        bus = None
        if isinstance(hub, SharedHub):
            hub.forget_token = service.accounts.forget
            bus = PgBus(settings.database_url, hub.handlers())
            await run_in_threadpool(bus.start)
            hub.bus = bus
        processed = await run_in_threadpool(service.process_due)
        if processed:
            log.info("processed overdue phases of games %s", processed)
        tasks = [asyncio.create_task(_deadline_loop(service, settings.tick_seconds)),
                 asyncio.create_task(_mail_loop(service, settings.tick_seconds))] \
            if settings.background else []
        daide = await _open_daide_port(service, settings)
        app.state.daide_port = None if daide is None else daide.port
        try:
            yield
        finally:
            if daide is not None:
                await daide.stop()
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            if bus is not None:
                await run_in_threadpool(bus.stop)
            store.close()

    app = ServerApp(
        title="realpolitik",
        summary="A Diplomacy gamesmaster: games, orders, deadlines, press and live updates.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.service = service
    app.state.settings = settings
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(Guard)  # added last: outside the body limit, so its answers get headers
    app.add_exception_handler(RequestValidationError, validation_error_answer)

    @app.exception_handler(ServiceError)
    async def _service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse({"detail": exc.detail()}, exc.status, headers=exc.headers)

    @app.exception_handler(RealpolitikError)
    async def _engine_error(_request: Request, exc: RealpolitikError) -> JSONResponse:
        return JSONResponse({"detail": {"code": "game_error", "message": str(exc)}}, 409)

    app.include_router(api_router)
    app.include_router(web.router)  # the web page (routes/web.py)
    app.hot_routes = HotRoutes(service, app.without_hot_routes,
                               max_body_bytes=settings.max_body_bytes,
                               extra_headers=SECURITY_HEADERS)
    return app


def app_from_env() -> ServerApp:
    """The application with the settings of the environment: the factory each worker process
    calls (``uvicorn --factory realpolitik.server.app:app_from_env``)."""
    return create_app(Settings.from_env())


def variants_problem(settings: Settings) -> str | None:
    """What stops a variant of ``REALPOLITIK_VARIANTS_PATH`` from loading (the first found,
    with its folder, file and line), or None when every one loads: said at start-up, not to
    the first player who opens the lobby."""
    for folder in variant_folders(search_folders({VARIANTS_PATH_VARIABLE:
                                                  settings.variants_path})):
        try:
            load_variant(folder)
        except RealpolitikError as exc:
            return (f"{VARIANTS_PATH_VARIABLE}: the variant in {folder} cannot be loaded: "
                    f"{exc}. Correct it, or take its folder out of {VARIANTS_PATH_VARIABLE}")
    return None


class StartupError(Exception):
    """The server cannot start on its database; the message says why."""


def open_database(settings: Settings) -> None:
    """Open the database of ``settings`` and bring its schema up to date, before the server
    starts: a database it cannot use is reported at once, in a sentence, rather than as a
    traceback from a worker.

    :raises StartupError: the database cannot be opened (an SQLite file in a folder that does not
        exist, a PostgreSQL server that refuses the connection) or is newer than this program.
    """
    url = make_url(settings.database_url)
    shown = url.render_as_string(hide_password=True)
    sqlite_file = url.database if url.get_backend_name() == "sqlite" else None
    if sqlite_file and sqlite_file != ":memory:" and not sqlite_file.startswith("file:") \
            and not Path(sqlite_file).parent.is_dir():
        raise StartupError(f"cannot open the database {shown}: the folder "
                           f"{Path(sqlite_file).parent} does not exist (create it, owned by the "
                           "user the server runs as)")
    store = Store(settings.database_url, sqlite_synchronous=settings.sqlite_synchronous)
    try:
        store.migrate()
    except SchemaTooNew as exc:
        raise StartupError(str(exc)) from exc
    except DBAPIError as exc:
        raise StartupError(f"cannot open the database {shown}: "
                           f"{str(exc.orig).strip() or type(exc.orig).__name__}") from exc
    finally:
        store.close()


def serve(host: str = "127.0.0.1", port: int = 8000, database_url: str | None = None,
          *, workers: int = 1, log_level: str = "info", access_log: bool | None = None,
          daide_port: int | None = None,
          announce: Callable[[str], None] | None = None) -> None:
    """Run the server with uvicorn until interrupted (``realpolitik serve``): one process, or
    ``workers`` processes sharing the port (PostgreSQL only: SQLite is for one process).
    ``announce`` is given the server's address once the options and the database are checked,
    just before it starts.

    :raises ValueError: several workers over SQLite, or fewer than one.
    :raises StartupError: the database cannot be used (:func:`open_database`), or mail
        cannot be sent with the mail settings (:func:`.notify.mail_settings_problem`).
    """
    import uvicorn

    settings = Settings.from_env(database_url=database_url, access_log=access_log,
                                 daide_port=daide_port)
    if not 0 <= settings.daide_port <= 65535:
        raise ValueError(f"the DAIDE port is 1 to 65535 (0: none), not {settings.daide_port}")
    if workers < 1:
        raise ValueError(f"--workers must be at least 1, not {workers}")
    if workers > 1 and settings.database_url.startswith("sqlite"):
        raise ValueError("several workers need a PostgreSQL database (--database "
                         "postgresql+psycopg://...): SQLite serves one process only")
    open_database(settings)
    problem = mail_settings_problem(settings)
    if problem is not None:
        raise StartupError(f"{problem}. Mail cannot be sent with these settings: correct them, "
                           "or leave REALPOLITIK_SMTP_HOST empty to run without e-mail")
    problem = variants_problem(settings)
    if problem is not None:
        raise StartupError(problem)
    warn_of_id_clashes(search_folders({VARIANTS_PATH_VARIABLE: settings.variants_path}))
    if announce is not None:
        announce(f"http://{host}:{port}/" + (
            f", DAIDE bots on {settings.daide_host}:{settings.daide_port}"
            if settings.daide_port else ""))
    if workers == 1:
        uvicorn.run(create_app(settings), host=host, port=port, log_level=log_level,
                    access_log=settings.access_log, **uvicorn_limits())
        return
    # each worker process builds its own application from the environment
    os.environ["REALPOLITIK_DATABASE_URL"] = settings.database_url
    os.environ["REALPOLITIK_DAIDE_PORT"] = str(settings.daide_port)
    uvicorn.run("realpolitik.server.app:app_from_env", factory=True, host=host, port=port,
                workers=workers, log_level=log_level, access_log=settings.access_log,
                **uvicorn_limits())
