"""PHH replay: tapete against PokerKit on the same hands, in the same run, two ways.

    python benchmarks/bench_phh.py [--repeat 3] [--times 3] [--limit N] [--data DIR]

**From files, as a user runs it.** ``tapete replay --json`` over the NT and FT hands of
``tests/data/phh`` (2,040 hands in 2,020 files), the folder given ``--times`` times, so that one
process reads every file ``--times`` times: a fresh Python process, its start and imports
included, every file read from disk, parsed, replayed with the legal options recorded before
each action, and its JSON line written (to ``/dev/null``). PokerKit (a dev-only dependency,
never imported by tapete) has no command: a fresh Python process imports it, then for the same
files, the same number of times, reads the file, loads it with ``HandHistory.load`` /
``load_all`` and iterates its states to the end. Each is timed as the CPU time of its process
(user + system, from the operating system), best of ``--repeat`` runs, interleaved.

**In process, parse included** (the earlier figure): the files' texts already in memory, tapete
with ``phh.read_text`` + ``replay`` (also with the legal options recorded, as ``--json`` does),
PokerKit with ``HandHistory.loads`` / ``loads_all``; best of ``--repeat``.

The engine runs compiled where the install built it with mypyc (setup.py); ``TAPETE_PURE=1``
measures the Python sources instead (the CLI's process inherits it). The first line says which.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

import tapete  # noqa: E402
from tapete.history import phh  # noqa: E402
from tapete.history.replay import iter_paths, replay  # noqa: E402

warnings.simplefilter("ignore")  # PokerKit warns about the HandHQ files' extra fields


def load(paths: list[str]) -> list[tuple[str, str, int]]:
    """(suffix, text, hands) of every NT/FT file of ``paths``."""
    out: list[tuple[str, str, int]] = []
    for path in paths:
        text = Path(path).read_text(encoding="utf-8")
        hands = [h for h in phh.read_text(text) if h.record is not None]
        if hands:
            out.append((Path(path).suffix, text, len(hands)))
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


# PokerKit from files, in a process of its own that imports nothing of tapete: the file names
# come on standard input, one a line
POKERKIT_FROM_FILES = """
import sys, warnings
warnings.simplefilter("ignore")
from pokerkit import HandHistory
paths = sys.stdin.read().splitlines()
for _ in range(int(sys.argv[1])):
    for path in paths:
        with open(path, "rb") as f:
            if path.endswith(".phhs"):
                histories = list(HandHistory.load_all(f))
            else:
                histories = [HandHistory.load(f)]
        for history in histories:
            for _state in history:
                pass
"""


def child_cpu(command: list[str], stdin: str = "") -> tuple[float, float]:
    """(CPU seconds, wall seconds) of a command run to the end, its output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(command, input=stdin.encode(), stdout=subprocess.DEVNULL, check=True,
                   cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def best(fn: Callable[[], int], repeat: int) -> tuple[float, int]:
    times = []
    count = 0
    for _ in range(repeat):
        t0 = time.process_time()
        count = fn()
        times.append(time.process_time() - t0)
    return min(times), count


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--times", type=int, default=3,
                    help="from files: how many times each process reads every file")
    ap.add_argument("--limit", type=int, default=None, help="at most this many files")
    ap.add_argument("--data", type=Path, default=ROOT / "tests" / "data" / "phh")
    args = ap.parse_args()
    paths = iter_paths([str(args.data)])
    if args.limit:
        paths = paths[:args.limit]
    files = load(paths)
    hands = sum(k for _, _, k in files)
    try:
        import pokerkit  # noqa: F401
        have_pk = True
    except ImportError:
        have_pk = False
    print(f"{hands} hands in {len(files)} files (NT and FT); tapete's engine:"
          f" {tapete.build_kind()}; best of {args.repeat}")

    # from files, as a user runs it: one process each, every file read --times times
    given = [str(args.data)] if not args.limit else paths
    cli = [sys.executable, "-m", "tapete", "replay", "--json", *(given * args.times)]
    pk = [sys.executable, "-c", POKERKIT_FROM_FILES, str(args.times)]
    cpu: dict[str, float] = {}
    for _ in range(args.repeat):
        for name, command in (("cli", cli), ("pk", pk)):
            if name == "pk" and not have_pk:
                continue
            t, _ = child_cpu(command, "\n".join(paths) if name == "pk" else "")
            cpu[name] = min(cpu.get(name, t), t)
    total = hands * args.times
    shown = "tapete replay --json " + " ".join(
        ["tests/data/phh" if not args.limit else f"<{len(paths)} files>"] * args.times)
    print(f"from files, {total} hands ({args.times} x {hands}), CPU time of each process:")
    print(f"  {shown}")
    print(f"    {cpu['cli']:7.2f} s  {total / cpu['cli']:9,.0f} hands/s"
          f"  {cpu['cli'] / total * 1e6:7.1f} us/hand")
    if have_pk:
        print("  PokerKit, HandHistory.load from each file and its states to the end")
        print(f"    {cpu['pk']:7.2f} s  {total / cpu['pk']:9,.0f} hands/s"
              f"  {cpu['pk'] / total * 1e6:7.1f} us/hand")
        print(f"  ratio: {cpu['pk'] / cpu['cli']:.1f}x PokerKit")

    # in process, parse included: interleaved, so that a busy machine slows both alike
    fns: dict[str, Callable[[], int]] = {
        "fast": lambda: run_tapete(files, False), "dec": lambda: run_tapete(files, True)}
    if have_pk:
        fns["pk"] = lambda: run_pokerkit(files)
    times: dict[str, float] = {}
    counts: dict[str, int] = {}
    for _ in range(args.repeat):
        for name, fn in fns.items():
            t, counts[name] = best(fn, 1)
            times[name] = min(times.get(name, t), t)
    t_pk, ok_pk = times.get("pk", 0.0), counts.get("pk", 0)
    rows = [("tapete replay", times["fast"], counts["fast"]),
            ("tapete replay + decisions", times["dec"], counts["dec"])]
    if t_pk:
        rows.append(("PokerKit HandHistory", t_pk, ok_pk))
    print(f"in process, from the texts, parse included, {hands} hands:")
    for name, t, ok in rows:
        ratio = f"{t_pk / t:6.1f}x PokerKit" if t_pk else ""
        print(f"  {name:28s} {hands / t:9,.0f} hands/s  {t / hands * 1e6:7.1f} us/hand"
              f"  ({ok} replayed)  {ratio}")
    if not have_pk:
        print("  PokerKit is not installed: pip install pokerkit")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
