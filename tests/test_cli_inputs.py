"""Issue 18: every ``realpolitik`` command answers any bad input it reads (a game file of any
shape, any order text) with a clear error and an exit code, never a traceback. Hypothesis makes
the inputs: arbitrary JSON in place of any field of a real game file, and arbitrary text as
orders."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from realpolitik.cli import main

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=3),
    max_leaves=8)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a JSON document (keys and list indexes)."""
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:3]):
            out += _paths(item, (*prefix, index))
    return out


@pytest.fixture(scope="module")
def played_game(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A game file with a played phase, as JSON."""
    folder = tmp_path_factory.mktemp("cli")
    game = folder / "g.json"
    out = io.StringIO()
    old_stdout, old_stdin = sys.stdout, sys.stdin
    try:
        sys.stdout = out
        assert main(["new", str(game), "--seed", "1"]) == 0
        sys.stdin = io.StringIO("A Par-Bur\nF Bre-Mao\n")
        assert main(["orders", str(game), "-", "--power", "france"]) == 0
        assert main(["process", str(game)]) == 0
    finally:
        sys.stdout, sys.stdin = old_stdout, old_stdin
    data: dict[str, Any] = json.loads(game.read_text())
    return data


COMMANDS = [["show"], ["history"], ["process"], ["show", "--phase", "S1901M"],
            ["orders", "-", "--power", "france"], ["render", "-o", "{out}"]]


def _run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str],
         stdin: str = "A Par H\n") -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    _, err = capsys.readouterr()
    return code, err


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), value=JSON_VALUES, command=st.sampled_from(COMMANDS))
def test_a_game_file_of_any_shape_gets_a_clear_error(
        data: st.DataObject, value: Any, command: list[str], played_game: dict[str, Any],
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    paths = _paths(played_game)
    path = data.draw(st.sampled_from(paths))
    document = json.loads(json.dumps(played_game))
    target = document
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    game = tmp_path / "mutated.json"
    game.write_text(json.dumps(document))
    argv = [command[0], str(game), *(a.format(out=tmp_path / "m.svg") for a in command[1:])]
    code, err = _run(monkeypatch, capsys, argv)
    assert "Traceback" not in err
    assert code in (0, 1, 2, 3), (path, value, code, err)
    if code in (2, 3):
        assert err.startswith(f"realpolitik {command[0]}:"), err


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=200) | st.lists(
    st.sampled_from(["A", "F", "Par", "-", "S", "C", "H", "VIA", "/", "NC", "Bur", "Mao",
                     "\n", " ", "WAIVE", "B", "D", "R", "(", ")", ",", "#"]),
    max_size=30).map("".join))
def test_any_order_text_gets_an_answer(text: str, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "g.json"
    if not game.exists():
        assert main(["new", str(game), "--seed", "1"]) == 0
        capsys.readouterr()
    code, err = _run(monkeypatch, capsys, ["orders", str(game), "-", "--power", "france"],
                     stdin=text)
    assert "Traceback" not in err
    assert code in (0, 1, 2), (text, code, err)


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=300) | JSON_VALUES.map(lambda v: json.dumps(v).encode()))
def test_any_bytes_as_a_game_file_get_a_clear_error(raw: bytes, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "bytes.json"
    game.write_bytes(raw)
    code, err = _run(monkeypatch, capsys, ["show", str(game)])
    assert code == 3, (raw, code, err)
    assert err.startswith("realpolitik show:") and "Traceback" not in err
