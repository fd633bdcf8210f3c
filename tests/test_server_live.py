"""Issue 18 against the real server process (uvicorn on 127.0.0.1): what only a real server
shows: WebSocket refusals as close codes rather than HTTP 403, the connection kept after a 500,
no bearer token in the access log, 413 for a chunked body, and an absurd deadline that neither
breaks the game list nor survives a restart."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")
ws_client = pytest.importorskip("websockets.sync.client")
from live_server import LiveServer  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

BOOM = """
@app.get("/__boom", include_in_schema=False)
def boom() -> None:
    raise RuntimeError("a bug, on purpose")
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("live")
    live = LiveServer(folder / "live.db", folder / "server.log", extra=BOOM).start()
    yield live
    live.stop()


def sign_up(server: LiveServer, name: str) -> dict[str, str]:
    r = httpx.post(f"{server.base}/auth/signup", json={"username": name,
                                                       "password": "correct horse"})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def ws_close_code(url: str) -> int:
    with ws_client.connect(url, open_timeout=10) as ws:
        try:
            for _ in range(50):
                ws.recv(timeout=10)
        except ConnectionClosed as closed:
            assert closed.rcvd is not None
            return int(closed.rcvd.code)
    raise AssertionError("the connection stayed open")


def test_websocket_refusals_are_close_codes_not_http_403(server: LiveServer) -> None:
    ws = server.base.replace("http", "ws")
    assert ws_close_code(f"{ws}/games/424242/ws") == 4404
    assert ws_close_code(f"{ws}/games/9223372036854775808/ws") == 4404
    assert ws_close_code(f"{ws}/games/1/ws?ticket=forged") == 4401


def test_the_token_never_reaches_the_access_log(server: LiveServer) -> None:
    alice = sign_up(server, "logcheck")
    game = httpx.post(f"{server.base}/games", json={"name": "log"}, headers=alice).json()["id"]
    ticket = httpx.post(f"{server.base}/auth/ticket", headers=alice).json()["ticket"]
    url = f"{server.base.replace('http', 'ws')}/games/{game}/ws?ticket={ticket}"
    with ws_client.connect(url, open_timeout=10) as ws:
        hello = json.loads(ws.recv(timeout=10))
        assert hello == {"type": "hello", "game": game, "user": "logcheck"}
        ws.send(b"\x00binary")
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1003
    token = alice["Authorization"].removeprefix("Bearer ")
    log = server.log()
    assert f"/games/{game}/ws" in log  # the access log is on, and the connection is in it
    assert token not in log


def test_the_connection_survives_a_500(server: LiveServer) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("GET", "/__boom")
        first = conn.getresponse()
        body = first.read()
        assert first.status == 500
        sock = conn.sock
        conn.request("GET", "/games")  # on the same connection
        second = conn.getresponse()
        assert second.status == 200
        second.read()
        assert conn.sock is sock
        assert json.loads(body)["detail"]["code"] == "internal_error"
    finally:
        conn.close()
    assert "a bug, on purpose" in server.log()  # logged, with its traceback


def test_a_chunked_body_over_the_limit_gets_413(server: LiveServer) -> None:
    alice = sign_up(server, "chunky")

    def chunks() -> Iterator[bytes]:
        yield b'{"name": "'
        for _ in range(160):  # 10 MB, without a Content-Length
            yield b"x" * 65536
        yield b'"}'

    r = httpx.post(f"{server.base}/games", content=chunks(),
                   headers={**alice, "Content-Type": "application/json"}, timeout=30)
    assert r.status_code == 413, r.text


def test_an_absurd_extension_is_refused_and_the_list_survives_a_restart(
        tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "extend.db", tmp_path / "extend.log").start()
    try:
        alice = sign_up(live, "alice")
        game = httpx.post(f"{live.base}/games", json={"name": "e"}, headers=alice).json()["id"]
        assert httpx.post(f"{live.base}/games/{game}/gm/start",
                          headers=alice).status_code == 200
        for seconds in ("99999999999d", 1e308, "1e999"):
            r = httpx.post(f"{live.base}/games/{game}/gm/extend", json={"seconds": seconds},
                           headers=alice)
            assert r.status_code == 422, r.text
        r = httpx.post(f"{live.base}/games/{game}/gm/extend",
                       content=b'{"seconds": Infinity}',
                       headers={**alice, "Content-Type": "application/json"})
        assert r.status_code == 422, r.text
        assert httpx.get(f"{live.base}/games").status_code == 200
    finally:
        live.kill()
    live.start()
    try:
        assert httpx.get(f"{live.base}/games").status_code == 200
        assert httpx.get(f"{live.base}/games/{game}").json()["status"] == "active"
    finally:
        live.stop()
