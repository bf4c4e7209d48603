"""Round trips through PokerStars text: random engine hands, and the PHH dataset's hands
(PHH -> tapete -> PokerStars text -> tapete), give back the same hand: events and stacks."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from replayed import play

from strategies import apply, pick_action, random_table
from tapete.core.cards import Deck
from tapete.core.hand import Hand, Phase
from tapete.core.rules import MinRaise, Rules, Structure
from tapete.history import pokerstars as ps
from tapete.history.record import HandRecord

PHH_DATA = Path(__file__).parents[1] / "data" / "phh"


def stars_rules(rules: Rules) -> Rules:
    """The room rules a PokerStars text can carry: its pot-limit raise, its fixed-limit cap
    (four bets, none heads-up), blinds of half a small bet, straddles of two big blinds."""
    kw: dict[str, object] = {}
    if rules.structure is Structure.POT_LIMIT:
        kw["min_raise"] = MinRaise.LAST_RAISE
    if rules.structure is Structure.FIXED_LIMIT:
        kw.update(bet_cap=4, cap_heads_up=False, small_blind=rules.big_blind // 2)
    if rules.straddle:
        kw["straddle"] = 2 * rules.big_blind
    return rules.with_(**kw)


def random_hand(seed: int) -> Hand:
    """A random table played with random legal actions, dealt by hand from ``Deck(seed)``;
    sometimes run twice when the betting is over."""
    rng = random.Random(seed)
    t = random_table(rng)
    deck = Deck(seed)
    currency = rng.choice(("", "", "$", "€"))
    rules = stars_rules(t.rules).with_(currency=currency, decimals=2 if currency else 0)
    h = Hand(rules, t.stacks, button=t.button, hand_id=str(seed + 1), auto_showdown=True,
             names=[f"player {i + 1}" for i in range(len(t.stacks))])
    twice = rng.random() < 0.3
    while not h.done:
        if h.phase is Phase.BETTING:
            apply(h, pick_action(rng, h.legal()))
            continue
        need = h.needs_cards()
        assert need is not None, h.phase
        kind, who, count = need
        if kind == "hole":
            h.deal_hole(who, deck.deal(2))
        elif twice and h.betting_over and len(h.boards) == 1:
            h.set_runs(2)
        else:
            h.deal_board(deck.deal(count))
    return h


def read_back(text: str) -> HandRecord:
    (r,) = list(ps.read_text(text, "roundtrip.txt"))
    assert isinstance(r, HandRecord), f"{r}\n{text}"
    return r


@pytest.mark.parametrize("block", range(8))
def test_random_engine_hands_round_trip(block: int) -> None:
    runs_twice = 0
    for seed in range(block * 100, block * 100 + 100):
        h = random_hand(seed)
        text = ps.write_hand(h)
        r = read_back(text)
        h2 = play(r)
        assert h2.events == h.events, f"seed {seed}\n{text}"
        assert h2.stacks == h.stacks
        assert ps.reconcile(r, h2) == [], text
        # and the text it writes is the same text
        assert ps.write_hand(h2) == text
        runs_twice += len(h.boards) > 1
    assert runs_twice > 0


def in_order(hand: Hand, names: list[str]) -> list[object]:
    """The hand's events with the players renumbered in the order of ``names`` (PokerStars
    text lists the seats in seat order, which need not be the order of the hand's players)."""
    where = [names.index(x) for x in hand.names]
    out: list[object] = []
    for e in hand.events:
        if hasattr(e, "player"):
            e = e._replace(player=where[e.player])  # type: ignore[union-attr]
        elif hasattr(e, "stacks"):
            stacks = [0] * hand.n
            for p, x in enumerate(e.stacks):  # type: ignore[union-attr]
                stacks[where[p]] = x
            e = e._replace(stacks=tuple(stacks))  # type: ignore[union-attr]
        out.append(e)
    return out


def phh_hands() -> list[Path]:
    return sorted(p for p in PHH_DATA.rglob("*") if p.suffix in (".phh", ".phhs"))


def test_phh_dataset_round_trips_through_pokerstars_text() -> None:
    phh = pytest.importorskip("tapete.history.phh")
    replay = pytest.importorskip("tapete.history.replay")
    files = phh_hands()
    if not files:
        pytest.skip("no PHH dataset in tests/data/phh")
    checked = 0
    variants: set[Structure] = set()
    for path in files:
        for item in phh.read_file(str(path)):
            if item.record is None:
                continue
            res = replay.replay(item.record)
            if res.error is not None or res.engine is None:
                continue
            hand = res.engine
            text = ps.write_hand(hand)
            r = read_back(text)
            res2 = replay.replay(r)
            assert res2.error is None, (path, res2.error)
            assert res2.engine is not None
            back = res2.engine
            assert back.events == in_order(hand, list(back.names)), (path, text)
            assert dict(zip(back.names, back.stacks, strict=True)) == dict(
                zip(hand.names, hand.stacks, strict=True))
            assert sorted(back.seats) == sorted(hand.seats) or 0 in hand.seats
            if hand.done:
                assert ps.reconcile(r, res2.engine) == []
            variants.add(hand.rules.structure)
            checked += 1
    assert checked > 100
    assert Structure.NO_LIMIT in variants
