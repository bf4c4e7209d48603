"""The event log written off the event loop, with group commit.

One event loop runs every table of a process. A table's records must be stored before anyone
is told of them (room/table.py), and a store is a transaction: made on the loop, each command
of each table waited there for its own commit. :class:`GroupWriter` is one thread that stores
the records instead: a table's owner (:class:`~tapete.room.table.TableOwner`) runs a command,
hands its records to the writer (:meth:`GroupWriter.submit`) and awaits them, while the loop
runs the other tables. Whatever the tables handed over while the writer's last transaction
was committing goes into its next one (:meth:`EventLog.append_group
<tapete.room.log.EventLog.append_group>`): many tables' records, one transaction, one commit.
A table whose batch is refused (its lease moved on, another writer of its log) fails alone;
the others are stored.

What a command tells anyone (its records to the subscribers, the caller's answer, the states,
the hooks) waits for its :class:`Ticket`: told once stored, never before
(:meth:`RoomTable._stored <tapete.room.table.RoomTable._stored>`). Code that runs a table with
no loop (tests, the command line, tools) keeps storing each command at once
(:meth:`EventLog.append <tapete.room.log.EventLog.append>`); the app chooses the writer once,
where it builds the room.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading

from tapete.room.log import Append, EventLog


class Ticket:
    """One table's batch handed to the writer: ``error`` once ``done`` (None: stored). The
    owner awaits ``future``; code outside the loop's turn (a command run outside the owner, a
    record that moves money) waits on ``done``."""

    __slots__ = ("append", "done", "error", "future")

    def __init__(self, append: Append, loop: asyncio.AbstractEventLoop) -> None:
        self.append = append
        self.done = threading.Event()
        self.error: Exception | None = None
        self.future: asyncio.Future[None] = loop.create_future()

    def wait(self) -> Exception | None:
        """Block until the writer has answered (it needs nothing of the loop to do so)."""
        self.done.wait()
        return self.error


def _answer(tickets: list[Ticket]) -> None:
    for ticket in tickets:
        if not ticket.future.done():
            ticket.future.set_result(None)


class GroupWriter:
    """The thread that stores every table's records, a group of tables' batches at a time
    (see the module's docstring). ``groups`` and ``batches`` count what it committed."""

    def __init__(self, log: EventLog) -> None:
        self.log = log
        self._queue: list[Ticket] = []
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False
        self.groups = 0  # transactions
        self.batches = 0  # tables' batches in them

    def submit(self, append: Append) -> Ticket:
        """Queue a table's batch for the next transaction (called on the loop)."""
        ticket = Ticket(append, asyncio.get_running_loop())
        with self._cond:
            if self._closed:
                raise RuntimeError("the log's writer is closed")
            self._queue.append(ticket)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="tapete-log-writer",
                                                daemon=True)
                self._thread.start()
            self._cond.notify()
        return ticket

    def close(self, timeout: float = 10.0) -> None:
        """Store what is queued, then stop the thread."""
        with self._cond:
            self._closed = True
            self._cond.notify()
            thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._queue and not self._closed:
                    self._cond.wait()
                if not self._queue:
                    return
                tickets, self._queue = self._queue, []
            try:
                errors = self.log.append_group([t.append for t in tickets])
            except Exception as exc:  # pragma: no cover - append_group answers per batch
                errors = [exc] * len(tickets)
            self.groups += 1
            self.batches += len(tickets)
            loops: dict[asyncio.AbstractEventLoop, list[Ticket]] = {}
            for ticket, error in zip(tickets, errors, strict=True):
                ticket.error = error
                ticket.done.set()
                loops.setdefault(ticket.future.get_loop(), []).append(ticket)
            for loop, answered in loops.items():
                with contextlib.suppress(RuntimeError):  # a loop closed: nobody awaits
                    loop.call_soon_threadsafe(_answer, answered)
