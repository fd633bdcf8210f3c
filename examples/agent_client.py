#!/usr/bin/env python3
"""A program that plays a whole game of Diplomacy on a realpolitik server, as a seated player.

It is the starting point for your own agent (a search bot, a learning bot, a language model):
everything it does goes through the public HTTP API and the game's WebSocket, and the one place
to change is :func:`choose_orders` (and :func:`compose_press` for messages). See
``docs/agents.md``.

    # a game of its own against six heuristic bots, to the end of 1902:
    python examples/agent_client.py --server http://127.0.0.1:8000 \\
        --username agent --password 'correct horse' --signup --new --power france --end-year 1902

    # a seat in an existing game (joined if free):
    python examples/agent_client.py --username agent --password '...' --game 12 --power italy

Each phase takes one or two calls: ``GET /games/{id}/turn`` (the position, whether the power
must order, its legal orders, its builds or removals, the last results and new press) and
``PUT /games/{id}/orders`` with ``"ready": true``; then the program waits on the WebSocket until
something happens (a new phase, usually) and asks again. HTTP is the standard library's; the
WebSocket client is the ``websockets`` package (installed with ``realpolitik[server]``); without
it the program polls every few seconds instead.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

JSON = dict[str, Any]


class ApiError(Exception):
    """An answer other than 2xx: the status and the server's ``detail``."""

    def __init__(self, status: int, detail: Any) -> None:
        self.status = status
        self.detail = detail
        message = detail.get("message") if isinstance(detail, dict) else detail
        super().__init__(f"HTTP {status}: {message}")

    @property
    def code(self) -> str | None:
        return self.detail.get("code") if isinstance(self.detail, dict) else None


class Client:
    """The server's HTTP API, with the bearer token once logged in."""

    def __init__(self, server: str) -> None:
        self.server = server.rstrip("/")
        self.token: str | None = None

    def call(self, method: str, path: str, body: JSON | None = None,
             params: dict[str, Any] | None = None) -> Any:
        url = self.server + path
        if params:
            url += "?" + urllib.parse.urlencode({k: v for k, v in params.items()
                                                 if v is not None})
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        for attempt in range(5):
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    text = answer.read().decode()
                return json.loads(text) if text else None
            except urllib.error.HTTPError as error:
                text = error.read().decode(errors="replace")
                try:
                    detail = json.loads(text).get("detail", text)
                except ValueError:
                    detail = text
                if error.code == 429 and attempt < 4:  # too many requests: wait and retry
                    time.sleep(float(error.headers.get("Retry-After") or 2))
                    continue
                raise ApiError(error.code, detail) from None
        raise AssertionError("unreachable")

    def log_in(self, username: str, password: str, *, sign_up: bool) -> None:
        """Log in (or, with ``sign_up``, create the account when the name is free)."""
        credentials = {"username": username, "password": password}
        try:
            self.token = self.call("POST", "/auth/login", credentials)["token"]
        except ApiError as error:
            if not sign_up or error.status != 401:
                raise
            self.token = self.call("POST", "/auth/signup", credentials)["token"]

    def websocket_url(self, game: int) -> str:
        """The game's WebSocket address, authenticated: with a short-lived ticket where the
        server gives them (``POST /auth/ticket``), else with the token itself."""
        base = "ws" + self.server[len("http"):] if self.server.startswith("http") \
            else self.server
        try:
            ticket = self.call("POST", "/auth/ticket", {})
            return f"{base}/games/{game}/ws?ticket={urllib.parse.quote(ticket['ticket'])}"
        except (ApiError, KeyError, TypeError):
            return f"{base}/games/{game}/ws?token={urllib.parse.quote(self.token or '')}"


# -- the agent's decisions: the part to replace with your own ---------------------------------

def choose_orders(turn: JSON, rng: random.Random) -> list[str]:
    """The orders to give this phase, as text, one per unit (chosen from ``turn["legal_orders"]``,
    so each is legal).

    This example plays like a keen beginner: each unit prefers a move (to a supply centre it
    does not own yet, if it can) over a hold or a support; builds and removals take as many
    sites or units as ``turn["adjustment"]`` says. Replace it with your own agent: everything
    it may need is in ``turn`` (the position, the centres, the last results, the press).
    """
    legal: dict[str, list[JSON]] = turn["legal_orders"]
    count = turn["adjustment"]
    if count > 0:  # builds: one per site, on as many sites as builds are due
        sites = [loc for loc in legal if loc != "waive"]
        chosen = rng.sample(sites, min(count, len(sites)))
        return [rng.choice(legal[site])["text"] for site in chosen]
    if count < 0:  # removals: exactly as many as due
        units = sorted(legal)
        return [legal[loc][0]["text"] for loc in rng.sample(units, min(-count, len(units)))]
    power = turn["power"].upper()
    owned = set(turn["game"]["position"]["centers"].get(power, []))
    orders = []
    for options in legal.values():
        moves = [o for o in options if o["kind"] in ("move", "retreat")]
        grabs = [o for o in moves if o["to"] and o["to"].split("/")[0] not in owned]
        pick = rng.choice(grabs or moves or options)
        orders.append(pick["text"])
    return orders


def compose_press(turn: JSON, rng: random.Random) -> JSON | None:
    """A message to send this phase (``{"to": [...], "body": ...}``, no ``to`` for a public
    announcement), or None. The example greets one other power each spring."""
    game = turn["game"]
    if not game["press_open"] or not game["phase"].startswith("S") or \
            game["phase_type"] != "movement":
        return None
    others = [p for p in game["powers"] if p != turn["power"] and p not in game["eliminated"]]
    if not others or not game["press"]["private"]:
        return None
    to = rng.choice(others)
    return {"to": [to], "body": f"{turn['power'].title()} to {to.title()}: shall we keep the "
                                f"peace between us in {game['phase'][1:5]}?"}


# -- the loop ------------------------------------------------------------------------------------

@contextmanager
def events(client: Client, game: int) -> Iterator[Any]:
    """The game's WebSocket (None if the ``websockets`` package is missing: then poll)."""
    try:
        from websockets.sync.client import connect
    except ImportError:
        yield None
        return
    with connect(client.websocket_url(game), open_timeout=10) as socket:
        hello = json.loads(socket.recv(timeout=10))
        assert hello.get("type") == "hello", hello
        yield socket


def wait_for_news(socket: Any, seconds: float) -> str | None:
    """Wait until the server says something about the game (or ``seconds`` pass); returns the
    event's type. Any event is a reason to ask for the turn again."""
    if socket is None:
        time.sleep(min(seconds, 3.0))
        return None
    try:
        return str(json.loads(socket.recv(timeout=seconds)).get("type"))
    except TimeoutError:
        socket.send("ping")  # keep the connection alive through proxies
        return None


def play(client: Client, game: int, power: str | None, *, seed: int, max_phases: int,
         say: Any = print) -> JSON:
    """Play ``power`` in ``game`` until the game ends (or ``max_phases`` phases were ordered);
    returns the game's end (or None)."""
    rng = random.Random(seed)
    seen_phases = 0
    last_press = 0
    ordered = 0
    with events(client, game) as socket:
        while True:
            turn = client.call("GET", f"/games/{game}/turn",
                               params={"power": power, "since": seen_phases,
                                       "press_after": last_press})
            power = turn["power"]
            state = turn["game"]
            for played in turn["results"]:  # what happened since the last look
                notes = "; ".join(played.get("notes", []))
                say(f"  {played['phase']} played" + (f" ({notes})" if notes else ""))
            if turn["results"]:
                say("  centres: " + ", ".join(f"{p.title()} {n}" for p, n in
                                              sorted(state["centers"].items()) if n))
            seen_phases = turn["played"]
            for message in turn["press"]:
                last_press = max(last_press, int(message["id"]))
                if message["sender"] != power:
                    say(f"  press from {message['sender'].title()}: {message['body']}")
            if state["status"] == "finished":
                end: JSON = state["end"]
                say(f"game over in {end['phase']}: {end['summary']}")
                return end
            if turn["must_order"] and not turn["ready"]:
                if ordered >= max_phases:
                    say(f"stopping after {ordered} phases (--max-phases)")
                    return {}
                orders = choose_orders(turn, rng)
                answer = client.call("PUT", f"/games/{game}/orders",
                                     {"power": power, "text": "\n".join(orders), "ready": True,
                                      "phase": state["phase"]})
                ordered += 1
                bad = [line for line in answer["lines"] if not line["ok"]]
                say(f"{state['phase']} {power.title()}: " + ("; ".join(orders) or "no orders")
                    + (f"  ({len(bad)} refused: {bad[0]['error']['message']})" if bad else ""))
                message = compose_press(turn, rng)
                if message is not None:
                    try:
                        client.call("POST", f"/games/{game}/press",
                                    {"sender": power, **message})
                    except ApiError as error:  # press is a courtesy: never stop the game for it
                        say(f"  (press not sent: {error})")
                continue  # the phase may have moved on already (bots are ready at once)
            wait_for_news(socket, 30.0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--username", required=True)
    parser.add_argument("--password", default=os.environ.get("AGENT_PASSWORD"),
                        help="or set AGENT_PASSWORD")
    parser.add_argument("--signup", action="store_true",
                        help="create the account if it does not exist")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--game", type=int, help="play in this game (join the power if free)")
    where.add_argument("--new", action="store_true",
                       help="create a game of your own against bots (private)")
    parser.add_argument("--power", help="the power to play (with --new: default drawn)")
    parser.add_argument("--bots", default="heuristic",
                        help="with --new: the bots (heuristic, random, hold)")
    parser.add_argument("--end-year", type=int, help="with --new: the game ends after this year")
    parser.add_argument("--seed", type=int, default=0, help="seed of the agent's choices")
    parser.add_argument("--max-phases", type=int, default=1000,
                        help="stop after ordering this many phases")
    args = parser.parse_args(argv)
    if not args.password:
        parser.error("give --password or set AGENT_PASSWORD")
    client = Client(args.server)
    try:
        client.log_in(args.username, args.password, sign_up=args.signup)
        power = args.power.lower() if args.power else None
        if args.new:
            power = power or random.Random(args.seed).choice(
                ["austria", "england", "france", "germany", "italy", "russia", "turkey"])
            body: JSON = {"name": f"{args.username} ({power.title()}) vs the computer",
                          "join_as": power, "fill_with_bots": args.bots, "private": True}
            if args.end_year:
                body["end_year"] = args.end_year
            game = int(client.call("POST", "/games", body)["id"])
            print(f"created game {game}: {args.username} plays {power.title()}")
        else:
            game = args.game
            mine = client.call("GET", f"/games/{game}")["my_powers"]
            if not mine:
                if power is None:
                    parser.error("--power: which power to join")
                client.call("POST", f"/games/{game}/join", {"power": power})
                print(f"joined game {game} as {power.title()}")
        end = play(client, game, power, seed=args.seed, max_phases=args.max_phases)
    except ApiError as error:
        print(f"agent_client: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"agent_client: cannot reach {args.server}: {error}", file=sys.stderr)
        return 1
    return 0 if end else 2


if __name__ == "__main__":
    sys.exit(main())
