"""Bankrolls on several nodes: a table's bankroll moves are made in the transaction that
stores the record making them (``EventLog.append(within=...)`` with ``move_once_in``), so two
nodes spending the same player's chips at once take turns on the player's row: one is
stored with its move, the other is refused with nothing stored, and no chip is made twice.
On SQLite and, when ``TAPETE_TEST_POSTGRES`` names one, on PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_postgres import server_url

from tapete.core.catalog import t
from tapete.room.errors import Fenced, Refused
from tapete.room.log import EVENTS, EventLog, TableConfig
from tapete.server.storage import Storage, move_once_in
from waiting import bound


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'room.db'}"
        return
    from nodes import pg_schema

    with pg_schema(server_url()) as db:
        yield db


def _sit(log: EventLog, table: str, epoch: int, pid: str, chips: int) -> None:
    def within(conn: Any) -> None:
        if move_once_in(conn, f"{table}:1", pid, -chips) is None:
            raise Refused(t("your bankroll does not hold that many chips"))

    log.append(table, 1, [("sat", {"player": pid, "chips": chips})], epoch=epoch,
               within=within)


def test_two_nodes_cannot_spend_the_same_chips(url: str) -> None:
    storage = Storage(url)
    pid = storage.new_player().id  # 10,000 chips
    logs = [EventLog(Storage(url).engine) for _ in range(2)]  # two nodes' connections
    tables = [logs[0].create_table(TableConfig()) for _ in range(2)]
    epochs = [logs[i].claim(tables[i], f"node{i}", 10_000) for i in range(2)]
    outcome: list[str] = []
    barrier = threading.Barrier(2)

    def node(i: int) -> None:
        barrier.wait()
        try:
            _sit(logs[i], tables[i], epochs[i] or 0, pid, 8_000)
            outcome.append("stored")
        except Refused:
            outcome.append("refused")

    threads = [threading.Thread(target=node, args=(i,)) for i in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(outcome) == ["refused", "stored"]
    row = storage.get_player(pid)
    assert row is not None and row.bankroll == 2_000
    assert storage.room_moves(pid) == -8_000 and not storage.books(pid)
    stored = [len(logs[0].read(tid)) for tid in tables]
    assert sorted(stored) == [0, 1]  # the refused one stored nothing


def test_a_fenced_write_moves_no_money(url: str) -> None:
    storage = Storage(url)
    pid = storage.new_player().id
    log = EventLog(storage.engine)
    table = log.create_table(TableConfig())
    old = log.claim(table, "a", 1, now=0)
    assert log.claim(table, "b", 10_000) == 2  # a's lease ran out long ago
    with pytest.raises(Fenced):
        _sit(log, table, old or 0, pid, 500)
    row = storage.get_player(pid)
    assert row is not None and row.bankroll == 10_000 and storage.room_moves(pid) == 0


def test_a_claim_waits_for_an_append_in_flight(url: str) -> None:
    """The fence takes the lease row's lock: a claim that comes while the old owner's append
    is in flight waits for it, then sees its records (nothing is lost, nothing forks)."""
    import time

    a, b = EventLog(Storage(url).engine), EventLog(Storage(url).engine)
    table = a.create_table(TableConfig())
    old = a.claim(table, "a", 1, now=0)  # expired long ago, still unclaimed
    assert old == 1
    got: list[int | None] = []
    with a.engine.begin() as conn:  # a's append, in flight
        a._fence(conn, table, old)
        conn.execute(EVENTS.insert().values(table_id=table, seq=1, kind="x", payload="{}",
                                            at=0))
        claimer = threading.Thread(target=lambda: got.append(b.claim(table, "b", 10_000)))
        claimer.start()
        time.sleep(0.3)
        assert not got  # waiting for the lease row
    claimer.join(bound(60))
    assert got == [2] and [r.kind for r in b.read(table)] == ["x"]
    with pytest.raises(Fenced):
        a.append(table, 2, [("y", {})], epoch=old)
