"""The practice table: one person and five bots, as one of the room's tables.

A practice table is a :class:`~tapete.room.table.RoomTable` like any other (``practice`` in
its :class:`~tapete.room.log.TableConfig`): one owner task, every record stored in the room's
log before anybody is told, the bankroll moves keyed by record, a restart that resumes the
hand in play (the same cards, the same player to act). What makes it a practice table lives
here, in :class:`PracticeTable`, which watches the table as a subscriber and tells the
person's tabs:

- the five opponents (:data:`tapete.server.bots.OPPONENTS`) are the table's agents; their
  chips are the house's (:class:`HouseBankroll`): they sit with the table maximum and top up
  below 40 big blinds between hands, and their reasons are shown with the result when the
  coach is on, for the hands that were shown;
- an all-in run-out is shown street by street (the engine deals the rest of the board at
  once: the table holds the next deal while the frames play), then the result stays for
  ``result_pause`` (``Next hand`` skips it);
- while the person sits out with a tab open, the bots play on at ``idle_pace``; with no tab
  open, or with no chips and not sitting out, the table stops dealing;
- the coach's equity and pot odds for each of the person's decisions, in a worker thread;
- the person's commands, checked by the practice table's rules and run by the table's owner
  like every table's (:meth:`PracticeTable.job`; their tabs are the one
  :class:`~tapete.server.session.Session` every table has, whose pre-actions they share);
- the page's ``state`` message: the one state builder's (``server/state.py``), with a
  practice table's sections, sent to every tab of the person through its session.

The person's chips come from their bankroll through the room's bankroll (``RoomBankroll``:
``Purse.room``), in order with every other move of their money; when the person leaves, the
chips go back once the hand is over, the bots stand up, and the table is closed in the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
from typing import TYPE_CHECKING, Any

from tapete import words
from tapete.bots import SeatView
from tapete.core import events as ev
from tapete.core import view
from tapete.core.actions import Action
from tapete.core.cards import Deck
from tapete.core.catalog import t
from tapete.core.hand import Hand
from tapete.core.table import Table
from tapete.core.text import Text
from tapete.room.log import Game as GameKind
from tapete.room.log import OnCrash, TableConfig
from tapete.room.policy import PracticePolicy
from tapete.room.table import Agent, RoomTable
from tapete.server import bots as botmod
from tapete.server import coach, protocol
from tapete.server.config import Settings
from tapete.server.game import (
    BOT_REBUY_BELOW_BB,
    HUMAN_SEAT,
    MAX_BUY_IN_BB,
    MIN_BUY_IN_BB,
    REASONS_HIDDEN,
    SEATS,
    Refused,
    make_rules,
)
from tapete.server.money import BOT_PREFIX, is_bot
from tapete.server.protocol import Act, AddChips, Leave, Next, SitIn, SitOut, TableState
from tapete.server.session import Job, Running, play_pre, table_job
from tapete.server.state import (
    Sections,
    Viewer,
    Wire,
    as_wire,
    result_json,
    runout_frame,
    table_state,
    words_wire,
)
from tapete.server.views import hand_view

if TYPE_CHECKING:
    from collections.abc import Callable

    from tapete.room.money import Bankroll
    from tapete.server.rooms import Room
    from tapete.server.session import Session

log = logging.getLogger("tapete.server")
HOUSE = 10**15  # what the house holds for the bots: more than they ever take


class HouseBankroll:
    """A practice table's bankroll: the person's chips are their own (the room's bankroll,
    every move stored in their ledger); the bots' are the house's, which never runs dry and
    books nothing (the bots play for virtual chips nobody owns). The table's own books still
    count every chip in and out."""

    def __init__(self, people: Bankroll) -> None:
        self.people = people

    def balance(self, player: str) -> int:
        return HOUSE if is_bot(player) else self.people.balance(player)

    def take(self, player: str, amount: int, key: str) -> bool:
        return True if is_bot(player) else self.people.take(player, amount, key)

    def give(self, player: str, amount: int, key: str) -> None:
        if not is_bot(player):
            self.people.give(player, amount, key)

    def settled(self, table_id: str) -> bool:
        return self.people.settled(table_id)


class PracticeBots:
    """What a practice table has that a room table has not: the five opponents (the table's
    agents, with what each said of its last move, shown with the result), the house that
    pays their chips, and the decks (seeded per hand when the server has a seed)."""

    def __init__(self, table_id: str, settings: Settings, people: Bankroll) -> None:
        self.table_id = table_id
        self.settings = settings
        self.bankroll = HouseBankroll(people)
        self.bots: dict[str, botmod.RealBot] = {}
        self.agents: dict[str, Agent] = {}
        self.names: dict[str, str] = {}
        self.styles: dict[str, str] = {}
        self.why: dict[str, Text] = {}
        seed = settings.deck_seed
        for seat, (name, style) in enumerate(botmod.OPPONENTS, start=1):
            pid = self.player(seat)
            bot = botmod.make(style, (seed or secrets.randbits(31)) * 10 + seat, name)
            self.bots[pid] = bot
            self.agents[pid] = self._agent(pid, bot)
            self.names[pid], self.styles[pid] = name, style

    def player(self, seat: int) -> str:
        return f"{BOT_PREFIX}{self.table_id}:{seat}"

    def _agent(self, pid: str, bot: botmod.RealBot) -> Agent:
        def decide(setup: Any, events: list[ev.Event], p: int) -> Action:
            d = bot.bot.decide(SeatView.from_events(setup, events, p))
            self.why[pid] = d.explanation
            action: Action = d.action
            return action

        return decide

    def deck(self, table: RoomTable) -> Deck:
        """The table's decks: seeded by the hand's number when the server has a seed."""
        seed = self.settings.deck_seed
        if seed is None:
            return Deck()
        return Deck(seed=seed * 100_003 + table.hand_no + 1)


def practice_config(settings: Settings, structure: str, blinds: int, variant: str
                    ) -> TableConfig:
    """A practice table's settings: six seats, the person's game and blinds, the person's
    time to act and time bank (the bank grows as at every room table when there is one)."""
    rules = make_rules(structure, blinds, variant)
    bb = rules.big_blind
    bank = int(settings.time_bank * 1000)
    return TableConfig(
        game=GameKind(structure), variant=variant, small_blind=rules.small_blind,
        big_blind=bb, min_buy_in=MIN_BUY_IN_BB * bb, max_buy_in=MAX_BUY_IN_BB * bb,
        seats=SEATS, act_ms=max(100, int(settings.action_time * 1000)), bank_ms=bank,
        bank_add_ms=5_000 if bank else 0, bank_max_ms=max(120_000, bank), bots=False,
        public=False, spectators=True, practice=True,
        on_crash=OnCrash(settings.room_on_crash))


def open_table(room: Room, person: str, settings: Settings, name: str, structure: str,
               blinds: int, buy_in: int, variant: str,
               on_close: Callable[[PracticeTable], None]) -> tuple[PracticeTable, Job]:
    """A new practice table for ``person``, and the job its owner runs to seat them with
    ``buy_in`` from their bankroll and the five bots; refused (``Refused``: the table is
    gone again, the person back in the lobby) when the seat is."""
    config = practice_config(settings, structure, blinds, variant)
    table_id = secrets.token_urlsafe(12)
    kit = PracticeBots(table_id, settings, room.bankroll)
    running = room.open(config, table_id, kit)
    game = PracticeTable(room, running, kit, person, settings, on_close)
    room.practice[person] = (running, kit)

    def begin() -> None:
        try:
            game.begin(name, buy_in)
        except Exception:
            game.closed = True
            loop = asyncio.get_running_loop()
            loop.call_soon(room.close, table_id)
            loop.call_soon(game.on_close, game)
            raise

    return game, begin


class PracticeTable:
    """The person's view of their practice table (all their tabs share it): a subscriber of
    the room table that turns its records into the page's frames, results and states."""

    def __init__(self, room: Room, running: Running, bots: PracticeBots, person: str,
                 settings: Settings, on_close: Callable[[PracticeTable], None]) -> None:
        self.room = room
        self.running = running
        self.practice_bots = bots
        self.player_id = person
        self.settings = settings
        self.on_close = on_close
        self.sessions: set[Session] = set()  # the person's tabs
        self.money: Callable[[], dict[str, Any]] = dict  # the person's (``Me``): the hub's
        rt = running.table
        self.rules = rt.rules
        self.structure = rt.config.game.value
        self.variant = rt.config.variant
        # the page's decision numbers: the table's, from a start its id gives (an action
        # meant for another table never matches one of this table's)
        self.base = int.from_bytes(hashlib.sha256(rt.table_id.encode()).digest()[:5], "big")
        self.coach_on = False
        self.coach_advice: dict[int, dict[str, Any]] = {}
        self._coaching: set[int] = set()
        self.reader: coach.Reader | None = coach.Reader(settings.deck_seed or 0)
        self.frames: list[dict[str, Any]] = []
        self.frame: dict[str, Any] | None = None
        self.frame_events = 0
        self._frames: asyncio.Task[None] | None = None
        self._between = False  # a hand ended: the next waits for its frames and the bots
        self.explanations: list[dict[str, Any]] = []
        self.last_result: dict[str, Any] | None = None
        self.last_view: dict[str, Any] | None = None
        self.notice: Text | None = None
        self.sat_out_reason: Text | None = None
        self.leaving = False
        self.closed = False
        self._batch: list[int] = []  # the hand's events the records being published carry
        self._seen = len(rt.hand.events) if rt.hand is not None else 0
        self._scheduled = False
        self._tasks: set[asyncio.Task[Any]] = set()
        self.latencies: list[float] = []
        self._stamp: float | None = None  # when the action being handled came (the hub's)
        self._answer_stamp: float | None = None
        self.part = PracticePart(self)  # its sections of the state (below)
        # what the table asks its policy (room/policy.py), decided here: the pause before the
        # next deal, ends at (the table's clock; None: the room's pause after the hand), the
        # bots' thinking time, and whether the table waits for the page (after a restart)
        self._deal_at: int | None = None
        self._think_ms: int | None = None
        policy = rt.policy
        assert isinstance(policy, PracticePolicy)
        self._held = policy.held(rt)
        policy.attach(self)
        rt.subscribe(self, after=rt.seq)
        self.wake()

    # ------------------------------------------------------------------ reading
    @property
    def table(self) -> Table:
        return self.running.table.table

    @property
    def rt(self) -> RoomTable:
        return self.running.table

    @property
    def hand(self) -> Hand | None:
        return self.rt.hand

    @property
    def hand_no(self) -> int:
        return self.rt.hand_no

    @property
    def human_index(self) -> int | None:
        rt = self.rt
        if rt.hand is None or self.player_id not in rt.hand_players:
            return None
        return rt.hand_players.index(self.player_id)

    @property
    def decision(self) -> int | None:
        """The person's decision now (its number on the page), or None."""
        rt = self.rt
        hand = rt.hand
        hi = self.human_index
        if hand is None or hi is None or hand.actor != hi or rt.turn_seq is None \
                or self.frame is not None:
            return None
        return self.base + rt.turn_seq

    @property
    def seq(self) -> int | None:
        return self.decision

    @property
    def player(self) -> str | None:
        """The subscriber's viewer: the person while a tab of theirs is open (with none, the
        table gives them the disconnect grace when their turn comes)."""
        return self.player_id if self.sessions else None

    def human_money(self) -> tuple[int, int]:
        """The person's chips as the page shows them: (at the table, in the pot), the stack
        as the board is shown during a run-out (the result follows the cards), plus chips
        added during the hand."""
        s = self.table.seats[HUMAN_SEAT]
        if s is None:
            return 0, 0
        hand, hi = self.hand, self.human_index
        if self.frame is not None:
            you = self.frame["you"]
            if you is None:  # a run-out the person watched
                return s.chips + s.pending_chips, 0
            p = self.frame["players"][you]
            return int(p["stack"]) + s.pending_chips, int(p["total"])
        if hand is None or hi is None:
            return s.chips + s.pending_chips, 0
        return hand.stacks[hi] + s.pending_chips, hand.totals[hi]

    def _can_deal(self) -> bool:
        """Deal while the person plays, and while they sit out with a tab open (the bots play
        on); a person with no chips who has not sat out is waited for (add chips)."""
        s = self.table.seats[HUMAN_SEAT]
        if s is None or self.closed or self.leaving or self.table.ready_count() < 2:
            return False
        if s.sitting_out:
            return bool(self.sessions)
        return s.chips + s.pending_chips > 0

    def _idle(self) -> bool:
        """The person is not dealt in the hand: the bots play alone, at a watchable pace."""
        s = self.table.seats[HUMAN_SEAT]
        if s is None:
            return True
        if self.hand is not None:
            return self.human_index is None
        return s.sitting_out or s.sit_out_after_hand or s.waiting_for_big_blind

    # ------------------------------------------------------------------ the table's policy
    def deals(self) -> bool:
        return not self._between and self._can_deal()

    def deal_at(self) -> int | None:
        return self._deal_at

    def think_ms(self) -> int | None:
        return self._think_ms

    def held(self) -> bool:
        return self._held

    def hand_ended(self, table: RoomTable) -> None:
        return

    def wake(self) -> None:
        """Something changed (a tab opened or closed, the person came back): the table's
        owner decides whether to deal (:meth:`_wake`)."""
        self.running.owner.submit(self._wake)

    def _wake(self) -> None:
        """Deal or not, and go on after a restart once the page is back (in the owner's
        command: the table's scheduling fields, grouped here, are what a practice table's
        policy decides)."""
        rt = self.rt
        if self._held and self.sessions:  # restored after a restart, and the page is back:
            self._held = False  # the hand goes on now, the clock afresh with the grace
            self._poke()
        if rt.hand is None and self.deals():
            self._poke()
        if not self.sessions:
            rt._note_presence()

    def _poke(self) -> None:
        """Have the table's owner look at its timers now (a deal, a bot's turn)."""
        self.running.owner.submit(lambda: None)

    # ------------------------------------------------------------------ starting
    def begin(self, name: str, buy_in: int) -> None:
        """Seat the person (seat 0) and the five bots; the first hand is dealt once all sit
        (the owner's command)."""
        rt = self.rt
        rt.sit(self.player_id, name, buy_in, HUMAN_SEAT, wait_for_big_blind=False)
        self._seat_bots()
        self._wake()

    def _seat_bots(self) -> None:
        rt = self.rt
        bb = rt.config.big_blind
        top = MAX_BUY_IN_BB * bb
        for seat in range(1, SEATS):
            pid = self.practice_bots.player(seat)
            s = rt.table.seats[seat]
            if s is None and rt.seat_of(pid) is None:
                rt.sit(pid, self.practice_bots.names[pid], top, seat, wait_for_big_blind=False)
            elif s is not None and rt.seat_of(pid) == seat and \
                    s.chips + s.pending_chips < BOT_REBUY_BELOW_BB * bb:
                rt.add_chips(pid, top - s.chips - s.pending_chips)

    # ------------------------------------------------------------------ the table's records
    def send(self, message: dict[str, Any]) -> None:
        """A record of the table, as it is published (inside the table's command)."""
        kind = message["kind"]
        rt = self.rt
        if kind == "start":
            self._start_hand()
        elif kind == "event":
            self._event()
        elif kind == "end":
            self._hand_over()
        elif kind == "turn":
            self._batch = []
        elif kind == "left" and message["data"]["seat"] == HUMAN_SEAT:
            self._left()
        elif kind == "void":
            self.notice = t("The server restarted during the hand: it was called off and"
                            " every chip went back where it stood before it.")
        if kind in ("left", "void") and not rt.players and self.closed:
            asyncio.get_running_loop().call_soon(self.room.close, rt.table_id)
        self._schedule()

    def _start_hand(self) -> None:
        self._finish_frames()
        self._seen = 0
        self._batch = []
        self.explanations = []
        self.coach_advice = {}
        self.notice = None
        think = self.settings.think_delay
        if self.human_index is None:  # the person is not in this hand: a watchable pace
            think = max(think, self.settings.idle_pace)
        self._think_ms = int(think * 1000)

    def _event(self) -> None:
        rt = self.rt
        hand = rt.hand if rt.hand is not None else rt.last_hand
        if hand is None or self._seen >= len(hand.events):
            return
        i = self._seen
        self._seen += 1
        self._batch.append(i)
        e = hand.events[i]
        if not isinstance(e, ev.Acted):
            return
        players = rt.hand_players if rt.hand is not None else rt.last_players
        pid = players[e.player]
        if pid == self.player_id:
            self.running.pre.pop(pid, None)  # played: a pre-action was for this decision
            if e.timed_out and not self.leaving:
                self.sat_out_reason = t("You ran out of time: your hand was checked or folded"
                                        " and you are sitting out.")
            return
        why = self.practice_bots.why.pop(pid, None)
        if why is None:
            return
        self.explanations.append({
            "seat": rt.table.seat_of(e.player), "player": e.player,
            "name": hand.names[e.player], "street": hand.street,
            "action": words.log_lines(hand, [e])[0].to_json(), "why": why.to_json()})

    def _hand_over(self) -> None:
        """The hand ended: show its run-out street by street, then its result; the bots and
        the coach learn from it; the next hand waits for both."""
        rt = self.rt
        hand = rt.last_hand
        if hand is None:
            return
        self._between = True  # no deal until the result is shown
        self.running.pre.pop(self.player_id, None)
        hi = rt.last_players.index(self.player_id) if self.player_id in rt.last_players \
            else None
        boards = [i for i in self._batch if isinstance(hand.events[i], ev.BoardDealt)]
        self._batch = []
        result = self._result(hand, hi)
        self._learn(hand, hi)
        if boards:
            cuts = [boards[0]] + [i + 1 for i in boards]
            self.frames = [runout_frame(hand, k, hi) for k in cuts]
            self.frame = self.frames.pop(0)
            self.frame_events = int(self.frame.pop("_events", 0))
            self._frames = asyncio.get_running_loop().create_task(
                self._play_frames(hand, hi, result))
            return
        self._show(hand, hi, result)

    def _show(self, hand: Hand, hi: int | None, result: dict[str, Any]) -> None:
        self.frame, self.frames = None, []
        self.last_result = result
        self.last_view = hand_view(hand, hi)
        self._schedule()
        # between hands: the bots top up, then the pause, then the next deal
        self.running.owner.submit(self._next)

    def _next(self) -> None:
        rt = self.rt
        if rt.hand is not None or self.closed:
            return
        if not self.leaving:
            self._seat_bots()
        pause = self.settings.result_pause
        if self._idle():
            pause = max(pause, self.settings.idle_pace)
        self._deal_at = rt.clock.now_ms() + int(pause * 1000)
        self._between = False
        self._wake()
        self._schedule()

    def _learn(self, hand: Hand, hi: int | None) -> None:
        """The bots (and the coach's reader, from the person's seat) learn from the hand
        before the next one: on this loop, so never while a bot decides."""
        rt = self.rt
        for i, pid in enumerate(rt.last_players):
            bot = self.practice_bots.bots.get(pid)
            if bot is not None:
                try:
                    bot.hand_over(hand, i)
                except Exception:  # a bot that cannot learn still plays
                    log.exception("a practice bot could not learn from hand %s", hand.hand_id)
        if self.reader is not None and hi is not None:
            with contextlib.suppress(Exception):
                self.reader.hand_over(hand, hi)

    def _result(self, hand: Hand, hi: int | None) -> dict[str, Any]:
        hidden = t(REASONS_HIDDEN).to_json()
        # the bots' reasons, only for the hands that were shown: a reason ("a bluff", "for
        # value") tells a hand's strength as surely as its cards
        return result_json(hand, hi, self.rt.hand_no, [
            e if view.reason_seen(hand, view.Viewer.at(hi), e["player"])
            else {**e, "why": hidden, "hidden": True}
            for e in self.explanations])

    def _left(self) -> None:
        """The person's seat emptied (their chips are on their way back): the bots stand
        up and the table closes once they have."""
        if self.closed:
            return
        self.closed = True  # deals no more
        self.running.owner.submit(self._bots_leave)
        # the lobby once the command is done (its hand, if one ended, listed first)
        asyncio.get_running_loop().call_soon(self.on_close, self)

    def _bots_leave(self) -> None:
        rt = self.rt
        for pid in list(rt.players.values()):
            seat = rt.seat_of(pid)
            if is_bot(pid) and seat is not None and seat not in rt.leaving:
                rt.leave(pid)
        if not rt.players:
            self.room.close(rt.table_id)

    # ------------------------------------------------------------------ run-outs
    async def _play_frames(self, hand: Hand, hi: int | None, result: dict[str, Any]) -> None:
        try:
            while self.frames:
                await asyncio.sleep(self.settings.runout_delay)
                self.frame = self.frames.pop(0)
                self.frame_events = int(self.frame.pop("_events", 0))
                self._schedule()
            await asyncio.sleep(self.settings.runout_delay)
        finally:
            if self._frames is asyncio.current_task():
                self._frames = None
                self._show(hand, hi, result)

    def _finish_frames(self) -> None:
        """A new hand is dealt (the person asked for it): the run-out shown is over."""
        task, self._frames = self._frames, None
        if task is not None:
            task.cancel()
        self.frame, self.frames = None, []

    # ------------------------------------------------------------------ the person's messages
    def job(self, msg: Any, stamp: float, bankroll: int) -> Job | None:
        """The person's command at this table, checked by the practice table's rules and
        completed with what follows it here: the owner's job (None: nothing to do)."""
        if isinstance(msg, Act):
            return self.act(msg, stamp)
        if isinstance(msg, SitOut):
            return self.sit_out()
        if isinstance(msg, SitIn):
            return self.sit_in(msg.post)
        if isinstance(msg, AddChips):
            return self.add_chips(msg.amount, bankroll)
        if isinstance(msg, Leave):
            return self.leave()
        if isinstance(msg, Next):
            return self.next_hand()
        raise Refused(t("Unknown message type {kind}.", kind=repr(type(msg).__name__)),
                      "malformed")  # pragma: no cover - the door knows only the above

    def _then(self, job: Job, *after: Callable[[], Any]) -> Job:
        def run() -> Any:
            out = job()
            for fn in after:
                fn()
            return out

        return run

    def act(self, msg: Act, stamp: float | None = None) -> Job:
        now = self.decision
        if now is None:
            raise Refused(t("It is not your turn to act."), "not_your_turn")
        if msg.seq != now:
            raise Refused(t("That action was for an earlier decision; the table has"
                            " moved on."), "stale")
        turn = self.rt.turn_seq
        assert turn is not None

        def answered() -> None:
            self._answer_stamp = stamp  # the state it brings answers the click

        return self._then(table_job(self.running, self.player_id, msg, turn), answered)

    def sit_out(self) -> Job:
        return self._then(table_job(self.running, self.player_id, SitOut()), self._wake)

    def sit_in(self, post: bool = False) -> Job:
        """Come back. Blinds missed while sitting out are owed: by default the person waits
        for the big blind; ``post`` posts them (a live big blind and a dead small blind) and
        is dealt in at the next hand."""
        s = self.table.seats[HUMAN_SEAT]
        if s is None:
            raise Refused(t("You are not seated."), "no_seat")
        if s.chips + s.pending_chips <= 0:
            raise Refused(t("Add chips first."), "no_chips")

        def back() -> None:
            self.sat_out_reason = None

        return self._then(table_job(self.running, self.player_id, SitIn(post=post)), back,
                          self._wake, self._schedule)

    def add_chips(self, amount: int, bankroll: int) -> Job:
        """Take up to ``amount`` from the bankroll to the table."""
        amount = min(amount, bankroll)
        if amount <= 0:
            raise Refused(t("Your bankroll is empty: reset it to 10,000."), "no_bankroll")
        return self._then(table_job(self.running, self.player_id, AddChips(amount=amount)),
                          self._wake, self._schedule)

    def leave(self) -> Job | None:
        """Leave: at once when not in the hand, else after it (a decision pending is checked
        or folded at once)."""
        if self.leaving or self.closed:
            return None
        self.leaving = True  # deals no more (the table's policy asks: deals())
        return self._then(table_job(self.running, self.player_id, Leave()), self._schedule)

    def set_coach(self, on: bool) -> None:
        self.coach_on = on
        if on:
            self._coach()
        self._schedule()

    def next_hand(self) -> Job:
        """Skip the pause after a result."""
        def skip() -> None:
            rt = self.rt
            if rt.hand is None and not self._between:
                self._deal_at = rt.clock.now_ms()

        return skip

    def _coach(self) -> None:
        """Work out the advice for the decision in a worker thread: once per decision,
        however often the coach is switched on and off."""
        seq = self.decision
        hand = self.hand
        hi = self.human_index
        if seq is None or hand is None or hi is None:
            return
        if seq in self.coach_advice or seq in self._coaching:
            return
        self._coaching.add(seq)
        reader = self.reader
        seen = coach.Reader.view(hand, hi)  # the seat's view, as the engine has it
        variant = self.variant

        def advise() -> dict[str, Any]:
            # the reader's ranges are hold'em's; in Omaha the coach reads random hands
            ranges = reader.ranges(seen) if reader is not None and variant == "holdem" \
                else None
            return coach.advice(seen, self.settings.coach_samples, ranges=ranges)

        async def work() -> None:
            try:
                advice = await asyncio.to_thread(advise)
            finally:
                self._coaching.discard(seq)
            self.coach_advice[seq] = advice
            if self.decision == seq:
                self._schedule()

        task = asyncio.get_running_loop().create_task(work())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def stop(self) -> None:
        """The server is stopping: the table stays in the log (a restart resumes it)."""
        self._finish_frames()
        for task in list(self._tasks):
            task.cancel()

    # ------------------------------------------------------------------ what the page sees
    def _schedule(self) -> None:
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._send_state)

    def changed(self) -> None:
        """Something the page shows changed (a pre-action chosen): every tab is told."""
        self._schedule()

    def _send_state(self) -> None:
        self._scheduled = False
        if self.rt.unstored:  # ahead of its log (group commit): the state waits for it
            self.rt.when_stored(self._schedule)
            return
        if self.decision is not None and play_pre(self.running, self.player_id,
                                                  self._pre_played):
            return  # its records bring the next state
        if self.decision is not None and self.coach_on:
            self._coach()
        self.broadcast()

    def _pre_played(self, future: asyncio.Future[Any]) -> None:
        if future.cancelled() or future.exception() is not None:
            self._schedule()  # refused: the state as it is

    def state(self) -> TableState:
        """The table as the person sees it: the one state builder's (server/state.py), with
        a practice table's sections."""
        return table_state(self.running, self.player_id, self.part)

    def me(self) -> dict[str, Any]:
        """The person's money (``Me``): their bankroll's, set by the hub."""
        return self.money()

    def info(self) -> dict[str, Any] | None:
        """The tournament, at a sit-and-go's table (None here)."""
        return None

    def broadcast(self) -> None:
        """Send the current state to every tab of the person (only their seat's view): made
        and encoded once for all of them, each sent through its session."""
        if not self.sessions or self.closed:  # a table the person left tells them nothing
            return
        if self.rt.unstored:  # ahead of its log (group commit): nothing shown before stored
            self.rt.when_stored(self._schedule)
            return
        data = protocol.encode(self.state())
        stamp, self._answer_stamp = self._answer_stamp, None
        for session in list(self.sessions):
            session.send_state(data, stamp)


class PracticePart(Sections):
    """A practice table's sections of its states (:class:`PracticeTable`'s): the
    page's numbering of the person's decisions, the run-out shown street by street after a
    hand and the last hand as it ended, the coach, the result with the bots' reasons (while
    the coach is on), why the person was sat out, the person's bankroll, a sit-and-go's
    tournament."""

    def __init__(self, game: PracticeTable) -> None:
        self.game = game
        self.rules = game.rules  # the rules the table was opened with

    def number(self, turn: int) -> int | None:
        game = self.game
        return None if game.frame is not None else game.base + turn

    def shown(self, v: Viewer) -> tuple[Wire, Wire, bool] | None:
        game = self.game
        rt = game.rt
        frame = game.frame
        if frame is not None:  # a run-out: the board as far as it is shown
            hand = rt.last_hand
            assert hand is not None
            upto = game.frame_events
            lines = [x.to_json() for x in words.narration(hand).upto(upto)]
            return {**frame, "players": list(frame["players"])}, lines, True
        if rt.hand is None:  # the last hand as it ended (once its run-out was shown)
            return game.last_view, None, False
        return None

    def own(self, v: Viewer, state: TableState) -> None:
        game = self.game
        seq = state.seq
        state.coach_on = game.coach_on
        state.coach = as_wire(game.coach_advice.get(seq) if seq is not None and game.coach_on
                              else None)
        r = game.last_result
        # the bots' reasons only while the coach is on
        state.last_result = as_wire(r if r is None or game.coach_on else {**r, "explanations": []})
        state.sat_out_reason = words_wire(game.sat_out_reason)
        state.waiting = game.rt.hand is None and game.frame is None and not game._between \
            and not game._can_deal()
        state.leaving = game.leaving
        state.notice = words_wire(game.notice)
        state.me = as_wire(game.me())
        state.tournament = as_wire(game.info())
