"""tapete's Omaha evaluator (high and eight-or-better low) beside its peers, and the issue's
brute-force check, in one run.

    python benchmarks/bench_omaha.py [--hands 1000000] [--seconds 1] [--check 1000000]
                                     [--rounds 5] [--json]

1. Ranks ``--hands`` random Omaha hands (four hole cards, a board of five): tapete's bulk path
   (:mod:`tapete.ranking.omaha_bulk`, numba) and scalar path
   (:func:`~tapete.ranking.omaha.evaluate_omaha`,
   :func:`~tapete.ranking.low.evaluate_omaha_low`), ``phevaluator.evaluate_omaha_cards``
   and PokerKit's ``OmahaHoldemHand`` and ``OmahaEightOrBetterLowHand`` (the peers' per-hand
   calls for ``--seconds`` each), every peer checked for the same order as tapete's.
2. ``--rounds`` times more, tapete's bulk high and ``phevaluator`` back to back (the bulk path's
   best of three, then the peer for ``--seconds``), so that each ratio compares the two under
   the same load; the target line takes the median ratio. Single-threaded, both of them.
3. Checks the bulk path against a brute force on ``--check`` other random hands (0: skip):
   every choice of two hole cards and three board cards (60 per hand), the high of each five
   ranked by the hold'em five-card path (:func:`~tapete.ranking.bulk.evaluate_many`) and
   the low of each five found from its ranks alone (five distinct ranks, all eight or lower,
   ace low; the lowest wins), the best kept. Prints the number of hands that differ (0).

Timings are CPU seconds of this process, best of a few runs (see ``benchmarks/bench_evaluator``).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from collections.abc import Callable
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from tapete.cli.bench import RANKS, SUITS, best_of, order_agrees
from tapete.cli.bench import _timed_per_hand as timed_per_hand
from tapete.ranking.bulk import evaluate_many, random_hands
from tapete.ranking.low import evaluate_omaha_low, low_mask
from tapete.ranking.omaha import evaluate_omaha
from tapete.ranking.omaha_bulk import (
    evaluate_omaha_low_many,
    evaluate_omaha_many,
    warm_up,
)

U8 = npt.NDArray[np.uint8]
Peer = tuple[str, str, Callable[[U8], list[Any]], Callable[[Any], int], bool]

#: the 60 ways to pick two of four hole cards (columns 0..3) and three of five board cards
#: (columns 4..8)
CHOICES = np.array([a + b for a in combinations(range(4), 2)
                    for b in combinations(range(4, 9), 3)], np.intp)  # fmt: skip


def brute_force(deals: U8) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """``(high, low mask)`` of each row of nine cards (hole then board) by every 2 + 3 choice:
    the high on the hold'em five-card path, the low as the 8-bit mask (ace = bit 0) of the
    best five distinct low ranks, 256 when none qualifies (masks of five ranks compare like
    the lows, lower is better)."""
    fives = deals[:, CHOICES]  # (n, 60, 5)
    n = deals.shape[0]
    high = evaluate_many(fives.reshape(-1, 5)).reshape(n, 60).max(axis=1).astype(np.int64)
    rank = (fives >> 2).astype(np.int64)
    low_rank = np.where(rank == 12, 0, rank + 1)  # ace 0, two 1 .. eight 7, nine up 8 ..
    bits = np.where(low_rank <= 7, 1 << np.minimum(low_rank, 7), 0)
    masks = np.bitwise_or.reduce(bits, axis=2)
    counts = np.zeros_like(masks)
    for b in range(8):
        counts += (masks >> b) & 1
    low = np.where(counts == 5, masks, 256).min(axis=1)
    return high, low


def check(count: int, seed: int = 2) -> dict[str, Any]:
    """The bulk path against :func:`brute_force` on ``count`` random hands, in chunks."""
    to_mask = np.array([256] + [low_mask(s) for s in range(1, 57)], np.int64)
    done = high_wrong = low_wrong = 0
    chunk = 50_000
    k = 0
    while done < count:
        deals = random_hands(min(chunk, count - done), 9, seed=seed * 1_000_003 + k)
        high, low = brute_force(deals)
        high_wrong += int((evaluate_omaha_many(deals[:, :4], deals[:, 4:]) != high).sum())
        ours = to_mask[evaluate_omaha_low_many(deals[:, :4], deals[:, 4:])]
        low_wrong += int((ours != low).sum())
        done += deals.shape[0]
        k += 1
    return {"hands": done, "high_differs": high_wrong, "low_differs": low_wrong}


def _peers() -> list[Peer]:
    """(name, high or low, prepare, call, higher_is_better) for each installed peer."""
    out: list[Peer] = []
    if importlib.util.find_spec("phevaluator"):
        from phevaluator import evaluate_omaha_cards  # card ids are ours: rank * 4 + suit

        out.append(("phevaluator.evaluate_omaha_cards", "high",
                    lambda h: [tuple(r[4:] + r[:4]) for r in h.tolist()],
                    lambda r: evaluate_omaha_cards(*r), False))  # fmt: skip
    if importlib.util.find_spec("pokerkit"):
        from pokerkit import Card, OmahaEightOrBetterLowHand, OmahaHoldemHand

        pk = [next(iter(Card.parse(RANKS[c >> 2] + SUITS[c & 3]))) for c in range(52)]

        def prepare(h: U8) -> list[Any]:
            return [[pk[c] for c in row] for row in h.tolist()]

        def pk_high(r: list[Any]) -> int:
            return int(OmahaHoldemHand.from_game(r[:4], r[4:]).entry.index)

        def pk_low(r: list[Any]) -> int:
            try:
                return int(OmahaEightOrBetterLowHand.from_game(r[:4], r[4:]).entry.index)
            except ValueError:  # no low: below every low
                return 1 << 30

        out.append(("pokerkit OmahaHoldemHand", "high", prepare, pk_high, True))
        out.append(("pokerkit OmahaEightOrBetterLowHand", "low", prepare, pk_low, False))
    return out


def bench(hands: int, seconds: float, seed: int = 1) -> dict[str, Any]:
    warm_up()
    deals = random_hands(hands, 9, seed=seed)
    holes = np.ascontiguousarray(deals[:, :4])
    boards = np.ascontiguousarray(deals[:, 4:])
    high = evaluate_omaha_many(holes, boards)
    low = evaluate_omaha_low_many(holes, boards)
    results: list[dict[str, Any]] = []
    for kind, fn in (("high", evaluate_omaha_many), ("low", evaluate_omaha_low_many)):
        t = best_of(lambda f=fn: f(holes, boards))  # type: ignore[misc]
        results.append({"name": f"tapete bulk ({kind})", "kind": kind,
                        "hands_per_s": round(hands / t)})  # fmt: skip
    ours = {"high": high, "low": low}
    scalar: list[Peer] = [
        ("tapete scalar (high)", "high", lambda h: h.tolist(),
         lambda r: evaluate_omaha(r[:4], r[4:]), True),
        ("tapete scalar (low)", "low", lambda h: h.tolist(),
         lambda r: evaluate_omaha_low(r[:4], r[4:]), True),
    ]  # fmt: skip
    for name, kind, prepare, call, higher in scalar + _peers():
        try:
            done, spent, values = timed_per_hand(prepare, call, deals, seconds)
        except Exception as exc:  # a peer that cannot run here is reported, not fatal
            results.append({"name": name, "kind": kind, "error": repr(exc)})
            continue
        results.append({
            "name": name,
            "kind": kind,
            "hands_per_s": round(done / spent),
            "agrees": order_agrees(ours[kind][:done], values, higher),
        })  # fmt: skip
    return {"hands": hands, "results": results}


def rounds(count: int, hands: int, seconds: float, seed: int = 1) -> list[dict[str, Any]]:
    """``count`` rounds of tapete's bulk high and then phevaluator on the same deals: hands per
    second of each and their ratio (empty when phevaluator is not installed)."""
    peer = next((p for p in _peers() if p[0].startswith("phevaluator")), None)
    if peer is None or count < 1:
        return []
    _, _, prepare, call, _ = peer
    deals = random_hands(hands, 9, seed=seed)
    holes = np.ascontiguousarray(deals[:, :4])
    boards = np.ascontiguousarray(deals[:, 4:])
    out: list[dict[str, Any]] = []
    for _ in range(count):
        ours = hands / best_of(lambda: evaluate_omaha_many(holes, boards))
        done, spent, _ = timed_per_hand(prepare, call, deals, seconds)
        theirs = done / spent
        out.append({"tapete_hands_per_s": round(ours), "phevaluator_hands_per_s": round(theirs),
                    "ratio": round(ours / theirs, 1)})  # fmt: skip
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--check", type=int, default=1_000_000, metavar="N",
                        help="brute-force check of N random hands (0: skip)")
    parser.add_argument("--rounds", type=int, default=5, metavar="R",
                        help="R more rounds of tapete's bulk high and phevaluator, back to back")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    report: dict[str, Any] = {"load_average_1min": load,
                              "evaluate": bench(args.hands, args.seconds)}
    report["rounds"] = rounds(args.rounds, args.hands, args.seconds)
    if args.check:
        report["check"] = check(args.check)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    results = report["evaluate"]["results"]
    bulk = {r["kind"]: r["hands_per_s"] for r in results if r["name"].startswith("tapete bulk")}
    print(f"Ranking {args.hands:,} random Omaha hands, 4 hole cards and 5 on the board "
          f"(load average {load})")  # fmt: skip
    print(f"  {'evaluator':<36} {'hands/s':>12} {'tapete bulk is':>15}  same order")
    for r in results:
        if "error" in r:
            print(f"  {r['name']:<36} {r['error']}")
            continue
        agrees = {True: "yes", False: "NO"}.get(r.get("agrees"), "")
        ratio = bulk[r["kind"]] / r["hands_per_s"]
        print(f"  {r['name']:<36} {r['hands_per_s']:>12,} {ratio:>14.1f}x  {agrees}")
    if "check" in report:
        c = report["check"]
        print(f"\nBrute force (every 2 + 3) on {c['hands']:,} random hands: high differs on "
              f"{c['high_differs']}, low on {c['low_differs']}")  # fmt: skip
    ph = next((r for r in results if r["name"].startswith("phevaluator") and "hands_per_s" in r),
              None)
    if report["rounds"]:
        print("\nBulk high and phevaluator back to back:")
        for k, r in enumerate(report["rounds"], 1):
            print(f"  round {k}: tapete {r['tapete_hands_per_s']:>12,}  phevaluator "
                  f"{r['phevaluator_hands_per_s']:>9,}  {r['ratio']:>6.1f}x")  # fmt: skip
        ratio = float(np.median([r["ratio"] for r in report["rounds"]]))
        print(f"\nTarget: bulk >= 100x phevaluator (median of {len(report['rounds'])} rounds): "
              f"{ratio:.1f}x {'met' if ratio >= 100 else 'MISSED'}")  # fmt: skip
    elif ph is not None:
        ratio = bulk["high"] / ph["hands_per_s"]
        print(f"\nTarget: bulk >= 100x phevaluator: {ratio:.1f}x "
              f"{'met' if ratio >= 100 else 'MISSED'}")
    else:
        print("\nphevaluator is not installed: the 100x target is not measured")
    failed = "check" in report and (report["check"]["high_differs"] or
                                    report["check"]["low_differs"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
