"""A private table's id is its link (issue 29, 1): no answer of the server names it to
someone who has not been given it. A stranger (no cookie, or a cookie of their own) asks every
endpoint while the table's host sits at it and a spectator with the link watches: none of the
bodies holds the id. Presence counts the private table without naming it; the operator, with
the operator token, is told every table's id; a wrong token is refused."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_room_ws import identity, open_table, recv, ws
from test_server import settings

from browser import LiveServer
from tapete.server import create_app
from tapete.server.fanout import merged

TOKEN = "an-operator-token-for-the-tests"
# what a stranger may ask for without knowing any table's id
ENDPOINTS = ("/", "/room", "/replay", "/api/me", "/api/hands", "/api/room/tables",
             "/api/room/node", "/api/room/presence", "/api/room/tournaments",
             "/api/replay/hand/x", "/api/hands/x.json", "/api/hands/x.phh", "/t/x",
             "/api/room/tables/x/ledger", "/api/room/tournaments/x")


@pytest.fixture
def srv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    monkeypatch.setenv("TAPETE_OPERATOR_TOKEN", TOKEN)  # the setting's default
    with LiveServer(create_app(settings(tmp_path))) as s:
        yield s


def seated(w: Any) -> None:
    w.send(json.dumps({"type": "take_seat", "name": "Ana", "buy_in": 100}))
    while (m := recv(w))["type"] != "state" or not m["room"]["seated"]:
        pass


def presence_counts(srv: LiveServer, private: dict[str, int]) -> dict[str, Any]:
    got: dict[str, Any] = {}
    for _ in range(200):  # a socket joins just after its handshake
        got = httpx.get(srv.url + "api/room/presence").json()
        if got.get("private") == private:
            return got
        time.sleep(0.05)
    raise AssertionError(got)


def test_no_endpoint_names_a_private_table_to_a_stranger(srv: LiveServer) -> None:
    host, watcher, stranger = identity(srv), identity(srv), identity(srv)
    private = open_table(srv, host, public=False, bots=False)
    public = open_table(srv, host, bots=False)
    with ws(srv, private, host) as w, ws(srv, private, watcher):
        seated(w)
        got = presence_counts(srv, {"tables": 1, "players": 1, "spectators": 1})
        assert private not in json.dumps(got)
        assert public in got["tables"]  # a public table is named
        for path in ENDPOINTS:
            for cookies in ({}, {"tapete_id": stranger}):
                r = httpx.get(srv.url + path.lstrip("/"), cookies=cookies)
                assert private not in r.text, (path, cookies, r.text[:300])
        # the operator is told every table; a wrong token is refused, in both languages
        info = httpx.get(srv.url + "api/room/node",
                         headers={"Authorization": f"Bearer {TOKEN}"}).json()
        assert sorted(info["tables"]) == sorted([private, public])
        wrong = httpx.get(srv.url + "api/room/node",
                          headers={"Authorization": "Bearer not-the-token"})
        assert wrong.status_code == 403 and private not in wrong.text
        assert wrong.json()["error"]["es"] != wrong.json()["error"]["en"]
        anyone = httpx.get(srv.url + "api/room/node").json()
        assert anyone["tables"] == [public] and anyone["table_count"] == 2


def test_with_no_operator_token_set_no_token_is_the_operators(tmp_path: Path) -> None:
    with LiveServer(create_app(settings(tmp_path))) as srv:
        host = identity(srv)
        private = open_table(srv, host, public=False)
        for token in ("x", "None", "null"):
            r = httpx.get(srv.url + "api/room/node", headers={"Authorization": f"Bearer {token}"})
            assert private not in r.text


def test_a_node_of_several_names_only_the_tables_anyone_may_know(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same on a node of a room on several nodes (``node_info``: its claims and relays
    too), and presence merged from several nodes counts a private table without naming it,
    whichever node says it watches it."""
    monkeypatch.setenv("TAPETE_OPERATOR_TOKEN", TOKEN)
    node = settings(tmp_path, node_id="a.test", advertise="http://127.0.0.1")
    with LiveServer(create_app(node)) as srv:
        host = identity(srv)
        private = open_table(srv, host, public=False)
        public = open_table(srv, host)
        anyone = httpx.get(srv.url + "api/room/node")
        assert anyone.json()["node"] == "a.test" and private not in anyone.text
        assert anyone.json()["tables"] == [public] and anyone.json()["table_count"] == 2
        info = httpx.get(srv.url + "api/room/node",
                         headers={"Authorization": f"Bearer {TOKEN}"}).json()
        assert sorted(info["tables"]) == sorted([private, public]) and "claims" in info
    # the presence each node says (fanout.present), merged: one runs the tables, the other
    # has a watcher of the private one (a watching node does not know the table's settings)
    runs = {"online": ["h"], "tables": {
        "PRIV": {"seated": ["h"], "spectators": 0, "listed": False},
        "PUB": {"seated": [], "spectators": 1, "listed": True}}}
    watches = {"online": ["w"], "tables": {"PRIV": {"seated": [], "spectators": 1}}}
    got = merged([runs, watches])
    assert "PRIV" not in json.dumps(got)
    assert got["tables"] == {"PUB": {"players": 0, "spectators": 1}}
    assert got["private"] == {"tables": 1, "players": 1, "spectators": 1}
    assert got["online"] == 2 and got["nodes"] == 2
