"""A table asks its policy (room/policy.py) what its records do not say: whether to deal,
when, how long its bots think, whether its timers wait for a person away."""

from __future__ import annotations

from typing import Any

from roomfakes import FakeBank

from tapete.core.actions import Action
from tapete.core.cards import Deck
from tapete.room.clock import ManualClock
from tapete.room.log import EventLog, TableConfig
from tapete.room.policy import PracticePolicy, TablePolicy
from tapete.room.table import RoomTable


def _table(policy: TablePolicy, agents: dict[str, Any] | None = None) -> RoomTable:
    log = EventLog()
    config = TableConfig(seats=2)
    t = RoomTable(log, log.create_table(config), config, FakeBank({"a": 1000, "b": 1000}),
                  clock=ManualClock(1_000), policy=policy, agents=agents)
    t.sit("a", "Ana", 100)
    t.sit("b", "Bea", 100)
    return t


def test_a_table_its_node_holds_back_deals_no_new_hand() -> None:
    back = [True]
    t = _table(TablePolicy(deck=lambda: Deck(seed=1), held_back=lambda tid: back[0]))
    assert not t.poll() and t.due_ms() is None and t.hand is None
    back[0] = False
    assert t.due_ms() == 0 and t.poll() and t.hand is not None


class Page:
    """The person's side of a practice table: back, dealing, at the table's pace."""

    def deals(self) -> bool:
        return True

    def deal_at(self) -> int | None:
        return None

    def think_ms(self) -> int | None:
        return 2_000

    def held(self) -> bool:
        return False

    def hand_ended(self, table: Any) -> None:
        return


def test_a_restored_practice_table_waits_for_its_persons_page() -> None:
    policy = PracticePolicy(deck=lambda: Deck(seed=3), restored=True)
    bot = {"b": lambda setup, events, p: Action.fold()}
    t = _table(policy, agents=bot)
    assert policy.held(t)  # a person seated, no page yet: nothing moves
    t.start_hand()
    turn = t.turn_seq
    t.clock.advance(10 * 60_000)  # long past any deadline
    assert not t.poll() and t.due_ms() is None and t.hand is not None and t.turn_seq == turn
    policy.attach(Page())
    assert t.due_ms() == 0
    t.poll()  # released: whoever is to act starts afresh, with the disconnect grace
    assert t.turn_at == t.clock.now_ms() and t.grace_turn == t.turn_seq == turn
    assert policy.think_ms(t) == 2_000
