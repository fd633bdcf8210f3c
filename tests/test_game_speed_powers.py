"""The powers in the game and to order: ``Game._powers_of`` (one loop over the variant's powers)
gives what the set operations it replaced give (the present powers' set, filtered in the
variant's order), in every phase of played games (eliminations, neutral and inactive powers,
Colonial Winters' neutral units), and for positions changed so that a power has only centres
or only dislodged units, or is counted eliminated."""

from __future__ import annotations

import random
from pathlib import Path

from realpolitik.game import Game
from realpolitik.legality import due_adjustments
from realpolitik.phases import kind_powers
from realpolitik.position import PhaseType, Position

_COLONIAL_WINTERS = Path(__file__).resolve().parents[1] / "realpolitik" / "variants" \
    / "colonial_winters"


def _by_sets(game: Game, position: Position, eliminated: list[str],
             ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The powers in the game and to order by the set operations ``_powers_of`` used before."""
    with_units = position.powers_with_units()
    present = {*with_units, *position.center_counts()}
    present |= {d.unit.power for d in position.dislodged}
    present -= set(eliminated)
    active = tuple([power for power in game.powers if power in present])
    kind = position.phase.type
    if kind is PhaseType.MOVEMENT:
        return active, tuple([power for power in active if power in with_units])
    if kind is PhaseType.RETREATS:
        return active, tuple(sorted({d.unit.power for d in position.dislodged}))
    acting = kind_powers(position)
    return active, tuple(p for p, n in due_adjustments(position).items()
                         if (n != 0 or p in acting) and p in active)


def _both(game: Game, position: Position, eliminated: list[str]) -> None:
    looped = game._powers_of(position, eliminated)  # noqa: SLF001
    assert looped == _by_sets(game, position, eliminated), (position.phase, eliminated)


def _variations(game: Game) -> None:
    """Both paths on the game's position, and on that position changed."""
    position = game.position
    _both(game, position, game.eliminated)
    active = game.active_powers()
    if active:  # (a power counted eliminated is out, whatever it still has)
        _both(game, position, [*game.eliminated, active[0]])
    for power in active[:2]:
        # the power's units taken off: in by its centres or dislodged units only
        units = {at: u for at, u in position.units.items() if u.power != power}
        _both(game, position.replace(units=units), game.eliminated)
        # and its centres too: in by its dislodged units only, if it has any
        centers = {at: p for at, p in position.centers.items() if p != power}
        _both(game, position.replace(units=units, centers=centers), game.eliminated)


def _play(game: Game, seed: int, until: int) -> set[PhaseType]:
    rng = random.Random(seed)
    seen = set()
    while not game.is_over and game.phase.year <= until:
        seen.add(game.phase.type)
        _variations(game)
        for power in game.powers_to_order():
            if power in game.setup.inactive:  # (no player: its units hold)
                continue
            listed = game.legal_orders(power)
            game.submit(power, [options[rng.randrange(len(options))]
                                for options in listed.values()])
        game.process()
    return seen


def test_powers_of_agree_with_the_set_operations_in_classical_games() -> None:
    seen: set[PhaseType] = set()
    eliminated = 0
    for seed, players in ((0, 7), (1, 7), (2, 5), (3, 3)):
        game = Game("classical", seed=seed, players=players)
        seen |= _play(game, seed, 1920)
        eliminated += len(game.eliminated)
    assert seen == {PhaseType.MOVEMENT, PhaseType.RETREATS, PhaseType.ADJUSTMENTS}
    assert eliminated  # (the games reached eliminations)


def test_powers_of_agree_with_the_set_operations_in_colonial_winters() -> None:
    game = Game(str(_COLONIAL_WINTERS), seed=7)
    assert _play(game, 7, 1906)
