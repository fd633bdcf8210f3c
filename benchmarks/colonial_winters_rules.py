"""Seeded random games of Colonial Winters under its own rules, 1870 to 1920 (or their end),
once under the default policies and once under each alternative value of every policy.

Prints, per policy set, how the game ended, the number of phases, and the time per phase: all
in (the legal-order listing, the random choice, the submission and the adjudication) and in
`Game.process` alone (the adjudication with the variant's hooks and the next position), as a
mean, a median and a 95th percentile over the game's phases.

With ``--check`` every phase is also checked against the rules' invariants (one unit per
space, the sea-superiority table worked out again, build limits, the Indian armies never more
than two: ``check_phase`` of ``tests/test_colonial_winters_games.py``), and the game's record
is saved, read back and replayed to the same positions. The test suite plays the default
policies to 1920 and each other policy set for ten years; this plays them all to 1920.

    python benchmarks/colonial_winters_rules.py [--seed 1870] [--end-year 1920] [--check]
        [--only defaults|NAME=VALUE] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from realpolitik import savefile
from realpolitik.game import Game
from realpolitik.orders import Order
from realpolitik.variant import Variant, load_variant
from realpolitik.variants.colonial_winters.rules import POLICIES

Check = Callable[..., None]


def play(variant: Variant, seed: int, end_year: int, policies: dict[str, str],
         check: Check | None = None) -> dict[str, object]:
    """One game; its end, phases and timings (seconds); ``check(before, after, game)`` is
    called after every phase, and the record replayed at the end, when given."""
    rng = random.Random(seed)
    game = Game(variant, seed=seed, end_year=end_year, policies=policies)
    clock = time.perf_counter
    all_in = processing = 0.0
    per_phase: list[float] = []
    while not game.is_over:
        before = game.position
        t0 = clock()
        for power in game.powers_to_order():
            chosen: list[Order] = []
            for location, options in game.legal_orders(power).items():
                if location != "waive":
                    chosen.append(options[rng.randrange(len(options))])
            game.submit(power, chosen)
        t1 = clock()
        game.process()
        t2 = clock()
        processing += t2 - t1
        all_in += t2 - t0
        per_phase.append(t2 - t1)
        if check is not None:
            check(before, game.position, game)
    phases = len(game.history)
    assert game.end is not None
    replayed = None
    if check is not None:
        again = savefile.loads(savefile.dumps(game))
        replayed = [r.position for r in again.history] == [r.position for r in game.history]
        assert replayed, "the record did not replay to the same positions"
    ordered = sorted(per_phase)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"policies": policies, "end": game.end.summary, "phases": phases,
            "ms_per_phase": round(1000 * all_in / phases, 2),
            "ms_per_phase_process": round(1000 * processing / phases, 2),
            "ms_process_median": round(1000 * statistics.median(per_phase), 2),
            "ms_process_p95": round(1000 * p95, 2),
            "checked": check is not None, "replayed": replayed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1870)
    parser.add_argument("--end-year", type=int, default=1920)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--check", action="store_true",
                        help="check the invariants every phase and replay each record")
    parser.add_argument("--only", help="one policy set: defaults, or NAME=VALUE")
    args = parser.parse_args()
    variant = load_variant("colonial_winters")
    sets = [{}] + [{name: value} for name, values in POLICIES.items() for value in values[1:]]
    if args.only:
        sets = [s for s in sets if (",".join(f"{k}={v}" for k, v in s.items())
                                    or "defaults") == args.only]
    check: Check | None = None
    if args.check:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
        from test_colonial_winters_games import check_phase
        check = check_phase
    rows = [play(variant, args.seed, args.end_year, policies, check) for policies in sets]
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    for row in rows:
        name = ", ".join(f"{k}={v}" for k, v in row["policies"].items()) or "defaults"  # type: ignore[attr-defined]
        print(f"{name:45} {row['phases']:4} phases  {row['ms_per_phase']:7.2f} ms/phase all in"
              f"  process: mean {row['ms_per_phase_process']:6.2f}, median "
              f"{row['ms_process_median']:6.2f}, p95 {row['ms_process_p95']:6.2f} ms"
              f"{'  checked, replayed' if row['checked'] else ''}  {row['end']}")


if __name__ == "__main__":
    main()
