"""``tapete equity``: the equity of hands or ranges, exact or by Monte Carlo.

tapete equity AhKh QsQd
tapete equity AhKh "TT+, AKs" random --board 2c7d9h --samples 1000000
tapete equity AKs QQ --exact --json
tapete equity AsAdKsKd QhQdJhJd --board 2c7d9h       # Omaha: hands of four (or five) cards
tapete equity As2dKsKd QhQdJhJd --board 2c7d9h --hi-lo   # Omaha hi-lo, eight or better
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING

from tapete.core.cards import CardError
from tapete.core.catalog import t, tc, tn
from tapete.eval.ranges import RangeError

if TYPE_CHECKING:
    from tapete.eval.omaha import HiLoResult


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "players",
        nargs="+",
        metavar="HAND_OR_RANGE",
        help='a hand (AhKh) or a range ("TT+, AKs, A5s-A2s", random), one per player (2 to 9);'
        ' Omaha: a hand of four cards (AsAdKsKd) or five for each player, or an Omaha range'
        ' (AAxx, KQJTds, JT98ss, random)',
    )
    parser.add_argument("--board", default="", metavar="CARDS", help="0, 3, 4 or 5 board cards")
    parser.add_argument("--dead", default="", metavar="CARDS", help="cards out of the deck")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true", help="enumerate every board")
    how.add_argument(
        "--samples", type=int, metavar="N", help="Monte Carlo with N boards (default: exact when "
        "that takes under a second, else 1,000,000 samples; Omaha: exact from the flop or with "
        "few boards to deal, else 50,000 samples)"
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="Monte Carlo seed (default 0)")
    parser.add_argument("--hi-lo", action="store_true", help="Omaha hi-lo, eight or better: "
                        "each pot split between the best high and the best low (scoop, high "
                        "and low shares)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--lang", choices=("en", "es"), default=None,
                        help="language of the error messages (default: from the locale)")


class _Bar:
    """A progress bar on stderr, shown only on a terminal and once a run passes half a second."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.shown = False
        self.tty = sys.stderr.isatty()

    def __call__(self, done: float) -> None:
        if not self.tty or time.perf_counter() - self.start < 0.5:
            return
        self.shown = True
        filled = int(done * 30)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done * 100:5.1f} %")
        sys.stderr.flush()

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * 42 + "\r")
            sys.stderr.flush()


def run(args: argparse.Namespace) -> int:
    from tapete.cli.replay import default_lang
    from tapete.eval.equity import EquityError, equity
    from tapete.eval.omaha import (
        SAMPLES,
        OmahaError,
        omaha_equity,
        omaha_hilo_equity,
        omaha_size,
    )

    if args.samples is not None and args.samples < 1:
        print("tapete equity: error: --samples must be at least 1", file=sys.stderr)
        return 2
    lang = args.lang or default_lang()
    bar = _Bar()
    exact = True if args.exact else (False if args.samples is not None else None)
    try:
        if args.hi_lo:
            if omaha_size(args.players) is None:
                raise OmahaError(t("--hi-lo is Omaha's: give hands of four (or five) cards"))
            hilo = omaha_hilo_equity(args.players, board=args.board, dead=args.dead,
                                     exact=exact,
                                     samples=args.samples if args.samples is not None
                                     else SAMPLES, seed=args.seed, progress=bar)
            bar.close()
            return _print_hilo(hilo, args, lang)
        if omaha_size(args.players) is not None:  # hands of four or five cards
            result = omaha_equity(args.players, board=args.board, dead=args.dead, exact=exact,
                                  samples=args.samples if args.samples is not None else SAMPLES,
                                  seed=args.seed, progress=bar)
        else:
            result = equity(
                args.players,
                board=args.board,
                dead=args.dead,
                exact=exact,
                samples=args.samples if args.samples is not None else 1_000_000,
                seed=args.seed,
                progress=bar,
            )
    except OmahaError as exc:
        bar.close()
        print(f"tapete equity: error: {exc.message.in_lang(lang)}", file=sys.stderr)
        return 2
    except (EquityError, RangeError, CardError) as exc:
        bar.close()
        print(f"tapete equity: error: {exc}", file=sys.stderr)
        return 2
    bar.close()
    if args.json:
        out = result.to_json()
        print(json.dumps(out))
        return 0
    width = max(8, *(len(p.hand) for p in result.players))
    interval = not result.exact
    head = f"{'hand':<{width}}  {'equity':>8}" + (f"  {'± 95 %':>7}" if interval else "")
    print(head + f"  {'win':>8}  {'tie':>8}")
    for p in result.players:
        line = f"{p.hand:<{width}}  {p.equity * 100:7.3f}%"
        if interval:
            line += f"  {(p.interval or 0.0) * 100:6.3f}%"
        line += f"  {p.wins / result.weight * 100:7.3f}%  {p.ties / result.weight * 100:7.3f}%"
        print(line)
    how = "exact enumeration" if result.exact else f"Monte Carlo, seed {args.seed}"
    # the work's time: loading the compiled kernels (a new process's first half second, or the
    # first run's compiling) is not the question's
    print(f"{result.boards:,} boards, {how}, {result.seconds:.3f} s")
    return 0


def _print_hilo(result: HiLoResult, args: argparse.Namespace, lang: str) -> int:
    """The hi-lo table, its words in the reader's language."""
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    words = [w.in_lang(lang) for w in (t("hand"), t("equity"), t("scoop"), tc("hi-lo", "high"),
                                       tc("hi-lo", "low"))]
    width = max(8, len(words[0]), *(len(p.hand) for p in result.players))
    cols = [max(8, len(w)) for w in words[1:]]
    interval = not result.exact
    head = f"{words[0]:<{width}}  {words[1]:>{cols[0]}}" + (f"  {'± 95 %':>7}" if interval
                                                             else "")
    print(head + "".join(f"  {w:>{c}}" for w, c in zip(words[2:], cols[1:], strict=True)))
    for p in result.players:
        line = f"{p.hand:<{width}}  {p.equity * 100:{cols[0] - 1}.3f}%"
        if interval:
            line += f"  {(p.interval or 0.0) * 100:6.3f}%"
        for value, c in zip((p.scoop, p.high, p.low), cols[1:], strict=True):
            line += f"  {value * 100:{c - 1}.3f}%"
        print(line)
    seconds = f"{result.seconds:.3f}"
    share = f"{result.low_qualifies * 100:.3f}%"
    n = result.boards
    how = (tn("{n} board, exact enumeration", "{n} boards, exact enumeration", n)
           if result.exact else
           tn("{n} board, Monte Carlo, seed {seed}", "{n} boards, Monte Carlo, seed {seed}", n,
              seed=str(args.seed)))  # fmt: skip
    low = t("{seconds} s; a low on {share} of the boards", seconds=seconds, share=share)
    print(f"{how.in_lang(lang)}, {low.in_lang(lang)}")
    return 0
