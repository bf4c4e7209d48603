"""A table's lease (several nodes over one log): claimed once expired, renewed by its owner,
each claim a new epoch; every write quotes the epoch, so a writer that lost the lease (a
zombie: paused past its lease, then woken) is refused and counted, and its table goes on at
the node that claimed it, from the log, with nothing of the zombie's."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from roomfakes import Client, FakeBank

from tapete.core.actions import Action
from tapete.core.cards import Deck
from tapete.core.catalog import t
from tapete.room.clock import ManualClock
from tapete.room.errors import Fenced, Refused
from tapete.room.log import EventLog, TableConfig
from tapete.room.table import RoomTable, restore

TTL = 5_000


def test_a_lease_is_claimed_when_free_or_expired_and_renewed_by_its_owner() -> None:
    log = EventLog()
    tid = log.create_table(TableConfig())
    assert log.claim(tid, "a", TTL, now=1_000) == 1
    assert log.claim(tid, "b", TTL, now=2_000) is None  # a holds it
    assert log.renew(tid, "a", 1, TTL, now=5_000)  # until 10,000 now
    assert log.claim(tid, "b", TTL, now=9_000) is None
    assert log.claim(tid, "b", TTL, now=10_001) == 2  # expired: b's, a new epoch
    assert not log.renew(tid, "a", 1, TTL, now=10_002)  # a lost it
    assert log.fenced_renewals == 1
    lease = log.lease(tid)
    assert lease is not None and (lease.owner, lease.epoch) == ("b", 2)
    assert log.release(tid, "b", 2)
    assert not log.release(tid, "a", 1)
    assert log.claim(tid, "a", TTL, now=10_003) == 3  # released: free at once
    assert log.claim(tid, "b", TTL, now=10_004, force=True) == 4
    assert [x.owner for x in log.leases()] == ["b"]


def test_a_node_renews_all_its_leases_at_once_and_learns_which_it_lost() -> None:
    log = EventLog()
    tids = [log.create_table(TableConfig()) for _ in range(4)]
    for tid in tids:
        assert log.claim(tid, "a", TTL, now=1_000) == 1
    assert log.claim(tids[1], "b", TTL, now=6_001) == 2  # a's expired: b took it
    held = [(tid, 1) for tid in tids]
    # the stale epoch of tids[1] is a's no more; a wrong epoch is not renewed either
    kept = log.renew_many("a", [*held[:3], (tids[3], 7)], TTL, now=6_002)
    assert kept == {tids[0], tids[2]}
    assert log.fenced_renewals == 2
    by = {x.table_id: x for x in log.leases()}
    assert by[tids[0]].expires == by[tids[2]].expires == 11_002
    assert (by[tids[1]].owner, by[tids[1]].expires) == ("b", 11_001)  # b's, untouched
    assert by[tids[3]].expires == 6_000  # not renewed: expired, anyone's
    assert log.renew_many("a", [], TTL) == set()


def test_an_append_is_fenced_by_its_epoch() -> None:
    log = EventLog()
    tid = log.create_table(TableConfig())
    epoch = log.claim(tid, "a", TTL, now=0)
    assert epoch == 1
    log.append(tid, 1, [("x", {})], epoch=epoch)
    assert log.claim(tid, "b", TTL, now=TTL + 1) == 2
    with pytest.raises(Fenced):
        log.append(tid, 2, [("y", {})], epoch=1)
    with pytest.raises(Fenced):
        log.save_snapshot(tid, 1, {}, epoch=1)
    assert log.fenced == 2
    log.append(tid, 2, [("z", {})], epoch=2)
    assert [r.kind for r in log.read(tid)] == ["x", "z"]
    # with no epoch (one node), the sequence number alone decides
    log.append(tid, 3, [("w", {})])


def _logs(url: str) -> tuple[EventLog, EventLog]:
    """Two nodes' connections to one log, each with its own engine (SQLAlchemy's, as the
    server makes it: a pool, a SQLite file in write-ahead mode)."""
    from tapete.server.storage import Storage

    return EventLog(Storage(url).engine), EventLog(Storage(url).engine)


@pytest.mark.parametrize("where", ["file", "postgres"])
def test_the_one_statement_append_is_fenced_and_keyed(where: str, tmp_path: Path) -> None:
    """A file or server database appends in one statement (no transaction, no read of the
    last seq): the epoch and the (table, seq) key refuse what the slow path refused."""
    url = f"sqlite:///{tmp_path / 'room.db'}" if where == "file" else \
        os.environ.get("TAPETE_TEST_POSTGRES", "")
    if not url:
        pytest.skip("TAPETE_TEST_POSTGRES names no PostgreSQL server")
    a, b = _logs(url)
    assert a._fast is not None and b._fast is not None  # the path under test
    tid = a.create_table(TableConfig())
    e1 = a.claim(tid, "a", 60_000)
    assert e1 is not None
    a.append(tid, 1, [("x", {"n": 1})], epoch=e1)  # the first reads the last seq
    a.append(tid, 2, [("x", {"n": 2}), ("y", {"n": 3})], epoch=e1)  # one statement
    e2 = b.claim(tid, "b", 60_000, force=True)
    assert e2 == e1 + 1
    with pytest.raises(Fenced):  # a zombie's batch: none of it stored
        a.append(tid, 4, [("z", {}), ("z", {})], epoch=e1)
    assert a.fenced == 1
    b.append(tid, 4, [("x", {"n": 4})], epoch=e2)
    b.append(tid, 5, [("x", {"n": 5})], epoch=e2)
    # a writer that believes it knows the last seq, but another wrote it: the key refuses
    # it, and its next try asks the database
    c, _ = _logs(url)
    c._last[tid] = 5
    b.append(tid, 6, [("x", {"n": 6})], epoch=e2)
    with pytest.raises(Refused):
        c.append(tid, 6, [("w", {})], epoch=e2)
    with pytest.raises(Refused):  # the slow path: the database's last seq is 6
        c.append(tid, 6, [("w", {})], epoch=e2)
    c.append(tid, 7, [("x", {"n": 7})], epoch=e2)
    # without an epoch (one node) the seq alone decides
    b.append(tid, 8, [("x", {"n": 8})])
    got = b.read(tid)
    assert [r.seq for r in got] == list(range(1, 9))
    assert [r.kind for r in got] == ["x", "x", "y", "x", "x", "x", "x", "x"]
    assert [r.payload.get("n") for r in got] == [1, 2, 3, 4, 5, 6, 7, 8]


def test_a_move_made_within_an_append_is_undone_with_it() -> None:
    log = EventLog()
    tid = log.create_table(TableConfig())
    made: list[int] = []

    def within(_conn: object) -> None:
        made.append(1)
        raise Refused(t("your bankroll does not hold that many chips"))

    with pytest.raises(Refused):
        log.append(tid, 1, [("x", {})], within=within)
    assert made == [1] and log.read(tid) == []


def test_a_zombie_owner_is_refused_and_the_new_owner_goes_on(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'room.db'}"
    bank = FakeBank({"a": 1_000, "b": 1_000, "c": 1_000})
    clock = ManualClock()
    log_a = EventLog(url)  # node a's connection to the shared log
    tid = log_a.create_table(TableConfig())
    epoch_a = log_a.claim(tid, "a", TTL)
    assert epoch_a == 1
    zombie = RoomTable(log_a, tid, TableConfig(), bank, clock=clock,
                       deck=lambda: Deck(seed=7), epoch=epoch_a)
    for p, name in (("a", "Ann"), ("b", "Bob"), ("c", "Cy")):
        zombie.sit(p, name, 150)
    zombie.poll()  # the hand starts
    hand = zombie.hand
    assert hand is not None and hand.actor is not None
    # node a is paused past its lease; node b claims the table and restores it
    log_b = EventLog(url)
    epoch_b = log_b.claim(tid, "b", TTL, now=10**15)  # long after a's lease ran out
    assert epoch_b == 2
    owner = restore(log_b, tid, bank, clock=clock, epoch=epoch_b)
    assert owner.hand is not None and owner.hand.events == hand.events
    watcher = Client(None)
    owner.subscribe(watcher)
    # the zombie wakes and plays on: refused, counted, and it answers nothing more
    actor = zombie.players[zombie.table.seat_of(hand.actor)]
    with pytest.raises(Fenced):
        zombie.act(actor, zombie.turn_seq or 0, Action.call())
    assert zombie.broken and log_a.fenced == 1
    with pytest.raises(Refused):
        zombie.act(actor, zombie.turn_seq or 0, Action.call())
    assert log_a.fenced == 1  # refused by the table itself, never reaching the log
    # the new owner takes the same decision: the same cards, nothing of the zombie's
    owner.act(actor, owner.turn_seq or 0, Action.fold())
    kinds = [r.kind for r in log_b.read(tid)]
    assert kinds.count("start") == 1
    assert log_b.read(tid)[-2].payload["event"]["action"] == "fold"
    assert [m["seq"] for m in watcher.messages] == list(range(1, owner.seq + 1))


def test_two_nodes_racing_for_one_lease_get_one_epoch_each(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'room.db'}"
    logs = [EventLog(url) for _ in range(4)]
    tid = logs[0].create_table(TableConfig())
    got: list[int | None] = []
    barrier = threading.Barrier(len(logs))

    def claim(i: int) -> None:
        barrier.wait()
        got.append(logs[i].claim(tid, f"n{i}", TTL))

    threads = [threading.Thread(target=claim, args=(i,)) for i in range(len(logs))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(x for x in got if x is not None) == [1]  # one winner
