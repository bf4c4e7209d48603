"""The scalar evaluator: strengths, categories, names and the best five cards."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from tapete.core.cards import format_cards, parse_cards
from tapete.ranking import (
    CLASSES,
    Category,
    best_five,
    category,
    describe,
    evaluate,
    ranks_of,
)
from tapete.ranking.tables import TABLES


def ev(text: str) -> int:
    return evaluate(parse_cards(text))


def test_five_card_classes_are_7462() -> None:
    seen = {ev(f"{a}{b}") for a, b in [("AhKhQhJh", "Th")]}
    assert seen == {CLASSES}
    assert len(TABLES.class_info) - 1 == 7462
    assert len(set(TABLES.class_info[1:])) == 7462
    # the rank and flush tables of five cards hold every class exactly once
    five = set(TABLES.rank_values[5].tolist())
    flush = {int(v) for m, v in enumerate(TABLES.flush_table.tolist()) if m.bit_count() == 5}
    assert len(five) == 6175 and len(flush) == 1287 and len(five | flush) == 7462


def test_seven_card_rank_classes_are_4824() -> None:
    """Strengths that seven cards can reach: those of rank patterns plus those of flushes."""
    plain = set(TABLES.rank_values[7].tolist())
    flush = {int(v) for m, v in enumerate(TABLES.flush_table.tolist()) if 5 <= m.bit_count() <= 7}
    assert len(plain | flush) == 4824


@pytest.mark.parametrize(
    ("cards", "cat", "en", "es"),
    [
        ("AhKdQc9s7d3c2h", Category.HIGH_CARD, "high card, ace", "carta alta, as"),
        ("9h9dAc4s7d", Category.ONE_PAIR, "pair of nines", "pareja de nueves"),
        ("AhAdKcKs2d3c9h", Category.TWO_PAIR, "two pair, aces and kings",
         "doble pareja, ases y reyes"),
        ("7h7d7cAs2d", Category.THREE_OF_A_KIND, "three of a kind, sevens", "trío de sietes"),
        ("2c3d4h5s6d", Category.STRAIGHT, "straight, six high", "escalera al seis"),
        ("Ah2c3d4h5sKd", Category.STRAIGHT, "straight, five high", "escalera al cinco"),
        ("AhKhQh2h3h", Category.FLUSH, "flush, ace high", "color al as"),
        ("Qh9h7h5h3hAs", Category.FLUSH, "flush, queen high", "color a la reina"),
        ("KhKdKcTsTd3c9h", Category.FULL_HOUSE, "full house, kings full of tens",
         "full, reyes llenos de dieces"),
        ("QhQdQcAsAh", Category.FULL_HOUSE, "full house, queens full of aces",
         "full, reinas llenas de ases"),
        ("AhAdAcAs2d", Category.FOUR_OF_A_KIND, "four of a kind, aces", "póker de ases"),
        ("KhQhJhTh9h", Category.STRAIGHT_FLUSH, "straight flush, king high",
         "escalera de color al rey"),
        ("AhKhQhJhTh2c", Category.STRAIGHT_FLUSH, "royal flush", "escalera real"),
    ],
)  # fmt: skip
def test_categories_and_names(cards: str, cat: Category, en: str, es: str) -> None:
    s = ev(cards)
    assert category(s) is cat
    assert describe(s) == en
    assert describe(s, "es") == es


def test_extremes_and_boundaries() -> None:
    assert ev("7h5d4c3s2d") == 1
    assert ev("AhKhQhJhTh") == 7462
    assert ev("5h4h3h2hAh") == 7453  # steel wheel, the lowest straight flush
    assert ev("5h4d3c2sAh") < ev("6h5d4c3s2h")  # the wheel is the lowest straight
    assert category(1) is Category.HIGH_CARD and category(7462) is Category.STRAIGHT_FLUSH
    with pytest.raises(ValueError):
        category(0)
    with pytest.raises(ValueError):
        evaluate((1, 2, 3, 4))


def test_suits_never_break_ties() -> None:
    assert ev("AhKdQc9s7d") == ev("AsKcQd9h7c")
    assert ev("AhAd2c3s4h5d7c") == ev("AsAc2d3h4s5c7d")


def test_best_five_orders_for_reading() -> None:
    assert format_cards(best_five(parse_cards("Th2dKhKdKcTs9h")), " ") == "Kh Kd Kc Th Ts"
    assert format_cards(best_five(parse_cards("Ah2c3d4h5sKdKc")), " ") == "5s 4h 3d 2c Ah"
    hand = parse_cards("AhKhQh2h3h9c9d")
    assert evaluate(best_five(hand)) == evaluate(hand)


def naive(cards: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """An independent slow evaluator: (category, tie-break ranks) of the best five."""
    best: tuple[int, tuple[int, ...]] = (-1, ())
    for five in combinations(cards, 5):
        ranks = sorted((c >> 2 for c in five), reverse=True)
        flush = len({c & 3 for c in five}) == 1
        distinct = sorted(set(ranks), reverse=True)
        straight = -1
        if len(distinct) == 5:
            if distinct[0] - distinct[4] == 4:
                straight = distinct[0]
            elif distinct == [12, 3, 2, 1, 0]:
                straight = 3
        groups = sorted(((ranks.count(r), r) for r in distinct), reverse=True)
        shape = [g[0] for g in groups]
        order = tuple(g[1] for g in groups)
        if straight >= 0 and flush:
            key = (8, (straight,))
        elif shape == [4, 1]:
            key = (7, order)
        elif shape == [3, 2]:
            key = (6, order)
        elif flush:
            key = (5, order)
        elif straight >= 0:
            key = (4, (straight,))
        elif shape == [3, 1, 1]:
            key = (3, order)
        elif shape == [2, 2, 1]:
            key = (2, order)
        elif shape == [2, 1, 1, 1]:
            key = (1, order)
        else:
            key = (0, order)
        best = max(best, key)
    return best


def test_matches_an_independent_slow_evaluator() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        n = rng.choice((5, 6, 7))
        hand = tuple(rng.sample(range(52), n))
        s = evaluate(hand)
        cat, ranks = naive(hand)
        assert category(s) == cat
        assert TABLES.class_info[s] == (cat, ranks)
        assert ranks_of(s) == ranks
