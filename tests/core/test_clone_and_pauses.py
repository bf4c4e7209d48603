"""Hand.clone() and the explicit pause points (automations)."""

from __future__ import annotations

import pytest

from tapete.core import events as ev
from tapete.core.automation import ALL, Automation
from tapete.core.cards import Deck
from tapete.core.hand import Hand, HandError, Phase
from tapete.core.rules import Rules


def _all_in_preflop(automations: Automation | None = None) -> Hand:
    h = Hand(Rules(), [100, 100, 100], button=0, deck=Deck(seed=7), automations=automations)
    h.raise_to(100)
    h.call()
    h.call()
    return h


def test_clone_is_independent() -> None:
    h = Hand(Rules(), [100, 100, 100], button=0, deck=Deck(seed=7), auto_showdown=True)
    h.raise_to(6)
    c = h.clone()
    assert c.events == h.events and c.actor == h.actor and c.deck == h.deck
    before = list(h.events)
    while not c.done:
        c.check_or_call()
    assert h.events == before and not h.done and h.actor == c.events[len(before)].player
    # the original plays on to the same end with the same choices: the deck was copied
    while not h.done:
        h.check_or_call()
    assert h.events == c.events and h.results == c.results


def test_clone_of_a_finished_hand_keeps_its_results() -> None:
    h = _all_in_preflop(ALL)
    assert h.done
    c = h.clone()
    assert c.done and c.results == h.results and c.stacks == h.stacks


def test_default_runs_once_unasked() -> None:
    h = _all_in_preflop()
    assert not h.needs_runs() and len(h.board) == 5 and h.phase is Phase.SHOWDOWN


def test_the_run_out_choice_waits_when_asked() -> None:
    h = _all_in_preflop(Automation.DEAL | Automation.SHOW)
    assert h.needs_runs() and h.needs_cards() is None and h.board == []
    assert h.phase is Phase.DEAL and not h.done
    with pytest.raises(HandError):
        h.deal_board(h.deck[:3] if h.deck else ())
    once = h.clone()
    h.set_runs(2)
    assert h.done and len(h.boards) == 2 and all(len(b) == 5 for b in h.boards)
    assert ev.RunsChosen(2) in h.events
    once.set_runs(1)
    assert once.done and len(once.boards) == 1


def test_dealing_waits_when_asked() -> None:
    h = Hand(Rules(), [100, 100], button=0, deck=Deck(seed=3), automations=Automation.RUN_ONCE)
    assert h.needs_cards() == ("hole", 1, 2) and h.phase is Phase.DEAL
    h.deal()
    h.deal()
    assert h.phase is Phase.BETTING
    auto = Hand(Rules(), [100, 100], button=0, deck=Deck(seed=3))
    assert h.events == auto.events  # the same events, whoever takes the step
    h.call()
    h.check()
    assert h.needs_cards() == ("board", 0, 3)
    h.deal()
    assert len(h.board) == 3 and h.phase is Phase.BETTING
    with pytest.raises(HandError):
        h.deal()  # nothing is due while a player is to act


def test_the_showdown_waits_unless_automated() -> None:
    h = _all_in_preflop(Automation.DEAL | Automation.RUN_ONCE)
    assert h.phase is Phase.SHOWDOWN and h.needs_showdown() is not None
    auto = _all_in_preflop(ALL)
    assert auto.done and auto.needs_showdown() is None
    h.settle()
    assert h.done and h.events == auto.events
