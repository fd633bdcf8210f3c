"""What the ``diplomacy``-package facade costs on top of realpolitik's own API, part by part.

    python benchmarks/facade_cost.py                   # CPU time per phase, both APIs
    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=functools_reduce \\
        python benchmarks/facade_cost.py --engine facade --part list   # instructions
    valgrind ... python benchmarks/facade_cost.py --fresh --engine facade --part list

Three seeded random games are played once through the facade (the loop of ``bench.py``), and
the orders it handed to the engine are recorded. Then the same games are replayed, with the
same orders, through the facade (``get_all_possible_orders`` and ``get_orderable_locations``,
``set_orders``, ``process``) and through the native API (``legal_orders``, ``submit`` of the
recorded values, ``process``, skipping the retreat phases the facade skips), so both do the
same work and the difference is the facade's own. Every part runs inside
:func:`functools.reduce`, so that callgrind's ``--toggle-collect=functools_reduce`` counts only
the part named by ``--part`` (the replays are warm: the strings and order values of these games
are made in the recording pass).

With ``--fresh`` nothing is recorded or replayed: the games are played as ``bench.py`` plays them
(a warm-up game from the seed, then the games, random orders drawn from the sorted listing, the
garbage collector on), the part named by ``--part`` inside :func:`functools.reduce`; so the
games after the first meet orders and strings for the first time, as the bench's do.
With ``--no-warm-up`` as well, nothing of the warm-up game is counted (``bench.py`` times only
the games after it; ``--games 9`` plays the games of its ``--games 3 --runs 3``).
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections.abc import Callable
from functools import partial, reduce
from pathlib import Path
from typing import Any

try:
    import realpolitik  # noqa: F401
except ImportError:  # run from a checkout without installing: use its sources
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from realpolitik.compat.diplomacy import PACKAGE_RULES, Game  # noqa: E402
from realpolitik.game import Game as NativeGame  # noqa: E402
from realpolitik.orders import Order  # noqa: E402
from realpolitik.position import PhaseType  # noqa: E402

PARTS = ("list", "set", "process")
Phase = tuple[dict[str, list[str]], dict[str, list[Order]]]
"""One phase as recorded: power -> the strings given to set_orders, power id -> the orders."""


def record(seed: int, end_year: int) -> list[Phase]:
    """Play one game through the facade as bench.py does; the orders of every phase."""
    rng = random.Random(seed)
    game = Game()
    phases: list[Phase] = []
    while not game.is_game_done and int(game.get_current_phase()[1:5]) <= end_year:
        possible = game.get_all_possible_orders()
        chosen = {power: [rng.choice(sorted(possible[loc])) for loc in locs if possible[loc]]
                  for power, locs in game.get_orderable_locations().items()}
        for power, orders in chosen.items():
            game.set_orders(power, orders)
        engine = game.realpolitik_game
        given = {power: [e.order for e in engine.orders_of(power) if e.order is not None]
                 for power in engine.powers_to_order()}
        phases.append((chosen, given))
        game.process()
    return phases


def replay(engine: str, games: list[list[Phase]], counted: str,
           totals: dict[str, float]) -> None:
    """Replay the recorded games; ``counted`` is the part run inside functools.reduce."""
    clock = time.process_time

    def run(part: str, work: Callable[[], Any]) -> None:
        start = clock()
        if part == counted:
            reduce(lambda _done, _item: work(), (0,), 0)
        else:
            work()
        totals[part] += clock() - start

    for phases in games:
        if engine == "facade":
            _replay_facade(phases, run)
        else:
            _replay_native(phases, run)


def _replay_facade(phases: list[Phase], run: Callable[[str, Callable[[], Any]], None]) -> None:
    game = Game()

    def listing() -> None:
        game.get_all_possible_orders()
        game.get_orderable_locations()

    for chosen, _ in phases:
        run("list", listing)
        run("set", partial(_set_all, game.set_orders, chosen))
        run("process", game.process)


def _replay_native(phases: list[Phase], run: Callable[[str, Callable[[], Any]], None]) -> None:
    native = NativeGame(Game().realpolitik_game.variant, rules=PACKAGE_RULES)

    def listing() -> None:
        for power in native.powers_to_order():
            native.legal_orders(power)

    def process() -> None:
        native.process()
        while not native.is_over and native.phase.type is PhaseType.RETREATS and all(
                len(options) == 1 for power in native.powers_to_order()
                for options in native.legal_orders(power).values()):
            native.process()  # (nowhere to go: the facade skips this phase)

    for _, given in phases:
        run("list", listing)
        run("set", partial(_set_all, native.submit, given))
        run("process", process)


def play_fresh(engine: str, seed: int, games: int, end_year: int, counted: str,
               count_warm_up: bool = True) -> None:
    """Play the games as ``bench.py`` does (a warm-up game from ``seed``, then ``games`` games
    from ``seed``), the part ``counted`` inside :func:`functools.reduce`; in the warm-up game
    too unless ``count_warm_up`` is False (``bench.py`` does not time it)."""
    counting = [count_warm_up]

    def run(part: str, work: Callable[[], Any]) -> Any:
        if part == counted and counting[0]:
            return reduce(lambda _done, _item: work(), (0,), 0)
        return work()

    variant = Game().realpolitik_game.variant
    for index, game_seed in enumerate((seed, *range(seed, seed + games))):
        counting[0] = count_warm_up or index > 0
        gc.collect()
        rng = random.Random(game_seed)
        if engine == "facade":
            game = Game()
            while not game.is_game_done and int(game.get_current_phase()[1:5]) <= end_year:
                possible, orderable = run("list", lambda game=game: (
                    game.get_all_possible_orders(), game.get_orderable_locations()))
                chosen = {power: [rng.choice(sorted(possible[loc])) for loc in locs
                                  if possible[loc]] for power, locs in orderable.items()}
                run("set", partial(_set_all, game.set_orders, chosen))
                run("process", game.process)
            continue
        native = NativeGame(variant, rules=PACKAGE_RULES)
        while not native.is_over and native.phase.year <= end_year:
            legal = run("list", lambda native=native: {
                power: native.legal_orders(power) for power in native.powers_to_order()})
            given = {power: [options[rng.randrange(len(options))]
                             for options in by_location.values()]
                     for power, by_location in legal.items()}
            run("set", partial(_set_all, native.submit, given))
            run("process", native.process)


def _set_all(give: Callable[[str, Any], Any], orders: dict[str, Any]) -> None:
    for power, its_orders in orders.items():
        give(power, its_orders)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--end-year", type=int, default=1935)
    parser.add_argument("--engine", choices=("facade", "native", "both"), default="both")
    parser.add_argument("--part", choices=(*PARTS, "none"), default="none",
                        help="the part run inside functools.reduce (for callgrind)")
    parser.add_argument("--repeat", type=int, default=3, help="replays per engine (timing)")
    parser.add_argument("--fresh", action="store_true",
                        help="play the games as bench.py does instead of replaying them")
    parser.add_argument("--no-warm-up", action="store_true",
                        help="with --fresh, count nothing in the warm-up game (as bench.py "
                             "times nothing there: the games after it meet fewer new strings)")
    args = parser.parse_args(argv)
    if args.fresh:
        for engine in ("facade", "native") if args.engine == "both" else (args.engine,):
            start = time.process_time()
            play_fresh(engine, args.seed, args.games, args.end_year, args.part,
                       count_warm_up=not args.no_warm_up)
            print(f"{engine}: {time.process_time() - start:.2f} s of CPU time")
        return 0
    games = [record(args.seed + i, args.end_year) for i in range(args.games)]
    phases = sum(map(len, games))
    engines = ("facade", "native") if args.engine == "both" else (args.engine,)
    best: dict[str, dict[str, float]] = {}
    gc.collect()
    gc.disable()  # (a collection falling in one replay and not the other would swamp parts)
    for _ in range(args.repeat if args.part == "none" else 1):
        for engine in engines:
            totals = dict.fromkeys(PARTS, 0.0)
            replay(engine, games, args.part, totals)
            kept = best.setdefault(engine, totals)
            for part in PARTS:
                kept[part] = min(kept[part], totals[part])
    gc.enable()
    print(f"{phases} phases; CPU ms per phase, best of {args.repeat if args.part == 'none' else 1}"
          " replay(s), garbage collector off")
    for engine, totals in best.items():
        print(f"{engine:8} " + " ".join(f"{part} {1000 * totals[part] / phases:.3f}"
                                        for part in PARTS)
              + f" all {1000 * sum(totals.values()) / phases:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
