"""The busiest routes answered by ``HotRoutes`` (``realpolitik/server/hot.py``) give exactly
FastAPI's answers: every request here is sent with the hot routes on and again with them off (the
application as FastAPI alone answers it), and the two answers must agree in status, body and
headers. Ordinary requests must be answered by the hot routes; unusual ones (anything to refuse
or to check further) must be handed to FastAPI."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from realpolitik.server import Settings, create_app  # noqa: E402
from realpolitik.server.app import SECURITY_HEADERS  # noqa: E402

POWERS = ("austria", "england", "france", "germany", "italy", "russia", "turkey")


class Setup:
    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.app: Any = client.app
        self.hot = self.app.hot_routes
        self.fallbacks = 0
        inner = self.hot.fallback

        async def counting(scope: Any, receive: Any, send: Any) -> None:
            self.fallbacks += 1
            await inner(scope, receive, send)

        self.hot.fallback = counting
        self.tokens: dict[str, str] = {}

    def headers(self, power: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[power]}"}


@pytest.fixture
def setup(database_url: str) -> Iterator[Setup]:
    clock = lambda: 1_700_000_000.0  # noqa: E731  (a fixed time: the views agree)
    app = create_app(Settings(database_url=database_url, background=False), clock=clock)
    with TestClient(app) as client:
        s = Setup(client)
        gm = client.post("/auth/signup", json={"username": "gm", "password": "correct horse"})
        gm_auth = {"Authorization": f"Bearer {gm.json()['token']}"}
        game = client.post("/games", json={"name": "hot", "players": "7"}, headers=gm_auth)
        assert game.json()["id"] == 1
        for power in POWERS:
            r = client.post("/auth/signup", json={"username": power, "password": "correct horse"})
            s.tokens[power] = r.json()["token"]
            r = client.post("/games/1/join", json={"power": power}, headers=s.headers(power))
            assert r.status_code == 200, r.text
        yield s


def both(s: Setup, method: str, path: str, **kwargs: Any) -> tuple[Any, int]:
    """The answer with the hot routes, checked against FastAPI's own; returns it with the
    number of requests the hot routes handed to FastAPI."""
    before = s.fallbacks
    hot = s.client.request(method, path, **kwargs)
    handed_on = s.fallbacks - before
    hot_routes, s.app.hot_routes = s.app.hot_routes, None
    try:
        plain = s.client.request(method, path, **kwargs)
    finally:
        s.app.hot_routes = hot_routes
    assert hot.status_code == plain.status_code, (hot.text, plain.text)
    assert hot.content == plain.content or hot.json() == plain.json(), (hot.text, plain.text)
    for name in ("content-type", "retry-after", "www-authenticate"):
        assert hot.headers.get(name) == plain.headers.get(name), name
    for name, value in SECURITY_HEADERS:
        assert hot.headers.get(name.decode()) == value.decode()
    return hot, handed_on


def test_ordinary_requests_are_answered_as_fastapi_answers_them(setup: Setup) -> None:
    s = setup
    france = s.headers("france")
    for body in (
        {"power": "france", "text": "A Par-Bur\nA Mar-Spaa\nF Bre-Mao"},  # an unknown place
        {"power": "france", "text": "A Par-Bur, A Par-Pic"},  # a replaced order
        {"power": "France ", "text": "A Par H", "phase": "S1901M"},
        {"power": "france", "orders": [{"kind": "move", "unit": "A PAR", "to": "BUR"}],
         "ready": False},
        {"power": "france", "text": "F Bre-Mao", "ready": True},
    ):
        answer, handed_on = both(s, "PUT", "/games/1/orders", json=body, headers=france)
        assert answer.status_code == 200 and handed_on == 0, answer.text
    answer, handed_on = both(s, "GET", "/games/1")
    assert answer.json()["phase"] == "S1901M" and handed_on == 0
    answer, handed_on = both(s, "GET", "/games/1", headers=france)
    assert answer.json()["my_powers"] == ["france"] and handed_on == 0
    answer, handed_on = both(s, "GET", "/games/1/legal-orders?power=france", headers=france)
    assert "PAR" in {loc.upper() for loc in answer.json()} and handed_on == 0


def test_refusals_by_the_service_are_fastapis(setup: Setup) -> None:
    s = setup
    france = s.headers("france")
    for method, path, kwargs, status in (
        ("PUT", "/games/1/orders", {"json": {"power": "germany", "text": "A Mun H"}}, 403),
        ("PUT", "/games/2/orders", {"json": {"power": "france", "text": "A Par H"}}, 404),
        ("PUT", "/games/1/orders", {"json": {"power": "france", "text": "A Par H",
                                             "phase": "F1901M"}}, 409),
        ("PUT", "/games/1/orders", {"json": {"power": "france", "text": "x" * 9000}}, 413),
        ("GET", "/games/1/legal-orders?power=germany", {}, 403),
        ("GET", "/games/9", {}, 404),
    ):
        answer, handed_on = both(s, method, path, headers=france, **kwargs)
        assert answer.status_code == status and handed_on == 0, (path, answer.text)


def test_unusual_requests_are_handed_to_fastapi(setup: Setup) -> None:
    s = setup
    france = s.headers("france")
    json_type = {"Content-Type": "application/json"}
    for method, path, kwargs, status in (
        ("PUT", "/games/1/orders", {"json": {"power": "france", "text": "A Par H", "x": 1},
                                    "headers": france}, 422),  # an unknown field
        ("PUT", "/games/1/orders", {"content": b'{"power": "france", "text": NaN}',
                                    "headers": {**france, **json_type}}, 422),
        ("PUT", "/games/1/orders", {"content": b'{"power": "france", "text": "\\ud800"}',
                                    "headers": {**france, **json_type}}, 422),
        ("PUT", "/games/1/orders", {"content": b'{"power": "france"',
                                    "headers": {**france, **json_type}}, 422),
        ("PUT", "/games/1/orders", {"content": b'{"power": "france", "text": "A Par H"}',
                                    "headers": {**france, "Content-Type": "text/plain"}},
         422),
        ("PUT", "/games/1/orders", {"json": {"power": "france", "text": "A Par H"}}, 401),
        ("PUT", "/games/1/orders", {"json": {"power": "france", "text": "A Par H"},
                                    "headers": {"Authorization": "Bearer nonsense"}}, 401),
        ("PUT", "/games/1/orders", {"json": {"power": "france", "text": "A Par H"},
                                    "headers": {"Authorization": "Basic abc"}}, 401),
        ("PUT", "/games/0/orders", {"json": {"power": "france", "text": "A Par H"},
                                    "headers": france}, 422),
        ("PUT", f"/games/{2**63}/orders", {"json": {"power": "france", "text": "A Par H"},
                                           "headers": france}, 422),
        ("PUT", "/games/1/orders", {"content": b"x" * 70_000,
                                    "headers": {**france, **json_type}}, 413),
        ("GET", "/games/1?invite=abc", {}, 200),
        ("GET", "/games/0", {}, 422),
        ("GET", "/games/1", {"headers": {"Authorization": "Bearer nonsense"}}, 401),
        ("GET", "/games/1/legal-orders", {"headers": france}, 422),
        ("GET", "/games/1/legal-orders?power=france&power=italy", {"headers": france}, 403),
        ("GET", "/games/1/legal-orders?power=" + "f" * 41, {"headers": france}, 422),
        ("GET", "/games/1/legal-orders?power=france", {}, 401),
    ):
        answer, handed_on = both(s, method, path, **kwargs)
        assert answer.status_code == status and handed_on == 1, (path, answer.text)


def test_a_token_checked_in_the_database_is_then_remembered(setup: Setup) -> None:
    s = setup
    s.app.state.service.accounts._known.clear()  # as after a restart
    body = {"power": "italy", "text": "A Rom-Apu"}
    answer, handed_on = both(s, "PUT", "/games/1/orders", json=body, headers=s.headers("italy"))
    assert answer.status_code == 200 and handed_on == 1  # checked by the dependency
    answer, handed_on = both(s, "PUT", "/games/1/orders", json=body, headers=s.headers("italy"))
    assert answer.status_code == 200 and handed_on == 0
