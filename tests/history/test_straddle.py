"""Straddles are recorded as straddles: a re-straddle (blinds 1/2, straddles 4 and 8) played,
written to PHH and to PokerStars text, read back and replayed, posts the 4 and the 8 as
straddles (events of kind ``straddle``), never the 4 as a big blind, with the same result."""

from __future__ import annotations

import pytest
from replayed import play

from tapete.core import events as ev
from tapete.core.cards import parse_cards
from tapete.core.hand import Hand
from tapete.core.rules import Rules
from tapete.history import phh
from tapete.history import pokerstars as ps
from tapete.history.formats import read_any
from tapete.history.record import HandRecord

RULES = Rules(small_blind=1, big_blind=2)
NAMES = ["Sol", "Bea", "Ugo", "Ana"]  # small blind, big blind, straddle, re-straddle (button)


def re_straddle() -> Hand:
    """Four players, button 3: Sol 1, Bea 2, Ugo straddles 4, Ana re-straddles 8; Sol calls,
    Bea folds, Ugo raises to 24, Ana and Sol call; the board is checked down."""
    hand = Hand(RULES, [200, 200, 200, 200], button=3, blinds=[1, 2, 0, 0],
                straddles=[0, 0, 4, 8], names=NAMES)
    for p, cards in enumerate(["AhKd", "7c2d", "QsQh", "JcTc"]):
        hand.deal_hole(p, parse_cards(cards))
    assert hand.actor == 0  # after the re-straddle, who acts last preflop
    hand.call(0)
    hand.fold(1)
    hand.raise_to(24, 2)
    hand.call(3)
    hand.call(0)
    for board in ("2c7h9s", "3d", "4s"):
        hand.deal_board(parse_cards(board))
        for _ in range(3):
            hand.check(hand.actor)
    hand.settle()
    assert hand.done
    return hand


def posts(hand: Hand) -> list[tuple[str, str, int]]:
    """(name, kind, amount) of every blind and straddle posted, in order."""
    return [(hand.names[e.player], e.kind, e.amount) for e in hand.events
            if isinstance(e, ev.Posted) and e.kind != ev.ANTE]


WANT = [("Sol", ev.SMALL_BLIND, 1), ("Bea", ev.BIG_BLIND, 2), ("Ugo", ev.STRADDLE, 4),
        ("Ana", ev.STRADDLE, 8)]


def by_name(hand: Hand, values: tuple[int, ...] | list[int]) -> dict[str, int]:
    return dict(zip(hand.names, values, strict=True))


def test_the_engine_posts_a_re_straddle() -> None:
    hand = re_straddle()
    assert posts(hand) == WANT
    assert hand.straddles == (0, 0, 4, 8)
    assert hand.stacks == [176, 198, 250, 176]  # Ugo's queens win 24 from each and the 2


def test_phh_writes_and_reads_the_straddles() -> None:
    hand = re_straddle()
    text = phh.dumps(hand)
    assert "blinds_or_straddles = [1, 2, 4, 8]" in text  # PHH order: p1 the small blind
    record = phh.loads(text)
    assert record.straddles == [0, 0, 4, 8]
    back = play(record)
    assert posts(back) == WANT
    assert back.events == hand.events and back.stacks == hand.stacks


def test_pokerstars_writes_and_reads_the_straddles() -> None:
    hand = re_straddle()
    text = ps.write_hand(hand)
    assert "Ugo: posts straddle 4\n" in text and "Ana: posts straddle 8\n" in text
    assert "Ugo: posts big blind" not in text
    (record,) = list(ps.read_text(text, "straddle.txt"))
    assert isinstance(record, HandRecord)
    assert by_name(hand, record.straddles or []) == {"Sol": 0, "Bea": 0, "Ugo": 4, "Ana": 8}
    back = play(record)
    assert posts(back) == WANT
    assert by_name(back, back.stacks) == by_name(hand, hand.stacks)
    assert ps.reconcile(record, back) == []
    assert ps.write_hand(back) == text  # and writes the same text again


@pytest.mark.parametrize("fmt", ["phh", "pokerstars"])
def test_read_any_and_replay_keep_them(fmt: str) -> None:
    hand = re_straddle()
    text = phh.dumps(hand) if fmt == "phh" else ps.write_hand(hand)
    (item,) = read_any(text, name=f"straddle.{'phh' if fmt == 'phh' else 'txt'}")
    assert item.record is not None and item.format == fmt
    back = play(item.record)
    assert posts(back) == WANT
    assert by_name(back, back.stacks) == by_name(hand, hand.stacks)
