"""DAIDE bots on the game server (issue 31, item 2): a game created on the server takes DAIDE
bots in its free seats through the server's DAIDE port; they play through the same service as
people, keep their seat across a disconnection, and are shown as bots.

Runs on SQLite, and on PostgreSQL with ``--database postgres``. The game with Parlance's DumbBot
(Python 2.7) is skipped, saying why, where Parlance is not installed.
"""

from __future__ import annotations

import asyncio
import random
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402
from test_server import FakeClock, Headers, create, make_client, orders, sign_up, view  # noqa: E402

from realpolitik.bots import make_bot  # noqa: E402
from realpolitik.daide.client import ClientResult, play_bots  # noqa: E402
from realpolitik.daide.tokens import Message, Text  # noqa: E402
from realpolitik.daide.wire import Connection, Frame, initial_message, parse_representation  # noqa: E402

OTHERS = ("austria", "england", "germany", "italy", "russia")
"""The seats the gamesmaster gives realpolitik's bots; Turkey is left to a DAIDE bot."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def port() -> int:
    return free_port()


@pytest.fixture
def db_url(database_url: str) -> str:
    return database_url


@pytest.fixture
def client(db_url: str, port: int) -> Iterator[TestClient]:
    with make_client(db_url, FakeClock(), daide_port=port) as c:
        assert c.app.state.daide_port == port  # type: ignore[attr-defined]
        yield c


def game_for_a_daide_bot(client: TestClient, name: str = "Friday") -> tuple[int, Headers]:
    """alice plays France; realpolitik's bots five seats; Turkey waits for a DAIDE bot."""
    alice = sign_up(client, "alice")
    game = create(client, alice, name=name, join_as="france", daide_bots=True, end_year=1901)
    for power in OTHERS:
        r = client.post(f"/games/{game}/gm/bot", json={"power": power}, headers=alice)
        assert r.status_code == 200, r.text
    return game, alice


def in_background(work: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(work()), daemon=True)
    thread.start()
    return thread, out


def play_as_france_until_the_end(client: TestClient, alice: Headers, game: int,
                                 timeout: float = 90) -> list[str]:
    """alice gives France random legal orders (and is ready) whenever France has something to
    order; returns the phases she ordered in."""
    rng, ordered = random.Random(3), []
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        state = view(client, alice, game)
        if state["status"] == "finished":
            return ordered
        if state["status"] == "active" and "france" in state["to_order"] \
                and "france" not in state["ready"]:
            listing = client.get(f"/games/{game}/legal-orders", params={"power": "france"},
                                 headers=alice).json()
            picks = [rng.choice(options)["text"] for loc, options in listing.items()
                     if loc != "waive"]
            answer = client.put(f"/games/{game}/orders", headers=alice, json={
                "power": "france", "text": "\n".join(picks), "ready": True,
                "phase": state["phase"]})
            if answer.status_code == 200:
                ordered.append(state["phase"])
            else:  # the DAIDE bot's orders played the phase meanwhile
                assert answer.json()["detail"]["code"] == "phase_changed", answer.text
        time.sleep(0.05)
    raise AssertionError(f"the game did not end in {timeout} s: {view(client, alice, game)}")


def wait_for(check: Callable[[], bool], what: str, timeout: float = 30) -> None:
    until = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < until, f"waited {timeout} s for {what}"
        time.sleep(0.05)


def test_our_daide_bot_plays_a_year_beside_a_person_and_is_shown_as_a_bot(
        client: TestClient, port: int) -> None:
    game, alice = game_for_a_daide_bot(client)
    assert view(client, alice, game)["status"] == "forming"
    listed = {g["id"]: g for g in client.get("/games").json()}[game]
    assert listed["daide_bots"] and listed["seats_free"] == 1

    thread, out = in_background(lambda: asyncio.run(play_bots(
        "127.0.0.1", port, [make_bot("heuristic", seed=1)], game="Friday")))
    wait_for(lambda: view(client, alice, game)["status"] == "active", "the game to start")
    state = view(client, alice, game)
    turkey = next(s for s in state["seats"] if s["powers"] == ["turkey"])
    label = turkey["daide"]
    assert label.startswith("realpolitik v") and label.endswith(" (DAIDE)")
    assert turkey["player"] is None and state["bots"]["turkey"] == label
    assert "turkey" not in state["free"] and state["daide_bots"]
    assert state["daide_port"] == port
    change = state["seat_changes"][-1]
    assert (change["kind"], change["powers"], change["bot"]) == ("daide", ["turkey"], label)
    listed = {g["id"]: g for g in client.get("/games").json()}[game]
    assert listed["seats_free"] == 0 and label in listed["bots"]

    ordered = play_as_france_until_the_end(client, alice, game)
    thread.join(30)
    assert not thread.is_alive()
    result: ClientResult = out[0][0]
    assert result.power == "turkey" and result.end == "draw", result
    assert result.phases >= 2 and not result.problems, result
    assert ordered[:2] == ["S1901M", "F1901M"]
    state = view(client, alice, game)
    assert state["status"] == "finished" and state["end"]["kind"] == "short_game"
    assert result.centres == state["centers"]  # the bot was told the summary (SMR)
    # the bot's orders went through the service like a person's: in the record, all read
    history = client.get(f"/games/{game}/history").json()
    turkish = [h["orders"].get("TURKEY", []) for h in history[:2]]
    assert all(given and all(o.get("error") is None for o in given) for given in turkish)
    record = client.get(f"/games/{game}/record").text
    assert f"{label} took Turkey" in record


def test_a_daide_bot_that_names_no_game_gets_the_oldest_with_a_free_seat(
        client: TestClient, port: int) -> None:
    first, alice = game_for_a_daide_bot(client, "first")
    bob = sign_up(client, "bob")
    # a newer game with free seats, and an older one that takes no DAIDE bots
    second = create(client, bob, name="second", join_as="england", daide_bots=True)
    create(client, bob, name="people only", join_as="france")

    async def two_bots() -> list[Message]:
        answers = []
        for _ in range(2):
            raw = await RawClient.connect(port)
            raw.send(("NME", (Text("Probe"),), (Text("0.1"),)))
            answers.append(await raw.until("YES", "REJ"))
            await raw.close()
        return answers

    answers = asyncio.run(two_bots())
    assert [a[0] for a in answers] == ["YES", "YES"]
    state = view(client, alice, first)
    assert state["status"] == "active" and state["bots"]["turkey"] == "Probe 0.1 (DAIDE)"
    # the first game is full: the next bot went to the second
    assert "Probe 0.1 (DAIDE)" in view(client, bob, second)["bots"].values()


def test_a_daide_bot_keeps_its_seat_and_takes_it_back_with_its_passcode(
        client: TestClient, port: int) -> None:
    game, alice = game_for_a_daide_bot(client)

    async def drop_and_come_back() -> tuple[Message, Message, Message, Message]:
        raw = await RawClient.connect(port)
        raw.send(("SEL", (Text(str(game)),)))
        assert (await raw.until("YES", "REJ"))[0] == "YES"
        raw.send(("NME", (Text("Dropper"),), (Text("2"),)))
        await raw.until("MAP")
        raw.send(("YES", ("MAP", (Text("standard"),))))
        hlo = await raw.until("HLO")
        await raw.until("NOW")
        await raw.close()  # the connection drops: the seat stays the bot's
        wrong = await RawClient.connect(port)
        wrong.send(("IAM", hlo[1], ((hlo[2][0] % 8191) + 1,)))  # type: ignore[index]
        refused = await wrong.until("YES", "REJ")
        await wrong.close()
        back = await RawClient.connect(port)
        back.send(("IAM", hlo[1], hlo[2]))
        taken = await back.until("YES", "REJ")
        now = await back.until("NOW")
        await back.close()
        return hlo, refused, taken, now

    hlo, refused, taken, now = asyncio.run(drop_and_come_back())
    assert hlo[1] == ("TUR",) and refused[0] == "REJ" and taken[0] == "YES"
    assert now[1] == ("SPR", 1901)
    # HLO gave the game's deadlines: movement 15 minutes, retreats and adjustments 5
    assert ("MTL", 900) in hlo[3] and ("RTL", 300) in hlo[3]  # type: ignore[operator]
    state = view(client, alice, game)
    assert state["bots"]["turkey"] == "Dropper 2 (DAIDE)" and "turkey" not in state["free"]


def test_a_daide_bot_whose_seat_is_given_away_is_told_off(client: TestClient,
                                                         port: int) -> None:
    game, alice = game_for_a_daide_bot(client)
    bob = sign_up(client, "bob")

    async def replaced() -> Message:
        raw = await RawClient.connect(port)
        raw.send(("NME", (Text("Ousted"),), (Text("1"),)))
        await raw.until("MAP")
        raw.send(("YES", ("MAP", (Text("standard"),))))
        await raw.until("NOW")
        answer = await asyncio.to_thread(
            client.post, f"/games/{game}/gm/replace", json={"power": "turkey",
                                                            "username": "bob"}, headers=alice)
        assert answer.status_code == 200, answer.text
        off = await raw.until("OFF")
        await raw.close()
        return off

    assert asyncio.run(replaced()) == ("OFF",)
    state = view(client, bob, game)
    assert state["my_powers"] == ["turkey"] and "turkey" not in state["bots"]


def test_a_daide_bots_orders_are_checked_and_make_it_ready(client: TestClient,
                                                         port: int) -> None:
    game, alice = game_for_a_daide_bot(client)

    async def order() -> list[Message]:
        raw = await RawClient.connect(port)
        raw.send(("NME", (Text("Orderer"),), (Text("1"),)))
        await raw.until("MAP")
        raw.send(("YES", ("MAP", (Text("standard"),))))
        await raw.until("NOW")
        raw.send(("SUB", (("TUR", "AMY", "CON"), "MTO", "BUL"),
                  (("TUR", "AMY", "SMY"), "MTO", "PAR")))
        got = [await raw.until("THX"), await raw.until("THX"), await raw.until("MIS")]
        raw.send(("SUB", (("TUR", "AMY", "SMY"), "HLD"), (("TUR", "FLT", "ANK"), "MTO", "BLA")))
        got += [await raw.until("THX"), await raw.until("THX")]
        orders(client, alice, game, "france", "A Par-Bur", ready=True)
        got.append(await raw.until("ORD"))
        await raw.close()
        return got

    bul, par, mis, _, _, ord_ = asyncio.run(order())
    assert bul[2] == ("MBV",) and par[2] == ("FAR",)
    assert mis[0] == "MIS" and (("TUR", "FLT", "ANK") in mis and ("TUR", "AMY", "SMY") in mis)
    assert ord_[1] == ("SPR", 1901)
    history = client.get(f"/games/{game}/history").json()
    assert {o["order"] for o in history[0]["orders"]["TURKEY"]} == {
        "A CON - BUL", "A SMY H", "F ANK - BLA"}


def test_games_for_daide_bots_are_checked(client: TestClient) -> None:
    alice = sign_up(client, "alice")
    for body, words in [({"variant": "colonial_winters"}, "classical map"),
                        ({"players": "4"}, "one power each")]:
        r = client.post("/games", json={"name": "x", "daide_bots": True, **body},
                        headers=alice)
        assert r.status_code == 422 and words in r.json()["detail"]["message"], r.text
        assert r.json()["detail"]["field"] == "daide_bots"
    # the page's catalogue says where they may: the classical map, one power a player
    catalogue = {v["id"]: v for v in client.get("/web/variants").json()["variants"]}
    classical = {s["id"]: s["daide_bots"] for s in catalogue["classical"]["setups"]}
    assert classical["7"] is True and classical["4"] is False and classical["2"] is False
    assert not any(s["daide_bots"] for s in catalogue["colonial_winters"]["setups"])


def test_without_a_daide_port_none_is_opened(db_url: str) -> None:
    with make_client(db_url, FakeClock()) as c:
        assert c.app.state.daide_port is None  # type: ignore[attr-defined]
        alice = sign_up(c, "alice")
        game = create(c, alice, daide_bots=True)
        assert view(c, alice, game)["daide_port"] is None


@pytest.mark.skipif(shutil.which("dumbbot", path=str(Path.home() / ".local/bin")) is None,
                    reason="Parlance's DumbBot is not installed (scripts/install_parlance.sh "
                    "installs it with Python 2.7 into ~/.local/bin)")
def test_dumbbot_joins_a_server_game_and_plays_a_year(client: TestClient, port: int) -> None:
    game, alice = game_for_a_daide_bot(client)
    dumbbot = str(Path.home() / ".local/bin/dumbbot")
    process = subprocess.Popen([dumbbot, f"127.0.0.1:{port}"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: view(client, alice, game)["status"] == "active",
                 "DumbBot to take its seat", timeout=60)
        label = view(client, alice, game)["bots"]["turkey"]
        assert label.startswith("DumbBot") and label.endswith("(DAIDE)")
        play_as_france_until_the_end(client, alice, game, timeout=180)
        history = client.get(f"/games/{game}/history").json()
        assert history[0]["orders"].get("TURKEY"), "DumbBot gave orders in Spring 1901"
        process.wait(30)  # it leaves when the game ends
    finally:
        if process.poll() is None:
            process.kill()


class RawClient:
    """A DAIDE connection for the tests: send messages, wait for one with a given head."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    @classmethod
    async def connect(cls, port: int) -> RawClient:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        connection = Connection(reader, writer)
        writer.write(initial_message())
        kind, payload = await connection.read_frame()
        assert kind is Frame.REPRESENTATION
        connection.table = connection.table.with_representation(parse_representation(payload))
        return cls(connection)

    def send(self, message: Message) -> None:
        self.connection.send(message)

    async def until(self, *heads: str, timeout: float = 30) -> Message:
        while True:
            kind, payload = await asyncio.wait_for(self.connection.read_frame(), timeout)
            if kind is Frame.DIPLOMACY:
                message = self.connection.decode(payload)
                if message and message[0] in heads:
                    return message

    async def close(self) -> None:
        await self.connection.close()


def test_a_daide_bots_draw_vote_is_counted_as_a_players(client: TestClient, port: int) -> None:
    game, alice = game_for_a_daide_bot(client)
    assert view(client, alice, game)["draw_votes"]["in_favour"] == 0

    async def vote() -> list[dict[str, int]]:
        raw = await RawClient.connect(port)
        raw.send(("NME", (Text("Voter"),), (Text("1"),)))
        await raw.until("MAP")
        raw.send(("YES", ("MAP", (Text("standard"),))))
        await raw.until("NOW")
        counts = []
        for message in [("DRW",), ("NOT", ("DRW",))]:
            raw.send(message)
            await raw.until("YES")
            counts.append(view(client, alice, game)["draw_votes"])
        await raw.close()
        return counts

    # the other bots vote against while no player but the DAIDE bot is for it
    assert asyncio.run(vote()) == [{"in_favour": 1, "needed": 7},
                                   {"in_favour": 0, "needed": 7}]
    assert view(client, alice, game)["status"] == "active"
