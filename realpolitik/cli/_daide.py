"""The ``daide`` commands: ``daide serve`` hosts games for DAIDE clients, ``daide play`` puts
realpolitik's bots on a DAIDE server (docs/daide.md)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from realpolitik.bots import BOT_NAMES, make_bot
from realpolitik.bots.arena import parse_lineup
from realpolitik.errors import RealpolitikError
from realpolitik.variant import available_variants, load_variant

from ._common import EXIT_OK, EXIT_PROBLEMS, CliError, print_json


def cmd_serve(args: argparse.Namespace) -> int:
    from realpolitik.daide.board import MapError
    from realpolitik.daide.server import DaideServer, GameSummary, ServerSettings

    try:
        variant = load_variant(args.variant)
    except FileNotFoundError:
        raise CliError(f"--variant {args.variant!r}: no such variant; the variants are "
                       + ", ".join(available_variants())) from None
    except RealpolitikError as exc:
        raise CliError(f"--variant {args.variant!r}: {exc}") from None
    bots: list[str] = []
    if args.bots and args.bots.strip().lower() != "none":
        try:
            bots = parse_lineup(args.bots, BOT_NAMES)
        except ValueError as exc:
            raise CliError(f"--bots: {exc}") from None
    if len(bots) > len(variant.power_ids):
        raise CliError(f"--bots: {len(bots)} bots for {len(variant.power_ids)} powers")
    if args.games < 0:
        raise CliError(f"--games {args.games}: give 0 (no limit) or more")
    if args.deadline is not None and args.deadline <= 0:
        raise CliError(f"--deadline {args.deadline}: give seconds above 0")
    settings = ServerSettings(variant, host=args.host, port=args.port, games=args.games,
                              end_year=args.end_year, deadline=args.deadline, bots=bots,
                              seed=args.seed, rules=args.rules)

    def log(text: str) -> None:
        if not args.quiet:
            print(text, file=sys.stderr, flush=True)

    def finished(summary: GameSummary) -> None:
        if args.json:  # a line per game, as each ends
            print(json.dumps(summary.as_json(), ensure_ascii=False), flush=True)
            return
        print(f"game {summary.index + 1}: {summary.summary} ({summary.phase}, "
              f"{summary.seconds:.1f} s)")
        for seat in summary.seats:
            gone = f", out in {seat.eliminated_in}" if seat.eliminated_in else ""
            print(f"  {variant.power_name(seat.power):<10} {seat.centres:>2} centres  "
                  f"{seat.player}{gone}")
        sys.stdout.flush()

    try:
        server = DaideServer(settings, log=log, on_game=finished)
    except MapError as exc:
        raise CliError(f"--variant {args.variant!r}: {exc}") from None

    def started(port: int) -> None:
        seats = len(variant.power_ids) - len(bots)
        log(f"DAIDE server for {variant.name} (map '{server.dmap.name}') on "
            f"{args.host}:{port}: {seats} seat(s) for DAIDE clients, "
            f"{len(bots)} realpolitik bot(s); Ctrl-C stops it")

    try:
        asyncio.run(server.run(started))
    except OSError as exc:
        raise CliError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}") from None
    return EXIT_OK


def cmd_play(args: argparse.Namespace) -> int:
    from realpolitik.daide.client import play_bots

    host, _, port_text = args.address.rpartition(":")
    if not host or not port_text.isdigit():
        raise CliError(f"{args.address!r}: write the server as HOST:PORT, e.g. localhost:16713")
    if args.bot not in BOT_NAMES:
        raise CliError(f"--bot {args.bot!r}: the bots are {', '.join(BOT_NAMES)}")
    if args.count < 1:
        raise CliError(f"--count {args.count}: connect at least one bot")
    bots = [make_bot(args.bot, seed=args.seed + i) for i in range(args.count)]
    variants = []
    for name in args.variant or ():
        try:
            variants.append(load_variant(name))
        except (FileNotFoundError, RealpolitikError) as exc:
            raise CliError(f"--variant {name!r}: {exc}") from None
    try:
        results = asyncio.run(play_bots(host, int(port_text), bots, variants=variants,
                                        game=args.game))
    except OSError as exc:
        raise CliError(f"cannot connect to {args.address}: {exc.strerror or exc}") from None
    if args.json:
        print_json([{"power": r.power, "end": r.end, "winner": r.winner,
                     "centres": r.centres, "phases": r.phases, "problems": r.problems}
                    for r in results])
    else:
        for index, result in enumerate(results, 1):
            if result.power is None:
                print(f"bot {index}: no seat: {result.end or 'the server gave it none'}")
            else:
                mine = result.centres.get(result.power, 0)
                print(f"bot {index}: {result.power_name}, {mine} centres at the end; "
                      f"{result.end or 'no end seen'}; ordered in {result.phases} phases")
            for problem in result.problems[:10]:
                print(f"  {problem}")
    seated = all(r.power is not None for r in results)
    return EXIT_OK if seated else EXIT_PROBLEMS
