"""replay() on records from any reader: players named in PHH order whatever the source order."""

from __future__ import annotations

import json

from tapete.core.cards import parse_cards
from tapete.core.rules import Rules
from tapete.history.record import HandRecord
from tapete.history.replay import dumps_json, replay


def test_records_with_the_button_anywhere_are_reported_in_phh_order() -> None:
    # a PokerStars-like record: seat order, the button is player 0; p1 in PHH is player 1
    record = HandRecord(
        rules=Rules(small_blind=1, big_blind=2), stacks=[100, 200, 300], button=0,
        steps=[("hole", 0, parse_cards("AsAd")), ("hole", 1, parse_cards("KsKd")),
               ("hole", 2, parse_cards("QsQd")), ("act", 0, "cbr", 6), ("act", 1, "f", None),
               ("act", 2, "f", None)],
        names=["Button", "Small", "Big"], source="x.txt")
    res = replay(record)
    assert res.error is None and res.finishing_stacks == [103, 199, 298]
    out = json.loads(dumps_json(res.to_json()))
    assert out["finishing_stacks"] == [199, 298, 103]  # p1 small blind, p2 big, p3 button
    assert [d["actor"] for d in out["decisions"]] == ["p3", "p1", "p2"]
    assert [d["action"] for d in out["decisions"]] == ["p3 cbr 6", "p1 f", "p2 f"]
    assert out["pots"][0]["winners"] == ["p3"] and out["returned"] == [0, 0, 4]
