"""A multi-table tournament in the room over real WebSockets: 20 players, 3 people (scripted
clients that play by the legal options and follow their moves) and 17 bots over 3 tables,
down to the final table and the end. Chips are conserved after every step of the
coordinator, every message fits its model, and the bankrolls are exact at the end."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_room_ws import identity, recv
from test_server import settings
from test_transport import pid_of
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from browser import LiveServer
from tapete.server import create_app
from waiting import HTTP, bound

Msg = dict[str, Any]
LEVELS = "20/40x3 40/80x3 60/120/120x3 100/200/200x3 150/300/300x3 250/500/500x3"


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[LiveServer]:
    app = create_app(settings(tmp_path))
    with LiveServer(app) as s:
        yield s


class Person(threading.Thread):
    def __init__(self, srv: LiveServer, cookie: str, table: str, seed: int,
                 done: threading.Event) -> None:
        super().__init__(daemon=True)
        self.srv, self.cookie, self.table = srv, cookie, table
        self.rng = random.Random(seed)
        self.done = done
        self.problems: list[str] = []
        self.moves = 0
        self.decisions = 0
        self.infos: list[Msg] = []  # the tournament as each state showed it

    def run(self) -> None:
        try:
            while not self.done.is_set():
                moved = self.play(self.table)
                if moved is None:
                    return
                self.moves += 1
                self.table = moved
        except Exception as exc:
            self.problems.append(f"{type(exc).__name__}: {exc}")

    def play(self, table: str) -> str | None:
        url = f"ws://127.0.0.1:{self.srv.port}/ws/t/{table}"
        try:
            with connect(url, additional_headers={"Cookie": f"tapete_id={self.cookie}"},
                         open_timeout=HTTP) as w:
                acted: int | None = None
                while not self.done.is_set():
                    try:
                        raw = json.loads(w.recv(timeout=1))
                    except TimeoutError:
                        continue
                    if raw["type"] == "moved":
                        return str(raw["table"])
                    m = recv_checked(raw)
                    if m["type"] == "state":
                        if m["tournament"] is not None:
                            self.infos.append(m["tournament"])
                        if m["me"]["at_table"]:
                            self.problems.append("tournament chips shown as money")
                        d = m["decision"]
                        if d is not None and d["seq"] != acted:
                            acted = d["seq"]
                            self.decisions += 1
                            w.send(json.dumps(self.choose(d["seq"], m["hand"]["legal"])))
                    elif m["type"] == "error" and m["code"] not in ("stale", "no_table"):
                        self.problems.append(f"error {m['code']}: {m['message']['en']}")
        except ConnectionClosed:
            return None  # the table closed (it broke: the move message came first)
        return None

    def choose(self, seq: int, lg: Msg) -> Msg:
        """By the legal options: check when free, else mostly call, sometimes fold, now and
        then a raise."""
        roll = self.rng.random()
        if lg["min_to"] is not None and roll < 0.1:
            return {"type": "act", "seq": seq, "action": "bet" if lg["is_bet"] else "raise",
                    "amount": lg["min_to"]}
        if lg["check"]:
            return {"type": "act", "seq": seq, "action": "check"}
        return {"type": "act", "seq": seq, "action": "fold" if roll < 0.5 else "call"}


def recv_checked(m: Msg) -> Msg:
    from tapete.server.protocol import check_sent
    check_sent(m)
    return m


def test_twenty_players_three_tables_down_to_the_end(srv: LiveServer) -> None:
    assert recv  # the room test's checked receive is the same check
    cookies = [identity(srv) for _ in range(3)]

    hub = srv.app.state.hub  # type: ignore[attr-defined]

    def me(c: str) -> int:
        p = hub.players.get(pid_of(c))  # read only: the server's thread owns it
        return int(p.bankroll) if p is not None else int(hub.settings.starting_bankroll)

    before = [me(c) for c in cookies]
    r = httpx.post(srv.url + "api/room/tournaments", cookies={"tapete_id": cookies[0]},
                   json={"name": "Twenty", "seats": 9, "starting_stack": 3000, "buy_in": 100,
                         "max_players": 20, "bots": 17, "levels": LEVELS, "seed": 5}, timeout=HTTP)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    tours = srv.app.state.room.tournaments  # type: ignore[attr-defined]
    tour = tours.get(tid)
    problems: list[str] = []
    steps = [0]
    tables_seen: set[int] = set()

    def on_step(t: Any) -> None:
        steps[0] += 1
        tables_seen.update(t.tables)
        if tours.chips(t) != 20 * 3000:
            problems.append(f"step {steps[0]}: chips {tours.chips(t)}")

    tour.on_step = on_step
    bad = httpx.post(srv.url + f"api/room/tournaments/{tid}/register",
                     cookies={"tapete_id": cookies[1]}, json={"name": ""}, timeout=HTTP)
    assert bad.status_code == 400 and bad.json()["error"]["es"]
    for i, c in enumerate(cookies):
        r = httpx.post(srv.url + f"api/room/tournaments/{tid}/register",
                       cookies={"tapete_id": c}, json={"name": f"Person {i}"}, timeout=HTTP)
        assert r.status_code == 200, r.text
    # full: it started
    info = httpx.get(srv.url + f"api/room/tournaments/{tid}", timeout=HTTP).json()
    assert info["started"] and len(info["tables"]) == 3
    assert [me(c) for c in cookies] == [b - 100 for b in before]
    live = tour.live
    where = {pid_of(c): live.entrants[pid_of(c)].table for c in cookies}
    done = threading.Event()
    people = [Person(srv, c, tour.tables[where[pid_of(c)]], i, done)
              for i, c in enumerate(cookies)]
    for p in people:
        p.start()
    end = time.monotonic() + bound(600)  # a bound: the loop ends with the tournament
    while not tour.finished and time.monotonic() < end:
        time.sleep(0.1)
    done.set()
    for p in people:
        p.join(bound(30))
    assert tour.finished, f"not over: {len(live.left())} left at {tour.tables}"
    assert problems == []
    assert [x for p in people for x in p.problems] == []
    assert tables_seen == {1, 2, 3} and list(tour.tables) == [1]  # down to the final table
    assert sum(p.decisions for p in people) > 0
    infos = [i for p in people for i in p.infos]
    # each player's ICM share: together, the prizes still to be won
    assert infos and all(i["kind"] == "mtt" and i["entrants"] == 20 and i["prize_pool"] == 2000
                         and sum(e["equity"] for e in i["equities"])
                         == sum(i["prizes"][:len(i["equities"])]) for i in infos)
    assert {i["tables"] for i in infos} >= {3}
    # seed 5 seats a person at a table that breaks while they are in: moved, they follow
    assert sum(p.moves for p in people) >= 1
    info = httpx.get(srv.url + f"api/room/tournaments/{tid}", timeout=HTTP).json()
    results = info["results"]
    # places 1 to 20, players knocked out together with equal stacks tied (they share)
    places = sorted(r["place"] for r in results)
    assert len(places) == 20 and places[0] == 1
    distinct = sorted(set(places))
    assert all(b == a + places.count(a) for a, b in zip(distinct, distinct[1:], strict=False))
    assert distinct[-1] + places.count(distinct[-1]) == 21
    assert sum(r["prize"] for r in results) == 2000
    for c, b in zip(cookies, before, strict=True):
        prize = live.entrants[pid_of(c)].prize
        assert me(c) == b - 100 + prize
    print(f"steps {steps[0]}, moves of people {[p.moves for p in people]},"
          f" decisions {[p.decisions for p in people]}")

