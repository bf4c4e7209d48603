"""PokerStars Omaha: the three Omaha hands of tests/data/pokerstars (pot-limit Omaha run twice
with a side pot, pot-limit Omaha hi-lo with an uncalled bet, fixed-limit Omaha hi-lo whose main
and side pots both split high/low) replay legally and reconcile with their own SUMMARY: pots,
rake, the halves of each pot and both runs; the writer writes them back as PokerStars does."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_phh import _play

from tapete.core import events as ev
from tapete.core.game import OMAHA, OMAHA5, OMAHA5_HI_LO, OMAHA_HI_LO, Game
from tapete.core.hand import Hand
from tapete.core.rules import Rules, Structure
from tapete.history import pokerstars as ps
from tapete.history.record import HandRecord
from tapete.history.replay import replay

DATA = Path(__file__).parents[1] / "data" / "pokerstars"
O8 = DATA / "hhsmithy_cash_o8_limit_side_pot_hilo_split_rake.txt"
PLO8 = DATA / "hhsmithy_cash_plo8_uncalled_bet.txt"
PLO_TWICE = DATA / "hhsmithy_cash_plo_run_it_twice_side_pot_rake.txt"


def replayed(path: Path) -> tuple[HandRecord, Hand]:
    (record,) = ps.read_file(str(path))
    assert isinstance(record, HandRecord), str(record)
    res = replay(record, strict=True)
    assert res.error is None and not res.partial and res.engine is not None
    assert res.engine.done
    assert ps.reconcile(record, res.engine) == []
    return record, res.engine


def awards(hand: Hand) -> list[tuple[str, int, int, int, str]]:
    """(who, pot, run, chips, half) of every award, in cents."""
    return [(hand.names[e.player], e.pot, e.run, e.amount, e.half) for e in hand.events
            if isinstance(e, ev.Awarded)]


def test_fixed_limit_omaha_hi_lo_main_and_side_pot_each_split_high_low() -> None:
    record, hand = replayed(O8)
    assert hand.rules.game is OMAHA_HI_LO and hand.rules.structure is Structure.FIXED_LIMIT
    assert (hand.rules.small_bet, hand.rules.big_bet) == (30000, 60000)
    # Main pot $5275 and side pot $4200 after a rake of $5 off the main pot
    assert [(r.amount, r.rake) for r in hand.results] == [(527500, 500), (420000, 0)]
    assert hand.rake == record.stated_rake == 500
    # the main pot: Crazy Elior's queen-high flush the high, LewisFriend's 8-5-4-2-A the low
    # (better than Crazy Elior's 8-5-4-3-2); the side pot (Crazy Elior all-in is out of it):
    # Bluf_To_Much's nine-high flush the high, LewisFriend the only low
    assert awards(hand) == [("Crazy Elior", 0, 0, 263750, ev.HIGH),
                            ("LewisFriend", 0, 0, 263750, ev.LOW),
                            ("Bluf_To_Much", 1, 0, 210000, ev.HIGH),
                            ("LewisFriend", 1, 0, 210000, ev.LOW)]
    assert [r.low_winners for r in hand.results] == [(4,), (4,)]
    assert record.finishing_stacks == hand.stacks
    # the short all-in raise on the flop ($82.50, less than half a bet) reopens nothing
    shorts = [e for e in hand.events if isinstance(e, ev.Acted) and e.all_in]
    assert [(hand.names[e.player], e.to) for e in shorts] == [("Crazy Elior", 38250)]


def test_pot_limit_omaha_hi_lo_uncalled_bet() -> None:
    record, hand = replayed(PLO8)
    assert hand.rules.game is OMAHA_HI_LO and hand.rules.structure is Structure.POT_LIMIT
    assert hand.returned[0] == 200 and awards(hand) == [("Beeethoven87", 0, 0, 250, ev.WHOLE)]
    assert record.finishing_stacks == hand.stacks


def test_pot_limit_omaha_run_twice_with_a_side_pot_and_rake() -> None:
    record, hand = replayed(PLO_TWICE)
    assert hand.rules.game is OMAHA and len(hand.boards) == 2
    assert [(r.amount, r.rake) for r in hand.results] == [(300700, 300), (2000, 0)]
    # each run wins half of each pot: $1503.50 of the main pot, $10 of the side pot
    assert awards(hand) == [("FLATC@T", 0, 0, 150350, ev.WHOLE),
                            ("FLATC@T", 0, 1, 150350, ev.WHOLE),
                            ("FLATC@T", 1, 0, 1000, ev.WHOLE),
                            ("FLATC@T", 1, 1, 1000, ev.WHOLE)]
    assert hand.hole[1] is not None and len(hand.hole[1]) == 4  # Dealt to OneMoreSpin


@pytest.mark.parametrize("path", [O8, PLO8, PLO_TWICE], ids=lambda p: p.name)
def test_the_writer_writes_them_back_as_pokerstars_does(path: Path) -> None:
    _, hand = replayed(path)
    text = ps.write_hand(hand)
    original = ps.decode(path.read_bytes())
    (back,) = ps.read_text(text)
    assert isinstance(back, HandRecord)
    res = replay(back, strict=True)
    assert res.engine is not None and res.engine.events == hand.events
    assert ps.reconcile(back, res.engine) == []
    # the header's game, and the hi-lo showdown in PokerStars' words, line for line
    assert text.split(":  ", 1)[1].split(" (")[0] == original.split(":  ", 1)[1].split(" (")[0]
    for line in original.splitlines():
        if " collected " in line or ": shows [" in line or " showed [" in line:
            assert line.strip() in text, line


def test_a_half_that_does_not_match_is_reported() -> None:
    text = ps.decode(O8.read_bytes())
    # the same total per player and pot, but LewisFriend's low half of the side pot ($2100)
    # written as two lines, $2000 and $100: no half of the replay is $100
    bad = text.replace("LewisFriend collected $2100 from side pot",
                       "LewisFriend collected $2000 from side pot\n"
                       "LewisFriend collected $100 from side pot")
    assert bad != text
    (record,) = ps.read_text(bad)
    assert isinstance(record, HandRecord)
    res = replay(record, strict=True)
    assert res.engine is not None
    problems = ps.reconcile_text(record, res.engine)
    assert len(problems) == 1 and problems[0].en.startswith("the halves (high, low) of the pots")
    assert problems[0].es.startswith("las mitades (alta, baja) de los botes")


@pytest.mark.parametrize("game,header", [(OMAHA, "Omaha Pot Limit"),
                                         (OMAHA_HI_LO, "Omaha Hi/Lo Pot Limit"),
                                         (OMAHA5, "5 Card Omaha Pot Limit"),
                                         (OMAHA5_HI_LO, "5 Card Omaha Hi/Lo Pot Limit")])
def test_random_omaha_hands_round_trip(game: Game, header: str) -> None:
    rng = random.Random(41)
    for _ in range(25):
        n = rng.randint(2, 6)
        rules = Rules(structure=Structure.POT_LIMIT, small_blind=5, big_blind=10, game=game)
        hand = _play(rng, rules, [rng.randint(40, 800) for _ in range(n)])
        text = ps.write_hand(hand)
        assert f":  {header} (" in text
        (back,) = ps.read_text(text)
        assert isinstance(back, HandRecord), str(back)
        assert back.rules.game is game
        res = replay(back, strict=True)
        assert res.engine is not None and res.engine.events == hand.events, text
        assert ps.reconcile(back, res.engine) == [], text
