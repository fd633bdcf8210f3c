"""A first game as new players meet it (issue 19), through the server's API: free seats do not
hold the game up, warnings before "ready", a later order for a unit replaces the earlier one,
concessions and draws counted by the players who are there, leaving and replacing, plain
messages, results for unordered units, and "any power" drawn by lot."""

from __future__ import annotations

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


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(f"sqlite:///{tmp_path / 'first.db'}", FakeClock()) as c:
        yield c


def ready(client: TestClient, who: Headers, game: int, value: bool = True) -> Any:
    r = client.post(f"/games/{game}/ready", json={"ready": value}, headers=who)
    assert r.status_code == 200, r.text
    return r.json()


@pytest.fixture
def two_of_seven(client: TestClient) -> tuple[int, Headers, Headers]:
    """The standard game with two players (alice: France, the gamesmaster; bob: Germany),
    started by the gamesmaster with five seats free."""
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    game = create(client, alice, join_as="france")
    join(client, bob, game, "germany")
    assert client.post(f"/games/{game}/gm/start", headers=alice).status_code == 200
    return game, alice, bob


def test_ready_flags_move_a_game_with_free_seats_on(
        client: TestClient, two_of_seven: tuple[int, Headers, Headers]) -> None:
    """1971 XIV.3, 1992 XV.4: a country whose player has left (or never came) is in civil
    disorder, its units hold; so the two players' ready flags end each phase, through Fall 1902,
    without waiting for a deadline."""
    game, alice, bob = two_of_seven
    state = view(client, alice, game)
    assert set(state["free"]) == {"austria", "england", "italy", "russia", "turkey"}
    assert set(state["civil_disorder"]) >= set(state["free"])
    moves = {"S1901M": ("A Par-Bur, A Mar-Spa, F Bre-Mao", "A Mun-Ruh, A Ber-Kie, F Kie-Den"),
             "F1901M": ("A Bur-Bel, A Spa H, F Mao-Por", "A Ruh-Hol, A Kie H, F Den H")}
    seen = []
    while view(client, alice, game)["phase"] != "F1902M":
        phase = view(client, alice, game)["phase"]
        seen.append(phase)
        assert len(seen) < 8, seen
        french, german = moves.get(phase, ("", ""))
        if french:
            orders(client, alice, game, "france", french)
            orders(client, bob, game, "germany", german)
        if view(client, alice, game)["phase_type"] == "adjustments":
            builds = {"france": "Build A Par, Build F Mar", "germany": "Build A Ber, Build A Mun"}
            for who, power in ((alice, "france"), (bob, "germany")):
                if power in view(client, who, game)["to_order"]:
                    orders(client, who, game, power, builds[power])
        for who, power in ((alice, "france"), (bob, "germany")):
            if power in view(client, who, game)["to_order"]:
                ready(client, who, game)
    assert seen == ["S1901M", "F1901M", "W1901A", "S1902M"]
    state = view(client, alice, game)
    assert state["centers"]["france"] == 6 and state["centers"]["germany"] == 5


def _dislodge_vienna(client: TestClient, game: int, alice: Headers, bob: Headers,
                     austria: Headers | None) -> None:
    """Russia (dave) takes Vienna from Galicia with German support; France holds; Austria
    (``austria``, if seated) orders only Budapest, so its army in Vienna has no order."""
    dave = sign_up(client, "dave")
    join(client, dave, game, "russia")
    for fall in (False, True):
        orders(client, dave, game, "russia", "A Gal-Vie" if fall else "A War-Gal", ready=True)
        orders(client, bob, game, "germany", "A Boh S A Gal-Vie" if fall else "A Mun-Boh",
               ready=True)
        if austria is not None:
            orders(client, austria, game, "austria", "A Bud H", ready=True)
        orders(client, alice, game, "france", "", ready=True)


def _fall_results(client: TestClient, game: int, who: Headers) -> list[Any]:
    history = client.get(f"/games/{game}/history", headers=who).json()
    (fall,) = [h for h in history if h["phase"] == "F1901M"]
    return list(fall["resolution"]["results"])


def test_a_phase_only_a_free_seat_must_order_is_not_waited_for(
        client: TestClient, two_of_seven: tuple[int, Headers, Headers]) -> None:
    """Austria has no player: its dislodged army is disbanded in civil disorder at once, and
    the game goes on to the Winter without waiting for the retreat deadline."""
    game, alice, bob = two_of_seven
    _dislodge_vienna(client, game, alice, bob, None)
    state = view(client, alice, game)
    assert state["phase"] in ("W1901A", "S1902M")
    assert "A VIE" not in str(state["position"]["units"].get("AUSTRIA", []))


def test_results_include_a_players_unordered_unit_that_was_dislodged(
        client: TestClient, two_of_seven: tuple[int, Headers, Headers]) -> None:
    game, alice, bob = two_of_seven
    carol = sign_up(client, "carol")
    join(client, carol, game, "austria")
    _dislodge_vienna(client, game, alice, bob, carol)
    assert view(client, carol, game)["phase"] == "F1901R"  # carol's retreat is waited for
    austrian = [r for r in _fall_results(client, game, carol) if r["power"] == "AUSTRIA"]
    (vienna,) = [r for r in austrian if r["order"] == "A VIE"]
    assert vienna["result"] == "dislodged"
    assert vienna["reason"] == "A VIE had no order, so it held, and was dislodged by the unit " \
                               "from GAL."


def test_warnings_before_ready(client: TestClient,
                               two_of_seven: tuple[int, Headers, Headers]) -> None:
    game, alice, _ = two_of_seven
    answer = orders(client, alice, game, "france", "A Par-Bur")
    assert answer["warnings"] == [
        "France: F BRE, A MAR have no order that can be followed and will hold"]
    mine = client.get(f"/games/{game}/orders", headers=alice).json()
    assert mine["france"]["warnings"] == answer["warnings"]
    marked = ready(client, alice, game)
    assert marked["warnings"] == answer["warnings"]
    full = orders(client, alice, game, "france", "A Par-Bur, A Mar H, F Bre H")
    assert full["warnings"] == []


def test_a_later_order_for_the_same_unit_replaces_the_earlier(
        client: TestClient, two_of_seven: tuple[int, Headers, Headers]) -> None:
    game, alice, bob = two_of_seven
    answer = orders(client, alice, game, "france", "A Par-Bur\nA Mar H\nF Bre H\nA Par-Pic")
    first = answer["lines"][0]
    assert not first["ok"] and first["error"]["kind"] == "replaced"
    assert "replaced by the later order A Par-Pic" in first["error"]["message"]
    # replaced, not wrong: marked as such and not counted as an error
    assert first["replaced"] and not any(line["replaced"] for line in answer["lines"][1:])
    assert answer["accepted"] == 3 and answer["errors"] == 0
    mine = client.get(f"/games/{game}/orders", headers=alice).json()["france"]
    assert [line["replaced"] for line in mine["lines"]] == [True, False, False, False]
    assert any("replaced" in w for w in answer["warnings"])
    orders(client, alice, game, "france", "A Par-Bur\nA Mar H\nF Bre H\nA Par-Pic", ready=True)
    orders(client, bob, game, "germany", "", ready=True)
    history = client.get(f"/games/{game}/history", headers=alice).json()
    french = [r for r in history[0]["resolution"]["results"] if r["power"] == "FRANCE"]
    assert {r["order"] for r in french} == {"A PAR - PIC", "A MAR H", "F BRE H"}


def test_draw_count_counts_players_and_leaves_out_free_seats(
        client: TestClient, two_of_seven: tuple[int, Headers, Headers]) -> None:
    game, alice, bob = two_of_seven
    r = client.post(f"/games/{game}/draw", json={"in_favour": True}, headers=alice)
    assert r.json() == {"in_favour": 1, "needed": 2, "end": None}
    r = client.post(f"/games/{game}/draw", json={"in_favour": True}, headers=bob)
    end = view(client, alice, game)["end"]
    assert end["kind"] == "draw" and set(end["winners"]) == {"france", "germany"}


def test_a_concession_completes_with_free_seats(
        client: TestClient, two_of_seven: tuple[int, Headers, Headers]) -> None:
    game, alice, bob = two_of_seven
    r = client.post(f"/games/{game}/concede", json={"to": "france"}, headers=bob)
    assert r.status_code == 200, r.text
    assert r.json()["end"] == "conceded to France"
    assert view(client, alice, game)["end"]["winners"] == ["france"]


def test_leaving_and_the_gamesmaster_giving_the_seat_to_another(
        client: TestClient, two_of_seven: tuple[int, Headers, Headers]) -> None:
    game, alice, bob = two_of_seven
    carol = sign_up(client, "carol")
    orders(client, alice, game, "france", "A Par-Bur", ready=True)
    assert client.post(f"/games/{game}/leave", headers=bob).status_code == 200
    # Germany's seat is free now, so France's ready flag is enough
    state = view(client, alice, game)
    assert state["phase"] == "F1901M" and "germany" in state["free"]
    r = client.post(f"/games/{game}/gm/replace", json={"power": "germany", "username": "carol"},
                    headers=alice)
    assert r.status_code == 200, r.text
    assert view(client, carol, game)["my_powers"] == ["germany"]


def test_a_deadline_below_the_minimum_gets_a_plain_message(
        client: TestClient) -> None:
    alice = sign_up(client, "alice")
    r = client.post("/games", json={"name": "quick", "deadlines": {"movement": 5}},
                    headers=alice)
    assert r.status_code == 422
    (problem,) = r.json()["detail"]
    assert problem["loc"] == ["body", "deadlines", "movement"]
    assert "5 seconds is too short: a deadline is at least 10 seconds" in problem["msg"]
    r = client.post("/games", json={"name": "slow", "deadlines": {"movement": "90d"}},
                    headers=alice)
    assert "90 days is too long: a deadline is at most 60 days" in r.json()["detail"][0]["msg"]


def test_any_power_is_drawn_by_lot_and_recorded(
        client: TestClient) -> None:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    game = create(client, alice, join_as="any")
    mine = view(client, alice, game)["my_powers"]
    assert len(mine) == 1
    seat = join(client, bob, game, "any")
    assert seat["drawn"] is True and seat["powers"][0] not in mine
    assert client.post(f"/games/{game}/gm/start", headers=alice).status_code == 200
    for who in (alice, bob):
        ready(client, who, game)
    history = client.get(f"/games/{game}/history", headers=alice).json()
    events = history[0]["events"]
    assert f"alice drew lots for a power and plays {mine[0].title()}" in events
    assert f"bob drew lots for a power and plays {seat['powers'][0].title()}" in events
    r = client.post(f"/games/{game}/join", json={"power": "any"}, headers=bob)
    assert r.status_code == 409
