"""The bulk path: rank numpy arrays of hands and enumerate every seven-card hand, in numba.

Same tables and strength scale as :func:`tapete.ranking.evaluate` (1..7462, higher is
better). Input hands are an integer array of shape ``(N, 5)``, ``(N, 6)`` or ``(N, 7)``
holding cards ``rank * 4 + suit`` (``2c`` = 0 ... ``As`` = 51), ideally ``uint8`` and
C-contiguous (anything else is converted once). Cards within a row must be distinct; that is
not checked (it would cost as much as the ranking); out-of-range cards are, for free: their
padded key trips the same test as a flush.

Why it is fast: a hand's hash is seven additions of per-card keys. Flushes, caught by one AND
on the suit counters, index an 8,192-entry table. Otherwise the rank-key sum (up to 7,825,759,
with only 49,205 values reachable) goes through a displacement hash into a small table: the
sum's row of 64 keys has a ``uint16`` offset, and ``values[(key & 63) + offset[key >> 6]]``
never collides (the rows are packed at first use, in about 15 ms). The two arrays take 350 KB,
which stay in the core's cache, where a direct 15.6 MB table would miss on random hands
(measured: 300 against 255 M hands/s).

The lookups are written inline in every loop: a jitted helper that takes arrays costs numba a
reference-count round trip per call (10x slower in the equity loops here, 17-21x in the
issue's measurement). The loops are compiled once and cached on disk.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from tapete.ranking import Category
from tapete.ranking._jit import below, njit, seed_state
from tapete.ranking.tables import CATEGORY_SIZES, TABLES

U8 = npt.NDArray[np.uint8]
U16 = npt.NDArray[np.uint16]
I64 = npt.NDArray[np.int64]

#: added to a hash by a byte that is not a card (52..255); seven of them still fit in int64
BAD_CARD = 1 << 56
#: the hash bits that send a hand off the fast path: a flush, or a bad card
SLOW_BITS = 0x8888 | (7 << 56)
#: per-card hash keys (int64): rank key << 16 | one suit counter; 256 entries so any uint8
#: indexes it, the non-cards adding BAD_CARD (checked off the fast path, at no cost on it)
CARD_KEY: I64 = np.full(256, BAD_CARD, np.int64)
CARD_KEY[:52] = TABLES.card_key
#: per-card bits, 16 bits per suit: ``1 << (16 * suit + rank)``, for flush rank masks
CARD_BIT: I64 = np.zeros(256, np.int64)
CARD_BIT[:52] = [1 << (16 * (c & 3) + (c >> 2)) for c in range(52)]
CARD_KEY.flags.writeable = False
CARD_BIT.flags.writeable = False
#: strength of a 13-bit rank mask of five to seven suited cards
FLUSH: U16 = TABLES.flush_table


ROW_BITS = 6  # 64 keys to a row: a row's pattern of keys is one uint64


@njit
def _ctz(x: Any) -> int:
    """Trailing zero bits of a non-zero uint64."""
    n = 0
    for width in (32, 16, 8, 4, 2, 1):
        low = (np.uint64(1) << np.uint64(width)) - np.uint64(1)
        if (x & low) == np.uint64(0):
            n += width
            x >>= np.uint64(width)
    return n


@njit
def _pack_rows(keys: I64) -> tuple[I64, int]:
    """Row offsets that place every key at a distinct slot, and the number of slots.

    Rows are placed in order, each at the first free fit not far behind the end of the table
    (looking further back packs 10 % tighter and takes 60 times as long).
    """
    nrows = (keys.max() >> 6) + 1
    masks = np.zeros(nrows, np.uint64)
    for k in keys:
        masks[k >> 6] |= np.uint64(1) << np.uint64(k & 63)
    words = np.zeros(keys.shape[0] // 32 + 64, np.uint64)
    offsets = np.zeros(nrows, np.int64)
    ones = np.uint64(0xFFFFFFFFFFFFFFFF)
    size = 0
    low = 0
    for r in range(nrows):
        m = masks[r]
        if m == np.uint64(0):
            continue
        t = _ctz(m)
        m0 = m >> np.uint64(t)
        while (words[low >> 6] >> np.uint64(low & 63)) & np.uint64(1):
            low += 1
        p = max(t, low, size - 512)
        while True:
            w = p >> 6
            bits = ~words[w] & (ones << np.uint64(p & 63))
            while bits == np.uint64(0):
                w += 1
                bits = ~words[w]
            p = w * 64 + _ctz(bits)
            b = p & 63
            window = (
                words[w]
                if b == 0
                else ((words[w] >> np.uint64(b)) | (words[w + 1] << np.uint64(64 - b)))
            )
            if (window & m0) == np.uint64(0):
                break
            p += 1
        words[p >> 6] |= m0 << np.uint64(p & 63)
        if p & 63:
            words[(p >> 6) + 1] |= m0 >> np.uint64(64 - (p & 63))
        offsets[r] = p - t
        top = 63
        while not (m >> np.uint64(top)) & np.uint64(1):
            top -= 1
        size = max(size, p - t + top + 1)
    return offsets, size


@cache
def rank_table(n: int) -> tuple[U16, U16]:
    """``(offsets, values)`` for ``n`` cards without a flush: the strength of rank-key sum
    ``k`` is ``values[(k & 63) + offsets[k >> 6]]``. Built once per process, checked here."""
    keys = TABLES.rank_keys[n]
    offsets, size = _pack_rows(keys)
    if offsets.max() >= 1 << 16:
        raise AssertionError("row offsets do not fit in 16 bits")
    slots = (keys & 63) + offsets[keys >> ROW_BITS]
    if len(np.unique(slots)) != len(keys) or slots.max() >= size:
        raise AssertionError("the rank hash collides")
    values = np.zeros(size, np.uint16)
    values[slots] = TABLES.rank_values[n]
    small = offsets.astype(np.uint16)
    small.flags.writeable = False
    values.flags.writeable = False
    return small, values


@njit
def _rank7(hands: U8, ck: I64, cb: I64, ro: U16, rv: U16, fl: U16, out: U16) -> int:
    for i in range(hands.shape[0]):
        a = hands[i, 0]
        b = hands[i, 1]
        c = hands[i, 2]
        d = hands[i, 3]
        e = hands[i, 4]
        f = hands[i, 5]
        g = hands[i, 6]
        h = 0x3333 + ck[a] + ck[b] + ck[c] + ck[d] + ck[e] + ck[f] + ck[g]
        if h & SLOW_BITS:
            if h >= BAD_CARD:
                return i
            m = cb[a] | cb[b] | cb[c] | cb[d] | cb[e] | cb[f] | cb[g]
            x = (h & 0x8888) >> 3
            sh = 0 if x & 1 else (16 if x & 16 else (32 if x & 256 else 48))
            out[i] = fl[(m >> sh) & 0x1FFF]
        else:
            k = h >> 16
            out[i] = rv[(k & 63) + np.int64(ro[k >> 6])]
    return -1


@njit
def _rank_n(hands: U8, ck: I64, cb: I64, ro: U16, rv: U16, fl: U16, out: U16) -> int:
    n = hands.shape[1]
    for i in range(hands.shape[0]):
        h = 0x3333
        m = 0
        for j in range(n):
            c = hands[i, j]
            h += ck[c]
            m |= cb[c]
        if h & SLOW_BITS:
            if h >= BAD_CARD:
                return i
            x = (h & 0x8888) >> 3
            sh = 0 if x & 1 else (16 if x & 16 else (32 if x & 256 else 48))
            out[i] = fl[(m >> sh) & 0x1FFF]
        else:
            k = h >> 16
            out[i] = rv[(k & 63) + np.int64(ro[k >> 6])]
    return -1


def evaluate_many(hands: npt.ArrayLike, out: U16 | None = None) -> U16:
    """Strengths of an ``(N, 5|6|7)`` array of hands, as ``uint16`` (one per row).

    ``out`` (a ``uint16`` array of N) is filled instead of a new array: for repeated batches,
    that saves the page faults of a fresh allocation.
    """
    arr = np.asarray(hands)
    if arr.ndim != 2 or arr.shape[1] not in (5, 6, 7):
        raise ValueError(f"hands must be an (N, 5), (N, 6) or (N, 7) array, not {arr.shape}")
    if arr.dtype != np.uint8:
        if arr.size and (int(arr.min()) < 0 or int(arr.max()) > 51):
            raise ValueError("cards are ints 0..51")
        arr = arr.astype(np.uint8)
    arr = np.ascontiguousarray(arr)
    if out is None:
        out = np.empty(arr.shape[0], np.uint16)
    elif out.dtype != np.uint16 or out.shape != (arr.shape[0],) or not out.flags.c_contiguous:
        raise ValueError(f"out must be a contiguous uint16 array of {arr.shape[0]}")
    n = arr.shape[1]
    if n == 7:
        bad = _rank7(arr, CARD_KEY, CARD_BIT, *rank_table(7), FLUSH, out)
    else:
        bad = _rank_n(arr, CARD_KEY, CARD_BIT, *rank_table(n), FLUSH, out)
    if bad >= 0:
        raise ValueError(f"row {bad} holds a card above 51 (cards are ints 0..51)")
    return out


def warm_up() -> None:
    """Load (the first time after an install: compile and cache) the ranking kernels and the
    tables of 5, 6 and 7 cards, so that a process's first :func:`evaluate_many` is as quick as
    the next. Safe from any thread."""
    for n in (5, 6, 7):
        evaluate_many(np.arange(n, dtype=np.uint8).reshape(1, n))


@njit
def _enumerate7(ck: I64, cb: I64, ro: U16, rv: U16, fl: U16, first: int) -> I64:
    hist = np.zeros(7463, np.int64)
    for a in range(first, 46):
        ha = 0x3333 + ck[a]
        ma = cb[a]
        for b in range(a + 1, 47):
            hb = ha + ck[b]
            mb = ma | cb[b]
            for c in range(b + 1, 48):
                hc = hb + ck[c]
                mc = mb | cb[c]
                for d in range(c + 1, 49):
                    hd = hc + ck[d]
                    md = mc | cb[d]
                    for e in range(d + 1, 50):
                        he = hd + ck[e]
                        me = md | cb[e]
                        for f in range(e + 1, 51):
                            hf = he + ck[f]
                            mf = me | cb[f]
                            for g in range(f + 1, 52):
                                h = hf + ck[g]
                                if h & 0x8888:
                                    m = mf | cb[g]
                                    x = (h & 0x8888) >> 3
                                    sh = 0 if x & 1 else (16 if x & 16 else (32 if x & 256 else 48))
                                    hist[fl[(m >> sh) & 0x1FFF]] += 1
                                else:
                                    k = h >> 16
                                    hist[rv[(k & 63) + np.int64(ro[k >> 6])]] += 1
    return hist


def enumerate_seven(*, warm_up: bool = False) -> I64:
    """Evaluate all 133,784,560 seven-card hands: how many reach each strength (index 1..7462).

    ``warm_up=True`` runs the same kernel on one hand only, to load it before timing it.
    """
    return _enumerate7(CARD_KEY, CARD_BIT, *rank_table(7), FLUSH, 45 if warm_up else 0)


def category_counts(histogram: I64) -> dict[Category, int]:
    """Fold a strength histogram into counts per category."""
    bounds = np.concatenate(([0], np.cumsum(CATEGORY_SIZES)))
    return {cat: int(histogram[bounds[cat] + 1 : bounds[cat + 1] + 1].sum()) for cat in Category}


@njit
def _deal(out: U8, state: Any) -> None:
    deck = np.arange(52).astype(np.uint8)
    k = out.shape[1]
    s = state[0]
    for i in range(out.shape[0]):
        for j in range(k):
            s, r = below(s, 52 - j)
            r += j
            t = deck[j]
            deck[j] = deck[r]
            deck[r] = t
            out[i, j] = deck[j]
    state[0] = s


def random_hands(count: int, cards: int = 7, seed: int = 0) -> U8:
    """``count`` hands of ``cards`` distinct cards each, uniformly dealt, same for a seed."""
    if not 1 <= cards <= 52 or count < 0:
        raise ValueError("between 1 and 52 cards per hand, and a count >= 0")
    out = np.empty((count, cards), np.uint8)
    _deal(out, seed_state(seed))
    return out
