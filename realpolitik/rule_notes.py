"""What a variant's rules do now, in words a player reads before giving orders: the values of
:meth:`~realpolitik.hooks.VariantHooks.rule_notes`.

A rule of a variant that acts on a power's units before its orders are given (units that only
hold, a choice to make, what an order of the variant's own kind costs) is said by the variant,
not by the interface: the hook returns :class:`RuleNotes`, which the API gives as it is (the
game view's ``rule_notes`` and ``game_notes``) and the web page draws without knowing the
rule. Every text is for people: places and powers by name (:mod:`realpolitik.writing`), whole
sentences.

- :class:`RuleNote`: a heading and its sentences ("Sea superiority: England (14 fleets)."),
  perhaps a count the page keeps as orders are given (:class:`Tally`).
- :class:`UnitMark`: a short note beside one unit ("inactive: holds") and why, in a style
  the page knows (``"idle"``, ``"choice"``).
- :class:`UnitChoice`: choose up to ``count`` of these units, each chosen by an order other
  than a hold; a tick box gives a unit an order of ``kind``, and unticking it a hold.

The classical game has none (:data:`NO_NOTES`).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["NO_NOTES", "RuleNote", "RuleNotes", "Tally", "UnitChoice", "UnitMark",
           "rule_notes_to_json"]


@dataclass(frozen=True, slots=True)
class Tally:
    """A count the page keeps as the power's orders are given: how many orders of ``kind``
    (an order kind's name, the rulebooks' or the variant's) are given, of at most ``limit``
    ("1 of 3 given")."""

    kind: str
    limit: int


@dataclass(frozen=True, slots=True)
class RuleNote:
    """One rule acting now, said in words."""

    topic: str
    """What it is about, as a short lower-case word or words joined by hyphens
    (``"sea-superiority"``): stable, for a page's element and a program's key, never shown."""
    heading: str
    """``"Sea superiority"``."""
    text: str
    """The sentences: ``"England (14 fleets). England: 14 fleets, tier a (rule 4)."``."""
    brief: str = ""
    """A few words for a closed box's line (``"3 inactive"``); empty for none."""
    tally: Tally | None = None
    """A count of the orders given that the text speaks of, kept by the page as they are
    given."""
    pressing: bool = False
    """Something to decide now (a cost to weigh this winter): the page shows it open."""


@dataclass(frozen=True, slots=True)
class UnitMark:
    """A note beside one of the power's units."""

    province: str
    """The unit's province (its id)."""
    mark: str
    """A lower-case word the page styles the note by, never shown: ``"idle"`` (the unit
    cannot do as ordered now: greyed), ``"choice"`` (one of a choice to make: highlighted);
    any other word is shown plain (``"protectorate"``)."""
    text: str
    """A few words shown beside the unit: ``"inactive: holds"``."""
    why: str
    """The sentence that explains it: ``"An inactive unit only holds until ..."``."""


@dataclass(frozen=True, slots=True)
class UnitChoice:
    """A choice the power makes in its orders: of ``units``, ``count`` are chosen. A unit is
    chosen by giving it an order other than a hold, the first ``count`` so ordered (in the
    order given) are chosen, and an order other than a hold to another of them is void. The
    page offers a tick box per unit: ticking gives the unit an order of ``kind`` (chosen, it
    holds), unticking a hold."""

    heading: str
    """``"Rule 8: England chooses 2 of these 12 inactive units to be active this turn"``."""
    text: str
    """How to choose: ``"Tick one to choose it (it holds), or give it a move; ..."``."""
    units: tuple[str, ...]
    """The provinces of the units among which it chooses, in the order listed."""
    count: int
    """How many of them it chooses."""
    kind: str
    """The kind of order a tick gives (``"mobilise"``): an order that chooses the unit."""
    when_full: str
    """What is said of another unit's order but a hold once ``count`` are chosen, after
    "void: " (``"2 chosen already (rule 8)"``)."""


@dataclass(frozen=True, slots=True)
class RuleNotes:
    """The rules acting now on one power's units (or, for no power, on the game), as
    :meth:`~realpolitik.hooks.VariantHooks.rule_notes` says them. False when empty."""

    notes: tuple[RuleNote, ...] = ()
    marks: tuple[UnitMark, ...] = ()
    """Notes beside the power's units (none for the game)."""
    choice: UnitChoice | None = None
    """A choice the power makes in its orders now, if any."""
    legend: str = ""
    """For the game: the sentence under the map that explains the map's own marks for the
    variant's rules (``"Faded units in a dashed ring are inactive ..."``)."""

    def __bool__(self) -> bool:
        return bool(self.notes or self.marks or self.choice or self.legend)


NO_NOTES = RuleNotes()
"""No rule acting beyond the rulebooks' (the classical game, always)."""


def rule_notes_to_json(notes: RuleNotes) -> dict[str, object]:
    """The notes as the API gives them (the game view's ``rule_notes``)."""
    choice = notes.choice
    return {
        "notes": [{"topic": n.topic, "heading": n.heading, "text": n.text, "brief": n.brief,
                   "tally": None if n.tally is None else {"kind": n.tally.kind,
                                                          "limit": n.tally.limit},
                   "pressing": n.pressing} for n in notes.notes],
        "marks": [{"province": m.province, "mark": m.mark, "text": m.text, "why": m.why}
                  for m in notes.marks],
        "choice": None if choice is None else {
            "heading": choice.heading, "text": choice.text, "units": list(choice.units),
            "count": choice.count, "kind": choice.kind, "when_full": choice.when_full},
        "legend": notes.legend,
    }
