"""End to end: both rulebook sample games played through the command line, start to finish.

Each phase's orders are fed to ``realpolitik orders`` exactly as the books print them (as
``Power: order`` lines; ``tests/data/sample_game_*.json``), then ``realpolitik process`` runs;
the results must be the books': which orders succeed and fail, the units after every phase, the
dislodged units and their retreats, and the supply centres after each Winter.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from realpolitik.cli import main

DATA = Path(__file__).parent / "data"
BOOKS = {"1971": "1971", "1992": "1982"}


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code = main([*argv, "--json"])
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    return code, json.loads(out)


def _plain(order: str) -> str:
    """The books' nationality words ("S Turk. A Bul-Rum") are read; the expectations omit them."""
    return re.sub(r" (S|C) [A-Z]{4,} ", r" \1 ", order)


def _units(spec: dict[str, list[str]]) -> set[str]:
    return {f"{power.upper()} {unit.upper()}" for power, units in spec.items() for unit in units}


@pytest.mark.parametrize("book", sorted(BOOKS))
def test_sample_game_through_the_cli(book: str, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads((DATA / f"sample_game_{book}.json").read_text(encoding="utf-8"))
    game = tmp_path / "game.json"
    _cli(capsys, "new", str(game), "--rules", BOOKS[book])
    counts: dict[str, int] = {}
    for phase in record["phases"]:
        name, expect = phase["phase"], phase["expect"]
        _, shown = _cli(capsys, "show", str(game))
        assert shown["phase"] == name
        lines = []
        for power, orders in phase["orders"].items():
            lines.extend(f"{power.title()}: {order}" for order in orders)
            if not orders:
                lines.append(f"{power.title()}:")
        sheet = tmp_path / f"{name}.txt"
        sheet.write_text("\n".join(lines) + "\n", encoding="utf-8")
        _, read = _cli(capsys, "orders", str(game), str(sheet))
        unread = [item for item in read["lines"] if item["status"] not in ("ok", "illegal")]
        assert not unread, unread
        assert not read["awaiting"], f"{name}: still awaiting {read['awaiting']}"

        _, report = _cli(capsys, "process", str(game))
        assert report["phase"] == name
        results = report["order_results"]
        succeeded = {_plain(r["order"]) for r in results if r["result"] == "succeeds"
                     and r["input"] is not None}
        failed = {_plain(r["order"]) for r in results if r["result"] in ("fails", "void")
                  and r["input"] is not None}
        assert succeeded == set(expect["succeeds"]), name
        assert failed == set(expect["fails"]), name
        assert all(r["reason"] for r in results)
        assert _units(report["units_after"]) == _units(expect["units_after"]), name
        if "dislodged" in expect:
            got = {f"{p} {u}": info["attacker"]
                   for p, units in report.get("dislodged_after", {}).items()
                   for u, info in units.items()}
            want = {f"{p} {u}": attacker for p, units in expect["dislodged"].items()
                    for u, attacker in units.items()}
            assert got == want, name
        for power, units in expect.get("retreat_options", {}).items():
            for unit, options in units.items():
                got_options = report["dislodged_after"][power][unit]["retreats"]
                assert sorted(got_options) == sorted(options), (name, unit)
        if "standoffs_after" in expect:
            assert sorted(report["standoffs_after"]) == sorted(expect["standoffs_after"]), name
        if "centers_after" in expect:
            assert _units(report["centers_after"]) == _units(expect["centers_after"]), name
            counts = {p.upper(): len(cs) for p, cs in expect["centers_after"].items()}
            assert {p: n for p, n in report["center_counts"].items() if n} == counts
    assert record["phases"][-1]["phase"] == "W1902A"
    # the whole game, read out as text: every phase with its results and the final tally
    code = main(["history", str(game)])
    text = capsys.readouterr().out
    assert code == 0
    for phase in record["phases"]:
        assert f"({phase['phase']}): results" in text
    tally = ", ".join(f"{power.title()} {n}" for power, n in sorted(counts.items()))
    assert f"Supply centres: {tally}" in text
    _, shown = _cli(capsys, "show", str(game))
    assert shown["phase"] == "S1903M"
    assert {p: len(c) for p, c in shown["centers"].items()} == counts


def test_process_reads_out_results(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "g.json"
    main(["new", str(game)])
    sheet = tmp_path / "o.txt"
    sheet.write_text("Austria: A Bud-Gal\nRussia: A War-Gal, F Sev-Bla\nTurkey: F Ank-Bla\n"
                     "France: A Pars-Bur\nGermany: F Kie-Hol, A Ber-Kie, A Mun-Ruh\n")
    main(["orders", str(game), str(sheet)])
    capsys.readouterr()
    assert main(["process", str(game)]) == 0
    out = capsys.readouterr().out
    assert "Spring 1901 movement (S1901M): results" in out
    assert "A BUD - GAL failed: it bounced with A WAR - GAL (1 vs 1)" in out
    assert "'A Pars-Bur' could not be read" in out
    assert "Stand-offs" in out and "BLA" in out and "GAL" in out
    assert "Gave no orders" in out and "England" in out and "Italy" in out
    assert "Next: Fall 1901 movement (F1901M)" in out
    # the past phase stays visible
    assert main(["show", str(game), "--phase", "S1901M", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["phase"] == "S1901M"
    assert any(r["outcome"] == "unknown" for r in data["results"]["order_results"])
    assert data["results"]["powers_in_civil_disorder"] == ["ENGLAND", "ITALY"]


def test_process_wait_refuses_while_orders_are_missing(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "g.json"
    main(["new", str(game)])
    capsys.readouterr()
    before = game.read_text()
    assert main(["process", str(game), "--wait"]) == 1
    err = capsys.readouterr().err
    assert "awaiting orders from Austria" in err and "realpolitik orders" in err
    assert game.read_text() == before


def test_retreats_and_adjustments_are_read_out(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "g.json"
    main(["new", str(game)])
    turns = [
        "Germany: A Mun-Ruh, A Ber-Kie, F Kie-Hol\nFrance: A Par-Bur\n",
        "Germany: A Ruh-Bel, F Hol S A Ruh-Bel, A Kie-Hol\nFrance: A Bur-Bel\n",
    ]
    for text in turns:
        sheet = tmp_path / "o.txt"
        sheet.write_text(text)
        main(["orders", str(game), str(sheet)])
        main(["process", str(game)])
    out = capsys.readouterr().out
    assert "Centres changing hands" in out and "Germany takes BEL" in out
    assert "Adjustments due" in out and "Germany may build" in out
    assert "Winter 1901 adjustments (W1901A)" in out
    assert main(["show", str(game), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["phase"] == "W1901A"
    assert data["adjustments"]["GERMANY"]["builds"] == 2


def test_an_illegal_order_says_what_comes_of_it_in_its_phase(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "g.json"
    main(["new", str(game)])
    sheet = tmp_path / "o.txt"
    sheet.write_text("Germany: A Mun-Swi\n")
    main(["orders", str(game), str(sheet)])
    assert "the unit will hold unless you send" in capsys.readouterr().out
    for text in ("Germany: A Mun-Ruh, A Ber-Kie, F Kie-Hol\n",
                 "Germany: A Ruh-Bel, F Hol S A Ruh-Bel, A Kie-Hol\n"):
        sheet.write_text(text)
        main(["orders", str(game), str(sheet)])
        main(["process", str(game)])
    capsys.readouterr()
    sheet.write_text("Germany: build A Paris\n")  # Winter 1901: not a German centre
    main(["orders", str(game), str(sheet)])
    out = capsys.readouterr().out
    assert "illegal:" in out and "it will not be carried out unless you send" in out
