"""What opening many idle WebSocket connections at once costs the tables already playing.

One ``tapete serve`` in a process of its own (SQLite in a fresh data directory, or, with
``--postgres URL --redis URL``, one node of a room over PostgreSQL and Redis, where presence is
published). ``--tables`` tables play meanwhile (three scripted players each, the players of
``bench_room.py``, one action every ``--pace`` seconds), and at each a spectator sends a
``ping`` every 20 ms and times its ``pong``: the latency the other tables see.

Then ``--connections`` idle connections are opened as fast as the client can (``--gate`` at a
time), each with an identity of its own (their cookies fetched before), as spectators of one
more table nobody plays (``--to room``, the default) or to the practice socket ``/ws``
(``--to practice``). They only read. Reported:

- the pings' round trips, p50 / p99 / max: calm (``--calm`` seconds before), during the burst
  (from the first connection's start to the last one open), and once the connections are
  all open and idle (``--calm`` seconds after);
- the burst's length, and the server's CPU over it per connection opened (its user + system
  time; the tables' own play counts too: it is measured calm, per second, and reported apart);
- with ``--profile FILE``: the server's event loop profiled (cProfile) during the burst alone,
  its top functions printed (cumulative and own time) and the whole written to FILE.

    PYTHONPATH=src python benchmarks/bench_connect.py [--connections 500] [--tables 2]
        [--to room|practice] [--profile /tmp/connect.prof] [--json out.json]
        [--postgres URL --redis URL]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import pstats
import queue
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_room import (  # noqa: E402
    SRC,
    Player,
    Stats,
    cpu_seconds,
    free_port,
    ms_of,
    pg_schema,
    raise_fd_limit,
    settle,
)

TABLE = {"act_ms": 60_000, "bank_ms": 0, "bots": False, "seats": 6}
PING_EVERY = 0.02

# the server: ``tapete serve`` with a profiler switched on by SIGUSR1 and off (and written to
# argv[1]) by SIGUSR2, in the event loop's thread (a signal's handler runs there)
BOOT = """
import cProfile, signal, sys, time
out, prof = sys.argv[1], cProfile.Profile(time.thread_time)  # CPU time, not the machine's
def on(*_):
    prof.enable()
def off(*_):
    prof.disable()
    prof.dump_stats(out)
signal.signal(signal.SIGUSR1, on)
signal.signal(signal.SIGUSR2, off)
from tapete.cli import main
raise SystemExit(main(sys.argv[2:]))
"""


class Server:
    def __init__(self, data: Path, profile: Path, where: list[str]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = data / "server.log"
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(SRC), env.get("PYTHONPATH")) if p)
        self.log = open(self.log_path, "ab")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [sys.executable, "-c", BOOT, str(profile), "serve", "--port", str(self.port),
             *where], stdout=self.log, stderr=self.log, env=env, preexec_fn=raise_fd_limit)
        t0 = time.monotonic()
        while time.monotonic() - t0 < 300:
            try:
                httpx.get(f"{self.url}/api/me", timeout=5)
                return
            except httpx.HTTPError:
                if self.proc.poll() is not None:
                    raise SystemExit("the server died:\n" + self.tail()) from None
                time.sleep(0.05)
        raise SystemExit("the server did not start:\n" + self.tail())

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(30)
        self.log.close()

    def tail(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")[-3000:]


class Pinger:
    """A spectator at a playing table: a ping every 20 ms, its pong's round trip kept in
    the phase it was sent in."""

    def __init__(self, url: str, table: str, cookie: str) -> None:
        self.ws_url = url.replace("http://", "ws://") + f"/ws/t/{table}"
        self.cookie = cookie
        self.phase = "warm"
        self.rtts: dict[str, list[float]] = {}
        self.sent_at: float | None = None
        self.sent_phase = "warm"

    async def run(self, stop: asyncio.Event) -> None:
        from websockets.asyncio.client import connect

        async with connect(self.ws_url, max_size=None, ping_timeout=None, open_timeout=120,
                           additional_headers={"Cookie": f"tapete_id={self.cookie}"}) as ws:
            got = asyncio.Event()

            async def read() -> None:
                async for frame in ws:
                    if '"pong"' in frame[:40] and self.sent_at is not None:
                        rtt = time.monotonic() - self.sent_at
                        self.rtts.setdefault(self.sent_phase, []).append(rtt)
                        self.sent_at = None
                        got.set()

            reader = asyncio.ensure_future(read())
            try:
                while not stop.is_set():
                    got.clear()
                    self.sent_phase, self.sent_at = self.phase, time.monotonic()
                    await ws.send('{"type":"ping"}')
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(10):
                            await got.wait()
                    await asyncio.sleep(PING_EVERY)
            finally:
                reader.cancel()


async def cookies(url: str, n: int) -> list[str]:
    """``n`` new identities (a client each: one that keeps its cookie gets no new one)."""
    gate = asyncio.Semaphore(50)

    async def one() -> str:
        async with gate, httpx.AsyncClient(timeout=120) as c:
            return str((await c.get(f"{url}/")).cookies["tapete_id"])

    return list(await asyncio.gather(*(one() for _ in range(n))))


async def open_table(url: str, cookie: str) -> str:
    async with httpx.AsyncClient(timeout=60, cookies={"tapete_id": cookie}) as c:
        r = await c.post(f"{url}/api/room/tables", json=TABLE)
        if r.status_code != 201:
            raise SystemExit(f"the room refused a table: {r.status_code} {r.text}")
        return str(r.json()["table"])


def burst_process(ws_url: str, idle: list[str], gate: int, go: Any, back: Any) -> None:
    """Once told, open a connection for each identity of ``idle``, ``gate`` at a time, and
    report how many opened; hold them (reading what comes) until told to close them."""
    asyncio.run(_burst(ws_url, idle, gate, go, back))


async def _burst(ws_url: str, idle: list[str], gate: int, go: Any, back: Any) -> None:
    from websockets.asyncio.client import connect

    sem = asyncio.Semaphore(gate)
    opened: list[Any] = []
    failed: dict[str, int] = {}
    readers: list[asyncio.Future[None]] = []

    async def drain(ws: Any) -> None:
        with contextlib.suppress(Exception):
            async for _ in ws:
                pass

    async def open_one(cookie: str) -> None:
        async with sem:
            try:
                ws = await connect(ws_url, max_size=None, open_timeout=120, ping_timeout=None,
                                   additional_headers={"Cookie": f"tapete_id={cookie}"})
            except Exception as exc:
                failed[type(exc).__name__] = failed.get(type(exc).__name__, 0) + 1
                return
            opened.append(ws)
            readers.append(asyncio.ensure_future(drain(ws)))

    back.put("ready")
    await asyncio.to_thread(go.get)
    await asyncio.gather(*(open_one(c) for c in idle))
    back.put((len(opened), failed))
    await asyncio.to_thread(go.get)
    for ws in opened:
        with contextlib.suppress(Exception):
            await ws.close()
    for r in readers:
        r.cancel()


async def client(args: argparse.Namespace, server: Server) -> dict[str, Any]:
    url = server.url
    hosts = await cookies(url, args.tables + 1)
    tables = [await open_table(url, c) for c in hosts[: args.tables]]
    idle_table = await open_table(url, hosts[-1])
    seats = await cookies(url, 3 * args.tables + args.tables)
    stats, stop = Stats(), asyncio.Event()
    rng = random.Random(2026)
    gate = asyncio.Semaphore(20)
    players = [Player(url, t, f"P{s}", seats[3 * i + s], rng.randrange(2**32), args.pace,
                      stats, s == 0, {"dealt": False}, False, "")
               for i, t in enumerate(tables) for s in range(3)]
    pingers = [Pinger(url, t, seats[3 * args.tables + i]) for i, t in enumerate(tables)]
    tasks = [asyncio.ensure_future(p.play(stop, gate)) for p in players]
    tasks += [asyncio.ensure_future(p.run(stop)) for p in pingers]
    idle_cookies = await cookies(url, args.connections)
    end = time.monotonic() + 120
    while stats.first_hands < args.tables and time.monotonic() < end:
        await asyncio.sleep(0.1)

    def phase(name: str) -> None:
        for p in pingers:
            p.phase = name

    await asyncio.sleep(2.0)  # the tables play
    phase("calm")
    c0, t0 = cpu_seconds(server.proc.pid), time.monotonic()
    await asyncio.sleep(args.calm)
    calm_cpu_s = (cpu_seconds(server.proc.pid) - c0) / (time.monotonic() - t0)

    # the burst, from a process of its own (opening connections costs a client's loop too:
    # the pings must not wait for it)
    path = f"/ws/t/{idle_table}" if args.to == "room" else "/ws"
    ws_url = url.replace("http://", "ws://") + path
    ctx = mp.get_context("spawn")
    go, back = ctx.Queue(), ctx.Queue()
    burster = ctx.Process(target=burst_process, args=(ws_url, idle_cookies, args.gate, go, back))
    burster.start()
    assert back.get(timeout=120) == "ready"
    if args.profile:
        os.kill(server.proc.pid, signal.SIGUSR1)
    phase("burst")
    c0, t0 = cpu_seconds(server.proc.pid), time.monotonic()
    go.put("open")
    while True:
        with contextlib.suppress(queue.Empty):
            opened, failed = back.get_nowait()
            break
        await asyncio.sleep(0.005)
    burst_s = time.monotonic() - t0
    burst_cpu = cpu_seconds(server.proc.pid) - c0
    phase("after")
    if args.profile:
        os.kill(server.proc.pid, signal.SIGUSR2)
    await asyncio.sleep(args.calm)
    phase("done")
    go.put("close")
    burster.join(60)
    stop.set()
    await asyncio.wait(tasks, timeout=30)
    rtts: dict[str, list[float]] = {}
    for p in pingers:
        for k, v in p.rtts.items():
            rtts.setdefault(k, []).extend(v)
    play_cpu = calm_cpu_s * burst_s  # what the tables' own play took of the burst's CPU
    return {
        "connections": args.connections, "opened": opened, "failed": failed,
        "to": args.to, "tables": args.tables, "nodes": bool(args.redis),
        "ping_ms": {k: ms_of(rtts.get(k, [])) for k in ("calm", "burst", "after")},
        "burst_s": round(burst_s, 2),
        "server_cpu_ms_per_connection": round(1000 * (burst_cpu - play_cpu)
                                              / max(1, opened), 3),
        "server_cpu_calm_share": round(calm_cpu_s, 3),
        "errors": stats.errors,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--connections", type=int, default=500)
    ap.add_argument("--tables", type=int, default=2, help="tables playing meanwhile")
    ap.add_argument("--to", choices=("room", "practice"), default="room")
    ap.add_argument("--gate", type=int, default=100, help="connections opening at a time")
    ap.add_argument("--pace", type=float, default=0.2, help="seconds before each action")
    ap.add_argument("--calm", type=float, default=5.0, help="seconds measured before/after")
    ap.add_argument("--profile", type=Path, default=None, help="cProfile the burst to FILE")
    ap.add_argument("--top", type=int, default=25, help="profile lines printed")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--postgres", default=None, help="one node over PostgreSQL (with --redis)")
    ap.add_argument("--redis", default=None, help="one node: the Redis it publishes on")
    args = ap.parse_args()
    raise_fd_limit()
    data = Path(tempfile.mkdtemp(prefix="tapete-connect-"))
    profile = args.profile or data / "burst.prof"
    with pg_schema(args.postgres if args.redis else None) as db:
        where = ["--data-dir", str(data / "db")]
        if args.redis:
            if db is None:
                raise SystemExit("--redis needs --postgres (or $TAPETE_TEST_POSTGRES)")
            where = ["--database", db, "--redis", args.redis, "--node", "n0"]
        server = Server(data, profile, where)
        try:
            settle(server.proc.pid)
            result = asyncio.run(client(args, server))
        finally:
            server.stop()
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    if args.profile and profile.exists():
        st = pstats.Stats(str(profile))
        st.sort_stats("cumulative").print_stats(args.top)
        st.sort_stats("tottime").print_stats(args.top)
    shutil.rmtree(data, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
