"""Random play on the standard map: realpolitik against the ``diplomacy`` package (1.1.2).

    python benchmarks/bench.py --games 5 --seed 0

Every game starts in Spring 1901 and runs to 1935 (``--end-year``) or a win. Every phase: list
every legal order of every orderable unit (and every build and removal), give each one a
uniformly random legal order, set the orders, process. Both engines are driven through the same
loop and the same calls (the ``diplomacy`` package's API; realpolitik through
:mod:`realpolitik.compat.diplomacy`); realpolitik's own API (``Game.legal_orders``, ``submit``
of order values, ``process``) is measured as well. The random choices are drawn from the sorted
list of each location's orders, so with the same seed both engines play the same games
whenever they list the same orders and adjudicate alike (the facade plays the 2000 rules with the
package's choices, ``realpolitik.compat.diplomacy.PACKAGE_RULES``); the report says whether
they did. The games of one engine share its map: the package keeps its maps in a cache across
games, the facade keeps loaded variants by map name, and the native loop loads the variant once
and gives it to every ``Game``.

Per phase it reports the mean time to list the legal orders, to set the orders, to adjudicate
(``process``), all in (the three together; drawing the random orders is the benchmark's own
work and left out), phases per second, and the peak memory of one game (tracemalloc, in a
separate run so that tracing does not slow the timed runs). When ``diplomacy`` is installed it
prints the ratios. The machine may be shared and noisy: quote ratios, not absolute times.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    import realpolitik
except ImportError:  # run from a checkout without installing: use its sources
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import realpolitik

from realpolitik.compat.diplomacy import Game as FacadeGame  # noqa: E402
from realpolitik.game import Game as NativeGame  # noqa: E402
from realpolitik.orders import Order  # noqa: E402
from realpolitik.variant import Variant, load_variant  # noqa: E402

RULES = "2000"
CLOCK: list[Callable[[], float]] = [time.process_time]
"""The clock the phases are timed with: CPU time of this process by default (``--clock``)."""


@dataclass
class Timing:
    """Totals over every phase of every game of one engine."""

    engine: str
    phases: int = 0
    legal: float = 0.0
    setting: float = 0.0
    adjudication: float = 0.0
    choosing: float = 0.0
    games: list[str] = field(default_factory=list)
    """A fingerprint of each game's course (phase names and units), to compare engines."""
    peak_mb: float | None = None

    @property
    def all_in(self) -> float:
        return self.legal + self.setting + self.adjudication

    def add_phase(self, t0: float, t1: float, t2: float, t3: float, t4: float) -> None:
        """Record one phase from its clock readings: before listing the legal orders, after
        listing, after choosing, after setting the orders, after processing."""
        self.legal += t1 - t0
        self.choosing += t2 - t1
        self.setting += t3 - t2
        self.adjudication += t4 - t3
        self.phases += 1

    def add(self, other: Timing) -> None:
        """Add another run's phases and times to this one's."""
        self.phases += other.phases
        self.legal += other.legal
        self.setting += other.setting
        self.adjudication += other.adjudication
        self.choosing += other.choosing
        self.games += other.games

    def ratios(self, base: Timing) -> list[float]:
        """``base``'s time per phase over this one's: legal, set, adjudication, all in."""
        return [(mine_base / base.phases) / (mine / self.phases) for mine_base, mine in (
            (base.legal, self.legal), (base.setting, self.setting),
            (base.adjudication, self.adjudication), (base.all_in, self.all_in))]

    def per_phase_ms(self, total: float) -> float:
        return 1000 * total / self.phases if self.phases else float("nan")


def _year(phase: str) -> int:
    return int(phase[1:5])


def play_api(make_game: Callable[[], Any], seed: int, end_year: int, timing: Timing) -> None:
    """One game through the ``diplomacy`` package's API (the package itself or the facade)."""
    rng = random.Random(seed)
    game = make_game()
    clock = CLOCK[0]
    trail = hashlib.sha256()
    while not game.is_game_done:
        phase = game.get_current_phase()
        if _year(phase) > end_year:
            break
        t0 = clock()
        possible = game.get_all_possible_orders()
        orderable = game.get_orderable_locations()
        t1 = clock()
        chosen = {
            power: [rng.choice(sorted(possible[loc])) for loc in locs if possible[loc]]
            for power, locs in orderable.items()
        }
        t2 = clock()
        for power, orders in chosen.items():
            game.set_orders(power, orders)
        t3 = clock()
        game.process()
        t4 = clock()
        timing.add_phase(t0, t1, t2, t3, t4)
        trail.update(phase.encode())
    units = game.get_units()
    trail.update(repr(sorted((p, sorted(u)) for p, u in units.items())).encode())
    timing.games.append(f"{game.get_current_phase()}:{trail.hexdigest()[:12]}")


def random_orders(by_location: Mapping[str, tuple[Order, ...]], rng: random.Random,
                  ) -> list[Order]:
    """One uniformly random legal order per location; a power that may build can waive a
    build instead, so the waive is offered alongside every build location's orders."""
    waive = by_location.get("waive", ())
    orders: list[Order] = []
    for location, options in by_location.items():
        if location == "waive":
            continue
        choices = options + waive if waive else options
        orders.append(choices[rng.randrange(len(choices))])
    return orders


def play_native(variant: Variant, seed: int, end_year: int, timing: Timing) -> None:
    """One game through realpolitik's own API: legal orders and submit of order values.

    Every game is given the same loaded ``variant``, as a program playing many games should do:
    the variant keeps what it works out about its map (order values, convoy routes), which the
    next game then finds ready. (The ``diplomacy`` package does the same with its map cache.)"""
    rng = random.Random(seed)
    game = NativeGame(variant, rules=RULES)
    while not game.is_over:
        if game.phase.year > end_year:
            break
        timing.add_phase(*play_native_phase(game, rng))
    timing.games.append(str(game.phase))


def play_native_phase(game: NativeGame,
                      rng: random.Random) -> tuple[float, float, float, float, float]:
    """One phase through realpolitik's own API: every power's legal orders listed, one
    uniformly random legal order per unit, submitted as values, the phase processed. Returns
    the clock's readings (``CLOCK``) before listing, after listing, after choosing, after
    submitting and after processing (:meth:`Timing.add_phase` takes them)."""
    clock = CLOCK[0]
    t0 = clock()
    legal = {power: game.legal_orders(power) for power in game.powers_to_order()}
    t1 = clock()
    chosen = {power: random_orders(by_location, rng) for power, by_location in legal.items()}
    t2 = clock()
    for power, orders in chosen.items():
        game.submit(power, orders)
    t3 = clock()
    game.process()
    t4 = clock()
    return t0, t1, t2, t3, t4


def peak_memory(run: Callable[[], None]) -> float:
    """Peak traced memory of one run, in MB."""
    gc.collect()
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def build() -> str:
    """Which realpolitik runs: the pure-Python modules or the mypyc-compiled ones."""
    import realpolitik.adjudication.movement as movement

    compiled = (movement.__file__ or "").endswith((".so", ".pyd"))
    return "compiled with mypyc" if compiled else "pure Python"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5, help="games per engine (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--end-year", type=int, default=1935,
                        help="play until this year is over or someone wins (default 1935)")
    parser.add_argument("--runs", type=int, default=1,
                        help="play this many sets of --games games, each set from the seeds after "
                             "the last one's, and print each set's ratios and their median "
                             "(default 1)")
    parser.add_argument("--no-memory", action="store_true",
                        help="skip the (slow) traced-memory run")
    parser.add_argument("--no-diplomacy", action="store_true",
                        help="do not run the diplomacy package even if installed")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="time with the process's CPU time (default; steadier on a busy "
                             "machine) or with wall-clock time")
    args = parser.parse_args(argv)
    CLOCK[0] = time.process_time if args.clock == "cpu" else time.perf_counter

    engines: list[tuple[str, Callable[[int, Timing], None]]] = []
    try:
        if args.no_diplomacy:
            raise ImportError
        import diplomacy  # type: ignore[import-untyped]

        engines.append(("diplomacy 1.1.2", lambda seed, t: play_api(
            diplomacy.Game, seed, args.end_year, t)))
    except ImportError:
        diplomacy = None
    engines.append(("realpolitik (facade)", lambda seed, t: play_api(
        FacadeGame, seed, args.end_year, t)))
    classical = load_variant("classical")
    engines.append(("realpolitik (native)", lambda seed, t: play_native(
        classical, seed, args.end_year, t)))

    print(f"random play, standard map, {args.games} game(s) from seed {args.seed}, "
          f"to {args.end_year} or a win; Python {platform.python_version()} "
          f"({platform.python_implementation()}) on {platform.machine()}; "
          f"{'CPU' if args.clock == 'cpu' else 'wall-clock'} time; realpolitik {build()} "
          f"({Path(realpolitik.__file__ or '').parent})")
    timings = [Timing(name) for name, _ in engines]
    for name, run in engines:
        run(args.seed, Timing(name + " warm-up"))  # imports, caches, map tables
    runs: list[list[Timing]] = []
    for run_index in range(args.runs):
        this_run = [Timing(name) for name, _ in engines]
        # Each run plays games of its own (the next seeds): run again, the same games would
        # find the positions they meet already in realpolitik's per-variant tables.
        first_seed = args.seed + run_index * args.games
        # The engines take turns game by game, so that a change in the machine's load falls on
        # all.
        for game_index in range(args.games):
            for (_, run), timing in zip(engines, this_run, strict=True):
                # Collect the previous engine's garbage outside the timing, so that one engine's
                # reference cycles are not charged to the next engine's timed calls.
                gc.collect()
                run(first_seed + game_index, timing)
        runs.append(this_run)
        for total, timing in zip(timings, this_run, strict=True):
            total.add(timing)
    if not args.no_memory:
        for (name, run), timing in zip(engines, timings, strict=True):
            timing.peak_mb = peak_memory(lambda run=run, name=name: run(args.seed, Timing(name)))

    header = (f"{'engine':24} {'phases':>7} {'legal':>8} {'set':>8} {'adjud.':>8} "
              f"{'all-in':>8} {'phases/s':>9} {'peak MB':>8}")
    print()
    print("mean per phase, ms")
    print(header)
    for t in timings:
        peak = f"{t.peak_mb:8.1f}" if t.peak_mb is not None else f"{'-':>8}"
        print(f"{t.engine:24} {t.phases:7d} {t.per_phase_ms(t.legal):8.3f} "
              f"{t.per_phase_ms(t.setting):8.3f} {t.per_phase_ms(t.adjudication):8.3f} "
              f"{t.per_phase_ms(t.all_in):8.3f} {t.phases / t.all_in:9.0f} {peak}")
    if diplomacy is not None:
        base = timings[0]
        print()
        print("ratio: diplomacy time / realpolitik time (higher is faster)")
        print(f"{'':24} {'legal':>8} {'set':>8} {'adjud.':>8} {'all-in':>8}")
        for t in timings[1:]:
            print(f"{t.engine:24} " + " ".join(f"{r:8.1f}" for r in t.ratios(base)))
        if len(runs) > 1:
            print()
            print(f"ratio in each of the {len(runs)} runs (legal, set, adjud., all in), "
                  "and the median")
            for index in range(1, len(engines)):
                each = [run[index].ratios(run[0]) for run in runs]
                print(f"{timings[index].engine:24} " + "  ".join(
                    "/".join(f"{r:.1f}" for r in ratios) for ratios in each))
                print(f"{'  median':24} " + " ".join(
                    f"{statistics.median(column):8.1f}" for column in zip(*each, strict=True)))
        differing = [args.seed + run_index * args.games + game_index
                     for run_index, run in enumerate(runs)
                     for game_index, (package, facade) in enumerate(
                         zip(run[0].games, run[1].games, strict=True))
                     if package != facade]
        print()
        print("the facade and the package played the same games: "
              + ("yes" if not differing else
                 "no, not the games of seeds " + ", ".join(map(str, differing))
                 + " (the package departs from the rules in a few cases: docs/compat.md, "
                 "'Where the two engines disagree')"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
