"""Two nodes share presence and a table's chat through Redis (server/fanout.py): a chat line
said at the node that runs a table reaches a spectator watching it from the other node
(``?records=1&watch=1``: its records relayed through Redis, gap-free from its ``after``); the
room's presence (``GET /api/room/presence``) is the same at both nodes, and drops when a
client goes. Needs ``TAPETE_TEST_POSTGRES`` and a Redis, as test_nodes_chaos.py does; it
works in a Redis database of its own (``TAPETE_TEST_REDIS``'s, less two: 13 by default), so
that the chaos test's nodes, in 15, are not counted with its two."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
from nodes import NodeProcess, cookie, open_tables, pg_schema, running
from test_nodes_chaos import services

from waiting import HTTP, bound, until_async


def test_chat_and_presence_go_between_two_nodes(tmp_path: Path) -> None:
    pg, redis_url = services(shift=2)
    with pg_schema(pg) as db, running(["f0", "f1"], db, redis_url, 3.0, tmp_path) as nodes:
        asyncio.run(_play(nodes))


def _presence(nodes: list[NodeProcess]) -> list[dict[str, Any]]:
    return [httpx.get(f"{n.url}/api/room/presence", timeout=HTTP).json() for n in nodes]


async def _agreed(nodes: list[NodeProcess], table: str, players: int, spectators: int,
                  online: int) -> list[dict[str, Any]]:
    """Until both nodes say the same presence, the one expected (``waiting.bound()`` at
    most)."""
    want = {"players": players, "spectators": spectators}
    got: list[dict[str, Any]] = []

    async def agreed() -> bool:
        nonlocal got
        got = await asyncio.to_thread(_presence, nodes)
        return all(g["tables"].get(table) == want and g["online"] == online and g["nodes"] == 2
                   for g in got)
    if await until_async(agreed, every=0.1):
        return got
    raise AssertionError(f"presence {got}, not {want} and {online} online at both nodes")


async def _play(nodes: list[NodeProcess]) -> None:
    from websockets.asyncio.client import connect

    a, b = nodes
    (table,) = await asyncio.to_thread(open_tables, [a.url], 1)  # run by a
    assert table in a.info()["tables"] and table not in b.info()["tables"]
    player, watcher = await asyncio.to_thread(cookie, a.url), \
        await asyncio.to_thread(cookie, b.url)

    def ws(node: NodeProcess, query: str) -> str:
        return f"ws://127.0.0.1:{node.port}/ws/t/{table}?{query}"

    async with connect(ws(a, "records=1"), additional_headers={
            "Cookie": f"tapete_id={player}"}) as seated:
        await seated.send(json.dumps({"type": "take_seat", "name": "Ana", "buy_in": 100}))
        # a spectator at the other node: served there (not redirected), from record 1
        spectator = await connect(ws(b, "records=1&watch=1&after=0"),
                                  additional_headers={"Cookie": f"tapete_id={watcher}"})
        try:
            await _agreed(nodes, table, players=1, spectators=1, online=2)
            async def relaying() -> bool:  # the owner heard of the watcher, relays the table
                return table in (await asyncio.to_thread(a.info))["relaying"]
            if not await until_async(relaying, every=0.1):
                raise AssertionError(f"{a.name} relays no records of {table}")
            seqs: list[int] = []

            async def said(line: str) -> dict[str, Any]:
                await seated.send(json.dumps({"type": "chat", "text": line}))
                async with asyncio.timeout(bound()):
                    while True:
                        m = json.loads(await spectator.recv())
                        assert m["type"] == "record", m
                        seqs.append(m["seq"])
                        if m["kind"] == "chat" and m["data"]["text"] == line:
                            return dict(m["data"])

            # the first line may come from the log (a record stored before the relay began
            # leaves a gap, filled from the log); the second comes through Redis
            for n in range(2):
                line = f"hola {n} desde {a.name} {time.time_ns()}"
                got = await said(line)
                assert got["seat"] is not None and "player" not in got, got  # no id leaves
            assert seqs == list(range(1, len(seqs) + 1))  # gap-free from the first record
            # the lines came through Redis: relayed at a, sent on as relayed at b
            assert a.info()["relayed"] >= 2
            info = b.info()
            assert info["watched"] == 1 and info["from_redis"] >= 1, info["from_redis"]
            # what a watcher sends is refused: it only reads
            await spectator.send(json.dumps({"type": "chat", "text": "¿me oyen?"}))
            async with asyncio.timeout(bound()):
                while (m := json.loads(await spectator.recv()))["type"] != "error":
                    pass
            assert m["code"] == "watching" and m["message"]["es"], m
        finally:
            await spectator.close()
        # the spectator went: both nodes say so
        await _agreed(nodes, table, players=1, spectators=0, online=1)
    await _agreed(nodes, table, players=0, spectators=0, online=0)
