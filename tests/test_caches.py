"""The cache toolkit (:mod:`realpolitik.caches`): slots compute once, tables keep their bound,
and caches never take part in the values that own them."""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import dataclass, field, replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from realpolitik import listing
from realpolitik.caches import Bounded, Caches, CacheSlot
from realpolitik.game import Game
from realpolitik.listing import _made_of, legal_orders
from realpolitik.maptables import tables_for
from realpolitik.position import Position
from realpolitik.variant import Variant, load_variant


@dataclass(frozen=True)
class _Owner:
    name: str
    caches: Caches = field(default_factory=Caches, init=False, compare=False, repr=False)


def test_a_slot_computes_once_per_owner() -> None:
    calls: list[str] = []

    def make(owner: _Owner) -> list[str]:
        calls.append(owner.name)
        return [owner.name.upper()]

    slot: CacheSlot[_Owner, list[str]] = CacheSlot("shout", make)
    first, second = _Owner("a"), _Owner("b")
    assert slot.peek(first) is None
    value = slot(first)
    assert value == ["A"] and slot(first) is value and slot.peek(first) is value
    assert slot(second) == ["B"]
    assert calls == ["a", "b"]
    assert first.caches.names() == ("shout",) and slot in first.caches
    first.caches.clear()
    assert slot(first) == ["A"] and slot(first) is not value
    assert calls == ["a", "b", "a"]


def test_two_slots_of_one_owner_are_kept_apart() -> None:
    owner = _Owner("x")
    length: CacheSlot[_Owner, int] = CacheSlot("length", lambda o: len(o.name))
    doubled: CacheSlot[_Owner, str] = CacheSlot("doubled", lambda o: o.name * 2)
    assert (length(owner), doubled(owner)) == (1, "xx")
    assert len(owner.caches) == 2


@given(st.integers(min_value=2, max_value=64), st.lists(st.integers(0, 200), max_size=500))
def test_a_bounded_table_never_passes_its_bound(bound: int, keys: list[int]) -> None:
    table: Bounded[int, int] = Bounded(bound)
    for key in keys:
        table[key] = key * 3
        assert len(table) <= bound
        assert table[key] == key * 3  # the entry just added is always kept
    assert all(value == key * 3 for key, value in table.items())


def test_a_full_bounded_table_drops_its_oldest_entries() -> None:
    table: Bounded[int, str] = Bounded(10)
    for key in range(25):
        table[key] = str(key)
    assert len(table) <= 10
    assert 24 in table and 0 not in table
    # replacing an entry that is there does not drop anything
    size = len(table)
    table[24] = "again"
    assert len(table) == size and table[24] == "again"


def test_a_bounded_table_refuses_the_ways_around_its_bound() -> None:
    table: Bounded[int, int] = Bounded(4)
    with pytest.raises(TypeError):
        table.update({1: 1})
    with pytest.raises(TypeError):
        table.setdefault(1, 1)
    with pytest.raises(TypeError):
        table |= {1: 1}
    assert not table
    with pytest.raises(ValueError):
        Bounded(1)


def test_a_copy_of_caches_starts_empty() -> None:
    # (the same in the compiled build, where Caches is a native class)
    position = Game(load_variant("classical")).position
    legal_orders(position, "france")
    assert len(position.caches)
    for copied in (copy.copy(position.caches), copy.deepcopy(position.caches),
                   pickle.loads(pickle.dumps(position.caches))):
        assert isinstance(copied, Caches) and not len(copied)


def test_caches_do_not_affect_equality_hash_or_repr() -> None:
    variant = load_variant("classical")
    twin = replace(variant)
    tables_for(variant)
    assert len(variant.caches) and not len(twin.caches)  # a copy starts empty
    assert variant == twin and repr(variant) == repr(twin)

    game = Game(variant)
    position = game.position
    fresh = Position(position.variant, position.phase, position.units, position.centers)
    game.legal_orders("france")
    assert len(position.caches) and not len(fresh.caches)
    assert position == fresh and hash(position) == hash(fresh)
    assert repr(position) == repr(fresh)
    assert position.replace() == position and not len(position.replace().caches)


def test_the_variant_tables_stay_bounded_over_many_games() -> None:
    """The per-variant tables that grow with play stay within their stated bounds."""
    from realpolitik.maptables import _MAX_CONVOY_ANSWERS

    variant = load_variant("classical")
    rng = random.Random(7)
    for seed in range(6):
        game = Game(variant, seed=seed)
        while not game.is_over and game.phase.year <= 1912:
            for power in game.powers_to_order():
                game.submit(power, [rng.choice(options)
                                    for options in game.legal_orders(power).values()])
            game.process()
    tables = tables_for(variant)
    # (the listing keeps its convoy answers itself, by mask: the map's table by name is filled
    # by the other callers of convoy_reach, if any)
    assert len(tables._convoy_reach) <= _MAX_CONVOY_ANSWERS
    assert len(tables._convoy_moves) <= len(tables.shores)
    answers = listing._convoy_answers(variant).answers
    assert 0 < len(answers) <= answers.bound
    made = _made_of(variant)
    assert 0 < len(made) <= made.bound


def test_order_values_dropped_from_the_full_table_are_made_again_equal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With room for only a few units' order values, a game drops and remakes them all the
    time: the listings are the same values, and the game goes as it does with room for all."""
    from realpolitik import listing

    def play(variant: Variant) -> list[str]:
        game = Game(variant, seed=3)
        rng = random.Random(3)
        seen = []
        while not game.is_over and game.phase.year <= 1904:
            for power in game.powers_to_order():
                game.submit(power, [options[rng.randrange(len(options))]
                                    for options in game.legal_orders(power).values()])
            seen.append(repr(sorted(map(str, game.position.units.values()))))
            game.process()
        return seen

    roomy = play(load_variant("classical"))
    monkeypatch.setattr(listing._made_of, "make", lambda _variant: Bounded(4))
    cramped = load_variant("classical")
    assert play(cramped) == roomy
    assert len(listing._made_of(cramped)) <= 4


def test_the_facade_strings_stay_within_their_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """With room for only a few strings, the facade drops and remakes them all the time (by
    order value): every table stays within its bound and the game lists and plays the same."""
    from realpolitik.compat import diplomacy, diplomacy_words

    def play() -> list[dict[str, list[str]]]:
        game = diplomacy.Game()
        rng = random.Random(1)
        seen = []
        for _ in range(6):
            possible = game.get_all_possible_orders()
            seen.append(possible)
            texts = diplomacy_words.listing_texts(game.realpolitik_game.variant)
            assert len(texts.text) <= texts.text.bound
            assert all(len(named) <= named.bound for named in texts.named.values())
            for power, locations in game.get_orderable_locations().items():
                game.set_orders(power, [rng.choice(possible[loc]) for loc in locations
                                        if possible[loc]])
            game.process()
            assert not game.error
        return seen

    roomy = play()
    monkeypatch.setattr(diplomacy_words, "_MAX_ORDER_TEXTS", 40)
    monkeypatch.setattr(diplomacy_words, "_MAX_GIVEN", 8)
    # (the facade shares its loaded variant between games: start from empty, smaller tables)
    monkeypatch.setattr(diplomacy, "_LOADED", {})
    assert play() == roomy
