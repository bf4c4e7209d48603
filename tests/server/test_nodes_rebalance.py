"""A node that starts again gets its share of the tables back (server/cluster.py,
``Node._rebalance``): the node holding more than its share hands its surplus over at once,
each table between two hands (it deals no new hand, and once the hand in play ends it stops
the table and releases its lease), and the lighter node claims them. The shares are the floor
or the ceiling of tables / nodes, the extra ones to the first nodes by id (``shares``): with a
third node, 2/2 becomes 2/1/1 (a share rounded up, 2, left the third node with none), each
table moved once. The players play on
throughout: no hand is lost or dealt twice (each table's hands are numbered 1, 2, ... in its
log, each one begun is ended), every client's records are gap-free, and the chips are
conserved, bankrolls included. Needs ``TAPETE_TEST_POSTGRES`` and a Redis, as
test_nodes_chaos.py does (Redis database ``TAPETE_TEST_REDIS``'s less four)."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path

from nodes import (
    Bot,
    NodeProcess,
    Stats,
    audit,
    cookie,
    last_seqs,
    open_tables,
    owners,
    pg_schema,
    players_of,
)
from test_nodes_chaos import services

from waiting import bound, until_async

TABLES = 4


def test_a_node_started_again_gets_its_share(tmp_path: Path) -> None:
    pg, redis_url = services(shift=4)
    with pg_schema(pg) as db:
        a = NodeProcess("r0", db, redis_url, 3.0, tmp_path)
        b = NodeProcess("r1", db, redis_url, 3.0, tmp_path)
        c = NodeProcess("r2", db, redis_url, 3.0, tmp_path)
        try:
            a.start()
            a.wait_up()
            stats, handed = asyncio.run(_play(db, a, b, c))
        finally:
            a.stop()
            b.stop()
            c.stop()
        got = audit(db, players_of(db))
        assert not got["problems"], got["problems"][:20]
        assert got["chips"] == got["expected"], got
        assert got["unfinished"] == 0, got
        assert not stats.gaps, stats.gaps[:10]
        assert handed == TABLES // 2 + 1  # two from a to b, then one from b to c: no churn
        from sqlalchemy import create_engine

        engine = create_engine(db)
        try:
            with engine.connect() as conn:
                starts: dict[str, list[int]] = {}
                for tid, payload in conn.exec_driver_sql(
                        "SELECT table_id, payload FROM tapete_room_events WHERE kind = 'start'"
                        " ORDER BY table_id, seq"):
                    starts.setdefault(tid, []).append(json.loads(payload)["hand_no"])
        finally:
            engine.dispose()
        assert len(starts) == TABLES
        for tid, numbers in starts.items():  # none lost, none dealt twice
            assert numbers == list(range(1, len(numbers) + 1)), (tid, numbers)


async def _split(db: str, nodes: list[NodeProcess], want: list[int], limit: float | None = None
                 ) -> tuple[dict[str, int], float]:
    """Until the nodes hold ``want`` tables each (``limit`` seconds at most): what they
    held last, and how long it took."""
    start = time.monotonic()
    limit = bound() if limit is None else limit
    split: dict[str, int] = {}
    while time.monotonic() - start < limit:
        held = await asyncio.to_thread(owners, db)
        split = {n.name: sum(1 for o in held.values() if o.startswith(n.name + "."))
                 for n in nodes}
        if list(split.values()) == want:
            break
        await asyncio.sleep(0.1)
    return split, time.monotonic() - start


async def _play(db: str, a: NodeProcess, b: NodeProcess, c: NodeProcess
                ) -> tuple[Stats, int]:
    rng = random.Random(7)
    urls = [a.url]
    tables = await asyncio.to_thread(open_tables, urls, TABLES)
    stats = Stats()
    bots = []
    for tid in tables:
        for seat in range(6):
            who = await asyncio.to_thread(cookie, a.url)
            bots.append(Bot(urls, tid, f"P{seat}", who, rng.randrange(2**32), stats))
    stop = asyncio.Event()
    playing = [asyncio.ensure_future(bot.run(stop)) for bot in bots]
    try:
        deadline = time.monotonic() + bound()
        while time.monotonic() < deadline:  # every table has dealt
            seqs = await asyncio.to_thread(last_seqs, db)
            if all(seqs.get(t, 0) > 12 for t in tables):
                break
            await asyncio.sleep(0.3)
        assert sorted((await asyncio.to_thread(a.info))["tables"]) == sorted(tables)
        # b starts: a holds all four, more than its share of two; it hands two over
        b.start()
        await asyncio.to_thread(b.wait_up)
        urls.append(b.url)
        split, took = await _split(db, [a, b], [TABLES // 2, TABLES // 2])
        assert split == {a.name: TABLES // 2, b.name: TABLES // 2}, split
        print(f"two nodes: {split} {took:.1f} s after the second answered")
        # c starts: 4 tables on 3 nodes are 2/1/1 (r0 first by id: the extra one); b hands
        # one over (with the share rounded up, 2, nobody did: c stayed at none)
        c.start()
        await asyncio.to_thread(c.wait_up)
        urls.append(c.url)
        split, took = await _split(db, [a, b, c], [2, 1, 1])
        assert split == {a.name: 2, b.name: 1, c.name: 1}, split
        # within a lease or so (the time a hand takes to end, and the claim) on a quiet
        # machine; held to a bound that holds on a busy one
        print(f"three nodes: {split} {took:.1f} s after the third answered")
        assert took < bound(60), took
        infos = await asyncio.gather(*(asyncio.to_thread(n.info) for n in (a, b, c)))
        handed = sum(int(i["handed"]) for i in infos)
        before = stats.hands
        # the players play on, at every node
        assert await until_async(lambda: stats.hands > before, every=0.1), (before, stats.hands)
        drained = await asyncio.gather(*(asyncio.to_thread(n.drain) for n in (a, b, c)))
        assert list(drained) == [0, 0, 0]
    finally:
        stop.set()
        await asyncio.gather(*playing, return_exceptions=True)
    return stats, handed
