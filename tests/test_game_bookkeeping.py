"""The game's bookkeeping around the adjudicator, worked out once and shared, against the
plain counts it stands for."""

from __future__ import annotations

from collections import Counter

import pytest
from random_play import played_game

from realpolitik.legality import adjustment_counts


def test_centre_counts_are_the_centres_owned_per_owner() -> None:
    """Position.center_counts (read by the victory check and the winter's counts) is the
    number of centres each owner holds, in every position of played games."""
    for seed in range(3):
        game = played_game(seed, years=6)
        for position in [record.position for record in game.history] + [game.position]:
            assert dict(position.center_counts()) == dict(Counter(position.centers.values()))


def test_centre_counts_cannot_be_changed_by_a_reader() -> None:
    """The counts are worked out once per position and shared: a reader cannot change them
    for the next one."""
    counts = played_game(0, years=6).position.center_counts()
    with pytest.raises(TypeError):
        counts["england"] = 99  # type: ignore[index]


def test_adjustment_counts_are_centres_less_units() -> None:
    """The winter's counts, from the shared centre counts: centres owned less units, for every
    power, in every winter played."""
    game = played_game(1, years=6)
    winters = [r.position for r in game.history if r.position.phase.type.name == "ADJUSTMENTS"]
    assert winters
    for position in winters:
        units = Counter(unit.power for unit in position.units.values())
        centres = Counter(position.centers.values())
        assert adjustment_counts(position) == {
            power: centres[power] - units[power] for power in position.variant.power_ids}


def test_phase_records_are_the_values_the_constructor_makes() -> None:
    """The game makes each phase's record without PhaseRecord's __init__: every field is set,
    and the record equals, hashes and pickles as the one the constructor makes."""
    import pickle
    from dataclasses import fields

    from realpolitik.game import PhaseRecord

    game = played_game(2, years=3)
    assert game.history
    for record in game.history:
        plain = PhaseRecord(*(getattr(record, f.name) for f in fields(PhaseRecord)))
        assert record == plain and repr(record) == repr(plain)
    again = pickle.loads(pickle.dumps(game.history[-1]))
    assert type(again) is PhaseRecord and again.civil_disorder == game.history[-1].civil_disorder
