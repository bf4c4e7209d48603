"""A node that starts again gets its share of the tables back (server/cluster.py,
``Node._rebalance``): the node holding more than its share hands tables over one at a time,
each between two hands (it deals no new hand, and once the hand in play ends it stops the
table and releases its lease), and the lighter node claims them. The players play on
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
        try:
            a.start()
            a.wait_up()
            stats, handed = asyncio.run(_play(db, a, b))
        finally:
            a.stop()
            b.stop()
        got = audit(db, players_of(db))
        assert not got["problems"], got["problems"][:20]
        assert got["chips"] == got["expected"], got
        assert got["unfinished"] == 0, got
        assert not stats.gaps, stats.gaps[:10]
        assert handed >= TABLES // 2
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


async def _play(db: str, a: NodeProcess, b: NodeProcess) -> tuple[Stats, int]:
    rng = random.Random(7)
    urls = [a.url]
    tables = await asyncio.to_thread(open_tables, urls, TABLES)
    stats = Stats()
    bots = []
    for tid in tables:
        for seat in range(6):
            c = await asyncio.to_thread(cookie, a.url)
            bots.append(Bot(urls, tid, f"P{seat}", c, rng.randrange(2**32), stats))
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
        split: dict[str, int] = {}
        deadline = time.monotonic() + bound()
        while time.monotonic() < deadline:
            held = await asyncio.to_thread(owners, db)
            split = {n.name: sum(1 for o in held.values() if o.startswith(n.name + "."))
                     for n in (a, b)}
            if split == {a.name: TABLES // 2, b.name: TABLES // 2}:
                break
            await asyncio.sleep(0.3)
        assert split == {a.name: TABLES // 2, b.name: TABLES // 2}, split
        handed = int((await asyncio.to_thread(a.info))["handed"])
        before = stats.hands
        # the players play on, at both nodes
        assert await until_async(lambda: stats.hands > before, every=0.1), (before, stats.hands)
        drained = await asyncio.gather(*(asyncio.to_thread(n.drain) for n in (a, b)))
        assert list(drained) == [0, 0]
    finally:
        stop.set()
        await asyncio.gather(*playing, return_exceptions=True)
    return stats, handed
