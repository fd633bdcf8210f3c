"""The ``diplomacy`` package's saved-game calls (``diplomacy.utils.export``) for the facade.

A saved game is a dictionary: ``id``, ``map``, ``rules`` and ``phases``, each phase the
package's phase dictionary (``name``, ``state``, ``orders``, ``results``, ``messages``), the
last one the current phase. :func:`from_saved_game_format` reads one back into a facade game
whose histories are the record's and whose board is the last phase's state (as the package
does: nothing is replayed; :func:`realpolitik.compat.diplomacy_json.game_from_diplomacy_json`
replays and checks a record on realpolitik's engine).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from realpolitik.compat.diplomacy import Game
from realpolitik.compat.diplomacy_message import GamePhaseData, SortedDict
from realpolitik.errors import RealpolitikError

__all__ = ["from_saved_game_format", "is_valid_saved_game", "load_saved_games_from_disk",
           "to_saved_game_format"]

RULES_TO_SKIP = ("SOLITAIRE", "NO_DEADLINE", "CD_DUMMIES", "ALWAYS_WAIT", "IGNORE_ERRORS")
"""Rules of the running game that a saved game leaves out, as the package does."""


def to_saved_game_format(game: Game, output_path: str | Path | None = None,
                         output_mode: str = "a") -> dict[str, Any]:
    """The game as a saved game (every phase played, then the current one); with
    ``output_path`` also written there as one line of JSON."""
    rules = [rule for rule in game.rules if rule not in RULES_TO_SKIP]
    phases = [*game.get_phase_history(), game.get_phase_data()]
    dicts = [phase.to_dict() for phase in phases]
    for phase in dicts:
        phase["state"] = dict(phase["state"], game_id=game.game_id, map=game.map_name,
                              rules=rules)
    saved = {"id": game.game_id, "map": game.map_name, "rules": rules, "phases": dicts}
    if output_path:
        with open(output_path, output_mode, encoding="utf-8") as out:
            out.write(json.dumps(saved) + "\n")
    return saved


def from_saved_game_format(saved_game: Mapping[str, Any]) -> Game:
    """A facade game from a saved game: the record's histories, the last phase's board and the
    orders given in it."""
    game = Game(saved_game.get("id") or None, map_name=saved_game.get("map", "standard"),
                rules=saved_game.get("rules", []))
    phases = [GamePhaseData.from_dict(phase) for phase in saved_game.get("phases", [])]
    if not phases:
        return game
    for phase in phases[:-1]:
        game.extend_phase_history(phase)
    current = phases[-1]
    game.set_state(current.state, clear_history=False)
    if current.name != "COMPLETED":
        for power, orders in current.orders.items():
            if orders:
                game.set_orders(power, list(orders))
    game.messages = SortedDict(current.messages)
    return game


def load_saved_games_from_disk(input_path: str | Path, on_error: str = "raise") -> list[Game]:
    """Every saved game of a file of JSON lines; a line that cannot be read raises, or with
    ``on_error="ignore"`` is skipped."""
    games: list[Game] = []
    with open(input_path, encoding="utf-8") as lines:
        for line in lines:
            if not line.strip():
                continue
            try:
                games.append(from_saved_game_format(json.loads(line)))
            except (ValueError, KeyError):
                if on_error == "raise":
                    raise
    return games


def is_valid_saved_game(saved_game: Mapping[str, Any]) -> bool:
    """True if the saved game has an id, a known map, and phases that each name a phase and
    carry a state (the package also replays every phase; this does not)."""
    if not saved_game.get("id") or not isinstance(saved_game.get("phases"), list):
        return False
    try:
        Game(map_name=str(saved_game.get("map", "standard")))
    except RealpolitikError:  # an unknown map
        return False
    return all(isinstance(phase, Mapping) and phase.get("name") and "state" in phase
               for phase in saved_game["phases"])
