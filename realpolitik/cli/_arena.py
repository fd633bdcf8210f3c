"""The ``arena`` command: bots play games against each other; a league table says how each did."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from realpolitik.bots import BOT_NAMES
from realpolitik.bots.arena import GameSummary, league_text, parse_lineup, run_arena
from realpolitik.errors import RealpolitikError
from realpolitik.variant import available_variants, load_variant, search_folders

from ._common import EXIT_FILE, EXIT_OK, CliError, print_json, save_game


def cmd_arena(args: argparse.Namespace) -> int:
    try:
        lineup = parse_lineup(args.bots, BOT_NAMES)
    except ValueError as exc:
        raise CliError(f"--bots: {exc}") from None
    if args.games < 1:
        raise CliError(f"--games {args.games}: play at least one game")
    if args.jobs < 1:
        raise CliError(f"--jobs {args.jobs}: play in at least one process")
    try:
        variant = load_variant(args.variant, search=search_folders(os.environ))
    except FileNotFoundError:
        raise CliError(f"--variant {args.variant!r}: no such variant; the variants are "
                       + ", ".join(available_variants(search_folders(os.environ)))
                       + ", or give a variant's folder") from None
    except RealpolitikError as exc:
        raise CliError(f"--variant {args.variant!r}: {exc}") from None
    if len(lineup) != len(variant.power_ids):
        raise CliError(f"--bots: {variant.name} has {len(variant.power_ids)} powers "
                       f"({', '.join(variant.power_ids)}) but {len(lineup)} bots were named; "
                       "name one per power (NAME*N repeats a bot)")
    records = Path(args.records) if args.records else None
    if records is not None:
        try:
            records.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CliError(f"--records {records}: cannot make the folder ({exc.strerror})",
                           EXIT_FILE) from None

    def finished(summary: GameSummary) -> None:
        if records is not None:
            save_game(str(records / f"game-{summary.index + 1:04d}.json"), summary.game)
        if not args.json and not args.quiet:
            winners = ", ".join(f"{variant.power_name(p)} ({summary.seats[p]})"
                                for p in summary.winners)
            print(f"game {summary.index + 1}/{args.games} (seed {summary.seed}): "
                  f"{summary.end_kind.replace('_', ' ')} in {summary.phase}: {winners}",
                  file=sys.stderr)

    try:
        table, games = run_arena(lineup, games=args.games, seed=args.seed, variant=variant,
                                 rules=args.rules, end_year=args.end_year, on_game=finished,
                                 jobs=args.jobs)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        print_json({
            "variant": variant.id, "rules": args.rules, "seed": args.seed,
            "end_year": args.end_year, "bots": lineup,
            "table": [line.as_json() for line in table],
            "games": [g.as_json() for g in games],
            "records": str(records) if records is not None else None,
        })
        return EXIT_OK
    print(f"{args.games} games of {variant.name}, seeds {args.seed}..{args.seed + args.games - 1},"
          f" to the end of {args.end_year} at the latest; bots rotated over the powers")
    print(league_text(table))
    if records is not None:
        print(f"game records in {records}/ (open one with 'realpolitik show FILE')")
    return EXIT_OK
