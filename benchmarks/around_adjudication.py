"""What ``Game.process`` costs around the adjudicator, on the bench's games.

    python benchmarks/around_adjudication.py --games 3 --seed 0 --rounds 5

Plays the games of ``benchmarks/bench.py``'s native loop (random legal orders), keeping a copy
of the game just before each ``process`` and the resolution its ``adjudicate`` gave; then
processes every copy again with ``adjudicate`` handing back the kept resolution, so that what is
timed is the rest of ``process``: the next position (``phases.next_position``), the checks for
eliminations and the end of the game, the phase's record. Prints the best round's CPU time per
phase of each phase type (the phase type of the position processed).

Instruction counts, which the machine's load does not move: each round's processing runs inside
:func:`functools.reduce`, so that callgrind counts only that (the copies are made outside it)::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --collect-atstart=no \\
        --toggle-collect=functools_reduce --callgrind-out-file=/dev/null \\
        .venv/bin/python benchmarks/around_adjudication.py --rounds 1

(the ``Collected`` count divided by the phases processed).
"""

from __future__ import annotations

import argparse
import copy
import gc
import random
import sys
import time
from collections.abc import Iterator
from functools import partial, reduce
from pathlib import Path

try:
    import realpolitik  # noqa: F401
except ImportError:  # run from a checkout without installing: use its sources
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from realpolitik import game as game_module  # noqa: E402
from realpolitik.adjudication.outcomes import Resolution  # noqa: E402
from realpolitik.game import Game  # noqa: E402
from realpolitik.position import PhaseType  # noqa: E402
from realpolitik.variant import Variant, load_variant  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import RULES, random_orders  # noqa: E402

Recorded = list[tuple[Game, Resolution]]
"""Each phase: the game just before ``process`` (a copy), and the resolution it got."""


def _copy(game: Game, variant: Variant) -> Game:
    """A deep copy of ``game`` sharing its variant (and, as positions are values, its
    positions), with only the last phase of its history (all ``process`` reads of it)."""
    history = game.history
    game.history = history[-1:]
    try:
        return copy.deepcopy(game, {id(variant): variant, id(game.rules): game.rules})
    finally:
        game.history = history


def record(games: int, seed: int, end_year: int) -> Recorded:
    """Play the bench's native games, keeping each phase's game before processing and its
    resolution."""
    variant = load_variant("classical")
    names = vars(game_module)
    real = names["adjudicate"]
    kept: list[Resolution] = []

    def keeping(*args: object, **kwargs: object) -> Resolution:
        resolution: Resolution = real(*args, **kwargs)
        kept.append(resolution)
        return resolution

    out: Recorded = []
    names["adjudicate"] = keeping
    try:
        for game_seed in range(seed, seed + games):
            rng = random.Random(game_seed)
            game = Game(variant, rules=RULES)
            while not game.is_over and game.phase.year <= end_year:
                # (the bench's phase, with the copy taken between submitting and processing)
                legal = {power: game.legal_orders(power) for power in game.powers_to_order()}
                chosen = {power: random_orders(by_location, rng)
                          for power, by_location in legal.items()}
                for power, orders in chosen.items():
                    game.submit(power, orders)
                before = _copy(game, variant)
                game.process()
                out.append((before, kept[-1]))
    finally:
        names["adjudicate"] = real
    return out


def _next_of(resolutions: Iterator[Resolution], *_args: object, **_kwargs: object,
             ) -> Resolution:
    """The recorded resolution, handed back in place of ``adjudicate``'s."""
    return next(resolutions)


def replay(recorded: Recorded, rounds: int) -> dict[PhaseType, float]:
    """The best of ``rounds`` rounds of processing every recorded phase again (``adjudicate``
    giving back the recorded resolution), in CPU seconds per phase type."""
    names = vars(game_module)
    real = names["adjudicate"]
    best: dict[PhaseType, float] = {}
    for phase_type in PhaseType:
        of_type = [(g, r) for g, r in recorded if g.phase.type is phase_type]
        if not of_type:
            continue
        best[phase_type] = float("inf")
        for _ in range(rounds):
            games = [(_copy(g, g.variant), r) for g, r in of_type]
            for game, _ in games:
                # what the bench's phase has worked out before processing (the powers to
                # order, kept with the position; the recording's process let go of it)
                game._powers_cache = None  # noqa: SLF001
                game.powers_to_order()
            resolutions: Iterator[Resolution] = iter([r for _, r in games])
            names["adjudicate"] = partial(_next_of, resolutions)
            gc.collect()
            try:
                start = time.process_time()
                reduce(lambda _done, _item: [g.process() for g, _ in games], (0,), None)
                best[phase_type] = min(best[phase_type], time.process_time() - start)
            finally:
                names["adjudicate"] = real
        best[phase_type] /= len(of_type)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games to record (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--end-year", type=int, default=1935, help="last year played")
    parser.add_argument("--rounds", type=int, default=5,
                        help="replays of every phase; the best is kept (default 5)")
    args = parser.parse_args(argv)
    recorded = record(args.games, args.seed, args.end_year)
    best = replay(recorded, args.rounds)
    counts = {t: sum(1 for g, _ in recorded if g.phase.type is t) for t in best}
    total = sum(best[t] * counts[t] for t in best) / len(recorded)
    print(f"{len(recorded)} phases recorded ({args.games} game(s) from seed {args.seed}); "
          f"Game.process without adjudicate, best of {args.rounds}, CPU time per phase:")
    for phase_type, seconds in best.items():
        print(f"  {phase_type.name.lower():12} {counts[phase_type]:5d} phases "
              f"{1e6 * seconds:8.1f} us")
    print(f"  {'all':12} {len(recorded):5d} phases {1e6 * total:8.1f} us")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
