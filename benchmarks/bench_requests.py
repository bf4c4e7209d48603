"""What a page asks the server for, and how long it takes: a stored hand's replay, tournament
equity (ICM), and a worker process's start (issue 29: "some requests take seconds").

    python benchmarks/bench_requests.py [--repeat 3] [--json]

* **Replays.** The hand a room table stores for one of its players (the others' cards
  unknown unless shown), built by :func:`tapete.server.replayer.stored_job` as the route does:
  Omaha, Omaha hi-lo and hold'em, 4 and 9 players, everyone calling to the river (two
  players show), with equity. ``cold``: in a fresh interpreter, imports and tables included
  (what a worker started for the request paid); ``warm``: the same process's next hand (what
  a worker already running pays). CPU seconds and wall seconds.
* **ICM.** :func:`tapete.eval.icm.icm_table` by players and paid places, with 15-digit
  stacks, CPU milliseconds, beside its size in the unit of
  :data:`tapete.server.analysis.IN_PROCESS_STEPS` (players x sets of players summed): the
  questions at or under the line are answered in the server's process.
* **A worker.** The seconds from starting a worker process to its first answer, and the
  seconds its warm-up takes (:func:`tapete.server.replayer.warm_up`).

Times on a loaded machine are longer: compare runs on the same machine, one after the other.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from math import comb
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

GAMES = ("omaha", "omaha-hi-lo", "holdem")
SIZES = (4, 9)
ICM_GRID = ((3, 3), (6, 3), (9, 3), (6, 6), (10, 3), (8, 4), (12, 3), (9, 5), (12, 4))


def stored_row(game: str, n: int, seed: int) -> Any:
    """A room hand as the player at seat 0 keeps it: everyone calls to the river."""
    from tapete.core.cards import Deck
    from tapete.core.game import GAMES as ALL
    from tapete.core.hand import Hand
    from tapete.core.rules import Rules, Structure
    from tapete.server.stored import hand_row

    hand = Hand(Rules(structure=Structure.POT_LIMIT, game=ALL[game]), [200] * n, button=0,
                deck=Deck(seed), auto_showdown=True, hand_id=f"bench-{seed}")
    while not hand.done:
        hand.check_or_call()
    return hand_row(hand, 0, player_id="p", session="s", number=1, played_at=0.0,
                    structure="pl", breakdown={})


def replay_once(game: str, n: int, seed: int) -> tuple[float, float, int]:
    """CPU and wall seconds of one stored hand's replay, and the answer's status."""
    from tapete.server.replayer import MAX_RESPONSE, stored_job

    row = stored_row(game, n, seed)
    c0, w0 = time.process_time(), time.perf_counter()
    status, _ = stored_job(row, MAX_RESPONSE)
    return time.process_time() - c0, time.perf_counter() - w0, status


def child(args: list[str]) -> None:
    """``--child GAME N``: a fresh interpreter's first replay (imports included), then the
    next hand's; one JSON line."""
    game, n = args[0], int(args[1])
    c0, w0 = time.process_time(), time.perf_counter()
    _, _, status = replay_once(game, n, 1)
    cold = (time.process_time() - c0, time.perf_counter() - w0)
    cpu, wall, status2 = replay_once(game, n, 2)
    print(json.dumps({"cold_cpu": cold[0], "cold_wall": cold[1], "warm_cpu": cpu,
                      "warm_wall": wall, "status": [status, status2]}))


def replays(repeat: int) -> list[dict[str, Any]]:
    out = []
    for game in GAMES:
        for n in SIZES:
            runs = []
            for _ in range(repeat):
                got = subprocess.run([sys.executable, __file__, "--child", game, str(n)],
                                     capture_output=True, text=True, check=True, timeout=900)
                runs.append(json.loads(got.stdout.strip().splitlines()[-1]))
            best = {k: min(r[k] for r in runs) for k in runs[0] if k != "status"}
            out.append({"game": game, "players": n, **best, "status": runs[0]["status"]})
    return out


def icm(repeat: int) -> list[dict[str, Any]]:
    from tapete.eval.icm import icm_table

    rng = random.Random(1)
    icm_table([1, 2, 3], [1, 2, 3], "3 2 1")  # imports
    out = []
    for n, paid in ICM_GRID:
        start = [rng.randint(10**14, 10**15 - 1) for _ in range(n)]
        end = list(start)
        end[0] += end[1]
        end[1] = 0
        prizes = " ".join(f"{100 * (paid - i) + 7}.13" for i in range(paid))
        times = []
        for _ in range(repeat):
            c0 = time.process_time()
            icm_table(start, end, prizes)
            times.append(time.process_time() - c0)
        steps = n * sum(comb(n, k) for k in range(min(n, paid)))
        out.append({"players": n, "paid": paid, "steps": steps, "cpu_ms": min(times) * 1e3})
    return out


def worker(repeat: int) -> dict[str, float]:
    """Seconds from a worker's start to its first answer, and its warm-up's seconds."""
    from tapete.server import work

    starts, warms = [], []
    for _ in range(repeat):
        w = work._Worker()  # noqa: SLF001 (the pool's own worker, timed alone)
        t0 = time.perf_counter()
        work._send(w.jobs_in, (time.perf_counter, ()))  # noqa: SLF001
        reply = work._receive(w.answers)  # noqa: SLF001
        if reply[0] == "ready":  # a worker that says when its imports are done
            reply = work._receive(w.answers)  # noqa: SLF001
        starts.append(time.perf_counter() - t0)
        try:
            from tapete.server.replayer import warm_up
        except ImportError:  # a version without it
            warms.append(float("nan"))
        else:
            work._send(w.jobs_in, (warm_up, ()))  # noqa: SLF001
            warms.append(float(work._receive(w.answers)[1]))  # noqa: SLF001
        w.stop(kill=False)
    return {"start_s": min(starts), "warm_up_s": min(warms)}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2:])
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    try:
        from tapete.server.analysis import IN_PROCESS_STEPS as line
    except ImportError:  # a version that sent every question to a worker
        line = 0
    out = {"replays": replays(args.repeat), "icm": icm(args.repeat),
           "icm_in_process_steps": line, "worker": worker(args.repeat)}
    if args.json:
        print(json.dumps(out))
        return
    print("stored hand replayed (seat 0's view), best of", args.repeat)
    for r in out["replays"]:
        print(f"  {r['game']:12} {r['players']} players: cold {r['cold_wall']:6.2f} s wall"
              f" ({r['cold_cpu']:6.2f} s CPU), warm {r['warm_wall']:6.2f} s wall"
              f" ({r['warm_cpu']:6.2f} s CPU)  status {r['status']}")
    print(f"ICM exact, CPU (in the process up to {line} steps)")
    for r in out["icm"]:
        where = "process" if r["steps"] <= line else "worker"
        print(f"  {r['players']:2} players, {r['paid']} paid: {r['steps']:5} steps,"
              f" {r['cpu_ms']:8.2f} ms  -> {where}")
    w = out["worker"]
    print(f"worker: first answer {w['start_s']:.2f} s after its start; warm-up"
          f" {w['warm_up_s']:.2f} s")


if __name__ == "__main__":
    main()
