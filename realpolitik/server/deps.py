"""Dependency providers: the service and the current user, as ``Annotated`` aliases."""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import Depends, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool

from realpolitik.server.service import Account, GameService

_bearer = HTTPBearer(auto_error=False, description="the token from /auth/signup or /auth/login")


# The providers are coroutines: FastAPI runs a plain function provider in a worker thread, a
# thread hop per provider per request; a remembered token needs no database and no thread.
async def get_service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


ServiceDep = Annotated[GameService, Depends(get_service)]
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


async def optional_user(service: ServiceDep, credentials: Credentials) -> Account | None:
    """The logged-in user, or None without a token; a bad token is refused."""
    if credentials is None:
        return None
    token = credentials.credentials
    user = service.accounts.remembered(token) or \
        await run_in_threadpool(service.accounts.authenticate, token)
    if user is None:
        raise HTTPException(401, {"code": "bad_token", "message": "the token is not valid "
                                  "(log in again)"}, headers={"WWW-Authenticate": "Bearer"})
    return user


async def current_user(user: Annotated[Account | None, Depends(optional_user)]) -> Account:
    """The logged-in user; 401 without a token."""
    if user is None:
        raise HTTPException(401, {"code": "not_logged_in", "message": "log in first: send "
                                  "'Authorization: Bearer <token>'"},
                            headers={"WWW-Authenticate": "Bearer"})
    return user


async def bearer_token(credentials: Credentials) -> str:
    if credentials is None:
        raise HTTPException(401, {"code": "not_logged_in", "message": "no token"})
    return credentials.credentials


def client_address(request: Request) -> str:
    """The client's address, for rate limits (behind a proxy, uvicorn takes it from
    ``X-Forwarded-For`` when the proxy is trusted: ``--forwarded-allow-ips``)."""
    return request.client.host if request.client else "unknown"


_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f]")


def client_agent(request: Request) -> str | None:
    """The client's ``User-Agent`` (its browser or program), printable and at most 200
    characters, to show the user their log-ins."""
    agent = request.headers.get("user-agent")
    return None if agent is None else _UNPRINTABLE.sub("", agent)[:200] or None


ClientAddress = Annotated[str, Depends(client_address)]
ClientAgent = Annotated[str | None, Depends(client_agent)]
MaybeUser = Annotated[Account | None, Depends(optional_user)]
CurrentUser = Annotated[Account, Depends(current_user)]
Token = Annotated[str, Depends(bearer_token)]
