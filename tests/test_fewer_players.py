"""The rulebooks' games for fewer players: who wins, when, and who shares a draw.

The books' words, which the cases below check:

* 1992 XV.3 (1971 XIV.2), the note closing "Alternative rules for fewer players": "in games for
  four, three or two players, Supply Center ownership is computed for each individual country,
  even though two or more may be played by the same person". With II ("As soon as one Great
  Power controls eighteen (18) Supply Centers [...] The player representing that Great Power is
  the winner") a player of two or three countries wins when one of them holds 18 centres.
* 1971 XIV.2, the two-player game: "The victory criterion is 24 units actually on the board."
  Units are actually on the board once the Winter's builds and removals are made, so the count
  is taken then (a side with 24 centres and 22 units wins after building, a side with 24 units
  and 22 centres does not, having removed two). 1992 XV.3 counts "24 centers controlled".
* II: "all players who still have pieces on the board share equally in a draw"; an eliminated
  country of the 5- and 6-player games (XV.3 "Eliminate Italy") has no player.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from realpolitik.game import EndKind, Game
from realpolitik.geography import Terrain, UnitType
from realpolitik.position import Position, Unit


def _centres(game: Game, counts: Mapping[str, int]) -> dict[str, str]:
    """Give each power ``counts[power]`` supply centres (its home centres first)."""
    variant = game.variant
    free = list(variant.map.supply_centers())
    owners: dict[str, str] = {}
    for power, count in counts.items():
        for centre in [c for c in variant.home_centers(power) if c in free][:count]:
            owners[centre] = power
            free.remove(centre)
    for power, count in counts.items():
        while list(owners.values()).count(power) < count:
            owners[free.pop(0)] = power
    assert [len([o for o in owners.values() if o == p]) for p in counts] == list(counts.values())
    return owners


def _armies(game: Game, counts: Mapping[str, int], owners: Mapping[str, str],
            avoid: set[str]) -> list[Unit]:
    """``counts[power]`` armies for each power: on its own centres first (so that the Fall
    changes no owner), then on land spaces that are not centres; none on ``avoid``."""
    the_map = game.variant.map
    spare = [p.id for p in the_map.provinces.values()
             if p.terrain in (Terrain.LAND, Terrain.COAST) and not p.is_supply_center]
    units = []
    for power, count in counts.items():
        own = [c for c, o in owners.items() if o == power and c not in avoid
               and the_map.provinces[c].terrain is not Terrain.SEA]
        for _ in range(count):
            units.append(Unit(power, UnitType.ARMY, own.pop(0) if own else spare.pop(0)))
    return units


def _fall_position(game: Game, phase: str, centres: Mapping[str, int],
                   units: Mapping[str, int] | None = None, keep_free: set[str] = frozenset()
                   ) -> None:
    owners = _centres(game, centres)
    armies = _armies(game, units if units is not None else centres, owners, set(keep_free))
    game._position = Position.build(game.variant, phase, armies, owners)


# (setup, centres each power holds after the Fall, the winning player's powers or None)
VICTORY_CASES = [
    # four players: Italy/Russia hold 19 together, but neither country 18
    ("4", {"italy": 10, "russia": 9, "england": 5, "austria": 5, "germany": 5}, None),
    ("4", {"russia": 18, "italy": 2, "england": 5, "austria": 5, "germany": 4},
     ("italy", "russia")),
    # three players: England/France/Germany with 24 between them is not a win
    ("3", {"england": 8, "france": 8, "germany": 8, "russia": 5, "turkey": 5}, None),
    ("3", {"france": 18, "england": 3, "russia": 6, "turkey": 7}, ("england", "france", "germany")),
    ("3b", {"turkey": 18, "france": 1, "russia": 8, "england": 7}, ("france", "turkey")),
    # seven players: as ever
    ("7", {"turkey": 18, "russia": 16}, ("turkey",)),
    ("7", {"turkey": 17, "russia": 17}, None),
]


@pytest.mark.parametrize(("players", "centres", "winners"), VICTORY_CASES)
def test_victory_counts_centres_for_each_individual_country(
        players: str, centres: dict[str, int], winners: tuple[str, ...] | None) -> None:
    game = Game(players=players)
    _fall_position(game, "F1905M", centres)
    game.process()
    if winners is None:
        assert game.end is None
    else:
        assert game.end is not None and game.end.kind is EndKind.VICTORY
        assert game.end.winners == winners
        assert "won with 18 supply centres" in game.end.summary


def test_1914_game_counts_a_players_three_countries_together() -> None:
    """The 1914 game's 24 is the player's (1992 XV.3: "24 centers controlled on the board")."""
    game = Game(players="2", rules="1982")
    _fall_position(game, "F1916M", {"england": 8, "france": 8, "russia": 8, "austria": 5,
                                    "germany": 5})
    game.process()
    assert game.end is not None and game.end.kind is EndKind.VICTORY
    assert game.end.winners == ("england", "france", "russia")


def _builds(game: Game, power: str, count: int) -> str:
    sites = [c for c in game.variant.home_centers(power) if c not in game.position.units]
    return ", ".join(f"Build A {site}" for site in sites[:count])


def test_1971_two_player_game_counts_units_after_the_winter_builds() -> None:
    """24 centres and 22 units after the Fall: no win yet; the two builds make 24 units on the
    board, and the win is declared when they stand there (before Spring 1917's orders)."""
    game = Game(players="2", rules="1971")
    keep_free = {"lon", "par"}
    _fall_position(game, "F1916M", {"england": 8, "france": 8, "russia": 8, "austria": 5,
                                    "germany": 5},
                   {"england": 7, "france": 7, "russia": 8, "austria": 5, "germany": 5},
                   keep_free)
    game.process()
    assert str(game.phase) == "W1916A" and game.end is None
    game.submit("england", "Build A Lon")
    game.submit("france", "Build A Par")
    game.process()
    assert str(game.phase) == "S1917M"
    assert game.end is not None and game.end.kind is EndKind.VICTORY
    assert game.end.winners == ("england", "france", "russia")
    assert game.end.summary.endswith("won with 24 units on the board")


def test_1971_two_player_game_no_win_when_removals_leave_fewer_than_24_units() -> None:
    """24 units after the Fall but only 22 centres: two must come off, so no win."""
    game = Game(players="2", rules="1971")
    _fall_position(game, "F1916M", {"england": 7, "france": 7, "russia": 8, "austria": 6,
                                    "germany": 6},
                   {"england": 8, "france": 8, "russia": 8, "austria": 5, "germany": 5})
    game.process()
    assert str(game.phase) == "W1916A" and game.end is None
    game.process()  # civil-disorder removals take the two extra units off
    assert str(game.phase) == "S1917M" and game.end is None
    team = ("england", "france", "russia")
    assert sum(len(game.position.units_of(p)) for p in team) == 22


def test_a_draw_in_the_six_player_game_is_shared_by_the_six_players_only() -> None:
    """Italy has no player: it neither votes nor shares the draw, though its units stand."""
    game = Game(players="6")
    players = [p for p in game.powers if p != "italy"]
    assert game.draw_vote_count() == (0, 6)
    for power in players[:-1]:
        assert game.vote_draw(power) is None
    end = game.vote_draw(players[-1])
    assert end is not None and end.kind is EndKind.DRAW
    assert game.position.units_of("italy")
    assert "italy" not in end.winners and set(end.winners) == set(players)


def test_a_draw_in_the_five_player_game_leaves_out_italy_and_germany() -> None:
    game = Game(players="5")
    for power in ("austria", "england", "france", "russia", "turkey"):
        game.vote_draw(power)
    assert game.end is not None
    assert set(game.end.winners) == {"austria", "england", "france", "russia", "turkey"}


def test_draw_votes_count_players_not_powers() -> None:
    """In the two-player game the count reads "1 of 2" once one player's powers all voted."""
    game = Game(players="2")
    assert game.draw_vote_count() == (0, 2)
    game.vote_draw("england")
    game.vote_draw("france")
    assert game.draw_vote_count() == (0, 2)  # Russia, the same player's, has not voted
    game.vote_draw("russia")
    assert game.draw_vote_count() == (1, 2)
    for power in ("austria", "germany"):
        game.vote_draw(power)
    assert game.end is None
    assert game.vote_draw("turkey") is not None


def test_a_draw_with_free_seats_is_agreed_by_the_players_who_are_there() -> None:
    game = Game()
    unplayed = {"austria", "germany", "italy", "russia", "turkey"}
    assert game.draw_vote_count(unplayed) == (0, 2)
    assert game.vote_draw("england", unplayed=unplayed) is None
    assert game.draw_vote_count(unplayed) == (1, 2)
    end = game.vote_draw("france", unplayed=unplayed)
    assert end is not None and end.winners == ("england", "france")
