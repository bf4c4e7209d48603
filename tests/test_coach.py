"""The practice table's coach reads the opponents' ranges from your seat only."""

from __future__ import annotations

import pytest

from tapete.cards import parse_cards
from tapete.hand import Hand
from tapete.rules import Rules
from tapete.server import coach

pytest.importorskip("tapete.bots")


def three_bet_hand(villain_cards: str) -> Hand:
    """Six players, p6 on the button; you are p2, the big blind, with 7-2 offsuit; p4 raises,
    p5 re-raises, the others fold to you."""
    hand = Hand(Rules(small_blind=1, big_blind=2), [200] * 6, button=5)
    others = iter(["KsKd", "QsJs", "9h9c", "AdKc", villain_cards])
    for p in range(6):
        hand.deal_hole(p, parse_cards("7c2d") if p == 1 else parse_cards(next(others)))
    hand.fold()  # p3
    hand.raise_to(6)  # p4
    hand.raise_to(20)  # p5
    hand.fold()  # p6
    hand.fold()  # p1, the small blind
    return hand


def test_ranges_come_from_actions_not_cards() -> None:
    reader = coach.Reader(1)
    a = three_bet_hand("AsAh")
    b = three_bet_hand("3s2s")
    seat = a.actor
    assert seat is not None and a.actor == b.actor
    ra = reader.ranges(reader.view(a, seat))
    rb = reader.ranges(reader.view(b, seat))
    assert [n for n, _, _ in ra] == [n for n, _, _ in rb] and len(ra) == 2
    for (_, wa, ta), (_, wb, tb) in zip(ra, rb, strict=True):
        assert (wa == wb).all() and ta == tb  # the opponents' cards change nothing
    # the re-raiser's range is narrower than the raiser's, both far from any two cards
    raiser, reraiser = (float(w.sum()) for _, w, _ in ra)
    assert reraiser < raiser < 0.5 * len(ra[0][1])


def test_advice_against_ranges_is_lower_for_junk_facing_a_three_bet() -> None:
    reader = coach.Reader(1)
    hand = three_bet_hand("AsAh")
    seat = hand.actor
    assert seat is not None
    ranges = reader.ranges(reader.view(hand, seat))
    view = hand.view(seat)
    read = coach.advice(view, 4000, seed=1, ranges=ranges)
    blind = coach.advice(view, 4000, seed=1)
    assert read["against"]["en"] == "against their likely ranges"
    assert blind["against"]["en"] == "against random hands"
    assert [r["name"] for r in read["ranges"]] == [n for n, _, _ in ranges]
    assert read["equity"] < blind["equity"]  # strong ranges: the hand is worth less
    assert "against their likely ranges" in read["verdict"]["en"]
    assert "contra sus rangos probables" in read["verdict"]["es"]
