"""Two server processes' copies of one game: each process keeps the game loaded between
requests and, when the other process took orders meanwhile, gives its copy those orders only
when something needs them (an order submission needs only its own power's). Two services over
one database stand for the two processes; whatever the interleaving, each one's game holds
every power's latest orders when read, and an adjudication by either follows them all."""

from __future__ import annotations

import random

import pytest
from service_games import POWERS, open_service, seven_player_game

from realpolitik import savefile
from realpolitik.game import Game
from realpolitik.server import store as db
from realpolitik.server.service import GameOptions, GameService
from realpolitik.server.values import JSON


def _services(url: str) -> tuple[GameService, GameService]:
    """Two processes' services on one database."""
    return (open_service(url, orders_per_minute=1_000_000, background=True),
            open_service(url, orders_per_minute=1_000_000, background=True))


def _orders_given(game: Game, power: str) -> list[str]:
    return [entry.text for entry in game.orders_of(power)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_copy_gives_the_other_process_orders_when_they_are_needed(
        database_url: str, seed: int) -> None:
    first, second = _services(database_url)
    game_id, users = seven_player_game(first, "shared")
    rng = random.Random(seed)
    legal = {p: {loc: [str(o) for o in orders]
                 for loc, orders in first.legal_orders(users[i], game_id, p).items()}
             for i, p in enumerate(POWERS)}
    latest: dict[str, str] = {}
    for step in range(60):
        service = rng.choice((first, second))
        i = rng.randrange(len(POWERS))
        power = POWERS[i]
        text = "\n".join(rng.choice(options) for _, options in sorted(legal[power].items()))
        service.submit_orders(users[i], game_id, power, text)
        latest[power] = text
        if step % 7 == 6:  # now and then a read in either process, which gives every order
            seen = rng.choice((first, second))._read(game_id).game
            for p, given in latest.items():
                assert _orders_given(seen, p) == _orders_given(_reference(seen, p, given), p)
    for service in (first, second):
        game = service._read(game_id).game
        for power, text in latest.items():
            assert _orders_given(game, power) == _orders_given(_reference(game, power, text),
                                                               power)
    # an adjudication by one process follows every power's latest orders, whichever process
    # took them: the same results as a game loaded afresh from the database
    with first.store.read() as conn:
        fresh = savefile.game_from_json(db.game_record(conn, game_id))
    for power, text in sorted(latest.items()):
        fresh.submit(power, text)
    fresh.process()
    assert rng.choice((first, second)).process(game_id)
    third, _ = _services(database_url)
    played = third._read(game_id).game
    assert str(played.phase) == str(fresh.phase)
    assert savefile.position_to_json(played.position) == savefile.position_to_json(
        fresh.position)


def _reference(game: Game, power: str, text: str) -> Game:
    """A game in the same position given only ``power``'s ``text``."""
    copy = savefile.loads(savefile.dumps(game))
    copy.submit(power, text)
    return copy


def test_a_view_without_the_other_process_orders_is_the_same(database_url: str) -> None:
    """A game view (and the legal orders) does not give the copy the orders another process
    took; what it shows is the same all the same, civil disorder included (a power leaves it by
    giving orders, in whichever process)."""
    first, second = _services(database_url)
    game_id, users = seven_player_game(first, "shared")
    # Spring: only Austria and England give orders; the others are in civil disorder after it
    for i in (0, 1):
        first.submit_orders(users[i], game_id, POWERS[i], "")
    assert first.process(game_id)
    seen = first.game_view(game_id, users[0])
    assert set(seen["civil_disorder"]) == set(POWERS[2:])
    # Fall: France and Germany give orders through the other process
    for i in (2, 3):
        second.submit_orders(users[i], game_id, POWERS[i], "")
    keys = ("phase", "civil_disorder", "orders_in", "to_order", "ready", "free")
    for viewer in (0, 4):
        view = first.game_view(game_id, users[viewer])
        fresh = _services(database_url)[0].game_view(game_id, users[viewer])
        assert {k: view[k] for k in keys} == {k: fresh[k] for k in keys}
        assert set(view["civil_disorder"]) == set(POWERS[4:])
    assert first._cache.get(game_id).unapplied == {"france", "germany"}  # still not read
    assert first.legal_orders(users[2], game_id, "france") == \
        _services(database_url)[0].legal_orders(users[2], game_id, "france")


def test_a_read_that_saw_two_versions_of_the_game_is_made_again(
        database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A read does not lock the game's row, so another process may commit a change between two
    of its statements: here the other process adjudicates again after this one read the row
    and before it read the record. The record of the version read is gone; the read is made
    again, and it gives what a process that never saw the game reads."""
    first, second = _services(database_url)
    game_id, _ = seven_player_game(first, "shared")
    first._read(game_id)  # cached at Spring 1901
    assert second.process(game_id)  # Fall 1901, adjudicated by the other process
    real_record = db.game_record
    calls: list[int | None] = []

    def record_after_another_change(conn: object, game: int,
                                    record_version: int | None = None) -> JSON:
        calls.append(record_version)
        if len(calls) == 1:
            assert second.process(game)  # Winter 1901, between the row and the record
        return real_record(conn, game, record_version)  # type: ignore[arg-type]

    monkeypatch.setattr(db, "game_record", record_after_another_change)
    seen = first._read(game_id)
    monkeypatch.undo()
    assert calls[0] is not None
    if first.store.engine.dialect.name == "sqlite":
        # SQLite's read transaction is a snapshot: the record is the row's, read once
        assert len(calls) == 1 and str(seen.game.phase) == "F1901M"
    else:
        assert calls == [calls[0], calls[0] + 1]
        fresh = _services(database_url)[0]._read(game_id)
        assert str(seen.game.phase) == str(fresh.game.phase) not in ("S1901M", "F1901M")
        assert seen.version == fresh.version
    with first.store.read() as conn, pytest.raises(db.TornRead):
        db.game_record(conn, game_id, calls[0])


def test_a_game_reloaded_keeps_its_copy_of_the_variant(database_url: str) -> None:
    """When the other process adjudicated, the record is read again onto the copy of the
    variant the game had, with its caches (the map's tables, the parser's names), not a new
    one; another game has a copy of its own."""
    first, second = _services(database_url)
    game_id, users = seven_player_game(first, "shared")
    other_id = first.create_game(users[0], GameOptions(name="another", players="7"))
    variant = first._read(game_id).game.variant
    assert first._read(other_id).game.variant is not variant
    assert second.process(game_id)
    reloaded = first._read(game_id).game
    assert str(reloaded.phase) == "F1901M"
    assert reloaded.variant is variant
