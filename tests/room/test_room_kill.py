"""The room's crash test: a real ``tapete serve`` killed with SIGKILL at random moments while
people play, restarted on the same data directory and port, and the clients reconnecting.

The server runs in a child process (``python -m tapete serve``, SQLite in a temporary data
directory). Four tables, no bots, a minute to act (nobody times out during the run), no time
bank: two opened over HTTP (``POST /api/room/tables``; a hand a crash interrupts goes on), and
two stored in the database before the server first starts with ``on_crash: "void"`` (no
player chooses it over HTTP; ``tapete serve --on-crash`` sets it for every new table): a hand
a crash interrupts there is called off. At each table four client threads, each with its own
identity cookie, take a seat and answer every decision with a legal action chosen at random
(seeded): fold, check, call, the smallest raise, all-in; now and then one adds chips during a
hand, a busted one buys more between hands, and one may leave and sit down again.

``TAPETE_ROOM_KILLS`` times (default 20), after 0.2 to 2 seconds of play (seeded), the server
is killed, one of four ways (seeded): at that moment; at the first moment after it when a
resume table has a hand in play; by the next client to act, 0 to 80 ms after it sends its
action (the action lost, stored, or stored and sent); or by that client once the database
holds its action, the client reading nothing more on that connection (the action stored, its
records lost on the way: they must come, once, when it reconnects). Each time, once the server
is dead (the database as the crash left it) and again once it has started (the tables
restored), with the clients still away, the test reads the database itself: a consistent copy
of it, where each table is rebuilt with :func:`tapete.room.table.restore` and a bankroll that
only writes down the moves it is asked for. What must hold:

- every table's log is gap-free (1, 2, 3, ...), and what was stored before the crash is still
  there, unchanged, after the restart;
- chips are conserved: the players' bankrolls and chips at a table (``tapete_players``), the
  chips on the tables (as each hand in play began) and the moves stored but not yet made (only
  at the moment of a crash) add up to the starting bankroll of every player; after the restart
  every move the logs ask for is in ``tapete_room_moves``, with its player and amount, and
  there is no move no record asked for; each player's ledger adds up (``Storage.books``);
- the hand in play at the crash is resumed (the resume tables): the same hand, the same hole
  cards and board, the same player to act, and the server offers that player that decision,
  with the same cards and money on the page; or voided (the void tables): a ``void`` record
  right after the last one stored, every seat of the hand back to the stack it began with
  (plus chips added during it, up to the table maximum; the rest refunded);
- the lobby (``GET /api/room/tables``) lists every table with its seats taken and hands;
- every client's records, across every reconnect (``after=`` its last seq), are gap-free,
  never repeated, and the very records of the table's log as that player may see them;
- at the end at least 30 hands were played (after the kills the clients play on until then).

``TAPETE_ROOM_KILL_SEED`` seeds the run (its kill schedule and every client's choices; the
interleaving of the threads still varies from run to run). About two minutes on two idle
cores with the default 20 kills: half of it the server starting again, most of the rest the
hands (the room waits three seconds between two).

A second test restarts the server once and checks what the first does not reach: the lobby's
hands an hour, and a client coming back after missing hundreds of records.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

from browser import free_port
from tapete.core.cards import format_card
from tapete.room.log import EventLog, OnCrash, Record, TableConfig
from tapete.room.table import RoomTable, restore, visible
from tapete.server.config import DB_FILE
from tapete.server.storage import Storage, hands_table, players_table, room_moves_table
from waiting import HTTP, bound, until

KILLS = int(os.environ.get("TAPETE_ROOM_KILLS", "20"))
SEED = int(os.environ.get("TAPETE_ROOM_KILL_SEED", "20260417"))
STARTING = 10_000  # the server's starting bankroll (Settings.starting_bankroll)
# the tables (what a crash does to the hand in play) and the clients at each: a hand takes
# some three seconds more than its play (the room shows the result before the next deal),
# so four tables deal the hands the run needs in its time
TABLES = (("resume", 4), ("resume", 4), ("void", 4), ("void", 4))
HANDS = 30  # played in all, at least
SETTINGS = {"act_ms": 60_000, "bank_ms": 0, "bots": False}
SRC = Path(__file__).resolve().parents[2] / "src"

Msg = dict[str, Any]


# ------------------------------------------------------------------------------ the server
class Server:
    """``tapete serve`` in a child process, killed with SIGKILL and started again on the
    same data directory and port."""

    def __init__(self, data: Path, logfile: Path) -> None:
        self.data = data
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.logfile = logfile
        self.log = open(logfile, "ab")  # noqa: SIM115 - closed in stop()
        self.lock = threading.Lock()
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = dict(os.environ, TAPETE_PURE="1")
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(SRC), env.get("PYTHONPATH")) if p)
        with self.lock:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tapete", "serve", "--port", str(self.port),
                 "--data-dir", str(self.data)], stdout=self.log, stderr=self.log, env=env)
            self.starts += 1
        deadline = time.monotonic() + bound()
        while time.monotonic() < deadline:  # ready once it answers (its tables restored)
            try:
                httpx.get(f"{self.url}/api/me", timeout=bound(10))
                return
            except httpx.HTTPError:
                assert self.proc.poll() is None, self.tail()
                time.sleep(0.05)
        raise AssertionError("the server did not start\n" + self.tail())

    def kill(self) -> bool:
        """SIGKILL, once per start; False when it was dead already."""
        with self.lock:
            if self.proc is None or self.proc.poll() is not None:
                return False
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(bound(30))
            return True

    def stop(self) -> None:
        with self.lock:
            if self.proc is not None and self.proc.poll() is None:
                self.proc.terminate()
                try:
                    self.proc.wait(10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait(10)
        self.log.close()

    def tail(self) -> str:
        self.log.flush()
        return self.logfile.read_text(errors="replace")[-4000:]


def pid_of(cookie: str) -> str:
    """The player id in a Starlette session cookie (base64 JSON, then its signature)."""
    payload = cookie.split(".")[0]
    return str(json.loads(base64.b64decode(payload + "=" * (-len(payload) % 4)))["pid"])


# ------------------------------------------------------------------------------ the stage
class Stage:
    """What the test lets the clients do: connect (``open``, to the server's ``generation``:
    once per start) and act (``playing``); and the kill a client makes once it has sent an
    action (``armed``: ``"sent"``, right after sending it; ``"stored"``, once the database
    holds it, the client reading nothing more)."""

    def __init__(self, server: Server, db: Path) -> None:
        self.server = server
        self.db = db
        self.cond = threading.Condition()
        self.generation = 0
        self.open = False
        self.playing = False
        self.armed: str | None = None
        self.killed = threading.Event()
        self.kill_info: dict[str, Any] | None = None
        self.stopping = False
        self.problems: list[str] = []  # what the client threads saw go wrong

    def problem(self, text: str) -> None:
        with self.cond:
            self.problems.append(text)

    def let_in(self) -> None:
        with self.cond:
            self.generation += 1
            self.open = True
            self.cond.notify_all()

    def kill(self, info: dict[str, Any] | None = None) -> None:
        with self.cond:
            self.open = self.playing = False
            self.armed = None
            self.kill_info = info
        self.server.kill()
        self.killed.set()

    def take_arm(self) -> str | None:
        with self.cond:
            armed = self.armed if self.playing else None
            self.armed = None
            return armed

    def disarm(self) -> bool:
        """Disarmed before any client took it: True; a client is killing the server: False."""
        with self.cond:
            was = self.armed is not None
            self.armed = None
            return was

    def in_hand(self, table: str) -> bool:
        """Whether the database has a hand in play at the table."""
        conn = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=5)
        try:
            row = conn.execute("SELECT kind FROM tapete_room_events WHERE table_id = ? AND"
                               " kind IN ('start', 'end', 'void') ORDER BY seq DESC LIMIT 1",
                               (table,)).fetchone()
        finally:
            conn.close()
        return row is not None and row[0] == "start"

    def stored(self, table: str) -> int:
        """The table's last stored record, read from the database file itself."""
        conn = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=5)
        try:
            row = conn.execute("SELECT max(seq) FROM tapete_room_events WHERE table_id = ?",
                               (table,)).fetchone()
        finally:
            conn.close()
        return int(row[0] or 0)


# ------------------------------------------------------------------------------ a client
@dataclass
class Expect:
    """What a client's first state after a restart must show, read from the database."""

    bankroll: int
    chips: int | None  # at the table, as the hand in play began (None: no seat)
    decision: int | None  # the decision it is to answer (None: it is not to act)
    check_decision: bool  # whether a hand was in play when the database was read
    hole: list[str] | None  # its hole cards in the hand in play


class Client(threading.Thread):
    """One player in a thread: its own identity, one WebSocket at a time, every record
    checked as it comes."""

    def __init__(self, stage: Stage, table: str, player_name: str, cookie: str,
                 seed: int) -> None:
        super().__init__(daemon=True, name=f"client-{player_name}")
        self.stage = stage
        self.table = table
        self.player_name = player_name
        self.cookie = cookie
        self.pid = pid_of(cookie)
        self.rng = random.Random(seed)
        self.records: list[Msg] = []  # every record received, over every connection
        self.last = 0  # the last record's seq
        self.online = False
        self.ready = False  # the first state of this connection came (and was checked)
        self.connected_to = 0  # the stage's generation of this connection
        self.expect: Expect | None = None
        self.acted: set[int] = set()  # the decisions answered on this connection
        self.state: Msg | None = None
        self.acts = 0
        self.errors: dict[str, int] = {}
        self.ws: ClientConnection | None = None
        self.asked_seat = False
        self.topped_hand = 0
        self.deaf = False  # reads nothing more on this connection

    def run(self) -> None:
        try:
            while not self.stage.stopping:
                with self.stage.cond:
                    self.stage.cond.wait_for(lambda: self.stage.stopping or (
                        self.stage.open and self.stage.generation != self.connected_to), 0.2)
                    if self.stage.stopping:
                        return
                    if not (self.stage.open and self.stage.generation != self.connected_to):
                        continue
                    generation = self.stage.generation
                self.session(generation)
        except Exception as exc:  # a failure here is the test's
            self.stage.problem(f"{self.player_name}: {type(exc).__name__}: {exc}")
            raise

    def session(self, generation: int) -> None:
        url = (f"ws://127.0.0.1:{self.stage.server.port}/ws/t/{self.table}"
               f"?records=1&after={self.last}")
        try:
            ws = connect(url, additional_headers={"Cookie": f"tapete_id={self.cookie}"},
                         open_timeout=10, max_size=None)
        except (OSError, InvalidHandshake, TimeoutError):
            time.sleep(0.05)  # the server is starting, or dead again: the stage says
            return
        with ws:  # closed when the block ends
            self.ws, self.connected_to = ws, generation
            self.online, self.ready = True, False
            self.acted.clear()
            self.asked_seat = self.deaf = False
            try:
                while not self.stage.stopping and not self.deaf:
                    try:
                        raw = ws.recv(timeout=0.05)
                    except TimeoutError:
                        self.maybe_act()
                        continue
                    if not self.deaf:
                        self.receive(json.loads(raw))
                        self.maybe_act()
            except ConnectionClosed:
                pass
            finally:
                self.online = False
                self.ws = None

    def send(self, msg: Msg) -> None:
        if self.ws is not None:
            with contextlib.suppress(ConnectionClosed):
                self.ws.send(json.dumps(msg))

    # -------------------------------------------------------------- what comes in
    def receive(self, m: Msg) -> None:
        if m["type"] == "record":
            if m["seq"] != self.last + 1 or m["table"] != self.table:
                self.stage.problem(f"{self.player_name}: record {m['seq']} after {self.last}"
                                   f" (table {m['table']})")
            self.last = m["seq"]
            self.records.append(m)
        elif m["type"] == "state":
            if not self.ready:
                self.first_state(m)
                self.ready = True
            self.state = m
        elif m["type"] == "error":
            code = m["code"]
            self.errors[code] = self.errors.get(code, 0) + 1
            if code not in ("stale", "refused"):
                self.stage.problem(f"{self.player_name}: error {m}")

    def first_state(self, m: Msg) -> None:
        """After a restart the page shows what the database holds: the bankroll, the chips,
        the decision, the hole cards."""
        e = self.expect
        if e is None:
            return
        self.expect = None
        me = m["me"]
        got = {"bankroll": me["bankroll"]}
        want: dict[str, Any] = {"bankroll": e.bankroll}
        if e.chips is not None:
            got["chips"], want["chips"] = me["at_table"] + me["in_pot"], e.chips
        if e.check_decision:
            got["decision"] = m["decision"]["seq"] if m["decision"] else None
            want["decision"] = e.decision
        if e.hole is not None:
            hand = m["hand"] or {}
            you = hand.get("you")
            got["hole"] = hand["players"][you]["cards"] if you is not None else None
            want["hole"] = e.hole
        if got != want:
            self.stage.problem(f"{self.player_name}: after restart {self.stage.generation}"
                               f" the state shows {got}, the database {want}")

    # -------------------------------------------------------------- what goes out
    def maybe_act(self) -> None:
        s = self.state
        if s is None or not self.ready or not self.stage.playing:
            return
        room = s["room"]
        if not room["seated"]:
            if not self.asked_seat and s["me"]["bankroll"] >= 200:
                self.asked_seat = True
                self.send({"type": "take_seat", "name": self.player_name,
                           "buy_in": self.rng.randint(100, 200)})
            return
        self.asked_seat = False
        mine = next((x for x in s["seats"] if x and x["you"]), None)
        if mine is not None and mine["chips"] == 0 and self.topped_hand != room["hand_no"] + 1 \
                and s["me"]["bankroll"] >= 40:
            self.topped_hand = room["hand_no"] + 1  # once a hand: the answer moves the seq
            self.send({"type": "add_chips", "amount": self.rng.randint(40, 200)})
        d = s["decision"]
        hand = s["hand"]
        if not d or not hand or "legal" not in hand or d["seq"] in self.acted:
            return
        self.acted.add(d["seq"])
        if self.rng.random() < 0.04 and s["me"]["bankroll"] >= 300:  # chips for after the hand
            self.send({"type": "add_chips", "amount": self.rng.randint(1, 300)})
        msg = {"type": "act", "seq": d["seq"], **self.choose(hand["legal"])}
        self.send(msg)
        self.acts += 1
        armed = self.stage.take_arm()
        if armed == "sent":  # die now, the action on its way (lost, stored, or sent)
            time.sleep(self.rng.choice([0, 0.001, 0.005, 0.01, 0.02, 0.04, 0.08]))
            self.stage.kill({"client": self, "decision": d["seq"], "how": armed})
            return
        if armed == "stored":  # die once the action is stored: its records never reach
            self.deaf = True  # this client, which reads nothing more on this connection
            wait(lambda: self.stage.stored(self.table) > d["seq"], 30)
            self.stage.kill({"client": self, "decision": d["seq"], "how": armed})
            return
        if self.rng.random() < 0.015:
            self.send({"type": "leave"})

    def choose(self, lg: Msg) -> Msg:
        kind = "bet" if lg["is_bet"] else "raise"
        options: list[tuple[Msg, float]] = []
        if lg["fold"]:
            options.append(({"action": "fold"}, 3 if not lg["check"] else 0.2))
        if lg["check"]:
            options.append(({"action": "check"}, 4))
        if lg["call"]:
            options.append(({"action": "call"}, 3))
        if lg["min_to"] is not None:
            options.append(({"action": kind, "amount": lg["min_to"]}, 1.5))
            options.append(({"action": kind, "amount": lg["max_to"]}, 0.4))
        return self.rng.choices([o for o, _ in options], [w for _, w in options])[0]


# ------------------------------------------------------------------------------ the database
class Recorder:
    """A bankroll that makes nothing: it writes down every move it is asked for."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, str, int]] = []  # key, player, change of the bankroll

    def balance(self, player: str) -> int:
        return 10**12

    def take(self, player: str, amount: int, key: str) -> bool:
        self.asked.append((key, player, -amount))
        return True

    def give(self, player: str, amount: int, key: str) -> None:
        self.asked.append((key, player, amount))

    def settled(self, table_id: str) -> bool:
        return True


@dataclass
class Snap:
    """The database at one moment (a consistent copy), each table rebuilt from it."""

    logs: dict[str, list[Record]]  # as stored
    tables: dict[str, RoomTable]  # restored from a copy (a void table voided there)
    after_restore: dict[str, list[Record]]  # the copy's log once restored (with a void)
    asked: dict[str, list[tuple[str, str, int]]]  # the moves the restore asked for
    snapped: dict[str, int]  # the seq of each table's last snapshot (0: none)
    moves: dict[str, tuple[str, int]]  # tapete_room_moves: key -> (player, bankroll)
    players: dict[str, tuple[int, int]]  # tapete_players: id -> (bankroll, at_table)
    nets: dict[str, int]  # the nets of each player's stored hands (tapete_hands)
    books: dict[str, list[str]]  # what is wrong with each player's ledger


def snapshot(db: Path, copy: Path) -> Snap:
    """Copy the database (SQLite's backup: one consistent moment, whatever the server does
    meanwhile), then read and restore everything from the copy."""
    copy.unlink(missing_ok=True)
    src, dst = sqlite3.connect(db), sqlite3.connect(copy)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()
    url = f"sqlite:///{copy}"
    storage = Storage(url, STARTING)
    try:
        log = EventLog(storage.engine)
        with storage.engine.connect() as conn:
            moves = {str(k): (str(p), int(b)) for k, p, b in conn.execute(sa.select(
                room_moves_table.c.key, room_moves_table.c.player_id,
                room_moves_table.c.bankroll))}
            players = {str(i): (int(b), int(a)) for i, b, a in conn.execute(sa.select(
                players_table.c.id, players_table.c.bankroll, players_table.c.at_table))}
            nets: dict[str, int] = {}
            for pid, net in conn.execute(sa.select(hands_table.c.player_id, hands_table.c.net)):
                nets[str(pid)] = nets.get(str(pid), 0) + int(net)
        books = {pid: storage.books(pid) for pid in players}
        logs, tables, after, asked, snapped = {}, {}, {}, {}, {}
        for tid in log.table_ids():
            logs[tid] = log.read(tid)
            last = log.last_snapshot(tid)
            snapped[tid] = last[0] if last is not None else 0
            bank = Recorder()
            tables[tid] = restore(log, tid, bank)
            after[tid] = log.read(tid)
            asked[tid] = bank.asked
        return Snap(logs, tables, after, asked, snapped, moves, players, nets, books)
    finally:
        storage.close()


def rows(records: list[Record]) -> list[tuple[int, str, Any]]:
    return [(r.seq, r.kind, r.payload) for r in records]


def check_books(snap: Snap, when: str, *, crashed: bool) -> int:
    """Gap-free logs, moves made once and only as asked, chips conserved. ``crashed``: the
    moment of a crash, when a move may be stored in the log and not yet made. Returns how
    many such moves there were."""
    for tid, log in snap.logs.items():
        assert [r.seq for r in log] == list(range(1, len(log) + 1)), (when, tid, "gaps")
    pending = unmade = 0
    asked_keys: set[str] = set()
    for tid, asked in snap.asked.items():
        stored = len(snap.logs[tid])
        for key, player, delta in asked:
            assert key not in asked_keys, (when, "a move asked for twice", key)
            asked_keys.add(key)
            made = snap.moves.get(key)
            if made is not None:
                assert made == (player, delta), (when, key, "made", made, "asked", (player, delta))
                continue
            by_void = int(key.rsplit(":", 1)[1]) > stored  # the void the restore adds
            assert crashed or by_void, (when, "a move the log asks for was never made", key,
                                        player, delta)
            pending += delta
            unmade += not by_void
    # a restore from a snapshot asks for no move before it: the table kept the snapshot only
    # once every one of them was stored, so each must be made, as its record says
    for tid, log in snap.logs.items():
        for r in log[:snap.snapped[tid]]:
            p = r.payload
            delta = (-p["chips"] if r.kind == "sat" else -p["taken"] if r.kind == "chips"
                     else p["chips"] if r.kind in ("left", "refund") else 0)
            if delta:
                key = f"{tid}:{r.seq}"
                assert snap.moves.get(key) == (p["player"], delta), (
                    when, "a move before the snapshot is not made", key, snap.moves.get(key))
                asked_keys.add(key)
    extra = set(snap.moves) - asked_keys
    assert not extra, (when, "moves no record asked for", sorted(extra)[:5])
    for pid, problems in snap.books.items():
        assert not problems, (when, pid, problems)
    for pid, (bankroll, at_table) in snap.players.items():
        moved = sum(d for p, d in snap.moves.values() if p == pid)
        # a person's chips at tables: what the moves brought there, and each stored hand's
        # net (a bot's are not counted: it keeps no hands)
        seat = 0 if pid.startswith("bot:") else -moved + snap.nets.get(pid, 0)
        assert (bankroll, at_table) == (STARTING + moved, seat), (
            when, pid, bankroll, at_table, moved, snap.nets.get(pid, 0))
    money = sum(b for b, _ in snap.players.values())  # the chips at tables are on_tables
    on_tables = sum(t.table_chips() for t in snap.tables.values())
    raked = sum(t.raked for t in snap.tables.values())
    assert money + pending + on_tables + raked == STARTING * len(snap.players), (
        when, {"bankrolls": money, "moves not made yet": pending, "on the tables": on_tables,
               "rake": raked, "players": len(snap.players)})
    for tid, t in snap.tables.items():
        t.check_books()  # the table's own books: in, out, rake, on the table
        assert not t.broken, (when, tid)
    return unmade


def hand_of(t: RoomTable) -> tuple[Any, ...] | None:
    """The hand in play as the players know it: its number, the hole cards, the board, the
    seat to act and the decision's number, every event."""
    hand = t.hand
    if hand is None:
        return None
    assert hand.actor is not None
    return (t.hand_no, list(hand.hole), [list(b) for b in hand.boards],
            t.table.seat_of(hand.actor), t.turn_seq, list(hand.events))


def check_void(before: Snap, tid: str, when: str) -> None:
    """The copy's restore called off the hand in play: a ``void`` record right after the last
    one stored, every seat of the hand back to the stack it began with (plus chips added
    during it, up to the table maximum, the rest refunded)."""
    log, done = before.logs[tid], before.after_restore[tid]
    start = max(i for i, r in enumerate(log) if r.kind == "start")
    hand_no = log[start].payload["hand_no"]
    assert done[len(log)].kind == "void" and done[len(log)].payload == {"hand_no": hand_no}, (
        when, rows(done[len(log):]))
    t = before.tables[tid]
    assert t.hand is None, when
    stacks = log[start].payload["setup"]["stacks"]
    seats = log[start].payload["setup"]["seats"]
    top = t.config.max_buy_in
    refunds = {r.payload["seat"]: r.payload["chips"] for r in done[len(log):]
               if r.kind == "refund"}
    left = {r.payload["seat"]: r.payload["chips"] for r in done[len(log):] if r.kind == "left"}
    for i, seat in enumerate(seats):
        added = sum(r.payload["taken"] for r in log[start:] if r.kind == "chips"
                    and r.payload["seat"] == seat)
        room = max(0, min(added, top - stacks[i]))
        s = t.table.seats[seat]
        chips = s.chips if s is not None else left.get(seat)  # or gone, if it was leaving
        assert chips == stacks[i] + room, (when, seat, chips, stacks[i], added)
        assert refunds.get(seat, 0) == added - room, (when, seat, refunds, added, room)


# ------------------------------------------------------------------------------ the test
def test_kill_nine_at_random_moments(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    db, copy = data / DB_FILE, tmp_path / "copy.sqlite3"
    # the void tables, stored before the server first starts (on_crash is not a setting
    # the room lets anyone choose)
    seed_log = EventLog(f"sqlite:///{db}")
    void_ids = [seed_log.create_table(TableConfig(act_ms=60_000, bank_ms=0,
                                                  on_crash=OnCrash.VOID))
                for how, _ in TABLES if how == "void"]
    seed_log.engine.dispose()
    server = Server(data, tmp_path / "server.log")
    stage = Stage(server, db)
    clients: list[Client] = []
    spent: dict[str, float] = {}  # where the run's time goes
    kinds = dict.fromkeys(("mid-hand", "between hands", "after an act", "act lost",
                           "act stored, not received", "act received", "resumed", "voided",
                           "moves stored, not made"), 0)
    try:
        server.start()
        http = httpx.Client(base_url=server.url, timeout=HTTP)
        http.get("/")
        resume_ids = []
        for how, _ in TABLES:
            if how == "resume":
                made = http.post("/api/room/tables", json=SETTINGS)
                assert made.status_code == 201, made.text
                resume_ids.append(made.json()["table"])
        ids = {"resume": iter(resume_ids), "void": iter(void_ids)}
        for how, n in TABLES:
            table = next(ids[how])
            for _ in range(n):
                cookie = httpx.get(f"{server.url}/", timeout=HTTP).cookies["tapete_id"]
                clients.append(Client(stage, table, f"P{len(clients)}", str(cookie),
                                      seed=rng.randrange(2**32)))
        for c in clients:
            c.start()
        stage.let_in()
        let_play(stage, clients)
        for k in range(KILLS):
            with timed(spent, "play"):
                time.sleep(rng.uniform(0.2, 2.0))
                how = rng.choice(["sent", "stored", "mid-hand", "clock"])
                if how in ("sent", "stored"):  # the next client to act kills the server
                    with stage.cond:
                        stage.armed = how
                    if not stage.killed.wait(10) and stage.disarm():
                        stage.kill()  # nobody acted in ten seconds: the test does
                    stage.killed.wait(bound(60))  # a client is killing it
                else:
                    if how == "mid-hand":  # the moment a resume table has a hand in play
                        wait(lambda: any(stage.in_hand(t) for t in resume_ids), 30)
                    stage.kill()
            assert stage.killed.is_set()
            stage.killed.clear()
            assert wait(lambda: not any(c.online for c in clients)), "clients still on"
            when = f"kill {k + 1} ({how}, seed {SEED})"
            with timed(spent, "checks"):
                before = snapshot(db, copy)
                if check_books(before, f"{when}, dead", crashed=True):
                    kinds["moves stored, not made"] += 1
                count_kill(before, stage.kill_info, kinds)
                for tid in void_ids:
                    if in_play(before.logs[tid]):
                        check_void(before, tid, when)
            with timed(spent, "restarts"):
                server.start()
            with timed(spent, "checks"):
                after = snapshot(db, copy)
                check_restart(before, after, resume_ids, void_ids, f"{when}, restarted",
                              kinds)
                listing = {t["table"]: t for t in http.get("/api/room/tables").json()}
                for tid in [*resume_ids, *void_ids]:  # the lobby lists them as restored
                    assert listing[tid]["taken"] == len(after.tables[tid].players), when
                    assert listing[tid]["hands"] >= after.tables[tid].hand_no, when
                expect(after, clients)
            stage.let_in()
            with timed(spent, "reconnects"):
                let_play(stage, clients)
        # play on until HANDS hands in all (a table stuck after a restart gets no further),
        # then nobody acts any more: the last commands are stored and sent
        with timed(spent, "play"):
            time.sleep(rng.uniform(0.2, 2.0))
            wait(lambda: hands_seen(clients) >= HANDS, 300)
        with stage.cond:
            stage.playing = False
        # until every table has settled: each waits for a player (who no longer acts: a
        # minute to act) or for nobody (no hand to deal), and nothing more is being stored
        # or moved; then the final snapshot is the table as it stays
        final = snapshot(db, copy)
        earlier: Snap | None = None

        def settled() -> bool:
            nonlocal final, earlier
            time.sleep(0.3)
            final, earlier = snapshot(db, copy), final
            return all(waits_on_players(final, tid) for tid in final.logs) and \
                rows_of(final) == rows_of(earlier) and final.moves == earlier.moves
        assert wait(settled, 120, every=0), ("the tables never settled", {
            tid: rows(log[-3:]) for tid, log in final.logs.items()})
        check_books(final, "the end", crashed=False)
        for tid in final.logs:
            n = len(final.logs[tid])
            assert wait(lambda tid=tid, n=n: all(
                c.last >= n for c in clients if c.table == tid)), "records not sent"
        assert not stage.problems, stage.problems[:10]
        for c in clients:  # every record, once, in order, as this player may see it
            log = final.logs[c.table]
            assert [m["seq"] for m in c.records] == list(range(1, len(log) + 1)), c.player_name
            players: list[str] = []
            for r, m in zip(log, c.records, strict=True):
                if r.kind == "start":
                    players = list(r.payload["players"])
                assert (m["kind"], m["data"]) == (r.kind, visible(r, c.pid, players)), (
                    c.player_name, r.seq)
        hands = sum(1 for log in final.logs.values() for r in log if r.kind == "end")
        print(f"\nroom kill test, seed {SEED}: {KILLS} kills, {hands} hands,"
              f" {sum(c.acts for c in clients)} actions, {kinds},"
              f" errors {merge(c.errors for c in clients)}, seconds"
              f" {({k: round(v, 1) for k, v in spent.items()})}")
        assert hands >= HANDS, hands
        assert server.starts == KILLS + 1
        if KILLS >= 10:  # what the run says it does
            assert kinds["mid-hand"] >= KILLS // 4 and kinds["after an act"] >= 2, kinds
            assert kinds["resumed"] >= 1 and kinds["voided"] >= 1, kinds
            assert kinds["act stored, not received"] >= 1, kinds
    finally:
        stage.stopping = True
        with stage.cond:
            stage.cond.notify_all()
        for c in clients:
            c.join(5)
        server.stop()


def check_restart(before: Snap, after: Snap, resume_ids: list[str], void_ids: list[str],
                  when: str, kinds: dict[str, int]) -> None:
    """The database once the server has started again, against the database it was
    killed with: every move made, what was stored still there as it was, the hand in play
    resumed (the same hand, cards, player to act, and nothing more) or voided (just as the
    copy's restore voided it)."""
    check_books(after, when, crashed=False)
    for tid in [*resume_ids, *void_ids]:
        assert rows(after.logs[tid][:len(before.logs[tid])]) == rows(before.logs[tid]), when
    for tid in resume_ids:
        assert all(r.kind != "void" for r in after.logs[tid]), when
        resumed = hand_of(before.tables[tid])
        if resumed is not None:
            assert hand_of(after.tables[tid]) == resumed, when
            assert len(after.logs[tid]) == len(before.logs[tid]), when
            kinds["resumed"] += 1
    for tid in void_ids:
        if in_play(before.logs[tid]):
            n = len(before.after_restore[tid])
            assert n > len(before.logs[tid]), when
            assert rows(after.logs[tid][:n]) == rows(before.after_restore[tid]), when
            kinds["voided"] += 1
        else:
            assert rows(before.after_restore[tid]) == rows(before.logs[tid]), when


def let_play(stage: Stage, clients: list[Client]) -> None:
    """Wait for every client to connect and be shown the table (checking what it shows),
    then let them play."""
    ok = wait(lambda: all(c.online and c.ready and c.connected_to == stage.generation
                          for c in clients))
    assert ok, ("clients did not reconnect", stage.problems[:5],
                [(c.player_name, c.online, c.ready, c.connected_to) for c in clients])
    assert not stage.problems, stage.problems[:10]
    with stage.cond:
        stage.playing = True


def expect(after: Snap, clients: list[Client]) -> None:
    """What each client's first state must show: the database's bankroll and chips, and at
    a table with a hand in play, its decision and hole cards."""
    for c in clients:
        t = after.tables[c.table]
        seat = t.seat_of(c.pid)
        s = t.table.seats[seat] if seat is not None else None
        hand = t.hand
        decision = hole = None
        if hand is not None and hand.actor is not None and \
                t.hand_players[hand.actor] == c.pid:
            decision = t.turn_seq
        if hand is not None and c.pid in t.hand_players:
            cards = hand.hole[t.hand_players.index(c.pid)]
            hole = [format_card(x) for x in cards] if cards else None
        c.expect = Expect(bankroll=after.players.get(c.pid, (STARTING, 0))[0],
                          chips=s.chips + s.pending_chips if s is not None else None,
                          decision=decision, check_decision=hand is not None, hole=hole)


def count_kill(before: Snap, info: dict[str, Any] | None, kinds: dict[str, int]) -> None:
    """What the kill interrupted: a hand or the time between two; for a kill once a client
    sent an action, whether the action was lost, stored but not received by that client, or
    received."""
    kinds["mid-hand" if any(in_play(log) for log in before.logs.values())
          else "between hands"] += 1
    if info is None:
        return
    kinds["after an act"] += 1
    c: Client = info["client"]
    log = before.logs[c.table]
    seq = info["decision"]
    if len(log) <= seq:
        kinds["act lost"] += 1
    elif c.last <= seq:  # it comes to the client when it reconnects
        kinds["act stored, not received"] += 1
    else:
        kinds["act received"] += 1


def hands_seen(clients: list[Client]) -> int:
    """The hands played to their end, as the clients were told (every client of a table
    gets every record)."""
    out = 0
    for table in {c.table for c in clients}:
        out += max(sum(1 for m in c.records if m["kind"] == "end")
                   for c in clients if c.table == table)
    return out


def in_play(log: list[Record]) -> bool:
    """Whether the log ends inside a hand: its last start, end or void is a start."""
    marks = [r.kind for r in log if r.kind in ("start", "end", "void")]
    return bool(marks) and marks[-1] == "start"


@contextlib.contextmanager
def timed(spent: dict[str, float], what: str) -> Iterator[None]:
    """Add the block's seconds to ``spent[what]`` (reported, never asserted on)."""
    t0 = time.monotonic()
    try:
        yield
    finally:
        spent[what] = spent.get(what, 0.0) + time.monotonic() - t0


def wait(pred: Any, timeout: float = 120, every: float = 0.01) -> bool:
    """Poll ``pred`` until true, for up to ``timeout`` seconds (scaled: ``waiting.bound``)."""
    return until(pred, timeout, every)


def waits_on_players(snap: Snap, tid: str) -> bool:
    """Whether the table stores nothing more until a player acts: a hand waiting for a
    player's decision (its last step a turn, to a player who is not leaving: a leaving
    player's turn is played at once), or no hand and none to deal."""
    log = snap.logs[tid]
    if in_play(log):
        start = max(i for i, r in enumerate(log) if r.kind == "start")
        turn = max((r for r in log[start:] if r.kind in ("start", "event", "turn")),
                   key=lambda r: r.seq)
        return turn.kind == "turn" and not any(
            r.kind == "leave" and r.payload["seat"] == turn.payload["seat"]
            for r in log[start:])
    t = snap.tables[tid]
    return t.hand is None and not t.votes and t.due_ms() is None


def rows_of(snap: Snap) -> dict[str, list[tuple[int, str, Any]]]:
    return {tid: rows(log) for tid, log in snap.logs.items()}


def merge(counts: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for d in counts:
        for k, v in d.items():
            out[k] = out.get(k, 0) + v
    return out


# ------------------------------------------------------------------------------ after a restart
def test_a_restart_keeps_the_lobby_and_the_backlog(tmp_path: Path) -> None:
    """Two things a restart must keep that the test above does not reach: the lobby's hands
    an hour (the room restores each table by replaying its hands, which must not count as
    hands dealt now), and a client that was away while more than a few hundred records were
    stored, coming back with ``records=1&after=SEQ`` (or a program reading a table's whole
    log, ``after=0``): it must get every record after SEQ, in order, and stay connected."""
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    server = Server(data, tmp_path / "server.log")
    problems: list[str] = []
    try:
        server.start()
        http = httpx.Client(base_url=server.url, timeout=HTTP)
        http.get("/")
        busy, played = (http.post("/api/room/tables", json=SETTINGS).json()["table"]
                        for _ in range(2))

        def player(table: str) -> Any:
            cookie = httpx.get(f"{server.url}/", timeout=HTTP).cookies["tapete_id"]
            return connect(f"ws://127.0.0.1:{server.port}/ws/t/{table}",
                           additional_headers={"Cookie": f"tapete_id={cookie}"}, max_size=None)

        # the busy table: one player sits down and leaves, again and again (three records
        # each time, no hand: nobody to play with)
        with player(busy) as ws:
            for k in range(110):
                ws.send(json.dumps({"type": "take_seat", "name": "Ana", "buy_in": 100}))
                ws.send(json.dumps({"type": "leave"}))
                if k % 40 == 39:
                    time.sleep(0.5)  # under the rate limit
            assert wait_state(ws, lambda s: s["room"]["seq"] >= 330, bound())
        # the other table: two players check and call through three hands
        with player(played) as a, player(played) as b:
            for name, ws in (("A", a), ("B", b)):
                ws.send(json.dumps({"type": "take_seat", "name": name, "buy_in": 200}))
            end = time.monotonic() + bound()
            while time.monotonic() < end:
                s = next_state([a, b])
                if s is None:
                    continue
                ws, m = s
                if m["room"]["hand_no"] >= 4:
                    break
                if m["decision"] and m["hand"] and "legal" in m["hand"]:
                    lg = m["hand"]["legal"]
                    ws.send(json.dumps({"type": "act", "seq": m["seq"],
                                        "action": "check" if lg["check"] else "call"}))
        lobby = {t["table"]: t for t in http.get("/api/room/tables").json()}
        truth = hands_an_hour(data / DB_FILE, played)
        if not near(lobby[played]["hands_per_hour"], truth):
            problems.append(f"before the restart the lobby says {lobby[played]} hands an hour,"
                            f" the log's stamps {truth}")
        server.kill()
        server.start()
        lobby = {t["table"]: t for t in http.get("/api/room/tables").json()}
        truth = hands_an_hour(data / DB_FILE, played)
        if not near(lobby[played]["hands_per_hour"], truth):
            problems.append(f"after a restart the lobby says"
                            f" {lobby[played]['hands_per_hour']} hands an hour at a table that"
                            f" dealt {truth} an hour (the log's stamps)")
        # a program that follows the busy table comes back after 300 records, or reads all
        reader = EventLog(f"sqlite:///{data / DB_FILE}")
        last = reader.last_seq(busy)
        reader.engine.dispose()
        cookie = httpx.get(f"{server.url}/", timeout=HTTP).cookies["tapete_id"]
        for after in (last - 300, 0):
            got: list[int] = []
            closed = None
            with connect(f"ws://127.0.0.1:{server.port}/ws/t/{busy}?records=1&after={after}",
                         additional_headers={"Cookie": f"tapete_id={cookie}"},
                         max_size=None) as ws:
                try:
                    while len(got) < last - after:
                        m = json.loads(ws.recv(timeout=bound(30)))
                        if m["type"] == "record":
                            got.append(m["seq"])
                except ConnectionClosed as exc:
                    closed = exc.rcvd
                except TimeoutError:
                    pass
            if got != list(range(after + 1, last + 1)) or closed is not None:
                problems.append(f"records=1&after={after} at a table with {last} records: got"
                                f" {len(got)} records, then closed: {closed}")
        assert not problems, "\n".join(problems)
    finally:
        server.stop()


def wait_state(ws: ClientConnection, pred: Any, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            m = json.loads(ws.recv(timeout=max(0.01, end - time.monotonic())))
        except TimeoutError:
            return False
        if m["type"] == "state" and pred(m):
            return True
    return False


def next_state(sockets: list[ClientConnection]) -> tuple[ClientConnection, Msg] | None:
    for ws in sockets:
        try:
            m = json.loads(ws.recv(timeout=0.02))
        except TimeoutError:
            continue
        if m["type"] == "state":
            return ws, m
    return None


def hands_an_hour(db: Path, table: str) -> int:
    """The table's hands an hour over its last 50 starts, by their stored stamps (what the
    lobby reports, from the table's own clock)."""
    log = EventLog(f"sqlite:///{db}")
    starts = [r.at for r in log.read(table) if r.kind == "start"][-50:]
    log.engine.dispose()
    span = starts[-1] - starts[0] if len(starts) >= 2 else 0
    return int(3_600_000 * (len(starts) - 1) / span) if span > 0 else 0


def near(shown: int, truth: int) -> bool:
    return truth / 2 <= shown <= truth * 2 + 60


def test_a_silent_player_runs_out_of_time_however_often_the_server_is_killed(
        tmp_path: Path) -> None:
    """Issue 29, 3: the turn's clock runs from when its record was stored, across restarts.
    The player to act is silent (two seconds to act, three of disconnect grace); the
    server is killed as soon as the turn is stored, and then again at each restart unless
    the player was timed out within a second and a half of it. A fresh clock at each restore
    (act time and grace again, five seconds) never ran out that way: the hand hung for good.
    Now the clock runs on through the restarts, and once its deadline is past the player is
    timed out at the next restart, at once."""
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    db = data / DB_FILE
    seed_log = EventLog(f"sqlite:///{db}")
    table = seed_log.create_table(TableConfig(act_ms=2_000, bank_ms=0, grace_base_ms=3_000,
                                              grace_per_bb_ms=0, grace_max_ms=3_000))
    seed_log.engine.dispose()
    server = Server(data, tmp_path / "server.log")

    def records() -> list[Record]:
        log = EventLog(f"sqlite:///{db}")
        try:
            return log.read(table)
        finally:
            log.engine.dispose()

    def timed_out() -> bool:
        return any(r.kind == "event" and r.payload["event"].get("timed_out")
                   for r in records())

    try:
        server.start()
        cookies = [httpx.get(f"{server.url}/", timeout=HTTP).cookies["tapete_id"]
                   for _ in range(2)]
        sockets = [connect(f"ws://127.0.0.1:{server.port}/ws/t/{table}",
                           additional_headers={"Cookie": f"tapete_id={c}"}) for c in cookies]
        for k, ws in enumerate(sockets):
            ws.send(json.dumps({"type": "take_seat", "name": f"P{k}", "buy_in": 100}))
        assert wait(lambda: any(r.kind == "turn" for r in records()), 30), server.tail()
        server.kill()  # the turn is stored; nobody will ever act
        for ws in sockets:
            ws.close()
        restarts = 0
        while restarts < 6:
            server.start()
            restarts += 1
            if wait(timed_out, 1.5):
                break
            server.kill()
        assert timed_out(), f"the player to act was never timed out in {restarts} restarts"
    finally:
        server.stop()
