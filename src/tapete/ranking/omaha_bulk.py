"""The bulk Omaha path: rank numpy arrays of Omaha hands, high and low, in numba.

Same strengths as the scalar path: high as :func:`tapete.ranking.omaha.evaluate_omaha`
(1..7462, exactly two hole cards and three board cards), low as
:func:`tapete.ranking.low.evaluate_omaha_low` (0 = no low, 1..56). Input is two integer
arrays of cards (``rank * 4 + suit``), ``holes`` of shape ``(N, 2..5)`` and ``boards`` of shape
``(N, 3..5)``, one row per hand, ideally ``uint8`` and C-contiguous (anything else is converted
once). Cards must be distinct within a row (not checked) and 0..51 (checked).

High runs on the hold'em bulk path's tables (:mod:`tapete.ranking.bulk`). On a board of
five cards (every showdown, and every board equity deals) it takes one lookup per pair of hole
cards: the board's sum of :data:`BOARD_RANK_KEY` (keys for five ranks only, so the sum stays
below 2**19) hashes to a row of the board-best table, which holds for each of the 91 pairs of
hole ranks the best of the board's ten triples with that pair, derived from the five-card rank
table at first use (6,175 rows of 192 bytes, 1.3 MB with the hash's gaps, in about 0.2 s).
Random boards miss the core's caches on that table, so the kernel works in chunks of
:data:`CHUNK` hands: every board's row first, then the lookups, prefetching the row of the hand
:data:`AHEAD` on, then the few hands that may hold a flush. On a board of three or four cards,
the rank keys of every pair and every triple are summed and each sum goes through the
five-card rank table's hash. Flushes are looked up in the 13-bit flush table only for two hole
cards of a suit the board has three of, the way the scalar path does. Low is one lookup in a
65,536-entry table of (hole low-rank mask, board low-rank mask), filled from the scalar low
evaluator (:func:`~tapete.ranking.low.omaha_low_of_masks`) at first use.

As in :mod:`~tapete.ranking.bulk`, the hot loop (four hole cards on five board cards) is
written out in its kernel: a jitted helper taking arrays costs numba reference counting, even
inlined (measured: half the speed). The kernels are compiled once and cached on disk; the
equity kernel of :mod:`tapete.eval.omaha` calls them once per board, on
:func:`omaha_tables`' arrays.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt

from tapete.ranking._jit import njit, njit_inline, prefetch
from tapete.ranking.bulk import CARD_BIT, CARD_KEY, FLUSH, _pack_rows, rank_table
from tapete.ranking.low import LOW_BIT, omaha_low_of_masks

__all__ = [
    "OmahaTables",
    "evaluate_omaha_hilo_many",
    "evaluate_omaha_low_many",
    "evaluate_omaha_many",
    "omaha_tables",
    "warm_up",
]

U8 = npt.NDArray[np.uint8]
U16 = npt.NDArray[np.uint16]
I64 = npt.NDArray[np.int64]


class OmahaTables(NamedTuple):
    """The arrays every Omaha kernel takes, in this order."""

    #: card -> its rank key (the hold'em tables' ``RANK_KEY``), int64
    rank_key: I64
    #: card -> the hold'em bulk path's key: ``rank key << 16 | 1 << 4 * suit``
    card_key: I64
    #: card -> ``1 << (16 * suit + rank)``, int64 (flush rank masks, a 16-bit lane per suit)
    card_bit: I64
    #: the five-card rank table's row offsets and values (:func:`bulk.rank_table`)
    rank_offsets: U16
    rank_values: U16
    #: 13-bit rank mask of five suited cards -> strength of the flush
    flush: U16
    #: card -> its low-rank bit (ace = 1 .. eight = 128), 0 for a nine or higher
    low_bit: I64
    #: ``(hole low mask << 8) | board low mask`` -> the Omaha low (0 = none, 1..56)
    omaha_low: U8
    #: ``card * 52 + card`` of two hole cards -> the index of their ranks' pair, 0..90
    pair_index: U8
    #: ``ROW * slot + pair index`` -> the best high without a flush of that pair of hole ranks
    #: on the five board ranks whose :data:`BOARD_RANK_KEY` sum ``k`` hashes to ``slot =
    #: (k & 63) + board_offsets[k >> 6]``; 64-byte aligned, so a row is three cache lines
    board_best: U16
    #: card -> ``BOARD_RANK_KEY[rank] << 16 | 1 << 4 * suit``, int64: summed over a board, the
    #: board's key above four 4-bit suit counters
    board_key: I64
    #: the row offsets of the board hash (see ``board_best``)
    board_offsets: U16


#: how many pairs of ranks two hole cards can have (13 pocket pairs and 78 others)
PAIRS = 91
#: entries per row of the board-best table: the 91 pairs, padded to 192 bytes (three lines)
ROW = 96
#: rank keys (deuce first) whose sums differ for every multiset of five ranks with at most four
#: of each (greedy, smallest first; checked when the table is built). A board's sum is below
#: 2**19, so its hash's row offsets take 11 KB, against 230 KB for the hold'em rank keys
BOARD_RANK_KEY: Final = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
#: hands per pass of the bulk kernel, and how many hands ahead it prefetches their board rows
CHUNK = 256
AHEAD = 16


def _aligned_zeros(n: int) -> U16:
    """``n`` zero ``uint16`` starting on a 64-byte boundary (a cache line)."""
    raw = np.zeros(n + 32, np.uint16)
    start = (-raw.ctypes.data % 64) // 2
    return raw[start:start + n]


def _board_best(rank_key: I64, ro: U16, rv: U16) -> tuple[U8, U16, I64, U16]:
    """The pair index, board-best, board key and board offset tables (see
    :class:`OmahaTables`), from the five-card rank table: per five board ranks and pair of hole
    ranks, the best of the board's ten triples with the pair."""
    rkey = rank_key[::4]  # rank -> rank key
    boards = np.array([b for b in combinations_with_replacement(range(13), 5)
                       if max(b.count(r) for r in b) <= 4], np.int64)
    pairs = np.array(list(combinations_with_replacement(range(13), 2)), np.int64)
    by_ranks = np.zeros((13, 13), np.uint8)
    by_ranks[pairs[:, 0], pairs[:, 1]] = np.arange(PAIRS)
    by_ranks[pairs[:, 1], pairs[:, 0]] = np.arange(PAIRS)
    rank = np.arange(52) >> 2
    pair_index = by_ranks[rank[:, None], rank[None, :]].reshape(-1)
    pkey = rkey[pairs].sum(axis=1)
    best = np.zeros((len(boards), PAIRS), np.uint16)
    for tri in combinations(range(5), 3):
        t = boards[:, tri]
        key = rkey[t].sum(axis=1)[:, None] + pkey[None, :]
        # five of a rank (a pocket pair with the board's trips of it) cannot be dealt
        five = (t[:, 0] == t[:, 2])[:, None] & (pairs[:, 0] == pairs[:, 1])[None, :] & (
            t[:, :1] == pairs[None, :, 0])
        row = np.minimum(key >> 6, len(ro) - 1)
        slot = np.minimum((key & 63) + ro[row].astype(np.int64), len(rv) - 1)
        best = np.maximum(best, np.where(five, 0, rv[slot]))
    keys = np.array(BOARD_RANK_KEY, np.int64)
    bkey = keys[boards].sum(axis=1)
    offsets, size = _pack_rows(bkey)
    bslot = (bkey & 63) + offsets[bkey >> 6]
    if len(np.unique(bkey)) != len(bkey) or len(np.unique(bslot)) != len(bkey) or (
            offsets.max() >= 1 << 16):
        raise AssertionError("the board rank keys or their hash collide")
    table = _aligned_zeros(size * ROW)
    table.reshape(size, ROW)[bslot, :PAIRS] = best
    board_key = (keys[rank] << 16) | (np.int64(1) << (4 * (np.arange(52) & 3)))
    return pair_index, table, board_key, offsets.astype(np.uint16)


@cache
def omaha_tables() -> OmahaTables:
    """The Omaha kernels' arrays, built once per process (the low table in about 0.1 s)."""
    low = np.array([omaha_low_of_masks(h, b) for h in range(256) for b in range(256)], np.uint8)
    rank_key = (CARD_KEY[:52] >> 16).astype(np.int64)
    low_bit = np.array(LOW_BIT, np.int64)
    ro, rv = rank_table(5)
    pair_index, board_best, board_key, board_offsets = _board_best(rank_key, ro, rv)
    for a in (rank_key, low_bit, low, pair_index, board_best, board_key, board_offsets):
        a.flags.writeable = False
    return OmahaTables(rank_key, CARD_KEY[:52], CARD_BIT[:52], ro, rv, FLUSH, low_bit, low,
                       pair_index, board_best, board_key, board_offsets)


@njit_inline
def omaha_high(holes: U8, i: int, tkeys: I64, tsuits: I64, tmasks: I64, nt: int, rk: I64,
               cb: I64, ro: U16, rv: U16, fl: U16) -> int:
    """The high of the hand ``holes[i]`` on a board's ``nt`` triples: their rank-key sums, and
    for each its suit (-1 unless all three share one) and its card bits."""
    nh = holes.shape[1]
    best = 0
    for x in range(nh - 1):
        cx = holes[i, x]
        kx = rk[cx]
        for y in range(x + 1, nh):
            cy = holes[i, y]
            pk = kx + rk[cy]
            for j in range(nt):
                k = pk + tkeys[j]
                v = int(rv[(k & 63) + np.int64(ro[k >> 6])])
                if v > best:
                    best = v
            s = cx & 3
            if s == cy & 3:
                pm = cb[cx] | cb[cy]
                for j in range(nt):
                    if tsuits[j] == s:
                        v = int(fl[((pm | tmasks[j]) >> (16 * s)) & 0x1FFF])
                        if v > best:
                            best = v
    return best


@njit_inline
def board_triples(boards: U8, i: int, nb: int, tkeys: I64, tsuits: I64, tmasks: I64, rk: I64,
                  cb: I64) -> int:
    """Fill the triples of the first ``nb`` cards of ``boards[i]`` (see :func:`omaha_high`);
    returns how many."""
    nt = 0
    for a in range(nb - 2):
        ca = boards[i, a]
        for b in range(a + 1, nb - 1):
            cab = boards[i, b]
            for c in range(b + 1, nb):
                cc = boards[i, c]
                tkeys[nt] = rk[ca] + rk[cab] + rk[cc]
                s = ca & 3
                tsuits[nt] = s if (cab & 3) == s and (cc & 3) == s else -1
                tmasks[nt] = cb[ca] | cb[cab] | cb[cc]
                nt += 1
    return nt


@njit_inline
def board5(boards: U8, i: int, ck: I64, ro: U16) -> tuple[int, int]:
    """What every hand on the five-card board ``boards[i]`` shares: ``(base, flush)``, the
    board's row in the board-best table and, when three or more of its cards share a suit, that
    suit's 4-bit counter's top bit (0 when no suit has three). ``ck`` is the board keys
    (:class:`OmahaTables`): their sum holds the board's key and four suit counters."""
    h = ck[boards[i, 0]] + ck[boards[i, 1]] + ck[boards[i, 2]] + ck[boards[i, 3]] + ck[
        boards[i, 4]]
    k = h >> 16
    return ((k & 63) + np.int64(ro[k >> 6])) * ROW, (h + 0x5555) & 0x8888


@njit_inline
def suited_best(hole: int, board: int, fl: U16) -> int:
    """The best flush of two of the ranks ``hole`` and three of ``board`` (13-bit masks of one
    suit, disjoint), 0 when ``hole`` has fewer than two or ``board`` fewer than three."""
    best = 0
    a = hole
    while a:
        ba = a & -a
        a ^= ba
        b = a
        while b:
            bb = b & -b
            b ^= bb
            p = ba | bb
            x = board
            while x:
                bx = x & -x
                x ^= bx
                y = x
                while y:
                    by = y & -y
                    y ^= by
                    z = y
                    while z:
                        bz = z & -z
                        z ^= bz
                        best = max(best, int(fl[p | bx | by | bz]))
    return best


@njit_inline
def flush5(m: int, boards: U8, i: int, flush: int, cb: I64, fl: U16) -> int:
    """The best flush of a hand whose card bits are ``m`` on the five-card board ``boards[i]``
    with a suit of three (``flush``, from :func:`board5`), 0 if the hand has one card of it or
    none."""
    sh = 16 * (((flush >> 7) & 1) + 2 * ((flush >> 11) & 1) + 3 * ((flush >> 15) & 1))
    m = (m >> sh) & 0x1FFF
    if m & (m - 1) == 0:
        return 0
    franks = (cb[boards[i, 0]] | cb[boards[i, 1]] | cb[boards[i, 2]] | cb[boards[i, 3]]
              | cb[boards[i, 4]]) >> sh
    return suited_best(m, franks & 0x1FFF, fl)


@njit_inline
def high5_any(holes: U8, j: int, boards: U8, i: int, base: int, flush: int, cb: I64,
              fl: U16, pidx: U8, bb: U16) -> int:
    """The high of the hole cards ``holes[j]`` on the five-card board ``boards[i]``, whose row
    ``base`` and ``flush`` :func:`board5` gave."""
    best = 0
    m = 0
    nh = holes.shape[1]
    for x in range(nh):
        cx = holes[j, x]
        m |= cb[cx]
        rx = 52 * np.int64(cx)
        for y in range(x + 1, nh):
            best = max(best, int(bb[base + np.int64(pidx[rx + np.int64(holes[j, y])])]))
    if flush:
        best = max(best, flush5(m, boards, i, flush, cb, fl))
    return best


@njit
def _high5_many(holes: U8, boards: U8, ck: I64, cb: I64, ro: U16, fl: U16, pidx: U8,
                bb: U16, out: U16) -> None:
    n = holes.shape[0]
    if holes.shape[1] != 4:
        for i in range(n):
            base, flush = board5(boards, i, ck, ro)
            out[i] = high5_any(holes, i, boards, i, base, flush, cb, fl, pidx, bb)
        return
    # Four hole cards: the same, written out here (the six pairs, the flush test). Twice as
    # fast as the helpers: a helper taking arrays costs numba reference counting, inlined or not
    if n < CHUNK:  # a few hands, say on one board (the equity loop): its row stays in cache
        for i in range(n):
            h = ck[boards[i, 0]] + ck[boards[i, 1]] + ck[boards[i, 2]] + ck[boards[i, 3]] + ck[
                boards[i, 4]]
            k = h >> 16
            base = ((k & 63) + np.int64(ro[k >> 6])) * ROW
            c0 = holes[i, 0]
            c1 = holes[i, 1]
            c2 = holes[i, 2]
            c3 = holes[i, 3]
            r0 = 52 * np.int64(c0)
            r1 = 52 * np.int64(c1)
            r2 = 52 * np.int64(c2)
            # maxima as a tree: as a chain, LLVM made its last steps (unpredictable) branches
            v0 = int(bb[base + np.int64(pidx[r0 + c1])])
            v1 = int(bb[base + np.int64(pidx[r0 + c2])])
            v2 = int(bb[base + np.int64(pidx[r0 + c3])])
            v3 = int(bb[base + np.int64(pidx[r1 + c2])])
            v4 = int(bb[base + np.int64(pidx[r1 + c3])])
            v5 = int(bb[base + np.int64(pidx[r2 + c3])])
            b = max(max(max(v0, v1), max(v2, v3)), max(v4, v5))
            x = (h + 0x5555) & 0x8888
            if x:
                sh = 16 * (((x >> 7) & 1) + 2 * ((x >> 11) & 1) + 3 * ((x >> 15) & 1))
                m = ((cb[c0] | cb[c1] | cb[c2] | cb[c3]) >> sh) & 0x1FFF
                if m & (m - 1):  # two hole cards of the board's suit of three, or more
                    franks = (cb[boards[i, 0]] | cb[boards[i, 1]] | cb[boards[i, 2]]
                              | cb[boards[i, 3]] | cb[boards[i, 4]]) >> sh
                    b = max(b, suited_best(m, franks & 0x1FFF, fl))
            out[i] = b
        return
    # Many hands, each on its own board: the rows (1.3 MB in all) miss the core's caches, and a
    # hand's reads wait on its row. So, per CHUNK hands: first every board's row (and AHEAD
    # more) and the hands that may hold a flush; then the six lookups of each hand, while the
    # row of the hand AHEAD on is already being fetched (three cache lines); then the flushes,
    # off the main loop (their unpredictable branch cost more than the test).
    # Row and pair indices are unsigned here (and nothing signed meets them): numba indexes
    # with a signed integer through a test for negatives, three instructions a lookup.
    rows = np.empty(CHUNK + AHEAD, np.uint64)
    todo = np.empty(CHUNK + AHEAD, np.int64)
    for start in range(0, n, CHUNK):
        end = min(n, start + CHUNK)
        ahead = min(n, end + AHEAD)
        flushes = 0
        for i in range(start, ahead):
            h = ck[boards[i, 0]] + ck[boards[i, 1]] + ck[boards[i, 2]] + ck[boards[i, 3]] + ck[
                boards[i, 4]]
            k = h >> 16
            rows[i - start] = np.uint64(((k & 63) + np.int64(ro[k >> 6])) * ROW)
            # a suit with three on the board (counter + 5 >= 8) and two in the hand (+ 6 >= 8)
            hole = ck[holes[i, 0]] + ck[holes[i, 1]] + ck[holes[i, 2]] + ck[holes[i, 3]]
            todo[flushes] = i
            flushes += (((h + 0x5555) & (hole + 0x6666) & 0x8888) != 0) & (i < end)
        for i in range(start, end):
            if i + AHEAD < ahead:
                nxt = rows[i + AHEAD - start]
                prefetch(bb, nxt)
                prefetch(bb, nxt + np.uint64(32))
                prefetch(bb, nxt + np.uint64(64))
            base = rows[i - start]
            c0 = holes[i, 0]
            c1 = holes[i, 1]
            c2 = holes[i, 2]
            c3 = holes[i, 3]
            u0 = np.uint64(52) * np.uint64(c0)
            u1 = np.uint64(52) * np.uint64(c1)
            u2 = np.uint64(52) * np.uint64(c2)
            # maxima as a tree: as a chain, LLVM made its last steps (unpredictable) branches
            v0 = int(bb[base + np.uint64(pidx[u0 + c1])])
            v1 = int(bb[base + np.uint64(pidx[u0 + c2])])
            v2 = int(bb[base + np.uint64(pidx[u0 + c3])])
            v3 = int(bb[base + np.uint64(pidx[u1 + c2])])
            v4 = int(bb[base + np.uint64(pidx[u1 + c3])])
            v5 = int(bb[base + np.uint64(pidx[u2 + c3])])
            b = max(max(max(v0, v1), max(v2, v3)), max(v4, v5))
            out[i] = b
        for t in range(flushes):
            i = todo[t]
            h = ck[boards[i, 0]] + ck[boards[i, 1]] + ck[boards[i, 2]] + ck[boards[i, 3]] + ck[
                boards[i, 4]]
            x = (h + 0x5555) & 0x8888
            sh = 16 * (((x >> 7) & 1) + 2 * ((x >> 11) & 1) + 3 * ((x >> 15) & 1))
            m = ((cb[holes[i, 0]] | cb[holes[i, 1]] | cb[holes[i, 2]] | cb[holes[i, 3]]) >> sh
                 ) & 0x1FFF
            franks = (cb[boards[i, 0]] | cb[boards[i, 1]] | cb[boards[i, 2]] | cb[boards[i, 3]]
                      | cb[boards[i, 4]]) >> sh
            out[i] = max(out[i], suited_best(m, franks & 0x1FFF, fl))


@njit
def _high_many(holes: U8, boards: U8, rk: I64, cb: I64, ro: U16, rv: U16, fl: U16,
               out: U16) -> None:
    nb = boards.shape[1]
    tkeys = np.zeros(10, np.int64)
    tsuits = np.zeros(10, np.int64)
    tmasks = np.zeros(10, np.int64)
    for i in range(holes.shape[0]):
        nt = board_triples(boards, i, nb, tkeys, tsuits, tmasks, rk, cb)
        out[i] = omaha_high(holes, i, tkeys, tsuits, tmasks, nt, rk, cb, ro, rv, fl)


@njit
def _low_many(holes: U8, boards: U8, lb: I64, ol: U8, out: U8) -> None:
    nh = holes.shape[1]
    nb = boards.shape[1]
    for i in range(holes.shape[0]):
        h = 0
        for j in range(nh):
            h |= lb[holes[i, j]]
        b = 0
        for j in range(nb):
            b |= lb[boards[i, j]]
        out[i] = ol[(h << 8) | b]


def _arrays(holes: npt.ArrayLike, boards: npt.ArrayLike) -> tuple[U8, U8]:
    """Both arrays as C-contiguous uint8, their shapes and cards checked."""
    out = []
    for name, arr, sizes in (("holes", holes, (2, 5)), ("boards", boards, (3, 5))):
        a = np.asarray(arr)
        if a.ndim != 2 or not sizes[0] <= a.shape[1] <= sizes[1]:
            raise ValueError(f"{name} must be an (N, {sizes[0]}..{sizes[1]}) array, not "
                             f"{a.shape}")
        # one pass for uint8 (no card below 0), two for other integers
        if a.size and (int(a.max()) > 51 or (a.dtype != np.uint8 and int(a.min()) < 0)):
            raise ValueError("cards are ints 0..51")
        out.append(np.ascontiguousarray(a, dtype=np.uint8))
    h, b = out
    if h.shape[0] != b.shape[0]:
        raise ValueError(f"{h.shape[0]} hands and {b.shape[0]} boards: one board per hand")
    return h, b


def _high(h: U8, b: U8, out: U16) -> U16:
    tb = omaha_tables()
    if b.shape[1] == 5:
        _high5_many(h, b, tb.board_key, tb.card_bit, tb.board_offsets, tb.flush, tb.pair_index,
                    tb.board_best, out)
    else:
        _high_many(h, b, tb.rank_key, tb.card_bit, tb.rank_offsets, tb.rank_values, tb.flush,
                   out)
    return out


def evaluate_omaha_many(holes: npt.ArrayLike, boards: npt.ArrayLike) -> U16:
    """The Omaha high of every row (``holes[i]`` on ``boards[i]``), as ``uint16``."""
    h, b = _arrays(holes, boards)
    return _high(h, b, np.empty(h.shape[0], np.uint16))


def evaluate_omaha_low_many(holes: npt.ArrayLike, boards: npt.ArrayLike) -> U8:
    """The Omaha eight-or-better low of every row, as ``uint8`` (0 = no low)."""
    h, b = _arrays(holes, boards)
    tb = omaha_tables()
    out = np.empty(h.shape[0], np.uint8)
    _low_many(h, b, tb.low_bit, tb.omaha_low, out)
    return out


def evaluate_omaha_hilo_many(holes: npt.ArrayLike, boards: npt.ArrayLike) -> tuple[U16, U8]:
    """``(high, low)`` of every row: :func:`evaluate_omaha_many` and
    :func:`evaluate_omaha_low_many` on arrays checked once."""
    h, b = _arrays(holes, boards)
    tb = omaha_tables()
    high = _high(h, b, np.empty(h.shape[0], np.uint16))
    low = np.empty(h.shape[0], np.uint8)
    _low_many(h, b, tb.low_bit, tb.omaha_low, low)
    return high, low


def warm_up() -> None:
    """Load (after an install: compile and cache) the Omaha kernels and their tables."""
    evaluate_omaha_hilo_many(np.arange(4, dtype=np.uint8).reshape(1, 4),
                             np.arange(4, 9, dtype=np.uint8).reshape(1, 5))
