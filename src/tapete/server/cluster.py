"""The room on several nodes: ``tapete serve --database postgresql+psycopg://... --redis
redis://...`` on each of them (docs/rules.md and the README, "Running a room on several nodes").

Each node is a process (:class:`Node`), with an id of its own (the name it is given, and a
random suffix: a node that restarts is a new node). They share one PostgreSQL database
(tables, their logs, the players, their bankrolls, the sessions' signing key) and one Redis.

Ownership. Every table is run by exactly one node at a time, the holder of its lease
(``tapete_room_leases``, :mod:`tapete.room.log`): a node claims the leases that are free or
expired (at most its share, :func:`shares`: the open tables over the live nodes, the floor or
the ceiling), renews its own every third
of the lease's length, and stamps every write of the table with its lease's epoch, so that a
node that lost a lease (paused past it: a zombie) is refused when it writes and drops the
table (:meth:`Node.drop`). A node that dies loses its leases when they expire (six seconds by
default); the others claim its tables, restore each from its log (the hand in play resumes
with the same cards, or is voided, by the table's rule) and its clients come back to them.

Routing: by redirect. A client that opens a table's WebSocket at a node that does not own it
is told where the table is (``{"type": "error", "code": "moved", "url": ...}``, closed with
4307) and reconnects there, resuming from its last sequence number (``?after=SEQ``); with no
``url`` (the table is between owners) it tries again after a backoff; a client that comes for
a table whose owner is dead (no heartbeat) is held until the lease runs out and the table is
claimed for it (:meth:`Node.route`). The practice socket ``/ws`` goes the same way to the node
running the person's practice table (:meth:`Node.practice_route`). A table's players are all
connected at its owner, so its records go out from the one process that writes them, with no
second hop (a proxy would relay every message through a second node, and lose the connections
of the tables it does not own when it dies); spectators may also watch from any node, the
records relayed through Redis (:mod:`tapete.server.fanout`, with presence). Behind
one reverse proxy each node is reached under a prefix of its own (``--advertise /node/a``:
see the README's nginx lines).

Redis (redis-py's asyncio client) carries what every node must know of the others: the lobby
(each node publishes its tables' summaries, seats and players included, on ``tapete:lobby``
and keeps them in a hash a new node reads first), each player's bankroll after a move made
elsewhere (``tapete:money``: the copy a node holds for its pages is refreshed), presence and
the watched tables' records (:mod:`tapete.server.fanout`), each person's practice table, and
the rate limits that hold across nodes (tables opened by one identity, WebSockets served to
one identity a minute). Channels are named after the Redis database (:meth:`Node.on`).

Rebalancing: a node holding more than its share hands its surplus over, each table between two
hands (:meth:`Node._rebalance`); a client's claim respects the share as a round's does.

Faults: every background task (the rounds, the renewals, the Redis subscription, the relay,
presence, each watcher's feed) is supervised and rides out a database or Redis outage
(:mod:`tapete.server.supervise`): one log line and a count, not a traceback.

Bankrolls: a node never decides with the bankroll it holds in memory. A table's moves of
chips are made in PostgreSQL in the very transaction that stores the record that makes them
(:class:`ClusterBankroll`: a conditional update of the player's row, which locks it), so two
nodes moving the same player's chips take turns and the second is refused if the first took
them; the records and the money are stored together or not at all. The copy in memory is
only shown, refreshed from the row after each move (here and, through Redis, elsewhere).

Draining (SIGTERM, :class:`DrainingServer`): the node deals no new hand, lets the hands in
play finish (``drain_s`` at most), stops its tables, releases their leases (another node
claims them at once), tells its clients to go elsewhere, and exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import signal
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from types import FrameType
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
import uvicorn

from tapete.core.catalog import t
from tapete.core.errors import BooksError
from tapete.room.errors import Refused as RoomRefused
from tapete.room.log import CLOSED, LEASES, TABLES, Lease, create_all, now_ms
from tapete.room.ports import Ports, Served
from tapete.server.alone import Counters
from tapete.server.fanout import PRESENCE_KEY, TABLE_CHANNEL, RedisFanout
from tapete.server.money import seat_chips
from tapete.server.storage import move_once_in
from tapete.server.supervise import FENCED, REDIS, Backoff, Faults, Tasks

if TYPE_CHECKING:
    from tapete.room.ports import Ownership
    from tapete.room.table import RoomTable
    from tapete.server.config import Settings
    from tapete.server.hub import Hub
    from tapete.server.rooms import Room
    from tapete.server.session import Running

log = logging.getLogger("tapete.server")
LOBBY_KEY = "tapete:lobby"
MONEY_CHANNEL = "tapete:money"
HANDED_S = 5.0  # a table handed over is not claimed back by the node that handed it for this long
HANDING_S = 30.0  # how long a table handed over may take to end its hand (else it stays)
PRACTICE_KEY = "tapete:practice"  # a hash: a person's id, their practice table's

_META = sa.MetaData()
NODES = sa.Table(
    "tapete_room_nodes", _META,
    sa.Column("node", sa.String(128), primary_key=True),
    sa.Column("url", sa.String(400), nullable=False),
    sa.Column("seen", sa.BigInteger, nullable=False),  # Unix ms
    sa.Column("draining", sa.Boolean, nullable=False),
)


def shares(nodes: Iterable[str], tables: int) -> dict[str, int]:
    """Each dealing node's share of ``tables`` open tables: ``tables // n`` each, and one
    more for the first ``tables % n`` nodes in the order of their ids (every node reckons
    the same shares from the same nodes; a node started again has a new id, and may come
    first or last). Every share is within one of ``tables / n``, and they add up to
    ``tables``: a node over its share means another under its own."""
    order = sorted(set(nodes))
    if not order:
        return {}
    base, extra = divmod(tables, len(order))
    return {n: base + (1 if i < extra else 0) for i, n in enumerate(order)}


def claimable(me: str, counts: dict[str, int], tables: int) -> int:
    """How many more tables node ``me`` may claim (a round's or a client's claim): up to its
    share (:func:`shares`) of the ``tables``, given what each dealing node holds
    (``counts``)."""
    share = shares(counts, tables).get(me, 0)
    return max(0, share - counts.get(me, 0))


def surplus(me: str, counts: dict[str, int], tables: int) -> int:
    """How many tables node ``me`` hands over now: what it holds beyond its share, all at
    once (each between two hands), so that the shares are even again within a lease."""
    share = shares(counts, tables).get(me, 0)
    return max(0, counts.get(me, 0) - share)


def node_id(name: str | None) -> str:
    """This process's node id: its name (the host's, unless given) and a random suffix."""
    import socket

    return f"{name or socket.gethostname()}.{secrets.token_hex(3)}"


class ClusterBankroll:
    """The room's bankroll on several nodes: every move made in PostgreSQL, in the
    transaction that stores the table's record making it (``moves_within``, which
    :class:`~tapete.room.table.RoomTable` asks for), never decided with a copy in memory."""

    def __init__(self, hub: Hub, node: Node) -> None:
        self.hub = hub
        self.node = node
        self.storage = hub.storage
        self._made: dict[str, int] = {}  # key -> bankroll after it, made in an append
        self._known: dict[str, tuple[float, set[str]]] = {}  # table -> (read at, keys made)

    def balance(self, player: str) -> int:
        row = self.storage.get_player(player)
        return row.bankroll if row is not None else self.hub.settings.starting_bankroll

    def moves_within(self, moves: list[tuple[str, int, str]]) -> Callable[[Any], None]:
        for pid in {m[0] for m in moves}:  # each player has a row to move (outside the append)
            p = self.hub.player(pid, create=True)
            assert p is not None
            p._store()

        at_table = [-d if seat_chips(self.hub.room, pid, key) else 0 for pid, d, key in moves]

        def within(conn: Any) -> None:
            for (pid, delta, key), chips in zip(moves, at_table, strict=True):
                made = move_once_in(conn, key, pid, delta, chips)
                if made is None:
                    raise RoomRefused(t("your bankroll does not hold that many chips"))
                if made is not False:
                    self._made[key] = int(made)

        return within

    def take(self, player: str, amount: int, key: str) -> bool:
        return self._move(player, -amount, key)

    def give(self, player: str, amount: int, key: str) -> None:
        if not self._move(player, amount, key):
            raise BooksError(f"the bankroll of {player} refused {amount} chips back ({key})")

    def settled(self, table_id: str) -> bool:
        return True  # nothing is written behind: every move is stored with its record

    def _made_before(self, key: str) -> bool:
        """Whether the move ``key`` (``{table}:{seq}``) was made: a restore asks again for
        every move its records made, and all of a table's are read in one query (kept a few
        seconds, for the restore asking), not two or three round trips a move."""
        table_id = key.rpartition(":")[0]
        now = time.monotonic()
        known = self._known.get(table_id)
        if known is None or now - known[0] > 5.0:
            known = self._known[table_id] = (now, self.storage.room_move_keys(table_id))
        return key in known[1]

    def _move(self, player: str, delta: int, key: str) -> bool:
        after = self._made.pop(key, None)
        if after is None and self._made_before(key):
            return True  # made before (by this node or the one before it): not again
        if after is None:  # a restore asking again (a log an older room wrote, say)
            p = self.hub.player(player, create=True)
            assert p is not None
            p._store()
            with self.storage._write() as conn:
                made = move_once_in(conn, key, player, delta,
                                    -delta if seat_chips(self.hub.room, player, key) else 0)
            if made is None:
                return False
            if made is False:
                return True
            after = int(made)
        self.node.money_moved(player, after)
        return True


class Node:
    """This process as a node of the room (see the module's docstring)."""

    def __init__(self, room: Room, node: str, url: str, *, lease_ms: int = 6000,
                 redis_url: str | None = None, drain_s: float = 120.0) -> None:
        self.room = room
        self.log = room.log
        self.id = node
        self.url = url.rstrip("/")
        self.lease_ms = lease_ms
        self.renew_ms = max(100, lease_ms // 4)
        # a claim round every twelfth of the lease (half a second at the default six), and
        # at the moment a dead node's lease runs out (see _loop)
        self.scan_s = max(0.1, min(0.5, lease_ms / 12000))
        # a node whose heartbeat is older than this is taken for dead: its share goes to the
        # others, and clients are not sent to it (its leases still hold until they expire)
        self.alive_ms = max(1000, lease_ms // 2)
        self._wake_at: float | None = None  # when the next lease of a dead node expires
        self._adopting: dict[str, asyncio.Future[Running | None]] = {}  # claims under way
        self._practiced: dict[str, str] = {}  # the practice tables noted in Redis
        self._published = 0.0  # when the lobby was last published (monotonic)
        # rebalancing: this node's share (:func:`shares`, last round) and what each dealing
        # node held then, the tables being handed over (each with until when its hand may
        # take), and the tables handed lately (not claimed back here: the lighter nodes')
        self._share: int | None = None
        self._counts: dict[str, int] = {}
        self._tables = 0  # the open tables (last round)
        self._handing: dict[str, float] = {}
        self._handed: dict[str, float] = {}
        # each claim: the table, when the lease it took had expired, when it was claimed and
        # restored, how long the restore took, and what asked (a round or a client)
        self.claims: list[dict[str, Any]] = []
        self.drain_s = drain_s
        self.draining = False
        self.drained = asyncio.Event()
        self.redis_url = redis_url
        self.redis: Any = None
        self._db = 0
        self.remote: dict[str, tuple[float, dict[str, Any]]] = {}  # the lobby elsewhere
        self.stats = {"claimed": 0, "dropped": 0, "released": 0, "moved": 0, "handed": 0}
        # the expected faults met (the database or Redis out of reach, a write fenced off),
        # counted; and every background task, supervised (server/supervise.py)
        self.faults = Faults(node)
        self.tasks = Tasks(self.faults)
        self._lease_thread = ThreadPoolExecutor(1, thread_name_prefix="tapete-leases")
        self.fanout = RedisFanout(self)  # presence, and the records for watchers elsewhere
        self.counters = Counters()  # the rate limits while Redis cannot count them
        create_all(_META, self.log.engine)

    # ------------------------------------------------------------------ start, stop
    async def start(self) -> None:
        if self.redis_url:
            import redis.asyncio as aioredis

            self.redis = aioredis.from_url(self.redis_url, decode_responses=True)
            # Redis's channels are one for every database of the server: a room's are named
            # after its database, so that two rooms on one Redis never hear each other
            self._db = int(self.redis.connection_pool.connection_kwargs.get("db") or 0)
            with contextlib.suppress(Exception):
                for tid, raw in (await self.redis.hgetall(LOBBY_KEY)).items():
                    self._heard(tid, raw)
            await self.fanout.load()
            self.tasks.keep(self._listen_loop, f"node {self.id}: its Redis subscription")
        await asyncio.to_thread(self._heartbeat)
        await self._claim()
        self.tasks.keep(self._loop, f"node {self.id}: its rounds")
        self.tasks.keep(self._renew_loop, f"node {self.id}: its lease renewals")

    async def stop(self) -> None:
        await self.tasks.stop()  # the rounds, the renewals, the subscription, the relay...
        await self._release_all()
        await self.fanout.stop()
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self._forget)
        if self.redis is not None:
            with contextlib.suppress(Exception):
                await self.redis.aclose()
        self._lease_thread.shutdown(wait=False)

    def claim_new(self, table_id: str) -> int:
        """The lease of a table this node just made."""
        epoch = self.log.claim(table_id, self.id, self.lease_ms, force=True)
        assert epoch is not None
        return epoch

    # ------------------------------------------------------------------ the rounds
    async def _loop(self) -> None:
        backoff = Backoff(self.scan_s, cap=max(2.0, self.scan_s))
        failing = False
        while True:
            wait = backoff.next() if failing else self.scan_s
            if self._wake_at is not None and not failing:  # a dead node's lease runs out
                wait = max(0.01, min(wait, self._wake_at - time.time() + 0.005))  # sooner
            await asyncio.sleep(wait)
            try:
                await self._round()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database is down: tried again, backing off
                self.faults.failed(exc, "round", "its round")
                failing = True
                continue
            if failing:
                self.faults.back("round", "its rounds")
                failing = False
                backoff.reset()

    async def _round(self) -> None:
        if not self.draining:
            await self._claim()
            await self._rebalance()
        await self._publish()
        self.fanout.tend()
        await self.fanout.say()
        await self._note_practice()

    async def _renew_loop(self) -> None:
        """Say this node is alive and renew its leases every quarter of their length (a loop
        of its own: a claim restoring tables never holds a renewal up); drop the ones
        lost."""
        # after a failure (the database down), tried again sooner, backing off to the usual
        # quarter of a lease: the leases are renewed as soon as the database is back
        backoff = Backoff(0.1, cap=self.renew_ms / 1000)
        failing = False
        while True:
            await asyncio.sleep(backoff.next() if failing else self.renew_ms / 1000)
            try:
                # here, not in a round (a round restoring many tables never makes this node
                # look dead), on a thread of its own (never queued behind the clients' work)
                loop = asyncio.get_running_loop()
                await loop.run_in_executor(self._lease_thread, self._heartbeat)
                lost = await loop.run_in_executor(self._lease_thread, self._renew,
                                                  self._owned())
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.faults.failed(exc, "renew", "its leases could not be renewed")
                failing = True
                continue
            if failing:
                self.faults.back("renew", "its leases are renewed")
                failing = False
                backoff.reset()
            for tid, epoch in lost:
                running = self.room.tables.get(tid)
                if running is not None and running.table.epoch == epoch:
                    log.warning("node %s lost the lease of table %s: dropped", self.id, tid)
                    self.drop(tid)

    def _owned(self) -> list[tuple[str, int]]:
        return [(tid, r.table.epoch) for tid, r in self.room.tables.items()
                if r.table.epoch is not None]

    def _heartbeat(self) -> None:
        now = now_ms()
        with self.log.engine.begin() as conn:
            done = conn.execute(NODES.update().where(NODES.c.node == self.id).values(
                url=self.url, seen=now, draining=self.draining))
            if not done.rowcount:
                conn.execute(NODES.insert().values(node=self.id, url=self.url, seen=now,
                                                   draining=self.draining))

    def _forget(self) -> None:
        with self.log.engine.begin() as conn:
            conn.execute(NODES.delete().where(NODES.c.node == self.id))

    def _renew(self, owned: list[tuple[str, int]]) -> list[tuple[str, int]]:
        """Renew the leases held (in one statement, however many): the ones lost."""
        kept = self.log.renew_many(self.id, owned, self.lease_ms)
        return [(tid, epoch) for tid, epoch in owned if tid not in kept]

    def _live(self) -> dict[str, bool]:
        """The nodes alive now (a heartbeat in the last ``alive_ms``): whether each drains."""
        since = now_ms() - self.alive_ms
        with self.log.engine.connect() as conn:
            return {str(n): bool(d) for n, d in conn.execute(
                sa.select(NODES.c.node, NODES.c.draining).where(NODES.c.seen >= since))}

    def _claimable(self) -> tuple[list[str], int]:
        """The open tables nobody holds (oldest first), and how many more this node may
        take (its share, :func:`claimable`); notes this node's share and what each dealing
        node holds, and when the first lease a dead node still holds runs out (the next
        round is then)."""
        ids = self.log.table_ids()
        now = now_ms()
        leases = self.log.leases()
        held = {x.table_id for x in leases if x.expires >= now}
        live = self._live()
        dead = [x.expires for x in leases if x.expires >= now and x.owner not in live]
        self._wake_at = min(dead) / 1000 if dead else None
        dealing = {n for n, draining in live.items() if not draining}
        if not self.draining:
            dealing.add(self.id)  # this node deals, whatever its last heartbeat said
        counts = dict.fromkeys(dealing, 0)
        for x in leases:
            if x.expires >= now and x.owner in counts:
                counts[x.owner] += 1
        if self.id in counts:  # and the tables it runs (one restored now has its lease)
            counts[self.id] = max(counts[self.id], len(self.room.tables))
        self._share = shares(counts, len(ids)).get(self.id, 0)
        self._counts, self._tables = counts, len(ids)
        recent = time.monotonic() - HANDED_S
        free = [tid for tid in ids if tid not in held and tid not in self.room.tables
                and self._handed.get(tid, 0.0) < recent]
        return free, claimable(self.id, counts, len(ids))

    async def _claim(self) -> None:
        free, room = await asyncio.to_thread(self._claimable)
        for tid in free[:room]:
            await self.adopt(tid, via="round")

    def _may_claim(self) -> bool:
        """Whether a client's claim may take one more table here: within this node's share
        (as a round's claims are); before the first round, yes."""
        if self._share is None:
            return True
        return len(self.room.tables) + len(self._adopting) < self._share

    def holds_back(self, table_id: str) -> bool:
        """Whether table ``table_id`` must deal no new hand now: this node drains, or hands
        it over (asked by the table's policy, room/policy.py)."""
        return self.draining or table_id in self._handing

    async def _rebalance(self) -> None:
        """A node holding more than its share (:func:`shares`: a node started again, or one
        more, has a share of its own now) hands its surplus over, all of it at once: each
        table deals no new hand, and once the hand in play has ended it stops here and its
        lease is released; a node under its share claims it at its next round (this one does
        not take it back for ``HANDED_S``), and its clients follow it there. No hand moves
        while in play; the shares are even again within a lease (a hand's end later, where
        hands are long)."""
        for tid, deadline in list(self._handing.items()):
            running = self.room.tables.get(tid)
            if running is None:
                del self._handing[tid]
            elif running.table.hand is None:
                del self._handing[tid]
                await self._hand_over(tid, running)
            elif time.monotonic() > deadline:  # a hand that would not end: it stays here
                del self._handing[tid]  # and deals again (holds_back)
        now = time.monotonic()
        self._handed = {t: at for t, at in self._handed.items() if at >= now - HANDED_S}
        if self._share is None or self.draining:
            return
        counts = {**self._counts, self.id: len(self.room.tables) - len(self._handing)}
        more = surplus(self.id, counts, self._tables)
        lighter = shares(counts, self._tables)
        if more <= 0 or not any(c < lighter[n] for n, c in counts.items() if n != self.id):
            return  # (a node under its share claims what is handed over)
        movable = [r for r in self.room.tables.values()
                   if not r.table.config.practice and not r.table.broken
                   and r.table.table_id not in self._handing]
        # the tables between hands first, then the ones with the fewest connections
        movable.sort(key=lambda r: (r.table.hand is not None, len(r.connections)))
        for running in movable[:more]:  # each deals no new hand (holds_back)
            self._handing[running.table.table_id] = time.monotonic() + HANDING_S

    async def _hand_over(self, tid: str, running: Running) -> None:
        """Table ``tid``'s hand has ended: it stops here and its lease is released."""
        epoch = running.table.epoch
        self._handed[tid] = time.monotonic()
        self.fanout.dropped(tid)
        self.room.drop(tid)  # stopped first: no write after the release
        if epoch is not None and await asyncio.to_thread(
                self.log.release, tid, self.id, epoch):
            self.stats["handed"] += 1
            log.info("node %s handed table %s over", self.id, tid)
        else:  # its lease had moved on meanwhile (this node was paused): lost
            self.stats["dropped"] += 1
            log.warning("node %s lost the lease of table %s: dropped", self.id, tid)
        await self._unlist(tid)

    def _take(self, table_id: str) -> tuple[int | None, int]:
        """Claim the lease: the new epoch (None: held), and when the lease it replaces had
        expired (Unix ms; 0: released or new)."""
        before = self.log.lease(table_id)
        epoch = self.log.claim(table_id, self.id, self.lease_ms)
        return epoch, (before.expires if before is not None else 0)

    async def adopt(self, table_id: str, via: str = "client") -> Running | None:
        """Claim table ``table_id`` and run it here (restored from its log); None when
        another node holds it, or it cannot be restored. The clients that come for one table
        at once share one claim (they wait for it, and are served by it)."""
        if self.draining:
            return None
        pending = self._adopting.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Running | None] = asyncio.get_running_loop().create_future()
        self._adopting[table_id] = future
        try:
            running = await self._adopt(table_id, via)
        except BaseException:
            future.set_result(None)
            raise
        finally:
            del self._adopting[table_id]
        future.set_result(running)
        return running

    async def _adopt(self, table_id: str, via: str) -> Running | None:
        running = self.room.tables.get(table_id)
        if running is not None:
            return running
        epoch, expired = await asyncio.to_thread(self._take, table_id)
        if epoch is None:
            return None
        claimed = now_ms()
        running = self.room.tables.get(table_id)  # adopted meanwhile, by another coroutine
        if running is not None:
            return running
        started = time.perf_counter()
        running = await self.room.restore_one(table_id, epoch)
        took = time.perf_counter() - started
        self.claims = self.claims[-499:] + [{
            "table": table_id, "expired": expired, "claimed": claimed,
            "restored": now_ms(), "restore_ms": round(1000 * took, 1), "via": via,
            "ok": running is not None}]
        if running is None:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.log.release, table_id, self.id, epoch)
            return None
        self.stats["claimed"] += 1
        log.info("node %s claimed table %s (epoch %s)", self.id, table_id, epoch)
        return running

    def closed(self, table_id: str) -> None:
        """A table run here was closed (``Room.sweep``: nobody sat at it): out of the
        lobby, at every node."""
        self.fanout.dropped(table_id)
        self._spawn(self._unlist(table_id))

    def drop(self, table_id: str) -> None:
        """A table whose lease this node lost: it stops here (its owner answers nothing more)
        and its clients are told to go to its new owner."""
        self.stats["dropped"] += 1
        self.fanout.dropped(table_id)
        self.room.drop(table_id)
        self._spawn(self._unlist(table_id), "a table's unlisting")

    async def lost(self, table: RoomTable) -> bool:
        """Whether this node lost the lease of ``table`` (a write was refused for its epoch,
        or its renewal), in which case the table is dropped."""
        if table.epoch is None:
            return False
        try:
            held = await asyncio.to_thread(self.log.renew, table.table_id, self.id,
                                           table.epoch, self.lease_ms)
        except Exception:
            return False  # the database is down: try again later
        if not held:
            log.warning("node %s: a write of table %s was refused, its lease moved on:"
                        " dropped", self.id, table.table_id)
            self.drop(table.table_id)
        return not held

    # ------------------------------------------------------------------ routing
    def moved_away(self, table_id: str, running: Served) -> bool:
        """Whether ``running`` was dropped here meanwhile (its new owner has it)."""
        return self.room.tables.get(table_id) is not running

    def turned_away(self, exc: BaseException, table_id: str) -> bool:
        """An expected fault (the database or Redis out of reach) met while a client came
        for ``table_id``: counted, one log line; the client is told to try again later."""
        return self.faults.expected(exc, "a client of table %s was turned away", table_id)

    async def route(self, table_id: str) -> Running | str | None:
        """Where a client asking for ``table_id`` at this node is to go: the table, run here
        (claimed now if nobody holds it); the WebSocket URL of the node that holds it ("":
        between owners, try again); None: there is no such table.

        A client that comes for a table whose owner is dead (no heartbeat) is held here until
        the lease runs out, and the table is claimed for it then (or it is sent to the node
        that claimed it first): it is served the moment the table can go on, and it does not
        knock again and again meanwhile. One being restored here is waited for too."""
        running = self.room.tables.get(table_id)
        if running is not None:
            return running
        for _ in range(3):  # held until the lease runs out, then once more
            lease, url, exists = await asyncio.to_thread(self._where, table_id)
            if not exists:
                return None
            now = now_ms()
            if lease is None or lease.expires < now:
                if table_id in self._handed:  # handed over just now: a lighter node's
                    return ""
                if lease is not None and not self._may_claim():
                    # this node holds its share: a node under its own claims the table at
                    # its next round (a round comes every twelfth of a lease), then the
                    # client is sent there
                    await asyncio.sleep(self.scan_s * 1.5)
                    continue
                if lease is None or not self.draining:
                    adopted = await self.adopt(table_id)
                    if adopted is not None:
                        return adopted
                    running = self.room.tables.get(table_id)  # another client's claim here
                    if running is not None:
                        return running
                    continue  # another node claimed it first: the client goes there
                return ""
            if lease.owner == self.id:  # being restored here: a moment
                for _ in range(60):
                    await asyncio.sleep(0.05)
                    running = self.room.tables.get(table_id)
                    if running is not None:
                        return running
                return ""
            if url is not None:
                self.stats["moved"] += 1
                if url.startswith("http"):
                    url = "ws" + url[4:]
                return f"{url}/ws/t/{table_id}"
            # its owner is dead (or paused): wait for its lease to run out
            await asyncio.sleep(min(lease.expires - now, self.lease_ms) / 1000 + 0.01)
            running = self.room.tables.get(table_id)
            if running is not None:
                return running
        return ""

    def _where(self, table_id: str) -> tuple[Lease | None, str | None, bool]:
        """Table ``table_id``'s lease, the URL of its holder if that node is alive, and
        whether the table is open: in one connection (a client's routing, on a busy node, is
        one hop to a thread, not three)."""
        c = LEASES.c
        with self.log.engine.connect() as conn:
            row = conn.execute(sa.select(c.owner, c.epoch, c.expires, NODES.c.url, NODES.c.seen)
                               .select_from(LEASES.outerjoin(NODES, NODES.c.node == c.owner))
                               .where(c.table_id == table_id)).first()
            lease = url = None
            if row is not None:
                lease = Lease(table_id, str(row[0]), int(row[1]), int(row[2]))
                # alive: a heartbeat lately, or this very lease claimed or renewed lately (a
                # busy node's heartbeat may be late; its renewals say it lives too)
                since = now_ms() - self.alive_ms
                if row[3] is not None and (int(row[4]) >= since
                                           or lease.expires - self.lease_ms >= since):
                    url = str(row[3])
            if row is not None and lease is not None and lease.expires >= now_ms():
                return lease, url, True  # a table held is open (a closed one has no holder)
            exists = conn.execute(sa.select(TABLES.c.id).where(
                TABLES.c.id == table_id, TABLES.c.id.not_in(sa.select(CLOSED.c.table_id)))
            ).first() is not None
        return lease, url, exists

    # ------------------------------------------------------------------ practice tables
    async def _note_practice(self) -> None:
        """Each person whose practice table runs here, in Redis (``tapete:practice``: the
        person's id, the table's), so that any node sends their socket to it."""
        if self.redis is None:
            return
        now = {pid: r.table.table_id for pid, (r, _) in self.room.practice.items()}
        new = {pid: tid for pid, tid in now.items() if self._practiced.get(pid) != tid}
        if not new:
            self._practiced = now
            return
        try:
            await self.redis.hset(PRACTICE_KEY, mapping=new)
        except Exception as exc:
            self.faults.failed(exc, "practice", "its practice tables could not be noted",
                               kind=REDIS)
            return
        self.faults.back("practice", "its practice tables are noted")
        self._practiced = now

    async def practice_route(self, player: str) -> Running | str | None:
        """Where ``player``'s practice socket is to go: their practice table, run here (now
        claimed, if nobody held it); the ``/ws`` URL of the node that runs it ("": between
        owners, try again); None: they have none (the lobby, here)."""
        if self.redis is None:
            return None
        try:
            table_id = await self.redis.hget(PRACTICE_KEY, player)
        except Exception:
            return None
        if not table_id:
            return None
        where = await self.route(str(table_id))
        if where is None:  # closed: the person is back in the lobby
            with contextlib.suppress(Exception):
                await self.redis.hdel(PRACTICE_KEY, player)
            return None
        if isinstance(where, str) and where:
            return where[:-len(f"/ws/t/{table_id}")] + "/ws"
        return where

    def _open(self, table_id: str) -> bool:
        return table_id in set(self.log.table_ids())

    def _url_of(self, node: str) -> str | None:
        """The URL of ``node`` if it is alive (a heartbeat in the last ``alive_ms``)."""
        with self.log.engine.connect() as conn:
            url = conn.execute(sa.select(NODES.c.url).where(
                NODES.c.node == node, NODES.c.seen >= now_ms() - self.alive_ms)).scalar()
        return None if url is None else str(url)

    async def exists(self, table_id: str) -> bool:
        """Whether a table of the room (run here or elsewhere) has this id."""
        if table_id in self.room.tables:
            return True
        return await asyncio.to_thread(self._open, table_id)

    # ------------------------------------------------------------------ draining
    def drains(self) -> bool:
        """A SIGTERM drains this node (once)."""
        return not self.draining

    def begin_drain(self, done: Callable[[], None]) -> None:
        if self.draining:
            return
        self._spawn(self._drain(done), "its drain")

    async def _drain(self, done: Callable[[], None]) -> None:
        """Deal no new hand, let the hands in play end, then stop every table, release its
        lease and send its clients elsewhere."""
        self.draining = True
        log.warning("node %s drains: no new hands; %s tables", self.id, len(self.room.tables))
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self._heartbeat)
        # no table deals a new hand from now (holds_back: every table's policy asks)
        deadline = time.monotonic() + self.drain_s
        said = time.monotonic()
        while time.monotonic() < deadline:
            playing = [r for r in self.room.tables.values()
                       if r.table.hand is not None and not r.table.broken]
            if not playing:
                break
            if time.monotonic() - said > 5:
                said = time.monotonic()
                log.warning("node %s drains: hands in play at %s", self.id, ", ".join(
                    f"{r.table.table_id} ({len(r.connections)} connected)" for r in playing))
            await asyncio.sleep(0.05)
        while time.monotonic() < deadline and self.room._saving:  # the hands' rows
            await asyncio.sleep(0.05)
        try:
            await self._release_all()
        finally:  # whatever failed, the node exits (its leases run out)
            self.drained.set()
            done()

    async def _release_all(self) -> None:
        owned = self._owned()
        for tid, _ in owned:
            self.fanout.dropped(tid)
            self.room.drop(tid)  # stopped first: no write after the release
        for tid, epoch in owned:
            with contextlib.suppress(Exception):
                if await asyncio.to_thread(self.log.release, tid, self.id, epoch):
                    self.stats["released"] += 1
            await self._unlist(tid)

    # ------------------------------------------------------------------ Redis
    async def _publish(self) -> None:
        """This node's tables, to the lobby (once a second: the rounds come oftener)."""
        if self.redis is None or time.monotonic() - self._published < 1.0:
            return
        self._published = time.monotonic()
        listed = {}
        at = time.time()
        for s in self.room.local_listing():
            listed[s["table"]] = json.dumps({"at": at, "node": self.id, "table": s})
        if not listed:
            return
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.hset(LOBBY_KEY, mapping=listed)
                for raw in listed.values():
                    pipe.publish(self.on(LOBBY_KEY), raw)
                await pipe.execute()
        except Exception as exc:
            self.faults.failed(exc, "lobby", "the lobby could not be published", kind=REDIS)
            return
        self.faults.back("lobby", "the lobby is published")

    async def _unlist(self, table_id: str) -> None:
        self.remote.pop(table_id, None)
        if self.redis is not None:
            with contextlib.suppress(Exception):
                await self.redis.hdel(LOBBY_KEY, table_id)
                await self.redis.publish(self.on(LOBBY_KEY), json.dumps({"gone": table_id,
                                                                 "node": self.id}))

    def _heard(self, tid: str | None, raw: str) -> None:
        data = json.loads(raw)
        if data.get("node") == self.id:
            return
        if "gone" in data:
            self.remote.pop(str(data["gone"]), None)
            return
        table = data["table"]
        self.remote[str(tid or table["table"])] = (float(data["at"]), table)

    async def _listen_loop(self) -> None:
        """Hear the other nodes (the lobby, the bankrolls, presence, the watched tables'
        records). Redis out of reach: tried again with a backoff (a tenth of a second, up to
        two, jittered), and once subscribed again, what was missed meanwhile is read from
        the lobby's and presence's hashes (the watchers fill their gaps from the log)."""
        backoff = Backoff(0.1, cap=2.0)
        failing = False
        while True:
            pubsub = self.redis.pubsub()
            try:
                lobby, money, presence = (self.on(LOBBY_KEY), self.on(MONEY_CHANNEL),
                                          self.on(PRESENCE_KEY))
                await pubsub.subscribe(lobby, money, presence)
                await pubsub.psubscribe(self.on(TABLE_CHANNEL) + ":*")
                if failing:
                    for tid, raw in (await self.redis.hgetall(LOBBY_KEY)).items():
                        self._heard(tid, raw)
                    await self.fanout.load()
                    self.faults.back("listen", "Redis is heard again")
                    failing = False
                backoff.reset()
                async for message in pubsub.listen():
                    kind = message.get("type")
                    if kind == "pmessage":
                        self.fanout.record_heard(message["channel"], message["data"])
                    elif kind != "message":
                        continue
                    elif message["channel"] == money:
                        self._money_heard(json.loads(message["data"]))
                    elif message["channel"] == presence:
                        self.fanout.heard(message["data"])
                    else:
                        self._heard(None, message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.faults.failed(exc, "listen", "Redis could not be heard", kind=REDIS)
                failing = True
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            await backoff.sleep()

    def remote_listing(self) -> list[dict[str, Any]]:
        """The tables the other nodes run, as they last published them (seconds ago)."""
        stale = time.time() - max(3.0, 3 * self.scan_s)
        return [s for tid, (at, s) in self.remote.items()
                if at >= stale and tid not in self.room.tables]

    def money_moved(self, player: str, bankroll: int) -> None:
        """A bankroll moved here: this node's copy and the other nodes' are refreshed."""
        self._refresh(player, bankroll)
        if self.redis is not None:
            self._spawn(self.redis.publish(self.on(MONEY_CHANNEL), json.dumps(
                {"node": self.id, "player": player, "bankroll": bankroll})),
                "a bankroll's publish")

    def _money_heard(self, data: dict[str, Any]) -> None:
        if data.get("node") != self.id:
            self._refresh(str(data["player"]), int(data["bankroll"]))

    def _refresh(self, player: str, bankroll: int) -> None:
        p = self.room.hub.players.get(player)
        if p is not None and p.purse.pending == 0:
            p.purse.bankroll = bankroll
            p.purse.version += 1
            if p.game is None:
                with contextlib.suppress(RuntimeError):
                    p.send_state()

    async def allow(self, key: str, most: int, window_s: int) -> bool:
        """A rate limit over every node: at most ``most`` of ``key`` in ``window_s`` (a
        fixed window in Redis); without Redis, or while it is down, this node's own count
        (:class:`Counters`)."""
        if self.redis is None:
            return self.counters.allow(key, most, window_s)
        bucket = f"tapete:rate:{key}:{int(time.time()) // window_s}"
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.incr(bucket)
                pipe.expire(bucket, window_s + 1)
                count, _ = await pipe.execute()
        except Exception:  # Redis is down: this node's own count holds meanwhile
            return self.counters.allow(key, most, window_s)
        return int(count) <= most

    def on(self, channel: str) -> str:
        """The name of ``channel`` for this room (its Redis database's)."""
        return f"{channel}@{self._db}"

    def _spawn(self, coro: Any, what: str = "a background task") -> None:
        """Run ``coro`` in the background, supervised: its failure is retrieved and logged
        (a Redis that is down: one line, counted), never left unretrieved."""
        self.tasks.spawn(coro, f"node {self.id}: {what}")

    def faults_seen(self) -> dict[str, int]:
        """The expected faults met, by kind (server/supervise.py): ``fenced``, the writes
        refused because a lease moved on (the log counts them), ``storage_unavailable`` and
        ``redis_unavailable``, the tries that met the database or Redis out of reach,
        ``task_restarts``, the background tasks started again, ``task_failures``, the one-off
        ones that failed unexpectedly."""
        return {**self.faults.counts, FENCED: self.log.fenced}

    def info(self, everything: bool = False) -> dict[str, Any]:
        """This node (``GET /api/room/node``): its tables, counted, and the ids of those
        anyone may know of (:meth:`Room.table_ids`); its leases' counters. ``everything``
        (an operator): every table's id, each claim and the tables relayed too."""
        out = {"node": self.id, "url": self.url, "draining": self.draining,
               "tables": self.room.table_ids(everything), "table_count": len(self.room.tables),
               "fenced": self.log.fenced, "fenced_renewals": self.log.fenced_renewals,
               **self.stats, **self.fanout.stats, "faults": self.faults_seen()}
        if everything:
            out.update(claims=self.claims, relaying=sorted(self.fanout.relays))
        return out


def ports(hub: Hub, settings: Settings, node_id: str) -> Callable[[Room], Ports]:
    """The ports of a room on several nodes (``Room(ports=...)`` calls it with itself): this
    process as node ``node_id`` (its leases), its Redis fanout, and the bankroll in
    PostgreSQL."""

    def build(room: Room) -> Ports:
        node = Node(room, node_id, settings.advertise,
                    lease_ms=int(settings.lease_s * 1000), redis_url=settings.redis_url,
                    drain_s=settings.drain_s)
        return Ports(node, node.fanout, ClusterBankroll(hub, node))

    return build


class DrainingServer(uvicorn.Server):
    """uvicorn's server, where SIGTERM drains the node first (a second signal, or Ctrl+C,
    stops it at once, as uvicorn does)."""

    def __init__(self, config: uvicorn.Config, ownership: Callable[[], Ownership]) -> None:
        super().__init__(config)
        self._ownership = ownership
        self._loop: asyncio.AbstractEventLoop | None = None

    async def startup(self, sockets: Any = None) -> None:
        self._loop = asyncio.get_running_loop()
        await super().startup(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        ownership = self._ownership()
        if sig == signal.SIGTERM and self._loop is not None and not self.should_exit \
                and ownership.drains():
            def exit_now() -> None:
                self.should_exit = True

            self._loop.call_soon_threadsafe(ownership.begin_drain, exit_now)
            return
        super().handle_exit(sig, frame)
