"""Sign-up, log-in, log-out, who am I."""

from __future__ import annotations

from fastapi import APIRouter

from realpolitik.server.deps import CurrentUser, ServiceDep, Token
from realpolitik.server.inputs import StrictJSONRoute
from realpolitik.server.schemas import Credentials, Ok, TokenOut, UserOut

router = APIRouter(prefix="/auth", tags=["accounts"], route_class=StrictJSONRoute)


@router.post("/signup", response_model=TokenOut, status_code=201)
def sign_up(body: Credentials, service: ServiceDep) -> TokenOut:
    """Create an account (passwords of 8 characters or more) and get a bearer token."""
    account, token = service.accounts.sign_up(body.username, body.password)
    return TokenOut(token=token, user_id=account.id, username=account.username)


@router.post("/login", response_model=TokenOut)
def log_in(body: Credentials, service: ServiceDep) -> TokenOut:
    """Get a new bearer token."""
    account, token = service.accounts.log_in(body.username, body.password)
    return TokenOut(token=token, user_id=account.id, username=account.username)


@router.post("/logout", response_model=Ok)
def log_out(token: Token, service: ServiceDep) -> Ok:
    """Forget the token used for this request."""
    service.accounts.log_out(token)
    return Ok()


@router.get("/me", response_model=UserOut)
def me(user: CurrentUser) -> UserOut:
    """The logged-in user."""
    return UserOut(id=user.id, username=user.username)
