"""The one Action type: its codecs (PHH notation, the page's JSON) and Hand.apply."""

from __future__ import annotations

import pytest

from tapete.core import events as ev
from tapete.core.actions import Action
from tapete.core.cards import Deck
from tapete.core.errors import IllegalAction, MalformedAction
from tapete.core.hand import Hand
from tapete.core.rules import Rules


def _hand() -> Hand:
    return Hand(Rules(), [100, 100, 100], button=0, deck=Deck(seed=1))


def test_phh_codec_round_trip() -> None:
    for a in (Action.fold(), Action.bet(40)):
        assert Action.from_phh(a.to_phh()) == a
    assert Action.fold().to_phh() == "f"
    assert Action.check().to_phh() == "cc" and Action.call().to_phh() == "cc"
    assert Action.raise_to(120).to_phh() == "cbr 120"


def test_phh_cc_resolves_against_the_hand() -> None:
    h = _hand()  # p1 (the button, after the big blind) faces a bet of 2
    assert Action.from_phh("cc", h.legal()) == Action.call()
    assert Action.from_phh("cbr 6", h.legal()) == Action.raise_to(6)
    h.call()
    h.call()
    assert Action.from_phh("cc", h.legal()) == Action.check()  # the big blind's option


@pytest.mark.parametrize("text", ["", "x", "cbr", "cbr -3", "cbr 0", "cbr 2.5", "f 3", "cc 1",
                                  "cbr ４"])
def test_phh_malformed(text: str) -> None:
    with pytest.raises(MalformedAction) as info:
        Action.from_phh(text, _hand().legal())
    assert info.value.message.en and info.value.message.es
    assert info.value.message.en != info.value.message.es


def test_phh_cc_needs_the_options() -> None:
    with pytest.raises(MalformedAction):
        Action.from_phh("cc")


def test_wire_codec() -> None:
    assert Action.from_wire({"action": "raise", "amount": 120}) == Action.raise_to(120)
    assert Action.from_wire({"type": "act", "seq": 3, "action": "fold"}) == Action.fold()
    for a in (Action.fold(), Action.check(), Action.call(), Action.bet(4), Action.raise_to(9)):
        assert Action.from_wire(a.to_wire()) == a
    assert Action.call().to_wire() == {"action": "call"}
    assert Action.bet(4).to_wire() == {"action": "bet", "amount": 4}


@pytest.mark.parametrize("data", [
    None, [], {"action": "shove"}, {"action": "raise"}, {"action": "raise", "amount": 2.5},
    {"action": "bet", "amount": True}, {"action": "bet", "amount": 0},
    {"action": "fold", "amount": 3}, {"amount": 3}])
def test_wire_malformed(data: object) -> None:
    with pytest.raises(MalformedAction) as info:
        Action.from_wire(data)
    assert info.value.message.es != info.value.message.en


def test_apply_records_and_returns_the_event() -> None:
    h = _hand()
    e = h.apply(Action.raise_to(6))  # the button, first to act three-handed
    assert e == ev.Acted(0, ev.RAISE, 6, 6, False, False) and h.events[-1] == e
    e = h.apply(Action.call(), player=1)  # the small blind adds 5
    assert e == ev.Acted(1, ev.CALL, 6, 5, False, False)
    e = h.apply(Action.fold())
    assert e.action == ev.FOLD and e.player == 2 and h.street == 1  # the flop is dealt


def test_apply_is_act() -> None:
    """The same events as act() for the same choices, and the same refusals."""
    a, b = _hand(), _hand()
    a.apply(Action.raise_to(6))
    b.act("raise", 6)
    a.apply(Action.bet(20))  # a bet and a raise are one thing to the engine
    b.act("bet", 20)
    assert a.events == b.events
    for action, args in ((Action.check(), ("check",)), (Action.raise_to(10_000), ("raise", 10_000)),
                         (Action.raise_to(21), ("raise", 21))):
        before = list(a.events)
        with pytest.raises(IllegalAction) as mine:
            a.apply(action)
        with pytest.raises(IllegalAction) as theirs:
            b.act(*args)  # type: ignore[arg-type]
        assert mine.value.message == theirs.value.message
        assert a.events == before
    with pytest.raises(IllegalAction) as mine:
        a.apply(Action.fold(), player=0)
    assert "not p1's turn" in mine.value.message.en
    with pytest.raises(IllegalAction):
        a.apply(Action("raise", None))
