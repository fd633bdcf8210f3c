"""A log-in flood against the real server: memory, and the latency of ``GET /games`` meanwhile.

Starts ``realpolitik serve`` on 127.0.0.1 with a fresh SQLite file, then sends ``--logins``
(200) wrong log-ins at once, each for a different user name (so the per-account limit never
saves the server any work), while one client reads ``GET /games`` every 50 ms. The per-address
limit on failed log-ins is lifted by default, so the flood costs what a flood from many
addresses would: every attempt checks a password (argon2id, 64 MiB), on at most
``--hash-workers`` threads at once. ``--keep-limits`` keeps the default limits (most attempts
are then refused with 429 at once).

It prints the server's resident memory before and its peak during the flood (``VmHWM``), the
``GET /games`` latency (p50, p99, max) during the flood and at rest (the reference, measured in
the same run), and the answers to the log-ins. Only the loopback address is used; it stops by
itself (``--timeout``) and stops the server.

    .venv/bin/python benchmarks/login_flood.py
    .venv/bin/python benchmarks/login_flood.py --hash-workers 40   # about the old unbounded way
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _memory(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (peak) of a process, in KiB (Linux)."""
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0])
    return out


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def _probe(client: httpx.AsyncClient, stop: asyncio.Event, out: list[float]) -> None:
    while not stop.is_set():
        started = time.perf_counter()
        r = await client.get("/games")
        r.raise_for_status()
        out.append(time.perf_counter() - started)
        await asyncio.sleep(0.05)


async def _run(base: str, logins: int, timeout: float, pid: int) -> dict[str, object]:
    async with httpx.AsyncClient(base_url=base, timeout=timeout) as probe_client:
        # the reference: GET /games at rest
        rest: list[float] = []
        stop = asyncio.Event()
        task = asyncio.create_task(_probe(probe_client, stop, rest))
        await asyncio.sleep(2)
        stop.set()
        await task
        before = _memory(pid)
        with contextlib.suppress(OSError):  # restart the peak (VmHWM): the flood's own
            Path(f"/proc/{pid}/clear_refs").write_text("5")

        during: list[float] = []
        stop = asyncio.Event()
        probe = asyncio.create_task(_probe(probe_client, stop, during))
        answers: collections.Counter[str] = collections.Counter()
        limits = httpx.Limits(max_connections=logins + 10, max_keepalive_connections=0)
        started = time.perf_counter()
        async with httpx.AsyncClient(base_url=base, timeout=timeout, limits=limits) as flood:

            async def attempt(i: int) -> None:
                try:
                    r = await flood.post("/auth/login", json={"username": f"nobody{i}",
                                                              "password": "wrong password"})
                    answers[str(r.status_code)] += 1
                except httpx.HTTPError as exc:
                    answers[type(exc).__name__] += 1

            await asyncio.gather(*(attempt(i) for i in range(logins)))
        flood_seconds = time.perf_counter() - started
        stop.set()
        await probe
        after = _memory(pid)
    return {"rest": rest, "during": during, "answers": answers, "before": before,
            "after": after, "flood_seconds": flood_seconds}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--logins", type=int, default=200)
    parser.add_argument("--hash-workers", type=int, default=None,
                        help="REALPOLITIK_HASH_WORKERS for the server (default: its own, 2)")
    parser.add_argument("--keep-limits", action="store_true",
                        help="keep the per-address limit on failed log-ins")
    parser.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args()

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        if args.hash_workers is not None:
            env["REALPOLITIK_HASH_WORKERS"] = str(args.hash_workers)
        if not args.keep_limits:
            env["REALPOLITIK_LOGIN_FAILURES_PER_CLIENT"] = "1000000 per minute"
        code = (f"from realpolitik.server import serve; serve('127.0.0.1', {port}, "
                f"'sqlite:///{tmp}/flood.db', log_level='warning')")
        proc = subprocess.Popen([sys.executable, "-c", code], env=env, cwd=tmp)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    httpx.get(f"{base}/games", timeout=1)
                    break
                except httpx.TransportError:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        print("the server did not start", file=sys.stderr)
                        return 1
                    time.sleep(0.1)
            r = httpx.post(f"{base}/auth/signup", json={"username": "owner",
                                                        "password": "correct horse"})
            owner = {"Authorization": f"Bearer {r.json()['token']}"}
            for i in range(20):  # something to list
                httpx.post(f"{base}/games", json={"name": f"game {i}"}, headers=owner)
            result = asyncio.run(_run(base, args.logins, args.timeout, proc.pid))
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    rest, during = result["rest"], result["during"]
    assert isinstance(rest, list) and isinstance(during, list)
    before, after = result["before"], result["after"]
    assert isinstance(before, dict) and isinstance(after, dict)

    def ms(values: list[float], q: float) -> str:
        return f"{_percentile(values, q) * 1000:.0f} ms"

    workers = args.hash_workers or 2
    print(f"log-in flood: {args.logins} concurrent wrong log-ins (distinct user names), "
          f"hash workers {workers}, per-address limit "
          f"{'kept' if args.keep_limits else 'lifted'}")
    print(f"  log-in answers: {dict(result['answers'])} in {result['flood_seconds']:.1f} s")
    print(f"  server memory: {before['VmRSS'] / 1024:.0f} MiB before, peak "
          f"{after['VmHWM'] / 1024:.0f} MiB (VmHWM), {after['VmRSS'] / 1024:.0f} MiB after")
    print(f"  GET /games at rest:      p50 {ms(rest, 0.5)}, p99 {ms(rest, 0.99)}, "
          f"max {ms(rest, 1.0)} ({len(rest)} requests)")
    print(f"  GET /games during flood: p50 {ms(during, 0.5)}, p99 {ms(during, 0.99)}, "
          f"max {ms(during, 1.0)} ({len(during)} requests); p99 ratio to rest "
          f"{_percentile(during, 0.99) / _percentile(rest, 0.99):.1f}x")
    print(f"  mean GET /games during flood: {statistics.mean(during) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
