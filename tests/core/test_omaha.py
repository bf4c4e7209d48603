"""Omaha in the engine: the games as data, a hand dealt and settled by the two-plus-three rule,
and a differential test of pot-limit Omaha against PokerKit's ``PotLimitOmahaHoldem``.

The differential test follows ``test_differential_pokerkit.py`` (its helpers are imported from
there, and so are its departures, D1..D14, named and counted the same way): random pot-limit
Omaha hands (fixed seeds) with 2 to 10 players, random blinds, antes, straddles and stacks (tiny
ones included), ``min_raise="last-raise"`` (PokerKit's pot-limit minimum, D2). Both engines get
the same cards. At every decision the legal options must agree (fold allowed, the amount to
check or call, the smallest raise-to and the pot-limit largest raise-to) and at the end the
finishing stacks, which the showdown of four hole cards decides, two of them with three of the
board. No departure of Omaha's own was found: seeds 0 to 2,999 were run once (2,884 hands
compared to the end, 2,657 of them at a showdown, 48,154 decisions) and every disagreement was
one of hold'em's betting departures, which the shared ``classify`` recognises: D3 (short big
blind or straddle), D4 (straddle minimum raise), D6 (odd chips), D8, D9, D11, D12 and D13.

Size: 300 hands by default (about 15 s on the 2-core machine); ``TAPETE_OMAHA_HANDS`` changes
it.
"""

from __future__ import annotations

import os
import random
import time
import warnings
from dataclasses import dataclass
from typing import Any

import pytest
from test_differential_pokerkit import (
    _AUTOMATIONS,
    _PK_CARD,
    Tally,
    play_against,
    pokerkit_forced,
    random_stacks,
)

from tapete.core import events as ev
from tapete.core.cards import Deck, parse_cards
from tapete.core.game import (
    GAMES,
    HOLDEM,
    OMAHA,
    OMAHA5,
    OMAHA5_HI_LO,
    OMAHA_HI_LO,
    Game,
    HandForm,
    best_hand,
)
from tapete.core.hand import Hand, HandError
from tapete.core.rules import MinRaise, Rules, Structure

pk = pytest.importorskip("pokerkit")

N_HANDS = int(os.environ.get("TAPETE_OMAHA_HANDS", "300"))
PLO = Rules(structure=Structure.POT_LIMIT, small_blind=1, big_blind=2, game=OMAHA)


# ---------------------------------------------------------------------------- the games

def test_the_games_are_data() -> None:
    assert GAMES == {"holdem": HOLDEM, "omaha": OMAHA, "omaha5": OMAHA5,
                     "omaha-hi-lo": OMAHA_HI_LO, "omaha5-hi-lo": OMAHA5_HI_LO}
    assert (OMAHA_HI_LO.hole_cards, OMAHA_HI_LO.form, OMAHA_HI_LO.high_low) == (
        4, HandForm.TWO_PLUS_THREE, True)
    assert (OMAHA.hole_cards, OMAHA.streets, OMAHA.form, OMAHA.high_low) == (
        4, (3, 1, 1), HandForm.TWO_PLUS_THREE, False)
    assert (OMAHA5.hole_cards, OMAHA5.form) == (5, HandForm.TWO_PLUS_THREE)
    assert (HOLDEM.max_players, OMAHA.max_players, OMAHA5.max_players) == (23, 11, 9)
    assert Game.from_json("omaha") is OMAHA and Game.from_json("omaha5") is OMAHA5
    assert Game.from_json(OMAHA.to_json()) is OMAHA  # the known value, not a copy
    odd = Game("omaha", 4, (3, 1, 1), HandForm.ANY_FIVE)  # same name, another game
    assert Game.from_json(odd.to_json()) == odd != OMAHA


@pytest.mark.parametrize("game", [OMAHA, OMAHA5])
def test_rules_json_round_trip(game: Game) -> None:
    for structure in Structure:
        r = Rules(structure=structure, small_blind=5, big_blind=10, ante=1, game=game)
        data = r.to_json()
        assert data["game"]["name"] == game.name and data["game"]["hole_cards"] == game.hole_cards
        back = Rules.from_json(data)
        assert back == r and back.game is game
    assert Rules.from_json({"game": game.name}).game is game


def test_the_structure_is_the_rules_not_the_game() -> None:
    for structure in Structure:
        rules = Rules(structure=structure, game=OMAHA)
        h = Hand(rules, [200, 200, 200], deck=Deck(seed=3), auto_showdown=True)
        while not h.done:
            h.check_or_call()
        assert sum(h.stacks) == 600 and all(len(c or ()) == 4 for c in h.hole)


@pytest.mark.parametrize("game", [OMAHA, OMAHA5])
def test_a_hand_deals_the_hole_cards_of_the_game(game: Game) -> None:
    n = game.max_players
    h = Hand(PLO.with_(game=game), [100] * n, deck=Deck(seed=11), auto_showdown=True)
    holes = [e.cards for e in h.events if isinstance(e, ev.HoleDealt)]
    assert len(holes) == n and all(c is not None and len(c) == game.hole_cards for c in holes)
    while not h.done:
        h.check_or_call()
    dealt = [c for hole in h.hole for c in hole or ()] + list(h.board)
    assert len(dealt) == len(set(dealt)) == n * game.hole_cards + 5
    assert sum(h.stacks) == 100 * n


@pytest.mark.parametrize("game", [OMAHA, OMAHA5])
def test_more_players_than_one_deck_deals_are_refused(game: Game) -> None:
    with pytest.raises(HandError) as info:
        Hand(PLO.with_(game=game), [100] * (game.max_players + 1))
    msg = info.value.message
    assert f"enough for {game.max_players} players at most" in msg.en
    assert f"{game.max_players} jugadores como mucho" in msg.es


# a board of four hearts: in hold'em the one heart in A's hand makes a royal flush; in Omaha
# A needs two hole cards, so Th 9c and K Q J make a straight, and B's 9h 8h with A K Q of hearts
# make an ace-high flush, which wins
A_HOLE, B_HOLE, BOARD = "Th9c8c7d", "9h8h3c3d", "AhKhQhJh2c"


def _stacked(game: Game) -> Hand:
    deck = Deck.stacked(A_HOLE + B_HOLE + BOARD)
    # heads-up, button 1: player 0 (the big blind) is dealt first
    h = Hand(PLO.with_(game=game), [100, 100], button=1, deck=deck, auto_showdown=True)
    assert h.hole == [parse_cards(A_HOLE), parse_cards(B_HOLE)]
    while not h.done:
        h.check_or_call()
    assert h.board == list(parse_cards(BOARD))
    return h


def test_showdown_is_two_hole_cards_and_three_board_cards() -> None:
    plo = _stacked(OMAHA)
    assert [r.winners for r in plo.results] == [(1,)] and plo.stacks == [98, 102]
    board = parse_cards(BOARD)
    a, b = parse_cards(A_HOLE), parse_cards(B_HOLE)
    assert best_hand(OMAHA, b, board) > best_hand(OMAHA, a, board)
    # any five of the cards (hold'em's rule): A's Th and the board are a royal flush
    assert best_hand(HOLDEM, a[:2], board) == 7462 > best_hand(HOLDEM, b[:2], board)


def test_a_hand_without_a_deck_takes_four_cards_per_player() -> None:
    h = Hand(PLO, [100, 100], button=1)
    assert h.needs_cards() == ("hole", 0, 4)
    with pytest.raises(HandError):
        h.deal_hole(0, parse_cards("AhKh"))
    h.deal_hole(0, parse_cards(A_HOLE))
    with pytest.raises(HandError):  # a card dealt twice
        h.deal_hole(1, parse_cards("Th8h3c3d"))
    h.deal_hole(1, parse_cards(B_HOLE))
    assert h.legal().max_to == 6  # pot-limit: the small blind calls 1 and raises the pot, 4


# ---------------------------------------------------------------------------- PokerKit

def pokerkit_plo(rules: Rules, stacks: tuple[int, ...]) -> Any:
    """PokerKit's pot-limit Omaha for tapete's rules, players in the same order (0 = left of
    the button, heads-up 0 = big blind), as ``test_differential_pokerkit.pokerkit_state``."""
    n = len(stacks)
    antes, blinds = pokerkit_forced(rules, n)
    return pk.PotLimitOmahaHoldem.create_state(_AUTOMATIONS, False, antes, blinds,
                                               rules.big_blind, stacks, n,
                                               mode=pk.Mode.TOURNAMENT)


def random_plo_table(rng: random.Random) -> tuple[Rules, tuple[int, ...]]:
    n = rng.randint(2, 10)
    bb = rng.choice((2, 2, 10, 20, 100, rng.randint(1, 200)))
    sb = rng.choice((bb // 2, bb // 2, bb // 2, rng.randint(0, bb)))
    ante = rng.randint(1, bb) if rng.random() < 0.2 else 0
    bb_ante = bool(ante) and rng.random() < 0.3
    straddle = 2 * bb if n > 2 and rng.random() < 0.1 else 0
    rules = Rules(structure=Structure.POT_LIMIT, small_blind=sb, big_blind=bb, ante=ante,
                  big_blind_ante=bb_ante, straddle=straddle, min_raise=MinRaise.LAST_RAISE,
                  game=OMAHA)
    return rules, random_stacks(rng, n, bb, ante)


def play_one(seed: int, tally: OmahaTally) -> None:
    """The hold'em differential's hand (``play_against``), on a random PLO table."""
    rng = random.Random(seed)
    rules, stacks = random_plo_table(rng)
    h = play_against(rng, seed, rules, stacks, pokerkit_plo(rules, stacks), tally)
    if h is not None and len(h.board) == 5 and sum(not f for f in h.folded) > 1:
        tally.showdowns += 1


@dataclass
class OmahaTally(Tally):
    showdowns: int = 0  # hands compared to the end that went to a showdown of the whole board


def test_differential_pot_limit_omaha() -> None:
    t0 = time.perf_counter()
    tally = OmahaTally()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for seed in range(N_HANDS):
            play_one(seed, tally)
    elapsed = time.perf_counter() - t0
    print(f"\n{tally.hands} PLO hands ({tally.compared} compared to the end, "
          f"{tally.showdowns} of them at a showdown, {tally.decisions} decisions) in "
          f"{elapsed:.1f} s; excluded decisions {dict(tally.excluded)}; dropped hands "
          f"{dict(tally.dropped)}")
    assert tally.hands == N_HANDS
    assert tally.compared >= 0.9 * N_HANDS
    assert tally.showdowns >= 0.2 * N_HANDS


def test_pot_limit_omaha_options_on_a_known_hand() -> None:
    """Blinds 1/2, four players: the pot-limit raise preflop (to 7), then on the flop after a
    bet of the pot; PokerKit says the same."""
    stacks = (500, 500, 500, 500)
    h = Hand(PLO.with_(min_raise=MinRaise.LAST_RAISE), stacks, button=3, deck=Deck(seed=1))
    s = pokerkit_plo(h.rules, stacks)
    for p in range(4):
        hole = h.hole[p]
        assert hole is not None
        s.deal_hole([_PK_CARD[c] for c in hole])

    def options() -> tuple[object, ...]:
        lg = h.legal()
        return (lg.call, lg.min_to, lg.max_to)

    def theirs() -> tuple[object, ...]:
        return (s.checking_or_calling_amount, s.min_completion_betting_or_raising_to_amount,
                s.max_completion_betting_or_raising_to_amount)

    assert options() == theirs() == (2, 4, 7)
    h.raise_to(7)
    s.complete_bet_or_raise_to(7)
    assert options() == theirs() == (7, 12, 24)  # 7 + the pot after calling, 17
    for _ in range(3):
        h.call()
        s.check_or_call()
    s.deal_board([_PK_CARD[c] for c in h.board])
    assert options() == theirs() == (0, 2, 28)
