"""The event log on a database file (a real restart: a new engine on the same file), its
order and its owner check; the one task that owns a table."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import pytest
from roomfakes import Client, FakeBank

from tapete.core.actions import Action
from tapete.core.cards import Deck
from tapete.room.clock import ManualClock
from tapete.room.errors import Refused, Unavailable
from tapete.room.log import EventLog, TableConfig
from tapete.room.table import RoomTable, TableOwner, restore


def test_a_hand_survives_a_restart_on_a_database_file(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'room.db'}"
    bank = FakeBank({"a": 1_000, "b": 1_000, "c": 1_000})
    clock = ManualClock()
    table = RoomTable.open(EventLog(url), TableConfig(), bank, clock=clock,
                           deck=lambda: Deck(seed=42))
    for p, name in (("a", "Ann"), ("b", "Bob"), ("c", "Cy")):
        table.sit(p, name, 150)
    table.poll()
    hand = table.hand
    assert hand is not None and hand.actor is not None
    table.act(table.players[table.table.seat_of(hand.actor)], table.turn_seq or 0,
              Action.call())
    table.log.engine.dispose()  # the process is gone
    again = restore(EventLog(url), table.table_id, bank, clock=clock)
    assert again.hand is not None
    assert again.hand.events == hand.events and again.hand.deck == hand.deck
    assert again.hand.actor == hand.actor and again.turn_seq == table.turn_seq
    assert again.hand.legal() == hand.legal()
    watcher = Client(None)
    again.subscribe(watcher)  # the whole history, from seq 1
    assert [m["seq"] for m in watcher.messages] == list(range(1, again.seq + 1))


def test_the_log_keeps_each_table_in_order_and_refuses_a_gap() -> None:
    log = EventLog()
    one, two = log.create_table(TableConfig()), log.create_table(TableConfig(seats=2))
    log.append(one, 1, [("a", {"n": 1}), ("b", {"n": 2})], at=5)
    log.append(two, 1, [("c", {"n": 3})], at=6)
    with pytest.raises(Refused):
        log.append(one, 4, [("d", {})], at=7)  # a gap
    with pytest.raises(Refused):
        log.append(one, 2, [("d", {})], at=7)  # a record already there
    assert [(r.seq, r.kind) for r in log.read(one)] == [(1, "a"), (2, "b")]
    assert [(r.seq, r.kind) for r in log.read(one, after=1)] == [(2, "b")]
    assert log.read(two)[0].payload == {"n": 3} and log.config(two).seats == 2
    assert set(log.table_ids()) == {one, two}


def test_one_task_owns_the_table() -> None:
    bank = FakeBank({"a": 1_000, "b": 1_000})
    table = RoomTable.open(EventLog(), TableConfig(), bank, clock=ManualClock())

    async def main() -> None:
        owner = TableOwner(table, tick_s=60)
        task = asyncio.create_task(owner.run())
        assert await owner.call(table.sit, "a", "Ann", 100) == 0
        with pytest.raises(Refused):  # the caller gets the refusal
            await owner.call(table.sit, "b", "ann", 100)
        await owner.call(table.sit, "b", "Bob", 100)
        assert table.hand is not None  # after each command the owner polls: a hand began
        task.cancel()

    asyncio.run(main())


def test_a_failed_store_leaves_nothing_and_the_copy_stops() -> None:
    bank = FakeBank({"a": 1_000, "b": 1_000})
    log = EventLog()
    table = RoomTable.open(log, TableConfig(), bank, clock=ManualClock())
    table.sit("a", "Ann", 100)
    watcher = Client(None)
    table.subscribe(watcher)

    def down(*args: object, **kwargs: object) -> None:
        raise OSError("the database is down")

    real, table.log.append = table.log.append, down  # type: ignore[method-assign]
    with pytest.raises(Unavailable) as refused:  # the client may send it again (issue 29, 12)
        table.sit("b", "Bob", 100)
    assert refused.value.code == "unavailable" and refused.value.message.es
    assert isinstance(table.failure, OSError) and table.broken
    table.log.append = real  # type: ignore[method-assign]
    with pytest.raises(Refused):
        table.sit("b", "Bob", 100)  # this copy is done
    assert [m["kind"] for m in watcher.messages] == ["sat"]  # nothing published
    assert bank.balances == {"a": 900, "b": 1_000}  # nothing moved
    again = restore(log, table.table_id, bank, clock=ManualClock())
    assert again.seat_of("b") is None
    again.sit("b", "Bob", 100)
    assert bank.balances == {"a": 900, "b": 900}


def test_a_caller_that_gives_up_does_not_stop_the_owner() -> None:
    """A command whose caller was cancelled (a tab closed, a server stopping) still runs,
    and the owner goes on with the next ones."""
    async def main() -> list[Any]:
        owner = TableOwner(RoomTable.open(EventLog(), TableConfig(), FakeBank({})))
        gone = asyncio.create_task(owner.call(owner.table.summary))
        await asyncio.sleep(0)
        gone.cancel()
        runner = asyncio.create_task(owner.run())
        got = [await asyncio.wait_for(owner.call(owner.table.summary), 2.0)]
        with contextlib.suppress(Exception):
            got.append(await asyncio.wait_for(owner.call(lambda: 1 / 0), 2.0))
        got.append(runner.done())
        runner.cancel()
        return got

    got = asyncio.run(main())
    assert got[0]["seats"] == 6 and got[-1] is False  # answered, and the owner still runs
