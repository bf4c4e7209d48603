"""Bot speed: decision time per bot (median, 95th percentile) and simulated hands per second.

    PYTHONPATH=src python benchmarks/bench_bots.py [--hands 1200] [--structure nl]

A decision is timed from the seat's view being built (replaying its events) to the answer.
The first hands warm up the compiled equity kernel and are not counted.
"""

from __future__ import annotations

import argparse
import time

from tapete.bots.match import run_match

SIX = ["tag", "lag", "nit", "station", "maniac", "random"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=1200)
    ap.add_argument("--structure", default="nl", choices=["nl", "pl", "fl"])
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    run_match(SIX, 60, structure=args.structure, seed=args.seed + 999)  # warm-up
    t0 = time.perf_counter()
    res = run_match(SIX, args.hands, structure=args.structure, seed=args.seed, timing=True)
    wall = time.perf_counter() - t0
    print(f"{res.hands:,} hands, six bots, {args.structure}: {wall:.1f} s, "
          f"{res.hands / wall:,.0f} hands/s")
    print(f"{'bot':<8} {'decisions':>9} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}")
    for name, times in zip(res.names, res.decision_times, strict=True):
        t = sorted(times)
        if not t:
            continue
        med = t[len(t) // 2] * 1e3
        p95 = t[min(len(t) - 1, int(0.95 * len(t)))] * 1e3
        print(f"{name:<8} {len(t):>9,} {med:>10.2f} {p95:>8.2f} {t[-1] * 1e3:>8.2f}")


if __name__ == "__main__":
    main()
