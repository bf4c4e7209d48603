"""The betting rules as pure functions (tapete.core.betting), each with the vectors of
docs/rules.md that it decides."""

from __future__ import annotations

from tapete.core import betting as bt
from tapete.core.rules import Rules


def test_min_raise_no_limit_tda_45() -> None:
    # NL-1: 100/200 after the flop: 600, raised to 1600 (+1000), to 3600 (+2000): to 5600
    assert bt.min_raise_to(3600, 2000, 3600, 200, False) == 5600
    # NL-3: 300, raised to 1000 (+700): to 1700
    assert bt.min_raise_to(1000, 700, 1000, 200, False) == 1700
    # NL-4A: 25/50, to 125 (+75), 200 (+75), 500 (+300): to 800
    assert bt.min_raise_to(500, 300, 500, 50, False) == 800
    # NL-4B: to 500 (+450), two calls: to 950
    assert bt.min_raise_to(500, 450, 500, 50, False) == 950
    # a street opens at the big blind
    assert bt.min_raise_to(0, 200, 0, 200, False) == 200


def test_min_raise_pot_limit_last_bet() -> None:
    # PL-1: 1/2, first to act: to 4; PL-2: after a raise to 7 (the largest bet): to 14
    assert bt.min_raise_to(2, 2, 2, 2, True) == 4
    assert bt.min_raise_to(7, 5, 7, 2, True) == 14
    assert bt.raise_step(7, 5, 7, 2, True) == 7 and bt.raise_step(7, 5, 7, 2, False) == 5
    assert bt.raise_step(0, 2, 0, 2, True) == 2  # nothing bet: the big blind


def test_pot_limit_max() -> None:
    # PL-1: pot 3 and a call of 2: to 2 + 5 = 7; PL-2: pot 10, a call of 7: to 7 + 17 = 24
    assert bt.pot_limit_max(2, 5) == 7
    assert bt.pot_limit_max(7, 17) == 24
    # PL-3: 50/100 in cents: to 350
    assert bt.pot_limit_max(100, 250) == 350


def test_fixed_raise_to() -> None:
    assert bt.fixed_raise_to(100, 100, 100) == 200  # FL-1
    assert bt.fixed_raise_to(0, 0, 200) == 200  # FL-2: the turn's bet
    assert bt.fixed_raise_to(160, 160, 100) == 260  # FL-5: over the all-in that acts as a raise
    assert bt.fixed_raise_to(140, 100, 100) == 200  # FL-6: completed to a full bet


def test_full_raise_and_reopening_no_limit() -> None:
    # AI-1: 50/100, A bets 100, B all-in to 150: not a full raise; A acted at 100 and may raise
    # again only once the total reaches 100 + 100
    assert not bt.is_full_raise(150, 100, 100, 100, 100, 100, 0, False, False)
    assert bt.reopen_step(100, 100, 100, 100, 0, False, False) == 100
    # AI-2: C all-in to 200 over B's 150: short too, but A now faces 200 = the reopening total
    assert not bt.is_full_raise(200, 150, 100, 100, 100, 100, 0, False, False)
    assert bt.min_raise_to(200, 100, 100, 100, False) == 300
    # NL-2: under the gun all-in for 150 at 50/100: short; the smallest raise stays to 250
    assert not bt.is_full_raise(150, 100, 100, 100, 100, 100, 0, False, False)
    assert bt.min_raise_to(150, 100, 100, 100, False) == 250
    assert bt.is_full_raise(200, 100, 100, 100, 100, 100, 0, False, False)


def test_full_raise_pot_limit_last_bet() -> None:
    # after a bet of 7, a raise must add 7 (the largest bet), not the increment
    assert not bt.is_full_raise(13, 7, 7, 5, 7, 2, 0, False, True)
    assert bt.is_full_raise(14, 7, 7, 5, 7, 2, 0, False, True)
    assert bt.reopen_step(7, 5, 7, 2, 0, False, True) == 7


def test_full_raise_fixed_limit_half_bet() -> None:
    # FL-5: a bet of 100; all-ins to 130, then 160: 60 over the last full bet is half a bet
    assert not bt.is_full_raise(130, 100, 100, 100, 100, 50, 100, True, False)
    assert bt.is_full_raise(160, 130, 100, 100, 100, 50, 100, True, False)
    # FL-6: to 140 is 40 over: not a raise
    assert not bt.is_full_raise(140, 100, 100, 100, 100, 50, 100, True, False)
    # the reopening measure is half a bet, rounded up
    assert bt.reopen_step(100, 100, 100, 50, 100, True, False) == 50
    assert bt.reopen_step(100, 100, 100, 50, 25, True, False) == 13


def test_reaches_cap() -> None:
    # FL-4: four bets with four players able to bet: capped for the street
    assert bt.reaches_cap(4, 4, 4)
    # heads-up before the cap: never capped; three bets: not yet; no cap at all
    assert not bt.reaches_cap(4, 4, 2)
    assert not bt.reaches_cap(3, 4, 3)
    assert not bt.reaches_cap(9, None, 6)
    rules = Rules(structure="fixed-limit", cap_heads_up=False)
    assert rules.cap(2, False) is None and rules.cap(2, True) == 4


def test_preflop_opening() -> None:
    assert bt.preflop_opening((1, 2, 0), (0, 0, 0), 2) == (2, 2, 1)
    # a short big blind still makes the others face the full blind (the blind, not what it paid)
    assert bt.preflop_opening((50, 100, 0), (0, 0, 0), 100) == (100, 100, 1)
    # blinds 1/2, a straddle of 4 and a re-straddle of 8: face 8, raise by 8, three bets
    assert bt.preflop_opening((1, 2, 0, 0, 0), (0, 0, 4, 8, 0), 2) == (8, 8, 3)


def test_acting_order() -> None:
    # five players, button 4: p0 small blind, p1 big blind, p2 straddles 4, p3 re-straddles 8
    blinds, straddles = (1, 2, 0, 0, 0), (0, 0, 4, 8, 0)
    assert bt.acting_order(5, 4, blinds, straddles, True) == [4, 0, 1, 2, 3]
    assert bt.acting_order(5, 4, blinds, (0,) * 5, True) == [2, 3, 4, 0, 1]
    assert bt.acting_order(5, 4, blinds, straddles, False) == [0, 1, 2, 3, 4]
    # heads-up: the button (small blind) first preflop, the big blind first after the flop
    assert bt.first_to_act(2, 0, (1, 2), (0, 0), True) == 0
    assert bt.first_to_act(2, 0, (1, 2), (0, 0), False) == 1
    # blinds 1/1 with three players: the second 1 is the big blind
    assert bt.first_to_act(3, 0, (0, 1, 1), (0, 0, 0), True, small_equals_big=True) == 0
    assert bt.big_blind_player((0, 1, 1), 0, True) == 2
    # no blinds at all: from the first after the button
    assert bt.first_to_act(3, 0, (0, 0, 0), (0, 0, 0), True) == 1
