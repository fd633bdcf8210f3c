"""Sign-up, log-in, log-out, who am I."""

from __future__ import annotations

from fastapi import APIRouter

from realpolitik.server.deps import ClientAddress, CurrentUser, ServiceDep, Token
from realpolitik.server.inputs import StrictJSONRoute
from realpolitik.server.schemas import Credentials, Ok, TicketOut, TokenOut, UserOut

router = APIRouter(prefix="/auth", tags=["accounts"], route_class=StrictJSONRoute)


@router.post("/signup", response_model=TokenOut, status_code=201)
async def sign_up(body: Credentials, service: ServiceDep, client: ClientAddress) -> TokenOut:
    """Create an account (passwords of 8 characters or more) and get a bearer token. Sign-ups
    per client address are limited (429)."""
    account, token = await service.accounts.sign_up(body.username, body.password, client)
    return TokenOut(token=token, user_id=account.id, username=account.username)


@router.post("/login", response_model=TokenOut)
async def log_in(body: Credentials, service: ServiceDep, client: ClientAddress) -> TokenOut:
    """Get a new bearer token. Failed attempts are limited per account and per client address
    (429 with ``Retry-After``)."""
    account, token = await service.accounts.log_in(body.username, body.password, client)
    return TokenOut(token=token, user_id=account.id, username=account.username)


@router.post("/logout", response_model=Ok)
def log_out(token: Token, service: ServiceDep) -> Ok:
    """Forget the token used for this request."""
    service.accounts.log_out(token)
    return Ok()


@router.post("/ticket", response_model=TicketOut)
def ticket(user: CurrentUser, token: Token, service: ServiceDep) -> TicketOut:
    """A single-use ticket for one WebSocket connection (``/games/{id}/ws?ticket=``), valid for
    ``expires_in`` seconds: the bearer token itself never goes into a URL."""
    code = service.accounts.issue_ticket(user, token)
    return TicketOut(ticket=code, expires_in=service.settings.ticket_seconds)


@router.get("/me", response_model=UserOut)
def me(user: CurrentUser) -> UserOut:
    """The logged-in user."""
    return UserOut(id=user.id, username=user.username)
