"""The A-5 eight-or-better low of hi-lo games: any five cards, and Omaha's two plus three.

Checked against a brute force written here that knows nothing of the tables: every choice of
five cards (every pair of hole cards with every triple of the board in Omaha), kept when its
five ranks are distinct and all eight or lower (ace low), compared as rank tuples sorted
highest first, the smaller tuple being the better low. Then against hands worked out by hand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

import pytest

from tapete.core.cards import parse_cards
from tapete.ranking.low import (
    LOWS,
    NO_LOW,
    describe_low,
    evaluate_low,
    evaluate_omaha_low,
    low_ranks,
)

Low = tuple[int, ...] | None


def _low_of_five(five: Sequence[int]) -> Low:
    """The five ranks highest first (ace = 1 .. eight = 8), or None if they are no low."""
    ranks = sorted({1 if c >> 2 == 12 else (c >> 2) + 2 for c in five}, reverse=True)
    if len(ranks) < 5 or ranks[0] > 8:
        return None
    return tuple(ranks)


def _better(a: Low, b: Low) -> Low:
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b)


def brute_low(cards: Sequence[int]) -> Low:
    best: Low = None
    for five in combinations(cards, 5):
        best = _better(best, _low_of_five(five))
    return best


def brute_omaha_low(hole: Sequence[int], board: Sequence[int]) -> Low:
    best: Low = None
    for two in combinations(hole, 2):
        for three in combinations(board, 3):
            best = _better(best, _low_of_five(two + three))
    return best


#: every low, best first: the order the strengths must follow (56 down to 1)
ALL_LOWS = sorted(tuple(sorted(r, reverse=True)) for r in combinations(range(1, 9), 5))


def _strength(low: Low) -> int:
    return NO_LOW if low is None else LOWS - ALL_LOWS.index(low)


def test_the_scale_runs_from_eight_seven_to_the_wheel() -> None:
    assert len(ALL_LOWS) == LOWS == 56
    assert evaluate_low(parse_cards("As2d3h4c5s")) == 56
    assert evaluate_low(parse_cards("8s7d6h5c4s")) == 1
    assert evaluate_low(parse_cards("6s4d3h2cAs")) == 55  # the second best low
    # every set of five low ranks has its own strength, in the order of the brute force
    for i, low in enumerate(ALL_LOWS):
        cards = [12 * 4 if r == 1 else (r - 2) * 4 + i % 4 for r in low]
        assert evaluate_low(cards) == LOWS - i
        assert low_ranks(LOWS - i) == tuple(12 if r == 1 else r - 2 for r in low)


@pytest.mark.parametrize("n", [5, 6, 7])
def test_any_five_matches_brute_force(n: int) -> None:
    rng = random.Random(800 + n)
    low_cards = [c for c in range(52) if c >> 2 <= 6 or c >> 2 == 12]
    for k in range(3000):
        deck = low_cards if k % 2 else range(52)  # half the deals from the 32 low cards only
        cards = rng.sample(deck, n)
        assert evaluate_low(cards) == _strength(brute_low(cards)), cards


@pytest.mark.parametrize("hole_size", [2, 3, 4, 5])
def test_omaha_low_matches_brute_force(hole_size: int) -> None:
    rng = random.Random(900 + hole_size)
    low_cards = [c for c in range(52) if c >> 2 <= 6 or c >> 2 == 12]
    for k in range(3000):
        deck = low_cards if k % 3 else range(52)
        cards = rng.sample(deck, hole_size + 5)
        hole, board = cards[:hole_size], cards[hole_size:hole_size + 3 + k % 3]
        assert evaluate_omaha_low(hole, board) == _strength(brute_omaha_low(hole, board)), (
            hole, board)


def _low(hole: str, board: str) -> str:
    return describe_low(evaluate_omaha_low(parse_cards(hole), parse_cards(board)))


@pytest.mark.parametrize("hole, board, expected", [
    # the wheel: a straight, and the best low all the same
    ("As2dKhKc", "3c4d5hQsJs", "5-4-3-2-A low (the wheel)"),
    # a straight flush of low cards is still the wheel for low
    ("As2sKhKc", "3s4s5sQdJd", "5-4-3-2-A low (the wheel)"),
    # a board with only two low cards: no low, whatever the hand holds
    ("As2d3h4c", "5c6dKhQsJs", "no low"),
    # a board of nines and up: no low
    ("As2d3h4c", "9cTdKhQsJs", "no low"),
    # three low cards on the board but a pair among them: only two low ranks to use
    ("As2d3h4c", "7c7d8hKsJs", "no low"),
    # the pair on the board is skipped when three other low ranks are there
    ("As2dKhKc", "7c7d8h6sJs", "8-7-6-2-A low"),
    # counterfeited: A-2 in the hand, and an ace and a deuce on the board; the low must use
    # two hole cards, so the board's A and 2 are no help and the best low is 6-5-4-2-A from
    # A-2 with 4-5-6, not the wheel's A-2-3-4-5 with only one board ace...
    ("As2dKhKc", "Ac2h4s5d6c", "6-5-4-2-A low"),
    # ...while a third low card in the hand escapes the counterfeit
    ("As2d3hKc", "Ac2h4s5d6c", "5-4-3-2-A low (the wheel)"),
    # a pair in the hand is one low rank: A-A-K-K with a low board has no low
    ("AsAdKhKc", "2c3d4h9sTs", "no low"),
    ("AsAd2hKc", "3c4d5h9sTs", "5-4-3-2-A low (the wheel)"),
    # exactly two hole cards: three low cards in the hand do not play with two of the board
    ("As2d3hKc", "4c5dQhJsTs", "no low"),
    # the best pair of hole cards, not the lowest ones: A-7 (7-4-3-2-A) beats A-8 (8-4-3-2-A)
    ("Ad8c7hKc", "2c3d4hQsJs", "7-4-3-2-A low"),
    # five hole cards (Big O): the pair is still two of them
    ("As2d8h7c6c", "3c4d5hQsJs", "5-4-3-2-A low (the wheel)"),
])  # fmt: skip
def test_hand_worked_lows(hole: str, board: str, expected: str) -> None:
    assert _low(hole, board) == expected
    # and the brute force agrees
    h, b = parse_cards(hole), parse_cards(board)
    assert evaluate_omaha_low(h, b) == _strength(brute_omaha_low(h, b))


def test_seven_cards_use_any_five() -> None:
    # hold'em-style: the board alone may play
    assert evaluate_low(parse_cards("KsKd As2d3h4c5s")) == 56
    assert evaluate_low(parse_cards("KsKd As2d3h4c9s")) == NO_LOW
    assert evaluate_low(parse_cards("AsAd 2s2d3h3c4s")) == NO_LOW  # only four low ranks
    assert evaluate_low(parse_cards("8s7d 6h5c4sAs2d")) == evaluate_low(parse_cards("As2d4s5c6h"))


def test_lows_compare_highest_card_first() -> None:
    def s(text: str) -> int:
        return evaluate_low(parse_cards(text))

    assert s("7s5d4h3c2s") > s("8s4d3h2cAs")  # a seven low beats any eight low
    assert s("8s6d4h2cAs") > s("8s6d5h2cAs")  # then the next card down
    assert s("6s5d4h3cAs") > s("6s5d4h3c2s")  # the ace is the lowest card
    assert s("As2d3h4c5s") == s("Ad2s3c4h5d")  # suits never matter: a tie


def test_names_in_both_languages() -> None:
    s = evaluate_low(parse_cards("8s6d4h2cAs"))
    assert describe_low(s) == "8-6-4-2-A low"
    assert describe_low(s, "es") == "bajo 8-6-4-2-A"
    assert describe_low(LOWS, "es") == "bajo 5-4-3-2-A (la rueda)"
    assert describe_low(NO_LOW) == "no low"
    assert describe_low(NO_LOW, "es") == "sin bajo"
    with pytest.raises(ValueError):
        describe_low(57)


def test_short_hands_are_refused() -> None:
    with pytest.raises(ValueError):
        evaluate_omaha_low(parse_cards("As"), parse_cards("2c3d4h"))
    with pytest.raises(ValueError):
        evaluate_omaha_low(parse_cards("As2d"), parse_cards("3c4d"))
