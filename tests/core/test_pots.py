"""Pots as pure functions (tapete.core.pots), with the vectors of docs/rules.md §4 and §5."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tapete.core.pots import Pot, build_pots, split, take_rake, uncalled
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
