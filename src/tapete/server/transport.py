"""What one WebSocket connection may cost the server, and how it is sent its messages.

Each connection has an :class:`Outbox`, the messages waiting to be written to it. A table's
state is whole, so only the latest one matters: while a write to the connection waits for the
client to read (it reads slowly, or not at all), or once :attr:`Limits.max_states` states are
waiting, a new state replaces the newest one waiting (``put(..., state=True)``), and a slow
client gets fewer states rather than a longer queue; a client that keeps up gets every state.
The other messages (errors, pongs, hand-list updates) wait in order, up to
:attr:`Limits.max_pending` of them and :attr:`Limits.max_pending_bytes`.

Each frame is written with the server's own ASGI ``send`` (:class:`Sockets` puts it in the
scope, :data:`SEND`), not through Starlette's WebSocket and each middleware's wrapper of
``send``, which only HTTP responses concern. A client that reads several messages a frame
(``?batch=1``) has its writer woken one turn of the event loop after a message is queued: a
table queues its records in one turn and the state they call for in the next, and both go in
one frame.

A client that does not read fills its socket's buffers (the kernel's, then the event loop's
transport's), and then a write waits for it: its queue is full. The messages made for it
while one write waits are counted, a replaced state too; at :attr:`Limits.max_behind` and one
more, as past the bounds above, or when one write waits more than
:attr:`Limits.send_timeout` seconds (a quiet table makes few messages), the connection is
closed at once (1008, policy violation): what it had waiting is dropped, and its socket is
aborted (:class:`Sockets`), its buffers freed (the kernel's is bounded,
:attr:`Limits.send_buffer`), since a close frame would wait behind what
the client does not read. The other connections do not notice.

What a connection sends is metered by a token bucket (:class:`TokenBucket`): a burst of
:attr:`Limits.burst` messages and :attr:`Limits.rate` a second after it, more than any person
clicks but far less than a flood. A message past it is dropped, and the first of a run of them
is answered ``{"type": "error", "code": "rate_limited", ...}``. The dropped messages have a
bucket of their own: a client that keeps sending past the rate (:attr:`Limits.flood_close`
dropped, less :attr:`Limits.flood_forgiven` a second) is closed (1008). A binary frame is
answered with an error and a close (1003, unsupported data): the protocol is JSON text.

uvicorn does the rest itself (:meth:`Limits.uvicorn_options`, for ``uvicorn.run``): a ping
every :attr:`Limits.ping_interval` seconds and a close (1011) when no pong comes within
:attr:`Limits.ping_timeout`, frames above :attr:`Limits.max_frame` bytes refused (1009), and
text that is not UTF-8 refused (1007); :func:`quiet_uvicorn` makes its log of that last one a
single line, at most one every few seconds, instead of a traceback per frame.

Each of these closes is logged as one line, at most once every :data:`LOG_EVERY` seconds per
kind (:func:`log_throttled`), so a client cannot flood the log either.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
import weakref
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from tapete.core.catalog import N_, t
from tapete.core.text import Text
from tapete.server import protocol

log = logging.getLogger("tapete.server")

# WebSocket close codes (RFC 6455, section 7.4.1)
CLOSE_UNSUPPORTED = 1003  # a binary frame: this protocol is text
CLOSE_INVALID = 1007  # text that is not UTF-8 (uvicorn sends it)
CLOSE_POLICY = 1008  # a flood, a client too slow to read, too many tabs

LOG_EVERY = 10.0  # seconds between two log lines of one kind

RATE_LIMITED = N_("Too many messages: slow down; the last ones were not handled.")
BINARY = N_("Binary frames are not part of the protocol: send JSON text.")
TOO_MANY_TABS = N_("Too many tabs are open on this table: close one and reload.")


@dataclass(frozen=True, slots=True)
class Limits:
    """What one connection may cost (the defaults are far above what a person does)."""

    # a person clicks a few times a second; a flood sends thousands (each admitted message
    # costs the server a fraction of a millisecond: a new state, mostly)
    rate: float = 100.0  # messages a second, steady
    burst: int = 200  # messages at once, before the steady rate applies
    flood_close: int = 200  # messages dropped over the rate before the connection closes...
    flood_forgiven: float = 10.0  # ...less this many a second
    max_states: int = 8  # whole states waiting at once, at most (the newest is replaced)
    max_pending: int = 256  # messages waiting to be sent
    max_pending_bytes: int = 1 << 20  # their characters (json.dumps writes ASCII)
    # messages made for a connection while one write waits for its client to read (its
    # socket's buffers full), a replaced state too: one more and it is closed at once
    max_behind: int = 32
    # the kernel's send buffer of a connection's socket, bytes (Linux keeps twice this): left
    # to itself it grows to megabytes, minutes of a table's messages that a client that never
    # reads would hold before its queue fills. A state is a few kilobytes. None: the system's
    send_buffer: int | None = 128 * 1024
    send_timeout: float = 20.0  # seconds one write may wait for the client to read
    max_tabs: int = 8  # connections of one player at once
    ping_interval: float = 20.0  # uvicorn's keepalive ping, seconds
    ping_timeout: float = 20.0  # no pong within this: uvicorn closes (1011)
    max_frame: int = 64 * 1024  # bytes of one incoming message (1009 above it)
    # permessage-deflate: off. A state is a few kilobytes, once a second or so at a table:
    # little for any link, while compressing each message cost the server a tenth of its time
    # at 200 tables (zlib on every frame, each connection's own compressor)
    deflate: bool = False

    def uvicorn_options(self) -> dict[str, Any]:
        """The keyword arguments of ``uvicorn.run``/``uvicorn.Config`` that carry these
        limits: uvicorn's own keepalive pings and incoming size bound, and whether messages
        are compressed (permessage-deflate, :attr:`deflate`)."""
        return {"ws_ping_interval": self.ping_interval, "ws_ping_timeout": self.ping_timeout,
                "ws_max_size": self.max_frame, "ws_per_message_deflate": self.deflate}


BATCH_CHARS = 60_000  # characters of one frame of several messages, at most


def error_message(code: str, message: Text) -> str:
    """An ``error`` (:class:`~tapete.server.protocol.Error`) with no decision number."""
    return protocol.error(code, message)


# ------------------------------------------------------------------------------ the outbox
class Closing(Exception):
    """The outbox is closed: the connection is to be closed with ``code``."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(code, reason)
        self.code = code
        self.reason = reason


class _Item:
    __slots__ = ("data", "stamp", "state")

    def __init__(self, data: str, stamp: float | None, state: bool) -> None:
        self.data = data
        self.stamp = stamp
        self.state = state


class Outbox:
    """A connection's messages waiting to be sent, bounded; ``stamp`` times a click until its
    answer is sent (:attr:`tapete.server.practice.PracticeTable.latencies`)."""

    __slots__ = ("limits", "_items", "_state", "_states", "_chars", "_waiter", "_loop",
                 "close_code", "close_reason", "peak_chars", "replaced", "writing", "batch",
                 "behind", "dropped", "_nudged")

    def __init__(self, limits: Limits | None = None, *, batch: bool = False) -> None:
        self.limits = limits or Limits()
        # the client reads several messages a frame (``?batch=1``): what waits together is
        # written together, one line each (:meth:`take_more`)
        self.batch = batch
        self._items: deque[_Item] = deque()
        self._state: _Item | None = None  # the newest state, while it is waiting
        self._states = 0  # states waiting
        self._chars = 0
        # what the writer waits on while nothing waits to be sent (a bare future: an
        # asyncio.Event costs more, a loop look-up each wait)
        self._waiter: asyncio.Future[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # the writer's, once it waited
        self._nudged = False  # the writer is to be woken at the next turn of the loop
        self.close_code: int | None = None
        self.close_reason = ""
        self.peak_chars = 0  # the most characters ever waiting at once
        self.replaced = 0  # states replaced before they were sent
        self.writing = False  # a message taken by get() is still being written
        self.behind = 0  # messages made since that write began (it waits: the client reads not)
        # called when what waits is dropped (a close without flush): the connection's write
        # in progress, if any, is abandoned and its socket aborted (:func:`serve`)
        self.dropped: Callable[[], None] | None = None

    @property
    def pending_chars(self) -> int:
        return self._chars

    @property
    def pending(self) -> int:
        return len(self._items)

    @property
    def closing(self) -> bool:
        return self.close_code is not None

    def put(self, data: str, stamp: float | None = None, *, state: bool = False,
            fresh: bool = True) -> None:
        """Queue a message; ``state``: a whole state, which replaces the newest waiting one
        while the message before is still being written, or when ``max_states`` wait (its
        place too: the new state comes after what was queued since). A click's stamp waiting
        on a replaced state passes to the one that replaces it: that is its answer now.
        ``fresh``: False for a message made earlier and held back (a backlog's record,
        counted by :meth:`held` when it was made)."""
        if self.close_code is not None:
            return
        if fresh and self.writing:
            self.behind += 1
        if state:
            old = self._state
            if old is not None and (self.writing or self._states >= self.limits.max_states):
                self._items.remove(old)  # at most max_pending items: a short scan
                self._chars -= len(old.data)
                self._states -= 1
                self.replaced += 1
                if old.stamp is not None and (stamp is None or old.stamp < stamp):
                    stamp = old.stamp
        item = _Item(data, stamp, state)
        if state:
            self._state = item
            self._states += 1
        self._items.append(item)
        self._chars += len(data)
        if len(self._items) > self.limits.max_pending \
                or self._chars > self.limits.max_pending_bytes \
                or self.behind > self.limits.max_behind:
            self._full()
            return
        self.peak_chars = max(self.peak_chars, self._chars)
        if self._waiter is not None:  # the writer waits: woken (else it finds it itself)
            if not self.batch:
                self._wake_up()
            elif not self._nudged and self._loop is not None:
                # one turn of the loop later: what the same turn makes for this connection
                # is written with it, in one frame (a table's records, then the state they
                # call for, made in the next turn)
                self._nudged = True
                self._loop.call_soon(self._wake_up)

    def _wake_up(self) -> None:
        self._nudged = False
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def held(self) -> None:
        """A message made for this connection that waits elsewhere (a record behind a
        backlog, :class:`~tapete.server.session.Session`): counted as :meth:`put` counts."""
        if self.close_code is None and self.writing:
            self.behind += 1
            if self.behind > self.limits.max_behind:
                self._full()

    def _full(self) -> None:
        log_throttled("slow", "closed a connection that does not read its messages"
                      " (%d waiting, %d characters, %d made while one write waited)",
                      len(self._items), self._chars, self.behind)
        self.close(CLOSE_POLICY, "too slow to read / demasiado lento al leer")

    def close(self, code: int, reason: str, *, flush: bool = False) -> None:
        """No more messages: the connection is to close with ``code``; ``flush``: after the
        ones waiting are sent (an error that explains the close), else they are dropped."""
        if self.close_code is not None:
            return
        self.close_code = code
        self.close_reason = reason
        if not flush:
            self._items.clear()
            self._state = None
            self._states = 0
            self._chars = 0
            if self.dropped is not None:
                self.dropped()
        self._wake_up()

    async def get(self) -> tuple[str, float | None]:
        """The next message to send (the one before is written: the caller asks for the next
        only then); raises :class:`Closing` once closed and empty."""
        self.writing = False
        self.behind = 0
        while not self._items:
            if self.close_code is not None:
                raise Closing(self.close_code, self.close_reason)
            if self._loop is None:
                self._loop = asyncio.get_running_loop()
            self._waiter = self._loop.create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        self.writing = True
        return self._pop()

    def _pop(self) -> tuple[str, float | None]:
        item = self._items.popleft()
        if item is self._state:
            self._state = None
        self._states -= item.state
        self._chars -= len(item.data)
        return item.data, item.stamp

    def take_more(self, chars: int) -> list[tuple[str, float | None]]:
        """The messages waiting behind the one :meth:`get` gave, to be written with it in
        one frame: as many as come to at most ``chars`` characters (at least none)."""
        out: list[tuple[str, float | None]] = []
        while self._items and len(self._items[0].data) <= chars:
            data, stamp = self._pop()
            chars -= len(data) + 1
            out.append((data, stamp))
        return out


# ------------------------------------------------------------------------------ inbound
class TokenBucket:
    """``burst`` tokens, refilled at ``rate`` a second; each message takes one."""

    __slots__ = ("rate", "burst", "tokens", "stamp", "clock")

    def __init__(self, rate: float, burst: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.clock = clock
        self.stamp = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Inbound:
    """The receive side's rules for one connection: what it sent that the table is to
    handle, and what is refused (with an error queued in its outbox, and maybe a close)."""

    __slots__ = ("box", "limits", "bucket", "patience", "refusing", "dropped")

    def __init__(self, box: Outbox, limits: Limits | None = None) -> None:
        self.box = box
        self.limits = limits = limits or box.limits
        self.bucket = TokenBucket(limits.rate, limits.burst)
        self.patience = TokenBucket(limits.flood_forgiven, limits.flood_close)
        self.refusing = False  # the last message was dropped
        self.dropped = 0

    def admit(self, message: dict[str, Any]) -> str | None:
        """The text of an ASGI ``websocket.receive`` message to handle, or None."""
        text = message.get("text")
        if not isinstance(text, str):  # a binary frame
            log_throttled("binary", "closed a connection that sent a binary frame")
            self.box.put(error_message("binary", t(BINARY)))
            self.box.close(CLOSE_UNSUPPORTED, "text frames only / solo marcos de texto",
                           flush=True)
            return None
        if self.bucket.take():
            self.refusing = False
            return text
        self.dropped += 1
        if not self.refusing:  # the first of a run of dropped messages is explained
            self.refusing = True
            self.box.put(error_message("rate_limited", t(RATE_LIMITED)))
        if not self.patience.take():
            log_throttled("flood", "closed a connection that kept flooding (%d messages"
                          " dropped over the rate limit)", self.dropped)
            self.box.put(error_message("rate_limited", t(RATE_LIMITED)))
            self.box.close(CLOSE_POLICY, "too many messages / demasiados mensajes",
                           flush=True)
        return None


# ------------------------------------------------------------------------------ serving
class Socket(Protocol):
    """What :func:`serve` needs of Starlette's WebSocket."""

    async def receive(self) -> Any: ...

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


async def serve(ws: Socket, box: Outbox, handle: Callable[[str], None],
                sent: Callable[[float | None], None] | None = None) -> None:
    """Read and write one accepted connection until either side ends it: messages the
    :class:`Inbound` rules admit go to ``handle``; ``sent`` is told each message's stamp as
    it is written."""
    limits = box.limits
    inbound = Inbound(box, limits)
    loop = asyncio.get_running_loop()

    async def reader() -> None:
        while not box.closing:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = inbound.admit(message)
            if text is not None:
                handle(text)
                # uvicorn hands over every frame that came in one read at once: let the
                # writer and the other connections run between two messages
                await asyncio.sleep(0)

    # when the write in progress began (None: none is): a write the client does not read
    # for send_timeout seconds closes the connection. One watch for all the connections of
    # a loop (:class:`_SlowWrites`), not a timer a write nor a task a connection: a write the
    # client has room for is done before anything else runs
    watched = _Watched(box, ws)
    box.dropped = watched.drop

    write = _writer(ws)

    async def writer() -> None:
        try:
            while True:
                data, stamp = await box.get()
                more = box.take_more(BATCH_CHARS - len(data)) if box.batch else ()
                if more:
                    data = "\n".join([data, *(d for d, _ in more)])
                watched.started = loop.time()
                await write(data)
                watched.started = None
                if sent is not None:
                    sent(stamp)
                    for _, later in more:
                        sent(later)
        except Closing as c:
            watched.started = loop.time()  # the close frame may wait for the client too
            with contextlib.suppress(Exception):
                await ws.close(c.code, c.reason)

    read = loop.create_task(reader())
    writing = watched.write = loop.create_task(writer())
    sweep = _SlowWrites.of(loop, limits.send_timeout)
    sweep.add(watched)
    try:
        done, _ = await asyncio.wait({read, writing}, return_when=asyncio.FIRST_COMPLETED)
        if read in done and box.closing:  # refused: the writer explains and closes
            await _settle(writing, 2 * limits.send_timeout)
    finally:
        sweep.discard(watched)
        box.dropped = None
        for task in (read, writing):
            task.cancel()
        for task in (read, writing):
            with contextlib.suppress(asyncio.CancelledError):
                try:
                    await task
                except (WebSocketDisconnect, RuntimeError):  # the client is gone
                    pass
                except Exception as exc:  # a bug: its traceback, but not one per message
                    log_throttled("bug", "a connection ended on %s", type(exc).__name__,
                                  exc_info=exc)


def _writer(ws: Socket) -> Callable[[str], Awaitable[None]]:
    """How a text frame is written to ``ws``: straight to the server's own ASGI ``send``
    (:data:`SEND`, which :class:`Sockets` puts in the scope) when it has one, past the
    middlewares' wrappers of ``send`` (they see only HTTP responses) and Starlette's
    per-message checks; else ``ws.send_text``. Each message is a dict of its own: a server
    may keep it after its ``send`` returns (Starlette's test client queues it). A client
    gone is :class:`WebSocketDisconnect`, as Starlette says it."""
    scope = getattr(ws, "scope", None)
    send = scope.get(SEND) if isinstance(scope, dict) else None
    if send is None:
        return ws.send_text

    async def write(data: str) -> None:
        try:
            await send({"type": "websocket.send", "text": data})
        except OSError:  # the server's ClientDisconnected
            raise WebSocketDisconnect(code=1006) from None

    return write


class _Watched:
    """One connection, as the slow-write watch sees it: when its write in progress began."""

    __slots__ = ("box", "started", "write", "abort")

    def __init__(self, box: Outbox, ws: Socket) -> None:
        self.box = box
        self.started: float | None = None
        self.write: asyncio.Task[None] | None = None
        scope = getattr(ws, "scope", None)
        self.abort: Callable[[], None] | None = \
            scope.get(ABORT) if isinstance(scope, dict) else None

    def drop(self) -> None:
        """What waits was dropped: a write that waits for the client (who does not read) is
        abandoned, and the socket aborted: its buffers go at once, with no close frame (it
        would wait behind them). A connection not stuck in a write is closed as usual."""
        if self.started is None:
            return
        if self.abort is not None:
            self.abort()  # the write ends: the server sees the connection lost
        elif self.write is not None:
            self.write.cancel()


class _SlowWrites:
    """The watch over the writes of every connection of one event loop that share a
    ``send_timeout``: one task, waking every quarter of it while a connection is open, that
    closes (1008) each connection whose write has waited longer for its client to read. A
    few thousand idle connections cost one wake-up, not thousands."""

    _all: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[float, _SlowWrites]] = \
        weakref.WeakKeyDictionary()

    def __init__(self, loop: asyncio.AbstractEventLoop, timeout: float) -> None:
        self.loop = loop
        self.timeout = timeout
        self.watched: set[_Watched] = set()
        self.task: asyncio.Task[None] | None = None

    @classmethod
    def of(cls, loop: asyncio.AbstractEventLoop, timeout: float) -> _SlowWrites:
        by_timeout = cls._all.setdefault(loop, {})
        got = by_timeout.get(timeout)
        if got is None:
            got = by_timeout[timeout] = cls(loop, timeout)
        return got

    def add(self, watched: _Watched) -> None:
        self.watched.add(watched)
        if self.task is None or self.task.done():
            self.task = self.loop.create_task(self._run())

    def discard(self, watched: _Watched) -> None:
        self.watched.discard(watched)
        if not self.watched and self.task is not None:  # nothing to watch: no task left
            self.task.cancel()
            self.task = None

    async def _run(self) -> None:
        while self.watched:
            await asyncio.sleep(self.timeout / 4)
            now = self.loop.time()
            for w in [w for w in self.watched
                      if w.started is not None and now - w.started > self.timeout]:
                if not w.box.closing:
                    log_throttled("slow", "closed a connection that has not read for %g s",
                                  self.timeout)
                    w.box.close(CLOSE_POLICY, "too slow to read / demasiado lento al leer")
                w.drop()  # (again, if the close dropped it: a close frame can wait too)
                self.watched.discard(w)


# ------------------------------------------------------------------------------ sockets
ABORT = "tapete.abort"  # a WebSocket scope's key: its socket's abort, when the server has one
SEND = "tapete.send"  # a WebSocket scope's key: the server's own send, under the middlewares'


class Sockets:
    """ASGI middleware, outermost, for each WebSocket's socket: its kernel send buffer is
    bounded (:attr:`Limits.send_buffer`), and its scope gets the socket's ``abort`` (under
    :data:`ABORT`), so that a connection whose client does not read can be let go at once
    (:meth:`_Watched.drop`). ASGI has no message for either: a close frame waits behind what
    the client has not read, and a graceful close of the socket waits for it to read it all.
    The socket is the asyncio transport's, found on uvicorn's protocol (the object whose
    method ``send`` is); under a server without one, a connection is closed as before."""

    def __init__(self, app: ASGIApp, send_buffer: int | None = None) -> None:
        self.app = app
        self.send_buffer = send_buffer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            transport = getattr(getattr(send, "__self__", None), "transport", None)
            abort = getattr(transport, "abort", None)
            scope = {**scope, SEND: send}  # the frames are written with it (:func:`serve`)
            if callable(abort):
                scope[ABORT] = abort
            if self.send_buffer and transport is not None:
                with contextlib.suppress(Exception):  # no socket (a test's transport)
                    transport.get_extra_info("socket").setsockopt(
                        socket.SOL_SOCKET, socket.SO_SNDBUF, self.send_buffer)
        await self.app(scope, receive, send)


async def _settle(task: asyncio.Task[None], timeout: float) -> None:
    """Wait for ``task`` to end, however it ends, at most ``timeout`` seconds."""
    await asyncio.wait({task}, timeout=timeout)


# ------------------------------------------------------------------------------ logging
_last_logged: dict[str, tuple[float, int]] = {}


def log_throttled(kind: str, msg: str, *args: object,
                  exc_info: BaseException | None = None) -> None:
    """One warning line, at most once every :data:`LOG_EVERY` seconds for each ``kind``;
    the next one says how many were left out."""
    now = time.monotonic()
    last, skipped = _last_logged.get(kind, (-LOG_EVERY, 0))
    if now - last < LOG_EVERY:
        _last_logged[kind] = (last, skipped + 1)
        return
    _last_logged[kind] = (now, 0)
    if skipped:
        msg += f" (and {skipped} more in the last {now - last:.0f} s)"
    log.warning(msg, *args, exc_info=exc_info)


class _OneLine(logging.Filter):
    """uvicorn logs each text frame that is not UTF-8 with a traceback (its
    ``logger.exception``) before it closes the connection (1007): one line instead, at most
    once every :data:`LOG_EVERY` seconds."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith("Invalid UTF-8"):
            return True
        record.exc_info = None
        record.exc_text = None
        now = time.monotonic()
        last, skipped = _last_logged.get("utf-8", (-LOG_EVERY, 0))
        if now - last < LOG_EVERY:
            _last_logged["utf-8"] = (last, skipped + 1)
            return False
        _last_logged["utf-8"] = (now, 0)
        record.msg = "closed a connection that sent text that is not UTF-8 (1007)" + (
            f" (and {skipped} more in the last {now - last:.0f} s)" if skipped else "")
        record.args = None
        return True


def quiet_uvicorn() -> None:
    """Install :class:`_OneLine` on uvicorn's error log (once; uvicorn's logging
    configuration keeps a logger's filters)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _OneLine) for f in logger.filters):
        logger.addFilter(_OneLine())
