"""Fingerprint seeded random games, to show that a change to the engine plays the same games.

Plays random games (every power picks uniformly among its legal orders, seeded) under every
rule edition and every setup of the classical variant, and hashes each phase: the position
(units, centres, dislodged units, stand-offs) and every result with its sentence. The digest
per game is written as JSON (``--write``) or compared with a file written before (``--check``).

    python benchmarks/fingerprint.py --write tests/data/fingerprints.json
    python benchmarks/fingerprint.py --check tests/data/fingerprints.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

from realpolitik.game import Game
from realpolitik.position import Position
from realpolitik.variant import load_variant

EDITIONS = ("1971", "1982", "2000", "2023", "dptg")
SETUPS = ("7", "6", "5", "4", "3", "3b", "2")


def position_text(position: Position) -> str:
    """Everything a position holds, in a stable order."""
    units = sorted(f"{u.power}:{u.type.value}:{u.location}" for u in position.units.values())
    centers = sorted(f"{c}:{p}" for c, p in position.centers.items())
    dislodged = sorted(f"{d.unit.power}:{d.unit.type.value}:{d.unit.location}:"
                       f"{d.attacker_from}:{d.via_convoy}" for d in position.dislodged)
    return "|".join([str(position.phase), ",".join(units), ",".join(centers),
                     ",".join(dislodged), ",".join(sorted(position.standoffs))])


def play(edition: str, setup: str, seed: int, end_year: int) -> str:
    """The digest of one seeded random game."""
    variant = load_variant("classical")
    game = Game(variant, rules=edition, players=setup, seed=seed)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    while not game.is_over and game.phase.year <= end_year:
        digest.update(position_text(game.position).encode())
        for power in game.powers_to_order():
            if power in game.setup.inactive or (power in game.setup.neutral
                                                and game.coin_toss_winner is None):
                continue  # no player: in civil disorder
            options = [o for opts in game.legal_orders(power).values() for o in opts]
            chosen = [rng.choice(options) for _ in range(min(len(options), 3))]
            listed = game.legal_orders(power)
            picks = [rng.choice(opts) for _, opts in sorted(listed.items())]
            game.submit(power, picks if rng.random() < 0.9 else chosen)
        resolution = game.process()
        for result in resolution.results:
            digest.update(f"{result.order}|{result.power}|{result.result}|{result.reason}"
                          .encode())
    digest.update(position_text(game.position).encode())
    if game.end is not None:
        digest.update(repr(game.end).encode())
    return digest.hexdigest()


def fingerprints(games: int, end_year: int) -> dict[str, str]:
    """Digest per game, keyed ``edition/setup/seed``."""
    out: dict[str, str] = {}
    for edition in EDITIONS:
        for setup in SETUPS:
            for seed in range(games):
                out[f"{edition}/{setup}/{seed}"] = play(edition, setup, seed, end_year)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per edition and setup")
    parser.add_argument("--end-year", type=int, default=1914)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", type=Path)
    mode.add_argument("--check", type=Path)
    args = parser.parse_args(argv)
    found = fingerprints(args.games, args.end_year)
    if args.write:
        args.write.write_text(json.dumps(
            {"end_year": args.end_year, "games": found}, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(found)} game digests to {args.write}")
        return 0
    stored = json.loads(args.check.read_text())
    differ = [k for k, v in stored["games"].items() if found.get(k) != v]
    print(f"{len(stored['games']) - len(differ)} of {len(stored['games'])} games identical")
    for key in differ:
        print(f"  differs: {key}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
