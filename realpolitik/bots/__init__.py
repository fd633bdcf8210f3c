"""Computer players: bots that give a power's orders in any variant the engine loads.

>>> from realpolitik.game import Game
>>> from realpolitik.bots import make_bot
>>> game = Game("classical")
>>> bot = make_bot("heuristic", seed=1)
>>> for power in game.powers_to_order():
...     report = game.submit(power, bot.orders(game.position, power, game.rules))
>>> resolution = game.process()
>>> str(game.phase)
'F1901M'

Three bots come with the engine: ``random`` (uniform over the legal orders), ``hold`` (every
unit holds) and ``heuristic`` (values the board and plays for centres, see
:mod:`realpolitik.bots.heuristic`). Each gives only legal orders and is deterministic for its
seed. Standard library only.
"""

from __future__ import annotations

from realpolitik.bots.base import DRAW_POLICY, Bot, DrawPolicy
from realpolitik.bots.heuristic import HeuristicBot, Weights
from realpolitik.bots.simple import HoldBot, RandomBot

BOTS: dict[str, type[Bot]] = {bot.name: bot for bot in (RandomBot, HoldBot, HeuristicBot)}
"""Every bot by its name."""

BOT_NAMES: tuple[str, ...] = tuple(BOTS)


def make_bot(name: str, seed: int = 0) -> Bot:
    """The bot called ``name`` (``random``, ``hold`` or ``heuristic``), seeded with ``seed``.

    :raises ValueError: no bot has that name.
    """
    bot = BOTS.get(name.strip().lower())
    if bot is None:
        raise ValueError(f"no bot is called {name!r}: the bots are {', '.join(BOT_NAMES)}")
    return bot(seed)


__all__ = ["BOTS", "BOT_NAMES", "DRAW_POLICY", "Bot", "DrawPolicy", "HeuristicBot", "HoldBot",
           "RandomBot", "Weights", "make_bot"]
