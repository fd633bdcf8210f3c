"""A cost for futile moves in the heuristic bot's lookahead (issue 31's leftovers: the bots
bounced at Rumania turn after turn): how often the bots' moves bounce off an enemy unit that
stays where it is, with a cost of 1 (``Lookahead.futile_move``) and without it (as the bot
plays), and whether the bot is weaker or stronger for it.

    python benchmarks/futile_moves.py --games 7 --strength-games 14

1. Seven heuristic bots play ``--games`` seeded classical games to ``--end-year``, once with the
   cost and once without: the moves, those that bounced 1 vs 1 off a unit that stayed without
   supporting or convoying (it held, or failed to move out), and those repeated by the same unit
   in a game.
2. One bot with the cost among six without, and one without among six with, ``--strength-games``
   games each to 1910 (seeded from ``--strength-seed``), the lone bot rotated over the powers: the
   lone bot's mean centres against the six others'.

Not a test: it prints figures.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
from collections import Counter

from realpolitik.bots.arena import play_game
from realpolitik.bots.heuristic import HeuristicBot
from realpolitik.bots.lookahead import LOOKAHEAD, Lookahead
from realpolitik.game import Game
from realpolitik.orders import Convoy, Move, SupportHold, SupportMove, unit_key
from realpolitik.rules import rules_for
from realpolitik.variant import load_variant

RULES = rules_for("2023")
WITH = dataclasses.replace(LOOKAHEAD, futile_move=1.0)
WITHOUT = dataclasses.replace(LOOKAHEAD, futile_move=0.0)


def futile_bounces(game: Game) -> tuple[int, int, int]:
    """Moves, unsupported moves that bounced off a unit staying where it was without supporting
    or convoying (1 vs 1), and of those the ones a unit made again later in the game."""
    moves = futile = 0
    again: Counter[str] = Counter()
    for record in game.history:
        units = record.resolution.units
        helping = {unit_key(r.order) for r in record.resolution.results
                   if isinstance(r.order, SupportHold | SupportMove | Convoy)}
        for result in record.resolution.results:
            order = result.order
            if not isinstance(order, Move):
                continue
            moves += 1
            mover = record.position.units[order.location.partition("/")[0]]
            target = order.destination.partition("/")[0]
            defender = record.position.units.get(target)
            if defender is not None and defender.power != mover.power \
                    and units.get(mover.province) == mover and units.get(target) == defender \
                    and target not in helping and result.strength == 1:
                futile += 1
                again[f"{result.power} {order}"] += 1
    return moves, futile, sum(count for count in again.values() if count > 1)


def bots(lookahead: dict[str, Lookahead], seed: int) -> dict[str, HeuristicBot]:
    return {power: HeuristicBot(seed=seed * 7 + index, lookahead=settings)
            for index, (power, settings) in enumerate(lookahead.items())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=7)
    parser.add_argument("--strength-games", type=int, default=14)
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--strength-seed", type=int, default=1000)
    parser.add_argument("--end-year", type=int, default=1908)
    args = parser.parse_args()
    variant = load_variant("classical")
    powers = list(variant.power_ids)
    for name, settings in (("with the cost", WITH), ("without it", WITHOUT)):
        totals = [0, 0, 0]
        for game_index in range(args.games):
            seed = args.seed + game_index
            game = play_game(variant, bots(dict.fromkeys(powers, settings), seed), seed=seed,
                             end_year=args.end_year, rules=RULES)
            totals = [a + b for a, b in zip(totals, futile_bounces(game), strict=True)]
        print(f"seven bots {name}: {totals[0]} moves, {totals[1]} bounced 1 vs 1 off a unit "
              f"that stayed (not supporting), {totals[2]} of them repeated by the same unit")
    for lone, six in ((WITH, WITHOUT), (WITHOUT, WITH)):
        alone, others = [], []
        for game_index in range(args.strength_games):
            seat = powers[game_index % len(powers)]
            seed = args.strength_seed + game_index
            game = play_game(variant, bots({p: lone if p == seat else six for p in powers},
                                           seed), seed=seed, end_year=1910, rules=RULES)
            centres = game.centers()
            alone.append(centres[seat])
            others += [centres[p] for p in powers if p != seat]
        print(f"one bot {'with' if lone is WITH else 'without'} the cost among six "
              f"{'without' if lone is WITH else 'with'}: {statistics.mean(alone):.2f} mean "
              f"centres against {statistics.mean(others):.2f} ({args.strength_games} games)")


if __name__ == "__main__":
    main()
