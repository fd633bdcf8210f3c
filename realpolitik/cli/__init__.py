"""The ``realpolitik`` command: a gamesmaster's tool for running a game of Diplomacy from a file,
and an adjudicator for cases in the project's case format. See ``docs/cli.md``.

The CLI is thin: it reads and writes files and prints, and uses only the engine's public API
(:class:`realpolitik.game.Game`, :mod:`realpolitik.savefile`, :mod:`realpolitik.notation`,
:func:`realpolitik.adjudication.adjudicate`).
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from realpolitik.errors import VariantWarning

from ._common import (
    EXIT_FILE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    CliError,
)

__all__ = ["EXIT_FILE", "EXIT_OK", "EXIT_PROBLEMS", "EXIT_USAGE", "build_parser", "main"]

DESCRIPTION = """\
Run a game of Diplomacy from a game file, as a gamesmaster would: start it, take each power's
orders as people write them, adjudicate each phase with a reason for every result.

A game in four commands:
  realpolitik new game.json
  realpolitik orders game.json orders.txt     (or '-' to type or paste them)
  realpolitik process game.json
  realpolitik show game.json

Every command takes --json for scripts. Run 'realpolitik demo' to see it at work.
"""

EPILOG = """\
exit codes: 0 done; 1 some orders could not be read or are illegal (orders), or some cases
disagree with their expect (adjudicate --check); 2 bad arguments or input; 3 the game file is
missing, damaged or cannot be written; 130 interrupted. Colours only on a terminal; set NO_COLOR
to turn them off. Documentation: docs/cli.md.
"""


class _Parser(argparse.ArgumentParser):
    """argparse, with errors that end in what to do and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: error: {message}\n"
                         f"Run '{self.prog} --help' for what it takes.\n")
        sys.exit(EXIT_USAGE)


def _formatter(prog: str) -> argparse.HelpFormatter:
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=30, width=100)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    from . import _arena, _cases, _commands, _daide, _demo

    parser = _Parser(prog="realpolitik", description=DESCRIPTION, epilog=EPILOG,
                     formatter_class=_formatter)
    from realpolitik import __version__

    parser.add_argument("--version", action="version", version=f"realpolitik {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def command(name: str, summary: str, handler: Callable[[argparse.Namespace], int],
                description: str = "") -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=summary, description=description or summary,
                                  formatter_class=_formatter)
        sub.set_defaults(handler=handler)
        return sub

    def game_arg(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("game", metavar="GAME.json", help="the game file")

    def json_arg(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("--json", action="store_true", help="print JSON instead of text")

    sub = command("new", "start a game file", _commands.cmd_new,
                  "Start a game file at Spring 1901 (or the setup's first phase).")
    game_arg(sub)
    sub.add_argument("--variant", default="classical", help="the map (default: classical)")
    sub.add_argument("--rules", default="2023", metavar="EDITION",
                     help="rule edition: 2023 (default), 2000, 1982 (= 1992), 1971 or dptg")
    sub.add_argument("--option", action="append", metavar="ID=VALUE",
                     help="override one DATC section 4 option, e.g. 4.A.2=szykman (repeatable)")
    sub.add_argument("--policy", action="append", metavar="NAME=VALUE",
                     help="choose one of the variant's policies (its readings of an unclear "
                     "rule), e.g. second_place=count (repeatable)")
    sub.add_argument("--players", metavar="N",
                     help="number of players (7 default; 2-6 use the rulebook's setups, "
                     "or a setup id such as 3b)")
    sub.add_argument("--seed", type=int, default=0, help="seed for coin tosses (default 0)")
    sub.add_argument("--end-year", type=int, metavar="YEAR",
                     help="the short game: stop after this year's adjustments")
    sub.add_argument("--force", action="store_true", help="replace an existing file")
    json_arg(sub)

    sub = command("orders", "give orders for the current phase", _commands.cmd_orders,
                  "Give orders as people write them, for one power (--power) or for all\n"
                  "powers under their names ('England: A Liv-Yor, F Lon-Nth' or a line\n"
                  "'England:' followed by one order per line). Every line is reported: what\n"
                  "it was read as, or why it could not be (every reading of an ambiguous\n"
                  "order, suggestions for unknown names, the reason an order is illegal).\n"
                  "The orders are kept in the game file as the powers' pending orders;\n"
                  "sending a power's orders again replaces them until the phase is\n"
                  "processed. The text as typed is kept in the file too.")
    game_arg(sub)
    sub.add_argument("file", nargs="?", default="-", metavar="FILE",
                     help="a text file of orders, or '-' (default) for standard input")
    sub.add_argument("--power", metavar="P",
                     help="the power giving these orders (empty input withdraws its orders)")
    json_arg(sub)

    sub = command("process", "adjudicate the phase and read out the results",
                  _commands.cmd_process,
                  "Adjudicate the current phase with the orders given and move on. Prints\n"
                  "each order with success or failure and its reason, dislodged units and\n"
                  "their retreats, stand-offs, centre changes, adjustments due, civil\n"
                  "disorder and the end of the game. Powers that gave no orders are in civil\n"
                  "disorder (units hold, retreats disband, removals by the rulebook's rule).")
    game_arg(sub)
    sub.add_argument("--wait", action="store_true",
                     help="refuse (exit 1) if some power has not given orders yet")
    json_arg(sub)

    sub = command("show", "the position, centres and what is awaited", _commands.cmd_show,
                  "Show the current position, the supply-centre tally and whose orders are\n"
                  "awaited; with --phase, a past phase with its orders and results.")
    game_arg(sub)
    sub.add_argument("--phase", metavar="PHASE", help="a phase played, e.g. S1902M or F1901R")
    sub.add_argument("--power", metavar="POWER",
                     help="also the variant's rules acting now on this power's units (inactive "
                          "units, a choice its orders make, what an order of its own costs)")
    json_arg(sub)

    sub = command("history", "the game so far, phase by phase", _commands.cmd_history)
    game_arg(sub)
    json_arg(sub)

    sub = command("adjudicate", "adjudicate cases in the case format", _cases.cmd_adjudicate,
                  "Adjudicate one case (a JSON object) or, with --jsonl, one case per line, in\n"
                  "the format of docs/adjudicate-json.md; writes one result per case. A case\n"
                  "that cannot be read gives {\"id\": ..., \"error\": ...} and the stream goes\n"
                  "on. A case with 'expect' is compared with it (the DATC file's rules) and a\n"
                  "summary goes to standard error, e.g. '175/175 cases agree'.")
    sub.add_argument("file", nargs="?", default="-", metavar="FILE",
                     help="the case file, or '-' (default) for standard input")
    sub.add_argument("--jsonl", action="store_true", help="one case per line")
    sub.add_argument("--check", action="store_true",
                     help="exit 1 if a case disagrees with its expect or cannot be read")
    sub.add_argument("-v", "--verbose", action="store_true",
                     help="also print each case error on standard error")
    sub.add_argument("--json", action="store_true", help=argparse.SUPPRESS)

    sub = command("render", "draw the map as SVG or PNG", _commands.cmd_render,
                  "Draw the current position with the orders given so far, or a past phase\n"
                  "with its orders and results (--phase). PNG needs 'realpolitik[png]'.")
    game_arg(sub)
    sub.add_argument("--phase", metavar="PHASE", help="a phase played, e.g. F1902M")
    sub.add_argument("-o", "--output", metavar="MAP.svg|MAP.png",
                     help="the file to write (default: GAME-PHASE.svg)")
    json_arg(sub)

    sub = command("serve", "run the game server (web page and API)", _cmd_serve,
                  "Run the game server: accounts, games, deadlines, press and the web page,\n"
                  "on http://HOST:PORT/ (API description at /docs). Needs the server extra:\n"
                  "pip install 'realpolitik[server]'. Settings: docs/server.md.")
    sub.add_argument("--host", default="127.0.0.1", help="address to listen on (default "
                     "127.0.0.1)")
    sub.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    sub.add_argument("--database", metavar="URL",
                     help="SQLAlchemy database URL (default: sqlite:///realpolitik.db, or "
                     "REALPOLITIK_DATABASE_URL)")
    sub.add_argument("--workers", type=int, default=1, metavar="N",
                     help="worker processes (default 1; more than one needs PostgreSQL, "
                     "see docs/deploy.md)")
    sub.add_argument("--no-access-log", dest="access_log", action="store_false", default=None,
                     help="no log line per request (default: REALPOLITIK_ACCESS_LOG, on)")
    sub.add_argument("--daide-port", type=int, metavar="P",
                     help="a TCP port where DAIDE bots (DumbBot and others) take free seats "
                     "in the games that accept them (default: REALPOLITIK_DAIDE_PORT, none; "
                     "docs/daide.md)")

    sub = command("arena", "bots play games against each other: a league table",
                  _arena.cmd_arena,
                  "Play GAMES games with the bots named (one per power, rotated over the\n"
                  "powers from game to game, so each bot plays every power), each to a solo\n"
                  "victory or the end of --end-year, and print a league table: wins (solo\n"
                  "victories), draws (in the game at its end, no solo), survivals (in the\n"
                  "game when another power won), eliminations, games ended with the most\n"
                  "centres, and mean centres at the end. Bots: random, hold, heuristic.")
    sub.add_argument("--bots", required=True, metavar="NAMES",
                     help="one bot per power, separated by commas; NAME*N repeats, e.g. "
                     "heuristic,random*6")
    sub.add_argument("--games", type=int, default=7, metavar="N",
                     help="how many games (default 7)")
    sub.add_argument("--seed", type=int, default=0,
                     help="seed of the first game; game i uses SEED+i (default 0)")
    sub.add_argument("--jobs", type=int, default=1, metavar="N",
                     help="play the games in N processes (the same games and table as with "
                     "one; default 1)")
    sub.add_argument("--variant", default="classical",
                     help="the map: a variant's name or folder (default: classical)")
    sub.add_argument("--rules", default="2023", metavar="EDITION",
                     help="rule edition (default 2023)")
    sub.add_argument("--end-year", type=int, default=1920, metavar="YEAR",
                     help="stop each game after this year's adjustments (default 1920)")
    sub.add_argument("--records", metavar="FOLDER",
                     help="write each game's record (a game file) into FOLDER")
    sub.add_argument("-q", "--quiet", action="store_true",
                     help="no line per game on standard error")
    json_arg(sub)

    sub = command("daide", "DAIDE: host games for DAIDE bots, or play bots on a DAIDE server",
                  _daide_help,
                  "The DAIDE protocol is how computer players of Diplomacy talk to a server\n"
                  "(DumbBot, Albert and others). 'daide serve' hosts games they join;\n"
                  "'daide play' puts realpolitik's bots on any DAIDE server. See docs/daide.md.")
    daide = sub.add_subparsers(dest="daide_command", metavar="COMMAND", parser_class=_Parser)
    serve = daide.add_parser(
        "serve", help="host games that DAIDE clients join over TCP", formatter_class=_formatter,
        description="Host games of a variant for DAIDE clients. Seats not given to realpolitik\n"
        "bots with --bots wait for DAIDE clients; a game starts when every seat is taken, and\n"
        "each finished game's summary is printed (--json: one JSON object per game).")
    serve.set_defaults(handler=_daide.cmd_serve)
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on "
                       "(default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=16713, help="TCP port (default 16713, "
                       "the usual DAIDE port; 0 picks a free one)")
    serve.add_argument("--variant", default="classical",
                       help="the map: a variant's name or folder (default classical)")
    serve.add_argument("--games", type=int, default=1, metavar="N",
                       help="games to play before stopping (default 1; 0: until stopped)")
    serve.add_argument("--end-year", type=int, metavar="YEAR",
                       help="end each game after this year's adjustments (default: play to "
                       "a solo or a draw)")
    serve.add_argument("--deadline", type=float, metavar="SECONDS",
                       help="seconds per phase (default: wait for every connected player)")
    serve.add_argument("--bots", metavar="NAMES", default="",
                       help="realpolitik bots taking seats, e.g. heuristic*6 (default: none; "
                       "the other seats wait for DAIDE clients)")
    serve.add_argument("--seed", type=int, default=0,
                       help="seed of the first game's seating and bots; game i uses SEED+i")
    serve.add_argument("--rules", default="2023", metavar="EDITION",
                       help="rule edition (default 2023)")
    serve.add_argument("-q", "--quiet", action="store_true",
                       help="no log lines on standard error")
    json_arg(serve)
    play = daide.add_parser(
        "play", help="connect realpolitik bots to a DAIDE server", formatter_class=_formatter,
        description="Connect COUNT bots to the DAIDE server at HOST:PORT (Parlance's, or\n"
        "'realpolitik daide serve'); each plays the power it is given until the game ends.\n"
        "Exit code 1 if a bot got no seat.")
    play.set_defaults(handler=_daide.cmd_play)
    play.add_argument("address", metavar="HOST:PORT", help="the server, e.g. localhost:16713")
    play.add_argument("--bot", default="heuristic", help="which bot (default heuristic)")
    play.add_argument("--count", type=int, default=1, metavar="N",
                      help="how many bots to connect (default 1)")
    play.add_argument("--seed", type=int, default=0, help="seed of the first bot; bot i uses "
                      "SEED+i (default 0)")
    play.add_argument("--variant", action="append", metavar="FOLDER",
                      help="a variant's folder whose map the server may offer, beyond the "
                      "shipped variants (repeatable)")
    play.add_argument("--game", metavar="NAME",
                      help="the game to join on a server hosting several (SEL): on "
                      "'realpolitik serve --daide-port', a game's number or name, or a private "
                      "game's invite code (default: the server's choice)")
    json_arg(play)

    sub = command("demo", "a short demonstration: the rulebook's 1901 sample game",
                  _demo.run_demo,
                  "Play Spring and Fall 1901 of the 1971 rulebook's sample game from the\n"
                  "book's own order text, showing how each order was read and every result\n"
                  "with its reason. Nothing is written to disk.")
    json_arg(sub)
    return parser


def _daide_help(args: argparse.Namespace) -> int:
    """``realpolitik daide`` alone: say which subcommands there are."""
    build_parser().parse_args(["daide", "--help"])
    return EXIT_USAGE


def _cmd_serve(args: argparse.Namespace) -> int:
    """Start the server; the engine and the other commands never import it."""
    try:
        from realpolitik.server import serve
    except ImportError as exc:
        raise CliError(
            f"the server needs its extra dependencies ({exc.name} is missing): "
            "pip install 'realpolitik[server]'",
            EXIT_USAGE,
        ) from exc
    from realpolitik.server.app import StartupError

    def announce(address: str) -> None:
        print(f"realpolitik server on {address} (Ctrl-C stops it)", file=sys.stderr)

    try:
        serve(args.host, args.port, args.database, workers=args.workers,
              access_log=args.access_log, daide_port=args.daide_port, announce=announce)
    except ValueError as exc:
        raise CliError(str(exc), EXIT_USAGE) from exc
    except StartupError as exc:
        raise CliError(str(exc), EXIT_FILE) from exc
    return EXIT_OK


def _warning_printer(command: str) -> Callable[..., None]:
    """``warnings.showwarning`` for a command: a :class:`VariantWarning` (data that loads but is
    probably a mistake) is for the user, so it is said once, as the command's own line, not in
    Python's format with a line of our source; other warnings keep Python's format."""
    python_format = warnings.showwarning
    said: set[str] = set()

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: Any = None, line: str | None = None) -> None:
        if not issubclass(category, VariantWarning):
            python_format(message, category, filename, lineno, file, line)
            return
        if str(message) not in said:
            said.add(str(message))
            print(f"realpolitik {command}: warning: {message}", file=sys.stderr)

    return show


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (see docs/cli.md)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _warning_printer(args.command)
            code: int = handler(args)
    except CliError as exc:
        sys.stdout.flush()
        print(f"realpolitik {args.command}: {exc.message}", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:
        print("interrupted; the game file is unchanged unless a save had finished",
              file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_FILE
    return code


def run() -> None:
    """The console entry point: exit with :func:`main`'s code."""
    sys.exit(main())
