"""Issue 34, reliability round two: each attack of the report, reproduced against the server
(on SQLite, and on PostgreSQL with ``--database postgres``), and the accounts a user can
secure. The numbers in the test names are the items of the issue."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import random
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402
from live_server import LiveServer  # noqa: E402
from postgres import postgres_bin, throwaway_postgres  # noqa: E402
from test_server import FakeClock, create, join, make_client, orders, sign_up  # noqa: E402

from realpolitik.server import Settings, create_app  # noqa: E402
from realpolitik.server.inputs import MAX_JSON_DEPTH, nesting_too_deep  # noqa: E402
from realpolitik.server.values import Account  # noqa: E402

Headers = dict[str, str]
HEADER_NAMES = {"x-content-type-options", "content-security-policy", "x-frame-options"}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def client(database_url: str, clock: FakeClock) -> Iterator[TestClient]:
    with make_client(database_url, clock) as c:
        yield c


def raw(client: TestClient, method: str, path: str, body: str | bytes,
        headers: Headers | None = None, content_type: str | None = "application/json") -> Any:
    sent = dict(headers or {})
    if content_type is not None:
        sent["Content-Type"] = content_type
    return client.request(method, path, content=body, headers=sent)


def started_two_player(client: TestClient) -> tuple[int, Headers, Headers]:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    game = create(client, alice, players="2", join_as="england")
    join(client, bob, game, "germany")
    return game, alice, bob


# -- 1: deep JSON nesting ------------------------------------------------------------------------

@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 482, 5000])
def test_1_deep_nesting_is_422_on_every_json_route(client: TestClient, depth: int,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    game, alice, _ = started_two_player(client)
    nested = "[" * depth + "]" * depth
    caplog.set_level(logging.WARNING)
    for method, path, body, headers in [
        ("POST", "/auth/login", f'{{"username": "a", "password": {nested}}}', {}),
        ("POST", "/auth/signup", f'{{"username": "zed", "password": {nested}}}', {}),
        ("PUT", f"/games/{game}/orders", f'{{"power": "england", "text": {nested}}}', alice),
        ("POST", f"/games/{game}/press", f'{{"body": {nested}}}', alice),
    ]:
        for content_type in ("application/json", None):  # FastAPI reads an unlabelled body too
            r = raw(client, method, path, body, headers, content_type)
            assert r.status_code == 422, (path, r.status_code, r.text[:300])
            assert set(r.headers) >= HEADER_NAMES, path
            assert len(r.content) < 2000  # the answer does not quote the input back
    assert not [rec for rec in caplog.records if rec.levelno >= logging.ERROR]


def test_1_nesting_is_measured_linearly_and_strings_do_not_count() -> None:
    assert not nesting_too_deep('{"a": "' + "[" * 10_000 + '"}')
    assert nesting_too_deep("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1))
    assert not nesting_too_deep("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH)
    assert not nesting_too_deep("[[1],[2],[3]]" * 1000)  # many brackets, shallow
    assert not nesting_too_deep(r'["\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["]')


# -- 2: the order text reader is bounded; no request's work on the event loop -----------------

def test_2_the_longest_submission_of_junk_is_read_and_kept(client: TestClient) -> None:
    game, alice, _ = started_two_player(client)
    text = "x\n" * 3999
    r = client.put(f"/games/{game}/orders", json={"power": "england", "text": text},
                   headers=alice)
    assert r.status_code == 200, r.text[:300]
    answer = r.json()
    assert answer["accepted"] == 0 and 0 < answer["errors"] <= 301
    assert "more than 300 orders" in answer["lines"][-1]["error"]["message"]
    kept = client.get(f"/games/{game}/orders", headers=alice).json()["england"]
    assert kept["text"] == text  # nothing typed is lost


def test_2_service_calls_run_off_the_event_loop(database_url: str) -> None:
    app = create_app(Settings(database_url=database_url, background=False))
    service = app.state.service

    async def where() -> tuple[int, int]:
        return threading.get_ident(), await service.call(threading.get_ident)

    loop_thread, call_thread = asyncio.run(where())
    assert loop_thread != call_thread
    service.store.close()


# -- 3: nothing kept for game ids that do not exist -------------------------------------------

def test_3_asking_about_many_game_ids_leaves_nothing_behind(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    service = client.app.state.service  # type: ignore[attr-defined]
    rng = random.Random(3)
    for _ in range(300):
        game = rng.randrange(10_000, 2**62)
        r = client.put(f"/games/{game}/orders", json={"power": "france", "text": "A Par H"},
                       headers=alice)
        assert r.status_code == 404
        assert client.get(f"/games/{game}").status_code == 404
        assert client.get(f"/games/{game}/press").status_code == 404
    gc.collect()
    assert len(service._order_times) == 0
    assert len(service._locks) == 0


def test_3_order_rate_entries_expire(client: TestClient, clock: FakeClock) -> None:
    game, alice, _ = started_two_player(client)
    service = client.app.state.service  # type: ignore[attr-defined]
    orders(client, alice, game, "england", "F Lon H")
    assert len(service._order_times) == 1
    clock.advance(61)
    orders(client, alice, game, "england", "F Lon H")  # sweeps the old entries first
    clock.advance(61)
    service._check_rate(Account(1, "alice"), game + 1)
    assert set(service._order_times) == {(1, game + 1)}


# -- 5: WebSockets per address -------------------------------------------------------------------

def test_5_live_connections_per_address_are_limited(database_url: str,
                                                    clock: FakeClock) -> None:
    from starlette.websockets import WebSocketDisconnect

    with make_client(database_url, clock, sockets_per_client=2) as client:
        game, _, _ = started_two_player(client)
        service = client.app.state.service  # type: ignore[attr-defined]
        with client.websocket_connect(f"/games/{game}/ws") as first, \
                client.websocket_connect(f"/games/{game}/ws") as second:
            assert first.receive_json()["type"] == "hello"
            assert second.receive_json()["type"] == "hello"
            with client.websocket_connect(f"/games/{game}/ws") as third, \
                    pytest.raises(WebSocketDisconnect) as closed:
                third.receive_json()
            assert closed.value.code == 1008
            assert len(service.sockets) == 1
        # closed: the address's entry is gone, and a new connection is let in
        with client.websocket_connect(f"/games/{game}/ws") as again:
            assert again.receive_json()["type"] == "hello"
    assert len(service.sockets) == 0


# -- 6: NUL characters ---------------------------------------------------------------------------

def test_6_a_nul_character_is_422_everywhere(client: TestClient) -> None:
    game, alice, _ = started_two_player(client)
    for method, path, body, headers in [
        ("POST", "/auth/login", {"username": "a\u0000b", "password": "whatever one"}, {}),
        ("POST", "/auth/signup", {"username": "a\u0000b", "password": "correct horse"}, {}),
        ("POST", "/games", {"name": "nul\u0000game"}, alice),
        ("POST", f"/games/{game}/press", {"body": "hello\u0000"}, alice),
        ("PUT", f"/games/{game}/orders", {"power": "england", "text": "F Lon\u0000H"}, alice),
        ("POST", "/auth/login", {"user\u0000name": "a", "password": "whatever one"}, {}),
    ]:
        r = client.request(method, path, json=body, headers=headers)
        assert r.status_code == 422, (path, r.status_code, r.text)
        assert "NUL" in r.text


# -- 7: large counters ---------------------------------------------------------------------------

def test_7_counters_beyond_32_bits_are_answered(client: TestClient) -> None:
    game, alice, _ = started_two_player(client)
    for query in ("2147483648", str(2**63 - 1)):
        assert client.get(f"/games/{game}/history?since={query}").json() == []
        assert client.get(f"/games/{game}/press?after={query}").json() == []
        r = client.get(f"/games/{game}/turn?power=england&since={query}&press_after={query}",
                       headers=alice)
        assert r.status_code == 200, r.text
        assert r.json()["results"] == [] and r.json()["press"] == []
    for name in ("since", "press_after"):
        r = client.get(f"/games/{game}/turn?power=england&{name}=9223372036854775808",
                       headers=alice)
        assert r.status_code == 422, r.text


# -- 8, 9 ----------------------------------------------------------------------------------------

def test_8_turn_without_power_for_several_powers_says_which_is_needed(
        client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    game = create(client, alice, players="3", join_as="england")  # England, France, Germany
    join(client, bob, game, "russia")
    r = client.get(f"/games/{game}/turn", headers=alice)
    assert r.status_code == 422, r.text
    assert r.json()["detail"]["code"] == "which_power"
    assert client.get(f"/games/{game}/turn", headers=bob).status_code == 200


def test_9_a_nul_in_a_static_path_is_404(client: TestClient) -> None:
    for path in ("/static/%00", "/static/app.js%00.png", "/static/%00app.js"):
        r = client.get(path)
        assert r.status_code == 404, (path, r.text)


# -- 10: the lobby -------------------------------------------------------------------------------

def test_10_empty_games_cannot_hide_the_others(database_url: str, clock: FakeClock) -> None:
    with make_client(database_url, clock, forming_games_per_user=3) as client:
        alice, bob, spammer = (sign_up(client, n) for n in ("alice", "bob", "spammer"))
        real = create(client, alice, players="2", join_as="england")
        join(client, bob, real, "germany")
        for _ in range(3):
            create(client, spammer)
        r = client.post("/games", json={"name": "one more"}, headers=spammer)
        assert r.status_code == 429 and r.json()["detail"]["code"] == "too_many_games"
        listed = client.get("/games").json()
        assert listed[0]["id"] == real  # the game with players first, though older
        assert [g["id"] for g in client.get("/games?limit=2&offset=1").json()] == \
            [g["id"] for g in listed[1:3]]


# -- 11: press is paged --------------------------------------------------------------------------

def test_11_press_comes_in_pages_of_what_the_reader_may_read(client: TestClient) -> None:
    game, alice, bob = started_two_player(client)
    private = client.post(f"/games/{game}/press", json={"body": "secret", "to": ["germany"]},
                          headers=alice)
    assert private.status_code == 201, private.text
    sent = [client.post(f"/games/{game}/press", json={"body": f"public {i}"},
                        headers=alice).json()["id"] for i in range(5)]
    page = client.get(f"/games/{game}/press?limit=2").json()  # a spectator
    assert [m["id"] for m in page] == sent[:2]  # the private message takes no place
    rest = client.get(f"/games/{game}/press?after={page[-1]['id']}&limit=10").json()
    assert [m["id"] for m in rest] == sent[2:]
    assert len(client.get(f"/games/{game}/press", headers=bob).json()) == 6
    assert client.get(f"/games/{game}/press?limit=501").status_code == 422


# -- 12: accounts a user can secure ------------------------------------------------------------

def bearer(token: str) -> Headers:
    return {"Authorization": f"Bearer {token}"}


def log_in(client: TestClient, name: str, password: str = "correct horse",
           agent: str = "test browser") -> Headers:
    r = client.post("/auth/login", json={"username": name, "password": password},
                    headers={"User-Agent": agent})
    assert r.status_code == 200, r.text
    return bearer(r.json()["token"])


@pytest.mark.parametrize("password", ["password", "12345678", "qwertyuiop", "abc12345",
                                      "iloveyou1"])
def test_12_common_passwords_are_refused(client: TestClient, password: str) -> None:
    r = client.post("/auth/signup", json={"username": "alice", "password": password})
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert detail["code"] == "weak_password" and detail["field"] == "password"
    assert "too easy to guess" in detail["message"]


def test_12_change_password_ends_the_other_log_ins(client: TestClient) -> None:
    first = sign_up(client, "alice")
    second = log_in(client, "alice")
    wrong = client.post("/auth/password", json={"current_password": "not it at all",
                                                "new_password": "purple monkey dishwasher"},
                        headers=first)
    assert wrong.status_code == 403
    weak = client.post("/auth/password", json={"current_password": "correct horse",
                                               "new_password": "password1"}, headers=first)
    assert weak.status_code == 422 and weak.json()["detail"]["field"] == "new_password"
    same = client.post("/auth/password", json={"current_password": "correct horse",
                                               "new_password": "correct horse"}, headers=first)
    assert same.status_code == 422, same.text
    assert same.json()["detail"]["code"] == "same_password"
    assert same.json()["detail"]["field"] == "new_password"
    assert "the one you have now" in same.json()["detail"]["message"]
    r = client.post("/auth/password", json={"current_password": "correct horse",
                                            "new_password": "purple monkey dishwasher"},
                    headers=first)
    assert r.status_code == 200 and r.json() == {"revoked": 1}
    assert client.get("/auth/me", headers=first).status_code == 200
    assert client.get("/auth/me", headers=second).status_code == 401
    assert client.post("/auth/login", json={"username": "alice", "password":
                                            "correct horse"}).status_code == 401
    log_in(client, "alice", "purple monkey dishwasher")


def test_12_log_out_everywhere(client: TestClient) -> None:
    tokens = [sign_up(client, "alice"), log_in(client, "alice"), log_in(client, "alice")]
    bob = sign_up(client, "bob")
    r = client.post("/auth/logout-everywhere", headers=tokens[1])
    assert r.status_code == 200 and r.json() == {"revoked": 3}
    assert [client.get("/auth/me", headers=t).status_code for t in tokens] == [401] * 3
    assert client.get("/auth/me", headers=bob).status_code == 200


def test_12_sessions_are_listed_and_ended_one_by_one(client: TestClient) -> None:
    first = sign_up(client, "alice")
    phone = log_in(client, "alice", agent="phone\u0000browser")
    bob = sign_up(client, "bob")
    listed = client.get("/auth/sessions", headers=first).json()
    assert len(listed) == 2
    assert [s["current"] for s in listed].count(True) == 1
    other = next(s for s in listed if not s["current"])
    assert other["agent"] == "phonebrowser" and other["client"]
    assert other["created_at"].endswith("Z") and other["expires_at"].endswith("Z")
    token_text = phone["Authorization"][7:]
    assert all(token_text not in str(s) for s in listed)
    # bob cannot end alice's log-in; alice can
    assert client.delete(f"/auth/sessions/{other['id']}", headers=bob).status_code == 404
    assert client.delete(f"/auth/sessions/{other['id']}", headers=first).status_code == 200
    assert client.get("/auth/me", headers=phone).status_code == 401
    assert client.get("/auth/me", headers=first).status_code == 200
    assert len(client.get("/auth/sessions", headers=first).json()) == 1


def test_12_sessions_say_when_each_was_last_used(database_url: str, clock: FakeClock) -> None:
    """Each log-in says when a request last came with it: noted in memory as requests come
    (no write on their way), written at the deadline task's turn, and shown at once to its
    owner all the same; a fresh process reads the written times."""
    with make_client(database_url, clock) as client:
        laptop = sign_up(client, "alice")
        signed_up = clock.now
        clock.advance(3600)
        phone = log_in(client, "alice", agent="phone")

        def last_used(who: Headers) -> dict[str, float]:
            listed = client.get("/auth/sessions", headers=who).json()
            return {s["agent"]: _seconds(s["last_used_at"]) for s in listed}

        assert last_used(phone)["phone"] == clock.now  # this very request
        assert last_used(phone)["testclient"] == signed_up  # not used since it was made
        clock.advance(600)
        assert client.get("/auth/me", headers=laptop).status_code == 200
        laptop_used = clock.now
        clock.advance(60)
        assert last_used(phone)["testclient"] == laptop_used  # not written yet: from memory
        client.app.state.service.process_due()  # type: ignore[attr-defined]
    with make_client(database_url, clock) as fresh:  # another process: the database's times
        listed = fresh.get("/auth/sessions", headers=laptop).json()
        found = {s["agent"]: _seconds(s["last_used_at"]) for s in listed}
        assert found["phone"] == laptop_used + 60
        assert found["testclient"] == clock.now


def _seconds(iso: str) -> float:
    from datetime import datetime
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def test_12_a_stranger_cannot_lock_an_account(database_url: str, clock: FakeClock) -> None:
    with make_client(database_url, clock, login_failures_per_account_and_client="3 per hour",
                     login_failures_per_account="5 per hour",
                     login_delay_seconds=0.2) as client:
        sign_up(client, "alice")
        accounts = client.app.state.service.accounts  # type: ignore[attr-defined]

        async def attempt(password: str, address: str) -> int:
            try:
                await accounts.log_in("alice", password, address)
            except Exception as exc:  # ServiceError
                return int(getattr(exc, "status", 500))
            return 200

        # ten strangers, three wrong guesses each: refused for themselves only
        for stranger in range(10):
            codes = [asyncio.run(attempt("wrong guess", f"10.0.0.{stranger}"))
                     for _ in range(4)]
            assert codes == [401, 401, 401, 429]
        started = time.monotonic()
        assert asyncio.run(attempt("correct horse", "192.0.2.1")) == 200
        assert time.monotonic() - started >= 0.2  # slowed, not refused


def test_12_sign_up_cannot_be_used_to_list_names(database_url: str, clock: FakeClock) -> None:
    with make_client(database_url, clock, taken_names_per_client="2 per hour") as client:
        sign_up(client, "alice")
        for _ in range(2):
            r = client.post("/auth/signup", json={"username": "alice", "password":
                                                  "another good one"})
            assert r.status_code == 409
        # the allowance of taken names is spent: every sign-up from here waits, free or not
        for name in ("alice", "nobody-has-this"):
            r = client.post("/auth/signup", json={"username": name, "password":
                                                  "another good one"})
            assert r.status_code == 429, r.text
            assert "names already taken" in r.json()["detail"]["message"]


# -- 13: logs keep no secrets and no bodies -----------------------------------------------------

def test_13_the_access_log_hides_invites_and_tickets() -> None:
    from realpolitik.server.app import RedactSecrets

    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                               '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5", "GET", "/games/3/ws?ticket=abc123&x=1", "1.1",
                                101), None)
    RedactSecrets().filter(record)
    assert "abc123" not in record.getMessage() and "ticket=***&x=1" in record.getMessage()
    record.args = ("127.0.0.1:5", "GET", "/games/3?INVITE=sesame", "1.1", 200)
    RedactSecrets().filter(record)
    assert "sesame" not in record.getMessage()


def test_13_a_failure_is_logged_without_the_request_body(
        client: TestClient, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    secret = "hunter2-" * 1000

    def fail(*_args: Any) -> None:
        raise ValueError(f"could not use {secret}")

    game, alice, _ = started_two_player(client)
    monkeypatch.setattr(service, "submit_orders", fail)
    caplog.set_level(logging.ERROR)
    r = client.put(f"/games/{game}/orders", json={"power": "england", "text": secret},
                   headers=alice)
    assert r.status_code == 500 and r.json()["detail"]["code"] == "internal_error"
    logged = "\n".join(rec.getMessage() for rec in caplog.records)
    assert "ValueError" in logged and len(logged) < 8000 and secret not in logged


# -- 14: the database down is 503 ---------------------------------------------------------------

def test_14_a_database_error_of_the_connection_is_503(client: TestClient,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlalchemy.exc import OperationalError

    service = client.app.state.service  # type: ignore[attr-defined]
    game, alice, _ = started_two_player(client)

    def down(*_args: Any, **_kwargs: Any) -> None:
        raise OperationalError("SELECT 1", {}, Exception("connection refused"))

    monkeypatch.setattr(service, "game_view", down)
    monkeypatch.setattr(service, "list_games", down)
    for path in (f"/games/{game}", "/games"):
        r = client.get(path, headers=alice)
        assert r.status_code == 503, r.text
        assert r.headers["retry-after"] == "5"
        assert r.json()["detail"]["code"] == "unavailable"


def test_14_postgres_stopped_gives_503_with_retry_after(request: pytest.FixtureRequest) -> None:
    if request.config.getoption("--database") != "postgres":
        pytest.skip("PostgreSQL only: runs with --database postgres")
    if postgres_bin() is None:
        pytest.skip("PostgreSQL is not installed")
    pytest.importorskip("psycopg")
    with throwaway_postgres() as server:
        url = server.create_database("down")
        with TestClient(create_app(Settings(database_url=url, background=False))) as client:
            alice = sign_up(client, "alice")
            game = create(client, alice)
            assert client.get(f"/games/{game}").status_code == 200
            os.kill(server.pid, signal.SIGINT)  # PostgreSQL's fast shutdown
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                with contextlib.suppress(OSError), \
                        socket.create_connection(("127.0.0.1", server.port), timeout=1):
                    time.sleep(0.2)
                    continue
                break
            for method, path, body in [("GET", f"/games/{game + 1}", None),
                                       ("GET", "/games", None),
                                       ("POST", "/auth/login", {"username": "alice",
                                                                "password": "correct horse"}),
                                       ("PUT", f"/games/{game}/orders",
                                        {"power": "france", "text": "A Par H"})]:
                r = client.request(method, path, json=body, headers=alice)
                assert r.status_code == 503, (path, r.status_code, r.text)
                assert int(r.headers["retry-after"]) > 0


# -- 4, 5: what uvicorn bounds, through a real server ----------------------------------------------

@pytest.fixture
def live(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[LiveServer]:
    if request.config.getoption("--database") == "postgres":
        pytest.skip("uvicorn's limits, the same on any database: run on SQLite")
    server = LiveServer(tmp_path / "live.db", tmp_path / "live.log", extra=(
        "from realpolitik.server.connections import HeadTimeoutProtocol\n"
        "HeadTimeoutProtocol.head_seconds = 1.0"))
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return False
    except OSError:
        return True
    return True


def test_4_a_huge_request_head_is_refused(live: LiveServer) -> None:
    with socket.create_connection(("127.0.0.1", live.port)) as sock:
        sock.sendall(b"GET /games HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 200_000 + b"\r\n\r\n")
        answer = sock.recv(1000)
        assert answer.startswith(b"HTTP/1.1 4"), answer[:100]


def test_4_a_client_trickling_its_head_is_closed(live: LiveServer) -> None:
    with socket.create_connection(("127.0.0.1", live.port)) as sock:
        sock.sendall(b"GET /games HTTP/1.1\r\n")
        started = time.monotonic()
        closed = False
        for _ in range(10):
            try:
                sock.sendall(b"X-Slow: 1\r\n")
            except OSError:
                closed = True
                break
            if _closed_within(sock, 0.4):
                closed = True
                break
        assert closed and time.monotonic() - started < 3.5
    # an ordinary client on a keep-alive connection is not hurt by the deadline
    import httpx

    with httpx.Client(base_url=live.base) as http:
        for _ in range(3):
            assert http.get("/games").status_code == 200
            time.sleep(0.4)


def test_5_a_large_websocket_message_closes_the_socket(live: LiveServer) -> None:
    import httpx
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    token = httpx.post(f"{live.base}/auth/signup", json={"username": "alice", "password":
                                                          "correct horse"}).json()["token"]
    game = httpx.post(f"{live.base}/games", json={"name": "g"},
                      headers=bearer(token)).json()["id"]
    with connect(f"ws://127.0.0.1:{live.port}/games/{game}/ws") as ws:
        assert '"hello"' in str(ws.recv(timeout=5))
        ws.send("ping")
        assert "pong" in str(ws.recv(timeout=5))
        with pytest.raises(ConnectionClosed) as closed:
            ws.send("x" * 20_000)
            ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
