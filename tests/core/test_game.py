"""The game as data: Hand deals and settles what Rules.game says."""

from __future__ import annotations

import pytest

from tapete.core import events as ev
from tapete.core.cards import Deck, parse_cards
from tapete.core.game import HOLDEM, OMAHA_HI_LO, Game, GameError, HandForm, best_hand
from tapete.core.hand import Hand, HandError
from tapete.core.rules import Rules, RulesError

# four hole cards, two of them used: how Omaha will be declared (not offered yet)
TWO_PLUS_THREE = Game("two-plus-three", 4, (3, 1, 1), HandForm.TWO_PLUS_THREE)


def test_holdem() -> None:
    assert Rules().game is HOLDEM
    assert (HOLDEM.hole_cards, HOLDEM.streets, HOLDEM.board_cards, HOLDEM.last_street) == (
        2, (3, 1, 1), 5, 3)
    assert [HOLDEM.street_of(k) for k in (0, 3, 4)] == [1, 2, 3]
    assert [HOLDEM.cards_due(k) for k in (0, 3, 4, 5)] == [3, 1, 1, 0]


def test_best_hand_by_form() -> None:
    board = parse_cards("Ah Kh Qh 2c 3d")
    hole = parse_cards("Jh Th 9s 9d")
    # any five: the royal flush with Jh Th; two plus three: the same two hole cards make it too
    royal = best_hand(HOLDEM, hole[:2], board)
    assert best_hand(TWO_PLUS_THREE, hole, board) == royal
    # a board of four hearts: one heart in the hand makes a flush (here a royal one) from any
    # five cards, and none when exactly two hole cards must play
    four_hearts = parse_cards("Ah Kh Qh Jh 2c")
    one_heart = parse_cards("Th 9c 8c 7d")
    assert best_hand(HOLDEM, one_heart[:2], four_hearts) == royal
    assert best_hand(TWO_PLUS_THREE, one_heart, four_hearts) < royal


def test_hand_deals_the_game() -> None:
    rules = Rules(game=TWO_PLUS_THREE)
    h = Hand(rules, [100, 100, 100], button=0, deck=Deck(seed=5), auto_showdown=True)
    holes = [e.cards for e in h.events if isinstance(e, ev.HoleDealt)]
    assert len(holes) == 3 and all(c is not None and len(c) == 4 for c in holes)
    while not h.done:
        h.check_or_call()
    boards = [len(e.cards) for e in h.events if isinstance(e, ev.BoardDealt)]
    assert boards == [3, 1, 1] and len(h.board) == 5
    assert sum(h.stacks) == 300 and h.results


def test_cards_by_hand_follow_the_game() -> None:
    h = Hand(Rules(game=TWO_PLUS_THREE), [100, 100], button=0)
    assert h.needs_cards() == ("hole", 1, 4)
    with pytest.raises(HandError):
        h.deal_hole(1, parse_cards("Ah Kh"))
    h.deal_hole(1, parse_cards("Ah Kh Qh Jh"))


def test_a_high_low_game_is_played_and_the_json_is_checked() -> None:
    hi_lo = Game("hi-lo", 4, (3, 1, 1), HandForm.TWO_PLUS_THREE, True)
    hand = Hand(Rules(game=hi_lo), [9, 9], deck=Deck(1), auto_showdown=True)
    while not hand.done:
        hand.check_or_call()
    assert sum(hand.stacks) == 18 and Game.from_json(hi_lo.to_json()) == hi_lo
    assert Game.from_json("omaha-hi-lo") is OMAHA_HI_LO and OMAHA_HI_LO.high_low
    assert Game.from_json(TWO_PLUS_THREE.to_json()) == TWO_PLUS_THREE
    assert Game.from_json("holdem") is HOLDEM
    for bad in ({"hole_cards": 0}, {"streets": [3, 0]}, {"form": "seven"}, {"x": 1}, [],
                "stud"):
        with pytest.raises(GameError) as err:
            Game.from_json(bad)
        assert err.value.message.es != err.value.message.en
    with pytest.raises(RulesError):
        Rules.from_json({"game": {"hole_cards": "2"}})
    r = Rules(game=TWO_PLUS_THREE)
    assert Rules.from_json(r.to_json()) == r
