"""The ports: what the room needs of the world around a process, as interfaces.

One process and several nodes are two implementations of the same ports, chosen once, where
the app is built (``server/app.py``): the server's code calls the port and never asks which it
is (Starlette's ``broadcaster`` is the model: one backend interface, and one process is the
memory backend).

- :class:`Ownership`: who runs a table. One process (``server/alone.py``) runs every table of
  its log and always owns it; several nodes (``server/cluster.py``'s ``Node``) run the tables
  whose PostgreSQL lease they hold, and send a client elsewhere for the others.
- :class:`Fanout`: what the other processes are told and heard from: presence, the lobby of
  the tables run elsewhere, the rate limits counted over every node, the spectators watching
  a table another node runs. One process delivers to itself (in memory); several nodes go
  through Redis (``server/fanout.py``).
- :class:`~tapete.room.money.Bankroll`: where a table's chips come from. One process decides
  with the bankroll it holds in memory and stores the move behind (``server/rooms.py``'s
  ``RoomBankroll``); several nodes move chips in PostgreSQL, in the transaction that stores
  the record (``server/cluster.py``'s ``ClusterBankroll``).

:class:`Ports` holds the three a room runs with. This module imports nothing of the server.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from tapete.room.money import Bankroll

if TYPE_CHECKING:
    from tapete.room.log import EventLog
    from tapete.room.table import RoomTable, TableOwner

__all__ = ["Bankroll", "Connected", "Fanout", "FaultLog", "Here", "Ownership", "Ports",
           "Served"]


class FaultLog(Protocol):
    """The expected faults met (the database or Redis out of reach, a write fenced off),
    counted, each one line in the log (``server/supervise.py``'s ``Faults``)."""

    def expected(self, exc: BaseException, what: str, *args: object,
                 kind: str | None = None) -> bool:
        """Count and log ``exc`` if it is an expected fault: True; False for a bug."""
        ...

    def count(self, kind: str) -> None:
        ...


class Connected(Protocol):
    """A connection to a table, as the ports count it."""

    @property
    def player(self) -> str | None:
        ...


class Served(Protocol):
    """A table this process runs (``server/session.py``'s ``Running``), as the ports see it."""

    @property
    def table(self) -> RoomTable:
        ...

    @property
    def owner(self) -> TableOwner:
        ...

    @property
    def connections(self) -> Collection[Connected]:
        ...


class Here(Protocol):
    """This process's tables (``server/rooms.py``'s ``Room``), as the ports see them."""

    @property
    def log(self) -> EventLog:
        ...

    @property
    def tables(self) -> Mapping[str, Served]:
        ...

    @property
    def hub(self) -> Any:  # the players this process holds (server/hub.py)
        ...

    def get(self, table_id: str) -> Served | None:
        """A table a client may join by its id, run here."""
        ...

    def table_ids(self, everything: bool = False) -> list[str]:
        ...


class Ownership(Protocol):
    """Who runs a table: this process (one process: every table of the log, always its
    owner), or the node holding the table's lease (several nodes)."""

    @property
    def faults(self) -> FaultLog:
        """Where this process's expected faults are counted."""
        ...

    async def start(self) -> None:
        """Run the tables this process owns: every table of the log (one process), or its
        share of them, claimed by their leases (several nodes)."""
        ...

    async def stop(self) -> None:
        """This process stops (several nodes: its leases released)."""
        ...

    def claim_new(self, table_id: str) -> int | None:
        """The lease of a table this process just made: its epoch, which every write of the
        table quotes (None: one process, no lease)."""
        ...

    def holds_back(self, table_id: str) -> bool:
        """Whether table ``table_id`` must deal no new hand now (several nodes: this node
        drains, or hands it over; asked by the table's policy, room/policy.py). One process:
        never."""
        ...

    async def lost(self, table: RoomTable) -> bool:
        """Whether ``table`` stopped because its lease moved on (another node claimed it): it
        is dropped here then. One process never loses a table."""
        ...

    def closed(self, table_id: str) -> None:
        """A table run here was closed (nobody sat at it)."""
        ...

    async def exists(self, table_id: str) -> bool:
        """Whether a client may find table ``table_id``: run here, or at another node."""
        ...

    async def route(self, table_id: str) -> Served | str | None:
        """Where a client asking here for ``table_id`` is to go: the table, run here; the
        WebSocket URL of the node that runs it (``""``: between owners, try again); None:
        there is no such table."""
        ...

    async def practice_route(self, player: str) -> Served | str | None:
        """Where ``player``'s practice socket is to go, as :meth:`route` says it (None: to
        this process, which has their practice table if they have one)."""
        ...

    def moved_away(self, table_id: str, running: Served) -> bool:
        """Whether ``running`` stopped running here meanwhile because another node took it
        (a client coming for it then goes there). One process: never."""
        ...

    def turned_away(self, exc: BaseException, table_id: str) -> bool:
        """``exc`` met while a client came for ``table_id``: True when the client is to be
        told to try again later (an expected outage, counted and logged); False when the
        exception is to be raised (one process raises every one)."""
        ...

    def info(self, everything: bool = False) -> dict[str, Any]:
        """This process's part of ``GET /api/room/node``."""
        ...

    def drains(self) -> bool:
        """Whether a SIGTERM drains this process first (several nodes: its hands end and its
        tables go to the other nodes) rather than stopping it at once."""
        ...

    def begin_drain(self, done: Callable[[], None]) -> None:
        """Drain (see :meth:`drains`), then call ``done``."""
        ...


class Fanout(Protocol):
    """What this process tells the others and hears from them."""

    def changed(self) -> None:
        """A connection came or went here (presence is said again)."""
        ...

    def presence(self) -> dict[str, Any]:
        """Who is online in the room, and at each table anyone may know of (every node's)."""
        ...

    def listing(self) -> list[dict[str, Any]]:
        """The public tables the other nodes run, for the lobby (one process: none)."""
        ...

    async def allow(self, key: str, most: int, window_s: int) -> bool:
        """A rate limit: at most ``most`` of ``key`` in ``window_s`` seconds, counted over
        every node (several) or by this process (one)."""
        ...

    async def connects(self, player: str) -> bool:
        """A table's WebSocket served to ``player``: whether it is within the connections
        one identity may open a minute over every node (one process counts none: its own
        limits are the tabs a person holds open)."""
        ...

    async def watch(self, ws: Any, table_id: str, player: str, limits: Any) -> bool:
        """Serve ``ws`` as a spectator following ``table_id``, which another node runs, its
        records relayed (until the socket closes): False, and nothing done, when this process
        relays none (one process: every table it has runs here)."""
        ...


@dataclass(frozen=True, slots=True)
class Ports:
    """The ports a room runs with, chosen once where the app is built."""

    ownership: Ownership
    fanout: Fanout
    bankroll: Bankroll
