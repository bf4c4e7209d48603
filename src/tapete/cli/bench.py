"""``tapete bench``: measure the evaluator, alone and against the peers that are installed.

    tapete bench enumerate [--json]     every seven-card hand, counted by category
    tapete bench evaluate [--json]      the same random hands ranked by tapete and each peer

The peers (eval7, phevaluator, treys, PokerKit, pokerfast) are never dependencies of tapete:
each is imported here only if it is installed, and skipped otherwise. Slow per-hand APIs rank a
prefix of the same hands for about ``--seconds`` each (CPU time of this process, see
:data:`clock`); each result says whether that peer
ordered its hands exactly as tapete did (ties included).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

U8 = npt.NDArray[np.uint8]

CATEGORY_NAMES = (
    "high card", "one pair", "two pair", "three of a kind", "straight", "flush",
    "full house", "four of a kind", "straight flush",
)  # fmt: skip
RANKS = "23456789TJQKA"
SUITS = "cdhs"

#: Everything measured runs on one thread of this process, so its CPU time is what it cost:
#: the same as the wall clock on an idle machine, and still fair when other work shares it.
clock = time.process_time


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="what", metavar="WHAT", required=True)
    p = sub.add_parser("enumerate", help="rank all 133,784,560 seven-card hands")
    p.add_argument("--json", action="store_true", help="print JSON")
    p = sub.add_parser("evaluate", help="rank random hands with tapete and every installed peer")
    p.add_argument("--hands", type=int, default=10_000_000, help="random 7-card hands (10M)")
    p.add_argument("--seconds", type=float, default=1.0, help="time for each per-hand API")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print JSON")


# --------------------------------------------------------------------------- enumerate


def bench_enumerate() -> dict[str, Any]:
    """All seven-card hands: counts per category and the seconds it took (compiled code)."""
    from tapete.ranking.bulk import category_counts, enumerate_seven

    enumerate_seven(warm_up=True)  # load or compile the kernel outside the timing
    started = clock()
    hist = enumerate_seven()
    seconds = clock() - started
    counts = category_counts(hist)
    return {
        "hands": int(hist.sum()),
        "categories": {CATEGORY_NAMES[c]: counts[c] for c in sorted(counts, reverse=True)},
        "seconds": round(seconds, 4),
    }


# --------------------------------------------------------------------------- evaluate


def order_agrees(ours: npt.ArrayLike, theirs: npt.ArrayLike, higher_is_better: bool) -> bool:
    """True if ``theirs`` ranks the hands exactly as ``ours`` does, ties included."""
    a = np.asarray(ours, np.int64)
    b = np.asarray(theirs, np.int64)
    if not higher_is_better:
        b = -b
    order = np.lexsort((b, a))
    a, b = a[order], b[order]
    same = a[1:] == a[:-1]
    return bool(np.all(b[1:][same] == b[:-1][same]) and np.all(b[1:][~same] > b[:-1][~same]))


def _names(hands: U8) -> list[list[str]]:
    return [[RANKS[c >> 2] + SUITS[c & 3] for c in row] for row in hands.tolist()]


def _timed_per_hand(
    prepare: Callable[[U8], list[Any]], call: Callable[[Any], int], hands: U8, seconds: float
) -> tuple[int, float, list[int]]:
    """Rank hands one Python call each, in chunks, until ``seconds`` pass; the prepared input
    (the library's own card objects) is built outside the timing."""
    done = 0
    spent = 0.0
    values: list[int] = []
    chunk = 2000
    while done < len(hands) and spent < seconds:
        items = prepare(hands[done : done + chunk])
        started = clock()
        values.extend([call(x) for x in items])
        spent += clock() - started
        done += len(items)
        chunk = min(chunk * 2, 200_000)
    return done, spent, values


def _peers() -> list[tuple[str, Callable[[U8], list[Any]], Callable[[Any], int], bool]]:
    """(name, prepare, call, higher_is_better) for each installed per-hand peer."""
    out: list[tuple[str, Callable[[U8], list[Any]], Callable[[Any], int], bool]] = []
    if importlib.util.find_spec("eval7"):
        import eval7

        e7 = [eval7.Card(RANKS[c >> 2] + SUITS[c & 3]) for c in range(52)]
        out.append(
            ("eval7", lambda h: [[e7[c] for c in row] for row in h.tolist()], eval7.evaluate, True)
        )
    if importlib.util.find_spec("phevaluator"):
        # phevaluator's card ids are ours: rank * 4 + suit
        from phevaluator import evaluate_cards

        out.append(
            ("phevaluator", lambda h: [tuple(r) for r in h.tolist()], lambda r: evaluate_cards(*r),
             False)
        )  # fmt: skip
    if importlib.util.find_spec("treys"):
        from treys import Card, Evaluator

        tc = [Card.new(RANKS[c >> 2] + SUITS[c & 3]) for c in range(52)]
        ev = Evaluator()
        out.append(
            ("treys", lambda h: [[tc[c] for c in row] for row in h.tolist()],
             lambda r: ev.evaluate(r[:2], r[2:]), False)
        )  # fmt: skip
    if importlib.util.find_spec("pokerkit"):
        from pokerkit import Card as PkCard
        from pokerkit import StandardHighHand

        pk = [next(iter(PkCard.parse(RANKS[c >> 2] + SUITS[c & 3]))) for c in range(52)]

        def pk_call(r: list[Any]) -> int:
            return int(StandardHighHand.from_game(r[:2], r[2:]).entry.index)

        out.append(("pokerkit", lambda h: [[pk[c] for c in row] for row in h.tolist()],
                    pk_call, True))  # fmt: skip
    if importlib.util.find_spec("pokerfast"):
        import pokerfast

        out.append(("pokerfast.eval7 (per hand)", _names, pokerfast.eval7, True))
    return out


def _pokerfast_batch(hands: U8) -> Callable[[], npt.NDArray[np.uint16]] | None:
    """OMPEval's batch call through pokerfast's C ABI, on the same card bytes (its suit order
    differs from ours, which renames suits and so changes no hand's strength)."""
    if not importlib.util.find_spec("pokerfast"):
        return None
    import ctypes

    from pokerfast import equity as pf

    if not pf.available():
        return None
    lib = pf._load()
    out = np.empty(len(hands), np.uint16)
    buf = np.ascontiguousarray(hands)
    ptr = out.ctypes.data_as(ctypes.POINTER(ctypes.c_uint16))
    raw = buf.ctypes.data_as(ctypes.c_char_p)

    def call() -> npt.NDArray[np.uint16]:
        if lib.pf_evaluate(raw, len(buf), buf.shape[1], ptr) != 0:
            raise RuntimeError("pokerfast evaluate failed")
        return out

    return call


def best_of(fn: Callable[[], object], runs: int = 3) -> float:
    """The fastest of ``runs`` timings of ``fn`` (seconds of the clock used here)."""
    best = float("inf")
    for _ in range(runs):
        started = clock()
        fn()
        best = min(best, clock() - started)
    return best


def bench_evaluate(hands: int = 10_000_000, seconds: float = 1.0, seed: int = 1) -> dict[str, Any]:
    """Hands per second of tapete's bulk and scalar paths and of each installed peer."""
    from tapete.ranking import evaluate
    from tapete.ranking.bulk import evaluate_many, random_hands

    cards = random_hands(hands, 7, seed)
    out = np.empty(hands, np.uint16)
    evaluate_many(cards[:10], out=out[:10])  # load or compile outside the timing
    t = best_of(lambda: evaluate_many(cards, out=out))
    ours = out.copy()
    results: list[dict[str, Any]] = [
        {"name": "tapete (bulk, numba)", "hands": hands, "hands_per_s": round(hands / t)}
    ]
    done, spent, _ = _timed_per_hand(lambda h: [tuple(r) for r in h.tolist()], evaluate, cards,
                                     seconds)  # fmt: skip
    results.append({"name": "tapete (scalar, Python)", "hands": done,
                    "hands_per_s": round(done / spent)})  # fmt: skip
    batch = _pokerfast_batch(cards)
    if batch is not None:
        t = best_of(batch)
        results.append({
            "name": "pokerfast (OMPEval batch)", "hands": hands, "hands_per_s": round(hands / t),
            "agrees": order_agrees(ours, batch(), True),
        })  # fmt: skip
    for name, prepare, call, higher in _peers():
        try:
            done, spent, values = _timed_per_hand(prepare, call, cards, seconds)
        except Exception as exc:  # a peer's API changed: report, keep benchmarking
            results.append({"name": name, "error": f"{type(exc).__name__}: {exc}"})
            continue
        results.append({
            "name": name, "hands": done, "hands_per_s": round(done / spent),
            "agrees": order_agrees(ours[:done], values, higher),
        })  # fmt: skip
    return {"hands": hands, "results": results}


# --------------------------------------------------------------------------- CLI


def run(args: argparse.Namespace) -> int:
    if args.what == "enumerate":
        res = bench_enumerate()
        if args.json:
            print(json.dumps(res))
        else:
            print(f"{res['hands']:,} seven-card hands in {res['seconds']:.3f} s")
            for name, count in res["categories"].items():
                print(f"  {name:<16} {count:>12,}")
        return 0
    if args.hands < 1 or args.seconds <= 0:
        print("tapete bench: error: --hands and --seconds must be positive", file=sys.stderr)
        return 2
    res = bench_evaluate(args.hands, args.seconds, args.seed)
    if args.json:
        print(json.dumps(res))
        return 0
    base = res["results"][0]["hands_per_s"]
    print(f"{'evaluator':<28} {'hands':>11} {'hands/s':>14} {'tapete bulk is':>15}  agrees")
    for r in res["results"]:
        if "error" in r:
            print(f"{r['name']:<28} {'':>11} {'':>14} {'':>15}  {r['error']}")
            continue
        agrees = {True: "yes", False: "NO"}.get(r.get("agrees"), "")
        ratio = base / r["hands_per_s"]
        print(
            f"{r['name']:<28} {r['hands']:>11,} {r['hands_per_s']:>14,} {ratio:>14.1f}x  {agrees}"
        )
    return 0
