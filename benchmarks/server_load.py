"""A bounded load test of the game server on loopback (not run in CI).

    python benchmarks/server_load.py --clients 100 --games 20 --seconds 20

It starts ``realpolitik serve`` in a subprocess on 127.0.0.1 (a free port unless ``--port``) with
a fresh SQLite database in a temporary directory, signs up a gamesmaster and ``--clients``
players, creates ``--games`` seven-player games and fills every seat (with 100 clients and 140
seats, 40 clients hold a seat in two games). Then every client, concurrently, loops over its
seats for ``--seconds`` (or until it has made ``--count`` submissions): it reads its power's
legal orders (``GET /games/{id}/legal-orders``, once per phase), picks one at random per unit,
and sends them as text (``PUT /games/{id}/orders``). Every ``--ready-every``-th submission also
marks the power ready, so a game's phase is adjudicated once all seven are ready and play goes
on (retreats are random legal ones; adjustments are sent empty: builds waived, removals by the
rule). The loop is bounded in count and in time, and the server is stopped in any case.

It reports order submissions per second, the latency of the submissions (p50, p95, p99, max),
the errors (anything but 200, and transport errors; a 409 ``nothing_to_order`` when a power has
no retreat or adjustment to make is counted apart, as it is the right answer), the phases
adjudicated, and the server's peak resident memory (``VmHWM`` from ``/proc``, Linux only).

The server's per-user order rate limit (120 a minute) would refuse most of a load test's
submissions, so it is lifted (``REALPOLITIK_ORDERS_PER_MINUTE``, ``--orders-per-minute``), as are
the sign-up and new-game limits per client address (every player signs up from 127.0.0.1).
Only the loopback address is ever used.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

HOST = "127.0.0.1"  # loopback only, never anything else
POWERS = ("austria", "england", "france", "germany", "italy", "russia", "turkey")
ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Seat:
    game: int
    power: str
    phase: str = ""
    legal: dict[str, list[str]] = field(default_factory=dict)
    done: bool = False


@dataclass
class Client:
    name: str
    token: str = ""
    seats: list[Seat] = field(default_factory=list)


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # successful submissions, seconds
    legal_latencies: list[float] = field(default_factory=list)
    submissions: int = 0  # order submissions answered 200
    ready_marks: int = 0
    refusals: Counter[str] = field(default_factory=Counter)  # expected answers (nothing_to_order)
    errors: Counter[str] = field(default_factory=Counter)  # everything else that is not a 200
    error_samples: list[str] = field(default_factory=list)
    rejected_lines: int = 0  # lines the server read as errors (stale orders after a new phase)

    def error(self, key: str, sample: str) -> None:
        self.errors[key] += 1
        if len(self.error_samples) < 10:
            self.error_samples.append(sample)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def peak_rss_kib(pid: int) -> int | None:
    """The process's peak resident set (VmHWM) in KiB, or None where /proc has no answer."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float | None:
    """User plus system CPU time of the process so far, or None where /proc has no answer."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0-100) by the nearest-rank method."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


async def wait_ready(http: httpx.AsyncClient, proc: subprocess.Popen[bytes],
                     timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with code {proc.returncode} at start-up")
        try:
            r = await http.get("/games")
            if r.status_code == 200:
                return
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.1)
    raise RuntimeError(f"the server did not answer within {timeout:.0f} s")


async def checked(response: httpx.Response) -> Any:
    if not response.is_success:
        raise RuntimeError(f"{response.request.method} {response.request.url.path}: "
                           f"{response.status_code} {response.text[:300]}")
    return response.json()


async def signup(http: httpx.AsyncClient, name: str) -> str:
    r = await http.post("/auth/signup", json={"username": name, "password": "load-test pw"})
    return str((await checked(r))["token"])


async def gather_limited(coros: list[Any], limit: int) -> list[Any]:
    sem = asyncio.Semaphore(limit)

    async def one(c: Any) -> Any:
        async with sem:
            return await c

    return await asyncio.gather(*(one(c) for c in coros))


async def setup(http: httpx.AsyncClient, clients: list[Client], games: int) -> list[int]:
    """Accounts, games, and every seat taken (so every game is active)."""
    gm_token = await signup(http, "gamesmaster")
    # sign-up hashes a password (argon2id), deliberately slow: a few at a time
    tokens = await gather_limited([signup(http, c.name) for c in clients], 8)
    for c, t in zip(clients, tokens, strict=True):
        c.token = t
    auth = {"Authorization": f"Bearer {gm_token}"}
    game_ids = []
    for g in range(games):
        r = await http.post("/games", headers=auth, json={
            "name": f"load {g + 1}", "players": "7",
            # long deadlines: phases end only when all seven are ready
            "deadlines": {"first_movement": "1d", "movement": "1d", "retreats": "1d",
                          "adjustments": "1d"}})
        game_ids.append(int((await checked(r))["id"]))
    seats = [(gid, p) for gid in game_ids for p in POWERS]
    for i, (gid, power) in enumerate(seats):
        clients[i % len(clients)].seats.append(Seat(gid, power))

    async def join(c: Client, s: Seat) -> None:
        r = await http.post(f"/games/{s.game}/join", json={"power": s.power},
                            headers={"Authorization": f"Bearer {c.token}"})
        await checked(r)

    await gather_limited([join(c, s) for c in clients for s in c.seats], 16)
    for gid in game_ids:
        view = await checked(await http.get(f"/games/{gid}"))
        if view["status"] != "active":
            raise RuntimeError(f"game {gid} is {view['status']} after every seat was taken")
    return game_ids


async def fetch_legal(http: httpx.AsyncClient, c: Client, s: Seat, stats: Stats) -> bool:
    """The seat's legal orders for the current phase; False when it has nothing to order."""
    t0 = time.perf_counter()
    try:
        r = await http.get(f"/games/{s.game}/legal-orders", params={"power": s.power},
                           headers={"Authorization": f"Bearer {c.token}"})
    except httpx.HTTPError as exc:
        stats.error(f"GET legal-orders {type(exc).__name__}", repr(exc))
        return False
    stats.legal_latencies.append(time.perf_counter() - t0)
    if r.status_code != 200:
        stats.error(f"GET legal-orders {r.status_code}", r.text[:300])
        return False
    s.legal = {loc: [o["text"] for o in orders] for loc, orders in r.json().items()}
    return True


def order_text(s: Seat, rng: random.Random) -> str:
    if s.phase.endswith("A"):
        return ""  # adjustments: builds waived, removals by the rule
    return "\n".join(rng.choice(options) for _, options in sorted(s.legal.items()) if options)


async def play(http: httpx.AsyncClient, c: Client, stats: Stats, stop_at: float, count: int,
               ready_every: int, seed: int) -> None:
    rng = random.Random(seed)
    auth = {"Authorization": f"Bearer {c.token}"}
    made = 0
    idle_rounds = 0
    while time.monotonic() < stop_at and made < count:
        active = [s for s in c.seats if not s.done]
        if not active:
            return
        progressed = False
        for s in active:
            if time.monotonic() >= stop_at or made >= count:
                return
            if not s.phase:
                view = await http.get(f"/games/{s.game}")
                if view.status_code != 200:
                    stats.error(f"GET game {view.status_code}", view.text[:300])
                    continue
                v = view.json()
                if v["status"] == "finished":
                    s.done = True
                    continue
                if s.power not in v["to_order"]:
                    continue  # nothing to do in this retreat or adjustment phase
                s.phase = v["phase"]
                if not await fetch_legal(http, c, s, stats):
                    s.phase = ""
                    continue
            made += 1
            ready = made % ready_every == 0
            body: dict[str, Any] = {"power": s.power, "text": order_text(s, rng)}
            if ready:
                body["ready"] = True
            t0 = time.perf_counter()
            try:
                r = await http.put(f"/games/{s.game}/orders", json=body, headers=auth)
            except httpx.HTTPError as exc:
                stats.error(f"PUT orders {type(exc).__name__}", repr(exc))
                continue
            elapsed = time.perf_counter() - t0
            if r.status_code == 200:
                progressed = True
                stats.latencies.append(elapsed)
                stats.submissions += 1
                stats.ready_marks += ready
                answer = r.json()
                if answer["phase"] != s.phase:
                    # adjudicated between our reading and our submission: read the new phase
                    stats.rejected_lines += answer["errors"]
                    s.phase = ""
                continue
            code = ""
            try:
                detail = r.json().get("detail")
                code = detail.get("code", "") if isinstance(detail, dict) else ""
            except ValueError:
                pass
            if r.status_code == 409 and code == "nothing_to_order":
                stats.refusals[code] += 1
                s.phase = ""
            elif r.status_code == 409 and code == "game_over":
                stats.refusals[code] += 1
                s.done = True
            else:
                stats.error(f"PUT orders {r.status_code} {code}".rstrip(), r.text[:300])
                s.phase = ""
        if progressed:
            idle_rounds = 0
        else:
            # every seat is waiting for the other powers (retreats, adjustments): back off
            idle_rounds += 1
            await asyncio.sleep(min(0.05 * idle_rounds, 0.5))


async def phases_played(http: httpx.AsyncClient, game_ids: list[int]) -> tuple[int, list[str]]:
    total = 0
    phases = []
    for gid in game_ids:
        history = await checked(await http.get(f"/games/{gid}/history"))
        total += len(history)
        phases.append((await checked(await http.get(f"/games/{gid}")))["phase"])
    return total, phases


async def run(args: argparse.Namespace, base_url: str,
              proc: subprocess.Popen[bytes]) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=args.clients + 20,
                          max_keepalive_connections=args.clients + 20)
    async with httpx.AsyncClient(base_url=base_url, limits=limits,
                                 timeout=httpx.Timeout(60.0)) as http:
        await wait_ready(http, proc, 60)
        t0 = time.perf_counter()
        clients = [Client(f"player{i + 1:03d}") for i in range(args.clients)]
        game_ids = await setup(http, clients, args.games)
        setup_seconds = time.perf_counter() - t0
        rss_after_setup = peak_rss_kib(proc.pid)
        stats = Stats()
        server_cpu0 = cpu_seconds(proc.pid)
        client_cpu0 = time.process_time()
        start = time.perf_counter()
        stop_at = time.monotonic() + args.seconds
        tasks = [play(http, c, stats, stop_at, args.count, args.ready_every, args.seed + i)
                 for i, c in enumerate(clients)]
        # bounded in time whatever happens: the loops stop at stop_at, and a request can take
        # at most the client timeout beyond it
        await asyncio.wait_for(asyncio.gather(*tasks), args.seconds + 120)
        wall = time.perf_counter() - start
        server_cpu1 = cpu_seconds(proc.pid)
        client_cpu = time.process_time() - client_cpu0
        phases, now = await phases_played(http, game_ids)
    return {"stats": stats, "wall": wall, "phases": phases, "now": now,
            "setup_seconds": setup_seconds, "rss_setup": rss_after_setup,
            "rss": peak_rss_kib(proc.pid), "client_cpu": client_cpu,
            "server_cpu": None if server_cpu0 is None or server_cpu1 is None
            else server_cpu1 - server_cpu0, "seats": sum(len(c.seats) for c in clients)}


def report(args: argparse.Namespace, out: dict[str, Any]) -> None:
    stats: Stats = out["stats"]
    lat = [x * 1000 for x in stats.latencies]
    legal = [x * 1000 for x in stats.legal_latencies]
    errors = sum(stats.errors.values())
    rows = [
        ("clients / games / seats", f"{args.clients} / {args.games} / {out['seats']}"),
        ("duration (s)", f"{out['wall']:.1f}"),
        ("order submissions (200)", f"{stats.submissions}"),
        ("order submissions / s", f"{stats.submissions / out['wall']:.1f}"),
        ("submit latency p50 (ms)", f"{percentile(lat, 50):.1f}"),
        ("submit latency p95 (ms)", f"{percentile(lat, 95):.1f}"),
        ("submit latency p99 (ms)", f"{percentile(lat, 99):.1f}"),
        ("submit latency max (ms)", f"{max(lat, default=float('nan')):.1f}"),
        ("legal-orders reads", f"{len(legal)}"),
        ("legal-orders p50 / p99 (ms)",
         f"{percentile(legal, 50):.1f} / {percentile(legal, 99):.1f}"),
        ("submissions marking ready", f"{stats.ready_marks}"),
        ("phases adjudicated", f"{out['phases']}"),
        ("errors", f"{errors}"),
        ("server log: 5xx answers / tracebacks",
         f"{out['log_5xx']} / {out['tracebacks']}"),
        ("expected refusals (409)",
         ", ".join(f"{k} {v}" for k, v in sorted(stats.refusals.items())) or "0"),
        ("lines sent for a stale phase", f"{stats.rejected_lines}"),
        ("server CPU during the run (s)",
         f"{out['server_cpu']:.1f}" if out["server_cpu"] is not None else "n/a"),
        ("load client CPU during the run (s)", f"{out['client_cpu']:.1f}"),
        ("server peak RSS (MiB)",
         f"{out['rss'] / 1024:.0f}" if out["rss"] is not None else "n/a"),
        ("server peak RSS after setup (MiB)",
         f"{out['rss_setup'] / 1024:.0f}" if out["rss_setup"] is not None else "n/a"),
        ("setup: accounts, games, joins (s)", f"{out['setup_seconds']:.1f}"),
    ]
    width = max(len(k) for k, _ in rows)
    print()
    print(f"server load test on {HOST}: {platform.python_version()}, {platform.machine()}, "
          f"{os.cpu_count()} CPUs")
    print("-" * (width + 14))
    for k, v in rows:
        print(f"{k:<{width}}  {v:>10}")
    print("-" * (width + 14))
    print("phases now: " + " ".join(sorted(set(out["now"]))))
    if stats.errors:
        print("errors by kind:")
        for k, v in stats.errors.most_common():
            print(f"  {v:6d}  {k}")
        print("first errors:")
        for sample in stats.error_samples:
            print(f"  {sample}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=100, help="concurrent players (100)")
    parser.add_argument("--games", type=int, default=20, help="seven-player games (20)")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="how long the clients submit orders (20)")
    parser.add_argument("--count", type=int, default=100_000,
                        help="at most this many submissions per client (100000)")
    parser.add_argument("--port", type=int, default=0, help="server port (0: a free one)")
    parser.add_argument("--ready-every", type=int, default=10,
                        help="every N-th submission of a client marks the power ready (10)")
    parser.add_argument("--orders-per-minute", type=int, default=1_000_000,
                        help="the server's per-user order rate limit for the test (1000000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep-log", action="store_true", help="print the server's log path "
                        "and keep it")
    args = parser.parse_args(argv)
    if args.clients < 1 or args.games < 1 or args.ready_every < 1:
        parser.error("--clients, --games and --ready-every must be at least 1")
    if not 0 < args.seconds <= 3600 or args.count < 1:
        parser.error("--seconds must be in (0, 3600] and --count at least 1")
    if args.clients > args.games * len(POWERS):
        parser.error(f"{args.games} games have only {args.games * len(POWERS)} seats")

    port = args.port or free_port()
    tmp = Path(tempfile.mkdtemp(prefix="realpolitik-load-"))
    log_path = tmp / "server.log"
    env = dict(os.environ, REALPOLITIK_ORDERS_PER_MINUTE=str(args.orders_per_minute),
               # every simulated player signs up from this one address
               REALPOLITIK_SIGNUPS_PER_CLIENT="100000 per hour",
               REALPOLITIK_GAMES_PER_CLIENT="100000 per hour")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    cmd = [sys.executable, "-m", "realpolitik", "serve", "--host", HOST, "--port", str(port),
           "--database", f"sqlite:///{tmp / 'load.db'}"]
    print("server: " + " ".join(cmd), file=sys.stderr)
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=tmp)
    try:
        out = asyncio.run(run(args, f"http://{HOST}:{port}", proc))
    except BaseException:
        tail = log_path.read_text(errors="replace").splitlines()[-30:]
        print("server log (last lines):\n  " + "\n  ".join(tail), file=sys.stderr)
        raise
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        log_text = log_path.read_text(errors="replace")
        if args.keep_log:
            print(f"server log: {log_path}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    out["tracebacks"] = log_text.count("Traceback (most recent call last)")
    out["log_5xx"] = sum(1 for line in log_text.splitlines()
                         if '" 5' in line and "HTTP/1.1" in line)
    report(args, out)
    return 1 if out["stats"].errors or out["tracebacks"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
