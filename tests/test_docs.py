"""The examples in the docs and docstrings run as written."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
MODULES = ["realpolitik", "realpolitik.notation", "realpolitik.game", "realpolitik.rules",
           "realpolitik.legality", "realpolitik.listing", "realpolitik.bots",
           "realpolitik.calendar"]


@pytest.mark.parametrize("name", ["docs/game.md"])
def test_doc_examples_run(name: str) -> None:
    failures, tried = doctest.testfile(str(ROOT / name), module_relative=False)
    assert tried > 0 and failures == 0


@pytest.mark.parametrize("module", MODULES)
def test_docstring_examples_run(module: str) -> None:
    failures, _ = doctest.testmod(importlib.import_module(module))
    assert failures == 0


def test_the_worked_variant_example_plays_as_written(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/variant-format.md's King of the Hill: the "Play it" code runs and prints what the
    page says it prints."""
    text = (ROOT / "docs" / "variant-format.md").read_text()
    step = text[text.index("4. Play it"):]
    block = step[step.index("```python") + len("```python"):]
    code = "\n".join(line[3:] for line in block[:block.index("```")].splitlines())
    expected = code.split("# ")[-1].strip()
    monkeypatch.chdir(ROOT)
    exec(compile(code, "variant-format.md", "exec"), {})  # noqa: S102
    assert capsys.readouterr().out.strip() == expected == "Red held the Hill for two years"


def test_every_link_in_the_docs_leads_to_a_file_of_the_repository() -> None:
    """A relative link in README.md or docs/ names a file that exists inside the repository (a
    link that climbs out of it works only beside the folders it was written next to)."""
    broken = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # a web address or a place on the same page
            path = (page.parent / target.split("#")[0]).resolve()
            if not path.exists() or ROOT.resolve() not in path.parents:
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken


def test_the_sample_game_order_files_are_the_books_and_play_through(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/cli.md's session plays examples/sample_game_1971/: each file holds the orders of
    tests/data/sample_game_1971.json for its phase, and every one is read without an error."""
    import json

    from realpolitik.cli import main

    book = json.loads((ROOT / "tests" / "data" / "sample_game_1971.json").read_text())
    folder = ROOT / "examples" / "sample_game_1971"
    game = str(tmp_path / "game.json")
    assert main(["new", game, "--rules", "1971"]) == 0
    for phase in book["phases"]:
        path = folder / f"{phase['phase'].lower()}.txt"
        assert path.read_text(encoding="utf-8").splitlines() == [
            f"{power.title()}: {', '.join(orders)}".rstrip()
            for power, orders in phase["orders"].items()]
        assert main(["orders", game, str(path)]) == 0, capsys.readouterr().out
        assert main(["process", game]) == 0
    capsys.readouterr()
    assert main(["show", game]) == 0
    assert capsys.readouterr().out.startswith("Spring 1903 movement (S1903M)")
