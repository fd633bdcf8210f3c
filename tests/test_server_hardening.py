"""Issue 18: inputs that used to make the server answer 500 (or worse, break it for everyone),
refused with a clear 4xx instead; the server's defences against floods and stale sessions.

Each test names the finding of the issue it covers (F1 ... F10)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from realpolitik.server import Settings, create_app  # noqa: E402

Headers = dict[str, str]


class FakeClock:
    """A clock the tests move by hand."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


def make_app(db: Path, clock: FakeClock | None = None, **settings: Any) -> Any:
    return create_app(Settings(database_url=f"sqlite:///{db}", background=False, **settings),
                      clock=clock)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "hard.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(make_app(db)) as c:
        yield c


def sign_up(client: TestClient, name: str) -> Headers:
    r = client.post("/auth/signup", json={"username": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def started_game(client: TestClient) -> tuple[int, Headers, Headers]:
    """A running two-player game of alice (gamesmaster, England) and bob (Germany)."""
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    r = client.post("/games", json={"name": "g", "players": "2", "join_as": "england"},
                    headers=alice)
    game_id = int(r.json()["id"])
    assert client.post(f"/games/{game_id}/join", json={"power": "germany"},
                       headers=bob).status_code == 200
    assert client.get(f"/games/{game_id}").json()["status"] == "active"
    return game_id, alice, bob


def raw_post(client: TestClient, url: str, body: str, headers: Headers | None = None) -> Any:
    return client.post(url, content=body.encode("utf-8", "surrogatepass"),
                       headers={**(headers or {}), "Content-Type": "application/json"})


# -- F1, F5: deadlines and durations ----------------------------------------------------------

@pytest.mark.parametrize("seconds", ["99999999999d", 10**20, "1e400", 1e300, 61 * 86400,
                                     "-61d", "9" * 5000])
def test_f1_an_absurd_extension_is_refused_and_the_game_list_keeps_working(
        client: TestClient, seconds: Any) -> None:
    game_id, alice, _ = started_game(client)
    r = client.post(f"/games/{game_id}/gm/extend", json={"seconds": seconds}, headers=alice)
    assert r.status_code == 422, r.text
    assert "seconds" in r.text and ("60 days" in r.text or "duration" in r.text
                                    or "less than or equal" in r.text), r.text
    assert client.get("/games").status_code == 200
    assert client.get(f"/games/{game_id}").status_code == 200


def test_f1_repeated_extensions_stop_at_60_days(client: TestClient) -> None:
    game_id, alice, _ = started_game(client)
    r = client.post(f"/games/{game_id}/gm/extend", json={"seconds": "59d"}, headers=alice)
    assert r.status_code == 200, r.text
    r = client.post(f"/games/{game_id}/gm/extend", json={"seconds": "2d"}, headers=alice)
    assert r.status_code == 422 and r.json()["detail"]["code"] == "bad_duration"
    assert "60 days" in r.json()["detail"]["message"]
    assert client.post(f"/games/{game_id}/gm/extend", json={"seconds": "-10m"},
                       headers=alice).status_code == 200
    assert client.post(f"/games/{game_id}/gm/pause", headers=alice).status_code == 200
    r = client.post(f"/games/{game_id}/gm/extend", json={"seconds": "30d"}, headers=alice)
    assert r.status_code == 422 and r.json()["detail"]["code"] == "bad_duration"


def test_f1_a_stored_absurd_deadline_is_repaired_by_the_migration(db: Path) -> None:
    with TestClient(make_app(db)) as client:
        game_id, _, _ = started_game(client)
    # a database written before the fix: an infinite deadline, at schema version 1
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET deadline = 9e999 WHERE id = ?", (game_id,))
        conn.execute("DELETE FROM schema_version WHERE version > 1")
        conn.execute("DROP TABLE IF EXISTS seat_changes")
        conn.execute("DROP INDEX IF EXISTS ix_tokens_expires_at")
        conn.execute("DROP TABLE IF EXISTS ws_tickets")  # and step 3's
        conn.execute("ALTER TABLE games DROP COLUMN record_version")
        conn.execute("ALTER TABLE tokens DROP COLUMN client")  # and step 4's
        conn.execute("ALTER TABLE tokens DROP COLUMN agent")
        for table in ("mail_prefs", "mail_outbox", "mail_marks"):  # and step 5's
            conn.execute(f"DROP TABLE IF EXISTS {table}")
        conn.execute("ALTER TABLE tokens DROP COLUMN last_used_at")  # and step 6's
    with TestClient(make_app(db)) as client:
        r = client.get("/games")
        assert r.status_code == 200, r.text
        game = client.get(f"/games/{game_id}").json()
        assert 0 < game["seconds_left"] <= 60 * 86400
        assert game["deadline"].startswith("20")


@pytest.mark.parametrize("value", ["1e999", "-1e999", "NaN", "Infinity", "-Infinity"])
def test_f5_non_finite_durations_are_refused(client: TestClient, value: str) -> None:
    alice = sign_up(client, "alice")
    r = raw_post(client, "/games", f'{{"name": "g", "deadlines": {{"movement": {value}}}}}',
                 alice)
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"][:3] in (["body", "deadlines", "movement"], ["body"])
    assert client.get("/games").status_code == 200


# -- F2, F3: strict JSON ----------------------------------------------------------------------

def _json_endpoints(client: TestClient) -> list[tuple[str, str]]:
    spec = client.get("/openapi.json").json()
    out = []
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            if "requestBody" in op:
                out.append((method, path.replace("{game_id}", "1")))
    return out


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_f2_nan_and_infinity_are_refused_on_every_endpoint(client: TestClient,
                                                          constant: str) -> None:
    endpoints = _json_endpoints(client)
    assert len(endpoints) >= 11
    for method, url in endpoints:
        body = f'{{"name": "g", "power": "france", "seconds": {constant}, "x": [{constant}]}}'
        r = client.request(method, url, content=body,
                           headers={"Content-Type": "application/json"})
        assert r.status_code == 422, (method, url, r.status_code, r.text)
        assert "finite" in r.text, r.text


def test_f3_a_lone_surrogate_is_refused_in_any_string_field(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    fields = {
        "/auth/signup": ["username", "password"],
        "/auth/login": ["username", "password"],
        "/games": ["name", "variant", "rules", "players", "join_as"],
    }
    for url, names in fields.items():
        for name in names:
            body = {"username": "zed", "password": "correct horse", "name": "g"}
            text = json.dumps({**body, name: "\ud800x"})  # json.dumps writes the escape
            assert "\\ud800" in text
            r = raw_post(client, url, text, alice)
            assert r.status_code == 422, (url, name, r.text)
            assert r.json()["detail"][0]["loc"] == ["body", name]
            assert "surrogate" in r.json()["detail"][0]["msg"]
    # deeper fields, keys, and raw (CESU-8) bytes rather than an escape
    game_id = client.post("/games", json={"name": "g", "join_as": "france"},
                          headers=alice).json()["id"]
    r = raw_post(client, f"/games/{game_id}/press", '{"to": ["ok", "\\udc00"], "body": "x"}',
                 alice)
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "to", 1]
    r = client.put(f"/games/{game_id}/orders", content=b'{"power": "france", "text": "\xed\xa0'
                   b'\x80"}', headers={**alice, "Content-Type": "application/json"})
    assert r.status_code == 422, r.text
    r = raw_post(client, "/auth/login", '{"\\ud800": 1}')
    assert r.status_code == 422, r.text
    assert client.get(f"/games/{game_id}").status_code == 200


def test_f2_the_validation_answer_never_fails_on_what_it_quotes() -> None:
    import asyncio

    from fastapi.exceptions import RequestValidationError

    from realpolitik.server.inputs import validation_error_answer

    # what pydantic may quote back: a NaN, a lone surrogate, an exception object, big nesting
    error = RequestValidationError([{
        "type": "value_error", "loc": ("body", "x\ud800"), "msg": "bad \udc00",
        "input": {"a": float("nan"), "b": ["\ud800", float("inf")]},
        "ctx": {"error": ValueError("no \ud800")}}])
    answer = asyncio.run(validation_error_answer(None, error))  # type: ignore[arg-type]
    assert answer.status_code == 422
    detail = json.loads(answer.body)["detail"][0]
    assert detail["loc"][0] == "body" and detail["input"]["a"] == "nan"
    assert "no" in json.dumps(detail["ctx"])


# -- F4: integers the database cannot hold ------------------------------------------------------

@pytest.mark.parametrize("url", [
    "/games/9223372036854775808", "/games/99999999999999999999999999/history",
    "/games/1/history?since=9223372036854775808", "/games/1/press?after=9223372036854775808",
    "/games/1/map.svg?seq=9223372036854775808", "/games/-9223372036854775809",
    "/games/0",
])
def test_f4_huge_integers_in_paths_and_queries_are_refused(client: TestClient,
                                                          url: str) -> None:
    alice = sign_up(client, "alice")
    client.post("/games", json={"name": "g"}, headers=alice)
    r = client.get(url, headers=alice)
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"][0] in ("path", "query")
    assert client.get("/games/9223372036854775807").status_code == 404


def test_f4_huge_integers_in_bodies_are_refused(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    r = raw_post(client, "/games", '{"name": "g", "end_year": 9223372036854775808}', alice)
    assert r.status_code == 422
    r = raw_post(client, "/games", '{"name": "g", "deadlines": {"movement": '
                 '99999999999999999999999999999}}', alice)
    assert r.status_code == 422


# -- F9 (part): body size, broken handlers, headers ---------------------------------------------

def test_f9_an_oversize_chunked_body_gets_413(client: TestClient) -> None:
    alice = sign_up(client, "alice")

    def chunks() -> Iterator[bytes]:
        yield b'{"name": "'
        for _ in range(160):
            yield b"x" * 65536
        yield b'"}'

    r = client.post("/games", content=chunks(),
                    headers={**alice, "Content-Type": "application/json"})
    assert r.status_code == 413, r.text
    assert r.json()["detail"]["code"] == "too_large"
    # a small chunked body still gets through whole
    r = client.post("/games", content=iter([b'{"name": ', b'"chunked"}']),
                    headers={**alice, "Content-Type": "application/json"})
    assert r.status_code == 201, r.text


def test_f9_an_unexpected_error_is_answered_without_dropping_the_connection(db: Path) -> None:
    app = make_app(db)

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("a bug")

    # the app must answer, not raise: an exception escaping the app makes uvicorn close the
    # connection, and the client's next request on it fails
    with TestClient(app, raise_server_exceptions=True) as client:
        r = client.get("/boom")
        assert r.status_code == 500
        assert r.json()["detail"]["code"] == "internal_error"
        assert r.headers["x-content-type-options"] == "nosniff"
        assert client.get("/games").status_code == 200


def test_f9_security_headers_on_every_answer(client: TestClient) -> None:
    for r in (client.get("/"), client.get("/games"), client.get("/games/5"),
              client.get("/static/app.js"), client.post("/auth/login", json={})):
        assert r.headers["x-content-type-options"] == "nosniff"
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["referrer-policy"] == "no-referrer"


# -- F6, F7, F9: the WebSocket: tickets, close codes, access that ends --------------------------

def ticket(client: TestClient, who: Headers) -> str:
    r = client.post("/auth/ticket", headers=who)
    assert r.status_code == 200, r.text
    assert r.json()["expires_in"] > 0
    return str(r.json()["ticket"])


def close_code(ws: Any) -> int:
    """Read events until the server closes the connection; its close code."""
    from starlette.websockets import WebSocketDisconnect

    try:
        for _ in range(50):
            ws.receive_json()
    except WebSocketDisconnect as closed:
        return int(closed.code)
    raise AssertionError("the connection stayed open")


def test_f7_the_socket_takes_a_single_use_ticket_not_the_token(client: TestClient) -> None:
    game_id, alice, bob = started_game(client)
    code = ticket(client, bob)
    with client.websocket_connect(f"/games/{game_id}/ws?ticket={code}") as ws:
        assert ws.receive_json() == {"type": "hello", "game": game_id, "user": "bob"}
    with client.websocket_connect(f"/games/{game_id}/ws?ticket={code}") as ws:  # used up
        assert close_code(ws) == 4401
    token = bob["Authorization"].removeprefix("Bearer ")
    with client.websocket_connect(f"/games/{game_id}/ws?token={token}") as ws:
        assert close_code(ws) == 4401
    assert client.post("/auth/ticket").status_code == 401


def test_f7_a_ticket_expires(db: Path) -> None:
    clock = FakeClock()
    with TestClient(make_app(db, clock)) as client:
        game_id, _, bob = started_game(client)
        code = ticket(client, bob)
        clock.now += 31
        with client.websocket_connect(f"/games/{game_id}/ws?ticket={code}") as ws:
            assert close_code(ws) == 4408


def test_f9_refusals_are_close_codes_and_binary_frames_are_refused(client: TestClient) -> None:
    game_id, alice, _ = started_game(client)
    for url, code in [("/games/12345/ws", 4404), ("/games/abc/ws", 4404),
                      ("/games/99999999999999999999/ws", 4404)]:
        with client.websocket_connect(url) as ws:
            assert close_code(ws) == code
    with client.websocket_connect(f"/games/{game_id}/ws?ticket={ticket(client, alice)}") as ws:
        assert ws.receive_json()["type"] == "hello"
        ws.send_bytes(b"\x00\x01")
        assert close_code(ws) == 1003


def test_f6_a_player_who_leaves_or_is_replaced_stops_receiving(client: TestClient) -> None:
    game_id, alice, bob = started_game(client)
    carol = sign_up(client, "carol")
    with client.websocket_connect(f"/games/{game_id}/ws?ticket={ticket(client, bob)}") as ws:
        assert ws.receive_json()["type"] == "hello"
        assert client.post(f"/games/{game_id}/gm/replace", json={
            "power": "germany", "username": "carol"}, headers=alice).status_code == 200
        assert close_code(ws) == 4403
    with client.websocket_connect(f"/games/{game_id}/ws?ticket={ticket(client, carol)}") as ws:
        assert ws.receive_json()["type"] == "hello"
        assert client.post(f"/games/{game_id}/leave", headers=carol).status_code == 200
        assert close_code(ws) == 4403


def test_f6_a_private_game_closes_the_socket_of_a_removed_player(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    game_id = client.post("/games", json={"name": "p", "private": True, "players": "2",
                                          "join_as": "england"}, headers=alice).json()["id"]
    code = client.get(f"/games/{game_id}", headers=alice).json()["invite_code"]
    client.post(f"/games/{game_id}/join", json={"power": "germany", "invite_code": code},
                headers=bob)
    with client.websocket_connect(f"/games/{game_id}/ws?ticket={ticket(client, bob)}") as ws:
        assert ws.receive_json()["type"] == "hello"
        client.post(f"/games/{game_id}/gm/replace", json={"power": "germany"}, headers=alice)
        assert close_code(ws) == 4403
    # and the same user cannot come back: the game is private to them now
    with client.websocket_connect(f"/games/{game_id}/ws?ticket={ticket(client, bob)}") as ws:
        assert close_code(ws) == 4404


def test_f6_logging_out_closes_the_socket(client: TestClient) -> None:
    game_id, _, bob = started_game(client)
    with client.websocket_connect(f"/games/{game_id}/ws?ticket={ticket(client, bob)}") as ws:
        assert ws.receive_json()["type"] == "hello"
        assert client.post("/auth/logout", headers=bob).status_code == 200
        assert close_code(ws) == 4401


def test_f6_an_expired_token_closes_the_socket(db: Path) -> None:
    clock = FakeClock()
    with TestClient(make_app(db, clock, ws_check_seconds=0.05)) as client:
        game_id, _, bob = started_game(client)
        with client.websocket_connect(f"/games/{game_id}/ws?ticket={ticket(client, bob)}") \
                as ws:
            assert ws.receive_json()["type"] == "hello"
            clock.now += 31 * 86400
            assert close_code(ws) == 4401


# -- F8: log-in floods ---------------------------------------------------------------------------

def test_f8_failed_log_ins_are_limited_per_account_and_address(db: Path) -> None:
    """Failures from one address refuse that address for the account (429); the owner
    elsewhere still gets in, after a short wait (the account's own failures slow it, never
    lock it: issue 34, item 12)."""
    with TestClient(make_app(db, login_failures_per_account_and_client="3 per 15 minutes",
                             login_failures_per_account="3 per 15 minutes",
                             login_delay_seconds=0.3)) as client:
        sign_up(client, "alice")
        wrong = {"username": "alice", "password": "wrong password"}
        assert [client.post("/auth/login", json=wrong).status_code for _ in range(3)] == [
            401] * 3
        r = client.post("/auth/login", json={"username": "ALICE", "password": "correct horse"})
        assert r.status_code == 429, r.text
        assert int(r.headers["retry-after"]) > 0
        assert "failed log-ins" in r.json()["detail"]["message"]
        # another account from the same address is not locked out by alice's attempts
        sign_up(client, "bob")
        assert client.post("/auth/login", json={"username": "bob", "password":
                                                "correct horse"}).status_code == 200
        # alice from her own address: in, after the wait
        accounts = client.app.state.service.accounts  # type: ignore[attr-defined]
        started = time.monotonic()
        account, _ = asyncio.run(accounts.log_in("alice", "correct horse", "10.1.2.3"))
        assert account.username == "alice"
        assert time.monotonic() - started >= 0.3


def test_f8_failed_log_ins_are_limited_per_client(db: Path) -> None:
    with TestClient(make_app(db, login_failures_per_client="4 per 15 minutes")) as client:
        codes = [client.post("/auth/login", json={"username": f"user{i}", "password":
                                                  "whatever one"}).status_code for i in range(6)]
        assert codes == [401] * 4 + [429] * 2


def test_f8_an_unknown_user_costs_a_password_check_too(client: TestClient,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from realpolitik.server import security

    checked: list[str] = []
    real = security.verify_password

    def spy(stored: str, password: str) -> bool:
        checked.append(stored)
        return real(stored, password)

    monkeypatch.setattr(security, "verify_password", spy)
    r = client.post("/auth/login", json={"username": "nobody", "password": "whatever one"})
    assert r.status_code == 401
    assert checked == [security.dummy_hash()]
    assert r.json()["detail"]["code"] == "bad_credentials"


def test_f8_password_work_runs_on_a_bounded_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading
    import time

    import anyio

    from realpolitik.server import security

    running = peak = 0
    lock = threading.Lock()

    def slow_verify(stored: str, password: str) -> bool:
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
        time.sleep(0.02)
        with lock:
            running -= 1
        return False

    monkeypatch.setattr(security, "verify_password", slow_verify)
    pool = security.PasswordPool(2)

    async def flood() -> None:
        async with anyio.create_task_group() as tasks:
            for _ in range(20):
                tasks.start_soon(pool.verify, "x", "y")

    anyio.run(flood)
    assert peak == 2


def test_f8_signups_and_new_games_are_limited_per_client(db: Path) -> None:
    with TestClient(make_app(db, signups_per_client="2 per hour",
                             games_per_client="2 per hour")) as client:
        alice = sign_up(client, "alice")
        sign_up(client, "bob")
        r = client.post("/auth/signup", json={"username": "carol", "password": "correct horse"})
        assert r.status_code == 429 and "sign-ups" in r.json()["detail"]["message"]
        for _ in range(2):
            assert client.post("/games", json={"name": "g"}, headers=alice).status_code == 201
        r = client.post("/games", json={"name": "g"}, headers=alice)
        assert r.status_code == 429 and "new games" in r.json()["detail"]["message"]


def test_f9_expired_tokens_are_deleted(db: Path) -> None:
    clock = FakeClock()
    with TestClient(make_app(db, clock)) as client:
        sign_up(client, "alice")
        sign_up(client, "bob")
        clock.now += 31 * 86400
        assert client.post("/auth/login", json={"username": "alice", "password":
                                                "correct horse"}).status_code == 200
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM tokens").fetchone()[0] == 1


# -- F9: press waits while paused; a gamesmaster's seat is taken in view of all ----------------

def test_f9_press_waits_while_the_game_is_paused(client: TestClient) -> None:
    game_id, alice, bob = started_game(client)
    assert client.post(f"/games/{game_id}/gm/pause", headers=alice).status_code == 200
    r = client.post(f"/games/{game_id}/press", json={"body": "hello"}, headers=bob)
    assert r.status_code == 409 and r.json()["detail"]["code"] == "press_closed"
    assert "paused" in r.json()["detail"]["message"]
    assert client.get(f"/games/{game_id}").json()["press_open"] is False
    client.post(f"/games/{game_id}/gm/resume", headers=alice)
    assert client.post(f"/games/{game_id}/press", json={"body": "hello"},
                       headers=bob).status_code == 201


def test_f9_a_gamesmaster_taking_a_seat_is_shown_to_everyone(client: TestClient) -> None:
    alice, bob, carol = (sign_up(client, n) for n in ("alice", "bob", "carol"))
    game_id = client.post("/games", json={"name": "g", "players": "2"},
                          headers=alice).json()["id"]
    client.post(f"/games/{game_id}/join", json={"power": "england"}, headers=bob)
    client.post(f"/games/{game_id}/join", json={"power": "germany"}, headers=carol)
    # alice runs the game without playing; she gives herself bob's seat, then gives it back
    for player in ("alice", "bob"):
        assert client.post(f"/games/{game_id}/gm/replace", json={
            "power": "england", "username": player}, headers=alice).status_code == 200
    changes = client.get(f"/games/{game_id}").json()["seat_changes"]  # anyone, not logged in
    assert [(c["kind"], c["player"], c["previous"]) for c in changes] == [
        ("joined", "bob", None), ("joined", "carol", None), ("replaced", "alice", "bob"),
        ("replaced", "bob", "alice")]
    took = changes[2]
    assert took["by"] == "alice" and took["by_gamesmaster"] and took["gamesmaster_took_it"]
    assert took["powers"] == ["england", "france", "russia"] and took["phase"] == "S1914M"
    assert not changes[3]["gamesmaster_took_it"]


def test_f9_a_bot_seated_by_the_gamesmaster_is_a_seat_change_too(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    game_id = client.post("/games", json={"name": "g", "players": "2", "join_as": "england"},
                          headers=alice).json()["id"]
    r = client.post(f"/games/{game_id}/gm/bot", json={"power": "germany", "bot": "hold"},
                    headers=alice)
    assert r.status_code == 200, r.text
    changes = client.get(f"/games/{game_id}").json()["seat_changes"]
    assert [(c["kind"], c["player"], c["by"]) for c in changes] == [
        ("joined", "alice", "alice"), ("bot", None, "alice")]
    assert changes[1]["by_gamesmaster"] and not changes[1]["gamesmaster_took_it"]


def test_f7_unused_tickets_are_bounded_per_user(client: TestClient) -> None:
    game_id, _, bob = started_game(client)
    tickets = [ticket(client, bob) for _ in range(25)]
    service = client.app.state.service  # type: ignore[attr-defined]
    from realpolitik.server import store as db

    bob_id = client.get("/auth/me", headers=bob).json()["id"]
    with service.store.read() as conn:
        assert db.count_tickets(conn, bob_id) == 20
    with client.websocket_connect(f"/games/{game_id}/ws?ticket={tickets[0]}") as ws:
        assert close_code(ws) == 4401  # the oldest was dropped
    with client.websocket_connect(f"/games/{game_id}/ws?ticket={tickets[-1]}") as ws:
        assert ws.receive_json()["type"] == "hello"


def test_f8_concurrent_wrong_log_ins_cannot_overrun_the_limit(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from realpolitik.server import security
    from realpolitik.server.values import ServiceError

    checked: list[str] = []
    real = security.verify_password

    def spy(stored: str, password: str) -> bool:
        checked.append(stored)
        return real(stored, password)

    monkeypatch.setattr(security, "verify_password", spy)
    with TestClient(make_app(db, login_failures_per_client="4 per 15 minutes")) as client:
        accounts = client.app.state.service.accounts  # type: ignore[attr-defined]

        async def flood() -> list[int]:
            async def one(i: int) -> int:
                try:
                    await accounts.log_in(f"user{i}", "wrong password", "10.9.9.9")
                except ServiceError as exc:
                    return exc.status
                return 200
            return list(await asyncio.gather(*(one(i) for i in range(20))))

        answers = asyncio.run(flood())
    # all 20 arrive together: only 4 get as far as a password check, the others are refused
    assert sorted(answers) == [401] * 4 + [429] * 16
    assert len(checked) == 4
