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
from typing import Any, NoReturn, Protocol, TypeVar

from tapete.core import events as ev
from tapete.core.actions import Action
from tapete.core.cards import Deck
from tapete.core.catalog import t
from tapete.core.errors import BooksError, HandError
from tapete.core.fair import FairDeal
from tapete.core.hand import Hand
from tapete.core.setup import HandSetup
from tapete.core.table import Seat, Table, TimeOutPolicy
from tapete.room.clock import Clock, SystemClock
from tapete.room.errors import Refused, Unavailable
from tapete.room.log import Append, EventLog, OnCrash, Record, TableConfig, storage_down
from tapete.room.money import Bankroll
from tapete.room.names import clean_name
from tapete.room.shuffle import shuffle
from tapete.room.writer import GroupWriter, Ticket

Batch = list[tuple[str, dict[str, Any]]]
PRE, POST = "pre", "post"
RECENT = 50  # the hands the lobby's average pot is taken over
# hands between two snapshots of a table (a restart replays at most this many hands' records)
SNAPSHOT_EVERY = 20
_log = logging.getLogger("tapete.room")
# the records that start a batch: a command, run again on restore
_COMMANDS = ("sat", "chips", "sit_out", "sit_in", "leave", "start", "event", "void",
             "host", "request", "chat", "straddle", "propose", "voted", "tourney", "closed")
# a tournament's coordinator's commands (:meth:`RoomTable.tournament_command`), each a
# ``tourney`` record
TOURNEY_ACTIONS = ("seat", "unseat", "deal", "hold")
# what the host may do (:meth:`RoomTable.host_command`), each a ``host`` record
HOST_ACTIONS = ("host", "approve", "deny", "auto_approve", "pause", "resume", "settings",
                "stack", "kick", "mute", "spectators", "end")
# the settings the host may change; they apply from the next hand
NEXT_HAND = ("game", "variant", "small_blind", "big_blind", "min_buy_in", "max_buy_in",
             "act_ms", "straddle", "restraddle", "bomb_every", "bomb_ante", "bomb_vote",
             "double_board", "bounty_72", "run_it")
CHAT_MAX = 200  # characters in a chat message
CHAT_BURST, CHAT_WINDOW_MS = 5, 10_000  # at most this many messages in this long
CHAT_KEPT = 60  # the last chat messages and host actions a state shows
BOMB_VOTE_MS = 30_000  # how long a bomb-pot vote stays open
MOST_CHIPS = 10**12  # the largest stack a host may set
ID_KEYS = ("player", "by")  # the payload keys that hold a player's id (never sent)


Agent = Callable[[HandSetup, list[ev.Event], int], Action]
"""A player the table plays for (a bot seat): given the hand's public setup, the events its
hand seat may see (``hand.events_for``) and that hand seat, the action it takes. A bot wraps
itself as ``lambda setup, events, p: bot.decide(SeatView.from_events(setup, events, p))``."""


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

    def __init__(self, log: EventLog, table_id: str, config: TableConfig, bankroll: Bankroll,
                 *, clock: Clock | None = None, deck: Callable[[], Deck] | None = None,
                 secret: Callable[[], bytes] | None = None, auto_start: bool = True,
                 agents: dict[str, Agent] | None = None,
                 think_ms: int = 0, pause_ms: int = 0,
                 on_hand: Callable[[RoomTable, Hand], None] | None = None,
                 snapshot_every: int = SNAPSHOT_EVERY, epoch: int | None = None,
                 on_tournament: Callable[[RoomTable], None] | None = None) -> None:
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
        self.new_deck: Callable[[], Deck] = deck if deck is not None else Deck
        # each fair deal's secret (``TableConfig.fair``): the OS's CSPRNG unless a test gives
        # its own (:func:`tapete.room.shuffle.shuffle`)
        self.new_secret = secret
        self.auto_start = auto_start
        # the players the table plays for (bot seats), by player id; their actions are stored
        # like anyone's, so restore needs no agent to rebuild what they did
        self.agents: dict[str, Agent] = dict(agents or {})
        self.think_ms = think_ms  # how long an agent waits before it plays (people watch)
        self.pause_ms = pause_ms  # between a hand's end and the next deal (its result shown)
        self.ended_at = 0  # when the last hand ended (clock ms)
        self.rules = config.rules()
        self.table = Table(self.rules, config.seats, min_buy_in=config.min_buy_in,
                           max_buy_in=config.max_buy_in, time_out_policy=TimeOutPolicy.SIT_OUT)
        # tournament mode (see "Tournament mode" below)
        self.on_tournament = on_tournament  # told of each hand's end (never while replaying)
        self.next_level: dict[str, Any] | None = None  # the blinds of the one hand allowed next
        self.absent: set[str] = set()  # away or out of time: checked or folded at once
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
        # held: the timers wait (no time-out, no agent's move, no deal) until released: a
        # practice table a restart restored waits for its person's page
        self.held = False
        self.last_players: list[str] = []  # its player of each hand seat
        # a host's table (see "The host" below)
        self.host: str | None = None
        self.requests: dict[int, dict[str, Any]] = {}  # seat and rebuy requests, by seq
        self.paused: str | None = None  # "next": no new hand; "now": the clock stopped too
        self.paused_at = 0
        self.changes: dict[str, Any] = {}  # settings from the next hand
        self.stack_edits: dict[int, int] = {}  # seat -> its stack from the hand's end
        self.kicked: set[str] = set()
        self.muted: set[str] = set()
        self.straddlers: set[str] = set()
        self.votes: dict[int, dict[str, Any]] = {}  # open votes, by the seq that opened them
        self.bomb_next = False  # a bomb pot the players voted for: the next hand
        self.over = False  # the host ended the game
        self.chat: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)  # chat and host actions
        self._chatted: dict[str, deque[int]] = {}  # when each player last chatted (clock)

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
        self._run(self._host, {"action": "host", "by": player, "player": player})

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

    def deadline(self) -> int | None:
        """When the player to act runs out of time (clock milliseconds), or None."""
        hand = self.hand
        if hand is None or hand.actor is None or self.turn_seq is None:
            return None
        player = self.hand_players[hand.actor]
        bank = self.banks[player][self._pool(hand)]
        grace = self.grace_ms() if self.grace_turn == self.turn_seq else 0
        return self.turn_at + self.config.act_ms + grace + bank

    def grace_ms(self) -> int:
        """The disconnect grace for the hand in play: scaled to the pot."""
        hand = self.hand
        pot = hand.pot_total() if hand is not None else 0
        c = self.config
        return min(c.grace_max_ms, c.grace_base_ms + c.grace_per_bb_ms * (pot // c.big_blind))

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

    @staticmethod
    def _pool(hand: Hand) -> str:
        return PRE if hand.street == 0 else POST

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

    def _hides(self, r: Record, viewer: str | None) -> bool:
        """The spectators' chat is the spectators' own: a seated viewer is sent only that
        there was a message (the numbering stays gap-free), not what it said."""
        return r.payload["seat"] is None and viewer is not None \
            and self.seat_of(viewer) is not None

    # ------------------------------------------------------------------ commands
    def sit(self, player: str, name: str, buy_in: int, seat: int | None = None, *,
            wait_for_big_blind: bool = True) -> int | None:
        """Take a seat (the first free one unless ``seat``), buying in for ``buy_in``. At a
        host's table that approves seats, ask for it instead: None (a ``request``)."""
        if not isinstance(player, str) or not player:
            raise Refused(t("a player is needed"))
        self._no_tournament()
        if self.over:
            raise Refused(t("the host has ended the game"))
        if player in self.kicked:
            raise Refused(t("the host has removed you from this table"))
        if self.seat_of(player) is not None:
            raise Refused(t("you already have a seat at this table"))
        name = clean_name(name)
        if any(s is not None and s.name.casefold() == name.casefold()
               for s in self.table.seats):
            raise Refused(t("the name {name} is taken at this table", name=repr(name)))
        free = [i for i, s in enumerate(self.table.seats) if s is None]
        if not free:
            raise Refused(t("the table is full"))
        if seat is None:
            seat = free[0]
        elif type(seat) is not int or seat not in free:
            raise Refused(t("that seat is not free"))
        c = self.config
        if type(buy_in) is not int or not c.min_buy_in <= buy_in <= c.max_buy_in:
            raise Refused(t("a buy-in is {smallest} to {largest} chips",
                            smallest=str(c.min_buy_in), largest=str(c.max_buy_in)))
        if self.bankroll.balance(player) < buy_in:
            raise Refused(t("your bankroll does not hold that many chips"))
        command = {"seat": seat, "player": player, "name": name, "chips": buy_in,
                   "wait": bool(wait_for_big_blind)}
        if self._asks(player):
            if any(r["player"] == player and r["kind"] == "seat" for r in self.requests.values()):
                raise Refused(t("you have asked for a seat already: the host will answer"))
            if any(r["kind"] == "seat" and r["name"].casefold() == name.casefold()
                   for r in self.requests.values()):
                raise Refused(t("the name {name} is taken at this table", name=repr(name)))
            self._run(self._request, {"kind": "seat", **command})
            return None
        self._run(self._sit, command)
        return seat

    def add_chips(self, player: str, amount: int) -> int:
        """Add chips (now between hands, at the hand's end during one), up to the table
        maximum. Returns the chips taken from the bankroll (0: at a host's table that approves
        rebuys, asked for: a ``request``)."""
        seat = self._seated(player)
        self._no_tournament()
        if type(amount) is not int or amount <= 0:
            raise Refused(t("add a whole, positive number of chips"))
        s = self.table.seats[seat]
        assert s is not None
        if s.chips + s.pending_chips >= self.config.max_buy_in:
            raise Refused(t("you already have the table maximum"))
        if self.bankroll.balance(player) < amount:
            raise Refused(t("your bankroll does not hold that many chips"))
        if self.over:
            raise Refused(t("the host has ended the game"))
        if self._asks(player):
            if any(r["player"] == player for r in self.requests.values()):
                raise Refused(t("you have asked for chips already: the host will answer"))
            self._run(self._request, {"kind": "chips", "seat": seat, "player": player,
                                      "chips": amount})
            return 0
        records = self._run(self._add_chips, {"seat": seat, "player": player, "asked": amount})
        taken: int = records[0].payload["taken"]
        return taken

    def sit_out(self, player: str) -> None:
        """Sit out (after the hand, when in one)."""
        seat = self._seated(player)
        self._no_tournament()
        self._run(self._sit_out, {"seat": seat})

    def sit_in(self, player: str, post: bool = False) -> None:
        """Come back: ``post`` the missed blinds now, or wait for the big blind."""
        seat = self._seated(player)
        if self.config.tournament:  # back at the table: played for no more
            if player not in self.absent:
                raise Refused(t("you are not away"))
            self._run(self._sit_in, {"seat": seat, "post": False})
            return
        s = self.table.seats[seat]
        assert s is not None
        if not (s.sitting_out or s.sit_out_after_hand):
            raise Refused(t("you are not sitting out"))
        self._run(self._sit_in, {"seat": seat, "post": bool(post)})

    def leave(self, player: str) -> None:
        """Leave the table: the chips go back to the bankroll, once the hand is over."""
        seat = self._seated(player)
        self._no_tournament()
        if seat in self.leaving:
            raise Refused(t("you are already leaving"))
        self._run(self._leave, {"seat": seat, "player": player})

    def act(self, player: str, seq: int, action: Action) -> None:
        """Play ``action`` for ``player``'s seat at the decision numbered ``seq`` (the ``turn``
        record's). Two tabs acting on one decision: the first wins, the second is stale."""
        if not isinstance(action, Action):
            raise Refused(t("an action is needed"))
        seat = self._seated(player)
        if self.paused == "now":
            raise Refused(t("the host has paused the game: wait for it to resume"),
                          code="paused")
        hand = self.hand
        if hand is None or hand.actor is None or self.turn_seq is None:
            raise Refused(t("nobody is to act now"))
        if type(seq) is not int or seq != self.turn_seq:
            raise Refused(t("decision {seq} is over (already played, perhaps from another tab):"
                            " the decision now is {now}", seq=str(seq), now=str(self.turn_seq)),
                          code="stale")
        if self.table.seat_of(hand.actor) != seat:
            raise Refused(t("it is not your turn: {who} is to act", who=hand.names[hand.actor]))
        used = self._bank_used(hand, self.clock.now_ms())
        # an illegal action raises in the hand before anything changes (Hand.apply)
        self._run(self._act, {"seat": seat, "action": action.to_wire(), "timed_out": False,
                              "used": used})

    # ------------------------------------------------------------------ tournament mode
    # A tournament's table (``TableConfig.tournament``): its bankroll is the tournament's chip
    # account (each entrant's chips off the tables), and its coordinator alone seats and
    # unseats players, with exact stacks (a player moved in is ``dealt_in`` at once, TDA),
    # and calls for each hand at the level it gives (:meth:`tournament_deal`: one hand; the
    # table holds after it until the next call). Each is a ``tourney`` record, so a restore
    # rebuilds them. A player cannot add chips, sit out, leave, straddle, host or vote (a
    # ``Refused``, code ``tournament``). A player who is away or out of time stays dealt in
    # and posts blinds and antes, and is checked or folded at once at their turn (the path a
    # leaving player takes), until they act again or come back (:meth:`sit_in`). After each
    # hand the table calls ``on_tournament`` (never while a restore replays).
    def _no_tournament(self) -> None:
        if self.config.tournament:
            raise Refused(t("at a tournament table you cannot add chips, sit out, leave,"
                            " rebuy, straddle, host or vote: the tournament seats and moves"
                            " the players"), code="tournament")

    def _tournament_table(self) -> None:
        if not self.config.tournament:
            raise Refused(t("this is not a tournament's table"))

    def tournament_seat(self, player: str, name: str, seat: int, chips: int, *,
                        dealt_in: bool = True) -> None:
        """Seat ``player`` at ``seat`` with exactly ``chips`` from the chip account;
        ``dealt_in``: dealt in from the next hand, owing no blind (a player moved in)."""
        self._tournament_table()
        if not isinstance(player, str) or not player:
            raise Refused(t("a player is needed"))
        if self.seat_of(player) is not None:
            raise Refused(t("you already have a seat at this table"))
        name = clean_name(name)
        if type(seat) is not int or not 0 <= seat < len(self.table.seats) \
                or self.table.seats[seat] is not None:
            raise Refused(t("that seat is not free"))
        if type(chips) is not int or not 0 < chips <= MOST_CHIPS:
            raise Refused(t("add a whole, positive number of chips"))
        if self.bankroll.balance(player) < chips:
            raise Refused(t("your bankroll does not hold that many chips"))
        self._run(self._tourney, {"action": "seat", "player": player, "name": name,
                                  "seat": seat, "chips": chips, "dealt_in": bool(dealt_in)})

    def tournament_unseat(self, player: str) -> int:
        """Take ``player`` off the table between their hands (moved or knocked out): their
        chips go back to the chip account. Returns them."""
        self._tournament_table()
        seat = self._seated(player)
        if self.table.player_of(seat) is not None:
            raise Refused(t("a player in the hand in play cannot be moved"))
        records = self._run(self._tourney, {"action": "unseat", "player": player,
                                            "seat": seat})
        chips: int = records[-1].payload["chips"]
        return chips

    def tournament_deal(self, small_blind: int, big_blind: int, ante: int = 0, *,
                        big_blind_ante: bool = True, level: int = 0) -> None:
        """Allow one hand, at these blinds and ante (``level``: the tournament's, from 1,
        shown); it is dealt when two players are ready."""
        self._tournament_table()
        if not all(type(x) is int for x in (small_blind, big_blind, ante, level)) or \
                not 0 < small_blind <= big_blind or ante < 0 or level < 0:
            raise Refused(t("blinds of at least one chip, the small one no larger than the"
                            " big one"))
        self._run(self._tourney, {"action": "deal", "small_blind": small_blind,
                                  "big_blind": big_blind, "ante": ante,
                                  "big_blind_ante": bool(big_blind_ante), "level": level})

    def tournament_hold(self) -> None:
        """Deal no hand until the next :meth:`tournament_deal` (hand-for-hand, a break, the
        end)."""
        self._tournament_table()
        self._run(self._tourney, {"action": "hold"})

    def tournament_stacks(self) -> dict[str, int]:
        """Each seated player's chips (as they stood when the hand began, during one)."""
        out: dict[str, int] = {}
        for seat, player in self.players.items():
            s = self.table.seats[seat]
            assert s is not None
            out[player] = s.chips + s.pending_chips
        return out

    def _tourney(self, c: dict[str, Any], batch: Batch) -> None:
        action = c["action"]
        if action not in TOURNEY_ACTIONS:
            raise Refused(t("unknown tournament command"))
        batch.append(("tourney", c))
        if action == "seat":
            try:
                self.table.sit(c["seat"], c["name"], c["chips"], dealt_in=c["dealt_in"])
            except HandError as exc:
                raise Refused(exc.message) from None
            self.players[c["seat"]] = c["player"]
            self.banks.setdefault(c["player"],
                                  {PRE: self.config.bank_ms, POST: self.config.bank_ms})
            self.dealt.setdefault(c["player"], 0)
            self.paid_in += c["chips"]
            batch.append(("sat", {"seat": c["seat"], "player": c["player"], "name": c["name"],
                                  "chips": c["chips"], "wait": False}))
        elif action == "unseat":
            self.absent.discard(c["player"])
            self._empty(c["seat"], batch)
        elif action == "deal":
            self.next_level = {k: c[k] for k in ("small_blind", "big_blind", "ante",
                                                 "big_blind_ante", "level")}
        else:
            self.next_level = None

    # ------------------------------------------------------------------ the host
    # A host's table (a private table a person opened): its host approves or denies the seats
    # and rebuys asked for (unless ``auto_approve``), pauses and resumes (between hands, or
    # now with the clock stopped), changes the settings from the next hand, sets a stack
    # (from the bankroll of its player: no chip comes from nowhere), removes or mutes a
    # player, lets spectators watch and chat or not, hands the role over and ends the game.
    # Each is one ``host`` record, which every viewer sees.
    def _asks(self, player: str) -> bool:
        """Whether ``player``'s seat or chips wait for the host's approval."""
        return self.host is not None and player != self.host \
            and not self.config.auto_approve and player not in self.agents

    def host_command(self, player: str, action: str, args: dict[str, Any]) -> None:
        """The host's ``action`` (one of :data:`HOST_ACTIONS`) with its ``args`` (the seat
        it is about, by number; a request, by the seq of its ``request`` record)."""
        self._no_tournament()
        if self.host is None:
            raise Refused(t("this table has no host"))
        if player != self.host:
            raise Refused(t("only the host can do that"), code="not_host")
        if self.over:
            raise Refused(t("the host has ended the game"))
        if action not in HOST_ACTIONS:
            raise Refused(t("{action} is not something a host does", action=repr(action)[:40]))
        if not isinstance(args, dict):
            raise Refused(t("a host's action needs its details"))
        command: dict[str, Any] = {"action": action, "by": player}
        if action in ("approve", "deny"):
            rid = args.get("request")
            req = self.requests.get(rid) if type(rid) is int else None
            if req is None:
                raise Refused(t("that request is not waiting (answered or withdrawn)"))
            seat_now = self.seat_of(req["player"])
            command.update(request=rid, player=req["player"], kind=req["kind"],
                           chips=req["chips"], name=req["name"] if req["kind"] == "seat"
                           else self._name(seat_now) if seat_now is not None else "")
            if action == "approve":
                command.update(self._approvable(req))
        elif action in ("auto_approve", "pause"):
            on = args.get("on" if action == "auto_approve" else "now")
            if type(on) is not bool:
                raise Refused(t("true or false is needed"))
            if action == "pause" and (self.paused == "now" or self.paused == "next" and not on):
                raise Refused(t("the game is paused already"))
            command["on" if action == "auto_approve" else "now"] = on
        elif action == "resume":
            if self.paused is None:
                raise Refused(t("the game is not paused"))
        elif action == "settings":
            command["changes"] = self._changes(args.get("changes"))
        elif action == "spectators":
            allowed, chat = args.get("allowed"), args.get("chat")
            if type(allowed) is not bool or type(chat) is not bool:
                raise Refused(t("true or false is needed"))
            command.update(allowed=allowed, chat=chat)
        elif action in ("stack", "kick", "mute", "host"):
            seat = args.get("seat")
            target = self.players.get(seat) if isinstance(seat, int) else None
            if target is None or target in self.agents or not isinstance(seat, int):
                raise Refused(t("there is no player in that seat"))
            if target == player and action != "stack":
                raise Refused(t("that is you"))
            command.update(seat=seat, player=target, name=self._name(seat))
            if action == "stack":
                command["chips"] = self._stack_target(seat, target, args.get("chips"))
            elif action == "mute":
                on = args.get("on")
                if type(on) is not bool:
                    raise Refused(t("true or false is needed"))
                command["on"] = on
        self._run(self._host, command)

    def _approvable(self, req: dict[str, Any]) -> dict[str, Any]:
        """Where an approved request goes (a free seat), or why it cannot be approved now."""
        player = req["player"]
        if self.bankroll.balance(player) < req["chips"]:
            raise Refused(t("that player's bankroll no longer holds the chips asked for"))
        if req["kind"] == "chips":
            seat = self.seat_of(player)
            if seat is None:
                raise Refused(t("that player has left the table"))
            return {"seat": seat}
        free = [i for i, x in enumerate(self.table.seats) if x is None]
        if not free:
            raise Refused(t("the table is full"))
        if any(x is not None and x.name.casefold() == req["name"].casefold()
               for x in self.table.seats):
            raise Refused(t("the name {name} is taken at this table", name=repr(req["name"])))
        return {"seat": req["seat"] if req["seat"] in free else free[0]}

    def _changes(self, changes: object) -> dict[str, Any]:
        """The settings the host changes from the next hand, checked as a table's settings."""
        if not isinstance(changes, dict) or not changes:
            raise Refused(t("say which settings change"))
        for key in changes:
            if key not in NEXT_HAND:
                raise Refused(t("{key} is not a setting the host changes",
                                key=repr(str(key))[:40]))
        merged = {**self.config.to_json(), **self.changes, **changes}
        TableConfig.from_json(merged)  # a bad value is refused here, in words
        return dict(changes)

    def _stack_target(self, seat: int, player: str, chips: object) -> int:
        """A stack the host sets: what it adds comes from the player's bankroll, what it takes
        goes back to it (the ledger shows both), so a stack the bankroll cannot cover would
        make chips from nothing and is refused."""
        if type(chips) is not int or not 0 <= chips <= MOST_CHIPS:
            raise Refused(t("a stack is a whole number of chips, 0 or more"))
        s = self.table.seats[seat]
        assert s is not None
        have = self.bankroll.balance(player)
        if chips - (s.chips + s.pending_chips) > have:
            raise Refused(t("{name}'s bankroll holds {have} chips: a stack of {chips} would"
                            " make chips from nothing", name=s.name, have=str(have),
                            chips=str(chips)), code="no_chips")
        return chips

    # ------------------------------------------------------------------ players' own
    def say(self, player: str, text: str) -> None:
        """Chat at the table: a seated player to everyone, a spectator to the spectators
        (when the host allows). Plain text, at most :data:`CHAT_MAX` characters, at most
        :data:`CHAT_BURST` messages in :data:`CHAT_WINDOW_MS`."""
        c = self.config
        if not c.chat:
            raise Refused(t("chat is off at this table"))
        if not isinstance(text, str):
            raise Refused(t("a chat message is text"))
        text = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
        if not text:
            raise Refused(t("a chat message needs some text"))
        if len(text) > CHAT_MAX:
            raise Refused(t("a chat message is at most {most} characters", most=CHAT_MAX),
                          code="too_long")
        seat = self.seat_of(player)
        if seat is None and not (c.spectators and c.spectator_chat):
            raise Refused(t("spectators do not chat at this table"))
        if player in self.muted:
            raise Refused(t("the host has muted you"), code="muted")
        now = self.clock.now_ms()
        sent = self._chatted.setdefault(player, deque(maxlen=CHAT_BURST))
        if len(sent) == CHAT_BURST and now - sent[0] < CHAT_WINDOW_MS:
            raise Refused(t("slow down: at most {n} messages in {s} seconds", n=CHAT_BURST,
                            s=CHAT_WINDOW_MS // 1000), code="flood")
        sent.append(now)
        name = "" if seat is None else self._name(seat)
        self._run(self._chat, {"player": player, "seat": seat, "name": name, "text": text})

    def ask_straddle(self, player: str, on: bool) -> None:
        """Straddle (or not) whenever the seat after the big blind is yours (re-straddle after
        another's straddle, where the table allows it)."""
        seat = self._seated(player)
        self._no_tournament()
        if not self.config.straddle:
            raise Refused(t("this table plays no straddles"))
        if type(on) is not bool:
            raise Refused(t("true or false is needed"))
        if on == (player in self.straddlers):
            raise Refused(t("you straddle already") if on else t("you do not straddle"))
        self._run(self._straddle, {"player": player, "seat": seat, "on": on})

    def propose(self, player: str, kind: str) -> None:
        """Ask the table for a bomb pot next hand (``kind`` "bomb"): it is played when more
        than half of the players seated vote for it."""
        seat = self._seated(player)
        self._no_tournament()
        if kind != "bomb":
            raise Refused(t("the table votes on bomb pots only"))
        if not self.config.bomb_vote:
            raise Refused(t("this table plays no bomb pots by vote"))
        if self.bomb_next or any(v["kind"] == "bomb" for v in self.votes.values()):
            raise Refused(t("a bomb pot is voted on or coming already"))
        self._run(self._propose, {"player": player, "seat": seat, "kind": kind})

    def vote(self, player: str, vote: int, yes: bool) -> None:
        """Answer vote ``vote`` (the seq of the record that opened it)."""
        v = self.votes.get(vote) if type(vote) is int else None
        if v is None:
            raise Refused(t("that vote is over"), code="stale")
        if type(yes) is not bool:
            raise Refused(t("true or false is needed"))
        if player not in v["asked"]:
            raise Refused(t("only the players in the hand vote on this")
                          if v["kind"] == "runs" else t("only the players seated vote on this"),
                          code="not_asked")
        if player in v["yes"] or player in v["no"]:
            raise Refused(t("you have voted already"))
        self._run(self._voted, {"vote": vote, "player": player, "yes": yes})

    def _name(self, seat: int) -> str:
        s = self.table.seats[seat]
        return s.name if s is not None else ""

    def poll(self) -> bool:
        """The timers: time the player to act out (or check or fold a player who is leaving),
        play for an agent whose turn it is, and start the next hand when two players are
        ready. One step per call; True when it took one (the owner polls again at once)."""
        if self.held or self.paused == "now":
            return False
        now = self.clock.now_ms()
        for vote, v in list(self.votes.items()):
            # a bot, or a player leaving, answers no (a bot once it has thought)
            for p in v["asked"]:
                if p in v["yes"] or p in v["no"]:
                    continue
                seat_p = self.seat_of(p)
                if (p in self.agents and now >= v["opened"] + self.think_ms) or \
                        seat_p is None or seat_p in self.leaving:
                    self._run(self._voted, {"vote": vote, "player": p, "yes": False})
                    return True
            if now >= v["opened"] + v["ms"]:  # time is up: whoever has not voted, did not agree
                self._run(self._voted, {"vote": vote, "player": None, "yes": False})
                return True
        hand = self.hand
        if hand is not None and hand.actor is not None:
            seat = self.table.seat_of(hand.actor)
            deadline = self.deadline()
            if seat in self.leaving or self.hand_players[hand.actor] in self.absent or (
                    deadline is not None and self.clock.now_ms() >= deadline):
                pool = self._pool(hand)
                self._run(self._act, {"seat": seat, "action": None, "timed_out": True,
                                      "used": self.banks[self.hand_players[hand.actor]][pool]})
                return True
            player = self.hand_players[hand.actor]
            agent = self.agents.get(player)
            if agent is not None and self.turn_seq is not None and \
                    self.clock.now_ms() >= self.turn_at + self.think_ms:
                action = agent(hand.setup, hand.events_for(hand.actor), hand.actor)
                try:
                    self.act(player, self.turn_seq, action)
                except Refused:  # an agent that answers wrong runs out of time at once
                    pool = self._pool(hand)
                    self._run(self._act, {"seat": seat, "action": None, "timed_out": True,
                                          "used": self.banks[player][pool]})
                return True
            return False
        if hand is None and self._may_deal() and now >= self.ended_at + self.pause_ms:
            self.start_hand()
            return True
        return False

    def _may_deal(self) -> bool:
        return self.auto_start and self.paused is None and not self.over \
            and self.table.ready_count() >= 2 \
            and (not self.config.tournament or self.next_level is not None)

    def due_ms(self) -> int | None:
        """Milliseconds until :meth:`poll` has something to do (0: now), None: nothing is
        timed (the table waits for a command)."""
        if self.held or self.paused == "now":
            return None
        hand = self.hand
        now = self.clock.now_ms()
        due: list[int] = []
        for v in self.votes.values():
            waits = [p for p in v["asked"] if p not in v["yes"] and p not in v["no"]]
            soon = any(p in self.agents or self.seat_of(p) is None
                       or self.seat_of(p) in self.leaving for p in waits)
            due.append(v["opened"] + (min(self.think_ms, v["ms"]) if soon else v["ms"]))
        if hand is not None and hand.actor is not None and self.turn_seq is not None:
            deadline = self.deadline()
            if deadline is not None:
                due.append(deadline)
            if self.hand_players[hand.actor] in self.absent:
                due.append(now)
            if self.hand_players[hand.actor] in self.agents:
                due.append(self.turn_at + self.think_ms)
        elif hand is None and self._may_deal():
            due.append(self.ended_at + self.pause_ms)
        return max(0, min(due) - now) if due else None

    def start_hand(self) -> None:
        if self.hand is not None:
            raise Refused(t("a hand is already in play"))
        if self.table.ready_count() < 2:
            raise Refused(t("two players are needed"))
        command: dict[str, Any] = {"deck": list(self.new_deck().cards())}
        if self.config.fair:  # the secret; the commitment is computed from both
            secret = self.new_secret() if self.new_secret is not None else None
            command["secret"] = shuffle(command["deck"], secret).secret.hex()
        self._run(self._start, command)

    def _seated(self, player: str) -> int:
        seat = self.seat_of(player)
        if seat is None:
            raise Refused(t("you have no seat at this table"))
        return seat

    def _bank_used(self, hand: Hand, now: int) -> int:
        player = self.hand_players[hand.actor] if hand.actor is not None else ""
        grace = self.grace_ms() if self.grace_turn == self.turn_seq else 0
        over = now - self.turn_at - self.config.act_ms - grace
        return max(0, min(over, self.banks[player][self._pool(hand)]))

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
        if ended and self.config.tournament and self.on_tournament is not None:
            self.on_tournament(self)
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
            # a host's table
            "config": self.config.to_json(), "host": self.host,
            "requests": {str(k): v for k, v in self.requests.items()},
            "paused": self.paused, "changes": self.changes, "kicked": sorted(self.kicked),
            "muted": sorted(self.muted), "straddlers": sorted(self.straddlers),
            "votes": {str(k): {**v, "opened": self._to_wall(v["opened"])}
                      for k, v in self.votes.items()}, "bomb_next": self.bomb_next,
            "over": self.over, "chat": list(self.chat),
            "tournament": {"next_level": self.next_level, "absent": sorted(self.absent)},
            # the timers, in Unix ms (a restore works them out on its own clock)
            "ended_wall": self._to_wall(self.ended_at),
            "paused_wall": self._to_wall(self.paused_at),
        }

    def _load(self, state: dict[str, Any]) -> None:
        """The state :meth:`snapshot` gave, into a table just built (no record replayed)."""
        tb = self.table
        if self.seq or len(state["seats"]) != len(tb.seats):
            raise BooksError(f"table {self.table_id}: the snapshot does not fit this table")
        self.seq, self.hand_no = int(state["seq"]), int(state["hand_no"])
        self.players = {int(k): str(v) for k, v in state["players"].items()}
        self.banks = {str(p): {str(k): int(v) for k, v in b.items()}
                      for p, b in state["banks"].items()}
        self.dealt = {str(k): int(v) for k, v in state["dealt"].items()}
        self.paid_in, self.paid_out = int(state["paid_in"]), int(state["paid_out"])
        self.raked = int(state["raked"])
        self.recent_pots.extend(int(x) for x in state["recent_pots"])
        self.hand_starts.extend(int(x) for x in state["hand_starts"])
        tb.seats = [None if x is None else Seat(**x) for x in state["seats"]]
        tb.hand_seats = [int(x) for x in state["hand_seats"]]
        tb.button_seat = state["button_seat"]
        tb.small_blind_seat = state["small_blind_seat"]
        tb.big_blind_seat = state["big_blind_seat"]
        tb.last_dealt = {int(x) for x in state["last_dealt"]}
        tb.hands_played = int(state["hands_played"])
        if "config" in state:  # a host's table (snapshots before it had none)
            self.config = TableConfig.from_json(state["config"])
            self.rules = tb.rules = self.config.rules()
            tb.min_buy_in, tb.max_buy_in = self.config.min_buy_in, self.config.max_buy_in
            if self.config.tournament:
                tb.min_buy_in, tb.max_buy_in = 1, MOST_CHIPS
            self.host = state["host"]
            self.requests = {int(k): v for k, v in state["requests"].items()}
            self.paused, self.changes = state["paused"], dict(state["changes"])
            self.kicked, self.muted = set(state["kicked"]), set(state["muted"])
            self.straddlers = set(state["straddlers"])
            self.votes = {int(k): v for k, v in state["votes"].items()}
            if "ended_wall" in state:  # the votes' opening in Unix ms (older: on a clock gone)
                for v in self.votes.values():
                    v["opened"] = self._from_wall(int(v["opened"]))
            else:
                for v in self.votes.values():
                    v["opened"] = self.clock.now_ms()
            self.bomb_next, self.over = bool(state["bomb_next"]), bool(state["over"])
            self.chat.extend(state["chat"])
        if "tournament" in state:
            self.next_level = state["tournament"]["next_level"]
            self.absent = set(state["tournament"]["absent"])
        self.ended_at = self._from_wall(int(state["ended_wall"])) if "ended_wall" in state \
            else self.clock.now_ms()
        self.paused_at = self._from_wall(int(state.get("paused_wall", 0))) \
            if "paused_wall" in state else self.clock.now_ms()
        self.check_books()

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
    def _sit(self, c: dict[str, Any], batch: Batch) -> None:
        try:
            self.table.sit(c["seat"], c["name"], c["chips"], wait_for_big_blind=c["wait"])
        except HandError as exc:
            raise Refused(exc.message) from None
        self.players[c["seat"]] = c["player"]
        self.banks.setdefault(c["player"], {PRE: self.config.bank_ms, POST: self.config.bank_ms})
        self.dealt.setdefault(c["player"], 0)
        self.paid_in += c["chips"]
        batch.append(("sat", c))

    def _add_chips(self, c: dict[str, Any], batch: Batch) -> None:
        try:
            taken = self.table.add_chips(c["seat"], c["asked"])
        except HandError as exc:
            raise Refused(exc.message) from None
        self.paid_in += taken
        batch.append(("chips", {**c, "taken": taken}))

    def _sit_out(self, c: dict[str, Any], batch: Batch) -> None:
        self.table.sit_out(c["seat"])
        batch.append(("sit_out", c))

    def _sit_in(self, c: dict[str, Any], batch: Batch) -> None:
        if self.config.tournament:
            self.absent.discard(self.players[c["seat"]])
        else:
            self.table.sit_in(c["seat"], post_dead=c["post"])
        batch.append(("sit_in", c))

    def _leave(self, c: dict[str, Any], batch: Batch) -> None:
        batch.append(("leave", c))
        if self.table.player_of(c["seat"]) is not None:
            self.leaving.add(c["seat"])  # after the hand
        else:
            self._empty(c["seat"], batch)

    def _empty(self, seat: int, batch: Batch) -> None:
        s = self.table.seats[seat]
        assert s is not None
        chips = s.chips + s.pending_chips
        s.pending_chips = 0
        self.table.leave(seat)
        player = self.players.pop(seat)
        self.leaving.discard(seat)
        self._drop(player)
        self.paid_out += chips
        batch.append(("left", {"seat": seat, "player": player, "chips": chips}))

    def _start(self, c: dict[str, Any], batch: Batch) -> None:
        if self.changes:  # the host's changes, from this hand on
            self.config = TableConfig.from_json({**self.config.to_json(), **self.changes})
            self.changes = {}
            self.rules = self.table.rules = self.config.rules()
            self.table.min_buy_in = self.config.min_buy_in
            self.table.max_buy_in = self.config.max_buy_in
        if self.config.tournament:  # the coordinator's level, for this hand only
            lv = self.next_level
            if lv is None:
                raise Refused(t("the tournament has not called for a hand at this table"))
            self.rules = self.table.rules = dataclasses.replace(
                self.config.rules(), small_blind=lv["small_blind"],
                big_blind=lv["big_blind"], ante=lv["ante"],
                big_blind_ante=lv["big_blind_ante"] and lv["ante"] > 0)
            self.next_level = None
        self.hand_no += 1
        cfg = self.config
        bomb = cfg.bomb_ante if self.bomb_next or (
            cfg.bomb_every and self.hand_no % cfg.bomb_every == 0) else 0
        self.bomb_next = False
        deck = Deck.stacked(tuple(c["deck"]))
        hand = self.table.start_hand(
            deck, hand_id=f"{self.table_id}-{self.hand_no}",
            straddlers={s for s, p in self.players.items() if p in self.straddlers},
            restraddle=cfg.restraddle, bomb=bomb, double_board=bool(bomb) and cfg.double_board,
            run_once=cfg.run_it == 1)
        self.hand_players = [self.players[s] for s in self.table.hand_seats]
        for p in self.hand_players:
            self.dealt[p] += 1
            if self.dealt[p] % cfg.bank_every == 0:
                self.banks[p] = {k: min(cfg.bank_max_ms, b + cfg.bank_add_ms)
                                 for k, b in self.banks[p].items()}
        start: dict[str, Any] = {"hand_no": self.hand_no, "deck": c["deck"],
                                 "setup": hand.setup.to_json(), "players": self.hand_players}
        self.deal = None
        if "secret" in c:
            self.deal = FairDeal.make(c["deck"], bytes.fromhex(c["secret"]))
            start["secret"] = c["secret"]
            start["commitment"] = self.deal.commitment
        batch.append(("start", start))
        self._hand_events(hand, 0, batch)

    def _act(self, c: dict[str, Any], batch: Batch) -> None:
        hand = self.hand
        assert hand is not None and hand.actor is not None
        player = self.hand_players[hand.actor]
        before = len(hand.events)
        pool = self._pool(hand)
        try:
            if c["timed_out"]:
                self.table.time_out()
            else:
                hand.apply(Action.from_wire(c["action"]))
        except HandError as exc:
            raise Refused(exc.message, code="illegal") from None
        if self.config.tournament:  # never sat out: away, dealt in, played for at once
            if c["timed_out"]:
                s = self.table.seats[c["seat"]]
                assert s is not None
                s.sit_out_after_hand = False
                self.absent.add(player)
            else:
                self.absent.discard(player)
        self.banks[player][pool] -= c["used"]
        self._hand_events(hand, before, batch, bank={"pool": pool, "used": c["used"]})

    def _hand_events(self, hand: Hand, before: int, batch: Batch,
                     bank: dict[str, Any] | None = None) -> None:
        for e in hand.events[before:]:
            payload: dict[str, Any] = {"event": ev.to_json(e)}
            if isinstance(e, ev.Acted) and bank is not None:
                payload["bank"] = bank
            batch.append(("event", payload))
        if hand.done:
            self.turn_seq = None
            self.raked += sum(e.amount for e in hand.events if isinstance(e, ev.Raked))
            self.recent_pots.append(hand.pot_total())
            self.last_hand, self.last_players = hand, list(self.hand_players)
            self.last_deal = self.deal
            self.ended_at = self._now()
            refused = self.table.end_hand()
            end: dict[str, Any] = {"hand_no": self.hand_no}
            if self.deal is not None:  # revealed: anyone can check the hand against it now
                end.update(self.deal.to_json())
            batch.append(("end", end))
            self._after_hand(refused, batch)
        elif hand.actor is not None:
            self.turn_seq = self._next_seq(batch)
            batch.append(("turn", {"seat": self.table.seat_of(hand.actor)}))
        elif hand.needs_runs():  # all in with cards to come: run it more than once?
            live = [p for p in range(hand.n) if not hand.folded[p]]
            self._open_vote("runs", [self.hand_players[p] for p in live], self.config.act_ms,
                            batch, runs=min(self.config.run_it, hand.max_runs()),  # the deck's
                            seats=[self.table.hand_seats[p] for p in live])

    def _after_hand(self, refused: dict[int, int], batch: Batch) -> None:
        for seat, chips in sorted(refused.items()):
            self.paid_out += chips
            batch.append(("refund", {"seat": seat, "player": self.players[seat],
                                     "chips": chips}))
        for seat, chips in sorted(self.stack_edits.items()):
            if seat in self.players and seat not in self.leaving:
                self._set_stack(seat, chips, batch)
        self.stack_edits = {}
        for seat in sorted(self.leaving | (set(self.players) if self.over else set())):
            self._empty(seat, batch)
        self.hand_players = []
        self.check_books()

    def _void(self, c: dict[str, Any], batch: Batch) -> None:
        """Call off the hand in play: the seats keep the stacks they had when it began (the
        table applies a hand's stacks only at its end), chips added during it join them up
        to the maximum, and whoever was to sit out or leave does."""
        hand = self.hand
        assert hand is not None
        batch.append(("void", c))
        # what was pending in the hand goes with it: its run-it-twice vote (one record each)
        self._close_votes(batch, ("runs",))
        refused: dict[int, int] = {}
        top = self.config.max_buy_in
        for seat in self.table.hand_seats:
            s = self.table.seats[seat]
            assert s is not None
            room = max(0, min(s.pending_chips, top - s.chips))
            if room < s.pending_chips:
                refused[seat] = s.pending_chips - room
            s.chips += room
            s.pending_chips = 0
            if s.sit_out_after_hand:
                s.sitting_out, s.sit_out_after_hand = True, False
        self.table.hand = None
        self.table.hands_played += 1
        self.turn_seq = None
        self._after_hand(refused, batch)

    # ------------------------------------------------------------------ the host's steps
    def _request(self, c: dict[str, Any], batch: Batch) -> None:
        self.requests[self._next_seq(batch)] = c
        batch.append(("request", c))

    def _host(self, c: dict[str, Any], batch: Batch) -> None:
        a = c["action"]
        batch.append(("host", c))
        self._note(batch)
        if a == "host":
            self.host = c["player"]
        elif a == "approve":
            req = self.requests[c["request"]]
            if req["kind"] == "seat":
                self._sit({k: req[k] for k in ("player", "name", "chips", "wait")}
                          | {"seat": c["seat"]}, batch)
            else:
                self._add_chips({"seat": c["seat"], "player": req["player"],
                                 "asked": req["chips"]}, batch)
            del self.requests[c["request"]]
        elif a == "deny":
            del self.requests[c["request"]]
        elif a == "auto_approve":
            self.config = dataclasses.replace(self.config, auto_approve=c["on"])
        elif a == "pause":
            self.paused = "now" if c["now"] and self.hand is not None else "next"
            self.paused_at = self._now()
        elif a == "resume":
            if self.paused == "now":  # the clock goes on where it stopped
                stopped = max(0, self._now() - self.paused_at)
                self.turn_at += stopped
                for v in self.votes.values():
                    v["opened"] += stopped
            self.paused = None
        elif a == "settings":
            self.changes.update(c["changes"])
        elif a == "stack":
            if self.hand is not None and c["seat"] in self.table.hand_seats:
                self.stack_edits[c["seat"]] = c["chips"]  # when the hand ends
            else:
                self._set_stack(c["seat"], c["chips"], batch)
        elif a == "kick":
            self.kicked.add(c["player"])
            self._drop(c["player"])
            if self.table.player_of(c["seat"]) is not None:
                self.leaving.add(c["seat"])  # folded at its turn, gone at the hand's end
            else:
                self._empty(c["seat"], batch)
        elif a == "mute":
            (self.muted.add if c["on"] else self.muted.discard)(c["player"])
        elif a == "spectators":
            self.config = dataclasses.replace(self.config, spectators=c["allowed"],
                                              spectator_chat=c["chat"])
        elif a == "end":
            self.over = True
            self.requests.clear()
            for seat in sorted(self.players):
                if self.table.player_of(seat) is None:
                    self._empty(seat, batch)  # the others at the hand's end

    def _drop(self, player: str) -> None:
        """A player gone: their requests, straddle and votes go with them."""
        self.straddlers.discard(player)
        for rid in [k for k, r in self.requests.items() if r["player"] == player]:
            del self.requests[rid]

    def _set_stack(self, seat: int, chips: int, batch: Batch) -> None:
        """The host's stack for ``seat``: the chips it adds come from the player's bankroll,
        those it takes go back (a ``stack`` record: ``delta``). What the bankroll cannot
        cover now (it was checked when the host asked) is not added: the bankroll is read
        here, so a restore reads the stored record instead."""
        s = self.table.seats[seat]
        assert s is not None
        player = self.players[seat]
        have = s.chips + s.pending_chips
        delta = chips - have
        if delta > 0:
            stored = self._stored_at(batch)
            delta = stored["delta"] if stored is not None else \
                min(delta, self.bankroll.balance(player))
        s.chips, s.pending_chips = have + delta, 0
        if delta > 0:
            self.paid_in += delta
        else:
            self.paid_out -= delta
        batch.append(("stack", {"seat": seat, "player": player, "delta": delta,
                                "chips": s.chips}))

    def _stored_at(self, batch: Batch) -> dict[str, Any] | None:
        """While a restore replays: the stored payload of the record about to be built."""
        if self._replaying is None or len(batch) >= len(self._replaying):
            return None
        payload: dict[str, Any] = self._replaying[len(batch)].payload
        return payload

    def _note(self, batch: Batch) -> None:
        """The record just built, among the chat's lines (the host's actions and the votes
        are shown with the messages)."""
        kind, payload = batch[-1]
        self.chat.append({**payload, "seq": self._next_seq(batch) - 1, "record": kind})

    def _chat(self, c: dict[str, Any], batch: Batch) -> None:
        batch.append(("chat", c))
        self._note(batch)

    def _straddle(self, c: dict[str, Any], batch: Batch) -> None:
        (self.straddlers.add if c["on"] else self.straddlers.discard)(c["player"])
        batch.append(("straddle", c))

    def _propose(self, c: dict[str, Any], batch: Batch) -> None:
        batch.append(("propose", c))
        asked = [p for seat, p in sorted(self.players.items()) if p not in self.agents
                 and seat not in self.leaving]
        self._open_vote("bomb", asked, BOMB_VOTE_MS, batch, name=self._name(c["seat"]),
                        seats=sorted(seat for seat, p in self.players.items() if p in asked))
        self._voted({"vote": self.seq + len(batch), "player": c["player"], "yes": True},
                    batch)

    def _open_vote(self, kind: str, asked: list[str], ms: int, batch: Batch,
                   **shown: Any) -> None:
        vote = self._next_seq(batch)
        self.votes[vote] = {"kind": kind, "asked": asked, "yes": [], "no": [], "ms": ms,
                            "opened": self._now(), **shown}
        batch.append(("vote", {"kind": kind, "ms": ms, **shown}))
        self._note(batch)

    def _close_votes(self, batch: Batch, kinds: tuple[str, ...]) -> None:
        """Close the open votes of ``kinds`` undecided (the hand they were about was called
        off, or the table closed): a ``decided`` record each, ``closed``, nothing passed."""
        for vote in sorted(self.votes):
            v = self.votes[vote]
            if v["kind"] not in kinds:
                continue
            del self.votes[vote]
            replaying = self._replaying
            if replaying is not None and (len(batch) >= len(replaying)
                                          or replaying[len(batch)].kind != "decided"):
                continue  # a log of an older version, which left the vote open: closed now
            batch.append(("decided", {"vote": vote, "kind": v["kind"], "passed": False,
                                      "closed": True}))
            self._note(batch)

    def _voted(self, c: dict[str, Any], batch: Batch) -> None:
        """A vote (``player`` None: time ran out), and the result once it is known: a run-out
        needs everyone in the hand; a bomb pot, more than half of the players seated."""
        v = self.votes[c["vote"]]
        player = c["player"]
        if player is not None:
            (v["yes"] if c["yes"] else v["no"]).append(player)
        seat = self.seat_of(player) if player is not None else None
        batch.append(("voted", {**c, "seat": seat}))
        n, yes, no = len(v["asked"]), len(v["yes"]), len(v["no"])
        if v["kind"] == "runs":
            passed = yes == n if no == 0 and player is not None else False
            decided = passed or no > 0 or player is None
        else:
            passed = 2 * yes > n
            decided = passed or 2 * no >= n or player is None
        if not decided:
            return
        del self.votes[c["vote"]]
        result = {"vote": c["vote"], "kind": v["kind"], "passed": passed}
        if v["kind"] == "runs":
            result["runs"] = v["runs"] if passed else 1
        batch.append(("decided", result))
        self._note(batch)
        if v["kind"] == "runs":
            hand = self.hand
            assert hand is not None
            before = len(hand.events)
            hand.set_runs(v["runs"] if passed else 1)
            self._hand_events(hand, before, batch)
        else:
            self.bomb_next = passed

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
        self.over = True  # no new hand, no seat, no chips
        self.requests.clear()
        self.stack_edits = {}
        self.paused = None
        self._close_votes(batch, ("bomb",))  # the hand's own close with it
        self.bomb_next = False
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
    def _replay(self, records: list[Record]) -> None:
        self._replaying = list(records)
        steps: dict[str, Callable[[dict[str, Any], Batch], None]] = {
            "sat": self._sit, "chips": self._add_chips, "sit_out": self._sit_out,
            "sit_in": self._sit_in, "leave": self._leave, "start": self._start,
            "event": self._act, "void": self._void, "host": self._host,
            "request": self._request, "chat": self._chat, "straddle": self._straddle,
            "propose": self._propose, "voted": self._voted, "tourney": self._tourney,
            "closed": self._shut}
        try:
            while self._replaying:
                r = self._replaying[0]
                p = r.payload
                self._replay_at = self._from_wall(r.at)  # when the command was stored
                if r.kind not in _COMMANDS:
                    raise BooksError(f"seq {r.seq}: a {r.kind!r} record starts no command")
                if r.kind == "event":  # a betting action (the others follow from one)
                    e = p["event"]
                    if e.get("type") != "Acted":
                        raise BooksError(f"seq {r.seq}: a hand event no action caused")
                    seat = self.table.seat_of(e["player"])
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
                self._run(steps[r.kind], command)
        finally:
            self._replaying = self._replay_at = None


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
    ``players`` are the hand's player ids by hand seat. Never the deck, never an id."""
    p = r.payload
    if r.kind == "start":
        you = players.index(viewer) if viewer in players else None
        out = {"hand_no": p["hand_no"], "setup": p["setup"], "you": you}
        if "commitment" in p:
            out["commitment"] = p["commitment"]
        return out
    if r.kind == "event":
        e = p["event"]
        if e.get("type") == "HoleDealt" and (
                viewer is None or not 0 <= e["player"] < len(players)
                or players[e["player"]] != viewer):
            return {**p, "event": {**e, "cards": None}}
        return p
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
        return players.index(viewer) if viewer in players else None
    if r.kind == "event":
        e = p["event"]
        return e.get("type") == "HoleDealt" and viewer is not None \
            and 0 <= e["player"] < len(players) and players[e["player"]] == viewer
    if "player" in p or "by" in p:
        return p.get("player") == viewer, p.get("by") == viewer
    return None


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
        table._load(state)
    table._replay(log.read(table_id, after=after))
    if table.hand is not None and config.on_crash is OnCrash.VOID and crash:
        table._run(table._void, {"hand_no": table.hand_no})
    # every timer (the turn's clock and time bank, the votes, a pause, the next deal) runs
    # from when its record was stored (``_now`` while replaying), and fires at once if that
    # is past; the player to act has no connection yet: the disconnect grace
    table._note_presence()
    return table


def rebuild(old: RoomTable) -> RoomTable:
    """``old`` (broken: a store failed, or a fault left its state in doubt) rebuilt from its
    log in this process: the same clock, decks, agents, settings and subscribers. Not a
    crash: the hand in play goes on whatever ``on_crash`` says, each timer keeps its stored
    deadline (:func:`restore`), and the player to act has the disconnect grace only if they
    had it already or have no connection (a player still connected is not given it)."""
    table = restore(old.log, old.table_id, old.bankroll, crash=False, clock=old.clock,
                    deck=old.new_deck, secret=old.new_secret, auto_start=old.auto_start,
                    agents=old.agents, think_ms=old.think_ms, pause_ms=old.pause_ms,
                    on_hand=old.on_hand, snapshot_every=old.snapshot_every, epoch=old.epoch,
                    on_tournament=old.on_tournament)
    table.subscribers = list(old.subscribers)
    table.grace_turn = old.grace_turn if old.grace_turn == table.turn_seq else None
    table._note_presence()
    old.broken = True  # the old copy answers nothing more
    return table


T = TypeVar("T")


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
