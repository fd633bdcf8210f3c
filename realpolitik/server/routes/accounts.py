"""Sign-up, log-in, log-out, who am I; changing the password, the log-ins of an account and
ending them."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from realpolitik.server.deps import ClientAddress, ClientAgent, CurrentUser, ServiceDep, Token
from realpolitik.server.inputs import StrictJSONRoute
from realpolitik.server.schemas import (
    Credentials,
    Ok,
    PasswordChange,
    RevokedOut,
    SessionOut,
    TicketOut,
    TokenOut,
    UserOut,
)

router = APIRouter(prefix="/auth", tags=["accounts"], route_class=StrictJSONRoute)


@router.post("/signup", response_model=TokenOut, status_code=201)
async def sign_up(body: Credentials, service: ServiceDep, client: ClientAddress,
                  agent: ClientAgent) -> TokenOut:
    """Create an account and get a bearer token. A password has 8 characters or more and is
    not easy to guess (common passwords, words and patterns are refused: 422
    ``weak_password`` says why). Sign-ups per client address are limited (429), and so are
    sign-ups that find their name taken (409 ``username_taken``)."""
    account, token = await service.accounts.sign_up(body.username, body.password, client, agent)
    return TokenOut(token=token, user_id=account.id, username=account.username)


@router.post("/login", response_model=TokenOut)
async def log_in(body: Credentials, service: ServiceDep, client: ClientAddress,
                 agent: ClientAgent) -> TokenOut:
    """Get a new bearer token. Failed attempts are limited per account and client address
    together, and per client address (429 with ``Retry-After``); an account that failed often
    from everywhere answers a little later, but is never locked."""
    account, token = await service.accounts.log_in(body.username, body.password, client, agent)
    return TokenOut(token=token, user_id=account.id, username=account.username)


@router.post("/logout", response_model=Ok)
async def log_out(token: Token, service: ServiceDep) -> Ok:
    """Forget the token used for this request."""
    await service.call(service.accounts.log_out, token)
    return Ok()


@router.post("/logout-everywhere", response_model=RevokedOut)
async def log_out_everywhere(user: CurrentUser, service: ServiceDep) -> RevokedOut:
    """End every log-in of your account, this one too (a token that leaked stops working, and
    every live connection opened with one closes)."""
    return RevokedOut(revoked=await service.call(service.accounts.log_out_everywhere, user))


@router.post("/password", response_model=RevokedOut)
async def change_password(body: PasswordChange, user: CurrentUser, token: Token,
                          service: ServiceDep, client: ClientAddress) -> RevokedOut:
    """Change your password (the current one is checked: a wrong one counts as a failed
    log-in); every other log-in of your account ends, this one goes on."""
    revoked = await service.accounts.change_password(user, token, body.current_password,
                                                     body.new_password, client)
    return RevokedOut(revoked=revoked)


@router.get("/sessions", response_model=list[SessionOut])
async def sessions(user: CurrentUser, token: Token, service: ServiceDep) -> list[SessionOut]:
    """Your log-ins still valid, the newest first: when, from which address and browser, and
    which is this one."""
    return [SessionOut(**s) for s in await service.call(service.accounts.sessions, user, token)]


@router.delete("/sessions/{session_id}", response_model=Ok)
async def end_session(session_id: Annotated[str, Path(max_length=64)], user: CurrentUser,
                      service: ServiceDep) -> Ok:
    """End one of your log-ins (its ``id`` from ``GET /auth/sessions``)."""
    await service.call(service.accounts.end_session, user, session_id)
    return Ok()


@router.post("/ticket", response_model=TicketOut)
async def ticket(user: CurrentUser, token: Token, service: ServiceDep) -> TicketOut:
    """A single-use ticket for one WebSocket connection (``/games/{id}/ws?ticket=``), valid for
    ``expires_in`` seconds: the bearer token itself never goes into a URL."""
    code = await service.call(service.accounts.issue_ticket, user, token)
    return TicketOut(ticket=code, expires_in=service.settings.ticket_seconds)


@router.get("/me", response_model=UserOut)
async def me(user: CurrentUser) -> UserOut:
    """The logged-in user."""
    return UserOut(id=user.id, username=user.username)
