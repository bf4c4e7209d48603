"""Hand strength: one evaluator with two paths over the same tables.

* the scalar path here (:func:`evaluate`) is plain Python for the game engine's showdowns:
  about a quarter of a microsecond for seven cards, no compiler to warm up;
* the bulk path (:mod:`tapete.ranking.bulk`, numba: ``evaluate_many``, ``enumerate_seven``,
  ``random_hands``) ranks numpy arrays of hands and enumerates boards for equity, on the same
  tables and strength scale. It is a separate module so that the game never imports numba.

Cards are ints, ``card = rank * 4 + suit`` (see :mod:`tapete.core.cards`). A strength is an int
from 1 (7-5-4-3-2 offsuit) to 7462 (royal flush): higher is better and equal strengths are an
exact tie, suits never break ties.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from enum import IntEnum
from itertools import combinations
from typing import Final

from tapete.ranking.names import describe
from tapete.ranking.tables import CLASSES, FLUSH_BITS, RANK_SHIFT, SUIT_BIAS, TABLES

__all__ = [
    "CLASSES",
    "Category",
    "best_five",
    "category",
    "describe",
    "evaluate",
    "ranks_of",
]


class Category(IntEnum):
    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


_K: Final = TABLES.py_card_key
_FL: Final = TABLES.py_flush
_R5: Final = TABLES.py_rank[5]
_R6: Final = TABLES.py_rank[6]
_R7: Final = TABLES.py_rank[7]
_TOPS: Final = TABLES.category_top
_CATS: Final = tuple(Category)


def _flush(cards: Sequence[int], h: int) -> int:
    """Strength when five or more cards share a suit: look up that suit's rank mask."""
    suit = ((h & FLUSH_BITS) >> 3).bit_length() // 4  # the counter that reached 8
    mask = 0
    for c in cards:
        if c & 3 == suit:
            mask |= 1 << (c >> 2)
    return _FL[mask]


def evaluate(cards: Sequence[int]) -> int:
    """Strength (1..7462, higher is better) of the best five of 5, 6 or 7 distinct cards.

    Cards are not validated here (this runs at every showdown); pass distinct ints 0..51.
    """
    n = len(cards)
    if n == 7:
        a, b, c, d, e, f, g = cards
        h = SUIT_BIAS + _K[a] + _K[b] + _K[c] + _K[d] + _K[e] + _K[f] + _K[g]
        if h & FLUSH_BITS:
            return _flush(cards, h)
        return _R7[h >> RANK_SHIFT]
    if n == 6:
        a, b, c, d, e, f = cards
        h = SUIT_BIAS + _K[a] + _K[b] + _K[c] + _K[d] + _K[e] + _K[f]
        if h & FLUSH_BITS:
            return _flush(cards, h)
        return _R6[h >> RANK_SHIFT]
    if n == 5:
        a, b, c, d, e = cards
        h = SUIT_BIAS + _K[a] + _K[b] + _K[c] + _K[d] + _K[e]
        if h & FLUSH_BITS:
            return _flush(cards, h)
        return _R5[h >> RANK_SHIFT]
    raise ValueError(f"a hand has 5, 6 or 7 cards, not {n}")


def category(strength: int) -> Category:
    """The category of a strength (``Category.FLUSH`` ...)."""
    if not 1 <= strength <= CLASSES:
        raise ValueError(f"not a hand strength: {strength} (1..{CLASSES})")
    return _CATS[bisect_left(_TOPS, strength)]


def ranks_of(strength: int) -> tuple[int, ...]:
    """The ranks (0 = two .. 12 = ace) that define a strength, most important first.

    A straight or straight flush gives only its top rank (3 for the wheel); a full house gives
    the trips then the pair; a high card or flush gives all five ranks.
    """
    if not 1 <= strength <= CLASSES:
        raise ValueError(f"not a hand strength: {strength} (1..{CLASSES})")
    return TABLES.class_info[strength][1]


def best_five(cards: Sequence[int]) -> tuple[int, ...]:
    """The five cards that make the hand, in the order a player reads them.

    Groups first (the trips of a full house before its pair), then higher ranks, then the
    order they were given in; a wheel straight ends with its ace. Among equal fives (the board
    plays) the first in input order wins. For display only: it tries every five-card subset.
    """
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"a hand has 5, 6 or 7 cards, not {len(cards)}")
    best = max(combinations(cards, 5), key=evaluate)
    strength = evaluate(best)
    cat = category(strength)
    if cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        top = ranks_of(strength)[0]
        return tuple(
            sorted(best, key=lambda c: (c >> 2) if top > 3 or c >> 2 != 12 else -1, reverse=True)
        )
    counts = {r: sum(1 for c in best if c >> 2 == r) for r in {c >> 2 for c in best}}
    return tuple(sorted(best, key=lambda c: (counts[c >> 2], c >> 2), reverse=True))
