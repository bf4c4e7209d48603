"""The practice sit-and-go over a real WebSocket: played to the end by a client that answers
by the legal options, the prize pool paid exactly, the person's bankroll right; a deal
proposed with three players left and decided; every state fits the protocol's models."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from owned import commands_outside
from starlette.testclient import TestClient
from test_server import my_turn, next_state, settings, shove

from tapete.server import create_app, protocol

Msg = dict[str, Any]


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The app; every command of its tables checked, at the end, to have run in the table's
    owner's task (the coordinator's steps, the deals, the first seating included)."""
    app = create_app(settings(tmp_path))
    with commands_outside(monkeypatch) as outside, TestClient(app) as c:
        c.get("/")
        yield c
    assert outside == [], "commands run outside their table's owner"


def start(ws: Any, **kw: Any) -> tuple[Msg, int]:
    lobby = next_state(ws, lambda s: s["lobby"])
    ws.send_text(json.dumps({"type": "sng", **kw}))
    s = next_state(ws, lambda s: not s["lobby"])
    return s, int(lobby["me"]["bankroll"])


def play_until(ws: Any, done: Any, choose: Any, limit: int = 20_000) -> Msg:
    for _ in range(limit):
        s = next_state(ws)
        protocol.check_sent({k: v for k, v in s.items() if k != "history"})
        if done(s):
            return s
        if my_turn(s):
            ws.send_text(json.dumps({"type": "act", "seq": s["seq"], **choose(s)}))
    raise AssertionError("the sit-and-go did not get there")


def test_a_sit_and_go_played_to_the_end_pays_the_pool(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        s, bankroll = start(ws, seats=6, speed="turbo", buy_in=100)
        tour = s["tournament"]
        assert tour["kind"] == "sng" and tour["entrants"] == 6 and tour["prize_pool"] == 600
        assert (tour["small_blind"], tour["big_blind"]) == (10, 20)
        assert s["me"]["bankroll"] == bankroll - 100
        assert sum(e["chips"] for e in tour["equities"]) == 6 * 1500
        assert sum(e["equity"] for e in tour["equities"]) == 600
        ws.send_text(json.dumps({"type": "leave"}))  # refused while in
        err = next(m for m in iter(ws.receive_json, None) if m["type"] == "error")
        assert err["code"] == "tournament" and err["message"]["es"]
        end = play_until(ws, lambda s: s["tournament"]["finished"], shove)
        tour = end["tournament"]
        results = tour["results"]
        assert sorted(r["place"] for r in results) == [1, 2, 3, 4, 5, 6]
        assert sum(r["prize"] for r in results) == 600 == sum(tour["prizes"])
        mine = tour["prize"]
        assert tour["place"] is not None and mine == next(
            r["prize"] for r in results if r["place"] == tour["place"])
        # the prize is paid as the tournament ends: the state that says so shows it
        assert end["me"]["bankroll"] == bankroll - 100 + mine
        ws.send_text(json.dumps({"type": "leave"}))
        lobby = next_state(ws, lambda s: s["lobby"])
        assert lobby["me"]["bankroll"] == bankroll - 100 + mine


def tight(s: Msg) -> Msg:
    """Check when free, else fold: the person waits for the bots to knock each other out."""
    lg = s["hand"]["legal"]
    return {"action": "check" if lg["check"] else "fold"}


def test_a_deal_with_three_left(client: TestClient) -> None:
    """Nine seats pay three places: with three left, all in the money, a deal may be
    proposed (docs/rules.md, "Deals"); not before."""
    with client.websocket_connect("/ws") as ws:
        s, bankroll = start(ws, seats=9, speed="turbo", buy_in=50)
        assert not s["tournament"]["deal_allowed"]
        ws.send_text(json.dumps({"type": "deal", "kind": "icm"}))  # nine left: refused
        err = next(m for m in iter(ws.receive_json, None) if m["type"] == "error")
        assert err["code"] == "no_deal"

        def three_left(s: Msg) -> bool:
            tr = s["tournament"]
            return tr["finished"] or tr["place"] is not None or tr["players_left"] <= 3

        s = play_until(ws, three_left, tight)
        tour = s["tournament"]
        assert tour["place"] is None and not tour["finished"], "the person is still in"
        assert len(tour["prizes"]) == 3 and tour["deal_allowed"] == (tour["deal"] is None)
        ws.send_text(json.dumps({"type": "deal", "kind": "icm"}))
        s = play_until(ws, lambda s: s["tournament"]["deal"] is not None
                       and s["tournament"]["deal"]["open"], tight)
        deal = s["tournament"]["deal"]
        left = s["tournament"]["players_left"]
        assert len(deal["amounts"]) == left
        assert sum(a["amount"] for a in deal["amounts"]) == sum(s["tournament"]["prizes"][:left])
        # an ICM deal is each bot's equity to the chip: every bot takes it
        assert all(a["answer"] for a in deal["amounts"] if a["answer"] is not None)
        assert sum(a["answer"] is None for a in deal["amounts"]) == 1  # the person's, to come
        ws.send_text(json.dumps({"type": "deal_answer", "yes": True}))
        s = next_state(ws, lambda s: s["tournament"]["finished"])
        tour = s["tournament"]
        assert tour["prize"] == deal["yours"] > 0
        assert sum(r["prize"] for r in tour["results"]) == 450 == tour["prize_pool"]
        assert s["me"]["bankroll"] == bankroll - 50 + deal["yours"]
        ws.send_text(json.dumps({"type": "deal_answer", "yes": True}))  # no deal open now
        err = next(m for m in iter(ws.receive_json, None) if m["type"] == "error")
        assert err["code"] == "no_deal"
