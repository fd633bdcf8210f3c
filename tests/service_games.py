"""The game service without the web layer, for the tests that call it directly: a service on a
database, and a classical game of seven players already seated."""

from __future__ import annotations

from typing import Any

from realpolitik.server.service import Account, Deadlines, GameOptions, GameService
from realpolitik.server.settings import Settings
from realpolitik.server.store import Store

POWERS = ("austria", "england", "france", "germany", "italy", "russia", "turkey")
"""The classical powers, in the order the players of :func:`seven_player_game` take them."""

DAY = 86400


def open_service(url: str, **settings: Any) -> GameService:
    """A service (its own store, its own caches: as one server process has) on the database of
    ``url``, brought up to date; ``settings`` as :meth:`Settings.from_env` takes them (no
    background tasks unless asked)."""
    store = Store(url)
    store.migrate()
    return GameService(store, Settings.from_env({}, database_url=url,
                                                **{"background": False, **settings}))


def seven_player_game(service: GameService, name: str) -> tuple[int, list[Account]]:
    """A classical game of seven players (``player0`` to ``player6``, each a power of
    :data:`POWERS` in turn; ``player0`` created it), with a day for every phase: started."""
    users = [service.accounts._create(f"player{i}", "not a real hash", "local", None)[0]
             for i in range(7)]
    game_id = service.create_game(users[0], GameOptions(
        name=name, players="7", deadlines=Deadlines(DAY, DAY, DAY, DAY)))
    for user, power in zip(users, POWERS, strict=True):
        service.join(user, game_id, power, None)
    return game_id, users
