"""Equity: each player's share of the pot, by exact enumeration or by Monte Carlo.

Two to nine players, each holding a known hand (``"AhKh"``) or a range (``"TT+, AKs"``, see
:mod:`tapete.ranges`), a board of 0, 3, 4 or 5 known cards, and dead cards. Exact enumeration
deals every remaining board for every compatible combination of the players' combos (weighted);
Monte Carlo samples them with a seeded generator, so the same seed gives the same answer, and
reports a 95 % interval. Both run in numba kernels on the evaluator's tables.

For bots, :func:`hand_vs_ranges` answers "how often does my hand win against these ranges on
this board?" in tens of microseconds for a thousand samples.

The kernels are compiled once and cached on disk (see :mod:`tapete.ranking._jit`); a new
process still spends about half a second loading them at its first question, and the first run
after installing spends tens of seconds compiling them. :func:`warm_up` does that ahead of time
(a server calls it at start-up, in the background); :attr:`EquityResult.seconds` counts only
the work, never the loading or compiling.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import permutations
from typing import Any

import numpy as np
import numpy.typing as npt

from tapete.core.cards import CardError, format_card, parse_cards
from tapete.eval.ranges import ALL_COMBOS, Range, RangeError, hand_or_range
from tapete.ranking._jit import below, njit, seed_state, uniform
from tapete.ranking.bulk import CARD_BIT, CARD_KEY, FLUSH, rank_table
from tapete.ranking.tables import RANK_KEY

I64 = npt.NDArray[np.int64]
U16 = npt.NDArray[np.uint16]
F64 = npt.NDArray[np.float64]

RANK_KEYS = np.array(RANK_KEY, np.int64)
MIN_PLAYERS = 2
MAX_PLAYERS = 9
#: ``equity(exact=None)`` enumerates when the work is at most this many boards' worth
AUTO_EXACT_LIMIT = 50_000_000
#: what one preflop deal costs, in boards' worth (rank patterns plus the flush boards)
PREFLOP_COST = 250_000
#: the most combinations of hands that exact enumeration lists before folding suits
MAX_EXACT_DEALS = 3_000_000
#: Monte Carlo gives up when this many draws in a row conflict (the ranges cannot all be held)
MAX_REJECTIONS = 100_000

PlayerSpec = str | Range | Sequence[int]
CardsSpec = str | Sequence[int]


class EquityError(ValueError):
    """Input that cannot be dealt: a card twice, too many players, an impossible range."""


@dataclass(frozen=True, slots=True)
class PlayerEquity:
    """One player's result. ``wins``/``ties`` count boards (weighted by combo weights)."""

    hand: str
    wins: float
    ties: float
    equity: float
    #: half-width of the 95 % interval on ``equity`` (Monte Carlo only)
    interval: float | None = None


@dataclass(frozen=True, slots=True)
class EquityResult:
    #: boards dealt (every deal of every combination of combos, or the samples)
    boards: int
    players: tuple[PlayerEquity, ...]
    exact: bool
    #: what ``wins`` and ``ties`` are counted out of: ``boards`` weighted by combo weights
    weight: float
    #: seconds the work took: parsing, dealing and counting, not loading or compiling kernels
    #: (not part of the answer: equal questions give equal results, whatever they took)
    seconds: float = field(default=0.0, compare=False)

    def to_json(self) -> dict[str, Any]:
        def num(x: float) -> int | float:
            return int(x) if float(x).is_integer() else x

        out: dict[str, Any] = {"boards": self.boards, "exact": self.exact, "players": []}
        for p in self.players:
            row: dict[str, Any] = {
                "hand": p.hand,
                "wins": num(p.wins),
                "ties": num(p.ties),
                "equity": p.equity,
            }
            if p.interval is not None:
                row["interval95"] = p.interval
            out["players"].append(row)
        return out


# --------------------------------------------------------------------------- kernels
#
# The showdown (rank every player, share the weight among the best) is written out in each loop
# rather than called: a helper taking arrays costs a reference-count round trip per call in
# numba, which made these loops ten times slower.


@njit
def _combos_of(cards: I64, n_cards: int, k: int, ck: I64, cb: I64, out_h: I64, out_m: I64) -> int:
    """Hash and bit sums of every ``k``-subset of ``cards[:n_cards]``; returns how many."""
    if k == 0:
        out_h[0] = 0
        out_m[0] = 0
        return 1
    if k > n_cards:
        return 0
    idx = np.arange(k)
    count = 0
    while True:
        h = 0
        m = 0
        for i in range(k):
            c = cards[idx[i]]
            h += ck[c]
            m |= cb[c]
        out_h[count] = h
        out_m[count] = m
        count += 1
        i = k - 1
        while i >= 0 and idx[i] == n_cards - k + i:
            i -= 1
        if i < 0:
            return count
        idx[i] += 1
        for j in range(i + 1, k):
            idx[j] = idx[j - 1] + 1


@njit
def _preflop(
    live: I64, nl: int, hh: I64, hm: I64, ck: I64, cb: I64, rk: I64, ro: U16, rv: U16, fl: U16,
    w: float, wins: F64, ties: F64, eq: F64,
) -> None:  # fmt: skip
    """All five-card boards from ``live``, by rank pattern first.

    Without a flush the outcome depends only on the board's ranks, so (A) every multiset of
    five ranks is ranked once, weighted by how many boards carry it. Then (B) the boards where
    someone could make a flush (enough cards of one suit for the player holding most of that
    suit) are dealt one by one; where a flush really appears, their real outcome is added and
    their rank-only outcome taken back. For two known hands that deals about 160,000 boards
    instead of 1,712,304.
    """
    n = hh.shape[0]
    st = np.empty(n, np.int64)
    sr = np.empty(n, np.int64)
    avail = np.zeros(13, np.int64)
    for i in range(nl):
        avail[live[i] >> 2] += 1
    choose = np.zeros((5, 6), np.int64)  # choose[a, k] = C(a, k) for a <= 4
    for a in range(5):
        choose[a, 0] = 1
        for k in range(1, 6):
            choose[a, k] = choose[a, k - 1] * (a - k + 1) // k if k <= a else 0
    rs = np.empty(5, np.int64)
    # (A) rank patterns
    for r1 in range(13):
        rs[0] = r1
        for r2 in range(r1, 13):
            rs[1] = r2
            for r3 in range(r2, 13):
                rs[2] = r3
                for r4 in range(r3, 13):
                    rs[3] = r4
                    for r5 in range(r4, 13):
                        rs[4] = r5
                        boards = 1
                        i = 0
                        while i < 5:
                            j = i
                            while j < 4 and rs[j + 1] == rs[i]:
                                j += 1
                            boards *= choose[avail[rs[i]], j - i + 1]
                            i = j + 1
                        if boards == 0:
                            continue
                        bh = (rk[r1] + rk[r2] + rk[r3] + rk[r4] + rk[r5]) << 16
                        ww = w * boards
                        best = 0
                        nbest = 0
                        for p in range(n):
                            k = (hh[p] + bh) >> 16
                            v = int(rv[(k & 63) + np.int64(ro[k >> 6])])
                            st[p] = v
                            if v > best:
                                best = v
                                nbest = 1
                            elif v == best:
                                nbest += 1
                        if nbest == 1:
                            for p in range(n):
                                if st[p] == best:
                                    wins[p] += ww
                                    eq[p] += ww
                        else:
                            share = ww / nbest
                            for p in range(n):
                                if st[p] == best:
                                    ties[p] += ww
                                    eq[p] += share
    # (B) boards that may hold a flush, suit by suit (two suits cannot both reach three)
    suited = np.empty(13, np.int64)
    other = np.empty(52, np.int64)
    s_h = np.empty(1287, np.int64)
    s_m = np.empty(1287, np.int64)
    o_h = np.empty(1326, np.int64)
    o_m = np.empty(1326, np.int64)
    for s in range(4):
        most = 0
        for p in range(n):
            most = max(most, ((hh[p] >> (4 * s)) & 15) - 3)
        ns = 0
        no = 0
        for i in range(nl):
            c = live[i]
            if c & 3 == s:
                suited[ns] = c
                ns += 1
            else:
                other[no] = c
                no += 1
        for j in range(5 - most, 6):
            na = _combos_of(suited, ns, j, ck, cb, s_h, s_m)
            nb = _combos_of(other, no, 5 - j, ck, cb, o_h, o_m)
            for x in range(na):
                for y in range(nb):
                    bh = s_h[x] + o_h[y]
                    bm = s_m[x] | o_m[y]
                    flush = False
                    for p in range(n):
                        h = hh[p] + bh
                        k = h >> 16
                        sr[p] = int(rv[(k & 63) + np.int64(ro[k >> 6])])
                        if h & 0x8888:
                            m = hm[p] | bm
                            xx = (h & 0x8888) >> 3
                            sh = 0 if xx & 1 else (16 if xx & 16 else (32 if xx & 256 else 48))
                            st[p] = int(fl[(m >> sh) & 0x1FFF])
                            flush = True
                        else:
                            st[p] = sr[p]
                    if not flush:
                        continue
                    for sign in range(2):
                        vals = st if sign == 0 else sr
                        ww = w if sign == 0 else -w
                        best = 0
                        nbest = 0
                        for p in range(n):
                            if vals[p] > best:
                                best = vals[p]
                                nbest = 1
                            elif vals[p] == best:
                                nbest += 1
                        if nbest == 1:
                            for p in range(n):
                                if vals[p] == best:
                                    wins[p] += ww
                                    eq[p] += ww
                        else:
                            share = ww / nbest
                            for p in range(n):
                                if vals[p] == best:
                                    ties[p] += ww
                                    eq[p] += share


@njit
def _exact(
    holes: I64, weights: F64, board: I64, dead: int, ck: I64, cb: I64, rk: I64, ro: U16, rv: U16,
    fl: U16, wins: F64, ties: F64, eq: F64,
) -> int:  # fmt: skip
    """Every board for every row of ``holes`` (deals x players x 2); returns boards dealt."""
    n_deals = holes.shape[0]
    n = holes.shape[1]
    need = 5 - board.shape[0]
    hh = np.empty(n, np.int64)
    hm = np.empty(n, np.int64)
    st = np.empty(n, np.int64)
    live = np.empty(52, np.int64)
    b_h = np.empty(1326, np.int64)
    b_m = np.empty(1326, np.int64)
    b0h = 0x3333
    b0m = 0
    known = dead
    for c in board:
        b0h += ck[c]
        b0m |= cb[c]
        known |= np.int64(1) << c
    total = 0
    for t in range(n_deals):
        used = known
        for p in range(n):
            a = holes[t, p, 0]
            b = holes[t, p, 1]
            hh[p] = b0h + ck[a] + ck[b]
            hm[p] = b0m | cb[a] | cb[b]
            used |= (np.int64(1) << a) | (np.int64(1) << b)
        nl = 0
        for c in range(52):
            if not (used >> c) & 1:
                live[nl] = c
                nl += 1
        w = weights[t]
        if need == 5:
            _preflop(live, nl, hh, hm, ck, cb, rk, ro, rv, fl, w, wins, ties, eq)
            total += nl * (nl - 1) * (nl - 2) * (nl - 3) * (nl - 4) // 120
            continue
        nb = _combos_of(live, nl, need, ck, cb, b_h, b_m)
        total += nb
        for i in range(nb):
            bh = b_h[i]
            bm = b_m[i]
            best = 0
            nbest = 0
            for p in range(n):
                h = hh[p] + bh
                if h & 0x8888:
                    m = hm[p] | bm
                    x = (h & 0x8888) >> 3
                    sh = 0 if x & 1 else (16 if x & 16 else (32 if x & 256 else 48))
                    v = int(fl[(m >> sh) & 0x1FFF])
                else:
                    k = h >> 16
                    v = int(rv[(k & 63) + np.int64(ro[k >> 6])])
                st[p] = v
                if v > best:
                    best = v
                    nbest = 1
                elif v == best:
                    nbest += 1
            if nbest == 1:
                for p in range(n):
                    if st[p] == best:
                        wins[p] += w
                        eq[p] += w
            else:
                share = w / nbest
                for p in range(n):
                    if st[p] == best:
                        ties[p] += w
                        eq[p] += share
    return total


@njit
def _monte_carlo(
    kinds: I64, offsets: I64, combos: I64, cums: F64, known: I64, dead: int, samples: int,
    state: Any, ck: I64, cb: I64, ro: U16, rv: U16, fl: U16,
    wins: F64, ties: F64, eq: F64, eq2: F64,
) -> int:  # fmt: skip
    """Deal ``samples`` random completions; returns -1 if the ranges cannot all be held.

    ``kinds[p]``: 0 a range (combos ``offsets[p]:offsets[p+1]``, cumulative weights ``cums``),
    1 any two cards, 2 a known hand (its one combo). Ranges are drawn together and redrawn
    together on a conflict, which samples exactly the joint weighted distribution; random
    hands and the board are then dealt card by card from what is left, which is the same as
    dealing from the deck.
    """
    n = kinds.shape[0]
    need = 5 - known.shape[0]
    hh = np.empty(n, np.int64)
    hm = np.empty(n, np.int64)
    st = np.empty(n, np.int64)
    b0h = 0x3333
    b0m = 0
    base = dead
    for c in known:
        b0h += ck[c]
        b0m |= cb[c]
        base |= np.int64(1) << c
    has_ranges = False
    for p in range(n):
        if kinds[p] == 0:
            has_ranges = True
        elif kinds[p] == 2:
            a = combos[offsets[p], 0]
            b = combos[offsets[p], 1]
            bits = (np.int64(1) << a) | (np.int64(1) << b)
            if base & bits:
                return -1
            base |= bits
            hh[p] = b0h + ck[a] + ck[b]
            hm[p] = b0m | cb[a] | cb[b]
    live = np.empty(52, np.int64)
    nl = 0
    for c in range(52):
        if not (base >> c) & 1:
            live[nl] = c
            nl += 1
    # guide tables: guide[lo + g] is the first combo whose cumulative weight passes the g-th
    # of (hi - lo) equal slices of the total, so a draw scans one or two combos, not a search
    guide = np.empty(cums.shape[0], np.int64)
    for p in range(n):
        if kinds[p] != 0:
            continue
        lo = offsets[p]
        hi = offsets[p + 1]
        total = cums[hi - 1]
        k = lo
        for g in range(hi - lo):
            edge = total * g / (hi - lo)
            while k < hi - 1 and cums[k] <= edge:
                k += 1
            guide[lo + g] = k
    inverse = np.zeros(n + 1, np.float64)
    for k in range(1, n + 1):
        inverse[k] = 1.0 / k
    won0 = 0
    won1 = 0
    tied = 0
    rng = state[0]
    for _ in range(samples):
        rejected = 0
        used = base
        while has_ranges:
            used = base
            ok = True
            for p in range(n):
                if kinds[p] != 0:
                    continue
                lo = offsets[p]
                hi = offsets[p + 1]
                k = lo
                if hi - lo > 1:  # the first k with cums[k] > target, from the guide table
                    rng, u = uniform(rng)
                    target = u * cums[hi - 1]
                    k = guide[lo + int(u * (hi - lo))]
                    while k < hi - 1 and cums[k] <= target:
                        k += 1
                a = combos[k, 0]
                b = combos[k, 1]
                bits = (np.int64(1) << a) | (np.int64(1) << b)
                if used & bits:
                    ok = False
                    break
                used |= bits
                hh[p] = b0h + ck[a] + ck[b]
                hm[p] = b0m | cb[a] | cb[b]
            if ok:
                break
            rejected += 1
            if rejected >= MAX_REJECTIONS:
                state[0] = rng
                return -1
        # random hands, then the board: a partial Fisher-Yates shuffle of the live cards,
        # passing over cards a range took this time (the deck order carries over between
        # samples, which keeps every draw uniform)
        j = 0
        for p in range(n):
            if kinds[p] != 1:
                continue
            h = b0h
            m = b0m
            for _card in range(2):
                while True:
                    rng, i = below(rng, nl - j)
                    i += j
                    c = live[i]
                    if not (used >> c) & 1:
                        break
                live[i] = live[j]
                live[j] = c
                j += 1
                used |= np.int64(1) << c
                h += ck[c]
                m |= cb[c]
            hh[p] = h
            hm[p] = m
        bh = 0
        bm = 0
        for _card in range(need):
            while True:
                rng, i = below(rng, nl - j)
                i += j
                c = live[i]
                if not (used >> c) & 1:
                    break
            live[i] = live[j]
            live[j] = c
            j += 1
            used |= np.int64(1) << c
            bh += ck[c]
            bm |= cb[c]
        if n == 2:  # heads-up, the common case: two ranks, tallied in registers
            h = hh[0] + bh
            if h & 0x8888:
                m = hm[0] | bm
                x = (h & 0x8888) >> 3
                sh = 0 if x & 1 else (16 if x & 16 else (32 if x & 256 else 48))
                v0 = int(fl[(m >> sh) & 0x1FFF])
            else:
                k = h >> 16
                v0 = int(rv[(k & 63) + np.int64(ro[k >> 6])])
            h = hh[1] + bh
            if h & 0x8888:
                m = hm[1] | bm
                x = (h & 0x8888) >> 3
                sh = 0 if x & 1 else (16 if x & 16 else (32 if x & 256 else 48))
                v1 = int(fl[(m >> sh) & 0x1FFF])
            else:
                k = h >> 16
                v1 = int(rv[(k & 63) + np.int64(ro[k >> 6])])
            won0 += 1 if v0 > v1 else 0
            won1 += 1 if v1 > v0 else 0
            tied += 1 if v0 == v1 else 0
            continue
        best = 0
        nbest = 0
        for p in range(n):
            h = hh[p] + bh
            if h & 0x8888:
                m = hm[p] | bm
                x = (h & 0x8888) >> 3
                sh = 0 if x & 1 else (16 if x & 16 else (32 if x & 256 else 48))
                v = int(fl[(m >> sh) & 0x1FFF])
            else:
                k = h >> 16
                v = int(rv[(k & 63) + np.int64(ro[k >> 6])])
            st[p] = v
            if v > best:
                best = v
                nbest = 1
            elif v == best:
                nbest += 1
        # tally without branching on who won (the winner is unpredictable)
        solo = 1.0 if nbest == 1 else 0.0
        share = inverse[nbest]
        for p in range(n):
            at = 1.0 if st[p] == best else 0.0
            wins[p] += at * solo
            ties[p] += at - at * solo
            eq[p] += at * share
            eq2[p] += at * share * share
    if n == 2:
        wins[0] += won0
        wins[1] += won1
        ties[0] += tied
        ties[1] += tied
        eq[0] += won0 + 0.5 * tied
        eq[1] += won1 + 0.5 * tied
        eq2[0] += won0 + 0.25 * tied
        eq2[1] += won1 + 0.25 * tied
    state[0] = rng
    return samples


# --------------------------------------------------------------------------- calling them
#
# Every call goes through these two, with arrays built by the same functions (_deals,
# _range_arrays, np.array(board, np.int64)), so the warm-up below compiles or loads exactly
# the signatures that real questions use: a different array type would compile again.


def _run_exact(
    holes: I64, weights: F64, board: I64, dead: int, wins: F64, ties: F64, eq: F64
) -> int:
    ro, rv = rank_table(7)
    return int(_exact(holes, weights, board, dead, CARD_KEY, CARD_BIT, RANK_KEYS, ro, rv, FLUSH,
                      wins, ties, eq))


def _run_monte_carlo(
    kinds: I64, offsets: I64, combos: I64, cums: F64, board: I64, dead: int, samples: int,
    state: Any, wins: F64, ties: F64, eq: F64, eq2: F64,
) -> int:  # fmt: skip
    ro, rv = rank_table(7)
    return int(_monte_carlo(kinds, offsets, combos, cums, board, dead, samples, state,
                            CARD_KEY, CARD_BIT, ro, rv, FLUSH, wins, ties, eq, eq2))


@cache
def _ready_exact() -> None:
    """Load (the first time ever: compile) the enumeration kernels: one river, two hands."""
    ranges, b, _ = _prepare(["AsKs", "QdQc"], "2c7d9hTh3s", ())
    holes, weights = _deals(ranges)
    _run_exact(holes, weights, np.array(b, np.int64), 0, *np.zeros((3, 2)))


@cache
def _ready_monte_carlo() -> None:
    """Load (the first time ever: compile) the Monte Carlo kernel: one deal."""
    kinds, offsets, combos, cums = _range_arrays((Range.of_hand((51, 47)), _RANDOM))
    _run_monte_carlo(kinds, offsets, combos, cums, np.array((), np.int64), 0, 1, seed_state(0),
                     *np.zeros((4, 2)))


def _ready(load: Callable[[], None]) -> float:
    """Seconds spent making the kernels ready (0 once they are, in this process)."""
    start = time.perf_counter()
    load()
    return time.perf_counter() - start


def warm_up(*, exact: bool = True, monte_carlo: bool = True) -> float:
    """Make this process's first equity question as quick as the next: load the kernels from
    numba's cache, or compile and cache them the first time after an install (tens of seconds):
    those of exact enumeration and of Monte Carlo (which :func:`hand_vs_ranges` and
    :func:`hand_vs_weights`, the bots' and the coach's, use), or only the one asked for.
    Safe from any thread and at any time (a question asked meanwhile waits for the compiler,
    never compiles twice); a second call costs nothing. Returns the seconds it took."""
    return ((_ready(_ready_monte_carlo) if monte_carlo else 0.0)
            + (_ready(_ready_exact) if exact else 0.0))


# --------------------------------------------------------------------------- the API


@lru_cache(maxsize=4096)
def _parse_cards(text: str, what: str) -> tuple[int, ...]:
    try:
        return parse_cards(text)
    except CardError as exc:
        raise EquityError(f"{what}: {exc}") from None


def _cards(spec: CardsSpec, what: str) -> tuple[int, ...]:
    if isinstance(spec, str):
        return _parse_cards(spec, what)
    cards = tuple(int(c) for c in spec)
    for c in cards:
        if not 0 <= c < 52:
            raise EquityError(f"{what}: not a card number: {c} (0..51)")
    return cards


def _player(spec: PlayerSpec) -> Range:
    if isinstance(spec, Range):
        return spec
    if isinstance(spec, str):
        try:
            return hand_or_range(spec)
        except (RangeError, CardError) as exc:
            raise EquityError(str(exc)) from None
    return Range.of_hand(_cards(spec, "hand"))


def _prepare(
    players: Sequence[PlayerSpec], board: CardsSpec, dead: CardsSpec
) -> tuple[list[Range], tuple[int, ...], tuple[int, ...]]:
    """Parse and check everything; ranges come back without the combos known cards block."""
    ranges = [_player(p) for p in players]
    if not MIN_PLAYERS <= len(ranges) <= MAX_PLAYERS:
        raise EquityError(f"equity needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(ranges)}")
    b = _cards(board, "board")
    d = _cards(dead, "dead cards")
    if len(b) not in (0, 3, 4, 5):
        raise EquityError(f"a board has 0, 3, 4 or 5 cards, not {len(b)}")
    seen: dict[int, str] = {}
    for what, cards in [("the board", b), ("the dead cards", d)] + [
        (f"hand {r.text}", r.combos[0]) for r in ranges if r.is_hand
    ]:
        for c in cards:
            if c in seen:
                raise EquityError(f"card {format_card(c)} appears twice ({seen[c]} and {what})")
            seen[c] = what
    fixed = set(seen)
    out = []
    for r in ranges:
        if r.is_hand:
            out.append(r)
            continue
        left = r.without(fixed)
        if not left.combos:
            raise EquityError(f"the range {r.text!r} is impossible: every combo uses a known card")
        out.append(left)
    if len(b) + len(d) + 2 * len(out) > 52:
        raise EquityError("not enough cards in the deck for everyone")
    _check_compatible(out)
    return out, b, d


def _check_compatible(ranges: list[Range]) -> None:
    """Some combination of the ranges must fit in one deck (a backtracking search, narrowest
    range first; past 100,000 steps it gives up looking and Monte Carlo's own limit on
    redraws has the last word)."""
    order = sorted((r for r in ranges if not r.is_random), key=len)
    steps = 0

    def fits(i: int, used: int) -> bool:
        nonlocal steps
        if i == len(order) or steps > 100_000:
            return True
        for a, b in order[i].combos:
            steps += 1
            bits = (1 << a) | (1 << b)
            if not used & bits and fits(i + 1, used | bits):
                return True
        return False

    if not fits(0, 0):
        raise EquityError("the ranges are impossible together: they need the same cards")


def _deals(ranges: list[Range]) -> tuple[I64, F64]:
    """Every compatible combination of combos (one per player) and its weight."""
    rows: list[list[int]] = []
    weights: list[float] = []

    def walk(i: int, used: int, row: list[int], w: float) -> None:
        if i == len(ranges):
            rows.append(row.copy())
            weights.append(w)
            return
        r = ranges[i]
        for (a, b), cw in zip(r.combos, r.weights, strict=True):
            bits = (1 << a) | (1 << b)
            if used & bits:
                continue
            row.extend((a, b))
            walk(i + 1, used | bits, row, w * cw)
            del row[-2:]

    walk(0, 0, [], 1.0)
    holes = np.array(rows, np.int64).reshape(len(rows), len(ranges), 2)
    return holes, np.array(weights, np.float64)


def _fold_suits(
    holes: I64, weights: F64, board: tuple[int, ...], dead: tuple[int, ...]
) -> tuple[I64, F64]:
    """Merge deals that differ only by a renaming of suits (they have the same equity).

    Only renamings that leave the board and the dead cards in place are used. Each deal is
    replaced by its smallest renaming (row-wise lexicographic minimum, vectorised over deals),
    and equal rows are merged, adding their weights.
    """
    if len(holes) < 2:
        return holes, weights
    fixed = (frozenset(board), frozenset(dead))
    t, n = holes.shape[0], holes.shape[1]
    rows = np.arange(t)
    best: I64 | None = None
    for perm in permutations(range(4)):
        table = np.array([(c >> 2) * 4 + perm[c & 3] for c in range(52)], np.int64)
        if (frozenset(table[list(board)].tolist()), frozenset(table[list(dead)].tolist())) != fixed:
            continue
        m = table[holes]
        cand = np.stack([m.max(axis=2), m.min(axis=2)], axis=2).reshape(t, 2 * n)
        if best is None:
            best = cand
            continue
        diff = cand != best
        first = diff.argmax(axis=1)
        less = diff.any(axis=1) & (cand[rows, first] < best[rows, first])
        best[less] = cand[less]
    assert best is not None  # the identity always qualifies
    uniq, inverse = np.unique(best, axis=0, return_inverse=True)
    merged = np.bincount(inverse.ravel(), weights=weights, minlength=len(uniq)).astype(np.float64)
    return np.ascontiguousarray(uniq.reshape(len(uniq), n, 2)), merged


def equity(
    players: Sequence[PlayerSpec],
    board: CardsSpec = (),
    dead: CardsSpec = (),
    *,
    exact: bool | None = None,
    samples: int = 200_000,
    seed: int = 0,
    progress: Callable[[float], None] | None = None,
) -> EquityResult:
    """Each player's equity.

    ``players`` are hands (``"AhKh"``, ``(50, 46)``) or ranges (``"TT+, AKs"``, a
    :class:`~tapete.eval.ranges.Range`). ``exact=None`` enumerates when that costs at most
    ``AUTO_EXACT_LIMIT`` boards' worth of work (well under a second) and samples otherwise.
    ``progress`` is called with the fraction done (0..1) between chunks of work. Raises
    :class:`EquityError` with a one-line reason.
    """
    started = time.perf_counter()
    ranges, b, d = _prepare(players, board, dead)
    dead_mask = 0
    for c in d:
        dead_mask |= 1 << c
    n = len(ranges)
    wins = np.zeros(n, np.float64)
    ties = np.zeros(n, np.float64)
    eq = np.zeros(n, np.float64)
    board_arr = np.array(b, np.int64)
    upper = math.prod(len(r) for r in ranges)
    if exact and upper > MAX_EXACT_DEALS:
        raise EquityError(
            f"too many hand combinations for exact enumeration ({upper:,}); use Monte Carlo"
        )
    need = 5 - len(b)
    per_deal = math.comb(52 - len(b) - len(d) - 2 * n, need)
    unit = PREFLOP_COST if need == 5 else per_deal
    if exact is None and (upper > MAX_EXACT_DEALS or upper // 24 * unit > AUTO_EXACT_LIMIT):
        exact = False  # too much work even if suit symmetry folded every deal 24 ways
    if exact is not False:
        holes, weights = _deals(ranges)
        all_deals = len(holes)
        holes, weights = _fold_suits(holes, weights, b, d)
        exact = exact or len(holes) * unit <= AUTO_EXACT_LIMIT
    if exact:
        loading = _ready(_ready_exact)
        boards = all_deals * per_deal
        step = max(1, len(holes) // 50)
        for start in range(0, len(holes), step):
            _run_exact(
                holes[start : start + step], weights[start : start + step], board_arr, dead_mask,
                wins, ties, eq,
            )  # fmt: skip
            if progress is not None:
                progress(min(1.0, (start + step) / len(holes)))
        total_weight = float(weights.sum()) * per_deal
        share = eq / total_weight
        players_out = tuple(
            PlayerEquity(_label(p, r), float(wins[i]), float(ties[i]), float(share[i]))
            for i, (p, r) in enumerate(zip(players, ranges, strict=True))
        )
        seconds = time.perf_counter() - started - loading
        return EquityResult(boards, players_out, True, total_weight, seconds)

    if samples < 1:
        raise EquityError("Monte Carlo needs at least one sample")
    kinds, offsets, combos, cums = _range_arrays(tuple(ranges))
    loading = _ready(_ready_monte_carlo)
    eq2 = np.zeros(n, np.float64)
    state = seed_state(seed)
    chunk = max(10_000, samples // 50)
    done = 0
    while done < samples:
        k = min(chunk, samples - done)
        got = _run_monte_carlo(
            kinds, offsets, combos, cums, board_arr, dead_mask, k, state, wins, ties, eq, eq2,
        )  # fmt: skip
        if got < 0:
            raise EquityError("the ranges are almost never compatible: no deal found")
        done += k
        if progress is not None:
            progress(done / samples)
    mean = eq / samples
    var = np.maximum(eq2 / samples - mean * mean, 0.0) * (samples / max(samples - 1, 1))
    half = 1.959963984540054 * np.sqrt(var / samples)
    players_out = tuple(
        PlayerEquity(_label(p, r), float(wins[i]), float(ties[i]), float(mean[i]), float(half[i]))
        for i, (p, r) in enumerate(zip(players, ranges, strict=True))
    )
    seconds = time.perf_counter() - started - loading
    return EquityResult(samples, players_out, False, float(samples), seconds)


def _label(spec: PlayerSpec, r: Range) -> str:
    return spec if isinstance(spec, str) else r.text


@lru_cache(maxsize=256)
def _range_arrays(ranges: tuple[Range, ...]) -> tuple[I64, I64, I64, F64]:
    """Flatten the players' ranges for the Monte Carlo kernel."""
    kinds = np.array([1 if r.is_random else 2 if r.is_hand else 0 for r in ranges], np.int64)
    parts = [r.arrays for r in ranges]
    sizes = [0 if r.is_random else len(r) for r in ranges]
    offsets = np.zeros(len(ranges) + 1, np.int64)
    offsets[1:] = np.cumsum(sizes)
    combos = np.concatenate(
        [c for (c, _), s in zip(parts, sizes, strict=True) if s] or [np.zeros((0, 2), np.int64)]
    )
    cums = np.concatenate(
        [w for (_, w), s in zip(parts, sizes, strict=True) if s] or [np.zeros(0, np.float64)]
    )
    return kinds, offsets, combos, cums


def _hero_board(
    hole: CardsSpec, board: CardsSpec, dead: CardsSpec, opponents: int
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    hero = _cards(hole, "hole cards")
    b = _cards(board, "board")
    d = _cards(dead, "dead cards")
    if len(hero) != 2 or hero[0] == hero[1]:
        raise EquityError("hole cards are two different cards")
    if len(set(hero) | set(b) | set(d)) != 2 + len(b) + len(d):
        raise EquityError("a card appears twice among the hole cards, board and dead cards")
    if len(b) not in (0, 3, 4, 5):
        raise EquityError(f"a board has 0, 3, 4 or 5 cards, not {len(b)}")
    if not 1 <= opponents <= MAX_PLAYERS - 1:
        raise EquityError(f"1 to {MAX_PLAYERS - 1} opponents, not {opponents}")
    dead_mask = 0
    for c in d:
        dead_mask |= 1 << c
    return hero, b, dead_mask


def _hero_share(
    kinds: I64, offsets: I64, combos: I64, cums: F64, board: tuple[int, ...], dead_mask: int,
    samples: int, seed: int,
) -> float:  # fmt: skip
    n = len(kinds)
    wins = np.zeros(n, np.float64)
    ties = np.zeros(n, np.float64)
    eq = np.zeros(n, np.float64)
    eq2 = np.zeros(n, np.float64)
    got = _run_monte_carlo(
        kinds, offsets, combos, cums, np.array(board, np.int64), dead_mask, samples,
        seed_state(seed), wins, ties, eq, eq2,
    )  # fmt: skip
    if got < 0:
        raise EquityError("the ranges cannot be held with these cards")
    return float(eq[0]) / samples


def hand_vs_ranges(
    hole: CardsSpec,
    ranges: Sequence[str | Range | None],
    board: CardsSpec = (),
    samples: int = 1000,
    seed: int = 0,
    dead: CardsSpec = (),
) -> float:
    """Equity (0..1) of ``hole`` against one opponent per entry of ``ranges`` (``None`` or
    ``"random"``: any two cards), by Monte Carlo. Fast enough to call at every decision: parsed
    ranges are cached and the work runs in one compiled call.

    Combos that clash with the hero's cards or the board are skipped, so a range is narrowed
    by card removal as a player would expect.
    """
    hero, b, dead_mask = _hero_board(hole, board, dead, len(ranges))
    rs = [Range.of_hand(hero)] + [_RANDOM if r is None else _player(r) for r in ranges]
    kinds, offsets, combos, cums = _range_arrays(tuple(rs))
    return _hero_share(kinds, offsets, combos, cums, b, dead_mask, samples, seed)


def hand_vs_weights(
    hole: CardsSpec,
    weights: Sequence[npt.ArrayLike],
    board: CardsSpec = (),
    samples: int = 1000,
    seed: int = 0,
    dead: CardsSpec = (),
) -> float:
    """:func:`hand_vs_ranges` for ranges kept as weight vectors, as bots keep them.

    Each entry of ``weights`` holds 1,326 weights (>= 0) in the order of
    :data:`tapete.eval.ranges.ALL_COMBOS`; no parsing, no per-call objects. Combos that clash with
    known cards are skipped; an opponent whose live combos all weigh 0 raises
    :class:`EquityError`.
    """
    hero, b, dead_mask = _hero_board(hole, board, dead, len(weights))
    n = len(weights) + 1
    kinds = np.zeros(n, np.int64)
    kinds[0] = 2
    offsets = np.zeros(n + 1, np.int64)  # the hero's one combo, then 1,326 per opponent
    offsets[1:] = 1 + np.arange(n) * 1326
    combos = np.empty((1 + (n - 1) * 1326, 2), np.int64)
    combos[0] = (max(hero), min(hero))
    cums = np.empty(len(combos), np.float64)
    cums[0] = 1.0
    for i, w in enumerate(weights):
        arr = np.asarray(w, np.float64)
        if arr.shape != (1326,) or not (arr >= 0).all():
            raise EquityError("a weight vector has 1,326 weights, none negative")
        lo = 1 + i * 1326
        combos[lo : lo + 1326] = _ALL_COMBOS
        np.cumsum(arr, out=cums[lo : lo + 1326])
        if cums[lo + 1325] <= 0:
            raise EquityError("a weight vector with no weight")
    return _hero_share(kinds, offsets, combos, cums, b, dead_mask, samples, seed)


_RANDOM = Range.parse("random")
_ALL_COMBOS = np.array(ALL_COMBOS, np.int64)
