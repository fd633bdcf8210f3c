"""Notifications by e-mail, sent to a real SMTP server (aiosmtpd) on a loopback port and read
back from it: verification first, then phases, press and deadline reminders as each player
chose, unsubscribe links that work without logging in, digests, and never a mail to an
address its owner has not verified."""

from __future__ import annotations

import contextlib
import dataclasses
import email
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
aiosmtpd_controller = pytest.importorskip("aiosmtpd.controller")

from fastapi.testclient import TestClient  # noqa: E402

from realpolitik.server import Settings, create_app  # noqa: E402
from realpolitik.server.notify import mail_settings_problem  # noqa: E402

Headers = dict[str, str]
SITE = "https://dip.example.org"


class Inbox:
    """What the SMTP server received."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.raw: list[bytes] = []
        """Each message as it came over the wire (its headers as a mail program reads them)."""
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        message = email.message_from_bytes(envelope.content, policy=default)
        assert isinstance(message, EmailMessage)
        with self.lock:
            self.messages.append(message)
            self.raw.append(bytes(envelope.content))
        return "250 OK"

    def take(self) -> list[EmailMessage]:
        with self.lock:
            taken, self.messages = self.messages, []
        return taken


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    handler = Inbox()
    controller = aiosmtpd_controller.Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(database_url: str, inbox: tuple[Inbox, int], clock: Clock) -> Iterator[TestClient]:
    settings = Settings(database_url=database_url, background=False, smtp_host="127.0.0.1",
                        smtp_port=inbox[1], public_url=SITE, mail_from="Diplomacy <gm@example.org>")
    with TestClient(create_app(settings, clock=clock)) as c:
        yield c


def sign_up(client: TestClient, name: str) -> Headers:
    r = client.post("/auth/signup", json={"username": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def tick(client: TestClient) -> None:
    """The background tasks' turn: the deadline task's (deadlines, reminders into the outbox),
    then the mail task's (sending)."""
    service = client.app.state.service  # type: ignore[attr-defined]
    service.process_due()
    service.notifier.deliver()


def body(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    assert part is not None
    return str(part.get_content())


def link(message: EmailMessage, path: str) -> str:
    found = re.search(re.escape(SITE) + re.escape(path) + r"[^\s>]*", body(message))
    assert found, body(message)
    return found.group().removeprefix(SITE)


@pytest.fixture
def game(client: TestClient) -> tuple[int, Headers, Headers]:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    r = client.post("/games", json={"name": "Weekly", "players": "2", "join_as": "england"},
                    headers=alice)
    game_id = int(r.json()["id"])
    assert client.post(f"/games/{game_id}/join", json={"power": "germany"},
                       headers=bob).status_code == 200
    return game_id, alice, bob


def test_mail_goes_only_to_verified_addresses_as_each_player_chose(
        client: TestClient, inbox: tuple[Inbox, int], clock: Clock,
        game: tuple[int, Headers, Headers]) -> None:
    mailbox, _ = inbox
    game_id, alice, bob = game
    assert client.get("/me/notifications", headers=alice).json() == {
        "email": None, "verified": False, "mail_enabled": True,
        "phase": True, "reminder": True, "press": False, "digest": False}
    bad = client.put("/me/notifications", json={"email": "not an address"}, headers=alice)
    assert bad.status_code == 422 and bad.json()["detail"]["code"] == "bad_email"
    r = client.put("/me/notifications", json={"email": "alice@example.org", "press": True},
                   headers=alice)
    assert r.json()["verified"] is False and r.json()["press"] is True
    # bob gives an address and never verifies it
    client.put("/me/notifications", json={"email": "bob@example.org", "press": True},
               headers=bob)

    # before the links are followed: press and a phase, and only the two verification mails
    client.post(f"/games/{game_id}/press", json={"to": ["england"], "body": "early"},
                headers=bob)
    tick(client)
    first = mailbox.take()
    assert sorted(m["To"] for m in first) == ["alice@example.org", "bob@example.org"]
    assert all("Confirm your e-mail address" in m["Subject"] for m in first)
    verify = link(next(m for m in first if m["To"] == "alice@example.org"), "/mail/verify")
    page = client.get(verify)
    assert page.status_code == 200 and "Address verified" in page.text
    assert client.get(verify).status_code == 200  # a second visit: the link is spent
    assert "not valid" in client.get(verify).text
    assert client.get("/me/notifications", headers=alice).json()["verified"] is True

    # press to England: alice hears of it (its start, a link to the game, a way out)
    long_body = "Let us talk about the North Sea. " * 40
    client.post(f"/games/{game_id}/press",
                json={"sender": "germany", "to": ["england"], "body": long_body}, headers=bob)
    tick(client)
    (press,) = mailbox.take()
    assert press["To"] == "alice@example.org"
    assert press["From"] == "Diplomacy <gm@example.org>"
    assert press["Subject"] == "Weekly: a message from Germany"
    text = body(press)
    assert "Let us talk about the North Sea." in text and "[...]" in text
    assert f"{SITE}/#/game/{game_id}" in text
    assert press["List-Unsubscribe"].startswith(f"<{SITE}/mail/unsubscribe?key=")
    assert press["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    # a phase is played: a mail to alice (verified, wants phases), none to bob (unverified)
    client.post(f"/games/{game_id}/gm/process", headers=alice)
    tick(client)
    mails = mailbox.take()
    subjects = {m["Subject"]: m for m in mails}
    assert "Weekly: Spring 1914 movement played, now Fall 1914 movement" in subjects, subjects
    assert {m["To"] for m in mails} == {"alice@example.org"}

    # the deadline is near and alice's orders are not in: one reminder, not two
    assert any("orders due in" in s for s in subjects), subjects
    tick(client)
    assert mailbox.take() == []
    client.put(f"/games/{game_id}/orders", json={"power": "england", "text": "F Lon-Nth"},
               headers=alice)

    # the unsubscribe link turns press mail off, without logging in
    out = client.get(link(press, "/mail/unsubscribe"))
    assert out.status_code == 200 and "No more mail when press arrives" in out.text
    client.post(f"/games/{game_id}/press", json={"to": ["england"], "body": "again"},
                headers=bob)
    tick(client)
    assert mailbox.take() == []
    assert client.get("/me/notifications", headers=alice).json()["press"] is False
    assert "unknown" in client.get("/mail/unsubscribe?key=nope&kind=press").text


def test_a_digest_gathers_the_phases_into_one_mail_a_day(
        client: TestClient, inbox: tuple[Inbox, int], clock: Clock,
        game: tuple[int, Headers, Headers]) -> None:
    mailbox, _ = inbox
    game_id, alice, bob = game
    client.put("/me/notifications", json={"email": "alice@example.org", "digest": True,
                                          "reminder": False}, headers=alice)
    tick(client)
    verify = link(mailbox.take()[0], "/mail/verify")
    client.get(verify)
    for _ in range(2):  # two phases played by the gamesmaster
        client.post(f"/games/{game_id}/gm/process", headers=alice)
        tick(client)
    assert mailbox.take() == []  # waiting for the day's digest
    clock.now += 24 * 3600 + 1
    client.post(f"/games/{game_id}/gm/pause", headers=alice)  # no deadline passes meanwhile
    tick(client)
    (digest,) = mailbox.take()
    assert digest["Subject"] == "realpolitik: 2 notices since your last digest"
    text = body(digest)
    assert "Spring 1914 movement played" in text and "Fall 1914 movement played" in text
    assert "kind=all" in digest["List-Unsubscribe"]


def test_no_smtp_server_no_mail(database_url: str) -> None:
    with TestClient(create_app(Settings(database_url=database_url, background=False))) as c:
        who = sign_up(c, "carol")
        answer = c.put("/me/notifications", json={"email": "carol@example.org"}, headers=who)
        assert answer.json()["mail_enabled"] is False


def test_headers_on_the_wire_are_what_mail_programs_read(
        client: TestClient, inbox: tuple[Inbox, int], game: tuple[int, Headers, Headers]) -> None:
    """The unsubscribe URL goes out as a plain <URL> (it was folded into encoded words,
    '=?utf-8?q?=3Chttps...', which no mail program reads as a link); every mail has a Date
    and a Message-ID; a reminder names the phase as people do."""
    mailbox, _ = inbox
    game_id, alice, _ = game
    client.put("/me/notifications", json={"email": "alice@example.org"}, headers=alice)
    tick(client)
    (verification,) = mailbox.take()
    client.get(link(verification, "/mail/verify"))
    mailbox.raw.clear()
    client.post(f"/games/{game_id}/gm/process", headers=alice)
    tick(client)
    mails = mailbox.take()
    reminder = next(m for m in mails if "orders due in" in m["Subject"])
    assert "(Fall 1914 movement)" in body(reminder)
    assert len(mailbox.raw) == len(mails) == 2
    for raw in mailbox.raw:
        headers = raw.split(b"\r\n\r\n", 1)[0].decode("ascii").replace("\r\n", "\n")
        assert re.search(r"^List-Unsubscribe: <https://dip\.example\.org/mail/unsubscribe"
                         r"\?key=[^>\s]+&kind=(phase|reminder)>$", headers, re.M), headers
        assert "=?" not in headers
        assert re.search(r"^Date: \w{3}, \d+ \w{3} \d{4} ", headers, re.M), headers
        assert re.search(r"^Message-ID: <[^>]+@example\.org>$", headers, re.M), headers


class BlackHole:
    """A server that takes connections and never says a word (an SMTP server that hangs)."""

    def __init__(self) -> None:
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen()
        self.port = int(self.listener.getsockname()[1])
        self.taken: list[socket.socket] = []
        self.connected = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                connection, _ = self.listener.accept()
                self.taken.append(connection)
                self.connected.set()

    def close(self) -> None:
        for connection in [*self.taken, self.listener]:
            connection.close()


@pytest.fixture
def black_hole() -> Iterator[BlackHole]:
    hole = BlackHole()
    try:
        yield hole
    finally:
        hole.close()


def test_a_slow_smtp_server_never_holds_a_deadline(database_url: str,
                                                   black_hole: BlackHole) -> None:
    """The mail is sent by a task of its own: while the SMTP server keeps the sending waiting
    (it would give up after 20 seconds), the deadline task goes on and plays the phase that is
    due (it once waited for the mail, a turn of 20 seconds)."""
    clock = Clock()
    settings = Settings(database_url=database_url, tick_seconds=0.05, smtp_host="127.0.0.1",
                        smtp_port=black_hole.port, public_url=SITE)
    with TestClient(create_app(settings, clock=clock)) as c:
        alice, bob = sign_up(c, "alice"), sign_up(c, "bob")
        c.put("/me/notifications", json={"email": "alice@example.org"}, headers=alice)
        assert black_hole.connected.wait(5)  # the verification mail is being sent: it hangs
        game = int(c.post("/games", json={"name": "Weekly", "players": "2",
                                          "join_as": "england"}, headers=alice).json()["id"])
        c.post(f"/games/{game}/join", json={"power": "germany"}, headers=bob)
        assert c.get(f"/games/{game}").json()["phase"] == "S1914M"
        clock.now += 31 * 60  # past the first deadline
        started = time.monotonic()
        while c.get(f"/games/{game}").json()["phase"] == "S1914M":
            assert time.monotonic() - started < 5, "the deadline waited for the mail"
            time.sleep(0.05)
        assert c.get(f"/games/{game}").json()["phase"] == "F1914M"


def test_the_mail_settings_are_checked_as_the_sending_will_use_them(
        inbox: tuple[Inbox, int], black_hole: BlackHole) -> None:
    _, port = inbox
    good = Settings(smtp_host="127.0.0.1", smtp_port=port, public_url=SITE)
    assert mail_settings_problem(good) is None
    assert mail_settings_problem(Settings()) is None  # no SMTP server: no mail, nothing to check
    wrong = {
        "smtp_port": (70000, "REALPOLITIK_SMTP_PORT=70000 is not a port (1 to 65535)"),
        "mail_from": ("realpolitik", "REALPOLITIK_MAIL_FROM='realpolitik' has no e-mail "
                      "address to send from"),
        "public_url": ("dip.example.org", "REALPOLITIK_PUBLIC_URL='dip.example.org' is not an "
                       "http:// or https:// address"),
    }
    for name, (value, said) in wrong.items():
        problem = mail_settings_problem(dataclasses.replace(good, **{name: value}))
        assert problem is not None and problem.startswith(said), problem
    both = mail_settings_problem(dataclasses.replace(good, smtp_ssl=True, smtp_starttls=True))
    assert both is not None and "choose one" in both
    # the server is asked: no STARTTLS here, no log-in here, nothing listening there, silence
    starttls = mail_settings_problem(dataclasses.replace(good, smtp_starttls=True))
    assert starttls is not None and starttls.startswith(
        f"the SMTP server 127.0.0.1:{port} (REALPOLITIK_SMTP_HOST, _PORT) cannot do what the "
        "settings ask: STARTTLS extension not supported by server")
    login = mail_settings_problem(dataclasses.replace(good, smtp_user="dip"))
    assert login is not None and "SMTP AUTH extension not supported" in login
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = int(s.getsockname()[1])
    refused = mail_settings_problem(dataclasses.replace(good, smtp_port=closed))
    assert refused == (f"cannot reach the SMTP server 127.0.0.1:{closed} (REALPOLITIK_SMTP_HOST, "
                       "_PORT): Connection refused")
    silent = mail_settings_problem(dataclasses.replace(good, smtp_port=black_hole.port),
                                   timeout=0.5)
    assert silent == (f"the SMTP server 127.0.0.1:{black_hole.port} (REALPOLITIK_SMTP_HOST, "
                      "_PORT) did not answer within 0.5 seconds")


def test_serve_refuses_to_start_with_mail_settings_that_cannot_work(tmp_path: Path) -> None:
    """``realpolitik serve`` says what is wrong with the mail settings when it starts, in a
    line, and exits (not at the first mail, hours later, in the log)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = int(s.getsockname()[1])
    env = {**os.environ, "REALPOLITIK_SMTP_HOST": "127.0.0.1",
           "REALPOLITIK_SMTP_PORT": str(closed)}
    done = subprocess.run(
        [sys.executable, "-m", "realpolitik", "serve", "--port", "0", "--database",
         f"sqlite:///{tmp_path / 'x.db'}"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 3, done.stderr
    assert "Traceback" not in done.stderr
    assert (f"cannot reach the SMTP server 127.0.0.1:{closed} (REALPOLITIK_SMTP_HOST, _PORT): "
            "Connection refused. Mail cannot be sent with these settings") in done.stderr
