"""The adjudicator alone: the bench's games recorded, then ``adjudicate`` replayed on their phases.

    python benchmarks/adjudication.py --games 3 --seed 0 --rounds 15

Plays the games of ``benchmarks/bench.py``'s native loop (random legal orders, the 2000 rules),
recording the position and the orders of every phase, then adjudicates every recorded phase
again ``--rounds`` times (each position's caches emptied first, as they are when the game
reaches it) and prints the time per phase of each phase type: the best round's CPU time, which
a busy machine disturbs less than the mean. ``Game.process`` around the adjudicator (the next
position, the end-of-game checks, the record) is left out: ``bench.py`` measures it all.

Instruction counts, which the machine's load does not move: run it under valgrind with
``--rounds 0`` and with ``--rounds N``; the difference divided by N times the phases of a type
is the count per phase (``--only movement`` replays one phase type)::

    PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        .venv/bin/python benchmarks/adjudication.py --games 3 --rounds 0 --only movement

``--in-game process`` (or ``adjudicate``) counts in place instead: it plays the bench's games
(after a warm-up game, the collector run before each game as the bench does) with every
``Game.process`` (or every ``adjudicate`` it calls; ``--only`` a phase type's) run inside
:func:`functools.reduce`, so that callgrind collects that alone, in the games' own caches and
allocations; ``--no-gc`` turns the garbage collector off, whose passes fall where the
allocations happen to cross its threshold and make counts with it on move by some 10%::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --collect-atstart=no \\
        --toggle-collect=functools_reduce --callgrind-out-file=/dev/null \\
        .venv/bin/python benchmarks/adjudication.py --in-game process --no-gc

``--order-reuse`` counts, over the recorded movement phases, the orders given as an object
given already in an earlier phase (the listing makes each order value once per variant and lists
it again): what a table of per-order facts kept per variant would find made already.

``--stage units|board|decide|resolution`` replays the recorded movement phases once with only
that stage of the movement adjudicator inside :func:`functools.reduce` (the units in order and
their index; the board set up from the orders; the pre-pass and the solver; who moved, the
next board and the record), each stage's inputs made beforehand; under callgrind with
``--toggle-collect=functools_reduce``, the count divided by the phases is that stage's cost::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --collect-atstart=no \\
        --toggle-collect=functools_reduce --callgrind-out-file=/dev/null \\
        .venv/bin/python benchmarks/adjudication.py --stage board
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections.abc import Callable
from functools import reduce
from pathlib import Path
from typing import Any

try:
    import realpolitik  # noqa: F401
except ImportError:  # run from a checkout without installing: use its sources
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from realpolitik import game as game_module  # noqa: E402
from realpolitik.adjudication import adjudicate  # noqa: E402
from realpolitik.game import Game  # noqa: E402
from realpolitik.orders import Order  # noqa: E402
from realpolitik.position import PhaseType, Position  # noqa: E402
from realpolitik.rules import Rules, rules_for  # noqa: E402
from realpolitik.variant import load_variant  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import RULES, Timing, play_native, random_orders  # noqa: E402

_DEFAULT = rules_for("2023")  # (as adjudicate's)

Phase = tuple[Position, tuple[Order, ...], Rules | None, bool]
"""What one phase's ``adjudicate`` call was given: position, orders, rules, checked."""


def record(games: int, seed: int, end_year: int, variant_name: str = "classical",
           ) -> list[Phase]:
    """Play the bench's native games and keep every call ``Game.process`` made to
    ``adjudicate``."""
    calls: list[Phase] = []
    names = vars(game_module)  # (the name Game.process calls, swapped for a recording one)
    real = names["adjudicate"]

    def recording(position: Position, orders: list[Order], *, rules: Rules | None = None,
                  checked: bool = False) -> object:
        calls.append((position, tuple(orders), rules, checked))
        return real(position, orders, rules=rules, checked=checked)

    variant = load_variant(variant_name)
    names["adjudicate"] = recording
    try:
        for game_seed in range(seed, seed + games):
            rng = random.Random(game_seed)
            game = Game(variant, rules=RULES)
            while not game.is_over and game.phase.year <= end_year:
                legal = {power: game.legal_orders(power) for power in game.powers_to_order()}
                for power, by_location in legal.items():
                    game.submit(power, random_orders(by_location, rng))
                game.process()
    finally:
        names["adjudicate"] = real
    return calls


def replay(phases: list[Phase], rounds: int) -> float:
    """The best of ``rounds`` rounds of adjudicating ``phases`` again, in CPU seconds."""
    best = float("inf")
    gc.collect()  # (once, so that a count under valgrind with --rounds 0 includes it too)
    for _ in range(rounds):
        start = time.process_time()
        for position, orders, rules, checked in phases:
            position.caches.clear()
            adjudicate(position, orders, rules=rules, checked=checked)
        best = min(best, time.process_time() - start)
    return best


def in_game(what: str, games: int, seed: int, end_year: int, only: str | None) -> None:
    """Play the bench's native games with each ``Game.process`` (``what="process"``) or each
    ``adjudicate`` or ``next_position`` it calls (``"adjudicate"``, ``"next_position"``) of the
    phases of type ``only`` (every phase if
    None) run inside :func:`functools.reduce`, for callgrind's ``--toggle-collect``."""
    variant = load_variant("classical")
    play_native(variant, seed + games, end_year, Timing("warm-up"))  # (tables, caches)

    def counted(real: Callable[..., object]) -> Callable[..., object]:
        def call(first: object, *args: object, **kwargs: object) -> object:
            position = first.position if isinstance(first, Game) else first
            assert isinstance(position, Position)
            if only is not None and position.phase.type.name.lower() != only:
                return real(first, *args, **kwargs)
            return reduce(lambda _done, _item: real(first, *args, **kwargs), (0,), None)
        return call

    names = vars(game_module)
    real_process, real_adjudicate = Game.process, names["adjudicate"]
    real_next = names["_next_position"]
    if what == "process":
        Game.process = counted(real_process)  # type: ignore[method-assign]
    elif what == "next_position":
        names["_next_position"] = counted(real_next)
    else:
        names["adjudicate"] = counted(real_adjudicate)
    try:
        for game_seed in range(seed, seed + games):
            gc.collect()  # (as the bench does before each game)
            play_native(variant, game_seed, end_year, Timing("counted"))
    finally:
        Game.process = real_process  # type: ignore[method-assign]
        names["adjudicate"] = real_adjudicate
        names["_next_position"] = real_next


def stage(name: str, phases: list[Phase]) -> int:
    """Run one stage of the movement adjudicator (``units``, ``board``, ``decide`` or
    ``resolution``) on every movement phase of ``phases``, inside :func:`functools.reduce`;
    returns the number of phases."""
    from realpolitik.adjudication import movement  # (its internals: a measuring tool)

    moves = [p for p in phases if p[0].phase.type is PhaseType.MOVEMENT]
    gc.collect()
    set_up = []
    for position, orders, rules, _checked in moves:
        position.caches.clear()
        hooks = position.variant.hooks
        provinces, units, index = movement._units_of(position)  # noqa: SLF001
        set_up.append((position, rules or _DEFAULT, units, orders, provinces, index,
                       hooks.defence_bonuses(position), hooks.movement_modifiers(position)))
    if name == "units":
        reduce(lambda _, p: movement._units_of(p[0]), set_up, None)  # noqa: SLF001
        return len(moves)
    if name == "board":
        reduce(lambda _, p: movement._set_up(*p), set_up, None)  # noqa: SLF001
        return len(moves)
    boards = [(movement._set_up(*p), p) for p in set_up]  # noqa: SLF001
    if name == "decide":
        reduce(lambda _, b: movement._decide(b[0], b[1][1], set()), boards, None)  # noqa: SLF001
        return len(moves)
    decided = []
    for board, p in boards:
        paradoxes: set[int] = set()
        equations, value = movement._decide(board, p[1], paradoxes)  # noqa: SLF001
        decided.append((board, equations, value, paradoxes, p))

    def resolve(_: object, d: tuple[Any, ...]) -> object:
        board, equations, value, paradoxes, p = d
        position, rules = p[0], p[1]
        record = movement._Record(position, rules, p[3], None, None, p[6], value,  # noqa: SLF001
                                  paradoxes, p[7])
        return movement._Decided(board, equations, value, paradoxes).resolution(  # noqa: SLF001
            position, rules, record)

    reduce(resolve, decided, None)
    return len(moves)


def order_reuse(phases: list[Phase]) -> tuple[int, int, int]:
    """Over the movement phases of ``phases``: the orders given, those given as an object
    given in an earlier phase, and the distinct objects given."""
    seen: dict[int, Order] = {}  # (id -> the order, kept alive so that no id is reused)
    given = again = 0
    for position, orders, _rules, _checked in phases:
        if position.phase.type is not PhaseType.MOVEMENT:
            continue
        for order in orders:
            given += 1
            if id(order) in seen:
                again += 1
        for order in orders:
            seen[id(order)] = order
    return given, again, len(seen)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games to record (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--end-year", type=int, default=1935, help="last year played")
    parser.add_argument("--rounds", type=int, default=15,
                        help="replays of every phase; the best is kept (default 15)")
    parser.add_argument("--variant", default="classical",
                        help="the variant played (default classical)")
    parser.add_argument("--only", choices=[t.name.lower() for t in PhaseType],
                        help="replay the phases of this type only")
    parser.add_argument("--in-game", choices=("process", "adjudicate", "next_position"),
                        help="play the games with each Game.process (or the adjudicate or "
                             "next_position it calls) inside "
                             "functools.reduce, for callgrind, instead of replaying")
    parser.add_argument("--no-gc", action="store_true",
                        help="with --in-game: the garbage collector off")
    parser.add_argument("--stage", choices=("units", "board", "decide", "resolution"),
                        help="replay one stage of the movement phases once inside "
                             "functools.reduce, for callgrind")
    parser.add_argument("--order-reuse", action="store_true",
                        help="count the movement orders given as an object given before")
    args = parser.parse_args(argv)
    if args.in_game:
        if args.no_gc:
            gc.disable()
        in_game(args.in_game, args.games, args.seed, args.end_year, args.only)
        print(f"{args.games} game(s) from seed {args.seed} played, each "
              f"{'Game.process' if args.in_game == 'process' else args.in_game}"
              f"{f' of the {args.only} phases' if args.only else ''} inside functools.reduce")
        return 0
    phases = record(args.games, args.seed, args.end_year, args.variant)
    if args.order_reuse:
        given, again, distinct = order_reuse(phases)
        print(f"{given} movement orders given in {args.games} game(s) from seed {args.seed}: "
              f"{again} ({100 * again / max(given, 1):.0f}%) as an object given in an earlier "
              f"phase, {distinct} distinct objects")
        return 0
    if args.stage:
        count = stage(args.stage, phases)
        print(f"{count} movement phases of {args.variant}: {args.stage} inside "
              f"functools.reduce")
        return 0
    print(f"{len(phases)} phases of {args.variant} recorded ({args.games} game(s) from seed "
          f"{args.seed}); "
          f"best of {args.rounds} replays, CPU time per phase")
    for phase_type in PhaseType:
        if args.only and phase_type.name.lower() != args.only:
            continue
        of_type = [p for p in phases if p[0].phase.type is phase_type]
        if not of_type:
            continue
        best = replay(of_type, args.rounds)
        if args.rounds:
            per_phase = 1e6 * best / len(of_type)
            print(f"{phase_type.name.lower():12} {len(of_type):5d} phases {per_phase:8.1f} us")
        else:
            print(f"{phase_type.name.lower():12} {len(of_type):5d} phases")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
