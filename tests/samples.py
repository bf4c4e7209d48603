"""Hand histories and hands several test files (and benchmarks) share."""

from __future__ import annotations

import time

from tapete.core import events as ev
from tapete.core.cards import Deck
from tapete.core.hand import Hand
from tapete.core.rules import Rules, Structure
from tapete.server.storage import HandRow
from tapete.server.stored import stored_setup


def stored_row(hand: Hand, player_id: str, hand_id: str) -> HandRow:
    """A finished hand as the practice table stores it (the rules and setup by their codecs),
    for the person at player 0; its net is left at 0, so that storing it moves no chips."""
    setup = {**stored_setup(hand, 0), "hand_id": hand_id}
    return HandRow(hand_id=hand_id, player_id=player_id, session="s", number=1,
                   played_at=time.time(), rules=hand.rules.to_json(), setup=setup,
                   events=[ev.to_json(e) for e in hand.events], net=0, summary={})


def raise_war(actions: int) -> Hand:
    """A heads-up, deep hand of exactly ``actions`` actions (at least 8): min-raises, a call,
    then a check from each player on the flop, the turn and the river."""
    rules = Rules(structure=Structure.NO_LIMIT, small_blind=1, big_blind=2)
    hand = Hand(rules, [10**7, 10**7], deck=Deck(seed=2026), names=["Ana", "Bo"])
    for _ in range(actions - 7):
        hand.raise_to(hand.legal().min_to)
    hand.act("call")
    while not hand.done:
        if hand.actor is None:  # the showdown
            hand.settle()
        else:
            hand.act("check")
    return hand

# Ana all-in preflop with aces against Bruno's kings, heads-up: the flop and the turn are run
# out with every hand known (insurance quotes), and Ana doubles up (3,000 -> 6,000 chips: ICM)
ALL_IN_ACES_KINGS = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [50, 100]
min_bet = 100
starting_stacks = [3000, 7000]
actions = ['d dh p1 AsAd', 'd dh p2 KsKd', 'p2 cbr 300', 'p1 cbr 3000', 'p2 cc',
           'd db 2c7d9h', 'd db Jc', 'd db 4s']
players = ['Ana', 'Bruno']
"""

# seed 003: Ana all-in for 100, Bruno all-in for 300, Carla bets 500: main pot 300, side pot
# 400, 200 back to Carla
ABC = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [10, 20, 0]
min_bet = 20
starting_stacks = [100, 300, 500]
actions = ['d dh p1 AsAh', 'd dh p2 7c2d', 'd dh p3 QsQh', 'p3 cbr 500', 'p1 cc', 'p2 cc',
           'd db 3c8d9s', 'd db Jh', 'd db 4c']
players = ['Ana', 'Bruno', 'Carla']
hand = 7
"""
