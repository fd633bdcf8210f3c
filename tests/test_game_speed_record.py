"""A played phase's orders recorded as one tuple cut by each power's end
(:func:`realpolitik.recorded.spanned_orders`), not a dictionary and a list per power: the record
reads as the plain rule says (each power's entries as it gave them, in the order the powers
gave them), whether the orders were listed values, text, illegal or missing, read in any
order, copied, pickled and saved."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from realpolitik import savefile
from realpolitik.calendar import Phase, Season
from realpolitik.game import Game, SubmittedOrder
from realpolitik.orders import Order
from realpolitik.recorded import RecordedOrders


def _report(entries: tuple[SubmittedOrder, ...]) -> list[tuple[object, ...]]:
    return [(e.text, e.order, e.error, e.error_kind) for e in entries]


def _give(game: Game, rng: random.Random) -> None:
    """Orders of every kind: most powers a random listed value per unit, some as text (one
    with an order of another power's unit, which is illegal), some nothing at all."""
    for power in game.powers_to_order():
        listed = game.legal_orders(power)
        chosen = [rng.choice(options) for options in listed.values() if options]
        way = rng.random()
        if way < 0.15:
            continue  # (civil disorder)
        if way < 0.3 and chosen:
            text = "\n".join(str(order) for order in chosen)
            if way < 0.2:
                other = next(u for u in game.position.units.values() if u.power != power)
                text += f"\n{other} H"
            game.submit(power, text)
        elif way < 0.4:
            game.submit(power, chosen[:-1])  # (a value left out: its unit holds)
            game.submit(power, chosen[-1:], replace_all=False)
        else:
            game.submit(power, chosen)


@pytest.mark.parametrize("seed", [1, 2, 7])
def test_each_phase_records_what_each_power_gave(seed: int) -> None:
    rng = random.Random(seed)
    game = Game("classical", seed=seed)
    kinds = set()
    while game.end is None and game.position.phase.year < 1912:
        _give(game, rng)
        given = {p: game.orders_of(p) for p in game.powers if game.has_submitted(p)}
        kinds.add(game.position.phase.type)
        game.process()
        # (a retreat phase made as every phase is: its season the rulebooks' member)
        phase = game.position.phase
        assert phase == Phase.parse(str(phase)) and type(phase.season) is Season
        recorded = game.history[-1].orders
        assert list(recorded) == list(given)  # (every power that gave orders, in that order)
        assert len(recorded) == len(given)
        # read from the last power back: each power's slice found wherever it is
        for power in reversed(list(given)):
            assert power in recorded
            assert _report(recorded[power]) == _report(given[power])
            assert recorded[power] is recorded[power]  # (entries made once)
        assert "nobody" not in recorded
        with pytest.raises(KeyError):
            recorded["nobody"]
        assert {p: _report(e) for p, e in recorded.items()} == \
            {p: _report(e) for p, e in given.items()}
    assert len(kinds) == 3  # (movement, retreats and adjustments all recorded)


def test_a_record_read_first_by_items_or_by_a_copy_is_the_same() -> None:
    """The record read whole (``items``, ``dict``, ``repr``), through a pickle and a deep copy
    of the game, and through the save file, gives the same orders."""
    rng = random.Random(5)
    game = Game("classical", seed=5)
    for _ in range(12):
        _give(game, rng)
        game.process()
    fresh = Game("classical", seed=5)
    rng = random.Random(5)
    for _ in range(12):
        _give(fresh, rng)
        fresh.process()
    for record, same in zip(game.history, fresh.history, strict=True):
        unread = pickle.loads(pickle.dumps(same.orders))  # (pickled before it was read)
        assert isinstance(unread, RecordedOrders)
        assert {p: _report(e) for p, e in record.orders.items()} == \
            {p: _report(e) for p, e in unread.items()}
        assert repr(record.orders) == repr(dict(same.orders))
    copied = copy.deepcopy(game)
    for record, same in zip(game.history, copied.history, strict=True):
        assert {p: _report(e) for p, e in record.orders.items()} == \
            {p: _report(e) for p, e in same.orders.items()}
    saved = savefile.game_to_json(game)
    assert savefile.game_to_json(savefile.loads(savefile.dumps(game))) == saved


def test_the_plain_record_still_reads_as_given() -> None:
    """A record made from a dictionary of entries and listed values (as a pickle makes it)
    reads each listed value's entry when first read."""
    game = Game("classical")
    orders = [options[0] for options in game.legal_orders("england").values()]
    made: list[Order] = []

    def entry(order: Order) -> SubmittedOrder:
        made.append(order)
        return SubmittedOrder(None, order)

    recorded = RecordedOrders({"england": orders, "france": ()}, entry)
    assert list(recorded) == ["england", "france"]
    assert [e.order for e in recorded["england"]] == orders
    assert recorded["france"] == ()
    assert made == orders


def test_a_submit_of_listed_values_reports_what_orders_of_reads_later() -> None:
    """The game keeps listed values without the report's entries (the report is the caller's):
    ``orders_of`` makes entries equal to the report, once; a later partial submit replaces
    only its units' orders; the phase plays and records as with the report kept."""
    game = Game("classical", seed=3)
    reports = {}
    for power in game.powers_to_order():
        orders = [options[0] for options in game.legal_orders(power).values()]
        reports[power] = game.submit(power, orders)
        assert game.orders_stand(power)
    for power, report in reports.items():
        read = game.orders_of(power)
        assert _report(read) == _report(report)
        assert read is game.orders_of(power)  # (made once)
    power = "france"
    unit_orders = game.legal_orders(power)
    location, options = next(iter(unit_orders.items()))
    game.submit(power, [options[-1]], replace_all=False)
    given = game.orders_of(power)
    assert [e.order for e in given] == \
        [opts[0] for loc, opts in unit_orders.items() if loc != location] + [options[-1]]
    assert game.orders_stand(power)
    game.process()
    assert _report(game.history[-1].orders[power]) == _report(given)
    assert {p: _report(e) for p, e in game.history[-1].orders.items() if p != power} == \
        {p: _report(r) for p, r in reports.items() if p != power}
