"""A room on several nodes on this machine, and scripted players for it: what the chaos test
(``test_nodes_chaos.py``) and ``benchmarks/bench_room.py --nodes`` share.

Each node is ``tapete serve``'s app in a child process (:data:`NODE`: fast bots, a short pause
between hands, a lease of ``lease`` seconds) over one PostgreSQL schema and one Redis
database. Each :class:`Bot` is one seat's player: its own identity cookie, a WebSocket to any
node (following a ``moved`` redirect to the table's owner), every record checked gap-free
(``seq`` one more than the last, across reconnects: it resumes with ``?after=SEQ``), a legal
action for each decision, and reconnects with backoff when its node dies or drains.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from waiting import HTTP, bound

SRC = Path(__file__).resolve().parents[2] / "src"

NODE = """
import sys
import uvicorn
from tapete.server import Settings, create_app
from tapete.server.cluster import DrainingServer, node_id
from tapete.server.transport import Limits
db, redis, name, port, lease = sys.argv[1:6]
settings = Settings(database_url=db, think_delay=0, result_pause=0.3, runout_delay=0,
                    action_time=30, time_bank=0, limits=Limits(rate=5000, burst=5000),
                    node_id=node_id(name), redis_url=redis,
                    advertise=f"http://127.0.0.1:{port}", lease_s=float(lease), drain_s=60,
                    tables_per_address=0)  # every table is opened from this machine
app = create_app(settings)
config = uvicorn.Config(app, host="127.0.0.1", port=int(port), log_level="warning")
server = DrainingServer(config, lambda: app.state.ownership)

def dump(*_):  # SIGUSR1: every task's stack, to the log (a node that hangs says where)
    import asyncio
    for task in asyncio.all_tasks(server._loop):
        task.print_stack(file=sys.stderr)
    sys.stderr.flush()

import signal
signal.signal(signal.SIGUSR1, dump)
server.run()
"""

# a table of six scripted players: no bots, a long time to act (the players answer at once)
TABLE = {"bots": False, "seats": 6, "act_ms": 20_000, "bank_ms": 0, "min_buy_in": 40,
         "max_buy_in": 200}
START = 10_000  # every player's starting bankroll
OPERATOR = secrets.token_urlsafe(16)  # the nodes' operator token (GET /api/room/node)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def pg_schema(url: str) -> Iterator[str]:
    """A fresh schema on the PostgreSQL server ``url`` names (dropped afterwards)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    schema = f"tapete_nodes_{secrets.token_hex(5)}"
    admin = create_engine(url)
    try:
        with admin.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        yield make_url(url).update_query_dict({"options": f"-csearch_path={schema}"}) \
            .render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()


class NodeProcess:
    """One node in a child process: started, killed (SIGKILL), paused (SIGSTOP), drained
    (SIGTERM)."""

    def __init__(self, name: str, db: str, redis: str, lease: float, logs: Path) -> None:
        self.name, self.db, self.redis, self.lease = name, db, redis, lease
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.logs = logs
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = dict(os.environ)
        env["TAPETE_OPERATOR_TOKEN"] = OPERATOR  # info() is told of every table
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(SRC), env.get("PYTHONPATH")) if p)
        self.starts += 1
        log = open(self.logs / f"{self.name}.log", "ab")  # noqa: SIM115 - the child's
        self.proc = subprocess.Popen(
            [sys.executable, "-c", NODE, self.db, self.redis, self.name, str(self.port),
             str(self.lease)], stdout=log, stderr=log, env=env)
        log.close()

    def wait_up(self, limit: float = 120) -> None:
        deadline = time.monotonic() + bound(limit)
        while time.monotonic() < deadline:  # ready once it answers
            try:
                httpx.get(f"{self.url}/api/room/node", timeout=bound(10))
                return
            except httpx.HTTPError:
                assert self.proc is not None and self.proc.poll() is None, self.tail()
                time.sleep(0.1)
        raise AssertionError(f"node {self.name} did not start\n{self.tail()}")

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def signal(self, sig: int) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)

    def kill(self) -> None:
        self.signal(signal.SIGKILL)
        assert self.proc is not None
        self.proc.wait(30)

    def info(self) -> dict[str, Any]:
        return dict(httpx.get(f"{self.url}/api/room/node", timeout=HTTP,
                              headers={"Authorization": f"Bearer {OPERATOR}"}).json())

    def drain(self, limit: float = 90) -> int:
        """SIGTERM, and wait for the node to exit: its exit status."""
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(bound(limit))
        except subprocess.TimeoutExpired:
            self.proc.send_signal(signal.SIGUSR1)  # where it hangs, to its log
            time.sleep(1)
            raise AssertionError(f"node {self.name} did not drain\n{self.tail()}") from None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(30)

    def tail(self) -> str:
        path = self.logs / f"{self.name}.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""


@contextlib.contextmanager
def running(names: list[str], db: str, redis: str, lease: float, logs: Path
            ) -> Iterator[list[NodeProcess]]:
    """Nodes ``names``, started and answering, stopped at the end whatever happens."""
    nodes = [NodeProcess(name, db, redis, lease, logs) for name in names]
    try:
        for n in nodes:
            n.start()
        for n in nodes:
            n.wait_up()
        yield nodes
    finally:
        for n in nodes:
            n.stop()


class Stats:
    def __init__(self) -> None:
        self.gaps: list[str] = []  # records out of order: a gap or a repeat
        self.reconnects = 0
        self.moved = 0
        self.actions = 0
        self.hands = 0
        self.errors: dict[str, int] = {}
        self.latency: list[float] = []  # act -> the record of that action, seconds


class Bot:
    """One seat's scripted player (see the module's docstring)."""

    def __init__(self, nodes: list[str], table: str, name: str, cookie: str, seed: int,
                 stats: Stats, pace: float = 0.02) -> None:
        self.nodes = nodes  # the nodes' base URLs (the harness keeps the list current)
        self.table, self.name, self.cookie = table, name, cookie
        self.rng = random.Random(seed)
        self.stats = stats
        self.pace = pace
        self.last = 0  # the last seq seen
        self.seated = False
        self.answered: set[int] = set()
        self.pending: tuple[int, float] | None = None
        self.connected = False
        self.where = ""  # the URL of its connection now (or last)
        self.heard = 0.0  # when it was last sent anything (monotonic)

    async def run(self, stop: asyncio.Event) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidStatus

        backoff = 0.1
        target: str | None = None
        while not stop.is_set():
            base = target or self.rng.choice(self.nodes)
            target = None
            if base.startswith("http"):
                base = "ws" + base[4:] + f"/ws/t/{self.table}"
            url = f"{base}?records=1&states=turn&after={self.last}"
            self.where = url
            try:
                async with connect(url, open_timeout=2, ping_interval=1, ping_timeout=3,
                                   close_timeout=1, additional_headers={
                                       "Cookie": f"tapete_id={self.cookie}"}) as ws:
                    self.connected = True
                    moved = await self._session(ws, stop)
                    if moved is not None:
                        self.stats.moved += 1
                        target = moved or None
                        if target:
                            backoff = 0.1
                            continue
                    else:
                        backoff = 0.1
            except (ConnectionClosed, OSError, TimeoutError, InvalidStatus):
                pass
            except Exception as exc:  # a bug of the bot's, or a message it did not expect
                key = f"bot: {type(exc).__name__}: {exc}"[:120]
                self.stats.errors[key] = self.stats.errors.get(key, 0) + 1
            finally:
                self.connected = False
            if stop.is_set():
                return
            self.stats.reconnects += 1
            await asyncio.sleep(backoff * (0.5 + self.rng.random()))
            backoff = min(1.0, backoff * 2)

    async def _session(self, ws: Any, stop: asyncio.Event) -> str | None:
        """Play on one connection; the URL it is sent to ("" for anywhere), else None."""
        self.answered.clear()  # a decision sent to a node that died is answered again here
        stopper = asyncio.ensure_future(stop.wait())
        try:
            while True:
                reader = asyncio.ensure_future(ws.recv())
                done, _ = await asyncio.wait({reader, stopper},
                                             return_when=asyncio.FIRST_COMPLETED)
                if stopper in done:
                    reader.cancel()
                    return None
                m = json.loads(reader.result())
                self.heard = time.monotonic()
                kind = m.get("type")
                if kind == "record":
                    if m["seq"] != self.last + 1:
                        self.stats.gaps.append(f"{self.table} {self.name}: after {self.last}"
                                               f" came {m['seq']}")
                    self.last = max(self.last, m["seq"])
                    if self.pending is not None and m["seq"] > self.pending[0]:
                        self.stats.latency.append(time.monotonic() - self.pending[1])
                        self.pending = None
                    if m["kind"] == "end":
                        self.stats.hands += 1
                elif kind == "state":
                    msg = self._answer(m)
                    if msg is not None:
                        await asyncio.sleep(self.pace * self.rng.random())
                        if msg["type"] == "act":
                            self.pending = (msg["seq"], time.monotonic())
                            self.stats.actions += 1
                        await ws.send(json.dumps(msg))
                elif kind == "error":
                    code = str(m.get("code"))
                    if code == "moved":
                        return str(m.get("url") or "")
                    self.stats.errors[code] = self.stats.errors.get(code, 0) + 1
        finally:
            stopper.cancel()

    def __str__(self) -> str:
        return (f"{self.table} {self.name} at {self.last}, connected {self.connected} to"
                f" {self.where}, heard {time.monotonic() - self.heard:.1f} s ago")

    def _answer(self, m: dict[str, Any]) -> dict[str, Any] | None:
        room = m["room"]
        if not room["seated"]:
            if self.seated and room["hand_no"] == 0:
                return None
            self.seated = True  # asked once a connection: the table says if it took it
            return {"type": "take_seat", "name": self.name, "buy_in": 200}
        mine = next((s for s in m["seats"] if s and s["you"]), None)
        if mine is not None and mine["chips"] == 0 and not m["live"]:
            return {"type": "add_chips", "amount": 200}
        d = m.get("decision")
        hand = m.get("hand")
        if not d or not hand or "legal" not in hand or d["seq"] in self.answered:
            return None
        self.answered.add(d["seq"])
        lg = hand["legal"]
        options: list[tuple[dict[str, Any], float]] = []
        if lg["fold"] and not lg["check"]:
            options.append(({"action": "fold"}, 1.0))
        if lg["check"]:
            options.append(({"action": "check"}, 4.0))
        if lg["call"]:
            options.append(({"action": "call"}, 3.0))
        if lg["min_to"] is not None:
            kind = "bet" if lg["is_bet"] else "raise"
            options.append(({"action": kind, "amount": lg["min_to"]}, 1.0))
            options.append(({"action": kind, "amount": lg["max_to"]}, 0.2))
        move = self.rng.choices([o for o, _ in options], [w for _, w in options])[0]
        return {"type": "act", "seq": d["seq"], **move}


def cookie(url: str) -> str:
    return str(httpx.get(f"{url}/", timeout=30).cookies["tapete_id"])


def open_tables(nodes: list[str], count: int) -> list[str]:
    """``count`` tables, opened round the nodes (each by an identity of its own)."""
    out = []
    for i in range(count):
        with httpx.Client(base_url=nodes[i % len(nodes)], timeout=30) as c:
            c.get("/")
            r = c.post("/api/room/tables", json=TABLE)
            assert r.status_code == 201, r.text
            out.append(str(r.json()["table"]))
    return out


# ---------------------------------------------------------------------------- the books
class Dummy:
    """A bankroll that moves nothing (the money is checked from the database)."""

    def balance(self, player: str) -> int:
        return 10**15

    def take(self, player: str, amount: int, key: str) -> bool:
        return True

    def give(self, player: str, amount: int, key: str) -> None:
        return None

    def settled(self, table_id: str) -> bool:
        return True


def audit(db: str, players: list[str]) -> dict[str, Any]:
    """The room from its database alone, in this one process: every table restored from its
    log (each record replayed and checked), its chips; every hand of each log that began
    ended or was voided; each hand rebuilt from the log against the hand each player keeps;
    every bankroll against its moves and its ledger."""
    from tapete.core import events as ev
    from tapete.core.hand import Hand
    from tapete.core.setup import HandSetup
    from tapete.room.log import EventLog
    from tapete.room.table import restore
    from tapete.server.storage import Storage

    storage = Storage(db)
    log = EventLog(storage.engine)
    problems: list[str] = []
    on_tables = hands = voided = unfinished = rows_checked = 0
    try:
        for tid in log.table_ids():
            table = restore(log, tid, Dummy())
            on_tables += table.table_chips()
            open_hand: int | None = None
            setup: HandSetup | None = None
            players_of: list[str] = []
            events: list[ev.Event] = []
            for r in log.read(tid):
                p = r.payload
                if r.kind == "start":
                    if open_hand is not None:
                        problems.append(f"{tid}: hand {open_hand} neither ended nor voided")
                    open_hand = p["hand_no"]
                    setup = HandSetup.from_json(p["setup"])
                    players_of, events = list(p["players"]), []
                elif r.kind == "event":
                    events.append(ev.from_json(p["event"]))
                elif r.kind == "void":
                    open_hand, voided = None, voided + 1
                elif r.kind == "end":
                    open_hand, hands = None, hands + 1
                    assert setup is not None
                    hand = Hand.from_events(setup.rules, setup.stacks, events,
                                            **setup.hand_args())
                    for seat, pid in enumerate(players_of):
                        row = storage.get_hand(pid, f"{hand.hand_id}-{seat + 1}")
                        if row is None:
                            problems.append(f"{tid}: {pid} keeps no hand {hand.hand_id}")
                        elif row.net != hand.net()[seat]:
                            problems.append(f"{tid}: hand {hand.hand_id} net {row.net} kept,"
                                            f" {hand.net()[seat]} replayed")
                        else:
                            rows_checked += 1
            if open_hand is not None:
                unfinished += 1
        bankrolls = 0
        for pid in players:
            row = storage.get_player(pid)
            if row is None:
                bankrolls += START
                continue
            bankrolls += row.bankroll
            problems += storage.books(pid)
            if row.bankroll != START + storage.room_moves(pid):
                problems.append(f"{pid}: bankroll {row.bankroll}, moves"
                                f" {storage.room_moves(pid)}")
        with storage.engine.connect() as conn:
            events_n = conn.exec_driver_sql("SELECT count(*) FROM tapete_room_events").scalar()
    finally:
        storage.close()
    return {"problems": problems, "chips": bankrolls + on_tables, "expected":
            START * len(players), "on_tables": on_tables, "hands": hands, "voided": voided,
            "unfinished": unfinished, "rows_checked": rows_checked, "records": events_n}


def last_seqs(db: str) -> dict[str, int]:
    from sqlalchemy import create_engine

    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            return {str(t): int(s) for t, s in conn.exec_driver_sql(
                "SELECT table_id, max(seq) FROM tapete_room_events GROUP BY table_id")}
    finally:
        engine.dispose()


def owners(db: str) -> dict[str, str]:
    """Each table's lease holder now (unexpired)."""
    from sqlalchemy import create_engine

    engine = create_engine(db)
    now = time.time_ns() // 1_000_000
    try:
        with engine.connect() as conn:
            return {str(t): str(o) for t, o, e in conn.exec_driver_sql(
                "SELECT table_id, owner, expires FROM tapete_room_leases") if int(e) >= now}
    finally:
        engine.dispose()


def first_actions_after(db: str, tables: list[str], since_ms: int) -> dict[str, int | None]:
    """Each table's first action (a betting action stored) after ``since_ms`` (Unix ms)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(db)
    out: dict[str, int | None] = {}
    try:
        with engine.connect() as conn:
            for tid in tables:
                got = None
                for at, payload in conn.execute(text(
                        "SELECT at, payload FROM tapete_room_events WHERE table_id = :t AND"
                        " at > :s AND kind = 'event' ORDER BY seq"), {"t": tid, "s": since_ms}):
                    if json.loads(payload)["event"].get("type") == "Acted":
                        got = int(at)
                        break
                out[tid] = got
    finally:
        engine.dispose()
    return out


def players_of(db: str) -> list[str]:
    from sqlalchemy import create_engine

    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            return [str(r[0]) for r in conn.exec_driver_sql("SELECT id FROM tapete_players")]
    finally:
        engine.dispose()
