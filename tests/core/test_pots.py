"""Pots as pure functions (tapete.core.pots), with the vectors of docs/rules.md §4 and §5."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tapete.core.pots import Pot, build_pots, dead_money, split, take_rake, uncalled
from tapete.core.rules import Rules


def test_pot_1_side_pots_and_the_uncalled_chips() -> None:
    # totals A 100 (all-in), B 300 (all-in), C 500: 200 of C's is uncalled
    assert uncalled([100, 300, 500]) == (2, 200)
    pots = build_pots([100, 300, 300], [False] * 3, [True, True, False])
    assert pots == [Pot(300, (0, 1, 2)), Pot(400, (1, 2))]


def test_pot_4_a_folded_player_leaves_the_chips() -> None:
    # A 100 (all-in), B 300 (folded), C 500 -> 300 after the return: C alone in the side pot
    assert uncalled([100, 300, 500]) == (2, 200)
    pots = build_pots([100, 300, 300], [False, True, False], [True, False, False])
    assert pots == [Pot(300, (0, 2)), Pot(400, (2,))]


def test_pot_5_pot_limit_in_cents() -> None:
    # 1000 in from each of four (one folded); then Bob 3500 all-in, Andy 8450 all-in, Chuck calls
    totals = [4500, 9450, 9450, 1000]  # Bob, Chuck, Andy, the folded player
    pots = build_pots(totals, [False, False, False, True], [True, False, True, False])
    assert pots == [Pot(14500, (0, 1, 2)), Pot(9900, (1, 2))]


def test_one_level_is_one_pot() -> None:
    assert build_pots([2, 2, 1], [False, False, True], [False] * 3) == [Pot(5, (0, 1))]
    assert build_pots([0, 0], [False, False], [False, False]) == []
    assert uncalled([5, 5, 0]) == (-1, 0)
    assert uncalled([]) == (-1, 0)


def test_pot_6_the_odd_chip_goes_left_of_the_button() -> None:
    # a pot of 301 split by seats 2 and 4, the button at seat 0: seat 2 first
    assert split(301, [2, 4], 1, 6) == {2: 151, 4: 150}
    assert split(301, [4, 2], 3, 6) == {4: 151, 2: 150}  # counting from seat 3: 4 first
    assert split(10, [0, 1, 2], 0, 3) == {0: 4, 1: 3, 2: 3}


def test_odd_chips_go_first_to_the_winners_who_had_none() -> None:
    """docs/rules.md section 4 (HL-6 to HL-8): a high-low split's low half gives its odd chips
    first to the tied winners who took none of the high half's, then to the others."""
    assert split(33, [0, 1], 0, 2, had_odd=[0]) == {0: 16, 1: 17}
    assert split(35, [0, 1, 2], 0, 3, had_odd=[0]) == {0: 11, 1: 12, 2: 12}
    assert split(35, [0, 1, 2], 0, 3, had_odd=[1]) == {0: 12, 1: 11, 2: 12}
    # everyone had one: the seat order again
    assert split(35, [0, 1, 2], 0, 3, had_odd=[0, 1, 2]) == {0: 12, 1: 12, 2: 11}
    # players tied for both halves share the pot as one split would: 70 as 35 high, 35 low
    for amount in range(2, 80):
        for k in (2, 3, 4):
            winners = list(range(k))
            high = split(amount - amount // 2, winners, 1, k)
            even = (amount - amount // 2) // k
            low = split(amount // 2, winners, 1, k, [p for p, x in high.items() if x > even])
            assert {p: high[p] + low[p] for p in winners} == split(amount, winners, 1, k)


def test_rake_by_percentage_capped_and_no_flop_no_drop() -> None:
    pots = [Pot(1000, (0, 1, 2)), Pot(400, (1, 2))]
    rules = Rules(rake_bps=500, rake_cap=60)
    assert take_rake(pots, rules, saw_flop=True) == [Pot(950, (0, 1, 2), 50),
                                                     Pot(390, (1, 2), 10)]
    assert take_rake(pots, rules, saw_flop=False) == pots
    assert take_rake(pots, Rules(), saw_flop=True) == pots


def test_stated_rake_is_taken_as_stated() -> None:
    pots = [Pot(10, (0, 1)), Pot(40, (1,))]
    # more than the first pot holds: the rest comes from the next
    assert take_rake(pots, Rules(rake_fixed=(12, 3)), saw_flop=False) == [
        Pot(0, (0, 1), 10), Pot(35, (1,), 5)]


@given(st.lists(st.integers(0, 500), min_size=2, max_size=9), st.data())
def test_pots_hold_every_chip_called(contributions: list[int], data: st.DataObject) -> None:
    n = len(contributions)
    folded = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    all_in = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if all(folded):
        folded[0] = False
    p, back = uncalled(contributions)
    called = list(contributions)
    if back:
        called[p] -= back
    pots = build_pots(called, folded, all_in)
    assert sum(x.amount for x in pots) == sum(called)
    for pot in pots:
        assert pot.eligible and all(not folded[q] for q in pot.eligible)


# ---------------------------------------------------------------------------- dead money
# Dead money (a dead blind, the one ante a big blind posts for the table) matches nobody's bet:
# the levels are cut from the live chips and the dead ones go to the main pot (docs/rules.md,
# TDA). The engine and the PokerStars reader cut pots this one way.

def _chips(contributions: list[int], pots: list[Pot]) -> None:
    assert sum(p.amount for p in pots) == sum(contributions)  # every chip in a pot


def test_dead_money_is_the_dead_blinds_and_a_lone_ante() -> None:
    assert dead_money([0, 0, 0], [1, 0, 0]) == [1, 0, 0]
    assert dead_money([0, 0, 2], [0, 0, 0]) == [0, 0, 2]  # a big-blind ante: dead
    assert dead_money([1, 1, 1], [0, 1, 0]) == [0, 1, 0]  # everyone's antes: live
    assert dead_money([0, 0, 2], [0, 1, 0]) == [0, 1, 2]
    assert dead_money([], []) == []


def test_a_dead_blind_goes_to_the_main_pot_and_matches_no_bet() -> None:
    # A posts a dead small blind of 1 and 10 live; B and C put in 10: all three may win
    totals = [11, 10, 10]
    dead = dead_money([0, 0, 0], [1, 0, 0])
    pots = build_pots(totals, [False] * 3, [False] * 3, dead)
    assert pots == [Pot(31, (0, 1, 2))]
    _chips(totals, pots)
    # cut without it, the dead chip would be a level only A reached
    assert build_pots(totals, [False] * 3, [False] * 3) == [Pot(31, (0,))]
    # no dead money: the same as without the argument
    assert build_pots([10, 10, 4], [False, False, True], [False] * 3, [0, 0, 0]) == [
        Pot(24, (0, 1))]


def test_a_lone_ante_goes_to_the_main_pot() -> None:
    # a big-blind ante: the button and the small blind put in 2, the big blind 2 and the
    # table's ante of 2
    totals = [2, 2, 4]
    dead = dead_money([0, 0, 2], [0, 0, 0])
    pots = build_pots(totals, [False] * 3, [False] * 3, dead)
    assert pots == [Pot(8, (0, 1, 2))]
    _chips(totals, pots)
    # the others folded: the big blind's alone
    assert build_pots(totals, [True, True, False], [False] * 3, dead) == [Pot(8, (2,))]


def test_an_all_in_side_pot_with_dead_money() -> None:
    # A is all-in for 5; B posts a dead blind of 1 and 20 live; C puts in 20; the big blind's
    # ante of 2 (C's, the only one) is dead too: A may win the main pot, dead chips and all
    totals = [5, 21, 22]
    dead = dead_money([0, 0, 2], [0, 1, 0])
    assert dead == [0, 1, 2]
    pots = build_pots(totals, [False] * 3, [True, False, False], dead)
    assert pots == [Pot(15 + 3, (0, 1, 2)), Pot(30, (1, 2))]
    _chips(totals, pots)
    # B folds: C alone in the side pot, B's chips stay in the pots
    pots = build_pots(totals, [False, True, False], [True, False, False], dead)
    assert pots == [Pot(18, (0, 2)), Pot(30, (2,))]
    _chips(totals, pots)


def test_only_dead_money_is_one_pot_for_the_players_still_in() -> None:
    pots = build_pots([1, 0, 2], [False, True, False], [False] * 3, [1, 0, 2])
    assert pots == [Pot(3, (0, 2))]


@given(st.lists(st.integers(0, 500), min_size=2, max_size=9), st.data())
def test_pots_with_dead_money_hold_every_chip(contributions: list[int],
                                             data: st.DataObject) -> None:
    n = len(contributions)
    folded = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    all_in = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if all(folded):
        folded[0] = False
    dead = [data.draw(st.integers(0, c)) for c in contributions]
    live = [c - d for c, d in zip(contributions, dead, strict=True)]
    p, back = uncalled(live)
    called = list(contributions)
    if back:
        called[p] -= back
    pots = build_pots(called, folded, all_in, dead)
    _chips(called, pots)
    for pot in pots:
        assert pot.eligible and all(not folded[q] for q in pot.eligible)
    if any(dead) and pots:  # the dead chips are all in the main pot, on top of its live ones
        rest = build_pots([c - d for c, d in zip(called, dead, strict=True)], folded, all_in)
        assert pots[0].amount == (rest[0].amount if rest else 0) + sum(dead)
        assert pots[1:] == rest[1:]


def test_the_engine_cuts_its_pots_with_dead_money_the_same_way() -> None:
    """The hand's pots are build_pots of its totals with its dead money: a dead blind, a
    big-blind ante, and a short stack all-in."""
    from tapete.core import events as ev
    from tapete.core.cards import Deck
    from tapete.core.hand import Hand

    rules = Rules(small_blind=1, big_blind=2, ante=2, big_blind_ante=True)
    hand = Hand(rules, [5, 100, 100, 100], button=0, dead=[0, 0, 0, 1], deck=Deck(seed=1))
    hand.raise_to(20, 3)  # after the big blind; the button calls all-in for 5, the blinds call
    hand.call(0)
    hand.call(1)
    hand.call(2)
    posted = [e for e in hand.events if isinstance(e, ev.Posted)]
    antes = [sum(e.amount for e in posted if e.player == p and e.kind == ev.ANTE)
             for p in range(4)]
    dead = [sum(e.amount for e in posted if e.player == p and e.kind == ev.DEAD)
            for p in range(4)]
    assert sum(antes) == 2 and sum(dead) == 1
    want = build_pots(hand.totals, hand.folded, hand.all_in, dead_money(antes, dead))
    assert hand.pots() == want and len(want) > 1
    _chips(hand.totals, want)
