"""The server writes Colonial Winters places by name beside their codes (issue 28, item 1):
legal orders, orders read, the game view and the played phases; a classical game's answers
carry no names (its codes are its names)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from realpolitik.server import Settings, create_app  # noqa: E402


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=database_url, background=False),
                     clock=lambda: 1_700_000_000.0)
    with TestClient(app) as c:
        yield c


def _start(client: TestClient, variant: str, power: str) -> tuple[dict[str, str], int]:
    token = client.post("/auth/signup", json={"username": f"u{variant[:6]}",
                                              "password": "correct horse"}).json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    r = client.post("/games", json={"name": "names", "variant": variant, "join_as": power},
                    headers=headers)
    assert r.status_code == 201, r.text
    return headers, int(r.json()["id"])


def test_colonial_winters_answers_give_each_order_and_place_by_name(client: TestClient
                                                                     ) -> None:
    me, game = _start(client, "colonial_winters", "england")
    view = client.get(f"/games/{game}", headers=me).json()
    assert view["names"]["E8"] == "London" and view["names"]["18"] == "English Channel"
    assert view["names"]["E26/WC"] == "Kiel (wc)"

    legal = client.get(f"/games/{game}/legal-orders", params={"power": "england"},
                       headers=me).json()
    move = next(o for o in legal["e8"] if o["kind"] == "move" and o["to"] == "18")
    assert move["text"] == "F E8 - 18"  # the code stays beside the name
    assert (move["name"], move["unit_name"], move["to_name"]) == (
        "F London - English Channel", "F London", "English Channel")
    support = next(o for o in legal["e8"] if o["kind"] == "support")
    assert support["target_name"].startswith(("A ", "F "))

    # the page gives the order as it reads it; the server reads it back to the same order
    r = client.put(f"/games/{game}/orders", headers=me,
                   json={"power": "england", "text": move["name"]})
    line = r.json()["lines"][0]
    assert line["ok"] and line["order"]["text"] == "F E8 - 18"
    assert line["order"]["name"] == "F London - English Channel"

    # a name the key gives two places is answered as ambiguous, with both
    r = client.put(f"/games/{game}/orders", headers=me,
                   json={"power": "england", "text": "A Columbia H"})
    error = r.json()["lines"][0]["error"]
    assert error["kind"] == "ambiguous"
    assert error["candidates"] == ["Columbia (US)", "Colombia"]

    assert client.post(f"/games/{game}/gm/start", headers=me).status_code == 200
    client.put(f"/games/{game}/orders", headers=me,
               json={"power": "england", "text": move["name"]})
    r = client.post(f"/games/{game}/gm/process", headers=me)
    assert r.status_code in (200, 204), r.text
    history = client.get(f"/games/{game}/history", headers=me).json()
    results = history[0]["resolution"]["results"]
    mine = next(r for r in results if r["order"] == "F E8 - 18")
    assert mine["name"] == "F London - English Channel"
    assert mine["reason"] == "F London - English Channel moved."
    assert history[0]["names"]["E8"] == "London"


def test_a_classical_game_answers_with_codes_only(client: TestClient) -> None:
    me, game = _start(client, "classical", "england")
    assert client.get(f"/games/{game}", headers=me).json()["names"] is None
    legal: dict[str, Any] = client.get(f"/games/{game}/legal-orders",
                                       params={"power": "england"}, headers=me).json()
    for orders in legal.values():
        for order in orders:
            assert set(order) <= {"kind", "unit", "to", "target", "via_convoy", "text"}
