"""The web replayer's timeline: its cost per action, for a long hand against a short one.

    python benchmarks/bench_timeline.py [--repeat 5] [--equity]

Two heads-up no-limit hands, deep stacks: a raise war before the flop (min-raises, then a
call) and checks to the river, one of 10 actions and one of 100. The timeline of each
(:func:`tapete.server.timeline.timeline`: one frame per event) is built ``--repeat`` times;
the best time of each, divided by its number of actions, gives the cost per action, and the
ratio of the long hand's to the short hand's. Built in one pass over the events the cost is
linear, and the ratio about 1 (below it: the hand's fixed costs weigh on the short one);
rebuilding the hand for every frame, as the replayer did, made it about 10 (quadratic).

Equity is left out by default (``--equity`` puts it in): it is worked out once per street and
cached, so it would only time the equity calculator.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))  # the hand the timeline test builds too

from samples import raise_war  # noqa: E402
from tapete.core.hand import Hand  # noqa: E402
from tapete.server.timeline import timeline  # noqa: E402


def best(hand: Hand, repeat: int, equity: bool) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        timeline(hand, equity=equity)
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--equity", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    short, long = raise_war(10), raise_war(100)
    best(short, 1, args.equity)  # warm: imports, caches
    t_short = best(short, args.repeat, args.equity)
    t_long = best(long, args.repeat, args.equity)
    per_short, per_long = t_short / 10, t_long / 100
    out = {"short_actions": 10, "short_events": len(short.events), "short_ms": t_short * 1e3,
           "long_actions": 100, "long_events": len(long.events), "long_ms": t_long * 1e3,
           "ratio_per_action": per_long / per_short}
    if args.json:
        print(json.dumps(out))
        return
    print(f"10 actions ({out['short_events']} events): {t_short * 1e3:.2f} ms,"
          f" {per_short * 1e3:.3f} ms an action")
    print(f"100 actions ({out['long_events']} events): {t_long * 1e3:.2f} ms,"
          f" {per_long * 1e3:.3f} ms an action")
    print(f"time per action, 100 against 10: {out['ratio_per_action']:.2f}"
          " (linear: about 1; quadratic: about 10)")


if __name__ == "__main__":
    main()
