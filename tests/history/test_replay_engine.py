"""Engine rules found while replaying the PHH dataset (2023 WSOP Event #43, big-blind antes).

A big-blind ante is dead money: it is in the pot but matches nobody's bet (TDA). Two rules
follow, each shown here on the engine directly:

* uncalled chips are the part of the last bet nobody called: compared with the other players'
  *bets*, never with their hand totals (which hold the ante);
* pots are cut from the live contributions; the dead ante goes to the main pot, so a player
  who calls an all-in big blind's whole bet is eligible for the whole pot.
"""

from __future__ import annotations

from tapete.core.cards import parse_cards
from tapete.core.hand import Hand
from tapete.core.rules import Rules


def _bb_ante_hand(stacks: list[int]) -> Hand:
    rules = Rules(small_blind=75, big_blind=150, ante=225, big_blind_ante=True)
    hand = Hand(rules, stacks, button=4, antes=[0, 225, 0, 0, 0])
    for p, cards in enumerate(["8d3s", "9d9c", "6c5h", "Js4h", "AcKc"]):
        hand.deal_hole(p, parse_cards(cards))
    return hand


def test_uncalled_bet_ignores_the_big_blind_ante() -> None:
    # WSOP 2023 #43 hand 3 in small: the big blind (who paid the ante) folds to a river raise;
    # the whole unmatched part of the raise goes back, the ante does not "call" any of it.
    hand = _bb_ante_hand([4100, 8775, 4550, 8525, 3750])
    hand.fold(2)
    hand.fold(3)
    hand.raise_to(300, 4)
    hand.fold(0)
    hand.raise_to(900, 1)
    hand.raise_to(2000, 4)
    hand.fold(1)
    assert hand.done
    assert hand.returned[4] == 1100  # 2000 - 900, not 2000 - (900 + 225)
    # p5 wins the blinds, the ante and the big blind's 900
    assert hand.stacks[4] == 3750 + 75 + 225 + 900
    assert hand.stacks[1] == 8775 - 225 - 900


def test_caller_of_an_all_in_big_blind_is_eligible_for_the_whole_pot() -> None:
    # WSOP 2023 #43 hand 68: the big blind (ante 225) moves all-in, AK calls and wins.
    hand = _bb_ante_hand([2275, 3575, 2675, 3125, 18050])
    hand.fold(2)
    hand.fold(3)
    hand.raise_to(300, 4)
    hand.fold(0)
    hand.raise_to(3350, 1)  # all-in: 150 blind + 3200; the 225 ante is dead
    hand.call(4)
    pots = hand.pots()
    assert [(x.amount, x.eligible) for x in pots] == [(75 + 225 + 2 * 3350, (1, 4))]
    hand.show(1)
    hand.show(4)
    for cards in ("2c8cTh", "Ah", "6d"):
        hand.deal_board(parse_cards(cards))
    assert hand.done
    assert hand.stacks == [2200, 0, 2675, 3125, 21700]
