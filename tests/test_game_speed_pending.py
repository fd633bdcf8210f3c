"""The game's bookkeeping made cheaper: orders handed over without a report
(``Game.submit_found(..., report=False)``), the pending orders as plain pairs, what ``process``
asks of the variant worked out once per game (``_Steps``), and each power's id one string
object in the variant's start. Each fast path gives what the general one gives."""

from __future__ import annotations

import copy
import pickle
import random

from random_play import found_orders

from realpolitik.game import Game, SubmittedOrder, _Steps
from realpolitik.orders import Order
from realpolitik.rules import rules_for
from realpolitik.variant import load_variant


def _found(game: Game, power: str, rng: random.Random) -> tuple[list[Order], list[int | None]]:
    return found_orders(game, power, rng)


def _report(entries: tuple[SubmittedOrder, ...]) -> list[tuple[object, ...]]:
    return [(e.order, e.error, e.error_kind, e.text) for e in entries]


def test_submit_found_without_a_report_plays_as_with_one() -> None:
    """No entry made, ``()`` returned, the orders standing; ``orders_of`` then makes the
    entries the report would have held; the phases, records and ends are the same."""
    rng = random.Random(11)
    quiet, loud = Game("classical", seed=4), Game("classical", seed=4)
    for _ in range(24):
        if quiet.end is not None:
            break
        assert quiet.powers_to_order() == loud.powers_to_order()
        for number, power in enumerate(quiet.powers_to_order()):
            if quiet.position.phase.type.name == "MOVEMENT":
                orders, keys = _found(quiet, power, rng)
                got = quiet.submit_found(power, orders, keys, report=False)
                want = loud.submit_found(power, orders, keys)
                assert got == ()
                assert quiet.orders_stand(power) and loud.orders_stand(power)
                if number % 2:  # (read back at once for some powers, at the record for others)
                    assert _report(quiet.orders_of(power)) == _report(want)
                    assert quiet.orders_of(power) is quiet.orders_of(power)  # (made once)
            else:
                listed = [o for options in quiet.legal_orders(power).values()
                          for o in options[:1]]
                quiet.submit(power, listed)
                loud.submit(power, listed)
        quiet.process()
        loud.process()
        assert quiet.position == loud.position
        assert quiet.end == loud.end
        for power, entries in quiet.history[-1].orders.items():
            assert _report(entries) == _report(loud.history[-1].orders[power])
    assert len(quiet.history) == len(loud.history) > 10


def test_a_report_less_submit_then_a_partial_submit_keeps_the_earlier_entries() -> None:
    """``replace_all=False`` after a submit without a report reads the earlier orders."""
    game = Game("classical")
    orders, keys = _found(game, "france", random.Random(2))
    game.submit_found("france", orders, keys, report=False)
    first = orders[0]
    assert first.__class__.__name__ != "SupportMove"
    game.submit("france", [first], replace_all=False)
    assert [e.order for e in game.orders_of("france")] == orders[1:] + [first]
    assert game.orders_stand("france")


def test_a_report_less_submit_that_is_not_all_found_reports_as_submit() -> None:
    """An order not found listed sends the call to ``submit``: its report comes back."""
    game = Game("classical")
    orders, keys = _found(game, "france", random.Random(3))
    text_game = Game("classical")
    keys[0] = 999_999  # (no support's key: looked for again, as submit looks)
    got = game.submit_found("france", orders, keys, report=False)
    assert _report(got) == _report(text_game.submit("france", orders))


def test_steps_worked_out_once_and_again_when_the_rules_change() -> None:
    """``_Steps`` follow the game's variant, setup and rules; a copy's equal the game's."""
    game = Game("classical", rules="1971", players=2)
    steps = game._steps_now()  # noqa: SLF001
    assert steps is game._steps_now()  # noqa: SLF001
    assert steps.by_units  # (the 1914 game by the 1971 rules: won by units)
    game.rules = rules_for("2023")
    changed = game._steps_now()  # noqa: SLF001
    assert changed is not steps and not changed.by_units
    assert copy.deepcopy(game)._steps == changed  # noqa: SLF001
    assert hash(copy.deepcopy(game)._steps) == hash(changed)  # noqa: SLF001
    again = pickle.loads(pickle.dumps(changed))
    assert isinstance(again, _Steps)
    assert (again.by_units, again.per_power, again.solo_target, again.asks_phase_notes,
            again.asks_setup_events) == (changed.by_units, changed.per_power,
                                         changed.solo_target, changed.asks_phase_notes,
                                         changed.asks_setup_events)


def test_the_start_names_each_power_with_the_variant_s_own_id_object() -> None:
    """Every start unit's and start centre's power is the very string of ``power_ids`` (a
    dictionary look-up by power then compares by identity), and equal as before."""
    for name in ("classical", "colonial_winters"):
        variant = load_variant(name)
        same = {id(p) for p in variant.power_ids}
        assert all(id(u.power) in same for u in variant.start_units)
        assert all(id(p) in same for p in variant.start_centers.values())


def test_the_powers_in_the_game_are_the_plain_rule_in_every_phase() -> None:
    """``active_powers`` (set operations over the powers with units, the centre counts and the
    dislodged) and ``powers_to_order`` equal the rule asked power by power, in every phase of
    random games played long enough for powers to be eliminated."""
    variant = load_variant("classical")
    eliminated_seen = False
    for seed in range(3):
        rng = random.Random(seed)
        game = Game(variant, seed=seed)
        while game.end is None and game.phase.year <= 1925:
            position = game.position
            plain = tuple(p for p in game.powers if p not in game.eliminated and (
                position.units_of(p) or position.centers_of(p) or position.dislodged_of(p)))
            assert game.active_powers() == plain
            if position.phase.type.name == "MOVEMENT":
                assert game.powers_to_order() == tuple(p for p in plain if position.units_of(p))
            eliminated_seen = eliminated_seen or bool(game.eliminated)
            for power in game.powers_to_order():
                listed = game.legal_orders(power)
                game.submit(power, [rng.choice(options) for options in listed.values()])
            game.process()
    assert eliminated_seen


def test_adjustment_counts_with_neutral_units_are_centres_less_units() -> None:
    """A board with neutral units (Colonial Winters' start) goes past the fast count (a unit
    of no power has no entry) to the general one: centres less units, for every power."""
    from collections import Counter

    from realpolitik.legality import adjustment_counts
    from realpolitik.position import NEUTRAL, Position

    variant = load_variant("colonial_winters")
    start = Position.initial(variant)
    assert any(unit.power == NEUTRAL for unit in start.units.values())
    winter = start.replace(phase=variant.calendar.parse_phase("W1871A"))
    units = Counter(unit.power for unit in winter.units.values())
    centres = Counter(winter.centers.values())
    assert adjustment_counts(winter) == {
        power: centres[power] - units[power] for power in variant.power_ids}
