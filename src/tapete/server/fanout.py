"""What goes between the nodes through Redis besides the lobby and the bankrolls (the room on
several nodes, :mod:`tapete.server.cluster`): presence, and a table's records (its chat
included) for spectators watching it from another node.

Presence. Each node publishes, on ``tapete:presence`` (and in a hash of that name a new node
reads first), who is connected to it: the identities with a socket open (a room table's or
the practice table's), and for each table it runs, the seated players connected and the
spectators, and the tables its watchers follow. It publishes at once when a connection comes
or goes (a few tens of milliseconds later, one message for a burst, at most four a second
while connections keep coming: each message goes through every connection) and again every
two seconds; what a node has not said for six seconds is forgotten (a dead node's presence goes
with it). Every node merges what all of them said (:meth:`RedisFanout.presence`, ``GET
/api/room/presence``): the same counts at every node.

Watching from another node. A spectator that asks for a table's records at a node that does
not run it (``/ws/t/{table}?records=1&watch=1``) is served there, not redirected: a table
watched by a few thousand spread over every node, and its owner sends each record once. The
owner's node hears (through presence) which of its tables are watched elsewhere and relays
each of their records, as a spectator sees it, on ``tapete:t@DB:{table}`` (:class:`Relay`); the
watching node sends it on to its watchers. The records come gap-free and in order, across a
change of owner too: a watcher starts from the table's log (``after=SEQ``), and a record that
would leave a gap (a relay that began late, an owner that died) is filled from the log, which
is read again too when nothing came for a second. A watcher only reads: what it sends is
refused (to chat or sit, a client connects without ``watch=1`` and goes to the owner).

Outages. While the log cannot be read (the database restarting), the watcher is told once
(``error`` ``unavailable``, its ``seq`` the last record it was sent) and the read is tried
again with a backoff; the records then come on from there, nothing missed. A watcher the log
could not feed for ``UNFED_S`` is told so and closed (1013, try again later): it comes back
with ``after=SEQ``. While Redis is out of reach, the relay tries again with a backoff and the
watchers are fed from the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, Protocol

from tapete.core.catalog import N_, t
from tapete.core.text import Text
from tapete.room.log import Record
from tapete.room.ports import Here
from tapete.room.table import visible
from tapete.server import protocol
from tapete.server.alone import merged, present
from tapete.server.game import send
from tapete.server.supervise import REDIS, Backoff, Faults, Tasks
from tapete.server.transport import (
    CLOSE_POLICY,
    TOO_MANY_TABS,
    Limits,
    Outbox,
    error_message,
    serve,
)

if TYPE_CHECKING:
    from starlette.websockets import WebSocket

    from tapete.room.log import EventLog

log = logging.getLogger("tapete.server")
PRESENCE_KEY = "tapete:presence"
TABLE_CHANNEL = "tapete:t"  # @db:table: a table's records, for the watchers elsewhere
REFRESH_S = 2.0  # presence said again this often
FORGET_S = 6.0  # a node's presence not said again for this long is forgotten
SOON_S = 0.03  # a connection came or went: presence said this soon (one message a burst)
SOON_EVERY_S = 0.25  # and no sooner than this after the last time (a long burst of them)
WATCH_ONLY = N_("A spectator watching from this node only reads: connect without watch=1 to"
                " chat or take a seat.")
UNAVAILABLE = N_("The table's records cannot be read just now: they follow as soon as they"
                 " can.")
UNFED = N_("The table's records could not be read for a while: connect again with after="
           "{seq}.")
UNFED_S = 30.0  # a watcher the log could not feed for this long is closed (it comes back)
CLOSE_TRY_AGAIN = 1013  # RFC 6455: try again later
CLOSE_MOVED = 4307  # a client is told where its table is (routing by redirect)
MOVED = N_("This table is served by another node: reconnecting.")
CONNECTS_PER_MINUTE = 60  # WebSockets one identity may open a minute, over all nodes
NO_TABLE = N_("There is no such table: check the link.")
NO_SPECTATORS = N_("this table allows no spectators: take a seat to watch")
UNREACHABLE = N_("The room cannot reach its storage just now: try again in a moment.")
__all__ = ["merged", "present"]  # (one process's presence, every node's merged: alone.py)


def moved_message(url: str | None) -> str:
    """Several nodes: a client's table is served at ``url`` (None: between owners, try
    again): the client reconnects there, resuming from its last record."""
    return protocol.error("moved", t(MOVED), url=url or None)


class Host(Protocol):
    """The node a fanout belongs to (``server/cluster.py``'s ``Node``), as it sees it."""

    @property
    def id(self) -> str:
        ...

    @property
    def redis(self) -> Any:
        ...

    @property
    def log(self) -> EventLog:
        ...

    @property
    def room(self) -> Here:
        ...

    @property
    def faults(self) -> Faults:
        ...

    @property
    def tasks(self) -> Tasks:
        ...

    def on(self, channel: str) -> str:
        ...

    def _spawn(self, coro: Coroutine[Any, Any, Any], what: str = ...) -> None:
        ...

    def _open(self, table_id: str) -> bool:
        ...

    def remote_listing(self) -> list[dict[str, Any]]:
        ...

    async def allow(self, key: str, most: int, window_s: int) -> bool:
        ...

    def turned_away(self, exc: BaseException, table_id: str) -> bool:
        ...


def spectator_message(table_id: str, r: Record) -> dict[str, Any]:
    """Record ``r`` as every spectator sees it (the table's own rule, :func:`visible`: no
    hole card before it is shown, no id): what a watcher at another node is sent."""
    return {"table": table_id, "seq": r.seq, "kind": r.kind, "data": visible(r, None, [])}


class Relay:
    """At a table's owner: a subscriber (a spectator) that hands each record to Redis, for
    the watchers at other nodes."""

    player = None

    def __init__(self, fanout: RedisFanout, table_id: str) -> None:
        self.fanout = fanout
        self.table_id = table_id

    def send(self, message: dict[str, Any]) -> None:
        self.fanout.relay(self.table_id, message)


class Watcher:
    """One spectator at this node following a table another node runs."""

    def __init__(self, table_id: str, player: str, box: Outbox, after: int) -> None:
        self.table_id = table_id
        self.player = player
        self.box = box
        self.last = after
        self.heard = asyncio.Event()  # a record came through Redis
        self.inbox: list[dict[str, Any]] = []


class RedisFanout:
    """Several nodes' :class:`~tapete.room.ports.Fanout`, through Redis: this node's presence
    and watchers (see the module's docstring), and the lobby, the bankrolls and the rate limits
    its node keeps in Redis (``server/cluster.py``)."""

    def __init__(self, node: Host) -> None:
        self.node = node
        self.remote: dict[str, tuple[float, dict[str, Any]]] = {}  # node -> (at, presence)
        self.watchers: dict[str, set[Watcher]] = {}  # table -> its watchers here
        self.relays: dict[str, Relay] = {}  # table run here -> its relay
        self._said: str | None = None
        self._said_at = 0.0
        self._soon: asyncio.TimerHandle | None = None
        self._soon_at = float("-inf")  # when it was last said for a connection (loop time)
        self._out: asyncio.Queue[tuple[str, str]] | None = None  # relayed, in order
        self._sender: asyncio.Task[None] | None = None
        # records relayed (at an owner); watchers served, records sent them as relayed and
        # from the log (at a watcher's node)
        self.stats = {"relayed": 0, "watched": 0, "from_redis": 0, "from_log": 0}

    # ------------------------------------------------------------------ presence
    def local(self) -> dict[str, Any]:
        """Who is connected to this node."""
        mine = present(self.node.room)
        tables: dict[str, dict[str, Any]] = mine["tables"]
        online: list[str] = mine["online"]
        for tid, watchers in self.watchers.items():
            online += [w.player for w in watchers]
            if watchers:
                entry = tables.setdefault(tid, {"seated": [], "spectators": 0})
                entry["spectators"] += len(watchers)
        mine["online"] = sorted(set(online))
        return {"node": self.node.id, **mine,
                "watch": sorted(tid for tid, w in self.watchers.items() if w)}

    def presence(self) -> dict[str, Any]:
        """The room's presence, merged from every node's: how many identities are online,
        and at each table how many of its seated players are connected and how many watch."""
        stale = time.time() - FORGET_S
        return merged([self.local()] + [p for at, p in self.remote.values() if at >= stale])

    def changed(self) -> None:
        """A connection came or went here: presence is said again soon, at most once every
        ``SOON_EVERY_S`` however many come (saying it goes through every connection)."""
        if self._soon is not None:
            return
        with contextlib.suppress(RuntimeError):  # no loop: nothing to say it on
            loop = asyncio.get_running_loop()
            delay = max(SOON_S, self._soon_at + SOON_EVERY_S - loop.time())
            self._soon = loop.call_later(delay, self._say_soon)

    def _say_soon(self) -> None:
        self._soon = None
        self._soon_at = asyncio.get_running_loop().time()
        self.node._spawn(self.say(force=True), "its presence")

    async def say(self, force: bool = False) -> None:
        """Publish this node's presence if it changed (``force``: whatever it is), or if it
        was last said ``REFRESH_S`` ago."""
        redis = self.node.redis
        if redis is None:
            return
        mine = self.local()
        raw = json.dumps(mine, sort_keys=True)
        now = time.time()
        if not force and raw == self._said and now - self._said_at < REFRESH_S:
            return
        self._said, self._said_at = raw, now
        data = json.dumps({"at": now, **mine})
        try:
            async with redis.pipeline(transaction=False) as pipe:
                pipe.hset(PRESENCE_KEY, self.node.id, data)
                pipe.publish(self.node.on(PRESENCE_KEY), data)
                await pipe.execute()
        except Exception as exc:
            self._said = None  # said again at the next round
            self.node.faults.failed(exc, "presence", "its presence could not be published",
                                    kind=REDIS)
            return
        self.node.faults.back("presence", "its presence is published")

    def heard(self, raw: str) -> None:
        data = json.loads(raw)
        if data.get("node") == self.node.id:
            return
        if data.get("gone"):
            self.remote.pop(str(data["node"]), None)
            return
        had = self.remote.get(str(data["node"]))
        self.remote[str(data["node"])] = (float(data["at"]), data)
        if had is None or had[1]["watch"] != data["watch"]:
            self.tend()  # a table run here watched from there (or no more): relayed now
    async def load(self) -> None:
        """What the other nodes said before this one started (the hash)."""
        if self.node.redis is None:
            return
        with contextlib.suppress(Exception):
            for raw in (await self.node.redis.hgetall(PRESENCE_KEY)).values():
                self.heard(raw)

    async def forget(self) -> None:
        """This node stops: its presence goes at once."""
        redis = self.node.redis
        if redis is None:
            return
        with contextlib.suppress(Exception):
            await redis.hdel(PRESENCE_KEY, self.node.id)
            await redis.publish(self.node.on(PRESENCE_KEY),
                                json.dumps({"node": self.node.id, "gone": True}))

    # ------------------------------------------------------------------ the node's, in Redis
    def listing(self) -> list[dict[str, Any]]:
        """The public tables the other nodes run, as they last published them."""
        return self.node.remote_listing()

    async def allow(self, key: str, most: int, window_s: int) -> bool:
        """A rate limit over every node (``Node.allow``)."""
        return await self.node.allow(key, most, window_s)

    async def connects(self, player: str) -> bool:
        """The connections ``player`` may open a minute, over every node."""
        return await self.node.allow(f"ws:{player}", CONNECTS_PER_MINUTE, 60)

    # ------------------------------------------------------------------ relaying
    def watched(self) -> set[str]:
        """The tables that watchers at other nodes follow."""
        stale = time.time() - FORGET_S
        return {tid for at, p in self.remote.values() if at >= stale for tid in p["watch"]}

    def tend(self) -> None:
        """At each round: a relay for each table run here that is watched elsewhere, none
        for the others."""
        watched = self.watched()
        tables = self.node.room.tables
        for tid in list(self.relays):
            running = tables.get(tid)
            if tid not in watched or running is None:
                relay = self.relays.pop(tid)
                if running is not None:
                    running.owner.submit(lambda r=running, x=relay:  # type: ignore[misc]
                                         r.table.unsubscribe(x))
        for tid in watched:
            running = tables.get(tid)
            if running is None or tid in self.relays:
                continue
            relay = self.relays[tid] = Relay(self, tid)

            def attach(r: Any = running, x: Relay = relay) -> None:
                with contextlib.suppress(Exception):  # a table without spectators: none
                    r.table.subscribe(x, after=r.table.seq)

            running.owner.submit(attach)

    def dropped(self, table_id: str) -> None:
        """The table stops here (its lease lost or released): its relay goes with it."""
        self.relays.pop(table_id, None)

    def relay(self, table_id: str, message: dict[str, Any]) -> None:
        """A record of a table run here, to Redis (in order: one sender)."""
        if self.node.redis is None:
            return
        if self._out is None:
            self._out = asyncio.Queue()
            self._sender = self.node.tasks.keep(self._send_loop,
                                                f"node {self.node.id}: its relay")
        self._out.put_nowait((f"{self.node.on(TABLE_CHANNEL)}:{table_id}",
                             json.dumps(message)))

    async def _send_loop(self) -> None:
        assert self._out is not None
        backoff = Backoff(0.05, cap=2.0)
        failing = False
        while True:
            batch = [await self._out.get()]
            while not self._out.empty():
                batch.append(self._out.get_nowait())
            try:
                async with self.node.redis.pipeline(transaction=False) as pipe:
                    for channel, data in batch:
                        pipe.publish(channel, data)
                    await pipe.execute()
                self.stats["relayed"] += len(batch)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the watchers fill the gap from the log
                self.node.faults.failed(exc, "relay", "records could not be relayed",
                                        kind=REDIS)
                failing = True
                await backoff.sleep()  # what comes meanwhile goes in the next batch
                continue
            if failing:
                self.node.faults.back("relay", "records are relayed")
                failing = False
                backoff.reset()

    def record_heard(self, channel: str, raw: str) -> None:
        """A table's record, relayed by its owner: to this node's watchers of it."""
        watchers = self.watchers.get(channel[len(self.node.on(TABLE_CHANNEL)) + 1:])
        if not watchers:
            return
        message = json.loads(raw)
        for w in watchers:
            w.inbox.append(message)
            w.heard.set()

    # ------------------------------------------------------------------ watching
    async def watch(self, ws: WebSocket, table_id: str, player: str, limits: Limits) -> bool:
        """A spectator following a table another node runs, its records relayed through
        Redis, served on ``ws`` until it closes; it only reads."""
        node = self.node
        try:
            refused = await asyncio.to_thread(self._watchable, table_id)
        except Exception as exc:
            if not await unavailable(ws, node, exc, table_id):
                raise
            return True
        if refused is not None:
            await ws.send_text(error_message(*refused))
            await ws.close(code=4404 if refused[0] == "no_table" else 4403)
            return True
        if not await self.connects(player):
            await ws.send_text(error_message("rate", t(TOO_MANY_TABS)))
            await ws.close(code=CLOSE_POLICY)
            return True
        try:
            after = max(0, int(ws.query_params.get("after", "0")))
        except ValueError:
            after = 0
        box = Outbox(limits)
        watcher = await self.watcher(table_id, player, box, after)
        # supervised: a follower that dies of a bug is logged and started again from the last
        # record it sent; an outage it rides out itself
        follow = node.tasks.keep(lambda: self.follow(watcher),
                                 f"node {node.id}: a watcher of table {table_id}")
        try:
            await serve(ws, box, lambda raw: self.refuse(box))
        finally:
            follow.cancel()
            self.unwatch(watcher)
        return True

    def _watchable(self, table_id: str) -> tuple[str, Text] | None:
        """Why table ``table_id`` cannot be watched from here (None: it can)."""
        if not self.node._open(table_id):
            return "no_table", t(NO_TABLE)
        config = self.node.log.config(table_id)
        if config.practice:
            return "no_table", t(NO_TABLE)
        if not config.spectators:
            return "no_spectators", t(NO_SPECTATORS)
        return None

    async def watcher(self, table_id: str, player: str, box: Outbox, after: int) -> Watcher:
        """A watcher of ``table_id`` here, from record ``after`` on (:meth:`follow` sends)."""
        w = Watcher(table_id, player, box, after)
        self.watchers.setdefault(table_id, set()).add(w)
        self.stats["watched"] += 1
        self.changed()  # the owner hears of it at once and starts relaying
        return w

    def unwatch(self, w: Watcher) -> None:
        watchers = self.watchers.get(w.table_id)
        if watchers is not None:
            watchers.discard(w)
            if not watchers:
                del self.watchers[w.table_id]
        self.changed()

    async def follow(self, w: Watcher) -> None:
        """Send ``w`` every record after its last, gap-free, until its connection closes:
        from the log first, then as they are relayed (a gap filled from the log). While the
        log cannot be read, the watcher is told (once) and it is read again with a backoff;
        after ``UNFED_S`` of that, the watcher is closed, to come back with ``after=SEQ``."""
        backoff = Backoff(0.1, cap=2.0)
        unfed: float | None = None  # since when the log could not be read
        need_log = True
        while not w.box.closing:
            if need_log:
                try:
                    await self._fill(w)
                except Exception as exc:
                    if not self.node.faults.expected(exc, "a watcher of table %s waits: its"
                                                     " log cannot be read", w.table_id):
                        raise  # a bug: the supervisor logs it and starts this again
                    now = time.monotonic()
                    if unfed is None:
                        unfed = now
                        send(w.box, protocol.error("unavailable", t(UNAVAILABLE), w.last))
                    elif now - unfed > UNFED_S:
                        send(w.box, protocol.error("unavailable", t(UNFED, seq=str(w.last)),
                                                   w.last))
                        w.box.close(CLOSE_TRY_AGAIN, "try again", flush=True)
                        return
                    # the log is read again after the backoff; what is relayed meanwhile
                    # goes on at once, as far as it follows on
                    again = time.monotonic() + backoff.next()
                    while not w.box.closing and (left := again - time.monotonic()) > 0:
                        await self._wait(w, left)
                        self._take(w)
                    continue
                if unfed is not None:
                    unfed = None
                    backoff.reset()
                need_log = False
            heard = await self._wait(w, 1.0)
            # nothing for a second: the log may have more (a new owner); a gap: read it
            need_log = not heard or self._take(w)

    @staticmethod
    async def _wait(w: Watcher, seconds: float) -> bool:
        """Until a record is relayed for ``w`` (True), ``seconds`` at most."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await w.heard.wait()
        w.heard.clear()
        return bool(w.inbox)

    def _take(self, w: Watcher) -> bool:
        """Send ``w`` the records relayed for it, in order, up to the first gap: whether
        there is one (the log has what is missing)."""
        inbox, w.inbox = w.inbox, []
        inbox.sort(key=lambda m: int(m["seq"]))
        for i, message in enumerate(inbox):
            seq = int(message["seq"])
            if seq <= w.last:
                continue
            if seq > w.last + 1:
                w.inbox = inbox[i:] + w.inbox  # sent once the gap is filled
                return True
            if self._send(w, message):
                self.stats["from_redis"] += 1
        return False

    async def _fill(self, w: Watcher) -> None:
        records = await asyncio.to_thread(self.node.log.read, w.table_id, w.last)
        for r in records:
            if self._send(w, spectator_message(w.table_id, r)):
                self.stats["from_log"] += 1
        self._take(w)  # what was relayed while the log was read, past what it held

    @staticmethod
    def _send(w: Watcher, message: dict[str, Any]) -> bool:
        if int(message["seq"]) != w.last + 1:
            return False
        w.last = int(message["seq"])
        send(w.box, protocol.record(message["table"], w.last, message["kind"],
                                    message["data"]))
        return True

    @staticmethod
    def refuse(box: Outbox) -> None:
        """A watcher sent something: it only reads."""
        send(box, error_message("watching", t(WATCH_ONLY)))

    async def stop(self) -> None:
        if self._sender is not None:  # (the node's tasks are stopped by now)
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sender
        await self.forget()


class TurnsAway(Protocol):
    def turned_away(self, exc: BaseException, table_id: str) -> bool:
        ...


async def unavailable(ws: WebSocket, ownership: TurnsAway, exc: Exception,
                      table_id: str) -> bool:
    """An exception met while a client came for ``table_id``: an expected fault (several
    nodes: the database or Redis out of reach, :meth:`Ownership.turned_away`) is one log line,
    counted, and the client is told (``unavailable``) and let go (1013: try again later).
    False: the exception is to be raised (a bug; one process, any)."""
    if not ownership.turned_away(exc, table_id):
        return False
    with contextlib.suppress(Exception):  # a client gone meanwhile
        await ws.send_text(error_message("unavailable", t(UNREACHABLE)))
        await ws.close(code=CLOSE_TRY_AGAIN)
    return True
