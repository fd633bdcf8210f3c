"""Requests at once, as a busy server has them: one game's engine is used by one thread at a
time (its copy is changed in place by an adjudication, and its variant's caches are filled as
orders are listed and read: under the load test, the legal orders of a game being adjudicated
failed now and then with a 500). On the database of ``--database``."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from service_games import open_service, seven_player_game

from realpolitik.game import Game
from realpolitik.server.fairness import FairGate, current_client
from realpolitik.server.service import Account, GameService

READS: dict[str, Callable[[GameService, int, Account], Any]] = {
    "legal_orders": lambda s, g, u: s.legal_orders(u, g, "austria"),
    "orders": lambda s, g, u: s.orders(u, g),
    "warnings": lambda s, g, u: s.warnings(u, g, "austria"),
    "turn": lambda s, g, u: s.turn(u, g, "austria", None, 0),
    "map": lambda s, g, u: s.map_svg(u, g, mine=True),
    "my games": lambda s, g, u: s.list_games(u, mine=True),
}


@pytest.mark.parametrize("read", list(READS))
def test_a_read_of_the_engine_and_an_adjudication_take_turns(
        database_url: str, read: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """While a read is inside the engine (held there a while), an adjudication of the same game
    in another thread waits for it, rather than changing the game under it."""
    service = open_service(database_url)
    game_id, users = seven_player_game(service, "busy")
    service.submit_orders(users[0], game_id, "austria", "A Vie-Gal")
    inside = threading.Event()
    overlaps: list[str] = []
    real_process = Game.process
    reader = threading.current_thread()

    def held(method: Callable[..., Any]) -> Callable[..., Any]:
        """``method``, held a while on the reader's first call: the read is in the engine,
        and the adjudication comes meanwhile."""
        def slowly(game: Game, *args: Any) -> Any:
            if threading.current_thread() is reader and not inside.is_set():
                inside.set()
                time.sleep(0.3)
                try:
                    return method(game, *args)
                finally:
                    inside.clear()
            return method(game, *args)
        return slowly

    def watched_process(game: Game) -> Any:
        if inside.is_set():
            overlaps.append("the game was adjudicated while a read was in its engine")
        return real_process(game)

    for name in ("powers_to_order", "legal_orders", "orders_of"):
        monkeypatch.setattr(Game, name, held(getattr(Game, name)))
    monkeypatch.setattr(Game, "process", watched_process)

    def adjudicate() -> None:
        assert inside.wait(5)
        service.process(game_id)

    other = threading.Thread(target=adjudicate)
    other.start()
    READS[read](service, game_id, users[0])
    other.join(10)
    assert not other.is_alive()
    assert overlaps == []
    assert str(service._read(game_id).game.phase) == "F1901M"  # it did adjudicate, after


# -- taking turns: the service's threads are let to clients in turn ------------------------------

def test_the_gate_lets_clients_in_by_turns_not_by_arrival() -> None:
    """One slot, held; client A queues three requests, then B one: B goes second, not fourth."""
    async def run() -> list[str]:
        gate = FairGate(1)
        order: list[str] = []
        hold = asyncio.Event()

        async def request(client: str, name: str) -> None:
            async with gate.slot(client):
                order.append(name)
                if name == "first":
                    await hold.wait()

        tasks = [asyncio.create_task(request("x", "first"))]
        await asyncio.sleep(0)
        for name, client in (("a1", "a"), ("a2", "a"), ("a3", "a"), ("b1", "b")):
            tasks.append(asyncio.create_task(request(client, name)))
            await asyncio.sleep(0)
        assert gate.waiting == 4
        hold.set()
        await asyncio.gather(*tasks)
        assert gate.busy == 0 and gate.waiting == 0
        return order

    assert asyncio.run(run()) == ["first", "a1", "b1", "a2", "a3"]


def test_a_request_given_up_while_waiting_leaves_no_trace() -> None:
    """A client that goes away while its request waits (the task cancelled), before its turn
    or just as the slot is handed to it, neither keeps a slot nor a place in the queue."""
    async def run() -> None:
        gate = FairGate(1)
        served: list[str] = []

        async def request(client: str) -> None:
            async with gate.slot(client):
                served.append(client)

        holding = gate.slot("holder")
        await holding.__aenter__()
        gone, handed, last = (asyncio.create_task(request(c)) for c in ("gone", "handed", "last"))
        await asyncio.sleep(0)
        gone.cancel()  # before its turn
        await asyncio.sleep(0)
        await holding.__aexit__(None, None, None)  # the slot is handed to "handed"...
        handed.cancel()  # ...which is cancelled before it runs: it passes the slot on
        await asyncio.gather(gone, handed, return_exceptions=True)
        await last
        assert served == ["last"]
        assert gate.busy == 0 and gate.waiting == 0

    asyncio.run(run())


def test_service_calls_take_turns_by_client(database_url: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Through :meth:`GameService.call`: a client with many calls waiting does not make the
    others wait behind them all (the client is the request's, ``current_client``)."""
    service = open_service(database_url)
    monkeypatch.setattr(service, "DATABASE_THREADS", 1)
    done: list[str] = []
    release = threading.Event()

    def work(name: str) -> None:
        if name == "busy":
            assert release.wait(5)
        done.append(name)

    async def run() -> None:
        async def request(client: str, name: str) -> None:
            current_client.set(client)
            await service.call(work, name)

        tasks = [asyncio.create_task(request("flood", "busy"))]
        await asyncio.sleep(0.05)
        tasks += [asyncio.create_task(request("flood", f"flood {i}")) for i in range(5)]
        await asyncio.sleep(0.05)
        tasks.append(asyncio.create_task(request("player", "player")))
        await asyncio.sleep(0.05)
        release.set()
        await asyncio.gather(*tasks)

    asyncio.run(run())
    assert done[:3] == ["busy", "flood 0", "player"]
    assert len(done) == 7
