"""The log written off the event loop with group commit (room/writer.py): many tables' records
in one transaction, a table whose lease moved on refused alone, and nothing of a command told
(a record to a subscriber, the caller's answer, a state) before its records are stored."""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from roomfakes import Client, FakeBank

from tapete.core.actions import Action
from tapete.room.clock import ManualClock
from tapete.room.errors import Fenced, Refused
from tapete.room.log import Append, EventLog, Record, TableConfig
from tapete.room.table import RoomTable, TableOwner, restore
from tapete.room.writer import GroupWriter
from waiting import until_async

TABLES = 12


def _log(tmp_path: Path) -> EventLog:
    log = EventLog(f"sqlite:///{tmp_path / 'room.db'}")
    assert log.groups  # a database file: a thread of its own may write it
    return log


def _commits(log: EventLog) -> list[int]:
    """Counts the transactions committed on ``log``'s SQLite file, by every connection taken
    from the pool from now on (the statements SQLite runs, traced)."""
    counted = [0]

    def trace(statement: str) -> None:
        if statement.strip().upper().startswith(("COMMIT", "END")):
            counted[0] += 1

    def checkout(dbapi_connection: Any, *_: Any) -> None:
        dbapi_connection.set_trace_callback(trace)

    sa.event.listen(log.engine, "checkout", checkout)
    return counted


class Gate:
    """Holds the writer's next transaction until the test opens the gate."""

    def __init__(self, log: EventLog) -> None:
        self.open = threading.Event()
        self.held = threading.Event()  # the writer is waiting at the gate
        self.groups: list[list[str]] = []  # the tables of each group the writer stored
        real = log.append_group

        def gated(appends: list[Append]) -> list[Exception | None]:
            self.held.set()
            assert self.open.wait(60)
            self.groups.append([a.table_id for a in appends])
            return real(appends)

        log.append_group = gated  # type: ignore[method-assign]


def _tables(log: EventLog, bank: FakeBank, n: int) -> list[RoomTable]:
    tables = []
    for i in range(n):
        table = RoomTable.open(log, TableConfig(auto_approve=True), bank, clock=ManualClock(),
                               auto_start=False)
        table.sit(f"p{i}", f"P{i}", 100)  # moves money: stored at once, before any owner
        tables.append(table)
    return tables


class Checked(Client):
    """A subscriber that, for every record it is sent, reads it back from the database
    (another engine: what a crash would leave) and the caller's answer not given yet."""

    def __init__(self, url: str, table_id: str) -> None:
        super().__init__(None)
        self.reader = EventLog(url)
        self.table_id = table_id
        self.unstored: list[int] = []

    def send(self, message: dict[str, Any]) -> None:
        seq = message["seq"]
        if not [r for r in self.reader.read(self.table_id, after=seq - 1) if r.seq == seq]:
            self.unstored.append(seq)
        super().send(message)


def test_many_tables_records_go_in_one_transaction(tmp_path: Path) -> None:
    log = _log(tmp_path)
    commits = _commits(log)  # the writer takes its connection once it stores
    tables = _tables(log, FakeBank({f"p{i}": 1_000 for i in range(TABLES)}), TABLES)
    gate = Gate(log)
    writer = GroupWriter(log)

    async def main() -> None:
        owners = [TableOwner(t, tick_s=60, writer=writer) for t in tables]
        runs = [asyncio.create_task(o.run()) for o in owners]
        calls = [asyncio.create_task(owners[0].call(tables[0].say, "p0", "hello"))]
        assert await until_async(gate.held.is_set)  # the first table's batch, at the gate
        calls += [asyncio.create_task(o.call(t.say, f"p{i}", "hello"))
                  for i, (o, t) in enumerate(zip(owners, tables, strict=True)) if i]
        # the others queue behind it, for one group
        assert await until_async(lambda: len(writer._queue) == TABLES - 1)
        commits[0] = 0
        assert not any(c.done() for c in calls)  # nobody answered: nothing stored yet
        gate.open.set()
        await asyncio.gather(*calls)
        assert commits[0] == 2  # two transactions for twelve tables' records
        for run in runs:
            run.cancel()

    asyncio.run(main())
    writer.close()
    assert [len(g) for g in gate.groups] == [1, TABLES - 1]
    assert writer.groups == 2 and writer.batches == TABLES
    for t in tables:
        assert [r.kind for r in log.read(t.table_id)] == ["sat", "chat"]
        assert t.seq == 2 and not t.unstored


@pytest.mark.parametrize("where", ["file", "postgres"])
def test_a_table_whose_lease_moved_on_fails_alone(where: str, tmp_path: Path) -> None:
    """In one group: a table whose lease another node claimed is refused (Fenced), and a
    table another process wrote meanwhile (the database refuses the group: stored again one
    table at a time) is refused; the first table's records are stored all the same."""
    url = f"sqlite:///{tmp_path / 'room.db'}" if where == "file" else \
        os.environ.get("TAPETE_TEST_POSTGRES", "")
    if not url:
        pytest.skip("TAPETE_TEST_POSTGRES names no PostgreSQL server")
    from tapete.server.storage import Storage

    log = EventLog(Storage(url).engine)
    assert log.groups
    ids = [log.create_table(TableConfig()) for _ in range(3)]
    epochs = [log.claim(tid, "node-a", 60_000) for tid in ids]
    assert epochs == [1, 1, 1]
    assert log.claim(ids[1], "node-b", 60_000, force=True) == 2  # another node took it
    other = EventLog(log.engine)  # another process stored table 2's first record already
    other.append(ids[2], 1, [("x", {})], epoch=1)
    log.append(ids[0], 1, [("x", {})], epoch=1)  # this process knows table 0's last record
    log._last[ids[2]] = 0  # and believes table 2 has none: the database refuses the group
    alone: list[str] = []
    real_alone = log._alone

    def one(a: Append) -> Exception | None:
        alone.append(a.table_id)
        return real_alone(a)

    log._alone = one  # type: ignore[method-assign]

    def batch(tid: str, first: int) -> Append:
        return Append(tid, [Record(first, "y", {"n": first}, 7)], 1)

    got = log.append_group([batch(ids[0], 2), batch(ids[1], 1), batch(ids[2], 1)])
    assert got[0] is None
    assert isinstance(got[1], Fenced) and isinstance(got[2], Refused)
    assert [r.seq for r in log.read(ids[0])] == [1, 2]  # stored all the same
    assert log.read(ids[1]) == [] and [r.kind for r in log.read(ids[2])] == ["x"]
    assert alone == ids  # the group refused (a duplicate key): stored one batch at a time
    # with the fences alone at fault, the group's one transaction stores the others
    alone.clear()
    fenced = log.fenced
    got = log.append_group([batch(ids[0], 3), batch(ids[1], 1)])
    assert got[0] is None and isinstance(got[1], Fenced) and log.fenced == fenced + 1
    assert alone == [] and [r.seq for r in log.read(ids[0])] == [1, 2, 3]


def test_an_owner_whose_lease_moved_on_breaks_alone(tmp_path: Path) -> None:
    """Through the owners: the table refused is broken and tells nothing; the others in the
    same group are stored and told."""
    log = _log(tmp_path)
    tables = _tables(log, FakeBank({f"p{i}": 1_000 for i in range(3)}), 3)
    for t in tables:
        t.epoch = log.claim(t.table_id, "node-a", 60_000)
    assert log.claim(tables[1].table_id, "node-b", 60_000, force=True) == 2
    watchers = [Client(None) for _ in tables]
    for t, w in zip(tables, watchers, strict=True):
        t.subscribe(w)
    gate = Gate(log)
    writer = GroupWriter(log)

    async def main() -> list[BaseException | None]:
        owners = [TableOwner(t, tick_s=60, writer=writer) for t in tables]
        runs = [asyncio.create_task(o.run()) for o in owners]
        calls = [asyncio.create_task(owners[0].call(tables[0].say, "p0", "hi"))]
        assert await until_async(gate.held.is_set)
        # the fence of the table refused is checked in the same group as the third's
        calls += [asyncio.create_task(o.call(t.say, f"p{i}", "hi"))
                  for i, (o, t) in enumerate(zip(owners, tables, strict=True)) if i]
        assert await until_async(lambda: len(writer._queue) == 2)
        gate.open.set()
        got = await asyncio.gather(*calls, return_exceptions=True)
        for run in runs:
            run.cancel()
        return got

    got = asyncio.run(main())
    writer.close()
    assert got[0] is None and got[2] is None and isinstance(got[1], Fenced)
    assert [len(g) for g in gate.groups] == [1, 2]
    assert tables[1].broken and isinstance(tables[1].failure, Fenced)
    assert [m["kind"] for m in watchers[0].messages] == ["sat", "chat"]
    assert [m["kind"] for m in watchers[1].messages] == ["sat"]  # nothing told
    assert [m["kind"] for m in watchers[2].messages] == ["sat", "chat"]
    assert [r.kind for r in log.read(tables[1].table_id)] == ["sat"]
    again = restore(log, tables[1].table_id, FakeBank({"p1": 900}), clock=ManualClock())
    assert again.seq == 1 and again.seat_of("p1") is not None


def test_nothing_is_told_before_it_is_stored(tmp_path: Path) -> None:
    """A hand played by the owner with the writer: every record a subscriber is sent is in
    the database already; while a batch waits at the writer the caller has no answer, the
    subscribers nothing, a state waits (``when_stored``); a command run outside the owner
    meanwhile waits for the batch and is told after it."""
    url = f"sqlite:///{tmp_path / 'room.db'}"
    log = _log(tmp_path)
    bank = FakeBank({"a": 1_000, "b": 1_000, "c": 1_000})
    table = RoomTable.open(log, TableConfig(), bank, clock=ManualClock(), auto_start=False)
    watcher = Checked(url, table.table_id)
    table.subscribe(watcher)
    writer = GroupWriter(log)

    async def main() -> None:
        owner = TableOwner(table, tick_s=60, writer=writer)
        run = asyncio.create_task(owner.run())
        for p, name in (("a", "Ann"), ("b", "Bob"), ("c", "Cy")):
            await owner.call(table.sit, p, name, 150)
        while watcher.hands_ended < 3:  # three hands, each record stored before it is told
            hand = table.hand
            if hand is None:
                await owner.call(table.start_hand)
                continue
            assert hand.actor is not None and table.turn_seq is not None
            player = table.hand_players[hand.actor]
            action = hand.legal()
            await owner.call(table.act, player, table.turn_seq,
                             Action.check() if action.check else Action.fold())
        # now hold the writer: the next command waits at it, telling nothing
        gate = Gate(log)
        told = len(watcher.messages)
        states: list[int] = []
        call = asyncio.create_task(owner.call(table.say, "a", "one"))
        assert await until_async(gate.held.is_set)
        assert table.unstored and not call.done() and len(watcher.messages) == told
        table.when_stored(lambda: states.append(table.seq))
        assert states == []
        # a command outside the owner (as a coordinator's) waits for the batch, then its own
        opener = threading.Thread(target=gate.open.set)
        opener.start()
        table.say("b", "two")
        opener.join()
        assert [m["data"]["text"] for m in watcher.messages[told:]] == ["one", "two"]
        assert states == [table.seq - 1]  # told once the first was, before the second
        await call
        run.cancel()

    asyncio.run(main())
    writer.close()
    assert watcher.unstored == []  # every record was in the database when it was sent
    assert watcher.last == table.seq and watcher.hands_ended >= 3
    assert [r.seq for r in log.read(table.table_id)] == list(range(1, table.seq + 1))


def test_a_restore_replays_what_the_writer_stored(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'room.db'}"
    log = _log(tmp_path)
    bank = FakeBank({"a": 1_000, "b": 1_000})
    table = RoomTable.open(log, TableConfig(), bank, clock=ManualClock())
    writer = GroupWriter(log)

    async def main() -> None:
        owner = TableOwner(table, tick_s=60, writer=writer)
        run = asyncio.create_task(owner.run())
        await owner.call(table.sit, "a", "Ann", 150)
        await owner.call(table.sit, "b", "Bob", 150)  # a hand begins (the owner polls)
        assert table.hand is not None
        await owner.call(table.say, "a", "good luck")
        run.cancel()

    asyncio.run(main())
    writer.close()
    again = restore(EventLog(url), table.table_id, bank, clock=ManualClock())
    assert again.seq == table.seq and again.hand is not None
    assert again.hand.events == table.hand.events  # type: ignore[union-attr]


def test_without_a_writer_each_command_is_stored_at_once() -> None:
    """Tables run without a loop's writer (tests, tools; an in-memory database) store each
    command as it runs, as before."""
    log = EventLog()
    assert not log.groups
    table = RoomTable.open(log, TableConfig(), FakeBank({"a": 1_000}), clock=ManualClock())
    table.sit("a", "Ann", 100)
    table.say("a", "hi")
    assert [r.kind for r in log.read(table.table_id)] == ["sat", "chat"] and not table.unstored
    with pytest.raises(RuntimeError):
        w = GroupWriter(log)
        w.close()
        asyncio.run(_submit(w))


async def _submit(w: GroupWriter) -> None:
    w.submit(Append("x", []))


def test_an_owner_stopped_while_its_records_are_stored_tells_them_first(
        tmp_path: Path) -> None:
    """An owner cancelled (a table dropped, handed to another node, a server stopping) while
    the writer stores its step's records ends that step as it would without a writer: the
    records told and the caller answered (a hand's end kept among the players' hands), then
    it stops."""
    log = _log(tmp_path)
    table = RoomTable.open(log, TableConfig(), FakeBank({"a": 1_000}), clock=ManualClock())
    table.sit("a", "Ann", 100)
    watcher = Client(None)
    table.subscribe(watcher)
    gate = Gate(log)
    writer = GroupWriter(log)

    async def main() -> tuple[Any, bool]:
        owner = TableOwner(table, tick_s=60, writer=writer)
        run = asyncio.create_task(owner.run())
        call = asyncio.create_task(owner.call(table.say, "a", "bye"))
        assert await until_async(gate.held.is_set)
        run.cancel()
        opener = threading.Thread(target=gate.open.set)
        opener.start()
        with contextlib.suppress(asyncio.CancelledError):
            await run
        opener.join()
        return await call, run.cancelled()

    got, stopped = asyncio.run(main())
    writer.close()
    assert got is None and stopped
    assert [m["kind"] for m in watcher.messages] == ["sat", "chat"] and not table.unstored
    assert [r.kind for r in log.read(table.table_id)] == ["sat", "chat"]
