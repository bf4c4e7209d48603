"""The low hand of hi-lo games: A-5 lowball, eight or better.

A low is five cards of five different ranks, all eight or lower, the ace counting as the
lowest card. Straights and flushes do not count against it (A-2-3-4-5, the wheel, is the best
low); a pair does, because it leaves fewer than five ranks. Two lows compare by their highest
card, then the next, and so on: 7-5-4-3-2 beats 8-4-3-2-A, and 8-6-4-2-A beats 8-6-5-2-A.

Strengths use the evaluator's convention, higher is better and equal is a tie: 1 (8-7-6-5-4)
to 56 (the wheel), one per set of five low ranks, and ``NO_LOW`` (0) when no low qualifies.

Everything is a lookup on 8-bit masks of low ranks (bit 0 = ace .. bit 7 = eight). For five
ranks of one size, comparing their masks as integers compares the lows (the highest differing
rank decides), so the five lowest set bits of a mask are the best low it holds (``_BEST5``).
In Omaha, with exactly two hole cards and three board cards, each pair of distinct low hole
ranks is completed by the three lowest board ranks not in it (``_LOW3``): for a fixed pair
that is the lowest triple, so the best low is the best over the hand's pairs (``_PAIRS``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final

__all__ = [
    "LOWS",
    "NO_LOW",
    "describe_low",
    "evaluate_low",
    "evaluate_omaha_low",
    "low_mask",
    "low_ranks",
    "omaha_low_of_masks",
]

NO_LOW: Final = 0
LOWS: Final = 56  # C(8, 5): the strongest low, the wheel

#: card -> the bit of its low rank (ace = bit 0 .. eight = bit 7), 0 for a nine or higher.
#: Cards are ``rank * 4 + suit`` with rank 0 = two .. 12 = ace (:mod:`tapete.core.cards`).
LOW_BIT: Final = tuple(
    1 if c >> 2 == 12 else (1 << ((c >> 2) + 1) if c >> 2 <= 6 else 0) for c in range(52)
)


Table = tuple[int, ...]


def _build() -> tuple[Table, Table, Table, tuple[Table, ...]]:
    fives = sorted(sum(1 << b for b in bits) for bits in combinations(range(8), 5))
    five_strength = [0] * 256
    for i, m in enumerate(fives):  # ascending masks: the wheel (0b11111) first
        five_strength[m] = LOWS - i
    best5 = [0] * 256  # any mask -> strength of its five lowest ranks, 0 if fewer than five
    low3 = [0] * 256  # any mask -> its three lowest bits, 0 if fewer than three
    for mask in range(256):
        bits = [b for b in range(8) if mask >> b & 1]
        if len(bits) >= 5:
            best5[mask] = five_strength[sum(1 << b for b in bits[:5])]
        if len(bits) >= 3:
            low3[mask] = sum(1 << b for b in bits[:3])
    pairs = tuple(
        tuple((1 << a) | (1 << b) for a, b in combinations([b for b in range(8) if m >> b & 1], 2))
        for m in range(256)
    )
    return tuple(five_strength), tuple(best5), tuple(low3), pairs


_FIVE, _BEST5, _LOW3, _PAIRS = _build()


def evaluate_low(cards: Sequence[int]) -> int:
    """The best low (1..56, higher is better) of any five of ``cards`` (five to seven, as in
    hold'em: any five may play), or ``NO_LOW`` (0) when fewer than five distinct ranks are
    eight or lower. Cards are not validated."""
    mask = 0
    lb = LOW_BIT
    for c in cards:
        mask |= lb[c]
    return _BEST5[mask]


def evaluate_omaha_low(hole: Sequence[int], board: Sequence[int]) -> int:
    """The best low (1..56) of exactly two of ``hole`` (two to five cards) and three of
    ``board`` (three to five cards), or ``NO_LOW`` (0) when none qualifies."""
    if len(hole) < 2 or len(board) < 3:
        raise ValueError(f"an Omaha hand needs two hole cards or more and three board cards or "
                         f"more, not {len(hole)} and {len(board)}")
    lb = LOW_BIT
    h = 0
    for c in hole:
        h |= lb[c]
    b = 0
    for c in board:
        b |= lb[c]
    return omaha_low_of_masks(h, b)


def omaha_low_of_masks(hole_mask: int, board_mask: int) -> int:
    """:func:`evaluate_omaha_low` on the low-rank masks of the hole cards and the board."""
    best = 0
    low3, five = _LOW3, _FIVE
    for p in _PAIRS[hole_mask]:
        t = low3[board_mask & ~p]
        if t:
            s = five[p | t]
            if s > best:
                best = s
    return best


def low_mask(strength: int) -> int:
    """The 8-bit mask of the five low ranks of a strength (1..56)."""
    if not 1 <= strength <= LOWS:
        raise ValueError(f"not a low strength: {strength} (1..{LOWS})")
    return _FIVE.index(strength)


def low_ranks(strength: int) -> tuple[int, ...]:
    """The five ranks of a low, highest first, as the evaluator's ranks (12 = ace): the wheel
    is ``(3, 2, 1, 0, 12)``."""
    mask = low_mask(strength)
    return tuple(12 if b == 0 else b - 1 for b in range(7, -1, -1) if mask >> b & 1)


_LOW_DIGIT: Final = "A2345678"


def describe_low(strength: int, lang: str = "en") -> str:
    """The name of a low, as dealers read it, highest card first: ``"8-6-4-2-A low"`` or, with
    ``lang="es"``, ``"bajo 8-6-4-2-A"``; ``NO_LOW`` is ``"no low"`` / ``"sin bajo"``."""
    if strength == NO_LOW:
        return "sin bajo" if lang == "es" else "no low"
    mask = low_mask(strength)
    word = "-".join(_LOW_DIGIT[b] for b in range(7, -1, -1) if mask >> b & 1)
    if lang == "es":
        return f"bajo {word}" + (" (la rueda)" if strength == LOWS else "")
    return f"{word} low" + (" (the wheel)" if strength == LOWS else "")
