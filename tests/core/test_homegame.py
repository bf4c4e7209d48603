"""The home-game options of docs/rules.md: straddles and run it N times (section 1 and 4), and
the rulings of "Home games": bomb pots, double boards and the 7-2 bounty, each vector as a
test of its name (tests/test_rules_doc.py finds them here too)."""

from __future__ import annotations

import pytest

from tapete.core import events as ev
from tapete.core.automation import Automation
from tapete.core.cards import Deck, parse_cards
from tapete.core.errors import IllegalAction, SetupError
from tapete.core.game import OMAHA
from tapete.core.hand import Hand, HandError, Phase
from tapete.core.pots import Pot
from tapete.core.rules import Rules, RulesError, Structure
from tapete.core.setup import HandSetup

NL = Rules()  # no limit 1/2
BOUNTY = Rules(bounty_72=5)


def options(hand: Hand) -> tuple[bool, bool, int, int | None, int | None]:
    lg = hand.legal()
    return lg.fold, lg.check, lg.call, lg.min_to, lg.max_to


def deal(hand: Hand, *holes: str) -> None:
    """Each player's hole cards, in the order the hand asks for them."""
    while (need := hand.needs_cards()) is not None and need[0] == "hole":
        hand.deal_hole(need[1], parse_cards(holes[need[1]]))


def board(hand: Hand, *cards: str) -> None:
    for c in cards:
        hand.deal_board(parse_cards(c))


def awards(hand: Hand) -> list[tuple[int, int, int, int]]:
    """(pot, run, player, chips) of every award."""
    return [(e.pot, e.run, e.player, e.amount) for e in hand.events
            if isinstance(e, ev.Awarded)]


def bounties(hand: Hand) -> list[tuple[int, int, int]]:
    """(payer, collector, chips) of every 7-2 bounty payment."""
    return [(e.payer, e.player, e.amount) for e in hand.events if isinstance(e, ev.BountyPaid)]


def check_down(hand: Hand) -> None:
    while hand.phase is Phase.BETTING:
        hand.check()


# --- 1. Straddles ----------------------------------------------------------------------------

def test_ST_1_a_straddle_is_faced_in_full_and_doubles_the_smallest_raise() -> None:
    hand = Hand(NL, [200] * 4, button=3, blinds=[1, 2, 0, 0], straddles=[0, 0, 4, 0])
    deal(hand, "AhKd", "7c2d", "QsQh", "JcTc")
    assert hand.actor == 3 and options(hand) == (True, False, 4, 8, 200)
    hand.raise_to(10)
    assert hand.actor == 0 and options(hand) == (True, False, 9, 16, 200)


def test_ST_2_the_re_straddler_acts_last_preflop() -> None:
    hand = Hand(NL, [200] * 5, button=4, blinds=[1, 2, 0, 0, 0], straddles=[0, 0, 4, 8, 0])
    deal(hand, "AhKd", "7c2d", "QsQh", "JcTc", "9s9d")
    assert hand.actor == 4 and options(hand) == (True, False, 8, 16, 200)
    for p in (4, 0, 1, 2):
        hand.call(p)
    assert hand.actor == 3 and options(hand) == (False, True, 0, 16, 200)
    hand.check(3)
    board(hand, "2c3h4s")
    assert hand.street == 1 and hand.actor == 0


# --- 4. Run it N times -----------------------------------------------------------------------

RUNS = ("2c3d9h", "Js", "Td"), ("4c5c6h", "7s", "8d"), ("Qh2d3h", "8s", "9d")


def short_all_in(stacks: list[int], runs: int) -> Hand:
    """Button 2 raises to the middle stack; the short small blind and the big blind call
    all-in; the board is run ``runs`` times (RUNS) and the hands are shown."""
    hand = Hand(NL, stacks, button=2)
    deal(hand, "AhAd", "KhKd", "QsQc")
    hand.raise_to(stacks[1], 2)
    hand.call(0)
    hand.call(1)
    assert hand.betting_over and hand.needs_cards() == ("board", 0, 3)
    hand.set_runs(runs)
    for run in RUNS[:runs]:
        board(hand, *run)
    hand.settle()
    assert hand.done
    return hand


def test_RUN_1_run_twice_with_a_side_pot_and_odd_chips() -> None:
    hand = short_all_in([25, 100, 200], 2)
    assert [(r.amount, r.eligible) for r in hand.results] == [(75, (0, 1, 2)), (150, (1, 2))]
    assert awards(hand) == [(0, 0, 0, 38), (0, 1, 0, 13), (0, 1, 1, 12), (0, 1, 2, 12),
                            (1, 0, 1, 75), (1, 1, 1, 38), (1, 1, 2, 37)]
    assert hand.stacks == [51, 125, 149]


def test_RUN_2_run_three_times_with_a_side_pot_and_odd_chips() -> None:
    hand = short_all_in([25, 75, 200], 3)
    assert [(r.amount, r.eligible) for r in hand.results] == [(75, (0, 1, 2)), (100, (1, 2))]
    assert awards(hand) == [(0, 0, 0, 25), (0, 1, 0, 9), (0, 1, 1, 8), (0, 1, 2, 8),
                            (0, 2, 2, 25), (1, 0, 1, 34), (1, 1, 1, 17), (1, 1, 2, 16),
                            (1, 2, 2, 33)]
    assert hand.stacks == [34, 59, 207]


def test_RUN_3_the_board_runs_only_as_many_times_as_the_deck_can_deal() -> None:
    rules = Rules(Structure.POT_LIMIT, 1, 2, game=OMAHA)
    hand = Hand(rules, [100] * 10, deck=Deck(3), automations=Automation.DEAL | Automation.SHOW)
    while hand.actor is not None:  # everyone all in preflop
        lg = hand.legal()
        if lg.max_to:
            hand.raise_to(lg.max_to)
        else:
            hand.check_or_call()
    assert hand.needs_runs() and all(hand.all_in)
    before = list(hand.events)
    with pytest.raises(IllegalAction) as info:
        hand.set_runs(3)
    message = info.value.message
    assert "3" in message.en and "1 to 2" in message.en and "12" in message.en
    assert message.es != message.en and "3" in message.es and "12" in message.es
    assert hand.events == before and hand.needs_runs() and len(hand.boards) == 1
    assert hand.max_runs() == 2  # 52 - 40 hole cards = 12 left: two boards of 5, not three
    for bad in (0, 5, True, "2", 2.0):
        with pytest.raises(HandError):
            hand.set_runs(bad)
    assert hand.events == before
    hand.set_runs(2)
    assert hand.done and [len(b) for b in hand.boards] == [5, 5]
    assert sum(hand.stacks) == 1000


def test_the_runs_the_deck_allows_count_the_cards_dealt() -> None:
    # hold'em heads-up, cards dealt by hand, all in preflop: 48 left, 5 a run: four (the most)
    hand = Hand(NL, [50, 50], button=0)
    deal(hand, "AhAd", "KhKd")
    hand.raise_to(50)
    hand.call()
    assert hand.needs_cards() == ("board", 0, 3) and hand.max_runs() == 4
    # 23 players of hold'em from a deck: 52 - 46 = 6 left, one board of 5
    many = Hand(NL, [2] * 23, deck=Deck(1), automations=Automation.DEAL | Automation.SHOW)
    while many.actor is not None:
        many.check_or_call()
    assert many.needs_runs() and many.max_runs() == 1
    with pytest.raises(HandError):
        many.set_runs(2)
    many.set_runs(1)
    assert many.done and len(many.boards) == 1


# --- Home games: bomb pots -------------------------------------------------------------------

def posts(hand: Hand) -> list[tuple[int, int, str, bool]]:
    return [(e.player, e.amount, e.kind, e.all_in) for e in hand.events
            if isinstance(e, ev.Posted)]


def test_BP_1_a_bomb_pot_antes_and_bets_first_on_the_flop() -> None:
    hand = Hand(NL, [200] * 4, button=3, bomb=10)
    assert posts(hand) == [(p, 10, ev.BOMB, False) for p in range(4)]
    deal(hand, "AhKd", "7c2d", "QsQh", "JcTc")
    assert hand.phase is Phase.DEAL and hand.needs_cards() == ("board", 0, 3)
    assert not any(isinstance(e, ev.Acted) for e in hand.events)
    board(hand, "2c3h4s")
    assert hand.street == 1 and hand.actor == 0 and hand.pot_total() == 40
    assert options(hand) == (False, True, 0, 2, 190)


def test_BP_2_a_short_stack_posts_what_it_has_and_is_all_in() -> None:
    hand = Hand(NL, [200, 6, 200], button=2, bomb=10)
    assert posts(hand) == [(0, 10, ev.BOMB, False), (1, 6, ev.BOMB, True),
                           (2, 10, ev.BOMB, False)]
    assert hand.pots() == [Pot(18, (0, 1, 2)), Pot(8, (0, 2))]
    deal(hand, "AhKd", "7c2d", "QsQh")
    board(hand, "2c3h4s")
    assert hand.actor == 0
    hand.raise_to(20)
    assert hand.actor == 2  # the all-in player has no more decisions
    hand.call()
    assert hand.pots() == [Pot(18, (0, 1, 2)), Pot(48, (0, 2))]


def test_BP_3_an_unmatched_bomb_ante_is_returned_and_the_board_runs_out() -> None:
    hand = Hand(NL, [200, 8], button=1, bomb=10)
    deal(hand, "AhKd", "7c2d")
    assert hand.returned == [2, 0] and hand.betting_over
    assert hand.pots() == [Pot(16, (0, 1))]
    for cards in ("2c3h4s", "9d", "Js"):  # street by street, nobody to act
        assert hand.phase is Phase.DEAL
        assert hand.needs_cards() == ("board", 0, len(parse_cards(cards)))
        board(hand, cards)
    assert hand.phase is Phase.SHOWDOWN


def test_a_bomb_pot_has_no_blinds_straddles_or_antes() -> None:
    for given in ({"blinds": [1, 2, 0]}, {"straddles": [0, 0, 4]}, {"antes": [1, 1, 1]}):
        with pytest.raises(HandError) as info:
            Hand(NL, [200] * 3, bomb=10, **given)  # type: ignore[arg-type]
        assert "bomb" in info.value.message.en and "bote bomba" in info.value.message.es
    for bad in (-1, 2.5, True):
        with pytest.raises(HandError):
            Hand(NL, [200] * 3, bomb=bad)  # type: ignore[arg-type]
    # the table's rules post nothing in a bomb pot: no blind, straddle or ante
    hand = Hand(Rules(ante=1, straddle=4), [200] * 4, button=3, bomb=10)
    assert {kind for _, _, kind, _ in posts(hand)} == {ev.BOMB}


# --- Home games: double boards ---------------------------------------------------------------

def test_DB_1_a_double_board_deals_both_boards_then_bets_and_splits_each_pot() -> None:
    hand = Hand(NL, [200] * 3, button=2, bomb=11, double_board=True)
    deal(hand, "AhAd", "KhKd", "7c2c")
    assert hand.needs_cards() == ("board", 0, 3)
    board(hand, "As8h3c")
    assert hand.phase is Phase.DEAL and hand.needs_cards() == ("board", 1, 3)
    board(hand, "KsQd5h")
    assert hand.phase is Phase.BETTING and hand.actor == 0 and hand.street == 1
    for street in (("4d", "6c"), ("9s", "Jd")):
        check_down(hand)
        assert hand.needs_cards() == ("board", 0, 1)
        board(hand, *street)
    check_down(hand)
    hand.settle()
    assert [len(b) for b in hand.boards] == [5, 5]
    assert awards(hand) == [(0, 0, 0, 17), (0, 1, 1, 16)]
    assert hand.stacks == [206, 205, 189]
    assert not hand.needs_runs()
    with pytest.raises(HandError):
        hand.set_runs(2)


def test_DB_2_a_double_board_splits_the_side_pot_too() -> None:
    hand = Hand(NL, [200, 5, 200], button=2, bomb=10, double_board=True)
    deal(hand, "AhAd", "KhKd", "QhQd")
    board(hand, "KcQs2d", "As6c4s")
    hand.raise_to(20)
    hand.call()
    board(hand, "3c", "8c")
    check_down(hand)
    board(hand, "9h", "Js")
    check_down(hand)
    hand.settle()
    assert [(r.amount, r.eligible) for r in hand.results] == [(15, (0, 1, 2)), (50, (0, 2))]
    assert awards(hand) == [(0, 0, 1, 8), (0, 1, 0, 7), (1, 0, 2, 25), (1, 1, 0, 25)]
    assert hand.stacks == [202, 8, 195]


def test_DB_3_a_pot_limit_omaha_double_board_bomb_pot() -> None:
    hand = Hand(Rules(Structure.POT_LIMIT, game=OMAHA), [100] * 4, button=3, bomb=5,
                double_board=True)
    deal(hand, "AhAdKhKd", "QhQdJhJd", "ThTd9h9d", "8h8d7h7d")
    board(hand, "2c3c4c", "2s3s4s")
    assert hand.actor == 0 and options(hand) == (False, True, 0, 2, 20)


def test_a_double_board_is_refused_when_one_deck_cannot_deal_it() -> None:
    Hand(NL, [100] * 21, double_board=True)
    with pytest.raises(HandError) as info:
        Hand(NL, [100] * 22, double_board=True)
    assert info.value.message.es != info.value.message.en
    with pytest.raises(HandError):
        Hand(NL, [100] * 3, double_board=1)  # type: ignore[arg-type]


def test_a_hand_the_others_fold_is_won_whole_on_a_double_board() -> None:
    hand = Hand(NL, [200] * 3, button=2, double_board=True)
    deal(hand, "AhAd", "KhKd", "7c2c")
    hand.fold()
    hand.fold()
    assert hand.done and awards(hand) == [(0, 0, 1, 2)]  # the 1 over the small blind back


# --- Home games: the 7-2 bounty --------------------------------------------------------------

def test_SD_1_a_seven_deuce_that_wins_the_showdown_collects_from_everyone_dealt_in() -> None:
    hand = Hand(BOUNTY, [100] * 3, button=2)
    deal(hand, "7c2h", "KsKd", "QsQc")
    hand.fold(2)
    hand.call(0)
    hand.check(1)
    board(hand, "7d7s2c")
    check_down(hand)
    board(hand, "9h")
    check_down(hand)
    board(hand, "Jd")
    check_down(hand)
    hand.settle()
    assert awards(hand) == [(0, 0, 0, 4)]
    assert bounties(hand) == [(1, 0, 5), (2, 0, 5)]
    assert hand.stacks == [112, 93, 95] and hand.bounty == [10, -5, -5]
    assert hand.events[-1] == ev.Ended((112, 93, 95))  # the stacks after the hand include it
    assert [ev.from_json(ev.to_json(e)) for e in hand.events] == hand.events


def fold_to_the_button(stacks: list[int], cards: str = "7h2d") -> Hand:
    """The button raises to 6 and both blinds fold."""
    hand = Hand(BOUNTY, stacks, button=2)
    deal(hand, "AhAd", "KsKd", cards)
    hand.raise_to(6, 2)
    hand.fold(0)
    hand.fold(1)
    return hand


def test_SD_2_a_hand_won_uncontested_collects_only_when_the_seven_deuce_is_shown() -> None:
    hand = fold_to_the_button([100] * 3)
    assert hand.phase is Phase.SHOWDOWN and hand.lone_winner() == 2
    assert hand.needs_showdown() == 2
    hand.show(2)
    assert bounties(hand) == [(0, 2, 5), (1, 2, 5)] and hand.stacks == [94, 93, 113]
    hand = fold_to_the_button([100] * 3)
    hand.muck(2)  # not shown: won, no bounty
    assert hand.done and not hand.shown and bounties(hand) == []
    assert hand.stacks == [99, 98, 103]
    hand = fold_to_the_button([100] * 3)
    hand.settle()  # the rules' choice: a seven-deuce is shown
    assert bounties(hand) == [(0, 2, 5), (1, 2, 5)]
    hand = fold_to_the_button([100] * 3, "7h3d")
    hand.settle()  # anything else is not
    assert hand.done and not hand.shown and bounties(hand) == []
    hand = fold_to_the_button([100] * 3, "7h3d")
    hand.show(2)  # shown, but no seven-deuce
    assert hand.done and bounties(hand) == []


def test_SD_3_a_payer_short_of_the_bounty_pays_what_is_left() -> None:
    hand = fold_to_the_button([100, 5, 100])
    hand.show(2)
    assert bounties(hand) == [(0, 2, 5), (1, 2, 3)] and hand.stacks == [94, 0, 111]


def royal_board_showdown(holes: tuple[str, str, str]) -> Hand:
    """The button folds, the blinds check the royal flush on the board down, and show."""
    hand = Hand(BOUNTY, [100] * 3, button=2)
    deal(hand, *holes)
    hand.fold(2)
    hand.call(0)
    hand.check(1)
    for cards in ("AhKhQh", "Jh", "Th"):
        board(hand, cards)
        check_down(hand)
    hand.show(0)
    hand.show(1)
    assert hand.done
    return hand


def test_SD_4_a_seven_deuce_that_splits_a_pot_collects_in_full() -> None:
    hand = royal_board_showdown(("7c2d", "9s8s", "QsQc"))
    assert awards(hand) == [(0, 0, 0, 2), (0, 0, 1, 2)]
    assert bounties(hand) == [(1, 0, 5), (2, 0, 5)] and hand.stacks == [110, 95, 95]


def test_SD_5_a_seven_deuce_that_wins_one_run_collects_once() -> None:
    hand = Hand(BOUNTY, [50, 100, 100], button=2)
    deal(hand, "7c2d", "KsKd", "QsQc")
    hand.fold(2)
    hand.raise_to(50, 0)
    hand.call(1)
    hand.set_runs(2)
    board(hand, "7h7s2c", "9h", "Jd", "3c4c8h", "Ts", "Qd")
    hand.settle()
    assert awards(hand) == [(0, 0, 0, 50), (0, 1, 1, 50)]
    assert bounties(hand) == [(1, 0, 5), (2, 0, 5)] and hand.stacks == [60, 95, 95]


def test_SD_6_two_seven_deuces_that_split_do_not_pay_each_other() -> None:
    hand = royal_board_showdown(("7c2d", "7d2c", "QsQc"))
    assert bounties(hand) == [(2, 0, 5), (2, 1, 5)] and hand.stacks == [105, 105, 90]


def test_SD_7_taking_back_unmatched_chips_of_ones_own_is_no_win() -> None:
    hand = Hand(Rules(ante=10, bounty_72=5), [100, 4], button=0)
    deal(hand, "7c2d", "KsKd")
    board(hand, "3c4c8h", "Ts", "Qd")
    hand.settle()
    assert [(r.amount, r.eligible, r.winners) for r in hand.results] == [
        (8, (0, 1), (1,)), (6, (0,), (0,))]
    assert 0 in hand.shown and bounties(hand) == [] and hand.stacks == [96, 8]


def test_a_hand_waiting_for_the_winner_s_choice_clones_and_replays() -> None:
    hand = fold_to_the_button([100] * 3)
    other = hand.clone()
    assert other.lone_winner() == 2 and other.phase is Phase.SHOWDOWN
    other.show(2)
    hand.show(2)
    assert other.events == hand.events
    again = Hand.from_events(hand.rules, hand.starting_stacks, hand.events,
                             **hand.setup.hand_args())
    assert again.stacks == hand.stacks and again.bounty == hand.bounty and again.done


def test_the_automatic_showdown_shows_a_lone_seven_deuce() -> None:
    hand = Hand(BOUNTY, [100] * 3, button=2, automations=Automation.SHOW)
    deal(hand, "AhAd", "KsKd", "7h2d")
    hand.raise_to(6, 2)
    hand.fold(0)
    hand.fold(1)
    assert hand.done and bounties(hand) == [(0, 2, 5), (1, 2, 5)]


def test_the_bounty_is_a_hold_em_rule_of_whole_chips() -> None:
    for bad in ({"bounty_72": -1}, {"bounty_72": 1.5}, {"bounty_72": 5, "game": OMAHA}):
        with pytest.raises(RulesError) as info:
            Rules(**bad)  # type: ignore[arg-type]
        assert info.value.message.es and info.value.message.es != info.value.message.en
    rules = Rules(bounty_72=25)
    assert Rules.from_json(rules.to_json()) == rules
    with pytest.raises(RulesError):
        Rules.from_json({"bounty_72": "5"})


def test_the_setup_carries_the_bomb_and_the_double_board_losslessly() -> None:
    hand = Hand(BOUNTY, [200, 50, 300], button=1, bomb=20, double_board=True,
                names=["Ana", "Bea", "Cy"], hand_id="7")
    setup = hand.setup
    assert (setup.bomb, setup.double_board) == (20, True)
    data = setup.to_json()
    assert data["bomb"] == 20 and data["double_board"] is True
    assert HandSetup.from_json(data) == setup
    plain = Hand(NL, [200] * 2).setup.to_json()
    assert "bomb" not in plain and "double_board" not in plain  # written only when set
    assert HandSetup.from_json(plain).bomb == 0
    again = Hand.from_setup(setup)
    assert again.events == hand.events
    for field, value in (("bomb", -5), ("bomb", "20"), ("double_board", 1)):
        with pytest.raises(SetupError) as info:
            HandSetup.from_json({**data, field: value})
        assert field in info.value.message.en and info.value.message.es
