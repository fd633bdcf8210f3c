"""How long a game against the computer takes to move on once the player is ready.

    python benchmarks/vs_computer.py                       # Colonial Winters and classical, 3 turns
    python benchmarks/vs_computer.py --variant colonial_winters --turns 4 --bot heuristic

A player signs up on an in-process server (the FastAPI application over a temporary SQLite
file, no network) and creates a game against the computer in one request, as the lobby's card
does (``fill_with_bots``). Each turn the player gives one legal order per unit (the first
listed move, else a hold) and marks ready in the same request; that request adjudicates the
phase, lets the bots order the phases that need only them, and has them order the next phase
the player must order in. The script prints, per turn, the seconds that request took (what
the player waits after pressing Mark ready) and the CPU seconds this process spent on it (the
server runs in it: on a machine shared with other work the CPU time is the steadier figure),
and the classical game's figures as a reference measured in the same process. No timing is
asserted anywhere.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

try:
    import realpolitik  # noqa: F401
except ImportError:  # run from a checkout without installing: use its sources
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fastapi.testclient import TestClient

from realpolitik.server.app import create_app
from realpolitik.server.settings import Settings

PLAYS = {"colonial_winters": "england", "classical": "france"}


def first_moves(listing: dict[str, list[dict[str, Any]]]) -> str:
    """One order per unit: its first listed move, else its first order (a hold)."""
    picks = []
    for loc, options in listing.items():
        if loc == "waive":
            continue
        move = next((o for o in options if o["kind"] == "move"), options[0])
        picks.append(move["text"])
    return "\n".join(picks)


def play(variant: str, turns: int, bot: str) -> list[tuple[str, float, float]]:
    """(phase, seconds from Mark ready to the next phase of the player, CPU seconds) for each
    turn."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(Settings(database_url=f"sqlite:///{folder}/bench.db",
                                  background=False))
        with TestClient(app) as client:
            token = client.post("/auth/signup", json={"username": "bench",
                                                      "password": "correct horse"}).json()
            who = {"Authorization": f"Bearer {token['token']}"}
            power = PLAYS.get(variant, "any")
            started = time.perf_counter()
            created = client.post("/games", headers=who, json={
                "name": "bench", "variant": variant, "join_as": power, "private": True,
                "fill_with_bots": bot})
            created.raise_for_status()
            print(f"  {variant}: game created, bots ordered: "
                  f"{time.perf_counter() - started:.2f} s", flush=True)
            game = created.json()["id"]
            out = []
            for _ in range(turns):
                state = client.get(f"/games/{game}", headers=who).json()
                if state["status"] != "active" or power not in state["to_order"]:
                    break
                phase = state["phase"]
                listing = client.get(f"/games/{game}/legal-orders", headers=who,
                                     params={"power": power}).json()
                text = first_moves(listing)
                started, cpu = time.perf_counter(), time.process_time()
                answer = client.put(f"/games/{game}/orders", headers=who, json={
                    "power": power, "text": text, "ready": True, "phase": phase})
                answer.raise_for_status()
                seconds = time.perf_counter() - started
                cpu = time.process_time() - cpu
                after = client.get(f"/games/{game}", headers=who).json()["phase"]
                print(f"  {variant} {phase} -> {after}: {seconds:.3f} s ({cpu:.3f} s CPU)",
                      flush=True)
                out.append((phase, seconds, cpu))
            return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", action="append",
                        help="a variant to time (repeatable; default: colonial_winters, then "
                             "classical as the reference)")
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--bot", default="heuristic")
    args = parser.parse_args(argv)
    medians = {}
    for variant in args.variant or ["colonial_winters", "classical"]:
        turns = play(variant, args.turns, args.bot)
        wall = statistics.median(t[1] for t in turns) if turns else float("nan")
        cpu = statistics.median(t[2] for t in turns) if turns else float("nan")
        medians[variant] = cpu
        print(f"{variant}: median {wall:.3f} s ({cpu:.3f} s CPU) from Mark ready to the next "
              f"phase ({len(turns)} turns, {args.bot} bots)")
    if "classical" in medians and len(medians) > 1:
        for variant, median in medians.items():
            if variant != "classical":
                print(f"{variant} / classical (CPU): {median / medians['classical']:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
