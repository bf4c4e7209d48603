"""The lookup tables shared by the scalar and the bulk evaluator, built once at import.

How a hand is hashed (both paths do exactly this):

* every card has a key ``CARD_KEY[card] = (RANK_KEY[rank] << 16) | (1 << 4 * suit)``;
* a hand's hash is ``SUIT_BIAS + sum(CARD_KEY[c] for c in cards)``. The low 16 bits hold four
  4-bit suit counters that start at 3, so a counter reaches 8 (bit 3 set, ``FLUSH_BITS``) exactly
  when five or more cards share that suit;
* without a flush, ``hash >> 16`` is the sum of the rank keys. ``RANK_KEY`` is chosen so that
  the sum is different for every multiset of up to seven ranks (at most four of each), so it
  identifies the rank pattern and indexes the rank tables (one per hand size);
* with a flush, the ranks of the flush suit form a 13-bit mask that indexes ``FLUSH_TABLE``.
  With at most seven cards, a flush (or straight flush) is then always the best hand.

Strengths run from 1 (7-5-4-3-2 offsuit) to 7462 (royal flush): the 7,462 classes of five-card
hands, higher is better, equal strength is an exact tie. Everything is built with numpy in a few
tens of milliseconds, so there is nothing to download or cache.
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

import numpy as np
import numpy.typing as npt

# Rank keys whose sums are unique over all multisets of seven ranks with at most four of a
# kind (the keys SKPokerEval uses; checked when the tables are built).
RANK_KEY: Final = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
SUIT_BIAS: Final = 0x3333
FLUSH_BITS: Final = 0x8888
RANK_SHIFT: Final = 16
CLASSES: Final = 7462

# Category boundaries on the strength scale: the strongest strength of each category.
# HIGH_CARD .. STRAIGHT_FLUSH; filled in by _build() and checked there.
CATEGORY_SIZES: Final = (1277, 2860, 858, 858, 10, 1277, 156, 156, 10)

U16 = npt.NDArray[np.uint16]
I64 = npt.NDArray[np.int64]

ClassKey = tuple[int, tuple[int, ...]]


# The ten straights as 13-bit rank masks -> top rank (3, the five, for the wheel A-2-3-4-5).
STRAIGHTS: Final = {**{0b11111 << (top - 4): top for top in range(4, 13)}, 0b1000000001111: 3}


def _class_of_five(ranks: tuple[int, ...], flush: bool) -> ClassKey:
    """(category, ranks in order of importance) of five ranks, which compares like the hands.

    ``ranks`` come highest first.
    """
    a, b, c, d, e = ranks
    if a != b and b != c and c != d and d != e:
        top = STRAIGHTS.get((1 << a) | (1 << b) | (1 << c) | (1 << d) | (1 << e), -1)
        if flush:
            return (8, (top,)) if top >= 0 else (5, ranks)
        return (4, (top,)) if top >= 0 else (0, ranks)
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    order = tuple(sorted(counts, key=lambda r: (counts[r], r), reverse=True))
    pattern = tuple(sorted(counts.values(), reverse=True))
    cat = {(4, 1): 7, (3, 2): 6, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}[pattern]
    return (cat, order)


def _multisets(n: int) -> tuple[npt.NDArray[np.int8], I64]:
    """All multisets of ``n`` ranks (at most four of each) as count rows and rank-key sums."""
    counts = np.zeros((1, 13), np.int8)
    last = np.zeros(1, np.int8)
    keys = np.zeros(1, np.int64)
    rk = np.array(RANK_KEY, np.int64)
    for _ in range(n):
        parts_c, parts_l, parts_k = [], [], []
        for r in range(13):
            sel = (last <= r) & (counts[:, r] < 4)
            c = counts[sel]
            c[:, r] += 1
            parts_c.append(c)
            parts_l.append(np.full(len(c), r, np.int8))
            parts_k.append(keys[sel] + rk[r])
        counts = np.concatenate(parts_c)
        last = np.concatenate(parts_l)
        keys = np.concatenate(parts_k)
    return counts, keys


class Tables:
    """Every table, as numpy arrays (for numba) and as Python dicts/lists (for the scalar path)."""

    def __init__(self) -> None:
        rk = np.array(RANK_KEY, np.int64)

        # The 7,462 classes: 6,175 rank patterns without a flush plus 1,287 flush rank sets.
        c5, k5 = _multisets(5)
        rank_lists = [
            tuple(r for r in range(12, -1, -1) for _ in range(row[r])) for row in c5.tolist()
        ]
        flush_sets = list(combinations(range(12, -1, -1), 5))
        plain = [_class_of_five(rs, False) for rs in rank_lists]
        flushy = [_class_of_five(rs, True) for rs in flush_sets]
        ordered = sorted(plain + flushy)
        if len(set(ordered)) != CLASSES:
            raise AssertionError("the five-card classes are not 7,462")
        strength_of = {cls: i + 1 for i, cls in enumerate(ordered)}
        #: ``CLASS_INFO[strength] = (category, ranks in order of importance)``; index 0 unused.
        self.class_info: list[ClassKey] = [(-1, ())] + ordered

        # Rank tables by hand size: the best five of a multiset is its best subset that drops
        # one rank, so sizes 6 and 7 follow from the size below (vectorised over all rows).
        v5 = np.array([strength_of[c] for c in plain], np.uint16)
        self.rank_keys: dict[int, I64] = {5: k5}
        self.rank_values: dict[int, U16] = {5: v5}
        prev_k, prev_v = k5, v5
        for n in (6, 7):
            cn, kn = _multisets(n)
            dense = np.zeros(int(prev_k.max()) + 1, np.uint16)
            dense[prev_k] = prev_v
            best = np.zeros(len(kn), np.uint16)
            for r in range(13):
                has = cn[:, r] > 0
                cand = dense[kn[has] - rk[r]]
                best[has] = np.maximum(best[has], cand)
            if len(set(kn.tolist())) != len(kn) or best.min() == 0:
                raise AssertionError(f"rank keys collide for {n} cards")
            self.rank_keys[n] = kn
            self.rank_values[n] = best
            prev_k, prev_v = kn, best

        # Flush table over 13-bit rank masks of five to seven cards of one suit.
        flush = np.zeros(1 << 13, np.uint16)
        for rs in flush_sets:
            flush[sum(1 << r for r in rs)] = strength_of[_class_of_five(rs, True)]
        masks = np.arange(1 << 13)
        pop = np.zeros(1 << 13, np.int64)
        for r in range(13):
            pop += (masks >> r) & 1
        for n in (6, 7):
            sel = masks[pop == n]
            best = np.zeros(len(sel), np.uint16)
            for r in range(13):
                bit = (sel >> r) & 1
                best = np.maximum(best, np.where(bit == 1, flush[sel & ~(1 << r)], 0))
            flush[sel] = best
        self.flush_table: U16 = flush

        suit = np.arange(52) & 3
        rank = np.arange(52) >> 2
        self.card_key: I64 = (rk[rank] << RANK_SHIFT) | (np.int64(1) << (4 * suit))

        # Scalar path: plain Python containers (list/dict indexing beats numpy scalars).
        self.py_card_key: list[int] = self.card_key.tolist()
        self.py_flush: list[int] = flush.tolist()
        self.py_rank: dict[int, dict[int, int]] = {
            n: dict(zip(self.rank_keys[n].tolist(), self.rank_values[n].tolist(), strict=True))
            for n in (5, 6, 7)
        }

        bounds = np.cumsum(CATEGORY_SIZES)
        if int(bounds[-1]) != CLASSES:
            raise AssertionError("category sizes do not add up")
        for cat, top in enumerate(bounds.tolist()):
            if self.class_info[top][0] != cat:
                raise AssertionError("category boundaries are off")
        #: the strongest strength of each category, HIGH_CARD first.
        self.category_top: tuple[int, ...] = tuple(bounds.tolist())


TABLES: Final = Tables()
