"""``benchmarks/adjudication.py --in-game``: each counted call runs once, inside
``functools.reduce`` (what callgrind's ``--toggle-collect`` counts), and the game is left as it
was."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from realpolitik.game import Game

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import adjudication as harness  # noqa: E402
from bench import Timing, play_native  # noqa: E402

from realpolitik.variant import load_variant  # noqa: E402


def _phase_types(seed: int, end_year: int) -> list[str]:
    """The type of every phase the bench's native game from ``seed`` processes."""
    types: list[str] = []
    real = Game.process

    def noting(game: Game) -> object:
        types.append(game.phase.type.name.lower())
        return real(game)

    Game.process = noting  # type: ignore[method-assign]
    try:
        play_native(load_variant("classical"), seed, end_year, Timing("noted"))
    finally:
        Game.process = real  # type: ignore[method-assign]
    return types


@pytest.mark.parametrize(("what", "only"), [("process", None), ("adjudicate", "adjustments")])
def test_in_game_counts_each_call_once_inside_reduce(
        monkeypatch: pytest.MonkeyPatch, what: str, only: str | None) -> None:
    counted: list[int] = []
    real_reduce = harness.reduce

    def counting(function: Callable[[object, object], object], items: Iterable[object],
                 start: object) -> object:
        counted.append(1)
        return real_reduce(function, items, start)

    monkeypatch.setattr(harness, "reduce", counting)
    real_process = Game.process
    types = _phase_types(0, 1902)
    harness.in_game(what, 1, 0, 1902, only)
    assert Game.process is real_process
    assert harness.game_module.adjudicate is harness.adjudicate
    expected = len(types) if only is None else types.count(only)
    assert expected > 0
    assert len(counted) == expected
