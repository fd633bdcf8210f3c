"""The bench's native loop with the submits set apart, for counting their instructions.

    cd /tmp && PYTHONHASHSEED=0 valgrind --tool=callgrind --collect-atstart=no \\
        --toggle-collect=functools_reduce --callgrind-out-file=/dev/null \\
        TREE/.venv/bin/python TREE/benchmarks/submit_instructions.py --games 3 --no-gc

plays what ``benchmarks/bench.py`` plays through the native API (a warm-up game from the seed,
then ``--games`` games from the seed on), and runs each phase's submits (``submit(power,
orders)`` of every power's randomly chosen listed values, as ``bench.play_native_phase`` gives
them) inside a ``functools.reduce`` call that nothing else in the program makes, so that
callgrind, told to count only inside that call, counts the submits alone ("Collected" at the
end). The listing, the choice of orders and the processing are not counted. Run from another
directory than the checkout (``/tmp``) with a compiled install's interpreter to count the
compiled build. Without valgrind it plays the games and prints the phases.
"""

from __future__ import annotations

import functools
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402  (the loop and the random choices are bench.py's)
from loop_instructions import play_counted  # noqa: E402

from realpolitik.game import Game  # noqa: E402
from realpolitik.orders import Order  # noqa: E402


def play_phase(game: Game, rng: random.Random) -> tuple[float, float, float, float, float]:
    """bench.py's phase, its submits run inside ``functools.reduce`` (no clock is read)."""
    legal = {power: game.legal_orders(power) for power in game.powers_to_order()}
    chosen: dict[str, list[Order]] = {
        power: bench.random_orders(by_location, rng) for power, by_location in legal.items()}

    def submit_every_power(_first: object, _second: object) -> None:
        for power, orders in chosen.items():
            game.submit(power, orders)

    functools.reduce(submit_every_power, (None, None))
    game.process()
    return 0.0, 0.0, 0.0, 0.0, 0.0


def main(argv: list[str] | None = None) -> int:
    return play_counted(play_phase, "submitted", __doc__.split("\n\n")[0], argv)


if __name__ == "__main__":
    raise SystemExit(main())
