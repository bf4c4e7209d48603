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
- :class:`RoomPart`: a room table's sections of its states (the one state builder's,
  server/state.py); every client at a table is a :class:`~tapete.server.session.Session`
  (server/session.py), the one session of every kind of table, which also sends, when the
  client asks for them (``?records=1``), every ``record`` of the table's log as the viewer
  may see it, numbered gap-free by ``seq`` (resume with ``?after=SEQ``).

The room reaches the players this process holds as :class:`People` (``server/hub.py``'s
``Hub``, which is built first and imports this module): it moves their money and tells them
of their hands.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
import traceback
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from tapete import words
from tapete.bots import SeatView, make_bot
from tapete.core.actions import Action
from tapete.core.cards import Deck
from tapete.core.catalog import N_, t
from tapete.core.errors import BooksError, HandError
from tapete.core.events import Event
from tapete.core.hand import Hand
from tapete.core.setup import HandSetup
from tapete.room.errors import Refused as RoomRefused
from tapete.room.errors import Unavailable
from tapete.room.log import EventLog, TableConfig, storage_down
from tapete.room.policy import PracticePolicy, TablePolicy
from tapete.room.ports import Ports
from tapete.room.table import Agent, RoomTable, TableOwner, rebuild, restore
from tapete.room.writer import GroupWriter
from tapete.server import protocol
from tapete.server.fanout import CLOSE_MOVED, moved_message
from tapete.server.fanout import NO_TABLE as NO_TABLE  # (where the app and exports read it)
from tapete.server.game import send
from tapete.server.money import BOT_PREFIX, is_bot, seat_chips
from tapete.server.protocol import TableState
from tapete.server.session import Running
from tapete.server.state import Sections, Viewer, as_wire, home_json
from tapete.server.stored import hand_row

if TYPE_CHECKING:
    from tapete.core.text import Text
    from tapete.server.config import Settings
    from tapete.server.money import Purse
    from tapete.server.storage import Storage

log = logging.getLogger("tapete.server")
BOT_STYLES = ("tag", "lag", "nit", "station", "maniac")
BOT_NAMES = ("Ana", "Bruno", "Carla", "Diego", "Elena", "Fede", "Gala", "Hugo")
# what a person chooses when opening a table (the rest are the room's)
CHOSEN = ("game", "variant", "small_blind", "big_blind", "min_buy_in", "max_buy_in", "seats",
          "act_ms", "bank_ms", "bots", "public", "spectators", "fair", "auto_approve", "chat",
          "spectator_chat", "straddle", "restraddle", "bomb_every", "bomb_ante", "bomb_vote",
          "double_board", "bounty_72", "run_it")
MAX_SETTING = 10**9
MAX_TABLES = 2000  # tables in one process
TABLE_CLOSED = N_("This table was closed after an error: every chip at it is back in its"
                  " owner's bankroll.")
CLOSE_TABLE_CLOSED = 4410


class Person(Protocol):
    """A player as the room reaches them (``server/hub.py``'s ``Player``): their money, moved
    in order with their other moves (``purse``), what their page is told."""

    notice: Text | None  # said on their page's next state

    @property
    def purse(self) -> Purse:
        ...

    @property
    def bankroll(self) -> int:
        ...

    @property
    def game(self) -> object | None:
        """Their practice table (None: their page shows the lobby)."""
        ...

    def _store(self) -> None:
        """Give the player a database row, the first time there is something to keep."""
        ...

    def send_state(self) -> None:
        ...

    def hand_added(self, summary: dict[str, Any]) -> None:
        """A hand of theirs was stored: their open pages list it."""
        ...


class People(Protocol):
    """The players this process holds (``server/hub.py``'s ``Hub``), with the server's
    settings and storage."""

    @property
    def settings(self) -> Settings:
        ...

    @property
    def storage(self) -> Storage:
        ...

    @property
    def players(self) -> Mapping[str, Person]:
        """The players in memory, by id."""
        ...

    @property
    def room(self) -> Room:
        ...

    def player(self, pid: str, create: bool = False, keep: bool = True) -> Person | None:
        """The player with this id: from memory, from the database, or a new visitor."""
        ...


class RoomBankroll:
    """The room's bankroll: the players' money as the server holds it (:class:`Hub`). A move
    is decided on the bankroll in memory, the one the practice table spends too, and queued
    in order with the player's other moves (``Purse.room``): each is stored once per key with
    its ledger row (``Storage.move_once``). A move the room asks for again (a restore after a
    crash, or of a table whose log refused a write) changes nothing the second time.

    The table stores the record that moves the money before it asks for the move, so a crash
    between the two loses nothing: the restore asks again and the move is made then."""

    def __init__(self, hub: People) -> None:
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


class Room:
    """The room of this process: its tables, by id."""

    def __init__(self, hub: People, *, ports: Callable[[Room], Ports], tick_s: float = 1.0,
                 think_ms: int = 700, pause_ms: int = 3000,
                 bot_seed: int | None = None, group_commit: bool = False) -> None:
        self.hub = hub
        self.storage = hub.storage
        self.log = EventLog(hub.storage.engine)
        # group commit (room/writer.py): the tables' records stored by one thread, many
        # tables' in one transaction, each table told once its own are stored; without it
        # (or on a database in memory) each command's are stored on the loop at once
        self.writer = GroupWriter(self.log) if group_commit and self.log.groups else None
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
        # while every table is restored at start (one process): the practice tables with
        # only bots left, whose bots stand up once all are restored
        self._empty_practice: list[Running] | None = None
        self._closing: set[asyncio.Task[None]] = set()  # tables being marked closed
        self._sweeping: asyncio.Task[None] | None = None  # closes the idle tables
        # what went wrong at the tables, counted (``GET /api/room/node``: ``room``): tables
        # rebuilt from their logs after a fault; stores refused because the database was
        # down (each table rebuilt once it is back); tables closed for failing the same way
        # twice (every chip back to its owner), and those that could not even be closed
        self.part = RoomPart(self)  # a room table's sections of its states (server/state.py)
        self.counts = {"faults": 0, "outages": 0, "closed_failing": 0, "close_failed": 0,
                       "restore_failed": 0}
        # one process or several nodes (room/ports.py), chosen where the app is built: who
        # runs a table, what the other nodes are told, and the players' money
        chosen = ports(self)
        self.ownership, self.fanout, self.bankroll = \
            chosen.ownership, chosen.fanout, chosen.bankroll

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
                if await self.ownership.lost(table):
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
                    elif not self.ownership.faults.expected(
                            failure, "table %s stopped: rebuilding it from its log",
                            table.table_id):
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
        message = protocol.error("closed", t(TABLE_CLOSED))
        for conn in list(running.connections):
            send(conn.box, message)
            conn.box.close(CLOSE_TABLE_CLOSED, "closed", flush=True)
        self.close(tid)  # stops this task once it awaits, and marks the log closed
        return True
    def drop(self, table_id: str) -> None:
        """Several nodes: stop running a table here (its lease lost, or released by a node
        that drains); its clients are told to reconnect (to its new owner)."""
        running = self.tables.pop(table_id, None)
        if running is None:
            return
        for person, (r, _) in list(self.practice.items()):
            if r is running:
                del self.practice[person]
        running.table.retire()  # it answers nothing more
        if running.task is not None and running.task is not asyncio.current_task():
            running.task.cancel()
        inbox = running.owner.inbox
        while not inbox.empty():  # whoever waits for a command is answered
            _, future = inbox.get_nowait()
            if not future.done():
                future.set_exception(RoomRefused(t("the table is restarting: try again in"
                                                   " a moment"), code="unavailable"))
        for conn in list(running.connections):
            send(conn.box, moved_message(None))
            conn.box.close(CLOSE_MOVED, "moved", flush=True)

    def reopen(self, running: Running) -> None:
        """Rebuild ``running``'s table from its log in this process (:func:`rebuild`: its
        subscribers, and each player's clock and connection, kept)."""
        table = rebuild(running.table)
        running.table = running.owner.table = table
        running.views.forget()
        for conn in running.connections:
            conn.schedule_state()

    def create(self, config: TableConfig, host: str | None = None) -> str:
        """A new table (its id is unguessable: a private table is reached by it alone), run
        by ``host`` when one is given."""
        table_id = secrets.token_urlsafe(9)
        agents, styles = self._agents(table_id, config.seats)
        self.log.create_table(config, table_id)
        deck = None
        seed = self.hub.settings.deck_seed
        if seed is not None:  # tests: the n-th table opened deals the same decks every run
            decks = random.Random(f"{seed}:{self._opened}")
            deck = lambda: Deck(seed=decks.randrange(2**32))  # noqa: E731
        table = RoomTable(self.log, table_id, config,
                          self.bankroll, agents=agents, policy=self.policy(deck=deck),
                          on_hand=self._hand_over,
                          epoch=self.ownership.claim_new(table_id))
        if host is not None:
            table.appoint(host)
        self._opened += 1
        self._run(table, styles)
        return table_id

    def open(self, config: TableConfig, table_id: str, kit: Any) -> Running:
        """A new practice table (``config.practice``), with its kit's bots, bankroll and
        decks: run like every table, never listed nor reachable from outside."""
        self.log.create_table(config, table_id)
        table = RoomTable(self.log, table_id, config,
                          kit.bankroll, agents=kit.agents, policy=self.practice_policy(kit),
                          on_hand=self._hand_over,
                          epoch=self.ownership.claim_new(table_id))
        return self._run(table, dict(kit.styles))

    def policy(self, **kwargs: Any) -> TablePolicy:
        """A room table's policy: the room's pauses, the node's say on dealing."""
        return TablePolicy(think_ms=self.think_ms, pause_ms=self.pause_ms,
                           held_back=self._held_back, **kwargs)

    def practice_policy(self, kit: Any, restored: bool = False) -> PracticePolicy:
        """A practice table's (the person's page attaches to it: server/practice.py)."""
        return PracticePolicy(think_ms=self.think_ms, pause_ms=self.pause_ms,
                              table_deck=kit.deck, held_back=self._held_back,
                              restored=restored)

    def _held_back(self, table_id: str) -> bool:
        """Several nodes: a table this node hands over, or every table of a node that
        drains, deals no new hand (one process: never)."""
        return self.ownership.holds_back(table_id)

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
            send(conn.box, protocol.error("no_table", gone))
            conn.box.close(4404, "closed", flush=True)
        self.close(table_id)
        self.ownership.closed(table_id)

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
        # one process: every table of the log; several nodes: this node's share of them
        await self.ownership.start()

    async def run_every_table(self) -> None:
        """One process: restore every stored table and run it here."""
        self._empty_practice = []
        try:
            await self._restore_all()
        finally:
            empty, self._empty_practice = self._empty_practice, None
        for running in self.tables.values():
            if running.task is None:
                self._start(running)
        for running in empty:
            running.owner.submit(lambda r=running: self._stand_up(r))  # type: ignore[misc]

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
        policy = self.policy() if kit is None else self.practice_policy(kit, restored=True)
        try:
            table = restore(self.log, table_id, bankroll, agents=agents, policy=policy,
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
            # the table deals nothing until the person's page attaches, and the hand in play
            # waits for them too (its policy): nothing moves their money before their page
            # is back (the clock restarts then, with the grace)
            people = [p for p in table.players.values() if not is_bot(p)]
            if people:
                self.practice[people[0]] = (running, kit)
            elif self._empty_practice is not None:  # the person left: the bots stand up
                self._empty_practice.append(running)  # and it closes, once all are restored
            else:  # a table claimed while the room runs: the bots stand up now
                running.owner.submit(lambda r=running: self._stand_up(r))  # type: ignore[misc]
        return running

    async def stop(self) -> None:
        if self._sweeping is not None:
            self._sweeping.cancel()
        await self.ownership.stop()  # several nodes: its tables stop, their leases released
        # a copy: a table's owner that finishes its step while it stops may close the table
        for running in list(self.tables.values()):
            if running.task is not None:
                running.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await running.task
        if self.writer is not None:  # what the tables handed it, stored
            await asyncio.to_thread(self.writer.close)

    def listing(self) -> list[dict[str, Any]]:
        """The public tables, for the lobby (several nodes: the others' too, through
        Redis)."""
        return self.local_listing() + self.fanout.listing()

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
                if not self.ownership.faults.expected(exc, "tending table %s failed",
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


# ---------------------------------------------------------------------------- states
class RoomPart(Sections):
    """A room table's sections: the viewer's money, the result of the last hand, the table
    and where the viewer stands (``room``: the settings, the host, the chat, the votes, the
    fair deal), a tournament's table's tournament."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def own(self, v: Viewer, state: TableState) -> None:
        room, running, player = self.room, v.running, v.player
        rt = running.table
        hand = rt.hand
        me = v.me
        # a stored player is in memory (the connection loaded them once); a visitor who only
        # watches is kept nowhere and has the starting bankroll: no database read per state
        person = room.hub.players.get(player) if player else None
        at_table = in_pot = 0
        if me is not None and not rt.config.tournament:  # tournament chips are not money
            at_table = me.chips + me.pending_chips
            if hand is not None and v.you is not None:
                at_table = hand.stacks[v.you] + me.pending_chips
                in_pot = hand.totals[v.you]
        starting = room.hub.settings.starting_bankroll
        bankroll = person.bankroll if person is not None else starting if player else 0
        if rt.last_hand is not None:
            lp = rt.last_players
            state.last_result = as_wire(running.views.result(
                rt.last_hand, lp.index(player) if player in lp else None, rt.hand_no))
        state.waiting = hand is None and rt.table.ready_count() < 2
        state.leaving = v.seat is not None and v.seat in rt.leaving
        state.me = as_wire({"bankroll": bankroll, "at_table": at_table, "in_pot": in_pot,
                            "total": bankroll + at_table + in_pot, "starting": starting,
                            "version": person.purse.version if person is not None else 0})
        sh = v.shared
        chat, chat_seated = running.views.chat(rt)
        state.room = as_wire({
            "table": rt.table_id, "seq": rt.seq, "config": running.views.config(rt),
            "seated": v.seat is not None, "hand_no": rt.hand_no,
            "spectators": running.views.spectators(running),
            # the fair deal: the hand's commitment; the last hand's, revealed
            "commitment": rt.deal.commitment if hand is not None and rt.deal else None,
            "revealed": sh.revealed,
            "at": int(time.time()),
            "chat": chat if v.seat is None else chat_seated,
            "home": home_json(rt, player)})
        # a tournament's table (server/tournaments.py): the tournament as the viewer sees it
        state.tournament = as_wire(room.tournaments.info(rt.table_id, player)
                                   if rt.config.tournament and room.tournaments is not None
                                   else None)


# ---------------------------------------------------------------------------- faults
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
