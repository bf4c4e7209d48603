"""A 1,000-player tournament played by bots, start to finish: its time and its size.

    PYTHONPATH=src python benchmarks/bench_tournament.py [--players 1000] [--seed 1]

Nine-handed tables, stacks of 5,000 (100 big blinds at the first level), ten hands a level
(the schedule of ``tapete tournament``), five bot styles in turn. The target: under two
minutes on a two-core machine with the compiled engine.
"""

from __future__ import annotations

import argparse
import time

from tapete.tournament.model import TournamentRules, fast_schedule
from tapete.tournament.sim import simulate

STYLES = ["tag", "lag", "nit", "station", "maniac"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--level-hands", type=int, default=10)
    args = ap.parse_args()
    import tapete

    rules = TournamentRules(fast_schedule(length=args.level_hands), starting_stack=5000)
    t0 = time.perf_counter()
    res = simulate(rules, STYLES, args.players, seed=args.seed)
    wall = time.perf_counter() - t0
    d = res.director
    print(f"{args.players:,} players, {len(res.hands):,} hands in {d.round:,} rounds, "
          f"{len(d.moves):,} moves, level {d.level + 1} at the end: {wall:.1f} s, "
          f"{len(res.hands) / wall:,.0f} hands/s (engine: {tapete.build_kind()})")


if __name__ == "__main__":
    main()
