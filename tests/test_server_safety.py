"""The server refuses every action a user may not take: no one reads another power's orders or
private press, orders someone else's units, or acts in a game they are not in."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from realpolitik.server import Settings, create_app  # noqa: E402

Headers = dict[str, str]


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=database_url, background=False,
                              max_body_bytes=20_000))
    with TestClient(app) as c:
        yield c


def sign_up(client: TestClient, name: str) -> Headers:
    r = client.post("/auth/signup", json={"username": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


@pytest.fixture
def game(client: TestClient) -> tuple[int, Headers, Headers, Headers]:
    """A two-player game run by alice (England/France/Russia) with bob; eve is an outsider."""
    alice, bob, eve = (sign_up(client, n) for n in ("alice", "bob", "eve"))
    r = client.post("/games", json={"name": "g", "players": "2", "join_as": "england"},
                    headers=alice)
    game_id = int(r.json()["id"])
    assert client.post(f"/games/{game_id}/join", json={"power": "germany"},
                       headers=bob).status_code == 200
    return game_id, alice, bob, eve


def test_another_players_orders_stay_secret(client: TestClient, game: Any) -> None:
    game_id, alice, bob, _ = game
    r = client.put(f"/games/{game_id}/orders", json={"power": "france", "text": "A Par-Bur"},
                   headers=alice)
    assert r.status_code == 200
    theirs = client.get(f"/games/{game_id}/orders", headers=bob).json()
    assert set(theirs) == {"austria", "germany", "turkey"}
    assert "Par" not in str(theirs) and "PAR" not in str(theirs)
    public = client.get(f"/games/{game_id}", headers=bob).text
    assert "A PAR - BUR" not in public and "Par-Bur" not in public
    assert client.get(f"/games/{game_id}/history", headers=bob).json() == []


def test_no_orders_for_someone_elses_power(client: TestClient, game: Any) -> None:
    game_id, _, bob, eve = game
    r = client.put(f"/games/{game_id}/orders", json={"power": "france", "text": "A Par H"},
                   headers=bob)
    assert r.status_code == 403 and r.json()["detail"]["code"] == "not_your_power"
    r = client.put(f"/games/{game_id}/orders", json={"power": "germany", "text": "A Mun H"},
                   headers=eve)
    assert r.status_code == 403 and r.json()["detail"]["code"] == "not_a_player"
    r = client.post(f"/games/{game_id}/ready", json={"power": "france"}, headers=bob)
    assert r.status_code == 403
    r = client.get(f"/games/{game_id}/legal-orders", params={"power": "france"}, headers=bob)
    assert r.status_code == 403


def test_outsider_cannot_act_in_the_game(client: TestClient, game: Any) -> None:
    game_id, _, _, eve = game
    attempts = [
        ("get", f"/games/{game_id}/orders", None),
        ("post", f"/games/{game_id}/ready", {}),
        ("post", f"/games/{game_id}/press", {"body": "hi"}),
        ("post", f"/games/{game_id}/draw", {"in_favour": True}),
        ("post", f"/games/{game_id}/concede", {"to": "russia"}),
        ("post", f"/games/{game_id}/leave", None),
        ("post", f"/games/{game_id}/gm/pause", None),
        ("post", f"/games/{game_id}/gm/process", None),
        ("post", f"/games/{game_id}/gm/extend", {"seconds": 60}),
        ("post", f"/games/{game_id}/gm/replace", {"power": "england", "username": "eve"}),
    ]
    for method, url, body in attempts:
        r = client.request(method, url, json=body, headers=eve)
        assert r.status_code == 403, (url, r.status_code, r.text)
        assert r.json()["detail"]["message"]
    r = client.post(f"/games/{game_id}/join", json={"power": "england"}, headers=eve)
    assert r.status_code == 409


def test_logged_out_users_are_refused(client: TestClient, game: Any) -> None:
    game_id, _, _, _ = game
    for method, url, body in [
        ("post", "/games", {"name": "x"}),
        ("put", f"/games/{game_id}/orders", {"power": "france", "text": "A Par H"}),
        ("post", f"/games/{game_id}/join", {"power": "austria"}),
        ("post", f"/games/{game_id}/press", {"body": "hi"}),
    ]:
        r = client.request(method, url, json=body)
        assert r.status_code == 401, url
        r = client.request(method, url, json=body, headers={"Authorization": "Bearer forged"})
        assert r.status_code == 401, url
        assert r.json()["detail"]["code"] == "bad_token"


def test_private_game_needs_its_invite(client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    r = client.post("/games", json={"name": "secret", "private": True, "players": "2",
                                    "join_as": "england"}, headers=alice)
    game_id = r.json()["id"]
    code = client.get(f"/games/{game_id}", headers=alice).json()["invite_code"]
    assert code
    assert client.get("/games").json() == []
    assert client.get(f"/games/{game_id}", headers=bob).status_code == 404
    assert client.get(f"/games/{game_id}/history", headers=bob).status_code == 404
    assert client.get(f"/games/{game_id}/press", headers=bob).status_code == 404
    r = client.post(f"/games/{game_id}/join", json={"power": "germany"}, headers=bob)
    assert r.status_code == 404
    r = client.post(f"/games/{game_id}/join", json={"power": "germany", "invite_code": "x"},
                    headers=bob)
    assert r.status_code == 404
    assert client.get(f"/games/{game_id}", params={"invite": code},
                      headers=bob).status_code == 200
    r = client.post(f"/games/{game_id}/join", json={"power": "germany", "invite_code": code},
                    headers=bob)
    assert r.status_code == 200
    assert client.get(f"/games/{game_id}", headers=bob).json()["invite_code"] == code
    with pytest.raises(WebSocketDisconnect) as info, \
            client.websocket_connect(f"/games/{game_id}/ws") as ws:
        ws.receive_json()
    assert info.value.code == 4404


def test_private_press_cannot_be_read_by_others(client: TestClient, game: Any) -> None:
    game_id, alice, bob, eve = game
    carol = sign_up(client, "carol")
    # carol takes over nothing: she is a spectator of an open game
    r = client.post(f"/games/{game_id}/press", json={"to": ["germany"], "body": "just us"},
                    headers=alice)
    assert r.status_code == 201
    assert [m["body"] for m in client.get(f"/games/{game_id}/press", headers=bob).json()] == [
        "just us"]
    for other in (carol, eve, {}):
        assert client.get(f"/games/{game_id}/press", headers=other).json() == []


def test_request_size_limits(client: TestClient, game: Any) -> None:
    game_id, alice, _, _ = game
    huge = "A Par H\n" * 3000
    r = client.put(f"/games/{game_id}/orders", json={"power": "france", "text": huge},
                   headers=alice)
    assert r.status_code == 413
    assert r.json()["detail"]["code"] == "too_large"
    r = client.put(f"/games/{game_id}/orders", content=b"{" + b" " * 30_000 + b"}",
                   headers={**alice, "Content-Type": "application/json"})
    assert r.status_code == 413
    r = client.put(f"/games/{game_id}/orders", json={"power": "france", "text": "x" * 9000},
                   headers=alice)
    assert r.status_code == 413 and r.json()["detail"]["code"] == "too_long"


def test_bad_input_gets_a_clear_error(client: TestClient, game: Any) -> None:
    game_id, alice, _, _ = game
    r = client.put(f"/games/{game_id}/orders", json={"power": "france"}, headers=alice)
    assert r.status_code == 422
    assert "text" in r.text and "orders" in r.text
    r = client.put(f"/games/{game_id}/orders", content=b"not json",
                   headers={**alice, "Content-Type": "application/json"})
    assert r.status_code == 422
    assert client.get("/games/999", headers=alice).status_code == 404
    assert client.get("/games/abc", headers=alice).status_code == 422
    r = client.post(f"/games/{game_id}/join", json={"power": "narnia"}, headers=sign_up(
        client, "dave"))
    assert r.status_code == 422 and r.json()["detail"]["field"] == "power"


def test_map_svg(client: TestClient, game: Any) -> None:
    game_id, alice, bob, _ = game
    client.put(f"/games/{game_id}/orders", json={"power": "france", "text": "A Par-Bur"},
               headers=alice)
    plain = client.get(f"/games/{game_id}/map.svg", headers=bob)
    assert plain.status_code == 200 and plain.headers["content-type"].startswith("image/svg")
    mine = client.get(f"/games/{game_id}/map.svg", params={"mine": "true"}, headers=alice)
    theirs = client.get(f"/games/{game_id}/map.svg", params={"mine": "true"}, headers=bob)
    assert mine.text != plain.text          # alice sees her arrow
    assert theirs.text == plain.text        # bob does not see it
    assert client.get(f"/games/{game_id}/map.svg", params={"seq": 0}).status_code == 404
    client.post(f"/games/{game_id}/gm/process", headers=alice)
    played = client.get(f"/games/{game_id}/map.svg", params={"seq": 0})
    assert played.status_code == 200 and "<svg" in played.text


def test_the_engine_never_imports_the_server() -> None:
    import subprocess
    import sys

    code = ("import sys, realpolitik, realpolitik.game, realpolitik.savefile, realpolitik.render; "
            "bad = [m for m in sys.modules if m.startswith(('realpolitik.server', 'fastapi', "
            "'pydantic', 'sqlalchemy', 'starlette', 'uvicorn'))]; print(bad); "
            "sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
