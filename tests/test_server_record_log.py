"""A game's record is written a phase at a time: an adjudication adds its new phases to the
phase log and rewrites only the small rest of the record (``games.record``), whose size does not
grow with the game; a record written before this, with every phase in it, still reads, and the
game goes on from it. On the database of ``--database``."""

from __future__ import annotations

import json

from service_games import POWERS, open_service, seven_player_game
from sqlalchemy import select, update

from realpolitik import savefile
from realpolitik.server import models as m
from realpolitik.server import store as db
from realpolitik.server.service import Account, GameService


def _stored(service: GameService, game_id: int) -> str:
    with service.store.read() as conn:
        return str(conn.execute(select(m.games.c.record)
                                .where(m.games.c.id == game_id)).scalar_one())


def _play(service: GameService, game_id: int, users: list[Account], phases: int) -> None:
    """Adjudicate ``phases`` phases, each power ordering its first legal order per unit."""
    for _ in range(phases):
        game = service._read(game_id).game
        for user, power in zip(users, POWERS, strict=True):
            if power in game.powers_to_order():
                legal = service.legal_orders(user, game_id, power)
                service.submit_orders(user, game_id, power, "\n".join(
                    str(orders[0]) for _, orders in sorted(legal.items())))
        assert service.process(game_id)


def test_an_adjudication_writes_its_phases_once_and_a_record_that_does_not_grow(
        database_url: str) -> None:
    service = open_service(database_url)
    game_id, users = seven_player_game(service, "long")
    _play(service, game_id, users, 2)
    early = _stored(service, game_id)
    _play(service, game_id, users, 8)
    late = _stored(service, game_id)
    played = len(service._read(game_id).game.history)
    assert played >= 10
    for text in (early, late):
        record = json.loads(text)
        assert "phases" not in record  # they are in the phase log, each written once
    assert json.loads(late)[db.LOGGED_PHASES] == played
    # the record holds the position now, not the game's past: its size stays about the same
    assert len(late) < 1.5 * len(early)
    with service.store.read() as conn:
        seqs = [row.seq for row in db.phases_of(conn, game_id)]
    assert seqs == list(range(played))
    # a process that never saw the game reads it whole, and it is the game played
    fresh = open_service(database_url)._read(game_id).game
    mine = service._read(game_id).game
    assert savefile.game_to_json(fresh) == savefile.game_to_json(mine)


def test_a_record_written_whole_before_still_reads_and_the_game_goes_on(
        database_url: str) -> None:
    """Records stored before the phase log held the phases had every phase in them: they are
    read as they are, and the next adjudication writes the new form."""
    service = open_service(database_url)
    game_id, users = seven_player_game(service, "long")
    _play(service, game_id, users, 3)
    game = service._read(game_id).game
    whole = savefile.game_to_json(game)
    whole["current"] = {**whole["current"], "orders": {}}
    with service.store.write() as conn:
        conn.execute(update(m.games).where(m.games.c.id == game_id).values(
            record=json.dumps(whole), record_version=m.games.c.record_version + 1,
            version=m.games.c.version + 1))
    assert len(json.loads(_stored(service, game_id))["phases"]) == 3
    old_reader = open_service(database_url)
    assert savefile.game_to_json(old_reader._read(game_id).game) == savefile.game_to_json(game)
    _play(old_reader, game_id, users, 1)
    record = json.loads(_stored(old_reader, game_id))
    assert "phases" not in record and record[db.LOGGED_PHASES] == 4
    assert len(open_service(database_url)._read(game_id).game.history) == 4
