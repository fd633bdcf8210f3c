"""Chaos: the real server is killed with SIGKILL at random moments while two players submit
orders, send press and mark ready (so phases are adjudicated while the kills land), and is
restarted each time. Nothing the server acknowledged may be lost: for every phase and power, the
orders kept are the last acknowledged ones (or a later submission that was in flight at the
kill, committed but never answered), and every acknowledged press message is there.

Bounded: ``REALPOLITIK_CHAOS_KILLS`` kills (4 by default), each after 0.3 to 1.5 s of traffic;
loopback only. It prints the kills survived and the acknowledged items checked.
"""

from __future__ import annotations

import os
import random
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

from live_server import LiveServer  # noqa: E402

KILLS = int(os.environ.get("REALPOLITIK_CHAOS_KILLS", "4"))


@dataclass
class Player:
    name: str
    power: str
    unit: str
    headers: dict[str, str] = field(default_factory=dict)
    attempts: list[int] = field(default_factory=list)
    """Every submission's number, in the order sent."""
    acked: dict[str, list[int]] = field(default_factory=dict)
    """Per phase, the numbers of the submissions the server answered 200."""
    press: list[str] = field(default_factory=list)
    """The bodies of the press messages answered 201."""


def _tag(number: int) -> str:
    return f"note{number}"


def _traffic(base: str, game: int, player: Player, stop: threading.Event,
             counter: list[int], lock: threading.Lock, rng: random.Random) -> None:
    """Submit orders (each with a unique unreadable line that is kept as typed), send press and
    now and then mark ready, until ``stop`` or the server goes away."""
    with httpx.Client(base_url=base, headers=player.headers, timeout=5) as client:
        while not stop.is_set():
            with lock:
                counter[0] += 1
                number = counter[0]
            player.attempts.append(number)
            roll = rng.random()
            try:
                if roll < 0.1:
                    body = f"{player.name} {number}"
                    r = client.post(f"/games/{game}/press", json={"body": body})
                    if r.status_code == 201:
                        player.press.append(body)
                    continue
                ready = roll > 0.85
                r = client.put(f"/games/{game}/orders", json={
                    "power": player.power, "text": f"{player.unit} H\n{_tag(number)}",
                    "ready": ready})
                if r.status_code == 200:
                    player.acked.setdefault(r.json()["phase"], []).append(number)
                if ready:  # all the player's powers: when both are ready, the phase is played
                    client.post(f"/games/{game}/ready", json={})
            except httpx.TransportError:
                time.sleep(0.05)  # the server is down: wait for the restart


def _kept(base: str, game: int, players: list[Player]) -> dict[tuple[str, str], int]:
    """The submission number kept for each (phase, power): from the history of played phases
    as each player sees it (the note line is not an order, so only its writer sees it) and from
    each player's own orders of the current phase."""
    kept: dict[tuple[str, str], int] = {}
    for player in players:
        history = httpx.get(f"{base}/games/{game}/history", headers=player.headers).json()
        for entry in history:
            for line in entry["orders"].get(player.power.upper(), []):
                if line["text"].startswith("note"):
                    kept[(entry["phase"], player.power)] = int(line["text"][4:])
    phase = httpx.get(f"{base}/games/{game}").json()["phase"]
    for player in players:
        mine = httpx.get(f"{base}/games/{game}/orders", headers=player.headers).json()
        text = mine.get(player.power, {}).get("text") or ""
        for line in text.splitlines():
            if line.startswith("note"):
                kept[(phase, player.power)] = int(line[4:])
    return kept


def _all_press(base: str, game: int, player: Player) -> set[str]:
    """Every message ``player`` may read, page after page (the server answers 100 at a time)."""
    bodies: set[str] = set()
    after = 0
    while True:
        page = httpx.get(f"{base}/games/{game}/press", params={"after": after},
                         headers=player.headers).json()
        bodies.update(message["body"] for message in page)
        if not page:
            return bodies
        after = page[-1]["id"]


@pytest.mark.slow
def test_kill_9_loses_no_acknowledged_submission(tmp_path: Path) -> None:
    rng = random.Random(int(os.environ.get("REALPOLITIK_CHAOS_SEED", "18")))
    server = LiveServer(tmp_path / "chaos.db", tmp_path / "chaos.log", log_level="warning",
                        env={"REALPOLITIK_ORDERS_PER_MINUTE": "100000",
                             "REALPOLITIK_PRESS_PER_MINUTE": "100000"}).start()
    players = [Player("alice", "france", "A PAR"), Player("bob", "germany", "A MUN")]
    try:
        for player in players:
            r = httpx.post(f"{server.base}/auth/signup", json={"username": player.name,
                                                               "password": "correct horse"})
            player.headers = {"Authorization": f"Bearer {r.json()['token']}"}
        game = httpx.post(f"{server.base}/games", headers=players[0].headers, json={
            "name": "chaos", "players": "2", "join_as": "france",
            "press": {"outside_diplomacy": True}}).json()["id"]
        httpx.post(f"{server.base}/games/{game}/join", json={"power": "germany"},
                   headers=players[1].headers)
        counter, lock = [0], threading.Lock()
        for _ in range(KILLS):
            stop = threading.Event()
            threads = [threading.Thread(target=_traffic, args=(
                server.base, game, p, stop, counter, lock, random.Random(rng.random())))
                for p in players]
            for thread in threads:
                thread.start()
            time.sleep(rng.uniform(0.3, 1.5))
            server.kill()
            stop.set()
            for thread in threads:
                thread.join(timeout=30)
            server.start()
        kept = _kept(server.base, game, players)
        history = httpx.get(f"{server.base}/games/{game}/history").json()
        assert [entry["seq"] for entry in history] == list(range(len(history)))
        press = _all_press(server.base, game, players[0])
    finally:
        server.stop()
    acked = lost = 0
    for player in players:
        for phase, numbers in player.acked.items():
            acked += len(numbers)
            last = numbers[-1]
            stored = kept.get((phase, player.power))
            # the last acknowledged submission, or a later one sent before the kill
            if stored is None or stored < last or stored not in player.attempts:
                lost += 1
                print(f"LOST: {player.power} {phase}: acknowledged {last}, kept {stored}")
        for body in player.press:
            acked += 1
            if body not in press:
                lost += 1
                print(f"LOST: press {body!r}")
    print(f"\nchaos: {KILLS} kills survived, {len(history)} phases played, {acked} "
          f"acknowledged items checked, {lost} lost")
    assert acked > 20 and len(history) >= 1
    assert lost == 0
