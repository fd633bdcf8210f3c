"""Bots on the server (issue 17): seats filled at creation or by the gamesmaster, bots that
order at the start of every phase and are ready at once, and shown as bots."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402
from test_server import (  # noqa: E402
    FakeClock,
    Headers,
    create,
    join,
    make_client,
    orders,
    sign_up,
    view,
)

from realpolitik.server.service import GameService  # noqa: E402


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'server.db'}"


@pytest.fixture
def client(db_url: str, clock: FakeClock) -> Iterator[TestClient]:
    with make_client(db_url, clock) as c:
        yield c


def legal(client: TestClient, who: Headers, game: int, power: str) -> dict[str, list[Any]]:
    r = client.get(f"/games/{game}/legal-orders", params={"power": power}, headers=who)
    assert r.status_code == 200, r.text
    listed: dict[str, list[Any]] = r.json()
    return listed


def test_one_player_and_six_bots_play_to_the_end_of_1902(client: TestClient) -> None:
    """A new player creates a game against six heuristic bots and plays France with random
    legal orders through the API; every phase moves on as soon as France is ready (or at once
    when France has nothing to order), the bots' orders are all legal, and 1902 ends."""
    alice = sign_up(client, "alice")
    game = create(client, alice, join_as="france", fill_with_bots="heuristic")
    state = view(client, alice, game)
    assert state["status"] == "active" and state["phase"] == "S1901M"
    assert state["my_powers"] == ["france"]
    bots = {s["powers"][0]: s["bot"] for s in state["seats"] if s["bot"]}
    assert bots == {p: "heuristic" for p in state["powers"] if p != "france"}
    assert state["bots"] == bots
    assert [s["player"] for s in state["seats"] if s["powers"] == ["france"]] == ["alice"]
    # the bots have ordered and are ready; only France is awaited
    assert sorted(state["ready"]) == sorted(bots)
    rng = random.Random(5)
    phases_played = []
    while state["phase"] != "S1903M":
        assert state["status"] == "active", state
        assert "france" in state["to_order"], f"the game waits in {state['phase']} for nobody"
        assert set(state["ready"]) == set(state["to_order"]) - {"france"}
        phase = state["phase"]
        listing = legal(client, alice, game, "france")
        picks = [rng.choice(options)["text"] for loc, options in listing.items()
                 if loc != "waive"]
        report = orders(client, alice, game, "france", "\n".join(picks), ready=True)
        assert report["errors"] == 0, report
        state = view(client, alice, game)
        assert state["phase"] != phase, "the phase did not move on once France was ready"
        phases_played.append(phase)
    history = client.get(f"/games/{game}/history").json()
    assert [h["phase"] for h in history][:2] == ["S1901M", "F1901M"]
    assert history[-1]["phase"].startswith(("W1902", "F1902"))
    checked = 0
    for entry in history:
        for power, given in entry["orders"].items():
            if power.lower() in bots:
                assert all(o.get("error") is None for o in given), (entry["phase"], given)
                checked += len(given)
    assert checked >= 6 * 3 * 2, "the bots' orders are in the history"
    assert phases_played[:2] == ["S1901M", "F1901M"]


def test_the_gamesmaster_seats_bots_in_free_seats(client: TestClient) -> None:
    gm, bob = sign_up(client, "gm"), sign_up(client, "bob")
    game = create(client, gm, join_as="england")
    join(client, bob, game, "germany")
    r = client.post(f"/games/{game}/gm/bot", json={"power": "france"}, headers=bob)
    assert r.status_code == 403 and r.json()["detail"]["code"] == "not_gamesmaster"
    r = client.post(f"/games/{game}/gm/bot", json={"power": "germany"}, headers=gm)
    assert r.status_code == 409 and r.json()["detail"]["code"] == "seat_taken"
    r = client.post(f"/games/{game}/gm/bot", json={"power": "france", "bot": "clever"},
                    headers=gm)
    assert r.status_code in (400, 422) and r.json()["detail"]["code"] == "bad_bot"
    assert "heuristic" in r.json()["detail"]["message"]
    listed = {g["id"]: g for g in client.get("/games").json()}
    assert listed[game]["seats_free"] == 5
    for power, bot in [("france", "heuristic"), ("italy", "random"), ("austria", "hold"),
                       ("russia", "heuristic")]:
        r = client.post(f"/games/{game}/gm/bot", json={"power": power, "bot": bot}, headers=gm)
        assert r.status_code == 200, r.text
        assert r.json() == {"seat": r.json()["seat"], "powers": [power], "bot": bot}
    assert {g["id"]: g for g in client.get("/games").json()}[game]["seats_free"] == 1
    carol = sign_up(client, "carol")
    taken = client.post(f"/games/{game}/join", json={"power": "france"}, headers=carol)
    assert taken.status_code == 409 and taken.json()["detail"]["code"] == "seat_taken"
    state = view(client, gm, game)
    assert state["status"] == "forming"
    # the last free seat gets a bot: the game starts, and every bot has ordered at once
    r = client.post(f"/games/{game}/gm/bot", json={"power": "turkey"}, headers=gm)
    assert r.status_code == 200
    state = view(client, gm, game)
    assert state["status"] == "active"
    assert sorted(state["ready"]) == ["austria", "france", "italy", "russia", "turkey"]
    assert state["bots"]["italy"] == "random"
    # the players are ready: the phase is adjudicated at once
    orders(client, gm, game, "england", "F Lon-Nth", ready=True)
    orders(client, bob, game, "germany", "A Ber-Kie", ready=True)
    state = view(client, gm, game)
    assert state["phase"] == "F1901M"
    # replace frees a bot's seat for a player
    r = client.post(f"/games/{game}/gm/replace", json={"power": "italy", "username": "carol"},
                    headers=gm)
    assert r.status_code == 200
    state = view(client, carol, game)
    assert "italy" not in state["bots"] and state["my_powers"] == ["italy"]
    assert "italy" not in state["ready"]


def test_press_to_a_bot_is_delivered_and_not_answered(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    game = create(client, alice, join_as="france", fill_with_bots="heuristic")
    r = client.post(f"/games/{game}/press", json={"sender": "france", "to": ["germany"],
                                                 "body": "Shall we share Belgium?"},
                    headers=alice)
    assert r.status_code in (200, 201), r.text
    messages = client.get(f"/games/{game}/press", headers=alice).json()
    assert [m["body"] for m in messages] == ["Shall we share Belgium?"]


def test_a_game_of_bots_alone_plays_on_by_itself(db_url: str, clock: FakeClock) -> None:
    """With every seat a bot's, each call plays up to MAX_BOT_PHASES phases; the deadline
    moves it on from there."""
    with make_client(db_url, clock) as watcher:
        alice = sign_up(watcher, "alice")
        game = create(watcher, alice, fill_with_bots="random", end_year=1901)
        state = view(watcher, alice, game)
        assert state["status"] == "finished", state["phase"]
        assert state["end"]["kind"] == "short_game"
        assert state["my_powers"] == [] and len(state["bots"]) == 7
        game = create(watcher, alice, fill_with_bots="hold")  # hold bots never end a game
        state = view(watcher, alice, game)
        played = len(watcher.get(f"/games/{game}/history").json())
        assert state["status"] == "active" and played >= GameService.MAX_BOT_PHASES
        clock.advance(state["seconds_left"] + 1)
        watcher.app.state.service.process_due()
        assert len(watcher.get(f"/games/{game}/history").json()) > played


def test_fill_with_bots_is_checked(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    r = client.post("/games", json={"name": "x", "fill_with_bots": "clever"}, headers=alice)
    assert r.status_code in (400, 422) and r.json()["detail"]["code"] == "bad_bot"
    r = client.post("/games", json={"name": "x", "fill_with_bots": "random",
                                    "join_as": "atlantis"}, headers=alice)
    assert r.status_code in (400, 422) and r.json()["detail"]["field"] == "join_as"


def test_one_call_gives_a_program_all_it_needs_for_a_phase(client: TestClient) -> None:
    """GET /turn: the game, whether the power must order, its legal orders, the orders given so
    far, the phases played since a point and the new press."""
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    game = create(client, alice, join_as="france", fill_with_bots="hold")
    r = client.get(f"/games/{game}/turn", headers=bob)
    assert r.status_code == 403 and r.json()["detail"]["code"] == "not_a_player"
    turn = client.get(f"/games/{game}/turn", headers=alice).json()
    assert turn["power"] == "france" and turn["must_order"] and not turn["ready"]
    assert turn["game"]["phase"] == "S1901M" and turn["game"]["bots"]["germany"] == "hold"
    assert sorted(turn["legal_orders"]) == ["bre", "mar", "par"]
    assert "A PAR - BUR" in [o["text"] for o in turn["legal_orders"]["par"]]
    assert turn["orders"] is None and turn["played"] == 0 and turn["results"] == []
    client.post(f"/games/{game}/press", json={"sender": "france", "body": "Hello, Europe"},
                headers=alice)
    orders(client, alice, game, "france", "A Par-Bur\nA Mar-Spa\nF Bre-Mao", ready=True)
    turn = client.get(f"/games/{game}/turn", headers=alice).json()
    assert turn["game"]["phase"] == "F1901M" and turn["played"] == 1
    assert [h["phase"] for h in turn["results"]] == ["S1901M"]
    assert [m["body"] for m in turn["press"]] == ["Hello, Europe"]
    seen = turn["press"][0]["id"]
    orders(client, alice, game, "france", "A Bur-Bel\nA Spa H\nF Mao-Por", ready=False)
    turn = client.get(f"/games/{game}/turn", headers=alice,
                      params={"since": 1, "press_after": seen}).json()
    assert turn["orders"] == "A Bur-Bel\nA Spa H\nF Mao-Por" and not turn["ready"]
    assert turn["results"] == [] and turn["press"] == []
    client.post(f"/games/{game}/ready", json={"ready": True}, headers=alice)
    turn = client.get(f"/games/{game}/turn", headers=alice).json()
    # France took three centres against hold bots: three builds in the winter
    assert turn["game"]["phase"] == "W1901A" and turn["adjustment"] == 3
    assert turn["must_order"] and "waive" in turn["legal_orders"]


def test_a_click_meant_for_a_phase_that_has_passed_is_refused(client: TestClient) -> None:
    """With bots a phase can pass between a look and a click: orders and ready flags that say
    which phase they are for are refused once it has passed, instead of landing on the next."""
    alice = sign_up(client, "alice")
    game = create(client, alice, join_as="france", fill_with_bots="hold")
    r = client.post(f"/games/{game}/ready", json={"ready": True, "phase": "s1901m"},
                    headers=alice)
    assert r.status_code == 200
    assert view(client, alice, game)["phase"] == "F1901M"
    for method, path, body in [
        ("POST", "ready", {"ready": True, "phase": "S1901M"}),
        ("PUT", "orders", {"power": "france", "text": "A Par-Bur", "phase": "S1901M"}),
    ]:
        r = client.request(method, f"/games/{game}/{path}", json=body, headers=alice)
        assert r.status_code == 409, r.text
        assert r.json()["detail"]["code"] == "phase_changed"
        assert "Fall 1901 movement" in r.json()["detail"]["message"]
    state = view(client, alice, game)
    assert state["phase"] == "F1901M" and "france" not in state["ready"]


def test_the_bots_vote_on_a_draw_a_player_proposes(client: TestClient) -> None:
    """Bots never propose a draw; once a player votes for one, each bot votes by its draw
    policy (docs/bots.md) in every phase while the proposal stands: against in the game's
    first two years, for it from 1903 when it cannot win. Against six hold bots that never
    gain a centre, nobody leads by two, so the draw passes at the start of 1903."""
    alice = sign_up(client, "alice")
    game = create(client, alice, join_as="france", fill_with_bots="hold")
    assert view(client, alice, game)["draw_votes"] == {"in_favour": 0, "needed": 7}
    r = client.post(f"/games/{game}/draw", json={"in_favour": True}, headers=alice)
    assert r.status_code == 200, r.text
    assert r.json()["in_favour"] == 1 and r.json()["end"] is None  # 1901: too early for bots
    holds = "A PAR H\nA MAR H\nF BRE H"
    while (state := view(client, alice, game))["status"] == "active":
        assert int(state["phase"][1:5]) < 1903, state["phase"]
        assert state["draw_votes"] == {"in_favour": 1, "needed": 7}, state["phase"]
        orders(client, alice, game, "france", holds, ready=True)
    assert state["end"]["kind"] == "draw" and state["phase"] == "S1903M"
    assert sorted(state["end"]["winners"]) == sorted(state["powers"])


def test_the_bots_withdraw_when_the_player_does(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    game = create(client, alice, join_as="france", fill_with_bots="hold")
    holds = "A PAR H\nA MAR H\nF BRE H"
    while view(client, alice, game)["phase"] != "S1903M":
        orders(client, alice, game, "france", holds, ready=True)
    r = client.post(f"/games/{game}/draw", json={"in_favour": False}, headers=alice)
    assert r.json() == {"in_favour": 0, "needed": 7, "end": None}
    orders(client, alice, game, "france", holds, ready=True)
    state = view(client, alice, game)
    assert state["status"] == "active" and state["draw_votes"]["in_favour"] == 0
    r = client.post(f"/games/{game}/draw", json={"in_favour": True}, headers=alice)
    assert r.json()["end"] is not None and view(client, alice, game)["status"] == "finished"
