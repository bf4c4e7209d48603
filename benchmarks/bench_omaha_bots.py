"""How strong the Omaha styles are: duplicate matches of pot-limit Omaha, tag heads-up against
each opponent, in big blinds per 100 hands with the 95 % interval.

    TAPETE_PURE=1 PYTHONPATH=src python benchmarks/bench_omaha_bots.py [--hands 2000]
        [--against random,caller,strength,lag,nit,station,maniac] [--hero tag] [--seed 1]
        [--game omaha|omaha5] [--ring]

``--hands`` (or ``TAPETE_OMAHA_BOT_HANDS``) is the number of hands of each match (whole deals:
two rotations heads-up). ``strength`` is :class:`tapete.bots.baselines.StrengthBot`, which
ranks its hand by its strength now and nothing else. ``--ring`` also plays one six-handed
match of all five styles and ``random``.
"""

from __future__ import annotations

import argparse
import os
import random
import time

from tapete.bots import Bot, make_bot
from tapete.bots.baselines import StrengthBot
from tapete.bots.match import run_match
from tapete.core.game import GAMES

OPPONENTS = ("random", "caller", "strength", "lag", "nit", "station", "maniac")
RING = ["tag", "lag", "nit", "station", "maniac", "random"]


def make(name: str, seed: int, label: str) -> Bot:
    if name == "strength":
        return StrengthBot(random.Random(seed), label)
    return make_bot(name, seed, label=label)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int,
                    default=int(os.environ.get("TAPETE_OMAHA_BOT_HANDS", "2000")))
    ap.add_argument("--against", default=",".join(OPPONENTS))
    ap.add_argument("--hero", default="tag")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", default="omaha", choices=["omaha", "omaha5"])
    ap.add_argument("--ring", action="store_true")
    args = ap.parse_args()
    game = GAMES[args.game]
    print(f"pot-limit {game.name}, blinds 50/100, 100 big blinds deep, seed {args.seed}, "
          f"{args.hands:,} hands a match")
    print(f"{'match':<20} {'hands':>6} {'bb/100':>8} {'95 %':>8} {'s':>6}")
    for opp in [o.strip() for o in args.against.split(",") if o.strip()]:
        t0 = time.perf_counter()
        res = run_match([args.hero, opp], args.hands, structure="pl", seed=args.seed,
                        game=game, make=make)
        wall = time.perf_counter() - t0
        # mbb per hand / 10 = bb per 100 hands
        print(f"{args.hero + ' vs ' + opp:<20} {res.hands:>6} {res.mbb_per_hand(0) / 10:>8.1f} "
              f"{res.ci95(0) / 10:>8.1f} {wall:>6.0f}", flush=True)
    if args.ring:
        res = run_match(RING, args.hands, structure="pl", seed=args.seed, game=game, make=make)
        print(f"six-handed, {res.hands:,} hands:")
        for row in res.table():
            print(f"  {row['name']:<8} {float(row['mbb_per_hand']) / 10:>8.1f} "  # type: ignore[arg-type]
                  f"± {float(row['ci95']) / 10:.1f} bb/100")  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
