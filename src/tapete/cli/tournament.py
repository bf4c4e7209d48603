"""``tapete tournament``: a whole multi-table tournament played by bots.

    tapete tournament --players 200 --bots tag,lag,nit,station,maniac --seed 1 --json

The seats are drawn, the blinds follow the schedule (``--level-hands`` hands a level, from
25/50 with a big-blind ante from level 3, the stacks ``--stack``), tables break and balance
as docs/rules.md ("Tournaments") says, down to the final table and the winner. ``--json``
prints ``{"players", "entries", "prize_pool", "payouts", "finish": [{"place", "name", "bot",
"prize", "tied"}], "hands": [{"hand", "table", "round", "level", "hand_for_hand",
"players"}], "deal", "seconds"}`` (levels from 1, the finish first place first); ``--phh
DIR`` writes every hand (its table in ``table``, its seats in ``seats``, the level and the
round in the user fields ``_level`` and ``_round``); ``--chart FILE.svg`` plots the chip
leader's and the average stack. A progress line (level, players left, tables) is drawn on
stderr when it is a terminal. A mistake in the command line is one line in the locale's
language, status 2, before any hand is played.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import TextIO

from tapete.bots import BOT_NAMES
from tapete.core.catalog import t
from tapete.core.hand import Hand
from tapete.tournament.director import Director, RoundReport
from tapete.tournament.model import (
    TournamentError,
    TournamentRules,
    fast_schedule,
    parse_levels,
)
from tapete.tournament.sim import HandInfo, SimResult, simulate


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, default=100, help="players at the start (default 100)")
    p.add_argument("--bots", default="tag,lag,nit,station,maniac",
                   help=f"comma-separated styles, taken in turn: {', '.join(BOT_NAMES)}")
    p.add_argument("--seed", type=int, default=0, help="seats, decks and bots (default 0)")
    p.add_argument("--seats", type=int, default=9, help="seats a table (default 9)")
    p.add_argument("--stack", type=int, default=5000, help="starting stack (default 5000)")
    p.add_argument("--level-hands", type=int, default=10,
                   help="hands a level (default 10)")
    p.add_argument("--levels", metavar="LEVELS",
                   help='the schedule instead: "25/50x10 50/100x10 75/150/150x10" (small/big'
                        '[/big-blind ante]xhands)')
    p.add_argument("--buy-in", type=int, default=100, help="buy-in (default 100)")
    p.add_argument("--deal", choices=("icm", "chip"), default=None,
                   help="offer this deal when --deal-at players are left, all in the money")
    p.add_argument("--deal-at", type=int, default=3, help="players left for a deal (default 3)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--phh", metavar="DIR", help="write every hand as a PHH file into DIR")
    p.add_argument("--chart", metavar="FILE", help="the chip leader and the average (.svg)")
    p.add_argument("--no-progress", action="store_true", help="no progress line on stderr")


class Progress:
    """Level, players left and tables, redrawn in place on a terminal (five times a second
    at most); nothing when stderr is not a terminal."""

    def __init__(self, lang: str, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.lang = lang
        self.last = 0.0
        isatty = getattr(self.stream, "isatty", None)
        self.tty = bool(isatty()) if isatty is not None else False

    def __call__(self, director: Director, report: RoundReport) -> None:
        if not self.tty:
            return
        now = time.perf_counter()
        if not director.over and now - self.last < 0.2:
            return
        self.last = now
        lv = director.rules.schedule.level(director.level)
        line = t("level {level} ({small}/{big}, ante {ante}) · players left: {left} ·"
                 " tables: {tables} · hand {hand}", level=director.level + 1,
                 small=lv.small_blind, big=lv.big_blind, ante=lv.ante,
                 left=sum(director.table_sizes().values()), tables=len(director.tables),
                 hand=director.round).in_lang(self.lang)
        self.stream.write("\r" + line + " " * 8 + ("\n" if director.over else ""))
        self.stream.flush()


def svg(res: SimResult, title: str, lang: str) -> str:
    from tapete.cli.simulate import svg_lines

    leader = [(float(x), float(y)) for x, y, _ in res.chart]
    average = [(float(x), avg) for x, _, avg in res.chart]
    n = max(1.0, leader[-1][0] if leader else 1.0)
    names = [t("chip leader").in_lang(lang), t("average stack").in_lang(lang)]
    return svg_lines([leader, average], names, title, n, t("hands dealt").in_lang(lang),
                     t("chips").in_lang(lang))


def results(res: SimResult, seconds: float) -> dict[str, object]:
    d = res.director
    order = sorted(d.players.values(), key=lambda p: (p.place, p.name))
    return {
        "players": len(d.players), "entries": d.entries, "prize_pool": d.prize_pool,
        "payouts": [x for x in d.prizes() if x > 0],
        "finish": [{"place": p.place, "name": p.name, "bot": p.style, "prize": p.prize,
                    "tied": p.tied} for p in order],
        "hands": [{"hand": h.hand_id, "table": h.table, "round": h.round + 1,
                   "level": h.level + 1, "hand_for_hand": h.hand_for_hand,
                   "players": h.players} for h in res.hands],
        "deal": d.deal,
        "seconds": round(seconds, 2),
    }


def run(args: argparse.Namespace) -> int:
    from tapete.cli import fail, output_problem, write_problem
    from tapete.cli.replay import default_lang

    lang = default_lang()
    styles = [b.strip().lower() for b in str(args.bots).split(",") if b.strip()]
    unknown = [b for b in styles if b not in BOT_NAMES]
    if unknown or not styles:
        return fail("tournament", t("unknown bot {bot}; choose from {bots}",
                                    bot=repr(unknown[0] if unknown else ""),
                                    bots=", ".join(BOT_NAMES)), lang)
    if args.players < 2:
        return fail("tournament", t("--players must be at least 2"), lang)
    if args.level_hands < 1:
        return fail("tournament", t("--level-hands must be at least 1"), lang)
    chart = args.chart
    if chart and not chart.lower().endswith(".svg"):
        return fail("tournament", t("--chart takes a .svg file name"), lang)
    problem = output_problem(chart, "--chart") if chart else None
    if problem is not None:
        return fail("tournament", problem, lang)
    try:
        schedule = parse_levels(args.levels) if args.levels else \
            fast_schedule(length=args.level_hands)
        rules = TournamentRules(schedule,
                                starting_stack=args.stack, seats=args.seats,
                                buy_in=args.buy_in,
                                deal_players=args.deal_at if args.deal else 0,
                                deal=args.deal or "icm")
    except TournamentError as exc:
        return fail("tournament", exc.message, lang)
    on_hand = None
    if args.phh:
        from tapete.history.phh import dumps

        folder = str(args.phh)
        if os.path.exists(folder) and not os.path.isdir(folder):
            return fail("tournament", t("--phh {folder} is a file: give a folder",
                                        folder=folder), lang)
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as exc:
            return fail("tournament", write_problem(folder, exc), lang)

        def on_hand(hand: Hand, info: HandInfo) -> None:
            text = dumps(hand, table=str(info.table), max_seats=rules.seats,
                         extra={"_level": info.level + 1, "_round": info.round + 1})
            with open(os.path.join(folder, f"{hand.hand_id}.phh"), "w", encoding="utf-8") as f:
                f.write(text)

    progress = None if args.no_progress else Progress(lang)
    t0 = time.perf_counter()
    try:
        res = simulate(rules, styles, args.players, seed=args.seed, on_hand=on_hand,
                       on_round=progress)
    except OSError as exc:  # the disk can fill up while the hands are written
        return fail("tournament", write_problem(str(args.phh), exc), lang)
    seconds = time.perf_counter() - t0
    if chart:
        title = t("{players} players, seed {seed}: the chip leader and the average stack",
                  players=args.players, seed=args.seed).in_lang(lang)
        try:
            with open(chart, "w", encoding="utf-8") as f:
                f.write(svg(res, title, lang))
        except OSError as exc:
            return fail("tournament", write_problem(chart, exc), lang)
    out = results(res, seconds)
    if args.json:
        print(json.dumps(out))
        return 0
    d = res.director
    print(t("{players} players, {hands} hands, prize pool {pool}, {seconds} s",
            players=len(d.players), hands=len(res.hands), pool=d.prize_pool,
            seconds=f"{seconds:.1f}").in_lang(lang))
    for p in sorted(d.players.values(), key=lambda p: (p.place, p.name)):
        if p.prize <= 0:
            break
        print(f"{p.place:>4}  {p.name:<16} {p.prize:>10}")
    if d.deal is not None:
        print(t("a deal ended it").in_lang(lang))
    return 0
