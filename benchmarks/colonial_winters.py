"""A seeded random game on the Colonial Winters map, timed against one on the classical map.

    python benchmarks/colonial_winters.py              # 30 years of each, 5 times (about 20 s)
    python benchmarks/colonial_winters.py --years 5

Both games run in this process with the same code: every phase, every power with something to
order lists its legal orders (``Game.legal_orders``), picks one at random per unit (a seeded
generator), submits them, and the game processes the phase. It prints, per map: the phases
played, the mean number of units on the board, the time per phase all in (listing, choosing,
submitting, adjudicating) and per unit per phase, the median of ``--repeat`` plays of the
same seeded game, and the Colonial Winters figures as a ratio of the classical ones. Colonial
Winters plays with the rules its variant folder declares. No timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

try:
    import realpolitik  # noqa: F401
except ImportError:  # run from a checkout without installing: use its sources
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from realpolitik.game import Game
from realpolitik.variant import load_variant


def play(variant_id: str, years: int, seed: int) -> tuple[int, float, float]:
    """(phases played, mean units on the board per phase, seconds in all)."""
    variant = load_variant(variant_id)
    game = Game(variant, seed=seed)
    rng = random.Random(seed)
    end = game.phase.year + years
    phases = 0
    units = 0
    spent = 0.0
    gc.collect()
    while not game.is_over and game.phase.year < end:
        start = time.perf_counter()
        for power in game.powers_to_order():
            legal = game.legal_orders(power)
            game.submit(power, [rng.choice(options) for options in legal.values() if options])
        units += len(game.position.units)
        game.process()
        spent += time.perf_counter() - start
        phases += 1
    return phases, units / max(phases, 1), spent


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--years", type=int, default=30, help="years per game (default 30)")
    parser.add_argument("--seed", type=int, default=1870)
    parser.add_argument("--repeat", type=int, default=5,
                        help="plays of each game, taking turns; the median is shown (default 5)")
    args = parser.parse_args(argv)
    runs: dict[str, list[tuple[int, float, float]]] = {"classical": [], "colonial_winters": []}
    for _ in range(args.repeat):
        for variant_id in runs:  # the two take turns, so a busy spell falls on both
            runs[variant_id].append(play(variant_id, args.years, args.seed))
    rows = {}
    for variant_id, plays in runs.items():
        phases, units, _ = plays[0]
        per_phase = statistics.median(spent for _, _, spent in plays) / phases * 1000
        per_unit = per_phase / units
        rows[variant_id] = (per_phase, per_unit)
        print(f"{variant_id:17} {phases:4d} phases, {units:6.1f} units a phase: "
              f"{per_phase:7.2f} ms a phase, {per_unit * 1000:6.1f} us a unit "
              f"(median of {len(plays)})")
    cw, classical = rows["colonial_winters"], rows["classical"]
    print(f"colonial_winters / classical: {cw[0] / classical[0]:.1f}x a phase, "
          f"{cw[1] / classical[1]:.2f}x a unit")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
