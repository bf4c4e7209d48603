"""No chip is ever created or destroyed: one player with two tabs against a real server, a
seeded random schedule of everything a player can do at any moment of a hand, and ``kill -9``
with a restart at random points.

The server runs in a child process (uvicorn on a free localhost port, fast bots, SQLite in a
temporary folder). Two WebSocket connections share one identity cookie, as two browser tabs
do. Each step sends one message from one tab at a random moment: sit (any game, blinds and
buy-in), act (any legal action, all-in shoves often, so run-outs are frequent), top up (any
amount, huge ones too) during betting, a run-out, the result or between hands, sit out, sit in
(waiting or posting), leave, reset, next, a pre-action, the coach; or kills the server and
starts it again.

The practice table is a room table (``server/practice.py``): its records are stored in the
room's log before anything is sent, and the person's bankroll moves (buy-in, top-up, refund,
leaving) are keyed by the record that caused them. What must hold:
- every state adds up: bankroll + chips at the table + chips in the pot = the total, and in
  the lobby nothing is at a table;
- the database alone (as a kill leaves it) accounts for every chip: the ledger sums to the
  money (``Storage.books``); every bankroll move of the room matches the log's record of the
  same key (none made twice, none without its record); at each practice table the person's
  chips in, less chips out, plus their net over the hands that ended there (replayed from the
  log's events) are what the person has on that table, never below zero, and nothing once
  they left it;
- after a restart the first total shown is exactly that account: the bankroll stored, plus the
  moves the log records and the kill kept from being stored (the restore makes them), plus
  the person's chips on their table (the hand in play resumed where it stood);
- every result a tab was shown is a hand that ended in the log.

``TAPETE_CHAOS_STEPS`` (default 10,000) and ``TAPETE_CHAOS_SEED`` size and seed the run.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from browser import free_port
from tapete.core import events as ev
from tapete.core.hand import Hand
from tapete.core.setup import HandSetup
from tapete.room.log import EventLog
from tapete.server.storage import Storage
from waiting import HTTP, bound

STEPS = int(os.environ.get("TAPETE_CHAOS_STEPS", "10000"))
SEED = int(os.environ.get("TAPETE_CHAOS_SEED", "20261201"))
KILLS = max(2, STEPS // 800)  # about a dozen restarts in the default run

SERVER = """
import sys
from pathlib import Path
import uvicorn
from tapete.server import Settings, create_app
from tapete.server.transport import Limits
# a client far faster than a person: the rate limit is not what this test is about
settings = Settings(data_dir=Path(sys.argv[1]), think_delay=0, runout_delay=0.004,
                    result_pause=0, idle_pace=0.004, action_time=600, time_bank=0,
                    coach_samples=50, limits=Limits(rate=5000, burst=5000))
uvicorn.run(create_app(settings), host="127.0.0.1", port=int(sys.argv[2]), log_level="error")
"""

Msg = dict[str, Any]


class Server:
    """The practice server in a child process, killed with SIGKILL and started again."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = open(data / "server.log", "ab")  # noqa: SIM115 - closed in stop()

    def start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", SERVER, str(self.data),
                                      str(self.port)], stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + bound()
        while time.monotonic() < deadline:  # ready once it answers
            try:
                httpx.get(f"http://127.0.0.1:{self.port}/api/me", timeout=bound(10))
                return
            except httpx.HTTPError:
                assert self.proc.poll() is None, self.tail()
                time.sleep(0.05)
        raise AssertionError("the server did not start\n" + self.tail())

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.log.close()

    def tail(self) -> str:
        self.log.flush()
        return (self.data / "server.log").read_text(errors="replace")[-3000:]


class Tab:
    """One browser tab: a WebSocket with the identity cookie, the latest state it was sent.
    Like the page, it connects again when the server closed it (a tab that falls behind
    its messages is let go at once: docs/protocol.md), and counts how often."""

    def __init__(self, server: Server, cookie: str) -> None:
        self.server, self.cookie = server, cookie
        self.state: Msg | None = None
        self.reconnects = 0
        self.ws = self._connect()

    def _connect(self) -> ClientConnection:
        ws = connect(f"ws://127.0.0.1:{self.server.port}/ws",
                     additional_headers={"Cookie": f"tapete_id={self.cookie}"},
                     open_timeout=HTTP)
        ws.__enter__()  # closed in close()
        return ws

    def _again(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()
        self.reconnects += 1
        self.ws = self._connect()

    def send(self, msg: Msg) -> None:
        try:
            self.ws.send(json.dumps(msg))
        except ConnectionClosed:
            self._again()
            self.ws.send(json.dumps(msg))

    def messages(self, wait: float) -> Iterator[Msg]:
        """What has arrived, waiting up to ``wait`` seconds for the first message."""
        timeout = wait
        while True:
            try:
                raw = self.ws.recv(timeout=timeout)
            except TimeoutError:
                return
            except ConnectionClosed:
                self._again()
                return
            timeout = 0
            yield json.loads(raw)

    def close(self) -> None:
        self.ws.close()


class Books:
    """Every state the tabs were shown, and the money as the database holds it (see the
    module's docstring)."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.results: set[str] = set()  # every hand played whose result a state showed
        self.states = self.checked = 0
        self.trail: list[str] = []  # the last states, to say what happened on a failure

    def see(self, s: Msg, where: str) -> None:
        me = s["me"]
        self.states += 1
        h = s.get("hand") or {}
        self.trail.append(f"{where[:70]} | lobby={s['lobby']} phase={h.get('phase')} "
                          f"hand={h.get('hand_id')} me={me}")
        del self.trail[:-40]
        assert me["bankroll"] >= 0 and me["at_table"] >= 0 and me["in_pot"] >= 0, self.why()
        assert me["total"] == me["bankroll"] + me["at_table"] + me["in_pot"], self.why()
        if s["lobby"]:
            assert me["at_table"] == 0 and me["in_pot"] == 0, self.why()
        r = s.get("last_result")
        if r is not None and r["played"]:  # a hand watched sitting out moves no money
            self.results.add(str(r["hand_id"]))

    def why(self) -> str:
        return "\n".join(self.trail)

    def account(self, *, quiet: bool = False) -> int:
        """Check the database's money (see the module's docstring) and return what the
        person owns: the bankroll stored, plus the moves the log records that are not stored
        yet, plus their chips on the tables. ``quiet``: the server is stopped or idle, so
        every move the log records is stored and every table the person left is closed."""
        got = money_of(self.data)
        assert not got.problems, got.problems
        lost = self.results - got.ended
        assert not lost, ("a result was shown that the log does not hold", sorted(lost))
        for key, amount in got.moves.items():  # no move without its record, or a wrong one
            assert got.records.get(key) == amount, (key, amount, got.records.get(key))
        missing = {k: v for k, v in got.records.items() if k not in got.moves}
        if quiet:
            assert not missing, missing
        for table, chips in got.on_table.items():
            assert chips >= 0, (table, chips)
            if table in got.left:
                assert chips == 0, (table, chips, "left, yet chips remain")
        self.checked += 1
        return got.bankroll + sum(missing.values()) + sum(got.on_table.values())


class Money(NamedTuple):
    bankroll: int  # the stored bankroll (10,000 for a player never stored)
    problems: list[str]  # what Storage.books finds wrong
    moves: dict[str, int]  # the room's stored bankroll moves of the person, by key
    records: dict[str, int]  # the moves the log's records call for, by key
    on_table: dict[str, int]  # the person's chips at each practice table
    left: set[str]  # the tables whose seat the person gave up
    ended: set[str]  # the hands the log holds an end of


def money_of(data: Path) -> Money:
    """The person's money, from the database alone: the players' table, the ledger, the
    room's moves and the room's log (each table's hands replayed from their events)."""
    storage = Storage(f"sqlite:///{data / 'tapete.sqlite3'}")
    try:
        with storage.engine.connect() as conn:
            people = [str(r[0]) for r in conn.exec_driver_sql(
                "SELECT id FROM tapete_players")]
            assert len(people) <= 1, people  # the bots are the house's: never stored
            if not people:
                return Money(10_000, [], {}, {}, {}, set(), set())
            pid = people[0]
            problems = storage.books(pid)  # read first: the ledger only grows
            moves = {str(k): int(v) for k, v in conn.exec_driver_sql(
                "SELECT key, bankroll FROM tapete_room_moves WHERE player_id = ?", (pid,))}
            (bankroll,) = conn.exec_driver_sql(
                "SELECT bankroll FROM tapete_players WHERE id = ?", (pid,)).one()
        log = EventLog(storage.engine)
        records: dict[str, int] = {}
        on_table: dict[str, int] = {}
        left: set[str] = set()
        ended: set[str] = set()
        for table in all_tables(storage):
            chips = 0
            setup: HandSetup | None = None
            players: list[str] = []
            events: list[ev.Event] = []
            for r in log.read(table):
                p = r.payload
                key = f"{table}:{r.seq}"
                if r.kind == "start":
                    setup = HandSetup.from_json(p["setup"])
                    players, events = list(p["players"]), []
                elif r.kind == "event":
                    events.append(ev.from_json(p["event"]))
                elif r.kind == "end":
                    assert setup is not None
                    hand = Hand.from_events(setup.rules, setup.stacks, events,
                                            **setup.hand_args())
                    ended.add(hand.hand_id)
                    if pid in players:
                        chips += hand.net()[players.index(pid)]
                elif r.kind == "void":
                    setup = None
                if p.get("player") != pid:
                    continue
                if r.kind == "sat":
                    records[key], chips = -p["chips"], chips + p["chips"]
                elif r.kind == "chips" and p["taken"]:
                    records[key], chips = -p["taken"], chips + p["taken"]
                elif r.kind in ("left", "refund") and p["chips"]:
                    records[key], chips = p["chips"], chips - p["chips"]
                if r.kind == "left":
                    left.add(table)
            on_table[table] = chips
        return Money(int(bankroll), problems, moves, records, on_table, left, ended)
    finally:
        storage.close()


def all_tables(storage: Storage) -> list[str]:
    """Every table the log holds, the closed ones too."""
    with storage.engine.connect() as conn:
        return [str(r[0]) for r in conn.exec_driver_sql(
            "SELECT id FROM tapete_room_tables ORDER BY created, id")]


def choose_act(rng: random.Random, s: Msg) -> Msg:
    lg = s["hand"]["legal"]
    options: list[Msg] = []
    if lg["fold"]:
        options.append({"action": "fold"})
    if lg["check"]:
        options.append({"action": "check"})
    if lg["call"]:
        options.append({"action": "call"})
    if lg["min_to"] is not None:
        kind = "bet" if lg["is_bet"] else "raise"
        options.append({"action": kind, "amount": lg["max_to"]})  # all-in often: run-outs
        options.append({"action": kind, "amount": rng.randint(lg["min_to"], lg["max_to"])})
        options.append({"action": kind, "amount": lg["max_to"]})
    move = rng.choice(options)
    return {"type": "act", "seq": s["seq"], **move}


def random_step(rng: random.Random, s: Msg | None) -> Msg:
    """One message a player could send now (or at any time: the server must cope)."""
    if s is not None and s.get("decision") and s.get("hand") and "legal" in s["hand"] \
            and rng.random() < 0.6:
        return choose_act(rng, s)
    lobby = s is None or s["lobby"]
    r = rng.random()
    if lobby:
        if r < 0.75:
            msg: Msg = {"type": "sit", "structure": rng.choice(["nl", "pl", "fl"]),
                        "blinds": rng.choice([0, 0, 1])}
            if rng.random() < 0.7:
                msg["buy_in"] = rng.choice([40, 100, 150, 200, 399, 1000, 10**12])
            return msg
        if r < 0.85:
            return {"type": "reset"}
        return {"type": rng.choice(["add_chips", "leave", "next"]), **(
            {"amount": 50} if r < 0.9 else {})}
    kinds = [("add_chips", 30), ("leave", 6), ("sit_out", 6), ("sit_in", 8), ("next", 8),
             ("pre", 6), ("coach", 2), ("reset", 2), ("sit", 2)]
    kind = rng.choices([k for k, _ in kinds], [w for _, w in kinds])[0]
    if kind == "add_chips":
        return {"type": kind, "amount": rng.choice([1, 7, 50, 195, 200, 500, 10**15])}
    if kind == "sit_in":
        return {"type": kind, "post": rng.random() < 0.5}
    if kind == "pre":
        return {"type": kind, "value": rng.choice([None, "check_fold", "call_any"])}
    if kind == "coach":
        return {"type": kind, "on": rng.random() < 0.5}
    if kind == "sit":
        return {"type": kind, "structure": "nl", "blinds": 0}
    return {"type": kind}


def test_no_chip_is_created_or_destroyed(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    server = Server(tmp_path)
    server.start()
    tabs: list[Tab] = []
    try:
        cookie = httpx.get(f"http://127.0.0.1:{server.port}/", timeout=HTTP).cookies["tapete_id"]
        tabs = [Tab(server, cookie), Tab(server, cookie)]
        books = Books(tmp_path)
        kill_at = set(rng.sample(range(100, STEPS), KILLS))
        latest: Msg | None = None
        hands_played = top_ups = kills = 0
        for step in range(STEPS):
            if step in kill_at:
                server.kill()
                kills += 1
                for t in tabs:
                    t.close()
                owned = books.account()  # the database as the kill left it
                server.start()
                tabs = [Tab(server, cookie), Tab(server, cookie)]
                latest = None
                for t in tabs:  # back where it stood: the same total, to the chip
                    for m in t.messages(0.5):
                        if m["type"] == "state":
                            books.see(m, f"step {step}: restarted")
                            # the hand in play may have gone on before this first state was
                            # built (a person who had asked to leave is folded at once): then
                            # it is what the database holds now, its log ahead of the state
                            total = m["me"]["total"]
                            assert total == owned or total == books.account(), \
                                (owned, books.why())
                            latest = m
                            break
            elif step % 50 == 0:
                books.account()
            tab = rng.choice(tabs)
            msg = random_step(rng, latest)
            if msg["type"] == "add_chips":
                top_ups += 1
            tab.send(msg)
            # read both tabs: a random, short wait, so that the next message lands at any
            # moment of a hand (betting, a run-out frame, the result, between hands)
            for t in tabs:
                for m in t.messages(rng.choice([0, 0.001, 0.003, 0.01])):
                    if m["type"] == "state":
                        books.see(m, f"step {step} after {msg}")
                        latest = m
                    elif m["type"] == "hands" and not m["reset"]:
                        hands_played += len(m["hands"])
        # quiet at the end: leave, and every chip is back in the bankroll
        tabs[0].send({"type": "leave"})
        deadline = time.monotonic() + bound()
        quiet = False  # until both tabs have been sent nothing for half a second, in the lobby
        refused: list[Msg] = []
        while time.monotonic() < deadline and not (quiet and latest and latest["lobby"]):
            quiet = True
            for t in tabs:
                for m in t.messages(0.25):
                    quiet = False
                    if m["type"] == "state":
                        books.see(m, "leaving at the end")
                        latest = m
                    elif m["type"] == "error":
                        refused.append(m)
            if quiet and latest is not None and not latest["lobby"]:
                # as a person would, asked again: the first ask may have been refused (the
                # flood of random steps before it spent the rate limit: `refused` says)
                tabs[0].send({"type": "leave"})
        print(f"tabs connected again after the server let them go: {[t.reconnects for t in tabs]}")
        assert latest is not None and latest["lobby"], (refused[-5:], [t.reconnects for t in tabs])
        server.stop()
        owned = books.account(quiet=True)
        assert owned == latest["me"]["total"] == money_of(tmp_path).bankroll, books.why()
        # the run did what it says: many states checked, hands, top-ups, every restart
        assert kills == KILLS and top_ups > STEPS // 20 and hands_played > STEPS // 50, (
            kills, top_ups, hands_played)
        assert books.states > STEPS // 5, (books.checked, books.states)
    finally:
        for t in tabs:
            t.close()
        server.stop()
