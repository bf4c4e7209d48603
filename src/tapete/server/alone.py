"""The room in one process: the one-process implementations of the ports
(:mod:`tapete.room.ports`). The process runs every table of its log and always owns it; what
the other nodes would be told goes nowhere, and what they would say is nothing (the memory
backend of Starlette's ``broadcaster``). Several nodes are ``server/cluster.py`` and
``server/fanout.py``; ``server/app.py`` chooses, once.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, Protocol

from tapete.room.ports import Bankroll, FaultLog, Here, Ports, Served
from tapete.server.supervise import Faults


class Counters:
    """Rate limits counted in this process (one node; several while Redis is down): at most
    ``most`` of a key in a fixed window of ``window_s``, as ``Node.allow`` counts them in
    Redis. Keys whose window has passed are forgotten."""

    def __init__(self) -> None:
        # (key, window's length) -> (the window counted, how many in it)
        self._counts: dict[tuple[str, int], tuple[int, int]] = {}

    def allow(self, key: str, most: int, window_s: int, now: float | None = None) -> bool:
        now = time.time() if now is None else now
        if len(self._counts) > 10_000:  # the windows that have passed are forgotten
            self._counts = {k: v for k, v in self._counts.items()
                            if v[0] == int(now) // k[1]}
        window = int(now) // window_s
        counted, count = self._counts.get((key, window_s), (window, 0))
        count = count + 1 if counted == window else 1
        self._counts[(key, window_s)] = (window, count)
        return count <= most


def present(room: Here) -> dict[str, Any]:
    """Who is connected to this process: the identities with a socket open (the practice
    table's or a room table's), and at each table it runs, the seated players connected and
    how many spectators."""
    online: set[str] = {p.id for p in room.hub.players.values() if p.outboxes}
    tables: dict[str, dict[str, Any]] = {}
    for tid, running in room.tables.items():
        if running.table.config.practice:
            continue
        seated = set(running.table.players.values())
        here = {c.player for c in running.connections if c.player}
        online |= here
        tables[tid] = {"seated": sorted(here & seated), "spectators": sum(
            1 for c in running.connections if c.player not in seated),
            "listed": running.table.config.listed}
    return {"online": sorted(online), "tables": tables}


def merged(every: list[dict[str, Any]]) -> dict[str, Any]:
    """The presence of every node as one: how many identities are online (each once, at
    however many nodes), and at each table anyone may know of (``TableConfig.listed``, as
    the node running it says) how many of its seated players are connected and how many
    watch. The private tables are only counted, all together (``private``): their ids are
    their links, given to their players alone."""
    online: set[str] = set()
    seated: dict[str, set[str]] = {}
    watching: dict[str, int] = {}
    listed: set[str] = set()
    for p in every:
        online |= set(p["online"])
        for tid, entry in p["tables"].items():
            seated.setdefault(tid, set()).update(entry["seated"])
            watching[tid] = watching.get(tid, 0) + int(entry["spectators"])
            if entry.get("listed"):
                listed.add(tid)
    private = sorted(set(seated) - listed)
    return {"online": len(online), "nodes": len(every),
            "tables": {tid: {"players": len(seated[tid]), "spectators": watching[tid]}
                       for tid in sorted(listed)},
            "private": {"tables": len(private),
                        "players": sum(len(seated[tid]) for tid in private),
                        "spectators": sum(watching[tid] for tid in private)}}


class Restores(Here, Protocol):
    """This process's tables, which it restores and runs, every one (``Room``)."""

    async def run_every_table(self) -> None:
        ...


class Preloads(Protocol):
    """A bankroll that, while the room restores its tables, knows every move already made
    (``RoomBankroll``: read once, not once per move a restore asks for again)."""

    made: set[str] | None


class LocalOwnership:
    """One process: it runs every table of its log and always owns them (no lease: a table's
    writes quote no epoch)."""

    def __init__(self, room: Restores, bankroll: Preloads,
                 moves_made: Callable[[], set[str]]) -> None:
        self.room = room
        self.bankroll = bankroll
        self.moves_made = moves_made
        self._faults = Faults()

    @property
    def faults(self) -> FaultLog:
        return self._faults

    async def start(self) -> None:
        """Every stored table, restored and run here (a hand a crash interrupted goes on by
        the table's rule), with every move already made read once."""
        self.bankroll.made = await asyncio.to_thread(self.moves_made)
        try:
            await self.room.run_every_table()
        finally:
            self.bankroll.made = None

    async def stop(self) -> None:
        return None

    def claim_new(self, table_id: str) -> int | None:
        return None

    def holds_back(self, table_id: str) -> bool:
        return False

    async def lost(self, table: Any) -> bool:
        return False

    def closed(self, table_id: str) -> None:
        return None

    async def exists(self, table_id: str) -> bool:
        return self.room.get(table_id) is not None

    async def route(self, table_id: str) -> Served | str | None:
        return self.room.get(table_id)

    async def practice_route(self, player: str) -> Served | str | None:
        return None

    def moved_away(self, table_id: str, running: Served) -> bool:
        return False

    def turned_away(self, exc: BaseException, table_id: str) -> bool:
        return False

    def info(self, everything: bool = False) -> dict[str, Any]:
        return {"node": None, "tables": self.room.table_ids(everything),
                "table_count": len(self.room.tables)}

    def drains(self) -> bool:
        return False

    def begin_drain(self, done: Callable[[], None]) -> None:
        done()  # nothing to hand over: it stops at once


class LocalFanout:
    """One process: presence is its own, there are no tables elsewhere, the rate limits are
    counted here, and nobody watches from another node."""

    def __init__(self, room: Here) -> None:
        self.room = room
        self.counters = Counters()

    def changed(self) -> None:
        return None  # presence is read from the connections when asked

    def presence(self) -> dict[str, Any]:
        return merged([present(self.room)])

    def listing(self) -> list[dict[str, Any]]:
        return []

    async def allow(self, key: str, most: int, window_s: int) -> bool:
        return self.counters.allow(key, most, window_s)

    async def connects(self, player: str) -> bool:
        return True

    async def watch(self, ws: Any, table_id: str, player: str, limits: Any) -> bool:
        return False


class LocalBankroll(Bankroll, Preloads, Protocol):
    """The one-process bankroll (``server/rooms.py``'s ``RoomBankroll``)."""


def ports(bankroll: LocalBankroll, moves_made: Callable[[], set[str]]
          ) -> Callable[[Restores], Ports]:
    """The one-process ports of a room (``Room(ports=...)`` calls it with itself):
    ``bankroll`` its players' money, ``moves_made`` every room move stored (read once while
    the room restores its tables)."""

    def build(room: Restores) -> Ports:
        return Ports(LocalOwnership(room, bankroll, moves_made), LocalFanout(room), bankroll)

    return build
