"""The bench's native loop with its three timed parts set apart, for counting their instructions.

    cd /tmp && PYTHONHASHSEED=0 valgrind --tool=callgrind --collect-atstart=no \\
        --toggle-collect=functools_reduce --callgrind-out-file=/tmp/loop.cg \\
        TREE/.venv[-mypyc]/bin/python TREE/benchmarks/loop_instructions.py --games 3 --no-gc
    callgrind_annotate --inclusive=yes /tmp/loop.cg | head -80

plays what ``benchmarks/bench.py`` plays through the native API (a warm-up game from the seed,
then ``--games`` games from the seed on) and runs, each phase, what the bench times (the
listing: ``powers_to_order`` and every such power's ``legal_orders``; the submits; ``process``)
each inside a ``functools.reduce`` call that nothing else in the program makes, so that
callgrind, told to count only inside that call, counts the bench's "all in" alone: the random
choice of the orders between the listing and the submits is left out, as the bench leaves it
out of its times. ``callgrind_annotate --inclusive=yes`` then splits the count by function
(``Game.legal_orders``, ``Game.submit``, ``Game.process`` and what they call). Run from
another directory than the checkout (``/tmp``) with a compiled install's interpreter to count
the compiled build. Without valgrind it plays the games and prints the phases.
"""

from __future__ import annotations

import argparse
import functools
import gc
import random
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402  (the loop and the random choices are bench.py's)

from realpolitik.game import Game  # noqa: E402
from realpolitik.orders import Order  # noqa: E402
from realpolitik.variant import load_variant  # noqa: E402

PhaseClock = tuple[float, float, float, float, float]
"""What ``bench.play_native_phase`` returns: its clock readings (here all 0.0)."""


def play_phase(game: Game, rng: random.Random) -> tuple[float, float, float, float, float]:
    """bench.py's phase, its listing, submits and processing each run inside
    ``functools.reduce`` (no clock is read)."""
    listed: dict[str, Mapping[str, tuple[Order, ...]]] = {}

    def list_every_power(_first: object, _second: object) -> None:
        listed.update({power: game.legal_orders(power) for power in game.powers_to_order()})

    functools.reduce(list_every_power, (None, None))
    chosen = {power: bench.random_orders(by_location, rng)
              for power, by_location in listed.items()}
    listed.clear()

    def submit_every_power(_first: object, _second: object) -> None:
        for power, orders in chosen.items():
            game.submit(power, orders)

    functools.reduce(submit_every_power, (None, None))
    functools.reduce(lambda _first, _second: game.process(), (None, None))
    return 0.0, 0.0, 0.0, 0.0, 0.0


def play_counted(play_phase: Callable[[Game, random.Random], PhaseClock], what: str,
                 description: str, argv: list[str] | None) -> int:
    """Parse ``argv``, play the warm-up game, then ``--games`` games with each phase played by
    ``play_phase`` (which runs ``what`` is counted inside ``functools.reduce``); print the
    phases. Shared by the counting scripts."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--games", type=int, default=3, help="games counted (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--no-gc", action="store_true",
                        help="the garbage collector off: counts that do not move with where its "
                             "collections fall (for comparing two versions)")
    args = parser.parse_args(argv)
    if args.no_gc:
        gc.disable()
    classical = load_variant("classical")
    bench.play_native(classical, args.seed, 1935, bench.Timing("warm-up"))  # not counted
    bench.play_native_phase = play_phase  # type: ignore[assignment]  # (looked up when run)
    counted = bench.Timing("counted")
    for game_index in range(args.games):
        bench.play_native(classical, args.seed + game_index, 1935, counted)
    print(f"{counted.phases} phases {what} inside functools.reduce "
          f"(games ended in {', '.join(counted.games)})")
    return 0


def main(argv: list[str] | None = None) -> int:
    return play_counted(play_phase, "listed, submitted and processed",
                        __doc__.split("\n\n")[0], argv)


if __name__ == "__main__":
    raise SystemExit(main())
