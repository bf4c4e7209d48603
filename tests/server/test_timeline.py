"""The replayer's timeline is built in one pass: the engine folds each event a bounded number
of times, whatever the hand's length (rebuilding the hand for every frame folded the first
event once per frame: the square of the length)."""

from __future__ import annotations

from typing import Any

import pytest

from samples import raise_war
from tapete.core import events as ev
from tapete.core.hand import Hand
from tapete.server.timeline import timeline


@pytest.mark.parametrize("actions", [10, 100])
def test_each_event_is_folded_twice_at_most(actions: int,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    hand = raise_war(actions)
    assert sum(isinstance(e, ev.Acted) for e in hand.events) == actions
    folded = [0]
    apply = Hand.apply_unchecked

    def counting(self: Hand, e: Any) -> None:
        folded[0] += 1
        apply(self, e)

    try:
        monkeypatch.setattr(Hand, "apply_unchecked", counting)
    except (TypeError, AttributeError):  # the compiled engine's class cannot be patched
        pytest.skip("the engine is compiled: run with TAPETE_PURE=1")
    out = timeline(hand, equity=False)
    n = len(hand.events)
    assert folded[0] <= 2 * n  # the final state once, the frames once
    # a frame per event, the hole cards of both players one frame, and the start
    assert len(out["frames"]) == n
    last = out["frames"][-1]
    assert last["stacks"] == list(hand.stacks) and last["phase"] == "done"
    assert [f["i"] for f in out["frames"]] == list(range(n))


def test_a_record_with_a_huge_bet_is_refused_before_it_is_replayed() -> None:
    """The digit limit sees the amounts inside the actions, not only the stacks."""
    from tapete.core.actions import Action
    from tapete.core.rules import Rules
    from tapete.history.record import HandRecord
    from tapete.server.timeline import ReplayInputError, check_record

    ok = HandRecord(Rules(small_blind=1, big_blind=2), [200, 200],
                    [("act", 0, Action.raise_to(6)), ("act", 1, Action.call())])
    check_record(ok)
    huge = HandRecord(Rules(small_blind=1, big_blind=2), [200, 200],
                      [("act", 0, Action.raise_to(10 ** 40))])
    with pytest.raises(ReplayInputError) as refused:
        check_record(huge)
    assert "digits" in refused.value.message.en and "cifras" in refused.value.message.es
