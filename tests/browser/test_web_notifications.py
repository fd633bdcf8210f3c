"""Issue 32, item 7, on the page: a player gives an e-mail address under Notifications, the
server (with an SMTP server, aiosmtpd here) sends the link, and the page then says mail goes
there; the Game tab offers browser notifications for phases, press and deadlines."""

from __future__ import annotations

import email
import os
import re
import socket
import time
from collections.abc import Iterator
from email.policy import default
from typing import Any

import pytest
from test_web_lossless import account, open_context

pytestmark = pytest.mark.browser
controller = pytest.importorskip("aiosmtpd.controller")


class Inbox:
    def __init__(self) -> None:
        self.messages: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        self.messages.append(email.message_from_bytes(envelope.content, policy=default))
        return "250 OK"


@pytest.fixture(scope="module")
def inbox() -> Iterator[Inbox]:
    """An SMTP server, named to the module's web server through its environment."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    handler = Inbox()
    smtp = controller.Controller(handler, hostname="127.0.0.1", port=port)
    smtp.start()
    names = {"REALPOLITIK_SMTP_HOST": "127.0.0.1", "REALPOLITIK_SMTP_PORT": str(port),
             "REALPOLITIK_PUBLIC_URL": "http://dip.test"}
    before = {k: os.environ.get(k) for k in names}
    os.environ.update(names)
    try:
        yield handler
    finally:
        for key, value in before.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        smtp.stop()


def test_an_address_is_verified_by_its_link(inbox: Inbox, browser: Any, server: Any) -> None:
    who = account(server, "nora")
    page = open_context(browser, who).new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#notify-form")
    assert "No address: no mail." in page.inner_text("#notify-state")
    page.fill("#notify-email", "nora@example.org")
    page.check("#notify-form input[name=press]")
    page.click("#notify-form button[type=submit]")
    page.wait_for_selector("#notify-state:has-text('A link was sent to nora@example.org')")
    for _ in range(100):  # the server's background task sends it (every half second here)
        if inbox.messages:
            break
        time.sleep(0.1)
    (mail,) = inbox.messages
    assert mail["To"] == "nora@example.org"
    found = re.search(r"http://dip\.test(/mail/verify\?token=\S+)", mail.get_body().get_content())
    assert found
    page.goto(server.url + found.group(1))
    assert "Address verified" in page.inner_text("h1")
    page.goto(server.url + "/")
    page.wait_for_selector("#notify-state:has-text('Mail goes to nora@example.org (verified)')")
    assert page.is_checked("#notify-form input[name=press]")
    prefs = server.api("GET", "/me/notifications", None, who["token"])
    assert prefs["verified"] and prefs["press"] and prefs["phase"]
