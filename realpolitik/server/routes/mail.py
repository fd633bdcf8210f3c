"""Notifications by e-mail: one's address and choices, the link that verifies an address, and
the link in every mail that turns that kind of mail off without logging in."""

from __future__ import annotations

from html import escape
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from realpolitik.server.deps import CurrentUser, ServiceDep
from realpolitik.server.inputs import StrictJSONRoute
from realpolitik.server.schemas import Strict

router = APIRouter(tags=["notifications"], route_class=StrictJSONRoute)


class NotificationsIn(Strict):
    """What to change; what is left out stays as it was."""

    email: str | None = Field(default=None, max_length=254, examples=["ann@example.org"])
    """A new address (sent a link to verify it; no mail goes to it before), or "" for none."""
    phase: bool | None = None
    """A mail when a phase of one of your games is played."""
    reminder: bool | None = None
    """A mail when a deadline is near and your orders are not in."""
    press: bool | None = None
    """A mail when press arrives for you."""
    digest: bool | None = None
    """Phases and press together in one mail a day (``digest_hours``); reminders still come
    at once."""


class NotificationsOut(BaseModel):
    email: str | None
    verified: bool
    mail_enabled: bool
    """Whether this server sends e-mail at all (an SMTP server is configured)."""
    phase: bool
    reminder: bool
    press: bool
    digest: bool


@router.get("/me/notifications", response_model=NotificationsOut)
async def my_notifications(user: CurrentUser, service: ServiceDep) -> NotificationsOut:
    """Your e-mail address, whether it is verified, and what you get mail about."""
    return NotificationsOut(**await service.call(service.notifier.prefs, user.id))


@router.put("/me/notifications", response_model=NotificationsOut)
async def set_notifications(body: NotificationsIn, user: CurrentUser,
                            service: ServiceDep) -> NotificationsOut:
    """Change your address (a new one gets a link to verify it) or what you get mail about."""
    choices = body.model_dump(exclude_unset=True)
    return NotificationsOut(**await service.call(service.notifier.update, user.id,
                                                 user.username, choices))


def _page(title: str, text: str) -> HTMLResponse:
    return HTMLResponse(
        "<!doctype html><html lang=en><meta charset=utf-8>"
        "<meta name=viewport content='width=device-width, initial-scale=1'>"
        f"<title>{escape(title)} · realpolitik</title>"
        "<link rel=stylesheet href=/static/style.css>"
        f"<main class=card><h1>{escape(title)}</h1><p>{escape(text)}</p>"
        "<p><a href='/#/'>realpolitik</a></p></main>")


@router.get("/mail/verify", response_class=HTMLResponse, include_in_schema=False)
async def verify(service: ServiceDep,
                 token: Annotated[str, Query(max_length=100)] = "") -> HTMLResponse:
    """The link of the verification mail."""
    email = await service.call(service.notifier.verify, token)
    if email is None:
        return _page("Link not valid", "This link is unknown or more than two days old: "
                     "enter your address again under Notifications to get a new one.")
    return _page("Address verified", f"Notices of your games now go to {email}.")


@router.api_route("/mail/unsubscribe", methods=["GET", "POST"], response_class=HTMLResponse,
                  include_in_schema=False)
async def unsubscribe(service: ServiceDep, key: Annotated[str, Query(max_length=100)] = "",
                      kind: Annotated[str, Query(max_length=20)] = "all") -> HTMLResponse:
    """The link in every notification (and its one-click ``List-Unsubscribe``)."""
    email = await service.call(service.notifier.unsubscribe, key, kind)
    if email is None:
        return _page("Link not valid", "This unsubscribe link is unknown.")
    what = {"phase": "when a phase is played", "reminder": "to remind you of deadlines",
            "press": "when press arrives"}.get(kind, "at all")
    return _page("Unsubscribed", f"No more mail {what} will be sent to {email}. "
                 "You can change this under Notifications in the lobby.")
