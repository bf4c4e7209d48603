"""A host's table over real WebSockets (issue 14): the creator of a private table approves
seats, and bad input from anyone gets a clear error in both languages and changes nothing:
host actions from a non-host, chat floods and oversized chat, a vote from a player not in the
hand, a stack edit that would make chips outside the ledger. Spectators the host turns away
are told and let go."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_room_ws import identity, open_table, recv, until, ws
from test_server import settings
from test_transport import pid_of
from websockets.exceptions import ConnectionClosed

from browser import LiveServer
from tapete.server import create_app
from waiting import bound

Msg = dict[str, Any]


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(create_app(settings(tmp_path))) as s:
        yield s


def state(w: Any, pred: Any = lambda m: True) -> Msg:
    return until(w, lambda m: m["type"] == "state" and pred(m))


def error(w: Any) -> Msg:
    return until(w, lambda m: m["type"] == "error")


def send(w: Any, **msg: Any) -> None:
    w.send(json.dumps(msg))


def refused(srv: LiveServer, table: str, w: Any, code: str, **msg: Any) -> Msg:
    """``msg`` sent on ``w`` is refused with ``code``, in both languages, and the table's log
    and the bankrolls are as they were."""
    rt = srv.app.state.room.get(table).table
    before = (rt.seq, dict(rt.requests), {s: (x.chips if x else None)
                                          for s, x in enumerate(rt.table.seats)})
    hub = srv.app.state.hub
    money = {p: hub.players[p].bankroll for p in list(hub.players)}
    send(w, **msg)
    err = error(w)
    assert err["code"] == code, err
    assert err["message"]["en"] and err["message"]["es"] != err["message"]["en"]
    time.sleep(0.05)
    assert (rt.seq, dict(rt.requests), {s: (x.chips if x else None)
                                        for s, x in enumerate(rt.table.seats)}) == before
    assert {p: hub.players[p].bankroll for p in money} == money
    return err


def test_the_host_approves_seats_and_nobody_else_can(srv: LiveServer) -> None:
    h, b, c = identity(srv), identity(srv), identity(srv)
    table = open_table(srv, h, public=False, run_it=2)
    with ws(srv, table, h) as wh, ws(srv, table, b) as wb, ws(srv, table, c) as wc:
        send(wh, type="take_seat", buy_in=200, name="Hana")  # the host sits at once
        state(wh, lambda m: m["room"]["seated"])
        send(wb, type="take_seat", buy_in=200, name="Bea")
        mine = state(wb, lambda m: m["room"]["home"]["requests"])["room"]["home"]
        assert not mine["host"] and mine["hosted"] and mine["requests"][0]["name"] == "Bea"
        ask = state(wh, lambda m: m["room"]["home"]["requests"])["room"]["home"]
        assert ask["host"] and ask["requests"][0]["chips"] == 200
        request = ask["requests"][0]["request"]
        # a non-host's host actions, each refused with nothing changed
        for msg in ({"action": "approve", "request": request}, {"action": "end"},
                    {"action": "pause", "now": True},
                    {"action": "settings", "changes": {"big_blind": 100}},
                    {"action": "stack", "seat_number": 0, "chips": 5_000},
                    {"action": "kick", "seat_number": 0}):
            refused(srv, table, wb, "not_host", type="host", **msg)
        refused(srv, table, wh, "refused", type="host", action="approve", request=request + 99)
        send(wh, type="host", action="approve", request=request)
        st = state(wb, lambda m: m["room"]["seated"])
        assert any("Bea" in x["words"]["en"] for x in st["room"]["chat"] if x["words"])
        # a spectator's vote, and a vote from a player not in the hand: the hand goes all in
        deadline = time.monotonic() + bound()
        vote = None
        while vote is None and time.monotonic() < deadline:
            for w in (wh, wb):
                try:
                    m = recv(w, 0.2)
                except TimeoutError:
                    continue
                if m["type"] != "state" or not m["room"]["seated"]:
                    continue
                if m["room"]["home"]["votes"]:
                    vote = m["room"]["home"]["votes"][0]
                    break
                d = m.get("decision")
                if d is not None:
                    legal = m["hand"]["legal"]
                    if legal.get("max_to"):
                        send(w, type="act", seq=d["seq"], action="raise" if not legal.get(
                            "is_bet") else "bet", amount=legal["max_to"])
                    else:
                        send(w, type="act", seq=d["seq"], action="call" if legal.get(
                            "call") else "check")
        assert vote is not None and vote["kind"] == "runs" and vote["mine"]
        refused(srv, table, wc, "not_asked", type="vote", vote=vote["vote"], yes=True)
        refused(srv, table, wb, "stale", type="vote", vote=vote["vote"] + 1000, yes=True)
        send(wh, type="vote", vote=vote["vote"], yes=True)
        send(wb, type="vote", vote=vote["vote"], yes=True)
        decided = until(wc, lambda m: m["type"] == "record" and m["kind"] == "decided")
        assert decided["data"]["passed"] is True and decided["data"]["runs"] == 2
        until(wc, lambda m: m["type"] == "record" and m["kind"] == "end")
        rt = srv.app.state.room.get(table).table
        assert rt.last_hand is not None  # the hand that ran twice (the next waits for bets)
        assert len(rt.last_hand.boards) == 2 and all(len(b) == 5 for b in rt.last_hand.boards)
        rt.check_books()


def test_chat_floods_oversize_and_stack_edits_that_make_chips(srv: LiveServer) -> None:
    h, b = identity(srv), identity(srv)
    table = open_table(srv, h, public=False, auto_approve=True)
    with ws(srv, table, h) as wh, ws(srv, table, b) as wb:
        send(wh, type="take_seat", buy_in=200, name="Hana")
        state(wh, lambda m: m["room"]["seated"])
        send(wh, type="chat", text="<script>alert(1)</script>")
        st = state(wb, lambda m: any(x["kind"] == "chat" for x in m["room"]["chat"]))
        line = next(x for x in st["room"]["chat"] if x["kind"] == "chat")
        assert line["text"] == "<script>alert(1)</script>" and line["name"] == "Hana"
        refused(srv, table, wh, "too_long", type="chat", text="x" * 201)
        for i in range(4):
            send(wh, type="chat", text=f"hello {i}")
        state(wh, lambda m: sum(x["kind"] == "chat" for x in m["room"]["chat"]) == 5)
        refused(srv, table, wh, "flood", type="chat", text="one more")
        err = error_of(wh, "x" * 5000)
        assert err["code"] == "malformed"
        # a stack the bankroll cannot cover would make chips from nothing
        hub = srv.app.state.hub
        have = hub.players[pid_of(h)].bankroll
        refused(srv, table, wh, "no_chips", type="host", action="stack", seat_number=0,
                chips=200 + have + 1)
        refused(srv, table, wh, "malformed", type="host", action="stack", seat_number=0,
                chips=2.5)
        refused(srv, table, wh, "refused", type="host", action="stack", seat_number=0,
                chips=10**30)
        send(wh, type="host", action="stack", seat_number=0, chips=200 + have)
        st = state(wh, lambda m: m["me"]["bankroll"] == 0)
        assert st["me"]["at_table"] == 200 + have  # every chip from the bankroll
        srv.app.state.room.get(table).table.check_books()


def error_of(w: Any, text: str) -> Msg:
    send(w, type="chat", text=text)
    return error(w)


def test_spectators_turned_away_are_told_and_let_go(srv: LiveServer) -> None:
    h, c = identity(srv), identity(srv)
    table = open_table(srv, h, public=False)
    with ws(srv, table, h) as wh, ws(srv, table, c) as wc:
        send(wh, type="take_seat", buy_in=200, name="Hana")
        state(wh, lambda m: m["room"]["seated"])
        send(wc, type="chat", text="from the rail")
        state(wc, lambda m: any(x["spectator"] for x in m["room"]["chat"]))
        host_view = state(wh)
        assert not any(x["spectator"] for x in host_view["room"]["chat"])
        send(wh, type="host", action="spectators", allowed=False, chat=False)
        err = error(wc)
        assert err["code"] == "no_spectators" and err["message"]["es"]
        with pytest.raises(ConnectionClosed):
            for _ in range(50):
                recv(wc)
    with ws(srv, table, c) as again:
        assert recv(again)["code"] == "no_spectators"
