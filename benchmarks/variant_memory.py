"""Memory of one loaded variant shared by many games: does it stay within a fixed bound?

    python benchmarks/variant_memory.py                 # 1,000 games
    python benchmarks/variant_memory.py --games 50      # a quick estimate
    python benchmarks/variant_memory.py --json          # machine-readable

A program that plays many games (a server, a bot trainer, a tournament runner) loads a variant
once and gives it to every :class:`realpolitik.game.Game`. The variant keeps what the engine
works out about its map for the games that use it (order values, convoy routes, the map's
integer numbering, in ``Variant.caches``: typed slots of :mod:`realpolitik.caches`, each with
a stated bound), so that the next game finds them ready. That is only safe if what it keeps is
bounded: a long-running process must not grow without limit with the number of games played.
The target is a growth of the process's resident memory under 20 MB between 10 and 1,000
games.

This loads the classical variant once, then plays seeded random games with the native API: each
phase every power in ``game.powers_to_order()`` gives one uniformly random order per unit (and
per build or removal) among ``game.legal_orders(power)``, as ``play_native`` in
``benchmarks/bench.py`` does, then ``game.process()``; each game runs until 1935 or its end.
Each game is dropped when done, so that only the shared variant outlives it. After 10 games and
after ``--games`` games it reads the process's resident set size (``VmRSS`` in
``/proc/self/status``, Linux only) after a full garbage collection, and prints both and the
growth. RSS is what the operating system sees (allocator fragmentation and arenas included),
which is the figure that matters for a long-running process.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from pathlib import Path

try:
    import realpolitik  # noqa: F401
except ImportError:  # run from a checkout without installing: use its sources
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import random_orders  # noqa: E402  (the same random play as the bench)

from realpolitik.game import Game  # noqa: E402
from realpolitik.variant import Variant, load_variant  # noqa: E402

RULES = "2023"
FIRST_MARK = 10
"""The number of games after which the first reading is taken: by then the variant's tables
for the common openings are filled, so the growth after it is what the games keep adding."""
TARGET_MB = 20.0


def rss_mb() -> float:
    """The resident set size of this process in MB (10^6 bytes), after a full collection."""
    # Collect first so that garbage awaiting the cycle collector is not counted as kept.
    gc.collect()
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024 / 1e6  # the kernel reports kB (KiB)
    raise RuntimeError("no VmRSS in /proc/self/status (this measure needs Linux)")


def play(variant: Variant, seed: int, end_year: int) -> int:
    """One seeded random game on ``variant`` until ``end_year`` is over or the game ends;
    returns the number of phases played. The game is not returned, so it is dropped here."""
    rng = random.Random(seed)
    game = Game(variant, rules=RULES, seed=seed)
    phases = 0
    while not game.is_over and game.phase.year <= end_year:
        for power in game.powers_to_order():
            game.submit(power, random_orders(game.legal_orders(power), rng))
        game.process()
        phases += 1
    return phases


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000,
                        help="games to play in all (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--end-year", type=int, default=1935,
                        help="play until this year is over or the game ends (default 1935)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.games < FIRST_MARK:
        parser.error(f"--games must be at least {FIRST_MARK}")

    start = time.perf_counter()
    rss_start = rss_mb()
    variant = load_variant("classical")
    rss_loaded = rss_mb()
    phases = 0
    rss_first = 0.0
    for index in range(args.games):
        phases += play(variant, args.seed + index, args.end_year)
        if index + 1 == FIRST_MARK:
            rss_first = rss_mb()
    rss_last = rss_mb()
    seconds = time.perf_counter() - start
    growth = rss_last - rss_first

    result = {
        "games": args.games,
        "seed": args.seed,
        "end_year": args.end_year,
        "rules": RULES,
        "phases": phases,
        "rss_mb_start": round(rss_start, 1),
        "rss_mb_variant_loaded": round(rss_loaded, 1),
        f"rss_mb_after_{FIRST_MARK}": round(rss_first, 1),
        f"rss_mb_after_{args.games}": round(rss_last, 1),
        "growth_mb": round(growth, 1),
        "target_mb": TARGET_MB,
        "within_target": growth < TARGET_MB,
        "variant_caches": list(variant.caches.names()),
        "seconds": round(seconds, 1),
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"classical variant shared by {args.games} random games (seed {args.seed}, "
              f"rules {RULES}, to {args.end_year}), {phases} phases, {seconds:.0f} s")
        print(f"RSS before loading:        {rss_start:8.1f} MB")
        print(f"RSS with variant loaded:   {rss_loaded:8.1f} MB")
        print(f"RSS after {FIRST_MARK:>5} games:     {rss_first:8.1f} MB")
        print(f"RSS after {args.games:>5} games:     {rss_last:8.1f} MB")
        print(f"growth {FIRST_MARK} -> {args.games} games:  {growth:8.1f} MB "
              f"(target under {TARGET_MB:.0f} MB: {'met' if growth < TARGET_MB else 'NOT met'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
