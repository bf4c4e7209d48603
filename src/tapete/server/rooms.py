"""The room on the server: shared tables where people play each other, with bots on request.

Each table is a :class:`tapete.room.table.RoomTable`, owned by one task (a
:class:`~tapete.room.table.TableOwner`): every command a connection sends is queued there and
run one at a time, and the table stores each record in its log (the server's database) before
anyone is told. This module plugs the room into the server:

- :class:`RoomBankroll`: the room's :class:`~tapete.room.money.Bankroll` over the players'
  money (:meth:`Storage.move_once`: a move made once per key, with its ledger row), kept in
  step with the bankroll the server holds in memory (the practice table's ``Purse``);
- :class:`Room`: the tables of this process, created, listed for the lobby, restored from
  their logs when the server starts (a hand a crash interrupted goes on, or is voided, by the
  table's rule), bot seats filled and emptied between hands;
- :class:`Connection`: one browser tab or client at one table. It sends ``state`` (the whole
  table as its viewer sees it, the same message the practice table sends, with ``room``) and,
  when the client asks for them (``?records=1``), every ``record`` of the table's log as the
  viewer may see it, numbered gap-free by ``seq`` (resume with ``?after=SEQ``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
import traceback
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import msgspec

from tapete import words
from tapete.bots import SeatView, make_bot
from tapete.core.actions import Action
from tapete.core.cards import Deck, format_card
from tapete.core.catalog import N_, t
from tapete.core.errors import BooksError, HandError
from tapete.core.events import Event
from tapete.core.hand import Hand, Phase
from tapete.core.setup import HandSetup
from tapete.core.text import Text
from tapete.room.errors import Refused as RoomRefused
from tapete.room.errors import Unavailable
from tapete.room.log import EventLog, TableConfig, storage_down
from tapete.room.table import Agent, RoomTable, TableOwner, rebuild, restore
from tapete.room.writer import GroupWriter
from tapete.server.game import Refused, rules_json, send
from tapete.server.money import BOT_PREFIX, is_bot, seat_chips
from tapete.server.protocol import (
    Act,
    AddChips,
    Chat,
    HostAction,
    Leave,
    Ping,
    Pre,
    Propose,
    SitIn,
    SitOut,
    Straddle,
    TakeSeat,
    Vote,
    parse_room,
)
from tapete.server.stored import hand_row
from tapete.server.supervise import expected
from tapete.server.transport import Outbox
from tapete.server.views import hand_view
from tapete.words.room import decided_line, host_line, vote_line

if TYPE_CHECKING:
    from tapete.server.cluster import Node
    from tapete.server.hub import Hub

log = logging.getLogger("tapete.server")
BOT_STYLES = ("tag", "lag", "nit", "station", "maniac")
BOT_NAMES = ("Ana", "Bruno", "Carla", "Diego", "Elena", "Fede", "Gala", "Hugo")
PONG = json.dumps({"type": "pong"})
# what every record and state is written with: msgspec's encoder, five to ten times the speed
# of json.dumps on a table's state (it was an eighth of the server's time at 40 tables)
_JSON = msgspec.json.Encoder()
# the last record message encoded, and its text (see Connection.send)
_encoded: list[Any] = [None, ""]
# what a person chooses when opening a table (the rest are the room's)
CHOSEN = ("game", "variant", "small_blind", "big_blind", "min_buy_in", "max_buy_in", "seats",
          "act_ms", "bank_ms", "bots", "public", "spectators", "fair", "auto_approve", "chat",
          "spectator_chat", "straddle", "restraddle", "bomb_every", "bomb_ante", "bomb_vote",
          "double_board", "bounty_72", "run_it")
# what a host's message may carry, by field of the protocol's HostAction
HOST_ARGS = ("request", "seat_number", "on", "now", "chips", "changes", "allowed", "chat")
MAX_SETTING = 10**9
MAX_TABLES = 2000  # tables in one process
NO_TABLE = N_("There is no such table: check the link.")
_EMPTY = msgspec.Raw(b"[]")
NO_SPECTATORS = N_("The host has closed the table to spectators.")
CLOSE_NO_SPECTATORS = 4403
TABLE_CLOSED = N_("This table was closed after an error: every chip at it is back in its"
                  " owner's bankroll.")
CLOSE_TABLE_CLOSED = 4410


class RoomBankroll:
    """The room's bankroll: the players' money as the server holds it (:class:`Hub`). A move
    is decided on the bankroll in memory, the one the practice table spends too, and queued
    in order with the player's other moves (``Purse.room``): each is stored once per key with
    its ledger row (``Storage.move_once``). A move the room asks for again (a restore after a
    crash, or of a table whose log refused a write) changes nothing the second time.

    The table stores the record that moves the money before it asks for the move, so a crash
    between the two loses nothing: the restore asks again and the move is made then."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        # while the room starts: every move stored, which the tables' restores ask for again
        # (each would be a read and a player loaded for nothing: seconds, at 200 tables);
        # ``None`` once started: a move not queued here is looked up in the database
        self.made: set[str] | None = None
        self.queued: set[str] = set()  # asked for in this process and not yet stored

    def balance(self, player: str) -> int:
        p = self.hub.player(player, create=True, keep=False)
        assert p is not None
        return p.bankroll

    def take(self, player: str, amount: int, key: str) -> bool:
        return self._move(player, -amount, key)

    def give(self, player: str, amount: int, key: str) -> None:
        if not self._move(player, amount, key):
            raise BooksError(f"the bankroll of {player} refused {amount} chips back ({key})")

    def settled(self, table_id: str) -> bool:
        prefix = table_id + ":"
        return not any(k.startswith(prefix) for k in self.queued)

    def _move(self, player: str, delta: int, key: str) -> bool:
        if key in self.queued:
            return True
        if (key in self.made) if self.made is not None else \
                self.hub.storage.room_move_made(key):
            return True  # made before: nothing changes
        p = self.hub.player(player, create=True)
        assert p is not None
        p._store()
        if p.purse.bankroll + delta < 0:
            return False
        p.purse.bankroll += delta
        self.queued.add(key)
        done = p.purse.room(key, delta, -delta if seat_chips(self.hub.room, player, key) else 0)

        def stored(_: asyncio.Future[None]) -> None:
            self.queued.discard(key)
            if p.game is None:
                p.send_state()

        done.add_done_callback(stored)
        return True


# ---------------------------------------------------------------------------- bots
def bot_agent(style: str, seed: int) -> Agent:
    """A bot of the project's (``tapete.bots``) playing a room seat from its own view."""
    bot = make_bot(style, seed)

    def decide(setup: HandSetup, events: list[Event], p: int) -> Action:
        return bot.decide(SeatView.from_events(setup, events, p)).action

    return decide


@dataclass(eq=False)
class Running:
    """A table this process owns: the table, its owner task, its connections."""

    table: RoomTable
    owner: TableOwner
    task: asyncio.Task[None] | None = None
    connections: set[Connection] = field(default_factory=set)
    bots: dict[str, str] = field(default_factory=dict)  # bot player id -> style
    # each person's pre-action (check/fold, call any), whichever tab chose it: played once
    # when their turn comes, by whichever tab's state comes first, and kept across reconnects
    pre: dict[str, str] = field(default_factory=dict)
    # what every viewer is shown alike, made and encoded once per change of the table
    _shared: _Shared | None = None
    _results: dict[tuple[str, int | None], msgspec.Raw] = field(default_factory=dict)
    _config: msgspec.Raw | None = None
    _config_of: TableConfig | None = None
    _chat: tuple[Any, msgspec.Raw, msgspec.Raw] = ((), _EMPTY, _EMPTY)
    _spectators: tuple[tuple[Any, ...], int] = ((), 0)  # (the table, seq, version), count
    joined: int = 0  # the connections' version: one more each time one comes or goes
    # each person's connections here: a new one is checked and counted without going
    # through them all (a connection's own work does not grow with the table's)
    tabs: Counter[str] = field(default_factory=Counter)
    # since when (time.monotonic()) no person has been seated, as Room.sweep last saw it
    idle_since: float | None = field(default_factory=time.monotonic)

    def join(self, conn: Connection) -> None:
        if conn not in self.connections:
            self.connections.add(conn)
            self.tabs[conn.player or ""] += 1
        self.joined += 1

    def part(self, conn: Connection) -> None:
        if conn in self.connections:
            self.connections.discard(conn)
            self.tabs[conn.player or ""] -= 1
            if self.tabs[conn.player or ""] <= 0:
                del self.tabs[conn.player or ""]
        self.joined += 1

    def config_json(self) -> msgspec.Raw:
        if self._config is None or self._config_of is not self.table.config:
            self._config_of = self.table.config  # a host changes it (a new one each time)
            config = self.table.config.to_json()
            config.pop("practice", None)  # the server's own: no room table is one
            self._config = msgspec.Raw(_JSON.encode(config))
        return self._config

    def shared(self) -> _Shared:
        """What every viewer of the table as it stands is shown alike (made once per record
        stored, whoever asks first)."""
        rt = self.table
        hand = rt.hand
        key = (rt.seq, rt.hand_no, len(hand.events) if hand is not None else -1)
        sh = self._shared
        if sh is None or sh.table is not rt or sh.key != key:
            sh = self._shared = _Shared(self, key)
        return sh

    def chat(self) -> tuple[msgspec.Raw, msgspec.Raw]:
        """The chat lines as a spectator sees them and as the seated do, encoded once per
        line added (not once per record)."""
        rt = self.table
        key = (rt, rt.chat[-1]["seq"] if rt.chat else 0, rt.rules)
        if self._chat[0] != key:
            lines = chat_lines(rt)
            everyone = msgspec.Raw(_JSON.encode(lines))
            seated = msgspec.Raw(_JSON.encode([x for x in lines if not x["spectator"]])) \
                if any(x["spectator"] for x in lines) else everyone
            self._chat = (key, everyone, seated)
        return self._chat[1], self._chat[2]

    def spectators(self) -> int:
        """People watching without a seat (counted once per change of the seats or of the
        connections)."""
        key = (self.table, self.table.seq, self.joined)
        if self._spectators[0] != key:
            seated = set(self.table.players.values())
            self._spectators = (key, len(self.connections)
                                - sum(self.tabs.get(p, 0) for p in seated))
        return self._spectators[1]

    def result(self, hand: Hand, you: int | None, number: int) -> msgspec.Raw:
        """The last hand's result as seat ``you`` is shown it (made and encoded once per
        seat)."""
        key = (hand.hand_id, you)
        got = self._results.get(key)
        if got is None:
            if self._results and next(iter(self._results))[0] != hand.hand_id:
                self._results.clear()
            got = self._results[key] = msgspec.Raw(_JSON.encode(_result(hand, you, number)))
        return got

    def hands_per_hour(self) -> int:
        """Hands an hour over the last hands (0 until two were dealt)."""
        starts = self.table.hand_starts
        if len(starts) < 2:
            return 0
        span = starts[-1] - starts[0]
        return int(3_600_000 * (len(starts) - 1) / span) if span > 0 else 0


class Room:
    """The room of this process: its tables, by id."""

    def __init__(self, hub: Hub, *, tick_s: float = 1.0, think_ms: int = 700,
                 pause_ms: int = 3000, bot_seed: int | None = None,
                 group_commit: bool = False) -> None:
        self.hub = hub
        self.storage = hub.storage
        self.log = EventLog(hub.storage.engine)
        # group commit (room/writer.py): the tables' records stored by one thread, many
        # tables' in one transaction, each table told once its own are stored; without it
        # (or on a database in memory) each command's are stored on the loop at once
        self.writer = GroupWriter(self.log) if group_commit and self.log.groups else None
        self.bankroll = RoomBankroll(hub)
        self._saving: set[asyncio.Task[None]] = set()  # hands being stored as players' hands
        self.tick_s = tick_s
        self.think_ms = think_ms
        self.pause_ms = pause_ms
        self.random = random.Random(bot_seed)
        self.tables: dict[str, Running] = {}
        self._opened = 0  # tables opened by this process
        self.started = False
        # practice tables (``server/practice.py``): each person's, with what it needs beyond
        # a room table (its bots, the house's bankroll, its decks); ``practice_kit`` makes
        # that for a table id, to restore the practice tables a restart finds in the log
        self.practice: dict[str, tuple[Running, Any]] = {}
        self.practice_kit: Callable[[str], Any] | None = None
        self.tournaments: Any = None  # the multi-table tournaments (server/tournaments.py)
        # restores the practice sit-and-gos (server/sitngo.py's restore_all, set by the app:
        # the sit-and-go is a practice table, whose module imports this one)
        self.restore_sngs: Callable[[Room], None] | None = None
        self._empty_practice: list[Running] = []
        self._closing: set[asyncio.Task[None]] = set()  # tables being marked closed
        self._sweeping: asyncio.Task[None] | None = None  # closes the idle tables
        # several nodes (server/cluster.py): this node, which claims the tables it runs by
        # their leases; None: one node, running every table of the log
        self.node: Node | None = None
        # what went wrong at the tables, counted (``GET /api/room/node``: ``room``): tables
        # rebuilt from their logs after a fault; stores refused because the database was
        # down (each table rebuilt once it is back); tables closed for failing the same way
        # twice (every chip back to its owner), and those that could not even be closed
        self.counts = {"faults": 0, "outages": 0, "closed_failing": 0, "close_failed": 0,
                       "restore_failed": 0}

    # ------------------------------------------------------------------ tables
    def _agents(self, table_id: str, seats: int) -> tuple[dict[str, Agent], dict[str, str]]:
        agents: dict[str, Agent] = {}
        styles: dict[str, str] = {}
        for i in range(seats):
            pid = f"{BOT_PREFIX}{table_id}:{i}"
            style = BOT_STYLES[i % len(BOT_STYLES)]
            agents[pid] = bot_agent(style, self.random.randrange(2**32))
            styles[pid] = style
        return agents, styles

    def _run(self, table: RoomTable, styles: dict[str, str]) -> Running:
        running = Running(table, TableOwner(table, tick_s=self.tick_s, writer=self.writer),
                          bots=styles)
        self.tables[table.table_id] = running
        if self.started:
            self._start(running)
        return running

    def _start(self, running: Running) -> None:
        running.task = asyncio.get_running_loop().create_task(self._own(running))

    async def _own(self, running: Running) -> None:
        """Own the table until the server stops. When a store fails or a fault breaks the
        table, it is rebuilt from its log (what was stored is all there is: nothing unstored
        was sent to anyone) and goes on, its connections with it, each timer keeping its
        deadline. A database that is down is waited out (one log line; the table rebuilt once
        it answers). A table that fails the same way twice in one hand would fail so for
        ever from its log: it is closed instead, every chip back to its owner
        (:meth:`_close_failing`)."""
        tend = asyncio.get_running_loop().create_task(self._tend_loop(running))
        last: tuple[Any, ...] | None = None  # the last fault: where, and in which hand
        try:
            while True:
                failure: BaseException | None = None
                try:
                    await running.owner.run()
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    failure = exc
                table = running.table
                if failure is None:
                    failure = table.failure
                if self.node is not None and await self._lost(running):
                    return
                if failure is None or isinstance(failure, RoomRefused) \
                        and not isinstance(failure, Unavailable):
                    pass  # stopped, or its log moved on (a lease lost): rebuilt, no fault
                elif isinstance(failure, Unavailable) or storage_down(failure):
                    self.counts["outages"] += 1
                    log.warning("table %s: its database did not answer (%s): rebuilt from its"
                                " log once it does", table.table_id,
                                _cause(failure))
                else:
                    self.counts["faults"] += 1
                    seen = (*_where(failure), table.hand_no)
                    if seen == last and not table.config.tournament:
                        if await self._close_failing(running, failure):
                            return
                    elif not expected(self.node, failure, "table %s stopped: rebuilding it from"
                                      " its log", table.table_id):
                        log.error("table %s failed: rebuilding it from its log",
                                  table.table_id, exc_info=failure)
                    last = seen
                await asyncio.sleep(1.0)  # a database that is down: do not spin
                try:
                    self.reopen(running)
                except Exception as exc:
                    if not storage_down(exc):
                        self.counts["restore_failed"] += 1
                        log.error("table %s could not be rebuilt from its log",
                                  running.table.table_id, exc_info=exc)
        finally:
            tend.cancel()

    async def _close_failing(self, running: Running, failure: BaseException) -> bool:
        """A table that failed the same way twice (a restore brought the fault back): a copy
        rebuilt from its log closes it for good (:meth:`RoomTable.shut`: the hand in play
        called off, every chip back to its owner's bankroll, the books checked), its clients
        are told, and the log marks it closed. False when that could not be done (the
        database is down: tried again after the next failure)."""
        old = running.table
        tid = old.table_id
        try:
            table = rebuild(old)
            table.shut("failed")
        except Exception as exc:
            self.counts["close_failed"] += 1
            log.error("table %s failed twice the same way (%s) and could not be closed: its"
                      " chips wait at the table", tid, _cause(failure), exc_info=exc)
            return False
        self.counts["closed_failing"] += 1
        _, where, line = _where(failure)
        log.error("table %s failed twice the same way (%s, at %s:%s): closed, every chip at it"
                  " back in its owner's bankroll", tid, _cause(failure), where, line,
                  exc_info=failure)
        running.table = running.owner.table = table
        message = json.dumps({"type": "error", "code": "closed",
                              "message": t(TABLE_CLOSED).to_json(), "seq": None})
        for conn in list(running.connections):
            send(conn.box, message)
            conn.box.close(CLOSE_TABLE_CLOSED, "closed", flush=True)
        self.close(tid)  # stops this task once it awaits, and marks the log closed
        return True
    async def _lost(self, running: Running) -> bool:
        """Several nodes: whether this node lost the lease of ``running``'s table (a write
        was refused for its epoch, or its renewal), in which case the table is dropped."""
        node, table = self.node, running.table
        if node is None or table.epoch is None:
            return False
        try:
            held = await asyncio.to_thread(self.log.renew, table.table_id, node.id,
                                           table.epoch, node.lease_ms)
        except Exception:
            return False  # the database is down: try again later
        if not held:
            log.warning("node %s: a write of table %s was refused, its lease moved on:"
                        " dropped", node.id, table.table_id)
            node.drop(table.table_id)
        return not held

    def drop(self, table_id: str) -> None:
        """Several nodes: stop running a table here (its lease lost, or released by a node
        that drains); its clients are told to reconnect (to its new owner)."""
        running = self.tables.pop(table_id, None)
        if running is None:
            return
        for person, (r, _) in list(self.practice.items()):
            if r is running:
                del self.practice[person]
        running.table.broken = True  # it answers nothing more
        if running.task is not None and running.task is not asyncio.current_task():
            running.task.cancel()
        inbox = running.owner.inbox
        while not inbox.empty():  # whoever waits for a command is answered
            _, future = inbox.get_nowait()
            if not future.done():
                future.set_exception(RoomRefused(t("the table is restarting: try again in"
                                                   " a moment"), code="unavailable"))
        from tapete.server.cluster import CLOSE_MOVED, moved_message

        for conn in list(running.connections):
            send(conn.box, moved_message(None))
            conn.box.close(CLOSE_MOVED, "moved", flush=True)

    def reopen(self, running: Running) -> None:
        """Rebuild ``running``'s table from its log in this process (:func:`rebuild`: its
        subscribers, and each player's clock and connection, kept)."""
        table = rebuild(running.table)
        running.table = running.owner.table = table
        running._shared, running._results = None, {}
        for conn in running.connections:
            conn.schedule_state()

    def create(self, config: TableConfig, host: str | None = None) -> str:
        """A new table (its id is unguessable: a private table is reached by it alone), run
        by ``host`` when one is given."""
        table_id = secrets.token_urlsafe(9)
        agents, styles = self._agents(table_id, config.seats)
        self.log.create_table(config, table_id)
        table = RoomTable(self.log, table_id, config,
                          self.bankroll, agents=agents, think_ms=self.think_ms,
                          pause_ms=self.pause_ms, on_hand=self._hand_over,
                          epoch=self.node.claim_new(table_id) if self.node else None)
        if host is not None:
            table.appoint(host)
        seed = self.hub.settings.deck_seed
        if seed is not None:  # tests: the n-th table opened deals the same decks every run
            decks = random.Random(f"{seed}:{self._opened}")
            table.new_deck = lambda: Deck(seed=decks.randrange(2**32))
        self._opened += 1
        self._run(table, styles)
        return table_id

    def open(self, config: TableConfig, table_id: str, kit: Any) -> Running:
        """A new practice table (``config.practice``), with its kit's bots, bankroll and
        decks: run like every table, never listed nor reachable from outside."""
        self.log.create_table(config, table_id)
        table = RoomTable(self.log, table_id, config,
                          kit.bankroll, agents=kit.agents, think_ms=self.think_ms,
                          pause_ms=self.pause_ms, on_hand=self._hand_over,
                          epoch=self.node.claim_new(table_id) if self.node else None)
        running = self._run(table, dict(kit.styles))
        table.new_deck = kit.deck(running)
        return running

    def close(self, table_id: str) -> None:
        """A practice table whose players have all left: its owner stops, and the log
        marks it closed (a restart does not restore it)."""
        running = self.tables.pop(table_id, None)
        if running is None:
            return
        for person, (r, _) in list(self.practice.items()):
            if r is running:
                del self.practice[person]
        if running.task is not None:
            running.task.cancel()
        task = asyncio.get_running_loop().create_task(self._mark_closed(running))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def _mark_closed(self, running: Running) -> None:
        """Mark the table closed in the log once every bankroll move it asked for is stored:
        a restart before that restores it and asks for them again (a closed table is never
        restored, and a move it still owed would be lost)."""
        table = running.table
        while not table.bankroll.settled(table.table_id):
            await asyncio.sleep(0.05)
        try:
            await asyncio.to_thread(self.log.close_table, table.table_id)
        except Exception:  # the table is empty: a restart finds it so and closes it again
            log.exception("table %s could not be marked closed", table.table_id)

    def _hand_over(self, table: RoomTable, hand: Hand) -> None:
        """A hand ended at ``table``: stored among the hands of each person who played it
        (a bot keeps none), as the practice table stores its hands: the hand lists, the
        downloads and the replayer show it, with the cards that person saw. In a thread,
        after the hand's records are stored and sent; a row made before is not made again.
        A practice table's one person: at once, under the hand's own id, so the page's hand
        list has it before anything that follows (their leaving the table, say)."""
        rows = self._rows(table, hand, time.time())
        if not rows:
            return
        money = not table.config.tournament  # a cash table's: the chips at tables move
        if table.config.practice:
            try:
                self.hub.storage.save_hands(rows, money)
            except Exception:
                log.exception("a practice hand could not be stored among the player's hands")
                return
            self._tell(rows)
            return
        task = asyncio.get_running_loop().create_task(
            asyncio.to_thread(self.hub.storage.save_hands, rows, money))
        self._saving.add(task)
        task.add_done_callback(lambda done: self._saved(done, rows))

    @staticmethod
    def _rows(table: RoomTable, hand: Hand, played_at: float) -> list[Any]:
        """The hand as each person who played it keeps it (a practice table's person under
        the hand's own id, a room table's with their seat's number after it)."""
        practice = table.config.practice
        breakdown = words.breakdown(hand).to_json()
        return [hand_row(hand, seat, player_id=pid, session=table.table_id,
                         number=int(hand.hand_id.rsplit("-", 1)[1]), played_at=played_at,
                         structure=table.config.game.value, breakdown=breakdown,
                         row_id=hand.hand_id if practice else f"{hand.hand_id}-{seat + 1}",
                         deal=table.last_deal)
                for seat, pid in enumerate(table.last_players) if pid and not is_bot(pid)]

    def _saved(self, task: asyncio.Task[None], rows: list[Any]) -> None:
        self._saving.discard(task)
        if task.cancelled():
            return
        if task.exception() is not None:
            log.error("a room hand could not be stored among the players' hands",
                      exc_info=task.exception())
            return
        self._tell(rows)

    def _tell(self, rows: list[Any]) -> None:
        for row in rows:  # each person's open pages add it to their hand lists
            person = self.hub.players.get(row.player_id)
            if person is not None:
                person.hand_added(row.summary)

    def table_config(self, settings: object) -> TableConfig:
        """The table a person asks for (the lobby's form): the settings a person may choose,
        checked, within the room's limits (raises :class:`RoomRefused`, in words)."""
        if not isinstance(settings, dict):
            raise RoomRefused(t("a table's settings are a JSON object"))
        for key, value in settings.items():
            if key not in CHOSEN:
                raise RoomRefused(t("{key} is not a setting you choose", key=repr(str(key)[:40])))
            if type(value) is int and not 0 <= value <= MAX_SETTING:
                raise RoomRefused(t("{key} is 0 to {most}", key=key, most=MAX_SETTING))
        act_ms = settings.get("act_ms", 1000)
        if type(act_ms) is int and act_ms < 1000:
            raise RoomRefused(t("A table gives at least a second to act."))
        # the creator of a private table hosts it: seats wait for their approval unless
        # they say otherwise
        private = settings.get("public") is False
        return TableConfig.from_json({"on_crash": self.hub.settings.room_on_crash,
                                      **({"auto_approve": False} if private else {}),
                                      **settings})

    def create_for(self, player: str, settings: object) -> str:
        """A table a person asked for, with :meth:`table_config`'s settings (the creator of
        a private table hosts it). How many tables one person and one address may open is
        counted before (``app.room_tables``: the counters every node shares)."""
        config = settings if isinstance(settings, TableConfig) else self.table_config(settings)
        if len(self.tables) >= MAX_TABLES:
            raise RoomRefused(t("The room is full: join a table from the lobby."))
        return self.create(config, host=None if config.public else player)

    # ------------------------------------------------------------------ idle tables
    def sweep(self, now: float | None = None) -> list[str]:
        """Close the tables that have had no person seated (nor their host connected) for
        ``Settings.idle_table_s`` (nobody ever sat, or the last person left; ``now``:
        ``time.monotonic()``'s clock).
        A table with a seat taken waits: its bots stand up when no person is left (between
        hands, their chips back to their bankrolls, :meth:`_tend`), and a table closes only
        empty, between hands, so every chip has gone back to its owner through the table's
        own records. Its clients are told; the log marks it closed (:meth:`close`). A
        practice table and a tournament's have lives of their own. The ids closed."""
        idle_s = self.hub.settings.idle_table_s
        if idle_s <= 0:
            return []
        now = time.monotonic() if now is None else now
        closed: list[str] = []
        for tid, running in list(self.tables.items()):
            rt = running.table
            if rt.config.practice or rt.config.tournament or rt.broken:
                continue
            if any(not is_bot(p) for p in rt.players.values()) or rt.host is not None and \
                    any(c.player == rt.host for c in running.connections):
                running.idle_since = None  # a person seated, or the host there
                continue
            if running.idle_since is None:
                running.idle_since = now
            if now - running.idle_since < idle_s or rt.players or rt.hand is not None:
                continue
            self._close_idle(running, idle_s)
            closed.append(tid)
        return closed

    def _close_idle(self, running: Running, idle_s: float) -> None:
        table_id = running.table.table_id
        log.info("table %s closed: no person seated for %d s", table_id, idle_s)
        gone = t("This table was closed: nobody sat at it for {minutes} minutes.",
                 minutes=max(1, round(idle_s / 60)))
        inbox = running.owner.inbox
        while not inbox.empty():  # a command queued meanwhile is answered: nothing ran
            _, future = inbox.get_nowait()
            if not future.done():
                future.set_exception(RoomRefused(gone, code="no_table"))
        for conn in list(running.connections):
            send(conn.box, json.dumps({"type": "error", "code": "no_table",
                                       "message": gone.to_json(), "seq": None}))
            conn.box.close(4404, "closed", flush=True)
        self.close(table_id)
        if self.node is not None:
            self.node.closed(table_id)

    async def _sweep_loop(self) -> None:
        every = max(1.0, min(60.0, self.hub.settings.idle_table_s / 10))
        while True:
            await asyncio.sleep(every)
            try:
                self.sweep()
            except Exception:
                log.exception("closing the idle tables failed")

    async def start(self) -> None:
        """Restore every stored table (a hand a crash interrupted goes on by the table's rule)
        and start its owner; close the idle tables from time to time (:meth:`sweep`)."""
        self.started = True
        if self.hub.settings.idle_table_s > 0:
            self._sweeping = asyncio.get_running_loop().create_task(self._sweep_loop())
        if self.node is not None:  # several nodes: the node claims its share of the tables
            await self.node.start()
            return
        self.bankroll.made = await asyncio.to_thread(self.hub.storage.room_move_keys)
        try:
            await self._restore_all()
        finally:
            self.bankroll.made = None
        for running in self.tables.values():
            if running.task is None:
                self._start(running)
        for running in self._empty_practice:
            running.owner.submit(lambda r=running: self._stand_up(r))  # type: ignore[misc]
        self._empty_practice.clear()

    def _stand_up(self, running: Running) -> None:
        """A practice table with only bots left: they leave, and the table closes."""
        table = running.table
        for p in list(table.players.values()):
            seat = table.seat_of(p)
            if seat is not None and seat not in table.leaving:
                table.leave(p)
        if not table.players:
            self.close(table.table_id)

    async def _restore_all(self) -> None:
        # the tournaments first: they restore their own tables (server/tournaments.py)
        if self.tournaments is not None:
            self.tournaments.restore()
        if self.restore_sngs is not None:
            self.restore_sngs(self)
        for table_id in await asyncio.to_thread(self.log.table_ids):
            if table_id not in self.tables:
                await self.restore_one(table_id)

    async def restore_one(self, table_id: str, epoch: int | None = None) -> Running | None:
        """Restore table ``table_id`` from its log and run it here (``epoch``: this node's
        lease of it); None when it cannot be (its log is broken: the room goes on)."""
        config = self.log.config(table_id)
        kit: Any = None
        if config.tournament:  # restored by its tournament (above), or by none: its chips are
            return None        # tournament chips, never restored against a bankroll
        if config.practice:
            if self.practice_kit is None:
                return None
            kit = self.practice_kit(table_id)
            agents, styles, bankroll = kit.agents, dict(kit.styles), kit.bankroll
        else:
            agents, styles = self._agents(table_id, config.seats)
            bankroll = self.bankroll
        try:
            table = restore(self.log, table_id, bankroll, agents=agents,
                            think_ms=self.think_ms, pause_ms=self.pause_ms,
                            on_hand=self._hand_over, epoch=epoch)
        except Exception:  # one broken log does not keep the room closed
            self.counts["restore_failed"] += 1
            log.exception("table %s could not be restored", table_id)
            return None
        running = self._run(table, styles)
        if table.last_hand is not None:  # a kill may have come between its end and its rows
            played = table.hand_starts[-1] / 1000 if table.hand_starts else time.time()
            rows = self._rows(table, table.last_hand, played)
            try:  # a row stored before is kept as it is
                await asyncio.to_thread(self.hub.storage.save_hands, rows,
                                        not table.config.tournament)
            except Exception:
                log.exception("table %s: its last hand's rows could not be stored", table_id)
        if kit is not None:
            table.new_deck = kit.deck(running)
            people = [p for p in table.players.values() if not is_bot(p)]
            table.auto_start = False  # until the person's page says otherwise
            # and the hand in play waits for them too: nothing moves their money before
            # their page is back (the clock restarts then, with the grace)
            table.held = bool(people)
            if people:
                self.practice[people[0]] = (running, kit)
            elif self.node is not None:  # a node claimed it, running: the bots stand up now
                running.owner.submit(lambda r=running: self._stand_up(r))  # type: ignore[misc]
            else:  # the person left: the bots stand up and the table closes
                self._empty_practice.append(running)
        return running

    async def stop(self) -> None:
        if self._sweeping is not None:
            self._sweeping.cancel()
        if self.node is not None:  # its tables stop, their leases released
            await self.node.stop()
        for running in self.tables.values():
            if running.task is not None:
                running.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await running.task
        if self.writer is not None:  # what the tables handed it, stored
            await asyncio.to_thread(self.writer.close)

    def listing(self) -> list[dict[str, Any]]:
        """The public tables, for the lobby (several nodes: the others' too, through
        Redis)."""
        out = self.local_listing()
        if self.node is not None:
            out += self.node.remote_listing()
        return out

    def table_ids(self, everything: bool = False) -> list[str]:
        """The ids of the tables this process runs that anyone may know of
        (``TableConfig.listed``: not a private table's, whose id is its link; not a practice
        table's); ``everything`` (an operator): every one."""
        return sorted(tid for tid, r in self.tables.items()
                      if everything or r.table.config.listed)

    def local_listing(self) -> list[dict[str, Any]]:
        """The public tables this process runs."""
        out = []
        for r in self.tables.values():
            if r.table.config.public:
                s = r.table.summary()
                s["spectators"] = sum(1 for c in r.connections
                                      if r.table.seat_of(c.player or "") is None)
                s["hands_per_hour"] = r.hands_per_hour()
                out.append(s)
        return out

    # ------------------------------------------------------------------ bots between hands
    async def _tend_loop(self, running: Running) -> None:
        if not running.table.config.bots:
            return  # nothing to tend at a table without bots (its settings never change)
        while True:
            await asyncio.sleep(0.2)
            try:
                await running.owner.call(self._tend, running)
            except (RoomRefused, HandError):
                pass
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not expected(self.node, exc, "tending table %s failed",
                                running.table.table_id):
                    log.exception("tending table %s failed", running.table.table_id)

    def _tend(self, running: Running) -> None:
        """Between hands: bots fill the table, leaving one seat free for a person, and give
        their seats up as people come (one at a time); a bot short of chips adds them. All in
        one command, so the next hand is dealt to the table as it is then."""
        table = running.table
        if table.hand is not None or not table.config.bots or table.broken:
            return
        c = table.config
        seated = table.players
        people = [p for p in seated.values() if not is_bot(p)]
        bots = [p for p in seated.values() if is_bot(p) and table.seat_of(p) not in table.leaving]
        if not people:
            for p in bots:  # nobody to play with: the bots stand up
                table.leave(p)
            return
        if c.seats - len(seated) == 0 and bots:
            table.leave(bots[-1])
            return
        for p in bots:
            seat = table.seat_of(p)
            s = table.table.seats[seat] if seat is not None else None
            if s is not None and s.chips + s.pending_chips < c.min_buy_in:
                if self.bankroll.balance(p) < c.max_buy_in:
                    self._refill(p)
                table.add_chips(p, c.max_buy_in - s.chips - s.pending_chips)
        idle = [p for p in running.bots if table.seat_of(p) is None]
        while c.seats - len(table.players) > 1 and idle:
            pid = idle.pop(0)
            if self.bankroll.balance(pid) < c.max_buy_in:
                self._refill(pid)
            used = {s.name.casefold() for s in table.table.seats if s is not None}
            name = next((n for n in BOT_NAMES if n.casefold() not in used),
                        f"Bot {pid.rsplit(':', 1)[-1]}")
            table.sit(pid, name, c.max_buy_in, wait_for_big_blind=False)

    def _refill(self, pid: str) -> None:
        """A bot out of chips gets a new bankroll (a reset in its ledger)."""
        p = self.hub.player(pid, create=True)
        assert p is not None
        p._store()
        row = self.storage.reset_bankroll(pid)
        if row is not None:
            p.purse.bankroll = row.bankroll
            p.purse.version += 1

    # ------------------------------------------------------------------ connections
    def get(self, table_id: str) -> Running | None:
        """A table a client may join by its id (a practice table is its person's alone)."""
        running = self.tables.get(table_id)
        if running is None or running.table.config.practice:
            return None
        return running


class Connection:
    """One client at one table: a :class:`~tapete.room.table.Subscriber` whose messages go
    to its outbox. ``player`` is its identity (a spectator's too: watching, it has no seat)."""

    def __init__(self, room: Room, running: Running, box: Outbox, player: str, *,
                 records: bool = False, every_state: bool = True) -> None:
        self.room = room
        self.running = running
        self.box = box
        self._player = player
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

    # the table calls this for every record, inside its command: the state follows once
    def send(self, message: dict[str, Any]) -> None:
        if message["kind"] in ("end", "void"):  # a pre-action was for the hand that ended
            self.running.pre.pop(self._player, None)
        if self.records:
            # the table hands the subscribers that see a record alike the same message:
            # encoded once for all of them
            if _encoded[0] is message:
                data = _encoded[1]
            else:
                data = _JSON.encode({"type": "record", **message}).decode()
                _encoded[:] = message, data
            if self._backlog is not None:
                self._backlog.append(data)
                self.box.held()  # made now: it counts while a write waits (transport.py)
            else:
                send(self.box, data)
        if message["kind"] == "host" and message["data"]["action"] == "spectators" and \
                not message["data"]["allowed"] and \
                self.running.table.seat_of(self._player) is None:
            # the host closed the table to spectators: this one is told and let go
            send(self.box, json.dumps({"type": "error", "code": "no_spectators",
                                       "message": t(NO_SPECTATORS).to_json(), "seq": None}))
            self.box.close(CLOSE_NO_SPECTATORS, "no spectators", flush=True)
            return
        if self.every_state or self._concerns(message):
            self.schedule_state()

    def _concerns(self, message: dict[str, Any]) -> bool:
        """A record after which a client that asked for ``states=turn`` is sent a state: its
        own decision (a ``turn`` at its seat), a hand's end (or void), a record about its
        seat (``yours``)."""
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

    def schedule_state(self) -> None:
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._send_state)

    def _send_state(self) -> None:
        self._scheduled = False
        if self.box.closing:
            return
        if self.running.table.unstored:  # ahead of its log: the state waits for it
            self.running.table.when_stored(self.schedule_state)
            return
        self._shown = (self.running.table, self.running.table.seq)
        send(self.box, _JSON.encode(state(self.running, self._player, self.room)).decode(),
             state=True)
        self._pre_act()

    def _pre_act(self) -> None:
        """A pre-action chosen before the turn is played when the turn comes (check/fold:
        check when free, else fold; call any: check or call whatever it costs)."""
        rt = self.running.table
        hand = rt.hand
        chosen = self.running.pre.get(self._player)
        if chosen is None or hand is None or hand.actor is None \
                or rt.turn_seq is None or rt.hand_players[hand.actor] != self._player:
            return
        legal = hand.legal()
        if chosen == "call_any":
            action = Action.check_or_call(legal)
        else:
            action = Action.check() if legal.check else Action.fold()
        del self.running.pre[self._player]
        pid, seq = self._player, rt.turn_seq
        future = self.running.owner.submit(lambda: rt.act(pid, seq, action))
        if future is not None:
            future.add_done_callback(lambda f: self._done(f, seq))

    # ------------------------------------------------------------------ messages
    def handle(self, raw: str) -> None:
        """A message from the client: decoded here, run by the table's owner, in order."""
        try:
            msg = parse_room(raw)
        except Refused as exc:
            self._error(exc.code, exc.message)
            return
        if isinstance(msg, Ping):
            send(self.box, PONG)
            return
        if isinstance(msg, Pre):
            if msg.value is None or self.running.table.seat_of(self._player) is None:
                self.running.pre.pop(self._player, None)  # a spectator keeps none
            else:
                self.running.pre[self._player] = msg.value
            for conn in self.running.connections:  # every tab of the person shows it
                if conn.player == self._player:
                    conn.schedule_state()
            return
        # each job reads the table when it runs: a command queued while the table was
        # rebuilt from its log runs at the rebuilt one
        running = self.running
        pid = self._player
        job: Any
        if isinstance(msg, TakeSeat):
            seat = None if msg.seat_number is msgspec.UNSET else msg.seat_number
            name = msg.name

            def job() -> None:
                running.table.sit(pid, name, msg.buy_in, seat)
        elif isinstance(msg, Act):
            try:
                action = Action.from_wire({"action": msg.action} if msg.amount is msgspec.UNSET
                                          else {"action": msg.action, "amount": msg.amount})
            except HandError as exc:
                self._error("malformed", exc.message, msg.seq)
                return

            def job() -> None:
                running.table.act(pid, msg.seq, action)
        elif isinstance(msg, AddChips):
            def job() -> None:
                running.table.add_chips(pid, msg.amount)
        elif isinstance(msg, SitOut):
            def job() -> None:
                running.table.sit_out(pid)
        elif isinstance(msg, SitIn):
            def job() -> None:
                running.table.sit_in(pid, msg.post)
        elif isinstance(msg, Leave):
            def job() -> None:
                running.table.leave(pid)
        elif isinstance(msg, HostAction):
            args = {("seat" if k == "seat_number" else k): getattr(msg, k) for k in HOST_ARGS
                    if getattr(msg, k) is not msgspec.UNSET}

            def job() -> None:
                running.table.host_command(pid, msg.action, args)
        elif isinstance(msg, Chat):
            def job() -> None:
                running.table.say(pid, msg.text)
        elif isinstance(msg, Vote):
            def job() -> None:
                running.table.vote(pid, msg.vote, msg.yes)
        elif isinstance(msg, Propose):
            def job() -> None:
                running.table.propose(pid, msg.kind)
        elif isinstance(msg, Straddle):
            def job() -> None:
                running.table.ask_straddle(pid, msg.on)
        else:  # pragma: no cover - the decoder knows only the messages above
            return
        seq = msg.seq if isinstance(msg, Act) else None
        future = self.running.owner.submit(job)
        if future is None:
            self._error("busy", t("The table is busy: try again in a moment."),
                        seq)
            return
        future.add_done_callback(lambda f: self._done(f, seq))

    def _done(self, future: asyncio.Future[Any], seq: int | None) -> None:
        if future.cancelled():
            return
        exc = future.exception()
        if exc is None:
            # a command that stored records has had its state sent already (each record
            # schedules one): the same again would be one more message for nothing
            rt = self.running.table
            if self._shown != (rt, rt.seq):
                self.schedule_state()
        elif isinstance(exc, RoomRefused):
            self._error(exc.code, exc.message, seq)
        elif isinstance(exc, HandError):
            self._error("illegal", exc.message, seq)
        else:
            log.error("a room command failed: %s", type(exc).__name__, exc_info=exc)
            self._error("internal", t("The server could not handle that message."), seq)

    def _error(self, code: str, message: Text, seq: int | None = None) -> None:
        send(self.box, json.dumps({"type": "error", "code": code,
                                   "message": message.to_json(), "seq": seq}))
        self.schedule_state()


# ---------------------------------------------------------------------------- the state
def _where(exc: BaseException) -> tuple[str, str, int]:
    """A fault's kind and where it was raised (its last frame): two faults alike are the
    same fault."""
    frames = traceback.extract_tb(exc.__traceback__)
    last = frames[-1] if frames else None
    return (type(exc).__name__, last.filename.rsplit("/", 1)[-1] if last else "",
            last.lineno or 0 if last else 0)


def _cause(exc: BaseException) -> str:
    """One line for the log: the exception, or the one it stands for (a store refused)."""
    cause = exc.__cause__ if isinstance(exc, Unavailable) and exc.__cause__ else exc
    text = str(cause).splitlines()[0] if str(cause) else ""
    return f"{type(cause).__name__}: {text[:160]}"


def _result(hand: Hand, you: int | None, number: int) -> dict[str, Any]:
    net = hand.net()[you] if you is not None else 0
    return {
        "hand_id": hand.hand_id, "number": number, "played": you is not None,
        "pots": words.pot_lines(hand), "breakdown": words.breakdown(hand).to_json(),
        "shown": words.shown_hands(hand), "board": [format_card(c) for c in hand.board],
        "net": net, "explanations": [],
        "log": [line.to_json() for line in words.log_lines(hand)],
    }


_NULL = msgspec.Raw(b"null")


class _Shared:
    """The parts of a table's state every viewer is shown alike, each encoded once (a
    :class:`msgspec.Raw` goes into each viewer's message as it is): the rules, the seats, the
    hand with every hole card hidden that is not shown, its story so far. A viewer's own are
    added to them in :func:`state`: its seat marked ``you``, its own hole cards, its decision,
    its money."""

    __slots__ = ("table", "key", "rules", "money", "log", "seats", "seats_you", "players",
                 "view", "legal", "ended", "revealed", "chat", "chat_seated")

    def __init__(self, running: Running, key: tuple[int, int, int]) -> None:
        rt = self.table = running.table
        self.key = key
        c = rt.config
        enc = _JSON.encode
        self.rules = msgspec.Raw(enc({**rules_json(rt.rules), "key": c.game.value, "blinds": 0}))
        self.money = msgspec.Raw(enc(words.money_format(rt.rules.decimals, rt.rules.currency)))
        # the last hand's fair deal, revealed (its 52 cards written once, not once a viewer)
        self.revealed = msgspec.Raw(enc(rt.last_deal.to_json())) if rt.last_deal else _NULL
        # the chat as a spectator sees it, and as the seated do (without the spectators')
        self.chat, self.chat_seated = running.chat()
        self.seats: list[msgspec.Raw] = []
        self.seats_you: list[msgspec.Raw] = []  # the same, as its own player sees it
        for i, s in enumerate(rt.table.seats):
            if s is None:
                self.seats.append(_NULL)
                self.seats_you.append(_NULL)
                continue
            pid = rt.players.get(i, "")
            seat = {"seat": i, "name": s.name, "bot": is_bot(pid),
                    "style": running.bots.get(pid), "chips": s.chips + s.pending_chips,
                    "sitting_out": s.sitting_out or s.sit_out_after_hand,
                    "leaving": i in rt.leaving, "you": False}
            self.seats.append(msgspec.Raw(enc(seat)))
            seat["you"] = True
            self.seats_you.append(msgspec.Raw(enc(seat)))
        hand = rt.hand
        self.log: msgspec.Raw = _NULL
        self.players: list[msgspec.Raw] = []
        self.view: dict[str, Any] = {}
        self.legal: dict[str, Any] | None = None
        self.ended: dict[int | None, msgspec.Raw] = {}  # the last hand, by hand seat
        if hand is not None:
            from tapete.server.game import last_actions

            self.log = msgspec.Raw(enc([x.to_json() for x in words.log_lines(hand)]))
            view = hand_view(hand, None)  # nobody's hole cards but the ones shown
            for p, last in enumerate(last_actions(hand.n, hand.events)):
                view["players"][p]["last_action"] = last
            self.players = [msgspec.Raw(enc(p)) for p in view["players"]]
            self.view = view

    def hand(self, hand: Hand, you: int | None, decides: bool) -> dict[str, Any]:
        """The hand in play as hand seat ``you`` sees it (its own hole cards; the legal
        options when ``decides``): :func:`~tapete.server.views.hand_view`'s, made once for
        every viewer and then given each viewer's own cards."""
        view = dict(self.view)
        players = self.players
        if you is not None:
            players = list(players)
            hole = hand.hole[you]
            if hole is not None and you not in hand.shown:
                mine = dict(view["players"][you])
                mine["cards"] = [format_card(c) for c in hole] if hole else None
                players[you] = msgspec.Raw(_JSON.encode(mine))
        view["players"] = players
        view["you"] = you
        if decides and hand.phase is Phase.BETTING:
            if self.legal is None:
                self.legal = hand_view(hand, hand.actor)["legal"]
            view["legal"] = self.legal
        return view

    def ended_hand(self, hand: Hand, you: int | None) -> msgspec.Raw:
        """The hand that ended last as hand seat ``you`` sees it (made once per seat)."""
        got = self.ended.get(you)
        if got is None:
            got = self.ended[you] = msgspec.Raw(_JSON.encode(hand_view(hand, you)))
        return got


def chat_lines(rt: RoomTable) -> list[dict[str, Any]]:
    """The table's last chat messages, host actions and votes, oldest first."""
    out: list[dict[str, Any]] = []
    for c in rt.chat:
        kind = c["record"]
        line: dict[str, Any] = {"seq": c["seq"], "kind": kind, "name": None, "text": None,
                                "spectator": False, "words": None}
        if kind == "chat":
            line.update(name=c["name"] or None, text=c["text"], spectator=c["seat"] is None)
        else:
            words_ = host_line(c, rt.rules) if kind == "host" else \
                vote_line(c) if kind == "vote" else decided_line(c)
            line["words"] = words_.to_json()
        out.append(line)
    return out


def home_json(rt: RoomTable, player: str | None) -> dict[str, Any]:
    """The host's table and the home-game options as ``player`` sees them (HomeInfo)."""
    now = rt.clock.now_ms()
    host = player is not None and player == rt.host
    requests = [{"request": rid, "kind": r["kind"],
                 "name": r.get("name") or rt._name(r["seat"]), "chips": r["chips"],
                 "seat_number": r["seat"]} for rid, r in sorted(rt.requests.items())
                if host or r["player"] == player]
    votes = [{"vote": vid, "kind": v["kind"], "runs": v.get("runs"), "seats": v["seats"],
              "yes": sorted(s for s, p in rt.players.items() if p in v["yes"]),
              "no": sorted(s for s, p in rt.players.items() if p in v["no"]),
              "mine": player in v["asked"] and player not in v["yes"] and player not in v["no"],
              "seconds_left": max(0, v["opened"] + v["ms"] - now) / 1000}
             for vid, v in sorted(rt.votes.items())]
    return {"hosted": rt.host is not None, "host": host,
            "host_seat": rt.seat_of(rt.host) if rt.host is not None else None,
            "paused": rt.paused, "over": rt.over, "auto_approve": rt.config.auto_approve,
            "requests": requests, "muted": player in rt.muted,
            "muted_seats": sorted(s for s, p in rt.players.items() if p in rt.muted),
            "next": rt.changes, "straddling": player in rt.straddlers,
            "bomb_next": rt.bomb_next, "votes": votes}


def decision_json(rt: RoomTable, hand: Hand, player: str, seq: int) -> dict[str, Any]:
    """The decision ``player`` is to take, as a state carries it (``seq``: its number on
    the page): the time to act left (with any grace), then the street's time bank, and what
    is legal in words."""
    now = rt.clock.now_ms()
    deadline = rt.deadline() or now
    bank = rt.banks[player][rt._pool(hand)]
    left_total = max(0, deadline - now)  # act time (and grace), then the bank
    return {"seq": seq, "action_time": rt.config.act_ms / 1000,
            "time_left": max(0, left_total - bank) / 1000,
            "bank": min(bank, left_total) / 1000,
            "summary": hand.legal().summary().to_json()}


def state(running: Running, player: str | None, room: Room) -> dict[str, Any]:
    """The table as ``player`` sees it: the practice table's ``state`` message (the same
    page draws both), with ``room``: the table's settings and where the viewer stands. What
    every viewer sees alike is :class:`_Shared`'s, made once per change."""
    rt = running.table
    table = rt.table
    hand = rt.hand
    sh = running.shared()
    my_seat = rt.seat_of(player) if player else None
    you: int | None = None
    view: dict[str, Any] | msgspec.Raw | None = None
    log_lines: msgspec.Raw | None = None
    decision: dict[str, Any] | None = None
    if hand is not None:
        if my_seat is not None and my_seat in table.hand_seats:
            you = table.hand_seats.index(my_seat)
        log_lines = sh.log
        if you is not None and hand.actor == you and rt.turn_seq is not None:
            decision = decision_json(rt, hand, player or "", rt.turn_seq)
        view = sh.hand(hand, you, decision is not None)
    elif rt.last_hand is not None:
        lp = rt.last_players
        you = lp.index(player) if player in lp else None
        view = sh.ended_hand(rt.last_hand, you)
    seats: list[msgspec.Raw] = sh.seats
    if my_seat is not None:
        seats = list(seats)
        seats[my_seat] = sh.seats_you[my_seat]
    me = table.seats[my_seat] if my_seat is not None else None
    # a stored player is in memory (the connection loaded them once); a visitor who only
    # watches is kept nowhere and has the starting bankroll: no database read per state
    person = room.hub.players.get(player) if player else None
    at_table = in_pot = 0
    if me is not None and not rt.config.tournament:  # tournament chips are not money
        at_table = me.chips + me.pending_chips
        if hand is not None and you is not None:
            at_table = hand.stacks[you] + me.pending_chips
            in_pot = hand.totals[you]
    bankroll = person.bankroll if person is not None else \
        room.hub.settings.starting_bankroll if player else 0
    last_result = None
    if rt.last_hand is not None:
        lp = rt.last_players
        last_result = running.result(rt.last_hand, lp.index(player) if player in lp else None,
                                     rt.hand_no)
    conn_pre = running.pre.get(player) if player else None
    bank_now = 0.0
    if player and player in rt.banks:
        pool = rt._pool(hand) if hand is not None else "pre"
        bank_now = rt.banks[player][pool] / 1000
    return {
        "type": "state", "lobby": False,
        "seq": decision["seq"] if decision else None,
        "rules": sh.rules,
        "seats": seats,
        "button_seat": table.button_seat, "sb_seat": table.small_blind_seat,
        "bb_seat": table.big_blind_seat,
        "hand": view, "live": hand is not None, "log": log_lines, "decision": decision,
        "pre_action": conn_pre, "coach_on": False, "coach": None, "last_result": last_result,
        "sitting_out": bool(me and (me.sitting_out or me.sit_out_after_hand)),
        "owes_blinds": bool(me and (me.missed_big or me.missed_small)),
        "waiting_for_big_blind": bool(me and me.waiting_for_big_blind and not me.post_now),
        "sat_out_reason": None,
        "waiting": hand is None and table.ready_count() < 2,
        "leaving": my_seat is not None and my_seat in rt.leaving,
        "time_bank": bank_now, "notice": None,
        "money": sh.money,
        "me": {"bankroll": bankroll, "at_table": at_table, "in_pot": in_pot,
               "total": bankroll + at_table + in_pot,
               "starting": room.hub.settings.starting_bankroll,
               "version": person.purse.version if person is not None else 0},
        "room": {"table": rt.table_id, "seq": rt.seq, "config": running.config_json(),
                 "seated": my_seat is not None, "hand_no": rt.hand_no,
                 "spectators": running.spectators(),
                 # the fair deal: the hand's commitment; the last hand's, revealed
                 "commitment": rt.deal.commitment if hand is not None and rt.deal else None,
                 "revealed": sh.revealed,
                 "at": int(time.time()),
                 "chat": sh.chat if my_seat is None else sh.chat_seated,
                 "home": home_json(rt, player)},
        # a tournament's table (server/tournaments.py): the tournament as the viewer sees it
        "tournament": room.tournaments.info(rt.table_id, player)
        if rt.config.tournament and room.tournaments is not None else None,
    }
