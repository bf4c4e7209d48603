"""Every worked example of docs/rules.md as a named test."""

from __future__ import annotations

import pytest

from tapete.core.cards import Deck, parse_cards
from tapete.core.events import Acted, BoardDealt, Returned
from tapete.core.hand import Hand, IllegalAction, Phase
from tapete.core.pots import Pot, build_pots, split, uncalled
from tapete.core.rules import Rules, Structure

NL = Structure.NO_LIMIT
PL = Structure.POT_LIMIT
FL = Structure.FIXED_LIMIT


def options(hand: Hand) -> tuple[bool, bool, int, int | None, int | None]:
    lg = hand.legal()
    return lg.fold, lg.check, lg.call, lg.min_to, lg.max_to


def flop_hand(rules: Rules, flop_stacks: list[int], button: int, seed: int = 1) -> Hand:
    """A hand whose players all limp preflop and reach the flop with ``flop_stacks``."""
    bb = rules.big_blind
    hand = Hand(rules, [s + bb for s in flop_stacks], button=button, deck=Deck(seed))
    while hand.street == 0:
        hand.check_or_call()
    assert hand.street == 1 and hand.phase is Phase.BETTING
    assert hand.stacks == flop_stacks
    return hand


# --- 1. Betting structures ------------------------------------------------------------------

def test_PL_1_first_to_act_preflop() -> None:
    hand = Hand(Rules(PL, 1, 2), [200] * 4, deck=Deck(1))
    assert options(hand) == (True, False, 2, 4, 7)


def test_PL_2_after_a_raise_to_7() -> None:
    hand = Hand(Rules(PL, 1, 2), [200] * 4, deck=Deck(1))
    hand.raise_to(7)
    assert options(hand) == (True, False, 7, 14, 24)
    assert "14 = 7" in hand.legal().explain_min().en


def test_PL_3_blinds_in_cents() -> None:
    hand = Hand(Rules(PL, 50, 100, decimals=2, currency="$"), [20000] * 4, deck=Deck(1))
    assert options(hand) == (True, False, 100, 200, 350)
    assert "$3.50" in hand.legal().explain_max().en


def test_NL_1_tda_example_1() -> None:
    hand = flop_hand(Rules(NL, 100, 200), [10_000] * 4, button=3)
    hand.raise_to(600)
    hand.raise_to(1600)
    hand.raise_to(3600)
    fold, check, call, min_to, _ = options(hand)
    assert (call, min_to) == (3600, 5600)


def test_NL_2_short_all_in_preflop() -> None:
    hand = Hand(Rules(NL, 50, 100), [10_000, 10_000, 150, 10_000], button=3, deck=Deck(1))
    assert hand.actor == 2
    hand.raise_to(150)
    assert hand.legal().min_to == 250


def test_NL_3_tda_example_3_on_the_turn() -> None:
    hand = flop_hand(Rules(NL, 100, 200), [10_000] * 3, button=2)
    for _ in range(3):
        hand.check()
    assert hand.street == 2
    hand.raise_to(300)
    hand.raise_to(1000)
    _, _, call, min_to, _ = options(hand)
    assert (call, min_to) == (1000, 1700)


def test_NL_4A_several_raises() -> None:
    hand = Hand(Rules(NL, 25, 50), [10_000] * 6, button=5, deck=Deck(1))
    hand.raise_to(125)
    hand.raise_to(200)
    hand.raise_to(500)
    assert hand.legal().min_to == 800


def test_NL_4B_one_raise_and_calls() -> None:
    hand = Hand(Rules(NL, 25, 50), [10_000] * 6, button=5, deck=Deck(1))
    hand.raise_to(500)
    hand.call()
    hand.call()
    _, _, call, min_to, _ = options(hand)
    assert (call, min_to) == (500, 950)


def test_FL_1_first_to_act_preflop() -> None:
    hand = Hand(Rules(FL, 50, 100), [10_000] * 4, deck=Deck(1))
    assert options(hand) == (True, False, 100, 200, 200)


def test_FL_2_turn_no_bet_yet() -> None:
    hand = flop_hand(Rules(FL, 50, 100), [10_000] * 4, button=3)
    for _ in range(4):
        hand.check()
    assert hand.street == 2
    assert options(hand) == (False, True, 0, 200, 200)


def test_fixed_limit_cap_four_bets_preflop() -> None:
    hand = Hand(Rules(FL, 50, 100), [10_000] * 5, button=4, deck=Deck(1))
    hand.raise_to(200)
    hand.raise_to(300)
    hand.raise_to(400)  # blind + 3 raises = 4 bets: capped
    lg = hand.legal()
    assert lg.min_to is None and lg.call_to == 400
    assert "capped" in lg.explain_no_raise().en
    with pytest.raises(IllegalAction):
        hand.raise_to(500)


def test_fixed_limit_no_cap_heads_up_option() -> None:
    hand = Hand(Rules(FL, 50, 100, cap_heads_up=False), [10_000] * 2, deck=Deck(1))
    for to in (200, 300, 400, 500, 600):
        hand.raise_to(to)
    assert hand.legal().min_to == 700


def test_pot_limit_tda_option_last_raise() -> None:
    hand = Hand(Rules(PL, 1, 2, min_raise="last-raise"), [200] * 4, deck=Deck(1))
    hand.raise_to(7)
    assert options(hand) == (True, False, 7, 12, 24)


def test_short_stack_may_only_go_all_in() -> None:
    hand = Hand(Rules(NL, 50, 100), [10_000, 10_000, 180, 10_000], button=3, deck=Deck(1))
    lg = hand.legal()
    assert (lg.min_to, lg.max_to) == (180, 180)
    assert "all-in" in lg.explain_min().en


def test_short_big_blind_does_not_lower_the_call() -> None:
    # PokerStars: big blind all-in for 11 at 10/20, the next player calls 20
    hand = Hand(Rules(NL, 10, 20), [1000, 11, 1000, 1000], button=3, deck=Deck(1))
    assert hand.all_in[1]
    _, _, call, min_to, _ = options(hand)
    assert (call, min_to) == (20, 40)


def test_straddle_acts_last_and_doubles_the_minimum() -> None:
    hand = Hand(Rules(NL, 1, 2, straddle=4), [200] * 5, button=4, deck=Deck(1))
    assert hand.actor == 3
    _, _, call, min_to, _ = options(hand)
    assert (call, min_to) == (4, 8)
    for _ in range(4):
        hand.call()
    assert hand.actor == 2 and hand.legal().check  # the straddle's option


def test_amounts_are_street_totals() -> None:
    hand = flop_hand(Rules(NL, 1, 2), [200] * 2, button=0)
    hand.raise_to(10)
    hand.raise_to(30)
    before = hand.stacks[1]
    hand.raise_to(60)  # to 60 in total: adds 50 to the 10 already in
    assert before - hand.stacks[1] == 50


def test_illegal_actions_say_what_is_legal_and_change_nothing() -> None:
    hand = Hand(Rules(NL, 50, 100), [10_000] * 3, button=2, deck=Deck(1))
    events = list(hand.events)
    with pytest.raises(IllegalAction) as err:
        hand.raise_to(150)
    assert "smallest raise: to 200" in str(err.value)
    assert "Legal: fold, call 100, raise to 200–10,000" in str(err.value)
    assert "subida mínima" in err.value.in_lang("es")
    with pytest.raises(IllegalAction, match="not p1's turn"):
        hand.call(player=0)
    with pytest.raises(IllegalAction, match="there is a bet"):
        hand.check()
    with pytest.raises(IllegalAction):
        hand.raise_to(10_001)
    with pytest.raises(IllegalAction):
        hand.raise_to(True)  # type: ignore[arg-type]
    assert hand.events == events


# --- 2. All-in and reopening ----------------------------------------------------------------

def test_AI_1_short_all_in_does_not_reopen() -> None:
    hand = flop_hand(Rules(NL, 50, 100), [5000, 150, 5000], button=2)
    hand.raise_to(100)
    hand.raise_to(150)
    hand.call()
    assert hand.actor == 0
    fold, check, call, min_to, _ = options(hand)
    assert (fold, check, call, min_to) == (True, False, 50, None)
    assert "did not reopen" in hand.legal().explain_no_raise().en


def test_AI_2_short_all_ins_that_add_up_to_a_full_raise_reopen() -> None:
    hand = flop_hand(Rules(NL, 50, 100), [5000, 150, 200, 5000], button=3)
    hand.raise_to(100)
    hand.raise_to(150)
    hand.raise_to(200)
    hand.call()
    assert hand.actor == 0
    assert hand.legal().min_to == 300


def test_AI_3_a_player_who_has_not_acted_may_raise() -> None:
    hand = flop_hand(Rules(NL, 50, 100), [5000, 150, 5000], button=2)
    hand.raise_to(100)
    hand.raise_to(150)
    _, _, call, min_to, _ = options(hand)
    assert (call, min_to) == (150, 250)


def test_nobody_left_to_raise_against() -> None:
    # seed 000: Chuck could not raise, because Andy has no chips left
    hand = flop_hand(Rules(NL, 50, 100), [3000, 8450, 20_000], button=2)
    hand.raise_to(3000)
    hand.raise_to(8450)
    lg = hand.legal()
    assert lg.call == 8450 and lg.min_to is None
    assert "no other player has chips to call a raise" in lg.explain_no_raise().en


def test_no_raise_when_nobody_can_call_more_than_the_current_bet() -> None:
    # A bets all-in 1000; C, still to act, has only 500: he can call all-in or fold, never
    # match a raise. So B may only call or fold (seed 000's reason: nobody has chips left to
    # call or raise; PokerKit rules the same)
    hand = flop_hand(Rules(NL, 50, 100), [1000, 5000, 500], button=2)
    hand.raise_to(1000)
    lg = hand.legal()
    assert (lg.player, lg.call, lg.min_to) == (1, 1000, None)
    assert "no other player has chips to call a raise" in lg.explain_no_raise().en


# --- 3. Betting rounds and heads-up ---------------------------------------------------------

def test_HU_1_button_acts_first_preflop() -> None:
    hand = Hand(Rules(NL, 1, 2), [200, 200], button=0, deck=Deck(1))
    assert hand.actor == 0
    assert options(hand) == (True, False, 1, 4, 200)


def test_HU_2_big_blind_option_then_flop() -> None:
    hand = Hand(Rules(NL, 1, 2), [200, 200], button=0, deck=Deck(1))
    hand.call()
    assert hand.actor == 1 and hand.street == 0
    assert options(hand) == (False, True, 0, 4, 200)
    hand.check()
    assert hand.street == 1 and len(hand.board) == 3
    assert hand.actor == 1  # the big blind acts first after the flop


def test_HU_3_flop_bet_and_call_deals_the_turn() -> None:
    hand = Hand(Rules(NL, 25, 50), [1000, 1000], button=0, deck=Deck(1))
    hand.call()
    hand.check()
    assert hand.pot_total() == 100 and hand.actor == 1
    hand.raise_to(50)
    hand.call()
    assert hand.pot_total() == 200
    assert hand.street == 2 and len(hand.board) == 4


def test_HU_4_all_in_run_out_street_by_street() -> None:
    hand = Hand(Rules(NL, 1, 2), [200, 200], button=0, deck=Deck(1), auto_showdown=True)
    hand.call()
    hand.check()
    hand.raise_to(198)
    hand.call()
    deals = [e for e in hand.events if isinstance(e, BoardDealt)]
    assert [(d.street, len(d.cards)) for d in deals] == [(1, 3), (2, 1), (3, 1)]
    assert hand.done
    assert sum(hand.stacks) == 400


def test_fold_ends_the_hand_at_once_without_showing() -> None:
    hand = Hand(Rules(NL, 1, 2), [200] * 3, button=2, deck=Deck(1))
    hand.raise_to(10)
    hand.fold()
    hand.fold()
    assert hand.done and hand.board == [] and not hand.shown
    assert hand.stacks == [199, 198, 203]
    assert any(isinstance(e, Returned) and e.amount == 8 for e in hand.events)


def test_time_out_checks_when_free_else_folds() -> None:
    hand = Hand(Rules(NL, 1, 2), [200] * 3, button=2, deck=Deck(1))
    hand.time_out()
    last = hand.events[-1]
    assert isinstance(last, Acted) and last.action == "fold" and last.timed_out
    hand.call()
    hand.time_out()  # the big blind may check for free
    last = next(e for e in reversed(hand.events) if isinstance(e, Acted))
    assert last.action == "check" and last.timed_out


# --- 4. Pots --------------------------------------------------------------------------------

def test_POT_1_main_side_and_returned() -> None:
    totals = [100, 300, 500]
    assert uncalled(totals) == (2, 200)
    pots = build_pots([100, 300, 300], [False] * 3, [True, True, False])
    assert pots == [Pot(300, (0, 1, 2)), Pot(400, (1, 2))]


def _three_way(holes: str, board: str) -> Hand:
    """A=0 (100 chips), B=1 (300), C=2 (500, button): C shoves, both call all-in."""
    deck = Deck.stacked(parse_cards(holes + board))
    hand = Hand(Rules(NL, 10, 20), [100, 300, 500], button=2, deck=deck, auto_showdown=True)
    hand.raise_to(500)
    hand.call()
    hand.call()
    return hand


def test_POT_2_each_pot_to_its_best_hand() -> None:
    # deal order from left of the button: A, B, C.  A > C > B
    hand = _three_way("AsAh 2c7d KsKh", "Ad9c5h3s8d")
    assert hand.done
    assert hand.net() == [200, -300, 100]  # A +300 (won 300), C +400 and 200 back
    assert [(r.amount, r.winners) for r in hand.results] == [(300, (0,)), (400, (2,))]
    assert hand.returned == [0, 0, 200]
    assert sum(hand.stacks) == 900


def test_POT_3_second_pot_to_the_middle_stack() -> None:
    hand = _three_way("AsAh KsKh 2c7d", "Ad9c5h3s8d")
    assert [(r.amount, r.winners) for r in hand.results] == [(300, (0,)), (400, (1,))]
    assert hand.stacks == [300, 400, 200]


def test_POT_4_folded_chips_stay_in_the_pots() -> None:
    deck = Deck.stacked(parse_cards("AsAh KsKh 2c7d Ad9c5h3s8d"))
    hand = Hand(Rules(NL, 10, 20), [100, 1000, 500], button=2, deck=deck, auto_showdown=True)
    hand.raise_to(300)  # C
    hand.call()  # A all-in for 100
    hand.call()  # B calls 300
    hand.check()  # flop: B checks
    hand.raise_to(200)  # C bets all-in 200 more (500 in total)
    hand.fold()  # B folds with 300 in
    assert hand.done
    assert [(r.amount, r.eligible) for r in hand.results] == [(300, (0, 2)), (400, (2,))]
    assert hand.returned == [0, 0, 200]


def test_POT_5_seed_000_pot_limit_side_pot() -> None:
    r = Rules(PL, 50, 100, decimals=2, currency="$")
    # Bob 0 (SB), Chuck 1 (BB), Andy 2, Folder 3 (button); 1000 each preflop
    hand = Hand(r, [4500, 21_000, 9450, 5000], button=3, deck=Deck(5), auto_showdown=True)
    hand.raise_to(350)  # Andy, the pot-limit maximum
    hand.raise_to(1000)  # Folder
    hand.call()
    hand.call()
    hand.call()
    assert hand.street == 1 and hand.pot_total() == 4000
    hand.raise_to(3500)  # Bob all-in
    hand.call()  # Chuck
    hand.raise_to(8450)  # Andy all-in
    hand.fold()  # Folder
    hand.call()  # Chuck calls 4950 more
    assert hand.done
    assert [(r.amount, r.eligible) for r in hand.results] == [
        (14_500, (0, 1, 2)), (9900, (1, 2))]


def test_POT_6_odd_chip_left_of_the_button() -> None:
    assert split(301, [2, 4], order_from=1, players=6) == {2: 151, 4: 150}
    assert split(301, [4, 2], order_from=3, players=6) == {4: 151, 2: 150}


def test_split_pot_in_a_hand_odd_chip_to_the_first_seat_left_of_the_button() -> None:
    # players 1 and 2 both play the board (a broadway straight); the small blind's folded
    # chip makes the pot odd: 5 chips, the odd one to player 1, first left of the button
    deck = Deck.stacked(parse_cards("4h5s 2c3d 2d3c AsKdQhJcTs"))
    hand = Hand(Rules(NL, 1, 2), [100, 100, 100], button=2, deck=deck, auto_showdown=True)
    hand.call()  # button calls 2
    hand.fold()  # small blind folds its 1
    hand.check()  # big blind
    while not hand.done:
        hand.check()
    res = hand.results[0]
    assert res.amount == 5 and res.winners == (1, 2)
    assert dict(res.shares) == {1: 3, 2: 2}
    assert hand.stacks == [99, 101, 100]


# --- 5. Rake --------------------------------------------------------------------------------

def test_rake_percentage_capped_and_no_flop_no_drop() -> None:
    r = Rules(NL, 1, 2, rake_bps=500, rake_cap=3)
    hand = Hand(r, [100] * 3, button=2, deck=Deck(1), auto_showdown=True)
    hand.raise_to(6)
    hand.fold()
    hand.fold()
    assert hand.rake == 0  # no flop, no drop
    hand = Hand(r, [100] * 3, button=2, deck=Deck(1), auto_showdown=True)
    for _ in range(3):
        hand.raise_to(100) if hand.legal().min_to else hand.call()
        if hand.done:
            break
    while not hand.done:
        hand.call()
    assert hand.rake == 3  # 5 % of 300 is 15, capped at 3
    assert sum(hand.stacks) + hand.rake == 300


def test_all_in_showdown_tables_every_hand() -> None:
    # TDA Rule 16: once a player is all-in and the betting is over, all hands are turned up,
    # even the caller's losing hand
    deck = Deck.stacked(parse_cards("AsAh 7c2d KdQd 9h8h3c4s5s"))
    hand = Hand(Rules(NL, 1, 2), [100, 200, 200], button=2, deck=deck, auto_showdown=True)
    hand.raise_to(200)  # button (player 2) shoves
    hand.call()  # player 0 all-in for 100
    hand.call()  # player 1 calls
    assert hand.done and set(hand.shown) == {0, 1, 2}


def test_without_an_all_in_a_beaten_hand_may_be_mucked() -> None:
    deck = Deck.stacked(parse_cards("AsAh 7c2d KdQd 9h8h3c4s5s"))
    hand = Hand(Rules(NL, 1, 2), [100, 200, 200], button=2, deck=deck, auto_showdown=True)
    hand.call()
    hand.call()
    while not hand.done:
        hand.check()
    assert hand.shown.keys() == {0} and hand.mucked == {1, 2}


@pytest.mark.parametrize("bad", [
    {"small_blind": 0.5, "big_blind": 1},
    {"ante": 0.5},
    {"big_blind": True},
    {"rake_bps": 250.5},
    {"rake_cap": -5, "rake_bps": 500},
    {"bet_cap": 1},
])
def test_room_rules_refuse_anything_but_whole_chips(bad: dict[str, object]) -> None:
    from tapete.core.rules import RulesError

    with pytest.raises(RulesError):
        Rules(**bad)  # type: ignore[arg-type]


def test_the_last_player_in_a_side_pot_cannot_muck_it_away() -> None:
    # A all-in for 100; B and C build a side pot. B mucks; C is then the last contender of the
    # side pot and cannot muck: the side pot can never go to A, who did not cover it
    from tapete.core.hand import HandError

    hand = Hand(Rules(NL, 5, 10), [100, 1000, 1000], button=2, deck=Deck(3))
    hand.raise_to(500)  # C (button)
    hand.call()  # A all-in 100
    hand.call()  # B
    while hand.phase is Phase.BETTING:
        hand.check()
    assert hand.phase is Phase.SHOWDOWN
    hand.muck(1)
    with pytest.raises(HandError, match="last player in a pot"):
        hand.muck(2)
    hand.show(2)
    hand.show(0)
    assert hand.done
    side = hand.results[1]
    assert side.eligible == (1, 2) and side.winners == (2,)
    assert hand.stacks[0] <= 300


def test_bad_player_numbers_are_refused_clearly() -> None:
    hand = Hand(Rules(NL, 1, 2), [200] * 3, button=2, deck=Deck(1))
    events = list(hand.events)
    for bad in (99, -1, True, "1"):
        with pytest.raises(IllegalAction, match="no player"):
            hand.call(player=bad)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match=r"p3 is to act \(fold, call 2, raise to 4–200\)"):
        hand.call(player=1)
    assert hand.events == events


def test_numpy_integers_are_whole_chips() -> None:
    import numpy as np

    hand = Hand(Rules(NL, 1, 2), [200] * 3, button=2, deck=Deck(1))
    hand.raise_to(np.int64(6))  # type: ignore[arg-type]
    assert hand.bets[2] == 6 and type(hand.events[-1].to) is int


def test_fixed_limit_cap_lifted_once_the_hand_is_heads_up() -> None:
    hand = Hand(Rules(FL, 1, 2, cap_heads_up=False), [1000] * 3, button=2, deck=Deck(1))
    hand.fold()  # the button folds: two players left
    for to in (4, 6, 8, 10):
        hand.raise_to(to)
    assert hand.legal().min_to == 12  # past the 4-bet cap: the hand is heads-up
    capped = Hand(Rules(FL, 1, 2), [1000] * 3, button=2, deck=Deck(1))
    capped.fold()
    for to in (4, 6, 8):
        capped.raise_to(to)
    assert capped.legal().min_to is None


@pytest.mark.parametrize("setup", [
    {"stacks": [True, 100]},
    {"stacks": [100.0, 100]},
    {"stacks": [100, 100], "blinds": [0.5, 1]},
    {"stacks": [100, 100], "antes": [1, 0.5]},
])
def test_hands_refuse_anything_but_whole_chips(setup: dict[str, object]) -> None:
    from tapete.core.hand import HandError

    stacks = setup.pop("stacks")
    with pytest.raises(HandError):
        Hand(Rules(NL, 1, 2), stacks, **setup)  # type: ignore[arg-type]


# --- 6. Rulings of docs/rules.md ------------------------------------------------------------

def test_FL_3_heads_up_counts_the_players_who_are_not_all_in() -> None:
    # the button is all-in for 4 (a full raise); the blinds, with chips, are heads-up
    hand = Hand(Rules(FL, 1, 2, cap_heads_up=False), [1000, 1000, 4], button=2, deck=Deck(1))
    hand.raise_to(4)  # the button, all-in: 2 bets
    assert hand.all_in[2]
    hand.raise_to(6)  # small blind: 3 bets
    hand.raise_to(8)  # big blind: 4 bets, the cap of three or more players
    assert hand.legal().min_to == 10  # two players with chips raise without limit
    hand.raise_to(10)
    assert hand.legal().min_to == 12


def test_FL_4_a_capped_round_stays_capped_when_a_fold_leaves_two() -> None:
    hand = Hand(Rules(FL, 1, 2, cap_heads_up=False), [1000] * 4, button=3, deck=Deck(1))
    hand.raise_to(4)  # under the gun
    hand.raise_to(6)  # the button
    hand.raise_to(8)  # the small blind caps it: 4 bets, four players
    hand.fold()  # the big blind
    hand.fold()  # under the gun: two players left
    lg = hand.legal()
    assert lg.player == 3 and lg.call == 2
    assert lg.min_to is None and lg.no_raise == "capped"


def test_FL_5_short_all_ins_that_together_reach_half_a_bet_act_as_a_raise() -> None:
    # A bets 100; B all-in for 130 and C all-in for 160, each short, together 60 over the bet
    hand = flop_hand(Rules(FL, 50, 100), [5000, 130, 160, 5000], button=3)
    hand.raise_to(100)  # A
    hand.raise_to(130)  # B all-in: less than half a bet, no raise
    hand.raise_to(160)  # C all-in: 60 over the last full bet, half a bet or more: a raise
    lg = hand.legal()
    assert lg.player == 3 and lg.call == 160 and lg.min_to == 260  # a full bet over 160
    hand.call()
    lg = hand.legal()
    assert lg.player == 0 and lg.call == 60 and lg.min_to == 260  # reopened for A


def test_FL_6_one_short_all_in_under_half_a_bet_is_completed() -> None:
    hand = flop_hand(Rules(FL, 50, 100), [5000, 140, 5000], button=2)
    hand.raise_to(100)
    hand.raise_to(140)  # 40 over the bet: not a raise
    assert hand.legal().min_to == 200  # the next player completes to a full bet
    hand.call()
    assert hand.legal().player == 0 and hand.legal().min_to is None  # A may not raise


def test_BBA_1_big_blind_ante_heads_up_blind_first() -> None:
    from tapete.core.events import Posted
    from tapete.history import phh

    # heads-up, p1 is the big blind; its 3 chips pay the blind of 2, then 1 of the ante
    text = ("variant = 'NT'\nantes = [0, 2]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
            "starting_stacks = [3, 200]\nactions = ['d dh p1 AsAd', 'd dh p2 KsKd']\n")
    record = phh.loads(text)
    assert record.rules.big_blind_ante and record.rules.ante == 2
    from tapete.history.replay import replay

    hand = replay(record).engine
    assert hand is not None
    posts = [(e.player, e.kind, e.amount) for e in hand.events if isinstance(e, Posted)]
    assert posts == [(0, "big blind", 2), (1, "small blind", 1), (0, "ante", 1)]
    assert hand.all_in[0] and hand.legal().call == 1  # the button completes the small blind


def test_BBA_2_big_blind_ante_is_not_reduced_heads_up() -> None:
    hand = Hand(Rules(NL, 1, 2, ante=2, big_blind_ante=True), [200, 200], button=0,
                deck=Deck(1))
    assert hand.antes == (0, 2) and hand.totals == [1, 4]


# --- 4. High-low pots (Omaha hi-lo eight or better) -----------------------------------------

HILO_BOARD = "2h4d7sKcKd"  # A-A: aces up; A-3: the low 7-4-3-2-A; 5-6: the low 7-6-5-4-2


def hilo_hand(stacks: list[int], button: int, holes: str, boards: str = HILO_BOARD,
              runs: int = 1) -> Hand:
    """A pot-limit Omaha hi-lo hand (blinds 1/2) with ``holes`` dealt from the button's left
    and then ``boards`` (every run's board in turn)."""
    from tapete.core.automation import Automation
    from tapete.core.game import OMAHA_HI_LO

    rules = Rules(PL, 1, 2, game=OMAHA_HI_LO)
    auto = Automation.DEAL | Automation.SHOW if runs > 1 else None
    return Hand(rules, stacks, button=button, deck=Deck.stacked(parse_cards(holes + boards)),
                auto_showdown=True, automations=auto)


def halves(hand: Hand) -> list[tuple[int, int, int, int, str]]:
    """Every award as (pot, run, player, chips, half)."""
    from tapete.core.events import Awarded

    return [(e.pot, e.run, e.player, e.amount, e.half) for e in hand.events
            if isinstance(e, Awarded)]


def shove(hand: Hand) -> None:
    """Raise the pot until both players are all-in (both show: an all-in hand is tabled)."""
    while not hand.done:
        lg = hand.legal()
        if lg.max_to:
            hand.raise_to(lg.max_to)
        else:
            hand.check_or_call()


def test_HL_1_a_quartered_pot() -> None:
    hand = hilo_hand([100, 100], 1, "AcAh3cQs" "As3d9h9c")
    shove(hand)
    assert hand.results[0].amount == 200
    assert halves(hand) == [(0, 0, 0, 100, "high"), (0, 0, 0, 50, "low"), (0, 0, 1, 50, "low")]
    assert hand.stacks == [150, 50]
    assert hand.results[0].low_winners == (0, 1)
    assert hand.results[0].low_shares == ((0, 50), (1, 50))


def test_HL_2_the_odd_chip_goes_high_then_by_seat() -> None:
    hand = hilo_hand([100] * 4, 3, "5s6s8d8h" "AcAhQsQh" "As3d9h9c" "Ad3hTsTd")
    hand.call()  # seat 2
    hand.call()  # seat 3
    hand.fold()  # the small blind
    while not hand.done:
        hand.check()
    assert halves(hand) == [(0, 0, 1, 4, "high"), (0, 0, 2, 2, "low"), (0, 0, 3, 1, "low")]
    assert hand.net() == [-1, 2, 0, -1]


def test_HL_3_a_side_pot_with_its_own_low() -> None:
    hand = hilo_hand([100, 100, 7], 2, "AcAhQsQh" "5c6d9h9c" "As3dTsTd")
    hand.raise_to(7)  # the button, all-in
    hand.raise_to(20)
    hand.call()
    while not hand.done:
        hand.check()
    assert [(r.amount, r.eligible) for r in hand.results] == [(21, (0, 1, 2)), (26, (0, 1))]
    assert halves(hand) == [(0, 0, 0, 11, "high"), (0, 0, 2, 10, "low"),
                            (1, 0, 0, 13, "high"), (1, 0, 1, 13, "low")]
    assert hand.net() == [4, -7, 3]


def test_HL_4_no_low_the_high_scoops() -> None:
    hand = hilo_hand([100, 100], 1, "AcAhQsQh" "As3d4c5c", boards="9hTdJsKcKd")
    shove(hand)
    assert halves(hand) == [(0, 0, 0, 200, "high")]
    assert hand.results[0].low_winners == () and hand.net() == [100, -100]


def test_HL_5_run_twice_each_run_splits_high_low() -> None:
    hand = hilo_hand([100, 7, 7], 2, "5s6s8d8c" "AcAhQsQh" "AsTd3dTs",
                     boards="9cJdQdKh8h" + HILO_BOARD, runs=2)
    hand.raise_to(7)
    hand.fold()
    hand.call()
    assert hand.needs_runs()
    hand.set_runs(2)
    assert [len(b) for b in hand.boards] == [5, 5] and hand.done
    assert halves(hand) == [(0, 0, 2, 8, "high"), (0, 1, 1, 4, "high"), (0, 1, 2, 3, "low")]
    assert hand.net() == [-1, -3, 4]


def test_HL_6_identical_hands_for_high_and_low_split_as_evenly_as_possible() -> None:
    # both wheels (A-2 with 3-4-5): the same high and the same low; 66 is 33 and 33, the odd
    # chip of the high half to seat 0 (left of the button), of the low half to seat 1
    hand = hilo_hand([33, 33], 1, "As2s9h9c" "Ad2d9dTc", boards="3h4d5sKcQd")
    shove(hand)
    assert hand.results[0].amount == 66
    assert halves(hand) == [(0, 0, 0, 17, "high"), (0, 0, 1, 16, "high"),
                            (0, 0, 0, 16, "low"), (0, 0, 1, 17, "low")]
    assert hand.stacks == [33, 33]


def test_HL_7_two_identical_wheels_in_a_three_way_pot() -> None:
    # seats 0 and 2 hold the wheel, seat 1 three kings (no low): 150 is 75 and 75
    hand = hilo_hand([50, 50, 50], 2, "As2s9h9c" "KsKhQsQh" "Ad2d9dTc", boards="3h4d5sKcQd")
    shove(hand)
    assert hand.results[0].amount == 150
    assert halves(hand) == [(0, 0, 0, 38, "high"), (0, 0, 2, 37, "high"),
                            (0, 0, 0, 37, "low"), (0, 0, 2, 38, "low")]
    assert hand.stacks == [75, 0, 75]


def test_HL_8_no_player_takes_two_odd_chips_of_one_split() -> None:
    # board 3h 4d 7s Kc Kd. Seats 1 and 3 hold Q-Q and A-2 (kings and queens; the
    # low 7-4-3-2-A), seat 2 A-2 and a pair of kings at best: the same low, a worse high
    hand = hilo_hand([100, 23, 23, 23], 3, "JcJhTd9d" "As2hQsQh" "Ac2c9h8h" "Ad2dQdQc",
                     boards="3h4d7sKcKd")
    while not hand.done:
        lg = hand.legal()
        if lg.player == 0:
            hand.fold()
        elif lg.max_to:
            hand.raise_to(lg.max_to)
        else:
            hand.check_or_call()
    assert hand.results[0].amount == 70
    assert halves(hand) == [(0, 0, 1, 18, "high"), (0, 0, 3, 17, "high"),
                            (0, 0, 1, 11, "low"), (0, 0, 2, 12, "low"), (0, 0, 3, 12, "low")]
    assert hand.stacks == [99, 29, 12, 29]


# --- Rulings: missed blinds and the straddle ------------------------------------------------

def _returns_after_the_big_blind(rules: Rules, straddlers: tuple[int, ...]) -> Hand:
    """Four players at a six-seat table; seat 3 sits out while the big blind passes it, comes
    back posting (``post_dead``), and is dealt in on the hand where it is first after the big
    blind (button 0, seat 1 the small blind, seat 2 the big blind)."""
    from tapete.core.table import Table

    table = Table(rules, 6)
    for seat in range(4):
        table.sit(seat, f"P{seat}", 200)

    def play() -> None:
        hand = table.start_hand(Deck(0))
        while not hand.done:
            if hand.legal().fold:
                hand.fold()
            else:
                hand.check()
        table.end_hand()

    play()  # button 0, big blind seat 2
    table.sit_out(3)
    play()  # the big blind passes seat 3: it owes both blinds
    owed = table.seats[3]
    assert owed is not None and owed.missed_big and owed.missed_small
    table.sit_in(3, post_dead=True)
    play()  # button 2, big blind 1: seat 3 sits between them and waits
    hand = table.start_hand(Deck(1), straddlers=straddlers)
    assert (table.button_seat, table.small_blind_seat, table.big_blind_seat) == (0, 1, 2)
    assert not owed.missed_big and not owed.missed_small  # paid in this hand
    return hand


def _straddles_and_posts_the_small_blind_dead(hand: Hand) -> None:
    from tapete.core.events import Posted

    p = 3  # seats 0 to 3 are players 0 to 3
    assert hand.straddles[p] == 4 and hand.dead[p] == 1
    assert [(e.kind, e.amount) for e in hand.events
            if isinstance(e, Posted) and e.player == p] == [("dead", 1), ("straddle", 4)]
    assert hand.bets[p] == 4 and hand.totals[p] == 5  # the dead chip is no part of the bet
    assert hand.pot_total() == 1 + 2 + 4 + 1
    assert hand.actor == 0 and options(hand)[:4] == (True, False, 4, 8)


def test_MB_1_a_returning_player_who_straddles_posts_the_small_blind_dead() -> None:
    _straddles_and_posts_the_small_blind_dead(
        _returns_after_the_big_blind(Rules(NL, 1, 2), straddlers=(3,)))


def test_MB_2_the_automatic_straddle_keeps_the_dead_small_blind_owed() -> None:
    _straddles_and_posts_the_small_blind_dead(
        _returns_after_the_big_blind(Rules(NL, 1, 2, straddle=4), straddlers=()))
