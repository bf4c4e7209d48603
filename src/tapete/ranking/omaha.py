"""Omaha hands: the best five cards of exactly two hole cards and three board cards.

A hand of four hole cards has 6 pairs, a board of five cards 10 triples: 60 five-card hands to
rank (100 with five hole cards, 10 pairs). Each is ranked on the evaluator's five-card tables
(the same strength scale as :func:`tapete.ranking.evaluate`: 1 to 7462, higher is
better), in two parts: the ranks of every pair and triple are summed as rank keys (one lookup
per five cards), and a flush is looked up only for a suited pair and a triple of its suit.

The board's part (its triples) is the same for every player on it, so equity works on
:func:`board_part` and :func:`hole_part` once each and ranks with :func:`best_of_parts`;
:func:`evaluate_omaha` does all three for one hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final

from tapete.ranking.tables import RANK_SHIFT, TABLES

__all__ = ["BoardPart", "HolePart", "best_of_parts", "board_part", "evaluate_omaha", "hole_part"]

_R5: Final = TABLES.py_rank[5]  # five cards' rank key -> strength (no flush)
_FL: Final = TABLES.py_flush  # a suit's 13-bit rank mask -> strength of the flush
_RANK_KEY: Final = tuple(k >> RANK_SHIFT for k in TABLES.py_card_key)  # card -> its rank key
_RANK_BIT: Final = tuple(1 << (c >> 2) for c in range(52))  # card -> its rank's bit

#: a board's triples: their rank keys, and per suit the rank masks of the triples of that suit
BoardPart = tuple[list[int], dict[int, list[int]]]
#: a hand's pairs: their rank keys, and (suit, rank mask) of each suited pair
HolePart = tuple[list[int], list[tuple[int, int]]]


def board_part(board: Sequence[int]) -> BoardPart:
    """What every hand on ``board`` (three to five cards) shares: its triples."""
    keys: list[int] = []
    flushes: dict[int, list[int]] = {}
    rk, bit = _RANK_KEY, _RANK_BIT
    for a, b, c in combinations(board, 3):
        keys.append(rk[a] + rk[b] + rk[c])
        suit = a & 3
        if b & 3 == suit and c & 3 == suit:
            flushes.setdefault(suit, []).append(bit[a] | bit[b] | bit[c])
    return keys, flushes


def hole_part(hole: Sequence[int]) -> HolePart:
    """What one hand brings: its pairs of hole cards."""
    keys: list[int] = []
    suited: list[tuple[int, int]] = []
    rk, bit = _RANK_KEY, _RANK_BIT
    for a, b in combinations(hole, 2):
        keys.append(rk[a] + rk[b])
        if a & 3 == b & 3:
            suited.append((a & 3, bit[a] | bit[b]))
    return keys, suited


def best_of_parts(hole: HolePart, board: BoardPart) -> int:
    """The strength of the best pair-and-triple of a hand's and a board's parts."""
    r5 = _R5
    triples, flushes = board
    pairs, suited = hole
    best = 0
    for pk in pairs:
        s = max([r5[pk + tk] for tk in triples])
        if s > best:
            best = s
    if flushes:
        fl = _FL
        for suit, mask in suited:
            masks = flushes.get(suit)
            if masks:
                # five distinct ranks of one suit: the flush (or straight flush) outranks any
                # reading of the same cards without it
                s = max([fl[mask | m] for m in masks])
                if s > best:
                    best = s
    return best


def evaluate_omaha(hole: Sequence[int], board: Sequence[int]) -> int:
    """Strength (1..7462, higher is better) of the best five cards made of exactly two of
    ``hole`` (two or more cards: four in Omaha, five in five-card Omaha) and three of
    ``board`` (three to five cards).

    Cards are not validated (distinct ints 0..51), only counted."""
    if len(hole) < 2 or len(board) < 3:
        raise ValueError(f"an Omaha hand needs two hole cards or more and three board cards or "
                         f"more, not {len(hole)} and {len(board)}")
    return best_of_parts(hole_part(hole), board_part(board))
