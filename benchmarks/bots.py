"""How well and how fast the heuristic bot plays (issues 17 and 31).

    python benchmarks/bots.py --games 35 --seed 0

Seeded classical games (2023 rules), each stopping at a solo victory or after the adjustments
of ``--end-year``, the bots rotated over the powers so that the lone bot of a series plays each
power equally often (``--games`` is rounded up to a multiple of seven):

1. the heuristic bot against six random bots, then against six hold bots: in how many games
   it ends with strictly the most centres, and in how many it wins outright;
2. the heuristic bot against six copies of an older heuristic bot, and one older bot against
   six heuristic bots: mean centres, share of games topping the centre count, wins. The older
   bot is ``realpolitik/bots/heuristic.py`` as it was at ``--old`` (a git revision of this
   checkout, by default the last one before issue 31), loaded from git as ``heuristic-v1``;
3. seven heuristic bots: how their games end.

Then the CPU time (``time.process_time``) each bot takes to choose a whole power's orders in one
phase (listing the legal orders included), median and 95th percentile, over every phase played,
with the random bot as the reference measured in the same process; and the same for seventeen
heuristic bots playing Colonial Winters from 1870 (``--colonial-years`` years). Not a test: it
prints figures, and exits non-zero only if a target is missed (against random: >= 95% top,
>= 80% solo; against six older bots: more mean centres than they have, and a top share above
1/7; every game ended).
"""

from __future__ import annotations

import argparse
import math
import statistics
import subprocess
import sys
import time
import types
from collections import Counter
from collections.abc import Callable
from pathlib import Path

try:
    import realpolitik  # noqa: F401
except ImportError:  # run from a checkout without installing: use its sources
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from realpolitik.bots import Bot, make_bot  # noqa: E402
from realpolitik.bots.arena import PhaseTiming, league_text, play_game, run_arena  # noqa: E402
from realpolitik.rules import rules_for  # noqa: E402
from realpolitik.variant import load_variant  # noqa: E402

TOP_TARGET = 95.0
SOLO_TARGET = 80.0
OLD_REVISION = "9f74380"
"""The last commit before issue 31's heuristic bot."""
ROOT = Path(__file__).resolve().parent.parent


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` (0..1) of ``values`` fall (nearest rank)."""
    ordered = sorted(values)
    rank = max(0, math.ceil(share * len(ordered)) - 1)
    return ordered[rank]


def old_heuristic(revision: str) -> type[Bot] | None:
    """The heuristic bot class as it was at ``revision`` of this checkout, named
    ``heuristic-v1`` (None if git cannot give it)."""
    try:
        source = subprocess.run(
            ["git", "show", f"{revision}:realpolitik/bots/heuristic.py"], cwd=ROOT,
            capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    module = types.ModuleType("heuristic_v1")
    sys.modules[module.__name__] = module  # its dataclasses look their module up
    exec(compile(source, f"{revision}:heuristic.py", "exec"), module.__dict__)
    old: type[Bot] = type("OldHeuristicBot", (module.HeuristicBot,), {"name": "heuristic-v1"})
    return old


def timing_line(name: str, seconds: list[float]) -> str:
    return (f"{name:<13} median {1000 * statistics.median(seconds):8.3f} ms   "
            f"p95 {1000 * percentile(seconds, 0.95):8.3f} ms   ({len(seconds)} phases)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=35,
                        help="games per series (rounded up to a multiple of 7; default 35)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--end-year", type=int, default=1920)
    parser.add_argument("--old", default=OLD_REVISION, metavar="REVISION",
                        help=f"git revision of the older heuristic bot (default {OLD_REVISION})")
    parser.add_argument("--colonial-years", type=int, default=4,
                        help="years of Colonial Winters timed (default 4; 0: none)")
    args = parser.parse_args(argv)
    games = 7 * math.ceil(max(1, args.games) / 7)
    variant = load_variant("classical")
    timing = PhaseTiming(clock=time.process_time)  # CPU time: the machine may be shared
    old = old_heuristic(args.old)

    def make(name: str, seed: int) -> Bot:
        return old(seed) if old is not None and name == "heuristic-v1" else make_bot(name, seed)

    print(f"realpolitik bots benchmark: {games} games per series, seeds {args.seed}.."
          f"{args.seed + games - 1}, classical, 2023 rules, to the end of {args.end_year}")
    met = True
    for opponent in ("random", "hold"):
        started = time.perf_counter()
        table, played = run_arena(["heuristic", *[opponent] * 6], games=games, seed=args.seed,
                                  variant=variant, end_year=args.end_year, timing=timing)
        line = next(s for s in table if s.bot == "heuristic")
        top = 100.0 * line.top / games
        solo = 100.0 * line.wins / games
        years = [int(g.phase[1:5]) for g in played
                 if g.end_kind == "victory" and "heuristic" in
                 {g.seats[p] for p in g.winners}]
        print(f"\n-- heuristic against six {opponent} bots "
              f"({time.perf_counter() - started:.1f} s)")
        print(league_text(table))
        print(f"tops the centre count: {top:.1f}% (target >= {TOP_TARGET:.0f}%); "
              f"wins outright by {args.end_year}: {solo:.1f}%"
              + (f"; median year of the win {statistics.median(years):.0f}" if years else ""))
        if opponent == "random":
            met = met and top >= TOP_TARGET and solo >= SOLO_TARGET
    if old is None:
        print(f"\n-- the older heuristic bot: git cannot show {args.old}; series skipped")
    for lone, many in (("heuristic", "heuristic-v1"), ("heuristic-v1", "heuristic")):
        if old is None:
            break
        started = time.perf_counter()
        table, _ = run_arena([lone, *[many] * 6], games=games, seed=args.seed,
                             variant=variant, end_year=args.end_year, make=make,
                             timing=timing)
        lines = {s.bot: s for s in table}
        top = lines[lone].top / games
        print(f"\n-- one {lone} against six {many} ({args.old}) "
              f"({time.perf_counter() - started:.1f} s)")
        print(league_text(table))
        print(f"{lone}: mean centres {lines[lone].mean_centers:.2f} against "
              f"{lines[many].mean_centers:.2f}; tops the centre count in {100 * top:.1f}% "
              f"of games (1/7 = 14.3%); wins {lines[lone].wins}")
        if lone == "heuristic":
            met = met and lines[lone].mean_centers > lines[many].mean_centers and top > 1 / 7
    started = time.perf_counter()
    table, played = run_arena(["heuristic"] * 7, games=games, seed=args.seed, variant=variant,
                              end_year=args.end_year, timing=timing)
    ends = Counter(g.end_kind for g in played)
    finished = sum(1 for g in played if g.game.is_over)
    print(f"\n-- seven heuristic bots ({time.perf_counter() - started:.1f} s)")
    print(league_text(table))
    print(f"games ended: {finished}/{games} ("
          + ", ".join(f"{kind} {count}" for kind, count in sorted(ends.items())) + ")")
    met = met and finished == games
    print("\n-- CPU time to choose one power's orders in one phase, classical "
          "(legal orders listed included)")
    for name in ("heuristic", "heuristic-v1", "random", "hold"):
        if timing.seconds.get(name):
            print(timing_line(name, timing.seconds[name]))
    heuristic, reference = timing.seconds["heuristic"], timing.seconds["random"]
    median_ratio = statistics.median(heuristic) / statistics.median(reference)
    p95_ratio = percentile(heuristic, 0.95) / percentile(reference, 0.95)
    print(f"heuristic / random: median x{median_ratio:.1f}, p95 x{p95_ratio:.1f}")
    if args.colonial_years > 0:
        print(colonial_timing(args.colonial_years, args.seed, make))
    print("\ntargets met" if met else "\nTARGETS MISSED")
    return 0 if met else 1


def colonial_timing(years: int, seed: int, make: Callable[[str, int], Bot]) -> str:
    """The heuristic bot's time per power and phase over ``years`` years of Colonial Winters
    played by seventeen of them, and the time of a whole phase of orders (all powers)."""
    colonial = load_variant("colonial_winters")
    timing = PhaseTiming(clock=time.process_time)
    bots = {power: make("heuristic", seed * 1000 + i)
            for i, power in enumerate(colonial.power_ids)}
    started = time.perf_counter()
    game = play_game(colonial, bots, seed=seed, end_year=1869 + years, rules=rules_for("2023"),
                     timing=timing)
    seconds = timing.seconds["heuristic"]
    phases = len(game.history)
    return (f"\n-- CPU time per power and phase, Colonial Winters, 17 heuristic bots, "
            f"{phases} phases from 1870 ({time.perf_counter() - started:.1f} s)\n"
            + timing_line("heuristic", seconds)
            + f"\nall powers' orders for one phase: mean {1000 * sum(seconds) / phases:.1f} ms")


if __name__ == "__main__":
    sys.exit(main())
