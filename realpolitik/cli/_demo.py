"""``realpolitik demo``: the main job in a few seconds. The rulebook's sample game, Spring and
Fall 1901, played from the book's own order text (the 1971 rulebook, as printed), in memory."""

from __future__ import annotations

import argparse
import sys

from realpolitik.game import Game

from . import _report
from ._common import EXIT_OK, Style, print_json

SOURCE = "the sample game of the 1971 Diplomacy rulebook"

PHASES: tuple[tuple[str, str], ...] = (
    ("S1901M", """\
England: A Liv.—Yor., F Lon.—North Sea, F Edi.—Norw. Sea
Germany: A Ber.—Kiel, A Mun.—Ruhr, F Kiel—Den.
Russia: A Mos.—Ukr., A War.—Gal., F St. P.—Both., F Sev.—Bla.
Turkey: A Con.—Bul., A Smy.—Con., F Ank.—Bla.
Austria: A Vie.—Tri., A Bud.—Gal., F Tri.—Alb.
Italy: A Ven.—Pie., A Rome—Ven., F Nap.—Ion.
France: A Par.—Bur., A Mar.—Spa., F Bre.—Pic.
"""),
    ("F1901M", """\
England: A Yor.—Norway, F North Sea C A Yor.—Norway, F Norw. Sea—Bar.
Germany: A Kiel—Hol., A Ruhr—Bel., F Stands
Russia: A Ukr S F Sev.—Rum., A War.—Gal., F Both.—Swe., F Sev.—Rum.
Turkey: A Bul.—Ser., A Con.—Bul., F Ank.—Bla.
Austria: A Tri. Stand, A Bud.—Ser., F Alb.—Gre.
Italy: A Ven. Stands, A Pie.—Mar., F Ion.—Tun.
France: A Bur.—Mar., A Spa.—Por., F Pic.—Bel.
"""),
)
"""The orders as the book prints them (``tests/data/sample_game_1971.json``)."""


def run_demo(args: argparse.Namespace) -> int:
    game = Game("classical", rules="1971")
    style = Style.for_stream(sys.stdout)
    phases = []
    if not args.json:
        print(style.bold(f"realpolitik demo: {SOURCE}, 1901, adjudicated from the book's own "
                         "order text."))
        print("Each line is read as the book wrote it, then the phase is adjudicated and every "
              "result explained.\n")
    for phase, text in PHASES:
        assert str(game.phase) == phase, (game.phase, phase)
        lines = _report.read_orders(game, text, None)
        game.process()
        report = _report.phase_report(game, len(game.history) - 1)
        phases.append({"phase": phase, "text": text, "lines": lines, "results": report})
        if args.json:
            continue
        played = game.variant.calendar.phase_name(game.history[-1].position.phase)
        print(style.bold(f"{played}: the book's orders, "
                         "and how they were read"))
        for line in _report.format_read(game, lines, style):
            print(line)
        print()
        for line in _report.format_results(game, report, style):
            print(line)
        print()
    if args.json:
        print_json({"source": SOURCE, "rules": "1971", "phases": phases,
                    "next_phase": str(game.phase)})
        return EXIT_OK
    print("To run a game of your own:")
    print("  realpolitik new game.json")
    print("  realpolitik orders game.json orders.txt    # or '-' to type or paste them")
    print("  realpolitik process game.json")
    print("  realpolitik show game.json")
    return EXIT_OK
