"""What a player types is shown to others only as the orders that were read (a note to self
stays the writer's), and orders written on a stale view are refused instead of overwriting
orders given meanwhile in another tab or on another device."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from realpolitik import savefile  # noqa: E402
from realpolitik.server import Settings, create_app  # noqa: E402
from realpolitik.server.privacy import orders_revision, phase_as_seen  # noqa: E402

Headers = dict[str, str]
NOTE = "note to self: stab Germany in the fall, tell him nothing"


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=database_url, background=False))
    with TestClient(app) as c:
        yield c


def sign_up(client: TestClient, name: str) -> Headers:
    r = client.post("/auth/signup", json={"username": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def ticket(client: TestClient, who: Headers) -> str:
    return str(client.post("/auth/ticket", headers=who).json()["ticket"])


@pytest.fixture
def game(client: TestClient) -> tuple[int, Headers, Headers]:
    """A two-player game: alice (England/France/Russia) and bob (Austria/Germany/Turkey)."""
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    r = client.post("/games", json={"name": "g", "players": "2", "join_as": "england"},
                    headers=alice)
    game_id = int(r.json()["id"])
    assert client.post(f"/games/{game_id}/join", json={"power": "germany"},
                       headers=bob).status_code == 200
    return game_id, alice, bob


def put(client: TestClient, who: Headers, game_id: int, power: str, text: str,
        **extra: Any) -> Any:
    return client.put(f"/games/{game_id}/orders", json={"power": power, "text": text, **extra},
                      headers=who)


def test_a_note_in_the_orders_is_never_shown_to_anyone_else(
        client: TestClient, game: tuple[int, Headers, Headers]) -> None:
    game_id, alice, bob = game
    assert put(client, alice, game_id, "france", f"A Par-Bur\n{NOTE}").status_code == 200
    assert put(client, bob, game_id, "germany", "A Mun-Ruh").status_code == 200
    with client.websocket_connect(f"/games/{game_id}/ws?ticket={ticket(client, bob)}") as ws:
        assert ws.receive_json()["type"] == "hello"
        assert client.post(f"/games/{game_id}/gm/process", headers=alice).status_code == 200
        while (event := ws.receive_json())["type"] != "phase":
            pass
    assert "stab" not in json.dumps(event)
    assert event["results"][0]["orders"]["FRANCE"] == [{"text": "A PAR - BUR",
                                                        "order": "A PAR - BUR"}]
    for viewer in (bob, {}):  # the other player, and a spectator
        seen = client.get(f"/games/{game_id}/history", headers=viewer).json()
        assert "stab" not in json.dumps(seen)
        assert [o["order"] for o in seen[0]["orders"]["FRANCE"]] == ["A PAR - BUR"]
    # the writer still has the line, marked as never sent
    own = client.get(f"/games/{game_id}/history", headers=alice).json()[0]["orders"]["FRANCE"]
    assert own[0]["order"] == "A PAR - BUR" and "not_sent" not in own[0]
    notes = own[1:]  # the note, cut at its comma as orders are
    assert ", ".join(o["text"] for o in notes) == NOTE
    assert all(o["not_sent"] is True and o["order"] is None for o in notes)
    # bob's own unread lines are his; alice sees none of them
    assert "stab" not in client.get(f"/games/{game_id}/map.svg?seq=0", headers=bob).text
    # once the game is over its public record has the orders, not the note, and still loads
    assert client.post(f"/games/{game_id}/concede", json={"to": "germany"},
                       headers=alice).status_code == 200
    record = client.get(f"/games/{game_id}/record")
    assert record.status_code == 200, record.text
    assert "stab" not in record.text
    assert savefile.loads(record.text).history[0].orders["france"][0].text == "A PAR - BUR"


def test_phase_as_seen_keeps_every_read_order_for_everyone() -> None:
    entry = {"phase": "S1901M", "orders": {
        "ENGLAND": [{"text": "F Lon-Nth  ", "order": "F LON - NTH"},
                    {"text": "secret plan", "order": None, "error": "no", "error_kind": "x"}],
        "FRANCE": [{"text": "A Par-Bur", "order": "A PAR - BUR"}]}}
    public = phase_as_seen(entry)
    assert public["orders"] == {"ENGLAND": [{"text": "F LON - NTH", "order": "F LON - NTH"}],
                                "FRANCE": [{"text": "A PAR - BUR", "order": "A PAR - BUR"}]}
    mine = phase_as_seen(entry, ("england",))
    assert mine["orders"]["ENGLAND"][1] == {**entry["orders"]["ENGLAND"][1], "not_sent": True}
    assert mine["orders"]["FRANCE"] == public["orders"]["FRANCE"]
    assert entry["orders"]["ENGLAND"][1].get("not_sent") is None  # the stored copy is as it was


def test_orders_from_a_stale_view_are_refused_and_nothing_is_overwritten(
        client: TestClient, game: tuple[int, Headers, Headers]) -> None:
    game_id, alice, _ = game
    first_view = client.get(f"/games/{game_id}/orders", headers=alice).json()["england"]
    assert first_view["revision"] == orders_revision("S1914M", None)
    # tab 2 gives three orders, built on the view it loaded
    tab2 = put(client, alice, game_id, "england", "F Lon-Nth\nF Edi-Nwg\nA Lvp-Yor",
               revision=first_view["revision"])
    assert tab2.status_code == 200, tab2.text
    assert tab2.json()["revision"] == orders_revision("S1914M", "F Lon-Nth\nF Edi-Nwg\nA Lvp-Yor")
    # tab 1 still shows the view before: its one order is refused, the three are kept
    tab1 = put(client, alice, game_id, "england", "F Lon-Eng", revision=first_view["revision"])
    assert tab1.status_code == 409
    assert tab1.json()["detail"]["code"] == "orders_changed"
    assert "another tab" in tab1.json()["detail"]["message"]
    now = client.get(f"/games/{game_id}/orders", headers=alice).json()["england"]
    assert now["text"] == "F Lon-Nth\nF Edi-Nwg\nA Lvp-Yor"
    assert now["revision"] == tab2.json()["revision"]
    # having looked, tab 1 sends again with the new revision
    again = put(client, alice, game_id, "england", "F Lon-Eng", revision=now["revision"])
    assert again.status_code == 200
    # a program that sends no revision keeps the old behaviour (the last write wins)
    assert put(client, alice, game_id, "england", "F Lon-Nth").status_code == 200


def test_the_players_other_pages_hear_that_their_orders_changed(
        client: TestClient, game: tuple[int, Headers, Headers]) -> None:
    game_id, alice, bob = game
    with client.websocket_connect(f"/games/{game_id}/ws?ticket={ticket(client, alice)}") as a, \
            client.websocket_connect(f"/games/{game_id}/ws?ticket={ticket(client, bob)}") as b:
        assert a.receive_json()["type"] == "hello" and b.receive_json()["type"] == "hello"
        put(client, alice, game_id, "france", "A Par-Bur")
        event = a.receive_json()
        assert event == {"type": "orders", "power": "france", "phase": "S1914M",
                         "revision": orders_revision("S1914M", "A Par-Bur"), "ready": False}
        # bob hears only what everyone hears: the next event he gets is public press
        client.post(f"/games/{game_id}/press", json={"body": "hello all"}, headers=alice)
        assert b.receive_json()["type"] == "press"


def test_ready_on_orders_not_seen_is_refused(client: TestClient,
                                             game: tuple[int, Headers, Headers]) -> None:
    game_id, alice, _ = game
    seen = put(client, alice, game_id, "england", "F Lon-Nth").json()["revision"]
    put(client, alice, game_id, "england", "F Lon-Eng")  # another tab changes them
    r = client.post(f"/games/{game_id}/ready",
                    json={"ready": True, "phase": "S1914M", "revisions": {"england": seen}},
                    headers=alice)
    assert r.status_code == 409 and r.json()["detail"]["code"] == "orders_changed"
    assert client.get(f"/games/{game_id}", headers=alice).json()["ready"] == []
    now = client.get(f"/games/{game_id}/orders", headers=alice).json()["england"]["revision"]
    r = client.post(f"/games/{game_id}/ready",
                    json={"ready": True, "phase": "S1914M", "revisions": {"england": now}},
                    headers=alice)
    assert r.status_code == 200 and "england" in r.json()["powers"]
