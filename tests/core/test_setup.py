"""HandSetup and Rules travel through JSON without losing anything, and build the same hand."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tapete.core.cards import Deck
from tapete.core.errors import SetupError
from tapete.core.hand import Hand
from tapete.core.rules import MinRaise, Rules, RulesError, Structure
from tapete.core.setup import HandSetup


@st.composite
def rules_st(draw: st.DrawFn) -> Rules:
    structure = draw(st.sampled_from(list(Structure)))
    bb = draw(st.integers(1, 400))
    return Rules(
        structure=structure, small_blind=draw(st.integers(0, bb)), big_blind=bb,
        ante=draw(st.integers(0, bb)), big_blind_ante=draw(st.booleans()),
        straddle=draw(st.sampled_from([0, bb, 2 * bb])),
        small_bet=draw(st.sampled_from([0, bb])), big_bet=draw(st.sampled_from([0, 2 * bb])),
        bet_cap=draw(st.sampled_from([None, 2, 4, 7])), cap_heads_up=draw(st.booleans()),
        min_raise=draw(st.sampled_from([None, *MinRaise])),
        rake_bps=draw(st.integers(0, 10_000)), rake_cap=draw(st.sampled_from([None, 0, 3 * bb])),
        no_flop_no_drop=draw(st.booleans()), decimals=draw(st.integers(0, 3)),
        currency=draw(st.sampled_from(["", "$", "€"])),
        extra=tuple(draw(st.lists(st.tuples(st.text(max_size=5), st.text(max_size=5)),
                                  max_size=2))),
        rake_fixed=draw(st.sampled_from([None, (), (1, 0, 2)])),
        hand_cap=draw(st.sampled_from([None, 40 * bb])))


@st.composite
def setup_st(draw: st.DrawFn) -> HandSetup:
    rules = draw(rules_st())
    n = draw(st.integers(2, 9))
    bb = rules.big_blind
    amounts = st.lists(st.sampled_from([0, 0, 0, rules.small_blind, bb]), min_size=n, max_size=n)
    blinds = draw(amounts)
    straddles = [0] * n
    for p in draw(st.lists(st.integers(0, n - 1), max_size=2, unique=True)):
        straddles[p] = draw(st.sampled_from([bb, 2 * bb, 4 * bb]))
        blinds[p] = 0
    return HandSetup(
        rules, tuple(draw(st.lists(st.integers(1, 1000 * bb), min_size=n, max_size=n))),
        draw(st.integers(0, n - 1)), tuple(blinds), tuple(straddles), tuple(draw(amounts)),
        tuple(draw(amounts)), tuple(draw(st.lists(st.text(max_size=8), min_size=n, max_size=n))),
        tuple(draw(st.lists(st.integers(0, 22), min_size=n, max_size=n))),
        draw(st.text(max_size=12)))


@given(rules_st())
def test_rules_round_trip(rules: Rules) -> None:
    data = json.loads(json.dumps(rules.to_json()))
    assert Rules.from_json(data) == rules


def test_rules_json_covers_every_field() -> None:
    data = Rules().to_json()
    assert set(data) == {f.name for f in fields(Rules)}
    # what the practice table once dropped: straddle, rake, min_raise, big-blind ante
    r = Rules(straddle=4, rake_bps=500, rake_cap=6, min_raise=MinRaise.LAST_BET, ante=2,
              big_blind_ante=True)
    assert Rules.from_json(r.to_json()) == r and r.to_json()["min_raise"] == "last-bet"


@given(setup_st(), st.integers(0, 2**32))
@settings(max_examples=150, deadline=None)
def test_setup_round_trip_builds_the_same_hand(setup: HandSetup, seed: int) -> None:
    data = json.loads(json.dumps(setup.to_json()))
    again = HandSetup.from_json(data)
    assert again == setup
    a = Hand.from_setup(setup, deck=Deck(seed))
    b = Hand.from_setup(again, deck=Deck(seed))
    assert a.events == b.events and a.setup == setup and b.setup == setup


def test_hand_setup_of_a_table_hand() -> None:
    h = Hand(Rules(straddle=4, ante=1), [100, 90, 80, 70], button=0, deck=Deck(seed=2),
             hand_id="h1")
    s = h.setup
    assert s.straddles == (0, 0, 0, 4) and s.blinds == (0, 1, 2, 0) and s.antes == (1,) * 4
    assert Hand.from_setup(HandSetup.from_json(s.to_json()), deck=Deck(seed=2)).events == h.events


@pytest.mark.parametrize("change", [
    {"rules": {"big_blind": "2"}}, {"rules": {"speed": 3}}, {"rules": []},
    {"rules": {"structure": "no-such"}}, {"rules": {"big_blind": 0}},
    {"stacks": [100, -1]}, {"stacks": [100, 1.5]}, {"names": ["a"]}, {"button": 2},
    {"button": None}, {"seats": "01"}, {"hand_id": 7}, {"deck": []}])
def test_malformed_setup_json(change: dict[str, object]) -> None:
    data = Hand(Rules(), [100, 100], button=0).setup.to_json()
    data.update(change)
    with pytest.raises(SetupError) as info:
        HandSetup.from_json(data)
    assert info.value.message.en and info.value.message.es != info.value.message.en


def test_missing_fields_and_non_objects() -> None:
    data = Hand(Rules(), [100, 100], button=0).setup.to_json()
    del data["straddles"]
    with pytest.raises(SetupError, match="straddles"):
        HandSetup.from_json(data)
    with pytest.raises(SetupError):
        HandSetup.from_json([1, 2])
    with pytest.raises(RulesError):
        Rules.from_json({"extra": [["a"]]})
