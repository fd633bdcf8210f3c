"""A bounded load test of the game server on loopback (not run in CI).

    python benchmarks/server_load.py --clients 100 --games 20 --seconds 20
    python benchmarks/server_load.py --rate 150 --listeners 40 --read-rate 50 --seconds 60
    python benchmarks/server_load.py --database postgres --workers 2 --seconds 60

It starts ``realpolitik serve`` in a subprocess on 127.0.0.1 (a free port unless ``--port``; with
``--workers N``, N worker processes) over a fresh database in a temporary directory: an SQLite
file (``--database sqlite``, the default), a throwaway PostgreSQL server started for the run
(``--database postgres``, from the PostgreSQL binaries on this machine: ``tests/postgres.py``),
or any SQLAlchemy URL (its tables must be empty). It signs up a gamesmaster and ``--clients``
players, creates ``--games`` seven-player games and fills every seat (with 100 clients and 140
seats, 40 clients hold a seat in two games).

Then order submissions run for ``--seconds``, in one of two ways:

- closed loop (the default): every client, concurrently, loops over its seats, sending its next
  submission as soon as the last one is answered; this measures the most the server sustains;
- open loop (``--rate R``): submissions are sent at R a second whatever the answers, spread over
  the clients in turn; each one's latency is counted from the moment it was due, so a server
  that falls behind shows it in its latency (no coordinated omission).

A submission reads the power's legal orders once per phase (``GET /games/{id}`` and
``GET /games/{id}/legal-orders``), picks one at random per unit and sends them as text
(``PUT /games/{id}/orders``). Every ``--ready-every``-th submission also marks the power ready,
so a game's phase is adjudicated once all seven are ready and play goes on (retreats are random
legal ones; adjustments are sent empty: builds waived, removals by the rule). ``--read-rate``
adds game views (``GET /games/{id}``) at that rate, and ``--listeners`` WebSocket connections
(spread over the games, and so over the workers) count the live events they receive: each must
see every phase its game played.

The HTTP client is a minimal keep-alive HTTP/1.1 client on asyncio streams (one connection per
client; uvloop's event loop when it is installed), so that the load generator, which shares the
machine's CPUs with the server, spends little of them. It reports the submissions per second,
their latency (p50, p95, p99, max), the errors (anything but 200, and transport errors; a 409
``nothing_to_order`` when a power has no retreat or adjustment to make is counted apart, as it
is the right answer), the phases adjudicated, the live events, the CPU time of the server (all
its processes, and PostgreSQL's) and of the load generator (per submission and per request),
the machine's load average, and the server's peak resident memory. ``--no-access-log`` runs the
server without its access log.
``--check-rate`` and ``--check-p99`` make it exit 1 unless the figures meet them.

The server's per-user order rate limit (120 a minute) would refuse most of a load test's
submissions, so it is lifted (``REALPOLITIK_ORDERS_PER_MINUTE``, ``--orders-per-minute``), as are
the sign-up and new-game limits per client address (every player signs up from 127.0.0.1) and
the number of games one user may have waiting for players (the gamesmaster creates them all).
Only the loopback address is ever used.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

HOST = "127.0.0.1"  # loopback only, never anything else
POWERS = ("austria", "england", "france", "germany", "italy", "russia", "turkey")
ROOT = Path(__file__).resolve().parent.parent


class HttpError(Exception):
    """The connection failed or the answer could not be read."""


class RawConnection:
    """One keep-alive HTTP/1.1 connection to the server: just enough HTTP for this test (requests
    with a JSON body or none, answers with a Content-Length), at a fraction of a general client's
    CPU cost. Reconnects once when the server has closed an idle connection."""

    requests = 0
    """Requests sent by every connection so far (the load generator's CPU per request)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def _open(self) -> None:
        self._reader, self._writer = await asyncio.open_connection(HOST, self.port)

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(OSError, ConnectionError):
                await self._writer.wait_closed()
        self._reader = self._writer = None

    async def request(self, method: str, path: str, token: str = "",
                      body: Any = None) -> tuple[int, Any]:
        """Send one request; returns the status and the decoded JSON answer."""
        payload = b"" if body is None else json.dumps(body).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n"
                + (f"Authorization: Bearer {token}\r\n" if token else "")
                + ("Content-Type: application/json\r\n" if body is not None else "")
                + f"Content-Length: {len(payload)}\r\n\r\n").encode()
        RawConnection.requests += 1
        for attempt in (1, 2):
            fresh = self._writer is None
            try:
                if fresh:
                    await self._open()
                assert self._writer is not None and self._reader is not None
                self._writer.write(head + payload)
                status_line = await self._reader.readuntil(b"\r\n")
                headers = await self._reader.readuntil(b"\r\n\r\n")
            except (OSError, asyncio.IncompleteReadError, ConnectionError) as exc:
                await self.close()
                if fresh or attempt == 2:  # only a reused idle connection is retried
                    raise HttpError(f"{method} {path}: {type(exc).__name__} {exc}") from exc
                continue
            break
        status = int(status_line.split(b" ", 2)[1])
        length = 0
        close = False
        for line in headers.split(b"\r\n"):
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"connection" and value.strip().lower() == b"close":
                close = True
        try:
            data = await self._reader.readexactly(length) if length else b""
        except (OSError, asyncio.IncompleteReadError) as exc:
            await self.close()
            raise HttpError(f"{method} {path}: {type(exc).__name__}") from exc
        if close:
            await self.close()
        try:
            return status, json.loads(data) if data else None
        except ValueError:
            return status, data.decode(errors="replace")


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
    conn: RawConnection | None = None
    busy: asyncio.Lock = field(default_factory=asyncio.Lock)
    made: int = 0
    rng: random.Random = field(default_factory=random.Random)


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # successful submissions, seconds
    legal_latencies: list[float] = field(default_factory=list)
    read_latencies: list[float] = field(default_factory=list)
    submissions: int = 0  # order submissions answered 200
    ready_marks: int = 0
    refusals: Counter[str] = field(default_factory=Counter)  # expected answers (nothing_to_order)
    errors: Counter[str] = field(default_factory=Counter)  # everything else that is not a 200
    error_samples: list[str] = field(default_factory=list)
    rejected_lines: int = 0  # lines the server read as errors (stale orders after a new phase)
    events: Counter[str] = field(default_factory=Counter)  # live events by type
    phase_events: dict[int, list[set[str]]] = field(default_factory=dict)  # game -> per listener
    skipped: int = 0  # open loop: submissions not sent because every seat was waiting

    def error(self, key: str, sample: str) -> None:
        self.errors[key] += 1
        if len(self.error_samples) < 10:
            self.error_samples.append(f"{key}: {sample}")


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop when it is installed (the server extra installs it for uvicorn): it
    costs the load generator about half the CPU of asyncio's own loop per request."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def process_tree(pid: int) -> list[int]:
    """``pid`` and all its descendants (Linux /proc)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        for task in Path(f"/proc/{p}/task").glob("*"):
            with contextlib.suppress(OSError, ValueError):
                todo.extend(int(c) for c in (task / "children").read_text().split())
    return out


def peak_rss_kib(pid: int) -> int | None:
    """The largest peak resident set (VmHWM, KiB) among the process and its children."""
    best = None
    for p in process_tree(pid):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    best = max(best or 0, int(line.split()[1]))
        except OSError:
            continue
    return best


def cpu_seconds(pid: int) -> float | None:
    """User plus system CPU time of the process and its descendants so far, or None where /proc
    has no answer."""
    total, seen = 0.0, False
    for p in process_tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        seen = True
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total if seen else None


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "n/a"


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


def order_text(s: Seat, rng: random.Random) -> str:
    if s.phase.endswith("A"):
        return ""  # adjustments: builds waived, removals by the rule
    return "\n".join(rng.choice(options) for _, options in sorted(s.legal.items()) if options)


async def refresh(c: Client, s: Seat, stats: Stats) -> bool:
    """Read the seat's phase and legal orders; False when it has nothing to order now."""
    assert c.conn is not None
    status, view = await c.conn.request("GET", f"/games/{s.game}", c.token)
    if status != 200:
        stats.error(f"GET game {status}", str(view)[:300])
        return False
    if view["status"] == "finished":
        s.done = True
        return False
    if s.power not in view["to_order"]:
        return False  # nothing to do in this retreat or adjustment phase
    t0 = time.perf_counter()
    status, legal = await c.conn.request("GET", f"/games/{s.game}/legal-orders?power={s.power}",
                                         c.token)
    stats.legal_latencies.append(time.perf_counter() - t0)
    if status != 200:
        stats.error(f"GET legal-orders {status}", str(legal)[:300])
        return False
    s.phase = view["phase"]
    s.legal = {loc: [o["text"] for o in orders] for loc, orders in legal.items()}
    return True


async def submit(c: Client, s: Seat, stats: Stats, ready_every: int,
                 due: float | None = None) -> bool:
    """One order submission for ``s`` (after reading its legal orders if the phase is new);
    returns True if it was made. Latency counts from ``due`` when given (open loop)."""
    assert c.conn is not None
    try:
        if not s.phase and not await refresh(c, s, stats):
            return False
        c.made += 1
        ready = c.made % ready_every == 0
        body: dict[str, Any] = {"power": s.power, "text": order_text(s, c.rng)}
        if ready:
            body["ready"] = True
        t0 = time.perf_counter() if due is None else due
        status, answer = await c.conn.request("PUT", f"/games/{s.game}/orders", c.token, body)
    except HttpError as exc:
        stats.error("transport", str(exc))
        s.phase = ""
        return False
    elapsed = time.perf_counter() - t0
    if status == 200:
        stats.latencies.append(elapsed)
        stats.submissions += 1
        stats.ready_marks += ready
        if answer["phase"] != s.phase:
            # adjudicated between our reading and our submission: read the new phase
            stats.rejected_lines += answer["errors"]
            s.phase = ""
        elif ready:
            s.phase = ""  # the phase may end with this one: read it again next time
        return True
    detail = answer.get("detail") if isinstance(answer, dict) else None
    code = detail.get("code", "") if isinstance(detail, dict) else ""
    if status == 409 and code == "nothing_to_order":
        stats.refusals[code] += 1
    elif status == 409 and code == "game_over":
        stats.refusals[code] += 1
        s.done = True
    else:
        stats.error(f"PUT orders {status} {code}".rstrip(), str(answer)[:300])
    s.phase = ""
    return False


async def play_closed(c: Client, stats: Stats, stop_at: float, count: int,
                      ready_every: int) -> None:
    """Closed loop: the client's next submission as soon as the last one is answered."""
    idle_rounds = 0
    while time.monotonic() < stop_at and c.made < count:
        active = [s for s in c.seats if not s.done]
        if not active:
            return
        progressed = False
        for s in active:
            if time.monotonic() >= stop_at or c.made >= count:
                return
            progressed |= await submit(c, s, stats, ready_every)
        if progressed:
            idle_rounds = 0
        else:
            # every seat is waiting for the other powers (retreats, adjustments): back off
            idle_rounds += 1
            await asyncio.sleep(min(0.05 * idle_rounds, 0.5))


async def play_open(clients: list[Client], stats: Stats, rate: float, seconds: float,
                    ready_every: int) -> None:
    """Open loop: a submission due every 1/rate seconds, by the clients in turn (each seat of a
    client in turn); a client still busy with its last one sends it when it is free, and the
    wait counts in the latency."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    perf_start = time.perf_counter()
    pairs = itertools.cycle([(c, i) for i in range(max(len(c.seats) for c in clients))
                             for c in clients])
    tasks: set[asyncio.Task[None]] = set()

    async def one(c: Client, s: Seat, due: float) -> None:
        async with c.busy:
            if not await submit(c, s, stats, ready_every, due):
                stats.skipped += 1

    for n in itertools.count():
        at = n / rate
        if at >= seconds:
            break
        delay = start + at - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        c, i = next(pairs)
        while i >= len(c.seats):
            c, i = next(pairs)
        s = c.seats[i]
        if s.done:
            stats.skipped += 1
            continue
        task = asyncio.create_task(one(c, s, perf_start + at))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    if tasks:
        await asyncio.wait(tasks, timeout=60)


async def read_open(clients: list[Client], game_ids: list[int], stats: Stats, rate: float,
                    seconds: float, port: int) -> None:
    """Game views (``GET /games/{id}``) at ``rate`` a second, as spectators on their own
    connections, latency counted from when each was due."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    perf_start = time.perf_counter()
    conns = [RawConnection(port) for _ in range(8)]
    locks = [asyncio.Lock() for _ in conns]
    tasks: set[asyncio.Task[None]] = set()

    async def one(k: int, game: int, due: float) -> None:
        async with locks[k]:
            try:
                status, body = await conns[k].request("GET", f"/games/{game}")
            except HttpError as exc:
                stats.error("transport (read)", str(exc))
                return
        if status != 200:
            stats.error(f"GET game {status}", str(body)[:300])
        else:
            stats.read_latencies.append(time.perf_counter() - due)

    for n in itertools.count():
        at = n / rate
        if at >= seconds:
            break
        delay = start + at - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        task = asyncio.create_task(one(n % len(conns), game_ids[n % len(game_ids)],
                                       perf_start + at))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    if tasks:
        await asyncio.wait(tasks, timeout=60)
    for conn in conns:
        await conn.close()


async def listen(port: int, game: int, stats: Stats, ready: asyncio.Event,
                 stop: asyncio.Event) -> None:
    """A spectator's WebSocket on ``game``: counts the events and keeps the phases it saw."""
    from websockets.asyncio.client import connect

    seen: set[str] = set()
    stats.phase_events.setdefault(game, []).append(seen)
    try:
        async with connect(f"ws://{HOST}:{port}/games/{game}/ws", open_timeout=30) as ws:
            hello = json.loads(await ws.recv())
            stats.events[hello["type"]] += 1
            ready.set()
            while not stop.is_set():
                try:
                    message = await asyncio.wait_for(ws.recv(), 0.5)
                except TimeoutError:
                    continue
                event = json.loads(message)
                stats.events[event["type"]] += 1
                if event["type"] == "phase":
                    seen.update(r["phase"] for r in event["results"])
    except Exception as exc:  # a listener that fails is an error of the run, not a crash
        stats.error(f"websocket {type(exc).__name__}", str(exc))
        ready.set()


async def phases_played(http: httpx.AsyncClient,
                        game_ids: list[int]) -> tuple[int, list[str], dict[int, set[str]]]:
    total = 0
    phases = []
    played: dict[int, set[str]] = {}
    for gid in game_ids:
        history = await checked(await http.get(f"/games/{gid}/history"))
        total += len(history)
        played[gid] = {h["phase"] for h in history}
        phases.append((await checked(await http.get(f"/games/{gid}")))["phase"])
    return total, phases, played


async def run(args: argparse.Namespace, port: int, proc: subprocess.Popen[bytes],
              db_pid: int | None) -> dict[str, Any]:
    base_url = f"http://{HOST}:{port}"
    limits = httpx.Limits(max_connections=40, max_keepalive_connections=40)
    async with httpx.AsyncClient(base_url=base_url, limits=limits,
                                 timeout=httpx.Timeout(60.0)) as http:
        await wait_ready(http, proc, 60)
        t0 = time.perf_counter()
        clients = [Client(f"player{i + 1:03d}") for i in range(args.clients)]
        game_ids = await setup(http, clients, args.games)
        setup_seconds = time.perf_counter() - t0
        rss_after_setup = peak_rss_kib(proc.pid)
        for i, c in enumerate(clients):
            c.conn = RawConnection(port)
            c.rng = random.Random(args.seed + i)
        stats = Stats()
        stop_listening = asyncio.Event()
        listeners = []
        for k in range(args.listeners):
            ready = asyncio.Event()
            listeners.append(asyncio.create_task(
                listen(port, game_ids[k % len(game_ids)], stats, ready, stop_listening)))
            await ready.wait()
        print(f"set up in {setup_seconds:.0f} s; the load runs for {args.seconds:g} s",
              file=sys.stderr, flush=True)
        load0 = load_average()
        server_cpu0 = cpu_seconds(proc.pid)
        db_cpu0 = cpu_seconds(db_pid) if db_pid else None
        client_cpu0 = time.process_time()
        requests0 = RawConnection.requests
        start = time.perf_counter()
        stop_at = time.monotonic() + args.seconds
        work = []
        if args.rate:
            work.append(play_open(clients, stats, args.rate, args.seconds, args.ready_every))
        else:
            work += [play_closed(c, stats, stop_at, args.count, args.ready_every)
                     for c in clients]
        if args.read_rate:
            work.append(read_open(clients, game_ids, stats, args.read_rate, args.seconds, port))
        # bounded in time whatever happens: the loops stop at stop_at, and a request can take
        # at most the client timeout beyond it
        await asyncio.wait_for(asyncio.gather(*work), args.seconds + 120)
        wall = time.perf_counter() - start
        server_cpu1 = cpu_seconds(proc.pid)
        db_cpu1 = cpu_seconds(db_pid) if db_pid else None
        client_cpu = time.process_time() - client_cpu0
        requests = RawConnection.requests - requests0
        load1 = load_average()
        for c in clients:
            assert c.conn is not None
            await c.conn.close()
        await asyncio.sleep(1.0)  # the last phase events reach the listeners
        stop_listening.set()
        await asyncio.gather(*listeners)
        phases, now, played = await phases_played(http, game_ids)
    missed = sum(len(played[g] - seen) for g, sets in stats.phase_events.items()
                 for seen in sets)
    return {"stats": stats, "wall": wall, "phases": phases, "now": now,
            "setup_seconds": setup_seconds, "rss_setup": rss_after_setup,
            "rss": peak_rss_kib(proc.pid), "client_cpu": client_cpu, "requests": requests,
            "server_cpu": None if server_cpu0 is None or server_cpu1 is None
            else server_cpu1 - server_cpu0,
            "db_cpu": None if db_cpu0 is None or db_cpu1 is None else db_cpu1 - db_cpu0,
            "seats": sum(len(c.seats) for c in clients), "missed_phase_events": missed,
            "load_before": load0, "load_after": load1}


def report(args: argparse.Namespace, out: dict[str, Any]) -> list[str]:
    """Print the figures; returns the checks that failed."""
    stats: Stats = out["stats"]
    lat = [x * 1000 for x in stats.latencies]
    legal = [x * 1000 for x in stats.legal_latencies]
    reads = [x * 1000 for x in stats.read_latencies]
    errors = sum(stats.errors.values())
    rate = stats.submissions / out["wall"]
    cpu = out["server_cpu"]
    rows = [
        ("database / workers", f"{args.database} / {args.workers}"),
        ("mode", f"open loop, {args.rate:g}/s" if args.rate else "closed loop"),
        ("clients / games / seats", f"{args.clients} / {args.games} / {out['seats']}"),
        ("duration (s)", f"{out['wall']:.1f}"),
        ("order submissions (200)", f"{stats.submissions}"),
        ("order submissions / s", f"{rate:.1f}"),
        ("submit latency p50 (ms)", f"{percentile(lat, 50):.1f}"),
        ("submit latency p95 (ms)", f"{percentile(lat, 95):.1f}"),
        ("submit latency p99 (ms)", f"{percentile(lat, 99):.1f}"),
        ("submit latency max (ms)", f"{max(lat, default=float('nan')):.1f}"),
        ("legal-orders reads", f"{len(legal)}"),
        ("legal-orders p50 / p99 (ms)",
         f"{percentile(legal, 50):.1f} / {percentile(legal, 99):.1f}"),
        ("game views (read load)", f"{len(reads)}"),
        ("game view p50 / p99 (ms)", f"{percentile(reads, 50):.1f} / {percentile(reads, 99):.1f}"),
        ("submissions marking ready", f"{stats.ready_marks}"),
        ("phases adjudicated", f"{out['phases']}"),
        ("websocket listeners", f"{args.listeners}"),
        ("live events received", f"{sum(stats.events.values())}"),
        ("phase events missed by a listener", f"{out['missed_phase_events']}"),
        ("errors", f"{errors}"),
        ("server log: 5xx answers / tracebacks",
         f"{out['log_5xx'] if args.access_log else 'no log'} / {out['tracebacks']}"),
        ("expected refusals (409)",
         ", ".join(f"{k} {v}" for k, v in sorted(stats.refusals.items())) or "0"),
        ("open loop: due but nothing to order", f"{stats.skipped}"),
        ("lines sent for a stale phase", f"{stats.rejected_lines}"),
        ("server CPU during the run (s)", f"{cpu:.1f}" if cpu is not None else "n/a"),
        ("server CPU per submission (ms)",
         f"{1000 * cpu / stats.submissions:.2f}" if cpu and stats.submissions else "n/a"),
        ("database server CPU (s)",
         f"{out['db_cpu']:.1f}" if out["db_cpu"] is not None else "n/a"),
        ("database server CPU per submission (ms)",
         f"{1000 * out['db_cpu'] / stats.submissions:.2f}"
         if out["db_cpu"] is not None and stats.submissions else "n/a"),
        ("load client CPU during the run (s)", f"{out['client_cpu']:.1f}"),
        ("HTTP requests sent (all kinds)", f"{out['requests']}"),
        ("load client CPU per request / per submission (ms)",
         f"{1000 * out['client_cpu'] / max(out['requests'], 1):.3f} / "
         f"{1000 * out['client_cpu'] / max(stats.submissions, 1):.3f}"),
        ("load average before / after", f"{out['load_before']} / {out['load_after']}"),
        ("server peak RSS, largest process (MiB)",
         f"{out['rss'] / 1024:.0f}" if out["rss"] is not None else "n/a"),
        ("setup: accounts, games, joins (s)", f"{out['setup_seconds']:.1f}"),
    ]
    width = max(len(k) for k, _ in rows)
    print()
    print(f"server load test on {HOST}: {platform.python_version()}, {platform.machine()}, "
          f"{os.cpu_count()} CPUs")
    print("-" * (width + 24))
    for k, v in rows:
        print(f"{k:<{width}}  {v:>20}")
    print("-" * (width + 24))
    print("phases now: " + " ".join(sorted(set(out["now"]))))
    print("live events: " + ", ".join(f"{k} {v}" for k, v in sorted(stats.events.items())))
    if stats.errors:
        print("errors by kind:")
        for k, v in stats.errors.most_common():
            print(f"  {v:6d}  {k}")
        print("first errors:")
        for sample in stats.error_samples:
            print(f"  {sample}")
    failed = []
    if errors or out["tracebacks"] or out["log_5xx"]:
        failed.append(f"{errors} errors, {out['log_5xx']} 5xx, {out['tracebacks']} tracebacks")
    if out["missed_phase_events"]:
        failed.append(f"{out['missed_phase_events']} phase events missed by listeners")
    if args.check_rate is not None and rate < args.check_rate:
        failed.append(f"{rate:.1f} submissions/s < {args.check_rate:g}")
    if args.check_p99 is not None and not percentile(lat, 99) < args.check_p99:
        failed.append(f"p99 {percentile(lat, 99):.1f} ms >= {args.check_p99:g} ms")
    print("checks: " + ("PASS" if not failed else "FAIL: " + "; ".join(failed)))
    return failed


@contextlib.contextmanager
def database(kind: str, tmp: Path) -> Iterator[tuple[str, int | None]]:
    """The database URL for the run and the PID of its server process (None for SQLite)."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp / 'load.db'}", None
    elif kind == "postgres":
        sys.path.insert(0, str(ROOT / "tests"))
        from postgres import throwaway_postgres  # tests/postgres.py

        # fsync on, synchronous_commit off: the settings docs/deploy.md recommends
        with throwaway_postgres(tmp, durable=True) as pg:
            yield pg.url, pg.pid
    else:
        yield kind, None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=100, help="concurrent players (100)")
    parser.add_argument("--games", type=int, default=20, help="seven-player games (20)")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="how long the clients submit orders (20)")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="open loop: order submissions offered per second (0: closed loop)")
    parser.add_argument("--read-rate", type=float, default=0.0,
                        help="game views per second alongside the submissions (0)")
    parser.add_argument("--listeners", type=int, default=0,
                        help="WebSocket spectators, spread over the games (0)")
    parser.add_argument("--count", type=int, default=100_000,
                        help="closed loop: at most this many submissions per client (100000)")
    parser.add_argument("--port", type=int, default=0, help="server port (0: a free one)")
    parser.add_argument("--workers", type=int, default=1, help="server worker processes (1)")
    parser.add_argument("--database", default="sqlite",
                        help="sqlite (a fresh file, the default), postgres (a throwaway "
                        "PostgreSQL server), or an SQLAlchemy URL of an empty database")
    parser.add_argument("--ready-every", type=int, default=10,
                        help="every N-th submission of a client marks the power ready (10)")
    parser.add_argument("--orders-per-minute", type=int, default=1_000_000,
                        help="the server's per-user order rate limit for the test (1000000)")
    parser.add_argument("--check-rate", type=float, default=None,
                        help="fail unless at least this many submissions a second")
    parser.add_argument("--check-p99", type=float, default=None,
                        help="fail unless the submission p99 is below this many ms")
    parser.add_argument("--no-access-log", dest="access_log", action="store_false",
                        help="run the server without its access log (a line per request)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep-log", action="store_true", help="print the server's log path "
                        "and keep it")
    args = parser.parse_args(argv)
    if args.clients < 1 or args.games < 1 or args.ready_every < 1 or args.workers < 1:
        parser.error("--clients, --games, --workers and --ready-every must be at least 1")
    if not 0 < args.seconds <= 3600 or args.count < 1 or args.rate < 0 or args.read_rate < 0:
        parser.error("--seconds must be in (0, 3600], --count at least 1, rates positive")
    if args.clients > args.games * len(POWERS):
        parser.error(f"{args.games} games have only {args.games * len(POWERS)} seats")

    port = args.port or free_port()
    tmp = Path(tempfile.mkdtemp(prefix="realpolitik-load-"))
    os.chmod(tmp, 0o755)  # a throwaway PostgreSQL may run as another user
    log_path = tmp / "server.log"
    env = dict(os.environ, REALPOLITIK_ORDERS_PER_MINUTE=str(args.orders_per_minute),
               # every simulated player signs up from this one address
               REALPOLITIK_SIGNUPS_PER_CLIENT="100000 per hour",
               REALPOLITIK_GAMES_PER_CLIENT="100000 per hour",
               # one gamesmaster creates every game before any is filled
               REALPOLITIK_FORMING_GAMES_PER_USER="100000")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    log_text = ""
    try:
        with database(args.database, tmp) as (url, db_pid):
            cmd = [sys.executable, "-m", "realpolitik", "serve", "--host", HOST, "--port",
                   str(port), "--database", url, "--workers", str(args.workers)]
            if not args.access_log:
                cmd.append("--no-access-log")
            print("server: " + " ".join(cmd), file=sys.stderr)
            with open(log_path, "wb") as log:
                proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env,
                                        cwd=tmp)
            try:
                with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
                    out = runner.run(run(args, port, proc, db_pid))
            except BaseException:
                tail = log_path.read_text(errors="replace").splitlines()[-30:]
                print("server log (last lines):\n  " + "\n  ".join(tail), file=sys.stderr)
                raise
            finally:
                if proc.poll() is None:
                    proc.send_signal(signal.SIGINT)
                    try:
                        proc.wait(15)
                    except subprocess.TimeoutExpired:
                        proc.kill()
                        proc.wait(5)
                log_text = log_path.read_text(errors="replace")
    finally:
        if args.keep_log:
            print(f"server log: {log_path}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    out["tracebacks"] = log_text.count("Traceback (most recent call last)")
    out["log_5xx"] = sum(1 for line in log_text.splitlines()
                         if '" 5' in line and "HTTP/1.1" in line)
    return 1 if report(args, out) else 0


if __name__ == "__main__":
    raise SystemExit(main())
