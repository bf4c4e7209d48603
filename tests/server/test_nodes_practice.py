"""A person's practice table on several nodes: their practice socket (``/ws``) reaches it
wherever it runs. At a node that does not run it they are sent to the one that does (the
``moved`` error, as for a room table); when that node dies, the node they reach next claims
the table once its lease runs out and seats them at it again, the hand where it stood.
Needs ``TAPETE_TEST_POSTGRES`` and a Redis, as test_nodes_chaos.py does (Redis database
``TAPETE_TEST_REDIS``'s less three)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from nodes import NodeProcess, cookie, pg_schema, running
from test_nodes_chaos import services

from waiting import bound


def test_a_practice_socket_reaches_its_table_on_any_node(tmp_path: Path) -> None:
    pg, redis_url = services(shift=3)
    with pg_schema(pg) as db, running(["p0", "p1"], db, redis_url, 3.0, tmp_path) as nodes:
        asyncio.run(_play(nodes))


async def _first_state(url: str, who: str, limit: float = 60) -> dict[str, Any]:
    """The first state (or ``moved`` error) a ``/ws`` connection at ``url`` is sent."""
    from websockets.asyncio.client import connect

    async with connect(url, additional_headers={"Cookie": f"tapete_id={who}"}) as ws:
        async with asyncio.timeout(bound(limit)):
            while True:
                m = json.loads(await ws.recv())
                if m["type"] == "state" or m["type"] == "error":
                    return dict(m)


def _names(state: dict[str, Any]) -> list[str]:
    return sorted(s["name"] for s in state["seats"] if s)


async def _play(nodes: list[NodeProcess]) -> None:
    from websockets.asyncio.client import connect

    a, b = nodes
    who = await asyncio.to_thread(cookie, a.url)
    at_a, at_b = f"ws://127.0.0.1:{a.port}/ws", f"ws://127.0.0.1:{b.port}/ws"
    async with connect(at_a, additional_headers={"Cookie": f"tapete_id={who}"}) as ws:
        await ws.send(json.dumps({"type": "sit", "structure": "nl", "blinds": 0}))
        async with asyncio.timeout(bound()):
            while not ((m := json.loads(await ws.recv()))["type"] == "state"
                       and not m["lobby"] and m["live"]):
                pass
    seated = _names(m)
    assert len(seated) == 6, seated
    assert len(a.info()["tables"]) == 1 and b.info()["tables"] == []
    # at the other node: sent to a (once a has noted the table in Redis: a round or two)
    deadline = asyncio.get_running_loop().time() + bound()
    while asyncio.get_running_loop().time() < deadline:
        got = await _first_state(at_b, who)
        if got["type"] == "error":
            break
        assert got["lobby"], got  # not noted yet: b shows the lobby, and runs nothing
        await asyncio.sleep(0.2)
    assert got["code"] == "moved" and got["url"] == at_a, got
    back = await _first_state(got["url"], who)
    assert not back["lobby"] and _names(back) == seated, back
    # a dies: b claims the table once its lease is out, and seats the person at it again
    a.kill()
    # as the page does: to b, to where b sends it (a, for the moment a still looks alive:
    # the connection fails), to b again after a moment (between owners)
    got = {}
    deadline = asyncio.get_running_loop().time() + bound()
    while asyncio.get_running_loop().time() < deadline:
        try:
            got = await _first_state(at_b, who)  # held at b till the lease is out
            if got["type"] == "error" and got["url"]:
                got = await _first_state(got["url"], who)
        except OSError:
            pass
        if got.get("type") == "state":
            break
        await asyncio.sleep(0.3)
    assert got["type"] == "state" and not got["lobby"], got
    assert _names(got) == seated  # the same table: the person and the same five bots
    assert len(b.info()["tables"]) == 1 and b.info()["claimed"] == 1
