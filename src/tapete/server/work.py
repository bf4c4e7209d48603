"""Work that must not run on the event loop: reading, replaying and pricing what a visitor sends.

The practice room's event loop deals every table. A hand history uploaded to the replayer, a
shared link or a tournament-equity question can cost seconds of pure-Python work, so it runs in
worker processes: a thread would not do, because the engine (compiled or not) holds the GIL,
and the loop would wait for it. The workers run at a lower priority than the server (``nice``),
so on a small machine the tables still come first.

* :func:`admit` takes a place for one request, or raises :class:`Busy` at once when
  ``WORKERS + QUEUE`` requests are already reading or working: the memory held by bodies and
  jobs is bounded.
* :func:`read_body` reads a request's body up to a cap: a declared Content-Length over the cap
  is refused before anything is read, and a body without one (chunked) is cut off at the cap.
* :func:`run` calls a function in a worker and waits for it without blocking the loop; a job
  that outlives its deadline is killed with its worker (:class:`TooSlow`), and a job that fails
  raises :class:`WorkerFailed` with the worker's traceback, for the log. A job's deadline counts
  the job alone, in seconds of CPU that its worker spends on it (the kernel's ``RLIMIT_CPU``,
  set afresh for each job), not in seconds of a clock: a machine whose cores are busy with
  other work (the workers run at a lower priority) makes a job wait, not fail. A worker that is
  still starting (its imports) is waited for first. A clock still stops a job that spends no
  CPU and does not end (``WALL_FACTOR`` times its deadline).
* :func:`start` (the server's start-up) starts the workers at once, each warmed (the equity
  kernels and the evaluators' tables loaded), so that a request finds one already running; a
  worker that retires or is killed is replaced the same way, in the background. Without it
  (tests, a one-off replay) a worker starts at the first job.

A worker is a fresh interpreter (``python -c "...serve()"``) that takes pickled jobs on its
standard input and answers on its standard output, each message its length and its pickle:
unlike ``multiprocessing``, it never imports the server's main script again (a script that
starts a server at import would start one in every worker). The functions given to :func:`run`
and their arguments travel by pickle: they must be importable module-level functions. Every
structure here is guarded by a thread lock, not by the event loop, so one pool serves every app
of a process (each test's app has its own loop).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import math
import os
import pickle
import signal
import struct
import subprocess
import sys
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, TypeVar

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from tapete.core.catalog import N_, t
from tapete.core.text import Text

with contextlib.suppress(ImportError):  # elsewhere than POSIX the clock alone stops a job
    import resource  # the CPU a job may spend

T = TypeVar("T")

WORKERS = max(2, min(4, (os.cpu_count() or 2) // 2))  # worker processes, at most
QUEUE = 8  # requests that may wait for a worker, beyond those being worked on
WAIT = 30.0  # seconds a job waits for a free worker before the answer is "busy"
JOBS_PER_WORKER = 200  # then the worker is replaced (what a big job grew is given back)
BODY_DEADLINE = 120.0  # seconds to receive a whole body
NICE = 10  # the workers' priority below the server's
MAX_DIGITS = 15  # digits of an amount a visitor sends (chips, prizes): a quadrillion is plenty
PRELOAD = ("tapete.server.replayer",)  # what a worker imports as it starts
STARTUP = 120.0  # seconds a worker may take to start, and to warm up (apart from any job)
WALL_FACTOR = 10.0  # a job that has not ended after this many times its deadline, on the clock,
# is stopped all the same (one that waits on something and spends no CPU)

BUSY = N_("the server is busy: try again in a moment")
TOO_SLOW = N_("this would take too long to work out")
BODY_TIMEOUT = N_("the upload took too long to arrive")
INTERNAL = N_("something went wrong on the server (it has been logged)")


class Busy(Exception):
    """Every place for work is taken."""


class TooSlow(Exception):
    """The job outlived its deadline: its worker was killed."""


class WorkerFailed(Exception):
    """The job raised in the worker (the message is the worker's traceback), or the worker
    process ended."""


class BodyTooLarge(Exception):
    """The body is, or says it is, over the cap."""


class BodyTimeout(Exception):
    """The body did not arrive in time."""


# ---------------------------------------------------------------------------- messages

_LENGTH = struct.Struct("!Q")


def _send(out: IO[bytes], obj: Any) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    out.write(_LENGTH.pack(len(data)))
    out.write(data)
    out.flush()


def _receive(src: IO[bytes]) -> Any:
    """The next message; EOFError when the other side is gone."""
    return pickle.loads(_exactly(src, _LENGTH.unpack(_exactly(src, _LENGTH.size))[0]))


def _exactly(src: IO[bytes], n: int) -> bytes:
    buf = bytearray(n)
    view = memoryview(buf)
    got = 0
    while got < n:
        k = src.readinto(view[got:])  # type: ignore[attr-defined]
        if not k:
            raise EOFError("the pipe closed")
        got += k
    return bytes(buf)


# ---------------------------------------------------------------------------- the worker side

def serve() -> None:
    """A worker's life: a job at a time from standard input, its answer to standard output,
    until standard input closes. What the job itself prints goes to standard error."""
    jobs = os.fdopen(os.dup(0), "rb")
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a stray print must not break the answers
    with open(os.devnull, "rb") as null:
        os.dup2(null.fileno(), 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the server's to handle
    with contextlib.suppress(OSError, AttributeError):
        os.nice(NICE)
    with contextlib.suppress(OSError, ValueError, NameError):
        # a job past its CPU ends the worker by SIGXCPU, which would otherwise dump a core
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    for name in PRELOAD:
        __import__(name)
    _send(answers, ("ready", None))  # a job's deadline starts now, not with the imports
    while True:
        try:
            fn, args, cpu = _receive(jobs)
        except EOFError:
            return
        except BaseException:
            reply: tuple[str, Any] = ("err", traceback.format_exc())
        else:
            _cpu_limit(cpu)
            try:
                reply = ("ok", fn(*args))
            except BaseException:
                reply = ("err", traceback.format_exc())
            _cpu_limit(None)
        try:
            _send(answers, reply)
        except OSError:
            return
        except Exception:  # the answer would not pickle
            _send(answers, ("err", traceback.format_exc()))


def _cpu_limit(seconds: float | None) -> None:
    """Let this process spend at most ``seconds`` more of CPU (None: no limit): past it the
    kernel ends it with SIGXCPU, even inside a long C call."""
    try:
        if seconds is None:
            resource.setrlimit(resource.RLIMIT_CPU, (resource.RLIM_INFINITY,
                                                     resource.RLIM_INFINITY))
            return
        used = resource.getrusage(resource.RUSAGE_SELF)
        soft = math.ceil(used.ru_utime + used.ru_stime + seconds)
        resource.setrlimit(resource.RLIMIT_CPU, (soft, resource.RLIM_INFINITY))
    except (OSError, ValueError, NameError):  # no such limit here: the clock alone stops it
        pass


# ---------------------------------------------------------------------------- the server side

_SOURCES = str(Path(__file__).resolve().parents[2])  # the folder that holds this tapete


class _Worker:
    def __init__(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(x for x in (_SOURCES, env.get("PYTHONPATH")) if x)
        self.process = subprocess.Popen(
            [sys.executable, "-P", "-c", "from tapete.server.work import serve; serve()"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        assert self.process.stdin is not None and self.process.stdout is not None
        self.jobs_in: IO[bytes] = self.process.stdin
        self.answers: IO[bytes] = self.process.stdout
        self.jobs = 0
        self.killed = False
        self.ready = False  # it said so, once its imports were done

    def wait_ready(self) -> None:
        """Wait for the worker's first message, sent once it has imported what it preloads
        (:class:`WorkerFailed` if it ends first, or takes more than ``STARTUP`` seconds)."""
        if self.ready:
            return
        timer = _deadline(self, STARTUP)
        try:
            status, _ = _receive(self.answers)
        except (EOFError, OSError) as exc:
            raise WorkerFailed(f"the worker process did not start ({exc!r})") from None
        finally:
            timer.cancel()
        if status != "ready":
            raise WorkerFailed(f"the worker process said {status!r} as it started")
        self.ready = True

    def kill(self) -> None:
        self.killed = True
        with contextlib.suppress(OSError):
            self.process.kill()

    def stop(self, kill: bool) -> None:
        if kill:
            self.kill()
        with contextlib.suppress(OSError):
            self.jobs_in.close()  # an idle worker ends on its own when its input closes
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.kill()
            self.process.wait(5)
        with contextlib.suppress(OSError):
            self.answers.close()


def _out_of_cpu(worker: _Worker) -> bool:
    """Whether the worker ended because its job spent the CPU its deadline allowed."""
    try:
        code = worker.process.wait(5)
    except subprocess.TimeoutExpired:
        return False
    return code == -getattr(signal, "SIGXCPU", -1)


def _deadline(worker: _Worker, seconds: float) -> threading.Timer:
    """A timer that kills the worker when the job outlives ``seconds``."""
    timer = threading.Timer(seconds, worker.kill)
    timer.daemon = True
    timer.start()
    return timer


class Ticket:
    """A place for one request; released once (again is a no-op)."""

    def __init__(self, pool: _Pool) -> None:
        self._pool = pool
        self._held = True

    def release(self) -> None:
        with self._pool.lock:
            if self._held:
                self._held = False
                self._pool.tickets -= 1

    def __enter__(self) -> Ticket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


class _Pool:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.tickets = 0
        self.idle: list[_Worker] = []
        self.free = threading.BoundedSemaphore(WORKERS)  # one per worker at work
        self.warm: Callable[[], Any] | None = None  # what start() asked a new worker to do
        self.started = False  # start() was called: workers are kept running, and replaced
        self.live = 0  # worker processes running (idle, at work or warming)
        self.pending = 0  # replacements asked for, not started yet
        self.spawned = 0  # worker processes ever started (stats())

    def admit(self) -> Ticket:
        with self.lock:
            if self.tickets >= WORKERS + QUEUE:
                raise Busy()
            self.tickets += 1
        return Ticket(self)

    def _spawn(self) -> _Worker:
        worker = _Worker()
        with self.lock:
            self.live += 1
            self.spawned += 1
        return worker

    def _retire(self, worker: _Worker, kill: bool) -> None:
        """Stop a worker for good; a started pool starts another in its place."""
        worker.stop(kill)
        with self.lock:
            self.live -= 1
        self._replenish()

    def _worker(self) -> _Worker:
        with self.lock:
            if self.idle:
                return self.idle.pop()
        return self._spawn()

    def start(self, warm: Callable[[], Any] | None) -> None:
        """Keep ``WORKERS`` workers running from now on, each of which has run ``warm`` (a
        module-level function) before its first job; they start in the background."""
        with self.lock:
            self.started, self.warm = True, warm
        for _ in range(WORKERS):
            self._replenish()

    def _replenish(self) -> None:
        with self.lock:
            if not self.started or self.live + self.pending >= WORKERS:
                return
            self.pending += 1
        threading.Thread(target=self._warm_one, name="tapete-work-start", daemon=True).start()

    def _warm_one(self) -> None:
        """Start a worker and warm it up, as one of the workers at work (a request meanwhile
        waits for it rather than starting another), then make it idle."""
        if not self.free.acquire(timeout=WAIT):
            with self.lock:
                self.pending -= 1
            return
        worker: _Worker | None = None
        try:
            with self.lock:
                self.pending -= 1
                if not self.started or self.live >= WORKERS:
                    return
            worker = self._spawn()
            worker.wait_ready()
            if self.warm is not None:
                timer = _deadline(worker, STARTUP)
                try:
                    _send(worker.jobs_in, (self.warm, (), None))
                    status, value = _receive(worker.answers)
                finally:
                    timer.cancel()
                if status != "ok":
                    raise WorkerFailed(str(value))
            with self.lock:
                keep = self.started and not worker.killed and len(self.idle) < WORKERS
                if keep:
                    self.idle.append(worker)
                    worker = None
        except (EOFError, OSError, WorkerFailed):
            pass  # it is retired below; the next job starts one as it would have
        finally:
            self.free.release()
            if worker is not None:
                worker.stop(kill=True)
                with self.lock:
                    self.live -= 1

    def job(self, ticket: Ticket, fn: Callable[..., Any], args: tuple[Any, ...],
            deadline: float) -> Any:
        """Run in a thread of its own: wait for a worker, hand it the job, wait for the answer
        (the GIL is released while waiting); the ticket is released whatever happens."""
        try:
            if not self.free.acquire(timeout=WAIT):
                raise Busy()
            try:
                return self._on_worker(fn, args, deadline)
            finally:
                self.free.release()
        finally:
            ticket.release()

    def _on_worker(self, fn: Callable[..., Any], args: tuple[Any, ...], deadline: float) -> Any:
        worker = self._worker()
        try:
            worker.wait_ready()  # a worker still starting: its start is not the job's time
        except WorkerFailed:
            self._retire(worker, kill=True)
            raise
        timer = _deadline(worker, deadline * WALL_FACTOR)
        ok = False
        try:
            try:
                _send(worker.jobs_in, (fn, args, deadline))
            except OSError:  # it died while idle: one fresh try
                timer.cancel()
                self._retire(worker, kill=True)
                worker = self._spawn()
                worker.wait_ready()
                timer = _deadline(worker, deadline * WALL_FACTOR)
                _send(worker.jobs_in, (fn, args, deadline))
            status, value = _receive(worker.answers)
            ok = True
        except (EOFError, OSError) as exc:
            if worker.killed or _out_of_cpu(worker):
                raise TooSlow() from None
            raise WorkerFailed(f"the worker process ended ({exc!r})") from None
        finally:
            timer.cancel()
            worker.jobs += 1
            keep = ok and not worker.killed and worker.jobs < JOBS_PER_WORKER
            if keep:
                with self.lock:
                    self.idle.append(worker)
            else:
                self._retire(worker, kill=not ok)
        if status != "ok":
            raise WorkerFailed(str(value))
        return value

    def shutdown(self) -> None:
        with self.lock:
            self.started = False
            idle, self.idle = self.idle, []
        for worker in idle:
            worker.stop(kill=False)
            with self.lock:
                self.live -= 1


_pool = _Pool()


def admit() -> Ticket:
    """A place for one request (raises :class:`Busy` when none is left); use it as a context
    manager around reading the body and :func:`run`."""
    return _pool.admit()


async def run(ticket: Ticket, fn: Callable[..., T], *args: Any, deadline: float) -> T:
    """``fn(*args)`` in a worker process; the loop only waits. The ticket passes to the job,
    which releases it when the worker is done, even if this coroutine is cancelled."""
    future: concurrent.futures.Future[T] = concurrent.futures.Future()

    def body() -> None:
        try:
            future.set_result(_pool.job(ticket, fn, args, deadline))
        except BaseException as exc:
            future.set_exception(exc)

    # a daemon thread: one waiting on a slow job never holds up the interpreter's exit
    threading.Thread(target=body, name="tapete-work", daemon=True).start()
    return await asyncio.wrap_future(future)


def start(warm: Callable[[], Any] | None = None) -> None:
    """Start the workers now, in the background, each running ``warm`` (a module-level
    function) before its first job, and keep them running until :func:`shutdown` (for the
    server's start-up: a request then finds a worker already running and warm)."""
    _pool.start(warm)


def stats() -> dict[str, int]:
    """The pool as it stands: workers ``idle`` (waiting for a job), ``live`` (running), and
    ``spawned`` (ever started in this process)."""
    with _pool.lock:
        return {"idle": len(_pool.idle), "live": _pool.live, "spawned": _pool.spawned}


def shutdown() -> None:
    """Let the idle workers go and start no more (for the app's lifespan; the daemon workers
    end with the process anyway)."""
    _pool.shutdown()


async def read_body(request: Request, cap: int, deadline: float | None = None) -> bytes:
    """The body, at most ``cap`` bytes: :class:`BodyTooLarge` before reading anything when the
    Content-Length says more, or as soon as more has come; :class:`BodyTimeout` when it takes
    longer than ``deadline`` seconds (``BODY_DEADLINE`` by default)."""
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            size = int(declared)
        except ValueError:
            size = cap + 1
        if size > cap:
            raise BodyTooLarge()
    chunks: list[bytes] = []
    total = 0
    try:
        async with asyncio.timeout(BODY_DEADLINE if deadline is None else deadline):
            async for chunk in request.stream():
                total += len(chunk)
                if total > cap:
                    raise BodyTooLarge()
                chunks.append(chunk)
    except TimeoutError:
        raise BodyTimeout() from None
    return b"".join(chunks)


def error(message: Text, status: int, *, close: bool = False) -> JSONResponse:
    """An error for the page, ``{"error": {"en": ..., "es": ...}}``; ``close``: the body was not
    read to its end, so the connection is closed after the answer (not drained)."""
    headers = {"Connection": "close"} if close else None
    return JSONResponse({"error": message.to_json()}, status_code=status, headers=headers)


def refusal(exc: Busy | TooSlow | BodyTimeout | ClientDisconnect) -> Response:
    """The answer to one of the refusals of this module (or to a visitor who left)."""
    if isinstance(exc, Busy):
        resp = error(t(BUSY), 503)
        resp.headers["Retry-After"] = "5"
        return resp
    if isinstance(exc, TooSlow):
        return error(t(TOO_SLOW), 422)
    if isinstance(exc, BodyTimeout):
        return error(t(BODY_TIMEOUT), 408, close=True)
    return Response(status_code=400)  # the client is gone: nobody reads this
