"""``import diplomacy`` served by realpolitik (issue 30): the import hook, ``python -m
realpolitik.compat SCRIPT``, and an unmodified script for the ``diplomacy`` package giving the
same output on both engines."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import realpolitik.compat
from realpolitik.compat import diplomacy as facade
from realpolitik.compat import diplomacy_map, diplomacy_message
from realpolitik.compat.importing import COVERED


@pytest.fixture
def installed() -> Iterator[None]:
    saved = {n: m for n, m in sys.modules.items()
             if n == "diplomacy" or n.startswith("diplomacy.")}
    realpolitik.compat.install()
    try:
        yield
    finally:
        realpolitik.compat.uninstall()
        sys.modules.update(saved)


def test_install_serves_every_covered_module(installed: None) -> None:
    import diplomacy
    from diplomacy.engine.game import Game
    from diplomacy.engine.map import Map
    from diplomacy.engine.message import GLOBAL, Message
    from diplomacy.engine.power import Power
    from diplomacy.utils import constants, strings
    from diplomacy.utils.export import from_saved_game_format, to_saved_game_format
    from diplomacy.utils.order_results import BOUNCE, OK, VOID

    assert diplomacy.Game is Game is facade.Game
    assert Map is diplomacy_map.Map and Power is facade.Power
    assert Message is diplomacy_message.Message and GLOBAL == "GLOBAL"
    assert BOUNCE == "bounce" and VOID == "void" and OK == "" and BOUNCE.code == 10002
    assert strings.ACTIVE == "active" and "NO_PRESS" in constants.DEFAULT_GAME_RULES
    assert callable(to_saved_game_format) and callable(from_saved_game_format)
    for name in COVERED:
        assert name in sys.modules or __import__(name)


def test_an_uncovered_module_is_refused_with_a_reason(installed: None) -> None:
    with pytest.raises(ModuleNotFoundError, match="not covered by realpolitik.compat"):
        __import__("diplomacy.server.server_game")


def test_uninstall_gives_the_package_back(installed: None) -> None:
    realpolitik.compat.uninstall()
    try:
        import diplomacy
    except ImportError:  # the package is not installed: nothing to give back
        return
    assert diplomacy.Game is not facade.Game


_SCRIPT = textwrap.dedent('''
    """Research code written for the diplomacy package, untouched."""
    import random
    import sys

    from diplomacy import Game, Map, Message
    from diplomacy.utils.export import from_saved_game_format, to_saved_game_format

    seed, end_year = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    game = Game()
    the_map = Map()
    print(the_map.name, len(the_map.scs), the_map.abuts("F", "NTH", "-", "LON"),
          the_map.is_valid_unit("F STP/SC"), the_map.area_type("SWI"))
    while not game.is_game_done and int(game.get_current_phase()[1:5]) <= end_year:
        possible = game.get_all_possible_orders()
        for power, locations in game.get_orderable_locations().items():
            game.set_orders(power, [rng.choice(sorted(possible[loc]))
                                    for loc in locations if possible[loc]])
        game.add_message(Message(sender="FRANCE", recipient="ENGLAND",
                                 message=f"hello in {game.get_current_phase()}",
                                 phase=game.get_current_phase(), time_sent=None))
        played = game.process()
        print(played.name, sorted((unit, sorted(map(str, status)))
                                  for unit, status in played.results.items() if status))
    print(game.get_current_phase(), {p: sorted(u) for p, u in game.get_units().items()})
    print({p: sorted(c) for p, c in game.get_centers().items()})
    print([phase.name for phase in game.get_phase_history()][-3:])
    print(len(game.message_history), [len(m) for m in game.message_history.values()][:3])
    saved = to_saved_game_format(game)
    again = from_saved_game_format(saved)
    print(len(saved["phases"]), again.get_current_phase(),
          {p: sorted(u) for p, u in again.get_units().items()} == {
              p: sorted(u) for p, u in game.get_units().items()})
''')


def _run(args: list[str], cwd: Path) -> str:
    done = subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("seed", ["3", "7"])
def test_an_unmodified_script_gives_the_packages_output(tmp_path: Path, seed: str) -> None:
    pytest.importorskip("diplomacy")
    script = tmp_path / "research.py"
    script.write_text(_SCRIPT, encoding="utf-8")
    on_the_package = _run([str(script), seed, "1910"], tmp_path)
    on_realpolitik = _run(["-m", "realpolitik.compat", str(script), seed, "1910"], tmp_path)
    assert on_realpolitik == on_the_package
    assert "F1910M" in on_realpolitik  # (the script did play the game)


def test_run_refuses_without_a_script() -> None:
    done = subprocess.run([sys.executable, "-m", "realpolitik.compat"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode != 0 and "usage" in done.stderr


def test_a_missing_script_is_named_without_a_traceback(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "realpolitik.compat", "reserch.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr == ("python -m realpolitik.compat: cannot open the script 'reserch.py': "
                           "no such file\n")


def test_a_module_runs_with_dash_m(tmp_path: Path) -> None:
    (tmp_path / "research_module.py").write_text(textwrap.dedent('''
        import sys
        from diplomacy import Game
        game = Game()
        print(type(game).__module__, sys.argv[1:], game.get_current_phase())
    '''), encoding="utf-8")
    out = _run(["-m", "realpolitik.compat", "-m", "research_module", "x"], tmp_path)
    assert out.split() == ["realpolitik.compat.diplomacy", "['x']", "S1901M"]
