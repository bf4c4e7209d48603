"""The room under load: N tables of six scripted players each, over real WebSockets, against one
``tapete serve``.

The server runs in a process of its own (``python -m tapete serve`` on a free port, SQLite in a
fresh data directory, one server per table count; ``--data-dir /dev/shm`` keeps it off the
disk). The players run in ``--procs`` client processes (default: one per 150 tables, at least
one, at most the machine's cores), each an asyncio loop holding its share of the tables'
WebSockets (the ``websockets`` asyncio client; messages decoded with msgspec), so a few thousand
connections fit in a few processes. Each process opens its tables itself
(``POST /api/room/tables``: no bots, six seats, a minute to act, no time bank; ten tables per
identity, the room's limit), and each player has an identity cookie of its own, takes a seat
and answers every decision with a random legal action (seeded: check, call, fold to a bet, the
smallest raise; never all-in, so hands run their streets), topping up when it is busted.

What the players ask for (``--mode``, printed with the results):

- ``program`` (the default): ``records=1&states=turn&batch=1``, as a program that follows
  the table asks: every record, and a state only where it concerns the player (its decisions,
  each hand's end, its own commands and seat), the messages that wait together sent in one
  frame, a line each;
- ``unbatched``: the same, a message a frame;
- ``records``: ``records=1``, every record and a state after each command as well;
- ``page``: states only, as the table page asks (no act->record latency).

Pace: one action a second at each table. The player to act answers ``--pace`` seconds after
it was told it is its turn (the table's last action, as it saw it), so a table plays at most
one action a second, less whatever the server takes to answer (and the room's own pause of a
few seconds between two hands).

Measured once every table has dealt its first hand (or ``--warmup`` seconds after the players
started connecting), for ``--seconds``:

- hands a second (hands dealt, as one player of each table is told) and actions a second;
- action -> broadcast latency, on the client that acted, with a monotonic clock: from sending
  ``act`` to receiving the first ``record`` after the decision (the action itself), and to
  receiving the first ``state`` showing it (``room.seq`` past the decision); p50, p99, max;
- the server's CPU (its user + system time over the window, as a share of one core: the
  server is one event loop, so 100% is its ceiling), the CPU time an action costs it, and its
  RSS (at the end, and its peak);
- errors: ``error`` messages by code, connections lost, actions no broadcast answered within
  15 s.

Once the server is done with its own start (its bots' kernels load in a thread: under a fifth
of a core for a second) and the N tables are open, before the players connect, the server's
idle CPU with nobody at the tables is measured for three seconds (every table's owner ticks
its timers); after the window the server
is killed (SIGKILL) and started again on the same database, and the time until it answers
(every table restored from its log) is reported.

What else is measured, to read the numbers by: the client processes must not be the
bottleneck, so each reports its own CPU share over the window and how late its event loop
wakes up (a 50 ms sleep, p99): a client process near 100% of a core, or a loop lag near the
latencies measured, means the numbers are the client's (run with more ``--procs``). Other
programs on the machine slow the server just as much: the server's event-loop thread's time
running and waiting for a CPU (``/proc/PID/task/PID/schedstat``; the rest is idle or blocked,
on the disk mostly) and the machine's CPU pressure (Linux PSI: the share of the window some
task waited for a CPU) are reported with the load average. A server waiting for a CPU much of
the window measured the machine, not the room; its CPU time per action still holds.

Several nodes (``--nodes 3``): the room on N ``tapete serve --redis`` nodes over one
PostgreSQL schema (``--postgres URL``, default ``$TAPETE_TEST_POSTGRES``; a fresh schema each
run) and one Redis (``--redis URL``), the tables opened round the nodes, each player connecting
to a random node and following the redirect to its table's owner. The server's CPU and memory
are the nodes' together; ``--nodes 1 --postgres URL`` is one such node (the same database, for
a fair comparison); ``--nodes 1`` alone is the single server on SQLite, as always.

    PYTHONPATH=src python benchmarks/bench_room.py --tables 50,200,500 --seconds 30
        [--json out.json] [--procs N] [--pace 1.0] [--seed 2026] [--data-dir DIR]
        [--nodes 1|3 [--postgres URL] [--redis URL]] [--compare OLD/src]

``--compare`` runs an older tree's server right after this one's at each table count, with the
same players, and prints the ratio of their CPU per action (issue 30 measured against 8e34433:
``git archive 8e34433 | tar -x -C /tmp/old && (cd /tmp/old && python setup.py build_ext
--inplace)``, then ``--compare /tmp/old/src``, both compiled alike).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import random
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec

SRC = Path(__file__).resolve().parent.parent / "src"
SEATS = 6
SETTINGS = {"act_ms": 60_000, "bank_ms": 0, "bots": False, "seats": SEATS}
PER_IDENTITY = 10  # tables one identity may open (Settings.tables_per_identity)
# what the players ask for, by --mode (see the docstring)
QUERIES = {"program": "?records=1&states=turn&batch=1", "unbatched": "?records=1&states=turn",
           "records": "?records=1", "page": ""}
NO_ANSWER_S = 15.0  # an action with no broadcast after this long is an error
CLK_TCK = os.sysconf("SC_CLK_TCK")


class Head(msgspec.Struct):
    """What a player reads of every message: its type, and a record's seq."""

    type: str
    seq: int | None = None


head_of = msgspec.json.Decoder(Head).decode


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def raise_fd_limit() -> None:
    """As many open files as the hard limit allows: a socket each."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))]


def ms_of(xs: list[float]) -> dict[str, float] | None:
    if not xs:
        return None
    ms = [x * 1000 for x in xs]
    return {"p50": round(statistics.median(ms), 1), "p99": round(pct(ms, 0.99), 1),
            "max": round(max(ms), 1), "count": len(ms)}


def cpu_seconds(pid: int) -> float:
    """User + system seconds of a process (/proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def settle(pid: int, limit: float = 180.0) -> None:
    """Wait until the server is done with its own start (the bots' and the coach's kernels
    load, or compile, in a thread of their own): under a fifth of a core for a second."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        c0 = cpu_seconds(pid)
        time.sleep(1.0)
        if cpu_seconds(pid) - c0 < 0.2:
            return


def sched_ns(pid: int) -> tuple[int, int]:
    """The main thread's (the event loop's) nanoseconds running and waiting for a CPU."""
    try:
        with open(f"/proc/{pid}/task/{pid}/schedstat") as f:
            run, wait, _ = f.read().split()
        return int(run), int(wait)
    except (OSError, ValueError):
        return 0, 0


def cpu_pressure_us() -> int:
    """Microseconds during which some task of the machine waited for a CPU (Linux PSI)."""
    try:
        with open("/proc/pressure/cpu") as f:
            return int(f.readline().rsplit("total=", 1)[1])
    except (OSError, IndexError, ValueError):
        return 0


def memory_mib(pid: int) -> dict[str, int]:
    """RSS now and its peak (VmHWM), MiB."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS:", "VmHWM:")):
                out["rss" if line.startswith("VmRSS") else "peak"] = int(line.split()[1]) // 1024
    return out


# --------------------------------------------------------------------------- the server
class Server:
    def __init__(self, data: Path, cluster: tuple[str, str, str] | None = None,
                 src: Path = SRC) -> None:
        self.data = data
        self.src = src  # the sources it runs (this tree's, or --compare's)
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.pid = 0
        self.cluster = cluster  # (database, redis, node name): a node of several
        name = cluster[2] if cluster else "server"
        self.log = open(data / f"{name}.log", "ab")  # noqa: SIM115 - closed in stop()
        self.log_path = data / f"{name}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def unlimited(self) -> list[str]:
        """Every table is opened from this one address: no limit on it (an older tree had
        none, nor the option)."""
        serve = self.src / "tapete" / "cli" / "play.py"
        has = serve.is_file() and "tables-per-address" in serve.read_text()
        return ["--tables-per-address", "0"] if has else []

    def start(self) -> float:
        """Start and wait until it answers: the seconds that took."""
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(self.src), env.get("PYTHONPATH")) if p)
        t0 = time.monotonic()
        where = ["--data-dir", str(self.data / "db")]
        if self.cluster is not None:
            db, redis_url, name = self.cluster
            where = ["--database", db, "--redis", redis_url, "--node", name]
        self.proc = subprocess.Popen(
            # every table is opened from this one address: no limit on it
            [sys.executable, "-m", "tapete", "serve", "--port", str(self.port), *where,
             *self.unlimited()],
            stdout=self.log, stderr=self.log, env=env, preexec_fn=raise_fd_limit)
        self.pid = self.proc.pid
        while time.monotonic() - t0 < 300:
            try:
                httpx.get(f"{self.url}/api/me", timeout=5)
                return time.monotonic() - t0
            except httpx.HTTPError:
                if self.proc.poll() is not None:
                    raise SystemExit("the server died:\n" + self.tail()) from None
                time.sleep(0.05)
        raise SystemExit("the server did not start:\n" + self.tail())

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(30)
        self.log.close()

    def tail(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")[-3000:]


class Servers:
    """One server, or N nodes of one room (``--nodes``): started, measured and killed
    together (their CPU, memory and schedule summed)."""

    def __init__(self, data: Path, nodes: int, db: str | None, redis_url: str,
                 src: Path = SRC) -> None:
        if db is None:
            self.members = [Server(data, src=src)]
        else:
            self.members = [Server(data, (db, redis_url, f"n{i}"), src)
                            for i in range(nodes)]

    @property
    def urls(self) -> list[str]:
        return [m.url for m in self.members]

    @property
    def pids(self) -> list[int]:
        return [m.pid for m in self.members]

    def start(self) -> float:
        return max(m.start() for m in self.members)

    def kill(self) -> None:
        for m in self.members:
            m.kill()

    def stop(self) -> None:
        for m in self.members:
            m.stop()


@contextlib.contextmanager
def pg_schema(url: str | None) -> Iterator[str | None]:
    """A fresh schema on the PostgreSQL server ``url`` names (dropped afterwards)."""
    if url is None:
        yield None
        return
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from tapete.server.storage import database_url

    url = database_url(url)
    schema = f"tapete_bench_{os.getpid()}_{int(time.time())}"
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


# --------------------------------------------------------------------------- the players
class Stats:
    """What one client process measured."""

    def __init__(self) -> None:
        self.to_record: list[float] = []
        self.to_state: list[float] = []
        self.hands = 0
        self.actions = 0
        self.errors: dict[str, int] = {}
        self.first_hands = 0  # tables that have dealt a hand
        self.measuring = False
        self.lag: list[float] = []
        self.unanswered: list[str] = []  # the first actions no broadcast answered

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


class Player:
    """One seat: a WebSocket, a random legal action per decision, paced."""

    def __init__(self, url: str, table: str, name: str, cookie: str, seed: int,
                 pace: float, stats: Stats, counter: bool, table_state: dict[str, bool],
                 records: bool, query: str) -> None:
        self.url, self.table, self.name, self.cookie = url, table, name, cookie
        self.rng = random.Random(seed)
        self.pace = pace
        self.stats = stats
        self.counter = counter  # this player counts the table's hands
        self.table_state = table_state  # shared by the table's players: dealt yet
        self.pending: tuple[int, float, bool, bool] | None = None  # seq, sent, record, state
        self.turn_at = 0.0  # when it was last told it is its turn
        self.hand_no = 0  # the table's hands dealt, as its last state said
        self.records = records
        self.query = query
        self.answered: set[int] = set()
        self.topped = -1
        self.moves = False  # several nodes: the first message may send it elsewhere
        self.act_task: asyncio.Task[None] | None = None

    async def play(self, stop: asyncio.Event, gate: asyncio.Semaphore) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        decode = msgspec.json.decode
        ws_url = self.url.replace("http://", "ws://") + f"/ws/t/{self.table}" + self.query
        try:
            for _ in range(5):  # several nodes: to the table's owner, where a node says
                async with gate:  # so many connections at a time
                    ws = await connect(ws_url, max_size=None, open_timeout=120,
                                       ping_timeout=None, additional_headers={
                                           "Cookie": f"tapete_id={self.cookie}"})
                first = await ws.recv() if self.moves else None
                if first is None or head_of(first.split("\n", 1)[0]).type != "error" \
                        or decode(first).get("code") != "moved":
                    break
                await ws.close()
                ws_url = (decode(first).get("url") or ws_url.split("?")[0]) + self.query
            async with ws:
                if first is not None:
                    self.on_frame(ws, first)
                await ws.send(json.dumps({"type": "take_seat", "name": self.name,
                                          "buy_in": 200}))
                # one read loop, with no task or timer a message (another task watches the
                # stop and the answers)
                watch = asyncio.ensure_future(self.watch(ws, stop))
                try:
                    async for frame in ws:
                        self.on_frame(ws, frame)
                except ConnectionClosed:
                    if not stop.is_set():
                        raise
                finally:
                    watch.cancel()
                    if self.act_task is not None:
                        self.act_task.cancel()
        except ConnectionClosed:
            if not stop.is_set():
                self.stats.error("connection lost")
        except (OSError, TimeoutError):
            self.stats.error("could not connect")

    def on_frame(self, ws: Any, frame: str | bytes) -> None:
        """A frame's messages (``?batch=1``: several, a line each): of a record, its type and
        seq are all a player needs (six records come for one state), decoded into a
        two-field struct."""
        now = time.monotonic()
        text = frame if isinstance(frame, str) else frame.decode()
        for raw in text.split("\n"):
            head = head_of(raw)
            if head.type == "record":
                self.on_record(head.seq or 0, now)
            elif head.type == "state":
                decision = self.on_state(msgspec.json.decode(raw), now)
                if decision is not None:  # after the one before, if it still waits
                    self.act_task = asyncio.ensure_future(self.act(ws, decision, self.act_task))
            elif head.type == "error":
                code = msgspec.json.decode(raw).get("code", "?")
                if code != "stale":
                    self.stats.error(code)

    async def watch(self, ws: Any, stop: asyncio.Event) -> None:
        """Close the socket once the run stops; meanwhile, every second, count an action
        no broadcast answered."""
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(1.0):
                    await stop.wait()
            self.check_pending()
        await ws.close()

    def check_pending(self) -> None:
        if self.pending is not None and time.monotonic() - self.pending[1] > NO_ANSWER_S:
            self.stats.error("no broadcast in 15 s")
            if len(self.stats.unanswered) < 5:
                self.stats.unanswered.append(f"table {self.table} decision {self.pending[0]}")
            self.pending = None

    def on_record(self, seq: int, now: float) -> None:
        p = self.pending
        if p is not None and not p[2] and seq > p[0]:
            if self.stats.measuring:
                self.stats.to_record.append(now - p[1])
            self.pending = (p[0], p[1], True, p[3])
            self.settle()

    def on_state(self, m: dict[str, Any], now: float) -> dict[str, Any] | None:
        self.hand_no = m["room"]["hand_no"]
        if self.hand_no and not self.table_state["dealt"]:
            self.table_state["dealt"] = True
            self.stats.first_hands += 1
        p = self.pending
        if p is not None and not p[3] and m["room"]["seq"] > p[0]:
            if self.stats.measuring:
                self.stats.to_state.append(now - p[1])
            self.pending = (p[0], p[1], p[2], True)
            self.settle()
        if m["room"]["seated"]:
            mine = next((s for s in m["seats"] if s and s["you"]), None)
            if mine is not None and mine["chips"] == 0 and self.topped != m["room"]["hand_no"]:
                self.topped = m["room"]["hand_no"]
                return {"type": "add_chips", "amount": 200}
        d = m.get("decision")
        hand = m.get("hand")
        if not d or not hand or "legal" not in hand or d["seq"] in self.answered:
            return None
        self.answered.add(d["seq"])
        self.turn_at = now  # told it is its turn: the table's last action, as it sees it
        return {"type": "act", "seq": d["seq"], **self.choose(hand["legal"])}

    def settle(self) -> None:
        if self.pending is not None and self.pending[2] and self.pending[3]:
            self.pending = None

    async def act(self, ws: Any, msg: dict[str, Any],
                  before: asyncio.Task[None] | None) -> None:
        if before is not None and not before.done():
            await before
        if msg["type"] == "act":
            wait = self.turn_at + self.pace - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            # answered once the record (when asked for) and the state showing it came
            self.pending = (msg["seq"], time.monotonic(), not self.records, False)
            if self.stats.measuring:
                self.stats.actions += 1
        await ws.send(json.dumps(msg))

    def choose(self, lg: dict[str, Any]) -> dict[str, Any]:
        options: list[tuple[dict[str, Any], float]] = []
        if lg["fold"] and not lg["check"]:
            options.append(({"action": "fold"}, 1.0))
        if lg["check"]:
            options.append(({"action": "check"}, 4.0))
        if lg["call"]:
            options.append(({"action": "call"}, 3.0))
        if lg["min_to"] is not None and lg["min_to"] < lg["max_to"]:
            options.append(({"action": "bet" if lg["is_bet"] else "raise",
                             "amount": lg["min_to"]}, 1.0))
        return self.rng.choices([o for o, _ in options], [w for _, w in options])[0]


async def open_tables(urls: list[str], count: int) -> list[str]:
    """``count`` tables, opened ten to an identity (the room's limit), round the nodes."""
    out: list[str] = []
    while len(out) < count:
        owner = httpx.AsyncClient(base_url=urls[(len(out) // PER_IDENTITY) % len(urls)],
                                  timeout=120)
        async with owner:
            await owner.get("/")
            for _ in range(min(PER_IDENTITY, count - len(out))):
                r = await owner.post("/api/room/tables", json=SETTINGS)
                if r.status_code != 201:
                    raise SystemExit(f"the room refused a table: {r.status_code} {r.text}")
                out.append(r.json()["table"])
    return out


async def new_cookie(url: str, gate: asyncio.Semaphore) -> str:
    async with gate, httpx.AsyncClient(timeout=120) as c:
        return str((await c.get(f"{url}/")).cookies["tapete_id"])


async def client_main(urls: list[str], tables: int, seed: int, pace: float, seconds: float,
                      warmup: float, go_idle: Any, go_play: Any, ready: Any, out: Any,
                      index: int, mode: str) -> None:
    """A client process: open its tables, report; once told (the server's idle CPU is
    measured meanwhile), connect its players and report when its tables have dealt; once
    told again, measure for ``seconds`` and report."""
    stats = Stats()
    records, query = mode != "page", QUERIES[mode]
    rng = random.Random(seed)
    table_ids = await open_tables(urls, tables)
    ready.put(("opened", index, len(table_ids)))
    go_idle.wait()
    gate = asyncio.Semaphore(50)
    cookies = await asyncio.gather(*(new_cookie(urls[i % len(urls)], gate)
                                     for i in range(tables * SEATS)))
    stop = asyncio.Event()
    players = []
    for t, tid in enumerate(table_ids):
        shared = {"dealt": False}
        for s in range(SEATS):
            player = Player(rng.choice(urls), tid, f"P{s}", cookies[t * SEATS + s],
                            rng.randrange(2**32), pace, stats, s == 0, shared, records, query)
            player.moves = len(urls) > 1
            players.append(player)
    connect_gate = asyncio.Semaphore(100)
    tasks = [asyncio.ensure_future(p.play(stop, connect_gate)) for p in players]

    async def lag() -> None:
        while not stop.is_set():
            t0 = time.monotonic()
            await asyncio.sleep(0.05)
            if stats.measuring:
                stats.lag.append(time.monotonic() - t0 - 0.05)

    lagger = asyncio.ensure_future(lag())
    # every table of every process dealt a hand, or the warm-up is over: measure
    t0 = time.monotonic()
    while stats.first_hands < tables and time.monotonic() - t0 < warmup:
        await asyncio.sleep(0.1)
    ready.put(("dealt", index, stats.first_hands))
    await asyncio.get_running_loop().run_in_executor(None, go_play.wait)
    counters = [p for p in players if p.counter]  # one player a table counts its hands
    stats.measuring = True
    dealt0 = sum(p.hand_no for p in counters)
    cpu0, w0 = time.process_time(), time.monotonic()
    await asyncio.sleep(seconds)
    stats.measuring = False
    stats.hands = sum(p.hand_no for p in counters) - dealt0
    cpu = time.process_time() - cpu0
    window = time.monotonic() - w0
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    lagger.cancel()
    out.put({"index": index, "to_record": stats.to_record, "to_state": stats.to_state,
             "hands": stats.hands, "actions": stats.actions, "errors": stats.errors,
             "cpu_share": cpu / window, "lag": stats.lag, "window": window,
             "dealt": stats.first_hands, "unanswered": stats.unanswered})


def client_process(*args: Any) -> None:
    raise_fd_limit()
    asyncio.run(client_main(*args))


# --------------------------------------------------------------------------- one run
def one_run(tables: int, args: argparse.Namespace, src: Path = SRC) -> dict[str, Any]:
    db = args.postgres or (os.environ.get("TAPETE_TEST_POSTGRES") if args.nodes > 1 else None)
    if args.nodes > 1 and not db:
        raise SystemExit("--nodes above 1 needs PostgreSQL: --postgres URL")
    with pg_schema(db) as schema:
        if schema is not None:
            import redis

            redis.Redis.from_url(args.redis).flushdb()
        return _one_run(tables, args, schema, src)


def _one_run(tables: int, args: argparse.Namespace, db: str | None,
             src: Path = SRC) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="tapete-bench-room-", dir=args.data_dir))
    server = Servers(tmp, args.nodes, db, args.redis, src)
    procs_n = args.procs or max(1, min(os.cpu_count() or 1, -(-tables // 150)))
    procs_n = min(procs_n, tables)
    shares = [tables // procs_n + (i < tables % procs_n) for i in range(procs_n)]
    ctx = mp.get_context("spawn")
    ready, out = ctx.Queue(), ctx.Queue()
    go_idle, go_play = ctx.Event(), ctx.Event()
    started = server.start()
    for pid in server.pids:
        settle(pid)
    procs = []
    result: dict[str, Any] = {"server": "this tree" if src == SRC else f"compare: {src}",
                              "nodes": len(server.members) if db else "1 (SQLite)",
                              "tables": tables, "connections": tables * SEATS,
                              "mode": f"{args.mode} ({QUERIES[args.mode] or 'no query'})",
                              "client_processes": procs_n, "server_start_s": round(started, 1)}
    try:
        t_setup = time.monotonic()
        for i, share in enumerate(shares):
            p = ctx.Process(target=client_process, args=(
                server.urls, share, args.seed * 1000 + i, args.pace, args.seconds, args.warmup,
                go_idle, go_play, ready, out, i, args.mode), daemon=True)
            p.start()
            procs.append(p)
        for _ in procs:
            ready.get(timeout=600)
        # every table open, nobody at them: the server's idle CPU
        pids = server.pids
        c0, t0 = _cpu(pids), time.monotonic()
        time.sleep(3)
        result["idle_cpu_pct"] = round(100 * (_cpu(pids) - c0) / (time.monotonic() - t0), 1)
        go_idle.set()
        dealt = sum(ready.get(timeout=args.warmup + 600)[2] for _ in procs)
        result["warmup_s"] = round(time.monotonic() - t_setup, 1)
        result["tables_dealt"] = dealt
        go_play.set()
        c0, t0, s0, p0 = _cpu(pids), time.monotonic(), _sched(pids), cpu_pressure_us()
        time.sleep(args.seconds)  # the clients' window, give or take their wake-up
        span = time.monotonic() - t0
        s1 = _sched(pids)
        result["server_cpu_pct"] = round(100 * (_cpu(pids) - c0) / span, 1)
        # the event loop's thread: running, waiting for a CPU (other programs had it), and
        # the rest: idle, or blocked (the disk)
        result["server_loop_pct"] = {
            "running": round((s1[0] - s0[0]) / span / 1e7, 1),
            "waiting_for_cpu": round((s1[1] - s0[1]) / span / 1e7, 1)}
        result["machine_cpu_pressure_pct"] = round((cpu_pressure_us() - p0) / span / 1e4, 1)
        mems = [memory_mib(pid) for pid in pids]
        result["server_mib"] = {k: sum(m.get(k, 0) for m in mems) for k in ("rss", "peak")}
        parts = [out.get(timeout=600) for _ in procs]
        for p in procs:
            p.join(60)
        # a crash with every table's history: how long until the room answers again
        server.kill()
        result["restart_s"] = round(server.start(), 1)
    finally:
        for p in procs:
            if p.is_alive():
                p.kill()
        server.stop()
    errors: dict[str, int] = {}
    for part in parts:
        for k, v in part["errors"].items():
            errors[k] = errors.get(k, 0) + v
    if errors or args.keep:  # the server's log and database, to see why
        result["kept"] = str(tmp)
        result["unanswered"] = [x for p in parts for x in p["unanswered"]]
        print(f"kept {tmp} (the servers' logs, db/)", file=sys.stderr, flush=True)
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    seconds = statistics.mean(p["window"] for p in parts)
    result.update({
        "seconds": round(seconds, 1),
        "hands_per_s": round(sum(p["hands"] for p in parts) / seconds, 2),
        "actions_per_s": round(sum(p["actions"] for p in parts) / seconds, 1),
        # what an action costs the server, whatever else the machine runs: its CPU time
        # over the window (the idle ticks included) by the actions played
        "server_cpu_ms_per_action": round(10 * result["server_cpu_pct"] / max(
            1e-9, sum(p["actions"] for p in parts) / seconds), 1),
        "act_to_record_ms": ms_of([x for p in parts for x in p["to_record"]]),
        "act_to_state_ms": ms_of([x for p in parts for x in p["to_state"]]),
        "errors": errors,
        "client_cpu_pct": [round(100 * p["cpu_share"], 1) for p in parts],
        "client_loop_lag_p99_ms": [round(1000 * pct(p["lag"], 0.99), 1) if p["lag"] else None
                                   for p in parts],
        "load_average": [round(x, 1) for x in os.getloadavg()],
    })
    return result


def _cpu(pids: list[int]) -> float:
    return sum(cpu_seconds(pid) for pid in pids)


def _sched(pids: list[int]) -> tuple[int, int]:
    got = [sched_ns(pid) for pid in pids]
    return sum(g[0] for g in got), sum(g[1] for g in got)


# --------------------------------------------------------------------------- report
def print_table(results: list[dict[str, Any]]) -> None:
    head = ("server", "nodes", "tables", "conns", "hands/s", "acts/s", "act->record p50/p99 ms",
            "act->state p50/p99 ms", "server CPU", "CPU ms/act", "idle CPU", "RSS (peak) MiB",
            "restart s", "errors")
    rows = []
    for r in results:
        rec, st = r["act_to_record_ms"] or {}, r["act_to_state_ms"] or {}
        mem = r["server_mib"]
        rows.append((r.get("server", "this tree").split(":")[0], str(r["nodes"]),
                     str(r["tables"]), str(r["connections"]),
                     f"{r['hands_per_s']:.2f}",
                     f"{r['actions_per_s']:.1f}",
                     f"{rec.get('p50', '-')} / {rec.get('p99', '-')}",
                     f"{st.get('p50', '-')} / {st.get('p99', '-')}",
                     f"{r['server_cpu_pct']:.0f}%", f"{r['server_cpu_ms_per_action']}",
                     f"{r['idle_cpu_pct']:.0f}%",
                     f"{mem.get('rss', '-')} ({mem.get('peak', '-')})", str(r["restart_s"]),
                     ", ".join(f"{k} {v}" for k, v in sorted(r["errors"].items())) or "none"))
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(head)]
    print("  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)))
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))
    for r in results:
        loop = r["server_loop_pct"]
        print(f"{r['tables']} tables, players asking {r['mode']}: {r['tables_dealt']} dealt"
              f" after {r['warmup_s']} s of warm-up; {r['seconds']} s measured; max act->state"
              f" {(r['act_to_state_ms'] or {}).get('max')} ms; the server's loop running"
              f" {loop['running']}%, waiting for a CPU {loop['waiting_for_cpu']}%; client"
              f" processes {r['client_processes']}, CPU {r['client_cpu_pct']}%, loop lag p99"
              f" {r['client_loop_lag_p99_ms']} ms; the machine: CPU pressure"
              f" {r['machine_cpu_pressure_pct']}%, load average {r['load_average']}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", default="50,200,500",
                    help="table counts, comma-separated: one run (and one server) each")
    ap.add_argument("--seconds", type=float, default=30.0, help="the measured window")
    ap.add_argument("--warmup", type=float, default=120.0,
                    help="the longest wait for every table's first hand")
    ap.add_argument("--pace", type=float, default=1.0,
                    help="seconds between two actions at a table")
    ap.add_argument("--procs", type=int, default=0,
                    help="client processes (0: one per 150 tables, up to the cores)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--keep", action="store_true",
                    help="keep each run's data directory (kept anyway when errors occurred)")
    ap.add_argument("--mode", choices=tuple(QUERIES), default="program",
                    help="what the players ask for: program (records=1&states=turn, the"
                         " default), records (records=1: every record and every state),"
                         " page (states only, as the table page)")
    ap.add_argument("--data-dir", type=Path, default=None,
                    help="where each run's server keeps its database (a fresh folder in it;"
                         " default: the system's temporary folder). /dev/shm: no disk")
    ap.add_argument("--json", type=Path, default=None, help="write the results there")
    ap.add_argument("--nodes", type=int, default=1,
                    help="the room on this many nodes (above 1, or with --postgres: tapete"
                         " serve --redis over PostgreSQL)")
    ap.add_argument("--postgres", default=None,
                    help="the PostgreSQL server the nodes share (a fresh schema each run;"
                         " default $TAPETE_TEST_POSTGRES when --nodes is above 1)")
    ap.add_argument("--compare", type=Path, default=None,
                    help="another source tree (a folder holding tapete/, e.g. an older"
                         " commit's: git archive REV src | tar -x -C DIR, then DIR/src): its"
                         " server is run right after this tree's at each table count, with"
                         " the same players, and the ratio of their CPU per action printed")
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/14",
                    help="the Redis the nodes share (flushed at each run)")
    args = ap.parse_args()
    counts = [int(x) for x in args.tables.split(",") if x.strip()]
    results: list[dict[str, Any]] = []
    failed: list[str] = []
    trees = [SRC] if args.compare is None else [SRC, args.compare.resolve()]
    if args.compare is not None and not (args.compare / "tapete").is_dir():
        raise SystemExit(f"--compare {args.compare}: no tapete/ in it (give the src folder)")
    for n in counts:
        pair: list[dict[str, Any]] = []
        for src in trees:
            print(f"... {n} tables ({'this tree' if src == SRC else src})", file=sys.stderr,
                  flush=True)
            try:
                results.append(one_run(n, args, src))
            except (SystemExit, Exception) as exc:  # the next count still runs
                failed.append(f"{n} tables: {type(exc).__name__}: {str(exc)[-2000:]}")
                print(failed[-1], file=sys.stderr, flush=True)
                continue
            pair.append(results[-1])
            print_table(results[-1:])  # as soon as it is known
            if args.json is not None:
                args.json.write_text(json.dumps(results, indent=1) + "\n")
        if len(pair) == 2 and pair[1]["server_cpu_ms_per_action"]:
            ours, theirs = (r["server_cpu_ms_per_action"] for r in pair)
            print(f"{n} tables: CPU per action {ours} ms here, {theirs} ms in {args.compare}:"
                  f" {ours / theirs:.2f} of it ({theirs / ours:.1f}x less)", flush=True)
    if len(results) > 1:
        print()
        print_table(results)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
