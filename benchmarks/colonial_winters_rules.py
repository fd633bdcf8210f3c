"""Seeded random games of Colonial Winters under its own rules, 1870 to 1920 (or their end),
once under the default policies and once under each alternative value of every policy.

Prints, per policy set, how the game ended, the number of phases, and the time per phase: all
in (the legal-order listing, the random choice, the submission and the adjudication) and in
`Game.process` alone (the adjudication with the variant's hooks and the next position).

    python benchmarks/colonial_winters_rules.py [--seed 1870] [--end-year 1920] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from realpolitik.game import Game
from realpolitik.orders import Order
from realpolitik.rulesets.colonial_winters import POLICIES
from realpolitik.variant import Variant, load_variant


def play(variant: Variant, seed: int, end_year: int, policies: dict[str, str]
         ) -> dict[str, object]:
    """One game; its end, phases and timings (seconds)."""
    rng = random.Random(seed)
    game = Game(variant, seed=seed, end_year=end_year, policies=policies)
    clock = time.perf_counter
    all_in = processing = 0.0
    while not game.is_over:
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
    phases = len(game.history)
    assert game.end is not None
    return {"policies": policies, "end": game.end.summary, "phases": phases,
            "ms_per_phase": round(1000 * all_in / phases, 2),
            "ms_per_phase_process": round(1000 * processing / phases, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1870)
    parser.add_argument("--end-year", type=int, default=1920)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    variant = load_variant("colonial_winters")
    sets = [{}] + [{name: value} for name, values in POLICIES.items() for value in values[1:]]
    rows = [play(variant, args.seed, args.end_year, policies) for policies in sets]
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    for row in rows:
        name = ", ".join(f"{k}={v}" for k, v in row["policies"].items()) or "defaults"  # type: ignore[attr-defined]
        print(f"{name:45} {row['phases']:4} phases  {row['ms_per_phase']:7.2f} ms/phase all in"
              f"  {row['ms_per_phase_process']:7.2f} ms/phase process  {row['end']}")


if __name__ == "__main__":
    main()
