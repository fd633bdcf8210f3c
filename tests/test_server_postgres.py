"""Several server processes over one PostgreSQL database: no lost update when two workers take
orders for the same game at once, live events reach the sockets of every worker, each overdue
deadline is processed exactly once, and ``realpolitik serve --workers 2`` serves.

Each test starts real server processes on loopback ports (or, for the deadline test, two
applications in this process with their own caches), on a fresh database of the session's
throwaway PostgreSQL server (skipped when PostgreSQL is not installed)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")
pytest.importorskip("psycopg")

from fastapi.testclient import TestClient  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402
from websockets.sync.client import connect as ws_connect  # noqa: E402

from realpolitik.server import Settings, create_app  # noqa: E402

pytestmark = pytest.mark.slow
Headers = dict[str, str]
ALICE_POWERS = ("england", "france", "russia")
BOB_POWERS = ("austria", "germany", "turkey")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(url: str, workers: int = 1) -> Iterator[str]:
    """``realpolitik serve`` on a free loopback port; yields its base URL."""
    port = _free_port()
    env = {**os.environ, "REALPOLITIK_TICK_SECONDS": "0.2"}
    proc = subprocess.Popen([sys.executable, "-m", "realpolitik", "serve", "--port", str(port),
                             "--database", url, "--workers", str(workers)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise AssertionError(f"the server exited: {proc.stderr.read().decode()[-2000:]}"
                                     if proc.stderr else "the server exited")
            try:
                if httpx.get(f"{base}/games", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("the server did not start")
            time.sleep(0.1)
        yield base
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def sign_up(base: str, name: str) -> Headers:
    r = httpx.post(f"{base}/auth/signup", json={"username": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def two_player_game(base: str, alice: Headers, bob: Headers, **deadlines: str) -> int:
    body: dict[str, Any] = {"name": "shared", "players": "2", "join_as": "england"}
    if deadlines:
        body["deadlines"] = deadlines
    r = httpx.post(f"{base}/games", json=body, headers=alice)
    assert r.status_code == 201, r.text
    game = int(r.json()["id"])
    r = httpx.post(f"{base}/games/{game}/join", json={"power": "germany"}, headers=bob)
    assert r.status_code == 200, r.text
    return game


def test_two_workers_share_games_orders_and_live_events(postgres_url: str) -> None:
    with server(postgres_url) as a, server(postgres_url) as b:
        alice, bob = sign_up(a, "alice"), sign_up(b, "bob")
        game = two_player_game(a, alice, bob)
        holds = {p: httpx.get(f"{b}/games/{game}/legal-orders", params={"power": p},
                              headers=alice if p in ALICE_POWERS else bob).json()
                 for p in ALICE_POWERS + BOB_POWERS}
        # every unit's orders, given 8 times over through both workers at once; the last
        # round marks each power ready, so the phase is adjudicated when all six are in
        rounds = 8

        def give(power: str) -> list[int]:
            who = alice if power in ALICE_POWERS else bob
            codes = []
            for k in range(rounds):
                base = (a, b)[k % 2]
                text = "\n".join(options[k % len(options)]["text"]
                                 for _, options in sorted(holds[power].items()))
                body: dict[str, Any] = {"power": power, "text": text}
                if k == rounds - 1:
                    body["ready"] = True
                codes.append(httpx.put(f"{base}/games/{game}/orders", json=body,
                                       headers=who, timeout=30).status_code)
            return codes

        with ws_connect(f"{a.replace('http', 'ws')}/games/{game}/ws", open_timeout=10) as ws:
            assert json.loads(ws.recv(10))["type"] == "hello"
            with ThreadPoolExecutor(6) as pool:
                results = list(pool.map(give, ALICE_POWERS + BOB_POWERS))
            assert all(code == 200 for codes in results for code in codes), results
            phase_event = _next_event(ws, "phase")
        assert phase_event["phase"] == "F1914M"
        history = httpx.get(f"{b}/games/{game}/history").json()
        assert len(history) == 1, "the phase was adjudicated exactly once"
        played = history[0]
        assert played["civil_disorder"] == []
        # every power's orders are the last ones it gave: no update was lost
        given = {}
        for result in played["resolution"]["results"]:
            given.setdefault(result["power"].lower(), []).append(result["order"])
        for power in ALICE_POWERS + BOB_POWERS:
            last = rounds - 1
            expected = sorted(options[last % len(options)]["text"]
                              for _, options in holds[power].items())
            assert sorted(given[power]) == expected, power

        # a phase processed through worker B reaches a socket on worker A
        with ws_connect(f"{a.replace('http', 'ws')}/games/{game}/ws", open_timeout=10) as ws:
            assert json.loads(ws.recv(10))["type"] == "hello"
            r = httpx.post(f"{b}/games/{game}/gm/process", headers=alice, timeout=30)
            assert r.status_code == 200, r.text
            assert _next_event(ws, "phase")["phase"] in ("W1914A", "S1915M")
        # a ticket from worker A opens a player's socket on worker B; the log-out through A
        # closes it
        r = httpx.post(f"{a}/auth/ticket", headers=bob)
        assert r.status_code == 200, r.text
        url = f"{b.replace('http', 'ws')}/games/{game}/ws?ticket={r.json()['ticket']}"
        with ws_connect(url, open_timeout=10) as ws:
            hello = json.loads(ws.recv(10))
            assert hello["type"] == "hello" and hello["user"] == "bob", hello
            assert httpx.post(f"{a}/auth/logout", headers=bob).status_code == 200
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(20)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        assert httpx.get(f"{b}/auth/me", headers=bob).status_code == 401  # B forgot it too
        # and both workers see the same game now (each one's cache checked against the row)
        view_a = _without_clock(httpx.get(f"{a}/games/{game}").json())
        view_b = _without_clock(httpx.get(f"{b}/games/{game}").json())
        assert view_a == view_b


def _without_clock(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("now", "seconds_left")}


def _next_event(ws: Any, kind: str, timeout: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {kind!r} event within {timeout:.0f} s")
        event: dict[str, Any] = json.loads(ws.recv(left))
        if event["type"] == kind:
            return event


def test_serve_with_two_workers(postgres_url: str) -> None:
    with server(postgres_url, workers=2) as base:
        alice, bob = sign_up(base, "alice"), sign_up(base, "bob")
        game = two_player_game(base, alice, bob)
        for _ in range(10):  # new connections: the kernel spreads them over the workers
            assert httpx.get(f"{base}/games/{game}", headers=bob).json()["status"] == "active"


def test_each_overdue_deadline_is_processed_once(postgres_url: str) -> None:
    now = [1_700_000_000.0]

    def clock() -> float:
        return now[0]

    apps = [create_app(Settings(database_url=postgres_url, background=False), clock=clock)
            for _ in range(2)]
    with TestClient(apps[0]) as first, TestClient(apps[1]) as second:
        tokens = []
        for name in ("alice", "bob"):
            r = first.post("/auth/signup", json={"username": name, "password": "correct horse"})
            tokens.append({"Authorization": f"Bearer {r.json()['token']}"})
        games = []
        for i in range(12):
            r = first.post("/games", headers=tokens[0], json={
                "name": f"g{i}", "players": "2", "join_as": "england",
                "deadlines": {"first_movement": "10s"}})
            games.append(int(r.json()["id"]))
            assert second.post(f"/games/{games[-1]}/join", json={"power": "germany"},
                               headers=tokens[1]).status_code == 200
        now[0] += 11
        services = [app.state.service for app in apps]
        start = threading.Barrier(2)

        def tick(service: Any) -> list[int]:
            start.wait()
            done: list[int] = service.process_due()
            return done

        with ThreadPoolExecutor(2) as pool:
            done = list(pool.map(tick, services))
        assert sorted(done[0] + done[1]) == sorted(games)
        assert not set(done[0]) & set(done[1])
        for game in games:
            history = second.get(f"/games/{game}/history").json()
            assert [h["phase"] for h in history] == ["S1914M"]
            assert first.get(f"/games/{game}").json()["phase"] == "F1914M"
        assert services[0].process_due() == [] and services[1].process_due() == []
