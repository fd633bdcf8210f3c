"""The bench's native loop with the legal-order listing set apart, for counting its instructions.

    valgrind --tool=callgrind --toggle-collect=functools_reduce --callgrind-out-file=/dev/null \\
        .venv/bin/python benchmarks/listing_instructions.py --games 3

plays what ``benchmarks/bench.py`` plays through the native API (a warm-up game from the seed,
then ``--games`` games from the seed on), and runs each phase's listing (``powers_to_order()``
and every power's ``legal_orders()``) inside a ``functools.reduce`` call that nothing else in
the program makes, so that callgrind, told to count only inside that call, counts the listing
alone ("Collected" at the end). Instruction counts do not move with the machine's load, as
times do; run with ``PYTHONHASHSEED=0`` to compare two versions (``PYTHONPATH`` pointing at
an export of the other one). With ``--warm`` the counted games are played once, uncounted,
before they are counted: every table the listing keeps per variant (order values, convoy
answers) is then ready, and what is counted is a phase's own work, without what a game meets
for the first time. With ``--api facade`` the games are played through the ``diplomacy``-package
facade as ``bench.py`` plays it, and what is counted is each phase's
``get_all_possible_orders()`` and ``get_orderable_locations()`` (the bench's "legal" column of
the facade). Without valgrind it plays the games and prints the phases.
"""

from __future__ import annotations

import argparse
import functools
import gc
import random
import sys
from collections.abc import Mapping
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402  (the loop and the random choices are bench.py's)

from realpolitik.compat.diplomacy import Game as FacadeGame  # noqa: E402
from realpolitik.game import Game  # noqa: E402
from realpolitik.orders import Order  # noqa: E402
from realpolitik.variant import load_variant  # noqa: E402


def play_phase(game: Game, rng: random.Random) -> tuple[float, float, float, float, float]:
    """bench.py's phase, its listing run inside ``functools.reduce`` (no clock is read)."""
    listed: dict[str, Mapping[str, tuple[Order, ...]]] = {}

    def list_every_power(_first: object, _second: object) -> None:
        for power in game.powers_to_order():
            listed[power] = game.legal_orders(power)

    functools.reduce(list_every_power, (None, None))
    for power, by_location in listed.items():
        game.submit(power, bench.random_orders(by_location, rng))
    game.process()
    return 0.0, 0.0, 0.0, 0.0, 0.0


def play_facade(seed: int, end_year: int, timing: bench.Timing) -> None:
    """bench.py's facade game (``play_api``), its listing run inside ``functools.reduce``."""
    rng = random.Random(seed)
    game = FacadeGame()
    listed: list[tuple[dict[str, list[str]], dict[str, list[str]]]] = []

    def list_every_power(_first: object, _second: object) -> None:
        listed.append((game.get_all_possible_orders(), game.get_orderable_locations()))

    while not game.is_game_done and int(game.get_current_phase()[1:5]) <= end_year:
        functools.reduce(list_every_power, (None, None))
        possible, orderable = listed.pop()
        chosen = {power: [rng.choice(sorted(possible[loc])) for loc in locs if possible[loc]]
                  for power, locs in orderable.items()}
        for power, orders in chosen.items():
            game.set_orders(power, orders)
        game.process()
        timing.phases += 1
    timing.games.append(game.get_current_phase())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games counted (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--warm", action="store_true",
                        help="play the counted games once, uncounted, before counting them")
    parser.add_argument("--api", choices=("native", "facade"), default="native",
                        help="realpolitik's own API (default) or the diplomacy-package facade")
    parser.add_argument("--no-gc", action="store_true",
                        help="the garbage collector off: counts that do not move with where its "
                             "collections fall (for comparing two versions; it also leaves out "
                             "the collections the listing's allocations cause)")
    args = parser.parse_args(argv)
    if args.no_gc:
        gc.disable()
    if args.api == "facade":
        warm_up = bench.Timing("warm-up")
        for game_index in range(args.games) if args.warm else range(1):  # not counted
            bench.play_api(FacadeGame, args.seed + game_index, 1935, warm_up)
        counted = bench.Timing("counted")
        for game_index in range(args.games):
            play_facade(args.seed + game_index, 1935, counted)
        print(f"{counted.phases} phases listed through the facade inside functools.reduce "
              f"(games ended in {', '.join(counted.games)})")
        return 0
    classical = load_variant("classical")
    warm_ups = range(args.games) if args.warm else range(1)
    for game_index in warm_ups:  # not counted
        bench.play_native(classical, args.seed + game_index, 1935, bench.Timing("warm-up"))
    bench.play_native_phase = play_phase  # (play_native looks it up when it runs)
    counted = bench.Timing("counted")
    for game_index in range(args.games):
        bench.play_native(classical, args.seed + game_index, 1935, counted)
    print(f"{counted.phases} phases listed inside functools.reduce "
          f"(games ended in {', '.join(counted.games)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
