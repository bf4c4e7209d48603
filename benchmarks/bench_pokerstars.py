"""PokerStars text: files and hands parsed and replayed per second (parse included).

    PYTHONPATH=src python benchmarks/bench_pokerstars.py [--repeat 5] [--hands 2000]

Two workloads, each timed from the file's bytes to the last hand settled and reconciled with
its SUMMARY (reading from disk is not timed):

* the fixtures of ``tests/data/pokerstars`` (15 files, 21 hold'em hands; the 3 Omaha files
  are read up to their header and reported as not supported): files/s and hands/s;
* one large file of random engine hands (``--hands``, written by tapete's own writer, 2 to 10
  players, all three structures, side pots, run it twice): hands/s and MB/s.

Reports the best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "history"))  # the round trip's random hands

from tapete.core.hand import Hand  # noqa: E402
from tapete.history import pokerstars as ps  # noqa: E402
from tapete.history.record import HandRecord  # noqa: E402
from tapete.history.replay import replay  # noqa: E402


def run(blobs: list[bytes]) -> tuple[int, int]:
    """Parse, replay and reconcile every hand; (hands replayed, hands refused)."""
    ok = refused = 0
    for data in blobs:
        for item in ps.read_bytes(data, "bench"):
            if not isinstance(item, HandRecord):
                refused += 1
                continue
            hand = replay(item).engine
            if hand is None or not hand.done:
                raise SystemExit(f"hand {item.hand_id} does not replay")
            if ps.reconcile(item, hand):
                raise SystemExit(f"hand {item.hand_id} does not reconcile")
            ok += 1
    return ok, refused


def best(blobs: list[bytes], repeat: int) -> tuple[float, int, int]:
    times = []
    ok = refused = 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        ok, refused = run(blobs)
        times.append(time.perf_counter() - t0)
    return min(times), ok, refused


def random_file(count: int) -> bytes:
    from test_pokerstars_roundtrip import random_hand

    hands: list[Hand] = [random_hand(seed) for seed in range(count)]
    return ps.write_hands(hands).encode("utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--hands", type=int, default=2000)
    args = ap.parse_args()
    files = sorted((ROOT / "tests" / "data" / "pokerstars").glob("*.txt"))
    blobs = [p.read_bytes() for p in files]
    run(blobs)  # warm-up (imports, evaluator tables)
    wall, ok, refused = best(blobs, args.repeat)
    print(f"fixtures: {len(blobs)} files ({ok} hold'em hands replayed, {refused} Omaha "
          f"refused) in {wall * 1000:.1f} ms: {len(blobs) / wall:,.0f} files/s, "
          f"{ok / wall:,.0f} hands/s")
    big = random_file(args.hands)
    wall, ok, refused = best([big], args.repeat)
    assert refused == 0
    print(f"random hands: one {len(big) / 1e6:.1f} MB file, {ok:,} hands in {wall:.2f} s: "
          f"{ok / wall:,.0f} hands/s, {len(big) / 1e6 / wall:.1f} MB/s")


if __name__ == "__main__":
    main()
