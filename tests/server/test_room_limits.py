"""One client cannot fill the room (issue 29, 5). A new identity is one cookieless request
away, so the tables opened are counted per client address as well as per identity (the same
counters on one node and on several: Redis there), and the room stays open to everyone else.
A table that has had no person seated for ``idle_table_s`` closes, every chip back with its
owner (the test moves the sweep's clock; it does not wait ten minutes)."""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_room_ws import identity
from test_server import settings

from browser import LiveServer
from tapete.server import create_app
from tapete.server.alone import Counters
from tapete.server.app import client_address
from waiting import HTTP, LONG, bound

warnings.filterwarnings("ignore", category=DeprecationWarning)
from starlette.testclient import TestClient  # noqa: E402

TABLE = {"act_ms": 60_000, "bank_ms": 0, "bots": False}
IDLE = 600.0


def open_from(srv: LiveServer, address: str, cookie: str | None = None) -> httpx.Response:
    """A table opened by a new identity (or ``cookie``'s) from ``address``, as a proxy the
    server trusts says (``X-Forwarded-For``)."""
    return httpx.post(srv.url + "api/room/tables", json=TABLE,
                      cookies={"tapete_id": cookie or identity(srv)},
                      headers={"X-Forwarded-For": address})


def test_one_address_is_refused_after_its_tables_and_another_is_not(tmp_path: Path) -> None:
    app = create_app(settings(tmp_path, tables_per_address=3, tables_per_identity=2,
                              trusted_proxies=("127.0.0.1",)))
    with LiveServer(app) as srv:
        for _ in range(3):  # three identities, one address
            assert open_from(srv, "198.51.100.7").status_code == 201
        refused = open_from(srv, "198.51.100.7")  # a fourth identity: the address is spent
        assert refused.status_code == 429, refused.text
        words = refused.json()["error"]
        assert "network" in words["en"] and words["es"] != words["en"]
        assert open_from(srv, "203.0.113.9").status_code == 201  # someone else still can
        # and one identity from many addresses is still one identity
        me = identity(srv)
        assert open_from(srv, "192.0.2.1", me).status_code == 201
        assert open_from(srv, "192.0.2.2", me).status_code == 201
        again = open_from(srv, "192.0.2.3", me)
        assert again.status_code == 429 and "2 tables" in again.json()["error"]["en"]
        assert len(app.state.room.tables) == 6
        # a refused request opened nothing, and a bad one counts nothing
        bad = httpx.post(srv.url + "api/room/tables", json={"seats": 99},
                         cookies={"tapete_id": identity(srv)},
                         headers={"X-Forwarded-For": "203.0.113.9"})
        assert bad.status_code == 400
        assert open_from(srv, "203.0.113.9").status_code == 201


def test_tournaments_count_as_tables_opened(tmp_path: Path) -> None:
    """A tournament opens tables: creating one counts against the same limits, per identity
    and per address (issue 29: one client could otherwise fill the room through them)."""
    app = create_app(settings(tmp_path, tables_per_address=3, tables_per_identity=2,
                              trusted_proxies=("127.0.0.1",)))
    tour = {"name": "Sunday", "seats": 9, "starting_stack": 3000, "buy_in": 100}

    def create(address: str, cookie: str | None = None) -> httpx.Response:
        return httpx.post(srv.url + "api/room/tournaments", json=tour,
                          cookies={"tapete_id": cookie or identity(srv)},
                          headers={"X-Forwarded-For": address}, timeout=HTTP)

    with LiveServer(app) as srv:
        assert open_from(srv, "198.51.100.7").status_code == 201  # a table, then
        for _ in range(2):  # two tournaments, each by a new identity: the address is spent
            got = create("198.51.100.7")
            assert got.status_code == 201, got.text
        refused = create("198.51.100.7")
        assert refused.status_code == 429, refused.text
        assert "network" in refused.json()["error"]["en"]
        assert open_from(srv, "198.51.100.7").status_code == 429  # tables too: one count
        me = identity(srv)
        assert create("203.0.113.9", me).status_code == 201
        assert open_from(srv, "203.0.113.10", me).status_code == 201
        assert create("203.0.113.11", me).status_code == 429  # the identity's two, spent
        assert len(app.state.room.tournaments.all) == 3


def scope(peer: str, forwarded: str | None = None) -> dict[str, Any]:
    headers = [] if forwarded is None else [(b"x-forwarded-for", forwarded.encode())]
    return {"type": "http", "client": (peer, 4321), "headers": headers}


def test_the_client_address_believes_only_the_proxies_it_is_told_to() -> None:
    # nobody trusted (the default): a client cannot name its own address
    assert client_address(scope("198.51.100.7", "1.2.3.4")) == "198.51.100.7"
    assert client_address(scope("127.0.0.1", "1.2.3.4")) == "127.0.0.1"
    local = ("127.0.0.1", "10.0.0.0/8")
    assert client_address(scope("127.0.0.1", "1.2.3.4"), local) == "1.2.3.4"
    # what the client wrote before the proxy's own entry is not believed
    assert client_address(scope("127.0.0.1", "6.6.6.6, 1.2.3.4"), local) == "1.2.3.4"
    assert client_address(scope("127.0.0.1", "1.2.3.4, 10.1.2.3"), local) == "1.2.3.4"
    assert client_address(scope("198.51.100.7", "1.2.3.4"), local) == "198.51.100.7"
    assert client_address(scope("127.0.0.1"), local) == "127.0.0.1"
    # an IPv6 client counts as its /64
    assert client_address(scope("2001:db8::1")) == client_address(scope("2001:db8::ffff")) \
        == "2001:db8::/64"


def test_the_counters_of_one_node_count_in_fixed_windows() -> None:
    c = Counters()
    assert [c.allow("k", 2, 60, now=120.0) for _ in range(3)] == [True, True, False]
    assert c.allow("other", 2, 60, now=121.0)
    assert c.allow("k", 2, 60, now=180.0)  # the next window


# ---------------------------------------------------------------------------- idle tables
@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(settings(tmp_path, idle_table_s=IDLE))
    with TestClient(app) as c:
        c.get("/")
        yield c


def call(c: TestClient, fn: Any, *args: Any) -> Any:
    assert c.portal is not None
    return c.portal.call(fn, *args)  # in the server's event loop


def until(c: TestClient, what: Any, limit: float = LONG) -> None:
    deadline = time.monotonic() + bound(limit)
    while not call(c, what):
        assert time.monotonic() < deadline, "not in time"
        call(c, _a_moment)


async def _a_moment() -> None:
    import asyncio

    await asyncio.sleep(0.02)


def test_a_table_nobody_sits_at_closes_and_one_with_a_person_stays(client: TestClient) -> None:
    room = client.app.state.room  # type: ignore[attr-defined]
    empty = client.post("/api/room/tables", json=TABLE).json()["table"]
    kept = client.post("/api/room/tables", json=TABLE).json()["table"]
    with client.websocket_connect(f"/ws/t/{empty}") as watcher, \
            client.websocket_connect(f"/ws/t/{kept}") as ws:
        ws.send_text(json.dumps({"type": "take_seat", "name": "Ana", "buy_in": 100}))
        while (m := json.loads(ws.receive_text()))["type"] != "state" \
                or not m["room"]["seated"]:
            pass
        now = time.monotonic()
        assert call(client, room.sweep, now + IDLE / 2) == []  # not yet
        assert call(client, room.sweep, now + IDLE + 1) == [empty]
        while (m := json.loads(watcher.receive_text()))["type"] != "error":
            pass
        assert m["code"] == "no_table" and m["message"]["es"] != m["message"]["en"]
        assert empty not in room.tables and kept in room.tables
        assert call(client, room.sweep, now + 100 * IDLE) == []  # a person is seated
        assert client.get(f"/t/{empty}").status_code == 404
        assert empty not in [x["table"] for x in client.get("/api/room/tables").json()]
    until(client, lambda: empty not in room.log.table_ids())  # a restart does not bring it


def test_an_idle_table_closes_once_its_bots_stood_up_every_chip_back(
        client: TestClient) -> None:
    room = client.app.state.room  # type: ignore[attr-defined]
    storage = client.app.state.storage  # type: ignore[attr-defined]
    table = client.post("/api/room/tables", json={**TABLE, "bots": True,
                                                   "act_ms": 1000}).json()["table"]
    running = room.tables[table]
    with client.websocket_connect(f"/ws/t/{table}") as ws:
        ws.send_text(json.dumps({"type": "take_seat", "name": "Ana", "buy_in": 100}))
        until(client, lambda: len(running.table.players) > 2)  # the bots sat down
        call(client, room.sweep, time.monotonic() + 10 * IDLE)
        assert table in room.tables  # a person seated: never
        ws.send_text(json.dumps({"type": "leave"}))
        until(client, lambda: not running.table.players)  # the bots stood up too
        left = time.monotonic()
        call(client, room.sweep, left)
        assert table in room.tables
        assert call(client, room.sweep, left + IDLE) == [table]
    until(client, lambda: table not in room.log.table_ids())
    rt = running.table
    assert rt.table_chips() == 0
    # every chip the table took went back: the moves of its records add up to its rake
    keys = storage.room_move_keys(table)
    assert keys
    from sqlalchemy import func, select

    from tapete.server.storage import room_moves_table as m
    with storage.engine.connect() as conn:
        moved = conn.execute(select(func.sum(m.c.bankroll)).where(m.c.key.in_(keys))).scalar()
        movers = {str(p) for (p,) in conn.execute(select(m.c.player_id).where(
            m.c.key.in_(keys)))}
    assert int(moved) == -rt.raked
    assert len(movers) > 2  # the person and the bots
    for pid in movers:
        assert storage.books(pid) == []
