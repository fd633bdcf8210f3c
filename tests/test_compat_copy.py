"""Deep copies and pickles of games (issues 29 and 30): the engine's ``Game``, ``Position`` and
``Variant``, and the facade's ``Game``; a copy plays on exactly as the original does."""

from __future__ import annotations

import copy
import pickle
import random

from realpolitik.compat.diplomacy import Game as Facade
from realpolitik.compat.diplomacy_map import Map
from realpolitik.game import Game
from realpolitik.position import Position
from realpolitik.variant import load_variant


def _play(game: Game, rng: random.Random, phases: int) -> None:
    for _ in range(phases):
        if game.is_over:
            return
        for power in game.powers_to_order():
            legal = game.legal_orders(power)
            game.submit(power, [orders[rng.randrange(len(orders))]
                                for orders in legal.values()])
        game.process()


def test_a_position_and_a_variant_copy_as_themselves_and_pickle_by_value() -> None:
    variant = load_variant("classical")
    start = Position.initial(variant)
    assert copy.deepcopy(start) is start and copy.deepcopy(variant) is variant
    again = pickle.loads(pickle.dumps(start))
    assert again == start and again.variant.id == "classical"
    assert dict(again.units) == dict(start.units)


def test_engine_game_copies_and_pickles_play_on_identically() -> None:
    game = Game("classical")
    _play(game, random.Random(1), 7)
    copied, unpickled = copy.deepcopy(game), pickle.loads(pickle.dumps(game))
    assert copied.position == game.position == unpickled.position
    assert [r.resolution for r in unpickled.history] == [r.resolution for r in game.history]
    for other in (copied, unpickled):
        _play(other, random.Random(2), 6)
    _play(game, random.Random(2), 6)
    assert copied.position == game.position == unpickled.position
    assert len(copied.history) == len(game.history)


def test_a_copy_of_a_game_is_independent() -> None:
    game = Game("classical")
    copied = copy.deepcopy(game)
    copied.submit("france", "A PAR - BUR")
    copied.process()
    assert str(game.phase) == "S1901M" and str(copied.phase) == "F1901M"
    assert not game.history


def _facade_orders(game: Facade, rng: random.Random) -> None:
    possible = game.get_all_possible_orders()
    for power, locations in game.get_orderable_locations().items():
        game.set_orders(power, [rng.choice(sorted(possible[loc]))
                                for loc in locations if possible[loc]])


def test_facade_copies_and_pickles_play_on_identically() -> None:
    game = Facade()
    rng = random.Random(4)
    for _ in range(5):
        _facade_orders(game, rng)
        game.process()
    copied = copy.deepcopy(game)
    unpickled = pickle.loads(pickle.dumps(game))
    assert copied.get_hash() == game.get_hash() == unpickled.get_hash()
    assert copied.get_power("FRANCE") is not game.get_power("FRANCE")
    assert copied.get_power("FRANCE").game is copied
    for other in (game, copied, unpickled):
        rng = random.Random(9)
        for _ in range(4):
            _facade_orders(other, rng)
            other.process()
    assert copied.get_units() == game.get_units() == unpickled.get_units()
    assert list(copied.result_history) == list(game.result_history)
    assert unpickled.get_phase_history()[-1].results == game.get_phase_history()[-1].results


def test_changing_a_copy_leaves_the_original() -> None:
    game = Facade()
    copied = copy.deepcopy(game)
    copied.clear_units("FRANCE")
    copied.set_centers("ENGLAND", "PAR")
    assert game.get_units("FRANCE") == ["F BRE", "A MAR", "A PAR"] or \
        sorted(game.get_units("FRANCE")) == ["A MAR", "A PAR", "F BRE"]
    assert "PAR" in game.get_centers("FRANCE") and copied.get_units("FRANCE") == []
    assert game.get_hash() != copied.get_hash()


def test_map_copies_keep_their_own_lists() -> None:
    the_map = Map()
    copied = copy.deepcopy(the_map)
    copied.drop("STP")
    assert "STP/NC" not in copied.locs and "STP/NC" in the_map.locs
    assert copied.variant is the_map.variant
