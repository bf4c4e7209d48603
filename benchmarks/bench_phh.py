"""PHH replay, parse included: tapete against PokerKit on the same hands, in the same run.

    python benchmarks/bench_phh.py [--repeat 3] [--limit N] [--data DIR]

Both replay every NT and FT hand of ``tests/data/phh`` (2,040 hands) from the file's text to
the end of the hand: tapete with ``phh.read_text`` + ``replay`` (every action refereed by the
engine; also timed with the legal options recorded before each action, as ``--json`` does),
PokerKit (a dev-only dependency, never imported by tapete) with ``HandHistory.loads`` /
``loads_all`` and iterating its states to the end. Reading the files from disk is not timed.
Reports the best of ``--repeat`` runs: hands/s and the ratio.

The engine runs compiled where the install built it with mypyc (setup.py);
``TAPETE_PURE=1`` measures the Python sources instead. The first line says which.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

import tapete  # noqa: E402
from tapete.history import phh  # noqa: E402
from tapete.history.replay import replay  # noqa: E402

warnings.simplefilter("ignore")  # PokerKit warns about the HandHQ files' extra fields


def load(data: Path, limit: int | None) -> list[tuple[str, str, int]]:
    """(suffix, text, hands) of every NT/FT file under ``data``."""
    out: list[tuple[str, str, int]] = []
    for path in sorted(data.rglob("*.phh*")):
        text = path.read_text(encoding="utf-8")
        hands = [h for h in phh.read_text(text) if h.record is not None]
        if not hands:
            continue
        out.append((path.suffix, text, len(hands)))
        if limit and len(out) >= limit:
            break
    return out


def run_tapete(files: list[tuple[str, str, int]], decisions: bool) -> int:
    n = 0
    for _, text, _ in files:
        for h in phh.read_text(text):
            if h.record is not None:
                res = replay(h.record, decisions=decisions)
                n += res.error is None
    return n


def run_pokerkit(files: list[tuple[str, str, int]]) -> int:
    from pokerkit import HandHistory

    n = 0
    for suffix, text, _ in files:
        histories = HandHistory.loads_all(text) if suffix == ".phhs" else [
            HandHistory.loads(text)]
        for history in histories:
            for _state in history:
                pass
            n += 1
    return n


def best(fn: Callable[[], int], repeat: int) -> tuple[float, int]:
    times = []
    count = 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        count = fn()
        times.append(time.perf_counter() - t0)
    return min(times), count


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--limit", type=int, default=None, help="at most this many files")
    ap.add_argument("--data", type=Path, default=ROOT / "tests" / "data" / "phh")
    args = ap.parse_args()
    files = load(args.data, args.limit)
    hands = sum(k for _, _, k in files)
    print(f"{hands} hands in {len(files)} files (NT and FT), best of {args.repeat};"
          f" tapete's engine: {tapete.build_kind()}")
    # interleaved, so that a busy machine slows every contender alike; best of each
    fns: dict[str, Callable[[], int]] = {
        "fast": lambda: run_tapete(files, False), "dec": lambda: run_tapete(files, True)}
    try:
        import pokerkit  # noqa: F401

        fns["pk"] = lambda: run_pokerkit(files)
    except ImportError:
        pass
    times: dict[str, float] = {}
    counts: dict[str, int] = {}
    for _ in range(args.repeat):
        for name, fn in fns.items():
            t, counts[name] = best(fn, 1)
            times[name] = min(times.get(name, t), t)
    t_fast, ok_fast = times["fast"], counts["fast"]
    t_dec, ok_dec = times["dec"], counts["dec"]
    t_pk, ok_pk = times.get("pk", 0.0), counts.get("pk", 0)
    rows = [("tapete replay", t_fast, ok_fast), ("tapete replay + decisions", t_dec, ok_dec)]
    if t_pk:
        rows.append(("PokerKit HandHistory", t_pk, ok_pk))
    for name, t, ok in rows:
        ratio = f"{t_pk / t:6.1f}x PokerKit" if t_pk else ""
        print(f"  {name:28s} {hands / t:9,.0f} hands/s  {t / hands * 1e6:7.1f} us/hand"
              f"  ({ok} replayed)  {ratio}")
    if not t_pk:
        print("  PokerKit is not installed: pip install pokerkit")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
