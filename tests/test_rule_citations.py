"""The rulebooks' section numbers cited in the code and the docs match the books (issue 19).

The two editions number their last sections differently. The 1971 rules end with "XIII. GAINING
AND LOSING UNITS" and "XIV. MISCELLANEOUS" (XIV.1 length of game, XIV.2 "Alternative rules for
six to two players", XIV.3 civil disorder, XIV.4 civil-disorder removals); the 1992 rules have
"XIV. GAINING AND LOSING UNITS" (two parts) and "XV. MISCELLANEOUS" (XV.1 clarifications, XV.2
length of game, XV.3 "Alternative rules for fewer players", XV.4 civil disorder, XV.5
civil-disorder removals). So "1971 XV..." or "1992 XIV.3" cannot be right.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted([*ROOT.glob("realpolitik/**/*.py"), *ROOT.glob("realpolitik/**/*.toml"),
                  *ROOT.glob("docs/*.md"), ROOT / "README.md"])

# What each book's sections hold, for the topics cited across the project.
BOOKS = {
    "1971": {"XIII.1": "occupying centres", "XIII.2": "builds", "XIV.1": "length of game",
             "XIV.2": "fewer players", "XIV.3": "civil disorder", "XIV.4": "removals"},
    "1992": {"XIV.1": "occupying centres", "XIV.2": "builds", "XV.1": "clarifications",
             "XV.2": "length of game", "XV.3": "fewer players", "XV.4": "civil disorder",
             "XV.5": "removals"},
}
CITATION = re.compile(r"\b(1971|1992) (X[IVX]*)\.(\d)")


def _citations() -> list[tuple[str, int, str, str]]:
    out = []
    for path in SOURCES:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for match in CITATION.finditer(line):
                out.append((str(path.relative_to(ROOT)), number, match.group(1),
                            f"{match.group(2)}.{match.group(3)}"))
    return out


def test_every_late_section_cited_exists_in_that_book() -> None:
    wrong = [(path, line, f"{book} {section}") for path, line, book, section in _citations()
             if section.split(".")[0] in ("XIV", "XV") and section not in BOOKS[book]]
    assert wrong == []


@pytest.mark.parametrize(("path", "topic", "cited"), [
    ("realpolitik/variants/classical/variant.toml", "fewer players", ("1971 XIV.2", "1992 XV.3")),
    ("docs/game.md", "fewer players", ("1971 XIV.2", "1992 XV.3")),
    ("docs/game.md", "civil disorder", ("1971 XIV.3", "1992 XV.4")),
    ("docs/server.md", "civil disorder", ("1971 XIV.3", "1992 XV.4")),
    ("realpolitik/server/values.py", "length of game", ("1971 XIV.1", "1992 XV.2")),
])
def test_the_fewer_players_and_civil_disorder_rules_are_cited_by_both_numbers(
        path: str, topic: str, cited: tuple[str, str]) -> None:
    text = (ROOT / path).read_text(encoding="utf-8")
    for citation in cited:
        book, section = citation.split()
        assert BOOKS[book][section] == topic
        assert citation in text, f"{path} should cite {citation} ({topic})"
