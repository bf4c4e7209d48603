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

What must hold:
- every state adds up: bankroll + chips at the table + chips in the pot = the total;
- the total moves only when a hand the player played ends, by that hand's net, or on a reset;
  a top-up, a refund, leaving, sitting down, a restart never change it;
- after a restart the total is what it was before the kill (the hand in play is void; a hand
  whose result was shown was stored before it was shown), and the database's books add up:
  the ledger sums to the money, every result row equals its stored hand's net, and nothing is
  left at a table once the player is in the lobby.

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
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from browser import free_port
from tapete.server.storage import Storage

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
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                httpx.get(f"http://127.0.0.1:{self.port}/api/me", timeout=1)
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
    """One browser tab: a WebSocket with the identity cookie, the latest state it was sent."""

    def __init__(self, server: Server, cookie: str) -> None:
        self.ws: ClientConnection = connect(
            f"ws://127.0.0.1:{server.port}/ws",
            additional_headers={"Cookie": f"tapete_id={cookie}"}, open_timeout=10)
        self.ws.__enter__()  # closed in close()
        self.state: Msg | None = None

    def send(self, msg: Msg) -> None:
        with contextlib.suppress(ConnectionClosed):
            self.ws.send(json.dumps(msg))

    def messages(self, wait: float) -> Iterator[Msg]:
        """What has arrived, waiting up to ``wait`` seconds for the first message."""
        timeout = wait
        while True:
            try:
                raw = self.ws.recv(timeout=timeout)
            except (TimeoutError, ConnectionClosed):
                return
            timeout = 0
            yield json.loads(raw)

    def close(self) -> None:
        self.ws.close()


class Books:
    """Every state the tabs were shown, checked against the database's ledger.

    Each state's ``me`` carries the money's ``version``: how many changes it has seen. Once
    that change is stored, the ledger's row of that number must hold the same total (bankroll
    plus chips at the table, where a hand in play counts with the stack from before it). The
    ledger itself must add up (:meth:`Storage.books`): only a hand's result, by that stored
    hand's net, or a reset changes the total; a buy-in, a top-up, a refund, a cash-out or a
    restart only moves chips."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.waiting: list[tuple[int, int, str]] = []  # (version, total, where) not yet stored
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
        self.waiting.append((me["version"], me["total"], where))

    def why(self) -> str:
        return "\n".join(self.trail)

    def against_ledger(self, *, after_kill: bool = False) -> int:
        """Check the states whose change is stored; returns the stored total. After a kill,
        changes that were never stored are gone, but never one whose result was shown."""
        balances, stored_results, problems = ledger_of(self.data)
        assert not problems, problems
        if after_kill:  # a state's version may count a later top-up still queued: by hand id
            lost = self.results - stored_results
            assert not lost, ("a result was shown and then lost", sorted(lost))
        left: list[tuple[int, int, str]] = []
        for version, total, where in self.waiting:
            if version == 0:  # a visitor not stored yet: the starting bankroll
                assert total == 10_000, (where, total)
            elif version <= len(balances):
                assert balances[version - 1] == total, (
                    where, f"shown {total}, stored {balances[version - 1]} at {version}",
                    balances[max(0, version - 4):version + 3], self.why())
                self.checked += 1
            elif not after_kill:
                left.append((version, total, where))
        self.waiting = left
        return balances[-1] if balances else 10_000


def ledger_of(data: Path) -> tuple[list[int], set[str], list[str]]:
    """The stored player's balance after each change, the hands whose result is stored, and
    what is wrong with the books."""
    storage = Storage(f"sqlite:///{data / 'tapete.sqlite3'}")
    try:
        with storage.engine.connect() as conn:
            ids = [r[0] for r in conn.exec_driver_sql("SELECT id FROM tapete_players")]
        assert len(ids) <= 1, ids
        if not ids:
            return [], set(), []
        problems = storage.books(ids[0])  # read first: the ledger only grows
        rows = storage.ledger(ids[0])
        return ([r["balance"] for r in rows],
                {str(r["hand_id"]) for r in rows if r["kind"] == "result"}, problems)
    finally:
        storage.close()


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
        cookie = httpx.get(f"http://127.0.0.1:{server.port}/", timeout=10).cookies["tapete_id"]
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
                before = books.against_ledger(after_kill=True)
                server.start()
                tabs = [Tab(server, cookie), Tab(server, cookie)]
                latest = None
                for t in tabs:  # back in the lobby with what was stored, the hand in play void
                    for m in t.messages(0.5):
                        if m["type"] == "state":
                            books.see(m, f"step {step}: restarted")
                            assert m["lobby"] and m["me"]["total"] == before, books.why()
                            latest = m
                            break
            elif step % 50 == 0:
                books.against_ledger()
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
        # quiet at the end: leave, and every state shown is in the books
        tabs[0].send({"type": "leave"})
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (latest and latest["lobby"]):
            for m in tabs[0].messages(0.05):
                if m["type"] == "state":
                    books.see(m, "leaving at the end")
                    latest = m
        assert latest is not None and latest["lobby"]
        server.stop()
        books.against_ledger()
        assert not books.waiting, books.waiting[:3]
        # the run did what it says: many states checked, hands, top-ups, every restart
        assert kills == KILLS and top_ups > STEPS // 20 and hands_played > STEPS // 50, (
            kills, top_ups, hands_played)
        assert books.checked > STEPS // 5, (books.checked, books.states)
    finally:
        for t in tabs:
            t.close()
        server.stop()
