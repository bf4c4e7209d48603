"""A node through the faults it expects (server/cluster.py, server/fanout.py,
server/supervise.py), in this one process, on SQLite, with fakes where a fault is needed:

- the shares of the tables (:func:`shares`: floor or ceiling of tables / nodes, the extra ones
  to the first nodes by id): a node over its share hands the surplus over, a client's claim
  respects the share as a round's does;
- a watcher at another node rides out a log that cannot be read (the database restarting):
  told once (``unavailable``), then every record, in order, none missed;
- a Redis publish that fails leaves no "Task exception was never retrieved", and is counted;
- a fenced write (a zombie's, as a hand starts) is one log line, no traceback; a round that
  meets the database down is one line however many times it fails, and is counted.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import sqlalchemy as sa

from tapete.room.log import EventLog, Record, TableConfig, now_ms
from tapete.server.cluster import NODES, Node, claimable, shares, surplus
from tapete.server.fanout import TABLE_CHANNEL, RedisFanout, Watcher
from tapete.server.rooms import Room
from tapete.server.supervise import Faults, Tasks
from tapete.server.transport import Outbox


# ---------------------------------------------------------------------------- the shares
def test_shares_are_floor_or_ceiling_the_extra_ones_by_id() -> None:
    assert shares(["c", "a", "b"], 10) == {"a": 4, "b": 3, "c": 3}
    assert shares(["a", "b", "c"], 24) == {"a": 8, "b": 8, "c": 8}
    assert shares(["b", "a"], 5) == {"a": 3, "b": 2}
    assert shares([], 7) == {}
    for n in range(1, 6):
        for tables in range(0, 40):
            got = shares([f"n{i}" for i in range(n)], tables)
            assert sum(got.values()) == tables
            assert max(got.values()) - min(got.values()) <= 1


def test_ten_tables_at_4_4_2_are_evened_out() -> None:
    # the audit's case: a share rounded up (4) left 4/4/2 for good
    counts = {"n0": 4, "n1": 4, "n2": 2}
    assert [surplus(n, counts, 10) for n in counts] == [0, 1, 0]
    assert [claimable(n, counts, 10) for n in counts] == [0, 0, 1]
    # 5/5/0 after a kill and a restart: the new node gets three
    counts = {"n0": 5, "n1": 5, "n2": 0}
    assert [surplus(n, counts, 10) for n in counts] == [1, 2, 0]
    assert claimable("n2", counts, 10) == 3


def test_after_a_death_two_live_nodes_claim_half_each() -> None:
    # 24 tables, a node dead with 8: the two live nodes (8 and 8) claim 4 each, not 14/10
    counts = {"a": 8, "b": 8}
    assert claimable("a", counts, 24) == 4 and claimable("b", counts, 24) == 4
    assert claimable("a", {"a": 12, "b": 8}, 24) == 0


class _Table:
    def __init__(self, table_id: str, epoch: int) -> None:
        self.table_id, self.epoch = table_id, epoch
        self.hand = None
        self.broken = False
        self.auto_start = True
        self.config = SimpleNamespace(practice=False)


class _Room:
    """What a node asks of its room here: the tables it runs."""

    def __init__(self, log: EventLog) -> None:
        self.log = log
        self.tables: dict[str, Any] = {}
        self.practice: dict[str, Any] = {}
        self.hub = SimpleNamespace(players={})

    def drop(self, table_id: str) -> None:
        self.tables.pop(table_id, None)

    def local_listing(self) -> list[dict[str, Any]]:
        return []

    def table_ids(self, everything: bool = False) -> list[str]:
        return sorted(self.tables)


def _cluster(tmp_path: Path, held: dict[str, int], me: str, dead: dict[str, int] | None = None
             ) -> tuple[Node, list[str]]:
    """Tables held by live nodes (``held``: node -> how many), expired ones of dead nodes,
    and node ``me`` running its own."""
    log = EventLog(f"sqlite:///{tmp_path / 'room.db'}")
    room = _Room(log)
    node = Node(room, me, "http://127.0.0.1:1", lease_ms=60_000)  # type: ignore[arg-type]
    node.scan_s = 0.01
    ids = []
    now = now_ms()
    with log.engine.begin() as conn:
        for n in held:
            conn.execute(NODES.insert().values(node=n, url=f"http://{n}", seen=now,
                                               draining=False))
    for n, count in list(held.items()) + list((dead or {}).items()):
        for _ in range(count):
            tid = log.create_table(TableConfig())
            ids.append(tid)
            ttl = 60_000 if n in held else -1_000  # a dead node's lease: run out
            epoch = log.claim(tid, n, ttl, now=now)
            assert epoch is not None
            if n == me:
                room.tables[tid] = SimpleNamespace(table=_Table(tid, epoch), connections=[])
    return node, ids


def test_a_node_over_its_share_hands_the_surplus_over(tmp_path: Path) -> None:
    node, _ = _cluster(tmp_path, {"n0.a": 4, "n1.b": 4, "n2.c": 2}, "n1.b")

    async def go() -> None:
        await node._claim()
        await node._rebalance()  # marks one table: no new hand
        await node._rebalance()  # between hands: stopped here, its lease released

    asyncio.run(go())
    released = [x for x in node.log.leases() if x.expires == 0]
    assert len(released) == 1 and released[0].owner == "n1.b", node.log.leases()
    assert node.stats["handed"] == 1 and len(node.room.tables) == 3


def test_a_clients_claim_respects_the_share(tmp_path: Path) -> None:
    # 24 tables, a dead node's 4 leases run out; a at 12 (its share) claims none of them for
    # a client that comes to it (b, at 8, claims them at its rounds), b claims for one
    a, ids = _cluster(tmp_path, {"a.1": 12, "b.2": 8}, "a.1", dead={"c.3": 4})
    orphan = ids[-1]
    adopted: list[str] = []

    async def adopt(table_id: str, via: str = "client") -> None:
        adopted.append(table_id)

    a.adopt = adopt  # type: ignore[method-assign]
    a._claimable()  # a round: the shares
    assert a._share == 12
    assert asyncio.run(a.route(orphan)) == ""  # try again: b claims it meanwhile
    assert adopted == []
    b = Node(_Room(a.log), "b.2", "http://b.2", lease_ms=60_000)  # type: ignore[arg-type]
    b.scan_s = 0.01
    b.adopt = adopt  # type: ignore[method-assign]
    b._claimable()
    assert b._share == 12
    asyncio.run(b.route(orphan))
    assert adopted and set(adopted) == {orphan}  # (the fake claim fails: asked again)


# ---------------------------------------------------------------------------- a watcher
def _outage() -> Exception:
    return sa.exc.OperationalError("SELECT ...", {}, Exception(
        "terminating connection due to administrator command"))


class _FlakyLog:
    """A table's log whose reads fail ``fails`` times (PostgreSQL restarting), then work."""

    def __init__(self, records: list[Record], fails: int) -> None:
        self.records = records
        self.fails = fails
        self.reads = 0

    def read(self, table_id: str, after: int = 0) -> list[Record]:
        self.reads += 1
        if self.fails > 0:
            self.fails -= 1
            raise _outage()
        return [r for r in self.records if r.seq > after]


def _node(log: Any, redis: Any = None) -> Any:
    faults = Faults("w.1")
    return SimpleNamespace(id="w.1", log=log, faults=faults, tasks=Tasks(faults), redis=redis,
                           room=SimpleNamespace(tables={}),
                           on=lambda channel: f"{channel}@0")


def test_a_watcher_rides_out_a_log_that_cannot_be_read() -> None:
    records = [Record(i, "chat", {"seat": 0, "text": f"line {i}"}, 0) for i in range(1, 9)]
    flaky = _FlakyLog(records[:6], fails=3)
    node = _node(flaky)
    fanout = RedisFanout(node)
    box = Outbox()
    w = Watcher("T", "someone", box, after=0)
    fanout.watchers["T"] = {w}

    async def go() -> list[dict[str, Any]]:
        follow = asyncio.get_running_loop().create_task(fanout.follow(w))
        got: list[dict[str, Any]] = []
        try:
            async with asyncio.timeout(20):
                while not got or got[-1].get("seq") != 8 or got[-1]["type"] != "record":
                    reading = asyncio.ensure_future(box.get())
                    done, _ = await asyncio.wait({reading, follow},
                                                 return_when=asyncio.FIRST_COMPLETED)
                    if reading not in done:
                        reading.cancel()
                        follow.result()  # the follower died: its error, here
                        raise AssertionError("the follower ended")
                    got.append(json.loads(reading.result()[0]))
                    if got[-1]["type"] == "error":
                        # while the log is down, records 7 and 8 are relayed: they wait for
                        # the ones before them, from the log
                        for r in records[6:]:
                            fanout.record_heard(f"{TABLE_CHANNEL}@0:T", json.dumps(
                                {"table": "T", "seq": r.seq, "kind": r.kind,
                                 "data": r.payload}))
        finally:
            follow.cancel()
        return got

    got = asyncio.run(go())
    assert got[0]["type"] == "error" and got[0]["code"] == "unavailable", got[0]
    assert got[0]["seq"] == 0 and got[0]["message"]["es"]
    assert [m["type"] for m in got[1:]] == ["record"] * 8
    assert [m["seq"] for m in got[1:]] == list(range(1, 9))  # every one, in order
    assert flaky.reads >= 4 and node.faults.counts["storage_unavailable"] >= 3


# ---------------------------------------------------------------------------- Redis
class _DeadRedis:
    async def publish(self, channel: str, data: str) -> int:
        import redis.exceptions

        raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379.")


def test_a_failed_publish_is_retrieved_and_counted(tmp_path: Path) -> None:
    node, _ = _cluster(tmp_path, {"n0.a": 0}, "n0.a")
    node.redis = _DeadRedis()
    unretrieved: list[dict[str, Any]] = []

    async def go() -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _, context: unretrieved.append(context))
        node.money_moved("someone", 100)  # published in the background, nobody awaits it
        for _ in range(20):
            await asyncio.sleep(0)
        gc.collect()
        await asyncio.sleep(0)

    asyncio.run(go())
    gc.collect()
    assert unretrieved == [], unretrieved
    assert node.info()["faults"]["redis_unavailable"] == 1


# ---------------------------------------------------------------------------- the log
def _tracebacks(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.exc_info]


def test_a_fenced_write_is_one_line_without_traceback(tmp_path: Path,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    # a zombie's table tries to store a hand's start: its lease moved on (another node claimed
    # the table), the write is refused (Fenced); it is dropped, said in one line
    node, (tid,) = _cluster(tmp_path, {"n0.a": 1}, "n0.a")
    log = node.log
    log.claim(tid, "n1.b", 60_000, force=True)  # another node took the table
    dropped: list[str] = []
    node.drop = dropped.append  # type: ignore[method-assign]

    class Owner:
        async def run(self) -> None:
            log.append(tid, 1, [("start", {"hand_no": 1})], epoch=1)

    running = SimpleNamespace(table=_Table(tid, 1), owner=Owner())

    async def tend(running: Any) -> None:
        return None

    room = SimpleNamespace(ownership=node, log=log, _tend_loop=tend)
    with caplog.at_level(logging.INFO, logger="tapete"):
        asyncio.run(Room._own(room, running))  # type: ignore[arg-type]
    assert dropped == [tid]
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 1 and tid in lines[0].getMessage(), [r.getMessage() for r in lines]
    assert not _tracebacks(caplog)
    assert node.info()["faults"]["fenced"] == 1


def test_rounds_that_meet_the_database_down_are_one_line(tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture
                                                         ) -> None:
    node, _ = _cluster(tmp_path, {"n0.a": 0}, "n0.a")
    failures = [5]
    rounds_ok = asyncio.Event()

    async def round_() -> None:
        if failures[0] > 0:
            failures[0] -= 1
            raise _outage()
        rounds_ok.set()

    node._round = round_  # type: ignore[method-assign]

    async def go() -> None:
        node.scan_s = 0.001
        task = asyncio.get_running_loop().create_task(node._loop())
        try:
            async with asyncio.timeout(30):
                await rounds_ok.wait()
        finally:
            task.cancel()

    with caplog.at_level(logging.INFO, logger="tapete"):
        asyncio.run(go())
    assert not _tracebacks(caplog)
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 2, lines  # down (once), and working again
    assert "storage_unavailable" in lines[0] and "OperationalError" in lines[0]
    assert node.info()["faults"]["storage_unavailable"] == 5


def test_a_supervised_task_that_dies_is_started_again(caplog: pytest.LogCaptureFixture
                                                      ) -> None:
    runs: list[int] = []
    again = asyncio.Event()

    async def work() -> None:
        runs.append(1)
        if len(runs) == 1:
            raise RuntimeError("a bug")
        again.set()
        await asyncio.sleep(3600)

    tasks = Tasks()

    async def go() -> None:
        tasks.keep(work, "a test task")
        async with asyncio.timeout(10):
            await again.wait()
        await tasks.stop()

    with caplog.at_level(logging.INFO, logger="tapete"):
        asyncio.run(go())
    assert len(runs) == 2 and tasks.faults.counts["task_restarts"] == 1
    assert len(_tracebacks(caplog)) == 1  # logged once, with its traceback


def test_a_node_that_lost_its_heartbeat_row_still_has_a_share(tmp_path: Path) -> None:
    node, _ = _cluster(tmp_path, {"n0.a": 2, "n1.b": 2}, "n0.a")
    with node.log.engine.begin() as conn:
        conn.execute(NODES.delete().where(NODES.c.node == "n0.a"))
    node._claimable()
    assert node._share == 2


def test_a_client_that_comes_while_the_database_is_down_is_told(tmp_path: Path,
                                                                 caplog: pytest.LogCaptureFixture
                                                                 ) -> None:
    # routing a client reads the leases: with the database down, the client is told to try
    # again (1013) in one log line, not a traceback of the ASGI application
    from starlette.testclient import TestClient
    from test_server import settings

    from tapete.server import create_app

    app = create_app(settings(tmp_path, node_id="n0.test", advertise="http://testserver"))
    with TestClient(app) as c, caplog.at_level(logging.INFO, logger="tapete"):
        c.get("/")
        node = app.state.ownership

        async def route(table_id: str) -> None:
            raise _outage()

        node.route = route
        with c.websocket_connect("/ws/t/some-table?records=1") as ws:
            m = ws.receive_json()
            assert m["type"] == "error" and m["code"] == "unavailable", m
            assert m["message"]["es"]
            assert ws.receive()["code"] == 1013
        assert node.info()["faults"]["storage_unavailable"] == 1
    assert not _tracebacks(caplog)
