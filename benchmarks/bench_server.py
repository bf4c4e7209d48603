"""Click to updated table, measured on the server: from the moment an action message is read
off the WebSocket to the moment the new table state has been written back to it.

The real server (uvicorn, the real bots) runs in this process; a WebSocket client plays a
practice table, answering every decision at once (call, raise, check, fold in turn). The bots
think for real (their decisions run in worker threads as soon as the player's action is in),
so each measured answer competes with the bots' work. The think *pause* is set to a few
milliseconds so many decisions fit in a run; it only spaces out the bots' turns.

    PYTHONPATH=src python benchmarks/bench_server.py [--decisions 400] [--json]

Target (issue 5): p95 <= 50 ms.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import connect

from tapete.server import Settings, create_app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))
    return xs[k]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=400)
    ap.add_argument("--think", type=float, default=0.005, help="bots' think pause, seconds")
    ap.add_argument("--coach", action="store_true", help="with the coach's equity on too")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

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
    hands = 0
    with connect(f"ws://127.0.0.1:{port}/ws",
                 additional_headers={"Cookie": f"tapete_id={cookie}"}) as ws:

        def state() -> dict[str, Any]:
            while True:
                m = json.loads(ws.recv())
                if m["type"] == "state":
                    return m
                if m["type"] == "error" and m["code"] != "illegal":
                    raise SystemExit(f"server refused: {m}")

        state()
        ws.send(json.dumps({"type": "sit", "structure": "nl", "blinds": 0}))
        if args.coach:
            ws.send(json.dumps({"type": "coach", "on": True}))
        k = 0
        while k < args.decisions:
            s = state()
            hands = len(s["history"])
            if s.get("waiting") and s["seats"][0] and s["seats"][0]["chips"] == 0:
                ws.send(json.dumps({"type": "add_chips", "amount": 200}))
                continue
            if not (s["decision"] and s["hand"] and "legal" in s["hand"]):
                continue
            lg = s["hand"]["legal"]
            choice = ("call", "raise", "call", "fold")[k % 4]
            msg: dict[str, Any] = {"type": "act", "seq": s["seq"]}
            if choice == "raise" and lg["min_to"] is not None:
                msg |= {"action": "raise", "amount": lg["min_to"]}
            elif choice == "fold" and lg["fold"]:
                msg |= {"action": "fold"}
            else:
                msg |= {"action": "check" if lg["check"] else "call"}
            t0 = time.perf_counter()
            ws.send(json.dumps(msg))
            state()
            rtt.append(time.perf_counter() - t0)
            k += 1
    (player,) = app.state.hub.players.values()
    server_side = list(player.game.latencies) if player.game else []
    server.should_exit = True
    thread.join(5)
    ms = [x * 1000 for x in server_side]
    out = {
        "decisions": len(ms), "hands": hands, "bots": "tag, lag, nit, station, maniac",
        "server_ms": {"median": round(statistics.median(ms), 2), "p95": round(pct(ms, 0.95), 2),
                      "max": round(max(ms), 2)},
        "round_trip_ms": {"median": round(statistics.median(rtt) * 1000, 2),
                          "p95": round(pct(rtt, 0.95) * 1000, 2)},
        "target_p95_ms": 50,
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['decisions']} decisions over {hands} hands against {out['bots']}")
        print(f"server side, click -> updated table sent: median {out['server_ms']['median']} ms,"
              f" p95 {out['server_ms']['p95']} ms, max {out['server_ms']['max']} ms"
              f" (target p95 <= 50 ms)")
        print(f"client round trip (loopback):            median "
              f"{out['round_trip_ms']['median']} ms, p95 {out['round_trip_ms']['p95']} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
