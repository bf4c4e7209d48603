"""Payouts add up exactly to the prize pool and never grow down the places; a deal is what
tapete.eval.icm gives (each amount the exact equity rounded down or up, the amounts adding up
to the prizes left); a chip chop gives everyone the smallest prize left and the rest by chips;
a bot takes a deal worth its ICM equity less its margin."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tapete.eval.icm import equities
from tapete.tournament import deals, payouts
from tapete.tournament.model import TournamentError

FAST = settings(max_examples=150, deadline=None, derandomize=True)


@FAST
@given(pool=st.integers(0, 10**9), entries=st.integers(1, 5000))
def test_standard_payouts_add_up_to_the_pool(pool: int, entries: int) -> None:
    prizes = payouts.prizes(pool, entries)
    assert sum(prizes) == pool
    assert prizes == sorted(prizes, reverse=True)
    assert len(prizes) <= max(1, entries)
    assert all(x >= 0 for x in prizes)


def test_standard_table_by_field_size() -> None:
    assert payouts.prizes(400, 4) == [400]
    assert payouts.prizes(600, 6) == [390, 210]
    assert payouts.prizes(1000, 10) == [500, 300, 200]
    assert len(payouts.prizes(100_000, 1000)) == 150  # 15 % of the field
    assert len(payouts.prizes(2000, 20)) == 4  # four places at least
    # the place k's share is proportional to 1/k: first is twice second, three times third
    big = payouts.prizes(12 * 10**6, 20)
    assert big == [5_760_000, 2_880_000, 1_920_000, 1_440_000]


@FAST
@given(pool=st.integers(0, 10**9),
       raw=st.lists(st.integers(1, 1000), min_size=1, max_size=30))
def test_custom_payouts_add_up_to_the_pool(pool: int, raw: list[int]) -> None:
    # raw weights turned into basis points adding up to 10,000, first place first
    total = sum(raw)
    bps = sorted((10_000 * x // total for x in raw), reverse=True)
    bps[0] += 10_000 - sum(bps)
    prizes = payouts.prizes(pool, 100, bps)
    assert sum(prizes) == pool
    assert prizes == sorted(prizes, reverse=True)
    for got, share in zip(prizes, bps, strict=True):
        assert abs(got - Fraction(pool * share, 10_000)) < len(bps)


def test_shares_that_do_not_add_up_are_refused() -> None:
    with pytest.raises(TournamentError):
        payouts.allocate(100, [Fraction(1, 2), Fraction(1, 3)])


@FAST
@given(prizes=st.lists(st.integers(0, 10**6), min_size=1, max_size=12),
       data=st.data())
def test_a_tie_shares_its_places_prizes(prizes: list[int], data: st.DataObject) -> None:
    prizes.sort(reverse=True)
    first = data.draw(st.integers(0, len(prizes) - 1))
    players = data.draw(st.integers(1, len(prizes) - first))
    shares = payouts.split(prizes, first, players)
    assert sum(shares) == sum(prizes[first:first + players])
    assert max(shares) - min(shares) <= 1


stacks_and_prizes = st.integers(2, 6).flatmap(lambda n: st.tuples(
    st.lists(st.integers(1, 10**6), min_size=n, max_size=n),
    st.lists(st.integers(0, 10**6), min_size=n, max_size=n).map(
        lambda xs: sorted(xs, reverse=True))))


@FAST
@given(sp=stacks_and_prizes)
def test_an_icm_deal_is_what_icm_gives(sp: tuple[list[int], list[int]]) -> None:
    stacks, prizes = sp
    deal = deals.icm_deal(stacks, prizes)
    exact = equities(stacks, prizes)
    assert sum(deal) == sum(prizes)
    for got, eq in zip(deal, exact, strict=True):
        assert got in (eq.numerator // eq.denominator, -(-eq.numerator // eq.denominator))
    # whole equities are paid exactly
    for got, eq in zip(deal, exact, strict=True):
        if eq.denominator == 1:
            assert got == eq


def test_an_icm_deal_three_handed() -> None:
    # tapete icm 5000 3000 2000 --prizes 50 30 20: 38.39, 32.75, 28.86
    assert deals.icm_deal([5000, 3000, 2000], [5000, 3000, 2000]) == [3839, 3275, 2886]
    assert deals.icm_deal([5000, 5000], [700, 300]) == [500, 500]


@FAST
@given(sp=stacks_and_prizes)
def test_a_chip_chop(sp: tuple[list[int], list[int]]) -> None:
    stacks, prizes = sp
    chop = deals.chip_chop(stacks, prizes)
    assert sum(chop) == sum(prizes)
    assert all(x >= min(prizes) for x in chop)
    rest = sum(prizes) - min(prizes) * len(stacks)
    for got, s in zip(chop, stacks, strict=True):
        assert abs(got - min(prizes) - Fraction(rest * s, sum(stacks))) < 1


def test_chip_chop_example() -> None:
    # 1,000 and 500 left to win; 3 to 1 in chips: 500 each, and 500 more split 3 to 1
    assert deals.chip_chop([30_000, 10_000], [1000, 500]) == [875, 625]


def test_a_bot_takes_a_deal_within_its_margin() -> None:
    eq = Fraction(1000)
    assert deals.bot_accepts(1000, eq)
    assert deals.bot_accepts(980, eq, margin_bps=200)
    assert not deals.bot_accepts(979, eq, margin_bps=200)
    assert not deals.bot_accepts(999, eq, margin_bps=0)
    # a chip chop favours the chip leader over ICM: the short stack refuses it
    # (heads-up the two are the same)
    stacks, prizes = [60_000, 30_000, 10_000], [500, 300, 200]
    chop = deals.chip_chop(stacks, prizes)
    icm = deals.icm_equity(stacks, prizes)
    assert chop == [440, 320, 240]
    answers = [deals.bot_accepts(a, e, 0) for a, e in zip(chop, icm, strict=True)]
    assert answers[0] and not answers[2]
    assert deals.chip_chop([30_000, 10_000], [1000, 500]) == deals.icm_deal(
        [30_000, 10_000], [1000, 500])


def test_a_deal_needs_a_prize_for_each_player() -> None:
    with pytest.raises(TournamentError):
        deals.icm_deal([100, 200, 300], [50, 30])
    with pytest.raises(TournamentError):
        deals.offer("split", [100, 200], [50, 30])
