"""One WebSocket connection to one table: the one session every kind of table is served by.

A practice table, a room table, a home game, a sit-and-go and a tournament's table are all
reached through :class:`Session` (``/ws/t/{table}``; ``/ws`` is the person's own practice
table, or their lobby while they have none). A session:

- parses each message into the protocol's typed model (:func:`tapete.server.protocol.parse`
  at the practice door, :func:`~tapete.server.protocol.parse_room` at a room table: the
  messages each door accepts), and refuses anything else with an ``error`` that changes
  nothing;
- hands each command to the table's owner (:meth:`TableOwner.submit`), as a job built once,
  by :func:`table_job`, for every kind of table (a practice table's policy checks and
  completes it first: :meth:`PracticeTable.job`); nothing else changes the table;
- keeps the person's pre-action (check/fold, call any) on the table (``Running.pre``: one per
  person, whichever tab chose it) and plays it when their turn comes (:func:`play_pre`);
- sends the table's ``state`` as its viewer sees it (a newer state replaces one not yet sent)
  and, when the client asks (``?records=1``), every record of the table's log it may see.

A table this process runs is a :class:`Running` (its owner, its sessions, what its states
share), defined here, below the room that opens it. At the practice door the session reaches
the person as a :class:`Person` (``server/hub.py``'s ``Player``), and a room table's states
are made with the sections the session is given (``part``): this module imports neither the
room nor the hub.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from tapete.core.actions import Action
from tapete.core.catalog import N_, t
from tapete.core.errors import HandError
from tapete.core.text import Text
from tapete.room.errors import Refused
from tapete.server import protocol
from tapete.server.protocol import (
    Act,
    AddChips,
    Chat,
    ClientMessage,
    HostAction,
    Leave,
    Ping,
    Pre,
    Propose,
    RoomMessage,
    SitIn,
    SitOut,
    Straddle,
    TakeSeat,
    Vote,
    parse,
    parse_room,
)
from tapete.server.state import Sections, TableViews, table_state
from tapete.server.transport import Outbox

if TYPE_CHECKING:
    from tapete.room.table import RoomTable, TableOwner

log = logging.getLogger("tapete.server")
# the last record message encoded, and its text (see Session.send)
_encoded: list[Any] = [None, ""]
_LAST_TRACEBACK = [-1e9]  # when a failed message's traceback was last logged
NO_SPECTATORS = N_("The host has closed the table to spectators.")
CLOSE_NO_SPECTATORS = 4403
# what a host's message may carry, by field of the protocol's HostAction
HOST_ARGS = ("request", "seat_number", "on", "now", "chips", "changes", "allowed", "chat")
Job = Callable[[], Any]


@dataclass(eq=False)
class Running:
    """A table this process owns: the table, its owner task, its connections."""

    table: RoomTable
    owner: TableOwner
    task: asyncio.Task[None] | None = None
    connections: set[Session] = field(default_factory=set)
    bots: dict[str, str] = field(default_factory=dict)  # bot player id -> style
    # each person's pre-action (check/fold, call any), whichever tab chose it: played once
    # when their turn comes, by whichever tab's state comes first, and kept across reconnects
    pre: dict[str, str] = field(default_factory=dict)
    # what its states share, made again only when it changes (server/state.py)
    views: TableViews = field(default_factory=TableViews)
    joined: int = 0  # the connections' version: one more each time one comes or goes
    # each person's connections here: a new one is checked and counted without going
    # through them all (a connection's own work does not grow with the table's)
    tabs: Counter[str] = field(default_factory=Counter)
    # since when (time.monotonic()) no person has been seated, as Room.sweep last saw it
    idle_since: float | None = field(default_factory=time.monotonic)

    def join(self, conn: Session) -> None:
        if conn not in self.connections:
            self.connections.add(conn)
            self.tabs[conn.player or ""] += 1
        self.joined += 1

    def part(self, conn: Session) -> None:
        if conn in self.connections:
            self.connections.discard(conn)
            self.tabs[conn.player or ""] -= 1
            if self.tabs[conn.player or ""] <= 0:
                del self.tabs[conn.player or ""]
        self.joined += 1

    def hands_per_hour(self) -> int:
        """Hands an hour over the last hands (0 until two were dealt)."""
        starts = self.table.hand_starts
        if len(starts) < 2:
            return 0
        span = starts[-1] - starts[0]
        return int(3_600_000 * (len(starts) - 1) / span) if span > 0 else 0


class Practice(Protocol):
    """The person's practice table (``server/practice.py``'s ``PracticeTable``), as the
    sessions at their door reach it."""

    @property
    def running(self) -> Running:
        ...

    @property
    def seq(self) -> int | None:
        """The person's decision now, as the page numbers it."""
        ...

    @property
    def latencies(self) -> list[float]:
        ...

    def changed(self) -> None:
        """Something the page shows changed: every tab is sent the state."""
        ...


class Person(Protocol):
    """The person at the practice door (``server/hub.py``'s ``Player``): their lobby and
    their practice table, which every tab of theirs shares."""

    @property
    def game(self) -> Practice | None:
        ...

    def need_game(self) -> Practice:
        """Their practice table (refused when they have none)."""
        ...

    def send_state(self) -> None:
        """Every tab of theirs is sent the state (the table's, or the lobby's)."""
        ...

    def command(self, msg: ClientMessage | RoomMessage, stamp: float
                ) -> tuple[Running, Job] | None:
        """A message at their door: done by the lobby, or the job for their table's owner."""
        ...


def table_job(running: Running, player: str, msg: Any, turn: int | None = None) -> Job:
    """The owner's job for a command of ``player``'s at ``running``'s table (any kind of
    table): it reads the table when it runs, so a command queued while the table was rebuilt
    from its log runs at the rebuilt one. ``turn``: the decision an ``act`` is for, when the
    table numbers its decisions on the page otherwise (the practice table's)."""
    if isinstance(msg, Act):
        try:
            action = Action.from_wire({"action": msg.action} if msg.amount is msgspec.UNSET
                                      else {"action": msg.action, "amount": msg.amount})
        except HandError as exc:
            raise Refused(exc.message, "malformed") from None
        seq = msg.seq if turn is None else turn
        return lambda: running.table.act(player, seq, action)
    if isinstance(msg, TakeSeat):
        seat = None if msg.seat_number is msgspec.UNSET else msg.seat_number
        return lambda: running.table.sit(player, msg.name, msg.buy_in, seat)
    if isinstance(msg, AddChips):
        return lambda: running.table.add_chips(player, msg.amount)
    if isinstance(msg, SitOut):
        return lambda: running.table.sit_out(player)
    if isinstance(msg, SitIn):
        return lambda: running.table.sit_in(player, msg.post)
    if isinstance(msg, Leave):
        return lambda: running.table.leave(player)
    if isinstance(msg, HostAction):
        args = {("seat" if k == "seat_number" else k): getattr(msg, k) for k in HOST_ARGS
                if getattr(msg, k) is not msgspec.UNSET}
        return lambda: running.table.host_command(player, msg.action, args)
    if isinstance(msg, Chat):
        return lambda: running.table.say(player, msg.text)
    if isinstance(msg, Vote):
        return lambda: running.table.vote(player, msg.vote, msg.yes)
    if isinstance(msg, Propose):
        return lambda: running.table.propose(player, msg.kind)
    if isinstance(msg, Straddle):
        return lambda: running.table.ask_straddle(player, msg.on)
    raise Refused(t("Unknown message type {kind}.", kind=repr(type(msg).__name__)),
                  "malformed")  # pragma: no cover - the parsers know only the above


def play_pre(running: Running, player: str,
             done: Callable[[asyncio.Future[Any]], None] | None = None) -> bool:
    """Play ``player``'s pre-action when their turn has come (check/fold: check when free,
    else fold; call any: check or call whatever it costs), once: it is queued for the
    table's owner and forgotten. False: no pre-action, or not their turn."""
    rt = running.table
    hand = rt.hand
    chosen = running.pre.get(player)
    if chosen is None or hand is None or hand.actor is None or rt.turn_seq is None \
            or rt.hand_players[hand.actor] != player:
        return False
    legal = hand.legal()
    action = Action.check_or_call(legal) if chosen == "call_any" else \
        Action.check() if legal.check else Action.fold()
    del running.pre[player]
    seq = rt.turn_seq
    future = running.owner.submit(lambda: rt.act(player, seq, action))
    if future is not None and done is not None:
        future.add_done_callback(done)
    return True


class Session:
    """One client at one table: a room table's :class:`~tapete.room.table.Subscriber` (its
    records go to the outbox), or a tab at the person's practice door (``person``: their
    lobby and practice table, whose policy tells every tab of theirs). ``player`` is its
    identity (a spectator's too: watching, it has no seat)."""

    def __init__(self, box: Outbox, player: str, *, part: Sections | None = None,
                 running: Running | None = None, person: Person | None = None,
                 records: bool = False, every_state: bool = True) -> None:
        self.box = box
        self._player = player
        self.part = part  # a room table's sections of its states (server/rooms.py's RoomPart)
        self.running = running  # a room table's session; None at the practice door
        self.person = person
        self.records = records
        # False (``?records=1&states=turn``): the records tell the client what happens, and a
        # state comes only where it concerns the viewer (see _concerns)
        self.every_state = every_state or not records
        self._scheduled = False
        self._shown: tuple[RoomTable, int] | None = None  # the table and seq of its last state
        # records wait here until the outbox has room: a client that comes back after
        # hundreds of records (or reads the whole log, after=0) gets them all, in order,
        # without filling its outbox (drain); None once the backlog is sent
        self._backlog: deque[str] | None = deque() if records else None

    @property
    def player(self) -> str | None:
        return self._player

    def table(self) -> Running:
        """The table this session's commands go to (at the practice door: the person's
        practice table; refused when they have none)."""
        if self.running is not None:
            return self.running
        assert self.person is not None
        return self.person.need_game().running

    # ------------------------------------------------------------------ records (room tables)
    # the table calls this for every record, inside its command: the state follows once
    def send(self, message: dict[str, Any]) -> None:
        assert self.running is not None
        if message["kind"] in ("end", "void"):  # a pre-action was for the hand that ended
            self.running.pre.pop(self._player, None)
        if self.records:
            # the table hands the subscribers that see a record alike the same message:
            # encoded once for all of them
            if _encoded[0] is message:
                data = _encoded[1]
            else:
                data = protocol.record(message["table"], message["seq"], message["kind"],
                                       message["data"])
                _encoded[:] = message, data
            if self._backlog is not None:
                self._backlog.append(data)
                self.box.held()  # made now: it counts while a write waits (transport.py)
            else:
                self.box.put(data)
        if message["kind"] == "host" and message["data"]["action"] == "spectators" and \
                not message["data"]["allowed"] and \
                self.running.table.seat_of(self._player) is None:
            # the host closed the table to spectators: this one is told and let go
            self.box.put(protocol.error("no_spectators", t(NO_SPECTATORS)))
            self.box.close(CLOSE_NO_SPECTATORS, "no spectators", flush=True)
            return
        if self.every_state or self._concerns(message):
            self.schedule_state()

    def _concerns(self, message: dict[str, Any]) -> bool:
        """A record after which a client that asked for ``states=turn`` is sent a state: its
        own decision (a ``turn`` at its seat), a hand's end (or void), a record about its
        seat (``yours``)."""
        assert self.running is not None
        kind = message["kind"]
        if kind in ("end", "void"):
            return True
        data = message["data"]
        if kind == "turn":
            return bool(data["seat"] == self.running.table.seat_of(self._player))
        return bool(data.get("yours"))

    async def drain(self) -> None:
        """Send the backlog of records as fast as the client reads them, then every record
        as it comes."""
        backlog = self._backlog
        if backlog is None:
            return
        room = max(1, self.box.limits.max_pending // 2)
        while backlog:
            while self.box.pending >= room and not self.box.closing:
                await asyncio.sleep(0.005)
            if self.box.closing:
                return
            while backlog and self.box.pending < room:
                self.box.put(backlog.popleft(), fresh=False)  # counted when it was made
        self._backlog = None

    # ------------------------------------------------------------------ states
    def schedule_state(self) -> None:
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._send_state)

    def _send_state(self) -> None:
        self._scheduled = False
        if self.box.closing:
            return
        if self.person is not None:  # the practice door: every tab of the person is told
            self.person.send_state()
            return
        running = self.running
        assert running is not None
        if running.table.unstored:  # ahead of its log (group commit): the state waits for it
            running.table.when_stored(self.schedule_state)
            return
        self.send_state()
        seq = running.table.turn_seq
        play_pre(running, self._player, lambda f: self._done(f, seq))

    def send_state(self, data: str | None = None, stamp: float | None = None) -> None:
        """Send the table's ``state`` as this session's viewer sees it: ``data`` when it was
        made and encoded once for every tab of the viewer (the practice table's, the lobby's,
        with ``stamp``: when the action it answers came), else made now by the one state
        builder (server/state.py)."""
        if self.box.closing:
            return
        if data is None:
            running = self.running
            assert running is not None and self.part is not None
            self._shown = (running.table, running.table.seq)
            data = protocol.encode(table_state(running, self._player, self.part))
        self.box.put(data, stamp, state=True)

    # ------------------------------------------------------------------ messages
    def handle(self, raw: str) -> None:
        """A message from the client: parsed here, run by the table's owner, in order."""
        stamp = time.perf_counter()
        seq: int | None = None
        try:
            msg: ClientMessage | RoomMessage = parse(raw) if self.person is not None \
                else parse_room(raw)
            if isinstance(msg, Act):
                seq = msg.seq
            self.dispatch(msg, stamp)
        except HandError as exc:  # the engine or the table said no: nothing changed
            self._error(exc.message, "illegal", seq)
        except Refused as exc:
            self._error(exc.message, exc.code, seq)
        except Exception as exc:  # a bug: one line, with a traceback at most every 10 s
            now = time.monotonic()
            if now - _LAST_TRACEBACK[0] >= 10.0:
                _LAST_TRACEBACK[0] = now
                log.exception("message %.200r failed", raw)
            else:
                log.error("message %.200r failed: %s", raw, type(exc).__name__)
            self._error(t("The server could not handle that message."), "internal", seq)

    def dispatch(self, msg: ClientMessage | RoomMessage, stamp: float) -> None:
        """One command: a ping answered, a pre-action kept, a practice lobby's message done,
        or the table's job queued for its owner."""
        if isinstance(msg, Ping):
            self.box.put(protocol.PONG)
            return
        if isinstance(msg, Pre):
            self._choose_pre(msg.value)
            return
        pid = self._player
        if self.person is not None:  # the practice door: the lobby's and the table's policy
            got = self.person.command(msg, stamp)
            if got is None:
                return
            running, job = got
        else:
            running = self.table()
            job = table_job(running, pid, msg)
        seq = msg.seq if isinstance(msg, Act) else None
        future = running.owner.submit(job)
        if future is None:
            self._error(t("The table is busy: try again in a moment."), "busy", seq)
            return
        future.add_done_callback(lambda f: self._done(f, seq))

    def _choose_pre(self, value: str | None) -> None:
        """The person's pre-action, for every tab of theirs (a spectator keeps none)."""
        running = self.table()
        pid = self._player
        if value is None or running.table.seat_of(pid) is None:
            running.pre.pop(pid, None)
        else:
            running.pre[pid] = value
        if self.person is not None:
            self.person.need_game().changed()
            return
        for conn in running.connections:  # every tab of the person shows it
            if conn.player == pid:
                conn.schedule_state()

    def _done(self, future: asyncio.Future[Any], seq: int | None) -> None:
        if future.cancelled():
            return
        exc = future.exception()
        if exc is None:
            # a command that stored records has had its state sent already (each record
            # schedules one): the same again would be one more message for nothing
            if self.running is not None:
                rt = self.running.table
                if self._shown != (rt, rt.seq):
                    self.schedule_state()
            else:
                self.schedule_state()
        elif isinstance(exc, Refused):
            self._error(exc.message, exc.code, seq)
        elif isinstance(exc, HandError):
            self._error(exc.message, "illegal", seq)
        else:
            log.error("a table's command failed: %s", type(exc).__name__, exc_info=exc)
            self._error(t("The server could not handle that message."), "internal", seq)

    def _error(self, message: Text, code: str, seq: int | None = None) -> None:
        """Tell the client what was refused (nothing changed), then the state as it is. At
        the practice door ``seq`` is the person's decision now, as its page numbers it."""
        if self.person is not None:
            game = self.person.game
            seq = game.seq if game is not None else None
        self.box.put(protocol.error(code, message, seq))
        self.schedule_state()

    def sent(self, stamp: float | None) -> None:
        """A message went out (``stamp``: when the action it answers came): the practice
        table counts the time from click to answer."""
        game = self.person.game if self.person is not None else None
        if stamp is not None and game is not None:
            game.latencies.append(time.perf_counter() - stamp)
