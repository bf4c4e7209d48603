"""Tournaments survive a restart: a room tournament (two people and ten bots over two
tables) and a practice sit-and-go, the app stopped at several points and a new app started
on the same database. Each time the tournament finishes after the restart, its chips add up
at every step of the coordinator, each buy-in and each prize is paid exactly once (the
bankrolls are exact, the ledger's room moves are the buy-ins and prizes), and a finished
tournament restarted again pays nothing more.

People here are played by bot agents the test puts in their seats (a person's agent lives
in memory, as a connection does: put back after each restart)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from owned import commands_outside
from starlette.testclient import TestClient
from test_server import my_turn, next_state, settings, shove

from tapete.room.log import EventLog
from tapete.server import create_app, protocol
from tapete.server.rooms import bot_agent
from tapete.tournament.coordinator import RoomTournament
from waiting import bound

T = TypeVar("T")
PEOPLE = ("person-a", "person-b")
BODY = {"name": "Restart", "seats": 6, "starting_stack": 1000, "buy_in": 100,
        "max_players": 12, "bots": 10, "levels": "50/100x2 100/200x2 200/400x2 400/800x2",
        "seed": 3}
TOTAL = 12 * 1000


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path


def running(data: Path) -> TestClient:
    return TestClient(create_app(settings(data)))


def on(c: TestClient, fn: Callable[[], T]) -> T:
    """``fn`` run on the app's event loop (where the tables and the coordinator live)."""
    assert c.portal is not None
    return c.portal.call(fn)


def room(c: TestClient) -> Any:
    return c.app.state.room  # type: ignore[attr-defined]


def bankroll(c: TestClient, pid: str) -> int:
    hub = c.app.state.hub  # type: ignore[attr-defined]
    return on(c, lambda: int(hub.player(pid, create=True).bankroll))


def play_people(c: TestClient, tid: str, problems: list[str]) -> Any:
    """The people's seats played by agents, chips checked after every step."""
    tours = room(c).tournaments

    def put() -> Any:
        tour = tours.get(tid)
        for table_id in tour.tables.values():
            r = room(c).tables[table_id]
            for i, p in enumerate(PEOPLE):
                r.table.agents[p] = bot_agent("tag", 100 + i)
            r.owner.submit(lambda: None)

        def step(t: Any) -> None:
            if tours.chips(t) != TOTAL:
                problems.append(f"chips {tours.chips(t)}")

        tour.on_step = step
        return tour

    return on(c, put)


def wait(c: TestClient, what: Callable[[], bool], limit: float = 120) -> None:
    end = time.monotonic() + bound(limit)
    while not on(c, what):
        assert time.monotonic() < end, "the tournament did not get there"
        time.sleep(0.02)


def register_both(c: TestClient) -> str:
    tours = room(c).tournaments
    tour = on(c, lambda: tours.create(PEOPLE[0], dict(BODY)))
    for i, p in enumerate(PEOPLE):
        on(c, lambda p=p, i=i: tours.register(tour.id, p, f"Person {i}"))  # type: ignore[misc]
    return str(tour.id)


def finish_and_check(c: TestClient, tid: str, before: dict[str, int], data: Path,
                     entries: dict[str, int] | None = None) -> None:
    problems: list[str] = []
    tour = play_people(c, tid, problems)
    assert on(c, lambda: room(c).tournaments.chips(tour)) == TOTAL
    wait(c, lambda: tour.finished)
    assert problems == [] and tour.notice is None  # played to the end, not refunded
    assert tour.seq > 12  # the stream holds its inputs
    live = tour.live
    results = live.results()
    assert sum(r.prize for r in results) == 1200 and len(results) == 12
    prizes = {p: live.entrants[p].prize for p in PEOPLE}
    for p in PEOPLE:
        assert bankroll(c, p) == before[p] - 100 + prizes[p]
    c.__exit__(None, None, None)
    # a restart after the end pays nothing more, and no tournament table is restored
    with running(data) as again:
        tours = room(again).tournaments
        assert on(again, lambda: tours.get(tid).finished)
        assert [r.prize for r in on(again, lambda: tours.get(tid).live.results())] == \
            [r.prize for r in results]
        for p in PEOPLE:
            assert bankroll(again, p) == before[p] - 100 + prizes[p]
        assert not any(r.table.config.tournament for r in room(again).tables.values())
        log = EventLog(room(again).log.engine)
        assert log.stream_ids("tournament") == []
    moves = room_moves(data)
    for p in PEOPLE:  # each buy-in once, each prize once
        n = (entries or {}).get(p, 1)
        want = {f"{tid}:buy-in:{p}:{i}": -100 for i in range(1, n + 1)}
        want.update({f"{tid}:refund:{p}:{i}": 100 for i in range(1, n)})
        if prizes[p]:
            want[f"{tid}:prize:{p}"] = prizes[p]
        assert {k: v for k, v in moves.items() if k.startswith(tid) and p in k} == want


def room_moves(data: Path) -> dict[str, int]:
    import sqlalchemy as sa

    from tapete.server.storage import room_moves_table as m
    engine = sa.create_engine(settings(data).db_url())
    with engine.connect() as conn:
        rows = conn.execute(sa.select(m.c.key, m.c.bankroll)).all()
    engine.dispose()
    return {str(k): int(v) for k, v in rows}


def test_registrations_survive_a_restart_before_the_start(data: Path) -> None:
    c = running(data).__enter__()
    tours = room(c).tournaments
    before = {p: bankroll(c, p) for p in PEOPLE}
    tour = on(c, lambda: tours.create(PEOPLE[0], {**BODY, "max_players": 13}))
    tid = tour.id
    on(c, lambda: tours.register(tid, PEOPLE[0], "Person 0"))
    on(c, lambda: tours.register(tid, PEOPLE[1], "Person 1"))
    on(c, lambda: tours.unregister(tid, PEOPLE[1]))  # given back
    on(c, lambda: tours.register(tid, PEOPLE[1], "Person 1"))  # and taken again
    assert [bankroll(c, p) for p in PEOPLE] == [before[p] - 100 for p in PEOPLE]
    c.__exit__(None, None, None)
    c = running(data).__enter__()
    tours = room(c).tournaments
    again = on(c, lambda: tours.get(tid).summary())
    assert again["registered"] == ["Person 0", "Person 1"] and not again["started"]
    assert [bankroll(c, p) for p in PEOPLE] == [before[p] - 100 for p in PEOPLE]
    on(c, lambda: tours.start(tid, PEOPLE[0]))
    finish_and_check(c, tid, before, data, {PEOPLE[1]: 2})


def test_a_restart_mid_hand_goes_on(data: Path) -> None:
    c = running(data).__enter__()
    before = {p: bankroll(c, p) for p in PEOPLE}
    tid = register_both(c)
    problems: list[str] = []
    tour = play_people(c, tid, problems)
    wait(c, lambda: any(room(c).tables[x].table.hand is not None
                        and room(c).tables[x].table.hand_no >= 3
                        for x in tour.tables.values()))
    c.__exit__(None, None, None)
    assert problems == []
    c = running(data).__enter__()
    assert on(c, lambda: room(c).tournaments.get(tid).started)
    finish_and_check(c, tid, before, data)


def test_a_restart_after_a_hand_over_was_stored_and_before_its_moves(data: Path) -> None:
    c = running(data).__enter__()
    before = {p: bankroll(c, p) for p in PEOPLE}
    frozen: list[Any] = []
    real = RoomTournament.apply

    def apply(tour: Any, orders: Any, opened: bool = False) -> None:  # as if the process
        if frozen or orders.moves:                                      # died right here
            frozen.append(orders)
            return
        real(tour, orders, opened)

    RoomTournament.apply = apply  # type: ignore[method-assign]
    try:
        tid = register_both(c)
        play_people(c, tid, [])
        wait(c, lambda: bool(frozen))
        c.__exit__(None, None, None)
    finally:
        RoomTournament.apply = real  # type: ignore[method-assign]
    assert frozen[0].moves
    stream = EventLog(settings(data).db_url()).read(f"tournament:{tid}")
    # the input with the moves is stored: its table is still the one a player sits at
    moved = frozen[0].moves[0]
    first = next(r for r in stream if r.kind == "hand_over"
                 and moved.player in r.payload["stacks"]
                 and r.payload["table"] == moved.from_table and r is stream[-len(frozen)])
    assert first.payload["stacks"][moved.player] == moved.chips
    c = running(data).__enter__()
    tour = on(c, lambda: room(c).tournaments.get(tid))
    # the move the crash kept from the tables is made: each player sits where the director
    # says, once
    seats = on(c, lambda: {p: (k, s) for k, x in tour.tables.items()
                           for s, p in room(c).tables[x].table.players.items()})
    assert seats == {e.player: (e.table, e.seat) for e in tour.live.left()}
    finish_and_check(c, tid, before, data)
    log = EventLog(settings(data).db_url())
    dst = log.read(tour.ids[moved.to_table])
    src = log.read(tour.ids[moved.from_table])
    # made once, after the restart: unseated there, seated here with the chips it had
    assert sum(1 for r in dst if r.kind == "tourney" and r.payload["action"] == "seat"
               and r.payload["player"] == moved.player and r.payload["seat"] == moved.to_seat
               and r.payload["chips"] == moved.chips) == 1
    assert sum(1 for r in src if r.kind == "tourney" and r.payload["action"] == "unseat"
               and r.payload["player"] == moved.player) == 1


def test_a_stream_that_does_not_replay_is_refunded_by_the_rule(data: Path) -> None:
    c = running(data).__enter__()
    before = {p: bankroll(c, p) for p in PEOPLE}
    tid = register_both(c)
    tour = play_people(c, tid, [])
    wait(c, lambda: tour.live is not None and len(tour.live.left()) <= 9)
    c.__exit__(None, None, None)
    log = EventLog(settings(data).db_url())
    stream = f"tournament:{tid}"
    log.append(stream, log.last_seq(stream) + 1, [("hand_over", {"table": 1, "stacks": {},
                                                                 "big_blind_seat": 0,
                                                                 "elapsed_s": 0})])
    with running(data) as c:
        tours = room(c).tournaments
        info = on(c, lambda: tours.get(tid).summary())
        assert info["finished"] and info["notice"]["es"]
        assert sum(r["prize"] for r in info["results"]) == 1200
        paid = {r["name"]: r["prize"] for r in info["results"]}
        for i, p in enumerate(PEOPLE):
            assert bankroll(c, p) == before[p] - 100 + paid[f"Person {i}"]
        assert not any(r.table.config.tournament for r in room(c).tables.values())
    with running(data) as c:  # and never twice
        for i, p in enumerate(PEOPLE):
            assert bankroll(c, p) == before[p] - 100 + paid[f"Person {i}"]


# ---------------------------------------------------------------------------- sit-and-go
def tight(s: dict[str, Any]) -> dict[str, Any]:
    lg = s["hand"]["legal"]
    return {"action": "check" if lg["check"] else "fold"}


def play(ws: Any, until: Callable[[dict[str, Any]], bool], limit: int = 20_000,
         choose: Callable[[dict[str, Any]], dict[str, Any]] = shove) -> dict[str, Any]:
    for _ in range(limit):
        s = next_state(ws)
        protocol.check_sent({k: v for k, v in s.items() if k != "history"})
        if until(s):
            return s
        if my_turn(s):
            ws.send_text(json.dumps({"type": "act", "seq": s["seq"], **choose(s)}))
    raise AssertionError("the sit-and-go did not get there")


def test_a_sit_and_go_goes_on_after_a_restart_mid_hand(data: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    with commands_outside(monkeypatch) as outside:
        prize, sng_id = _sng_across_a_restart(data)
    # the first seating, the hands, the reconciling after the restart: each table's owner's
    assert outside == [], "commands run outside their table's owner"
    moves = room_moves(data)
    assert moves[f"{sng_id}:sng-buy-in"] == -100
    assert moves.get(f"{sng_id}:sng-prize", 0) == prize
    assert sum(v for k, v in moves.items() if k.startswith(sng_id)) == prize - 100


def _sng_across_a_restart(data: Path) -> tuple[int, str]:
    c = running(data).__enter__()
    c.get("/")
    cookies = dict(c.cookies)
    with c.websocket_connect("/ws") as ws:
        lobby = next_state(ws, lambda s: s["lobby"])
        start = int(lobby["me"]["bankroll"])
        ws.send_text(json.dumps({"type": "sng", "seats": 6, "speed": "turbo",
                                 "buy_in": 100}))
        s = next_state(ws, lambda s: not s["lobby"])
        assert s["me"]["bankroll"] == start - 100
        s = play(ws, lambda s: my_turn(s) and s["tournament"]["level"] >= 2, choose=tight)
        left = s["tournament"]["players_left"]
    c.__exit__(None, None, None)
    c = running(data).__enter__()
    for k, v in cookies.items():
        c.cookies.set(k, v)
    with c.websocket_connect("/ws") as ws:
        s = next_state(ws, lambda s: not s["lobby"])  # found again, as a practice table
        assert s["tournament"]["kind"] == "sng"
        assert s["tournament"]["players_left"] <= left
        assert s["me"]["bankroll"] == start - 100
        end = play(ws, lambda s: s["tournament"]["finished"] or (
            s["tournament"]["place"] is not None and s["hand"] is None))
        prize = end["tournament"]["prize"] if end["tournament"]["finished"] else next(
            r for r in end["tournament"]["results"] if r["place"] == end["tournament"]
            ["place"])["prize"] if end["tournament"]["results"] else None
        if prize is None:  # out before the end: the place's prize was paid then
            prize = int(end["me"]["bankroll"]) - (start - 100)
        assert end["me"]["bankroll"] == start - 100 + prize
        sng_id = next(k for k in room(c).tables if room(c).tables[k].table.config.tournament)
    c.__exit__(None, None, None)
    return prize, sng_id

