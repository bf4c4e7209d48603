"""PHH's ``PO`` variant (pot-limit Omaha hold'em, high only): read, written, read back to the same
events, and read by PokerKit; and the Omaha hi-lo variants, the standard's ``FO/8`` (fixed
limit) and tapete's ``PO/8`` (pot limit): read, written and read back to the same events, the
halves of each pot included."""

from __future__ import annotations

import random

import pytest
from test_phh import _order, _play, pokerkit_reads_the_same

from tapete.core import events as ev
from tapete.core.cards import Deck, parse_cards
from tapete.core.game import OMAHA, OMAHA5, OMAHA5_HI_LO, OMAHA_HI_LO
from tapete.core.hand import Hand
from tapete.core.rules import MinRaise, Rules, Structure
from tapete.history import phh
from tapete.history.replay import replay

PO_HAND = """
variant = 'PO'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 200, 200]
actions = ['d dh p1 Th9c8c7d', 'd dh p2 9h8h3c3d', 'd dh p3 ????????', 'p3 cbr 7', 'p1 cc',
           'p2 cc', 'd db AhKhQh', 'p1 cbr 10', 'p2 cc', 'p3 f', 'd db Jh', 'p1 cc', 'p2 cc',
           'd db 2c', 'p1 cc', 'p2 cc', 'p1 sm Th9c8c7d', 'p2 sm 9h8h3c3d']
finishing_stacks = [183, 224, 193]
"""


def _in_phh_order(hand: Hand) -> list[object]:
    """The hand's events with each player numbered as PHH numbers them (the player after the
    button first), as a hand read back from PHH numbers them; the final stacks likewise. The
    shares of a split pot are awarded in seat order, which the renumbering changes: each run
    of awards is sorted."""
    n, first = hand.n, hand.button + 1
    out: list[object] = []
    awards: list[ev.Awarded] = []
    for e in hand.events:
        if isinstance(e, ev.Ended):
            e = e._replace(stacks=tuple(e.stacks[(first + k) % n] for k in range(n)))
        elif hasattr(e, "player"):
            e = e._replace(player=(e.player - first) % n)  # type: ignore[attr-defined]
        if isinstance(e, ev.Awarded):
            awards.append(e)
            continue
        out += sorted(awards)
        awards = []
        out.append(e)
    return out + sorted(awards)


def test_a_po_hand_is_read_as_pot_limit_omaha() -> None:
    rec = phh.loads(PO_HAND)
    assert rec.rules.game is OMAHA and rec.rules.structure is Structure.POT_LIMIT
    assert rec.rules.min_raise is MinRaise.LAST_RAISE  # the standard's (PokerKit's) minimum
    assert rec.extra["variant"] == "PO"
    res = replay(rec, strict=True)
    assert res.error is None and not res.partial
    # a board of four hearts: p1's one heart makes no flush, p2's two do (two plus three)
    assert res.finishing_stacks == rec.finishing_stacks == [183, 224, 193]
    d = res.decisions
    assert (d[0].call, d[0].min_to, d[0].max_to) == (2, 4, 7)  # pot-limit preflop
    # the small blind: 6 to call, the smallest raise to 7 + 5 (the TDA increment), the largest
    # to 7 + the pot after calling, 16
    assert (d[1].call, d[1].min_to, d[1].max_to) == (6, 12, 23)
    assert res.engine is not None
    assert res.engine.hole[2] is None  # ???????? : four unknown cards
    again = phh.dumps(res.engine)
    assert "variant = 'PO'" in again and "'d dh p3 ????????'" in again
    assert "_min_raise = 'last-raise'" in again


def test_the_minimum_raise_rule_of_a_po_hand_can_be_named() -> None:
    rec = phh.loads(PO_HAND.replace("min_bet = 2", "min_bet = 2\n_min_raise = 'last-bet'"))
    assert rec.rules.min_raise is MinRaise.LAST_BET
    res = replay(rec)
    assert res.decisions[1].min_to == 14  # 7 + the largest bet of the street (rules PL-2)


def test_an_omaha_hand_with_two_hole_cards_is_an_error() -> None:
    (h,) = phh.read_text(PO_HAND)
    assert h.record is not None
    bad = PO_HAND.replace("Th9c8c7d'", "Th9c'", 1)
    res = replay(phh.loads(bad))
    assert res.error is not None


def test_the_writer_round_trips_po_hands() -> None:
    rng = random.Random(17)
    for _ in range(120):
        n = rng.randint(2, 9)
        kw: dict[str, object] = {}
        if rng.random() < 0.3:
            kw = {"ante": rng.choice([1, 5])}
        elif rng.random() < 0.3:
            kw = {"ante": 10, "big_blind_ante": True}
        rules = Rules(structure=Structure.POT_LIMIT, small_blind=5, big_blind=10,
                      decimals=rng.choice([0, 2]), currency=rng.choice(["", "$"]),
                      min_raise=rng.choice([None, MinRaise.LAST_RAISE, MinRaise.LAST_BET]),
                      game=OMAHA, **kw)  # type: ignore[arg-type]
        stacks = [rng.randint(25, 3000) for _ in range(n)]
        hand = _play(rng, rules, stacks)
        text = phh.dumps(hand)
        assert text.startswith("variant = 'PO'\n")
        rec = phh.loads(text)
        assert rec.rules.game is OMAHA
        assert rec.rules.min_raise_rule is rules.min_raise_rule
        assert rec.rules == rules.with_(min_raise=rules.min_raise_rule)
        res = replay(rec, strict=True)
        assert res.error is None and not res.partial, text
        assert res.finishing_stacks == _order(hand) == rec.finishing_stacks, text
        assert res.engine is not None
        assert _in_phh_order(res.engine) == _in_phh_order(hand), text
        assert phh.dumps(res.engine) == text  # a second trip writes the same text


def test_other_omaha_games_are_not_written() -> None:
    for rules in (Rules(structure=Structure.NO_LIMIT, game=OMAHA),
                  Rules(structure=Structure.POT_LIMIT, game=OMAHA5),
                  Rules(structure=Structure.NO_LIMIT, game=OMAHA_HI_LO),
                  Rules(structure=Structure.POT_LIMIT, game=OMAHA5_HI_LO)):
        hand = Hand(rules, [100, 100], deck=Deck(seed=1))
        hand.fold()
        with pytest.raises(phh.PhhError) as info:
            phh.dumps(hand)
        msg = info.value.message
        assert msg.en.startswith(f"PHH has no variant for {rules.game.name} (")
        assert msg.es.startswith(f"PHH no tiene variante para {rules.game.name} (")


def test_the_writer_output_is_read_by_pokerkit() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    rng = random.Random(23)
    checked = 0
    for _ in range(40):
        n = rng.randint(2, 6)
        rules = Rules(structure=Structure.POT_LIMIT, small_blind=5, big_blind=10,
                      decimals=rng.choice([0, 2]), min_raise=MinRaise.LAST_RAISE, game=OMAHA)
        # deep stacks and modest raises: no all-in, so none of PokerKit's known departures
        hand = _play(rng, rules, [100_000] * n, deep=True)
        if any(len(r.winners) > 1 for r in hand.results):
            continue
        pokerkit_reads_the_same(pokerkit, hand)
        checked += 1
    assert checked >= 25


def test_pokerkit_written_po_hands_are_read() -> None:
    """A hand PokerKit plays and writes as PHH (its own notation) replays in tapete to the same
    stacks."""
    pokerkit = pytest.importorskip("pokerkit")
    state = pokerkit.PotLimitOmahaHoldem.create_state(
        (pokerkit.Automation.ANTE_POSTING, pokerkit.Automation.BET_COLLECTION,
         pokerkit.Automation.BLIND_OR_STRADDLE_POSTING, pokerkit.Automation.CARD_BURNING,
         pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING, pokerkit.Automation.HAND_KILLING,
         pokerkit.Automation.CHIPS_PUSHING, pokerkit.Automation.CHIPS_PULLING),
        False, 0, (1, 2), 2, (200, 200, 200), 3)
    for hole in ("Th9c8c7d", "9h8h3c3d", "2s2d4c5c"):
        state.deal_hole(hole)
    state.complete_bet_or_raise_to(7)
    state.complete_bet_or_raise_to(12)  # the TDA minimum: 7 + 5
    state.fold()
    state.check_or_call()
    state.deal_board("AhKhQh")
    for _ in range(2):
        state.check_or_call()
    state.deal_board("Jh")
    for _ in range(2):
        state.check_or_call()
    state.deal_board("2c")
    for _ in range(2):
        state.check_or_call()
    assert not state.status
    text = pokerkit.HandHistory.from_game_state(
        pokerkit.PotLimitOmahaHoldem(
            (), False, 0, (1, 2), 2), state).dumps()
    rec = phh.loads(text)
    assert rec.rules.game is OMAHA
    res = replay(rec, strict=True)
    assert res.error is None and res.engine is not None
    # p1's Th 9c with K Q J make a straight; p3's 2s 2d with the 2c, three twos
    assert res.finishing_stacks == list(state.stacks) == [214, 198, 188]
    assert res.engine.hole[0] == parse_cards("Th9c8c7d")


# ---------------------------------------------------------------------------- Omaha hi-lo

FO8_HAND = """
variant = 'FO/8'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AcAhQsQh', 'd dh p2 As3d9h9c', 'd dh p3 5c6d8s8c', 'p3 cc', 'p1 cc',
           'p2 cc', 'd db 2h4d7s', 'p1 cc', 'p2 cbr 2', 'p3 cc', 'p1 cc', 'd db Kc', 'p1 cc',
           'p2 cc', 'p3 cc', 'd db Kd', 'p1 cc', 'p2 cc', 'p3 cc', 'p1 sm AcAhQsQh',
           'p2 sm As3d9h9c', 'p3 sm 5c6d8s8c']
finishing_stacks = [102, 102, 96]
"""


def test_an_fo8_hand_is_read_as_fixed_limit_omaha_hi_lo_and_split() -> None:
    rec = phh.loads(FO8_HAND)
    assert rec.rules.game is OMAHA_HI_LO and rec.rules.structure is Structure.FIXED_LIMIT
    res = replay(rec, strict=True)
    assert res.error is None and res.engine is not None
    # a pot of 12: p1's aces up take the high half (6), p2's 7-4-3-2-A beats p3's 7-6-5-4-2
    halves = [(e.player, e.amount, e.half) for e in res.engine.events
              if isinstance(e, ev.Awarded)]
    assert halves == [(0, 6, ev.HIGH), (1, 6, ev.LOW)]
    assert res.finishing_stacks == rec.finishing_stacks == [102, 102, 96]
    assert res.decisions[0].min_to == res.decisions[0].max_to == 4  # fixed limit: 2 + 2
    again = phh.dumps(res.engine)
    assert again.startswith("variant = 'FO/8'\n") and "_min_raise" not in again


@pytest.mark.parametrize("structure", [Structure.FIXED_LIMIT, Structure.POT_LIMIT])
def test_the_writer_round_trips_omaha_hi_lo_hands(structure: Structure) -> None:
    rng = random.Random(29)
    code = "FO/8" if structure is Structure.FIXED_LIMIT else "PO/8"
    halves = set()
    for _ in range(80):
        n = rng.randint(2, 8)
        rules = Rules(structure=structure, small_blind=5, big_blind=10,
                      decimals=rng.choice([0, 2]), game=OMAHA_HI_LO)
        hand = _play(rng, rules, [rng.randint(25, 600) for _ in range(n)])
        halves |= {e.half for e in hand.events if isinstance(e, ev.Awarded)}
        text = phh.dumps(hand)
        assert text.startswith(f"variant = '{code}'\n")
        rec = phh.loads(text)
        assert rec.rules.game is OMAHA_HI_LO and rec.rules.structure is structure
        res = replay(rec, strict=True)
        assert res.error is None and not res.partial, text
        assert res.finishing_stacks == _order(hand) == rec.finishing_stacks, text
        assert res.engine is not None
        assert _in_phh_order(res.engine) == _in_phh_order(hand), text
        assert phh.dumps(res.engine) == text
    assert halves == {ev.WHOLE, ev.HIGH, ev.LOW}  # the hands split pots high/low
