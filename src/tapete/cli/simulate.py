"""``tapete simulate``: duplicate matches between bots, with a results table or JSON.

    tapete simulate --bots tag,lag,nit,station,maniac,random --hands 6000 --seed 1

Each deal is played once per seat rotation (every bot plays every seat's cards); stacks are
100 big blinds every hand; results are mbb/hand (thousandths of a big blind) with a 95 %
interval from the per-deal averages. ``--json`` prints
``{"hands": N, "bots": [{"name", "mbb_per_hand", "ci95"}]}`` where ``ci95`` is the half-width
of that interval, in mbb/hand. A mistake in the command line (an unknown bot, a ``--chart``
that cannot be written...) is one line in the locale's language, status 2, before any hand is
played.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import TextIO

from tapete.bots import BOT_NAMES
from tapete.bots.match import MatchResult, run_match
from tapete.core.catalog import t
from tapete.core.hand import Hand
from tapete.core.rules import Structure

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
           "#7f7f7f", "#17becf")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bots", default="tag,lag,nit,station,maniac,random",
                   help=f"comma-separated, one per seat (2 to 9): {', '.join(BOT_NAMES)}")
    p.add_argument("--hands", type=int, default=6000,
                   help="hands to play, rounded up to whole deals (a multiple of the bots)")
    p.add_argument("--structure", default="nl", choices=["nl", "pl", "fl"],
                   help="no-limit, pot-limit or fixed-limit (default nl)")
    p.add_argument("--seed", type=int, default=0, help="decks and bots are seeded (default 0)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--chart", metavar="FILE", help="cumulative results chart (.svg or .png)")
    p.add_argument("--phh", metavar="DIR", help="write every hand as a PHH file into DIR")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


class Progress:
    """A progress bar on stderr: redrawn in place five times a second on a terminal, a line
    every ten seconds otherwise (logs)."""

    def __init__(self, stream: TextIO | None = None, width: int = 30) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.t0 = time.perf_counter()
        self.last = 0.0
        isatty = getattr(self.stream, "isatty", None)
        self.tty = bool(isatty()) if isatty is not None else False

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if done < total and now - self.last < (0.2 if self.tty else 10.0):
            return
        self.last = now
        frac = done / total if total else 1.0
        fill = int(frac * self.width)
        rate = done / (now - self.t0) if now > self.t0 else 0.0
        eta = (total - done) / rate if rate else 0.0
        bar = "#" * fill + "." * (self.width - fill)
        line = f"[{bar}] {done:,}/{total:,} hands  {rate:,.0f} hands/s  ETA {eta:,.0f} s "
        if self.tty:
            self.stream.write("\r" + line + ("\n" if done >= total else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


def format_table(res: MatchResult, structure: str) -> str:
    rows = res.table()
    name_w = max(4, *(len(str(r["name"])) for r in rows))
    lines = [
        f"{res.hands:,} hands ({res.deals:,} deals x {len(res.names)} seat rotations), "
        f"{structure}, 100 big blinds each hand, {res.seconds:,.1f} s",
        f"{'bot':<{name_w}}  {'mbb/hand':>10}  {'95 % interval':>16}",
    ]
    for r in rows:
        m = float(r["mbb_per_hand"])  # type: ignore[arg-type]
        ci = float(r["ci95"])  # type: ignore[arg-type]
        lines.append(f"{r['name']!s:<{name_w}}  {m:>10,.1f}  {'± ' + format(ci, ',.1f'):>16}")
    return "\n".join(lines)


def _downsample(xs: Sequence[float], points: int) -> list[tuple[int, float]]:
    n = len(xs)
    if n <= points:
        return [(i + 1, x) for i, x in enumerate(xs)]
    step = n / points
    idx = sorted({min(n - 1, int(k * step)) for k in range(points)} | {n - 1})
    return [(i + 1, xs[i]) for i in idx]


def svg_chart(res: MatchResult, title: str = "") -> str:
    """Cumulative big blinds of each bot over the hands played, as an SVG document."""
    return svg_lines([_downsample(c, 800) for c in res.cumulative], res.names, title,
                     max(1, res.hands), "hands", "big blinds won")


def svg_lines(series: Sequence[Sequence[tuple[float, float]]], names: Sequence[str],
              title: str, n: float, x_label: str, y_label: str) -> str:
    """Lines of (x, y) points, x from 0 to ``n``, with a legend of ``names``, as an SVG
    document written by hand (no plotting library): the y axis always shows 0."""
    w, h, left, right, top, bottom = 800, 450, 70, 130, 30, 45
    pw, ph = w - left - right, h - top - bottom
    ys = [y for s in series for _, y in s] or [0.0]
    lo, hi = min(0.0, *ys), max(0.0, *ys)
    if hi - lo < 1e-9:
        hi = lo + 1.0

    def sx(x: float) -> float:
        return left + pw * x / n

    def sy(y: float) -> float:
        return top + ph * (hi - y) / (hi - lo)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{left}" y="18" font-size="14">{_esc(title)}</text>',
           f'<line x1="{left}" y1="{sy(0):.1f}" x2="{left + pw}" y2="{sy(0):.1f}" '
           'stroke="#999" stroke-dasharray="4 3"/>',
           f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#333"/>']
    for k in range(5):
        y = lo + (hi - lo) * k / 4
        out.append(f'<text x="{left - 6}" y="{sy(y) + 4:.1f}" text-anchor="end">{y:,.0f}</text>')
        x = n * k / 4
        out.append(f'<text x="{sx(x):.1f}" y="{top + ph + 16}" text-anchor="middle">'
                   f'{x:,.0f}</text>')
    out.append(f'<text x="{left + pw / 2}" y="{h - 8}" text-anchor="middle">{_esc(x_label)}</text>')
    out.append(f'<text x="16" y="{top + ph / 2}" text-anchor="middle" '
               f'transform="rotate(-90 16 {top + ph / 2})">{_esc(y_label)}</text>')
    for i, s in enumerate(series):
        color = PALETTE[i % len(PALETTE)]
        pts = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in s)
        out.append(f'<polyline fill="none" stroke="{color}" stroke-width="1.5" points="{pts}"/>')
        ly = top + 14 + 18 * i
        out.append(f'<line x1="{left + pw + 10}" y1="{ly - 4}" x2="{left + pw + 30}" '
                   f'y2="{ly - 4}" stroke="{color}" stroke-width="3"/>')
        out.append(f'<text x="{left + pw + 36}" y="{ly}">{_esc(names[i])}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def png_chart(res: MatchResult, path: str, title: str = "") -> None:
    try:
        import matplotlib  # type: ignore[import-not-found, unused-ignore]

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]
    except ImportError as exc:
        raise RuntimeError("a PNG chart needs matplotlib (pip install matplotlib); "
                           "or ask for an .svg file, which needs nothing") from exc
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for i, c in enumerate(res.cumulative):
        ax.plot(range(1, len(c) + 1), c, label=res.names[i], color=PALETTE[i % len(PALETTE)])
    ax.axhline(0, color="#999", linestyle="--", linewidth=0.8)
    ax.set_xlabel("hands")
    ax.set_ylabel("big blinds won")
    ax.set_title(title)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def run(args: argparse.Namespace) -> int:
    from tapete.cli import fail, output_problem, write_problem
    from tapete.cli.replay import default_lang

    lang = default_lang()  # the results table is English; a mistake is said in both languages
    names = [b.strip() for b in str(args.bots).split(",") if b.strip()]
    unknown = [b for b in names if b.lower() not in BOT_NAMES]
    if unknown:
        return fail("simulate", t("unknown bot {bot}; choose from {bots}",
                                  bot=repr(unknown[0]), bots=", ".join(BOT_NAMES)), lang)
    if not 2 <= len(names) <= 9:
        return fail("simulate", t("give 2 to 9 bots, one per seat"), lang)
    if args.hands < 1:
        return fail("simulate", t("--hands must be at least 1"), lang)
    chart = args.chart
    if chart and not chart.lower().endswith((".svg", ".png")):
        return fail("simulate", t("--chart takes a .svg or .png file name"), lang)
    if chart and chart.lower().endswith(".png"):
        try:
            import matplotlib  # type: ignore[import-not-found, unused-ignore]  # noqa: F401
        except ImportError:
            return fail("simulate", t(
                "a PNG chart needs matplotlib, which is not installed (pip install matplotlib);"
                " an .svg chart needs nothing"), lang)
    problem = output_problem(chart, "--chart") if chart else None
    if problem is not None:  # said before the match is played, not after
        return fail("simulate", problem, lang)
    on_hand = None
    if args.phh:
        from tapete.history.phh import dumps

        folder = str(args.phh)
        if os.path.exists(folder) and not os.path.isdir(folder):
            return fail("simulate", t("--phh {folder} is a file: give a folder", folder=folder),
                        lang)
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as exc:
            return fail("simulate", write_problem(folder, exc), lang)

        def on_hand(hand: Hand) -> None:
            with open(os.path.join(folder, f"{hand.hand_id}.phh"), "w", encoding="utf-8") as f:
                f.write(dumps(hand))

    structure = Structure.parse(args.structure)
    progress = None if args.no_progress else Progress()
    res = run_match(names, args.hands, structure=structure, seed=args.seed,
                    progress=progress, on_hand=on_hand)
    title = (f"{', '.join(res.names)}: {res.hands:,} duplicate hands, "
             f"{structure.value}, seed {args.seed}")
    if chart:
        try:
            if chart.lower().endswith(".svg"):
                with open(chart, "w", encoding="utf-8") as f:
                    f.write(svg_chart(res, title))
            else:
                png_chart(res, chart, title)
        except OSError as exc:  # checked before the match; the disk can still fill up
            return fail("simulate", write_problem(chart, exc), lang)
    if args.json:
        print(json.dumps({"hands": res.hands, "bots": [
            {"name": n, "mbb_per_hand": round(res.mbb_per_hand(i), 1),
             "ci95": round(res.ci95(i), 1)} for i, n in enumerate(res.names)]}))
    else:
        print(format_table(res, structure.value))
    return 0
