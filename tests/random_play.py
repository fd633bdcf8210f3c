"""Seeded random play through the native API, for the tests that check the game's bookkeeping
against what the positions of whole games say."""

from __future__ import annotations

import random

from realpolitik.game import Game


def played_game(seed: int, years: int = 6) -> Game:
    """A classical game played with random legal orders (seeded) for ``years`` years or to
    its end."""
    rng = random.Random(seed)
    game = Game("classical")
    while not game.is_over and game.phase.year < 1901 + years:
        for power in game.powers_to_order():
            listed = game.legal_orders(power)
            game.submit(power, [options[rng.randrange(len(options))]
                                for options in listed.values()])
        game.process()
    return game
