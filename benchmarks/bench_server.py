"""Click to updated table, and the size of what the server sends.

One table (the default): the real server (uvicorn, the real bots) runs in this process; a
WebSocket client plays a practice table, answering every decision at once (call, raise, check,
fold in turn), and the time is measured on the server, from the moment an action message is
read off the WebSocket to the moment the new table state has been written back to it, and by
the client (the round trip). The bots think for real (their decisions run in worker threads
as soon as the player's action is in), so each measured answer competes with the bots' work.
The think *pause* is set to a few milliseconds so many decisions fit in a run; it only spaces
out the bots' turns.

Many tables (``--tables 200``): the server runs in a process of its own (uvicorn, as ``tapete
play`` starts it) and this process plays every table at once, one player and one WebSocket
each; once every table has reached its first decision, for ``--seconds``, the time is the
client's, from sending the action to receiving the next state (click -> state), across all
tables.

Both report the state messages' sizes (median and largest, in bytes), whatever the server
sends as a state (a whole table, or less).

    PYTHONPATH=src python benchmarks/bench_server.py [--decisions 400] [--json]
    PYTHONPATH=src python benchmarks/bench_server.py --tables 200 [--seconds 20] [--json]
    (about a minute and a half on two cores, most of it the bots reaching every table)

Target (issue 5): p95 <= 50 ms for one table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import connect

from tapete.server import Settings, create_app

# the server of the many-tables run, in its own process: argv[1] is its settings, as JSON
SERVER = """
import json, sys
from pathlib import Path
import uvicorn
from tapete.server import Settings, create_app
cfg = json.loads(sys.argv[1])
app = create_app(Settings(data_dir=Path(cfg["data_dir"]), think_delay=cfg["think"],
                          runout_delay=0.0, result_pause=0.0, action_time=60, time_bank=0,
                          deck_seed=2026))
uvicorn.run(app, host="127.0.0.1", port=cfg["port"], log_level="warning",
            **app.state.settings.limits.uvicorn_options())
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))
    return xs[k]


def choose(s: dict[str, Any], k: int) -> dict[str, Any]:
    """The k-th decision's answer: call, raise, call, fold in turn (check when free)."""
    lg = s["hand"]["legal"]
    choice = ("call", "raise", "call", "fold")[k % 4]
    msg: dict[str, Any] = {"type": "act", "seq": s["seq"]}
    if choice == "raise" and lg["min_to"] is not None:
        return msg | {"action": "raise", "amount": lg["min_to"]}
    if choice == "fold" and lg["fold"]:
        return msg | {"action": "fold"}
    return msg | {"action": "check" if lg["check"] else "call"}


def my_turn(s: dict[str, Any]) -> bool:
    return bool(s["decision"] and s["hand"] and "legal" in s["hand"])


def broke(s: dict[str, Any]) -> bool:
    return bool(s.get("waiting") and s["seats"][0] and s["seats"][0]["chips"] == 0)


def sizes_of(sizes: list[int]) -> dict[str, int]:
    return {"median": int(statistics.median(sizes)), "max": max(sizes), "count": len(sizes)}


def ms_of(xs: list[float]) -> dict[str, float]:
    ms = [x * 1000 for x in xs]
    return {"median": round(statistics.median(ms), 2), "p95": round(pct(ms, 0.95), 2),
            "p99": round(pct(ms, 0.99), 2), "max": round(max(ms), 2)}


# --------------------------------------------------------------------------- one table
def one_table(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="tapete-bench-"))
    settings = Settings(data_dir=tmp, think_delay=args.think, runout_delay=0.0,
                        result_pause=0.0, action_time=60, time_bank=0, deck_seed=2026)
    app = create_app(settings)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)

    cookie = httpx.get(f"http://127.0.0.1:{port}/").cookies["tapete_id"]
    rtt: list[float] = []
    sizes: list[int] = []
    with connect(f"ws://127.0.0.1:{port}/ws",
                 additional_headers={"Cookie": f"tapete_id={cookie}"}) as ws:

        def state() -> dict[str, Any]:
            while True:
                raw = ws.recv()
                m = json.loads(raw)
                if m["type"] == "state":
                    sizes.append(len(raw.encode() if isinstance(raw, str) else raw))
                    return m
                if m["type"] == "error" and m["code"] != "illegal":
                    raise SystemExit(f"server refused: {m}")

        state()
        ws.send(json.dumps({"type": "sit", "structure": "nl", "blinds": 0}))
        if args.coach:
            ws.send(json.dumps({"type": "coach", "on": True}))
        k = 0
        answer: dict[str, Any] | None = None
        while k < args.decisions:
            # the state that answered a click may already be the next decision (the bots
            # played at once): it is looked at like any other
            s = answer if answer is not None else state()
            answer = None
            if broke(s):
                ws.send(json.dumps({"type": "add_chips", "amount": 200}))
                continue
            if not my_turn(s):
                continue
            t0 = time.perf_counter()
            ws.send(json.dumps(choose(s, k)))
            answer = state()
            rtt.append(time.perf_counter() - t0)
            k += 1
    (player,) = app.state.hub.players.values()
    server_side = list(player.game.latencies) if player.game else []
    server.should_exit = True
    thread.join(5)
    return {
        "tables": 1, "decisions": len(rtt), "bots": "tag, lag, nit, station, maniac",
        "server_ms": ms_of(server_side) if server_side else None,
        "click_to_state_ms": ms_of(rtt),
        "state_bytes": sizes_of(sizes),
        "target_p95_ms": 50,
    }


# --------------------------------------------------------------------------- many tables
class Run:
    """The many-tables run: timing starts once every table has had its first decision (the
    bots of two hundred tables take a while to reach them all), or after ``warmup``."""

    def __init__(self, tables: int, seconds: float, warmup: float) -> None:
        self.tables = tables
        self.seconds = seconds
        self.ready = 0
        self.start: float | None = None
        self.until: float | None = None
        self.deadline = time.monotonic() + warmup
        self.rtt: list[float] = []
        self.sizes: list[int] = []
        self.errors: list[str] = []

    def first_turn(self) -> None:
        self.ready += 1
        if self.ready == self.tables:
            self.begin()

    def begin(self) -> None:
        if self.start is None:
            self.start = time.monotonic()
            self.until = self.start + self.seconds

    def playing(self) -> bool:
        if self.start is None and time.monotonic() > self.deadline:
            self.begin()
        return self.until is None or time.monotonic() < self.until


async def play_table(port: int, run: Run) -> None:
    from websockets.asyncio.client import connect as aconnect

    async with httpx.AsyncClient() as http:
        cookie = (await http.get(f"http://127.0.0.1:{port}/")).cookies["tapete_id"]
    async with aconnect(f"ws://127.0.0.1:{port}/ws", max_size=None, open_timeout=60,
                        additional_headers={"Cookie": f"tapete_id={cookie}"}) as ws:

        async def state() -> dict[str, Any]:
            while True:
                raw = await asyncio.wait_for(ws.recv(), 120)
                m = json.loads(raw)
                if m["type"] == "state":
                    run.sizes.append(len(raw.encode() if isinstance(raw, str) else raw))
                    return m
                if m["type"] == "error" and m["code"] != "illegal":
                    run.errors.append(m["code"])

        await state()
        await ws.send(json.dumps({"type": "sit", "structure": "nl", "blinds": 0}))
        k = 0
        while run.playing():
            s = await state()
            if broke(s):
                await ws.send(json.dumps({"type": "add_chips", "amount": 200}))
                continue
            if not my_turn(s):
                continue
            if k == 0:
                run.first_turn()
            t0 = time.perf_counter()
            timed = run.start is not None
            await ws.send(json.dumps(choose(s, k)))
            await state()
            if timed:
                run.rtt.append(time.perf_counter() - t0)
            k += 1


def rss_mib(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def many_tables(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="tapete-bench-"))
    port = free_port()
    cfg = {"data_dir": str(tmp), "think": args.think, "port": port}
    env = dict(os.environ)
    src = str(Path(__file__).resolve().parent.parent / "src")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    proc = subprocess.Popen([sys.executable, "-c", SERVER, json.dumps(cfg)], env=env)
    try:
        for _ in range(300):
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/me", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        rss_before = rss_mib(proc.pid)
        run = Run(args.tables, args.seconds, args.warmup)

        async def everyone() -> None:
            await asyncio.gather(*(play_table(port, run) for _ in range(args.tables)))

        t0 = time.monotonic()
        asyncio.run(everyone())
        wall = time.monotonic() - t0
        rss_after = rss_mib(proc.pid)
    finally:
        proc.terminate()
        proc.wait(10)
    rtt, sizes = run.rtt, run.sizes
    return {
        "tables": args.tables, "seconds": round(wall, 1),
        "warmup_s": round((run.start or t0) - t0, 1), "decisions": len(rtt),
        "click_to_state_ms": ms_of(rtt) if rtt else None,
        "state_bytes": sizes_of(sizes) if sizes else None,
        "refused": sorted(set(run.errors)),
        "server_rss_mib": {"idle": rss_before and round(rss_before),
                           "after": rss_after and round(rss_after)},
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=400, help="one table: decisions to time")
    ap.add_argument("--tables", type=int, default=1,
                    help="tables played at once, one WebSocket each (200: the load run)")
    ap.add_argument("--seconds", type=float, default=20.0,
                    help="many tables: how long they are timed")
    ap.add_argument("--warmup", type=float, default=60.0,
                    help="many tables: the longest wait for every table's first decision")
    ap.add_argument("--think", type=float, default=0.005, help="bots' think pause, seconds")
    ap.add_argument("--coach", action="store_true", help="one table: the coach's equity on")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    out = one_table(args) if args.tables <= 1 else many_tables(args)
    if args.json:
        print(json.dumps(out))
        return 0
    c, b = out["click_to_state_ms"], out["state_bytes"]
    print(f"{out['tables']} table(s), {out['decisions']} decisions timed"
          + (f" (after {out['warmup_s']} s for every table to reach its first decision)"
             if "warmup_s" in out else ""))
    if out.get("server_ms"):
        sm = out["server_ms"]
        print(f"server side, click -> updated table sent: median {sm['median']} ms, p95"
              f" {sm['p95']} ms, max {sm['max']} ms (target p95 <= 50 ms)")
    if c:
        print(f"client, click -> state received:          median {c['median']} ms, p95"
              f" {c['p95']} ms, p99 {c['p99']} ms, max {c['max']} ms")
    if b:
        print(f"state messages: {b['count']}, median {b['median']} bytes, max {b['max']} bytes")
    if out.get("server_rss_mib"):
        r = out["server_rss_mib"]
        print(f"server RSS: {r['idle']} MiB before, {r['after']} MiB after;"
              f" refused: {out['refused'] or 'nothing'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
