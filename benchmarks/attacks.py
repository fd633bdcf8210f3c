"""The attacks of issue 34 against a real server on loopback (a benchmark, not run in CI).

    python benchmarks/attacks.py                                 # SQLite, one process
    python benchmarks/attacks.py --database postgres --workers 2
    python benchmarks/attacks.py --database both                 # both, one after the other
    python benchmarks/attacks.py --only deep-json,order-text --seconds 5 --no-saturation

It starts ``realpolitik serve`` as ``benchmarks/server_load.py`` does (a fresh SQLite file, or
a throwaway PostgreSQL server), with the server's own limits, except that the sign-ups and new
games of the set-up (all from 127.0.0.1) are not limited. Ten other users meanwhile play as
people do, in an open loop of 20 requests a second (a game view, their orders, the press of
their game), each latency counted from when the request was due, from a process of their own.

Each attack then runs for ``--seconds`` (8), one after the other, and the report gives, per
attack: the requests it sent, its answers 5xx (and those of the other users), the growth of the
server's resident memory (all its processes, from before the attack to after it) and the p50
and p99 of the other users' requests while it ran. The attacks:

==================  =============================================================================
deep-json           log-ins whose password nests 482 arrays, order submissions nested 5000 deep
order-text          the longest order text accepted, ``"x\\n" * 3999``, twice a second by one player
random-ids          order submissions, views and press reads for random game ids, four at a time
big-head            connections sending a 1 MiB header
slow-head           300 connections sending a header line every 2 s (open after 12 s: counted)
websockets          200 spectator sockets from one address, and 16 MiB messages on 8 of them
nul                 NUL characters in log-ins, sign-ups, game names, press and orders
counters            ``since``, ``after`` and ``press_after`` past 32 and 64 bits
lobby               one account creating games until refused (the real game still listed first)
press               10 readers of a game with 600 messages of 4,000 characters
login-flood         wrong passwords for one account from 127.0.0.1; the owner logs in from
                    127.0.0.2 meanwhile (its latency is printed)
==================  =============================================================================

Last (unless ``--no-saturation``), ``benchmarks/server_load.py`` runs its closed loop (100
clients, 20 games, ``--saturation-seconds``) on a server of the same kind, and the p50 and p99
of its order submissions are printed with their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import (  # noqa: E402
    HOST,
    ROOT,
    database,
    event_loop_factory,
    free_port,
    percentile,
    process_tree,
    wait_ready,
)

PASSWORD = "attack bench pw"
OTHERS = 10
OTHERS_RATE = 20.0  # requests a second from the other users together


def rss_mib(pid: int) -> float:
    """The resident memory of the process and its children (VmRSS), in MiB."""
    total = 0
    for p in process_tree(pid):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


@dataclass
class Tally:
    """What one side (the attack, or the other users) got during an attack."""

    sent: int = 0
    fivexx: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)

    def count(self, status: int, latency: float | None = None) -> None:
        self.sent += 1
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if status >= 500:
            self.fivexx += 1
        if latency is not None:
            self.latencies.append(latency)


@dataclass
class World:
    port: int
    base: str
    victim_game: int
    others: list[tuple[str, int, str]]  # token, game, power
    attacker: str
    attacker_game: int
    press_game: int
    notes: dict[str, str] = field(default_factory=dict)

    def url(self, path: str) -> str:
        return self.base + path


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def signup(http: httpx.AsyncClient, name: str) -> str:
    r = await http.post("/auth/signup", json={"username": name, "password": PASSWORD})
    r.raise_for_status()
    return str(r.json()["token"])


async def make_world(http: httpx.AsyncClient, port: int) -> World:
    """The other users in seven-player games of their own, an attacker in a game of its own,
    and a game with 600 long press messages."""
    tokens = [await signup(http, f"player{i}") for i in range(OTHERS)]
    attacker = await signup(http, "attacker")
    others: list[tuple[str, int, str]] = []
    games = []
    for i in range(0, OTHERS, 5):
        r = await http.post("/games", json={"name": f"real game {i}"}, headers=bearer(tokens[i]))
        games.append(r.json()["id"])
    powers = ("austria", "england", "france", "germany", "italy")
    for i, token in enumerate(tokens):
        game, power = games[i // 5], powers[i % 5]
        r = await http.post(f"/games/{game}/join", json={"power": power}, headers=bearer(token))
        r.raise_for_status()
        others.append((token, game, power))
    for game in games:  # the empty seats to bots, so the games start
        for power in ("russia", "turkey"):
            await http.post(f"/games/{game}/gm/bot", json={"power": power, "bot": "hold"},
                            headers=bearer(tokens[games.index(game) * 5]))
        await http.post(f"/games/{game}/gm/start", headers=bearer(tokens[games.index(game) * 5]))
    r = await http.post("/games", json={"name": "mine", "players": "2", "join_as": "england",
                                        "fill_with_bots": "hold"}, headers=bearer(attacker))
    attacker_game = int(r.json()["id"])
    press_game = games[0]
    body = "press " * 666  # about 4,000 characters
    gm = bearer(tokens[0])
    for _ in range(600):
        r = await http.post(f"/games/{press_game}/press", json={"body": body}, headers=gm)
        r.raise_for_status()
    return World(port, str(http.base_url).rstrip("/"), games[0], others, attacker,
                 attacker_game, press_game)


async def other_users(base: str, others: list[tuple[str, int, str]], out: Path) -> None:
    """The other users, in an open loop, until killed: each request's latency counts from when
    it was due. Every answer is written to ``out`` as ``due status latency`` (wall-clock due
    time), for the attack that ran then. This runs in a process of its own, so that the
    attacks' own client work (16 MiB messages, long answers read) delays none of it."""
    rng = random.Random(0)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        pending: set[asyncio.Task[None]] = set()
        started_wall, started = time.time(), time.monotonic()
        n = 0
        with open(out, "a", buffering=1) as log:

            async def one(due: float, token: str, game: int, power: str, kind: int) -> None:
                try:
                    if kind == 0:
                        r = await http.get(f"/games/{game}", headers=bearer(token))
                    elif kind == 1:
                        r = await http.put(f"/games/{game}/orders", headers=bearer(token),
                                           json={"power": power, "text": "hold everything"})
                    else:
                        r = await http.get(f"/games/{game}/press?limit=20",
                                           headers=bearer(token))
                    status = r.status_code
                except httpx.HTTPError:
                    status = 599
                log.write(f"{started_wall + due - started:.3f} {status} "
                          f"{time.monotonic() - due:.4f}\n")

            while True:
                due = started + n / OTHERS_RATE
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                token, game, power = others[n % len(others)]
                task = asyncio.create_task(one(due, token, game, power, rng.randrange(3)))
                pending.add(task)
                task.add_done_callback(pending.discard)
                n += 1


def others_between(out: Path, start: float, end: float) -> Tally:
    """The other users' answers to the requests due between ``start`` and ``end``."""
    tally = Tally()
    for line in out.read_text().splitlines():
        due, status, latency = line.split()
        if start <= float(due) < end:
            tally.count(int(status), float(latency))
    return tally


# -- the attacks ---------------------------------------------------------------------------------

Attack = Callable[[World, Tally, float], Awaitable[None]]


async def _status(call: Awaitable[httpx.Response]) -> int:
    try:
        return (await call).status_code
    except httpx.HTTPError:
        return 599


async def repeat(until: float, tally: Tally, send: Callable[[], Awaitable[int]],
                 every: float = 0.0, parallel: int = 1) -> None:
    async def loop() -> None:
        while time.monotonic() < until:
            tally.count(await send())
            if every:
                await asyncio.sleep(every)
    await asyncio.gather(*(loop() for _ in range(parallel)))


async def deep_json(world: World, tally: Tally, until: float) -> None:
    login = ('{"username": "a", "password": ' + "[" * 482 + "]" * 482 + "}").encode()
    token, game, power = world.others[0]
    orders = ('{"power": "' + power + '", "text": ' + "[" * 5000 + "]" * 5000 + "}").encode()
    json_type = {"Content-Type": "application/json"}
    async with httpx.AsyncClient(base_url=world.base, timeout=30) as http:
        flip = [0]

        async def send() -> int:
            flip[0] ^= 1
            if flip[0]:
                return await _status(http.post("/auth/login", content=login, headers=json_type))
            return await _status(http.put(f"/games/{game}/orders", content=orders,
                                          headers={**json_type, **bearer(token)}))
        await repeat(until, tally, send, parallel=2)


async def order_text(world: World, tally: Tally, until: float) -> None:
    body = {"power": "england", "text": "x\n" * 3999}
    async with httpx.AsyncClient(base_url=world.base, timeout=30) as http:
        await repeat(until, tally, lambda: _status(http.put(
            f"/games/{world.attacker_game}/orders", json=body, headers=bearer(world.attacker))),
            every=0.5)


async def random_ids(world: World, tally: Tally, until: float) -> None:
    rng = random.Random(1)
    async with httpx.AsyncClient(base_url=world.base, timeout=30) as http:
        async def send() -> int:
            game = rng.randrange(10**6, 2**62)
            kind = rng.randrange(3)
            if kind == 0:
                return await _status(http.put(f"/games/{game}/orders", headers=bearer(
                    world.attacker), json={"power": "france", "text": "A Par H"}))
            if kind == 1:
                return await _status(http.get(f"/games/{game}"))
            return await _status(http.get(f"/games/{game}/press"))
        await repeat(until, tally, send, parallel=4)


async def _raw_status(port: int, data: bytes, read_timeout: float = 10) -> int:
    try:
        reader, writer = await asyncio.open_connection(HOST, port)
    except OSError:
        return 599
    try:
        writer.write(data)
        with contextlib.suppress(OSError, ConnectionError):
            await writer.drain()
        line = await asyncio.wait_for(reader.readline(), read_timeout)
        match = re.match(rb"HTTP/1\.1 (\d{3})", line)
        return int(match.group(1)) if match else 0  # 0: closed without an answer
    except (TimeoutError, OSError, ConnectionError):
        return 0
    finally:
        writer.close()
        with contextlib.suppress(OSError, ConnectionError):
            await writer.wait_closed()


async def big_head(world: World, tally: Tally, until: float) -> None:
    head = b"GET /games HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (1 << 20) + b"\r\n\r\n"

    async def send() -> int:
        return await _raw_status(world.port, head)
    await repeat(until, tally, send, parallel=4)


async def slow_head(world: World, tally: Tally, until: float) -> None:
    opened: list[asyncio.StreamWriter] = []
    for _ in range(300):
        with contextlib.suppress(OSError):
            _, writer = await asyncio.open_connection(HOST, world.port)
            writer.write(b"GET /games HTTP/1.1\r\n")
            opened.append(writer)
    started = time.monotonic()
    while time.monotonic() < max(until, started + 12):
        for writer in opened:
            if not writer.is_closing():
                with contextlib.suppress(OSError, ConnectionError):
                    writer.write(b"X-Slow: 1\r\n")
        await asyncio.sleep(2)
    still_open = 0
    for writer in opened:
        with contextlib.suppress(OSError, ConnectionError):
            writer.write(b"X-Slow: 1\r\n")
            await writer.drain()
    await asyncio.sleep(0.5)
    for writer in opened:
        transport = writer.transport
        if not transport.is_closing() and not getattr(transport, "_conn_lost", 0):
            still_open += 1
        writer.close()
        tally.count(0)
    world.notes["slow-head"] = f"{still_open} of {len(opened)} open after 12 s"


async def websockets_attack(world: World, tally: Tally, until: float) -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    url = f"ws://{HOST}:{world.port}/games/{world.victim_game}/ws"
    hello, refused = 0, 0
    sockets = []
    for _ in range(200):
        try:
            ws = await connect(url, max_size=2**20, open_timeout=10)
        except (OSError, InvalidStatus):
            tally.count(599)
            continue
        sockets.append(ws)
        try:
            first = await asyncio.wait_for(ws.recv(), 5)
            hello += '"hello"' in str(first)
            tally.count(200)
        except ConnectionClosed as exc:
            refused += exc.rcvd is not None and exc.rcvd.code == 1008
            tally.count(429)
        except TimeoutError:
            tally.count(0)
    too_big = 0
    for ws in [s for s in sockets if s.state.name == "OPEN"][:8]:
        with contextlib.suppress(ConnectionClosed, OSError):
            await ws.send("x" * (16 << 20))
            await asyncio.wait_for(ws.recv(), 5)
        with contextlib.suppress(asyncio.TimeoutError, ConnectionClosed):
            await asyncio.wait_for(ws.wait_closed(), 5)
        too_big += ws.close_code == 1009
        tally.count(413)
    while time.monotonic() < until:
        await asyncio.sleep(0.2)
    for ws in sockets:
        with contextlib.suppress(Exception):
            await ws.close()
    world.notes["websockets"] = (f"{hello} of 200 let in, {refused} closed 1008; "
                                 f"{too_big} of 8 closed 1009 for a 16 MiB message")


async def nul(world: World, tally: Tally, until: float) -> None:
    token, game, power = world.others[1]
    calls = [
        ("POST", "/auth/login", {"username": "a\u0000b", "password": "x"}, {}),
        ("POST", "/auth/signup", {"username": "a\u0000b", "password": PASSWORD}, {}),
        ("POST", "/games", {"name": "a\u0000b"}, bearer(world.attacker)),
        ("POST", f"/games/{game}/press", {"body": "a\u0000b"}, bearer(token)),
        ("PUT", f"/games/{game}/orders", {"power": power, "text": "a\u0000b"}, bearer(token)),
    ]
    async with httpx.AsyncClient(base_url=world.base, timeout=30) as http:
        i = [0]

        async def send() -> int:
            method, path, body, headers = calls[i[0] % len(calls)]
            i[0] += 1
            return await _status(http.request(method, path, json=body, headers=headers))
        await repeat(until, tally, send, parallel=2)


async def counters(world: World, tally: Tally, until: float) -> None:
    token, game, power = world.others[2]
    paths = [f"/games/{game}/history?since=2147483648", f"/games/{game}/press?after=2147483648",
             f"/games/{game}/turn?power={power}&since=9223372036854775808",
             f"/games/{game}/turn?power={power}&press_after=9223372036854775808",
             f"/games/{game}/turn", "/static/%00"]
    async with httpx.AsyncClient(base_url=world.base, timeout=30) as http:
        i = [0]

        async def send() -> int:
            i[0] += 1
            return await _status(http.get(paths[i[0] % len(paths)], headers=bearer(token)))
        await repeat(until, tally, send, parallel=2)


async def lobby(world: World, tally: Tally, until: float) -> None:
    async with httpx.AsyncClient(base_url=world.base, timeout=30) as http:
        refused = 0
        while time.monotonic() < until:
            status = await _status(http.post("/games", json={"name": "spam"},
                                             headers=bearer(world.attacker)))
            tally.count(status)
            refused += status == 429
            if refused > 20:
                break
        listed = (await http.get("/games")).json()
        first = listed[0]["id"] if listed else None
        made = tally.statuses.get(201, 0)
        real = first in {game for _, game, _ in world.others}
        world.notes["lobby"] = (f"{made} games made, then 429; the first game listed is "
                                f"{'a real one' if real else f'game {first}'}")
        while time.monotonic() < until:
            await asyncio.sleep(0.2)


async def press_reads(world: World, tally: Tally, until: float) -> None:
    async with httpx.AsyncClient(base_url=world.base, timeout=30) as http:
        await repeat(until, tally, lambda: _status(http.get(f"/games/{world.press_game}/press")),
                     parallel=10)


async def login_flood(world: World, tally: Tally, until: float) -> None:
    owner = "player3"
    async with httpx.AsyncClient(base_url=world.base, timeout=60) as http:
        flood = asyncio.create_task(repeat(until, tally, lambda: _status(http.post(
            "/auth/login", json={"username": owner, "password": "wrong guess"})), parallel=4))
        await asyncio.sleep(2)
        transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
        async with httpx.AsyncClient(base_url=world.base, timeout=60,
                                     transport=transport) as elsewhere:
            started = time.monotonic()
            status = await _status(elsewhere.post("/auth/login", json={
                "username": owner, "password": PASSWORD}))
            world.notes["login-flood"] = (f"the owner, from 127.0.0.2: {status} in "
                                          f"{time.monotonic() - started:.1f} s")
        await flood


ATTACKS: dict[str, Attack] = {
    "deep-json": deep_json, "order-text": order_text, "random-ids": random_ids,
    "big-head": big_head, "slow-head": slow_head, "websockets": websockets_attack, "nul": nul,
    "counters": counters, "lobby": lobby, "press": press_reads, "login-flood": login_flood,
}


# -- the run -------------------------------------------------------------------------------------

@dataclass
class Row:
    name: str
    attack: Tally
    others: Tally
    rss_growth: float


async def run_attacks(args: argparse.Namespace, port: int, proc: subprocess.Popen[bytes],
                      tmp: Path) -> tuple[list[Row], dict[str, str], float, float]:
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=60) as http:
        await wait_ready(http, proc, 60)
        world = await make_world(http, port)
    answers = tmp / "others.txt"
    answers.touch()
    world_file = tmp / "world.json"
    world_file.write_text(json.dumps({"base": world.base, "others": world.others}))
    others = subprocess.Popen([sys.executable, __file__, "--others", str(world_file),
                               str(answers)])
    try:
        await asyncio.sleep(3)  # warm up
        rss_start = rss_mib(proc.pid)
        rows = []
        for name in args.only:
            before = rss_mib(proc.pid)
            tally = Tally()
            start = time.time()
            await ATTACKS[name](world, tally, time.monotonic() + args.seconds)
            end = time.time()
            await asyncio.sleep(2)  # the last answers of the others come in
            rows.append(Row(name, tally, others_between(answers, start, end),
                            rss_mib(proc.pid) - before))
            print(f"  {name}: done", file=sys.stderr)
    finally:
        others.terminate()
        others.wait()
    return rows, world.notes, rss_start, rss_mib(proc.pid)


def report(kind: str, workers: int, rows: list[Row], notes: dict[str, str], rss_start: float,
           rss_end: float) -> int:
    print(f"\nattacks on {kind}, {workers} worker(s): others = {OTHERS} users at "
          f"{OTHERS_RATE:g} requests/s (views, orders, press)")
    head = (f"{'attack':<12} {'sent':>6} {'5xx':>4} {'others':>6} {'others 5xx':>10} "
            f"{'RSS +MiB':>8} {'others p50 ms':>13} {'others p99 ms':>13}")
    print(head)
    print("-" * len(head))
    bad = 0
    for row in rows:
        lat = [x * 1000 for x in row.others.latencies]
        print(f"{row.name:<12} {row.attack.sent:>6} {row.attack.fivexx:>4} {row.others.sent:>6} "
              f"{row.others.fivexx:>10} {row.rss_growth:>8.1f} {percentile(lat, 50):>13.1f} "
              f"{percentile(lat, 99):>13.1f}")
        bad += row.attack.fivexx + row.others.fivexx
    print("-" * len(head))
    print(f"server RSS: {rss_start:.0f} MiB before the attacks, {rss_end:.0f} MiB after "
          f"(+{rss_end - rss_start:.0f})")
    for name, note in notes.items():
        print(f"  {name}: {note}")
    statuses = {row.name: dict(sorted(row.attack.statuses.items())) for row in rows}
    print("  answers to the attacks by status: " + "; ".join(
        f"{name} {codes}" for name, codes in statuses.items()))
    for row in rows:
        failed = {k: v for k, v in row.others.statuses.items() if k >= 500}
        if failed:  # 599: no answer (the connection failed or 30 s passed)
            print(f"  the other users' failures during {row.name}: {failed}")
    return bad


def saturation(kind: str, workers: int, seconds: float) -> None:
    cmd = [sys.executable, str(ROOT / "benchmarks" / "server_load.py"), "--clients", "100",
           "--games", "20", "--seconds", str(seconds), "--database", kind, "--workers",
           str(workers)]
    print(f"\nclosed loop at saturation: {' '.join(cmd[1:])}")
    out = subprocess.run(cmd, capture_output=True, text=True)
    figures = {}
    for line in out.stdout.splitlines():
        for key in ("order submissions / s", "submit latency p50 (ms)",
                    "submit latency p99 (ms)", "errors"):
            if line.startswith(key):
                figures[key] = line[len(key):].strip()
                print("  " + line.strip())
    try:
        ratio = float(figures["submit latency p99 (ms)"]) / float(figures[
            "submit latency p50 (ms)"])
        print(f"  p99 / p50 = {ratio:.2f}")
    except (KeyError, ValueError, ZeroDivisionError):
        print("  the load test failed:\n" + out.stdout[-2000:] + out.stderr[-2000:])


def one_database(args: argparse.Namespace, kind: str) -> int:
    port = free_port()
    tmp = Path(tempfile.mkdtemp(prefix="realpolitik-attacks-"))
    os.chmod(tmp, 0o755)  # a throwaway PostgreSQL may run as another user
    workers = args.workers if kind != "sqlite" else 1
    env = dict(os.environ, REALPOLITIK_SIGNUPS_PER_CLIENT="100000 per hour",
               REALPOLITIK_GAMES_PER_CLIENT="100000 per hour",
               REALPOLITIK_PRESS_PER_MINUTE="100000")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    bad = 0
    try:
        with database(kind, tmp) as (url, _db_pid):
            cmd = [sys.executable, "-m", "realpolitik", "serve", "--host", HOST, "--port",
                   str(port), "--database", url, "--workers", str(workers)]
            with open(tmp / "server.log", "wb") as log:
                proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env,
                                        cwd=tmp)
            try:
                with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
                    rows, notes, start, end = runner.run(run_attacks(args, port, proc, tmp))
            finally:
                proc.send_signal(signal.SIGINT)
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    proc.kill()
            text = (tmp / "server.log").read_text(errors="replace")
            bad = report(kind, workers, rows, notes, start, end)
            print(f"server log: {text.count('Traceback')} tracebacks, "
                  f"{sum(1 for line in text.splitlines() if ' 500 ' in line)} lines with 500")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.saturation:
        saturation(kind, workers, args.saturation_seconds)
    return bad


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--others"]:  # the other users' process (run_attacks starts it)
        world = json.loads(Path(argv[1]).read_text())
        others = [(str(t), int(g), str(p)) for t, g, p in world["others"]]
        with contextlib.suppress(KeyboardInterrupt), \
                asyncio.Runner(loop_factory=event_loop_factory()) as runner:
            signal.signal(signal.SIGTERM, lambda *_: os._exit(0))  # no clean-up needed
            runner.run(other_users(world["base"], others, Path(argv[2])))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default="sqlite", choices=("sqlite", "postgres", "both"))
    parser.add_argument("--workers", type=int, default=2,
                        help="server workers on PostgreSQL (2; SQLite has one)")
    parser.add_argument("--seconds", type=float, default=8.0, help="per attack (8)")
    parser.add_argument("--only", default=",".join(ATTACKS),
                        help="the attacks to run, by name, comma-separated (all)")
    parser.add_argument("--no-saturation", dest="saturation", action="store_false",
                        help="skip the closed-loop load test at the end")
    parser.add_argument("--saturation-seconds", type=float, default=20.0)
    args = parser.parse_args(argv)
    args.only = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = [name for name in args.only if name not in ATTACKS]
    if unknown:
        parser.error(f"unknown attacks {unknown}: choose among {', '.join(ATTACKS)}")
    kinds = ["sqlite", "postgres"] if args.database == "both" else [args.database]
    bad = sum(one_database(args, kind) for kind in kinds)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
