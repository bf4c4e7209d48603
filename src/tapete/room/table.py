"""A room table: the one owner of a table's state, writing its event log before it speaks.

The design
----------
:class:`RoomTable` is a plain class, not a task: every change goes through one of its
methods (``sit``, ``add_chips``, ``sit_out``, ``sit_in``, ``leave``, ``act``, ``poll``), and
**one** asyncio task per table calls them, one at a time (the server's WebSocket handlers put
commands on that task's queue and await the answer: :class:`TableOwner`, which also ticks
the timers). :class:`RoomTable` itself never awaits, sleeps or reads the wall clock (the log
stamps its records with the time, for bookkeeping only), so a table is deterministic given
its clock, its decks and its commands, and tests drive it directly.

The table is made of parts (room/part.py), each with its own state, steps and piece of the
snapshot: the seats' commands (room/seats.py), the hand in play (room/dealer.py), the timers
(room/timers.py), the host (room/host.py), the votes (room/votes.py), the chat
(room/chat.py), the straddles (room/straddles.py) and a tournament's seating
(room/seating.py). :class:`RoomTable` keeps the seats, the hand, the turn, the clock and the
money, runs every command through one batch and delegates the rest. What a kind of table
decides that its records do not (when to deal, the pauses, the bots' pace, the decks,
holding the timers for a person away) is its :class:`~tapete.room.policy.TablePolicy`, given
when it is built: nothing outside ``room/`` assigns a table's fields.

Each command either raises :class:`~tapete.room.errors.Refused` (in English and Spanish) having
changed nothing and stored nothing, or produces a batch of records that is

1. appended to the :class:`~tapete.room.log.EventLog` in one transaction (the command returns
   only once it is stored),
2. then followed by the bankroll moves it implies (each keyed by its record, so made once),
3. then published to every subscriber, filtered for that subscriber's viewer.

In the server the records are stored off the event loop, with group commit
(:mod:`tapete.room.writer`): the owner hands a command's records to one writer thread, which
stores whatever the tables handed it meanwhile in one transaction, and steps 2 and 3 (with
the caller's answer, the states and the hooks) wait for that commit. Records that move money
are stored at once, as above.

If the store fails (the database is down, or another owner wrote first), the command raises,
nothing was published or moved, and this copy refuses every later command: the table's next
owner rebuilds it with :func:`restore` from the log, which holds nothing of the failed
command. Every ``SNAPSHOT_EVERY`` hands the table also stores its state between two hands
(:meth:`RoomTable.snapshot`, never sent to anyone): a restore starts there and replays only
the records after it, so a restart does not grow with the table's history.

Records (``kind``: ``payload``):

- ``sat``: a player took a seat with a buy-in; ``chips``: chips added (``asked`` and
  ``taken``: what the table maximum let in); ``sit_out``, ``sit_in`` (``post``: post the
  missed blinds now, else wait for the big blind); ``leave``: the player asked to leave;
  ``left``: the seat emptied and ``chips`` went back to the bankroll; ``refund``: chips added
  during a hand that found no room under the maximum, given back;
- ``start``: a hand began: its :class:`~tapete.core.setup.HandSetup`, the whole deck in
  dealing order and the secret of a fair deal (neither published before the hand ends: they
  are what lets :func:`restore` deal the same cards), the deal's ``commitment`` (published:
  docs/fairness.md) and the player of each hand seat;
- ``event``: one of the hand's own events (:func:`tapete.core.events.to_json`), with, for a
  betting action, the time bank it used;
- ``turn``: a new decision: the seat to act. Its sequence number is the decision's number,
  which :meth:`RoomTable.act` must quote;
- ``end``: the hand's result applied to the seats, with the fair deal revealed (``deck``,
  ``secret``, ``commitment``: :func:`tapete.core.fair.verify` checks the hand against
  them); ``void``: a hand called off after a crash; ``closed``: the table closed for good
  (:meth:`RoomTable.shut`).

Publishing: every subscriber receives every record, in order, numbered by the table's ``seq``
(gap-free: a client resumes with ``subscribe(after=last seq seen)``), but only what its viewer
may see: another seat's hole cards are hidden (their ``Shown`` event reveals them), the deck
and the players' ids never leave the table.

Time (:class:`~tapete.room.clock.Clock`, injected): the player to act has ``act_ms``, then
their time bank for the street (preflop or postflop, PokerStars style, see
:class:`~tapete.room.log.TableConfig`); a player with no connection gets the disconnect grace
first: ``grace_base_ms + grace_per_bb_ms x (pot in whole big blinds)``, at most
``grace_max_ms``, with the seat held. When all of it runs out, :meth:`poll` checks (when free)
or folds for them and sits them out after the hand (docs/rules.md section 3: a player who
runs out of time is folded, or checked; this room sits the player out rather than removing
them, as the practice table does). A player who asked to leave mid-hand is checked or folded
at their turn at once.

Money: buy-ins and chips added are taken from a :class:`~tapete.room.money.Bankroll`, chips
leaving the table are given back to it. After every hand the table checks its books: chips
taken in, less chips given back, less rake, equal the chips on the table.

Crash resume: :func:`restore` rebuilds the table from its log alone by running every stored
command again (a record that starts a batch) and checking that it produces the very records
stored after it. The deck is stored, so the hand in play has the same cards and the same
player to act. By default the hand resumes (``OnCrash.RESUME``): every card already dealt was
dealt fairly and players have seen their cards, so calling the hand off would let whoever was
losing it gain from the crash, and the log holds all the hand needs. With
``OnCrash.VOID`` the hand is called off: every chip goes back where it stood when the hand
began (the blinds and the button have still moved on), and what was pending in it closes
with it (its run-it-twice vote: a ``decided`` record, ``closed``). Either way every timer
keeps its deadline: the records are stamped with the clock's wall time (``Clock.wall_ms``),
and a replayed command starts its timers when it was stored (the turn's clock, a vote, a
pause, the pause before the next deal), so one that ran out during the outage fires at once;
the player to act, connected to nobody yet, has the disconnect grace on top.

A fault (an exception that is not a :class:`~tapete.room.errors.Refused`, inside a command or
the timers) leaves the state in doubt: the table is ``broken``, keeps the exception
(``failure``) and is rebuilt from its log (:func:`rebuild`, in the same process: the hand
goes on, the players connected keep their clock). A store the database could not take is
answered :class:`~tapete.room.errors.Unavailable` (the client may send it again). The room
closes a table that fails the same way twice (:meth:`RoomTable.shut`: the hand called off,
every chip back to its owner: a ``closed`` record), so no restore brings the fault back for
ever.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, Generic, NoReturn, Protocol, TypeVar

from tapete.core import events as ev
from tapete.core.actions import Action
from tapete.core.cards import Deck
from tapete.core.catalog import t
from tapete.core.errors import BooksError
from tapete.core.fair import FairDeal
from tapete.core.hand import Hand
from tapete.core.table import Seat, Table, TimeOutPolicy
from tapete.core.view import Viewer, event_json_seen, sees_hole
from tapete.room.chat import ChatLog
from tapete.room.clock import Clock, SystemClock
from tapete.room.dealer import Dealer
from tapete.room.errors import Refused, Unavailable
from tapete.room.host import Host
from tapete.room.log import Append, EventLog, OnCrash, Record, TableConfig, storage_down
from tapete.room.money import Bankroll
from tapete.room.part import MOST_CHIPS, Batch
from tapete.room.part import POST as POST  # named here too (the time banks, a bot)
from tapete.room.part import PRE as PRE
from tapete.room.part import Agent as Agent
from tapete.room.policy import TablePolicy, TournamentPolicy
from tapete.room.seating import Seating, no_tournament
from tapete.room.seats import Seats
from tapete.room.straddles import Straddles
from tapete.room.timers import Timers, pool
from tapete.room.votes import Votes
from tapete.room.writer import GroupWriter, Ticket

RECENT = 50  # the hands the lobby's average pot is taken over
# hands between two snapshots of a table (a restart replays at most this many hands' records)
SNAPSHOT_EVERY = 20
_log = logging.getLogger("tapete.room")
# the records that start a batch: a command, run again on restore
_COMMANDS = ("sat", "chips", "sit_out", "sit_in", "leave", "start", "event", "void",
             "host", "request", "chat", "straddle", "propose", "voted", "tourney", "closed")
ID_KEYS = ("player", "by")  # the payload keys that hold a player's id (never sent)
T = TypeVar("T")


class _Field(Generic[T]):
    """A part's field, read through the table (``table.host`` is ``table.hosting.host``);
    assigning it is refused: a part's state changes by its commands."""

    def __init__(self, part: str, name: str) -> None:
        self.part, self.name = part, name

    def __get__(self, table: object, owner: type | None = None) -> T:
        value: T = getattr(getattr(table, self.part), self.name)
        return value

    def __set__(self, table: object, value: T) -> None:
        raise AttributeError(f"{self.name} is the table's {self.part} part's: a command"
                             " changes it")


class Subscriber(Protocol):
    """Someone watching the table: ``player`` is the id of the player whose seat it sees
    (two tabs of one player are two subscribers with the same id), None for a spectator.
    ``send`` must not block: the server puts the message on the connection's queue."""

    @property
    def player(self) -> str | None: ...

    def send(self, message: dict[str, Any]) -> None: ...


def _norm(payload: dict[str, Any]) -> dict[str, Any]:
    """A payload as the log gives it back (JSON): tuples are lists."""
    out: dict[str, Any] = json.loads(json.dumps(payload, sort_keys=True))
    return out


class RoomTable:
    """One table of the room. Build a new one with :meth:`open`, or :func:`restore` it."""

    _pool = staticmethod(pool)  # the time bank a decision draws on (room/timers.py)
    host = _Field[str | None]("hosting", "host")
    requests = _Field[dict[int, dict[str, Any]]]("hosting", "requests")
    paused = _Field[str | None]("hosting", "paused")
    paused_at = _Field[int]("hosting", "paused_at")
    changes = _Field[dict[str, Any]]("hosting", "changes")
    stack_edits = _Field[dict[int, int]]("hosting", "stack_edits")
    kicked = _Field[set[str]]("hosting", "kicked")
    muted = _Field[set[str]]("hosting", "muted")
    over = _Field[bool]("hosting", "over")
    votes = _Field[dict[int, dict[str, Any]]]("voting", "open")
    bomb_next = _Field[bool]("voting", "bomb_next")
    chat = _Field["deque[dict[str, Any]]"]("chat_log", "lines")
    straddlers = _Field[set[str]]("straddling", "players")
    next_level = _Field[dict[str, Any] | None]("seating", "next_level")
    absent = _Field[set[str]]("seating", "absent")

    def __init__(self, log: EventLog, table_id: str, config: TableConfig, bankroll: Bankroll,
                 *, clock: Clock | None = None, policy: TablePolicy | None = None,
                 secret: Callable[[], bytes] | None = None,
                 agents: dict[str, Agent] | None = None,
                 on_hand: Callable[[RoomTable, Hand], None] | None = None,
                 snapshot_every: int = SNAPSHOT_EVERY, epoch: int | None = None,
                 **plain: Any) -> None:
        self.log = log
        # the epoch of this node's lease of the table (several nodes, see room/log.py): every
        # write quotes it and is refused once another node claimed the table; None: one node
        self.epoch = epoch
        self.snapshot_every = snapshot_every  # hands between two snapshots (0: none)
        self._snapshot_due = False
        # told of each hand that ends, once it is stored (never while a restore replays):
        # the room stores it among each person's hands
        self.on_hand = on_hand
        self.table_id = table_id
        self.config = config
        self.bankroll = bankroll
        self.clock: Clock = clock if clock is not None else SystemClock()
        # what its kind of table decides (room/policy.py); ``plain``: a plain policy's
        # settings (``deck``, ``auto_start``, ``think_ms``, ``pause_ms``; ``on_tournament``: a
        # tournament's), the tests' shorthand
        if policy is not None and plain:
            raise TypeError(f"a policy or its settings, not both: {sorted(plain)}")
        self.policy = policy if policy is not None else _plain_policy(**plain)
        # each fair deal's secret (``TableConfig.fair``): the OS's CSPRNG unless a test gives
        # its own (:func:`tapete.room.shuffle.shuffle`)
        self.new_secret = secret
        # the players the table plays for (bot seats), by player id; their actions are stored
        # like anyone's, so restore needs no agent to rebuild what they did
        self.agents: dict[str, Agent] = dict(agents or {})
        self.ended_at = 0  # when the last hand ended (clock ms)
        self.rules = config.rules()
        self.table = Table(self.rules, config.seats, min_buy_in=config.min_buy_in,
                           max_buy_in=config.max_buy_in, time_out_policy=TimeOutPolicy.SIT_OUT)
        if config.tournament:
            self.table.min_buy_in, self.table.max_buy_in = 1, MOST_CHIPS
        self.players: dict[int, str] = {}  # seat -> player id
        self.leaving: set[int] = set()
        self.banks: dict[str, dict[str, int]] = {}  # player -> {PRE: ms, POST: ms}
        self.dealt: dict[str, int] = {}  # player -> hands dealt at this table
        self.seq = 0  # the last stored record
        self.hand_no = 0
        self.hand_players: list[str] = []  # the player of each hand seat
        self.turn_seq: int | None = None
        self.turn_at = 0
        self.grace_turn: int | None = None  # the decision the disconnect grace was given to
        self.paid_in = 0
        self.paid_out = 0
        self.raked = 0
        self.subscribers: list[Subscriber] = []
        self._replaying: list[Record] | None = None
        # group commit (TableOwner with a writer): while the owner's step runs, records that
        # move no money are kept (``_keeping``); kept, and then handed to the writer
        # (``_ticket``), they wait to be told (``_unstored``), and so does what waits for them
        self._keeping = False
        self._unstored: list[tuple[list[Record], Hand | None]] = []
        self._ticket: Ticket | None = None
        self._committed = False  # they are stored: only told still
        self._waiting: list[Callable[[], None]] = []
        # while a restore replays a command: when it was stored, on this table's clock
        self._replay_at: int | None = None
        self.broken = False  # a store failed: the table must be restored from its log
        self.failure: BaseException | None = None  # why it broke
        self.recent_pots: deque[int] = deque(maxlen=RECENT)  # the last hands' pots
        self.hand_starts: deque[int] = deque(maxlen=RECENT)  # when they began (Unix ms)
        self.last_hand: Hand | None = None  # the hand that ended last, for its result
        self.deal: FairDeal | None = None  # the hand in play's fair deal, if the table has one
        self.last_deal: FairDeal | None = None  # the last hand's
        self.last_players: list[str] = []  # its player of each hand seat
        # the parts (room/part.py), each with its state, its steps and its snapshot piece;
        # what they hold is read through the table too (``table.host``, ``table.votes``...)
        self.hosting = Host(self)
        self.voting = Votes(self)
        self.chat_log = ChatLog(self)
        self.straddling = Straddles(self)
        self.seating = Seating(self)
        self.timers = Timers(self)
        self.seats = Seats(self)
        self.dealer = Dealer(self, self.hosting, self.voting, self.seating, self.straddling,
                             self.timers)

    @classmethod
    def open(cls, log: EventLog, config: TableConfig, bankroll: Bankroll, *,
             host: str | None = None, **kwargs: Any) -> RoomTable:
        """A new table, stored in ``log`` under a new unguessable id; ``host``: the player who
        runs it (its first record names them)."""
        table = cls(log, log.create_table(config), config, bankroll, **kwargs)
        if host is not None:
            table.appoint(host)
        return table

    def appoint(self, player: str) -> None:
        """Make ``player`` the host of a table that has none yet (its creator)."""
        if self.host is not None:
            raise Refused(t("only the host can do that"), code="not_host")
        self._run(self.hosting.step, {"action": "host", "by": player, "player": player})

    # ------------------------------------------------------------------ reading
    @property
    def hand(self) -> Hand | None:
        return self.table.hand

    def seat_of(self, player: str) -> int | None:
        for seat, p in self.players.items():
            if p == player:
                return seat
        return None

    def table_chips(self) -> int:
        """Every chip on the table: stacks (as they stood when the hand began, while one is
        in play) and chips waiting for the hand's end."""
        return sum(s.chips + s.pending_chips for s in self.table.seats if s is not None)

    def summary(self) -> dict[str, Any]:
        """What a lobby lists: the game, the stakes, the seats taken, the spectators, the
        hands played and the average pot of the last hands (whole chips, rounded down)."""
        c = self.config
        seated = set(self.players.values())
        pots = self.recent_pots
        return {"table": self.table_id, "game": c.game.value, "variant": c.variant,
                "small_blind": c.small_blind,
                "big_blind": c.big_blind, "min_buy_in": c.min_buy_in,
                "max_buy_in": c.max_buy_in, "seats": c.seats, "taken": len(self.players),
                "spectators": sum(1 for x in self.subscribers if x.player not in seated),
                "hands": self.hand_no, "average_pot": sum(pots) // len(pots) if pots else 0,
                "public": c.public, "bots": c.bots}

    def connected(self, player: str) -> bool:
        return any(s.player == player for s in self.subscribers)

    def _from_wall(self, wall: int) -> int:
        """A moment stamped in Unix ms (a record's ``at``), on this table's clock; one that
        is later than now (another node's clock ahead of this one's) is now."""
        return self.clock.now_ms() - max(0, self.clock.wall_ms() - wall)

    def _to_wall(self, ms: int) -> int:
        return ms + self.clock.wall_ms() - self.clock.now_ms()

    def _now(self) -> int:
        """Now, on the table's clock; while a restore replays a command, the moment it was
        stored (its records' stamp, on this clock): every deadline it started (a turn, a vote,
        the pause before the next hand) is the one it started then, however long ago."""
        return self.clock.now_ms() if self._replay_at is None else self._replay_at

    # ------------------------------------------------------------------ subscribing
    def subscribe(self, sub: Subscriber, after: int = 0) -> None:
        """Send ``sub`` every record after ``after`` (0: the whole history) as its viewer may
        see it, then every new one. Someone without a seat is refused where the table allows
        no spectators."""
        if not self.config.spectators and (sub.player is None
                                           or self.seat_of(sub.player) is None):
            raise Refused(t("this table allows no spectators: take a seat to watch"))
        self._flush()  # records on their way to the log: stored and told first
        # the players of the hand that record ``after`` is in (its start record), then only
        # the records after it: a client resuming reads what it missed, not the whole log
        if after < self.seq:  # none after the last: no read (a client that asks for none)
            start = self.log.last_start(self.table_id, after) if after > 0 else None
            context: list[str] = list(start.payload["players"]) if start is not None else []
            for r in self.log.read(self.table_id, after=after):
                if r.kind == "start":
                    context = list(r.payload["players"])
                if r.seq > after:
                    sub.send(self._message(r, sub.player, context))
        self.subscribers.append(sub)
        self._note_presence()

    def unsubscribe(self, sub: Subscriber) -> None:
        if sub in self.subscribers:
            self.subscribers.remove(sub)
        self._note_presence()

    def _note_presence(self) -> None:
        """A player to act with no connection left gets the disconnect grace."""
        hand = self.hand
        if hand is not None and hand.actor is not None and self.turn_seq is not None \
                and not self.connected(self.hand_players[hand.actor]):
            self.grace_turn = self.turn_seq

    def _message(self, r: Record, viewer: str | None, players: list[str]) -> dict[str, Any]:
        data = {"hidden": True} if r.kind == "chat" and self._hides(r, viewer) \
            else visible(r, viewer, players)
        return {"table": self.table_id, "seq": r.seq, "kind": r.kind, "data": data}


    # ------------------------------------------------------------------ commands
    def sit(self, player: str, name: str, buy_in: int, seat: int | None = None, *,
            wait_for_big_blind: bool = True) -> int | None:
        """Take a seat (the first free one unless ``seat``), buying in for ``buy_in``. At a
        host's table that approves seats, ask for it instead: None (a ``request``)."""
        return self.seats.sit(player, name, buy_in, seat, wait_for_big_blind)

    def add_chips(self, player: str, amount: int) -> int:
        """Add chips (now between hands, at the hand's end during one), up to the table
        maximum. Returns the chips taken from the bankroll (0: at a host's table that approves
        rebuys, asked for: a ``request``)."""
        return self.seats.add_chips(player, amount)

    def sit_out(self, player: str) -> None:
        """Sit out (after the hand, when in one)."""
        self.seats.sit_out(player)

    def sit_in(self, player: str, post: bool = False) -> None:
        """Come back: ``post`` the missed blinds now, or wait for the big blind."""
        self.seats.sit_in(player, post)

    def leave(self, player: str) -> None:
        """Leave the table: the chips go back to the bankroll, once the hand is over."""
        self.seats.leave(player)

    def act(self, player: str, seq: int, action: Action) -> None:
        """Play ``action`` for ``player``'s seat at the decision numbered ``seq`` (the ``turn``
        record's). Two tabs acting on one decision: the first wins, the second is stale."""
        self.dealer.act(player, seq, action)

    def start_hand(self) -> None:
        self.dealer.start_hand()

    # ------------------------------------------------------------------ the parts' commands
    # Each feature is a part with its own state, steps and snapshot piece (room/part.py):
    # the tournament's seating (room/seating.py), the host (room/host.py), the chat
    # (room/chat.py), the straddles (room/straddles.py) and the votes (room/votes.py).
    def tournament_seat(self, player: str, name: str, seat: int, chips: int, *,
                        dealt_in: bool = True, agent: Agent | None = None) -> None:
        """Seat ``player`` at ``seat`` with exactly ``chips`` from the chip account;
        ``dealt_in``: dealt in from the next hand, owing no blind (a player moved in);
        ``agent``: the bot that plays for them (never stored: a restore is given it)."""
        self.seating.seat(player, name, seat, chips, dealt_in)
        if agent is not None:
            self.agents[player] = agent

    def tournament_unseat(self, player: str) -> int:
        """Take ``player`` off the table between their hands (moved or knocked out): their
        chips go back to the chip account. Returns them."""
        return self.seating.unseat(player)

    def tournament_deal(self, small_blind: int, big_blind: int, ante: int = 0, *,
                        big_blind_ante: bool = True, level: int = 0) -> None:
        """Allow one hand, at these blinds and ante (``level``: the tournament's, from 1,
        shown); it is dealt when two players are ready."""
        self.seating.deal(small_blind, big_blind, ante, big_blind_ante, level)

    def tournament_hold(self) -> None:
        """Deal no hand until the next :meth:`tournament_deal` (hand-for-hand, a break, the
        end)."""
        self.seating.hold()

    def tournament_stacks(self) -> dict[str, int]:
        """Each seated player's chips (as they stood when the hand began, during one)."""
        out: dict[str, int] = {}
        for seat, player in self.players.items():
            s = self.table.seats[seat]
            assert s is not None
            out[player] = s.chips + s.pending_chips
        return out

    def host_command(self, player: str, action: str, args: dict[str, Any]) -> None:
        """The host's ``action`` (room/host.py's ``HOST_ACTIONS``) with its ``args``."""
        no_tournament(self.config)
        self.hosting.command(player, action, args)

    def say(self, player: str, text: str) -> None:
        """Chat at the table (room/chat.py)."""
        self.chat_log.say(player, text)

    def ask_straddle(self, player: str, on: bool) -> None:
        """Straddle (or not) whenever the seat after the big blind is yours (re-straddle after
        another's straddle, where the table allows it)."""
        seat = self._seated(player)
        no_tournament(self.config)
        self.straddling.ask(player, on, seat)

    def propose(self, player: str, kind: str) -> None:
        """Ask the table for a bomb pot next hand (``kind`` "bomb", room/votes.py)."""
        seat = self._seated(player)
        no_tournament(self.config)
        self.voting.propose(player, kind, seat)

    def vote(self, player: str, vote: int, yes: bool) -> None:
        """Answer vote ``vote`` (the seq of the record that opened it)."""
        self.voting.vote(player, vote, yes)

    def _name(self, seat: int) -> str:
        s = self.table.seats[seat]
        return s.name if s is not None else ""

    def poll(self) -> bool:
        """One step of the timers (room/timers.py): True when they took one."""
        return self.timers.poll()

    def due_ms(self) -> int | None:
        """Milliseconds until :meth:`poll` has something to do (0: now), or None."""
        return self.timers.due_ms()

    def deadline(self) -> int | None:
        """When the player to act runs out of time (clock milliseconds), or None."""
        return self.timers.deadline()

    def grace_ms(self) -> int:
        return self.timers.grace_ms()

    def retire(self) -> None:
        """This copy answers nothing more: a rebuilt copy replaced it, or another node owns
        the table now."""
        self.broken = True

    def _seated(self, player: str) -> int:
        seat = self.seat_of(player)
        if seat is None:
            raise Refused(t("you have no seat at this table"))
        return seat

    # ------------------------------------------------------------------ the batch
    def _run(self, step: Callable[[dict[str, Any], Batch], None],
             command: dict[str, Any]) -> list[Record]:
        """Run one command: build its records (the state changes as they are built), store
        them, move the money, publish. While :func:`restore` replays, the records must be
        the stored ones instead. Inside the owner's step with a writer (:class:`TableOwner`:
        group commit), records that move no money are kept for the writer, and told once it
        has stored them (:meth:`_stored`); records that move money are stored at once, as
        everywhere else. Whatever was kept before a command is stored and told before it
        runs (:meth:`_flush`): each command runs on a state its log holds."""
        if self.broken:
            raise Refused(t("the table is restarting: try again in a moment"),
                          code="unavailable")
        if self._replaying is None:
            self._flush()
        batch: Batch = []
        try:
            step(command, batch)
        except Refused:  # refused before anything changed
            raise
        except Exception as exc:
            if self._replaying is None:  # a fault: the state is in doubt, the log is not
                self.broken, self.failure = True, exc
            raise
        kept = False
        if self._replaying is not None:
            stored = self._replaying[:len(batch)]
            got = [(k, _norm(p)) for k, p in batch]
            if [(r.kind, r.payload) for r in stored] != got:
                raise BooksError(f"table {self.table_id}: the log does not replay at seq"
                                 f" {self.seq + 1}: stored {stored[:3]}, replayed {got[:3]}")
            records = stored
            del self._replaying[:len(batch)]
        elif self._keeping and not money_moves(self.table_id, self.seq + 1, batch):
            at = self.clock.wall_ms()
            records = [Record(self.seq + 1 + i, k, _norm(p), at)
                       for i, (k, p) in enumerate(batch)]
            kept = True
        else:
            try:
                records = self.log.append(self.table_id, self.seq + 1,
                                          [(k, _norm(p)) for k, p in batch],
                                          at=self.clock.wall_ms(), epoch=self.epoch,
                                          within=self._within(batch))
            except BaseException as exc:
                # the state moved on but the log did not: this copy is done; whoever owns the
                # table next restores it from the log, where nothing of the command is
                self._broke(exc)
        self.seq += len(records)
        # when hands began, by the log's stamps (the lobby's hands an hour: a restore
        # replays the hands, it does not deal them again now)
        self.hand_starts.extend(r.at for r in records if r.kind == "start")
        if not kept:
            self._move_money(records)
        if self.turn_seq is not None and self.turn_seq > self.seq - len(records):
            self.turn_at = self._now()
            self._note_presence()
        if kept:
            ended = self.last_hand if any(r.kind == "end" for r in records) else None
            self._unstored.append((records, ended))
        elif self._replaying is None:
            self._tell(records, self.last_hand)
        return records

    def _tell(self, records: list[Record], last_hand: Hand | None) -> None:
        """What a stored command tells: its records to the subscribers, the hand that ended
        to ``on_hand`` (``last_hand``: the table's when the records were made), its end to
        the tournament; and the snapshot that falls due."""
        self._publish(records)
        ended = any(r.kind in ("end", "void") for r in records)
        if ended and self.on_hand is not None and last_hand is not None and \
                any(r.kind == "end" for r in records):
            self.on_hand(self, last_hand)
        if ended and self.config.tournament:
            self.policy.hand_ended(self)
        if ended and self.snapshot_every and self.hand_no % self.snapshot_every == 0:
            self._snapshot_due = True
        # a snapshot waits for the bankroll to have stored every move of the table (a
        # restore from it asks for none before it): at the next hand's end, if not now; and
        # for the table to stand where these records left it (a command run after them in
        # the same step of its owner, not stored yet: at the next hand's end)
        if ended and self._snapshot_due and self.hand is None \
                and self.seq == records[-1].seq and self.bankroll.settled(self.table_id):
            self._snapshot_due = False
            self._keep_snapshot()

    def _broke(self, exc: BaseException) -> NoReturn:
        """A store failed: this copy is done (see :meth:`_run`)."""
        self.broken, self.failure = True, exc
        self._unstored.clear()
        self._ticket, self._committed = None, False
        self._waiting.clear()
        if isinstance(exc, Exception) and storage_down(exc):
            raise Unavailable() from exc  # the client may send it again
        raise exc

    @property
    def unstored(self) -> bool:
        """Whether the table stands ahead of its log: a command's records are on their way
        to the writer (group commit); what it tells waits for them (:meth:`when_stored`)."""
        return bool(self._unstored)

    def when_stored(self, fn: Callable[[], None]) -> None:
        """Call ``fn`` once the table's records on their way are stored and told (now when
        none are; never when the store fails: the table is rebuilt from its log)."""
        if self._unstored:
            self._waiting.append(fn)
        else:
            fn()

    def _flush(self) -> None:
        """Store and tell the records kept so far, in order, before the next command runs:
        kept by the owner's step still running (a step of several commands), stored here;
        handed to the writer (a command run outside the owner meanwhile), waited for (the
        writer needs nothing of the loop)."""
        if not self._unstored:
            return
        if not self._committed:
            ticket = self._ticket
            if ticket is None:
                records = [r for rs, _ in self._unstored for r in rs]
                try:
                    self.log.append_records(self.table_id, records, epoch=self.epoch)
                except BaseException as exc:
                    self._broke(exc)
            else:
                error = ticket.wait()
                if error is not None:
                    self._broke(error)
            self._committed = True
        self._told()

    def _keep(self) -> Append | None:
        """The owner's step is over: the records it kept, for the writer (None: none)."""
        self._keeping = False
        if not self._unstored:
            return None
        return Append(self.table_id, [r for rs, _ in self._unstored for r in rs], self.epoch)

    def _stored(self, ticket: Ticket) -> None:
        """The writer has answered for the records handed to it: told now (unless a command
        run meanwhile told them already), or the table is broken (the store's failure)."""
        if self._ticket is not ticket:  # told (or broken) already, by :meth:`_flush`
            if ticket.error is not None:
                raise Unavailable() if storage_down(ticket.error) else ticket.error
            return
        if ticket.error is not None:
            self._broke(ticket.error)
        self._committed = True
        self._told()

    def _told(self) -> None:
        """Tell the stored records, in order (a command one of them leads to, run at once,
        tells the rest first), then what waited for them."""
        failure: BaseException | None = None
        while self._unstored:
            records, last_hand = self._unstored.pop(0)
            try:
                self._tell(records, last_hand)
            except Exception as exc:  # the next records are stored: told all the same
                failure = failure or exc
        self._ticket, self._committed = None, False
        waiting = self._waiting[:]
        self._waiting.clear()
        for fn in waiting:
            fn()
        if failure is not None:
            raise failure

    # ------------------------------------------------------------------ snapshots
    def _keep_snapshot(self) -> None:
        """Store the table's state between hands; a failure only means a longer restore."""
        try:
            self.log.save_snapshot(self.table_id, self.seq, self.snapshot(), epoch=self.epoch)
        except Exception:  # the log holds everything: a restore replays more of it
            _log.exception("table %s: the snapshot after %s was not stored", self.table_id,
                           self.seq)

    def snapshot(self) -> dict[str, Any]:
        """Everything of the table between two hands that the next records depend on: a
        :func:`restore` loads it, then replays only the records after it, and checks them
        as it always does (a state that did not lead to them is refused)."""
        if self.hand is not None or self.leaving or self.hand_players:
            raise BooksError(f"table {self.table_id}: a snapshot is taken between hands only")
        tb = self.table
        return {
            "seq": self.seq, "hand_no": self.hand_no,
            "players": {str(k): v for k, v in self.players.items()},
            "banks": self.banks, "dealt": self.dealt, "paid_in": self.paid_in,
            "paid_out": self.paid_out, "raked": self.raked,
            "recent_pots": list(self.recent_pots), "hand_starts": list(self.hand_starts),
            "seats": [None if x is None else dataclasses.asdict(x) for x in tb.seats],
            "hand_seats": list(tb.hand_seats), "button_seat": tb.button_seat,
            "small_blind_seat": tb.small_blind_seat, "big_blind_seat": tb.big_blind_seat,
            "last_dealt": sorted(tb.last_dealt), "hands_played": tb.hands_played,
            "config": self.config.to_json(),
            # the parts' pieces (their timers in Unix ms, as the table's own)
            **self.hosting.piece(self._to_wall), **self.straddling.piece(),
            **self.voting.piece(self._to_wall), **self.chat_log.piece(),
            **self.seating.piece(),
            # the timers, in Unix ms (a restore works them out on its own clock)
            "ended_wall": self._to_wall(self.ended_at),
        }

    def _within(self, batch: Batch) -> Callable[[Any], None] | None:
        """The bankroll moves of ``batch`` as a step of the transaction that stores it, for
        a bankroll that makes its moves so (several nodes: ``moves_within``); else None (the
        moves follow the append: :meth:`_move_money`)."""
        within = getattr(self.bankroll, "moves_within", None)
        if within is None:
            return None
        moves = money_moves(self.table_id, self.seq + 1, batch)
        return None if not moves else within(moves)

    def _move_money(self, records: list[Record]) -> None:
        """The bankroll moves the stored records make (:func:`money_moves`), each keyed by
        its record; a move to the table the bankroll refuses breaks the books."""
        if not records:
            return
        batch = [(r.kind, r.payload) for r in records]
        for player, chips, key in money_moves(self.table_id, records[0].seq, batch):
            if chips > 0:
                self.bankroll.give(player, chips, key)
            elif not self.bankroll.take(player, -chips, key):
                raise BooksError(f"the bankroll refused chips it showed ({key})")

    def _publish(self, records: list[Record]) -> None:
        """Each record to every subscriber, made once per kind of viewer (:func:`viewer_kind`):
        the subscribers that see it alike are sent the very same message."""
        for r in records:
            players = list(r.payload["players"]) if r.kind == "start" else self.hand_players
            made: dict[object, dict[str, Any]] = {}
            for sub in list(self.subscribers):
                kind = viewer_kind(r, sub.player, players)
                if r.kind == "chat" and self._hides(r, sub.player):
                    kind = "hidden"
                message = made.get(kind)
                if message is None:
                    message = made[kind] = self._message(r, sub.player, players)
                sub.send(message)

    def _next_seq(self, batch: Batch) -> int:
        return self.seq + len(batch) + 1

    # ------------------------------------------------------------------ steps
    # the steps the parts and a restore run (room/dealer.py, room/seats.py)
    def _start(self, c: dict[str, Any], batch: Batch) -> None:
        self.dealer.start(c, batch)

    def _act(self, c: dict[str, Any], batch: Batch) -> None:
        self.dealer.act_step(c, batch)

    def _void(self, c: dict[str, Any], batch: Batch) -> None:
        self.dealer.void(c, batch)

    def _hand_events(self, hand: Hand, before: int, batch: Batch,
                     bank: dict[str, Any] | None = None) -> None:
        self.dealer.events(hand, before, batch, bank)

    def _sit(self, c: dict[str, Any], batch: Batch, dealt_in: bool | None = None) -> None:
        self.seats.sit_step(c, batch, dealt_in)

    def _add_chips(self, c: dict[str, Any], batch: Batch) -> None:
        self.seats.chips_step(c, batch)

    def _empty(self, seat: int, batch: Batch) -> None:
        self.seats.empty(seat, batch)

    def _set_stack(self, seat: int, chips: int, batch: Batch) -> None:
        self.seats.set_stack(seat, chips, batch)

    def _drop(self, player: str) -> None:
        """A player gone: their requests and straddle go with them."""
        self.straddling.players.discard(player)
        self.hosting.drop(player)

    def _hides(self, r: Record, viewer: str | None) -> bool:
        return self.chat_log.hides(r, viewer)

    def _note(self, batch: Batch) -> None:
        self.chat_log.note(batch)

    def _muted(self, player: str) -> bool:
        return player in self.hosting.muted

    def _clock_stopped(self, ms: int) -> None:
        """The clock stood still ``ms`` (paused): the turn's and the votes' with it."""
        self.turn_at += ms
        self.voting.stopped(ms)

    # ------------------------------------------------------------------ closing for good
    def shut(self, why: str = "failed") -> None:
        """Close the table for good (the room does it to a table that failed the same way
        twice): the hand in play is called off as by ``OnCrash.VOID`` (every stack back where
        it stood when it began), every open vote and request closes, and every seat empties,
        its chips back to their owner's bankroll (``left`` records): the books balance and no
        chip stays at the table. One ``closed`` record, which a restore replays."""
        if self.config.tournament:
            raise Refused(t("a tournament's table is closed by its tournament"))
        self._run(self._shut, {"why": why})

    def _shut(self, c: dict[str, Any], batch: Batch) -> None:
        batch.append(("closed", c))
        h = self.hosting
        h.over = True  # no new hand, no seat, no chips
        h.requests.clear()
        h.stack_edits = {}
        h.paused = None
        self.voting.close(batch, ("bomb",))  # the hand's own close with it
        self.voting.bomb_next = False
        if self.hand is not None:
            self._void({"hand_no": self.hand_no}, batch)  # every seat empties at its end
        else:
            for seat in sorted(self.players):
                self._empty(seat, batch)
            self.check_books()

    def check_books(self) -> None:
        """Chips taken in, less chips given back and rake, are the chips on the table."""
        on_table = self.table_chips()
        if self.paid_in - self.paid_out - self.raked != on_table:
            raise BooksError(f"table {self.table_id}: in {self.paid_in}, out {self.paid_out},"
                             f" rake {self.raked}, on the table {on_table}")

    # ------------------------------------------------------------------ restore

def _plain_policy(*, deck: Callable[[], Deck] | None = None, auto_start: bool = True,
                  think_ms: int = 0, pause_ms: int = 0,
                  on_tournament: Callable[[RoomTable], None] | None = None) -> TablePolicy:
    if on_tournament is not None:
        return TournamentPolicy(on_tournament, deck=deck, deals=auto_start,
                                think_ms=think_ms, pause_ms=pause_ms)
    return TablePolicy(deck=deck, deals=auto_start, think_ms=think_ms, pause_ms=pause_ms)


def money_moves(table_id: str, first_seq: int, batch: Batch) -> list[tuple[str, int, str]]:
    """The bankroll moves a batch stored from ``first_seq`` makes, as (player, chips to the
    bankroll: negative to the table, key): what :meth:`RoomTable._move_money` asks for."""
    out: list[tuple[str, int, str]] = []
    for i, (kind, p) in enumerate(batch):
        key = f"{table_id}:{first_seq + i}"
        if kind == "sat":
            out.append((p["player"], -p["chips"], key))
        elif kind == "chips" and p["taken"]:
            out.append((p["player"], -p["taken"], key))
        elif kind in ("left", "refund") and p["chips"]:
            out.append((p["player"], p["chips"], key))
        elif kind == "stack" and p["delta"]:
            out.append((p["player"], -p["delta"], key))
    return out


def visible(r: Record, viewer: str | None, players: list[str]) -> dict[str, Any]:
    """What ``viewer`` (a player id, None for a spectator) may see of record ``r``;
    ``players`` are the hand's player ids by hand seat. Never the deck, never an id; the hole
    cards the observer (:mod:`tapete.core.view`) lets the viewer see."""
    p = r.payload
    if r.kind == "start":
        you = Viewer.of_player(viewer, players).seat
        out = {"hand_no": p["hand_no"], "setup": p["setup"], "you": you}
        if "commitment" in p:
            out["commitment"] = p["commitment"]
        return out
    if r.kind == "event":
        e = p["event"]
        seen = event_json_seen(e, Viewer.of_player(viewer, players))
        return p if seen is e else {**p, "event": seen}
    if "player" in p or "by" in p:  # ids never leave the table: whether it is the viewer
        out = {k: v for k, v in p.items() if k not in ID_KEYS}
        if "player" in p:
            out["yours"] = p["player"] == viewer
        if "by" in p:
            out["by_you"] = p["by"] == viewer
        return out
    return p


def viewer_kind(r: Record, viewer: str | None, players: list[str]) -> object:
    """Which of :func:`visible`'s answers ``viewer`` gets for ``r``: two viewers of the same
    kind see the record alike (``start``: the hand seat they play; a ``HoleDealt``: whether
    the cards are theirs; a record about a player: whether it is them; else all alike)."""
    p = r.payload
    if r.kind == "start":
        return Viewer.of_player(viewer, players).seat
    if r.kind == "event":
        e = p["event"]
        return e.get("type") == "HoleDealt" and sees_hole(
            Viewer.of_player(viewer, players), e["player"], shown=False)
    if "player" in p or "by" in p:
        return p.get("player") == viewer, p.get("by") == viewer
    return None


def _load(table: RoomTable, state: dict[str, Any]) -> None:
    """The state :meth:`RoomTable.snapshot` gave, into a table just built (no record
    replayed): the table's own, then each part's piece."""
    tb = table.table
    if table.seq or len(state["seats"]) != len(tb.seats):
        raise BooksError(f"table {table.table_id}: the snapshot does not fit this table")
    table.seq, table.hand_no = int(state["seq"]), int(state["hand_no"])
    table.players = {int(k): str(v) for k, v in state["players"].items()}
    table.banks = {str(p): {str(k): int(v) for k, v in b.items()}
                   for p, b in state["banks"].items()}
    table.dealt = {str(k): int(v) for k, v in state["dealt"].items()}
    table.paid_in, table.paid_out = int(state["paid_in"]), int(state["paid_out"])
    table.raked = int(state["raked"])
    table.recent_pots.extend(int(x) for x in state["recent_pots"])
    table.hand_starts.extend(int(x) for x in state["hand_starts"])
    tb.seats = [None if x is None else Seat(**x) for x in state["seats"]]
    tb.hand_seats = [int(x) for x in state["hand_seats"]]
    tb.button_seat = state["button_seat"]
    tb.small_blind_seat = state["small_blind_seat"]
    tb.big_blind_seat = state["big_blind_seat"]
    tb.last_dealt = {int(x) for x in state["last_dealt"]}
    tb.hands_played = int(state["hands_played"])
    if "config" in state:  # a host's table (snapshots before it had none)
        table.config = TableConfig.from_json(state["config"])
        table.rules = tb.rules = table.config.rules()
        tb.min_buy_in, tb.max_buy_in = table.config.min_buy_in, table.config.max_buy_in
        if table.config.tournament:
            tb.min_buy_in, tb.max_buy_in = 1, MOST_CHIPS
        table.hosting.load(state)
        table.straddling.load(state)
        # the votes' opening in Unix ms (older snapshots: on a clock gone, now)
        table.voting.load(state, table._from_wall if "ended_wall" in state
                          else lambda _: table.clock.now_ms())
        table.chat_log.load(state)
    if "tournament" in state:
        table.seating.load(state)
    now = table.clock.now_ms()
    table.ended_at = table._from_wall(int(state["ended_wall"])) if "ended_wall" in state \
        else now
    table.hosting.paused_at = table._from_wall(int(state["paused_wall"])) \
        if "paused_wall" in state else now
    table.check_books()


def _replay(table: RoomTable, records: list[Record]) -> None:
    """Run every stored command of ``records`` again (a record that starts a batch), each
    checked against the records stored after it (``RoomTable._run``)."""
    table._replaying = list(records)
    steps: dict[str, Callable[[dict[str, Any], Batch], None]] = {
        "sat": table._sit, "chips": table._add_chips, "sit_out": table.seats.sit_out_step,
        "sit_in": table.seats.sit_in_step, "leave": table.seats.leave_step,
        "start": table._start,
        "event": table._act, "void": table._void, "host": table.hosting.step,
        "request": table.hosting.request_step, "chat": table.chat_log.step,
        "straddle": table.straddling.step, "propose": table.voting.propose_step,
        "voted": table.voting.voted, "tourney": table.seating.step, "closed": table._shut}
    try:
        while table._replaying:
            r = table._replaying[0]
            p = r.payload
            table._replay_at = table._from_wall(r.at)  # when the command was stored
            if r.kind not in _COMMANDS:
                raise BooksError(f"seq {r.seq}: a {r.kind!r} record starts no command")
            if r.kind == "event":  # a betting action (the others follow from one)
                e = p["event"]
                if e.get("type") != "Acted":
                    raise BooksError(f"seq {r.seq}: a hand event no action caused")
                seat = table.table.seat_of(e["player"])
                timed_out = bool(e.get("timed_out"))
                action = None if timed_out else Action.sized(e["action"], e["to"]).to_wire() \
                    if e["action"] in (ev.BET, ev.RAISE) else {"action": e["action"]}
                command: dict[str, Any] = {"seat": seat, "action": action,
                                           "timed_out": timed_out,
                                           "used": p["bank"]["used"]}
            elif r.kind == "chips":
                command = {k: p[k] for k in ("seat", "player", "asked")}
            else:
                command = p
            table._run(steps[r.kind], command)
    finally:
        table._replaying = table._replay_at = None


def restore(log: EventLog, table_id: str, bankroll: Bankroll, *, crash: bool = True,
            **kwargs: Any) -> RoomTable:
    """Rebuild table ``table_id`` from its stored records alone (see the module docstring),
    starting from its last snapshot between two hands when it has one (then only the records
    after it are replayed, each checked as always):
    the same seats, stacks and time banks, the hand in play with the same cards and the same
    player to act. Every timer keeps the deadline its records give (the turn's clock from
    when its ``turn`` was stored, a vote's from when it opened...), with the disconnect grace
    for the player to act (nobody is connected yet), and fires at once when that is past.
    Bankroll moves the log records are asked for again (each once per key). With
    ``OnCrash.VOID`` in the table's settings and ``crash`` (a new process: not an in-process
    :func:`rebuild`), a hand in play is called off instead."""
    config = log.config(table_id)
    table = RoomTable(log, table_id, config, bankroll, **kwargs)
    snap = log.last_snapshot(table_id)
    after = 0
    if snap is not None:
        after, state = snap
        _load(table, state)
    _replay(table, log.read(table_id, after=after))
    if table.hand is not None and config.on_crash is OnCrash.VOID and crash:
        table._run(table._void, {"hand_no": table.hand_no})
    # every timer (the turn's clock and time bank, the votes, a pause, the next deal) runs
    # from when its record was stored (``_now`` while replaying), and fires at once if that
    # is past; the player to act has no connection yet: the disconnect grace
    table._note_presence()
    table.timers.held = table.policy.held(table)  # released later: the clock afresh then
    return table


def rebuild(old: RoomTable) -> RoomTable:
    """``old`` (broken: a store failed, or a fault left its state in doubt) rebuilt from its
    log in this process: the same clock, decks, agents, settings and subscribers. Not a
    crash: the hand in play goes on whatever ``on_crash`` says, each timer keeps its stored
    deadline (:func:`restore`), and the player to act has the disconnect grace only if they
    had it already or have no connection (a player still connected is not given it)."""
    table = restore(old.log, old.table_id, old.bankroll, crash=False, clock=old.clock,
                    policy=old.policy, secret=old.new_secret, agents=old.agents,
                    on_hand=old.on_hand, snapshot_every=old.snapshot_every, epoch=old.epoch)
    table.subscribers = list(old.subscribers)
    table.grace_turn = old.grace_turn if old.grace_turn == table.turn_seq else None
    table._note_presence()
    old.retire()  # the old copy answers nothing more
    return table


class TableOwner:
    """The one task that owns a :class:`RoomTable`: commands from any coroutine are queued
    and run one at a time, in order (``await owner.call(table.sit, ...)``); between
    commands the task polls the timers every ``tick_s`` seconds.

    With a ``writer`` (:class:`~tapete.room.writer.GroupWriter`: group commit), each step (a
    command, a poll of the timers) keeps the records it makes, hands them to the writer once
    it is over and awaits them, while the loop runs the other tables: whatever the tables
    hand over while the writer commits goes into its next transaction. Nothing of the step
    is told before its records are stored: the records to the subscribers, the hooks, the
    snapshot, and the caller's answer (a result, a refusal or the store's failure) come
    after. The table runs its next step only then (no pipelining: every command is decided
    on a state its log holds, so a store that fails takes back one step, never a queue of
    them built on it; and a table waits for one commit, a few milliseconds, while the
    group is made across tables). Records that move money are stored at once, as without a
    writer (:meth:`RoomTable._run`)."""

    def __init__(self, table: RoomTable, tick_s: float = 0.25, queue_size: int = 256,
                 writer: GroupWriter | None = None) -> None:
        self.table = table
        self.tick_s = tick_s
        self.writer = writer
        self.inbox: asyncio.Queue[tuple[Callable[[], Any], asyncio.Future[Any]]] = \
            asyncio.Queue(queue_size)

    def submit(self, job: Callable[[], T]) -> asyncio.Future[T] | None:
        """Queue ``job`` now, in order with every other command; None when the queue is
        full (the caller tells its client to try again)."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        try:
            self.inbox.put_nowait((job, future))
        except asyncio.QueueFull:
            return None
        return future

    async def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        await self.inbox.put((lambda: fn(*args, **kwargs), future))
        return await future

    async def run(self, stop: Callable[[], Awaitable[bool]] | None = None) -> None:
        """Run commands and tick until ``stop`` says so, or until the table is broken (a
        store failed: whoever runs this restores the table from its log and runs it again).
        An error of the timers' own (``poll``) is raised: the table's state is in doubt.
        After each command, and when the table's next timer is due (``due_ms``), or every
        ``tick_s`` at the latest, the timers are polled until they have nothing to do."""
        while (stop is None or not await stop()) and not self.table.broken:
            if self.inbox.empty():
                due = self.table.due_ms()
                wait = self.tick_s if due is None else min(self.tick_s, due / 1000)
                try:
                    job, future = await asyncio.wait_for(self.inbox.get(), max(0.001, wait))
                except TimeoutError:
                    await self._poll()
                    continue
            else:
                job, future = self.inbox.get_nowait()
            try:
                result = await self._step(job)
            except asyncio.CancelledError:  # stopped while its records were being stored
                if not future.done():
                    future.set_exception(Refused(t("the table is restarting: try again in a"
                                                   " moment"), code="unavailable"))
                raise
            except Exception as exc:  # the caller's to handle: a Refused, most often
                if not future.done():  # a caller that gave up (cancelled) is told nothing
                    future.set_exception(exc)
            else:
                if not future.done():
                    future.set_result(result)
            await self._poll()
            await asyncio.sleep(0)  # what the command published goes out before the next

    async def _step(self, job: Callable[[], T]) -> T:
        """Run ``job``; with a writer, what it stored is told (and it returns or raises)
        once the writer has stored its records."""
        if self.writer is None:
            return job()
        table = self.table
        table._keeping = True
        failure: Exception | None = None
        try:
            result = job()
        except Exception as exc:  # told after the records kept before it
            failure = exc
        finally:
            append = table._keep()
        if append is not None:
            try:
                table._ticket = ticket = self.writer.submit(append)
            except Exception as exc:  # the writer is closed: the app stops
                table._broke(exc)
            try:
                await asyncio.shield(ticket.future)
            except asyncio.CancelledError:
                # stopped (the table dropped or handed over, the server stopping) while its
                # records were being stored: the step ends as it would without a writer
                # (stored, then told: the hands kept, the caller answered), then the task
                # stops, at its next await
                ticket.wait()  # the writer needs nothing of the loop
                task = asyncio.current_task()
                if task is not None:
                    task.cancel()
            table._stored(ticket)
        if failure is not None:
            raise failure
        return result

    async def _poll(self) -> None:
        """Poll the timers while they act (a bot after a bot, a deal), letting the other
        tasks run between two steps and the queued commands go first."""
        for _ in range(1000):
            if self.table.broken or not self.inbox.empty() or \
                    not await self._step(self.table.poll):
                return
            await asyncio.sleep(0)
