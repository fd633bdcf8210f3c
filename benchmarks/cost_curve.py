"""The cost curve: time per phase of whole games against the number of units and of spaces.

    python benchmarks/cost_curve.py               # a few seconds
    python benchmarks/cost_curve.py --quick       # about a second

Seeded random games, played through the native API exactly as ``benchmarks/bench.py`` plays
them (every phase: each power's legal orders listed, one uniformly random legal order per
unit, submitted as values, the phase processed), on maps of growing size:

- the classical map (75 spaces);
- Colonial Winters (its own map and rules, with the rules its folder declares);
- the classical map tiled ``k`` times side by side (``benchmarks/scale.py``'s
  :func:`tiled_variant`: ``par_3`` is Paris of copy 3, neighbouring copies joined by two sea and
  two land borders, the seven powers with home centres in every copy), for ``k`` in
  ``--copies`` (default 3, 9 and 27 copies: 225, 675 and 2,025 spaces; a game on 27 copies
  starts with 594 units).

Each map plays ``--years`` years (or to a win) from its start, ``--repeat`` times with the
same seed; the maps take turns play by play, so that a busy spell of a shared machine falls on
all of them, and the median play is shown. Per map it prints the spaces, the mean units on the
board per phase, the phases played, the time per phase to list the legal orders, to submit
them, to adjudicate (``Game.process``) and all in, and the time all in per unit per phase. The
last line fits how the time per phase grows with the units over the tiled maps (the slope of
log(time) against log(units), least squares: 1.0 is linear). CPU time of this process
(``--clock wall`` for wall-clock time). Nothing is asserted: it is a measurement.
"""

from __future__ import annotations

import argparse
import gc
import math
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

try:
    import realpolitik  # noqa: F401
except ImportError:  # run from a checkout without installing: use its sources
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

sys.path.insert(0, str(Path(__file__).resolve().parent))  # scale.py's tiled maps

from bench import CLOCK, play_native_phase  # noqa: E402
from scale import tiled_variant  # noqa: E402

from realpolitik.game import Game  # noqa: E402
from realpolitik.variant import Variant, load_variant  # noqa: E402


@dataclass
class Play:
    """One game's totals: phases, units summed over phases, seconds per part."""

    phases: int = 0
    units: int = 0
    listing: float = 0.0
    submitting: float = 0.0
    adjudicating: float = 0.0

    @property
    def all_in(self) -> float:
        return self.listing + self.submitting + self.adjudicating


def play(variant: Variant, years: int, seed: int) -> Play:
    """One seeded random game of ``years`` years on ``variant`` (the loop of bench.py)."""
    rng = random.Random(seed)
    game = Game(variant, seed=seed)
    end = game.phase.year + years
    out = Play()
    gc.collect()
    while not game.is_over and game.phase.year < end:
        units = len(game.position.units)
        t0, t1, t2, t3, t4 = play_native_phase(game, rng)
        out.phases += 1
        out.units += units
        out.listing += t1 - t0
        out.submitting += t3 - t2
        out.adjudicating += t4 - t3
    return out


def slope(units: Sequence[float], seconds: Sequence[float]) -> float:
    """The least-squares slope of log(seconds) against log(units)."""
    xs = [math.log(u) for u in units]
    ys = [math.log(s) for s in seconds]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    spread = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / spread \
        if spread else float("nan")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--years", type=int, default=5, help="years per game (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="seed of every game (default 0)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="plays of each map, taking turns; the median is shown (default 3)")
    parser.add_argument("--copies", type=int, nargs="*", default=[3, 9, 27],
                        help="sizes of the tiled classical maps (default 3 9 27)")
    parser.add_argument("--quick", action="store_true",
                        help="2 years, one play, tiled maps of 3 and 9 copies")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="CPU time of this process (default) or wall-clock time")
    args = parser.parse_args(argv)
    if args.quick:
        args.years, args.repeat, args.copies = 2, 1, [3, 9]
    CLOCK[0] = time.process_time if args.clock == "cpu" else time.perf_counter

    maps: dict[str, Variant] = {
        "classical": load_variant("classical"),
        "colonial_winters": load_variant("colonial_winters"),
    }
    for copies in args.copies:
        maps[f"classical x{copies}"] = tiled_variant(copies)
    print(f"random play through the native API, {args.years} years from seed {args.seed}, "
          f"median of {args.repeat}; Python {platform.python_version()} on "
          f"{platform.machine()}; {'CPU' if args.clock == 'cpu' else 'wall-clock'} time")
    for variant in maps.values():
        play(variant, 1, args.seed + 1)  # warm-up: the variant's tables and order values
    plays: dict[str, list[Play]] = {name: [] for name in maps}
    for _ in range(args.repeat):
        for name, variant in maps.items():  # the maps take turns
            plays[name].append(play(variant, args.years, args.seed))

    print()
    print(f"{'map':20} {'spaces':>6} {'units':>6} {'phases':>6} {'legal':>8} {'submit':>8} "
          f"{'adjud.':>8} {'all-in':>8} {'us/unit':>8}")
    print(f"{'':20} {'':>6} {'':>6} {'':>6} {'ms a phase':>35}")
    tiled: list[tuple[float, float]] = []
    for name, runs in plays.items():
        median = sorted(runs, key=lambda p: p.all_in)[len(runs) // 2]
        phases = median.phases
        units = median.units / phases
        spaces = len(maps[name].map.provinces)
        per = [1000 * t / phases for t in (median.listing, median.submitting,
                                           median.adjudicating, median.all_in)]
        print(f"{name:20} {spaces:6d} {units:6.0f} {phases:6d} {per[0]:8.3f} {per[1]:8.3f} "
              f"{per[2]:8.3f} {per[3]:8.3f} {1000 * per[3] / units:8.2f}")
        if name == "classical" or name.startswith("classical x"):
            tiled.append((units, per[3]))
    if len(tiled) >= 2:
        print()
        print(f"growth of the time per phase with the units (classical and its tiled maps): "
              f"units^{slope([u for u, _ in tiled], [t for _, t in tiled]):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
