"""HandSetup and Rules travel through JSON without losing anything, and build the same hand."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import follow_setup, play_setup, rules_st, setup_st
from tapete.core.cards import Deck
from tapete.core.errors import SetupError
from tapete.core.hand import Hand
from tapete.core.rules import MinRaise, Rules, RulesError
from tapete.core.setup import HandSetup


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
    """The one codec of a hand's setup (issue 29): every table option (every field of the
    rules, the game, blinds, straddles, antes, dead blinds, a bomb pot, a double board) goes
    through JSON and back unchanged, and the hand played from what comes back, with the same
    deck and the same choices (the run-out counts included), gives the same events."""
    data = json.loads(json.dumps(setup.to_json()))
    again = HandSetup.from_json(data)
    assert again == setup
    a, choices = play_setup(setup, seed)
    b = follow_setup(again, seed, choices)
    assert a.done and a.events == b.events and a.setup == setup and b.setup == setup
    assert Hand.from_events(again.rules, again.stacks, a.events,
                            **again.hand_args()).stacks == a.stacks


def test_setup_json_covers_every_field() -> None:
    """A field added to HandSetup and left out of its JSON is caught here."""
    h = Hand(Rules(), [100, 100, 100], button=0, bomb=5, double_board=True, hand_id="x")
    assert set(h.setup.to_json()) == {f.name for f in fields(HandSetup)}


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
