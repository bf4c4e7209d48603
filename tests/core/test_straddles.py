"""Straddles are given, not guessed: posted as straddles, acting last preflop, faced in full."""

from __future__ import annotations

import pytest

from tapete.core import events as ev
from tapete.core.cards import Deck
from tapete.core.hand import Hand, HandError
from tapete.core.rules import Rules

STACKS = [200] * 5


def _posts(h: Hand) -> list[tuple[int, int, str]]:
    return [(e.player, e.amount, e.kind) for e in h.events if isinstance(e, ev.Posted)]


def test_a_re_straddle_is_a_second_straddle() -> None:
    # button 4: p0 small blind 1, p1 big blind 2, p2 straddles 4, p3 re-straddles 8
    h = Hand(Rules(), STACKS, button=4, deck=Deck(seed=3), blinds=[1, 2, 0, 0, 0],
             straddles=[0, 0, 4, 8, 0])
    assert _posts(h) == [(0, 1, ev.SMALL_BLIND), (1, 2, ev.BIG_BLIND), (2, 4, ev.STRADDLE),
                         (3, 8, ev.STRADDLE)]
    assert h.blinds == (1, 2, 4, 8, 0) and h.straddles == (0, 0, 4, 8, 0)
    assert h.acting_order() == [4, 0, 1, 2, 3] and h.acting_order(False) == [0, 1, 2, 3, 4]
    lg = h.legal()
    assert lg.player == 4 and lg.call == 8 and lg.min_to == 16  # twice the re-straddle
    for _ in range(4):
        h.call()
    lg = h.legal()  # the re-straddler acts last preflop: check or raise
    assert lg.player == 3 and lg.check and lg.min_to == 16


def test_blinds_above_the_big_blind_are_straddles_when_none_are_given() -> None:
    """With blinds 1, 2, 4, 8 the 4 is a straddle, not a big blind (it once was)."""
    h = Hand(Rules(), STACKS, button=4, deck=Deck(seed=3), blinds=[1, 2, 4, 8, 0])
    kinds = [k for _, _, k in _posts(h)]
    assert kinds == [ev.SMALL_BLIND, ev.BIG_BLIND, ev.STRADDLE, ev.STRADDLE]
    assert h.straddles == (0, 0, 4, 8, 0)
    explicit = Hand(Rules(), STACKS, button=4, deck=Deck(seed=3), blinds=[1, 2, 0, 0, 0],
                    straddles=[0, 0, 4, 8, 0])
    assert h.events == explicit.events


def test_a_straddle_of_the_big_blind_is_a_straddle() -> None:
    # given explicitly, a straddle the size of the big blind is one (amounts cannot say so)
    h = Hand(Rules(), [100] * 4, button=3, deck=Deck(seed=1), blinds=[1, 2, 0, 0],
             straddles=[0, 0, 2, 0])
    assert _posts(h)[-1] == (2, 2, ev.STRADDLE)
    assert h.legal().player == 3 and h.acting_order()[-1] == 2


def test_the_table_rule_straddles_after_the_big_blind() -> None:
    h = Hand(Rules(straddle=4), [100] * 4, button=0, deck=Deck(seed=1))
    assert _posts(h) == [(1, 1, ev.SMALL_BLIND), (2, 2, ev.BIG_BLIND), (3, 4, ev.STRADDLE)]
    assert h.legal().player == 0 and h.legal().min_to == 8
    # heads-up there is no straddle
    assert Hand(Rules(straddle=4), [100] * 2, button=0, deck=Deck(seed=1)).straddles == (0, 0)


def test_replay_keeps_the_straddles() -> None:
    h = Hand(Rules(), STACKS, button=4, deck=Deck(seed=3), blinds=[1, 2, 0, 0, 0],
             straddles=[0, 0, 4, 8, 0])
    h.raise_to(24)
    again = Hand.from_events(h.rules, h.starting_stacks, h.events, button=h.button,
                             blinds=h.blinds, straddles=h.straddles)
    assert again.actor == h.actor and again.level == 24 and again.bets == h.bets


def test_bad_straddles_are_refused() -> None:
    with pytest.raises(HandError):
        Hand(Rules(), STACKS, button=4, blinds=[1, 2, 0, 0, 0], straddles=[0, 0, 4])
    with pytest.raises(HandError) as info:  # a blind and a straddle of another amount
        Hand(Rules(), STACKS, button=4, blinds=[1, 2, 0, 0, 0], straddles=[0, 4, 0, 0, 0])
    assert "straddle" in info.value.message.en and "straddle" in info.value.message.es
