"""tapete's evaluator and equity side by side with its peers, in one run.

    python benchmarks/bench_evaluator.py [--hands 10000000] [--seconds 1] [--json]

Measures, on this machine and in this process:

1. ranking random seven-card hands: tapete's bulk (numba) and scalar paths, OMPEval's batch
   call (through pokerfast), and the per-hand APIs of eval7, phevaluator, treys, PokerKit and
   pokerfast, each checked for the same order as tapete's;
2. enumerating all 133,784,560 seven-card hands;
3. exact heads-up preflop equity (AhKh vs QsQd) and a few other matchups, against OMPEval;
4. Monte Carlo samples per second against eval7's ``py_hand_vs_range_monte_carlo``;
5. the per-call cost of ``equity.hand_vs_ranges``, the call bots make.

Kernels are loaded (or compiled) before any timing; each figure is the best of a few runs,
timed in CPU seconds of this process (everything here is single-threaded), which equals the
wall clock on an idle machine and stays fair on a shared one. The peers are only imported here.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import sys
from functools import partial
from typing import Any

from tapete.cli import bench
from tapete.cli.bench import bench_enumerate, bench_evaluate, clock

best_of = partial(bench.best_of, runs=5)


def exact_equity() -> list[dict[str, Any]]:
    from tapete.eval.equity import equity

    pf = None
    if importlib.util.find_spec("pokerfast"):
        from pokerfast import equity as pf_equity

        pf = pf_equity if pf_equity.available() else None
    rows = []
    for players, board in (
        (["AhKh", "QsQd"], ""),
        (["AhKh", "QsQd", "7c6c"], ""),
        (["AhKh", "QQ+,AKs"], ""),
        (["AhKh", "QsQd"], "2h3h4s"),
    ):
        equity(players, board=board, exact=True)  # load the kernels
        ours = best_of(lambda p=players, b=board: equity(p, board=b, exact=True))
        row: dict[str, Any] = {
            "matchup": " vs ".join(players) + (f" on {board}" if board else " preflop"),
            "equity": round(equity(players, board=board, exact=True).players[0].equity, 6),
            "tapete_ms": round(ours * 1e3, 3),
        }
        if pf is not None:
            theirs = best_of(
                lambda p=players, b=board: pf.equity(p, board=b, exact=True, threads=1)
            )
            row["ompeval_ms"] = round(theirs * 1e3, 3)
            row["ompeval_equity"] = round(pf.equity(players, board=board, exact=True)[0], 6)
        rows.append(row)
    return rows


def monte_carlo(samples: int = 1_000_000) -> dict[str, Any]:
    from tapete.eval.equity import equity

    equity(["AhKh", "QsQd"], exact=False, samples=1000)
    ours = best_of(lambda: equity(["AhKh", "QsQd"], exact=False, samples=samples, seed=1))
    out: dict[str, Any] = {
        "matchup": "AhKh vs QsQd preflop",
        "samples": samples,
        "tapete_samples_per_s": round(samples / ours),
    }
    if importlib.util.find_spec("eval7"):
        import eval7

        hero = [eval7.Card("Ah"), eval7.Card("Kh")]
        villain = eval7.HandRange("QsQd")
        theirs = best_of(lambda: eval7.py_hand_vs_range_monte_carlo(hero, villain, [], samples))
        out["eval7_samples_per_s"] = round(samples / theirs)
        out["ratio"] = round(theirs / ours, 2)
    return out


def bot_call() -> dict[str, Any]:
    from tapete.eval.equity import hand_vs_ranges

    hole, board = (50, 46), (0, 21, 30)
    hand_vs_ranges(hole, [None, "TT+,AKs"], board, 10, 1)
    calls = 2000
    started = clock()
    for i in range(calls):
        hand_vs_ranges(hole, [None, "TT+,AKs"], board, 1000, i)
    per_call = (clock() - started) / calls
    started = clock()
    for i in range(calls):
        hand_vs_ranges(hole, [None, "TT+,AKs"], board, 1, i)
    overhead = (clock() - started) / calls
    return {
        "call": "hand_vs_ranges(hole, [random, 'TT+,AKs'], flop, samples=1000)",
        "us_per_call": round(per_call * 1e6, 1),
        "us_overhead_per_call": round(overhead * 1e6, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=10_000_000)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    report: dict[str, Any] = {
        "machine": {
            "cpu": platform.processor() or platform.machine(),
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "load_average_1min": load,
        },
        "evaluate": bench_evaluate(args.hands, args.seconds, seed=1),
        "enumerate": bench_enumerate(),
        "exact_equity": exact_equity(),
        "monte_carlo": monte_carlo(),
        "bots": bot_call(),
    }
    enum_runs = [bench_enumerate()["seconds"] for _ in range(2)]
    report["enumerate"]["seconds"] = min([report["enumerate"]["seconds"], *enum_runs])
    if args.json:
        print(json.dumps(report, indent=2))
        return 0

    results = report["evaluate"]["results"]
    bulk = results[0]["hands_per_s"]
    print(f"Ranking {args.hands:,} random seven-card hands (load average {load})")
    print(f"  {'evaluator':<28} {'hands/s':>14} {'tapete bulk is':>15}  same order")
    for r in results:
        if "error" in r:
            print(f"  {r['name']:<28} {r['error']}")
            continue
        agrees = {True: "yes", False: "NO"}.get(r.get("agrees"), "")
        print(
            f"  {r['name']:<28} {r['hands_per_s']:>14,} {bulk / r['hands_per_s']:>14.1f}x  {agrees}"
        )
    e = report["enumerate"]
    print(f"\nAll {e['hands']:,} seven-card hands: {e['seconds']:.3f} s (one core)")
    print("\nExact equity (best of 5)")
    for row in report["exact_equity"]:
        theirs = f"OMPEval {row['ompeval_ms']:8.2f} ms" if "ompeval_ms" in row else ""
        print(f"  {row['matchup']:<34} tapete {row['tapete_ms']:8.2f} ms  {theirs}"
              f"  equity {row['equity']:.6f}")  # fmt: skip
    mc = report["monte_carlo"]
    print(
        f"\nMonte Carlo, {mc['matchup']}: tapete {mc['tapete_samples_per_s']:,} samples/s", end=""
    )
    if "eval7_samples_per_s" in mc:
        print(f", eval7 {mc['eval7_samples_per_s']:,} samples/s ({mc['ratio']}x)")
    else:
        print()
    b = report["bots"]
    print(f"\nBots: {b['call']}: {b['us_per_call']} us per call "
          f"({b['us_overhead_per_call']} us of it fixed overhead)")  # fmt: skip

    by_name = {r["name"]: r for r in results if "hands_per_s" in r}
    checks = []
    if "eval7" in by_name:
        checks.append(("bulk >= 100x eval7 per hand", bulk / by_name["eval7"]["hands_per_s"], 100))
    if "pokerfast (OMPEval batch)" in by_name:
        ratio = bulk / by_name["pokerfast (OMPEval batch)"]["hands_per_s"]
        checks.append(("bulk >= 2x OMPEval batch", ratio, 2))
    checks.append(("enumeration <= 0.3 s", 0.3 / e["seconds"], 1))
    hu = report["exact_equity"][0]
    if "ompeval_ms" in hu:
        checks.append(("exact HU preflop <= OMPEval", hu["ompeval_ms"] / hu["tapete_ms"], 1))
    if "ratio" in mc:
        checks.append(("Monte Carlo >= 2x eval7", mc["ratio"], 2))
    print("\nTargets")
    for label, value, need in checks:
        ok = "met" if value >= need else "MISSED"
        print(f"  {label:<32} {value:8.2f} (needs {need})  {ok}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
