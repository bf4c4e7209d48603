"""The practice room's money, one rule at a time (the random schedule with restarts is
tests/server/test_money_chaos.py): chips added during a hand or its run-out are never lost, a
restart resumes the hand with every chip, a reset stays a reset, the result follows the board,
and what the page is told of a hand's money adds up."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings as examples
from hypothesis import strategies as st
from starlette.testclient import TestClient
from test_server import Msg, next_state, play, settings, shove, sit

from strategies import play_setup, setup_st
from tapete.core.catalog import t
from tapete.core.setup import HandSetup
from tapete.server import create_app
from tapete.server.game import REASONS_HIDDEN
from tapete.server.storage import Storage

START = 10_000


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(settings(tmp_path))) as c:
        c.get("/")
        yield c


def send(ws: Any, **msg: Any) -> None:
    ws.send_text(json.dumps(msg))


def stored(tmp: Path) -> list[tuple[str, int, int]]:
    """Every stored player: (id, bankroll, at_table), straight from the database."""
    storage = Storage(f"sqlite:///{tmp / 'tapete.sqlite3'}")
    try:
        with storage.engine.connect() as conn:
            rows = conn.exec_driver_sql(
                "SELECT id, bankroll, at_table FROM tapete_players").all()
        return [(str(r[0]), int(r[1]), int(r[2])) for r in rows]
    finally:
        storage.close()


def flush(c: TestClient) -> None:
    """Wait until every change of money the server queued is stored."""
    hub = c.app.state.hub  # type: ignore[attr-defined]

    async def wait() -> None:
        for p in list(hub.players.values()):
            await p.purse.flush()

    c.portal.call(wait)  # type: ignore[union-attr]


def test_a_restart_after_a_top_up_mid_hand_resumes_the_hand_with_every_chip(
        tmp_path: Path) -> None:
    """The practice table is a room table: a server stopped mid-hand, just after a top-up,
    comes back with the hand where it stood (the same hand, the same chips in the pot, the
    person to act) and the top-up waiting for the hand's end; not a chip is lost."""
    app = create_app(settings(tmp_path))
    with TestClient(app) as c:
        c.get("/")
        cookie = c.cookies["tapete_id"]
        with c.websocket_connect("/ws") as ws:
            next_state(ws, lambda s: s["lobby"])
            send(ws, type="sit", structure="nl", blinds=0, buy_in=100)
            s = next_state(ws, lambda s: s["decision"] is not None and s["hand"] is not None
                           and "legal" in s["hand"] and s["hand"]["legal"]["min_to"],
                           limit=5000)
            send(ws, type="add_chips", amount=50)
            s = next_state(ws, lambda s: s["me"]["bankroll"] == START - 150)
            assert s["decision"] is not None and s["me"]["total"] == START
            hand_id, in_pot = s["hand"]["hand_id"], s["me"]["in_pot"]
            flush(c)
            # the database as the server leaves it: the buy-in and the top-up are the room's
            (pid, bankroll, _), = stored(tmp_path)
            assert bankroll == START - 150
    with TestClient(create_app(settings(tmp_path))) as c2:
        c2.cookies.set("tapete_id", cookie)
        assert c2.get("/api/me").json()["total"] == START
        with c2.websocket_connect("/ws") as ws:
            s = next_state(ws, lambda s: not s["lobby"] and s["decision"] is not None)
            assert s["hand"]["hand_id"] == hand_id and s["me"]["in_pot"] == in_pot
            assert s["me"]["total"] == START
            lg = s["hand"]["legal"]
            send(ws, type="act", seq=s["seq"], action="check" if lg["check"] else "fold")
            s = next_state(ws, lambda s: s["last_result"] is not None
                           and s["last_result"]["hand_id"] == hand_id, limit=5000)
            assert s["me"]["total"] == START + s["last_result"]["net"]
            send(ws, type="leave")
            s = next_state(ws, lambda s: s["lobby"], limit=5000)
            flush(c2)
        storage = c2.app.state.storage  # type: ignore[attr-defined]
        assert storage.books(pid) == []
    ((_, bankroll, at_table),) = stored(tmp_path)
    assert (bankroll, at_table) == (s["me"]["total"], 0)


def test_a_reset_is_never_undone_by_the_hand_before_it(tmp_path: Path) -> None:
    """The result of the last hand and the reset that follows are stored in that order, the
    reset last, however fast they come; a restart finds the reset."""
    app = create_app(settings(tmp_path))
    with TestClient(app) as c:
        c.get("/")
        cookie = c.cookies["tapete_id"]
        with c.websocket_connect("/ws") as ws:
            sit(ws)
            play(ws, 2, shove)
            send(ws, type="leave")
            next_state(ws, lambda s: s["lobby"], limit=5000)
            send(ws, type="reset")
            next_state(ws, lambda s: s["lobby"] and s["me"]["total"] == START)
    # a new server on the same data
    assert [r[1:] for r in stored(tmp_path)] == [(START, 0)]
    with TestClient(create_app(settings(tmp_path))) as c2:
        c2.cookies.set("tapete_id", cookie)
        assert c2.get("/api/me").json()["total"] == START
        storage = c2.app.state.storage  # type: ignore[attr-defined]
        ((pid, _, _),) = stored(tmp_path)
        assert storage.books(pid) == []
        kinds = [r["kind"] for r in storage.ledger(pid)]
        # the practice table is a room table: its money moves are the room's
        assert kinds[0] == "new" and kinds[1] == "room_in" and kinds[-1] == "reset"
        assert kinds.count("room_out") == 1 and len(storage.list_hands(pid)) >= 2


def test_the_result_follows_the_board_in_a_run_out(client: TestClient) -> None:
    """While an all-in run-out is shown, the page's money is the stack as the board stands
    and the chips in the pot: the total does not move until the last card (14)."""
    seen: list[Msg] = []
    with client.websocket_connect("/ws") as ws:
        s = sit(ws)
        before = s["me"]["total"]
        last = None
        frames: list[Msg] = []
        for _ in range(20_000):
            s = next_state(ws, seen=seen)
            me = s["me"]
            assert me["total"] == me["bankroll"] + me["at_table"] + me["in_pot"]
            if s.get("hand") and s["hand"]["phase"] == "runout":
                you = s["hand"]["you"]
                player = s["hand"]["players"][you]
                assert me["at_table"] == player["stack"] and me["in_pot"] == player["total"]
                assert me["total"] == before  # the result waits for the last card
                frames.append(s)
            r = s["last_result"]
            if r is not None and r["hand_id"] != last:  # a hand ended: its result is in
                last = r["hand_id"]
                before = me["total"]
                if frames:
                    break
            if s["waiting"] and s["seats"][0]["chips"] == 0:
                send(ws, type="add_chips", amount=200)
            if s["decision"] is not None and s["hand"] and "legal" in s["hand"]:
                send(ws, type="act", seq=s["seq"], **shove(s))
        assert frames, "no run-out happened"


def test_chips_added_during_a_run_out_reach_the_table(client: TestClient) -> None:
    """A top-up while an all-in run-out is shown waits for the hand's end, and then is on the
    table or (what the stack after the hand leaves no room for) back in the bankroll."""
    with client.websocket_connect("/ws") as ws:
        s = sit(ws)
        topped = False
        for _ in range(20_000):
            s = next_state(ws)
            if not topped and s.get("hand") and s["hand"]["phase"] == "runout":
                total = s["me"]["total"]
                hand_id = s["hand"]["hand_id"]
                send(ws, type="add_chips", amount=150)
                topped = True
            if topped and s["last_result"] is not None and \
                    s["last_result"]["hand_id"] == hand_id:
                net = s["last_result"]["net"]
                assert s["me"]["total"] == total + net and s["me"]["in_pot"] == 0
                assert s["me"]["at_table"] <= 200 or s["me"]["at_table"] == \
                    s["seats"][0]["chips"]
                break
            if s["waiting"] and s["seats"][0]["chips"] == 0:
                send(ws, type="add_chips", amount=200)
            if s["decision"] is not None and s["hand"] and "legal" in s["hand"]:
                send(ws, type="act", seq=s["seq"], **shove(s))
        assert topped
        send(ws, type="leave")
        s = next_state(ws, lambda s: s["lobby"], limit=5000)
        assert s["me"]["total"] == s["me"]["bankroll"]


def test_decision_numbers_differ_between_tables(client: TestClient) -> None:
    """An action meant for an earlier table never matches a decision of a new one (15)."""
    with client.websocket_connect("/ws") as ws:
        sit(ws)
        first = next_state(ws, lambda s: s["decision"] is not None)
        old = first["seq"]
        send(ws, type="leave")
        next_state(ws, lambda s: s["lobby"], limit=5000)
        send(ws, type="sit", structure="nl", blinds=0)
        s = next_state(ws, lambda s: not s["lobby"] and s["decision"] is not None,
                       limit=5000)
        assert abs(s["seq"] - old) > 1000  # random starts, not 1, 2, 3 at every table
        send(ws, type="act", seq=old, action="fold")
        m = ws.receive_json()
        while m["type"] != "error":
            m = ws.receive_json()
        assert m["code"] == "stale"


def test_bot_reasons_only_for_hands_that_were_shown(client: TestClient) -> None:
    """"A bluff", "for value": a reason tells a hand's strength; unshown hands keep it (16)."""
    with client.websocket_connect("/ws") as ws:
        sit(ws)
        send(ws, type="coach", on=True)
        hidden = shown = 0
        seen: set[str] = set()
        for _ in range(30):
            s = next_state(ws, lambda s: s["last_result"] is not None
                           and s["last_result"]["hand_id"] not in seen, limit=5000)
            r = s["last_result"]
            seen.add(r["hand_id"])
            for e in r["explanations"]:
                if e.get("hidden"):
                    assert e["why"] == t(REASONS_HIDDEN).to_json()
                    hidden += 1
                else:
                    shown += 1
            for line in r["explanations"]:
                if line.get("hidden"):
                    text = json.dumps(line).lower()
                    assert "bluff" not in text and "value" not in text and "farol" not in text
            if hidden and shown:
                break
            while True:  # fold to the next result
                s = next_state(ws)
                if s["decision"] is not None and s["hand"] and "legal" in s["hand"]:
                    lg = s["hand"]["legal"]
                    send(ws, type="act", seq=s["seq"], action="check" if lg["check"] else "fold")
                if s["last_result"] is not None and s["last_result"]["hand_id"] not in seen:
                    break
        assert hidden, "no unshown bot hand was explained"


def test_a_fullwidth_name_cannot_pass_for_a_bot(client: TestClient) -> None:
    """NFKC folds "Ａｎａ" to "Ana" before the clash check (17)."""
    with client.websocket_connect("/ws") as ws:
        next_state(ws, lambda s: s["lobby"])
        send(ws, type="sit", structure="nl", blinds=0, name="Ａｎａ")
        s = next_state(ws, lambda s: not s["lobby"])
        assert s["seats"][0]["name"] == "Ana (you)"
        names = [x["name"] for x in s["seats"] if x is not None]
        assert names.count("Ana") == 1


def test_requests_without_a_cookie_store_nobody(tmp_path: Path) -> None:
    """A player is stored with the first thing worth keeping, not on any request (10)."""
    app = create_app(settings(tmp_path))
    with TestClient(app) as c:
        for _ in range(30):
            TestClient(app).get("/api/me")
            TestClient(app).get("/")
        hub = app.state.hub
        assert stored(tmp_path) == [] and not hub.players
        c.get("/")
        with c.websocket_connect("/ws") as ws:
            s = next_state(ws, lambda s: s["lobby"])
            assert s["me"]["bankroll"] == START and stored(tmp_path) == []
            send(ws, type="sit", structure="nl", blinds=0)
            next_state(ws, lambda s: not s["lobby"])
        assert len(stored(tmp_path)) == 1


def test_the_purse_writes_in_order(tmp_path: Path) -> None:
    """Moves queued one after another are stored one after another (a reset after a result
    is stored after it), each a row of the ledger."""
    from tapete.server.money import Purse

    storage = Storage(f"sqlite:///{tmp_path / 'purse.sqlite3'}")
    row = storage.new_player()

    async def run() -> list[str]:
        purse = Purse(storage, row.id, row.bankroll, 1)
        waits = [purse.move("buy_in", -200, 200), purse.move("top_up", -50, 50),
                 purse.move("cash_out", 250, -250), purse.reset(START)]
        await asyncio.gather(*waits)
        assert purse.version == 5 and purse.pending == 0
        return [r["kind"] for r in storage.ledger(row.id)]

    assert asyncio.run(run()) == ["new", "buy_in", "top_up", "cash_out", "reset"]
    assert storage.books(row.id) == []


def test_a_failing_message_logs_one_line_and_a_traceback_at_most_every_ten_seconds(
        client: TestClient, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A bug hit by every message of a flood is one line each, not a traceback each (9)."""
    from tapete.server import session

    def broken(self: Any, msg: Any, stamp: float) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(session.Session, "dispatch", broken)
    monkeypatch.setattr(session, "_LAST_TRACEBACK", [-1e9])
    with caplog.at_level("ERROR", logger="tapete.server"), \
            client.websocket_connect("/ws") as ws:
        for _ in range(20):
            send(ws, type="ping")
            m = ws.receive_json()
            while m["type"] != "error":
                m = ws.receive_json()
            assert m["code"] == "internal" and m["message"]["es"]
    failed = [r for r in caplog.records if "failed" in r.getMessage()]
    assert len(failed) == 20
    assert sum(r.exc_info is not None for r in failed) == 1


def test_one_coach_job_per_decision(client: TestClient, monkeypatch: pytest.MonkeyPatch
                                    ) -> None:
    """Switching the coach on and off 150 times works out one decision's advice once
    (8: a thousand Monte Carlo jobs slowed every other table)."""
    from tapete.server import coach

    calls: list[int] = []
    real = coach.advice

    def counted(*args: Any, **kw: Any) -> Any:
        calls.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(coach, "advice", counted)
    with client.websocket_connect("/ws") as ws:
        sit(ws)
        s = next_state(ws, lambda s: s["decision"] is not None)
        for k in range(150):  # under the rate limit's burst: each is handled
            send(ws, type="coach", on=k % 2 == 0)
        send(ws, type="coach", on=True)
        s = next_state(ws, lambda s: s["coach"] is not None, limit=5000)
        assert s["seq"] is not None
    assert len(calls) == 1


def test_each_seat_is_sent_its_last_action_on_this_street() -> None:
    """What the seats show ("call 2", "raise to 6"), from the events, reset by each street."""
    from tapete.core import events as ev
    from tapete.core.cards import Deck
    from tapete.core.hand import Hand
    from tapete.core.rules import Rules
    from tapete.server.game import last_actions

    hand = Hand(Rules(small_blind=1, big_blind=2), [100, 100, 100], button=2, deck=Deck(seed=1))
    hand.raise_to(6)
    hand.call()
    hand.fold()
    preflop = [e for e in hand.events if not isinstance(e, ev.BoardDealt)]
    got = last_actions(hand.n, preflop)
    assert got[2] == {"action": "raise", "amount": 6, "all_in": False}  # first to act
    assert got[0] == {"action": "call", "amount": 5, "all_in": False}  # the small blind
    assert got[1] == {"action": "fold", "amount": 0, "all_in": False}
    assert hand.street == 1 and last_actions(hand.n, list(hand.events)) == [None] * 3
    hand.check()  # on the flop the street's actions start again
    assert last_actions(hand.n, list(hand.events)) == [
        {"action": "check", "amount": 0, "all_in": False}, None, None]


@examples(max_examples=60, deadline=None)
@given(setup_st(), st.integers(0, 2**32 - 1))
def test_the_last_actions_read_from_the_last_street_are_those_of_every_event(
        setup: HandSetup, seed: int) -> None:
    """The seats' last actions, read from the last board dealt on, are what a fold over every
    event of the hand says, after each event of random hands (double boards and runs too)."""
    from tapete.core import events as ev
    from tapete.server.game import last_actions

    def every_event(n: int, events: list[ev.Event]) -> list[dict[str, Any] | None]:
        out: list[dict[str, Any] | None] = [None] * n
        for e in events:
            if isinstance(e, ev.BoardDealt):
                out = [None] * n
            elif isinstance(e, ev.Acted):
                amount = e.added if e.action == ev.CALL else e.to if e.action in (
                    ev.BET, ev.RAISE) else 0
                out[e.player] = {"action": e.action, "amount": amount, "all_in": e.all_in}
        return out

    hand, _ = play_setup(setup, seed)
    for k in range(len(hand.events) + 1):
        assert last_actions(hand.n, hand.events[:k]) == every_event(hand.n, hand.events[:k])


def test_a_hand_a_kill_kept_from_the_hand_list_is_listed_after_the_restart(
        tmp_path: Path) -> None:
    """A hand's row (the hand list, the downloads) is written just after the hand's end is
    stored in the table's log: a kill between the two loses the row, not the hand, and the
    restart writes it again from the log."""
    with TestClient(create_app(settings(tmp_path))) as c:
        c.get("/")
        cookie = c.cookies["tapete_id"]
        with c.websocket_connect("/ws") as ws:
            sit(ws)
            play(ws, 2, shove)
    storage = Storage(f"sqlite:///{tmp_path / 'tapete.sqlite3'}")
    ((pid, _, _),) = stored(tmp_path)
    newest = storage.list_hands(pid, 1)[0]
    with storage.engine.begin() as conn:  # as a kill just after the hand's end leaves it
        conn.exec_driver_sql("DELETE FROM tapete_hands WHERE hand_id = ?", (newest.hand_id,))
    assert newest.hand_id not in {h.hand_id for h in storage.list_hands(pid, 100)}
    storage.close()
    with TestClient(create_app(settings(tmp_path))) as c2:
        c2.cookies.set("tapete_id", cookie)
        listed = c2.get("/api/hands").json()
        assert newest.hand_id in [h["hand_id"] for h in listed]
        assert c2.get(f"/api/hands/{newest.hand_id}.json").status_code == 200
        again = c2.app.state.storage.get_hand(pid, newest.hand_id)  # type: ignore[attr-defined]
        assert again is not None
        assert (again.events, again.net, again.setup) == (newest.events, newest.net,
                                                          newest.setup)  # the same hand
