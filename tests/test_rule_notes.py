"""The rules in words (``realpolitik.rule_notes``, the hooks' ``rule_notes``): the values, their
JSON as the game view gives it, and the guard on a variant's hook. Colonial Winters' notes are
tested in ``tests/test_colonial_winters_rule_state.py``, the transform variant's in
``tests/test_order_kinds.py`` and on the page in ``tests/browser/test_web_transform.py``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from realpolitik.errors import HookError
from realpolitik.game import Game
from realpolitik.rule_notes import (
    NO_NOTES,
    RuleNote,
    RuleNotes,
    Tally,
    UnitChoice,
    UnitMark,
    rule_notes_to_json,
)
from realpolitik.variant import load_variant

words = st.text(min_size=0, max_size=30)
tallies = st.builds(Tally, kind=st.from_regex(r"[a-z]{1,8}", fullmatch=True),
                    limit=st.integers(0, 20))
notes = st.builds(RuleNote, topic=st.from_regex(r"[a-z]+(-[a-z]+)?", fullmatch=True),
                  heading=words, text=words, brief=words, tally=st.none() | tallies,
                  pressing=st.booleans())
marks = st.builds(UnitMark, province=st.from_regex(r"[a-z0-9]{1,4}", fullmatch=True),
                  mark=st.sampled_from(["idle", "choice", "protectorate"]), text=words,
                  why=words)
choices = st.builds(UnitChoice, heading=words, text=words,
                    units=st.lists(st.from_regex(r"[a-z]{3}", fullmatch=True),
                                   max_size=5).map(tuple),
                    count=st.integers(0, 5), kind=st.just("mobilise"), when_full=words)
rule_notes = st.builds(RuleNotes, notes=st.lists(notes, max_size=4).map(tuple),
                       marks=st.lists(marks, max_size=4).map(tuple),
                       choice=st.none() | choices, legend=words)


@given(rule_notes)
@settings(deadline=None)  # (the first example imports the server's schemas)
def test_the_json_is_what_the_api_schema_reads_back_whole(value: RuleNotes) -> None:
    pytest.importorskip("pydantic")
    from realpolitik.server.schemas import RuleNotesOut

    shown = rule_notes_to_json(value)
    assert json.loads(json.dumps(shown)) == shown  # plain JSON
    assert RuleNotesOut.model_validate(shown).model_dump() == shown  # nothing lost or added
    assert len(shown["notes"]) == len(value.notes)  # type: ignore[arg-type]
    assert bool(value) == bool(value.notes or value.marks or value.choice or value.legend)


def test_no_notes_is_empty_and_the_classical_game_has_none() -> None:
    assert not NO_NOTES
    assert rule_notes_to_json(NO_NOTES) == {"notes": [], "marks": [], "choice": None,
                                            "legend": ""}
    classical = load_variant("classical")
    assert classical.hooks.rule_notes(Game(classical).position, "england") is NO_NOTES


def test_a_hook_returning_something_else_is_a_hook_error_naming_it(tmp_path: Path) -> None:
    folder = tmp_path / "v"
    folder.mkdir()
    (folder / "variant.toml").write_text(
        '[variant]\nid = "v"\nname = "V"\nextends = "classical"\nhooks = "Loose"\n')
    (folder / "hooks.py").write_text(
        "from realpolitik.hooks import VariantHooks\n\n\n"
        "class Loose(VariantHooks):\n"
        "    def rule_notes(self, position, power):\n"
        "        return {'notes': []}\n")
    variant = load_variant(folder)
    with pytest.raises(HookError, match=r"the hook Loose\.rule_notes returned dict "
                                        r"\{'notes': \[\]\}, not RuleNotes"):
        variant.hooks.rule_notes(Game(variant).position, "france")
