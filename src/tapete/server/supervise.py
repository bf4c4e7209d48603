"""The server's background tasks, kept alive through the faults a room on several nodes expects.

A node's rounds, its lease renewals, its Redis subscription, the relay of records and the
feeding of each watcher (server/cluster.py, server/fanout.py), the app's heap tending: each is
a task of :class:`Tasks`, never a bare ``create_task``. What they meet:

- **An expected fault** (:func:`fault_kind`): the database unreachable (``storage_unavailable``:
  PostgreSQL restarting, a connection cut), Redis unreachable (``redis_unavailable``), a write
  refused because the node's lease moved on (``fenced``). It is counted by kind
  (:class:`Faults`, shown by ``GET /api/room/node`` as ``faults``) and logged as one line, no
  traceback, at most one every few seconds a kind (:func:`~tapete.server.transport.
  log_throttled`). The task retries with a capped, jittered backoff (:class:`Backoff`) and
  says so once when it works again.
- **Anything else** is a bug: logged once with its traceback. A task meant to run for the
  process's life (:meth:`Tasks.keep`) is then started again after a backoff (counted,
  ``task_restarts``), never silently lost; a one-off task (:meth:`Tasks.spawn`, a publish
  nobody awaits) has its exception retrieved, so no "Task exception was never retrieved".
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Coroutine
from typing import Any

from tapete.room.errors import Fenced, Unavailable
from tapete.room.log import storage_down
from tapete.room.ports import FaultLog
from tapete.server.transport import log_throttled

log = logging.getLogger("tapete.server")

FENCED = "fenced"
STORAGE = "storage_unavailable"
REDIS = "redis_unavailable"
RESTARTS = "task_restarts"
FAILURES = "task_failures"  # a one-off task that failed unexpectedly (a bug: its traceback)
KINDS = (FENCED, STORAGE, REDIS, RESTARTS, FAILURES)


def fault_kind(exc: BaseException) -> str | None:
    """The kind of an expected fault (None: not one, a bug): a write fenced off, Redis or the
    database out of reach (the latter as the table's log judges it, :func:`storage_down`)."""
    if isinstance(exc, Fenced):
        return FENCED
    if isinstance(exc, Unavailable):  # a table's store that met the database down
        return STORAGE
    try:
        import redis.exceptions as redis_exc
    except ImportError:  # pragma: no cover - one node, no Redis
        pass
    else:
        if isinstance(exc, (redis_exc.ConnectionError, redis_exc.TimeoutError)):
            return REDIS
    if storage_down(exc):
        return STORAGE
    try:
        import psycopg
    except ImportError:  # pragma: no cover - SQLite only
        pass
    else:
        if isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError)):
            return STORAGE
    return None


class Faults:
    """The expected faults met, counted by kind, each one line in the log."""

    def __init__(self, name: str = "") -> None:
        self.name = name  # the node's id, for the log lines
        self.counts: dict[str, int] = dict.fromkeys(KINDS, 0)
        self._down: set[str] = set()  # what is failing now (a task, a table...)

    def count(self, kind: str) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1

    def expected(self, exc: BaseException, what: str, *args: object,
                 kind: str | None = None) -> bool:
        """``exc`` met doing ``what``: counted and logged as one line if it is an expected
        fault (``kind``: its kind, when the caller knows better, e.g. any OSError from
        Redis), and True; False (nothing done) for anything else."""
        kind = fault_kind(exc) or kind
        if kind is None:
            return False
        self.count(kind)
        log_throttled(f"{self.name}:{kind}", f"{self._prefix()}{what}: %s (%s: %s)", *args,
                      kind, type(exc).__name__, _first_line(exc))
        return True

    def failed(self, exc: BaseException, key: str, what: str, *args: object,
               kind: str | None = None) -> None:
        """``key`` (a task, a loop) failed doing ``what``: an expected fault is one line,
        the first of a run of them (:meth:`back` says when it works again); anything else
        is logged with its traceback, each time (a bug)."""
        if fault_kind(exc) is None and kind is None:
            log.error(f"{self._prefix()}{what} failed", *args, exc_info=exc)
            return
        if key in self._down:
            self.count(fault_kind(exc) or kind or STORAGE)
            return
        self._down.add(key)
        self.expected(exc, what, *args, kind=kind)

    def back(self, key: str, what: str, *args: object) -> None:
        """``key`` works again (one line, only after :meth:`failed`)."""
        if key in self._down:
            self._down.discard(key)
            log.warning(f"{self._prefix()}{what}: working again", *args)

    def _prefix(self) -> str:
        return f"node {self.name}: " if self.name else ""


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else ""


class Backoff:
    """Capped exponential backoff with jitter: ``first`` seconds, doubling up to ``cap``,
    each wait drawn between half of it and all of it (so many nodes and tasks that met one
    outage do not all knock at once when it ends)."""

    def __init__(self, first: float = 0.1, cap: float = 5.0,
                 rng: random.Random | None = None) -> None:
        self.first = first
        self.cap = cap
        self.rng = rng or random.Random()
        self.tries = 0

    def next(self) -> float:
        """The next wait, seconds."""
        ceiling = min(self.cap, self.first * 2.0 ** min(self.tries, 30))
        self.tries += 1
        return ceiling * (0.5 + 0.5 * self.rng.random())

    def reset(self) -> None:
        self.tries = 0

    async def sleep(self) -> None:
        await asyncio.sleep(self.next())


class Tasks:
    """A process's (a node's) background tasks, supervised (see the module's docstring)."""

    def __init__(self, faults: FaultLog | None = None) -> None:
        self.faults: FaultLog = faults or Faults()
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Coroutine[Any, Any, Any], what: str = "a background task"
              ) -> asyncio.Task[Any] | None:
        """Run ``coro`` once, in the background: its failure is retrieved and logged (an
        expected fault: one line, counted), never left for the garbage collector to find.
        None when no loop runs (``coro`` is closed)."""
        try:
            task = asyncio.get_running_loop().create_task(coro)
        except RuntimeError:
            coro.close()
            return None
        self._tasks.add(task)
        task.add_done_callback(lambda done: self._reap(done, what))
        return task

    def _reap(self, task: asyncio.Task[Any], what: str) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        exc = task.exception()
        if exc is None or self.faults.expected(exc, "%s failed", what):
            return
        self.faults.count(FAILURES)
        log.error("%s failed", what, exc_info=exc)

    def keep(self, factory: Callable[[], Coroutine[Any, Any, Any]], what: str,
             backoff: Backoff | None = None) -> asyncio.Task[None]:
        """Run ``factory()`` until it returns (a node's loops never do; a watcher's feed, when
        its connection closes) or is cancelled: if it dies of anything else, that is logged
        once (its traceback; an expected fault, one line) and counted (``task_restarts``),
        and it is started again after a backoff."""
        task = asyncio.get_running_loop().create_task(self._keep(factory, what,
                                                                 backoff or Backoff()))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _keep(self, factory: Callable[[], Coroutine[Any, Any, Any]], what: str,
                    backoff: Backoff) -> None:
        loop = asyncio.get_running_loop()
        while True:
            started = loop.time()
            try:
                await factory()
                return
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not self.faults.expected(exc, "%s stopped", what):
                    log.error("%s died: started again", what, exc_info=exc)
            self.faults.count(RESTARTS)
            if loop.time() - started > 10 * backoff.cap:  # it ran a good while: afresh
                backoff.reset()
            await backoff.sleep()

    async def stop(self) -> None:
        """Cancel every task and wait for them to end."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
