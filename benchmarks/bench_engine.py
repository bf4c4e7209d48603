"""Benchmark: random 6-max no-limit hands with random legal actions, tapete against PokerKit.

    PYTHONPATH=src python benchmarks/bench_engine.py [--hands N] [--pokerkit-hands M]
        [--profile] [--diff N]

Both engines play the same kind of hand in the same run: blinds 1/2, six players with 200
chips, random legal actions (fold 12 %, raise 38 % to a random legal size, else check/call),
automatic dealing and showdown. Reports hands per second of CPU time (``time.process_time``,
so that other work on a shared machine does not skew the ratio) for each and the ratio (target:
tapete >= 50x PokerKit). ``--profile`` prints tapete's cProfile top functions. ``--diff N`` runs the
differential test's N-hand sweep (tests/core/test_differential_pokerkit.py) and reports its rate —
the place for runs far beyond the 10,000 hands the test suite plays.

The engine runs compiled where the install built it with mypyc (setup.py);
``TAPETE_PURE=1`` measures the Python sources instead. The first line says which.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import tapete  # noqa: E402
from tapete.core.cards import Deck  # noqa: E402
from tapete.core.hand import Hand  # noqa: E402
from tapete.core.rules import Rules  # noqa: E402

PLAYERS = 6
STACK = 200


def tapete_hands(count: int, seed: int = 1, full_deck: bool = False) -> float:
    rules = Rules(small_blind=1, big_blind=2)
    rng = random.Random(seed)
    rnd = rng.random
    sample = rng.sample
    cards = range(52)
    stacks = [STACK] * PLAYERS
    t0 = time.process_time()
    for _ in range(count):
        # the cards a 6-handed deal uses, drawn at random (a full seeded Deck(seed) shuffle
        # per hand costs about as much again as the engine: see --deck)
        deck = Deck(rng.getrandbits(64)) if full_deck else sample(cards, 2 * PLAYERS + 5)
        h = Hand(rules, stacks, deck=deck, auto_showdown=True)
        while not h.done:
            lg = h.legal()
            x = rnd()
            if lg.fold and x < 0.12:
                h.fold()
            elif lg.min_to is not None and x > 0.62:
                assert lg.max_to is not None
                h.raise_to(lg.min_to + int(rnd() * (lg.max_to - lg.min_to + 1)))
            elif lg.check:
                h.check()
            else:
                h.call()
    return time.process_time() - t0


def pokerkit_hands(count: int, seed: int = 1) -> float:
    from pokerkit import Automation, Mode, NoLimitTexasHoldem

    automations = (
        Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
    )
    rng = random.Random(seed)
    t0 = time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(count):
            s: Any = NoLimitTexasHoldem.create_state(
                automations, False, 0, (1, 2), 2, (STACK,) * PLAYERS, PLAYERS,
                mode=Mode.TOURNAMENT)
            while s.status:
                x = rng.random()
                lo = s.min_completion_betting_or_raising_to_amount
                if s.can_fold() and x < 0.12:
                    s.fold()
                elif lo is not None and x > 0.62:
                    hi = s.max_completion_betting_or_raising_to_amount
                    s.complete_bet_or_raise_to(lo + int(rng.random() * (hi - lo + 1)))
                else:
                    s.check_or_call()
    return time.process_time() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20_000, help="tapete hands")
    ap.add_argument("--pokerkit-hands", type=int, default=1_000)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--deck", action="store_true",
                    help="deal tapete's hands from a full seeded Deck(seed) shuffle")
    ap.add_argument("--diff", type=int, default=0, help="differential sweep of N hands")
    a = ap.parse_args(argv)
    print(f"tapete's engine: {tapete.build_kind()}")
    ours = 0.0
    if a.hands:
        tapete_hands(200)  # warm up (imports, evaluator tables)
        t = tapete_hands(a.hands, full_deck=a.deck)
        ours = a.hands / t
        print(f"tapete:   {a.hands:7d} hands in {t:6.2f} s = {ours:9.0f} hands/s")
    theirs = 0.0
    if a.pokerkit_hands:
        try:
            tp = pokerkit_hands(a.pokerkit_hands)
        except ImportError:
            print("pokerkit is not installed: no comparison")
        else:
            theirs = a.pokerkit_hands / tp
            print(f"PokerKit: {a.pokerkit_hands:7d} hands in {tp:6.2f} s = {theirs:9.0f} hands/s")
            if ours:
                print(f"ratio:    {ours / theirs:.1f}x (target >= 50x)")
    if a.profile and a.hands:
        import cProfile
        import pstats

        pr = cProfile.Profile()
        pr.enable()
        tapete_hands(min(a.hands, 5000), full_deck=a.deck)
        pr.disable()
        pstats.Stats(pr).sort_stats("tottime").print_stats(25)
    if a.diff:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
        import test_differential_pokerkit as d

        t0 = time.perf_counter()
        tally = d.run_parallel(a.diff)
        dt = time.perf_counter() - t0
        print(f"differential: {tally.hands} hands ({tally.compared} compared to the end, "
              f"{tally.decisions} decisions) in {dt:.1f} s; excluded {dict(tally.excluded)}; "
              f"dropped {dict(tally.dropped)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
