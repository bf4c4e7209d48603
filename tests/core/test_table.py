"""The table across hands: the dead-button rule, heads-up, missed blinds, chips, time-outs."""

from __future__ import annotations

import pytest

from tapete.core.cards import Deck, parse_cards
from tapete.core.hand import Hand, HandError
from tapete.core.rules import Rules
from tapete.core.table import Table, TimeOutPolicy

RULES = Rules(small_blind=1, big_blind=2)


def fold_out(hand: Hand) -> None:
    while not hand.done:
        if hand.legal().fold:
            hand.fold()
        else:
            hand.check()


def blinds_of(table: Table) -> tuple[int | None, int, int]:
    """(small blind seat or None, big blind seat, seat acting last after the flop)."""
    hand = table.hand
    assert hand is not None
    sb = [table.seat_of(i) for i, b in enumerate(hand.blinds) if b == RULES.small_blind]
    bb = [table.seat_of(i) for i, b in enumerate(hand.blinds) if b == RULES.big_blind]
    return (sb[0] if sb else None), bb[0], table.seat_of(hand.button)


def play(table: Table, seed: int = 0) -> tuple[int | None, int, int]:
    table.start_hand(Deck(seed))
    out = blinds_of(table)
    assert table.hand is not None
    fold_out(table.hand)
    table.end_hand()
    return out


def seated(n: int, seats: int = 6) -> Table:
    t = Table(RULES, seats)
    for i in range(n):
        t.sit(i, f"P{i}", 200)
    return t


def test_blinds_move_one_seat_every_hand() -> None:
    t = seated(4)
    assert [play(t, k) for k in range(5)] == [
        (1, 2, 0), (2, 3, 1), (3, 0, 2), (0, 1, 3), (1, 2, 0)]


def test_dead_small_blind_when_the_big_blind_leaves() -> None:
    t = seated(4)
    assert play(t) == (1, 2, 0)
    t.leave(2)  # the player who just paid the big blind leaves
    # the big blind moves on to seat 3; seat 2 (the small blind's place) is empty: no small
    # blind; the button moves to seat 1 and nobody pays the big blind twice
    assert play(t) == (None, 3, 1)
    assert play(t) == (3, 0, 1)  # the button stays behind a dead seat: dead button on seat 2
    assert t.button_seat == 2


def test_heads_up_transition_nobody_pays_the_big_blind_twice() -> None:
    t = seated(3)
    assert play(t) == (1, 2, 0)
    t.leave(0)
    sb, bb, button = play(t)
    assert bb != 2 and sb == button == 2  # heads-up: the button posts the small blind
    sb2, bb2, _ = play(t)
    assert bb2 == 2 and sb2 == 1


def test_new_player_waits_for_the_big_blind() -> None:
    t = Table(RULES, 6)
    for seat in (0, 2, 4):
        t.sit(seat, f"P{seat}", 200)
    assert play(t) == (2, 4, 0)
    t.sit(1, "New", 200)  # between the button and the small blind
    assert play(t) == (4, 0, 2) and 1 not in t.hand_seats  # waits
    assert play(t) == (0, 1, 4) and 1 in t.hand_seats  # the big blind reaches the newcomer


def test_new_player_may_post_at_once() -> None:
    t = seated(3)
    play(t)
    t.sit(4, "New", 200, wait_for_big_blind=False)
    play(t)
    assert 4 in t.hand_seats


def test_missed_blinds_post_dead_or_wait() -> None:
    t = seated(4)
    play(t)  # button 0, bb seat 2
    t.sit_out(3)
    play(t)  # the big blind passes seat 3 -> seat 0
    assert t.seats[3] is not None and t.seats[3].missed_big
    t.sit_in(3, post_dead=True)
    play(t)  # button 2, big blind 1: seat 3 sits between them and may not post there
    assert 3 not in t.hand_seats
    t.start_hand(Deck(1))  # button 0, big blind 2: seat 3 comes in after the big blind
    hand = t.hand
    assert hand is not None
    p = t.player_of(3)
    assert p is not None
    assert hand.blinds[p] == 2 and hand.dead[p] == 1  # big blind live, small blind dead
    fold_out(hand)
    t.end_hand()


def test_a_player_who_missed_only_the_small_blind_posts_it_dead() -> None:
    t = seated(4)
    play(t)  # button 0, sb 1, bb 2
    play(t)  # button 1, sb 2, bb 3
    t.sit_out(3)  # seat 3 would be the small blind next
    play(t)  # bb moves to 0; seat 3's small blind is missed
    seat = t.seats[3]
    assert seat is not None and seat.missed_small and not seat.missed_big
    t.sit_in(3, post_dead=True)
    for _ in range(4):
        t.start_hand(Deck(2))
        hand = t.hand
        assert hand is not None
        p = t.player_of(3)
        if p is not None:
            assert (hand.blinds[p], hand.dead[p]) in ((0, 1), (1, 0), (2, 0))
            break
        fold_out(hand)
        t.end_hand()
    assert p is not None


def test_a_busted_player_who_rebuys_owes_the_blinds_passed() -> None:
    t = seated(4)
    play(t)  # button 0, bb 2
    seat = t.seats[3]
    assert seat is not None
    seat.chips = 0  # busted
    play(t)  # bb passes seat 3 -> seat 0
    assert seat.missed_big
    t.add_chips(3, 200)
    for _ in range(4):
        t.start_hand(Deck(3))
        hand = t.hand
        assert hand is not None
        p = t.player_of(3)
        if p is not None:
            assert hand.blinds[p] == 2  # the big blind it owes (or its own, in turn)
            break
        fold_out(hand)
        t.end_hand()
    assert p is not None


def test_newcomer_cannot_post_between_the_button_and_the_big_blind() -> None:
    t = Table(RULES, 6)
    for seat in (0, 1, 3, 5):
        t.sit(seat, f"P{seat}", 200)
    assert play(t) == (1, 3, 0)
    t.leave(3)  # the big blind leaves; a newcomer takes the seat and wants to post now
    t.sit(3, "New", 200, wait_for_big_blind=False)
    t.sit(2, "Between", 200, wait_for_big_blind=False)
    sb, bb, button = play(t)
    # the big blind moves to seat 5; seats 2 and 3 lie between the button (1) and it
    assert (bb, button) == (5, 1) and t.hand_seats == [0, 1, 5]
    assert sb is None  # nobody in the seat that paid the big blind: a dead small blind
    sb, bb, _ = play(t)  # big blind 0: seat 2 now sits after it and posts; seat 3 (the
    assert bb == 0 and 2 in t.hand_seats and 3 not in t.hand_seats  # button) still waits


def test_newcomer_during_the_first_hand_waits() -> None:
    t = seated(3)
    t.start_hand(Deck(1))
    t.sit(4, "Late", 200)
    seat = t.seats[4]
    assert seat is not None and seat.waiting_for_big_blind


def test_straddle_is_posted_at_a_table() -> None:
    t = Table(Rules(small_blind=1, big_blind=2, straddle=4), 6)
    for i in range(4):
        t.sit(i, f"P{i}", 200)
    hand = t.start_hand(Deck(1))
    assert sorted(hand.blinds) == [0, 1, 2, 4]


def test_table_maximum_holds_after_a_win() -> None:
    t = Table(RULES, 6, max_buy_in=200)
    t.sit(0, "A", 150)
    t.sit(1, "B", 200)
    hand = t.start_hand(Deck(1))
    assert t.add_chips(0, 100) == 50  # capped to 50 now, and again after the hand
    fold_out(hand)
    refused = t.end_hand()
    seat = t.seats[0]
    stack = hand.stacks[t.hand_seats.index(0)]
    assert seat is not None
    assert seat.chips == stack + max(0, min(50, 200 - stack)) <= max(200, stack)
    # what the stack after the hand leaves no room for comes back, to the chip
    assert seat.chips + refused.get(0, 0) == stack + 50


def test_a_top_up_beside_a_win_comes_back_whole() -> None:
    """Stack 5, add 195 (table maximum 200), win 7: 7 chips do not fit and come back."""
    t = Table(RULES, 2, max_buy_in=200)
    t.sit(0, "A", 5)
    t.sit(1, "B", 200)
    hand = t.start_hand(Deck.stacked(parse_cards("2c7d AsAh Kd9c5h3s8d")))
    me = t.player_of(0)
    assert t.add_chips(0, 195) == 195
    while not hand.done:  # checked down: A's aces win
        hand.call() if hand.legal().call else hand.check()
    won = hand.stacks[me or 0] - 5
    assert won > 0
    refused = t.end_hand()
    seat = t.seats[0]
    assert seat is not None and seat.chips == 200 and refused == {0: won}


def test_chips_added_while_a_finished_hand_is_shown_are_kept() -> None:
    """An all-in run-out is shown after the hand is over: the stacks are not applied until
    end_hand, so chips added meanwhile wait for it instead of being overwritten."""
    t = Table(RULES, 2, max_buy_in=400)
    t.sit(0, "A", 100)
    t.sit(1, "B", 100)
    hand = t.start_hand(Deck(3))
    while not hand.done:
        lg = hand.legal()
        if lg.max_to:
            hand.raise_to(lg.max_to)
        else:
            hand.call()
    assert hand.done and t.hand is hand
    assert t.add_chips(0, 100) == 100
    final = hand.stacks[t.player_of(0) or 0]
    assert t.end_hand() == {}
    seat = t.seats[0]
    assert seat is not None and seat.chips == final + 100 and seat.pending_chips == 0


def test_a_new_hand_waits_until_the_last_is_applied() -> None:
    t = seated(2)
    hand = t.start_hand(Deck(1))
    fold_out(hand)
    with pytest.raises(HandError):
        t.start_hand(Deck(2))
    t.end_hand()
    t.start_hand(Deck(2))


def test_bad_buy_in_limits_are_refused() -> None:
    with pytest.raises(HandError):
        Table(RULES, 6, min_buy_in=500, max_buy_in=100)
    t = seated(2)
    with pytest.raises(HandError):
        t.add_chips(0, True)


def test_chips_are_added_only_between_hands_up_to_the_maximum() -> None:
    t = Table(RULES, 6, max_buy_in=300)
    t.sit(0, "A", 200)
    t.sit(1, "B", 200)
    t.start_hand(Deck(1))
    assert t.add_chips(0, 500) == 100  # capped at the table maximum
    assert t.hand is not None
    assert t.hand.starting_stacks[t.player_of(0) or 0] == 200  # not during the hand
    fold_out(t.hand)
    final = t.hand.stacks[t.player_of(0) or 0]
    t.end_hand()
    seat = t.seats[0]
    assert seat is not None and seat.chips == final + 100  # applied after the hand
    assert seat.pending_chips == 0
    with pytest.raises(HandError):
        t.add_chips(0, 0)


def test_time_out_removes_the_player_after_the_hand() -> None:
    t = seated(3)
    hand = t.start_hand(Deck(1))
    actor = hand.actor
    assert actor is not None
    seat = t.seat_of(actor)
    t.time_out()
    fold_out(hand)
    t.end_hand()
    assert t.seats[seat] is None


def test_time_out_sits_out_at_a_practice_table() -> None:
    t = Table(RULES, 6, time_out_policy=TimeOutPolicy.SIT_OUT)
    for i in range(3):
        t.sit(i, f"P{i}", 200)
    hand = t.start_hand(Deck(1))
    seat = t.seat_of(hand.actor or 0)
    t.time_out()
    fold_out(hand)
    t.end_hand()
    s = t.seats[seat]
    assert s is not None and s.sitting_out
