"""The game-file commands: new, orders, process, show, history, render."""

from __future__ import annotations

import argparse
import difflib
import importlib
import os
import sys
from pathlib import Path
from typing import Any

from realpolitik.errors import GameError, RealpolitikError
from realpolitik.game import Game
from realpolitik.position import Position
from realpolitik.rule_notes import rule_notes_to_json
from realpolitik.variant import available_variants, load_variant, normalize_name, search_folders
from realpolitik.writing import place_writer, write_order

from . import _report
from ._common import (
    EXIT_FILE,
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    JSON,
    RAW_KEY,
    CliError,
    Style,
    load_game,
    power_name,
    print_json,
    read_text,
    save_game,
    write_atomic,
)


def _style() -> Style:
    return Style.for_stream(sys.stdout)


def _raw_log(data: JSON) -> list[Any]:
    raw = data.get(RAW_KEY, [])
    return list(raw) if isinstance(raw, list) else []


def _parse_options(items: list[str] | None, flag: str = "--option",
                   example: str = "the DATC option and its value as ID=VALUE, "
                                  "e.g. --option 4.A.2=szykman") -> dict[str, str]:
    options: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise CliError(f"{flag} {item!r}: write {example}")
        options[key.strip()] = value.strip()
    return options


def find_power(game: Game, text: str) -> str:
    """A power id from what a user typed (``England``, ``eng``, ``English``)."""
    variant = game.variant
    key = normalize_name(text)
    if key in variant.power_names:
        return variant.power_names[key]
    starts = {p for name, p in variant.power_names.items() if key and name.startswith(key)}
    if len(starts) == 1:
        return starts.pop()
    names = [power_name(game, p) for p in variant.power_ids]
    close = difflib.get_close_matches(text.title(), names, n=2)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    raise CliError(f"--power {text!r} is not a power of {variant.name}{hint} The powers are "
                   + ", ".join(names))


# -- new ---------------------------------------------------------------------------------------

def cmd_new(args: argparse.Namespace) -> int:
    path: str = args.game
    if Path(path).exists() and not args.force:
        raise CliError(f"{path}: the file already exists; choose another name, or add --force "
                       "to start a new game in its place", EXIT_FILE)
    try:
        variant = load_variant(args.variant, search=search_folders(os.environ))
        policies = _parse_options(args.policy, "--policy", "the variant's policy and its value "
                                  "as NAME=VALUE, e.g. --policy second_place=count")
        game = Game(variant, rules=args.rules, options=_parse_options(args.option) or None,
                    players=args.players, seed=args.seed, end_year=args.end_year,
                    policies=policies or None)
    except FileNotFoundError:
        raise CliError(f"--variant {args.variant!r}: no such variant; the variants are "
                       + ", ".join(available_variants(search_folders(os.environ)))) from None
    except (RealpolitikError, ValueError) as exc:
        raise CliError(f"cannot start the game: {exc}") from None
    save_game(path, game, {RAW_KEY: []})
    data = _show_json(game, game.position, current=True)
    if args.json:
        print_json({"file": path, **data})
        return EXIT_OK
    style = _style()
    print(f"Started a game of {game.variant.name} in {path}: {game.setup.name}, "
          f"{game.rules.edition} rules" + (f", ending after {game.end_year}"
                                           if game.end_year else "") + ".")
    for line in _format_show(game, data, style):
        print(line)
    print(f"Next: give orders with 'realpolitik orders {path} ORDERS.txt' (or '-' to type them).")
    return EXIT_OK


# -- orders ------------------------------------------------------------------------------------

def cmd_orders(args: argparse.Namespace) -> int:
    path: str = args.game
    game, data = load_game(path)
    power = find_power(game, args.power) if args.power else None
    if args.file == "-" and sys.stdin.isatty() and not args.json:
        print("Type the orders (e.g. 'England: A Lon-Nth, F Edi-Nwg'), then Ctrl-D:",
              file=sys.stderr)
    text = read_text(args.file, "orders file")
    if not text.strip() and power is None:
        raise CliError("no orders given: the input is empty; write orders such as "
                       "'England: A Lon-Nth', or use --power P with empty input to withdraw "
                       "a power's orders")
    phase = str(game.phase)
    try:
        lines = _report.read_orders(game, text, power)
    except GameError as exc:
        raise CliError(f"the orders were not taken: {exc}") from None
    raw = _raw_log(data)
    raw.append({"phase": phase, "power": power.upper() if power else None, "text": text})
    save_game(path, game, {RAW_KEY: raw})
    named = sorted({item["power"] for item in lines if item["kept"] and item["power"]}
                   | ({power.upper()} if power else set()))
    problems = [item for item in lines if item["status"] != "ok"]
    missing = _report.missing_orders(game, [p.lower() for p in named])
    waiting = _report.awaited(game)
    if args.json:
        print_json({
            "file": path, "phase": phase, "lines": lines,
            "powers": named,
            "pending": _pending_json(game),
            "missing": missing,
            "awaiting": [p.upper() for p in waiting],
            "problems": len(problems),
        })
        return EXIT_PROBLEMS if problems else EXIT_OK
    style = _style()
    print(style.bold(f"{game.variant.calendar.phase_name(game.phase)} ({phase}): orders read"))
    for line in _report.format_read(game, lines, style):
        print(line)
    if named:
        print("Kept as the pending orders of " + ", ".join(power_name(game, p) for p in named)
              + " (sending a power's orders again replaces them until the phase is processed).")
    for note in missing:
        print(f"  {note}")
    if problems:
        print(style.warn(f"{len(problems)} order{'s' if len(problems) != 1 else ''} could not "
                         "be followed as written: fix them and send that power's orders again."))
    print(_awaiting_text(game, waiting, path))
    return EXIT_PROBLEMS if problems else EXIT_OK


def _pending_json(game: Game) -> JSON:
    out: JSON = {}
    for power in game.powers:
        if game.has_submitted(power):
            out[power.upper()] = [
                {"text": e.text, "order": str(e.order) if e.order else None,
                 **({"name": write_order(e.order, game.variant)}
                    if e.order and game.variant.writes_names else {}),
                 **({"error": _report.first_line(e.error), "error_kind": e.error_kind}
                    if e.error else {})}
                for e in game.orders_of(power)]
    return out


def _awaiting_text(game: Game, waiting: list[str], path: str) -> str:
    if game.end is not None:
        return f"The game is over: {game.end.summary}."
    if waiting:
        return ("Still awaited: " + ", ".join(power_name(game, p) for p in waiting)
                + f". (Or run 'realpolitik process {path}': powers without orders are in civil "
                "disorder.)")
    return f"All orders are in: run 'realpolitik process {path}'."


# -- process -----------------------------------------------------------------------------------

def cmd_process(args: argparse.Namespace) -> int:
    path: str = args.game
    game, data = load_game(path)
    if game.end is not None:
        raise CliError(f"{path}: the game is over ({game.end.summary}); there is nothing to "
                       "process. 'realpolitik history' shows how it went.")
    waiting = _report.awaited(game)
    if waiting and args.wait:
        raise CliError("not processed: still awaiting orders from "
                       + ", ".join(power_name(game, p) for p in waiting)
                       + "; send them with 'realpolitik orders', or process without --wait",
                       EXIT_PROBLEMS)
    try:
        game.process()
    except GameError as exc:
        raise CliError(f"{path}: cannot process: {exc}") from None
    save_game(path, game, {RAW_KEY: _raw_log(data)})
    report = _report.phase_report(game, len(game.history) - 1)
    if args.json:
        print_json(report)
        return EXIT_OK
    style = _style()
    for line in _report.format_results(game, report, style):
        print(line)
    if game.end is None:
        print(_awaiting_text(game, _report.awaited(game), path))
    return EXIT_OK


# -- show --------------------------------------------------------------------------------------

def _find_phase(game: Game, text: str) -> int | None:
    """The history index of a phase, or None for the current phase."""
    try:
        wanted = game.variant.calendar.parse_phase(text)
    except ValueError as exc:
        raise CliError(f"--phase: {exc}") from None
    if wanted == game.phase:
        return None
    for index, record in enumerate(game.history):
        if record.position.phase == wanted:
            return index
    played = [str(r.position.phase) for r in game.history]
    span = f"{played[0]} to {played[-1]}" if played else "none yet"
    raise CliError(f"--phase {text}: this game has no phase {wanted}; the phases played are "
                   f"{span}, and the current phase is {game.phase}")


def _show_json(game: Game, position: Position, *, current: bool) -> JSON:
    data = _report.position_report(game, position)
    data["variant"] = game.variant.id
    data["rules"] = game.rules.edition
    if game.variant.policies:
        data["policies"] = dict(game.variant.policies)
    data.update(game.variant.hooks.public_state(position))  # e.g. "sea_superiority"
    if current:
        data["awaiting"] = [p.upper() for p in _report.awaited(game)]
        data["orders"] = _pending_json(game)
        data["end"] = _report.end_json(game)
    return data


def _rule_notes_json(game: Game, power: str | None) -> JSON:
    """The variant's rules acting now, as the API gives them: for ``power``'s units, or for
    the game (``None``); empty where the variant says nothing (the classical game)."""
    notes = game.variant.hooks.rule_notes(game.position, power)
    return rule_notes_to_json(notes) if notes else {}


def _format_rule_notes(game: Game, notes: JSON, who: str, style: Style) -> list[str]:
    """The rules acting now, for a gamesmaster's screen: each note's heading and sentences,
    and the choice the power's orders make (its units by name)."""
    if not notes or not (notes["notes"] or notes.get("choice")):
        return []
    write = place_writer(game.variant).place
    lines = [style.bold(f"  Rules acting now ({who}):")]
    for note in notes["notes"]:
        lines.append(f"    {note['heading']}: {note['text']}")
    choice = notes.get("choice")
    if choice:
        lines.append(f"    {choice['heading']}: " + ", ".join(write(u) for u in choice["units"])
                     + f". The first {choice['count']} given an order other than a hold are "
                     "chosen.")
    # the marks beside units and the map's legend repeat the notes for a page; not here
    return lines


def _format_show(game: Game, data: JSON, style: Style) -> list[str]:
    lines = _report.format_position(game, data, style)
    if "awaiting" in data:
        if data.get("end"):
            lines.append(style.bold(f"  Game over: {data['end']['summary']}"))
        else:
            given = [p for p in data.get("orders", {})]
            if given:
                lines.append("  Orders in from: "
                             + ", ".join(power_name(game, p.lower()) for p in given))
            waiting = data["awaiting"]
            lines.append("  Awaiting orders from: "
                         + (", ".join(power_name(game, p.lower()) for p in waiting)
                            if waiting else "nobody"))
    return lines


def cmd_show(args: argparse.Namespace) -> int:
    game, _ = load_game(args.game)
    index = _find_phase(game, args.phase) if args.phase else None
    style = _style()
    power = find_power(game, args.power) if args.power else None
    if index is None:
        data = _show_json(game, game.position, current=True)
        data["game_notes"] = _rule_notes_json(game, None)
        if power is not None:
            data["rule_notes"] = {power.upper(): _rule_notes_json(game, power)}
        if args.json:
            print_json(data)
            return EXIT_OK
        for line in _format_show(game, data, style):
            print(line)
        for line in _format_rule_notes(game, data["game_notes"], "the game", style):
            print(line)
        if power is not None:
            for line in _format_rule_notes(game, data["rule_notes"][power.upper()],
                                           power_name(game, power), style):
                print(line)
        return EXIT_OK
    record = game.history[index]
    data = _show_json(game, record.position, current=False)
    data["results"] = _report.phase_report(game, index)
    if args.json:
        print_json(data)
        return EXIT_OK
    for line in _format_show(game, data, style):
        print(line)
    for line in _report.format_results(game, data["results"], style):
        print(line)
    return EXIT_OK


# -- history -----------------------------------------------------------------------------------

def cmd_history(args: argparse.Namespace) -> int:
    game, _ = load_game(args.game)
    reports = [_report.phase_report(game, i) for i in range(len(game.history))]
    if args.json:
        print_json({"variant": game.variant.id, "rules": game.rules.edition,
                    "phases": reports, "current_phase": str(game.phase),
                    "end": _report.end_json(game)})
        return EXIT_OK
    style = _style()
    if not reports:
        now = game.variant.calendar.phase_name(game.phase)
        print(f"No phase played yet; the game is at {now} ({game.phase}).")
        return EXIT_OK
    for report in reports:
        for line in _report.format_results(game, report, style):
            print(line)
        print()
    if game.end is None:
        print(f"Now: {game.variant.calendar.phase_name(game.phase)} ({game.phase}).")
    return EXIT_OK


# -- render ------------------------------------------------------------------------------------

def cmd_render(args: argparse.Namespace) -> int:
    game, _ = load_game(args.game)
    index = _find_phase(game, args.phase) if args.phase else None
    phase = str(game.phase) if index is None else str(game.history[index].position.phase)
    out: str = args.output or f"{Path(args.game).stem}-{phase}.svg"
    if not out.lower().endswith((".svg", ".png")):
        raise CliError(f"-o {out}: the map is written as .svg or .png; end the name with one "
                       "of them")
    try:
        renderer = importlib.import_module("realpolitik.render")
        render = renderer.render
    except (ImportError, AttributeError):
        raise CliError("the map renderer is not available in this installation", EXIT_USAGE) \
            from None
    try:
        if index is None:
            orders = {p: [e.order for e in game.orders_of(p) if e.order is not None and e.ok]
                      for p in game.powers if game.has_submitted(p)}
            svg = render(game.position, orders=orders or None)
        else:
            record = game.history[index]
            svg = render(record.position, results=record.resolution)
    except (RealpolitikError, ValueError, KeyError) as exc:
        raise CliError(f"cannot draw {phase}: {exc}") from None
    if out.lower().endswith(".png"):
        try:
            png = renderer.svg_to_png(svg)
        except ImportError as exc:
            raise CliError(f"-o {out}: {exc}", EXIT_USAGE) from None
        write_atomic(out, png)
    else:
        write_atomic(out, svg)
    if args.json:
        print_json({"file": out, "phase": phase})
    else:
        what = "with its orders and results" if index is not None else "with the orders given"
        name = game.variant.calendar.phase_name(game.variant.calendar.parse_phase(phase))
        print(f"Wrote {out}: the map of {name} {what}.")
    return EXIT_OK


__all__ = ["EXIT_USAGE", "cmd_history", "cmd_new", "cmd_orders", "cmd_process", "cmd_render",
           "cmd_show"]
