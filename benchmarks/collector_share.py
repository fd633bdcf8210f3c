"""The garbage collector's share of the bench's native loop, part by part.

    .venv[-mypyc]/bin/python benchmarks/collector_share.py --games 3 [--runs 3] [--objects]

plays what ``benchmarks/bench.py`` plays through the native API (a warm-up game from the seed,
then ``--games`` games from the seed on, ``gc.collect()`` before each game as the bench does)
and, through ``gc.callbacks``, counts the collections of each generation that fall in each part
of a phase (listing the legal orders, submitting, processing) and the time they take (the CPU
clock read when each collection starts and stops). It prints, per phase: each part's time, the
collections that fell in it and their time, and the collector's share of the part and of the
phase all in. ``--runs N`` plays the same games N times in the process: the runs after the
first find the variant's tables (order values, convoy answers) made, which shows what the
first-met work costs the collector. ``--off`` plays them with the collector off
(``gc.disable()``), to compare the parts' times with a run of its own (one process each: a
second run in the same process is a replay). With ``--young`` it lists the kinds of object the
collections traverse (``gc.get_objects(generation)`` when each starts). With ``--objects`` it
lists the kinds of object the collector tracks that a phase leaves alive (``gc.get_objects()``
by type before and after each phase, summed), and the kinds that each part makes (alive at the
part's end that were not at its start). Run from outside the checkout (``cd /tmp``) to time
the compiled install.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402  (the loop and the random choices are bench.py's)

from realpolitik.game import Game  # noqa: E402
from realpolitik.variant import Variant, load_variant  # noqa: E402

PARTS = ("legal", "set", "process")


class Tally:
    """What the collector did in each part of a phase, over every phase played."""

    def __init__(self) -> None:
        self.part = "outside"
        self.phases = 0
        self.time = dict.fromkeys(PARTS, 0.0)
        self.collections: Counter[tuple[str, int]] = Counter()
        self.collecting: dict[str, float] = dict.fromkeys((*PARTS, "outside"), 0.0)
        self._started = 0.0
        self.kept: Counter[str] = Counter()
        self.made: dict[str, Counter[str]] = {part: Counter() for part in PARTS}
        self.traversed: dict[int, Counter[str]] | None = None
        """With ``--young``: generation -> the kinds of object its collections traverse (every
        generation up to it), summed over the collections."""

    def callback(self, stage: str, info: dict[str, int]) -> None:
        """``gc.callbacks``: each collection's generation, and its time, to the current part."""
        if stage == "start":
            self._started = time.process_time()
            generation = info["generation"]
            self.collections[self.part, generation] += 1
            if self.traversed is not None:
                kinds = self.traversed.setdefault(generation, Counter())
                for younger in range(generation + 1):
                    kinds.update(type(o).__qualname__ for o in gc.get_objects(younger))
        else:
            self.collecting[self.part] += time.process_time() - self._started


def _tracked_kinds() -> Counter[str]:
    return Counter(type(o).__qualname__ for o in gc.get_objects())


def play_game(variant: Variant, seed: int, end_year: int, tally: Tally,
              objects: bool) -> None:
    """bench.py's native game, each part of each phase timed and attributed."""
    rng = random.Random(seed)
    game = Game(variant, rules=bench.RULES)
    clock = time.process_time
    while not game.is_over and game.phase.year <= end_year:
        before = _tracked_kinds() if objects else None
        tally.part = "legal"
        t0 = clock()
        legal = {power: game.legal_orders(power) for power in game.powers_to_order()}
        t1 = clock()
        tally.part = "outside"
        listed = _tracked_kinds() if objects else None
        chosen = {power: bench.random_orders(by_location, rng)
                  for power, by_location in legal.items()}
        del legal
        chosen_kinds = _tracked_kinds() if objects else None
        tally.part = "set"
        t2 = clock()
        for power, orders in chosen.items():
            game.submit(power, orders)
        t3 = clock()
        tally.part = "outside"
        submitted = _tracked_kinds() if objects else None
        tally.part = "process"
        t4 = clock()
        game.process()
        t5 = clock()
        tally.part = "outside"
        del chosen
        tally.time["legal"] += t1 - t0
        tally.time["set"] += t3 - t2
        tally.time["process"] += t5 - t4
        tally.phases += 1
        if before is not None and listed is not None and chosen_kinds is not None \
                and submitted is not None:
            after = _tracked_kinds()
            tally.made["legal"].update(listed - before)
            tally.made["set"].update(submitted - chosen_kinds)
            tally.made["process"].update(after - submitted)
            tally.kept.update(after - before)


def run(variant: Variant, seed: int, games: int, end_year: int, collector: bool,
        objects: bool = False, young: bool = False) -> Tally:
    """One set of games (after a warm-up game), the collector on or off."""
    tally = Tally()
    if young:
        tally.traversed = {}
    play_game(variant, seed, end_year, Tally(), objects=False)  # (warm-up, as the bench)
    gc.callbacks.append(tally.callback)
    try:
        for index in range(games):
            gc.collect()
            if not collector:
                gc.disable()
            try:
                play_game(variant, seed + index, end_year, tally, objects)
            finally:
                gc.enable()
    finally:
        gc.callbacks.remove(tally.callback)
    return tally


def _per_phase_us(tally: Tally, value: float) -> float:
    return 1e6 * value / tally.phases


def report(tally: Tally) -> float:
    """Print one run's figures; return the collector's share of the phase all in."""
    total = sum(tally.time.values())
    collecting = sum(tally.collecting[part] for part in PARTS)
    print(f"{tally.phases} phases; per phase, microseconds")
    print(f"{'part':8} {'time':>8} {'gc time':>8} {'share':>6} "
          f"{'young':>6} {'middle':>6} {'old':>6}  (collections a phase)")
    for part in PARTS:
        gen = [tally.collections[part, g] / tally.phases for g in range(3)]
        share = tally.collecting[part] / tally.time[part] if tally.time[part] else 0.0
        print(f"{part:8} {_per_phase_us(tally, tally.time[part]):8.1f} "
              f"{_per_phase_us(tally, tally.collecting[part]):8.1f} {100 * share:5.1f}% "
              + " ".join(f"{g:6.3f}" for g in gen))
    outside = [tally.collections["outside", g] / tally.phases for g in range(3)]
    print(f"{'all in':8} {_per_phase_us(tally, total):8.1f} "
          f"{_per_phase_us(tally, collecting):8.1f} {100 * collecting / total:5.1f}%  "
          f"(outside the parts: " + " ".join(f"{g:.3f}" for g in outside) + ")")
    return collecting / total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games counted (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--end-year", type=int, default=1935)
    parser.add_argument("--runs", type=int, default=1,
                        help="play the games this many times (the later runs replay them, the "
                             "variant's tables made; default 1)")
    parser.add_argument("--off", action="store_true", help="the collector off")
    parser.add_argument("--objects", action="store_true",
                        help="list the tracked objects each part makes and a phase keeps (slow; "
                             "no times printed)")
    parser.add_argument("--young", action="store_true",
                        help="list the kinds of object the collections traverse, by generation "
                             "(slow; no times printed)")
    args = parser.parse_args(argv)
    variant = load_variant("classical")
    print(f"realpolitik {bench.build()}; the bench's native loop, {args.games} games from seed "
          f"{args.seed}, gc thresholds {gc.get_threshold()}")
    if args.objects:
        tally = run(variant, args.seed, args.games, args.end_year, True, objects=True)
        def show(kinds: Counter[str]) -> str:
            return ", ".join(f"{name} {count / tally.phases:.1f}"
                             for name, count in kinds.most_common(12))

        print(f"tracked objects a phase leaves alive ({tally.phases} phases): {show(tally.kept)}")
        for part in PARTS:
            print(f"made by {part} and alive at its end: {show(tally.made[part])}")
        return 0
    if args.young:
        tally = run(variant, args.seed, args.games, args.end_year, True, young=True)
        for generation, kinds in sorted((tally.traversed or {}).items()):
            made = sum(tally.collections[part, generation] for part in (*PARTS, "outside"))
            print(f"generation {generation}, {made} collections, objects traversed a collection "
                  f"{sum(kinds.values()) / made:.0f}: " + ", ".join(
                      f"{name} {count / made:.0f}" for name, count in kinds.most_common(14)))
        return 0
    for _ in range(args.runs):
        report(run(variant, args.seed, args.games, args.end_year, not args.off))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
