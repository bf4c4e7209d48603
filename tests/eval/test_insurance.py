"""All-in insurance and cash-out quotes: outs counted over every unseen card, exact prices."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tapete.core.cards import parse_cards
from tapete.eval.insurance import TYPICAL_ODDS, InsuranceError, quote


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


def test_aces_against_kings_on_the_turn_two_outs() -> None:
    q = quote({0: cards("AsAd"), 1: cards("KsKd")}, cards("2c7d9hJc"), [(400, (0, 1))])
    assert q is not None and q.leader == 0
    assert q.unseen == 44 and sorted(q.outs) == sorted(cards("KhKc"))
    assert q.stake == 400 and q.expected == Fraction(400 * 42, 44)
    assert q.fair_odds == 21 and q.odds == 16
    assert q.premium == 25  # 400 / 16: the house pays 400 if a king comes
    assert q.fair_premium == Fraction(400 * 2, 42)
    assert q.cash_out() == 381 and q.cash_out(fee_bps=100) == 378  # 4,200/11 = 381.8


def test_a_flush_draw_and_a_split_card_are_outs() -> None:
    # the made straight 8-high... against a flush draw: nine hearts beat it, and a board
    # pairing does not; the leader collects the stake only on the other cards
    q = quote({0: cards("8c6d"), 1: cards("AhKh")}, cards("7h5s4h2c"), [(1000, (0, 1))])
    assert q is not None and q.leader == 0
    hearts = [c for c in range(52) if c % 4 == cards("2h")[0] % 4]
    assert set(q.outs) >= {c for c in hearts if c not in cards("7h4hAhKh")}
    assert q.odds == TYPICAL_ODDS.get(len(q.outs))


def test_side_pots_the_leader_can_only_win_what_it_is_in() -> None:
    # the short stack leads but is only in the main pot: its stake is the main pot
    holes = {0: cards("AsAd"), 1: cards("KsKd"), 2: cards("QsQd")}
    q = quote(holes, cards("2c7d9hJc"), [(300, (0, 1, 2)), (200, (1, 2))])
    assert q is not None and q.leader == 0 and q.stake == 300
    # outs: a king or a queen (either beats aces for the main pot)
    assert sorted(q.outs) == sorted(cards("KhKcQhQc"))


def test_no_quote_when_tied_and_no_insurance_beyond_the_table() -> None:
    assert quote({0: cards("AsKd"), 1: cards("AdKs")}, cards("2c7d9hJc"), [(100, (0, 1))]) is None
    q = quote({0: cards("2s2d"), 1: cards("AhKh")}, cards("Qh9h3c"), [(100, (0, 1))])
    assert q is not None and len(q.outs) > 14 and q.odds is None and q.premium is None


def test_bad_boards_are_refused_in_both_languages() -> None:
    for board in ("", "2c7d9hJcQs"):
        with pytest.raises(InsuranceError) as err:
            quote({0: cards("AsAd"), 1: cards("KsKd")}, cards(board), [(100, (0, 1))])
        assert err.value.message.es != err.value.message.en
    with pytest.raises(InsuranceError):
        quote({0: cards("AsAd"), 1: cards("AsKd")}, cards("2c7d9h"), [(100, (0, 1))])


def test_a_leader_every_card_beats_gets_no_fair_price() -> None:
    """Four players on Ah3hTh4c: the leader's 4s6h (a pair) loses to every river that can
    come (a heart makes the flush, the others the straights and better pairs): a quote, with
    every unseen card an out and no fair price, not a division by zero."""
    holes = {0: cards("4s6h"), 1: cards("5h6s"), 2: cards("9sKc"), 3: cards("7c4d")}
    q = quote(holes, cards("Ah3hTh4c"), [(400, (0, 1, 2, 3))])
    assert q is not None and len(q.outs) == q.unseen
    assert q.fair_premium is None and q.fair_odds == 0


def test_a_high_low_pot_is_not_insured() -> None:
    """Omaha hi-lo splits the pot between two hands: no single leader, no quote."""
    from tapete.core.game import OMAHA, OMAHA_HI_LO

    holes = {0: parse_cards("AsAd2c3h"), 1: parse_cards("KsKdQhJh")}
    board = parse_cards("4c5d9h")
    assert quote(holes, board, [(100, [0, 1])], game=OMAHA_HI_LO) is None
    assert quote(holes, board, [(100, [0, 1])], game=OMAHA) is not None
