"""``tapete icm STACK... --prizes PRIZE...``: what each stack is worth in a tournament.

tapete icm 5000 3000 2000 --prizes 50 30 20
tapete icm 12000 9000 4000 2500 --prizes 500.00 300.00 200.00 --currency $ --lang es --json

Prizes are the places still to be decided, first place first (decimals allowed: "12.50"); a
negative prize, or a place that pays more than the one above it, is refused with one line that
says so (``tapete.eval.icm.parse_prizes`` says why climbing prizes are refused rather than sorted).
Equities are exact (Independent Chip Model); the table rounds them to the cent (or to the
prizes' own unit when it is finer).
"""

from __future__ import annotations

import argparse
import json
import sys
from decimal import Decimal
from fractions import Fraction

from tapete.cli.replay import default_lang
from tapete.core.catalog import t, tc
from tapete.core.money import money as written
from tapete.core.money import number, percent
from tapete.eval.icm import (
    IcmError,
    decimal_text,
    equities,
    exact_is_practical,
    parse_prizes,
    sampled_equities,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("stacks", nargs="+", type=int, metavar="STACK",
                        help="each player's chips")
    parser.add_argument("--prizes", nargs="+", required=True, metavar="PRIZE",
                        help="the prizes still to be won, first place first (largest to smallest)")
    parser.add_argument("--names", nargs="+", metavar="NAME", help="the players' names")
    parser.add_argument("--currency", default="", help="shown with the prizes: $, €...")
    parser.add_argument("--lang", choices=("en", "es"), default=None,
                        help="language of the table (default: from the locale)")
    parser.add_argument("--samples", type=int, default=100_000, metavar="N",
                        help="finishing orders drawn when the field is too large to price"
                             " exactly (default 100,000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of those draws (default 0)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")


def run(args: argparse.Namespace) -> int:
    lang = args.lang or default_lang()
    try:
        prizes, decimals = parse_prizes(" ".join(args.prizes))
    except IcmError as exc:
        print(f"tapete icm: {exc.message.in_lang(lang)}", file=sys.stderr)
        return 2
    names = args.names or [f"p{i + 1}" for i in range(len(args.stacks))]
    if len(names) != len(args.stacks):
        print("tapete icm: " + t("one name per player").in_lang(lang), file=sys.stderr)
        return 2
    paid = max((i + 1 for i, p in enumerate(prizes) if p), default=0)  # unpaid places are free
    exact = exact_is_practical(len(args.stacks), paid)
    try:
        values = (equities(args.stacks, prizes) if exact else
                  sampled_equities(args.stacks, prizes, args.samples, args.seed))
    except IcmError as exc:
        print(f"tapete icm: {exc.message.in_lang(lang)}", file=sys.stderr)
        return 2
    pool = sum(prizes)
    total = sum(args.stacks)
    shown = max(decimals, 2)  # equities are shown to the cent even when the prizes are whole
    if args.json:
        print(json.dumps({
            "prizes": [str(Decimal(p).scaleb(-decimals)) for p in prizes],
            "exact": exact, "samples": None if exact else args.samples,
            "players": [{"name": nm, "stack": s, "equity": decimal_text(v, decimals),
                         "equity_exact": str(v / 10**decimals)}
                        for nm, s, v in zip(names, args.stacks, values, strict=True)]}))
        return 0

    def money(x: Fraction, digits: int = shown) -> str:
        return written(round(x * 10 ** (digits - decimals)), digits, args.currency, lang)

    head = tuple(x.in_lang(lang) for x in (tc("ICM table", "player"), tc("ICM table", "chips"),
                                            tc("ICM table", "% chips"), tc("ICM table", "equity"),
                                            tc("ICM table", "% prizes")))
    rows = [(nm, number(s, lang), percent(Fraction(s, total), 1, lang), money(v),
             percent(v / pool if pool else Fraction(0), 1, lang))
            for nm, s, v in zip(names, args.stacks, values, strict=True)]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(5)]
    listed = " / ".join(money(Fraction(p), decimals) for p in prizes)
    title = (t("ICM (Malmuth-Harville), prizes {prizes}", prizes=listed) if exact else
             t("ICM (Malmuth-Harville), prizes {prizes} (Monte Carlo, {orders} orders)",
               prizes=listed, orders=args.samples))
    print(title.in_lang(lang))
    for r in [head, *rows]:
        print("  ".join(r[0].ljust(widths[0]) if i == 0 else r[i].rjust(widths[i])
                        for i in range(5)))
    return 0
